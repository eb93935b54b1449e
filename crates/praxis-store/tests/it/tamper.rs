//! Tampering, corruption and schema guards: the store fails closed.

use praxis_domain::ledger::Actor;
use praxis_store::AuthCommand;
use praxis_store::{StoreError, Write};
use praxis_testkit::{BACKENDS, Backend};

use crate::contract::{append, engine, execute_concurrently, tenant};

pub(crate) async fn sql(backend: Backend, store: &str, statement: &str) {
    match backend {
        Backend::Sqlite => {
            let conn =
                rusqlite::Connection::open(std::path::Path::new(store).join("praxis.db")).unwrap();
            conn.execute_batch(statement).unwrap();
        }
        Backend::Postgres => {
            let (client, conn) = tokio_postgres::connect(store, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            client.batch_execute(statement).await.unwrap();
        }
    }
}

#[tokio::test]
async fn an_altered_payload_fails_reads_and_verification() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        for i in 0..3 {
            engine
                .execute(Write::new("t", Actor::system(), append("s", i)))
                .await
                .unwrap();
        }
        sql(
            backend,
            &loc.store,
            "UPDATE events SET payload = '{\"n\":99}' WHERE position = 3",
        )
        .await;
        let err = engine.ledger().events("t", 0, 10).await.unwrap_err();
        assert!(
            matches!(err, StoreError::Inconsistent(_)),
            "{backend:?}: {err}"
        );
        let report = engine.verify().await.unwrap();
        assert_eq!(
            report.problems.len(),
            1,
            "{backend:?}: {:?}",
            report.problems
        );
        assert!(
            report.problems[0].contains("position 3"),
            "{:?}",
            report.problems
        );
    }
}

#[tokio::test]
async fn a_deleted_event_breaks_positions_and_chain() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        for i in 0..4 {
            engine
                .execute(Write::new("t", Actor::system(), append("s", i)))
                .await
                .unwrap();
        }
        sql(backend, &loc.store, "DELETE FROM events WHERE position = 3").await;
        let report = engine.verify().await.unwrap();
        let text = report.problems.join("\n");
        assert!(text.contains("expected position 3"), "{backend:?}: {text}");
        assert!(text.contains("broken chain"), "{backend:?}: {text}");
    }
}

#[tokio::test]
async fn an_altered_projection_is_found_by_verify() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let issue = praxis_store::Command::Auth(AuthCommand::IssueCredential {
            credential_id: "c1".into(),
            request: praxis_domain::credentials::IssueRequest::new(
                "bob".into(),
                vec!["memory_read".into()],
                vec![],
                None,
                praxis_domain::time::Timestamp::from_micros(0),
            )
            .unwrap(),
            secret_sha256: praxis_domain::digest::Digest::sha256(b"s"),
        });
        engine
            .execute(Write::new("t", Actor::system(), issue))
            .await
            .unwrap();
        sql(
            backend,
            &loc.store,
            "UPDATE credentials SET capabilities = '[\"credential_admin\"]'",
        )
        .await;
        let report = engine.verify().await.unwrap();
        assert_eq!(report.problems.len(), 1, "{backend:?}");
        assert!(report.problems[0].contains("differs from its events"));
    }
}

#[tokio::test]
async fn a_store_from_a_newer_schema_is_refused() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        drop(engine);
        let bump = match backend {
            Backend::Sqlite => "PRAGMA user_version = 99",
            Backend::Postgres => "INSERT INTO praxis_schema (version) VALUES (99)",
        };
        sql(backend, &loc.store, bump).await;
        match praxis_store::open(&loc.store).await {
            Err(StoreError::SchemaTooNew {
                found: 99,
                supported: praxis_store::SCHEMA_VERSION,
            }) => {}
            Err(other) => panic!("{backend:?}: wrong error {other}"),
            Ok(_) => panic!("{backend:?}: opened a newer store"),
        }
    }
}

#[tokio::test]
async fn a_second_process_cannot_open_the_same_data_dir() {
    let (engine, loc) = engine(Backend::Sqlite).await;
    let second = praxis_store::open(&loc.store).await;
    assert!(matches!(second, Err(StoreError::Open(m)) if m.contains("in use")));
    drop(engine);
}

#[tokio::test]
async fn a_write_whose_insert_fails_fails_alone_even_when_its_statements_are_deferred() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        // A trigger refuses one kind of event, standing in for any failure
        // that only the database can see (PostgreSQL sends these inserts
        // pipelined, after the write's own code has returned).
        let trigger = match backend {
            Backend::Sqlite => {
                "CREATE TRIGGER poison BEFORE INSERT ON events WHEN NEW.kind = 'test.poison' \
                 BEGIN SELECT RAISE(ABORT, 'poison'); END;"
            }
            Backend::Postgres => {
                "CREATE FUNCTION poison() RETURNS trigger AS $$ BEGIN \
                 IF NEW.kind = 'test.poison' THEN RAISE EXCEPTION 'poison'; END IF; RETURN NEW; END $$ \
                 LANGUAGE plpgsql; \
                 CREATE TRIGGER poison BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION poison();"
            }
        };
        sql(backend, &loc.store, trigger).await;
        let commands = (0..48u64)
            .map(|i| {
                let kind = if i % 3 == 0 {
                    "test.poison"
                } else {
                    "test.appended"
                };
                let event = praxis_domain::ledger::NewEvent::new(
                    praxis_domain::auth::Namespace::admin(),
                    format!("s{}", i % 4),
                    kind,
                    serde_json::json!({ "i": i }),
                );
                praxis_store::Command::Append(vec![event])
            })
            .collect();
        let ok = execute_concurrently(&engine, commands).await;
        assert_eq!(ok, 32, "{backend:?}: exactly the poisoned writes fail");
        let events = engine.ledger().events("t", 1, 1000).await.unwrap();
        assert_eq!(events.len(), 32, "{backend:?}");
        assert!(events.iter().all(|e| e.kind == "test.appended"));
        let report = engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
    }
}

#[tokio::test]
async fn a_new_data_directory_is_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("fresh");
    let engine = praxis_store::open(dir.to_str().unwrap()).await.unwrap();
    let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    drop(engine);
}

/// A conclusive active outcome of `action` on `subject`.
fn attempt(
    case: &str,
    action: &str,
    status: praxis_domain::attempts::Status,
) -> praxis_domain::attempts::Outcome {
    praxis_domain::attempts::Outcome {
        case_id: case.into(),
        subject: "host".into(),
        action_id: action.into(),
        hypothesis_id: format!("hyp-{action}"),
        verifier_rule_id: Some("rule-1".into()),
        stage: praxis_domain::attempts::Stage::Active,
        status,
        confidence: 900_000,
        rationale: "tamper test".into(),
        evidence_ids: vec!["ev-1".into()],
        action_revision: Some("v1".into()),
        observed_at: None,
    }
}

/// A fresh store holding a policy and three attempts through the attempt
/// ledger: two rejections of `probe` (cases c1, c2) and a success of `scan`.
async fn recorded_attempts(
    backend: Backend,
) -> (
    std::sync::Arc<dyn praxis_store::Engine>,
    praxis_testkit::StoreLocation,
) {
    use praxis_domain::attempts::{Policy, Status};
    let (engine, loc) = engine(backend).await;
    tenant(&*engine, "t").await;
    let scope = praxis_domain::auth::Scope {
        project_id: "proj".into(),
        mission_id: None,
        agent_id: "a".into(),
        visibility: praxis_domain::auth::Visibility::Shared,
    };
    let ledger = praxis_store::AttemptLedger::new(
        engine.clone(),
        "t",
        scope.namespace("alice"),
        Actor {
            credential_id: "cred-alice".into(),
            subject: "alice".into(),
        },
    );
    ledger
        .set_policy(Policy {
            consecutive_failure_limit: 2,
            ..Policy::default()
        })
        .await
        .unwrap();
    for o in [
        attempt("c1", "probe", Status::FalsePositive),
        attempt("c2", "probe", Status::FalsePositive),
        attempt("c3", "scan", Status::Success),
    ] {
        let w = ledger.observe(o).await.unwrap();
        assert_eq!(w.write, praxis_store::attempts::WriteKind::Inserted);
    }
    let assessed = ledger
        .assess(
            "host",
            vec![praxis_store::attempts::ActionRef {
                action_id: "probe".into(),
                action_revision: None,
            }],
        )
        .await
        .unwrap();
    assert_eq!(
        assessed[0].recommendation,
        praxis_domain::attempts::Recommendation::Suppress,
        "{backend:?}"
    );
    (engine, loc)
}

/// Applies `statement` to a store of recorded attempts and requires verify
/// to report exactly the problems in `expected`, each mentioning "attempt".
async fn tampered_attempts_are_reported(statement: &str, expected: &[&str]) {
    for backend in BACKENDS {
        let (engine, loc) = recorded_attempts(backend).await;
        let clean = engine.verify().await.unwrap();
        assert!(clean.is_clean(), "{backend:?}: {:?}", clean.problems);
        sql(backend, &loc.store, statement).await;
        let report = engine.verify().await.unwrap();
        assert!(
            !report.problems.is_empty(),
            "{backend:?}: `{statement}` went unnoticed"
        );
        assert!(
            report.problems.iter().all(|p| p.contains("attempt")),
            "{backend:?}: {:?}",
            report.problems
        );
        let expected: Vec<String> = expected
            .iter()
            .map(|p| format!("tenant \"t\": {p}"))
            .collect();
        assert_eq!(report.problems, expected, "{backend:?}");
    }
}

/// Recorded attempts, a policy and their projections verify clean.
#[tokio::test]
async fn an_untouched_attempt_ledger_verifies_clean() {
    for backend in BACKENDS {
        let (engine, _loc) = recorded_attempts(backend).await;
        let report = engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
        // Tenant creation, the policy and three observations.
        assert_eq!(report.events, 5, "{backend:?}");
    }
}

/// A streak row whose consecutive count was raised differs from its events.
#[tokio::test]
async fn an_altered_attempt_streak_is_found_by_verify() {
    tampered_attempts_are_reported(
        "UPDATE attempt_streaks SET consecutive = 7 \
         WHERE subject = 'host' AND action_id = 'probe' AND grain = 0",
        &["attempt streak of \"host\"/\"probe\" (grain 0) differs from its events"],
    )
    .await;
}

/// A count row whose count was changed differs from the events.
#[tokio::test]
async fn an_altered_attempt_count_is_found_by_verify() {
    tampered_attempts_are_reported(
        "UPDATE attempt_counts SET count = 5 WHERE disposition = 'verification_rejected'",
        &["attempt count of verification_rejected differs from the events"],
    )
    .await;
}

/// A deleted identity row is missing from the projection.
#[tokio::test]
async fn a_deleted_attempt_case_is_found_by_verify() {
    tampered_attempts_are_reported(
        "DELETE FROM attempt_cases WHERE case_id = 'c2'",
        &["attempt case \"c2\" of \"host\"/\"probe\" is missing from the projection"],
    )
    .await;
}

/// A policy row rewritten behind the ledger's back differs from its last event.
#[tokio::test]
async fn an_altered_attempt_policy_is_found_by_verify() {
    tampered_attempts_are_reported(
        "UPDATE attempt_policies SET policy = \
         '{\"consecutive_failure_limit\":99,\"reexplore\":null,\"streak_key\":\"action\"}'",
        &["attempt policy differs from its last event"],
    )
    .await;
}
