//! A proposal as its events leave it: the store applies each event it
//! appends with [`Proposal::apply`], and verification folds the log with
//! the same function, so the two can never disagree about what an event
//! means.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::candidate::Candidate;
use super::state::ProposalState;
use crate::ledger::{Actor, Event};
use crate::memory::{MemoryKey, MemoryRevision};

/// Event kind: a proposal was created.
pub const PROPOSAL_CREATED: &str = "proposal.created";
/// Event kind: a proposal was approved (its sources and destination checked).
pub const PROPOSAL_APPROVED: &str = "proposal.approved";
/// Event kind: a skill promotion's attempt marker, durable before the file write.
pub const PROMOTION_STARTED: &str = "proposal.promotion_started";
/// Event kind: a promotion's receipt.
pub const PROMOTION_RECEIPT: &str = "proposal.promotion_receipt";
/// Event kind: a promotion known not to have been applied; the proposal is open again.
pub const PROMOTION_FAILED: &str = "proposal.promotion_failed";
/// Event kind: the promotion note, which completes a promotion.
pub const PROPOSAL_PROMOTED: &str = "proposal.promoted";
/// Event kind: a proposal was withdrawn.
pub const PROPOSAL_WITHDRAWN: &str = "proposal.withdrawn";

/// Who approved, when, against what destination state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Approval {
    /// The approval's event position.
    pub position: u64,
    /// Who approved.
    pub approver: Actor,
    /// When, RFC 3339.
    pub at: String,
    /// The destination hash the approver saw.
    pub destination_hash: String,
}

/// A skill promotion's attempt marker: what the file write will do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Marker {
    /// The marker's event position.
    pub position: u64,
    /// The project.
    pub project: String,
    /// The skill file's path under the project root.
    pub path: String,
    /// The file's SHA-256 before the write (None: it did not exist).
    pub expected_sha256: Option<String>,
    /// The file's SHA-256 once written.
    pub new_sha256: String,
}

/// What a promotion did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Promoted {
    /// A memory item was written at this revision.
    Memory {
        /// The key.
        memory_key: MemoryKey,
        /// The revision written.
        revision: MemoryRevision,
        /// The memory write's event position.
        position: u64,
    },
    /// A skill file was written with this hash.
    Skill {
        /// The project.
        project: String,
        /// The path.
        path: String,
        /// The file's SHA-256 after the write.
        sha256: String,
        /// The marker's event position.
        marker_position: u64,
    },
}

/// A promotion receipt: the exact candidate, approval and promotion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Receipt {
    /// The proposal.
    pub proposal_id: String,
    /// The version approved.
    pub version_hash: String,
    /// The approval.
    pub approval: Approval,
    /// What was written.
    pub promoted: Promoted,
}

/// A proposal and everything that happened to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Proposal {
    /// Its id.
    pub id: String,
    /// Where it stands.
    pub state: ProposalState,
    /// What it proposes.
    pub candidate: Candidate,
    /// Its version hash.
    pub version_hash: String,
    /// Who proposed it.
    pub proposer: Actor,
    /// When, RFC 3339.
    pub created_at: String,
    /// Its creation's event position.
    pub position: u64,
    /// The approval in force, if any.
    pub approval: Option<Approval>,
    /// A skill promotion's marker, while one is in flight or done.
    pub marker: Option<Marker>,
    /// The promotion's receipt, once saved.
    pub receipt: Option<Receipt>,
    /// Why the last promotion was not applied, if one was not.
    pub failure: Option<String>,
    /// Why it was withdrawn.
    pub withdrawal: Option<String>,
}

fn text(payload: &Value, field: &str) -> Result<String, String> {
    payload[field]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("{field} is missing"))
}

fn decode<T: serde::de::DeserializeOwned>(payload: &Value, field: &str) -> Result<T, String> {
    serde_json::from_value(payload[field].clone()).map_err(|e| format!("{field}: {e}"))
}

impl Proposal {
    /// The proposal a `proposal.created` event makes.
    pub fn created(event: &Event) -> Result<Proposal, String> {
        if event.kind != PROPOSAL_CREATED {
            return Err(format!("{} does not create a proposal", event.kind));
        }
        let p = &event.payload;
        Ok(Proposal {
            id: text(p, "id")?,
            state: ProposalState::Open,
            candidate: decode(p, "candidate")?,
            version_hash: text(p, "version_hash")?,
            proposer: event.actor.clone(),
            created_at: event.recorded_at.to_string(),
            position: event.position,
            approval: None,
            marker: None,
            receipt: None,
            failure: None,
            withdrawal: None,
        })
    }

    /// Applies one later event of the proposal's stream; refuses an event
    /// its state does not allow.
    pub fn apply(&mut self, event: &Event) -> Result<(), String> {
        use ProposalState::{Open, Promoted, Promoting, ReceiptSaved, Withdrawn};
        let p = &event.payload;
        let wrong = || {
            format!(
                "{} is not allowed in state {}",
                event.kind,
                self.state.as_str()
            )
        };
        match (event.kind.as_str(), self.state) {
            (PROPOSAL_APPROVED, Open) if self.approval.is_none() => {
                self.approval = Some(Approval {
                    position: event.position,
                    approver: event.actor.clone(),
                    at: event.recorded_at.to_string(),
                    destination_hash: text(p, "destination_hash")?,
                });
                self.failure = None;
            }
            (PROMOTION_STARTED, Open) if self.approval.is_some() => {
                self.marker = Some(Marker {
                    position: event.position,
                    project: text(p, "project")?,
                    path: text(p, "path")?,
                    expected_sha256: decode(p, "expected_sha256")?,
                    new_sha256: text(p, "new_sha256")?,
                });
                self.state = Promoting;
            }
            // A memory promotion's receipt follows its approval in the same
            // transaction; a skill promotion's follows its marker.
            (PROMOTION_RECEIPT, Open | Promoting) if self.approval.is_some() => {
                let receipt: Receipt = decode(p, "receipt")?;
                let expected_kind = match (&receipt.promoted, &self.marker, self.state) {
                    (self::Promoted::Memory { .. }, None, Open) => true,
                    (self::Promoted::Skill { sha256, .. }, Some(m), Promoting) => {
                        *sha256 == m.new_sha256
                    }
                    _ => false,
                };
                if !expected_kind
                    || Some(&receipt.approval) != self.approval.as_ref()
                    || receipt.version_hash != self.version_hash
                    || receipt.proposal_id != self.id
                {
                    return Err(format!(
                        "{} does not match the proposal's approval and promotion",
                        event.kind
                    ));
                }
                self.receipt = Some(receipt);
                self.state = ReceiptSaved;
            }
            (PROMOTION_FAILED, Promoting) => {
                self.failure = Some(text(p, "reason")?);
                self.approval = None;
                self.marker = None;
                self.state = Open;
            }
            (PROPOSAL_PROMOTED, ReceiptSaved) => self.state = Promoted,
            (PROPOSAL_WITHDRAWN, Open) => {
                self.withdrawal = Some(text(p, "reason")?);
                self.approval = None;
                self.state = Withdrawn;
            }
            _ => return Err(wrong()),
        }
        Ok(())
    }
}
