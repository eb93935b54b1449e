//! Wire types of agent memory: items under a key per scope, written by
//! compare-and-set on opaque `mrev_…` revisions.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Scope;

/// How prominently an item is offered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryPriority {
    /// Offered first.
    High,
    /// The default.
    #[default]
    Normal,
    /// Offered last.
    Low,
}

/// `POST /api/v1/memory/set`: create-only (`expected_revision: null`) or
/// compare-and-set on the item's current revision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetMemoryRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// 1 to 96 characters of `[A-Za-z0-9._-]`, neither `.` nor `..`.
    #[schema(min_length = 1, max_length = 96, pattern = "^[A-Za-z0-9._-]+$")]
    pub key: String,
    /// One line, at most 512 characters.
    #[schema(min_length = 1, max_length = 512)]
    pub summary: String,
    /// The item, at most 8 KiB.
    pub body: String,
    /// At most 8 tags, each of the key form; kept as a sorted set.
    #[serde(default)]
    #[schema(max_items = 8)]
    pub tags: Vec<String>,
    /// Defaults to `normal`.
    #[serde(default)]
    pub priority: MemoryPriority,
    /// Whether an agent loads the item at start; defaults to false.
    #[serde(default)]
    pub bootstrap: bool,
    /// The revision the caller saw; null (or absent) creates and only creates.
    #[serde(default)]
    pub expected_revision: Option<String>,
}

/// A live memory item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MemoryItem {
    /// Its key.
    pub key: String,
    /// Its summary.
    pub summary: String,
    /// Its body.
    pub body: String,
    /// Its tags, sorted.
    pub tags: Vec<String>,
    /// Its priority.
    pub priority: MemoryPriority,
    /// Whether an agent loads it at start.
    pub bootstrap: bool,
    /// Its revision: opaque, never reused for the key.
    pub revision: String,
}

/// The item after a set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SetMemoryResponse {
    /// 1.
    pub contract_version: u32,
    /// The item as it stands.
    pub memory: MemoryItem,
    /// False when the item already held exactly this definition.
    pub state_changed: bool,
}

/// `POST /api/v1/memory/get`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GetMemoryRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The key.
    pub key: String,
}

/// A live item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MemoryResponse {
    /// 1.
    pub contract_version: u32,
    /// The item.
    pub memory: MemoryItem,
}

/// `POST /api/v1/memory/search`: live items holding every word of the
/// query (words are runs of letters and digits, compared lowercased) in
/// their key, summary, body or tags; an empty query lists every item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchMemoryRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// At most 512 characters and 8 words.
    #[schema(max_length = 512)]
    pub query: String,
    /// Items after this key (the previous page's `next`).
    #[serde(default)]
    pub after: Option<String>,
    /// 1 to 100; defaults to 20.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// A field of an item that holds a word of the query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryField {
    /// The key.
    Key,
    /// The summary.
    Summary,
    /// The body.
    Body,
    /// The tags.
    Tags,
}

/// One item a search found: its summary, not its body.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MemoryMatch {
    /// Its key.
    pub key: String,
    /// Its summary.
    pub summary: String,
    /// Its tags.
    pub tags: Vec<String>,
    /// Its priority.
    pub priority: MemoryPriority,
    /// Whether an agent loads it at start.
    pub bootstrap: bool,
    /// Its revision.
    pub revision: String,
    /// The fields holding a word of the query, in this order: key,
    /// summary, body, tags.
    pub matched: Vec<MemoryField>,
}

/// A page of search results, by key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SearchMemoryResponse {
    /// 1.
    pub contract_version: u32,
    /// The items found.
    pub results: Vec<MemoryMatch>,
    /// The `after` of the next page, when this one is full.
    pub next: Option<String>,
}

/// `POST /api/v1/memory/history`: a key's changes, oldest first, deletes
/// included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemoryHistoryRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The key.
    pub key: String,
    /// Changes after this position (the previous page's `next`).
    #[serde(default)]
    pub after: Option<u64>,
    /// 1 to 100; defaults to 50.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// What a change did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryChangeKind {
    /// A create or an update.
    Set,
    /// A delete.
    Delete,
}

/// One change of a key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MemoryChange {
    /// Set or delete.
    pub kind: MemoryChangeKind,
    /// A set's new revision, or the revision a delete removed.
    pub revision: String,
    /// What a set wrote (absent for a delete); its `revision` is the change's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryItem>,
    /// When, RFC 3339.
    pub at: String,
    /// The change's position in the tenant's log.
    pub position: u64,
}

/// A page of a key's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MemoryHistoryResponse {
    /// 1.
    pub contract_version: u32,
    /// The key.
    pub key: String,
    /// Its changes, oldest first.
    pub changes: Vec<MemoryChange>,
    /// The `after` of the next page, when this one is full.
    pub next: Option<u64>,
}

/// `POST /api/v1/memory/delete`: deletes the item at its current revision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteMemoryRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The key.
    pub key: String,
    /// The item's current revision.
    pub expected_revision: String,
}

/// A delete, as the key's history lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DeleteMemoryResponse {
    /// 1.
    pub contract_version: u32,
    /// The key.
    pub key: String,
    /// The change.
    pub change: MemoryChange,
}
