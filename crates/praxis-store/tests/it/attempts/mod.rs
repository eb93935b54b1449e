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

mod history;
mod legacy;
mod model;
mod observe;
mod policy;
mod streaks;

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
