//! Agent memory: items kept under a key per scope, written by
//! compare-and-set on opaque revisions.
//!
//! Every set and delete appends one event to the key's stream
//! `memory/<key>` and updates, in the same transaction, the key's row
//! (kept after a delete, so the next create opens a new generation), its
//! history, its search terms and the scope's live item count. Capacity is
//! checked there too: a create that would pass a limit is refused, and
//! nothing is ever evicted.

pub(crate) mod fold;
pub(crate) mod rows;
pub(crate) mod sql;

use std::collections::BTreeSet;

use async_trait::async_trait;
use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::NewEvent;
use praxis_domain::memory::search::item_terms;
use praxis_domain::memory::{
    ChangeKind, DeleteOutcome, KeyState, MemoryChange, MemoryDefinition, MemoryItem, MemoryKey,
    MemoryRevision, SetOutcome, Stamp,
};
use serde::{Deserialize, Serialize};

use crate::error::{Missing, StoreError};
use crate::ledger::{Ctx, LedgerTx, payload};
use rows::MemoryRow;

/// Event kind: an item was created or updated.
pub const MEMORY_SET: &str = "memory.set";
/// Event kind: an item was deleted.
pub const MEMORY_DELETED: &str = "memory.deleted";

/// The stream of a key's changes.
pub fn stream(key: &MemoryKey) -> String {
    format!("memory/{}", key.as_str())
}

/// Capacity limits, in live items; a create past one is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimits {
    /// Most live items in one scope.
    pub per_scope: u64,
    /// Most live items in the whole tenant.
    pub per_tenant: u64,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        MemoryLimits {
            per_scope: 10_000,
            per_tenant: 100_000,
        }
    }
}

/// What a memory command asks for.
#[derive(Clone, Debug)]
pub enum MemoryCommand {
    /// Create or update an item.
    Set {
        /// The scope's namespace.
        namespace: Namespace,
        /// The key.
        key: MemoryKey,
        /// What to keep.
        definition: MemoryDefinition,
        /// The revision the caller saw; None is create-only.
        expected: Option<MemoryRevision>,
        /// Capacity limits.
        limits: MemoryLimits,
    },
    /// Delete an item; its history stays.
    Delete {
        /// The scope's namespace.
        namespace: Namespace,
        /// The key.
        key: MemoryKey,
        /// The revision the caller saw.
        expected: MemoryRevision,
    },
}

/// What a memory command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryWrite {
    /// The item as it stands after a set, and whether the set changed it.
    Set {
        /// The item.
        item: MemoryItem,
        /// False for the no-op of an identical definition.
        changed: bool,
    },
    /// The delete, as the key's history lists it.
    Deleted(MemoryChange),
}

/// The payload of a [`MEMORY_SET`] event.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetPayload {
    pub key: MemoryKey,
    pub revision: MemoryRevision,
    pub generation: u64,
    pub write: u64,
    pub definition: MemoryDefinition,
}

/// The payload of a [`MEMORY_DELETED`] event.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeletePayload {
    pub key: MemoryKey,
    /// The revision deleted.
    pub revision: MemoryRevision,
    pub generation: u64,
    pub write: u64,
}

/// Memory's primitives, on an engine's transaction.
pub(crate) trait MemoryTx {
    /// A key's row, live or deleted.
    async fn memory_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
    ) -> Result<Option<MemoryRow>, StoreError>;
    /// Inserts or replaces a key's row.
    async fn put_memory(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &MemoryRow,
    ) -> Result<(), StoreError>;
    /// Appends a change to a key's history.
    async fn add_memory_change(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        change: &MemoryChange,
    ) -> Result<(), StoreError>;
    /// Indexes `add` and drops `drop` as terms of a key.
    async fn memory_terms(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        add: &[&String],
        drop: &[&String],
    ) -> Result<(), StoreError>;
    /// Live items in the scope and in the tenant.
    async fn memory_usage(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<(u64, u64), StoreError>;
    /// Moves the scope's live item count by `delta`.
    async fn bump_memory_usage(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        delta: i64,
    ) -> Result<(), StoreError>;
}

/// The memory reads verification needs.
pub(crate) trait MemoryRead {
    /// Every key row of a tenant, with its namespace.
    async fn all_memory(&mut self, tenant: &str) -> Result<Vec<(String, MemoryRow)>, StoreError>;
    /// Every history row of a tenant, with namespace and key, by position.
    async fn all_memory_changes(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, MemoryChange)>, StoreError>;
    /// Every indexed term of a tenant: (namespace, key, term).
    async fn all_memory_terms(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, String)>, StoreError>;
    /// Every scope's live item count.
    async fn all_memory_usage(&mut self, tenant: &str) -> Result<Vec<(String, i64)>, StoreError>;
}

/// Reads of agent memory, for callers of an engine.
#[async_trait]
pub trait MemoryReads: Send + Sync {
    /// The live item under a key.
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
    ) -> Result<Option<MemoryItem>, StoreError>;
    /// Live items holding every one of `terms` (all items for none), by
    /// key, after `after`, at most `limit`.
    async fn search(
        &self,
        tenant: &str,
        namespace: &Namespace,
        terms: &[String],
        after: Option<&MemoryKey>,
        limit: usize,
    ) -> Result<Vec<MemoryItem>, StoreError>;
    /// A key's changes after position `after`, oldest first, at most `limit`.
    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<MemoryChange>, StoreError>;
}

/// A query's terms, rarest first by their capped counts: the first drives
/// the search, so a common word never makes it scan the whole scope.
pub(crate) fn rarest_first(terms: &[String], counts: &[i64]) -> Vec<String> {
    let mut paired: Vec<(i64, &String)> = counts.iter().copied().zip(terms).collect();
    // Stable: equal counts keep the query's order.
    paired.sort_by_key(|(count, _)| *count);
    paired.into_iter().map(|(_, t)| t.clone()).collect()
}

/// Applies a memory command.
pub(crate) async fn apply<T: LedgerTx + MemoryTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: MemoryCommand,
) -> Result<MemoryWrite, StoreError> {
    match command {
        MemoryCommand::Set {
            namespace,
            key,
            definition,
            expected,
            limits,
        } => {
            set(
                tx,
                ctx,
                &namespace,
                &key,
                definition,
                expected.as_ref(),
                limits,
            )
            .await
        }
        MemoryCommand::Delete {
            namespace,
            key,
            expected,
        } => delete(tx, ctx, &namespace, &key, &expected).await,
    }
}

/// Sets an item: create-only, compare-and-set or the no-op, as
/// [`KeyState::set`] decides.
pub(crate) async fn set<T: LedgerTx + MemoryTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    key: &MemoryKey,
    definition: MemoryDefinition,
    expected: Option<&MemoryRevision>,
    limits: MemoryLimits,
) -> Result<MemoryWrite, StoreError> {
    let findings = definition.findings();
    if !findings.is_empty() {
        return Err(Refusal::MemoryInvalid(findings).into());
    }
    let row = tx.memory_row(ctx.tenant, namespace, key).await?;
    let before = row.as_ref().map_or_else(
        || KeyState {
            last: Stamp::default(),
            live: None,
        },
        |r| r.state.clone(),
    );
    let outcome = before.set(namespace.as_str(), key, &definition, expected);
    let (stamp, revision) = match outcome {
        SetOutcome::Write { stamp, revision } => (stamp, revision),
        SetOutcome::Unchanged => {
            let item = row
                .and_then(|r| r.item())
                .ok_or_else(|| StoreError::inconsistent("an unchanged item is live"))?;
            return Ok(MemoryWrite::Set {
                item,
                changed: false,
            });
        }
        SetOutcome::RevisionRequired { current } => {
            return Err(Refusal::MemoryRevisionRequired {
                current: current.as_str().to_owned(),
            }
            .into());
        }
        SetOutcome::Changed { current } => {
            return Err(Refusal::MemoryChanged {
                current: current.as_str().to_owned(),
            }
            .into());
        }
        SetOutcome::Missing => return Err(StoreError::NotFound(Missing::Memory)),
    };
    if before.live.is_none() {
        check_capacity(tx, ctx.tenant, namespace, limits).await?;
        tx.bump_memory_usage(ctx.tenant, namespace, 1).await?;
    }
    let event = SetPayload {
        key: key.clone(),
        revision: revision.clone(),
        generation: stamp.generation,
        write: stamp.write,
        definition: definition.clone(),
    };
    let new = NewEvent::new(namespace.clone(), stream(key), MEMORY_SET, payload(&event)?);
    let appended = ctx.append(tx, new).await?;
    let (position, at) = (appended.position, appended.recorded_at.to_string());
    let old_terms = before
        .live
        .as_ref()
        .map(|(d, _)| item_terms(key, d))
        .unwrap_or_default();
    let new_terms = item_terms(key, &definition);
    let after = before.after_set(
        &definition,
        &SetOutcome::Write {
            stamp,
            revision: revision.clone(),
        },
    );
    let change = MemoryChange {
        kind: ChangeKind::Set,
        stamp,
        revision: revision.clone(),
        definition: Some(definition.clone()),
        at,
        position,
    };
    write_change(
        tx,
        ctx.tenant,
        namespace,
        key,
        after,
        &change,
        (&old_terms, &new_terms),
    )
    .await?;
    Ok(MemoryWrite::Set {
        item: MemoryItem {
            key: key.clone(),
            definition,
            revision,
            stamp,
        },
        changed: true,
    })
}

/// Deletes an item at its revision; the key keeps its stamp and history.
pub(crate) async fn delete<T: LedgerTx + MemoryTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    key: &MemoryKey,
    expected: &MemoryRevision,
) -> Result<MemoryWrite, StoreError> {
    let row = tx
        .memory_row(ctx.tenant, namespace, key)
        .await?
        .ok_or(StoreError::NotFound(Missing::Memory))?;
    let outcome = row.state.delete(expected);
    let stamp = match outcome {
        DeleteOutcome::Delete { stamp } => stamp,
        DeleteOutcome::Changed { current } => {
            return Err(Refusal::MemoryChanged {
                current: current.as_str().to_owned(),
            }
            .into());
        }
        DeleteOutcome::Missing => return Err(StoreError::NotFound(Missing::Memory)),
    };
    let old_terms = row
        .state
        .live
        .as_ref()
        .map(|(d, _)| item_terms(key, d))
        .unwrap_or_default();
    let event = DeletePayload {
        key: key.clone(),
        revision: expected.clone(),
        generation: stamp.generation,
        write: stamp.write,
    };
    let new = NewEvent::new(
        namespace.clone(),
        stream(key),
        MEMORY_DELETED,
        payload(&event)?,
    );
    let appended = ctx.append(tx, new).await?;
    let change = MemoryChange {
        kind: ChangeKind::Delete,
        stamp,
        revision: expected.clone(),
        definition: None,
        at: appended.recorded_at.to_string(),
        position: appended.position,
    };
    let after = row.state.after_delete(&outcome);
    tx.bump_memory_usage(ctx.tenant, namespace, -1).await?;
    write_change(
        tx,
        ctx.tenant,
        namespace,
        key,
        after,
        &change,
        (&old_terms, &BTreeSet::new()),
    )
    .await?;
    Ok(MemoryWrite::Deleted(change))
}

/// Refuses a create that would pass a limit.
async fn check_capacity<T: MemoryTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    limits: MemoryLimits,
) -> Result<(), StoreError> {
    let (scope, total) = tx.memory_usage(tenant, namespace).await?;
    if scope >= limits.per_scope {
        return Err(Refusal::MemoryFull {
            limit: "scope",
            max: limits.per_scope,
        }
        .into());
    }
    if total >= limits.per_tenant {
        return Err(Refusal::MemoryFull {
            limit: "tenant",
            max: limits.per_tenant,
        }
        .into());
    }
    Ok(())
}

/// Writes a change's rows: the key's row, its history and its terms.
async fn write_change<T: MemoryTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    key: &MemoryKey,
    state: KeyState,
    change: &MemoryChange,
    (old, new): (&BTreeSet<String>, &BTreeSet<String>),
) -> Result<(), StoreError> {
    let row = MemoryRow {
        key: key.clone(),
        state,
        position: change.position,
    };
    tx.put_memory(tenant, namespace, &row).await?;
    tx.add_memory_change(tenant, namespace, key, change).await?;
    let add: Vec<&String> = new.difference(old).collect();
    let drop: Vec<&String> = old.difference(new).collect();
    tx.memory_terms(tenant, namespace, key, &add, &drop).await
}
