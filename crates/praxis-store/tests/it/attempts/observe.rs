//! Observing: inferred dispositions, unique identities, refused outcomes.

use super::*;

/// Observing infers each status's disposition, places records at increasing positions, answers repeats as unchanged and refuses a reused identity without writing.
#[tokio::test]
async fn observe_infers_dispositions_and_keeps_identities_unique() {
    for backend in BACKENDS {
        let (engine, _loc, ledger) = setup(backend).await;
        let expected = [
            (Status::Success, Disposition::ConfirmedPositive),
            (Status::Blocked, Disposition::BlockedByTarget),
            (Status::Unknown, Disposition::VerificationInconclusive),
            (Status::NeedsReview, Disposition::VerificationInconclusive),
            (Status::FalsePositive, Disposition::VerificationRejected),
            (Status::ConfirmedNegative, Disposition::ConfirmedNegative),
        ];
        assert_eq!(expected.len(), STATUSES.len());
        let mut originals = Vec::new();
        let mut last_position = 0;
        for (i, (status, disposition)) in expected.into_iter().enumerate() {
            let o = active("host", "probe", &format!("c{i}"), status);
            let w = ledger.observe(o.clone()).await.unwrap();
            assert_eq!(w.write, WriteKind::Inserted, "{backend:?} {status:?}");
            assert_eq!(
                w.record.observation,
                Observation {
                    outcome: o.clone(),
                    disposition
                },
                "{backend:?}"
            );
            assert!(w.record.position > last_position, "{backend:?}");
            last_position = w.record.position;
            originals.push((o, w.record));
        }
        // The records are sealed ledger events: same position, digest and time.
        let events = engine.ledger().events("t", 0, 10_000).await.unwrap();
        for (_, record) in &originals {
            let event = events
                .iter()
                .find(|e| e.position == record.position)
                .expect("the record's event");
            assert_eq!(event.kind, "attempt.observed", "{backend:?}");
            assert_eq!(event.digest, record.digest, "{backend:?}");
            assert_eq!(event.recorded_at, record.recorded_at, "{backend:?}");
            assert_eq!(event.stream, "subject/host", "{backend:?}");
        }
        let subject_seqs: Vec<u64> = events
            .iter()
            .filter(|e| e.stream == "subject/host")
            .map(|e| e.stream_seq)
            .collect();
        assert_eq!(subject_seqs, vec![1, 2, 3, 4, 5, 6], "{backend:?}");

        let before_events = event_count(&engine).await;
        let before_counts = ledger.counts(None, None).await.unwrap();
        let before_history = ledger.history(HistoryOf::Namespace, 0, 100).await.unwrap();

        // Identical repeats, inferred or with the same disposition stated.
        for (o, record) in &originals {
            let again = ledger.observe(o.clone()).await.unwrap();
            assert_eq!(
                again,
                AttemptWrite {
                    write: WriteKind::Unchanged,
                    record: record.clone()
                },
                "{backend:?}"
            );
            let stated = ledger
                .observe_with_disposition(o.clone(), record.observation.disposition)
                .await
                .unwrap();
            assert_eq!(stated.write, WriteKind::Unchanged, "{backend:?}");
            assert_eq!(stated.record, *record, "{backend:?}");
        }

        // Same identity, other content.
        let mut other_rationale = originals[4].0.clone();
        other_rationale.rationale = "another reason".into();
        assert!(
            matches!(
                ledger.observe(other_rationale).await,
                Err(StoreError::Refused(Refusal::IdentityConflict))
            ),
            "{backend:?}"
        );
        let unknown = originals[2].0.clone();
        assert_eq!(
            originals[2].1.observation.disposition,
            Disposition::VerificationInconclusive
        );
        assert!(
            matches!(
                ledger
                    .observe_with_disposition(unknown, Disposition::TransportFailure)
                    .await,
                Err(StoreError::Refused(Refusal::IdentityConflict))
            ),
            "{backend:?}"
        );
        let mut other_revision = originals[0].0.clone();
        other_revision.action_revision = Some("v2".into());
        assert!(
            matches!(
                ledger.observe(other_revision).await,
                Err(StoreError::Refused(Refusal::IdentityConflict))
            ),
            "{backend:?}"
        );

        assert_eq!(event_count(&engine).await, before_events, "{backend:?}");
        assert_eq!(
            ledger.counts(None, None).await.unwrap(),
            before_counts,
            "{backend:?}"
        );
        assert_eq!(
            ledger.history(HistoryOf::Namespace, 0, 100).await.unwrap(),
            before_history,
            "{backend:?}"
        );

        // The stage is part of the identity: a passive record of the same case is new.
        let p = passive("host", "probe", "c0", Status::Success);
        let w = ledger.observe(p).await.unwrap();
        assert_eq!(w.write, WriteKind::Inserted, "{backend:?}");
        assert!(w.record.position > last_position, "{backend:?}");
        // So are the same case id under another action or subject.
        insert(&ledger, active("host", "other", "c0", Status::Success)).await;
        insert(&ledger, active("host-2", "probe", "c0", Status::Success)).await;
        assert_eq!(
            ledger.counts(None, None).await.unwrap()[&Disposition::ConfirmedPositive],
            4,
            "{backend:?}"
        );
    }
}

/// A disposition that cannot accompany the status, and an outcome breaking its own rules, are refused before anything is written.
#[tokio::test]
async fn invalid_dispositions_and_outcomes_are_refused() {
    for backend in BACKENDS {
        let (engine, _loc, ledger) = setup(backend).await;
        let before = event_count(&engine).await;

        let refused = ledger
            .observe_with_disposition(
                active("host", "probe", "c1", Status::Success),
                Disposition::TransportFailure,
            )
            .await;
        assert!(
            matches!(
                refused,
                Err(StoreError::Refused(Refusal::InvalidDisposition {
                    disposition: "transport_failure",
                    status: "success"
                }))
            ),
            "{backend:?}: {refused:?}"
        );
        let refused = ledger
            .observe_with_disposition(
                active("host", "probe", "c2", Status::Blocked),
                Disposition::VerificationRejected,
            )
            .await;
        assert!(
            matches!(
                refused,
                Err(StoreError::Refused(Refusal::InvalidDisposition {
                    disposition: "verification_rejected",
                    status: "blocked"
                }))
            ),
            "{backend:?}: {refused:?}"
        );
        let refused = ledger
            .observe_with_disposition(
                active("host", "probe", "c3", Status::Unknown),
                Disposition::ConfirmedPositive,
            )
            .await;
        assert!(
            matches!(
                refused,
                Err(StoreError::Refused(Refusal::InvalidDisposition { .. }))
            ),
            "{backend:?}: {refused:?}"
        );

        let mut sure_unknown = active("host", "probe", "c4", Status::Unknown);
        sure_unknown.confidence = 1;
        match ledger.observe(sure_unknown.clone()).await {
            Err(StoreError::Refused(Refusal::Invalid(e))) => {
                assert_eq!(e.path(), Some("/outcome/confidence"), "{backend:?}");
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        match ledger
            .observe_with_disposition(sure_unknown, Disposition::TransportFailure)
            .await
        {
            Err(StoreError::Refused(Refusal::Invalid(e))) => {
                assert_eq!(e.path(), Some("/outcome/confidence"), "{backend:?}");
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        match ledger
            .observe(passive("host", "probe", "c5", Status::ConfirmedNegative))
            .await
        {
            Err(StoreError::Refused(Refusal::Invalid(e))) => {
                assert_eq!(e.path(), Some("/outcome/stage"), "{backend:?}");
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        let mut empty_subject = active("host", "probe", "c6", Status::Success);
        empty_subject.subject = String::new();
        match ledger.observe(empty_subject).await {
            Err(StoreError::Refused(Refusal::Invalid(e))) => {
                assert_eq!(e.path(), Some("/outcome/subject"), "{backend:?}");
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        // Blank once trimmed; a block or a review without its rule,
        // evidence or confidence.
        let mut blank_case = active("host", "probe", "c7", Status::Success);
        blank_case.case_id = " \u{3000} ".into();
        let mut bare_block = active("host", "probe", "c8", Status::Blocked);
        bare_block.evidence_ids.clear();
        let mut unruled_review = passive("host", "probe", "c9", Status::NeedsReview);
        unruled_review.verifier_rule_id = None;
        let mut unsure_block = active("host", "probe", "c10", Status::Blocked);
        unsure_block.confidence = 0;
        for (o, field) in [
            (blank_case, "/outcome/case_id"),
            (bare_block, "/outcome/evidence_ids"),
            (unruled_review, "/outcome/verifier_rule_id"),
            (unsure_block, "/outcome/confidence"),
        ] {
            match ledger.observe(o).await {
                Err(StoreError::Refused(Refusal::Invalid(e))) => {
                    assert_eq!(e.path(), Some(field), "{backend:?}");
                }
                other => panic!("{backend:?} {field}: {other:?}"),
            }
        }

        assert_eq!(event_count(&engine).await, before, "{backend:?}");
        assert_eq!(
            ledger.counts(None, None).await.unwrap(),
            count_map(&[]),
            "{backend:?}"
        );
        let history = ledger.history(HistoryOf::Namespace, 0, 10).await.unwrap();
        assert!(history.records.is_empty(), "{backend:?}");
        assert_eq!(history.next, None, "{backend:?}");
    }
}
