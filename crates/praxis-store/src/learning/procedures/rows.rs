//! Procedure rows. Digested payloads (a proposal's receipt, a strategy's
//! receipt, a submitted evaluation) are kept as the canonical JSON their
//! digests cover; a head's record is plain JSON that a reader re-folds from
//! the evaluations.

use crate::learning::rows::ReceiptCols;

/// A `procedures` row: the proposal's receipt and, for a strategy, its
/// receipt too. Never updated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ProcedureRow {
    pub namespace: String,
    pub id: String,
    pub policy_id: String,
    pub context_id: String,
    pub origin: String,
    pub proposal: String,
    pub proposal_digest: String,
    pub strategy: Option<String>,
    pub strategy_digest: Option<String>,
    pub receipt: ReceiptCols,
}

/// A `procedure_heads` row: where a procedure stands, what selection reads.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HeadRow {
    pub namespace: String,
    pub id: String,
    pub policy_id: String,
    pub context_id: String,
    pub state: String,
    pub lower_bound: Option<f64>,
    pub instruction_bytes: i64,
    pub withdrawn: i64,
    pub evaluations: i64,
    pub record: String,
}

/// A `procedure_evaluations` row: one submission, whatever its outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvaluationRow {
    pub namespace: String,
    pub procedure_id: String,
    pub case_id: String,
    pub seq: i64,
    pub evidence_ref: String,
    pub submitted: String,
    pub submitted_digest: String,
    pub receipt: ReceiptCols,
}
