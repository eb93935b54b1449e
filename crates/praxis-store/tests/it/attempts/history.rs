//! History pages and counts per disposition.

use super::*;

/// Subject, pair and namespace history come back in sequence order, page by page, each record exactly once, and counts per disposition match the records.
#[tokio::test]
async fn history_pages_and_counts() {
    for backend in BACKENDS {
        let (_engine, _loc, ledger) = setup(backend).await;
        let mut written: Vec<AttemptRecord> = Vec::new();
        let plan: Vec<PlanStep> = vec![
            ("h", "a", "c1", Stage::Active, Status::FalsePositive, None),
            ("h", "b", "c1", Stage::Passive, Status::Unknown, None),
            ("h2", "a", "c1", Stage::Active, Status::Success, None),
            (
                "h",
                "a",
                "c2",
                Stage::Active,
                Status::Unknown,
                Some(Disposition::TransportFailure),
            ),
            ("h", "a", "c1", Stage::Passive, Status::Success, None),
            ("h", "b", "c2", Stage::Active, Status::Blocked, None),
            (
                "h2",
                "b",
                "c1",
                Stage::Active,
                Status::ConfirmedNegative,
                None,
            ),
            (
                "h",
                "a",
                "c3",
                Stage::Active,
                Status::NeedsReview,
                Some(Disposition::NotApplicable),
            ),
            (
                "h",
                "b",
                "c3",
                Stage::Active,
                Status::ConfirmedNegative,
                None,
            ),
            ("h", "a", "c4", Stage::Active, Status::Success, None),
        ];
        for (subject, action, case, stage, status, disposition) in plan {
            let o = outcome(subject, action, case, stage, status);
            let record = match disposition {
                None => insert(&ledger, o).await,
                Some(d) => insert_as(&ledger, o, d).await,
            };
            written.push(record);
        }
        let of = |subject: &str, action: Option<&str>| -> Vec<AttemptRecord> {
            written
                .iter()
                .filter(|r| {
                    r.observation.outcome.subject == subject
                        && action.is_none_or(|a| r.observation.outcome.action_id == a)
                })
                .cloned()
                .collect()
        };

        // Subject history: 8 records of h, pages of 2, the last one exactly full.
        let pages = all_pages(&ledger, HistoryOf::Subject("h".into()), 2).await;
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![2, 2, 2, 2], "{backend:?}");
        let flat: Vec<AttemptRecord> = pages.concat();
        assert_eq!(flat, of("h", None), "{backend:?}");
        assert_eq!(flat.len(), 8);
        // The same with pages of 3: the last page is short.
        let pages = all_pages(&ledger, HistoryOf::Subject("h".into()), 3).await;
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![3, 3, 2], "{backend:?}");
        assert_eq!(pages.concat(), of("h", None), "{backend:?}");
        // Pair history: 5 records of (h, a), pages of 2.
        let pages = all_pages(&ledger, HistoryOf::Pair("h".into(), "a".into()), 2).await;
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![2, 2, 1], "{backend:?}");
        assert_eq!(pages.concat(), of("h", Some("a")), "{backend:?}");
        // 3 records of (h, b), pages of 3: one page, no cursor.
        let pages = all_pages(&ledger, HistoryOf::Pair("h".into(), "b".into()), 3).await;
        assert_eq!(pages.len(), 1, "{backend:?}");
        assert_eq!(pages.concat(), of("h", Some("b")), "{backend:?}");
        assert_eq!(pages.concat().len(), 3);
        let pages = all_pages(&ledger, HistoryOf::Pair("h2".into(), "a".into()), 1).await;
        assert_eq!(pages.len(), 1, "{backend:?}");
        assert_eq!(pages.concat(), of("h2", Some("a")), "{backend:?}");
        // Namespace history: everything, in position order.
        let pages = all_pages(&ledger, HistoryOf::Namespace, 3).await;
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![3, 3, 3, 1], "{backend:?}");
        let flat = pages.concat();
        assert_eq!(flat, written, "{backend:?}");
        let mut sorted = positions(&flat);
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, positions(&written), "{backend:?}");
        // Unknown subjects and pairs have empty histories.
        let empty = ledger
            .history(HistoryOf::Subject("nobody".into()), 0, 2)
            .await
            .unwrap();
        assert!(empty.records.is_empty() && empty.next.is_none());
        let empty = ledger
            .history(HistoryOf::Pair("h".into(), "zzz".into()), 0, 2)
            .await
            .unwrap();
        assert!(empty.records.is_empty() && empty.next.is_none());

        // Counts.
        let ns = ledger.counts(None, None).await.unwrap();
        assert_eq!(ns, tally(&written), "{backend:?}");
        assert_eq!(
            ns,
            count_map(&[
                (Disposition::VerificationRejected, 1),
                (Disposition::VerificationInconclusive, 1),
                (Disposition::ConfirmedPositive, 3),
                (Disposition::TransportFailure, 1),
                (Disposition::BlockedByTarget, 1),
                (Disposition::ConfirmedNegative, 2),
                (Disposition::NotApplicable, 1),
            ]),
            "{backend:?}"
        );
        assert_eq!(
            ledger.counts(Some("h"), None).await.unwrap(),
            tally(&of("h", None)),
            "{backend:?}"
        );
        assert_eq!(
            ledger.counts(Some("h2"), None).await.unwrap(),
            tally(&of("h2", None)),
            "{backend:?}"
        );
        assert_eq!(
            ledger.counts(Some("h"), Some("a")).await.unwrap(),
            count_map(&[
                (Disposition::VerificationRejected, 1),
                (Disposition::TransportFailure, 1),
                (Disposition::ConfirmedPositive, 2),
                (Disposition::NotApplicable, 1),
            ]),
            "{backend:?}"
        );
        assert_eq!(
            ledger.counts(Some("h"), Some("b")).await.unwrap(),
            tally(&of("h", Some("b"))),
            "{backend:?}"
        );
        assert_eq!(
            ledger.counts(Some("nobody"), None).await.unwrap(),
            count_map(&[]),
            "{backend:?}"
        );
        // Another namespace sees none of it.
        let other = ledger_in(ledger.engine(), "b");
        assert_eq!(other.counts(None, None).await.unwrap(), count_map(&[]));
        let page = other.history(HistoryOf::Namespace, 0, 10).await.unwrap();
        assert!(page.records.is_empty(), "{backend:?}");
    }
}
