//! The domain error type.

use thiserror::Error;

/// Every way a domain rule can refuse an input.
///
/// Each variant carries the JSON pointer of the offending field (or an empty
/// string for the document root) so that callers can report it precisely.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DomainError {
    /// The bytes are not a single well-formed JSON document.
    #[error("malformed JSON: {message}")]
    MalformedJson {
        /// The parser's description of the problem.
        message: String,
    },
    /// An object repeats a key, which would make its meaning ambiguous.
    #[error("duplicate object key at {path}")]
    DuplicateKey {
        /// JSON pointer of the repeated member.
        path: String,
    },
    /// A number cannot be represented exactly by every JSON implementation.
    #[error("number out of the exact range ±(2^53−1) at {path}")]
    NumberOutOfRange {
        /// JSON pointer of the number.
        path: String,
    },
    /// A field holds a value that breaks a domain rule.
    #[error("invalid value at {path}: {message}")]
    InvalidField {
        /// JSON pointer of the field.
        path: String,
        /// What rule the value breaks.
        message: String,
    },
    /// A token does not have the `prx_<id>_<secret>` shape.
    #[error("malformed credential token")]
    MalformedToken,
}

impl DomainError {
    /// Builds an [`DomainError::InvalidField`].
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        DomainError::InvalidField {
            path: path.into(),
            message: message.into(),
        }
    }

    /// The JSON pointer this error is about, if it names one.
    pub fn path(&self) -> Option<&str> {
        match self {
            DomainError::DuplicateKey { path }
            | DomainError::NumberOutOfRange { path }
            | DomainError::InvalidField { path, .. } => Some(path),
            DomainError::MalformedJson { .. } | DomainError::MalformedToken => None,
        }
    }
}
