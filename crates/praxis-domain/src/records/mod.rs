//! Experience records (protocol v0.1): bounded, redacted case records of one
//! troubleshooting episode, and the checks a record must pass before it is
//! kept.
//!
//! A record is checked in layers, and every layer reports all of its
//! findings rather than stopping at the first:
//!
//! - [`schema`]: the structural contract, our own JSON Schema for v0.1;
//! - [`gate`]: the policy gate, the cross-field rules a schema cannot state;
//! - [`screen`]: the redaction and screening engine (secrets, home paths,
//!   prompt overrides, unsafe commands);
//! - [`lifecycle`]: intake, review and lifecycle transitions, and the
//!   revision events that record them;
//! - [`repository`]: rules over a whole set of records and the skill
//!   registry (unique ids, resolvable relations, exact skill releases).
//!
//! Records are data only: nothing here interprets a record's text as an
//! instruction.

pub mod gate;
pub mod lifecycle;
pub mod repository;
pub mod schema;
pub mod screen;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this module implements.
pub const SCHEMA_VERSION: &str = "0.1";

/// Largest record, both as stored bytes and as compact JSON.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

/// One problem found in a record.
///
/// A finding names where (a JSON pointer into the record, empty for the
/// whole record) and which rule (a stable code such as
/// `gate.attempt_sequence` or `screen.credential.github`). Its message
/// explains the rule; it never repeats the offending text, so that a
/// finding about a secret can be logged and shown safely.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Finding {
    /// JSON pointer of the offending value.
    pub pointer: String,
    /// Stable rule code.
    pub rule: String,
    /// What the rule requires.
    pub message: String,
}

impl Finding {
    /// Builds a finding.
    pub fn new(
        pointer: impl Into<String>,
        rule: impl Into<String>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            pointer: pointer.into(),
            rule: rule.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.pointer, self.rule, self.message)
    }
}

/// The directory of a published repository a record sits in, which bounds
/// its lifecycle status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Directory {
    /// `experience_records/candidates/`: candidates, and withdrawn ones.
    Candidates,
    /// `experience_records/reviewed/`: reviewed, superseded or withdrawn.
    Reviewed,
}

impl Directory {
    /// The directory's name in a repository layout.
    pub fn as_str(self) -> &'static str {
        match self {
            Directory::Candidates => "candidates",
            Directory::Reviewed => "reviewed",
        }
    }

    /// Lifecycle statuses a record in this directory may have.
    pub fn allows(self, status: &str) -> bool {
        match self {
            Directory::Candidates => matches!(status, "candidate" | "withdrawn"),
            Directory::Reviewed => matches!(status, "reviewed" | "superseded" | "withdrawn"),
        }
    }

    /// The directory a record with this lifecycle status is published in.
    pub fn for_status(status: &str) -> Directory {
        match status {
            "candidate" => Directory::Candidates,
            _ => Directory::Reviewed,
        }
    }
}

/// Where a record was read from, when it was read from a repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The directory it sits in.
    pub directory: Directory,
    /// Its file name without the `.json` extension.
    pub stem: String,
    /// Its size in bytes as stored.
    pub file_bytes: usize,
}

/// Every finding of the schema, the policy gate and the screening engine for
/// one decoded record, sorted and without repeats.
pub fn check(record: &Value, placement: Option<&Placement>) -> Vec<Finding> {
    let mut findings = schema::findings(record);
    findings.extend(gate::findings(record, placement));
    findings.extend(screen::findings(record));
    findings.sort();
    findings.dedup();
    findings
}

/// Parses record bytes strictly (no duplicate keys, exact numbers) and
/// checks them. Unparseable bytes give one finding at the root.
pub fn check_bytes(bytes: &[u8], placement: Option<&Placement>) -> (Option<Value>, Vec<Finding>) {
    match crate::canonical::parse_strict(bytes) {
        Ok(value) => {
            let findings = check(&value, placement);
            (Some(value), findings)
        }
        Err(e) => (
            None,
            vec![Finding::new(
                e.path().unwrap_or(""),
                "json.malformed",
                e.to_string(),
            )],
        ),
    }
}
