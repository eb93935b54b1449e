//! History pages and counts over HTTP.

use super::*;

/// History pages cover every record once in order; counts report per disposition.
#[tokio::test]
async fn history_pages_and_counts_over_http() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let plan: Vec<(&str, &str, OutcomeStatus, Option<Disposition>)> = vec![
            ("host-a", "probe", OutcomeStatus::FalsePositive, None),
            ("host-a", "scan", OutcomeStatus::Success, None),
            ("host-b", "probe", OutcomeStatus::Blocked, None),
            (
                "host-a",
                "probe",
                OutcomeStatus::Unknown,
                Some(Disposition::TransportFailure),
            ),
            (
                "host-a",
                "scan",
                OutcomeStatus::NeedsReview,
                Some(Disposition::NotApplicable),
            ),
            ("host-a", "probe", OutcomeStatus::Success, None),
            ("host-b", "scan", OutcomeStatus::FalsePositive, None),
        ];
        let mut written = Vec::new();
        for (i, (subject, action, status, disposition)) in plan.iter().enumerate() {
            let w = client
                .observe(&observe_request(
                    &s,
                    outcome(subject, action, &format!("c{i}"), Stage::Active, *status),
                    *disposition,
                ))
                .await
                .unwrap();
            written.push(w.record);
        }
        let of_a: Vec<_> = written
            .iter()
            .filter(|r| r.outcome.subject == "host-a")
            .cloned()
            .collect();
        assert_eq!(of_a.len(), 5);

        // Paging with limit 2 covers every record of the subject exactly once, ascending.
        let mut seen = Vec::new();
        let mut after: Option<String> = None;
        let mut pages = 0;
        loop {
            let page = client
                .attempt_history(&s, "host-a", None, after.as_deref(), 2)
                .await
                .unwrap();
            pages += 1;
            assert!(page.records.len() <= 2, "{backend:?}: page too long");
            seen.extend(page.records);
            match page.next_cursor {
                Some(c) => after = Some(c),
                None => break,
            }
            assert!(pages <= 10, "{backend:?}: paging does not end");
        }
        assert_eq!(seen, of_a, "{backend:?}");
        assert!(seen.windows(2).all(|w| w[0].sequence < w[1].sequence));
        // Each record says who wrote it and when the server recorded it.
        assert!(seen.iter().all(|r| r.recorded_by == "agent"), "{seen:?}");
        let times: Vec<praxis_domain::time::Timestamp> = seen
            .iter()
            .map(|r| {
                praxis_domain::time::Timestamp::parse_rfc3339(&r.recorded_at)
                    .expect("an RFC 3339 time")
            })
            .collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
        let unique: BTreeSet<u64> = seen.iter().map(|r| r.sequence).collect();
        assert_eq!(unique.len(), seen.len());

        // The action filter.
        let probe = client
            .attempt_history(&s, "host-a", Some("probe"), None, 500)
            .await
            .unwrap();
        let want: Vec<_> = of_a
            .iter()
            .filter(|r| r.outcome.action_id == "probe")
            .cloned()
            .collect();
        assert_eq!(probe.records, want, "{backend:?}");
        assert_eq!(probe.records.len(), 3);
        assert_eq!(probe.next_cursor, None);
        let none = client
            .attempt_history(&s, "host-c", None, None, 500)
            .await
            .unwrap();
        assert!(none.records.is_empty());

        // Counts per disposition, every disposition listed, with the total.
        let counts = client.attempt_counts(&s, None, None).await.unwrap();
        assert_eq!(counts.total, 7, "{backend:?}");
        assert_eq!(counts.counts.len(), 9, "every disposition is listed");
        assert_eq!(counts.counts.values().sum::<u64>(), counts.total);
        let expect = [
            (Disposition::ConfirmedPositive, 2),
            (Disposition::VerificationRejected, 2),
            (Disposition::BlockedByTarget, 1),
            (Disposition::TransportFailure, 1),
            (Disposition::NotApplicable, 1),
            (Disposition::ConfirmedNegative, 0),
            (Disposition::BlockedByPolicy, 0),
            (Disposition::ExecutorFailure, 0),
            (Disposition::VerificationInconclusive, 0),
        ];
        for (d, n) in expect {
            assert_eq!(counts.counts[&d], n, "{backend:?} {d:?}");
        }
        let a = client
            .attempt_counts(&s, Some("host-a"), None)
            .await
            .unwrap();
        assert_eq!(a.total, 5);
        assert_eq!(a.counts[&Disposition::ConfirmedPositive], 2);
        let a_probe = client
            .attempt_counts(&s, Some("host-a"), Some("probe"))
            .await
            .unwrap();
        assert_eq!(a_probe.total, 3, "{backend:?}");
        assert_eq!(a_probe.counts[&Disposition::VerificationRejected], 1);
        assert_eq!(a_probe.counts[&Disposition::TransportFailure], 1);
        assert_eq!(a_probe.counts[&Disposition::ConfirmedPositive], 1);

        // Bad queries.
        let q = "project_id=p1&agent_id=a1&visibility=shared";
        let cases: Vec<(String, &str, Option<&str>)> = vec![
            (
                format!("/api/v1/attempts/history?{q}&subject=host-a&limit=0"),
                "invalid_query",
                Some("limit"),
            ),
            (
                format!("/api/v1/attempts/history?{q}&subject=host-a&limit=501"),
                "invalid_query",
                Some("limit"),
            ),
            (
                format!("/api/v1/attempts/history?{q}&subject=host-a&after=x"),
                "invalid_cursor",
                Some("after"),
            ),
            (
                format!("/api/v1/attempts/history?{q}"),
                "invalid_query",
                None,
            ),
            (
                format!("/api/v1/attempts/counts?{q}&action_id=probe"),
                "invalid_query",
                Some("action_id"),
            ),
            (
                format!("/api/v1/attempts/counts?{q}&bogus=1"),
                "invalid_query",
                None,
            ),
        ];
        for (url, code, field) in cases {
            let (status, resp) = get_raw(&server, &url, Some(&token)).await;
            assert_eq!(
                status,
                400,
                "{backend:?} {url}: {}",
                String::from_utf8_lossy(&resp)
            );
            assert_eq!(
                problem(&resp),
                (code.to_owned(), field.map(str::to_owned)),
                "{backend:?} {url}"
            );
        }
        let p = refused(client.attempt_counts(&s, None, Some("probe")).await);
        assert_eq!((p.status, p.code.as_str()), (400, "invalid_query"));
        assert_eq!(p.field.as_deref(), Some("action_id"));
    }
}
