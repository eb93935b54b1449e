//! SQL shared by both engines for copying a store: the marker, tenants
//! with their creation time, and the tables a copy replaces per tenant.

/// The migration marker table (schema version 12).
pub const MARKER_NAME: &str = "migration";
/// The marker: (name).
pub const MARKER: &str = "SELECT marker FROM migration_marker WHERE name = $1";
/// Writes the marker: (name, marker).
pub const PUT_MARKER: &str = "INSERT INTO migration_marker (name, marker) VALUES ($1, $2) \
     ON CONFLICT (name) DO UPDATE SET marker = excluded.marker";
/// Every tenant with its head and creation time.
pub const TENANTS: &str = "SELECT tenant_id, head, created_at FROM tenants ORDER BY tenant_id";
/// Places a tenant or moves its head: (tenant, head, created_at).
pub const PUT_TENANT: &str = "INSERT INTO tenants (tenant_id, head, created_at) VALUES ($1, $2, $3) \
     ON CONFLICT (tenant_id) DO UPDATE SET head = excluded.head";
/// Every store-wide key fingerprint.
pub const STORE_KEYS: &str = "SELECT name, fingerprint FROM store_keys ORDER BY name";
/// A store-wide key fingerprint: (name, fingerprint).
pub const PUT_STORE_KEY: &str = "INSERT INTO store_keys (name, fingerprint) VALUES ($1, $2)";
/// A tenant's receipts, before they are copied again: (tenant).
pub const DELETE_RECEIPTS: &str = "DELETE FROM receipts WHERE tenant_id = $1";
/// A tenant's records, before they are copied again: (tenant).
pub const DELETE_RECORDS: &str = "DELETE FROM records WHERE tenant_id = $1";

/// Every projection table copied row for row, keyed by `tenant_id`.
///
/// `records` is not here: its search index differs between engines, so each
/// record is written with the engine's own `put_record`.
pub const TABLES: &[&str] = &[
    "credentials",
    "attempt_cases",
    "attempt_streaks",
    "attempt_counts",
    "attempt_policies",
    "record_settings",
    "skill_releases",
    "learning_registry",
    "experience_attempts",
    "experience_heads",
    "experience_events",
    "experience_withdrawals",
    "procedures",
    "procedure_heads",
    "procedure_pairs",
    "procedure_evaluations",
    "strategy_observations",
    "memory_items",
    "memory_history",
    "memory_terms",
    "memory_usage",
    "proposals",
    "proposal_settings",
];

/// A table's rows of one tenant.
pub fn select_rows(table: &str) -> String {
    format!("SELECT * FROM {table} WHERE tenant_id = $1")
}

/// Deletes a table's rows of one tenant.
pub fn delete_rows(table: &str) -> String {
    format!("DELETE FROM {table} WHERE tenant_id = $1")
}

/// Inserts one row by column name.
pub fn insert_row(table: &str, columns: &[String]) -> String {
    let places: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
    format!(
        "INSERT INTO {table} ({}) VALUES ({})",
        columns.join(", "),
        places.join(", ")
    )
}
