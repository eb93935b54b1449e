//! The evidence a candidate names: a project file or a Praxis object, each
//! pinned by the SHA-256 it had when the proposer looked.
//!
//! A file is hashed over its whole content. A Praxis object is hashed over
//! the canonical JSON (RFC 8785) of its documented semantic fields, which
//! the store assembles (see docs/proposals.md); [`object_sha256`] is the
//! one hash function both use.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::candidate::is_sha256;
use crate::canonical::canonical_bytes;
use crate::digest::Digest;
use crate::finding::Finding;

/// What a source is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A file under a configured project root; `ref` is `<project>:<path>`.
    File,
    /// An attempt-ledger record; `ref` is `<subject> <action_id> <case_id>`.
    Attempt,
    /// A development experience event; `ref` is `<attempt_id> <event_id>`.
    ExperienceEvent,
    /// An experience record at a revision; `ref` is `<experience_id> <revision>`.
    RecordRevision,
    /// A memory item at a revision; `ref` is `<key> <mrev_…>`.
    MemoryRevision,
}

/// One source as a candidate names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceRef {
    /// What it is.
    pub kind: SourceKind,
    /// Which one, in the kind's form.
    #[serde(rename = "ref")]
    pub r#ref: String,
    /// Its SHA-256 when the proposer looked.
    pub sha256: String,
}

/// A source as it stands now, against the hash a candidate pinned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceStatus {
    /// It still hashes to the pinned SHA-256.
    Fresh,
    /// It exists and hashes to something else (or is no longer current).
    Changed,
    /// It no longer exists.
    Missing,
}

impl SourceStatus {
    /// The status of a source pinned at `pinned` that now hashes to
    /// `current` (None: gone).
    pub fn of(pinned: &str, current: Option<&str>) -> SourceStatus {
        match current {
            None => SourceStatus::Missing,
            Some(c) if c == pinned => SourceStatus::Fresh,
            Some(_) => SourceStatus::Changed,
        }
    }
}

/// The SHA-256 of a Praxis object's semantic fields: plain SHA-256 of
/// their canonical JSON, so anyone can recompute it.
pub fn object_sha256(fields: &Value) -> String {
    Digest::sha256(&canonical_bytes(fields)).to_hex()
}

impl SourceRef {
    /// The ref's parts, split on single spaces (ids hold no spaces), when
    /// there are exactly `n`.
    pub fn parts(&self, n: usize) -> Option<Vec<&str>> {
        let parts: Vec<&str> = self.r#ref.split(' ').collect();
        (parts.len() == n && parts.iter().all(|p| !p.is_empty())).then_some(parts)
    }

    /// A file source's project and path.
    pub fn file(&self) -> Option<(&str, &str)> {
        self.r#ref
            .split_once(':')
            .filter(|(project, path)| !project.is_empty() && !path.is_empty())
    }

    /// What is wrong with the source's form, pointed relative to it.
    pub fn findings(&self) -> Vec<Finding> {
        let mut found = Vec::new();
        let well_formed = match self.kind {
            SourceKind::File => self.file().is_some(),
            SourceKind::Attempt => self.parts(3).is_some(),
            SourceKind::ExperienceEvent
            | SourceKind::RecordRevision
            | SourceKind::MemoryRevision => self.parts(2).is_some(),
        };
        if !well_formed || self.r#ref.len() > 1024 || self.r#ref.chars().any(char::is_control) {
            found.push(Finding::new(
                "/ref",
                "proposal.source_ref",
                "the ref does not have its kind's form (docs/proposals.md lists them)",
            ));
        }
        if !is_sha256(&self.sha256) {
            found.push(Finding::new(
                "/sha256",
                "proposal.sha256_form",
                "a SHA-256 is 64 lowercase hex digits",
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn object_hashes_are_plain_sha256_of_canonical_json() {
        // Key order and spacing do not matter; content does.
        let a = object_sha256(&json!({"b": 1, "a": "x"}));
        assert_eq!(a, object_sha256(&json!({"a": "x", "b": 1})));
        assert_eq!(a, Digest::sha256(br#"{"a":"x","b":1}"#).to_hex());
        assert_ne!(a, object_sha256(&json!({"a": "y", "b": 1})));
    }

    #[test]
    fn refs_have_their_kinds_form() {
        let s = |kind, r: &str| SourceRef {
            kind,
            r#ref: r.into(),
            sha256: "0".repeat(64),
        };
        assert!(
            s(SourceKind::File, "billing:docs/a.md")
                .findings()
                .is_empty()
        );
        assert!(!s(SourceKind::File, "docs/a.md").findings().is_empty());
        assert!(
            s(SourceKind::Attempt, "host-1 restart case-1")
                .findings()
                .is_empty()
        );
        assert!(
            !s(SourceKind::Attempt, "host-1  restart")
                .findings()
                .is_empty()
        );
        assert!(
            s(SourceKind::MemoryRevision, "k mrev_x")
                .findings()
                .is_empty()
        );
        let mut bad = s(SourceKind::RecordRevision, "exp-1 2");
        bad.sha256 = "XYZ".into();
        assert_eq!(bad.findings()[0].pointer, "/sha256");
        assert_eq!(SourceStatus::of("a", Some("a")), SourceStatus::Fresh);
        assert_eq!(SourceStatus::of("a", Some("b")), SourceStatus::Changed);
        assert_eq!(SourceStatus::of("a", None), SourceStatus::Missing);
    }
}
