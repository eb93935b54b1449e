//! The field rules every learning payload shares: bounded text, content
//! references and counts that canonical JSON can hold exactly.

use serde::{Deserialize, Serialize};

use crate::canonical::MAX_SAFE_INTEGER;
use crate::error::DomainError;

/// Longest string any learning field holds, in bytes.
pub const MAX_TEXT_BYTES: usize = 512;

/// Checks a string field: 1 to [`MAX_TEXT_BYTES`] bytes, not blank, and no
/// control character.
///
/// The issue bounds only the length; blank values and control characters
/// are refused too, because every one of these strings is an identity or a
/// label shown back to people, and U+0000 cannot be stored by PostgreSQL.
pub fn check_text(path: &str, value: &str) -> Result<(), DomainError> {
    if value.trim().is_empty() {
        return Err(DomainError::invalid(path, "must not be empty or blank"));
    }
    if value.len() > MAX_TEXT_BYTES {
        return Err(DomainError::invalid(
            path,
            format!("must be at most {MAX_TEXT_BYTES} bytes"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(DomainError::invalid(
            path,
            "must not contain control characters",
        ));
    }
    Ok(())
}

/// Checks a plain SHA-256: exactly 64 lowercase hex digits.
pub fn check_sha256(path: &str, value: &str) -> Result<(), DomainError> {
    if value.len() == 64
        && value
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        Ok(())
    } else {
        Err(DomainError::invalid(
            path,
            "must be 64 lowercase hex digits",
        ))
    }
}

/// Checks an integer that must survive canonical JSON exactly.
pub fn check_exact(path: &str, value: u64) -> Result<(), DomainError> {
    if value <= MAX_SAFE_INTEGER {
        Ok(())
    } else {
        Err(DomainError::invalid(path, "must be at most 2^53 - 1"))
    }
}

/// Content kept outside Praxis, named and pinned by its plain SHA-256: an
/// attempt's input, or an event's evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContentRef {
    /// Where the content lives (for example `trace://dev/1`).
    pub reference: String,
    /// Plain SHA-256 of the content, lowercase hex.
    pub sha256: String,
}

impl ContentRef {
    /// Checks both members; `path` points at the object.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/reference"), &self.reference)?;
        check_sha256(&format!("{path}/sha256"), &self.sha256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_bounded_and_printable() {
        assert!(check_text("/a", "x").is_ok());
        assert!(check_text("/a", &"é".repeat(MAX_TEXT_BYTES / 2)).is_ok());
        for bad in [
            String::new(),
            "  ".into(),
            "x".repeat(MAX_TEXT_BYTES + 1),
            "a\0b".into(),
            "a\nb".into(),
        ] {
            assert_eq!(
                check_text("/a", &bad).unwrap_err().path(),
                Some("/a"),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert!(check_sha256("/s", &"a".repeat(64)).is_ok());
        for bad in ["A".repeat(64), "a".repeat(63), "g".repeat(64)] {
            assert_eq!(check_sha256("/s", &bad).unwrap_err().path(), Some("/s"));
        }
    }

    #[test]
    fn counts_fit_canonical_json() {
        assert!(check_exact("/n", MAX_SAFE_INTEGER).is_ok());
        assert_eq!(
            check_exact("/n", MAX_SAFE_INTEGER + 1).unwrap_err().path(),
            Some("/n")
        );
    }

    #[test]
    fn references_name_the_failing_member() {
        let mut r = ContentRef {
            reference: "trace://1".into(),
            sha256: "0".repeat(64),
        };
        assert!(r.validate("/input").is_ok());
        r.sha256 = "x".into();
        assert_eq!(
            r.validate("/input").unwrap_err().path(),
            Some("/input/sha256")
        );
        r.reference = String::new();
        assert_eq!(
            r.validate("/input").unwrap_err().path(),
            Some("/input/reference")
        );
    }
}
