//! Readiness on PostgreSQL: the scratch row the probe commits.

use crate::error::StoreError;
use crate::ledger::rows;

/// The readiness probe's scratch row (schema version 11).
pub(super) const SCHEMA_V11: &str = "CREATE TABLE readiness (
        name TEXT PRIMARY KEY,
        probed_at BIGINT NOT NULL
    );";

/// Commits the scratch row on a pooled connection, the writer's kind: one
/// statement in its own transaction, durable when it returns
/// (`synchronous_commit=on`, checked at open).
pub(super) async fn probe_write(client: &deadpool_postgres::Object) -> Result<(), StoreError> {
    client
        .execute(crate::readiness::PROBE, &[&rows::now().micros()])
        .await?;
    Ok(())
}
