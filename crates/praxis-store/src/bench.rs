//! The benchmark's door into the store: the raw baseline.
//!
//! `praxis bench ledger` compares the engine's durable appends with plain
//! batched INSERTs of the same rows under the same sync settings. The
//! baseline needs the store's own tables and statements, and this module is
//! all of the store's internals a benchmark may reach.

use std::path::Path;
use std::time::{Duration, Instant};

use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;
use rusqlite::params;

use crate::error::StoreError;
use crate::ledger::rows::to_i64;
use crate::ledger::sql;

/// One event and its receipt, sealed in advance so that the baseline
/// measures only the database.
pub struct RawRow {
    /// The sealed event.
    pub event: Event,
    /// Its payload's canonical text.
    pub payload: String,
    /// The idempotency key stored with it.
    pub key: String,
    /// The receipt bytes.
    pub receipt: Vec<u8>,
    /// Their digest.
    pub receipt_digest: Digest,
    /// The request digest stored with the key.
    pub request_digest: Digest,
}

/// Appends `rows` to the SQLite store in `dir` with plain INSERTs, `batch`
/// per transaction, for at most `duration`; returns rows per second.
pub fn raw_append_sqlite(
    dir: &Path,
    rows: &[RawRow],
    batch: usize,
    duration: Duration,
) -> Result<f64, StoreError> {
    let conn = crate::sqlite::open_connection(&dir.join(crate::sqlite::DB_FILE))?;
    let start = Instant::now();
    let mut written = 0usize;
    for chunk in rows.chunks(batch) {
        if start.elapsed() >= duration {
            break;
        }
        let tx = conn.unchecked_transaction()?;
        {
            let mut ev = tx.prepare_cached(sql::INSERT_EVENT)?;
            let mut rc = tx.prepare_cached(sql::INSERT_RECEIPT)?;
            for r in chunk {
                let e = &r.event;
                ev.execute(params![
                    e.tenant_id,
                    to_i64(e.position),
                    e.namespace.as_str(),
                    e.stream,
                    to_i64(e.stream_seq),
                    e.kind,
                    r.payload,
                    &e.payload_digest.0[..],
                    e.prev_digest.map(|d| d.0.to_vec()),
                    e.actor.credential_id,
                    e.actor.subject,
                    e.recorded_at.micros(),
                    &e.digest.0[..],
                ])?;
                rc.execute(params![
                    "raw",
                    r.key,
                    &r.request_digest.0[..],
                    r.receipt,
                    &r.receipt_digest.0[..],
                    to_i64(e.position)
                ])?;
            }
        }
        tx.commit()?;
        written += chunk.len();
    }
    Ok(written as f64 / start.elapsed().as_secs_f64())
}

/// The same baseline on PostgreSQL, as tenant `raw`, which it clears first.
pub async fn raw_append_postgres(
    url: &str,
    rows: &[RawRow],
    batch: usize,
    duration: Duration,
) -> Result<f64, StoreError> {
    let (mut client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    tokio::spawn(conn);
    client.batch_execute("DELETE FROM events WHERE tenant_id = 'raw'; DELETE FROM receipts WHERE tenant_id = 'raw'").await?;
    let ev = client.prepare(sql::INSERT_EVENT).await?;
    let rc = client.prepare(sql::INSERT_RECEIPT).await?;
    let start = Instant::now();
    let mut written = 0usize;
    for chunk in rows.chunks(batch) {
        if start.elapsed() >= duration {
            break;
        }
        let tx = client.transaction().await?;
        for r in chunk {
            let e = &r.event;
            let prev = e.prev_digest.map(|d| d.0.to_vec());
            tx.execute(
                &ev,
                &[
                    &e.tenant_id,
                    &to_i64(e.position),
                    &e.namespace.as_str(),
                    &e.stream,
                    &to_i64(e.stream_seq),
                    &e.kind,
                    &r.payload,
                    &&e.payload_digest.0[..],
                    &prev,
                    &e.actor.credential_id,
                    &e.actor.subject,
                    &e.recorded_at.micros(),
                    &&e.digest.0[..],
                ],
            )
            .await?;
            tx.execute(
                &rc,
                &[
                    &"raw",
                    &r.key,
                    &&r.request_digest.0[..],
                    &r.receipt,
                    &&r.receipt_digest.0[..],
                    &to_i64(e.position),
                ],
            )
            .await?;
        }
        tx.commit().await?;
        written += chunk.len();
    }
    Ok(written as f64 / start.elapsed().as_secs_f64())
}
