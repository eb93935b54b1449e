//! Legacy import and export over HTTP.

use super::*;

/// A legacy record with the given sequence, outcome and disposition.
fn legacy(sequence: u64, outcome: Outcome, disposition: Option<Disposition>) -> LegacyRecord {
    LegacyRecord {
        sequence,
        outcome,
        disposition,
    }
}

/// An import request into `scope`.
fn import_request(scope: &Scope, store: LegacyStore) -> ImportRequest {
    ImportRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.clone(),
        store,
    }
}

/// Import infers missing dispositions, export round-trips exactly, bad stores write nothing.
#[tokio::test]
async fn import_and_export_round_trip_and_refuse_bad_stores() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let other = scope_of(Some("m2"), Visibility::Shared);
        let (client, _, token) =
            client_as(&server, "agent", ALL, vec![s.clone(), other.clone()]).await;

        let mut timed = outcome(
            "host-a",
            "probe",
            "c1",
            Stage::Active,
            OutcomeStatus::Success,
        );
        timed.observed_at = Some("2024-05-01T12:00:00Z".into());
        timed.action_revision = Some("v1".into());
        let records = vec![
            legacy(
                0,
                outcome(
                    "host-a",
                    "probe",
                    "c0",
                    Stage::Active,
                    OutcomeStatus::FalsePositive,
                ),
                None,
            ),
            legacy(1, timed, Some(Disposition::ConfirmedPositive)),
            legacy(
                2,
                outcome(
                    "host-b",
                    "scan",
                    "c0",
                    Stage::Passive,
                    OutcomeStatus::Unknown,
                ),
                Some(Disposition::ExecutorFailure),
            ),
            legacy(
                3,
                outcome(
                    "host-a",
                    "probe",
                    "c2",
                    Stage::Active,
                    OutcomeStatus::Blocked,
                ),
                None,
            ),
        ];
        let n = records.len() as u64;
        let store = LegacyStore {
            next_sequence: n,
            records,
        };
        let imported = client
            .import_attempts(&import_request(&s, store.clone()))
            .await
            .unwrap();
        assert_eq!(
            (imported.inserted, imported.unchanged),
            (n, 0),
            "{backend:?}"
        );

        let (status, exported) = get_raw(
            &server,
            "/api/v1/attempts/export?project_id=p1&agent_id=a1&visibility=shared",
            Some(&token),
        )
        .await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&exported));
        let exported: Value = serde_json::from_slice(&exported).unwrap();
        assert_eq!(exported["next_sequence"], json!(n), "{backend:?}");
        let rows = exported["records"].as_array().unwrap();
        assert_eq!(rows.len() as u64, n);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row["sequence"], json!(i), "{backend:?}");
            assert!(
                row["disposition"].is_string(),
                "{backend:?}: record {i} {row}"
            );
        }
        assert_eq!(rows[0]["disposition"], "verification_rejected");
        assert_eq!(rows[2]["disposition"], "executor_failure");
        assert_eq!(rows[3]["disposition"], "blocked_by_target");
        let typed: LegacyStore = serde_json::from_value(exported.clone()).unwrap();
        assert_eq!(typed, client.export_attempts(&s).await.unwrap());
        for (got, sent) in typed.records.iter().zip(&store.records) {
            assert_eq!(got.outcome.case_id, sent.outcome.case_id);
            assert_eq!(got.outcome.subject, sent.outcome.subject);
        }

        // Importing the same store again changes nothing.
        let again = client
            .import_attempts(&import_request(&s, store.clone()))
            .await
            .unwrap();
        assert_eq!((again.inserted, again.unchanged), (0, n), "{backend:?}");

        // The export imported elsewhere exports to the identical JSON.
        let moved = client
            .import_attempts(&import_request(&other, typed))
            .await
            .unwrap();
        assert_eq!((moved.inserted, moved.unchanged), (n, 0));
        let (status, second) = get_raw(
            &server,
            "/api/v1/attempts/export?project_id=p1&mission_id=m2&agent_id=a1&visibility=shared",
            Some(&token),
        )
        .await;
        assert_eq!(status, 200);
        let second: Value = serde_json::from_slice(&second).unwrap();
        assert_eq!(
            second, exported,
            "{backend:?}: export → import → export differs"
        );

        let events = event_count(&server).await;
        let before = client.attempt_counts(&s, None, None).await.unwrap();

        // An invalid store: a sequence gap and a bad pair, both reported, nothing written.
        let bad = LegacyStore {
            next_sequence: 3,
            records: vec![
                legacy(
                    0,
                    outcome(
                        "host-c",
                        "probe",
                        "c0",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    None,
                ),
                legacy(
                    5,
                    outcome(
                        "host-c",
                        "probe",
                        "c1",
                        Stage::Active,
                        OutcomeStatus::FalsePositive,
                    ),
                    None,
                ),
                legacy(
                    2,
                    outcome(
                        "host-c",
                        "probe",
                        "c2",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    Some(Disposition::TransportFailure),
                ),
            ],
        };
        let p = refused(client.import_attempts(&import_request(&s, bad)).await);
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (422, "invalid_import", Some("/store")),
            "{backend:?}"
        );
        let items: Vec<(Option<u64>, &str, &str)> = p
            .errors
            .iter()
            .map(|e| (e.index, e.field.as_str(), e.code.as_str()))
            .collect();
        assert_eq!(
            items,
            vec![
                (Some(1), "/store/records/1/sequence", "sequence_mismatch"),
                (
                    Some(2),
                    "/store/records/2/disposition",
                    "invalid_disposition"
                ),
            ],
            "{backend:?}"
        );

        // A store whose records conflict with stored ones: 409 naming each, nothing written.
        let mut changed = outcome(
            "host-a",
            "probe",
            "c2",
            Stage::Active,
            OutcomeStatus::Blocked,
        );
        changed.rationale = "rewritten".into();
        let conflicting = LegacyStore {
            next_sequence: 3,
            records: vec![
                legacy(
                    0,
                    outcome(
                        "host-d",
                        "probe",
                        "c0",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    None,
                ),
                legacy(
                    1,
                    outcome(
                        "host-a",
                        "probe",
                        "c0",
                        Stage::Active,
                        OutcomeStatus::FalsePositive,
                    ),
                    None,
                ),
                legacy(2, changed, None),
            ],
        };
        let p = refused(
            client
                .import_attempts(&import_request(&s, conflicting))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str()),
            (409, "identity_conflict"),
            "{backend:?}"
        );
        let items: Vec<(Option<u64>, &str, &str)> = p
            .errors
            .iter()
            .map(|e| (e.index, e.field.as_str(), e.code.as_str()))
            .collect();
        assert_eq!(
            items,
            vec![(Some(2), "/store/records/2", "identity_conflict")],
            "{backend:?}"
        );

        assert_eq!(
            event_count(&server).await,
            events,
            "{backend:?}: a refused import wrote"
        );
        assert_eq!(client.attempt_counts(&s, None, None).await.unwrap(), before);
        let d = client
            .attempt_history(&s, "host-d", None, None, 500)
            .await
            .unwrap();
        assert!(
            d.records.is_empty(),
            "{backend:?}: the rolled-back record is visible"
        );
        let c = client
            .attempt_history(&s, "host-c", None, None, 500)
            .await
            .unwrap();
        assert!(c.records.is_empty());

        // A bad observed_at names its record.
        let mut when = outcome(
            "host-e",
            "probe",
            "c0",
            Stage::Active,
            OutcomeStatus::Success,
        );
        when.observed_at = Some("yesterday".into());
        let body = serde_json::to_value(import_request(
            &s,
            LegacyStore {
                next_sequence: 1,
                records: vec![legacy(0, when, None)],
            },
        ))
        .unwrap();
        let (status, resp) =
            post_json(&server, "/api/v1/attempts/import", Some(&token), &body).await;
        assert_eq!(status, 422);
        assert_eq!(
            problem(&resp),
            (
                "invalid_field".to_owned(),
                Some("/store/records/0/outcome/observed_at".to_owned())
            )
        );
        assert_eq!(event_count(&server).await, events);

        // A store the original wrote, with a long subject, many evidence ids
        // and a control character, imports whole and can be read and assessed.
        let long_subject = format!("https://example.test/{}", "path/".repeat(196));
        let mut big = outcome(
            &long_subject,
            "probe",
            "case\u{1}one",
            Stage::Active,
            OutcomeStatus::NeedsReview,
        );
        big.evidence_ids = (0..100).map(|i| format!("evidence:{i}")).collect();
        big.rationale = "r".repeat(8192);
        let body = serde_json::to_value(import_request(
            &other,
            LegacyStore {
                next_sequence: 1,
                records: vec![legacy(0, big.clone(), None)],
            },
        ))
        .unwrap();
        let (status, resp) =
            post_json(&server, "/api/v1/attempts/import", Some(&token), &body).await;
        assert_eq!(
            status,
            200,
            "{backend:?}: {}",
            String::from_utf8_lossy(&resp)
        );
        let read = client
            .attempt_history(&other, &long_subject, None, None, 10)
            .await
            .unwrap();
        assert_eq!(read.records.len(), 1, "{backend:?}");
        assert_eq!(read.records[0].outcome, big, "{backend:?}");
        let answer = client
            .assess(&AssessRequest {
                contract_version: CONTRACT_VERSION,
                scope: other.clone(),
                subject: long_subject.clone(),
                actions: vec![CandidateAction::Id("probe".into())],
            })
            .await
            .unwrap();
        assert_eq!(answer.assessments[0].completed_attempts, 1, "{backend:?}");
        // The same outcome is still too large for a live write.
        big.case_id = "case-two".into();
        let (status, resp) = post_json(
            &server,
            "/api/v1/attempts",
            Some(&token),
            &serde_json::to_value(observe_request(&other, big, None)).unwrap(),
        )
        .await;
        assert_eq!(status, 422, "{backend:?}");
        assert_eq!(
            problem(&resp),
            (
                "invalid_field".to_owned(),
                Some("/outcome/subject".to_owned())
            )
        );
        let report = server.engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
    }
}
