//! Legacy import and export, all or nothing, at the original's own limits.

use super::*;

fn legacy(sequence: u64, outcome: Outcome, disposition: Option<Disposition>) -> LegacyRecord {
    LegacyRecord {
        sequence,
        outcome,
        disposition,
    }
}

/// A legacy store imports and exports with every disposition explicit, a re-import elsewhere exports byte-identically, and a conflicting or invalid import writes nothing.
#[tokio::test]
async fn import_export_round_trip_and_all_or_nothing() {
    for backend in BACKENDS {
        let (engine, _loc, a) = setup(backend).await;
        let mut timed = active("h", "probe", "c4", Status::Success);
        timed.observed_at = Some(praxis_domain::time::Timestamp::from_micros(
            1_700_000_000_000_000,
        ));
        let originals = vec![
            (active("h", "probe", "c1", Status::FalsePositive), None),
            (passive("h", "probe", "c2", Status::Success), None),
            (
                active("h", "probe", "c2", Status::Unknown),
                Some(Disposition::TransportFailure),
            ),
            (
                revised(active("h2", "scan", "c1", Status::ConfirmedNegative), "v1"),
                Some(Disposition::ConfirmedNegative),
            ),
            (passive("h2", "scan", "c2", Status::NeedsReview), None),
            (active("h2", "scan", "c3", Status::Blocked), None),
            (timed, None),
        ];
        let store = LegacyStore {
            next_sequence: originals.len() as u64,
            records: originals
                .iter()
                .enumerate()
                .map(|(i, (o, d))| legacy(i as u64, o.clone(), *d))
                .collect(),
        };
        let writes = a.import(store.clone()).await.unwrap();
        assert_eq!(writes.len(), originals.len(), "{backend:?}");
        assert!(writes.iter().all(|w| w.write == WriteKind::Inserted));
        let ps: Vec<u64> = writes.iter().map(|w| w.record.position).collect();
        assert!(ps.windows(2).all(|w| w[0] < w[1]), "{backend:?}: {ps:?}");

        let exported = a.export().await.unwrap();
        assert_eq!(exported.next_sequence, originals.len() as u64);
        assert_eq!(exported.records.len(), originals.len());
        for (i, (record, (o, d))) in exported.records.iter().zip(&originals).enumerate() {
            assert_eq!(record.sequence, i as u64, "{backend:?}");
            assert_eq!(record.outcome, *o, "{backend:?}");
            let expected = d.unwrap_or_else(|| Disposition::infer(o.status));
            assert_eq!(record.disposition, Some(expected), "{backend:?} record {i}");
        }
        // The streaks were built from the imported records.
        assert_eq!(
            summary(&a, "h", act("probe")).await,
            (Recommendation::Continue, 0, 3),
            "{backend:?}"
        );

        // Into a namespace of another scope, and out again: byte-identical.
        let b = ledger_in(&engine, "b");
        let into_b = b.import(exported.clone()).await.unwrap();
        assert!(into_b.iter().all(|w| w.write == WriteKind::Inserted));
        let again = b.export().await.unwrap();
        assert_eq!(
            serde_json::to_string(&again).unwrap(),
            serde_json::to_string(&exported).unwrap(),
            "{backend:?}"
        );
        assert_eq!(
            b.counts(None, None).await.unwrap(),
            a.counts(None, None).await.unwrap()
        );

        // Re-importing what is stored changes nothing.
        let before = event_count(&engine).await;
        let replay = a.import(exported.clone()).await.unwrap();
        assert!(
            replay.iter().all(|w| w.write == WriteKind::Unchanged),
            "{backend:?}"
        );
        let replayed: Vec<AttemptRecord> = replay.into_iter().map(|w| w.record).collect();
        let original: Vec<AttemptRecord> = writes.into_iter().map(|w| w.record).collect();
        assert_eq!(replayed, original, "{backend:?}");
        assert_eq!(event_count(&engine).await, before, "{backend:?}");

        // Conflicting records: all rejected, by index, nothing written.
        let counts = a.counts(None, None).await.unwrap();
        let history = a.history(HistoryOf::Namespace, 0, 100).await.unwrap();
        let mut changed = originals[0].0.clone();
        changed.rationale = "rewritten".into();
        let conflicting = LegacyStore {
            next_sequence: 5,
            records: vec![
                legacy(0, active("h", "probe", "new1", Status::FalsePositive), None),
                legacy(1, changed, None),
                legacy(2, originals[1].0.clone(), None),
                legacy(
                    3,
                    originals[2].0.clone(),
                    Some(Disposition::ExecutorFailure),
                ),
                legacy(4, active("h3", "probe", "new2", Status::Success), None),
            ],
        };
        match a.import(conflicting).await {
            Err(StoreError::Refused(Refusal::AttemptsRejected(problems))) => {
                let found: Vec<(usize, &str)> =
                    problems.iter().map(|p| (p.index, p.code)).collect();
                assert_eq!(
                    found,
                    vec![(1, "identity_conflict"), (3, "identity_conflict")],
                    "{backend:?}"
                );
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        assert_eq!(event_count(&engine).await, before, "{backend:?}");
        assert_eq!(a.counts(None, None).await.unwrap(), counts, "{backend:?}");
        assert_eq!(
            a.history(HistoryOf::Namespace, 0, 100).await.unwrap(),
            history,
            "{backend:?}"
        );
        assert_eq!(
            a.counts(Some("h3"), None).await.unwrap(),
            count_map(&[]),
            "{backend:?}"
        );
        // The ledger carries on where it was: next position, next subject sequence.
        let last = engine.ledger().events("t", 0, 10_000).await.unwrap();
        let head = last.last().unwrap().position;
        let h_seq = last
            .iter()
            .filter(|e| e.namespace == scope("a").namespace("alice") && e.stream == "subject/h")
            .map(|e| e.stream_seq)
            .max()
            .unwrap();
        let next = insert(&a, active("h", "probe", "new1", Status::FalsePositive)).await;
        assert_eq!(next.position, head + 1, "{backend:?}");
        let events = engine.ledger().events("t", head, 10).await.unwrap();
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].stream_seq, h_seq + 1, "{backend:?}");

        // An invalid store: every problem listed, nothing written.
        let good = active("h", "probe", "v1", Status::FalsePositive);
        let mut other_text = good.clone();
        other_text.rationale = "different".into();
        let mut sure_unknown = active("h", "probe", "v3", Status::Unknown);
        sure_unknown.confidence = 5;
        let invalid = LegacyStore {
            next_sequence: 9,
            records: vec![
                legacy(0, good.clone(), None),
                legacy(1, good.clone(), Some(Disposition::VerificationRejected)),
                legacy(2, other_text, None),
                legacy(4, active("h", "probe", "v2", Status::Success), None),
                legacy(4, sure_unknown, None),
                legacy(
                    5,
                    active("h", "probe", "v4", Status::Success),
                    Some(Disposition::TransportFailure),
                ),
            ],
        };
        let before = event_count(&engine).await;
        match a.import(invalid).await {
            Err(StoreError::Refused(Refusal::ImportInvalid(problems))) => {
                let found: Vec<(Option<usize>, &str, &str)> = problems
                    .iter()
                    .map(|p| (p.index, p.code, p.path.as_str()))
                    .collect();
                assert_eq!(
                    found,
                    vec![
                        (None, "sequence_mismatch", "/next_sequence"),
                        (Some(1), "duplicate_record", "/records/1"),
                        (Some(2), "identity_conflict", "/records/2"),
                        (Some(3), "sequence_mismatch", "/records/3/sequence"),
                        (Some(4), "invalid_field", "/records/4/outcome/confidence"),
                        (Some(5), "invalid_disposition", "/records/5/disposition"),
                    ],
                    "{backend:?}"
                );
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        assert_eq!(event_count(&engine).await, before, "{backend:?}");
        // An empty store imports as nothing.
        let nothing = a
            .import(LegacyStore {
                next_sequence: 0,
                records: vec![],
            })
            .await
            .unwrap();
        assert!(nothing.is_empty());
        assert_eq!(event_count(&engine).await, before, "{backend:?}");
        let fresh = ledger_in(&engine, "empty");
        assert_eq!(
            serde_json::to_string(&fresh.export().await.unwrap()).unwrap(),
            r#"{"next_sequence":0,"records":[]}"#
        );
    }
}

/// Printable text of exactly `len` bytes that no compressor shrinks (a
/// PostgreSQL index entry must hold it as it is), from `seed`.
fn incompressible(seed: u64, len: usize) -> String {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            char::from(b'!' + (x % 94) as u8)
        })
        .collect()
}

/// A store the original can write but a live write refuses: a 1,000-byte
/// subject, a key as long as an import allows, more than 64 evidence ids,
/// long rationales and control characters. It imports on both engines under
/// the longest tenant and a namespace of the longest scope ids, reads back
/// unchanged, is assessed, exports as it came in, and verifies clean.
#[tokio::test]
async fn imports_hold_what_the_original_writes() {
    use praxis_domain::attempts::IMPORT_MAX_KEY;

    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        // The longest tenant, and a private scope of the longest ids, half of
        // their characters ones canonical JSON escapes, at random places: as
        // wide a namespace as stays incompressible.
        let tenant_id = incompressible(1, 128);
        tenant(&*engine, &tenant_id).await;
        let escaped = |seed: u64| -> String {
            incompressible(seed, 128)
                .bytes()
                .map(|b| match b % 4 {
                    0 => '"',
                    1 => '\\',
                    _ => char::from(b),
                })
                .collect()
        };
        let wide = Scope {
            project_id: escaped(2),
            mission_id: Some(escaped(3)),
            agent_id: escaped(4),
            visibility: Visibility::Private,
        };
        wide.validate("/scope").unwrap();
        let owner = escaped(5);
        let ledger = AttemptLedger::new(
            engine.clone(),
            &tenant_id,
            wide.namespace(&owner),
            Actor {
                credential_id: "cred".into(),
                subject: owner.clone(),
            },
        );

        let url = format!("https://example.test/{}", incompressible(6, 979));
        assert_eq!(url.len(), 1000);
        let mut first = active(&url, "probe", "case\u{1}1", Status::NeedsReview);
        first.evidence_ids = (0..100).map(|i| format!("evidence:{i:03}")).collect();
        first.rationale = incompressible(7, 20_000);
        first.hypothesis_id = format!("hyp\n{}", incompressible(8, 3000));
        let mut second = active(&url, "scan", "c2", Status::Blocked);
        second.evidence_ids = (0..1024).map(|i| incompressible(i, 60)).collect();
        second.rationale = "the target answered 429\r\n".into();
        // A key of the whole import budget, twice: with its case and its revision.
        let (s, a) = (1000, 236);
        let c = IMPORT_MAX_KEY - s - a;
        let mut third = revised(
            active(
                &incompressible(9, s),
                &incompressible(10, a),
                &incompressible(11, c),
                Status::FalsePositive,
            ),
            &incompressible(12, c),
        );
        third.verifier_rule_id = Some(incompressible(13, 4096));
        let records = vec![
            legacy(0, first, None),
            legacy(1, second, Some(Disposition::BlockedByTarget)),
            legacy(2, third, None),
        ];
        let store = LegacyStore {
            next_sequence: 3,
            records: records.clone(),
        };
        // None of these is a live write.
        for r in &records {
            assert!(
                Observation::new(r.outcome.clone(), r.disposition, "/outcome").is_err(),
                "{:?}",
                r.outcome.case_id
            );
        }

        let writes = ledger.import(store.clone()).await.unwrap();
        assert_eq!(writes.len(), 3, "{backend:?}");
        assert!(writes.iter().all(|w| w.write == WriteKind::Inserted));
        let subject = ledger
            .history(HistoryOf::Subject(url.clone()), 0, 10)
            .await
            .unwrap();
        let read: Vec<&Outcome> = subject
            .records
            .iter()
            .map(|r| &r.observation.outcome)
            .collect();
        assert_eq!(read, vec![&records[0].outcome, &records[1].outcome]);
        let pair = ledger
            .history(HistoryOf::Pair(url.clone(), "scan".into()), 0, 10)
            .await
            .unwrap();
        assert_eq!(pair.records.len(), 1, "{backend:?}");
        assert_eq!(
            pair.records[0].observation.disposition,
            Disposition::BlockedByTarget
        );
        let third = &records[2].outcome;
        assert_eq!(
            ledger
                .counts(Some(&third.subject), Some(&third.action_id))
                .await
                .unwrap(),
            count_map(&[(Disposition::VerificationRejected, 1)]),
            "{backend:?}"
        );
        assert_eq!(
            summary(&ledger, &url, act("probe")).await,
            (Recommendation::Continue, 0, 1),
            "{backend:?}"
        );
        assert_eq!(
            summary(
                &ledger,
                &third.subject,
                act_rev(&third.action_id, third.action_revision.as_deref().unwrap())
            )
            .await,
            (Recommendation::Continue, 1, 1),
            "{backend:?}"
        );

        // Each subject's stream holds its records, under the subject as sent.
        let events = engine.ledger().events(&tenant_id, 0, 100).await.unwrap();
        let streams: Vec<&str> = events
            .iter()
            .filter(|e| e.kind == "attempt.observed")
            .map(|e| e.stream.as_str())
            .collect();
        let url_stream = format!("subject/{url}");
        let third_stream = format!("subject/{}", third.subject);
        assert_eq!(
            streams,
            vec![
                url_stream.as_str(),
                url_stream.as_str(),
                third_stream.as_str()
            ]
        );

        // Out as it came in (every disposition explicit), again unchanged.
        let exported = ledger.export().await.unwrap();
        assert_eq!(exported.records.len(), 3);
        for (out, came) in exported.records.iter().zip(&records) {
            assert_eq!(out.outcome, came.outcome, "{backend:?}");
        }
        let again = ledger.import(exported).await.unwrap();
        assert!(again.iter().all(|w| w.write == WriteKind::Unchanged));

        let report = engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
    }
}
