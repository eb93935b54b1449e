//! The embedded SQLite engine.
//!
//! One writer thread owns the only writing connection. It drains a queue of
//! writes, runs each in its own savepoint inside one `BEGIN IMMEDIATE`
//! transaction, commits once (WAL, `synchronous=FULL`, so the commit is the
//! durable sync) and only then answers every waiter. Readers use their own
//! connections; WAL readers never block the writer. A lock file keeps a
//! second process from opening the same data directory.
//!
//! `writer` and `migrations` are the engine's own; every other file
//! implements one concept's traits.

mod attempts;
mod auth;
pub(crate) mod backup;
mod learning;
mod ledger;
mod memory;
pub(crate) mod migrate;
mod migrations;
mod procedures;
mod proposals;
mod readiness;
mod records;
mod skills;
pub(crate) mod snapshot;
mod writer;

use std::fs::File;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use rusqlite::Connection;
use tokio::sync::oneshot;

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
use crate::readiness::{NotReady, ReadyCheck, check_free_space};
use crate::records::RecordReads;
use crate::skills::SkillReads;
use crate::verify::{VerifyReport, verify_store};
use ledger::SqliteRead;
use writer::{Job, WAL_RESTART_BYTES, checkpoint_loop, writer_loop};

/// File name of the database inside the data directory.
pub(crate) const DB_FILE: &str = "praxis.db";

/// How long a connection waits on a lock (or a checkpoint on readers)
/// before it gives up.
const BUSY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        // A column that does not decode is stored data failing its type, as
        // on PostgreSQL (`try_get`): an inconsistency, not a database fault.
        if matches!(
            e,
            rusqlite::Error::FromSqlConversionFailure(..)
                | rusqlite::Error::InvalidColumnType(..)
                | rusqlite::Error::IntegralValueOutOfRange(..)
        ) {
            return StoreError::inconsistent(format!("a column does not decode: {e}"));
        }
        let kind = match &e {
            rusqlite::Error::SqliteFailure(f, _)
                if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                    || f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
            {
                BackendKind::UniqueViolation
            }
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::DiskFull => {
                BackendKind::DiskFull
            }
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ReadOnly => {
                BackendKind::ReadOnly
            }
            _ => BackendKind::Other,
        };
        StoreError::Backend(BackendError::new("sqlite", kind, e.to_string()))
    }
}

/// The SQLite engine over one data directory.
pub struct SqliteEngine {
    queue: Mutex<Option<mpsc::Sender<Job>>>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
    checkpointer: Mutex<Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    path: PathBuf,
    metrics: Arc<StoreMetrics>,
    heads: Heads,
    _lock: File,
}

/// Opens a connection with the pragmas every connection must have, and checks them.
pub(crate) fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.set_prepared_statement_cache_capacity(64);
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Memory-mapped reads keep hot pages out of read(2). The page cache stays
    // at its small default: SQLite scans it at the end of every transaction,
    // and a larger one was measured to cost more than it saved.
    conn.pragma_update(None, "mmap_size", 268_435_456)?;
    // Each write's savepoint journals the pages it first touches; keep that
    // statement journal in memory rather than in a temporary file.
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    let journal: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
    let sync: i64 = conn.pragma_query_value(None, "synchronous", |r| r.get(0))?;
    let fk: i64 = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0))?;
    // synchronous=FULL is 2; it is per connection, so it is checked on every open.
    if journal != "wal" || sync != 2 || fk != 1 {
        return Err(StoreError::Open(format!(
            "pragmas did not take effect (journal_mode={journal}, synchronous={sync}, foreign_keys={fk})"
        )));
    }
    Ok(conn)
}

/// Creates a data directory; the store holds secret hashes and sealed
/// receipts, so it is the owner's only.
pub(crate) fn create_data_dir(dir: &Path) -> Result<(), StoreError> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    Ok(())
}

/// How long an open waits for the data directory's lock before it reports
/// the directory in use.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Takes the data directory's lock, held for as long as the file is open:
/// one process at a time opens a store, or restores into its directory.
///
/// A lock is shared with any child forked while it was open until that
/// child execs (the descriptor is close-on-exec), and a stopping server
/// releases it only as it exits; so a lock held by someone else is tried
/// again for [`LOCK_WAIT`] before the directory is reported in use.
pub(crate) fn lock_data_dir(dir: &Path) -> Result<File, StoreError> {
    let lock = File::create(dir.join("LOCK"))?;
    let deadline = std::time::Instant::now() + LOCK_WAIT;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(lock),
            Err(std::fs::TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(StoreError::Open(format!(
                    "{} is in use by another praxis process",
                    dir.display()
                )));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(e.into()),
        }
    }
}

impl SqliteEngine {
    /// Opens (creating if needed) the store in `dir`.
    pub fn open(dir: &Path) -> Result<SqliteEngine, StoreError> {
        if !dir.exists() {
            create_data_dir(dir)?;
        }
        let lock = lock_data_dir(dir)?;
        let path = dir.join(DB_FILE);
        let mut conn = open_connection(&path)?;
        migrations::migrate(&mut conn)?;
        // Checkpoints run on their own thread so that the writer's commits
        // never pay for copying the WAL into the database file.
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
        // After a restart, the WAL file is cut back to the bound rather than
        // keeping the size of its largest burst.
        conn.pragma_update(None, "journal_size_limit", WAL_RESTART_BYTES as i64)?;
        let checkpoint_conn = open_connection(&path)?;
        let (stop_checkpoints, stopped) = mpsc::channel::<()>();
        let checkpointer = std::thread::Builder::new()
            .name("praxis-sqlite-checkpoint".into())
            .spawn(move || checkpoint_loop(&checkpoint_conn, &stopped))?;
        // The writer reads the pages it is about to change (identity rows,
        // streak summaries, index leaves) at random across the store; a
        // 32 MiB cache keeps the hot ones. Readers keep the small default.
        conn.pragma_update(None, "cache_size", -32_768)?;
        let metrics = Arc::new(StoreMetrics::default());
        let (tx, rx) = mpsc::channel();
        let writer_metrics = metrics.clone();
        let wal = dir.join(format!("{DB_FILE}-wal"));
        let writer = std::thread::Builder::new()
            .name("praxis-sqlite-writer".into())
            .spawn(move || writer_loop(conn, &rx, &writer_metrics, &wal))?;
        Ok(SqliteEngine {
            queue: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
            checkpointer: Mutex::new(Some((stop_checkpoints, checkpointer))),
            readers: Arc::new(Mutex::new(Vec::new())),
            path,
            metrics,
            heads: Heads::default(),
            _lock: lock,
        })
    }

    fn send(&self, job: Job) -> Result<(), StoreError> {
        let queue = self.queue.lock().expect("queue lock");
        queue
            .as_ref()
            .ok_or(StoreError::WriterStopped)?
            .send(job)
            .map_err(|_| StoreError::WriterStopped)
    }

    /// Runs a read on a pooled reader connection off the async runtime.
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let readers = self.readers.clone();
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || {
            let conn = readers.lock().expect("reader pool").pop();
            let conn = match conn {
                Some(c) => c,
                None => open_connection(&path)?,
            };
            let result = f(&conn);
            readers.lock().expect("reader pool").push(conn);
            result
        })
        .await
        .map_err(|e| StoreError::Open(format!("reader task failed: {e}")))?
    }

    /// Runs a point read (a few index lookups, tens of microseconds) on a
    /// pooled reader connection in the calling task. Handing such a read to
    /// the blocking pool costs more than the read itself: on two cores the
    /// pool's wake-ups were measured at about a third of an HTTP assessment's
    /// CPU. Scans and anything unbounded use [`SqliteEngine::read`].
    fn read_now<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.readers.lock().expect("reader pool").pop();
        let conn = match conn {
            Some(c) => c,
            None => open_connection(&self.path)?,
        };
        let result = f(&conn);
        self.readers.lock().expect("reader pool").push(conn);
        result
    }

    /// Stops the writer after it has finished every queued write.
    pub fn shutdown(&self) {
        self.queue.lock().expect("queue lock").take();
        if let Some(handle) = self.writer.lock().expect("writer lock").take() {
            let _ = handle.join();
        }
        if let Some((stop, handle)) = self.checkpointer.lock().expect("checkpointer lock").take() {
            drop(stop);
            let _ = handle.join();
        }
    }
}

impl Drop for SqliteEngine {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl Submit for SqliteEngine {
    async fn submit(&self, write: Write) -> Result<WriteOutcome, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.send(Job::Write(Box::new(write), tx))?;
        rx.await.map_err(|_| StoreError::WriterStopped)?
    }
}

#[async_trait]
impl Engine for SqliteEngine {
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
        self.read(|c| {
            // One read transaction gives verification a single consistent snapshot.
            c.execute_batch("BEGIN")?;
            let report = pollster::block_on(verify_store(&mut SqliteRead(c)));
            c.execute_batch("COMMIT")?;
            report
        })
        .await
    }

    async fn bind_seal_key(&self, fingerprint: &str) -> Result<(), StoreError> {
        let (path, offered) = (self.path.clone(), fingerprint.to_owned());
        tokio::task::spawn_blocking(move || {
            // Once, at start: its own connection, which waits its turn for
            // the write lock like any other.
            let mut conn = open_connection(&path)?;
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            // A store still being migrated into is not served.
            crate::migrate::check_servable(migrate::marker(&tx)?.as_deref())?;
            tx.execute(
                crate::ledger::sql::INSERT_STORE_KEY,
                rusqlite::params![SEAL_KEY, offered],
            )?;
            let recorded: String = tx.query_row(
                crate::ledger::sql::STORE_KEY,
                rusqlite::params![SEAL_KEY],
                |r| r.get(0),
            )?;
            tx.commit()?;
            check_seal_key(recorded, &offered)
        })
        .await
        .map_err(|e| StoreError::Open(format!("seal key check failed: {e}")))?
    }

    async fn ready(&self, check: ReadyCheck) -> Result<(), NotReady> {
        if let Some(dir) = self.path.parent() {
            check_free_space(dir, check.min_free_bytes)?;
        }
        let (tx, rx) = oneshot::channel();
        self.send(Job::Probe(tx))?;
        Ok(rx.await.map_err(|_| StoreError::WriterStopped)??)
    }

    fn metrics(&self) -> &StoreMetrics {
        &self.metrics
    }

    fn kind(&self) -> &'static str {
        "sqlite"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_statements_bind_their_placeholders_in_order() {
        let dir = std::env::temp_dir().join(format!("praxis-sql-order-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut conn = open_connection(&dir.join(DB_FILE)).unwrap();
        migrations::migrate(&mut conn).unwrap();
        let memory: Vec<String> = crate::memory::sql::all();
        let memory_sql: Vec<&str> = memory.iter().map(String::as_str).collect();
        let all = [
            crate::ledger::sql::ALL,
            crate::auth::sql::ALL,
            crate::attempts::sql::ALL,
            crate::records::sql::ALL,
            crate::skills::sql::ALL,
            crate::learning::sql::ALL,
            &memory_sql,
            crate::proposals::sql::ALL,
        ];
        for statement in all.concat() {
            let stmt = conn.prepare(statement).unwrap();
            for i in 1..=stmt.parameter_count() {
                assert_eq!(
                    stmt.parameter_index(&format!("${i}")).unwrap(),
                    Some(i),
                    "{statement}"
                );
            }
        }
        drop(conn);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[tokio::test]
    async fn stale_decisions_are_decided_again() {
        let dir = tempfile::tempdir().unwrap();
        let engine = SqliteEngine::open(&dir.path().join("data")).unwrap();
        crate::prepare::tests::stale_decisions_are_decided_again(&engine).await;
    }
}
