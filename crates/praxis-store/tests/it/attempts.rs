//! The attempt ledger's storage: identity, dispositions, suppression,
//! history, counts and legacy import/export, identically on both engines.

use praxis_domain::Refusal;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use praxis_domain::attempts::{
    Assessment, DISPOSITIONS, Disposition, LegacyRecord, LegacyStore, Observation, Outcome, Policy,
    Recommendation, Reexplore, STATUSES, Stage, Status, StreakKey,
};
use praxis_domain::auth::{Scope, Visibility};
use praxis_domain::ledger::Actor;
use praxis_store::AttemptLedger;
use praxis_store::attempts::{ActionRef, AttemptRecord, AttemptWrite, HistoryOf, WriteKind};
use praxis_store::{Engine, StoreError};
use praxis_testkit::{BACKENDS, Backend, StoreLocation};
use proptest::prelude::*;
use proptest::test_runner::{TestCaseError, TestRunner};

use crate::contract::{engine, tenant};

// ---------------------------------------------------------------- helpers

fn scope(agent: &str) -> Scope {
    Scope {
        project_id: "proj".into(),
        mission_id: None,
        agent_id: agent.into(),
        visibility: Visibility::Shared,
    }
}

fn ledger_in(engine: &Arc<dyn Engine>, agent: &str) -> AttemptLedger {
    AttemptLedger::new(
        engine.clone(),
        "t",
        scope(agent).namespace("alice"),
        Actor {
            credential_id: "cred-alice".into(),
            subject: "alice".into(),
        },
    )
}

/// A fresh store with tenant "t" and a ledger in agent "a"'s namespace.
async fn setup(backend: Backend) -> (Arc<dyn Engine>, StoreLocation, AttemptLedger) {
    let (engine, loc) = engine(backend).await;
    tenant(&*engine, "t").await;
    let ledger = ledger_in(&engine, "a");
    (engine, loc, ledger)
}

/// A valid outcome of the given shape: every status but unknown names its
/// rule, cites evidence and is confident, as the outcome contract requires.
fn outcome(subject: &str, action: &str, case: &str, stage: Stage, status: Status) -> Outcome {
    let sure = status != Status::Unknown;
    Outcome {
        case_id: case.into(),
        subject: subject.into(),
        action_id: action.into(),
        hypothesis_id: format!("hyp-{action}"),
        verifier_rule_id: sure.then(|| "rule-1".into()),
        stage,
        status,
        confidence: if sure { 900_000 } else { 0 },
        rationale: format!("{} at {}", status.as_str(), stage.as_str()),
        evidence_ids: if sure { vec!["ev-1".into()] } else { vec![] },
        action_revision: None,
        observed_at: None,
    }
}

fn active(subject: &str, action: &str, case: &str, status: Status) -> Outcome {
    outcome(subject, action, case, Stage::Active, status)
}

fn passive(subject: &str, action: &str, case: &str, status: Status) -> Outcome {
    outcome(subject, action, case, Stage::Passive, status)
}

fn revised(mut o: Outcome, revision: &str) -> Outcome {
    o.action_revision = Some(revision.into());
    o
}

fn act(action: &str) -> ActionRef {
    ActionRef {
        action_id: action.into(),
        action_revision: None,
    }
}

fn act_rev(action: &str, revision: &str) -> ActionRef {
    ActionRef {
        action_id: action.into(),
        action_revision: Some(revision.into()),
    }
}

async fn assess_one(ledger: &AttemptLedger, subject: &str, action: ActionRef) -> Assessment {
    let mut all = ledger.assess(subject, vec![action]).await.unwrap();
    assert_eq!(all.len(), 1);
    all.pop().unwrap()
}

/// Recommendation, consecutive failures, completed attempts.
async fn summary(
    ledger: &AttemptLedger,
    subject: &str,
    action: ActionRef,
) -> (Recommendation, u64, u64) {
    let a = assess_one(ledger, subject, action).await;
    (
        a.recommendation,
        a.consecutive_failures,
        a.completed_attempts,
    )
}

async fn insert(ledger: &AttemptLedger, o: Outcome) -> AttemptRecord {
    let w = ledger.observe(o).await.unwrap();
    assert_eq!(w.write, WriteKind::Inserted);
    w.record
}

async fn insert_as(ledger: &AttemptLedger, o: Outcome, d: Disposition) -> AttemptRecord {
    let w = ledger.observe_with_disposition(o, d).await.unwrap();
    assert_eq!(w.write, WriteKind::Inserted);
    w.record
}

async fn event_count(engine: &Arc<dyn Engine>) -> usize {
    engine.ledger().events("t", 0, 10_000).await.unwrap().len()
}

/// Every record of a history, read page by page with a small limit.
async fn all_pages(ledger: &AttemptLedger, of: HistoryOf, limit: usize) -> Vec<Vec<AttemptRecord>> {
    let mut pages = Vec::new();
    let mut after = 0;
    loop {
        let page = ledger.history(of.clone(), after, limit).await.unwrap();
        assert!(page.records.len() <= limit);
        let last = page.next;
        pages.push(page.records);
        match last {
            Some(next) => {
                assert!(next > after, "the cursor advances");
                after = next;
            }
            None => return pages,
        }
        assert!(pages.len() < 1_000, "history pages never end");
    }
}

fn positions(records: &[AttemptRecord]) -> Vec<u64> {
    records.iter().map(|r| r.position).collect()
}

/// Every disposition, zero unless listed.
fn count_map(pairs: &[(Disposition, u64)]) -> BTreeMap<Disposition, u64> {
    let mut all: BTreeMap<Disposition, u64> = DISPOSITIONS.iter().map(|d| (*d, 0)).collect();
    for (d, n) in pairs {
        *all.get_mut(d).unwrap() += n;
    }
    all
}

fn tally(records: &[AttemptRecord]) -> BTreeMap<Disposition, u64> {
    let pairs: Vec<(Disposition, u64)> = records
        .iter()
        .map(|r| (r.observation.disposition, 1))
        .collect();
    count_map(&pairs)
}

/// Subject, action, case, stage, status and stated disposition of one observation.
type PlanStep = (
    &'static str,
    &'static str,
    &'static str,
    Stage,
    Status,
    Option<Disposition>,
);

fn limit_policy(limit: u32, streak_key: StreakKey) -> Policy {
    Policy {
        consecutive_failure_limit: limit,
        streak_key,
        reexplore: None,
    }
}

// ------------------------------------------------------------------ tests

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

// ----------------------------------------------------------- the property

const SUBJECTS: [&str; 2] = ["s0", "s1"];
const ACTIONS: [&str; 2] = ["a0", "a1"];
const REVISIONS: [Option<&str>; 3] = [None, Some("v0"), Some("v1")];

#[derive(Clone, Debug)]
enum Op {
    Observe {
        subject: usize,
        action: usize,
        case: u8,
        revision: usize,
        active: bool,
        status: Status,
        /// Index into the dispositions fitting the status, or `None` to infer.
        disposition: Option<usize>,
        rationale: u8,
    },
    SetPolicy {
        limit: u32,
        by_revision: bool,
    },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (
            0..SUBJECTS.len(),
            0..ACTIONS.len(),
            0u8..3,
            0..REVISIONS.len(),
            any::<bool>(),
            proptest::sample::select(STATUSES.to_vec()),
            proptest::option::of(0usize..5),
            0u8..2,
        )
            .prop_map(
                |(subject, action, case, revision, active, status, disposition, rationale)| {
                    Op::Observe {
                        subject,
                        action,
                        case,
                        revision,
                        active,
                        status,
                        disposition,
                        rationale,
                    }
                }
            ),
        1 => (1u32..=4, any::<bool>())
            .prop_map(|(limit, by_revision)| Op::SetPolicy { limit, by_revision }),
    ]
}

/// One accepted record of the model.
struct Kept {
    order: u64,
    position: u64,
    observation: Observation,
}

/// The model's answer: recommendation, consecutive negatives, completed attempts, last disposition.
fn model_assess(
    kept: &[Kept],
    policy: &Policy,
    subject: &str,
    action: &str,
    revision: Option<&str>,
) -> (Recommendation, u64, u64, Option<Disposition>) {
    // Per case, one record: an active one supersedes a passive one.
    let mut by_case: BTreeMap<&str, &Kept> = BTreeMap::new();
    for k in kept {
        let o = &k.observation.outcome;
        if o.subject != subject || o.action_id != action {
            continue;
        }
        let replace = match by_case.get(o.case_id.as_str()) {
            None => true,
            Some(held) => {
                held.observation.outcome.stage == Stage::Passive && o.stage == Stage::Active
            }
        };
        if replace {
            by_case.insert(&o.case_id, k);
        }
    }
    let mut completed: Vec<&Kept> = by_case
        .into_values()
        .filter(|k| {
            let o = &k.observation.outcome;
            match o.status {
                Status::Success
                | Status::Blocked
                | Status::FalsePositive
                | Status::ConfirmedNegative => true,
                Status::Unknown | Status::NeedsReview => o.stage == Stage::Active,
            }
        })
        .filter(|k| match policy.streak_key {
            StreakKey::Action => true,
            StreakKey::ActionRevision => {
                k.observation
                    .outcome
                    .action_revision
                    .as_deref()
                    .unwrap_or("")
                    == revision.unwrap_or("")
            }
        })
        .collect();
    completed.sort_by_key(|k| std::cmp::Reverse(k.order));
    let mut streak = 0u64;
    for k in &completed {
        match k.observation.disposition {
            Disposition::VerificationRejected | Disposition::ConfirmedNegative => streak += 1,
            Disposition::ConfirmedPositive => break,
            _ => {}
        }
    }
    let last = completed.first().map(|k| k.observation.disposition);
    let recommendation = if completed.is_empty() {
        Recommendation::Explore
    } else if streak >= u64::from(policy.consecutive_failure_limit) {
        Recommendation::Suppress
    } else {
        Recommendation::Continue
    };
    (recommendation, streak, completed.len() as u64, last)
}

fn fail(message: String) -> TestCaseError {
    TestCaseError::fail(message)
}

/// Runs one sequence of operations in a fresh namespace, checking every answer against the model.
async fn run_case(
    engine: &Arc<dyn Engine>,
    namespaces: &AtomicU64,
    ops: Vec<Op>,
) -> Result<(), TestCaseError> {
    let ledger = ledger_in(
        engine,
        &format!("prop{}", namespaces.fetch_add(1, Ordering::SeqCst)),
    );
    let mut policy = Policy::default();
    let mut kept: Vec<Kept> = Vec::new();
    let mut last_position = 0;
    for (step, op) in ops.into_iter().enumerate() {
        match op {
            Op::SetPolicy { limit, by_revision } => {
                policy = limit_policy(
                    limit,
                    if by_revision {
                        StreakKey::ActionRevision
                    } else {
                        StreakKey::Action
                    },
                );
                ledger
                    .set_policy(policy)
                    .await
                    .map_err(|e| fail(format!("step {step}: set_policy: {e}")))?;
            }
            Op::Observe {
                subject,
                action,
                case,
                revision,
                active,
                status,
                disposition,
                rationale,
            } => {
                let stage = if active {
                    Stage::Active
                } else {
                    Stage::Passive
                };
                let mut o = outcome(
                    SUBJECTS[subject],
                    ACTIONS[action],
                    &format!("c{case}"),
                    stage,
                    status,
                );
                o.action_revision = REVISIONS[revision].map(str::to_owned);
                o.rationale = format!("r{rationale}");
                let fitting: Vec<Disposition> = DISPOSITIONS
                    .into_iter()
                    .filter(|d| d.fits(status))
                    .collect();
                let stated = disposition.map(|i| fitting[i % fitting.len()]);
                let result = match stated {
                    None => ledger.observe(o.clone()).await,
                    Some(d) => ledger.observe_with_disposition(o.clone(), d).await,
                };
                if status == Status::ConfirmedNegative && stage == Stage::Passive {
                    match result {
                        Err(StoreError::Refused(Refusal::Invalid(e)))
                            if e.path() == Some("/outcome/stage") => {}
                        other => {
                            return Err(fail(format!(
                                "step {step}: passive confirmed_negative gave {other:?}"
                            )));
                        }
                    }
                    continue;
                }
                let observation = Observation {
                    disposition: stated.unwrap_or_else(|| Disposition::infer(status)),
                    outcome: o,
                };
                let held = kept
                    .iter()
                    .find(|k| k.observation.identity() == observation.identity());
                match (held, result) {
                    (Some(k), Ok(w)) if k.observation == observation => {
                        prop_assert_eq!(w.write, WriteKind::Unchanged, "step {}", step);
                        prop_assert_eq!(w.record.position, k.position, "step {}", step);
                        prop_assert_eq!(&w.record.observation, &observation, "step {}", step);
                    }
                    (Some(_), Err(StoreError::Refused(Refusal::IdentityConflict))) => {}
                    (None, Ok(w)) => {
                        prop_assert_eq!(w.write, WriteKind::Inserted, "step {}", step);
                        prop_assert!(w.record.position > last_position, "step {}", step);
                        prop_assert_eq!(&w.record.observation, &observation, "step {}", step);
                        last_position = w.record.position;
                        kept.push(Kept {
                            order: kept.len() as u64,
                            position: w.record.position,
                            observation,
                        });
                    }
                    (held, other) => {
                        return Err(fail(format!(
                            "step {step}: {observation:?} (held: {:?}) gave {other:?}",
                            held.map(|k| &k.observation)
                        )));
                    }
                }
            }
        }
        // Every key agrees with the model after every step.
        for subject in SUBJECTS {
            let asked: Vec<ActionRef> = ACTIONS
                .iter()
                .flat_map(|a| {
                    REVISIONS.iter().map(|r| ActionRef {
                        action_id: (*a).into(),
                        action_revision: r.map(str::to_owned),
                    })
                })
                .collect();
            let answers = ledger
                .assess(subject, asked.clone())
                .await
                .map_err(|e| fail(format!("step {step}: assess: {e}")))?;
            prop_assert_eq!(answers.len(), asked.len());
            for (a, answer) in asked.iter().zip(&answers) {
                let expected = model_assess(
                    &kept,
                    &policy,
                    subject,
                    &a.action_id,
                    a.action_revision.as_deref(),
                );
                let got = (
                    answer.recommendation,
                    answer.consecutive_failures,
                    answer.completed_attempts,
                    answer.last_disposition,
                );
                prop_assert_eq!(
                    got,
                    expected,
                    "step {}: {} {:?} under {:?}",
                    step,
                    subject,
                    a,
                    policy
                );
                prop_assert_eq!(answer.limit, policy.consecutive_failure_limit);
            }
        }
    }
    // Counts agree too.
    let kept_records: Vec<(Disposition, u64)> = kept
        .iter()
        .map(|k| (k.observation.disposition, 1))
        .collect();
    let counts = ledger
        .counts(None, None)
        .await
        .map_err(|e| fail(format!("counts: {e}")))?;
    prop_assert_eq!(counts, count_map(&kept_records));
    Ok(())
}

/// Random observations and policies give the same assessments as a literal walk over the accepted records, on both engines.
#[test]
fn assessments_equal_a_literal_model() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    for backend in BACKENDS {
        let (engine, _loc) = rt.block_on(engine(backend));
        rt.block_on(tenant(&*engine, "t"));
        let namespaces = AtomicU64::new(0);
        let mut runner = TestRunner::new(ProptestConfig {
            cases: 8,
            failure_persistence: None,
            max_shrink_iters: 300,
            ..ProptestConfig::default()
        });
        // Most cases start with a small limit, so that suppression is reached.
        let ops = (
            proptest::option::weighted(0.8, (1u32..=4, any::<bool>())),
            proptest::collection::vec(op(), 1..40),
        )
            .prop_map(|(first, mut ops)| {
                if let Some((limit, by_revision)) = first {
                    ops.insert(0, Op::SetPolicy { limit, by_revision });
                }
                ops
            });
        let result = runner.run(&ops, |ops| rt.block_on(run_case(&engine, &namespaces, ops)));
        if let Err(e) = result {
            panic!("{backend:?}: {e}");
        }
        rt.block_on(async move { drop(engine) });
    }
}
