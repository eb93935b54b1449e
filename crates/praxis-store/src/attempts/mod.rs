//! The attempt ledger's storage: observations as events, and the projections
//! that answer identity checks, assessments, history and counts.
//!
//! Every observation is an event in the stream of its subject, so that the
//! stream's sequence counts the subject's observations. Beside it, in the
//! same transaction, the writer keeps:
//! - `attempt_cases`: one row per identity (subject, action, case, stage);
//! - `attempt_streaks`: the streak summary per (subject, action) and per
//!   (subject, action, revision), both always, so that a policy may switch
//!   between them without a rebuild;
//! - `attempt_counts`: records per disposition in the namespace;
//! - `attempt_policies`: the namespace's policy.
//!
//! Assessment reads only these summaries, never the history.

pub(crate) mod fold;
pub(crate) mod read;
pub(crate) mod rows;
pub(crate) mod sql;
pub(crate) mod write;

use std::collections::BTreeMap;

use async_trait::async_trait;
use praxis_domain::attempts::{self, Assessment, Disposition, Observation, Policy, PolicyUpdate};
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::{Event, NewEvent};
use praxis_domain::time::Timestamp;

use crate::error::StoreError;
use crate::ledger::{Ctx, LedgerTx};

pub use read::export;
pub(crate) use write::{AttemptOverlay, AttemptTx};

/// Streak grain of the per-(subject, action) summary.
pub(crate) const GRAIN_ACTION: i64 = 0;
/// Streak grain of the per-(subject, action, revision) summary.
pub(crate) const GRAIN_REVISION: i64 = 1;

/// One stored attempt, as read back from the ledger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRecord {
    /// Ledger position: monotonic within the namespace.
    pub position: u64,
    /// The outcome and its disposition.
    pub observation: Observation,
    /// Digest of the sealed ledger event.
    pub digest: Digest,
    /// When the server recorded it.
    pub recorded_at: Timestamp,
    /// The subject whose credential wrote it (`system` for offline imports).
    pub recorded_by: String,
}

impl AttemptRecord {
    /// Decodes an attempt event, which the caller has verified.
    pub(crate) fn from_event(event: &Event) -> Result<AttemptRecord, StoreError> {
        if event.kind != attempts::OBSERVED {
            return Err(StoreError::inconsistent(format!(
                "event at position {} is not an attempt",
                event.position
            )));
        }
        let observation: Observation =
            serde_json::from_value(event.payload.clone()).map_err(|e| {
                StoreError::inconsistent(format!(
                    "attempt at position {} does not decode: {e}",
                    event.position
                ))
            })?;
        Ok(AttemptRecord {
            position: event.position,
            observation,
            digest: event.digest,
            recorded_at: event.recorded_at,
            recorded_by: event.actor.subject.clone(),
        })
    }
}

/// Whether an observation was new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteKind {
    /// A new record was appended.
    Inserted,
    /// The identical record already existed; nothing was written.
    Unchanged,
}

/// The result of one observation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptWrite {
    /// Inserted or unchanged.
    pub write: WriteKind,
    /// The record as stored (the original one when unchanged).
    pub record: AttemptRecord,
}

/// An action a planner asks about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRef {
    /// The action.
    pub action_id: String,
    /// The revision the planner would run, for revision-keyed policies.
    pub action_revision: Option<String>,
}

/// Which history to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryOf {
    /// Every record of a subject, in sequence order.
    Subject(String),
    /// Every record of a (subject, action), in sequence order.
    Pair(String, String),
    /// Every record of the namespace, in sequence order (export).
    Namespace,
}

/// One page of history: records and the cursor after the last of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryPage {
    /// The records, in sequence order.
    pub records: Vec<AttemptRecord>,
    /// Pass back as `after` for the next page; `None` when this page is the last.
    pub next: Option<u64>,
}

/// What an attempt command asks for.
#[derive(Clone, Debug)]
pub enum AttemptCommand {
    /// Record one attempt (or find it already recorded). Build it with
    /// [`AttemptCommand::observe`].
    Observe(Box<PreparedObservation>),
    /// Record many attempts, all or nothing. Build it with
    /// [`AttemptCommand::import`].
    Import(Vec<PreparedObservation>),
    /// Change a namespace's suppression policy: the update is merged into
    /// the policy in force inside the writer's transaction, and the event
    /// records the whole policy that results.
    SetPolicy {
        /// The namespace the caller acts in.
        namespace: Namespace,
        /// The fields to change.
        update: PolicyUpdate,
    },
}

impl AttemptCommand {
    /// Records one observation in `namespace`.
    pub fn observe(namespace: &Namespace, observation: Observation) -> AttemptCommand {
        AttemptCommand::Observe(Box::new(PreparedObservation::new(namespace, observation)))
    }

    /// Records observations in `namespace`, all or nothing.
    pub fn import(namespace: &Namespace, observations: Vec<Observation>) -> AttemptCommand {
        AttemptCommand::Import(
            observations
                .into_iter()
                .map(|o| PreparedObservation::new(namespace, o))
                .collect(),
        )
    }
}

/// An observation with its ledger event prepared by the caller: the
/// canonical form and payload digest are computed on the caller's thread,
/// not on the single writer's.
#[derive(Clone, Debug)]
pub struct PreparedObservation {
    pub(crate) observation: Observation,
    pub(crate) event: NewEvent,
}

impl PreparedObservation {
    /// Prepares the event of `observation` in `namespace`.
    pub fn new(namespace: &Namespace, observation: Observation) -> PreparedObservation {
        let payload = serde_json::to_value(&observation).expect("observations serialize");
        let event = NewEvent::new(
            namespace.clone(),
            attempts::stream_of(&observation.outcome.subject),
            attempts::OBSERVED,
            payload,
        );
        PreparedObservation { observation, event }
    }
}

/// What an attempt command did.
#[derive(Clone, Debug)]
pub(crate) enum AttemptEffect {
    /// One result per observation.
    Writes(Vec<AttemptWrite>),
    /// The policy a policy change left in force.
    Policy(Policy),
}

/// Applies an attempt command: one result per observation, or the policy
/// a policy change left in force.
pub(crate) async fn apply<T: LedgerTx + AttemptTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    overlay: &mut AttemptOverlay,
    command: AttemptCommand,
) -> Result<AttemptEffect, StoreError> {
    Ok(match command {
        AttemptCommand::Observe(observation) => {
            AttemptEffect::Writes(vec![write::observe(tx, ctx, overlay, *observation).await?])
        }
        AttemptCommand::Import(observations) => {
            AttemptEffect::Writes(write::import(tx, ctx, overlay, observations).await?)
        }
        AttemptCommand::SetPolicy { namespace, update } => {
            AttemptEffect::Policy(write::set_policy(tx, ctx, &namespace, &update).await?)
        }
    })
}

/// Reads of the attempt ledger, for callers of an engine.
#[async_trait]
pub trait AttemptReads: Send + Sync {
    /// A namespace's attempt policy, or the default when none was set.
    async fn policy(&self, tenant: &str, namespace: &Namespace) -> Result<Policy, StoreError>;
    /// Assesses candidate actions for a subject from the write-time streak
    /// summaries (never from history). Reads only.
    async fn assess(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: Vec<ActionRef>,
        now: Timestamp,
    ) -> Result<(Policy, Vec<Assessment>), StoreError>;
    /// One page of attempt history in sequence order, each record re-verified.
    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError>;
    /// Attempt records per disposition, in a namespace or of a subject or pair.
    async fn counts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError>;
}
