//! The learning authority's ground floor in the store: the tenant-wide
//! registry of policies and contexts, and development experiences
//! (attempts, their events and withdrawals), each scoped to a namespace.
//!
//! - `registry`: registrations, one stream per id in the `admin` namespace,
//!   projected into `learning_registry`;
//! - `experiences`: recording an attempt, reporting an event and
//!   withdrawing an observation, all in the attempt's stream
//!   (`experience/<id>`) of the scope's namespace, projected into
//!   `experience_attempts` (the attempt and its current state),
//!   `experience_events` and `experience_withdrawals`;
//! - `prepare`: deciding a report from its rows, ahead of the writer when
//!   the engine can (the writer then only compares and sets);
//! - `read`: turning stored rows back into verified values, shared by both
//!   engines, so every read re-checks digests and re-folds the state;
//! - `fold`: the projections rebuilt from the log, for `verify`;
//! - `procedures`: proposals, strategies, evaluations and selection (its
//!   own tables, trait and reads).

pub(crate) mod experiences;
pub(crate) mod fold;
pub(crate) mod prepare;
pub mod procedures;
pub(crate) mod read;
pub(crate) mod registry;
pub(crate) mod rows;
pub(crate) mod sql;

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::learning::{
    Attempt, AttemptRequest, Context, Evaluation, EvaluationSubmitted, EventReport,
    ExperienceState, MAX_LINEAGE, Policy, ProposalReceipt, ProposalRequest, ReportedEvent,
    StrategyReceipt, StrategyRequest, Withdrawal,
};
use praxis_domain::ledger::{Actor, Event};
use praxis_domain::time::Timestamp;

use crate::error::StoreError;
use crate::ledger::{Ctx, LedgerTx};
pub(crate) use fold::LearningFold;
pub(crate) use prepare::{
    Decision, Heads, PreparedReport, ReportBase, ReportSnapshot, decide, head_of,
};
use rows::{AttemptRow, EventRow, RegistryRow, WithdrawalRow};

/// What a learning command asks for.
#[derive(Clone, Debug)]
pub enum LearningCommand {
    /// Register a policy under its id, for good.
    RegisterPolicy(Policy),
    /// Register an evaluation context under its id, for good.
    RegisterContext(Context),
    /// Record a development attempt in a namespace (or find the identical
    /// one already recorded by the same subject).
    Record {
        /// The scope's namespace.
        namespace: Namespace,
        /// The attempt as sent.
        attempt: AttemptRequest,
    },
    /// Report an event on an attempt, compare-and-set on its revision.
    Report {
        /// The scope's namespace.
        namespace: Namespace,
        /// The attempt reported on.
        attempt_id: String,
        /// The event as sent.
        event: EventReport,
    },
    /// Withdraw an observation for good, and make every strategy bound to
    /// it ineligible.
    Withdraw {
        /// The scope's namespace.
        namespace: Namespace,
        /// The withdrawal as sent.
        withdrawal: Withdrawal,
    },
    /// Register an ordinary proposal as a candidate procedure.
    Propose {
        /// The scope's namespace.
        namespace: Namespace,
        /// The proposal as sent.
        proposal: Box<ProposalRequest>,
    },
    /// Create a strategy bound to exact observations, and its candidate.
    CreateStrategy {
        /// The scope's namespace.
        namespace: Namespace,
        /// The strategy as sent.
        strategy: Box<StrategyRequest>,
    },
    /// Submit a held-out evaluation of a procedure (the evaluator only).
    Evaluate {
        /// The scope's namespace.
        namespace: Namespace,
        /// The procedure evaluated.
        procedure_id: String,
        /// The evaluation as sent.
        evaluation: Box<Evaluation>,
    },
}

/// A registered policy or context as the registry keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<T> {
    /// The payload exactly as registered.
    pub payload: T,
    /// Plain SHA-256 of the payload's canonical JSON.
    pub digest: Digest,
    /// The subject that registered it first.
    pub registered_by: String,
    /// When the registration was recorded.
    pub recorded_at: Timestamp,
    /// The registration event's position in the tenant's log.
    pub position: u64,
}

/// One registration's answer: the entry under the id, and whether this
/// write registered it (`false`: an identical payload was already there).
#[derive(Clone, Debug, PartialEq)]
pub struct Registered<T> {
    /// The entry as stored.
    pub entry: Entry<T>,
    /// Whether this write appended the registration.
    pub new: bool,
}

/// Who wrote a ledger event, when, and the event's place and digest: the
/// receipt every experience write answers with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// Who wrote it.
    pub actor: Actor,
    /// When the server recorded it.
    pub recorded_at: Timestamp,
    /// Its position in the tenant's log.
    pub position: u64,
    /// The sealed ledger event's digest.
    pub receipt_digest: Digest,
}

impl Recorded {
    /// The receipt of a ledger event.
    pub(crate) fn of(event: &Event) -> Recorded {
        Recorded {
            actor: event.actor.clone(),
            recorded_at: event.recorded_at,
            position: event.position,
            receipt_digest: event.digest,
        }
    }
}

/// A recorded attempt and its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Experience {
    /// The attempt as recorded.
    pub attempt: Attempt,
    /// Its state (current, or as of an event when answering a retry).
    pub state: ExperienceState,
    /// Attempts on its parent chain, itself included (1 for a root).
    pub depth: u64,
    /// The recording's receipt.
    pub recorded: Recorded,
}

/// An accepted event as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// The event.
    pub event: ReportedEvent,
    /// Its receipt.
    pub recorded: Recorded,
}

/// A withdrawal as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredWithdrawal {
    /// The withdrawal as sent.
    pub withdrawal: Withdrawal,
    /// Its digest (`praxis.experience-withdrawal.v1`).
    pub digest: Digest,
    /// Its receipt.
    pub recorded: Recorded,
}

/// An attempt with everything stored about it, verified: its state equals
/// the fold of its events, and every digest matches its content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExperienceLog {
    /// The attempt and its current state.
    pub experience: Experience,
    /// Its accepted events, in revision order.
    pub events: Vec<StoredEvent>,
    /// Withdrawals of its observations, in log order.
    pub withdrawals: Vec<StoredWithdrawal>,
}

impl ExperienceLog {
    /// The event stored under `event_id`.
    pub fn event(&self, event_id: &str) -> Option<&StoredEvent> {
        self.events
            .iter()
            .find(|e| e.event.event.event_id == event_id)
    }

    /// The withdrawal of the observation `event_id`, if it is withdrawn.
    pub fn withdrawal_of(&self, event_id: &str) -> Option<&StoredWithdrawal> {
        self.withdrawals
            .iter()
            .find(|w| w.withdrawal.observation.event_id == event_id)
    }
}

/// What a learning command did.
#[derive(Clone, Debug, PartialEq)]
pub enum LearningWrite {
    /// A policy registration.
    Policy(Registered<Policy>),
    /// A context registration.
    Context(Registered<Context>),
    /// An attempt recorded (`new`) or found recorded.
    Recorded {
        /// The attempt as stored.
        experience: Box<Experience>,
        /// Whether this write recorded it.
        new: bool,
    },
    /// An event accepted (`new`) or found accepted under its id.
    Reported {
        /// The event as stored.
        event: Box<StoredEvent>,
        /// The experience right after that event.
        experience: Box<Experience>,
        /// Whether this write accepted it.
        new: bool,
    },
    /// An observation withdrawn (`new`) or found withdrawn under the key.
    Withdrawn {
        /// The withdrawal as stored.
        withdrawal: Box<StoredWithdrawal>,
        /// Whether this write withdrew it.
        new: bool,
    },
    /// A procedure registered (`new`) or found registered identically.
    Proposed {
        /// Its receipt.
        receipt: Box<ProposalReceipt>,
        /// Whether this write registered it.
        new: bool,
    },
    /// A strategy created (`new`) or found created identically.
    StrategyCreated {
        /// Its receipt, byte for byte the first answer.
        receipt: Box<StrategyReceipt>,
        /// Whether this write created it.
        new: bool,
    },
    /// An evaluation submitted (`new`) or found submitted identically.
    Evaluated {
        /// What was submitted and answered.
        submitted: Box<EvaluationSubmitted>,
        /// Whether this write submitted it.
        new: bool,
    },
}

/// An attempt's state moving on by one event, compare-and-set.
pub(crate) struct StateMove<'a> {
    /// The new state, as stored.
    pub(crate) state: &'a str,
    /// Its revision.
    pub(crate) revision: u64,
    /// The id of the event that moved it.
    pub(crate) last_event_id: &'a str,
    /// The row it moves from, as the move was decided on.
    pub(crate) base: &'a ReportBase,
}

/// The learning projections' primitives, on an engine's transaction.
pub(crate) trait LearningTx {
    /// The row registered under (kind, id), if any.
    async fn registry_row(
        &mut self,
        tenant: &str,
        kind: &str,
        id: &str,
    ) -> Result<Option<RegistryRow>, StoreError>;
    /// Inserts a new registry row.
    async fn insert_registry_row(
        &mut self,
        tenant: &str,
        row: &RegistryRow,
    ) -> Result<(), StoreError>;
    /// The attempt row under (namespace, id), if any.
    async fn attempt_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<AttemptRow>, StoreError>;
    /// Inserts a new attempt row.
    async fn insert_attempt_row(
        &mut self,
        tenant: &str,
        row: &AttemptRow,
    ) -> Result<(), StoreError>;
    /// Moves an attempt's state on, if its row still holds the move's base
    /// (revision, latest event id and row, attempt and state). Otherwise the write fails with a stale
    /// fault (`BackendKind::Stale`), now or, where statements are
    /// pipelined, before the write's savepoint is released.
    async fn advance_state(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
        to: StateMove<'_>,
    ) -> Result<(), StoreError>;
    /// The event row under (namespace, attempt, event id), if any.
    async fn event_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<Option<EventRow>, StoreError>;
    /// What a report reads: the attempt's row, and the event rows under
    /// `event_id` and of the attempt's latest event (one row may be both;
    /// one round trip on PostgreSQL).
    async fn report_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError>;
    /// An attempt's event rows up to and including `revision`, in order.
    async fn event_rows_until(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        revision: u64,
    ) -> Result<Vec<EventRow>, StoreError>;
    /// Inserts a new event row.
    async fn insert_event_row(&mut self, tenant: &str, row: &EventRow) -> Result<(), StoreError>;
    /// The withdrawal stored under `key`, and the one of the observation,
    /// if any (one round trip on PostgreSQL).
    async fn withdrawal_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        key: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<WithdrawalRow>, Option<WithdrawalRow>), StoreError>;
    /// Inserts a new withdrawal row.
    async fn insert_withdrawal_row(
        &mut self,
        tenant: &str,
        row: &WithdrawalRow,
    ) -> Result<(), StoreError>;
}

/// The learning rows verification needs.
pub(crate) trait LearningRead {
    /// Every registry row of a tenant.
    async fn all_registry_rows(&mut self, tenant: &str) -> Result<Vec<RegistryRow>, StoreError>;
    /// Every attempt row of a tenant.
    async fn all_attempt_rows(&mut self, tenant: &str) -> Result<Vec<AttemptRow>, StoreError>;
    /// Every event row of a tenant.
    async fn all_event_rows(&mut self, tenant: &str) -> Result<Vec<EventRow>, StoreError>;
    /// Every withdrawal row of a tenant.
    async fn all_withdrawal_rows(&mut self, tenant: &str)
    -> Result<Vec<WithdrawalRow>, StoreError>;
}

/// Everything stored about one attempt, as raw rows.
pub(crate) type LogRows = (AttemptRow, Vec<EventRow>, Vec<WithdrawalRow>);

/// Reads of the learning authority, for callers of an engine. Every value
/// is re-verified from its stored bytes; a mismatch fails with
/// [`StoreError::Inconsistent`].
#[async_trait]
pub trait LearningReads: Send + Sync {
    /// The policy registered under `id`, if any.
    async fn policy(&self, tenant: &str, id: &str) -> Result<Option<Entry<Policy>>, StoreError>;
    /// The context registered under `id`, if any.
    async fn context(&self, tenant: &str, id: &str) -> Result<Option<Entry<Context>>, StoreError>;
    /// Everything stored about an attempt, verified, if it exists.
    async fn experience(
        &self,
        tenant: &str,
        namespace: &Namespace,
        attempt_id: &str,
    ) -> Result<Option<ExperienceLog>, StoreError>;

    /// An attempt and its parent chain, the attempt first and the root
    /// last. Each link is checked: the parent's event must still have the
    /// digest the child bound. The chain is at most [`MAX_LINEAGE`] long,
    /// since recording refuses a deeper one.
    async fn lineage(
        &self,
        tenant: &str,
        namespace: &Namespace,
        attempt_id: &str,
    ) -> Result<Option<Vec<Experience>>, StoreError> {
        let Some(first) = self.experience(tenant, namespace, attempt_id).await? else {
            return Ok(None);
        };
        let mut chain = vec![first.experience];
        while let Some(parent) = chain.last().and_then(|e| e.attempt.parent.clone()) {
            if chain.len() >= MAX_LINEAGE {
                return Err(StoreError::inconsistent(format!(
                    "attempt {attempt_id:?} has a lineage longer than {MAX_LINEAGE}"
                )));
            }
            let log = self
                .experience(tenant, namespace, &parent.attempt_id)
                .await?
                .ok_or_else(|| {
                    StoreError::inconsistent(format!(
                        "parent attempt {:?} is missing",
                        parent.attempt_id
                    ))
                })?;
            match log.event(&parent.event_id) {
                Some(e) if e.event.event_digest == parent.event_digest => {}
                _ => {
                    return Err(StoreError::inconsistent(format!(
                        "parent observation {}/{} no longer has the digest its child bound",
                        parent.attempt_id, parent.event_id
                    )));
                }
            }
            chain.push(log.experience);
        }
        Ok(Some(chain))
    }
}

/// Applies a learning command, with the report decided ahead of the writer
/// if there is one.
pub(crate) async fn apply<T: LedgerTx + LearningTx + procedures::ProcedureTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: LearningCommand,
    prepared: Option<Box<PreparedReport>>,
) -> Result<LearningWrite, StoreError> {
    Ok(match command {
        LearningCommand::RegisterPolicy(p) => {
            LearningWrite::Policy(registry::register_one(tx, ctx, p).await?)
        }
        LearningCommand::RegisterContext(c) => {
            LearningWrite::Context(registry::register_one(tx, ctx, c).await?)
        }
        LearningCommand::Record { namespace, attempt } => {
            experiences::record(tx, ctx, &namespace, attempt).await?
        }
        LearningCommand::Report {
            namespace,
            attempt_id,
            event,
        } => experiences::report(tx, ctx, &namespace, &attempt_id, event, prepared).await?,
        LearningCommand::Withdraw {
            namespace,
            withdrawal,
        } => experiences::withdraw(tx, ctx, &namespace, withdrawal).await?,
        LearningCommand::Propose {
            namespace,
            proposal,
        } => procedures::write::propose(tx, ctx, &namespace, *proposal).await?,
        LearningCommand::CreateStrategy {
            namespace,
            strategy,
        } => procedures::write::create_strategy(tx, ctx, &namespace, *strategy).await?,
        LearningCommand::Evaluate {
            namespace,
            procedure_id,
            evaluation,
        } => procedures::write::evaluate(tx, ctx, &namespace, &procedure_id, *evaluation).await?,
    })
}
