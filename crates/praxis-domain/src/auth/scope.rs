//! Scopes and namespaces: the exact tuple a grant names, and the ledger
//! partition a scope's records live in.

use serde::{Deserialize, Serialize};

use crate::error::DomainError;

/// Who may see records in a scope.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Every subject holding a grant for the scope.
    Shared,
    /// Only the subject that wrote the record.
    Private,
}

/// An exact scope tuple. `mission_id: None` is a scope of its own, never a wildcard.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    /// The project.
    pub project_id: String,
    /// The mission, or `None` for project-level records.
    pub mission_id: Option<String>,
    /// The agent.
    pub agent_id: String,
    /// Shared or private.
    pub visibility: Visibility,
}

/// Longest identifier accepted anywhere in a scope or subject.
pub const MAX_ID_LEN: usize = 128;

/// Checks an identifier: 1..=128 printable ASCII characters without spaces.
pub fn check_id(path: &str, id: &str) -> Result<(), DomainError> {
    if id.is_empty() || id.len() > MAX_ID_LEN {
        return Err(DomainError::invalid(path, "must be 1 to 128 characters"));
    }
    if !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(DomainError::invalid(
            path,
            "must be printable ASCII without spaces",
        ));
    }
    Ok(())
}

impl Scope {
    /// Validates every identifier of the scope; `path` is the scope's pointer.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_id(&format!("{path}/project_id"), &self.project_id)?;
        if let Some(m) = &self.mission_id {
            check_id(&format!("{path}/mission_id"), m)?;
        }
        check_id(&format!("{path}/agent_id"), &self.agent_id)
    }

    /// The namespace that records in this scope live in.
    ///
    /// A private scope's namespace includes the caller's subject, so two
    /// subjects with the same private grant never share records. The key is
    /// canonical JSON, so a null mission can never collide with any string.
    pub fn namespace(&self, subject: &str) -> Namespace {
        let owner = match self.visibility {
            Visibility::Shared => serde_json::Value::Null,
            Visibility::Private => subject.into(),
        };
        let key = serde_json::json!([
            self.project_id,
            self.mission_id,
            self.agent_id,
            self.visibility,
            owner
        ]);
        Namespace(String::from_utf8(crate::canonical::canonical_bytes(&key)).expect("utf-8"))
    }
}

/// The partition of the ledger a record lives in, derived from a scope.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Namespace(pub String);

impl Namespace {
    /// The namespace of tenant-level administrative records (credentials).
    pub fn admin() -> Namespace {
        Namespace("admin".into())
    }

    /// The namespace as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(mission: Option<&str>, visibility: Visibility) -> Scope {
        Scope {
            project_id: "p".into(),
            mission_id: mission.map(Into::into),
            agent_id: "a".into(),
            visibility,
        }
    }

    #[test]
    fn private_namespaces_include_the_subject() {
        let s = scope(None, Visibility::Private);
        assert_ne!(s.namespace("alice"), s.namespace("bob"));
        let shared = scope(None, Visibility::Shared);
        assert_eq!(shared.namespace("alice"), shared.namespace("bob"));
        assert_ne!(
            scope(None, Visibility::Shared).namespace("x"),
            scope(Some("null"), Visibility::Shared).namespace("x")
        );
    }
}
