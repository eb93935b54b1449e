//! Recording, reporting, the outcome state machine, consumption,
//! concurrent reports on one revision, parents and lineage.

use super::*;

#[tokio::test]
async fn recording_is_answered_once_and_replayed_to_its_recorder_only() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        let before = learning_events(&lab.server).await;
        let created = lab.post(RECORD, &record_body("dev-1")).await;
        let body = created.ok(201);
        assert_eq!(body["contract_version"], 1);
        let e = &body["experience"];
        let sent = &record_body("dev-1")["experience"];
        for member in [
            "id",
            "context_id",
            "reporter_subject",
            "accounting_unit",
            "input",
        ] {
            assert_eq!(e[member], sent[member], "{member}");
        }
        assert_eq!(e["context_digest"], lab.context["context"]["digest"]);
        assert_eq!(
            (e["revision"].clone(), e["depth"].clone()),
            (json!(1), json!(1))
        );
        for member in [
            "parent",
            "outcome",
            "reported_cost_units",
            "reported_latency_ms",
            "observed_cost_units",
            "observed_latency_ms",
            "last_event_digest",
        ] {
            null_member(e, member);
        }
        assert_eq!(e["actor"]["subject"], ex::REPORTER);
        hex64(&e["attempt_digest"]);
        hex64(&e["receipt_digest"]);
        assert_eq!(learning_events(&lab.server).await, before + 1);

        // An identical retry by its recorder, even with another credential
        // and after events: the original answer, byte for byte.
        lab.accept("dev-1", "e1", 1, "failed", Some(10), None).await;
        let other = lab
            .token(ex::REPORTER, &["experience_write"], vec![scope()])
            .await;
        let again = post(lab.base(), &other, RECORD, &record_body("dev-1")).await;
        again.ok(200);
        assert_eq!(again.body, created.body);
        // The same attempt by another subject, or other content: 409.
        let writer = lab
            .token("writer", &["experience_write"], vec![scope()])
            .await;
        post(lab.base(), &writer, RECORD, &record_body("dev-1"))
            .await
            .refused(409, "idempotency_conflict", Some("/experience/id"));
        let mut changed = record_body("dev-1");
        changed["experience"]["accounting_unit"] = json!("usd-cents");
        lab.post(RECORD, &changed).await.refused(
            409,
            "idempotency_conflict",
            Some("/experience/id"),
        );
        // An unregistered context: 422.
        let mut unknown = record_body("dev-2");
        unknown["experience"]["context_id"] = json!("context-v9");
        lab.post(RECORD, &unknown).await.refused(
            422,
            "unknown_reference",
            Some("/experience/context_id"),
        );
        // Field rules and unknown members.
        let mut bad = record_body("dev-2");
        bad["experience"]["input"]["sha256"] = json!("ABC");
        lab.post(RECORD, &bad).await.refused(
            422,
            "invalid_field",
            Some("/experience/input/sha256"),
        );
        let mut bad = record_body("dev-2");
        bad["experience"]["colour"] = json!("red");
        lab.post(RECORD, &bad)
            .await
            .refused(400, "unknown_field", Some("/experience/colour"));
        assert_eq!(learning_events(&lab.server).await, before + 2);

        // A private scope's attempt names its caller as the reporter.
        let alice = lab
            .token("alice", &["experience_write"], vec![private_scope()])
            .await;
        let mut private = record_body("dev-p");
        private["scope"] = serde_json::to_value(private_scope()).unwrap();
        post(lab.base(), &alice, RECORD, &private)
            .await
            .refused(403, "not_reporter", None);
        private["experience"]["reporter_subject"] = json!("alice");
        post(lab.base(), &alice, RECORD, &private).await.ok(201);

        // Reads: the current state; an unknown attempt is 404.
        let read = lab.read("dev-1").await;
        assert_eq!(
            (read["revision"].clone(), read["outcome"].clone()),
            (json!(2), json!("failed"))
        );
        lab.post(READ, &read_body("dev-9")).await.refused(
            404,
            "experience_not_found",
            Some("/attempt_id"),
        );
    }
}

#[tokio::test]
async fn the_outcome_state_machine_and_consumption_over_http() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        lab.record("dev-1").await;
        let before = learning_events(&lab.server).await;

        // unknown with nothing known: null, never 0.
        let e1 = lab.report("dev-1", "e1", 1, "unknown", None, None).await;
        let first = e1.ok(201);
        assert_eq!(first["event"]["revision"], 2);
        null_member(&first["event"], "previous_event_digest");
        for member in ["cost_units", "latency_ms", "observed_cost_units"] {
            null_member(&first["event"], member);
        }
        let x = &first["experience"];
        assert_eq!(
            (x["revision"].clone(), x["outcome"].clone()),
            (json!(2), json!("unknown"))
        );
        for member in [
            "reported_cost_units",
            "reported_latency_ms",
            "observed_cost_units",
            "observed_latency_ms",
        ] {
            null_member(x, member);
        }
        assert_eq!(x["last_event_digest"], first["event"]["event_digest"]);

        // unknown again, now with a cost; then failed with the cost unknown
        // (the latest report is unknown, the lower bound stays) and a latency.
        let e2 = lab
            .accept("dev-1", "e2", 2, "unknown", Some(100), None)
            .await;
        assert_eq!(
            e2["event"]["previous_event_digest"],
            first["event"]["event_digest"]
        );
        let e3 = lab.accept("dev-1", "e3", 3, "failed", None, Some(50)).await;
        let x = &e3["experience"];
        null_member(x, "reported_cost_units");
        assert_eq!(x["observed_cost_units"], 100);
        assert_eq!(
            (
                x["reported_latency_ms"].clone(),
                x["observed_latency_ms"].clone()
            ),
            (json!(50), json!(50))
        );
        assert_eq!(x["outcome"], "failed");
        // A terminal outcome repeated, to add later accounting.
        let e4 = lab
            .accept("dev-1", "e4", 4, "failed", Some(150), None)
            .await;
        let x = &e4["experience"];
        assert_eq!(
            (x["revision"].clone(), x["observed_cost_units"].clone()),
            (json!(5), json!(150))
        );
        null_member(x, "reported_latency_ms");
        assert_eq!(x["observed_latency_ms"], 50);

        // Any other outcome after a terminal one, unknown included: 409.
        for outcome in ["succeeded", "cancelled", "unknown"] {
            lab.report("dev-1", "e5", 5, outcome, Some(150), None)
                .await
                .refused(409, "terminal_outcome", Some("/event/outcome"));
        }
        // A known value below the greatest known: 422, per field.
        lab.report("dev-1", "e5", 5, "failed", Some(149), None)
            .await
            .refused(422, "consumption_decreased", Some("/event/cost_units"));
        lab.report("dev-1", "e5", 5, "failed", None, Some(49))
            .await
            .refused(422, "consumption_decreased", Some("/event/latency_ms"));
        // A stale revision: 409 with the current one.
        for stale in [1, 4, 6] {
            let r = lab.report("dev-1", "e5", stale, "failed", None, None).await;
            r.refused(409, "revision_conflict", Some("/event/expected_revision"));
            assert_eq!(r.json["current_revision"], 5);
        }
        // Anyone but the bound reporter: 403, whatever the event says.
        let stranger = lab
            .token("stranger", &["experience_report"], vec![scope()])
            .await;
        let body = event_body("dev-1", "e5", 5, "failed", None, None);
        post(lab.base(), &stranger, REPORT, &body)
            .await
            .refused(403, "not_reporter", None);
        // An unknown attempt: 404.
        lab.report("dev-9", "e1", 1, "failed", None, None)
            .await
            .refused(404, "experience_not_found", Some("/attempt_id"));
        assert_eq!(learning_events(&lab.server).await, before + 4);

        // An identical retry of e1 after later events: the original answer,
        // byte for byte; e1 with other content: 409.
        let again = lab.report("dev-1", "e1", 1, "unknown", None, None).await;
        again.ok(200);
        assert_eq!(again.body, e1.body);
        lab.report("dev-1", "e1", 1, "unknown", Some(1), None)
            .await
            .refused(409, "idempotency_conflict", Some("/event/event_id"));
        lab.report("dev-1", "e1", 5, "failed", None, None)
            .await
            .refused(409, "idempotency_conflict", Some("/event/event_id"));
        assert_eq!(learning_events(&lab.server).await, before + 4);

        // The read is the state after e4; each event reads back as answered.
        assert_eq!(lab.read("dev-1").await, e4["experience"]);
        let read = lab.post(READ_EVENT, &read_event_body("dev-1", "e3")).await;
        assert_eq!(read.ok(200)["event"], e3["event"]);
        null_member(&read.json, "withdrawal");
        lab.post(READ_EVENT, &read_event_body("dev-1", "e9"))
            .await
            .refused(404, "observation_not_found", Some("/event_id"));

        // Straight to a terminal outcome, cancelled repeated, then refused.
        lab.record("dev-2").await;
        lab.accept("dev-2", "c1", 1, "cancelled", None, None).await;
        lab.accept("dev-2", "c2", 2, "cancelled", Some(3), Some(4))
            .await;
        lab.report("dev-2", "c3", 3, "succeeded", Some(3), Some(4))
            .await
            .refused(409, "terminal_outcome", Some("/event/outcome"));
        lab.record("dev-3").await;
        lab.accept("dev-3", "s1", 1, "unknown", None, None).await;
        let s2 = lab
            .accept("dev-3", "s2", 2, "succeeded", Some(0), Some(0))
            .await;
        // Zero is a known value, unlike null.
        assert_eq!(s2["experience"]["reported_cost_units"], 0);
        assert_eq!(s2["experience"]["observed_latency_ms"], 0);
    }
}

#[tokio::test]
async fn of_eight_concurrent_reports_on_one_revision_exactly_one_wins() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        lab.record("dev-1").await;
        let before = learning_events(&lab.server).await;
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let (base, token) = (lab.base().to_owned(), lab.token.clone());
                let body = event_body("dev-1", &format!("c{i}"), 1, "failed", Some(i), None);
                tokio::spawn(async move { post(&base, &token, REPORT, &body).await })
            })
            .collect();
        let mut won = Vec::new();
        for task in tasks {
            let r = task.await.unwrap();
            if r.status == 201 {
                won.push(r);
            } else {
                r.refused(409, "revision_conflict", Some("/event/expected_revision"));
                assert_eq!(r.json["current_revision"], 2);
            }
        }
        assert_eq!(won.len(), 1, "exactly one of eight wins");
        let read = lab.read("dev-1").await;
        assert_eq!(read["revision"], 2);
        assert_eq!(read, won[0].json["experience"]);
        let history = lab.post(HISTORY, &history_body("dev-1", None, None)).await;
        assert_eq!(history.ok(200)["events"], json!([won[0].json["event"]]));
        assert_eq!(learning_events(&lab.server).await, before + 1);
    }
}

#[tokio::test]
async fn a_child_binds_its_parent_event_and_lineage_walks_to_the_root() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        lab.record("root").await;
        let parent = lab.accept("root", "e1", 1, "failed", Some(10), None).await;
        // A later event on the parent does not move what the child binds.
        lab.accept("root", "e2", 2, "failed", Some(20), None).await;

        let child = lab.post(RECORD, &child_body("child", "root", "e1")).await;
        let child = child.ok(201)["experience"].clone();
        assert_eq!(
            child["parent"],
            json!({"attempt_id": "root", "event_id": "e1",
                "event_digest": parent["event"]["event_digest"]})
        );
        assert_eq!(child["depth"], 2);
        let lineage = lab.post(LINEAGE, &read_body("child")).await;
        let root = lab.read("root").await;
        assert_eq!(lineage.ok(200)["lineage"], json!([child, root]));
        let grand = lab.accept("child", "c1", 1, "succeeded", None, None).await;
        let grandchild = lab
            .post(RECORD, &child_body("grandchild", "child", "c1"))
            .await;
        let grandchild = grandchild.ok(201)["experience"].clone();
        assert_eq!(
            grandchild["parent"]["event_digest"],
            grand["event"]["event_digest"]
        );
        let lineage = lab.post(LINEAGE, &read_body("grandchild")).await;
        let chain = lineage.ok(200)["lineage"].clone();
        let ids: Vec<&str> = chain
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["grandchild", "child", "root"]);
        assert_eq!(chain[1], lab.read("child").await);
        let lineage = lab.post(LINEAGE, &read_body("root")).await;
        assert_eq!(lineage.ok(200)["lineage"], json!([root]));

        // A parent that names no event of this namespace: 422.
        for (attempt, event) in [("root", "e9"), ("nobody", "e1")] {
            lab.post(RECORD, &child_body("orphan", attempt, event))
                .await
                .refused(422, "unknown_reference", Some("/experience/parent"));
        }
        let token = lab
            .token(ex::REPORTER, ALL, vec![scope(), private_scope()])
            .await;
        let mut elsewhere = child_body("orphan", "root", "e1");
        elsewhere["scope"] = serde_json::to_value(private_scope()).unwrap();
        post(lab.base(), &token, RECORD, &elsewhere).await.refused(
            422,
            "unknown_reference",
            Some("/experience/parent"),
        );
        lab.post(LINEAGE, &read_body("orphan")).await.refused(
            404,
            "experience_not_found",
            Some("/attempt_id"),
        );
    }
}

#[tokio::test]
async fn a_lineage_holds_at_most_sixty_four_attempts() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        lab.record("a1").await;
        lab.accept("a1", "e", 1, "failed", None, None).await;
        for depth in 2..=64 {
            let (id, parent) = (format!("a{depth}"), format!("a{}", depth - 1));
            let r = lab.post(RECORD, &child_body(&id, &parent, "e")).await;
            assert_eq!(r.ok(201)["experience"]["depth"], depth);
            lab.accept(&id, "e", 1, "failed", None, None).await;
        }
        lab.post(RECORD, &child_body("a65", "a64", "e"))
            .await
            .refused(422, "lineage_too_deep", Some("/experience/parent"));
        let lineage = lab.post(LINEAGE, &read_body("a64")).await;
        let chain = lineage.ok(200)["lineage"].as_array().unwrap().clone();
        assert_eq!(chain.len(), 64);
        assert_eq!(
            (chain[0]["id"].clone(), chain[63]["id"].clone()),
            (json!("a64"), json!("a1"))
        );
    }
}
