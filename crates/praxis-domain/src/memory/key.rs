//! A memory item's key.

use serde::{Deserialize, Serialize};

use crate::error::DomainError;

/// Most characters a key holds.
pub const MAX_KEY_CHARS: usize = 96;

/// A key: 1 to [`MAX_KEY_CHARS`] characters of `[A-Za-z0-9._-]`, neither
/// `.` nor `..`, so it can name a file or a path segment without escaping.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MemoryKey(String);

impl MemoryKey {
    /// Checks `key`; the refusal points at `path`.
    pub fn parse(path: &str, key: &str) -> Result<MemoryKey, DomainError> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if key.is_empty() || key.len() > MAX_KEY_CHARS || !key.chars().all(allowed) {
            return Err(DomainError::invalid(
                path,
                format!("must be 1 to {MAX_KEY_CHARS} characters of [A-Za-z0-9._-]"),
            ));
        }
        if key == "." || key == ".." {
            return Err(DomainError::invalid(path, "must not be . or .."));
        }
        Ok(MemoryKey(key.to_owned()))
    }

    /// The key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for MemoryKey {
    type Error = DomainError;
    fn try_from(key: String) -> Result<Self, Self::Error> {
        MemoryKey::parse("/key", &key)
    }
}

impl From<MemoryKey> for String {
    fn from(key: MemoryKey) -> String {
        key.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_plain_segments() {
        for good in [
            "a",
            "bounded-inspection",
            "A.b_c-9",
            &"k".repeat(MAX_KEY_CHARS),
            "...",
        ] {
            assert!(MemoryKey::parse("/key", good).is_ok(), "{good}");
        }
        for bad in [
            "",
            ".",
            "..",
            "a/b",
            "a b",
            "é",
            "a\\b",
            &"k".repeat(MAX_KEY_CHARS + 1),
        ] {
            let err = MemoryKey::parse("/key", bad).unwrap_err();
            assert_eq!(err.path(), Some("/key"), "{bad}");
        }
    }
}
