//! Command logic shared by both engines.
//!
//! Each engine implements [`LedgerTx`] over its own transaction; this module
//! turns writes into events and projection rows. A batch of writes runs in one
//! transaction, each write inside its own savepoint, so a failing write rolls
//! back alone and the batch commits once.

use std::collections::HashMap;

use praxis_domain::auth::Namespace;
use praxis_domain::credentials::{
    self, Credential, CredentialEvent, CredentialStatus, IssueRequest, Issued, Revoked, Rotated,
    TENANT_CREATED,
};
use praxis_domain::digest::{Digest, RECEIPT_KIND};
use praxis_domain::ledger::{Actor, Event, NewEvent};
use praxis_domain::time::Timestamp;
use serde_json::json;

use crate::attempts::{self, AttemptOverlay, AttemptTx};
use crate::command::{Applied, Command, Write, WriteOutcome};
use crate::error::StoreError;
use crate::heads::HeadCache;
use crate::records::{self, RecordTx};

/// A receipt as stored beside its idempotency key.
#[derive(Clone, Debug)]
pub(crate) struct StoredReceipt {
    pub key: String,
    pub request_digest: Digest,
    pub bytes: Vec<u8>,
    pub receipt_digest: Digest,
    pub position: u64,
}

impl StoredReceipt {
    /// Fails closed when the stored bytes no longer match their digest.
    pub fn verified(self) -> Result<StoredReceipt, StoreError> {
        if Digest::of_bytes(RECEIPT_KIND, &self.bytes) == self.receipt_digest {
            Ok(self)
        } else {
            Err(StoreError::inconsistent(format!(
                "receipt {:?} does not match its digest",
                self.key
            )))
        }
    }
}

/// The transactional primitives an engine offers to the shared command logic.
pub(crate) trait LedgerTx {
    /// Locks the tenant row for this transaction and returns its head position.
    async fn lock_tenant(&mut self, tenant: &str) -> Result<Option<u64>, StoreError>;
    /// Inserts a tenant row with head 0.
    async fn create_tenant(&mut self, tenant: &str, at: Timestamp) -> Result<(), StoreError>;
    /// Stores the tenant's new head position.
    async fn set_tenant_head(&mut self, tenant: &str, head: u64) -> Result<(), StoreError>;
    /// The last (sequence, digest) of a stream.
    async fn stream_head(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        stream: &str,
    ) -> Result<Option<(u64, Digest)>, StoreError>;
    /// Inserts a sealed event.
    async fn insert_event(&mut self, event: &Event) -> Result<(), StoreError>;
    /// Looks up a stored receipt.
    async fn receipt(
        &mut self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<StoredReceipt>, StoreError>;
    /// Stores a receipt unless its key exists; returns whether it was stored.
    async fn insert_receipt(
        &mut self,
        tenant: &str,
        receipt: &StoredReceipt,
    ) -> Result<bool, StoreError>;
    /// Reads a credential row.
    async fn credential(
        &mut self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Credential>, StoreError>;
    /// Inserts or replaces a credential row.
    async fn put_credential(&mut self, credential: &Credential) -> Result<(), StoreError>;
    /// Opens the per-write savepoint.
    async fn savepoint(&mut self) -> Result<(), StoreError>;
    /// Releases the per-write savepoint, keeping its effects.
    async fn release(&mut self) -> Result<(), StoreError>;
    /// Rolls the per-write savepoint back and releases it.
    async fn rollback_to(&mut self) -> Result<(), StoreError>;
}

/// Per-write results, and the tenant heads the batch ends at.
pub(crate) type BatchResult = (Vec<Result<WriteOutcome, StoreError>>, HashMap<String, u64>);

/// Applies a batch of writes inside an open transaction.
///
/// Returns one result per write. An `Err` from this function itself means the
/// transaction is unusable and must be rolled back by the caller.
pub(crate) async fn apply_batch<T: LedgerTx + AttemptTx + RecordTx>(
    tx: &mut T,
    cache: &mut HeadCache,
    writes: Vec<Write>,
    now: Timestamp,
) -> Result<BatchResult, StoreError> {
    let mut heads: HashMap<String, u64> = HashMap::new();
    let mut overlay = AttemptOverlay::default();
    let mut results = Vec::with_capacity(writes.len());
    for write in writes {
        let tenant = write.tenant_id.clone();
        let idempotency = write.idempotency.clone();
        let creates_tenant = matches!(
            write.command,
            Command::CreateTenant | Command::Bootstrap { .. }
        );
        let before = heads.get(&tenant).copied();
        tx.savepoint().await?;
        cache.savepoint();
        overlay.savepoint();
        let applied = match apply_one(tx, cache, &mut overlay, &mut heads, write, now).await {
            // A failed release (a deferred statement failing) fails this write alone.
            Ok(outcome) => tx.release().await.map(|()| outcome),
            Err(err) => Err(err),
        };
        match applied {
            Ok(outcome) => results.push(Ok(outcome)),
            Err(err) if err.is_retryable() => return Err(err),
            Err(err) => {
                // Another process created the same tenant first (PostgreSQL).
                let err = if creates_tenant && err.is_unique_violation() {
                    StoreError::TenantExists
                } else {
                    err
                };
                tx.rollback_to().await?;
                cache.rollback();
                overlay.rollback();
                match before {
                    Some(h) => heads.insert(tenant.clone(), h),
                    None => heads.remove(&tenant),
                };
                // Receipts are looked up only when a write fails: a new key is
                // the common case, and its insert already proves it is new.
                let result = match idempotency {
                    // Authority is checked before anything is replayed.
                    _ if matches!(err, StoreError::AuthorityEnded) => Err(err),
                    Some(idem) => match tx.receipt(&tenant, &idem.key).await? {
                        Some(stored) => replay(stored, &idem),
                        None => Err(err),
                    },
                    None => Err(err),
                };
                results.push(result);
            }
        }
    }
    overlay.flush(tx).await?;
    for (tenant, head) in &heads {
        tx.set_tenant_head(tenant, *head).await?;
    }
    Ok((results, heads))
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
            let message = e.to_string();
            for tx in waiters {
                let _ = tx.send(Err(StoreError::Open(format!("commit failed: {message}"))));
            }
        }
    }
}

/// Answers a write whose idempotency key already has a receipt.
fn replay(
    stored: StoredReceipt,
    idem: &crate::command::Idempotency,
) -> Result<WriteOutcome, StoreError> {
    let stored = stored.verified()?;
    if stored.request_digest == idem.request_digest {
        Ok(WriteOutcome::Replayed {
            receipt: stored.bytes,
        })
    } else {
        Err(StoreError::IdempotencyConflict)
    }
}

async fn apply_one<T: LedgerTx + AttemptTx + RecordTx>(
    tx: &mut T,
    cache: &mut HeadCache,
    overlay: &mut AttemptOverlay,
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
    } = write;
    if matches!(command, Command::CreateTenant | Command::Bootstrap { .. }) {
        if heads.contains_key(&tenant) || tx.lock_tenant(&tenant).await?.is_some() {
            return Err(StoreError::TenantExists);
        }
        tx.create_tenant(&tenant, now).await?;
        heads.insert(tenant.clone(), 0);
    }
    let head = match heads.get(&tenant) {
        Some(h) => *h,
        None => {
            let h = tx
                .lock_tenant(&tenant)
                .await?
                .ok_or(StoreError::TenantNotFound)?;
            cache.validate(&tenant, h);
            heads.insert(tenant.clone(), h);
            h
        }
    };
    if let Some(authority) = &authority {
        let current = tx.credential(&tenant, &authority.credential_id).await?;
        let holds = current.is_some_and(|c| {
            c.status(now) == CredentialStatus::Active
                && c.secret_sha256 == authority.secret_sha256
                && c.capabilities.contains(&authority.capability)
        });
        if !holds {
            return Err(StoreError::AuthorityEnded);
        }
    }
    let mut ctx = Ctx {
        cache,
        overlay,
        tenant: &tenant,
        head,
        actor: &actor,
        now,
        applied: Applied::default(),
    };
    run_command(tx, &mut ctx, command).await?;
    let head = ctx.head;
    let applied = ctx.applied;
    heads.insert(tenant.clone(), head);
    let receipt = match (receipt, idempotency) {
        (Some(build), Some(idem)) => {
            let bytes = build(&applied);
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
        (Some(build), None) => Some(build(&applied)),
        (None, _) => None,
    };
    Ok(WriteOutcome::Committed {
        applied: Box::new(applied),
        receipt,
    })
}

/// The state of one write while its command runs.
pub(crate) struct Ctx<'a> {
    cache: &'a mut HeadCache,
    /// Streak and count changes, written when the transaction ends.
    pub(crate) overlay: &'a mut AttemptOverlay,
    pub(crate) tenant: &'a str,
    head: u64,
    actor: &'a Actor,
    now: Timestamp,
    applied: Applied,
}

impl Ctx<'_> {
    /// The time this batch is applied at.
    pub(crate) fn now(&self) -> Timestamp {
        self.now
    }

    /// Places, seals and inserts one event.
    pub(crate) async fn append<T: LedgerTx>(
        &mut self,
        tx: &mut T,
        new: NewEvent,
    ) -> Result<&Event, StoreError> {
        let prev = match self.cached_head(&new.namespace, &new.stream) {
            Some(head) => Some(head),
            None => {
                tx.stream_head(self.tenant, &new.namespace, &new.stream)
                    .await?
            }
        };
        self.append_after(tx, new, prev).await
    }

    /// The head of a stream, if this writer knows it without a query.
    pub(crate) fn cached_head(&self, namespace: &Namespace, stream: &str) -> Option<(u64, Digest)> {
        self.cache.get(self.tenant, namespace.as_str(), stream)
    }

    /// Appends an event after `prev`, the stream's head as just read (or cached).
    pub(crate) async fn append_after<T: LedgerTx>(
        &mut self,
        tx: &mut T,
        new: NewEvent,
        prev: Option<(u64, Digest)>,
    ) -> Result<&Event, StoreError> {
        // A payload number outside the exact range would be rounded by the
        // canonical form, and the event would no longer say what was meant.
        praxis_domain::canonical::check_value(&new.payload)?;
        self.head += 1;
        let event = Event::place(
            self.tenant,
            new,
            prev.map_or(1, |(seq, _)| seq + 1),
            self.head,
            prev.map(|(_, d)| d),
            self.actor.clone(),
            self.now,
        );
        tx.insert_event(&event).await?;
        self.cache.put(
            self.tenant,
            event.namespace.as_str(),
            &event.stream,
            (event.stream_seq, event.digest),
        );
        self.applied.events.push(event);
        Ok(self.applied.events.last().expect("just pushed"))
    }

    /// Appends a credential event and folds it into the projection.
    async fn credential_event<T: LedgerTx>(
        &mut self,
        tx: &mut T,
        state: Option<Credential>,
        id: &str,
        decoded: CredentialEvent,
    ) -> Result<(), StoreError> {
        let new = NewEvent::new(
            Namespace::admin(),
            credentials::stream_of(id),
            decoded.kind(),
            decoded.payload(),
        );
        let event = self.append(tx, new).await?;
        let next = Credential::fold(state, event, &decoded).map_err(StoreError::inconsistent)?;
        tx.put_credential(&next).await?;
        self.applied.credential = Some(next);
        Ok(())
    }
}

async fn run_command<T: LedgerTx + AttemptTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: Command,
) -> Result<(), StoreError> {
    match command {
        Command::CreateTenant => create_tenant(tx, ctx).await?,
        Command::Bootstrap {
            credential_id,
            request,
            secret_sha256,
        } => {
            create_tenant(tx, ctx).await?;
            issue(tx, ctx, credential_id, request, secret_sha256).await?;
        }
        Command::IssueCredential {
            credential_id,
            request,
            secret_sha256,
        } => issue(tx, ctx, credential_id, request, secret_sha256).await?,
        Command::RotateCredential {
            credential_id,
            secret_sha256,
        } => {
            let current = tx
                .credential(ctx.tenant, &credential_id)
                .await?
                .ok_or(StoreError::CredentialNotFound)?;
            if current.revoked_at.is_some() {
                return Err(StoreError::CredentialRevoked);
            }
            let rotated = CredentialEvent::Rotated(Rotated {
                credential_id: credential_id.clone(),
                secret_sha256,
            });
            ctx.credential_event(tx, Some(current), &credential_id, rotated)
                .await?;
        }
        Command::RevokeCredential { credential_id } => {
            let current = tx
                .credential(ctx.tenant, &credential_id)
                .await?
                .ok_or(StoreError::CredentialNotFound)?;
            if current.revoked_at.is_some() {
                ctx.applied.credential = Some(current);
            } else {
                let revoked = CredentialEvent::Revoked(Revoked {
                    credential_id: credential_id.clone(),
                });
                ctx.credential_event(tx, Some(current), &credential_id, revoked)
                    .await?;
            }
        }
        Command::Observe { observation } => {
            let written = attempts::observe(tx, ctx, *observation).await?;
            ctx.applied.attempts.push(written);
        }
        Command::ImportAttempts { observations } => {
            ctx.applied.attempts = attempts::import(tx, ctx, observations).await?;
        }
        Command::SetAttemptPolicy { namespace, policy } => {
            attempts::set_policy(tx, ctx, &namespace, policy).await?;
        }
        Command::SubmitRecord(submission) => {
            let written = records::submit(tx, ctx, *submission).await?;
            ctx.applied.records.push(written);
        }
        Command::ReviewRecord(review) => {
            let written = records::review_record(tx, ctx, *review).await?;
            ctx.applied.records.push(written);
        }
        Command::WithdrawRecord {
            namespace,
            experience_id,
            reason,
            expected_revision,
        } => {
            let written = records::withdraw_record(
                tx,
                ctx,
                &namespace,
                &experience_id,
                reason,
                expected_revision,
            )
            .await?;
            ctx.applied.records.push(written);
        }
        Command::ImportRecords {
            namespace,
            documents,
            skills,
        } => {
            ctx.applied.records =
                records::import_records(tx, ctx, &namespace, documents, skills).await?;
        }
        Command::PublishSkill { namespace, release } => {
            ctx.applied.skill = Some(records::publish_skill(tx, ctx, &namespace, release).await?);
        }
        Command::WithdrawSkill {
            namespace,
            name,
            version,
            reason,
        } => {
            let written =
                records::withdraw_skill(tx, ctx, &namespace, &name, &version, reason, None).await?;
            ctx.applied.skill = Some(written);
        }
        Command::SetAutomatedApproval { namespace, on } => {
            records::set_automated_approval(tx, ctx, &namespace, on).await?;
        }
        Command::Append { events } => {
            for new in events {
                ctx.append(tx, new).await?;
            }
        }
    }
    Ok(())
}

async fn create_tenant<T: LedgerTx>(tx: &mut T, ctx: &mut Ctx<'_>) -> Result<(), StoreError> {
    let payload = json!({ "tenant_id": ctx.tenant });
    let event = NewEvent::new(Namespace::admin(), "tenant", TENANT_CREATED, payload);
    ctx.append(tx, event).await?;
    Ok(())
}

async fn issue<T: LedgerTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    credential_id: String,
    request: IssueRequest,
    secret_sha256: Digest,
) -> Result<(), StoreError> {
    if tx.credential(ctx.tenant, &credential_id).await?.is_some() {
        return Err(StoreError::inconsistent("credential id collision"));
    }
    let issued = CredentialEvent::Issued(Issued {
        credential_id: credential_id.clone(),
        subject: request.subject,
        capabilities: request.capabilities,
        grants: request.grants,
        secret_sha256,
        expires_at: request.expires_at.map(Timestamp::micros),
    });
    ctx.credential_event(tx, None, &credential_id, issued).await
}
