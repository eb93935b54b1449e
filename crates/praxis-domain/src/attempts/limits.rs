//! How large an outcome may be and which characters its ids may hold: the
//! narrow limits of a live write and the wide ones of an import.
//!
//! The original store refuses an id or a rationale that is empty once
//! trimmed, and nothing else: it bounds no size and allows any character.
//! Both modes keep its emptiness rule (trimming only to check; the value is
//! stored as sent). Sizes are bounded in both modes, because every record is
//! kept as one event and indexed by its ids, but an import accepts far more
//! than a live write, so that a store the original wrote comes in whole.
//!
//! A live write is narrower for two reasons. Its request body is bounded to
//! 64 KiB, which must hold the whole outcome with its scope. And its ids are
//! used as keys (of streams, identity rows and streak summaries) and as query
//! values of the read endpoints, where short printable ids keep every index
//! row small and every URL readable.
//!
//! An import is bounded by what the store can hold, on both engines:
//!
//! - `subject`, `action_id`, `case_id` and `action_revision` are columns of
//!   PostgreSQL B-tree keys (`attempt_cases`, `attempt_streaks`, and the
//!   stream `subject/<subject>` of `events_by_stream`), together with the
//!   tenant (at most 128 bytes) and the namespace (at most 1,047 bytes: the
//!   canonical JSON of four 128-byte ids that all need escaping). A B-tree
//!   entry holds at most 2,704 bytes, so subject, action and case together,
//!   and subject, action and revision together, may take at most
//!   [`IMPORT_MAX_KEY`] bytes; and none of them may hold U+0000, which a
//!   PostgreSQL text column cannot store.
//! - The other ids, the rationale and the evidence live only in the event's
//!   payload, whose size bounds memory when a page of history is read: at
//!   most [`IMPORT_MAX_ID`] bytes per id, [`IMPORT_MAX_RATIONALE`] bytes of
//!   rationale, and [`IMPORT_MAX_EVIDENCE`] evidence ids of at most
//!   [`IMPORT_MAX_EVIDENCE_BYTES`] bytes together.

use crate::error::DomainError;

use super::outcome::{MAX_EVIDENCE, MAX_OUTCOME_ID, MAX_RATIONALE};

/// Longest id an import accepts, in bytes.
pub const IMPORT_MAX_ID: usize = 4096;
/// Most bytes an import accepts for `subject`, `action_id` and `case_id`
/// together, and for `subject`, `action_id` and `action_revision` together.
///
/// The largest identity that still fits one PostgreSQL B-tree entry (2,704
/// bytes) beside the longest tenant and namespace and the entry's headers,
/// whatever the ids hold (compression is never relied on).
pub const IMPORT_MAX_KEY: usize = 1472;
/// Longest rationale an import accepts, in bytes.
pub const IMPORT_MAX_RATIONALE: usize = 64 * 1024;
/// Most evidence ids an import accepts in one outcome.
pub const IMPORT_MAX_EVIDENCE: usize = 1024;
/// Most bytes an import accepts for one outcome's evidence ids together.
pub const IMPORT_MAX_EVIDENCE_BYTES: usize = 64 * 1024;

/// The limits an outcome is checked against: [`Limits::LIVE`] for live
/// writes (HTTP and the embedded library), [`Limits::IMPORT`] for legacy
/// stores. Emptiness and every status rule are the same in both.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Limits {
    /// Longest id, in bytes.
    pub max_id: usize,
    /// Most bytes of subject + action + case, and of subject + action +
    /// revision.
    pub max_key: usize,
    /// Longest rationale, in bytes.
    pub max_rationale: usize,
    /// Most evidence ids.
    pub max_evidence: usize,
    /// Most bytes of all evidence ids together.
    pub max_evidence_bytes: usize,
    /// Whether ids may hold control characters (U+0000 is never allowed in
    /// a key id).
    pub control_characters: bool,
}

impl Limits {
    /// Live writes: ids of at most 256 bytes without control characters, a
    /// rationale of at most 4,096 bytes and at most 64 evidence ids.
    pub const LIVE: Limits = Limits {
        max_id: MAX_OUTCOME_ID,
        max_key: 3 * MAX_OUTCOME_ID,
        max_rationale: MAX_RATIONALE,
        max_evidence: MAX_EVIDENCE,
        max_evidence_bytes: MAX_EVIDENCE * MAX_OUTCOME_ID,
        control_characters: false,
    };

    /// Imports of legacy stores: everything the store can hold (see the
    /// module documentation for why each bound is where it is).
    pub const IMPORT: Limits = Limits {
        max_id: IMPORT_MAX_ID,
        max_key: IMPORT_MAX_KEY,
        max_rationale: IMPORT_MAX_RATIONALE,
        max_evidence: IMPORT_MAX_EVIDENCE,
        max_evidence_bytes: IMPORT_MAX_EVIDENCE_BYTES,
        control_characters: true,
    };

    /// Checks an id kept only in the payload (hypothesis, rule, evidence):
    /// not empty once trimmed, at most `max_id` bytes, and no control
    /// character unless they are allowed.
    pub fn check_id(&self, path: &str, value: &str) -> Result<(), DomainError> {
        self.check_text(path, value, self.max_id)
    }

    /// Checks an id a record is stored under (subject, action, case,
    /// revision): as [`Limits::check_id`], within `max_key` bytes, and never
    /// U+0000, which a PostgreSQL text column cannot hold.
    pub fn check_key_id(&self, path: &str, value: &str) -> Result<(), DomainError> {
        self.check_text(path, value, self.max_id.min(self.max_key))?;
        if value.contains('\0') {
            return Err(DomainError::invalid(path, "must not contain U+0000"));
        }
        Ok(())
    }

    /// Checks that key ids fit one identity together; `parts` are (field,
    /// value) pairs, and the longest field is named when they do not fit.
    pub fn check_key(&self, path: &str, parts: &[(&str, &str)]) -> Result<(), DomainError> {
        let total: usize = parts.iter().map(|(_, v)| v.len()).sum();
        if total <= self.max_key {
            return Ok(());
        }
        let names: Vec<&str> = parts.iter().map(|(f, _)| *f).collect();
        let longest = parts
            .iter()
            .max_by_key(|(_, v)| v.len())
            .map_or("", |(f, _)| *f);
        Err(DomainError::invalid(
            format!("{path}/{longest}"),
            format!(
                "{} take {total} bytes together; at most {} are allowed",
                names.join(" + "),
                self.max_key
            ),
        ))
    }

    fn check_text(&self, path: &str, value: &str, max: usize) -> Result<(), DomainError> {
        if value.trim().is_empty() {
            return Err(DomainError::invalid(
                path,
                "must not be empty or only whitespace",
            ));
        }
        if value.len() > max {
            return Err(DomainError::invalid(
                path,
                format!("must be at most {max} bytes"),
            ));
        }
        if !self.control_characters && value.chars().any(char::is_control) {
            return Err(DomainError::invalid(
                path,
                "must not contain control characters",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(r: Result<(), DomainError>) -> (String, String) {
        let e = r.unwrap_err();
        (e.path().unwrap_or_default().to_owned(), e.to_string())
    }

    #[test]
    fn blank_after_trimming_is_refused_in_both_modes() {
        for limits in [Limits::LIVE, Limits::IMPORT] {
            for blank in ["", " ", "   ", "\u{3000}", "\u{a0} \u{2003}"] {
                assert_eq!(refused(limits.check_id("/x", blank)).0, "/x", "{blank:?}");
                assert_eq!(refused(limits.check_key_id("/k", blank)).0, "/k");
            }
            // Surrounding whitespace is kept: only the emptiness check trims.
            assert!(limits.check_id("/x", " a ").is_ok());
            assert!(limits.check_key_id("/k", "\u{3000}a").is_ok());
        }
        // Tabs and newlines are blank too, whatever the control rule says.
        assert!(
            refused(Limits::IMPORT.check_id("/x", "\t\n"))
                .1
                .contains("empty")
        );
        assert!(
            refused(Limits::LIVE.check_id("/x", "\t\n"))
                .1
                .contains("empty")
        );
    }

    #[test]
    fn sizes_are_bounded_per_mode() {
        let live = "a".repeat(MAX_OUTCOME_ID);
        assert!(Limits::LIVE.check_id("/x", &live).is_ok());
        assert!(Limits::LIVE.check_key_id("/x", &live).is_ok());
        let over = "a".repeat(MAX_OUTCOME_ID + 1);
        assert!(Limits::LIVE.check_id("/x", &over).is_err());
        assert!(Limits::LIVE.check_key_id("/x", &over).is_err());
        assert!(Limits::IMPORT.check_id("/x", &over).is_ok());

        let id = "é".repeat(IMPORT_MAX_ID / 2);
        assert!(Limits::IMPORT.check_id("/x", &id).is_ok());
        assert!(Limits::IMPORT.check_id("/x", &format!("{id}a")).is_err());
        let key = "k".repeat(IMPORT_MAX_KEY);
        assert!(Limits::IMPORT.check_key_id("/x", &key).is_ok());
        assert!(
            Limits::IMPORT
                .check_key_id("/x", &format!("{key}k"))
                .is_err()
        );
    }

    #[test]
    fn control_characters_only_on_import_and_never_nul_in_a_key() {
        for s in ["a\u{1}b", "line\nbreak", "del\u{7f}", "a\0b"] {
            assert!(Limits::LIVE.check_id("/x", s).is_err(), "{s:?}");
            assert!(Limits::IMPORT.check_id("/x", s).is_ok(), "{s:?}");
        }
        assert!(Limits::IMPORT.check_key_id("/k", "a\u{1}b").is_ok());
        let (path, message) = refused(Limits::IMPORT.check_key_id("/k", "a\0b"));
        assert_eq!(path, "/k");
        assert!(message.contains("U+0000"), "{message}");
    }

    #[test]
    fn a_key_names_its_longest_part_when_too_long() {
        let half = "s".repeat(IMPORT_MAX_KEY / 2);
        let ok = [("subject", half.as_str()), ("action_id", half.as_str())];
        assert!(Limits::IMPORT.check_key("/o", &ok).is_ok());
        let long = "a".repeat(IMPORT_MAX_KEY / 2 + 1);
        let parts = [("subject", half.as_str()), ("action_id", long.as_str())];
        let (path, message) = refused(Limits::IMPORT.check_key("/o", &parts));
        assert_eq!(path, "/o/action_id");
        assert!(message.contains("subject + action_id"), "{message}");
        // Live ids can never overflow a live key.
        let max = "m".repeat(MAX_OUTCOME_ID);
        let three = [
            ("a", max.as_str()),
            ("b", max.as_str()),
            ("c", max.as_str()),
        ];
        assert!(Limits::LIVE.check_key("/o", &three).is_ok());
    }
}
