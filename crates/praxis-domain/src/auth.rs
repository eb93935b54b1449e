//! Capabilities, scope grants, namespaces and credential tokens.
//!
//! Authority comes only from a credential: its capabilities (none implies
//! another) and its grants (exact scope tuples). A request body can name a
//! scope, but the credential decides whether the caller may act in it.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;

use crate::DomainError;
use crate::digest::Digest;

macro_rules! capabilities {
    ($($variant:ident => $name:literal : $doc:literal,)*) => {
        /// A named permission. No capability implies another.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Capability {
            $(#[doc = $doc] $variant,)*
        }

        impl Capability {
            /// Every capability, in declaration order.
            pub const ALL: &'static [Capability] = &[$(Capability::$variant,)*];

            /// The wire name of this capability.
            pub fn as_str(self) -> &'static str {
                match self { $(Capability::$variant => $name,)* }
            }
        }

        impl FromStr for Capability {
            type Err = DomainError;
            fn from_str(s: &str) -> Result<Self, DomainError> {
                match s {
                    $($name => Ok(Capability::$variant),)*
                    other => Err(DomainError::invalid("", format!("unknown capability {other:?}"))),
                }
            }
        }
    };
}

capabilities! {
    CredentialAdmin => "credential_admin": "Issue, rotate, revoke, list and read credentials of the tenant.",
    PolicyAdmin => "policy_admin": "Set per-namespace policies.",
    ExperienceRead => "experience_read": "Read attempt history and assessments.",
    ExperienceWrite => "experience_write": "Record attempt outcomes.",
    ExperienceReport => "experience_report": "Read aggregate reports over experience.",
    ExperienceEvidenceAdmin => "experience_evidence_admin": "Import and export evidence stores.",
    ProcedurePropose => "procedure_propose": "Register strategy candidates.",
    ProcedureEvaluate => "procedure_evaluate": "Submit paired evaluations.",
    MemoryRead => "memory_read": "Read agent memory and strategy receipts.",
    MemoryWrite => "memory_write": "Write agent memory.",
    RecordSubmit => "record_submit": "Submit experience records.",
    RecordReview => "record_review": "Review experience records.",
    ProposalCreate => "proposal_create": "Create guidance proposals.",
    ProposalApprove => "proposal_approve": "Approve guidance proposals.",
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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

/// The authenticated caller of one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Principal {
    /// The tenant the credential belongs to.
    pub tenant_id: String,
    /// The credential's id.
    pub credential_id: String,
    /// The subject the credential acts for.
    pub subject: String,
    /// Capabilities held.
    pub capabilities: BTreeSet<Capability>,
    /// Exact scopes granted.
    pub grants: BTreeSet<Scope>,
    /// SHA-256 of the secret the caller presented, so that a write can be
    /// refused if the credential is rotated before it is applied.
    pub secret_sha256: Digest,
}

/// Why an authenticated caller may not do something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Denied {
    /// The credential lacks this capability.
    MissingCapability(Capability),
    /// The credential has no grant for the scope.
    MissingGrant,
}

impl Principal {
    /// Requires a capability.
    pub fn require(&self, capability: Capability) -> Result<(), Denied> {
        if self.capabilities.contains(&capability) {
            Ok(())
        } else {
            Err(Denied::MissingCapability(capability))
        }
    }

    /// Requires every listed capability and an exact grant for `scope`, and
    /// returns the namespace the caller acts in.
    pub fn require_in(
        &self,
        capabilities: &[Capability],
        scope: &Scope,
    ) -> Result<Namespace, Denied> {
        capabilities.iter().try_for_each(|c| self.require(*c))?;
        if self.grants.contains(scope) {
            Ok(scope.namespace(&self.subject))
        } else {
            Err(Denied::MissingGrant)
        }
    }
}

/// Prefix of every credential token.
pub const TOKEN_PREFIX: &str = "prx";

/// A parsed `prx_<id>_<secret>` token. The secret is 32 random bytes in hex.
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    /// The credential id (lowercase hex, no underscores).
    pub credential_id: String,
    /// The secret bytes.
    pub secret: [u8; 32],
}

impl Token {
    /// SHA-256 of the secret, the only form of it that is ever stored.
    pub fn secret_hash(&self) -> Digest {
        Digest::sha256(&self.secret)
    }

    /// Renders the token; only ever shown once, to its holder.
    pub fn render(&self) -> String {
        format!(
            "{TOKEN_PREFIX}_{}_{}",
            self.credential_id,
            hex::encode(self.secret)
        )
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Token({}, <secret>)", self.credential_id)
    }
}

impl FromStr for Token {
    type Err = DomainError;

    fn from_str(s: &str) -> Result<Self, DomainError> {
        let mut parts = s.splitn(3, '_');
        let (Some(TOKEN_PREFIX), Some(id), Some(secret)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(DomainError::MalformedToken);
        };
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(DomainError::MalformedToken);
        }
        let mut bytes = [0u8; 32];
        if secret.len() != 64 || hex::decode_to_slice(secret, &mut bytes).is_err() {
            return Err(DomainError::MalformedToken);
        }
        Ok(Token {
            credential_id: id.to_owned(),
            secret: bytes,
        })
    }
}

/// Compares a presented secret with a stored hash in constant time.
pub fn secret_matches(token: &Token, stored: &Digest) -> bool {
    token.secret_hash().0.ct_eq(&stored.0).into()
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
    fn capability_names_round_trip() {
        for c in Capability::ALL {
            assert_eq!(c.as_str().parse::<Capability>().unwrap(), *c);
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
        assert_eq!(Capability::ALL.len(), 14);
    }

    #[test]
    fn null_mission_is_not_a_wildcard() {
        let p = Principal {
            tenant_id: "t".into(),
            credential_id: "c".into(),
            subject: "s".into(),
            capabilities: [Capability::ExperienceRead].into(),
            grants: [scope(None, Visibility::Shared)].into(),
            secret_sha256: Digest::sha256(b"s"),
        };
        assert!(
            p.require_in(
                &[Capability::ExperienceRead],
                &scope(None, Visibility::Shared)
            )
            .is_ok()
        );
        assert_eq!(
            p.require_in(
                &[Capability::ExperienceRead],
                &scope(Some("m"), Visibility::Shared)
            ),
            Err(Denied::MissingGrant)
        );
        assert_eq!(
            p.require_in(
                &[Capability::ExperienceRead],
                &scope(None, Visibility::Private)
            ),
            Err(Denied::MissingGrant)
        );
        assert_eq!(
            p.require_in(
                &[Capability::ExperienceWrite],
                &scope(None, Visibility::Shared)
            ),
            Err(Denied::MissingCapability(Capability::ExperienceWrite))
        );
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

    #[test]
    fn tokens_round_trip_and_reject_malformed() {
        let t = Token {
            credential_id: "0a1b".into(),
            secret: [7; 32],
        };
        let parsed: Token = t.render().parse().unwrap();
        assert_eq!(parsed, t);
        assert!(secret_matches(&parsed, &t.secret_hash()));
        for bad in ["", "prx_", "prx_ab", "xyz_ab_00", "prx_a_b_c", "prx__00"] {
            assert!(bad.parse::<Token>().is_err(), "{bad}");
        }
        assert!(!format!("{t:?}").contains("0707"));
    }
}
