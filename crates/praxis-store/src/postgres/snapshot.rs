//! Read snapshots of a PostgreSQL store that servers may be serving.
//!
//! [`super::PostgresEngine::open`] migrates and starts a writer; a snapshot
//! needs one connection and one `REPEATABLE READ READ ONLY` transaction,
//! which sees every table as of its first statement while servers commit.

use tokio_postgres::IsolationLevel;

use super::col;
use super::ledger::PgRead;
use crate::error::StoreError;
use crate::verify::{VerifyReport, check_schema, verify_store};

/// Verifies the store at `url` on one read snapshot.
pub(crate) async fn verify(url: &str) -> Result<VerifyReport, StoreError> {
    // One connection, through the pool type the engine's reads are written for.
    let pool = super::pool(url, 1)?;
    let mut client = pool
        .get()
        .await
        .map_err(|e| StoreError::Open(e.to_string()))?;
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await?;
    let has_schema: bool = col(
        &tx.query_one("SELECT to_regclass('praxis_schema') IS NOT NULL", &[])
            .await?,
        0,
    )?;
    if !has_schema {
        return Err(StoreError::OperationRefused(
            "no Praxis store in this database".into(),
        ));
    }
    let found: i64 = col(
        &tx.query_one("SELECT COALESCE(MAX(version), 0) FROM praxis_schema", &[])
            .await?,
        0,
    )?;
    check_schema(found)?;
    let report = verify_store(&mut PgRead(&tx)).await?;
    tx.commit().await?;
    Ok(report)
}
