//! Exact counts after a known sequence of requests, on both stores.

use super::*;

use praxis_testkit::BACKENDS;

const REQUESTS: &str = "praxis_http_requests_total";
const DURATION: &str = "praxis_http_request_duration_seconds";

/// Every route label is `unmatched` or a path template of the served
/// OpenAPI document; no request's id leaks into any label.
fn assert_routes_are_templates(e: &Exposition, expected: &Expected, text_ids: &str) {
    let document: Value = serde_json::from_str(&praxis_server::openapi::document()).unwrap();
    let templates: BTreeSet<&str> = document["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let routes: BTreeSet<&str> = e
        .samples
        .iter()
        .filter_map(|s| s.labels.get("route").map(String::as_str))
        .collect();
    assert!(routes.contains("/api/v1/records/{id}"), "{routes:?}");
    for route in &routes {
        assert!(
            *route == "unmatched" || templates.contains(route),
            "route label {route:?} is not a template"
        );
    }
    let values = label_values(e);
    for id in &expected.ids {
        assert!(
            !values.iter().any(|v| v.contains(id.as_str())) && !text_ids.contains(id.as_str()),
            "{id} leaked into /metrics"
        );
    }
}

#[tokio::test]
async fn metrics_count_exactly_what_was_answered_and_acknowledged() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let expected = traffic(&server).await;
        let e = scrape(&server).await;
        let engine = server.engine.kind();

        // Requests, by route template, method and status class; the
        // histogram's count agrees with the counter.
        let route = |method: &str, route: &str, class: &str| {
            let labels = [
                ("method", method),
                ("route", route),
                ("status_class", class),
            ];
            let n = e.get(REQUESTS, &labels);
            assert_eq!(n, e.get(&format!("{DURATION}_count"), &labels), "{route}");
            n
        };
        assert_eq!(route("POST", "/api/v1/attempts", "2xx"), 5, "{backend:?}");
        assert_eq!(route("POST", "/api/v1/attempts", "4xx"), 2);
        assert_eq!(route("POST", "/api/v1/attempts/assess", "2xx"), 1);
        assert_eq!(route("POST", "/api/v1/records", "2xx"), 2);
        assert_eq!(route("POST", "/api/v1/records", "4xx"), 1);
        assert_eq!(route("GET", "/api/v1/records/{id}", "2xx"), 1);
        assert_eq!(route("GET", "/api/v1/records/{id}", "4xx"), 1);
        assert_eq!(route("GET", "unmatched", "4xx"), 1);
        assert_eq!(route("POST", "/api/v1/proposals/{id}/withdraw", "2xx"), 1);
        assert_eq!(route("POST", "/api/v1/proposals/{id}/withdraw", "4xx"), 1);
        assert_eq!(route("POST", "/api/v1/credentials", "2xx"), 2);

        // Responses by exact status, and problems by code.
        for (status, n) in [("403", 1), ("404", 2), ("409", 1), ("422", 2)] {
            let got = e.get("praxis_http_responses_total", &[("status", status)]);
            assert_eq!(got, n, "{status}");
        }
        let problems: BTreeMap<(String, String), u64> = e
            .samples
            .iter()
            .filter(|s| s.name == "praxis_http_problems_total")
            .map(|s| {
                (
                    (s.labels["code"].clone(), s.labels["status"].clone()),
                    s.value as u64,
                )
            })
            .collect();
        let want: BTreeMap<(String, String), u64> = [
            ("invalid_disposition", "422"),
            ("missing_grant", "403"),
            ("not_found", "404"),
            ("proposal_not_open", "409"),
            ("record_not_found", "404"),
            ("record_rejected", "422"),
        ]
        .into_iter()
        .map(|(c, s)| ((c.to_owned(), s.to_owned()), 1))
        .collect();
        assert_eq!(problems, want, "{backend:?}");

        // Observations: only what was acknowledged, a replay apart.
        let mut observed = BTreeMap::new();
        for s in e
            .samples
            .iter()
            .filter(|s| s.name == "praxis_observations_total")
        {
            if s.value > 0.0 {
                let key = (s.labels["disposition"].clone(), s.labels["write"].clone());
                observed.insert(key, s.value as u64);
            }
        }
        let want: BTreeMap<(String, String), u64> = [
            (("confirmed_positive", "inserted"), 1),
            (("verification_rejected", "inserted"), 2),
            (("verification_rejected", "unchanged"), 1),
        ]
        .into_iter()
        .map(|((d, w), n)| ((d.to_owned(), w.to_owned()), n))
        .collect();
        assert_eq!(observed, want, "{backend:?}");
        assert_eq!(e.get("praxis_idempotent_replays_total", &[]), 1);

        // Assessments and suppressions.
        for (r, n) in [("suppress", 1), ("continue", 1), ("explore", 1)] {
            assert_eq!(
                e.get("praxis_assessments_total", &[("recommendation", r)]),
                n
            );
        }
        let suppressions = |state| e.get("praxis_suppressions_total", &[("state", state)]);
        assert_eq!(
            (suppressions("suppressed"), suppressions("reexplore")),
            (1, 0)
        );

        // Records: one verdict of each kind, findings by rule exactly as answered.
        for verdict in ["passed", "unchanged", "rejected"] {
            let n = e.get("praxis_record_submissions_total", &[("verdict", verdict)]);
            assert_eq!(n, 1, "{verdict}");
        }
        let findings: BTreeMap<String, u64> = e
            .samples
            .iter()
            .filter(|s| s.name == "praxis_record_findings_total")
            .map(|s| (s.labels["rule"].clone(), s.value as u64))
            .collect();
        assert_eq!(findings, expected.findings);

        // Proposals: the outcomes, and the same as the ledger's events.
        let outcome = |o| e.get("praxis_proposals_total", &[("outcome", o)]);
        assert_eq!(
            [
                outcome("created"),
                outcome("withdrawn"),
                outcome("approved"),
                outcome("promoted"),
                outcome("promotion_started"),
                outcome("promotion_failed"),
            ],
            [2, 1, 1, 1, 0, 0],
            "{backend:?}"
        );
        let events = server
            .engine
            .ledger()
            .events("t1", 0, 100_000)
            .await
            .unwrap();
        for s in e
            .samples
            .iter()
            .filter(|s| s.name == "praxis_proposals_total")
        {
            let kind = format!("proposal.{}", s.labels["outcome"]);
            let logged = events.iter().filter(|ev| ev.kind == kind).count();
            assert_eq!(s.value as usize, logged, "{kind}");
        }

        // The writer: nothing failed, every commit timed, labelled by engine.
        let by_engine = [("engine", engine)];
        assert_eq!(e.get("praxis_commit_failures_total", &by_engine), 0);
        let batches = e.get("praxis_commit_batch_size_count", &by_engine);
        assert!(batches > 0);
        assert_eq!(
            batches,
            e.get("praxis_commit_duration_seconds_count", &by_engine)
        );
        let version = env!("CARGO_PKG_VERSION");
        let info = [("engine", engine), ("version", version)];
        assert_eq!(e.get("praxis_build_info", &info), 1);

        let (_, _, text) = raw(
            Method::GET,
            &format!("{}/metrics", server.base),
            None,
            &[],
            None,
        )
        .await;
        assert_routes_are_templates(&e, &expected, &String::from_utf8(text).unwrap());
        assert!(!label_values(&e).iter().any(|v| v.contains("prx_")));
    }
}

/// Each sequential write is one commit of one write, timed in seconds.
#[tokio::test]
async fn writer_metrics_count_each_commit_in_seconds() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (_, _, token) = crate::support::client_as(
            &server,
            "agent",
            &["experience_write"],
            vec![crate::learning::scope()],
        )
        .await;
        let engine = server.engine.kind();
        let by_engine = [("engine", engine)];
        let before = scrape(&server).await;
        for i in 0..4 {
            let body = observation("host-w", "probe", &format!("w{i}"), OutcomeStatus::Success);
            let r = call(
                &server,
                Method::POST,
                "/api/v1/attempts",
                &token,
                None,
                Some(&body),
            );
            assert_eq!(r.await.status, 201);
        }
        let after = scrape(&server).await;
        let delta = |name: &str, labels: &[(&str, &str)]| {
            after.get(name, labels) - before.get(name, labels)
        };
        assert_eq!(delta("praxis_commit_batch_size_count", &by_engine), 4);
        assert_eq!(delta("praxis_commit_batch_size_sum", &by_engine), 4);
        let one = [("engine", engine), ("le", "1")];
        assert_eq!(delta("praxis_commit_batch_size_bucket", &one), 4);
        assert_eq!(delta("praxis_commit_duration_seconds_count", &by_engine), 4);
        let sum = |e: &Exposition| {
            let labels = by_engine.map(|(k, v)| (k.to_owned(), v.to_owned())).into();
            e.value("praxis_commit_duration_seconds_sum", &labels)
                .unwrap()
        };
        let seconds = sum(&after) - sum(&before);
        assert!(
            seconds > 0.0 && seconds < 40.0,
            "{seconds} s for 4 commits: the sum is in seconds"
        );
        let within = [("engine", engine), ("le", "10")];
        assert_eq!(delta("praxis_commit_duration_seconds_bucket", &within), 4);
        assert_eq!(delta("praxis_commit_failures_total", &by_engine), 0);
    }
}
