//! Read snapshots of a SQLite store that a server may be serving.
//!
//! [`super::SqliteEngine::open`] takes the data directory's lock, migrates
//! and starts a writer, so it cannot run beside a server. A snapshot needs
//! none of that: a read-only connection (no lock, no migration, no writer)
//! and one read transaction, which in WAL mode sees the store as of its
//! first read while the server keeps committing.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::ledger::SqliteRead;
use crate::error::StoreError;
use crate::verify::{VerifyReport, check_schema, verify_store};

/// Opens the database file `db` read-only, without creating it.
pub(crate) fn open_read_only(db: &Path) -> Result<Connection, StoreError> {
    if !db.is_file() {
        return Err(StoreError::OperationRefused(format!(
            "no Praxis store at {}",
            db.display()
        )));
    }
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(super::BUSY_TIMEOUT)?;
    Ok(conn)
}

/// The schema version of the database `conn` reads; inside a transaction,
/// this first read is what fixes its snapshot. A file that is no database
/// is refused.
pub(crate) fn schema_version(conn: &Connection, what: &Path) -> Result<i64, StoreError> {
    conn.pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
                StoreError::OperationRefused(format!(
                    "{} is not a SQLite database, or is damaged",
                    what.display()
                ))
            }
            _ => e.into(),
        })
}

/// Verifies the store in `db` on one read snapshot, beside a running server.
pub(crate) fn verify(db: &Path) -> Result<VerifyReport, StoreError> {
    let conn = open_read_only(db)?;
    // Deferred: the snapshot is fixed by the first read, the schema check.
    conn.execute_batch("BEGIN")?;
    check_schema(schema_version(&conn, db)?)?;
    let report = pollster::block_on(verify_store(&mut SqliteRead(&conn)));
    conn.execute_batch("COMMIT")?;
    report
}

/// Verifies the database `conn` holds (a copy being checked) in one read
/// transaction: SQLite's own `integrity_check`, then the store's walk.
pub(crate) fn check_copy(conn: &Connection) -> Result<VerifyReport, StoreError> {
    conn.execute_batch("BEGIN")?;
    let checked = integrity(conn).and_then(|()| {
        let report = pollster::block_on(verify_store(&mut SqliteRead(conn)))?;
        if report.is_clean() {
            Ok(report)
        } else {
            Err(StoreError::OperationRefused(format!(
                "the copy does not verify: {} problems, first: {}",
                report.problems.len(),
                report.problems[0]
            )))
        }
    });
    conn.execute_batch("COMMIT")?;
    checked
}

/// `PRAGMA integrity_check`: every page, index and constraint of the file.
fn integrity(conn: &Connection) -> Result<(), StoreError> {
    let mut stmt = conn.prepare("PRAGMA integrity_check")?;
    let lines: Vec<String> = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if lines == ["ok"] {
        Ok(())
    } else {
        Err(StoreError::OperationRefused(format!(
            "integrity_check failed: {}",
            lines.join("; ")
        )))
    }
}
