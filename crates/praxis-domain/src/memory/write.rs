//! What a memory write does, decided from the item as it stands: the rules
//! of create-only, compare-and-set, the no-op and delete, written once for
//! the store to apply and the server to answer.

use super::item::MemoryDefinition;
use super::key::MemoryKey;
use super::revision::{MemoryRevision, Stamp};

/// A key as it stands: its last stamp (kept after a delete, so the next
/// create opens a new generation) and its live item, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyState {
    /// The last write's stamp; the default before the key was ever written.
    pub last: Stamp,
    /// The live item: its definition and revision. None before the first
    /// create and after a delete.
    pub live: Option<(MemoryDefinition, MemoryRevision)>,
}

/// What a set does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetOutcome {
    /// Keep the definition at this revision (a create or an update).
    Write {
        /// The new stamp.
        stamp: Stamp,
        /// The new revision.
        revision: MemoryRevision,
    },
    /// The item already holds exactly this definition: nothing changes
    /// (`state_changed: false`).
    Unchanged,
    /// Create-only on an item that holds another definition: the caller
    /// must name the current revision.
    RevisionRequired {
        /// The item's revision.
        current: MemoryRevision,
    },
    /// The expected revision is not the item's.
    Changed {
        /// The item's revision.
        current: MemoryRevision,
    },
    /// A revision was given for a key with no live item.
    Missing,
}

/// What a delete does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeleteOutcome {
    /// Delete the item, recording the stamp.
    Delete {
        /// The delete's stamp (it closes the generation).
        stamp: Stamp,
    },
    /// The expected revision is not the item's.
    Changed {
        /// The item's revision.
        current: MemoryRevision,
    },
    /// There is no live item.
    Missing,
}

impl KeyState {
    /// Decides a set of `definition` on `key` in `namespace`, with
    /// `expected` the revision the caller saw (None: create-only).
    pub fn set(
        &self,
        namespace: &str,
        key: &MemoryKey,
        definition: &MemoryDefinition,
        expected: Option<&MemoryRevision>,
    ) -> SetOutcome {
        let write = |stamp: Stamp| SetOutcome::Write {
            revision: MemoryRevision::of(namespace, key, stamp),
            stamp,
        };
        match (&self.live, expected) {
            (None, None) => write(self.last.next_generation()),
            (None, Some(_)) => SetOutcome::Missing,
            (Some((current, _)), None) if current == definition => SetOutcome::Unchanged,
            (Some((_, revision)), None) => SetOutcome::RevisionRequired {
                current: revision.clone(),
            },
            (Some((_, revision)), Some(e)) if e != revision => SetOutcome::Changed {
                current: revision.clone(),
            },
            (Some((current, _)), Some(_)) if current == definition => SetOutcome::Unchanged,
            (Some(_), Some(_)) => write(self.last.next_write()),
        }
    }

    /// Decides a delete of the live item at `expected`.
    pub fn delete(&self, expected: &MemoryRevision) -> DeleteOutcome {
        match &self.live {
            None => DeleteOutcome::Missing,
            Some((_, revision)) if revision != expected => DeleteOutcome::Changed {
                current: revision.clone(),
            },
            Some(_) => DeleteOutcome::Delete {
                stamp: self.last.next_write(),
            },
        }
    }

    /// The state after `outcome` of a set of `definition`.
    #[must_use]
    pub fn after_set(&self, definition: &MemoryDefinition, outcome: &SetOutcome) -> KeyState {
        match outcome {
            SetOutcome::Write { stamp, revision } => KeyState {
                last: *stamp,
                live: Some((definition.clone(), revision.clone())),
            },
            _ => self.clone(),
        }
    }

    /// The state after `outcome` of a delete.
    #[must_use]
    pub fn after_delete(&self, outcome: &DeleteOutcome) -> KeyState {
        match outcome {
            DeleteOutcome::Delete { stamp } => KeyState {
                last: *stamp,
                live: None,
            },
            _ => self.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;
    use crate::memory::item::Priority;

    fn definition(body: &str) -> MemoryDefinition {
        MemoryDefinition {
            summary: "s".into(),
            body: body.into(),
            tags: std::collections::BTreeSet::new(),
            priority: Priority::Normal,
            bootstrap: false,
        }
    }

    fn key() -> MemoryKey {
        MemoryKey::parse("/key", "k").unwrap()
    }

    #[test]
    fn create_only_compare_and_set_and_the_no_op() {
        let empty = KeyState {
            last: Stamp::default(),
            live: None,
        };
        let a = definition("A");
        let created = empty.set("ns", &key(), &a, None);
        let SetOutcome::Write { revision: r1, .. } = &created else {
            panic!("{created:?}")
        };
        let s = empty.after_set(&a, &created);
        // Create-only again: the same definition is a no-op; another needs
        // the revision.
        assert_eq!(s.set("ns", &key(), &a, None), SetOutcome::Unchanged);
        assert_eq!(
            s.set("ns", &key(), &definition("B"), None),
            SetOutcome::RevisionRequired {
                current: r1.clone()
            }
        );
        // A stale revision, and a revision for a missing key.
        let stale = MemoryRevision::of(
            "ns",
            &key(),
            Stamp {
                generation: 9,
                write: 9,
            },
        );
        assert_eq!(
            s.set("ns", &key(), &definition("B"), Some(&stale)),
            SetOutcome::Changed {
                current: r1.clone()
            }
        );
        assert_eq!(empty.set("ns", &key(), &a, Some(r1)), SetOutcome::Missing);
        assert_eq!(empty.delete(r1), DeleteOutcome::Missing);
        assert_eq!(
            s.delete(&stale),
            DeleteOutcome::Changed {
                current: r1.clone()
            }
        );
    }

    #[derive(Clone, Debug)]
    enum Op {
        Set(u8, bool),
        Delete(bool),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (0u8..3, any::<bool>()).prop_map(|(b, fresh)| Op::Set(b, fresh)),
            1 => any::<bool>().prop_map(Op::Delete),
        ]
    }

    proptest! {
        /// Whatever writes and deletes happen, in whatever order, with the
        /// current or a stale revision: no write ever yields a revision
        /// the key had before, and a write happens exactly when the model
        /// says it should.
        #[test]
        fn no_revision_is_ever_reused(ops in prop::collection::vec(op(), 1..80)) {
            let mut state = KeyState { last: Stamp::default(), live: None };
            let mut seen: HashSet<MemoryRevision> = HashSet::new();
            let stale = MemoryRevision::of("elsewhere", &key(), Stamp { generation: 1, write: 1 });
            for op in ops {
                match op {
                    Op::Set(body, fresh) => {
                        let d = definition(["A", "B", "C"][usize::from(body)]);
                        let current = state.live.as_ref().map(|(_, r)| r.clone());
                        let expected = if fresh { current.clone() } else { Some(stale.clone()) };
                        let outcome = state.set("ns", &key(), &d, expected.as_ref());
                        let writes = match (&state.live, &expected) {
                            (None, None) => true,
                            (Some((c, r)), Some(e)) => e == r && *c != d,
                            _ => false,
                        };
                        prop_assert_eq!(matches!(outcome, SetOutcome::Write { .. }), writes, "{:?}", outcome);
                        if let SetOutcome::Write { revision, .. } = &outcome {
                            prop_assert!(seen.insert(revision.clone()), "reused {:?}", revision);
                        }
                        state = state.after_set(&d, &outcome);
                    }
                    Op::Delete(fresh) => {
                        let current = state.live.as_ref().map(|(_, r)| r.clone());
                        let expected = if fresh { current.unwrap_or(stale.clone()) } else { stale.clone() };
                        let outcome = state.delete(&expected);
                        state = state.after_delete(&outcome);
                    }
                }
            }
        }
    }
}
