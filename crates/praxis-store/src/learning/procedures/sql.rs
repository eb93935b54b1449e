//! SQL of the procedure projections: procedures (with a strategy's
//! receipt), their heads, their evaluations, the observations strategies
//! are bound to, and the per-(policy, context) registration counters.
//!
//! Statements are shared by both engines, with placeholders numbered in
//! order of first appearance (see `skills::sql`).

/// The `procedures` columns, in [`super::rows::ProcedureRow`] order.
macro_rules! procedure_columns {
    () => {
        "namespace, id, policy_id, context_id, origin, proposal, proposal_digest, strategy, \
         strategy_digest, actor_credential, actor_subject, recorded_at, position, receipt_digest"
    };
}
/// The `procedure_heads` columns, in [`super::rows::HeadRow`] order.
macro_rules! head_columns {
    () => {
        "namespace, id, policy_id, context_id, state, lower_bound, instruction_bytes, withdrawn, \
         evaluations, record"
    };
}
/// The `procedure_evaluations` columns, in [`super::rows::EvaluationRow`]
/// order.
macro_rules! evaluation_columns {
    () => {
        "namespace, procedure_id, case_id, seq, evidence_ref, submitted, submitted_digest, \
         actor_credential, actor_subject, recorded_at, position, receipt_digest"
    };
}

/// One procedure row: (tenant, namespace, id).
pub const PROCEDURE_ROW: &str = concat!(
    "SELECT ",
    procedure_columns!(),
    " FROM procedures WHERE tenant_id = $1 AND namespace = $2 AND id = $3"
);
/// Inserts a procedure row.
pub const INSERT_PROCEDURE_ROW: &str = concat!(
    "INSERT INTO procedures (tenant_id, ",
    procedure_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
);
/// One head row: (tenant, namespace, id).
pub const HEAD_ROW: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM procedure_heads WHERE tenant_id = $1 AND namespace = $2 AND id = $3"
);
/// Inserts a head row.
pub const INSERT_HEAD_ROW: &str = concat!(
    "INSERT INTO procedure_heads (tenant_id, ",
    head_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
);
/// Moves a head on after an evaluation: (state, lower bound, evaluations,
/// record, tenant, namespace, id). Evaluations run after the tenant is
/// locked, so no other write moves the head in between.
pub const ADVANCE_HEAD: &str = "UPDATE procedure_heads SET state = $1, lower_bound = $2, \
     evaluations = $3, record = $4 WHERE tenant_id = $5 AND namespace = $6 AND id = $7";
/// Counts one more procedure for (tenant, namespace, policy, context) and
/// returns the count.
pub const NEXT_CANDIDATE: &str = "INSERT INTO procedure_pairs (tenant_id, namespace, \
     policy_id, context_id, registered) VALUES ($1, $2, $3, $4, 1) \
     ON CONFLICT (tenant_id, namespace, policy_id, context_id) \
     DO UPDATE SET registered = procedure_pairs.registered + 1 RETURNING registered";
/// Binds a strategy to one observation.
pub const INSERT_OBSERVATION: &str = "INSERT INTO strategy_observations (tenant_id, namespace, \
     attempt_id, event_id, procedure_id) VALUES ($1, $2, $3, $4, $5)";
/// Makes every strategy bound to an observation ineligible: (tenant,
/// namespace, attempt, event id).
pub const MARK_WITHDRAWN: &str = "UPDATE procedure_heads SET withdrawn = 1 \
     WHERE tenant_id = $1 AND namespace = $2 AND withdrawn = 0 AND id IN (SELECT procedure_id \
     FROM strategy_observations WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     AND event_id = $4)";
/// The evaluation under a case id, and any one that used the evidence:
/// (tenant, namespace, procedure, case id, evidence ref).
pub const EVALUATION_ROWS: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM procedure_evaluations WHERE tenant_id = $1 AND namespace = $2 AND procedure_id = $3 \
     AND (case_id = $4 OR evidence_ref = $5)"
);
/// Every evaluation of a procedure, in order: (tenant, namespace, procedure).
pub const EVALUATIONS_OF_PROCEDURE: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM procedure_evaluations WHERE tenant_id = $1 AND namespace = $2 AND procedure_id = $3 \
     ORDER BY seq"
);
/// Inserts an evaluation row.
pub const INSERT_EVALUATION_ROW: &str = concat!(
    "INSERT INTO procedure_evaluations (tenant_id, ",
    evaluation_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
);
/// The best eligible qualified procedure of (tenant, namespace, policy,
/// context) whose instructions fit: (…, most bytes). Served by the partial
/// index `procedure_selection` in its order, so the first row that fits is
/// the answer and no candidate is skipped.
pub const SELECT_BEST: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM procedure_heads WHERE tenant_id = $1 AND namespace = $2 AND policy_id = $3 \
     AND context_id = $4 AND state = 'qualified' AND withdrawn = 0 AND instruction_bytes <= $5 \
     ORDER BY lower_bound DESC, id ASC LIMIT 1"
);
/// Every procedure row of a tenant, for verification.
pub const PROCEDURE_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    procedure_columns!(),
    " FROM procedures WHERE tenant_id = $1"
);
/// Every head row of a tenant, for verification.
pub const HEAD_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    head_columns!(),
    " FROM procedure_heads WHERE tenant_id = $1"
);
/// Every evaluation row of a tenant, for verification.
pub const EVALUATION_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    evaluation_columns!(),
    " FROM procedure_evaluations WHERE tenant_id = $1"
);
