//! SQL of the learning registry projection.
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

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[REGISTRY_ROW, INSERT_REGISTRY_ROW, REGISTRY_ROWS_OF_TENANT];
