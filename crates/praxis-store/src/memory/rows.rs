//! Memory rows: a key as it stands, and one change of its history.

use praxis_domain::memory::{
    ChangeKind, KeyState, MemoryChange, MemoryDefinition, MemoryItem, MemoryKey, MemoryRevision,
    Priority, Stamp,
};

use crate::error::StoreError;
use crate::ledger::rows::to_u64;

/// A key's row: its state and the position of its last change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemoryRow {
    /// The key.
    pub key: MemoryKey,
    /// Its last stamp and live item.
    pub state: KeyState,
    /// The position of its last change.
    pub position: u64,
}

impl MemoryRow {
    /// The live item, if there is one.
    pub fn item(&self) -> Option<MemoryItem> {
        self.state
            .live
            .as_ref()
            .map(|(definition, revision)| MemoryItem {
                key: self.key.clone(),
                definition: definition.clone(),
                revision: revision.clone(),
                stamp: self.state.last,
            })
    }
}

/// The stored text of a priority.
pub(crate) fn priority_text(p: Priority) -> &'static str {
    match p {
        Priority::High => "high",
        Priority::Normal => "normal",
        Priority::Low => "low",
    }
}

fn priority_of(text: &str) -> Result<Priority, StoreError> {
    match text {
        "high" => Ok(Priority::High),
        "normal" => Ok(Priority::Normal),
        "low" => Ok(Priority::Low),
        other => Err(StoreError::inconsistent(format!(
            "memory priority {other:?}"
        ))),
    }
}

fn revision_of(text: &str) -> Result<MemoryRevision, StoreError> {
    MemoryRevision::parse(text)
        .ok_or_else(|| StoreError::inconsistent(format!("memory revision {text:?}")))
}

/// The columns of a `memory_items` row, in `sql::memory_columns!` order.
pub(crate) struct MemoryColumns {
    pub key: String,
    pub generation: i64,
    pub write_no: i64,
    pub revision: Option<String>,
    pub summary: Option<String>,
    pub body: Option<String>,
    pub tags: Option<String>,
    pub priority: Option<String>,
    pub bootstrap: Option<bool>,
    pub position: i64,
}

impl MemoryColumns {
    /// Decodes the columns.
    pub fn into_row(self) -> Result<MemoryRow, StoreError> {
        let key = MemoryKey::parse("/key", &self.key)
            .map_err(|e| StoreError::inconsistent(format!("memory key: {e}")))?;
        let last = Stamp {
            generation: to_u64(self.generation)?,
            write: to_u64(self.write_no)?,
        };
        let live = match (
            self.revision,
            self.summary,
            self.body,
            self.tags,
            self.priority,
            self.bootstrap,
        ) {
            (None, ..) => None,
            (Some(revision), Some(summary), Some(body), Some(tags), Some(priority), Some(b)) => {
                let tags = serde_json::from_str(&tags).map_err(|e| {
                    StoreError::inconsistent(format!("memory {} tags: {e}", key.as_str()))
                })?;
                let definition = MemoryDefinition {
                    summary,
                    body,
                    tags,
                    priority: priority_of(&priority)?,
                    bootstrap: b,
                };
                Some((definition, revision_of(&revision)?))
            }
            _ => {
                return Err(StoreError::inconsistent(format!(
                    "memory {} holds a revision without its item",
                    key.as_str()
                )));
            }
        };
        Ok(MemoryRow {
            key,
            state: KeyState { last, live },
            position: to_u64(self.position)?,
        })
    }
}

/// The stored text of a change kind.
pub(crate) fn kind_text(kind: ChangeKind) -> &'static str {
    match kind {
        ChangeKind::Set => "set",
        ChangeKind::Delete => "delete",
    }
}

/// The columns of a `memory_history` row, in `sql::change_columns!` order.
pub(crate) struct ChangeColumns {
    pub generation: i64,
    pub write_no: i64,
    pub kind: String,
    pub revision: String,
    pub definition: Option<String>,
    pub at: String,
    pub position: i64,
}

impl ChangeColumns {
    /// Decodes the columns.
    pub fn into_change(self) -> Result<MemoryChange, StoreError> {
        let kind = match self.kind.as_str() {
            "set" => ChangeKind::Set,
            "delete" => ChangeKind::Delete,
            other => {
                return Err(StoreError::inconsistent(format!(
                    "memory change kind {other:?}"
                )));
            }
        };
        let definition = self
            .definition
            .map(|d| serde_json::from_str(&d))
            .transpose()
            .map_err(|e| StoreError::inconsistent(format!("memory change definition: {e}")))?;
        Ok(MemoryChange {
            kind,
            stamp: Stamp {
                generation: to_u64(self.generation)?,
                write: to_u64(self.write_no)?,
            },
            revision: revision_of(&self.revision)?,
            definition,
            at: self.at,
            position: to_u64(self.position)?,
        })
    }
}

/// A value's JSON text, as a column holds it; a failure is a bug.
pub(crate) fn json_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::inconsistent(e.to_string()))
}
