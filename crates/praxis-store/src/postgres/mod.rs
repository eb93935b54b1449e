//! The PostgreSQL engine.
//!
//! Writes go through one writer task that drains a queue and groups writes by
//! tenant: each group is one transaction (every transaction touches one
//! tenant), each write in its own savepoint, committed once. Positions come
//! from the tenant row, locked `FOR UPDATE` until commit, so a tenant's
//! positions commit in order and a reader polling `position > last` never
//! skips a row that commits later. Serialization failures and deadlocks
//! (40001, 40P01) retry the whole group. Readers use a connection pool.

//!
//! `writer`, `pipeline` and `migrations` are the engine's own; every other
//! file implements one concept's traits.

mod attempts;
mod auth;
mod learning;
mod ledger;
mod memory;
pub(crate) mod migrate;
mod migrations;
mod pipeline;
mod procedures;
mod proposals;
mod readiness;
mod records;
mod skills;
pub(crate) mod snapshot;
mod writer;

use std::sync::Arc;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::FromSql;
use tokio_postgres::{NoTls, Row};

use crate::attempts::AttemptReads;
use crate::auth::CredentialReads;
use crate::command::{Write, WriteOutcome};
use crate::engine::{Engine, Submit};
use crate::error::{BackendError, BackendKind, StoreError};
use crate::learning::Heads;
use crate::learning::LearningReads;
use crate::learning::procedures::ProcedureReads;
use crate::ledger::{LedgerReads, SEAL_KEY, check_seal_key};
use crate::metrics::StoreMetrics;
use crate::readiness::{NotReady, ReadyCheck, Unready};
use crate::records::RecordReads;
use crate::skills::SkillReads;
use crate::verify::{VerifyReport, verify_store};
use ledger::PgRead;
use writer::{Job, writer_loop};

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        use tokio_postgres::error::SqlState;
        let kind = match e.code() {
            Some(c) if *c == SqlState::UNIQUE_VIOLATION => BackendKind::UniqueViolation,
            // Raised on purpose, and only, by a compare-and-set that found
            // its row moved on (`learning::sql::ADVANCE_STATE_OR_FAIL`).
            Some(c) if *c == SqlState::DIVISION_BY_ZERO => BackendKind::Stale,
            Some(c)
                if *c == SqlState::T_R_SERIALIZATION_FAILURE
                    || *c == SqlState::T_R_DEADLOCK_DETECTED =>
            {
                BackendKind::Retry
            }
            Some(c) if *c == SqlState::DISK_FULL => BackendKind::DiskFull,
            Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => BackendKind::ReadOnly,
            // No SQLSTATE, and the connection failed or was closed under us.
            None if e.is_closed()
                || std::error::Error::source(&e)
                    .is_some_and(<dyn std::error::Error>::is::<std::io::Error>) =>
            {
                BackendKind::Unreachable
            }
            _ => BackendKind::Other,
        };
        StoreError::Backend(BackendError::new("postgres", kind, e.to_string()))
    }
}

/// Column `i` of a row; a value of the wrong type or a missing column is an
/// inconsistency of the store, never a panic.
pub(super) fn col<'a, T: FromSql<'a>>(row: &'a Row, i: usize) -> Result<T, StoreError> {
    row.try_get(i)
        .map_err(|e| StoreError::inconsistent(format!("column {i} does not decode: {e}")))
}

/// The PostgreSQL engine.
pub struct PostgresEngine {
    pool: Pool,
    queue: mpsc::UnboundedSender<Job>,
    metrics: Arc<StoreMetrics>,
    heads: Heads,
}

/// A pool of at most `max_size` connections to the database at `url`.
pub(super) fn pool(url: &str, max_size: usize) -> Result<Pool, StoreError> {
    let config: tokio_postgres::Config =
        url.parse().map_err(|e| StoreError::Open(format!("{e}")))?;
    let manager = Manager::from_config(
        config,
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(max_size)
        .build()
        .map_err(|e| StoreError::Open(e.to_string()))
}

impl PostgresEngine {
    /// Connects, checks durability settings, migrates and starts the writer.
    pub async fn open(url: &str) -> Result<PostgresEngine, StoreError> {
        let pool = pool(url, 16)?;
        let mut client = pool
            .get()
            .await
            .map_err(|e| StoreError::Open(e.to_string()))?;
        for (setting, wanted) in [("fsync", "on"), ("synchronous_commit", "on")] {
            let value: String = col(&client.query_one(&format!("SHOW {setting}"), &[]).await?, 0)?;
            if value != wanted {
                return Err(StoreError::Open(format!(
                    "PostgreSQL has {setting}={value}; Praxis needs {setting}={wanted} for durable acknowledgements"
                )));
            }
        }
        migrations::migrate(&mut client).await?;
        drop(client);
        let metrics = Arc::new(StoreMetrics::default());
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(writer_loop(pool.clone(), rx, metrics.clone()));
        Ok(PostgresEngine {
            pool,
            queue,
            metrics,
            heads: Heads::default(),
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Open(e.to_string()))
    }
}

impl Submit for PostgresEngine {
    async fn submit(&self, write: Write) -> Result<WriteOutcome, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.queue
            .send((write, tx))
            .map_err(|_| StoreError::WriterStopped)?;
        rx.await.map_err(|_| StoreError::WriterStopped)?
    }
}

#[async_trait]
impl Engine for PostgresEngine {
    async fn execute(&self, write: Write) -> Result<WriteOutcome, StoreError> {
        crate::prepare::execute(self, write).await
    }

    fn ledger(&self) -> &dyn LedgerReads {
        self
    }

    fn credentials(&self) -> &dyn CredentialReads {
        self
    }

    fn attempts(&self) -> &dyn AttemptReads {
        self
    }

    fn records(&self) -> &dyn RecordReads {
        self
    }

    fn skills(&self) -> &dyn SkillReads {
        self
    }

    fn learning(&self) -> &dyn LearningReads {
        self
    }

    fn procedures(&self) -> &dyn ProcedureReads {
        self
    }

    fn memory(&self) -> &dyn crate::memory::MemoryReads {
        self
    }

    fn proposals(&self) -> &dyn crate::proposals::ProposalReads {
        self
    }

    async fn verify(&self) -> Result<VerifyReport, StoreError> {
        let mut client = self.client().await?;
        // One repeatable-read snapshot so heads, events and projections agree.
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let report = verify_store(&mut PgRead(&tx)).await?;
        tx.commit().await?;
        Ok(report)
    }

    async fn bind_seal_key(&self, fingerprint: &str) -> Result<(), StoreError> {
        let client = self.client().await?;
        // A store still being migrated into is not served.
        crate::migrate::check_servable(migrate::marker(&client).await?.as_deref())?;
        // The insert is atomic: of two servers starting at once, one records
        // its fingerprint and the other compares with it.
        client
            .execute(
                crate::ledger::sql::INSERT_STORE_KEY,
                &[&SEAL_KEY, &fingerprint],
            )
            .await?;
        let row = client
            .query_one(crate::ledger::sql::STORE_KEY, &[&SEAL_KEY])
            .await?;
        check_seal_key(col(&row, 0)?, fingerprint)
    }

    async fn ready(&self, _check: ReadyCheck) -> Result<(), NotReady> {
        let client = self
            .pool
            .get()
            .await
            .map_err(|e| NotReady::new(Unready::DatabaseUnreachable, e.to_string()))?;
        Ok(readiness::probe_write(&client).await?)
    }

    fn metrics(&self) -> &StoreMetrics {
        &self.metrics
    }

    fn kind(&self) -> &'static str {
        "postgres"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn stale_decisions_are_decided_again() {
        let engine = PostgresEngine::open(&praxis_testkit::postgres_url())
            .await
            .unwrap();
        crate::prepare::tests::stale_decisions_are_decided_again(&engine).await;
    }
}
