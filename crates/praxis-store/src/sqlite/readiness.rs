//! Readiness on SQLite: the scratch row the probe commits.

use rusqlite::Connection;

use crate::error::StoreError;
use crate::ledger::rows;

/// The readiness probe's scratch row (schema version 11).
pub(super) const SCHEMA_V11: &str = "CREATE TABLE readiness (
        name TEXT PRIMARY KEY,
        probed_at INTEGER NOT NULL
    ) STRICT, WITHOUT ROWID;";

/// Commits the scratch row as the writer commits a batch: one `BEGIN
/// IMMEDIATE` transaction, made durable by its `COMMIT` (WAL,
/// `synchronous=FULL`). Runs on the writer's connection, between batches.
pub(super) fn probe_write(conn: &Connection) -> Result<(), StoreError> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let written = conn
        .execute(crate::readiness::PROBE, [rows::now().micros()])
        .and_then(|_| conn.execute_batch("COMMIT"));
    if let Err(e) = written {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(e.into());
    }
    Ok(())
}
