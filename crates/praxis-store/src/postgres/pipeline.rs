//! The PostgreSQL writer's transaction, which pipelines the statements
//! nobody waits for.

use deadpool_postgres::Transaction;
use futures_util::future::{join, join_all};
use tokio_postgres::Statement;
use tokio_postgres::types::ToSql;

use crate::error::StoreError;

/// Most deferred statements held before they are sent.
pub(super) const MAX_PIPELINE: usize = 16;

/// A statement parameter owned by a deferred statement.
pub(super) type Param = Box<dyn ToSql + Sync + Send>;

/// A statement whose result nobody waits for, sent with the next round trip.
pub(super) enum Pending {
    Simple(&'static str),
    Exec(Statement, Vec<Param>),
}

/// The writer's transaction. Statements whose results are not needed are
/// deferred and pipelined ahead of the next statement that needs an answer,
/// so a write costs one round trip on loopback instead of four or five.
/// Deferred statements are always flushed before the write's savepoint is
/// released, so an error is still attributed to the write that caused it.
pub(super) struct PgTx<'a, 'c> {
    pub(super) tx: &'a Transaction<'c>,
    pub(super) pending: Vec<Pending>,
    /// Whether this write's savepoint has been opened, deferred or not.
    pub(super) flushed_in_write: bool,
}

impl<'a, 'c> PgTx<'a, 'c> {
    pub(super) fn new(tx: &'a Transaction<'c>) -> Self {
        PgTx {
            tx,
            pending: Vec::new(),
            flushed_in_write: false,
        }
    }

    pub(super) async fn defer(
        &mut self,
        sql: &'static str,
        params: Vec<Param>,
    ) -> Result<(), StoreError> {
        let stmt = self.tx.prepare_cached(sql).await?;
        self.pending.push(Pending::Exec(stmt, params));
        // `join_all` polls every future in order only below 30 of them; a
        // longer pipeline could reorder, so it is sent before it gets there.
        if self.pending.len() >= MAX_PIPELINE {
            self.flush().await?;
        }
        Ok(())
    }

    /// Sends the deferred statements and then `last`, in one pipeline.
    /// Returns the first deferred error, or else `last`'s result.
    pub(super) async fn flush_then<T>(
        &mut self,
        last: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> (Result<(), StoreError>, Result<T, StoreError>) {
        let pending = std::mem::take(&mut self.pending);
        self.flushed_in_write = true;
        let tx = self.tx;
        let sent = pending.iter().map(|p| async move {
            match p {
                Pending::Simple(sql) => tx.batch_execute(sql).await,
                Pending::Exec(stmt, params) => {
                    let refs: Vec<&(dyn ToSql + Sync)> = params
                        .iter()
                        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                        .collect();
                    tx.execute(stmt, &refs).await.map(|_| ())
                }
            }
        });
        // join_all polls in order, so requests leave in order, before `last`.
        let (earlier, last) = join(join_all(sent), last).await;
        let earlier = earlier
            .into_iter()
            .collect::<Result<Vec<()>, _>>()
            .map(|_| ());
        (
            earlier.map_err(StoreError::from),
            last.map_err(StoreError::from),
        )
    }

    /// Runs `last` after the deferred statements; any error fails the call.
    pub(super) async fn answer<T>(
        &mut self,
        last: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, StoreError> {
        let (earlier, last) = self.flush_then(last).await;
        earlier?;
        last
    }

    /// Sends whatever is still deferred.
    pub(super) async fn flush(&mut self) -> Result<(), StoreError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.answer(async { Ok(()) }).await
    }
}

pub(super) fn refs(params: &[Param]) -> Vec<&(dyn ToSql + Sync)> {
    params
        .iter()
        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
        .collect()
}
