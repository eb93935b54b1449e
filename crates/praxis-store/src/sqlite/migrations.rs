//! Schema migrations of the SQLite engine, one table set per concept.

use rusqlite::Connection;

use crate::SCHEMA_VERSION;
use crate::error::StoreError;

/// Each schema version with the concepts' tables it adds, in order.
const MIGRATIONS: &[(i64, &[&str])] = &[
    (1, &[super::ledger::SCHEMA_V1, super::auth::SCHEMA_V1]),
    (2, &[super::attempts::SCHEMA_V2]),
    (3, &[super::records::SCHEMA_V3, super::skills::SCHEMA_V3]),
    (4, &[super::ledger::SCHEMA_V4]),
    (5, &[super::learning::SCHEMA_V5]),
    (6, &[super::learning::SCHEMA_V6]),
];

/// Brings the store to [`SCHEMA_VERSION`]; refuses a store from a newer build.
pub(super) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    for (version, tables) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        for sql in *tables {
            tx.execute_batch(sql)?;
        }
        tx.pragma_update(None, "user_version", version)?;
    }
    tx.commit()?;
    Ok(())
}
