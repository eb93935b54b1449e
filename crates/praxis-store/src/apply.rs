//! How a batch of writes is applied: one transaction, each write in its own
//! savepoint, each command dispatched to its concept.
//!
//! This is the one place where concepts are registered for writing: the
//! [`StoreTx`] bound lists every concept's transactional trait, [`Batch`]
//! holds every concept's per-transaction state, and [`dispatch`] hands each
//! command to its concept.

use std::collections::HashMap;

use praxis_domain::digest::{Digest, RECEIPT_KIND};
use praxis_domain::time::Timestamp;

use crate::attempts::{self, AttemptOverlay, AttemptTx};
use crate::auth::{self, CredentialTx};
use crate::command::{Applied, Command, Effect, Idempotency, Write, WriteOutcome};
use crate::error::{Missing, StoreError};
use crate::learning::procedures::ProcedureTx;
use crate::learning::{self, LearningTx, PreparedReport};
use crate::ledger::heads::HeadCache;
use crate::ledger::{Ctx, LedgerTx, StoredReceipt};
use crate::memory::{self, MemoryTx};
use crate::proposals::{self, ProposalTx};
use crate::records::{self, RecordTx};
use crate::skills::{self, SkillTx};

/// Everything a transaction must offer to apply any command.
pub(crate) trait StoreTx:
    LedgerTx
    + CredentialTx
    + AttemptTx
    + RecordTx
    + SkillTx
    + LearningTx
    + ProcedureTx
    + MemoryTx
    + ProposalTx
{
}

impl<
    T: LedgerTx
        + CredentialTx
        + AttemptTx
        + RecordTx
        + SkillTx
        + LearningTx
        + ProcedureTx
        + MemoryTx
        + ProposalTx,
> StoreTx for T
{
}

/// State concepts keep across the writes of one transaction, undone with a
/// write's savepoint and written once before commit.
#[derive(Default)]
struct Batch {
    attempts: AttemptOverlay,
}

impl Batch {
    fn savepoint(&mut self) {
        self.attempts.savepoint();
    }

    fn rollback(&mut self) {
        self.attempts.rollback();
    }

    async fn flush<T: StoreTx>(&mut self, tx: &mut T) -> Result<(), StoreError> {
        self.attempts.flush(tx).await
    }
}

/// Per-write results, and the tenant heads the batch ends at.
pub(crate) type BatchResult = (Vec<Result<WriteOutcome, StoreError>>, HashMap<String, u64>);

/// Applies a batch of writes inside an open transaction.
///
/// Returns one result per write. An `Err` from this function itself means the
/// transaction is unusable and must be rolled back by the caller.
pub(crate) async fn apply_batch<T: StoreTx>(
    tx: &mut T,
    cache: &mut HeadCache,
    writes: Vec<Write>,
    now: Timestamp,
) -> Result<BatchResult, StoreError> {
    let mut heads: HashMap<String, u64> = HashMap::new();
    let mut batch = Batch::default();
    let mut results = Vec::with_capacity(writes.len());
    for write in writes {
        let fallback = write.unprepared();
        let first = apply_isolated(tx, cache, &mut batch, &mut heads, write, now).await?;
        let result = match (first, fallback) {
            // Decided ahead of the writer and failed here (its rows moved on,
            // or anything else): decided again, here, for the authoritative
            // answer.
            (Err(_), Some(write)) => {
                apply_isolated(tx, cache, &mut batch, &mut heads, write, now).await?
            }
            (result, _) => result,
        };
        results.push(result);
    }
    batch.flush(tx).await?;
    for (tenant, head) in &heads {
        tx.set_tenant_head(tenant, *head).await?;
    }
    Ok((results, heads))
}

/// Applies one write in its own savepoint: on failure everything it did is
/// undone and its result is the error (or the receipt its key holds). An
/// `Err` from this function itself fails the whole batch.
async fn apply_isolated<T: StoreTx>(
    tx: &mut T,
    cache: &mut HeadCache,
    batch: &mut Batch,
    heads: &mut HashMap<String, u64>,
    write: Write,
    now: Timestamp,
) -> Result<Result<WriteOutcome, StoreError>, StoreError> {
    let tenant = write.tenant_id.clone();
    let idempotency = write.idempotency.clone();
    let creates_tenant = write.command.creates_tenant();
    let before = heads.get(&tenant).copied();
    tx.savepoint().await?;
    cache.savepoint();
    batch.savepoint();
    let applied = match apply_one(tx, cache, batch, heads, write, now).await {
        // A failed release (a deferred statement failing) fails this write alone.
        Ok(outcome) => tx.release().await.map(|()| outcome),
        Err(err) => Err(err),
    };
    let err = match applied {
        Ok(outcome) => return Ok(Ok(outcome)),
        Err(err) if err.is_retryable() => return Err(err),
        Err(err) => err,
    };
    // Another process created the same tenant first (PostgreSQL).
    let err = if creates_tenant && err.is_unique_violation() {
        StoreError::TenantExists
    } else {
        err
    };
    tx.rollback_to().await?;
    cache.rollback();
    batch.rollback();
    match before {
        Some(h) => heads.insert(tenant.clone(), h),
        None => heads.remove(&tenant),
    };
    // Receipts are looked up only when a write fails: a new key is the
    // common case, and its insert already proves it is new.
    Ok(match idempotency {
        // Authority is checked before anything is replayed.
        _ if matches!(err, StoreError::AuthorityEnded) => Err(err),
        Some(idem) => match tx.receipt(&tenant, &idem.key).await? {
            Some(stored) => replay(stored, &idem),
            None => Err(err),
        },
        None => Err(err),
    })
}

/// Who waits for the outcome of one write.
pub(crate) type Waiter = tokio::sync::oneshot::Sender<Result<WriteOutcome, StoreError>>;

/// Answers every waiter of a batch, in order; a failed batch fails them all.
pub(crate) fn answer_waiters(
    waiters: Vec<Waiter>,
    batch: Result<Vec<Result<WriteOutcome, StoreError>>, StoreError>,
) {
    match batch {
        Ok(results) => {
            for (tx, r) in waiters.into_iter().zip(results) {
                let _ = tx.send(r);
            }
        }
        Err(e) => {
            let cause = std::sync::Arc::new(e);
            for tx in waiters {
                let _ = tx.send(Err(StoreError::NotCommitted(cause.clone())));
            }
        }
    }
}

/// Answers a write whose idempotency key already has a receipt.
fn replay(stored: StoredReceipt, idem: &Idempotency) -> Result<WriteOutcome, StoreError> {
    let stored = stored.verified()?;
    if stored.request_digest == idem.request_digest {
        Ok(WriteOutcome::Replayed {
            receipt: stored.bytes,
        })
    } else {
        Err(StoreError::IdempotencyConflict)
    }
}

async fn apply_one<T: StoreTx>(
    tx: &mut T,
    cache: &mut HeadCache,
    batch: &mut Batch,
    heads: &mut HashMap<String, u64>,
    write: Write,
    now: Timestamp,
) -> Result<WriteOutcome, StoreError> {
    let Write {
        tenant_id: tenant,
        actor,
        idempotency,
        command,
        receipt,
        authority,
        prepared,
    } = write;
    if command.creates_tenant() {
        if heads.contains_key(&tenant) || tx.lock_tenant(&tenant).await?.is_some() {
            return Err(StoreError::TenantExists);
        }
        tx.create_tenant(&tenant, now).await?;
        heads.insert(tenant.clone(), 0);
    }
    let head = if let Some(h) = heads.get(&tenant) {
        *h
    } else {
        let h = tx
            .lock_tenant(&tenant)
            .await?
            .ok_or(StoreError::NotFound(Missing::Tenant))?;
        cache.validate(&tenant, h);
        heads.insert(tenant.clone(), h);
        h
    };
    if let Some(authority) = &authority {
        auth::check_authority(tx, &tenant, authority, now).await?;
    }
    let mut ctx = Ctx::new(cache, &tenant, head, &actor, now);
    let effect = dispatch(tx, &mut ctx, batch, command, prepared).await?;
    let (head, events) = ctx.finish();
    let applied = Applied { events, effect };
    heads.insert(tenant.clone(), head);
    let receipt = match (receipt, idempotency) {
        (Some(build), Some(idem)) => {
            let bytes = build(&applied)?;
            let stored = StoredReceipt {
                key: idem.key,
                request_digest: idem.request_digest,
                receipt_digest: Digest::of_bytes(RECEIPT_KIND, &bytes),
                bytes,
                position: head,
            };
            if !tx.insert_receipt(&tenant, &stored).await? {
                // The key exists: the caller rolls this write back and replays.
                return Err(StoreError::IdempotencyConflict);
            }
            Some(stored.bytes)
        }
        (Some(build), None) => Some(build(&applied)?),
        (None, _) => None,
    };
    Ok(WriteOutcome::Committed {
        applied: Box::new(applied),
        receipt,
    })
}

/// Hands a command to its concept.
async fn dispatch<T: StoreTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    batch: &mut Batch,
    command: Command,
    prepared: Option<Box<PreparedReport>>,
) -> Result<Effect, StoreError> {
    Ok(match command {
        Command::Auth(c) => auth::apply(tx, ctx, c)
            .await?
            .map_or(Effect::None, Effect::Credential),
        Command::Attempts(c) => match attempts::apply(tx, ctx, &mut batch.attempts, c).await? {
            attempts::AttemptEffect::Writes(writes) => Effect::Attempts(writes),
            attempts::AttemptEffect::Policy(policy) => Effect::Policy(policy),
        },
        Command::Records(c) => Effect::Records(records::apply(tx, ctx, c).await?),
        Command::Skills(c) => Effect::Skill(skills::apply(tx, ctx, c).await?),
        Command::Learning(c) => Effect::Learning(learning::apply(tx, ctx, c, prepared).await?),
        Command::Memory(c) => Effect::Memory(memory::apply(tx, ctx, c).await?),
        Command::Proposals(c) => Effect::Proposals(proposals::apply(tx, ctx, c).await?),
        Command::Append(events) => {
            for new in events {
                ctx.append(tx, new).await?;
            }
            Effect::None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{BackendError, BackendKind};

    /// A batch that failed to commit says so, not that the store failed to
    /// open (a full disk used to log "cannot open store: commit failed").
    #[test]
    fn a_failed_commit_is_reported_as_one() {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let full = StoreError::Backend(BackendError::new(
            "sqlite",
            BackendKind::DiskFull,
            "database or disk is full".into(),
        ));
        answer_waiters(vec![tx], Err(full));
        let Err(e) = rx.blocking_recv().unwrap() else {
            panic!("the waiter was told its write succeeded");
        };
        assert_eq!(
            e.to_string(),
            "the write was not committed: sqlite: database or disk is full"
        );
        assert!(matches!(e, StoreError::NotCommitted(_)));
    }
}
