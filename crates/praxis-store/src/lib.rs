//! Praxis storage: the durable, append-only ledger and its projections.
//!
//! [`Engine`] is the one interface the server and CLI use, and [`open`] the
//! one place that names an engine. Two engines implement it: SQLite
//! (embedded, the default) and PostgreSQL. Both run the same command logic
//! over small transactional traits, one per concept, and both are checked
//! by the same contract tests and by [`Engine::verify`].
//!
//! The crate is laid out by concept: `ledger` (positions, chains, seals,
//! receipts) and then `auth`, `attempts`, `records`, `skills`,
//! `learning`, `memory`
//! and `proposals`, each with its commands, its transactional and read traits,
//! its rows, its SQL and its verification fold. `sqlite` and `postgres` implement those traits,
//! one file per concept.

mod apply;
pub mod attempts;
pub mod auth;
pub mod bench;
mod command;
mod embed;
mod engine;
mod error;
pub mod learning;
mod ledger;
pub mod memory;
pub mod metrics;
mod postgres;
mod prepare;
pub mod proposals;
pub mod records;
pub mod skills;
mod sqlite;
mod verify;

use std::path::Path;
use std::sync::Arc;

pub use attempts::{AttemptCommand, AttemptReads};
pub use auth::{AuthCommand, Authority, CredentialReads};
pub use command::{Applied, Command, Effect, Idempotency, ReceiptFn, Write, WriteOutcome};
pub use embed::AttemptLedger;
pub use engine::Engine;
pub use error::{BackendError, Missing, StoreError};
pub use learning::{LearningCommand, LearningReads};
pub use ledger::LedgerReads;
pub use memory::{MemoryCommand, MemoryReads};
pub use proposals::{ProposalCommand, ProposalReads};
pub use records::{RecordCommand, RecordReads};
pub use skills::{SkillCommand, SkillReads};
pub use verify::VerifyReport;

/// The schema version this build writes. A store with a newer version is refused.
pub const SCHEMA_VERSION: i64 = 11;

/// Opens a store: a `postgres://` URL, or else a SQLite data directory.
pub async fn open(store: &str) -> Result<Arc<dyn Engine>, StoreError> {
    if store.starts_with("postgres://") || store.starts_with("postgresql://") {
        Ok(Arc::new(postgres::PostgresEngine::open(store).await?))
    } else {
        let dir = Path::new(store).to_owned();
        let engine = tokio::task::spawn_blocking(move || sqlite::SqliteEngine::open(&dir))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))??;
        Ok(Arc::new(engine))
    }
}
