//! An altered store fails closed: every read and write that meets an
//! altered experience row answers 500 `storage_inconsistency`, and verify
//! names the row; an untouched store verifies clean.

use super::*;

/// A full scenario: `dev-1` failed (its last event `e3` is failed at
/// revision 4), a child of it, an export, and a withdrawal of `e1`.
/// Returns the digests of `e2` and `e3`.
async fn scenario(lab: &Lab) -> (String, String) {
    lab.record("dev-1").await;
    let e1 = lab
        .accept("dev-1", "e1", 1, "unknown", Some(10), None)
        .await;
    let e2 = lab
        .accept("dev-1", "e2", 2, "failed", Some(20), Some(5))
        .await;
    let e3 = lab.accept("dev-1", "e3", 3, "failed", Some(30), None).await;
    lab.post(RECORD, &child_body("child", "dev-1", "e3"))
        .await
        .ok(201);
    lab.accept("child", "c1", 1, "succeeded", None, None).await;
    lab.post(EXPORT, &export_body(&[("dev-1", "e3"), ("child", "c1")]))
        .await
        .ok(200);
    let digest = |e: &Value| e["event"]["event_digest"].as_str().unwrap().to_owned();
    lab.post(WITHDRAW, &withdraw_body("w-1", "dev-1", "e1", &digest(&e1)))
        .await
        .ok(201);
    (digest(&e2), digest(&e3))
}

#[tokio::test]
async fn an_untouched_store_verifies_clean_after_a_full_scenario() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        scenario(&lab).await;
        let report = lab.server.engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
    }
}

/// One alteration of `dev-1`'s rows behind the server's back.
struct Alteration {
    statement: &'static str,
    /// What verify calls the altered row.
    problem: &'static str,
    /// The event altered, whose dependents must fail closed too.
    event: Option<&'static str>,
}

const ALTERATIONS: [Alteration; 3] = [
    // Its latest event says succeeded.
    Alteration {
        statement: "UPDATE experience_events SET event = replace(event, '\"failed\"', '\"succeeded\"') \
             WHERE attempt_id = 'dev-1' AND event_id = 'e3'",
        problem: "experience event ",
        event: Some("e3"),
    },
    // An earlier event reports another cost.
    Alteration {
        statement: "UPDATE experience_events SET event = replace(event, '\"cost_units\":20', \
             '\"cost_units\":21') WHERE attempt_id = 'dev-1' AND event_id = 'e2'",
        problem: "experience event ",
        event: Some("e2"),
    },
    // Its current state says succeeded.
    Alteration {
        statement: "UPDATE experience_heads SET state = replace(state, '\"failed\"', '\"succeeded\"') \
             WHERE id = 'dev-1'",
        problem: "experience attempt ",
        event: None,
    },
];

#[tokio::test]
async fn an_altered_experience_row_fails_closed_and_verify_names_it() {
    for backend in BACKENDS {
        for alteration in &ALTERATIONS {
            let statement = alteration.statement;
            eprintln!("{statement}");
            let lab = Lab::start(backend).await;
            let (e2, e3) = scenario(&lab).await;
            lab.record("bystander").await;
            let count = learning_events(&lab.server).await;
            sql(backend, &lab.server.location.store, statement).await;

            // Every read of dev-1 refuses to answer from it, and so does
            // every write that depends on what was altered.
            let mut requests = vec![
                (READ, read_body("dev-1")),
                (READ_EVENT, read_event_body("dev-1", "e1")),
                (HISTORY, history_body("dev-1", None, None)),
                (LINEAGE, read_body("dev-1")),
                (LINEAGE, read_body("child")),
                (EXPORT, export_body(&[("dev-1", "e1")])),
                (INSPECT, inspect_body("dev-1", "e1")),
            ];
            if let Some(event) = alteration.event {
                let digest = if event == "e2" { &e2 } else { &e3 };
                requests.extend([
                    (RECORD, child_body("child-2", "dev-1", event)),
                    (WITHDRAW, withdraw_body("w-2", "dev-1", event, digest)),
                ]);
            }
            if alteration.event != Some("e2") {
                // The latest event or the state: what a report decides on.
                requests.extend([
                    (
                        REPORT,
                        event_body("dev-1", "e4", 4, "failed", Some(40), None),
                    ),
                    (
                        REPORT,
                        event_body("dev-1", "e3", 3, "failed", Some(30), None),
                    ),
                ]);
            }
            for (path, body) in &requests {
                let r = lab.post(path, body).await;
                assert_eq!(
                    (r.status, r.code()),
                    (500, "storage_inconsistency"),
                    "{statement}: {path} {body}: {r:?}"
                );
            }
            assert_eq!(
                learning_events(&lab.server).await,
                count,
                "nothing was written"
            );

            // Another attempt of the same store still answers.
            lab.read("bystander").await;
            lab.accept("bystander", "b1", 1, "failed", None, None).await;
            let child = lab.post(READ, &read_body("child")).await;
            child.ok(200);

            let problems = lab.server.engine.verify().await.unwrap().problems;
            assert_eq!(problems.len(), 1, "{statement}: {problems:?}");
            assert!(
                problems[0].contains(alteration.problem)
                    && problems[0].contains("differs from its events"),
                "{statement}: {problems:?}"
            );
        }
    }
}
