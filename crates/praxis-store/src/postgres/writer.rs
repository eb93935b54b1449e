//! The PostgreSQL writer: one task, a transaction per tenant group,
//! retried on serialization failures and deadlocks.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use deadpool_postgres::Pool;
use futures_util::FutureExt;
use tokio::sync::mpsc;

use super::pipeline::PgTx;
use crate::apply::{Waiter, answer_waiters, apply_batch};
use crate::command::{Write, WriteOutcome};
use crate::error::StoreError;
use crate::ledger::heads::HeadCache;
use crate::ledger::rows;
use crate::metrics::StoreMetrics;

/// Most writes the writer takes from its queue at once.
const MAX_BATCH: usize = 256;

/// How often a group that hit a serialization failure or deadlock is retried.
const RETRIES: usize = 8;

/// One queued write and who waits for it.
pub(super) type Job = (Write, Waiter);

pub(super) async fn writer_loop(
    pool: Pool,
    mut rx: mpsc::UnboundedReceiver<Job>,
    metrics: Arc<StoreMetrics>,
) {
    let mut cache = HeadCache::default();
    while let Some(first) = rx.recv().await {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let mut groups: BTreeMap<String, Vec<Job>> = BTreeMap::new();
        for job in jobs {
            groups.entry(job.0.tenant_id.clone()).or_default().push(job);
        }
        for (_, group) in groups {
            let (writes, waiters): (Vec<Write>, Vec<_>) = group.into_iter().unzip();
            metrics.batch_size.observe(writes.len() as u64);
            answer_waiters(
                waiters,
                commit_group(&pool, &mut cache, &writes, &metrics).await,
            );
        }
    }
}

async fn commit_group(
    pool: &Pool,
    cache: &mut HeadCache,
    writes: &[Write],
    metrics: &StoreMetrics,
) -> Result<Vec<Result<WriteOutcome, StoreError>>, StoreError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match try_commit_group(pool, cache, writes, metrics).await {
            Ok(results) => return Ok(results),
            Err(e) => {
                // Nothing of a failed group is durable, so nothing it cached may survive.
                cache.clear();
                if !(e.is_retryable() && attempt < RETRIES) {
                    metrics.failed();
                    return Err(e);
                }
            }
        }
    }
}

async fn try_commit_group(
    pool: &Pool,
    cache: &mut HeadCache,
    writes: &[Write],
    metrics: &StoreMetrics,
) -> Result<Vec<Result<WriteOutcome, StoreError>>, StoreError> {
    let mut client = pool
        .get()
        .await
        .map_err(|e| StoreError::Open(e.to_string()))?;
    let tx = client.transaction().await?;
    let (results, heads) = {
        let mut ptx = PgTx::new(&tx);
        // A bug in one write must not end the writer task, and with it
        // every later write.
        // Boxed: the batch's future holds every concept's state (about 20 KB).
        let applied = std::panic::AssertUnwindSafe(Box::pin(apply_batch(
            &mut ptx,
            cache,
            writes.to_vec(),
            rows::now(),
        )))
        .catch_unwind()
        .await
        .unwrap_or(Err(StoreError::Panicked))?;
        ptx.flush().await?;
        applied
    };
    let start = Instant::now();
    tx.commit().await?;
    metrics.sync_us.observe(start.elapsed().as_micros() as u64);
    cache.committed(&heads);
    Ok(results)
}
