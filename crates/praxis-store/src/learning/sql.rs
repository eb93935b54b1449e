//! SQL of the learning projections: the registry, attempts, events and
//! withdrawals.
//!
//! Statements are shared by both engines, with placeholders numbered in
//! order of first appearance (see `skills::sql`).

/// The `learning_registry` columns, in [`super::rows::RegistryRow`] order.
macro_rules! registry_columns {
    () => {
        "kind, id, payload, digest, registered_by, recorded_at, position"
    };
}
/// One registry row: (tenant, kind, id).
pub const REGISTRY_ROW: &str = concat!(
    "SELECT ",
    registry_columns!(),
    " FROM learning_registry WHERE tenant_id = $1 AND kind = $2 AND id = $3"
);
/// Inserts a registry row; a row is never replaced.
pub const INSERT_REGISTRY_ROW: &str = "INSERT INTO learning_registry (tenant_id, kind, id, \
     payload, digest, registered_by, recorded_at, position) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
/// Every registry row of a tenant, for verification.
pub const REGISTRY_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    registry_columns!(),
    " FROM learning_registry WHERE tenant_id = $1"
);

/// The receipt columns every experience row ends with, in
/// [`super::rows::ReceiptCols`] order.
macro_rules! receipt_columns {
    () => {
        "actor_credential, actor_subject, recorded_at, position, receipt_digest"
    };
}
/// The columns of an attempt and its head, in [`super::rows::AttemptRow`]
/// order, as [`attempts_with_heads!`] names them.
macro_rules! attempt_columns {
    () => {
        concat!(
            "a.namespace, a.id, a.attempt, a.attempt_digest, a.depth, h.revision, h.state, \
             h.last_event_id, ",
            receipt_columns!()
        )
    };
}
/// `experience_attempts` (as `a`) with each attempt's head (as `h`).
macro_rules! attempts_with_heads {
    () => {
        " FROM experience_attempts a JOIN experience_heads h ON h.tenant_id = a.tenant_id \
         AND h.namespace = a.namespace AND h.id = a.id"
    };
}
/// The `experience_events` columns, in [`super::rows::EventRow`] order.
macro_rules! event_columns {
    () => {
        concat!(
            "namespace, attempt_id, event_id, revision, event, event_digest, ",
            receipt_columns!()
        )
    };
}
/// The `experience_withdrawals` columns, in [`super::rows::WithdrawalRow`] order.
macro_rules! withdrawal_columns {
    () => {
        concat!(
            "namespace, key, attempt_id, event_id, withdrawal, withdrawal_digest, ",
            receipt_columns!()
        )
    };
}

/// One attempt row with its head: (tenant, namespace, id).
pub const ATTEMPT_ROW: &str = concat!(
    "SELECT ",
    attempt_columns!(),
    attempts_with_heads!(),
    " WHERE a.tenant_id = $1 AND a.namespace = $2 AND a.id = $3"
);
/// Inserts an attempt; a row is never replaced: (tenant, namespace, id,
/// attempt, attempt digest, depth, receipt columns).
pub const INSERT_ATTEMPT_ROW: &str = concat!(
    "INSERT INTO experience_attempts (tenant_id, namespace, id, attempt, attempt_digest, depth, ",
    receipt_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
);
/// Inserts an attempt's head: (tenant, namespace, id, revision, state,
/// last event id).
pub const INSERT_HEAD_ROW: &str = "INSERT INTO experience_heads \
     (tenant_id, namespace, id, revision, state, last_event_id) VALUES ($1, $2, $3, $4, $5, $6)";
/// Moves an attempt's state on if its rows are still the base: (state,
/// revision, last event id, tenant, namespace, id, base revision, base last
/// event id, base attempt, base state, base last event's body and digest).
/// The caller checks that one row changed.
pub const ADVANCE_STATE: &str = "UPDATE experience_heads \
     SET state = $1, revision = $2, last_event_id = $3 \
     WHERE tenant_id = $4 AND namespace = $5 AND id = $6 \
     AND revision = $7 AND last_event_id IS NOT DISTINCT FROM $8 \
     AND EXISTS (SELECT 1 FROM experience_attempts WHERE tenant_id = $4 AND namespace = $5 \
     AND id = $6 AND attempt = $9) AND state = $10 \
     AND ($8 IS NULL OR EXISTS (SELECT 1 FROM experience_events WHERE tenant_id = $4 \
     AND namespace = $5 AND attempt_id = $6 AND event_id = $8 AND event = $11 \
     AND event_digest = $12))";
/// [`ADVANCE_STATE`] that fails (division by zero, SQLSTATE 22012) when no
/// row moved, so it can be pipelined with no one waiting for its count
/// (PostgreSQL only: SQLite has no data-modifying `WITH`).
pub const ADVANCE_STATE_OR_FAIL: &str = "WITH moved AS (UPDATE experience_heads \
     SET state = $1, revision = $2, last_event_id = $3 \
     WHERE tenant_id = $4 AND namespace = $5 AND id = $6 \
     AND revision = $7 AND last_event_id IS NOT DISTINCT FROM $8 \
     AND EXISTS (SELECT 1 FROM experience_attempts WHERE tenant_id = $4 AND namespace = $5 \
     AND id = $6 AND attempt = $9) AND state = $10 \
     AND ($8 IS NULL OR EXISTS (SELECT 1 FROM experience_events WHERE tenant_id = $4 \
     AND namespace = $5 AND attempt_id = $6 AND event_id = $8 AND event = $11 \
     AND event_digest = $12)) RETURNING 1) \
     SELECT 1 / (SELECT count(*)::int FROM moved)";
/// One event row: (tenant, namespace, attempt, event id).
pub const EVENT_ROW: &str = concat!(
    "SELECT ",
    event_columns!(),
    " FROM experience_events WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     AND event_id = $4"
);
/// The event rows a report needs: the one under its event id and the
/// attempt's latest (tenant, namespace, attempt, event id). Two primary-key
/// lookups, so the cost does not grow with the attempt's events, and no
/// answer is needed first: on PostgreSQL it is sent in the same round trip
/// as the attempt's row. (The latest is found by its id, kept beside the
/// state, so events need no second index by revision.)
pub const REPORT_EVENT_ROWS: &str = concat!(
    "SELECT ",
    event_columns!(),
    " FROM experience_events WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     AND event_id = $4 UNION ALL SELECT ",
    event_columns!(),
    " FROM experience_events WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     AND event_id = (SELECT last_event_id FROM experience_heads \
     WHERE tenant_id = $1 AND namespace = $2 AND id = $3)"
);
/// An attempt's event rows up to a revision: (tenant, namespace, attempt, revision).
pub const EVENT_ROWS_UNTIL: &str = concat!(
    "SELECT ",
    event_columns!(),
    " FROM experience_events WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     AND revision <= $4 ORDER BY revision"
);
/// Every event row of an attempt: (tenant, namespace, attempt).
pub const EVENT_ROWS_OF_ATTEMPT: &str = concat!(
    "SELECT ",
    event_columns!(),
    " FROM experience_events WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     ORDER BY revision"
);
/// Inserts an event row.
pub const INSERT_EVENT_ROW: &str = concat!(
    "INSERT INTO experience_events (tenant_id, ",
    event_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
);
/// The withdrawal under a key and the one of an observation (at most two
/// rows): (tenant, namespace, key, attempt, event id).
pub const WITHDRAWAL_ROWS: &str = concat!(
    "SELECT ",
    withdrawal_columns!(),
    " FROM experience_withdrawals WHERE tenant_id = $1 AND namespace = $2 \
     AND (key = $3 OR (attempt_id = $4 AND event_id = $5))"
);
/// Every withdrawal of an attempt: (tenant, namespace, attempt).
pub const WITHDRAWALS_OF_ATTEMPT: &str = concat!(
    "SELECT ",
    withdrawal_columns!(),
    " FROM experience_withdrawals WHERE tenant_id = $1 AND namespace = $2 AND attempt_id = $3 \
     ORDER BY position"
);
/// Inserts a withdrawal row.
pub const INSERT_WITHDRAWAL_ROW: &str = concat!(
    "INSERT INTO experience_withdrawals (tenant_id, ",
    withdrawal_columns!(),
    ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
);
/// Every attempt row of a tenant, for verification.
pub const ATTEMPT_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    attempt_columns!(),
    attempts_with_heads!(),
    " WHERE a.tenant_id = $1"
);
/// Every event row of a tenant, for verification.
pub const EVENT_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    event_columns!(),
    " FROM experience_events WHERE tenant_id = $1"
);
/// Every withdrawal row of a tenant, for verification.
pub const WITHDRAWAL_ROWS_OF_TENANT: &str = concat!(
    "SELECT ",
    withdrawal_columns!(),
    " FROM experience_withdrawals WHERE tenant_id = $1"
);

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
    REGISTRY_ROW,
    INSERT_REGISTRY_ROW,
    REGISTRY_ROWS_OF_TENANT,
    ATTEMPT_ROW,
    INSERT_ATTEMPT_ROW,
    INSERT_HEAD_ROW,
    ADVANCE_STATE,
    EVENT_ROW,
    EVENT_ROWS_UNTIL,
    REPORT_EVENT_ROWS,
    EVENT_ROWS_OF_ATTEMPT,
    INSERT_EVENT_ROW,
    WITHDRAWAL_ROWS,
    WITHDRAWALS_OF_ATTEMPT,
    INSERT_WITHDRAWAL_ROW,
    ATTEMPT_ROWS_OF_TENANT,
    EVENT_ROWS_OF_TENANT,
    WITHDRAWAL_ROWS_OF_TENANT,
];
