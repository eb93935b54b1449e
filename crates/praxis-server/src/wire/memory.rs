//! Memory items between the wire and the domain.

use praxis_api::{MemoryChangeKind, MemoryField, MemoryPriority};
use praxis_domain::memory::search::Field;
use praxis_domain::memory::{
    ChangeKind, MemoryChange, MemoryDefinition, MemoryItem, MemoryKey, Priority,
};

/// A wire priority as the domain's.
pub(crate) fn priority_from_wire(p: MemoryPriority) -> Priority {
    match p {
        MemoryPriority::High => Priority::High,
        MemoryPriority::Normal => Priority::Normal,
        MemoryPriority::Low => Priority::Low,
    }
}

fn priority_to_wire(p: Priority) -> MemoryPriority {
    match p {
        Priority::High => MemoryPriority::High,
        Priority::Normal => MemoryPriority::Normal,
        Priority::Low => MemoryPriority::Low,
    }
}

/// An item on the wire.
pub(crate) fn item_to_wire(item: &MemoryItem) -> praxis_api::MemoryItem {
    definition_to_wire(&item.key, &item.definition, item.revision.as_str())
}

fn definition_to_wire(
    key: &MemoryKey,
    d: &MemoryDefinition,
    revision: &str,
) -> praxis_api::MemoryItem {
    praxis_api::MemoryItem {
        key: key.as_str().to_owned(),
        summary: d.summary.clone(),
        body: d.body.clone(),
        tags: d.tags.iter().cloned().collect(),
        priority: priority_to_wire(d.priority),
        bootstrap: d.bootstrap,
        revision: revision.to_owned(),
    }
}

/// A search hit on the wire.
pub(crate) fn match_to_wire(item: &MemoryItem, fields: &[Field]) -> praxis_api::MemoryMatch {
    praxis_api::MemoryMatch {
        key: item.key.as_str().to_owned(),
        summary: item.definition.summary.clone(),
        tags: item.definition.tags.iter().cloned().collect(),
        priority: priority_to_wire(item.definition.priority),
        bootstrap: item.definition.bootstrap,
        revision: item.revision.as_str().to_owned(),
        matched: fields
            .iter()
            .map(|f| match f {
                Field::Key => MemoryField::Key,
                Field::Summary => MemoryField::Summary,
                Field::Body => MemoryField::Body,
                Field::Tags => MemoryField::Tags,
            })
            .collect(),
    }
}

/// A change on the wire.
pub(crate) fn change_to_wire(key: &MemoryKey, c: &MemoryChange) -> praxis_api::MemoryChange {
    praxis_api::MemoryChange {
        kind: match c.kind {
            ChangeKind::Set => MemoryChangeKind::Set,
            ChangeKind::Delete => MemoryChangeKind::Delete,
        },
        revision: c.revision.as_str().to_owned(),
        memory: c
            .definition
            .as_ref()
            .map(|d| definition_to_wire(key, d, c.revision.as_str())),
        at: c.at.clone(),
        position: c.position,
    }
}
