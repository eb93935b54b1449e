//! Memory rebuilt from its events, for verification.

use std::collections::{BTreeMap, BTreeSet};

use praxis_domain::ledger::Event;
use praxis_domain::memory::search::item_terms;
use praxis_domain::memory::{ChangeKind, KeyState, MemoryChange, Stamp};

use super::rows::MemoryRow;
use super::{DeletePayload, MEMORY_DELETED, MEMORY_SET, MemoryRead, SetPayload};
use crate::error::StoreError;

/// (namespace, key).
type Key = (String, String);

/// Every key's row and history as its events leave them.
#[derive(Default)]
pub(crate) struct MemoryFold {
    rows: BTreeMap<Key, MemoryRow>,
    changes: Vec<(String, String, MemoryChange)>,
}

impl MemoryFold {
    /// Folds one event; returns a problem when a memory event is malformed
    /// or does not follow from the key's state.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let ns = event.namespace.0.clone();
        match event.kind.as_str() {
            MEMORY_SET | MEMORY_DELETED if !event.stream.starts_with("memory/") => {
                Some(format!("{} outside a memory stream", event.kind))
            }
            MEMORY_SET => match serde_json::from_value::<SetPayload>(event.payload.clone()) {
                Ok(p) if event.stream != super::stream(&p.key) => {
                    Some("a memory set in another key's stream".into())
                }
                Ok(p) => {
                    let stamp = Stamp {
                        generation: p.generation,
                        write: p.write,
                    };
                    let change = MemoryChange {
                        kind: ChangeKind::Set,
                        stamp,
                        revision: p.revision.clone(),
                        definition: Some(p.definition.clone()),
                        at: event.recorded_at.to_string(),
                        position: event.position,
                    };
                    let state = KeyState {
                        last: stamp,
                        live: Some((p.definition, p.revision)),
                    };
                    self.put(ns, p.key, state, change)
                }
                Err(e) => Some(format!("undecodable memory set: {e}")),
            },
            MEMORY_DELETED => {
                match serde_json::from_value::<DeletePayload>(event.payload.clone()) {
                    Ok(p) if event.stream != super::stream(&p.key) => {
                        Some("a memory delete in another key's stream".into())
                    }
                    Ok(p) => {
                        let stamp = Stamp {
                            generation: p.generation,
                            write: p.write,
                        };
                        let change = MemoryChange {
                            kind: ChangeKind::Delete,
                            stamp,
                            revision: p.revision,
                            definition: None,
                            at: event.recorded_at.to_string(),
                            position: event.position,
                        };
                        let state = KeyState {
                            last: stamp,
                            live: None,
                        };
                        self.put(ns, p.key, state, change)
                    }
                    Err(e) => Some(format!("undecodable memory delete: {e}")),
                }
            }
            _ => None,
        }
    }

    fn put(
        &mut self,
        ns: String,
        key: praxis_domain::memory::MemoryKey,
        state: KeyState,
        change: MemoryChange,
    ) -> Option<String> {
        let id = (ns.clone(), key.as_str().to_owned());
        // A revision is cut from its key's stamp; any other was forged.
        let minted = praxis_domain::memory::MemoryRevision::of(&ns, &key, change.stamp);
        if change.kind == ChangeKind::Set && change.revision != minted {
            return Some(format!(
                "memory {} at position {} holds a revision its stamp does not make",
                key.as_str(),
                change.position
            ));
        }
        let before = self.rows.get(&id).map(|r| &r.state);
        // Each change must be the one the rules allow from the state before it.
        let problem = match (change.kind, before) {
            (ChangeKind::Set, None) if change.stamp == Stamp::default().next_generation() => None,
            (ChangeKind::Set, Some(b))
                if b.live.is_none() && change.stamp == b.last.next_generation() =>
            {
                None
            }
            (ChangeKind::Set, Some(b))
                if b.live.is_some() && change.stamp == b.last.next_write() =>
            {
                None
            }
            (ChangeKind::Delete, Some(b))
                if b.live.as_ref().is_some_and(|(_, r)| *r == change.revision)
                    && change.stamp == b.last.next_write() =>
            {
                None
            }
            _ => Some(format!(
                "memory {} changes out of order at position {}",
                key.as_str(),
                change.position
            )),
        };
        let position = change.position;
        self.changes.push((ns, key.as_str().to_owned(), change));
        self.rows.insert(
            id,
            MemoryRow {
                key,
                state,
                position,
            },
        );
        problem
    }

    /// Compares the stored rows, history, terms and counts with the fold;
    /// one line per difference.
    pub async fn compare<R: MemoryRead>(
        self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        let mut rows = self.rows;
        let mut usage: BTreeMap<String, i64> = BTreeMap::new();
        let mut terms: BTreeSet<(String, String, String)> = BTreeSet::new();
        for ((ns, key), row) in &rows {
            if let Some((definition, _)) = &row.state.live {
                *usage.entry(ns.clone()).or_default() += 1;
                for t in item_terms(&row.key, definition) {
                    terms.insert((ns.clone(), key.clone(), t));
                }
            }
        }
        for (ns, row) in read.all_memory(tenant).await? {
            let id = (ns, row.key.as_str().to_owned());
            match rows.remove(&id) {
                Some(expected) if expected == row => {}
                _ => problems.push(format!("memory {} differs from its events", id.1)),
            }
        }
        for (_, key) in rows.keys() {
            problems.push(format!("memory {key} is missing from the projection"));
        }
        let stored: Vec<(String, String, MemoryChange)> = read.all_memory_changes(tenant).await?;
        if stored != self.changes {
            problems.push("memory history differs from its events".into());
        }
        let stored: BTreeSet<(String, String, String)> =
            read.all_memory_terms(tenant).await?.into_iter().collect();
        if stored != terms {
            problems.push("memory search terms differ from the live items".into());
        }
        for (ns, count) in read.all_memory_usage(tenant).await? {
            if usage.remove(&ns).unwrap_or(0) != count {
                problems.push(format!(
                    "memory count of {ns:?} differs from its live items"
                ));
            }
        }
        for ns in usage.keys() {
            problems.push(format!("memory count of {ns:?} is missing"));
        }
        Ok(problems)
    }
}
