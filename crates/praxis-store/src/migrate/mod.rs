//! Copying a whole store into another one: every tenant, event and receipt
//! with its original position and digest, the store-wide key fingerprints,
//! and every projection, verified on both sides and compared event for event.
//!
//! What is copied, and why:
//! - the log (tenants, events) is the state: it is copied as it is, one
//!   transaction per batch of events;
//! - receipts and the seal key's fingerprint live beside the log and cannot
//!   be derived: they are copied as they are;
//! - projections are copied per tenant in one transaction once its events
//!   are in, and the target's `verify` then replays the whole log and
//!   compares every projection with its fold. Records are written with the
//!   engine's own `put_record`, since their search index differs between
//!   engines.
//!
//! The target keeps a marker (source identity and per-tenant progress),
//! written in the same transaction as each batch, so a rerun resumes where a
//! killed run stopped, and a server refuses to start on a store whose
//! migration is unfinished.

mod compare;
pub(crate) mod sql;

use std::collections::BTreeMap;

use async_trait::async_trait;
use praxis_domain::ledger::Event;
use praxis_domain::records::KeptRecord;
use praxis_domain::records::view::View;
use serde::{Deserialize, Serialize};

use crate::error::StoreError;
use crate::ledger::StoredReceipt;
use crate::records::RecordRead;
use crate::verify::VerifyReport;

/// Events copied per transaction unless told otherwise.
pub const DEFAULT_BATCH: usize = 5_000;

/// One column value of a copied row, in the form both engines can bind.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Bytes(Vec<u8>),
    Bool(bool),
}

/// A projection table's rows of one tenant.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub name: &'static str,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

/// A tenant as the copy needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tenant {
    pub id: String,
    pub head: u64,
    pub created_at: i64,
}

/// Everything of a tenant beside its events.
pub(crate) struct Beside {
    pub receipts: Vec<StoredReceipt>,
    /// (namespace, record, search text).
    pub records: Vec<(String, KeptRecord, String)>,
    pub tables: Vec<Table>,
}

/// How far a migration got, as the target records it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Marker {
    /// The source's identity: its engine and location (no password).
    pub source: String,
    /// Whether the copy was verified and compared.
    pub finished: bool,
    /// Per tenant: events copied, and the head its projections were copied at.
    pub tenants: BTreeMap<String, TenantMark>,
}

/// One tenant's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TenantMark {
    pub events: u64,
    pub beside: Option<u64>,
}

impl Marker {
    fn decode(text: &str) -> Result<Marker, StoreError> {
        serde_json::from_str(text)
            .map_err(|e| StoreError::inconsistent(format!("migration marker: {e}")))
    }

    pub(crate) fn encode(&self) -> String {
        serde_json::to_string(self).expect("a marker serializes")
    }
}

/// Refuses to serve a store a migration is still copying into.
pub(crate) fn check_servable(marker: Option<&str>) -> Result<(), StoreError> {
    match marker.map(Marker::decode).transpose()? {
        Some(m) if !m.finished => Err(StoreError::Migration(format!(
            "a migration from {} into this store is unfinished; rerun `praxis migrate` to finish it before serving",
            m.source
        ))),
        _ => Ok(()),
    }
}

/// A read snapshot of a store: one transaction for everything read through it.
#[async_trait]
pub(crate) trait Source: Send {
    /// The store's identity for the marker: engine and location.
    fn identity(&self) -> String;
    /// Every tenant.
    async fn tenants(&mut self) -> Result<Vec<Tenant>, StoreError>;
    /// Store-wide key fingerprints: (name, fingerprint).
    async fn store_keys(&mut self) -> Result<Vec<(String, String)>, StoreError>;
    /// The migration marker, if any.
    async fn marker(&mut self) -> Result<Option<String>, StoreError>;
    /// Up to `limit` events after `after`, unverified.
    async fn events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// Every receipt of a tenant.
    async fn receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError>;
    /// Records, receipts and every table of [`sql::TABLES`] of a tenant.
    async fn beside(&mut self, tenant: &str) -> Result<Beside, StoreError>;
    /// The engine's whole-store verification, on this snapshot.
    async fn verify(&mut self) -> Result<VerifyReport, StoreError>;
}

/// The store a migration writes into; every call is one transaction.
#[async_trait]
pub(crate) trait Target: Send + Sync {
    /// A fresh read snapshot of the target.
    async fn snapshot(&self) -> Result<Box<dyn Source>, StoreError>;
    /// Records the marker and the source's key fingerprints.
    async fn start(&self, marker: &Marker, keys: &[(String, String)]) -> Result<(), StoreError>;
    /// Appends a batch of a tenant's events, moves its head, stores the marker.
    async fn append(
        &self,
        tenant: &Tenant,
        events: &[Event],
        marker: &Marker,
    ) -> Result<(), StoreError>;
    /// Replaces a tenant's receipts and projections, stores the marker.
    async fn replace_beside(
        &self,
        tenant: &str,
        beside: &Beside,
        marker: &Marker,
    ) -> Result<(), StoreError>;
    /// Stores the marker alone.
    async fn mark(&self, marker: &Marker) -> Result<(), StoreError>;
}

/// A tenant's records with their search text, as any reader gives them.
pub(crate) async fn records_of<R: RecordRead>(
    read: &mut R,
    tenant: &str,
) -> Result<Vec<(String, KeptRecord, String)>, StoreError> {
    let mut out = Vec::new();
    for (ns, columns) in read.all_records(tenant).await? {
        let row = columns.into_row()?;
        let search = View(&row.document).search_text();
        out.push((ns, row, search));
    }
    Ok(out)
}

/// What a migration should report as it goes.
pub trait Progress {
    /// The copy starts with `events` events still to copy (`resumed` if a
    /// marker was found).
    fn start(&mut self, events: u64, resumed: bool);
    /// `n` more events were committed.
    fn advance(&mut self, n: u64);
    /// A new phase starts (projections of a tenant, verification, comparison).
    fn phase(&mut self, what: &str);
}

/// What a finished migration copied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MigrateReport {
    /// Tenants copied.
    pub tenants: u64,
    /// Events in the target's log.
    pub events: u64,
    /// Receipts in the target.
    pub receipts: u64,
    /// Events copied by this run (the rest were copied by an earlier one).
    pub copied: u64,
    /// Whether this run resumed an interrupted migration.
    pub resumed: bool,
}

/// Copies the store `from` into the store `to`, `batch` events per
/// transaction, then verifies both and compares them.
///
/// # Errors
/// [`StoreError::Migration`] when the target is not empty (and is not this
/// source's unfinished migration), when either side fails verification, or
/// when the two differ; any other error of either store.
pub async fn migrate(
    from: &str,
    to: &str,
    batch: usize,
    progress: &mut dyn Progress,
) -> Result<MigrateReport, StoreError> {
    let mut source = crate::open_source(from).await?;
    let target = crate::open_target(to).await?;
    run(source.as_mut(), target.as_ref(), batch.max(1), progress).await
}

/// Whether an existing store holds nothing: no tenant, key or migration marker.
///
/// # Errors
/// When the store cannot be opened or read.
pub async fn is_empty(store: &str) -> Result<bool, StoreError> {
    let mut snapshot = crate::open_source(store).await?;
    Ok(snapshot.tenants().await?.is_empty()
        && snapshot.store_keys().await?.is_empty()
        && snapshot.marker().await?.is_none())
}

async fn run(
    source: &mut dyn Source,
    target: &dyn Target,
    batch: usize,
    progress: &mut dyn Progress,
) -> Result<MigrateReport, StoreError> {
    let tenants = source.tenants().await?;
    let (mut marker, resumed) = begin(source, target, &tenants).await?;
    let remaining: u64 = tenants
        .iter()
        .map(|t| t.head - marker.tenants.get(&t.id).map_or(0, |m| m.events))
        .sum();
    progress.start(remaining, resumed);
    let mut copied = 0;
    for tenant in &tenants {
        let mut at = marker.tenants.entry(tenant.id.clone()).or_default().events;
        // Only events up to this snapshot's head: a live source moves on.
        while at < tenant.head {
            let limit = batch.min(usize::try_from(tenant.head - at).unwrap_or(batch));
            let events = source.events(&tenant.id, at, limit).await?;
            let Some(last) = events.last() else { break };
            at = last.position;
            let mark = marker.tenants.get_mut(&tenant.id).expect("entered above");
            mark.events = at;
            target.append(tenant, &events, &marker).await?;
            copied += events.len() as u64;
            progress.advance(events.len() as u64);
        }
        let mark = &marker.tenants[&tenant.id];
        if mark.beside != Some(tenant.head) {
            progress.phase(&format!("projections of tenant {}", tenant.id));
            let beside = source.beside(&tenant.id).await?;
            marker
                .tenants
                .get_mut(&tenant.id)
                .expect("entered above")
                .beside = Some(tenant.head);
            target.replace_beside(&tenant.id, &beside, &marker).await?;
        }
    }
    progress.phase("verifying the source");
    fail_on_problems("the source", &source.verify().await?)?;
    progress.phase("verifying the target");
    let mut copy = target.snapshot().await?;
    let report = copy.verify().await?;
    fail_on_problems("the target", &report)?;
    progress.phase("comparing event for event");
    compare::compare(source, copy.as_mut()).await?;
    marker.finished = true;
    target.mark(&marker).await?;
    Ok(MigrateReport {
        tenants: report.tenants,
        events: report.events,
        receipts: report.receipts,
        copied,
        resumed,
    })
}

/// Reads the target's marker: a fresh start on an empty target, a resume of
/// this source's unfinished migration, or a refusal.
async fn begin(
    source: &mut dyn Source,
    target: &dyn Target,
    tenants: &[Tenant],
) -> Result<(Marker, bool), StoreError> {
    let identity = source.identity();
    let mut snapshot = target.snapshot().await?;
    let Some(found) = snapshot.marker().await? else {
        if !snapshot.tenants().await?.is_empty() || !snapshot.store_keys().await?.is_empty() {
            return Err(StoreError::Migration(
                "the target store is not empty; migrate only into an empty store".into(),
            ));
        }
        let marker = Marker {
            source: identity,
            ..Marker::default()
        };
        target.start(&marker, &source.store_keys().await?).await?;
        return Ok((marker, false));
    };
    let marker = Marker::decode(&found)?;
    if marker.finished {
        return Err(StoreError::Migration(format!(
            "the target already holds a finished migration from {}",
            marker.source
        )));
    }
    if marker.source != identity {
        return Err(StoreError::Migration(format!(
            "the target holds an unfinished migration from {}, not from {identity}",
            marker.source
        )));
    }
    // The copied part must still be the source's: same event, same digest.
    for (id, mark) in marker.tenants.iter().filter(|(_, m)| m.events > 0) {
        let head = tenants.iter().find(|t| &t.id == id).map(|t| t.head);
        let ours = snapshot
            .events(id, mark.events.saturating_sub(1), 1)
            .await?;
        let theirs = source.events(id, mark.events.saturating_sub(1), 1).await?;
        let same = head.is_some_and(|h| h >= mark.events)
            && ours.first().map(|e| e.digest) == theirs.first().map(|e| e.digest);
        if !same {
            return Err(StoreError::Migration(format!(
                "the source no longer holds what was copied of tenant {id:?} (up to position {}); \
                 start again with an empty target",
                mark.events
            )));
        }
    }
    Ok((marker, true))
}

fn fail_on_problems(side: &str, report: &VerifyReport) -> Result<(), StoreError> {
    match report.problems.first() {
        None => Ok(()),
        Some(first) => Err(StoreError::Migration(format!(
            "{side} fails verification ({} problems); the first: {first}",
            report.problems.len()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unfinished_marker_refuses_serving() {
        let marker = Marker {
            source: "sqlite:/x".into(),
            ..Marker::default()
        };
        assert!(check_servable(Some(&marker.encode())).is_err());
        let done = Marker {
            finished: true,
            ..marker
        };
        assert!(check_servable(Some(&done.encode())).is_ok());
        assert!(check_servable(None).is_ok());
    }
}
