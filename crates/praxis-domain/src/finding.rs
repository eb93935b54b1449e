//! Findings: one problem found in a record, named by pointer and rule.

use serde::{Deserialize, Serialize};

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
