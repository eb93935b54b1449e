//! The SQLite writer: one thread, group commit, and the checkpoints that
//! keep the WAL bounded.

use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::BUSY_TIMEOUT;
use super::ledger::SqliteTx;
use super::readiness::probe_write;
use crate::apply::{Waiter, answer_waiters, apply_batch};
use crate::command::{Write, WriteOutcome};
use crate::error::{BackendKind, StoreError};
use crate::ledger::heads::HeadCache;
use crate::ledger::rows;
use crate::metrics::StoreMetrics;

/// Most writes the writer folds into one commit.
pub(super) const MAX_BATCH: usize = 256;

/// What the writer thread is asked to do.
pub(super) enum Job {
    Write(
        Box<Write>,
        oneshot::Sender<Result<WriteOutcome, StoreError>>,
    ),
    Probe(oneshot::Sender<Result<(), StoreError>>),
}

/// How often the checkpointer copies committed WAL frames into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// WAL size at which the writer itself checkpoints and restarts the WAL.
///
/// Under a continuous write load the background PASSIVE checkpoints never
/// catch up with the end of the WAL, and a WAL is only reused from its start
/// once a checkpoint has: without this bound it grows without limit (19 GB
/// after four minutes of loading attempts was seen), and every page lookup
/// in it slows down.
pub(super) const WAL_RESTART_BYTES: u64 = 256 * 1024 * 1024;

/// Copies the WAL into the database in the background until told to stop.
///
/// PASSIVE checkpoints never block the writer; the WAL is reused from its start
/// once a checkpoint has caught up. A failed checkpoint loses nothing: the
/// frames stay in the WAL, which recovery replays.
pub(super) fn checkpoint_loop(conn: &Connection, stop: &mpsc::Receiver<()>) {
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

pub(super) fn writer_loop(
    mut conn: Connection,
    rx: &mpsc::Receiver<Job>,
    metrics: &StoreMetrics,
    wal: &Path,
) {
    let mut cache = HeadCache::default();
    let mut wal = WalBound::new(wal);
    while let Some(first) = wal.next_job(&conn, rx) {
        let mut waiters = Vec::new();
        let mut probes = Vec::new();
        let writes = drain(rx, Some(first), &mut waiters, &mut probes, MAX_BATCH);
        if !writes.is_empty() {
            let result = commit_batch(&mut conn, &mut cache, writes, metrics, || {
                // Writes that arrive while this transaction is being applied
                // join it instead of waiting for the next commit; the writer
                // never idles for them.
                let room = MAX_BATCH.saturating_sub(waiters.len());
                drain(rx, None, &mut waiters, &mut probes, room)
            });
            if let Err(e) = &result {
                wal.failed(e);
            }
            answer_waiters(waiters, result);
            wal.bound(&conn);
        }
        for probe in probes {
            let r = probe_write(&conn);
            if let Err(e) = &r {
                wal.failed(e);
            }
            let _ = probe.send(r);
        }
    }
}

/// How often the writer, idle after a full disk, tries to truncate the WAL.
const TRUNCATE_RETRY: Duration = Duration::from_secs(1);

/// How long a WAL restart may wait for readers still on old frames. A
/// long reader (a backup, an online verify) would otherwise hold every
/// commit for the whole busy timeout; short readers finish well within it.
const RESTART_WAIT: Duration = Duration::from_millis(100);

/// How long the writer leaves the WAL alone after a restart was kept from
/// finishing, so a long reader costs commits at most [`RESTART_WAIT`] a
/// second.
const RESTART_RETRY: Duration = Duration::from_secs(1);

/// Keeps the WAL file bounded: restarted past [`WAL_RESTART_BYTES`], and
/// truncated to nothing once possible after a write failed for lack of
/// space, so that the space the WAL held is given back rather than filled
/// again by the next burst.
struct WalBound<'p> {
    path: &'p Path,
    truncate: bool,
    last_try: Option<Instant>,
    restart_postponed: Option<Instant>,
}

impl<'p> WalBound<'p> {
    fn new(path: &'p Path) -> Self {
        WalBound {
            path,
            truncate: false,
            last_try: None,
            restart_postponed: None,
        }
    }

    /// Notes a failed write: after a full disk the WAL is to be truncated.
    fn failed(&mut self, e: &StoreError) {
        if e.backend_kind() == Some(BackendKind::DiskFull) {
            self.truncate = true;
        }
    }

    /// Waits for the next job; while a truncation is owed, retries it every
    /// [`TRUNCATE_RETRY`] in between. `None` once the queue is closed.
    fn next_job(&mut self, conn: &Connection, rx: &mpsc::Receiver<Job>) -> Option<Job> {
        loop {
            if !self.truncate {
                return rx.recv().ok();
            }
            match rx.recv_timeout(TRUNCATE_RETRY) {
                Ok(job) => return Some(job),
                Err(mpsc::RecvTimeoutError::Timeout) => self.bound(conn),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// Runs between commits, after the waiters were answered; a checkpoint
    /// waits (busy timeout) for readers still on old frames. Failing only
    /// postpones it: the frames stay in the WAL.
    fn bound(&mut self, conn: &Connection) {
        if self.truncate {
            // At most once a retry interval: it may wait for readers.
            if self.last_try.is_some_and(|t| t.elapsed() < TRUNCATE_RETRY) {
                return;
            }
            self.last_try = Some(Instant::now());
            match checkpoint(conn, "TRUNCATE") {
                Ok(true) => {
                    self.truncate = false;
                    tracing::info!("WAL truncated after a write failed for lack of space");
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "WAL truncation postponed"),
            }
            return;
        }
        if self
            .restart_postponed
            .is_some_and(|t| t.elapsed() < RESTART_RETRY)
        {
            return;
        }
        let size = std::fs::metadata(self.path).map_or(0, |m| m.len());
        if size <= WAL_RESTART_BYTES {
            return;
        }
        match restart(conn) {
            Ok(true) => self.restart_postponed = None,
            Ok(false) => {
                tracing::debug!("WAL restart postponed: a reader is still on old frames");
                self.restart_postponed = Some(Instant::now());
            }
            Err(e) => {
                tracing::warn!(error = %e, "WAL restart postponed");
                self.restart_postponed = Some(Instant::now());
            }
        }
    }
}

/// Restarts the WAL, waiting at most [`RESTART_WAIT`] for readers;
/// `Ok(false)` when one kept it from finishing.
fn restart(conn: &Connection) -> rusqlite::Result<bool> {
    conn.busy_timeout(RESTART_WAIT)?;
    let done = checkpoint(conn, "RESTART");
    // The writer's own busy timeout, as the connection was opened with.
    conn.busy_timeout(BUSY_TIMEOUT)?;
    done
}

/// Runs a blocking checkpoint; `Ok(false)` when readers kept it from
/// finishing.
fn checkpoint(conn: &Connection, mode: &str) -> rusqlite::Result<bool> {
    conn.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
        r.get::<_, i64>(0)
    })
    .map(|busy| busy == 0)
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
        metrics.failed();
        // Nothing of this batch is durable, so nothing it cached may survive.
        cache.clear();
    }
    result
}
