//! Policy changes on both engines: only the fields named change, merged
//! against the policy stored in the writer's transaction.

use praxis_domain::attempts::{Change, PolicyUpdate, ReexploreUpdate};

use super::*;

#[tokio::test]
async fn a_policy_change_merges_into_the_stored_policy() {
    for backend in BACKENDS {
        let (engine, _loc, ledger) = setup(backend).await;
        let first = ledger
            .update_policy(PolicyUpdate {
                streak_key: Change::Set(StreakKey::ActionRevision),
                reexplore: Change::Set(ReexploreUpdate {
                    after_seconds: Change::Set(60),
                    after_observations: Change::Keep,
                }),
                ..PolicyUpdate::default()
            })
            .await
            .unwrap();
        let reexplore = Some(Reexplore {
            after_seconds: Some(60),
            after_observations: None,
        });
        assert_eq!(
            first,
            Policy {
                consecutive_failure_limit: 10,
                streak_key: StreakKey::ActionRevision,
                reexplore,
            },
            "{backend:?}"
        );

        // A limit alone keeps the re-exploration and the streak key.
        let second = ledger
            .update_policy(PolicyUpdate {
                consecutive_failure_limit: Change::Set(2),
                ..PolicyUpdate::default()
            })
            .await
            .unwrap();
        assert_eq!(
            second,
            Policy {
                consecutive_failure_limit: 2,
                ..first
            },
            "{backend:?}"
        );
        assert_eq!(ledger.policy().await.unwrap(), second, "{backend:?}");

        // Another namespace's policy is its own.
        let other = ledger_in(&engine, "b");
        assert_eq!(other.policy().await.unwrap(), Policy::default());

        // A change that would leave re-exploration empty writes nothing.
        let events = event_count(&engine).await;
        let refused = ledger
            .update_policy(PolicyUpdate {
                reexplore: Change::Set(ReexploreUpdate {
                    after_seconds: Change::Reset,
                    after_observations: Change::Keep,
                }),
                ..PolicyUpdate::default()
            })
            .await;
        assert!(
            matches!(&refused, Err(StoreError::Refused(Refusal::Invalid(e))) if e.path() == Some("/reexplore")),
            "{backend:?}: {refused:?}"
        );
        assert_eq!(event_count(&engine).await, events, "{backend:?}");
        assert_eq!(ledger.policy().await.unwrap(), second, "{backend:?}");

        // A whole replacement is still possible, and resets what it omits.
        ledger
            .set_policy(limit_policy(4, StreakKey::Action))
            .await
            .unwrap();
        assert_eq!(
            ledger.policy().await.unwrap(),
            limit_policy(4, StreakKey::Action),
            "{backend:?}"
        );
        let report = engine.verify().await.unwrap();
        assert!(
            report.problems.is_empty(),
            "{backend:?}: {:?}",
            report.problems
        );
    }
}
