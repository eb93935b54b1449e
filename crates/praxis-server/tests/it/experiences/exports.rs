//! Exports and their totals, withdrawal and its idempotency, and history
//! paging.

use super::*;

/// Largest count the contract carries exactly (2^53 − 1).
const MAX_SAFE: u64 = 9_007_199_254_740_991;

#[tokio::test]
async fn exports_sort_sum_without_overflow_and_keep_unknown_parts_unknown() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        // a-1: 70 known, then failed with the cost unknown and no latency.
        lab.record("a-1").await;
        lab.accept("a-1", "e1", 1, "unknown", Some(70), None).await;
        lab.accept("a-1", "e2", 2, "failed", None, None).await;
        lab.record("b-2").await;
        lab.accept("b-2", "e1", 1, "succeeded", Some(100), Some(20))
            .await;
        lab.record("c-3").await;
        lab.accept("c-3", "e1", 1, "cancelled", Some(5), Some(7))
            .await;
        lab.record("d-4").await;
        lab.accept("d-4", "e1", 1, "unknown", Some(MAX_SAFE), Some(MAX_SAFE))
            .await;
        lab.record("e-5").await;
        lab.accept("e-5", "e1", 1, "succeeded", Some(MAX_SAFE), Some(MAX_SAFE))
            .await;

        let export = lab
            .post(
                EXPORT,
                &export_body(&[("c-3", "e1"), ("a-1", "e2"), ("b-2", "e1")]),
            )
            .await;
        let x = export.ok(200);
        assert_eq!(x["method_version"], "praxis.experience-export.v1");
        let ids: Vec<&str> = x["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["attempt_id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["a-1", "b-2", "c-3"], "sorted by attempt id");
        let a = &x["events"][0];
        null_member(a, "cost_units");
        assert_eq!(
            (a["event_id"].clone(), a["observed_cost_units"].clone()),
            (json!("e2"), json!(70))
        );
        assert_eq!(a["context_digest"], lab.context["context"]["digest"]);
        assert_eq!(a["accounting_unit"], "tokens");
        let read = lab.post(READ_EVENT, &read_event_body("a-1", "e2")).await;
        assert_eq!(a["event_digest"], read.ok(200)["event"]["event_digest"]);
        assert_eq!(
            x["summary"],
            json!({"attempts": 3, "succeeded": 1, "failed": 1, "cancelled": 1, "unknown": 0,
                "cost_units": {"known_reports": 2, "unknown_reports": 1,
                    "reported_total": null, "observed_lower_bound": "175"},
                "latency_ms": {"known_reports": 2, "unknown_reports": 1,
                    "reported_total": null, "observed_lower_bound": "27"}})
        );
        hex64(&x["export_digest"]);
        // The same observations in any order: the same bytes.
        for order in [
            [("c-3", "e1"), ("a-1", "e2"), ("b-2", "e1")],
            [("a-1", "e2"), ("b-2", "e1"), ("c-3", "e1")],
        ] {
            let again = lab.post(EXPORT, &export_body(&order)).await;
            again.ok(200);
            assert_eq!(again.body, export.body);
        }
        // An earlier event of a-1 is another observation, another digest.
        let earlier = lab
            .post(
                EXPORT,
                &export_body(&[("a-1", "e1"), ("b-2", "e1"), ("c-3", "e1")]),
            )
            .await;
        let earlier = earlier.ok(200);
        assert_ne!(earlier["export_digest"], x["export_digest"]);
        assert_eq!(earlier["summary"]["cost_units"]["reported_total"], "175");

        // Every part known: totals as decimal strings, past 2^53 exactly.
        let big = lab
            .post(
                EXPORT,
                &export_body(&[("e-5", "e1"), ("d-4", "e1"), ("b-2", "e1")]),
            )
            .await;
        let sum = (2 * u128::from(MAX_SAFE) + 100).to_string();
        let latency = (2 * u128::from(MAX_SAFE) + 20).to_string();
        let s = &big.ok(200)["summary"];
        assert_eq!(
            (s["unknown"].clone(), s["succeeded"].clone()),
            (json!(1), json!(2))
        );
        assert_eq!(
            s["cost_units"],
            json!({"known_reports": 3, "unknown_reports": 0,
                "reported_total": sum, "observed_lower_bound": sum})
        );
        assert_eq!(s["latency_ms"]["reported_total"], json!(latency));

        // 1 to 64 events, at most one per attempt, one accounting unit.
        lab.post(EXPORT, &export_body(&[]))
            .await
            .refused(422, "invalid_field", Some("/events"));
        let names: Vec<String> = (0..65).map(|i| format!("x-{i}")).collect();
        let many: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "e1")).collect();
        lab.post(EXPORT, &export_body(&many))
            .await
            .refused(422, "invalid_field", Some("/events"));
        let twice = lab
            .post(EXPORT, &export_body(&[("a-1", "e1"), ("a-1", "e2")]))
            .await;
        twice.refused(422, "invalid_field", Some("/events/1/attempt_id"));
        let mut cents = record_body("f-6");
        cents["experience"]["accounting_unit"] = json!("usd-cents");
        lab.post(RECORD, &cents).await.ok(201);
        lab.accept("f-6", "e1", 1, "failed", Some(1), None).await;
        let mixed = lab
            .post(EXPORT, &export_body(&[("a-1", "e1"), ("f-6", "e1")]))
            .await;
        mixed.refused(422, "invalid_field", Some("/events/1/attempt_id"));
        // Missing attempts and events are named by their position.
        lab.post(EXPORT, &export_body(&[("a-1", "e1"), ("z-9", "e1")]))
            .await
            .refused(404, "experience_not_found", Some("/events/1/attempt_id"));
        lab.post(EXPORT, &export_body(&[("b-2", "e1"), ("a-1", "e9")]))
            .await
            .refused(404, "observation_not_found", Some("/events/1/event_id"));
        // A withdrawn observation is not exported; the others still are.
        let digest = read.json["event"]["event_digest"].as_str().unwrap();
        lab.post(WITHDRAW, &withdraw_body("w-1", "a-1", "e2", digest))
            .await
            .ok(201);
        lab.post(EXPORT, &export_body(&[("b-2", "e1"), ("a-1", "e2")]))
            .await
            .refused(409, "observation_withdrawn", Some("/events/1"));
        let still = lab.post(EXPORT, &export_body(&[("a-1", "e1")])).await;
        still.ok(200);
    }
}

#[tokio::test]
async fn a_withdrawal_is_irreversible_idempotent_and_keeps_history() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        let example = serde_json::to_value(ex::record()).unwrap();
        lab.post(RECORD, &example).await.ok(201);
        let reported = lab
            .post(REPORT, &serde_json::to_value(ex::report()).unwrap())
            .await;
        let event = reported.ok(201)["event"].clone();
        let digest = hex64(&event["event_digest"]);
        assert_eq!(digest, ex::EVENT_DIGEST, "the example's digest is fixed");
        let inspect = inspect_body(ex::ATTEMPT, ex::EVENT);
        let before = lab.post(INSPECT, &inspect).await;
        assert_eq!(
            before.ok(200),
            &json!({"contract_version": 1, "withdrawn": false, "withdrawal": null})
        );

        // Both capabilities are needed, each alone is not enough.
        let request = serde_json::to_value(ex::withdraw()).unwrap();
        for caps in [
            &["experience_evidence_admin"][..],
            &["experience_read"],
            &[
                "experience_evidence_admin",
                "experience_write",
                "experience_report",
                "policy_admin",
            ],
        ] {
            let token = lab.token("auditor", caps, vec![scope()]).await;
            post(lab.base(), &token, WITHDRAW, &request).await.refused(
                403,
                "missing_capability",
                None,
            );
        }
        let auditor = lab
            .token(
                "auditor",
                &["experience_evidence_admin", "experience_read"],
                vec![scope()],
            )
            .await;
        let withdraw = |body: Value| {
            let (base, token) = (lab.base().to_owned(), auditor.clone());
            async move { post(&base, &token, WITHDRAW, &body).await }
        };
        let count = learning_events(&lab.server).await;

        // A digest that is not the event's, or not a digest: 422.
        let mut wrong = request.clone();
        wrong["observation"]["event_digest"] = json!("0".repeat(64));
        withdraw(wrong)
            .await
            .refused(422, "invalid_field", Some("/observation/event_digest"));
        let mut malformed = request.clone();
        malformed["observation"]["event_digest"] = json!("xyz");
        withdraw(malformed)
            .await
            .refused(422, "invalid_field", Some("/observation/event_digest"));
        // A reason with a credential in it: 422, and the secret not echoed.
        let secret = "ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U";
        for reason in [format!("see {secret}"), " ".into()] {
            let mut leaky = request.clone();
            leaky["reason"] = json!(reason);
            let r = withdraw(leaky).await;
            r.refused(422, "invalid_field", Some("/reason"));
            assert!(!String::from_utf8_lossy(&r.body).contains(secret));
        }
        // An event that does not exist: 404.
        let mut missing = request.clone();
        missing["observation"]["event_id"] = json!("e9");
        withdraw(missing)
            .await
            .refused(404, "observation_not_found", Some("/observation"));
        assert_eq!(learning_events(&lab.server).await, count);

        // Withdrawn: a receipt, one event.
        let first = withdraw(request.clone()).await;
        let receipt = first.ok(201)["withdrawal"].clone();
        assert_eq!(receipt["idempotency_key"], "w-1");
        assert_eq!(receipt["observation"], request["observation"]);
        assert_eq!(receipt["reason"], request["reason"]);
        assert_eq!(receipt["actor"]["subject"], "auditor");
        hex64(&receipt["withdrawal_digest"]);
        hex64(&receipt["receipt_digest"]);
        assert_eq!(learning_events(&lab.server).await, count + 1);
        // The same key and request: the original receipt, byte for byte.
        let again = withdraw(request.clone()).await;
        again.ok(200);
        assert_eq!(again.body, first.body);
        // Another auditor's identical request under the key: a key answers
        // its own subject's retries only.
        let other_auditor = lab
            .token(
                "auditor-2",
                &["experience_evidence_admin", "experience_read"],
                vec![scope()],
            )
            .await;
        post(lab.base(), &other_auditor, WITHDRAW, &request)
            .await
            .refused(409, "idempotency_conflict", Some("/idempotency_key"));
        // The same key for another request: 409.
        let mut other_reason = request.clone();
        other_reason["reason"] = json!("Another reason.");
        withdraw(other_reason)
            .await
            .refused(409, "idempotency_conflict", Some("/idempotency_key"));
        // Another key for the same observation: already withdrawn.
        let mut other_key = request.clone();
        other_key["idempotency_key"] = json!("w-2");
        withdraw(other_key).await.refused(
            409,
            "experience_already_withdrawn",
            Some("/observation"),
        );
        assert_eq!(learning_events(&lab.server).await, count + 1);

        // Inspection and the event's read name the receipt; history and the
        // experience are as they were.
        let after = lab.post(INSPECT, &inspect).await;
        assert_eq!(
            after.ok(200),
            &json!({"contract_version": 1, "withdrawn": true, "withdrawal": receipt})
        );
        let read = lab
            .post(READ_EVENT, &serde_json::to_value(ex::read_event()).unwrap())
            .await;
        assert_eq!(read.ok(200)["event"], event);
        assert_eq!(read.json["withdrawal"], receipt);
        let history = lab
            .post(HISTORY, &history_body(ex::ATTEMPT, None, None))
            .await;
        assert_eq!(history.ok(200)["events"], json!([event]));
        assert_eq!(lab.read(ex::ATTEMPT).await, reported.json["experience"]);
        // The attempt goes on; the new event is not withdrawn.
        let next = lab
            .accept(ex::ATTEMPT, "e2", 2, "failed", Some(1_300), None)
            .await;
        assert_eq!(next["event"]["revision"], 3);
        let inspect_next = lab.post(INSPECT, &inspect_body(ex::ATTEMPT, "e2")).await;
        assert_eq!(inspect_next.ok(200)["withdrawn"], false);
        lab.post(INSPECT, &inspect_body(ex::ATTEMPT, "e9"))
            .await
            .refused(404, "observation_not_found", Some("/observation/event_id"));
        // And the receipt is still the original one, after the later event.
        let again = withdraw(request.clone()).await;
        again.ok(200);
        assert_eq!(again.body, first.body);
        // Another auditor's identical request under the key: a key answers
        // its own subject's retries only.
        let other_auditor = lab
            .token(
                "auditor-2",
                &["experience_evidence_admin", "experience_read"],
                vec![scope()],
            )
            .await;
        post(lab.base(), &other_auditor, WITHDRAW, &request)
            .await
            .refused(409, "idempotency_conflict", Some("/idempotency_key"));
    }
}

#[tokio::test]
async fn history_pages_with_cursors_bound_to_their_attempt() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        lab.record("dev-1").await;
        let mut events = Vec::new();
        for i in 1..=5u64 {
            let outcome = if i == 5 { "failed" } else { "unknown" };
            let r = lab
                .accept("dev-1", &format!("e{i}"), i, outcome, Some(i * 10), None)
                .await;
            events.push(r["event"].clone());
        }
        let all = lab.post(HISTORY, &history_body("dev-1", None, None)).await;
        assert_eq!(all.ok(200)["events"], json!(events));
        null_member(&all.json, "next_cursor");

        // Pages of two: 2, 2, 1, the last without a cursor.
        let mut after: Option<String> = None;
        let mut paged = Vec::new();
        let mut pages = 0;
        loop {
            let page = lab
                .post(HISTORY, &history_body("dev-1", after.as_deref(), Some(2)))
                .await;
            let page = page.ok(200).clone();
            pages += 1;
            let got = page["events"].as_array().unwrap();
            assert_eq!(got.len(), if pages < 3 { 2 } else { 1 });
            paged.extend(got.iter().cloned());
            match page["next_cursor"].as_str() {
                Some(c) => after = Some(c.to_owned()),
                None => break,
            }
        }
        assert_eq!(pages, 3);
        assert_eq!(json!(paged), json!(events));

        // A cursor of another attempt's history is not a cursor of this one.
        lab.record("dev-2").await;
        lab.accept("dev-2", "e1", 1, "unknown", None, None).await;
        lab.accept("dev-2", "e2", 2, "unknown", None, None).await;
        let other = lab
            .post(HISTORY, &history_body("dev-2", None, Some(1)))
            .await;
        let cursor = other.ok(200)["next_cursor"].as_str().unwrap().to_owned();
        let r = lab
            .post(HISTORY, &history_body("dev-1", Some(&cursor), Some(2)))
            .await;
        r.refused(400, "invalid_cursor", Some("/after"));
        let r = lab
            .post(HISTORY, &history_body("dev-2", Some(&cursor), Some(2)))
            .await;
        assert_eq!(r.ok(200)["events"].as_array().unwrap().len(), 1);
        for limit in [0, 501] {
            lab.post(HISTORY, &history_body("dev-1", None, Some(limit)))
                .await
                .refused(422, "invalid_field", Some("/limit"));
        }
        lab.post(HISTORY, &history_body("dev-9", None, None))
            .await
            .refused(404, "experience_not_found", Some("/attempt_id"));
    }
}
