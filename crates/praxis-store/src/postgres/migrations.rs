//! Schema migrations of the PostgreSQL engine, one table set per concept.

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

/// Brings the store to [`SCHEMA_VERSION`]; refuses a store from a newer
/// build. An advisory lock serializes concurrent first opens.
pub(super) async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    // Serializes concurrent first opens of the same database.
    tx.execute("SELECT pg_advisory_xact_lock(7072617869)", &[])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS praxis_schema (version BIGINT NOT NULL)")
        .await?;
    let found: i64 = super::col(
        &tx.query_one("SELECT COALESCE(MAX(version), 0) FROM praxis_schema", &[])
            .await?,
        0,
    )?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for (version, tables) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        for sql in *tables {
            tx.batch_execute(sql).await?;
        }
        tx.execute(
            "INSERT INTO praxis_schema (version) VALUES ($1)",
            &[version],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}
