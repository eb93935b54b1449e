//! The learning projections rebuilt from the log, for verification.
//!
//! Experiences are re-decided event by event with the writer's own rules:
//! an attempt's context must be registered with the digest it bound, a
//! parent must be an earlier event with the digest the child bound, each
//! event must be what accepting its content from the attempt's reporter
//! produces, and each withdrawal must name an accepted event, once.

use std::collections::{BTreeMap, BTreeSet};

use praxis_domain::auth::Namespace;
use praxis_domain::learning::{
    Attempt, CONTEXT_REGISTERED, EVALUATION_SUBMITTED, EVENT_REPORTED, MAX_LINEAGE,
    POLICY_REGISTERED, PROCEDURE_PROPOSED, RECORDED, Reported, ReportedEvent, STRATEGY_CREATED,
    WITHDRAWN, Withdrawal, experience_stream,
};
use praxis_domain::ledger::Event;
use serde::de::DeserializeOwned;

use super::experiences::{attempt_row, event_row, withdrawal_row};
use super::procedures::ProcedureRead;
use super::procedures::fold::{Observed, ProcedureFold};
use super::registry::RegistryFold;
use super::rows::{AttemptRow, EventRow, WithdrawalRow};
use super::{Experience, LearningRead, Recorded, StoredEvent, StoredWithdrawal};
use crate::error::StoreError;

/// (namespace, attempt id).
type AttemptKey = (String, String);
/// (namespace, attempt id, event id).
type EventKey = (String, String, String);
/// (namespace, idempotency key).
type WithdrawalKey = (String, String);

/// Every learning projection, rebuilt.
#[derive(Default)]
pub(crate) struct LearningFold {
    registry: RegistryFold,
    attempts: BTreeMap<AttemptKey, Experience>,
    events: BTreeMap<EventKey, StoredEvent>,
    withdrawals: BTreeMap<WithdrawalKey, StoredWithdrawal>,
    withdrawn: BTreeSet<EventKey>,
    last_events: BTreeMap<AttemptKey, String>,
    procedures: ProcedureFold,
}

fn decode<T: DeserializeOwned>(kind: &str, event: &Event) -> Result<T, String> {
    serde_json::from_value(event.payload.clone()).map_err(|e| format!("undecodable {kind}: {e}"))
}

impl LearningFold {
    /// Folds one event; returns a problem when it breaks a rule.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let result = match event.kind.as_str() {
            POLICY_REGISTERED | CONTEXT_REGISTERED => return self.registry.fold(event),
            RECORDED => self.recorded(event),
            EVENT_REPORTED => self.reported(event),
            WITHDRAWN => self.withdrawn(event),
            PROCEDURE_PROPOSED => self.procedures.proposed(event, &self.registry),
            STRATEGY_CREATED => self.procedures.strategy_created(
                event,
                &self.registry,
                &Observed {
                    events: &self.events,
                    attempts: &self.attempts,
                    withdrawn: &self.withdrawn,
                },
            ),
            EVALUATION_SUBMITTED => self.procedures.evaluated(event),
            _ => Ok(()),
        };
        result.err()
    }

    fn in_stream(event: &Event, attempt_id: &str, what: &str) -> Result<(), String> {
        if event.namespace == Namespace::admin() || event.stream != experience_stream(attempt_id) {
            return Err(format!("{what}: written outside its attempt's stream"));
        }
        Ok(())
    }

    fn recorded(&mut self, event: &Event) -> Result<(), String> {
        let attempt: Attempt = decode(RECORDED, event)?;
        let what = format!("experience attempt {:?}", attempt.id);
        Self::in_stream(event, &attempt.id, &what)?;
        let ns = event.namespace.0.clone();
        if self.registry.context_digest(&attempt.context_id) != Some(attempt.context_digest) {
            return Err(format!(
                "{what}: its context is not registered with that digest"
            ));
        }
        let depth = match &attempt.parent {
            None => 1,
            Some(p) => {
                let key = (ns.clone(), p.attempt_id.clone(), p.event_id.clone());
                match (
                    self.events.get(&key),
                    self.attempts.get(&(ns.clone(), p.attempt_id.clone())),
                ) {
                    (Some(e), Some(parent)) if e.event.event_digest == p.event_digest => {
                        parent.depth + 1
                    }
                    _ => return Err(format!("{what}: its parent is not an earlier event")),
                }
            }
        };
        if depth > MAX_LINEAGE as u64 {
            return Err(format!("{what}: its lineage is too deep"));
        }
        let key = (ns, attempt.id.clone());
        if self.attempts.contains_key(&key) {
            return Err(format!("{what}: recorded twice"));
        }
        let experience = Experience {
            state: praxis_domain::learning::ExperienceState::recorded(&attempt),
            attempt,
            depth,
            recorded: Recorded::of(event),
        };
        self.attempts.insert(key, experience);
        Ok(())
    }

    fn reported(&mut self, event: &Event) -> Result<(), String> {
        let stored: ReportedEvent = decode(EVENT_REPORTED, event)?;
        let what = format!(
            "experience event {:?}/{:?}",
            stored.attempt_id, stored.event.event_id
        );
        Self::in_stream(event, &stored.attempt_id, &what)?;
        let ns = event.namespace.0.clone();
        let key = (ns.clone(), stored.event.event_id.clone());
        let event_key = (ns.clone(), stored.attempt_id.clone(), key.1);
        if self.events.contains_key(&event_key) {
            return Err(format!("{what}: its id is used twice"));
        }
        let experience = self
            .attempts
            .get_mut(&(ns, stored.attempt_id.clone()))
            .ok_or_else(|| format!("{what}: its attempt is not recorded"))?;
        let reporter = experience.attempt.reporter_subject.clone();
        if event.actor.subject != reporter {
            return Err(format!("{what}: not written by the attempt's reporter"));
        }
        match experience
            .state
            .report(&reporter, &reporter, None, &stored.event)
        {
            Ok(Reported::Accepted(a)) if a.event == stored => experience.state = a.state,
            _ => return Err(format!("{what}: not what accepting its content produces")),
        }
        self.last_events.insert(
            (event_key.0.clone(), event_key.1.clone()),
            event_key.2.clone(),
        );
        self.events.insert(
            event_key,
            StoredEvent {
                event: stored,
                recorded: Recorded::of(event),
            },
        );
        Ok(())
    }

    fn withdrawn(&mut self, event: &Event) -> Result<(), String> {
        let withdrawal: Withdrawal = decode(WITHDRAWN, event)?;
        let o = &withdrawal.observation;
        let what = format!("experience withdrawal {:?}", withdrawal.idempotency_key);
        Self::in_stream(event, &o.attempt_id, &what)?;
        let ns = event.namespace.0.clone();
        let observed = (ns.clone(), o.attempt_id.clone(), o.event_id.clone());
        match self.events.get(&observed) {
            Some(e) if withdrawal.bind(&e.event).is_ok() => {}
            _ => return Err(format!("{what}: names no accepted event")),
        }
        let key = (ns, withdrawal.idempotency_key.clone());
        if self.withdrawals.contains_key(&key) || !self.withdrawn.insert(observed.clone()) {
            return Err(format!("{what}: withdraws twice or reuses its key"));
        }
        self.procedures.withdrawn(&observed);
        self.withdrawals.insert(
            key,
            StoredWithdrawal {
                digest: withdrawal.digest(),
                withdrawal,
                recorded: Recorded::of(event),
            },
        );
        Ok(())
    }

    /// Compares the stored rows with the fold; one line per difference.
    pub async fn compare<R: LearningRead + ProcedureRead>(
        self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = self.registry.compare(read, tenant).await?;
        let mut attempts = BTreeMap::new();
        for (key, e) in &self.attempts {
            let last = self.last_events.get(key).map(String::as_str);
            let row = attempt_row(&key.0, e, last)?;
            attempts.insert((row.namespace.clone(), row.id.clone()), row);
        }
        compare_rows(
            "experience attempt",
            attempts,
            read.all_attempt_rows(tenant).await?,
            |r: &AttemptRow| (r.namespace.clone(), r.id.clone()),
            &mut problems,
        );
        let mut events = BTreeMap::new();
        for ((ns, _, _), e) in &self.events {
            let row = event_row(ns, e, e.event.body())?;
            events.insert(
                (
                    row.namespace.clone(),
                    row.attempt_id.clone(),
                    row.event_id.clone(),
                ),
                row,
            );
        }
        compare_rows(
            "experience event",
            events,
            read.all_event_rows(tenant).await?,
            |r: &EventRow| {
                (
                    r.namespace.clone(),
                    r.attempt_id.clone(),
                    r.event_id.clone(),
                )
            },
            &mut problems,
        );
        let mut withdrawals = BTreeMap::new();
        for ((ns, key), w) in &self.withdrawals {
            withdrawals.insert((ns.clone(), key.clone()), withdrawal_row(ns, w)?);
        }
        compare_rows(
            "experience withdrawal",
            withdrawals,
            read.all_withdrawal_rows(tenant).await?,
            |r: &WithdrawalRow| (r.namespace.clone(), r.key.clone()),
            &mut problems,
        );
        problems.extend(self.procedures.compare(read, tenant).await?);
        Ok(problems)
    }
}

/// Reports every stored row that differs from, or is missing from, the
/// rows the fold expects, and every expected row that is not stored.
pub(crate) fn compare_rows<K: Ord + std::fmt::Debug, R: PartialEq>(
    what: &str,
    mut expected: BTreeMap<K, R>,
    stored: Vec<R>,
    key: impl Fn(&R) -> K,
    problems: &mut Vec<String>,
) {
    for row in stored {
        let k = key(&row);
        match expected.remove(&k) {
            Some(e) if e == row => {}
            Some(_) => problems.push(format!("{what} {k:?} differs from its events")),
            None => problems.push(format!("{what} {k:?} has no events")),
        }
    }
    for k in expected.keys() {
        problems.push(format!("{what} {k:?} is missing from the projection"));
    }
}
