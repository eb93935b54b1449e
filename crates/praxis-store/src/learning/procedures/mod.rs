//! Procedures in the store: ordinary proposals, strategies bound to exact
//! development observations, held-out evaluations and the lifecycle they
//! drive, and selection.
//!
//! Each write is one event in the procedure's stream (`procedure/<id>`) of
//! the scope's namespace, written with its projections in the same
//! transaction, after the tenant is locked:
//!
//! - `procedures`: the proposal's receipt (and a strategy's), never updated;
//! - `procedure_heads`: the state, the record (the fold of the accepted
//!   evaluations), the qualification lower bound, the instruction size and
//!   whether a bound observation was withdrawn; the partial index
//!   `procedure_selection` orders the eligible qualified ones for selection;
//! - `procedure_evaluations`: every submission, whatever its outcome;
//! - `strategy_observations`: which strategy is bound to which observation,
//!   so a withdrawal marks them in its own transaction;
//! - `procedure_pairs`: how many procedures each (policy, context) has had,
//!   which fixes each one's share of δ.

pub(crate) mod fold;
pub(crate) mod read;
pub(crate) mod rows;
pub(crate) mod sql;
pub(crate) mod write;

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::learning::{
    EvaluationSubmitted, ObservationRef, ProcedureRecord, ProposalReceipt, StrategyReceipt,
};

use crate::error::StoreError;
use crate::learning::Recorded;
use rows::{EvaluationRow, HeadRow, ProcedureRow};

/// A procedure with everything stored about it, verified: its receipt's
/// digest, and its record equal to the fold of its accepted evaluations.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcedureLog {
    /// The proposal's receipt.
    pub proposal: ProposalReceipt,
    /// Its registration's ledger receipt.
    pub recorded: Recorded,
    /// The record: state, statistics, decisions.
    pub record: ProcedureRecord,
    /// Every submission, in order.
    pub evaluations: Vec<EvaluationSubmitted>,
    /// Whether an observation a strategy is bound to was withdrawn.
    pub withdrawn: bool,
}

/// A strategy, verified: its receipt's digest, the export of its
/// observations recomputed from the stored events, and its procedure's
/// binding.
#[derive(Clone, Debug, PartialEq)]
pub struct StrategyLog {
    /// The receipt, as first answered.
    pub receipt: StrategyReceipt,
    /// The procedure it registered, now.
    pub procedure: ProcedureLog,
    /// The bound observations withdrawn since, in request order.
    pub withdrawn: Vec<ObservationRef>,
}

/// What selection found.
#[derive(Clone, Debug, PartialEq)]
pub struct Selected {
    /// The procedure's receipt (its instruction bytes among it).
    pub proposal: ProposalReceipt,
    /// Its lower bound at qualification, which ranked it.
    pub lower_bound: f64,
}

/// The procedure projections' primitives, on an engine's transaction.
pub(crate) trait ProcedureTx {
    /// The procedure row under (namespace, id), if any.
    async fn procedure_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<ProcedureRow>, StoreError>;
    /// The head row under (namespace, id), if any.
    async fn head_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<HeadRow>, StoreError>;
    /// Counts one more procedure for (namespace, policy, context) and
    /// returns the count: the new procedure's candidate index.
    async fn next_candidate(
        &mut self,
        tenant: &str,
        namespace: &str,
        policy_id: &str,
        context_id: &str,
    ) -> Result<u64, StoreError>;
    /// Inserts a procedure, its head and its bound observations.
    async fn insert_procedure(
        &mut self,
        tenant: &str,
        row: &ProcedureRow,
        head: &HeadRow,
        observations: &[ObservationRef],
    ) -> Result<(), StoreError>;
    /// Moves a head on (its state, bound, evaluation count and record).
    async fn advance_head(&mut self, tenant: &str, head: &HeadRow) -> Result<(), StoreError>;
    /// The evaluation under `case_id` and any that used `evidence_ref`.
    async fn evaluation_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        procedure_id: &str,
        case_id: &str,
        evidence_ref: &str,
    ) -> Result<Vec<EvaluationRow>, StoreError>;
    /// Inserts an evaluation row.
    async fn insert_evaluation(
        &mut self,
        tenant: &str,
        row: &EvaluationRow,
    ) -> Result<(), StoreError>;
    /// Makes every strategy bound to the observation ineligible.
    async fn mark_withdrawn(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(), StoreError>;
}

/// The procedure rows verification needs.
pub(crate) trait ProcedureRead {
    /// Every procedure row of a tenant.
    async fn all_procedure_rows(&mut self, tenant: &str) -> Result<Vec<ProcedureRow>, StoreError>;
    /// Every head row of a tenant.
    async fn all_head_rows(&mut self, tenant: &str) -> Result<Vec<HeadRow>, StoreError>;
    /// Every evaluation row of a tenant.
    async fn all_evaluation_rows(&mut self, tenant: &str)
    -> Result<Vec<EvaluationRow>, StoreError>;
}

/// Everything stored about one procedure, as raw rows.
pub(crate) type ProcedureRows = (ProcedureRow, HeadRow, Vec<EvaluationRow>);

/// Reads of procedures, for callers of an engine. Every value is
/// re-verified from its stored bytes; a mismatch fails with
/// [`StoreError::Inconsistent`].
#[async_trait]
pub trait ProcedureReads: Send + Sync {
    /// A procedure, verified, if it exists.
    async fn procedure(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<ProcedureLog>, StoreError>;
    /// A strategy, verified (its export recomputed), if it exists.
    async fn strategy(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<StrategyLog>, StoreError>;
    /// The eligible qualified procedure of (policy, context) with the
    /// highest qualification lower bound whose instructions fit in
    /// `max_instruction_bytes` (ties to the lowest id), if any.
    async fn select(
        &self,
        tenant: &str,
        namespace: &Namespace,
        policy_id: &str,
        context_id: &str,
        max_instruction_bytes: u64,
    ) -> Result<Option<Selected>, StoreError>;
}
