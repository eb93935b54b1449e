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

    /// The pointer as shown to a person: `/` for the whole document, whose
    /// RFC 6901 pointer is empty and would print as nothing. A record
    /// holds no member with an empty name, so `/` names nothing else.
    pub fn shown_pointer(&self) -> &str {
        if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.shown_pointer(),
            self.rule,
            self.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_at_the_root_shows_a_slash() {
        let root = Finding::new("", "json.malformed", "not JSON");
        assert_eq!(root.to_string(), "/: json.malformed: not JSON");
        assert_eq!(root.pointer, "", "the pointer itself stays RFC 6901");
        let inner = Finding::new("/title", "schema.required", "m");
        assert_eq!(inner.to_string(), "/title: schema.required: m");
    }
}
