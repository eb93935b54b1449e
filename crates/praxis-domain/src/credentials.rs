//! Credentials: their events and the state those events fold into.
//!
//! Issue, rotation and revocation are events in the credential's own stream;
//! the stored projection is only ever the fold of that stream.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::{Capability, Scope, check_id};
use crate::digest::Digest;
use crate::error::DomainError;
use crate::ledger::Event;
use crate::time::Timestamp;

/// Event kind of an issued credential.
pub const ISSUED: &str = "credential.issued";
/// Event kind of a rotated secret.
pub const ROTATED: &str = "credential.rotated";
/// Event kind of a revocation.
pub const REVOKED: &str = "credential.revoked";
/// Event kind of a created tenant.
pub const TENANT_CREATED: &str = "tenant.created";

/// The stream of one credential's events.
pub fn stream_of(credential_id: &str) -> String {
    format!("credential/{credential_id}")
}

/// A credential's events, as stored payloads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CredentialEvent {
    /// A new credential.
    Issued(Issued),
    /// A credential's secret was replaced.
    Rotated(Rotated),
    /// A credential was revoked.
    Revoked(Revoked),
}

/// Payload of [`ISSUED`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issued {
    /// Credential id.
    pub credential_id: String,
    /// Subject it acts for.
    pub subject: String,
    /// Capabilities granted.
    pub capabilities: BTreeSet<Capability>,
    /// Scope grants.
    pub grants: BTreeSet<Scope>,
    /// SHA-256 of the secret.
    pub secret_sha256: Digest,
    /// Expiry instant in microseconds, if any.
    pub expires_at: Option<i64>,
}

/// Payload of [`ROTATED`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rotated {
    /// Credential id.
    pub credential_id: String,
    /// SHA-256 of the new secret.
    pub secret_sha256: Digest,
}

/// Payload of [`REVOKED`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Revoked {
    /// Credential id.
    pub credential_id: String,
}

impl CredentialEvent {
    /// The event kind.
    pub fn kind(&self) -> &'static str {
        match self {
            CredentialEvent::Issued(_) => ISSUED,
            CredentialEvent::Rotated(_) => ROTATED,
            CredentialEvent::Revoked(_) => REVOKED,
        }
    }

    /// The payload to store.
    pub fn payload(&self) -> Value {
        serde_json::to_value(self).expect("credential events serialize")
    }

    /// Decodes a stored credential event, if `kind` is one.
    pub fn decode(kind: &str, payload: &Value) -> Option<Result<CredentialEvent, DomainError>> {
        let bad = |e: serde_json::Error| DomainError::invalid("/payload", e.to_string());
        let decoded = match kind {
            ISSUED => serde_json::from_value(payload.clone()).map(CredentialEvent::Issued),
            ROTATED => serde_json::from_value(payload.clone()).map(CredentialEvent::Rotated),
            REVOKED => serde_json::from_value(payload.clone()).map(CredentialEvent::Revoked),
            _ => return None,
        };
        Some(decoded.map_err(bad))
    }
}

/// The current state of a credential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credential {
    /// Credential id.
    pub id: String,
    /// Owning tenant.
    pub tenant_id: String,
    /// Subject it acts for.
    pub subject: String,
    /// Capabilities.
    pub capabilities: BTreeSet<Capability>,
    /// Grants.
    pub grants: BTreeSet<Scope>,
    /// SHA-256 of the current secret.
    pub secret_sha256: Digest,
    /// When it was issued.
    pub created_at: Timestamp,
    /// When it expires, if ever.
    pub expires_at: Option<Timestamp>,
    /// When it was revoked, if it was.
    pub revoked_at: Option<Timestamp>,
    /// When its secret was last rotated, if it was.
    pub rotated_at: Option<Timestamp>,
    /// Stream sequence of the last event folded in.
    pub version: u64,
}

/// Whether a credential can authenticate at a given instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CredentialStatus {
    /// Usable.
    Active,
    /// Revoked; never usable again.
    Revoked,
    /// Past its expiry.
    Expired,
}

impl Credential {
    /// The credential's status at `now`.
    pub fn status(&self, now: Timestamp) -> CredentialStatus {
        if self.revoked_at.is_some() {
            CredentialStatus::Revoked
        } else if self.expires_at.is_some_and(|e| e <= now) {
            CredentialStatus::Expired
        } else {
            CredentialStatus::Active
        }
    }

    /// Folds one of this credential's events into its state.
    ///
    /// `state` is `None` before the first event. Returns an error when the
    /// event cannot follow the state (the store treats that as corruption).
    pub fn fold(
        state: Option<Credential>,
        event: &Event,
        decoded: &CredentialEvent,
    ) -> Result<Credential, &'static str> {
        match (state, decoded) {
            (None, CredentialEvent::Issued(i)) => Ok(Credential {
                id: i.credential_id.clone(),
                tenant_id: event.tenant_id.clone(),
                subject: i.subject.clone(),
                capabilities: i.capabilities.clone(),
                grants: i.grants.clone(),
                secret_sha256: i.secret_sha256,
                created_at: event.recorded_at,
                expires_at: i.expires_at.map(Timestamp::from_micros),
                revoked_at: None,
                rotated_at: None,
                version: event.stream_seq,
            }),
            (Some(mut c), CredentialEvent::Rotated(r)) if c.id == r.credential_id => {
                c.secret_sha256 = r.secret_sha256;
                c.rotated_at = Some(event.recorded_at);
                c.version = event.stream_seq;
                Ok(c)
            }
            (Some(mut c), CredentialEvent::Revoked(r)) if c.id == r.credential_id => {
                c.revoked_at.get_or_insert(event.recorded_at);
                c.version = event.stream_seq;
                Ok(c)
            }
            (None, _) => Err("credential event before issue"),
            (Some(_), _) => Err("credential event does not follow its stream"),
        }
    }
}

/// A validated request to issue a credential.
#[derive(Clone, Debug, PartialEq)]
pub struct IssueRequest {
    /// Subject.
    pub subject: String,
    /// Capabilities.
    pub capabilities: BTreeSet<Capability>,
    /// Grants.
    pub grants: BTreeSet<Scope>,
    /// Expiry.
    pub expires_at: Option<Timestamp>,
}

/// Most grants one credential may carry.
pub const MAX_GRANTS: usize = 64;

impl IssueRequest {
    /// Validates and normalizes an issue request from its wire parts.
    pub fn new(
        subject: String,
        capabilities: Vec<String>,
        grants: Vec<Scope>,
        expires_at: Option<Timestamp>,
        now: Timestamp,
    ) -> Result<IssueRequest, DomainError> {
        check_id("/subject", &subject)?;
        if capabilities.is_empty() {
            return Err(DomainError::invalid(
                "/capabilities",
                "at least one capability is required",
            ));
        }
        let mut caps = BTreeSet::new();
        for (i, c) in capabilities.into_iter().enumerate() {
            let path = format!("/capabilities/{i}");
            let cap = c
                .parse::<Capability>()
                .map_err(|_| DomainError::invalid(&path, format!("unknown capability {c:?}")))?;
            if !caps.insert(cap) {
                return Err(DomainError::invalid(&path, "duplicate capability"));
            }
        }
        if grants.len() > MAX_GRANTS {
            return Err(DomainError::invalid("/grants", "at most 64 grants"));
        }
        let mut set = BTreeSet::new();
        for (i, g) in grants.into_iter().enumerate() {
            let path = format!("/grants/{i}");
            g.validate(&path)?;
            if !set.insert(g) {
                return Err(DomainError::invalid(&path, "duplicate grant"));
            }
        }
        if expires_at.is_some_and(|e| e <= now) {
            return Err(DomainError::invalid("/expires_at", "must be in the future"));
        }
        // Stored as microseconds in canonical JSON, which is exact only to 2^53.
        if expires_at
            .is_some_and(|e| e.micros().unsigned_abs() > crate::canonical::MAX_SAFE_INTEGER)
        {
            return Err(DomainError::invalid(
                "/expires_at",
                "must be before 2255-06-05",
            ));
        }
        Ok(IssueRequest {
            subject,
            capabilities: caps,
            grants: set,
            expires_at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::scope::Namespace;
    use crate::ledger::{Actor, NewEvent};

    fn event(kind: &str, payload: Value, seq: u64, at: i64) -> Event {
        Event::place(
            "t",
            NewEvent::new(Namespace::admin(), "credential/c1", kind, payload),
            seq,
            seq,
            None,
            Actor::system(),
            Timestamp::from_micros(at),
        )
    }

    #[test]
    fn folds_issue_rotate_revoke() {
        let issued = CredentialEvent::Issued(Issued {
            credential_id: "c1".into(),
            subject: "s".into(),
            capabilities: [Capability::CredentialAdmin].into(),
            grants: BTreeSet::new(),
            secret_sha256: Digest::sha256(b"a"),
            expires_at: Some(100),
        });
        let e1 = event(ISSUED, issued.payload(), 1, 10);
        let decoded = CredentialEvent::decode(ISSUED, &e1.payload)
            .unwrap()
            .unwrap();
        assert_eq!(decoded, issued);
        let c = Credential::fold(None, &e1, &decoded).unwrap();
        assert_eq!(
            c.status(Timestamp::from_micros(50)),
            CredentialStatus::Active
        );
        assert_eq!(
            c.status(Timestamp::from_micros(100)),
            CredentialStatus::Expired
        );
        let rot = CredentialEvent::Rotated(Rotated {
            credential_id: "c1".into(),
            secret_sha256: Digest::sha256(b"b"),
        });
        let c = Credential::fold(Some(c), &event(ROTATED, rot.payload(), 2, 20), &rot).unwrap();
        assert_eq!(c.secret_sha256, Digest::sha256(b"b"));
        let rev = CredentialEvent::Revoked(Revoked {
            credential_id: "c1".into(),
        });
        let c = Credential::fold(Some(c), &event(REVOKED, rev.payload(), 3, 30), &rev).unwrap();
        assert_eq!(
            c.status(Timestamp::from_micros(31)),
            CredentialStatus::Revoked
        );
        assert_eq!(c.version, 3);
        assert!(Credential::fold(None, &event(REVOKED, rev.payload(), 1, 1), &rev).is_err());
    }

    #[test]
    fn issue_requests_are_validated() {
        let now = Timestamp::from_micros(10);
        let ok = IssueRequest::new("s".into(), vec!["memory_read".into()], vec![], None, now);
        assert!(ok.is_ok());
        let e = IssueRequest::new("s".into(), vec!["root".into()], vec![], None, now).unwrap_err();
        assert_eq!(e.path(), Some("/capabilities/0"));
        let e = IssueRequest::new(
            "s".into(),
            vec!["memory_read".into(), "memory_read".into()],
            vec![],
            None,
            now,
        )
        .unwrap_err();
        assert_eq!(e.path(), Some("/capabilities/1"));
        let e = IssueRequest::new(String::new(), vec!["memory_read".into()], vec![], None, now)
            .unwrap_err();
        assert_eq!(e.path(), Some("/subject"));
        let e = IssueRequest::new(
            "s".into(),
            vec!["memory_read".into()],
            vec![],
            Some(now),
            now,
        )
        .unwrap_err();
        assert_eq!(e.path(), Some("/expires_at"));
    }

    #[test]
    fn expiries_beyond_the_exact_range_are_refused() {
        let now = Timestamp::from_micros(10);
        let far = Timestamp::from_micros(1 << 53);
        let e = IssueRequest::new(
            "s".into(),
            vec!["memory_read".into()],
            vec![],
            Some(far),
            now,
        )
        .unwrap_err();
        assert_eq!(e.path(), Some("/expires_at"));
        let near = Timestamp::from_micros((1 << 53) - 1);
        assert!(
            IssueRequest::new(
                "s".into(),
                vec!["memory_read".into()],
                vec![],
                Some(near),
                now
            )
            .is_ok()
        );
    }
}
