//! Suppression: verified negatives, supersession, streak keys, re-exploration, and assessment as a pure read.

use super::*;

/// Only verified negatives count towards the limit (default 10), neutral outcomes neither add nor reset, a confirmed positive resets, and assess answers many actions in request order.
#[tokio::test]
async fn verified_negatives_suppress_and_only_a_positive_resets() {
    for backend in BACKENDS {
        let (_engine, _loc, ledger) = setup(backend).await;
        assert_eq!(ledger.policy().await.unwrap(), Policy::default());
        assert_eq!(ledger.policy().await.unwrap().consecutive_failure_limit, 10);

        // The default limit: nine negatives continue, the tenth suppresses.
        for i in 0..9 {
            insert(
                &ledger,
                active("dflt", "probe", &format!("c{i}"), Status::FalsePositive),
            )
            .await;
        }
        let nine = assess_one(&ledger, "dflt", act("probe")).await;
        assert_eq!(nine.recommendation, Recommendation::Continue, "{backend:?}");
        assert_eq!(nine.consecutive_failures, 9);
        assert_eq!(nine.limit, 10);
        insert(
            &ledger,
            active("dflt", "probe", "c9", Status::ConfirmedNegative),
        )
        .await;
        let ten = assess_one(&ledger, "dflt", act("probe")).await;
        assert_eq!(ten.recommendation, Recommendation::Suppress, "{backend:?}");
        assert_eq!(ten.consecutive_failures, 10);
        assert_eq!(ten.completed_attempts, 10);
        assert_eq!(ten.limit, 10);
        assert_eq!(ten.last_disposition, Some(Disposition::ConfirmedNegative));

        let policy = limit_policy(3, StreakKey::Action);
        ledger.set_policy(policy).await.unwrap();
        assert_eq!(ledger.policy().await.unwrap(), policy, "{backend:?}");
        let ten = assess_one(&ledger, "dflt", act("probe")).await;
        assert_eq!(ten.recommendation, Recommendation::Suppress);
        assert_eq!(ten.limit, 3);

        let h = "host";
        let step = |status| active(h, "probe", "", status);
        let mut case = 0;
        let mut next_case = |mut o: Outcome| {
            case += 1;
            o.case_id = format!("k{case}");
            o
        };
        let expect = |a: Assessment,
                      rec: Recommendation,
                      consecutive: u64,
                      completed: u64,
                      last: Option<Disposition>| {
            assert_eq!(a.recommendation, rec, "{backend:?}: {a:?}");
            assert_eq!(a.consecutive_failures, consecutive, "{backend:?}: {a:?}");
            assert_eq!(a.completed_attempts, completed, "{backend:?}: {a:?}");
            assert_eq!(a.last_disposition, last, "{backend:?}: {a:?}");
            assert_eq!(a.limit, 3, "{backend:?}");
        };

        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Explore,
            0,
            0,
            None,
        );
        insert(&ledger, next_case(step(Status::FalsePositive))).await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Continue,
            1,
            1,
            Some(Disposition::VerificationRejected),
        );
        insert_as(
            &ledger,
            next_case(step(Status::Unknown)),
            Disposition::TransportFailure,
        )
        .await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Continue,
            1,
            2,
            Some(Disposition::TransportFailure),
        );
        insert(&ledger, next_case(step(Status::ConfirmedNegative))).await;
        insert(&ledger, next_case(step(Status::Blocked))).await;
        insert_as(
            &ledger,
            next_case(step(Status::NeedsReview)),
            Disposition::ExecutorFailure,
        )
        .await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Continue,
            2,
            5,
            Some(Disposition::ExecutorFailure),
        );
        insert(&ledger, next_case(step(Status::FalsePositive))).await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Suppress,
            3,
            6,
            Some(Disposition::VerificationRejected),
        );
        // A passive unknown is no completed attempt.
        insert(&ledger, next_case(passive(h, "probe", "", Status::Unknown))).await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Suppress,
            3,
            6,
            Some(Disposition::VerificationRejected),
        );
        // A positive resets.
        insert(&ledger, next_case(step(Status::Success))).await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Continue,
            0,
            7,
            Some(Disposition::ConfirmedPositive),
        );
        insert(&ledger, next_case(step(Status::FalsePositive))).await;
        expect(
            assess_one(&ledger, h, act("probe")).await,
            Recommendation::Continue,
            1,
            8,
            Some(Disposition::VerificationRejected),
        );

        // Actions without completed attempts explore.
        insert(&ledger, passive(h, "looked", "p1", Status::Unknown)).await;
        insert(&ledger, passive(h, "looked", "p2", Status::NeedsReview)).await;
        expect(
            assess_one(&ledger, h, act("looked")).await,
            Recommendation::Explore,
            0,
            0,
            None,
        );
        expect(
            assess_one(&ledger, h, act("never")).await,
            Recommendation::Explore,
            0,
            0,
            None,
        );
        expect(
            assess_one(&ledger, "nobody", act("probe")).await,
            Recommendation::Explore,
            0,
            0,
            None,
        );
        // A passive blocked is a completed attempt.
        insert(&ledger, passive(h, "walled", "w1", Status::Blocked)).await;
        expect(
            assess_one(&ledger, h, act("walled")).await,
            Recommendation::Continue,
            0,
            1,
            Some(Disposition::BlockedByTarget),
        );
        for i in 0..3 {
            insert(
                &ledger,
                active(h, "dead", &format!("d{i}"), Status::FalsePositive),
            )
            .await;
        }

        // Many actions in one call, answered in request order.
        let asked = vec![
            act("never"),
            act("dead"),
            act("probe"),
            act("looked"),
            act("walled"),
            act("dead"),
        ];
        let all = ledger.assess(h, asked).await.unwrap();
        let got: Vec<(Recommendation, u64, u64)> = all
            .iter()
            .map(|a| {
                (
                    a.recommendation,
                    a.consecutive_failures,
                    a.completed_attempts,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (Recommendation::Explore, 0, 0),
                (Recommendation::Suppress, 3, 3),
                (Recommendation::Continue, 1, 8),
                (Recommendation::Explore, 0, 0),
                (Recommendation::Continue, 0, 1),
                (Recommendation::Suppress, 3, 3),
            ],
            "{backend:?}"
        );
        assert!(ledger.assess(h, vec![]).await.unwrap().is_empty());

        // The policy belongs to the namespace: another one keeps the default.
        let other = ledger_in(ledger.engine(), "b");
        assert_eq!(other.policy().await.unwrap(), Policy::default());
        assert_eq!(
            summary(&other, h, act("dead")).await,
            (Recommendation::Explore, 0, 0),
            "{backend:?}: namespaces are isolated"
        );
        // An invalid policy is refused.
        let zero = limit_policy(0, StreakKey::Action);
        match ledger.set_policy(zero).await {
            Err(StoreError::Refused(Refusal::Invalid(e))) => {
                assert_eq!(e.path(), Some("/consecutive_failure_limit"));
            }
            other => panic!("{backend:?}: {other:?}"),
        }
        assert_eq!(ledger.policy().await.unwrap(), policy, "{backend:?}");
    }
}

/// An active record supersedes a passive record of the same case, whatever order they arrive in.
#[tokio::test]
async fn an_active_record_supersedes_a_passive_one_of_its_case() {
    for backend in BACKENDS {
        let (_engine, _loc, ledger) = setup(backend).await;
        ledger
            .set_policy(limit_policy(2, StreakKey::Action))
            .await
            .unwrap();
        let h = "host";
        let a = || act("probe");

        insert(&ledger, passive(h, "probe", "c", Status::Success)).await;
        assert_eq!(
            summary(&ledger, h, a()).await,
            (Recommendation::Continue, 0, 1),
            "{backend:?}"
        );
        insert(&ledger, active(h, "probe", "c", Status::FalsePositive)).await;
        let after = assess_one(&ledger, h, a()).await;
        assert_eq!(after.consecutive_failures, 1, "{backend:?}");
        assert_eq!(after.completed_attempts, 1, "{backend:?}");
        assert_eq!(
            after.last_disposition,
            Some(Disposition::VerificationRejected)
        );
        assert_eq!(after.recommendation, Recommendation::Continue);

        // A negative, then a passive success that resets, then its case's
        // active negative: the passive success no longer counts.
        insert(&ledger, active(h, "probe", "d", Status::ConfirmedNegative)).await;
        assert_eq!(
            summary(&ledger, h, a()).await,
            (Recommendation::Suppress, 2, 2),
            "{backend:?}"
        );
        insert(&ledger, passive(h, "probe", "e", Status::Success)).await;
        assert_eq!(
            summary(&ledger, h, a()).await,
            (Recommendation::Continue, 0, 3),
            "{backend:?}"
        );
        insert(&ledger, active(h, "probe", "e", Status::FalsePositive)).await;
        assert_eq!(
            summary(&ledger, h, a()).await,
            (Recommendation::Suppress, 3, 3),
            "{backend:?}"
        );

        // An active neutral record supersedes a passive success as well.
        insert(&ledger, passive(h, "probe", "f", Status::Success)).await;
        assert_eq!(
            summary(&ledger, h, a()).await,
            (Recommendation::Continue, 0, 4),
            "{backend:?}"
        );
        insert_as(
            &ledger,
            active(h, "probe", "f", Status::Unknown),
            Disposition::TransportFailure,
        )
        .await;
        let neutral = assess_one(&ledger, h, a()).await;
        assert_eq!(
            (
                neutral.recommendation,
                neutral.consecutive_failures,
                neutral.completed_attempts
            ),
            (Recommendation::Suppress, 3, 4),
            "{backend:?}"
        );
        assert_eq!(
            neutral.last_disposition,
            Some(Disposition::TransportFailure)
        );

        // A passive record after the active one of its case changes nothing.
        insert(&ledger, passive(h, "probe", "d2", Status::Unknown)).await;
        insert(&ledger, active(h, "probe", "g", Status::FalsePositive)).await;
        insert(&ledger, passive(h, "probe", "g", Status::Success)).await;
        assert_eq!(
            summary(&ledger, h, a()).await,
            (Recommendation::Suppress, 4, 5),
            "{backend:?}"
        );
        // Every record stays in history, superseded or not.
        let history = ledger
            .history(HistoryOf::Pair(h.into(), "probe".into()), 0, 100)
            .await
            .unwrap();
        assert_eq!(history.records.len(), 10, "{backend:?}");
    }
}

/// With revision keying a new revision starts afresh, with action keying the same records suppress every revision.
#[tokio::test]
async fn streaks_follow_the_policy_key() {
    for backend in BACKENDS {
        let (_engine, _loc, ledger) = setup(backend).await;
        let h = "host";
        ledger
            .set_policy(limit_policy(2, StreakKey::ActionRevision))
            .await
            .unwrap();
        insert(
            &ledger,
            revised(active(h, "probe", "c1", Status::FalsePositive), "v1"),
        )
        .await;
        insert(
            &ledger,
            revised(active(h, "probe", "c2", Status::ConfirmedNegative), "v1"),
        )
        .await;
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v1")).await,
            (Recommendation::Suppress, 2, 2),
            "{backend:?}"
        );
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v2")).await,
            (Recommendation::Explore, 0, 0),
            "{backend:?}"
        );
        assert_eq!(
            summary(&ledger, h, act("probe")).await,
            (Recommendation::Explore, 0, 0),
            "{backend:?}: no revision is a revision of its own"
        );
        insert(
            &ledger,
            revised(active(h, "probe", "c3", Status::FalsePositive), "v2"),
        )
        .await;
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v2")).await,
            (Recommendation::Continue, 1, 1),
            "{backend:?}"
        );
        insert(&ledger, active(h, "probe", "c4", Status::FalsePositive)).await;
        assert_eq!(
            summary(&ledger, h, act("probe")).await,
            (Recommendation::Continue, 1, 1),
            "{backend:?}"
        );

        // Supersession crosses revisions: the passive success under v1 is
        // replaced by its case's active negative under v2.
        insert(
            &ledger,
            revised(passive(h, "probe", "c5", Status::Success), "v1"),
        )
        .await;
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v1")).await,
            (Recommendation::Continue, 0, 3),
            "{backend:?}"
        );
        insert(
            &ledger,
            revised(active(h, "probe", "c5", Status::FalsePositive), "v2"),
        )
        .await;
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v1")).await,
            (Recommendation::Suppress, 2, 2),
            "{backend:?}"
        );
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v2")).await,
            (Recommendation::Suppress, 2, 2),
            "{backend:?}"
        );

        // Switching to action keying needs no rebuild.
        ledger
            .set_policy(limit_policy(2, StreakKey::Action))
            .await
            .unwrap();
        for asked in [act("probe"), act_rev("probe", "v1"), act_rev("probe", "v9")] {
            assert_eq!(
                summary(&ledger, h, asked.clone()).await,
                (Recommendation::Suppress, 5, 5),
                "{backend:?}: {asked:?}"
            );
        }
        // And back.
        ledger
            .set_policy(limit_policy(3, StreakKey::ActionRevision))
            .await
            .unwrap();
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v9")).await,
            (Recommendation::Explore, 0, 0),
            "{backend:?}"
        );
        assert_eq!(
            summary(&ledger, h, act_rev("probe", "v2")).await,
            (Recommendation::Continue, 2, 2),
            "{backend:?}"
        );
    }
}

/// A suppressed action may be explored once after further observations of its subject (or after a cool-down), and a new negative suppresses it again.
#[tokio::test]
async fn reexploration_after_observations_and_cooldown() {
    for backend in BACKENDS {
        let (_engine, _loc, ledger) = setup(backend).await;
        let h = "host";
        ledger
            .set_policy(Policy {
                consecutive_failure_limit: 2,
                streak_key: StreakKey::Action,
                reexplore: Some(Reexplore {
                    after_seconds: None,
                    after_observations: Some(2),
                }),
            })
            .await
            .unwrap();
        insert(&ledger, active(h, "probe", "c1", Status::FalsePositive)).await;
        insert(&ledger, active(h, "probe", "c2", Status::FalsePositive)).await;
        let rec = |ledger: &AttemptLedger| {
            let ledger = ledger.clone();
            async move { assess_one(&ledger, h, act("probe")).await.recommendation }
        };
        assert_eq!(rec(&ledger).await, Recommendation::Suppress, "{backend:?}");

        // Observations of other subjects do not count.
        insert(&ledger, active("elsewhere", "probe", "x1", Status::Success)).await;
        insert(&ledger, active("elsewhere", "probe", "x2", Status::Success)).await;
        assert_eq!(rec(&ledger).await, Recommendation::Suppress, "{backend:?}");

        // One observation of the subject is not enough, a repeat adds nothing.
        let first = passive(h, "other", "o1", Status::Unknown);
        insert(&ledger, first.clone()).await;
        assert_eq!(
            ledger.observe(first).await.unwrap().write,
            WriteKind::Unchanged
        );
        assert_eq!(rec(&ledger).await, Recommendation::Suppress, "{backend:?}");
        // The second one allows exploration.
        insert(&ledger, active(h, "other", "o2", Status::FalsePositive)).await;
        let explore = assess_one(&ledger, h, act("probe")).await;
        assert_eq!(
            explore.recommendation,
            Recommendation::Explore,
            "{backend:?}"
        );
        assert_eq!(explore.consecutive_failures, 2);
        assert_eq!(explore.completed_attempts, 2);

        // The exploratory attempt fails: suppressed again.
        insert(&ledger, active(h, "probe", "c3", Status::ConfirmedNegative)).await;
        let again = assess_one(&ledger, h, act("probe")).await;
        assert_eq!(
            again.recommendation,
            Recommendation::Suppress,
            "{backend:?}"
        );
        assert_eq!(again.consecutive_failures, 3);
        insert(&ledger, passive(h, "other", "o3", Status::Unknown)).await;
        assert_eq!(rec(&ledger).await, Recommendation::Suppress, "{backend:?}");
        insert(&ledger, passive(h, "other", "o4", Status::Unknown)).await;
        assert_eq!(rec(&ledger).await, Recommendation::Explore, "{backend:?}");

        // Time-based re-exploration, in a namespace of its own.
        let timed = ledger_in(ledger.engine(), "timed");
        timed
            .set_policy(Policy {
                consecutive_failure_limit: 1,
                streak_key: StreakKey::Action,
                reexplore: Some(Reexplore {
                    after_seconds: Some(1),
                    after_observations: None,
                }),
            })
            .await
            .unwrap();
        insert(&timed, active(h, "probe", "t1", Status::FalsePositive)).await;
        assert_eq!(rec(&timed).await, Recommendation::Suppress, "{backend:?}");
        tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
        assert_eq!(rec(&timed).await, Recommendation::Explore, "{backend:?}");
        insert(&timed, active(h, "probe", "t2", Status::FalsePositive)).await;
        assert_eq!(rec(&timed).await, Recommendation::Suppress, "{backend:?}");
    }
}

/// Assessing is a pure read: however often it is asked, the ledger gains no event.
#[tokio::test]
async fn assess_writes_nothing() {
    for backend in BACKENDS {
        let (engine, _loc, ledger) = setup(backend).await;
        ledger
            .set_policy(Policy {
                consecutive_failure_limit: 1,
                streak_key: StreakKey::ActionRevision,
                reexplore: Some(Reexplore {
                    after_seconds: Some(3600),
                    after_observations: Some(5),
                }),
            })
            .await
            .unwrap();
        insert(&ledger, active("h", "a", "c1", Status::FalsePositive)).await;
        insert(&ledger, active("h", "b", "c1", Status::Success)).await;
        insert(&ledger, passive("h", "c", "c1", Status::Unknown)).await;
        let before = engine.ledger().events("t", 0, 10_000).await.unwrap();
        let before_counts = ledger.counts(None, None).await.unwrap();
        for i in 0..40 {
            let subject = if i % 3 == 0 { "h" } else { "unseen" };
            let asked = vec![
                act("a"),
                act("b"),
                act("c"),
                act_rev("a", &format!("v{i}")),
                act("missing"),
            ];
            let answers = ledger.assess(subject, asked).await.unwrap();
            assert_eq!(answers.len(), 5);
        }
        let after = engine.ledger().events("t", 0, 10_000).await.unwrap();
        assert_eq!(after.len(), before.len(), "{backend:?}");
        assert_eq!(after, before, "{backend:?}");
        assert_eq!(
            ledger.counts(None, None).await.unwrap(),
            before_counts,
            "{backend:?}"
        );
    }
}
