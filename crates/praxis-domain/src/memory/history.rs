//! A live memory item, and the changes a key's history lists.

use serde::{Deserialize, Serialize};

use super::item::MemoryDefinition;
use super::key::MemoryKey;
use super::revision::{MemoryRevision, Stamp};

/// A live item: its key, definition and revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryItem {
    /// The key.
    pub key: MemoryKey,
    /// What it holds.
    pub definition: MemoryDefinition,
    /// Its revision.
    pub revision: MemoryRevision,
    /// The write that made it.
    pub stamp: Stamp,
}

/// What one change of a key did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// A create or an update.
    Set,
    /// A delete; the history stays.
    Delete,
}

/// One change in a key's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryChange {
    /// Set or delete.
    pub kind: ChangeKind,
    /// The change's stamp.
    pub stamp: Stamp,
    /// A set's new revision, or the revision a delete removed.
    pub revision: MemoryRevision,
    /// What a set wrote (None for a delete).
    pub definition: Option<MemoryDefinition>,
    /// When, RFC 3339.
    pub at: String,
    /// The change's event position in the tenant's log.
    pub position: u64,
}
