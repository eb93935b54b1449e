//! Principals: the authenticated caller of one request, and the checks
//! that decide what it may do.

use std::collections::BTreeSet;

use super::capability::Capability;
use super::scope::{Namespace, Scope};
use crate::digest::Digest;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::scope::Visibility;

    fn scope(mission: Option<&str>, visibility: Visibility) -> Scope {
        Scope {
            project_id: "p".into(),
            mission_id: mission.map(Into::into),
            agent_id: "a".into(),
            visibility,
        }
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
}
