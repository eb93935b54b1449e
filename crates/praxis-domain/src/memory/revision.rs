//! Memory revisions: opaque, and never reused for a key.
//!
//! A key's life is a series of generations: the first create opens
//! generation 1, each delete closes the current one, and the next create
//! opens the next. Within a generation every write is numbered. A revision
//! is derived from (namespace, key, generation, number), so a key deleted
//! and recreated, or edited A→B→A, gets a revision that never equalled an
//! earlier one, although its content may; and nothing about the content or
//! the counters can be read back from it.

use serde::{Deserialize, Serialize};

use super::key::MemoryKey;
use crate::digest::Digest;

/// What every revision starts with.
pub const REVISION_PREFIX: &str = "mrev_";
/// Kind string of the digest a revision is cut from.
const REVISION_KIND: &str = "praxis.memory-revision.v1";

/// Where a key stands: its generation and the number of the last write in
/// it (0 before the first create).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The key's generation, from 1.
    pub generation: u64,
    /// The last write's number within it, from 1.
    pub write: u64,
}

impl Stamp {
    /// The stamp of the next write to a live item.
    #[must_use]
    pub fn next_write(self) -> Stamp {
        Stamp {
            generation: self.generation,
            write: self.write + 1,
        }
    }

    /// The stamp of a create after a delete (or of the first create).
    #[must_use]
    pub fn next_generation(self) -> Stamp {
        Stamp {
            generation: self.generation + 1,
            write: 1,
        }
    }
}

/// An opaque revision, `mrev_` and 32 lowercase hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MemoryRevision(String);

impl MemoryRevision {
    /// The revision of `key` in `namespace` at `stamp`.
    pub fn of(namespace: &str, key: &MemoryKey, stamp: Stamp) -> MemoryRevision {
        let text = format!(
            "{namespace}\n{}\n{}\n{}",
            key.as_str(),
            stamp.generation,
            stamp.write
        );
        let hex = Digest::of_bytes(REVISION_KIND, text.as_bytes()).to_hex();
        MemoryRevision(format!("{REVISION_PREFIX}{}", &hex[..32]))
    }

    /// A revision as a caller sent it, if it has the revision form.
    pub fn parse(text: &str) -> Option<MemoryRevision> {
        let hex = text.strip_prefix(REVISION_PREFIX)?;
        (hex.len() == 32 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| MemoryRevision(text.to_owned()))
    }

    /// The revision's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn revisions_never_repeat_across_generations_or_edits() {
        let key = MemoryKey::parse("/key", "bounded-inspection").unwrap();
        let mut seen = HashSet::new();
        let mut stamp = Stamp::default();
        for generation in 0..20 {
            stamp = stamp.next_generation();
            assert!(seen.insert(MemoryRevision::of("ns", &key, stamp)));
            for _ in 0..(generation % 5) {
                stamp = stamp.next_write();
                assert!(seen.insert(MemoryRevision::of("ns", &key, stamp)));
            }
        }
        // The same stamp in another namespace or under another key differs.
        let other = MemoryKey::parse("/key", "other").unwrap();
        assert_ne!(
            MemoryRevision::of("ns", &key, stamp),
            MemoryRevision::of("ns2", &key, stamp)
        );
        assert_ne!(
            MemoryRevision::of("ns", &key, stamp),
            MemoryRevision::of("ns", &other, stamp)
        );
    }

    #[test]
    fn revisions_parse_only_in_their_form() {
        let key = MemoryKey::parse("/key", "k").unwrap();
        let r = MemoryRevision::of("ns", &key, Stamp::default().next_generation());
        assert_eq!(MemoryRevision::parse(r.as_str()), Some(r.clone()));
        assert!(r.as_str().starts_with(REVISION_PREFIX) && r.as_str().len() == 37);
        for bad in [
            "",
            "mrev_",
            "mrev_XYZ",
            &r.as_str().to_uppercase(),
            "wc_memrev_00",
        ] {
            assert_eq!(MemoryRevision::parse(bad), None, "{bad}");
        }
    }
}
