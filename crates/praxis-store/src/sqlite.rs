//! The embedded SQLite engine.
//!
//! One writer thread owns the only writing connection. It drains a queue of
//! writes, runs each in its own savepoint inside one `BEGIN IMMEDIATE`
//! transaction, commits once (WAL, `synchronous=FULL`, so the commit is the
//! durable sync) and only then answers every waiter. Readers use their own
//! connections; WAL readers never block the writer. A lock file keeps a
//! second process from opening the same data directory.

use std::fs::File;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use async_trait::async_trait;
use std::collections::BTreeMap;

use praxis_domain::attempts::{Assessment, CaseEntry, Disposition, Policy, Streak};
use praxis_domain::auth::Namespace;
use praxis_domain::credentials::Credential;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::oneshot;

use crate::SCHEMA_VERSION;
use crate::apply::{LedgerTx, StoredReceipt, Waiter, answer_waiters, apply_batch};
use crate::attempts::{
    self, ActionRef, AttemptRead, AttemptTx, CaseKeyRow, HistoryOf, HistoryPage, ObserveReads,
    StreakKeyRow, StreakRow,
};
use crate::command::{Write, WriteOutcome};
use crate::engine::Engine;
use crate::error::StoreError;
use crate::heads::HeadCache;
use crate::metrics::StoreMetrics;
use crate::records::{RecordFilter, RecordKey, RecordRow, RecordTx, SkillRow};
use crate::rows::{self, CredentialRow, EventRow, to_i64, to_u64};
use crate::sql;
use crate::verify::{LedgerRead, VerifyReport, verify_store};

/// Most writes the writer folds into one commit.
pub const MAX_BATCH: usize = 256;

/// File name of the database inside the data directory.
pub const DB_FILE: &str = "praxis.db";

const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE tenants (
        tenant_id TEXT PRIMARY KEY,
        head INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE events (
        tenant_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        namespace TEXT NOT NULL,
        stream TEXT NOT NULL,
        stream_seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        payload_digest BLOB NOT NULL,
        prev_digest BLOB,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        digest BLOB NOT NULL,
        PRIMARY KEY (tenant_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE UNIQUE INDEX events_by_stream ON events (tenant_id, namespace, stream, stream_seq);
    CREATE TABLE receipts (
        tenant_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_digest BLOB NOT NULL,
        receipt BLOB NOT NULL,
        receipt_digest BLOB NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, key)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE credentials (
        tenant_id TEXT NOT NULL,
        credential_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        capabilities TEXT NOT NULL,
        grants TEXT NOT NULL,
        secret_sha256 BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        rotated_at INTEGER,
        version INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, credential_id)
    ) STRICT, WITHOUT ROWID;
    CREATE UNIQUE INDEX credentials_by_id ON credentials (credential_id);",
    ),
    (
        2,
        "CREATE TABLE attempt_cases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        position INTEGER NOT NULL,
        revision TEXT,
        status TEXT NOT NULL,
        disposition TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        subject_obs INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, case_id, stage)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE attempt_streaks (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        grain INTEGER NOT NULL,
        revision TEXT NOT NULL,
        consecutive INTEGER NOT NULL,
        completed INTEGER NOT NULL,
        last_disposition TEXT,
        last_at INTEGER,
        last_obs INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, grain, revision)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE attempt_counts (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        disposition TEXT NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, disposition)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE attempt_policies (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        policy TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    ) STRICT, WITHOUT ROWID;",
    ),
    (
        3,
        "CREATE TABLE records (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        source TEXT NOT NULL,
        revision INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        lifecycle TEXT NOT NULL,
        review_status TEXT NOT NULL,
        review_mode TEXT,
        verification_level TEXT NOT NULL,
        platform TEXT NOT NULL,
        title TEXT NOT NULL,
        document TEXT NOT NULL,
        position INTEGER NOT NULL,
        withdrawal_reason TEXT,
        superseded_by TEXT
    ) STRICT;
    CREATE UNIQUE INDEX records_by_id ON records (tenant_id, namespace, experience_id);
    CREATE UNIQUE INDEX records_by_source ON records (tenant_id, namespace, source);
    CREATE VIRTUAL TABLE records_fts USING fts5(body);
    CREATE TABLE skill_releases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size INTEGER NOT NULL,
        summary TEXT NOT NULL,
        provenance TEXT NOT NULL,
        withdrawn_at TEXT,
        withdrawal_reason TEXT,
        position INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, name, version)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE record_settings (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        automated_approval INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    ) STRICT, WITHOUT ROWID;",
    ),
];

enum Job {
    Write(
        Box<Write>,
        oneshot::Sender<Result<WriteOutcome, StoreError>>,
    ),
    Probe(oneshot::Sender<Result<(), StoreError>>),
}

/// The SQLite engine over one data directory.
pub struct SqliteEngine {
    queue: Mutex<Option<mpsc::Sender<Job>>>,
    writer: Mutex<Option<std::thread::JoinHandle<()>>>,
    checkpointer: Mutex<Option<(mpsc::Sender<()>, std::thread::JoinHandle<()>)>>,
    readers: Arc<Mutex<Vec<Connection>>>,
    path: PathBuf,
    metrics: Arc<StoreMetrics>,
    _lock: File,
}

/// Opens a connection with the pragmas every connection must have, and checks them.
pub fn open_connection(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
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

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", version)?;
    }
    tx.commit()?;
    Ok(())
}

impl SqliteEngine {
    /// Opens (creating if needed) the store in `dir`.
    pub fn open(dir: &Path) -> Result<SqliteEngine, StoreError> {
        if !dir.exists() {
            // The store holds secret hashes and sealed receipts: owner only.
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)?;
        }
        let lock = File::create(dir.join("LOCK"))?;
        if lock.try_lock().is_err() {
            return Err(StoreError::Open(format!(
                "{} is in use by another praxis process",
                dir.display()
            )));
        }
        let path = dir.join(DB_FILE);
        let mut conn = open_connection(&path)?;
        migrate(&mut conn)?;
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
            .spawn(move || checkpoint_loop(checkpoint_conn, stopped))?;
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
            .spawn(move || writer_loop(conn, rx, &writer_metrics, &wal))?;
        Ok(SqliteEngine {
            queue: Mutex::new(Some(tx)),
            writer: Mutex::new(Some(writer)),
            checkpointer: Mutex::new(Some((stop_checkpoints, checkpointer))),
            readers: Arc::new(Mutex::new(Vec::new())),
            path,
            metrics,
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

/// How often the checkpointer copies committed WAL frames into the database.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// WAL size at which the writer itself checkpoints and restarts the WAL.
///
/// Under a continuous write load the background PASSIVE checkpoints never
/// catch up with the end of the WAL, and a WAL is only reused from its start
/// once a checkpoint has: without this bound it grows without limit (19 GB
/// after four minutes of loading attempts was seen), and every page lookup
/// in it slows down.
const WAL_RESTART_BYTES: u64 = 256 * 1024 * 1024;

/// Copies the WAL into the database in the background until told to stop.
///
/// PASSIVE checkpoints never block the writer; the WAL is reused from its start
/// once a checkpoint has caught up. A failed checkpoint loses nothing: the
/// frames stay in the WAL, which recovery replays.
fn checkpoint_loop(conn: Connection, stop: mpsc::Receiver<()>) {
    let run = |mode: &str| {
        if let Err(e) = conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |_| Ok(())) {
            tracing::warn!(error = %e, "checkpoint failed; the WAL keeps the frames");
        }
    };
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(CHECKPOINT_EVERY) {
        run("PASSIVE");
    }
    run("TRUNCATE");
}

fn writer_loop(mut conn: Connection, rx: mpsc::Receiver<Job>, metrics: &StoreMetrics, wal: &Path) {
    let mut cache = HeadCache::default();
    while let Ok(first) = rx.recv() {
        let mut waiters = Vec::new();
        let mut probes = Vec::new();
        let writes = drain(&rx, Some(first), &mut waiters, &mut probes, MAX_BATCH);
        if !writes.is_empty() {
            let result = commit_batch(&mut conn, &mut cache, writes, metrics, || {
                // Writes that arrive while this transaction is being applied
                // join it instead of waiting for the next commit; the writer
                // never idles for them.
                let room = MAX_BATCH.saturating_sub(waiters.len());
                drain(&rx, None, &mut waiters, &mut probes, room)
            });
            answer_waiters(waiters, result);
            bound_wal(&conn, wal);
        }
        for probe in probes {
            let r = conn
                .execute_batch("BEGIN IMMEDIATE; ROLLBACK;")
                .map_err(StoreError::from);
            let _ = probe.send(r);
        }
    }
}

/// Checkpoints the whole WAL and restarts it from its start once it is over
/// [`WAL_RESTART_BYTES`]. Runs on the writer between commits, after the
/// waiters were answered; it waits (busy timeout) for readers still on old
/// frames. Failing only postpones it: the frames stay in the WAL.
fn bound_wal(conn: &Connection, wal: &Path) {
    let size = std::fs::metadata(wal).map(|m| m.len()).unwrap_or(0);
    if size > WAL_RESTART_BYTES
        && let Err(e) = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(()))
    {
        tracing::warn!(error = %e, "WAL restart postponed");
    }
}

/// Takes queued jobs (starting with `first`, if any) until `room` writes are taken.
fn drain(
    rx: &mpsc::Receiver<Job>,
    first: Option<Job>,
    waiters: &mut Vec<Waiter>,
    probes: &mut Vec<oneshot::Sender<Result<(), StoreError>>>,
    room: usize,
) -> Vec<Write> {
    let mut writes = Vec::new();
    if room == 0 {
        return writes;
    }
    let mut next = first.or_else(|| rx.try_recv().ok());
    while let Some(job) = next {
        match job {
            Job::Write(w, tx) => {
                writes.push(*w);
                waiters.push(tx);
            }
            Job::Probe(tx) => probes.push(tx),
        }
        next = if writes.len() < room {
            rx.try_recv().ok()
        } else {
            None
        };
    }
    writes
}

/// Applies `writes`, then whatever `more` yields, in one transaction, and commits once.
fn commit_batch(
    conn: &mut Connection,
    cache: &mut HeadCache,
    writes: Vec<Write>,
    metrics: &StoreMetrics,
    mut more: impl FnMut() -> Vec<Write>,
) -> Result<Vec<Result<WriteOutcome, StoreError>>, StoreError> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let mut results = Vec::with_capacity(writes.len());
    let mut writes = writes;
    let applied = loop {
        let mut tx = SqliteTx { conn };
        // A bug in one write must not take the writer thread, and with it
        // every later write of every tenant, down with it.
        let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pollster::block_on(apply_batch(&mut tx, cache, writes, rows::now()))
        }))
        .unwrap_or(Err(StoreError::Panicked));
        match applied {
            Ok((r, heads)) => {
                results.extend(r);
                // Provisional until COMMIT: a failure below clears the cache.
                cache.committed(&heads);
            }
            Err(e) => break Err(e),
        }
        writes = more();
        if writes.is_empty() {
            break Ok(());
        }
    };
    let result = match applied {
        Ok(()) => {
            metrics.batch_size.observe(results.len() as u64);
            let start = Instant::now();
            match conn.execute_batch("COMMIT") {
                Ok(()) => {
                    metrics.sync_us.observe(start.elapsed().as_micros() as u64);
                    Ok(results)
                }
                Err(e) => {
                    let _ = conn.execute_batch("ROLLBACK");
                    Err(e.into())
                }
            }
        }
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    };
    if result.is_err() {
        // Nothing of this batch is durable, so nothing it cached may survive.
        cache.clear();
    }
    result
}

struct SqliteTx<'c> {
    conn: &'c Connection,
}

fn event_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EventRow> {
    Ok(EventRow {
        tenant_id: r.get(0)?,
        position: r.get(1)?,
        namespace: r.get(2)?,
        stream: r.get(3)?,
        stream_seq: r.get(4)?,
        kind: r.get(5)?,
        payload: r.get(6)?,
        payload_digest: r.get(7)?,
        prev_digest: r.get(8)?,
        actor_credential: r.get(9)?,
        actor_subject: r.get(10)?,
        recorded_at: r.get(11)?,
        digest: r.get(12)?,
    })
}

fn credential_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CredentialRow> {
    Ok(CredentialRow {
        tenant_id: r.get(0)?,
        credential_id: r.get(1)?,
        subject: r.get(2)?,
        capabilities: r.get(3)?,
        grants: r.get(4)?,
        secret_sha256: r.get(5)?,
        created_at: r.get(6)?,
        expires_at: r.get(7)?,
        revoked_at: r.get(8)?,
        rotated_at: r.get(9)?,
        version: r.get(10)?,
    })
}

/// key, request digest, receipt, receipt digest, position.
type ReceiptColumns = (String, Vec<u8>, Vec<u8>, Vec<u8>, i64);

fn receipt_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ReceiptColumns> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

fn into_receipt(row: ReceiptColumns) -> Result<StoredReceipt, StoreError> {
    let (key, request_digest, bytes, receipt_digest, position) = row;
    Ok(StoredReceipt {
        key,
        request_digest: rows::digest(&request_digest)?,
        bytes,
        receipt_digest: rows::digest(&receipt_digest)?,
        position: to_u64(position)?,
    })
}

fn credential_query(
    conn: &Connection,
    tenant: Option<&str>,
    id: &str,
) -> Result<Option<Credential>, StoreError> {
    let row = match tenant {
        Some(t) => conn
            .prepare_cached(sql::CREDENTIAL)?
            .query_row(params![t, id], credential_row)
            .optional()?,
        None => conn
            .prepare_cached(sql::CREDENTIAL_BY_ID)?
            .query_row(params![id], credential_row)
            .optional()?,
    };
    row.map(CredentialRow::into_credential).transpose()
}

impl LedgerTx for SqliteTx<'_> {
    async fn lock_tenant(&mut self, tenant: &str) -> Result<Option<u64>, StoreError> {
        // BEGIN IMMEDIATE already holds the database's single write lock.
        let head: Option<i64> = self
            .conn
            .prepare_cached(sql::TENANT_HEAD)?
            .query_row(params![tenant], |r| r.get(0))
            .optional()?;
        head.map(to_u64).transpose()
    }

    async fn create_tenant(&mut self, tenant: &str, at: Timestamp) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_TENANT)?
            .execute(params![tenant, at.micros()])?;
        Ok(())
    }

    async fn set_tenant_head(&mut self, tenant: &str, head: u64) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::SET_TENANT_HEAD)?
            .execute(params![to_i64(head), tenant])?;
        Ok(())
    }

    async fn stream_head(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        stream: &str,
    ) -> Result<Option<(u64, Digest)>, StoreError> {
        let row: Option<(i64, Vec<u8>)> = self
            .conn
            .prepare_cached(sql::STREAM_HEAD)?
            .query_row(params![tenant, namespace.as_str(), stream], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        row.map(|(s, d)| Ok((to_u64(s)?, rows::digest(&d)?)))
            .transpose()
    }

    async fn insert_event(&mut self, e: &Event) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_EVENT)?
            .execute(params![
                e.tenant_id,
                to_i64(e.position),
                e.namespace.as_str(),
                e.stream,
                to_i64(e.stream_seq),
                e.kind,
                e.canonical,
                &e.payload_digest.0[..],
                e.prev_digest.as_ref().map(|d| d.0.to_vec()),
                e.actor.credential_id,
                e.actor.subject,
                e.recorded_at.micros(),
                &e.digest.0[..],
            ])?;
        Ok(())
    }

    async fn receipt(
        &mut self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<StoredReceipt>, StoreError> {
        let row = self
            .conn
            .prepare_cached(sql::RECEIPT)?
            .query_row(params![tenant, key], receipt_row)
            .optional()?;
        row.map(into_receipt).transpose()
    }

    async fn insert_receipt(
        &mut self,
        tenant: &str,
        r: &StoredReceipt,
    ) -> Result<bool, StoreError> {
        let inserted = self
            .conn
            .prepare_cached(sql::INSERT_RECEIPT)?
            .execute(params![
                tenant,
                r.key,
                &r.request_digest.0[..],
                r.bytes,
                &r.receipt_digest.0[..],
                to_i64(r.position)
            ])?;
        Ok(inserted == 1)
    }

    async fn credential(
        &mut self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Credential>, StoreError> {
        credential_query(self.conn, Some(tenant), id)
    }

    async fn put_credential(&mut self, c: &Credential) -> Result<(), StoreError> {
        let (caps, grants) = rows::credential_columns(c);
        self.conn
            .prepare_cached(sql::UPSERT_CREDENTIAL)?
            .execute(params![
                c.tenant_id,
                c.id,
                c.subject,
                caps,
                grants,
                &c.secret_sha256.0[..],
                c.created_at.micros(),
                c.expires_at.map(Timestamp::micros),
                c.revoked_at.map(Timestamp::micros),
                c.rotated_at.map(Timestamp::micros),
                to_i64(c.version)
            ])?;
        Ok(())
    }

    async fn savepoint(&mut self) -> Result<(), StoreError> {
        self.conn.prepare_cached("SAVEPOINT w")?.execute([])?;
        Ok(())
    }

    async fn release(&mut self) -> Result<(), StoreError> {
        self.conn.prepare_cached("RELEASE w")?.execute([])?;
        Ok(())
    }

    async fn rollback_to(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("ROLLBACK TO w; RELEASE w")?;
        Ok(())
    }
}

fn raw_events(
    conn: &Connection,
    tenant: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<EventRow>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::EVENTS_AFTER)?;
    let rows = stmt
        .query_map(params![tenant, to_i64(after), limit as i64], event_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// The `attempt_cases` value columns starting at column `at`.
fn case_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<rows::CaseRow> {
    Ok(rows::CaseRow {
        case_id: r.get(at)?,
        stage: r.get(at + 1)?,
        position: r.get(at + 2)?,
        revision: r.get(at + 3)?,
        status: r.get(at + 4)?,
        disposition: r.get(at + 5)?,
        recorded_at: r.get(at + 6)?,
        subject_obs: r.get(at + 7)?,
    })
}

fn case_entry(r: &rusqlite::Row<'_>) -> rusqlite::Result<rows::CaseRow> {
    case_at(r, 0)
}

/// The `attempt_streaks` value columns starting at column `at`.
fn streak_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<rows::StreakColumns> {
    Ok(rows::StreakColumns {
        consecutive: r.get(at)?,
        completed: r.get(at + 1)?,
        last_disposition: r.get(at + 2)?,
        last_at: r.get(at + 3)?,
        last_obs: r.get(at + 4)?,
    })
}

fn query_streak(
    conn: &Connection,
    tenant: &str,
    key: &StreakRow<'_>,
) -> Result<Streak, StoreError> {
    conn.prepare_cached(sql::ATTEMPT_STREAK)?
        .query_row(
            params![
                tenant,
                key.namespace.as_str(),
                key.subject,
                key.action,
                key.grain,
                key.revision
            ],
            |r| streak_at(r, 0),
        )
        .optional()?
        .map_or(Ok(Streak::default()), rows::StreakColumns::into_streak)
}

impl AttemptTx for SqliteTx<'_> {
    async fn event_at(&mut self, tenant: &str, position: u64) -> Result<Event, StoreError> {
        self.conn
            .prepare_cached(sql::EVENT_AT)?
            .query_row(params![tenant, to_i64(position)], event_row)
            .optional()?
            .ok_or_else(|| StoreError::inconsistent(format!("no event at position {position}")))?
            .into_verified_event()
    }

    async fn case_entries(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        case: Option<&str>,
    ) -> Result<Vec<CaseEntry>, StoreError> {
        let ns = namespace.as_str();
        let rows = match case {
            Some(c) => self
                .conn
                .prepare_cached(sql::ATTEMPT_CASE)?
                .query_map(params![tenant, ns, subject, action, c], case_entry)?
                .collect::<Result<Vec<_>, _>>()?,
            None => self
                .conn
                .prepare_cached(sql::ATTEMPT_CASES_OF_PAIR)?
                .query_map(params![tenant, ns, subject, action], case_entry)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        rows.into_iter().map(rows::CaseRow::into_entry).collect()
    }

    async fn insert_case(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        e: &CaseEntry,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_ATTEMPT_CASE)?
            .execute(params![
                tenant,
                namespace.as_str(),
                subject,
                action,
                e.case_id,
                e.stage.as_str(),
                to_i64(e.position),
                e.revision,
                e.status.as_str(),
                e.disposition.as_str(),
                e.recorded_at.micros(),
                to_i64(e.subject_observations),
            ])?;
        Ok(())
    }

    async fn observe_reads(
        &mut self,
        tenant: &str,
        case: &str,
        [a, r]: [&StreakRow<'_>; 2],
        stream: Option<&str>,
    ) -> Result<ObserveReads, StoreError> {
        let entries = self
            .case_entries(tenant, a.namespace, a.subject, a.action, Some(case))
            .await?;
        let head = match stream {
            Some(s) => self.stream_head(tenant, a.namespace, s).await?,
            None => None,
        };
        Ok(ObserveReads {
            case: entries,
            streaks: [
                query_streak(self.conn, tenant, a)?,
                query_streak(self.conn, tenant, r)?,
            ],
            head,
        })
    }

    async fn put_streak(
        &mut self,
        tenant: &str,
        key: &StreakRow<'_>,
        s: &Streak,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_ATTEMPT_STREAK)?
            .execute(params![
                tenant,
                key.namespace.as_str(),
                key.subject,
                key.action,
                key.grain,
                key.revision,
                to_i64(s.consecutive),
                to_i64(s.completed),
                s.last_disposition.map(Disposition::as_str),
                s.last_at.map(Timestamp::micros),
                to_i64(s.last_observations),
            ])?;
        Ok(())
    }

    async fn add_count(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        disposition: Disposition,
        n: u64,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::ADD_ATTEMPT_COUNT)?
            .execute(params![
                tenant,
                namespace.as_str(),
                disposition.as_str(),
                to_i64(n)
            ])?;
        Ok(())
    }

    async fn put_policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        policy: &str,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_ATTEMPT_POLICY)?
            .execute(params![tenant, namespace.as_str(), policy])?;
        Ok(())
    }
}

fn record_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<rows::RecordColumns> {
    Ok(rows::RecordColumns {
        experience_id: r.get(at)?,
        source: r.get(at + 1)?,
        revision: r.get(at + 2)?,
        sha256: r.get(at + 3)?,
        lifecycle: r.get(at + 4)?,
        review_status: r.get(at + 5)?,
        review_mode: r.get(at + 6)?,
        verification_level: r.get(at + 7)?,
        platform: r.get(at + 8)?,
        title: r.get(at + 9)?,
        document: r.get(at + 10)?,
        position: r.get(at + 11)?,
        withdrawal_reason: r.get(at + 12)?,
        superseded_by: r.get(at + 13)?,
    })
}

fn skill_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<rows::SkillColumns> {
    Ok(rows::SkillColumns {
        name: r.get(at)?,
        version: r.get(at + 1)?,
        sha256: r.get(at + 2)?,
        size: r.get(at + 3)?,
        summary: r.get(at + 4)?,
        provenance: r.get(at + 5)?,
        withdrawn_at: r.get(at + 6)?,
        withdrawal_reason: r.get(at + 7)?,
        position: r.get(at + 8)?,
    })
}

fn query_record(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
    key: RecordKey<'_>,
) -> Result<Option<RecordRow>, StoreError> {
    let (sql, value) = match key {
        RecordKey::Id(id) => (sql::RECORD_BY_ID, id),
        RecordKey::Source(source) => (sql::RECORD_BY_SOURCE, source),
    };
    conn.prepare_cached(sql)?
        .query_row(params![tenant, namespace.as_str(), value], |r| {
            record_at(r, 0)
        })
        .optional()?
        .map(rows::RecordColumns::into_row)
        .transpose()
}

fn query_skill(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
    name: &str,
    version: &str,
) -> Result<Option<SkillRow>, StoreError> {
    conn.prepare_cached(sql::SKILL_RELEASE)?
        .query_row(params![tenant, namespace.as_str(), name, version], |r| {
            skill_at(r, 0)
        })
        .optional()?
        .map(rows::SkillColumns::into_row)
        .transpose()
}

fn query_automated_approval(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
) -> Result<bool, StoreError> {
    let on: Option<i64> = conn
        .prepare_cached(sql::RECORD_SETTINGS)?
        .query_row(params![tenant, namespace.as_str()], |r| r.get(0))
        .optional()?;
    Ok(on == Some(1))
}

/// An FTS5 query requiring every word of `text`, each quoted so that no
/// FTS5 operator in user input is interpreted. `None` when it has no words.
fn fts_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

impl RecordTx for SqliteTx<'_> {
    async fn record_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: RecordKey<'_>,
    ) -> Result<Option<RecordRow>, StoreError> {
        query_record(self.conn, tenant, namespace, key)
    }

    async fn put_record(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &RecordRow,
        search: &str,
    ) -> Result<(), StoreError> {
        let rowid: i64 = self
            .conn
            .prepare_cached(sql::SQLITE_UPSERT_RECORD)?
            .query_row(
                params![
                    tenant,
                    namespace.as_str(),
                    row.experience_id,
                    row.source,
                    to_i64(row.revision),
                    row.sha256,
                    row.lifecycle,
                    row.review_status,
                    row.review_mode,
                    row.verification_level,
                    row.platform,
                    row.title,
                    row.document_text(),
                    to_i64(row.position),
                    row.withdrawal_reason,
                    row.superseded_by,
                ],
                |r| r.get(0),
            )?;
        self.conn
            .prepare_cached(sql::SQLITE_DELETE_RECORD_TEXT)?
            .execute(params![rowid])?;
        self.conn
            .prepare_cached(sql::SQLITE_INSERT_RECORD_TEXT)?
            .execute(params![rowid, search])?;
        Ok(())
    }

    async fn skill_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        name: &str,
        version: &str,
    ) -> Result<Option<SkillRow>, StoreError> {
        query_skill(self.conn, tenant, namespace, name, version)
    }

    async fn put_skill(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &SkillRow,
    ) -> Result<(), StoreError> {
        let r = &row.release;
        let w = row.withdrawal.as_ref();
        self.conn
            .prepare_cached(sql::UPSERT_SKILL_RELEASE)?
            .execute(params![
                tenant,
                namespace.as_str(),
                r.name,
                r.version,
                r.sha256,
                to_i64(r.size),
                r.summary,
                r.provenance.to_string(),
                w.map(|w| w.at.as_str()),
                w.map(|w| w.reason.as_str()),
                to_i64(row.position),
            ])?;
        Ok(())
    }

    async fn automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        query_automated_approval(self.conn, tenant, namespace)
    }

    async fn put_automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        on: bool,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_RECORD_SETTINGS)?
            .execute(params![tenant, namespace.as_str(), i64::from(on)])?;
        Ok(())
    }
}

impl AttemptRead for SqliteRead<'_> {
    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError> {
        let text: Option<String> = self
            .0
            .prepare_cached(sql::ATTEMPT_POLICY)?
            .query_row(params![tenant, namespace.as_str()], |r| r.get(0))
            .optional()?;
        text.as_deref()
            .map(crate::attempts::decode_policy)
            .transpose()
    }

    async fn subject_observations(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
    ) -> Result<u64, StoreError> {
        let stream = praxis_domain::attempts::stream_of(subject);
        let seq: Option<i64> = self
            .0
            .prepare_cached(sql::STREAM_HEAD)?
            .query_row(params![tenant, namespace.as_str(), stream], |r| r.get(0))
            .optional()?;
        seq.map_or(Ok(0), to_u64)
    }

    async fn streaks(
        &mut self,
        tenant: &str,
        keys: &[StreakRow<'_>],
    ) -> Result<Vec<Streak>, StoreError> {
        keys.iter()
            .map(|k| query_streak(self.0, tenant, k))
            .collect()
    }

    async fn history(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        of: &HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let ns = namespace.as_str();
        let (after, limit) = (to_i64(after), limit as i64);
        let rows = match of {
            HistoryOf::Subject(subject) => self
                .0
                .prepare_cached(sql::STREAM_EVENTS)?
                .query_map(
                    params![
                        tenant,
                        ns,
                        praxis_domain::attempts::stream_of(subject),
                        after,
                        limit
                    ],
                    event_row,
                )?
                .collect::<Result<Vec<_>, _>>()?,
            HistoryOf::Pair(subject, action) => self
                .0
                .prepare_cached(sql::PAIR_EVENTS)?
                .query_map(
                    params![tenant, ns, subject, action, after, limit],
                    event_row,
                )?
                .collect::<Result<Vec<_>, _>>()?,
            HistoryOf::Namespace => self
                .0
                .prepare_cached(sql::NAMESPACE_ATTEMPT_EVENTS)?
                .query_map(params![tenant, ns, after, limit], event_row)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        rows.into_iter()
            .map(EventRow::into_verified_event)
            .collect()
    }

    async fn counts(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<Vec<(Disposition, u64)>, StoreError> {
        let ns = namespace.as_str();
        let map = |r: &rusqlite::Row<'_>| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?));
        let rows = match (subject, action) {
            (Some(s), Some(a)) => self
                .0
                .prepare_cached(sql::ATTEMPT_COUNTS_OF_PAIR)?
                .query_map(params![tenant, ns, s, a], map)?
                .collect::<Result<Vec<_>, _>>()?,
            (Some(s), None) => self
                .0
                .prepare_cached(sql::ATTEMPT_COUNTS_OF_SUBJECT)?
                .query_map(params![tenant, ns, s], map)?
                .collect::<Result<Vec<_>, _>>()?,
            _ => self
                .0
                .prepare_cached(sql::ATTEMPT_COUNTS)?
                .query_map(params![tenant, ns], map)?
                .collect::<Result<Vec<_>, _>>()?,
        };
        rows.into_iter().map(rows::count_row).collect()
    }
}

struct SqliteRead<'c>(&'c Connection);

impl LedgerRead for SqliteRead<'_> {
    async fn tenants(&mut self) -> Result<Vec<(String, u64)>, StoreError> {
        let mut stmt = self.0.prepare(sql::TENANTS)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(|(t, h)| Ok((t, to_u64(h)?))).collect()
    }

    async fn raw_events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        raw_events(self.0, tenant, after, limit)?
            .into_iter()
            .map(EventRow::into_event)
            .collect()
    }

    async fn all_credentials(&mut self, tenant: &str) -> Result<Vec<Credential>, StoreError> {
        let mut stmt = self.0.prepare(sql::CREDENTIALS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], credential_row)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(CredentialRow::into_credential)
            .collect()
    }

    async fn all_attempt_cases(&mut self, tenant: &str) -> Result<Vec<CaseKeyRow>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_CASES_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    case_at(r, 3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, s, a, row)| Ok((ns, s, a, row.into_entry()?)))
            .collect()
    }

    async fn all_attempt_streaks(&mut self, tenant: &str) -> Result<Vec<StreakKeyRow>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_STREAKS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)?,
                    streak_at(r, 5)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, s, a, g, rev, cols)| Ok((ns, s, a, g, rev, cols.into_streak()?)))
            .collect()
    }

    async fn all_attempt_counts(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, Disposition, u64)>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_COUNTS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, d, n)| {
                let (d, n) = rows::count_row((d, n))?;
                Ok((ns, d, n))
            })
            .collect()
    }

    async fn all_attempt_policies(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let mut stmt = self.0.prepare(sql::ATTEMPT_POLICIES_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    async fn all_records(&mut self, tenant: &str) -> Result<Vec<(String, RecordRow)>, StoreError> {
        let mut stmt = self.0.prepare(sql::RECORDS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, record_at(r, 1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, c)| c.into_row().map(|row| (ns, row)))
            .collect()
    }

    async fn all_skills(&mut self, tenant: &str) -> Result<Vec<(String, SkillRow)>, StoreError> {
        let mut stmt = self.0.prepare(sql::SKILL_RELEASES_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, skill_at(r, 1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, c)| c.into_row().map(|row| (ns, row)))
            .collect()
    }

    async fn all_record_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        let mut stmt = self.0.prepare(sql::RECORD_SETTINGS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? == 1))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    async fn all_receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError> {
        let mut stmt = self.0.prepare(sql::RECEIPTS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], receipt_row)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(into_receipt).collect()
    }
}

#[async_trait]
impl Engine for SqliteEngine {
    async fn execute(&self, write: Write) -> Result<WriteOutcome, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.send(Job::Write(Box::new(write), tx))?;
        rx.await.map_err(|_| StoreError::WriterStopped)?
    }

    async fn credential(&self, tenant: &str, id: &str) -> Result<Option<Credential>, StoreError> {
        self.read_now(|c| credential_query(c, Some(tenant), id))
    }

    async fn credential_for_auth(&self, id: &str) -> Result<Option<Credential>, StoreError> {
        self.read_now(|c| credential_query(c, None, id))
    }

    async fn list_credentials(
        &self,
        tenant: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Credential>, StoreError> {
        let (tenant, after) = (tenant.to_owned(), after.unwrap_or("").to_owned());
        self.read(move |c| {
            let mut stmt = c.prepare_cached(sql::CREDENTIALS_PAGE)?;
            let rows = stmt
                .query_map(params![tenant, after, limit as i64], credential_row)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(CredentialRow::into_credential)
                .collect()
        })
        .await
    }

    async fn events(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let tenant = tenant.to_owned();
        self.read(move |c| {
            raw_events(c, &tenant, after, limit)?
                .into_iter()
                .map(EventRow::into_verified_event)
                .collect()
        })
        .await
    }

    async fn attempt_policy(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Policy, StoreError> {
        self.read_now(|c| {
            let policy = pollster::block_on(SqliteRead(c).policy(tenant, namespace))?;
            Ok(policy.unwrap_or_default())
        })
    }

    async fn assess_attempts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: Vec<ActionRef>,
        now: Timestamp,
    ) -> Result<(Policy, Vec<Assessment>), StoreError> {
        // A point read: one policy row and two streak rows per candidate.
        self.read_now(|c| {
            // One read transaction: the policy and the streaks agree.
            c.prepare_cached("BEGIN")?.execute([])?;
            let result = pollster::block_on(attempts::assess(
                &mut SqliteRead(c),
                tenant,
                namespace,
                subject,
                &actions,
                now,
            ));
            c.prepare_cached("COMMIT")?.execute([])?;
            result
        })
    }

    async fn record(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
    ) -> Result<Option<RecordRow>, StoreError> {
        self.read_now(|c| query_record(c, tenant, namespace, RecordKey::Id(experience_id)))
    }

    async fn search_records(
        &self,
        tenant: &str,
        namespace: &Namespace,
        filter: RecordFilter,
        after: &str,
        limit: usize,
    ) -> Result<Vec<RecordRow>, StoreError> {
        let (tenant, namespace, after) = (tenant.to_owned(), namespace.clone(), after.to_owned());
        self.read(move |c| {
            let text = filter.text.as_deref().and_then(fts_query);
            let rows = c
                .prepare_cached(sql::SQLITE_SEARCH_RECORDS)?
                .query_map(
                    params![
                        tenant,
                        namespace.as_str(),
                        filter.lifecycle,
                        filter.platform,
                        filter.verification_level,
                        after,
                        text,
                        limit as i64
                    ],
                    |r| record_at(r, 0),
                )?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(rows::RecordColumns::into_row)
                .collect()
        })
        .await
    }

    async fn source_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        let stream = praxis_domain::records::lifecycle::stream_of(source);
        self.read(move |c| {
            let events = c
                .prepare_cached(sql::STREAM_EVENTS)?
                .query_map(
                    params![
                        tenant,
                        namespace.as_str(),
                        stream,
                        to_i64(after),
                        limit as i64
                    ],
                    event_row,
                )?
                .collect::<Result<Vec<_>, _>>()?;
            events
                .into_iter()
                .map(EventRow::into_verified_event)
                .collect()
        })
        .await
    }

    async fn skills(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Vec<SkillRow>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        self.read(move |c| {
            let rows = c
                .prepare_cached(sql::SKILL_RELEASES)?
                .query_map(params![tenant, namespace.as_str()], |r| skill_at(r, 0))?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(rows::SkillColumns::into_row).collect()
        })
        .await
    }

    async fn automated_approval(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        self.read_now(|c| query_automated_approval(c, tenant, namespace))
    }

    async fn attempt_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        self.read(move |c| {
            pollster::block_on(attempts::history(
                &mut SqliteRead(c),
                &tenant,
                &namespace,
                &of,
                after,
                limit,
            ))
        })
        .await
    }

    async fn attempt_counts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.clone());
        let (subject, action) = (subject.map(str::to_owned), action.map(str::to_owned));
        self.read(move |c| {
            pollster::block_on(attempts::counts(
                &mut SqliteRead(c),
                &tenant,
                &namespace,
                subject.as_deref(),
                action.as_deref(),
            ))
        })
        .await
    }

    async fn tenants(&self) -> Result<Vec<String>, StoreError> {
        self.read(|c| {
            let rows = pollster::block_on(SqliteRead(c).tenants())?;
            Ok(rows.into_iter().map(|(t, _)| t).collect())
        })
        .await
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

    async fn ready(&self) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.send(Job::Probe(tx))?;
        rx.await.map_err(|_| StoreError::WriterStopped)?
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
        migrate(&mut conn).unwrap();
        for statement in sql::ALL {
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
}
