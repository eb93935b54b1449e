//! The ledger itself: tenants and their positions, sealed events chained
//! per stream, and idempotency receipts.
//!
//! Every concept writes through [`Ctx::append`] and nothing else places an
//! event, so density of positions, the chain of each stream and the seal of
//! each event are kept in one place. Concepts build on this module; it
//! knows none of them.

pub(crate) mod heads;
pub(crate) mod rows;
pub(crate) mod sql;

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::{Digest, RECEIPT_KIND};
use praxis_domain::ledger::{Actor, Event, NewEvent};
use praxis_domain::time::Timestamp;

use crate::error::StoreError;
use heads::HeadCache;

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

/// The transactional primitives of the ledger that each engine implements
/// on its own transaction.
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
    /// The event at a position, re-verified.
    async fn event_at(&mut self, tenant: &str, position: u64) -> Result<Event, StoreError>;
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
    /// Opens the per-write savepoint.
    async fn savepoint(&mut self) -> Result<(), StoreError>;
    /// Releases the per-write savepoint, keeping its effects.
    async fn release(&mut self) -> Result<(), StoreError>;
    /// Rolls the per-write savepoint back and releases it.
    async fn rollback_to(&mut self) -> Result<(), StoreError>;
}

/// The ledger reads verification needs from an engine.
pub(crate) trait LedgerRead {
    /// Every tenant with its head position.
    async fn tenants(&mut self) -> Result<Vec<(String, u64)>, StoreError>;
    /// Up to `limit` events of a tenant after `after`, in position order, unverified.
    async fn raw_events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// Every stored receipt of a tenant.
    async fn all_receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError>;
}

/// Reads of the log, for callers of an engine.
#[async_trait]
pub trait LedgerReads: Send + Sync {
    /// Events of a tenant after `after` in position order, each re-verified.
    async fn events(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// Ids of all tenants.
    async fn tenants(&self) -> Result<Vec<String>, StoreError>;
}

/// The state of one write while its command runs: where the tenant's log
/// ends, who acts, when, and the events appended so far.
pub(crate) struct Ctx<'a> {
    cache: &'a mut HeadCache,
    /// The tenant the write touches.
    pub(crate) tenant: &'a str,
    head: u64,
    /// Who the write acts for.
    pub(crate) actor: &'a Actor,
    now: Timestamp,
    events: Vec<Event>,
}

impl<'a> Ctx<'a> {
    /// A write of `actor` to `tenant`, whose log ends at `head`.
    pub(crate) fn new(
        cache: &'a mut HeadCache,
        tenant: &'a str,
        head: u64,
        actor: &'a Actor,
        now: Timestamp,
    ) -> Ctx<'a> {
        Ctx {
            cache,
            tenant,
            head,
            actor,
            now,
            events: Vec::new(),
        }
    }

    /// The time this batch is applied at.
    pub(crate) fn now(&self) -> Timestamp {
        self.now
    }

    /// The position of the last event appended (the tenant's head).
    pub(crate) fn head(&self) -> u64 {
        self.head
    }

    /// The tenant's head position and the events this write appended.
    pub(crate) fn finish(self) -> (u64, Vec<Event>) {
        (self.head, self.events)
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
        self.events.push(event);
        Ok(self.events.last().expect("just pushed"))
    }
}

/// The name under which the seal key's fingerprint is recorded.
pub(crate) const SEAL_KEY: &str = "seal";

/// Compares the fingerprint a store recorded with the one a server offers.
pub(crate) fn check_seal_key(recorded: String, offered: &str) -> Result<(), StoreError> {
    if recorded == offered {
        Ok(())
    } else {
        Err(StoreError::SealKeyMismatch { recorded })
    }
}

/// Serializes an event payload; a failure is a bug in a payload type.
pub(crate) fn payload<T: serde::Serialize>(value: &T) -> Result<serde_json::Value, StoreError> {
    serde_json::to_value(value).map_err(|e| StoreError::inconsistent(e.to_string()))
}
