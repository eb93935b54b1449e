//! Proposals: the guidance a procedure carries, registered under an id for
//! good, with the sources it was developed from.
//!
//! A proposal arrives either as an ordinary proposal (instructions as sent,
//! sources as listed) or from a strategy (instructions as the server-owned
//! document, sources derived from the bound evidence). Either way its
//! instruction bytes are what is evaluated and later selected, and its
//! sources are what evaluation evidence must not repeat.

use serde::{Deserialize, Serialize};

use super::procedure::ProcedureState;
use super::registry::digest_of;
use super::text::check_text;
use crate::digest::Digest;
use crate::error::DomainError;
use crate::ledger::Actor;
use crate::time::Timestamp;

/// Event kind of a registered procedure; its payload is a
/// [`ProposalReceipt`].
pub const PROCEDURE_PROPOSED: &str = "learning.procedure_proposed";
/// Kind string of a proposal's digest.
pub const PROPOSAL_KIND: &str = "praxis.procedure-proposal.v1";
/// Longest instruction text, in bytes.
pub const MAX_INSTRUCTIONS_BYTES: usize = 16 * 1024;
/// Most sources one proposal names.
pub const MAX_SOURCE_REFS: usize = 128;

/// The stream of one procedure.
pub fn procedure_stream(id: &str) -> String {
    format!("procedure/{id}")
}

/// An ordinary proposal as the caller sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProposalRequest {
    /// The procedure's id in its namespace.
    pub id: String,
    /// The registered policy that will judge it.
    pub policy_id: String,
    /// The registered context it is for.
    pub context_id: String,
    /// The guidance itself.
    pub instructions: String,
    /// What it was developed from: 1 to [`MAX_SOURCE_REFS`] references.
    pub source_refs: Vec<String>,
    /// A rejected or suspended procedure this one revises, if any.
    #[serde(default)]
    pub supersedes: Option<String>,
}

/// How a procedure came to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// An ordinary proposal.
    Proposal,
    /// A strategy bound to development experiences.
    Strategy,
}

/// A procedure as registered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proposal {
    /// The procedure's id in its namespace.
    pub id: String,
    /// How it came to be.
    pub origin: Origin,
    /// Its policy.
    pub policy_id: String,
    /// Its context.
    pub context_id: String,
    /// The exact instruction bytes evaluated and selected.
    pub instructions: String,
    /// Its development sources.
    pub source_refs: Vec<String>,
    /// The procedure it revises, if any.
    pub supersedes: Option<String>,
}

/// The receipt of a registered procedure, in the state it was registered
/// in (always `candidate`): the payload of [`PROCEDURE_PROPOSED`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProposalReceipt {
    /// The procedure.
    pub proposal: Proposal,
    /// [`Proposal::digest`].
    pub proposal_digest: Digest,
    /// `candidate`.
    pub state: ProcedureState,
    /// Its ordinal among its (policy, context)'s procedures in the
    /// namespace, from 1: it fixes the share of δ it may spend.
    pub candidate_index: u64,
    /// Who registered it.
    pub actor: Actor,
    /// When.
    pub recorded_at: Timestamp,
}

/// Checks instruction text: 1 to [`MAX_INSTRUCTIONS_BYTES`] bytes, not
/// blank.
pub(crate) fn check_instructions(path: &str, text: &str) -> Result<(), DomainError> {
    if text.trim().is_empty() {
        return Err(DomainError::invalid(path, "must not be empty or blank"));
    }
    if text.len() > MAX_INSTRUCTIONS_BYTES {
        return Err(DomainError::invalid(
            path,
            format!("must be at most {MAX_INSTRUCTIONS_BYTES} bytes"),
        ));
    }
    Ok(())
}

impl ProposalRequest {
    /// Checks every field; `path` points at the proposal (`/proposal`).
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/id"), &self.id)?;
        check_text(&format!("{path}/policy_id"), &self.policy_id)?;
        check_text(&format!("{path}/context_id"), &self.context_id)?;
        check_instructions(&format!("{path}/instructions"), &self.instructions)?;
        if self.source_refs.is_empty() || self.source_refs.len() > MAX_SOURCE_REFS {
            return Err(DomainError::invalid(
                format!("{path}/source_refs"),
                format!("names 1 to {MAX_SOURCE_REFS} references"),
            ));
        }
        for (i, r) in self.source_refs.iter().enumerate() {
            check_text(&format!("{path}/source_refs/{i}"), r)?;
        }
        if let Some(s) = &self.supersedes {
            check_text(&format!("{path}/supersedes"), s)?;
            if *s == self.id {
                return Err(DomainError::invalid(
                    format!("{path}/supersedes"),
                    "must name another procedure",
                ));
            }
        }
        Ok(())
    }

    /// The procedure it registers.
    pub fn into_proposal(self) -> Proposal {
        Proposal {
            id: self.id,
            origin: Origin::Proposal,
            policy_id: self.policy_id,
            context_id: self.context_id,
            instructions: self.instructions,
            source_refs: self.source_refs,
            supersedes: self.supersedes,
        }
    }
}

impl Proposal {
    /// Digest of the proposal's canonical JSON under
    /// `praxis.procedure-proposal.v1`.
    pub fn digest(&self) -> Digest {
        digest_of(PROPOSAL_KIND, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request() -> ProposalRequest {
        ProposalRequest {
            id: "proc-1".into(),
            policy_id: "p".into(),
            context_id: "c".into(),
            instructions: "Read the receipt first.".into(),
            source_refs: vec!["trace://dev/1".into()],
            supersedes: None,
        }
    }

    #[test]
    fn limits_name_their_field() {
        let refused = |f: fn(&mut ProposalRequest)| {
            let mut r = request();
            f(&mut r);
            r.validate("/proposal")
                .unwrap_err()
                .path()
                .unwrap()
                .to_owned()
        };
        assert_eq!(request().validate("/proposal"), Ok(()));
        assert_eq!(
            refused(|r| r.instructions = "x".repeat(MAX_INSTRUCTIONS_BYTES + 1)),
            "/proposal/instructions"
        );
        assert_eq!(refused(|r| r.source_refs.clear()), "/proposal/source_refs");
        assert_eq!(
            refused(|r| r.source_refs = vec!["r".into(); MAX_SOURCE_REFS + 1]),
            "/proposal/source_refs"
        );
        assert_eq!(
            refused(|r| r.source_refs[0] = " ".into()),
            "/proposal/source_refs/0"
        );
        assert_eq!(
            refused(|r| r.supersedes = Some("proc-1".into())),
            "/proposal/supersedes"
        );
    }
}
