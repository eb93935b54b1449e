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
pub mod backup;
pub mod bench;
mod command;
mod embed;
mod engine;
mod error;
pub mod learning;
mod ledger;
pub mod memory;
pub mod metrics;
pub mod migrate;
mod postgres;
mod prepare;
pub mod proposals;
pub mod readiness;
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
pub use migrate::{MigrateReport, migrate};
pub use proposals::{ProposalCommand, ProposalReads};
pub use records::{RecordCommand, RecordReads};
pub use skills::{SkillCommand, SkillReads};
pub use verify::VerifyReport;

/// File name of a SQLite store inside its data directory.
pub const SQLITE_FILE: &str = sqlite::DB_FILE;

/// The schema version this build writes. A store with a newer version is refused.
pub const SCHEMA_VERSION: i64 = 13;

/// Opens a store: a `postgres://` URL, or else a SQLite data directory.
pub async fn open(store: &str) -> Result<Arc<dyn Engine>, StoreError> {
    if is_postgres(store) {
        Ok(Arc::new(postgres::PostgresEngine::open(store).await?))
    } else {
        let dir = Path::new(store).to_owned();
        let engine = tokio::task::spawn_blocking(move || sqlite::SqliteEngine::open(&dir))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))??;
        Ok(Arc::new(engine))
    }
}

/// Copies the SQLite store in `data_dir` into a new backup file `out` (see
/// [`backup`]), while a server may be serving and writing it. Blocking.
///
/// # Errors
///
/// [`StoreError::OperationRefused`] when there is no store, `out` exists
/// (unless `replace`), the seal key is not the store's, or the copy fails
/// its checks; other variants for faults. Nothing is left at `out` then.
pub fn backup_sqlite(
    data_dir: &Path,
    out: &Path,
    options: &backup::BackupOptions<'_>,
) -> Result<backup::BackupSummary, StoreError> {
    sqlite::backup::backup(data_dir, out, options)
}

/// Restores the backup file `from` into `data_dir`, which must hold no
/// store, with the seal key if the backup carries it. Blocking.
///
/// # Errors
///
/// [`StoreError::OperationRefused`] when `from` is no Praxis backup or is
/// damaged, `data_dir` holds a store, or the seal key file holds another
/// key; [`StoreError::Open`] when a server has the directory open; other
/// variants for faults. Nothing is left in place then.
pub fn restore_sqlite(
    from: &Path,
    data_dir: &Path,
    options: &backup::RestoreOptions<'_>,
) -> Result<backup::RestoreSummary, StoreError> {
    sqlite::backup::restore(from, data_dir, options)
}

/// Verifies a store on one read snapshot, beside a server that may be
/// serving and writing it: a SQLite data directory is opened read-only
/// (no lock, no migration, no writer) in one WAL read transaction, a
/// PostgreSQL database in one `REPEATABLE READ READ ONLY` transaction.
///
/// # Errors
///
/// [`StoreError::OperationRefused`] when there is no store there, and
/// [`StoreError::SchemaTooNew`] (or a refusal for a store not yet migrated)
/// when its schema is not this build's.
pub async fn verify_snapshot(store: &str) -> Result<VerifyReport, StoreError> {
    if is_postgres(store) {
        postgres::snapshot::verify(store).await
    } else {
        let db = Path::new(store).join(sqlite::DB_FILE);
        tokio::task::spawn_blocking(move || sqlite::snapshot::verify(&db))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))?
    }
}

/// A store location fit for messages and markers: a database URL's
/// password, whether in its user info or a `password` query parameter, is
/// replaced by `***`.
pub fn redact_location(store: &str) -> String {
    let (base, query) = match store.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (store, None),
    };
    let mut out = match (base.find("://"), base.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme && base[scheme + 3..at].contains(':') => {
            let user = base[scheme + 3..at].split(':').next().unwrap_or("");
            format!("{}{user}:***{}", &base[..scheme + 3], &base[at..])
        }
        _ => base.to_owned(),
    };
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|param| match param.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => param.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

fn is_postgres(store: &str) -> bool {
    store.starts_with("postgres://") || store.starts_with("postgresql://")
}

/// Opens a store that must already exist: a SQLite data directory without
/// a database is refused, and nothing is created in it.
pub async fn open_existing(store: &str) -> Result<Arc<dyn Engine>, StoreError> {
    if !is_postgres(store) && !Path::new(store).join(sqlite::DB_FILE).is_file() {
        return Err(StoreError::Open(format!("no store in {store}")));
    }
    open(store).await
}

/// Opens a read snapshot of an existing store to copy from.
pub(crate) async fn open_source(store: &str) -> Result<Box<dyn migrate::Source>, StoreError> {
    if is_postgres(store) {
        Ok(Box::new(postgres::migrate::PgSource::open(store).await?))
    } else {
        let dir = Path::new(store).to_owned();
        let source = tokio::task::spawn_blocking(move || sqlite::migrate::SqliteSource::open(&dir))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))??;
        Ok(Box::new(source))
    }
}

/// Opens (creating if needed) the store a migration writes into.
pub(crate) async fn open_target(store: &str) -> Result<Box<dyn migrate::Target>, StoreError> {
    if is_postgres(store) {
        Ok(Box::new(postgres::migrate::PgTarget::open(store).await?))
    } else {
        let dir = Path::new(store).to_owned();
        let target = tokio::task::spawn_blocking(move || sqlite::migrate::SqliteTarget::open(&dir))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))??;
        Ok(Box::new(target))
    }
}

#[cfg(test)]
mod tests {
    use super::redact_location;

    #[test]
    fn a_password_never_survives_redaction() {
        assert_eq!(
            redact_location("postgres://u:secret@h:5432/db"),
            "postgres://u:***@h:5432/db"
        );
        assert_eq!(
            redact_location("postgres://u@h/db?password=secret&sslmode=disable"),
            "postgres://u@h/db?password=***&sslmode=disable"
        );
        assert_eq!(redact_location("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact_location("./praxis-data"), "./praxis-data");
    }
}
