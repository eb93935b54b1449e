//! Wire types of experience proposals (guidance reviewed and promoted into
//! agent memory or a project skill) and of project skill files.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Scope;

/// What a source is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A file under a configured project root; `ref` is `<project>:<path>`.
    File,
    /// An attempt-ledger case; `ref` is `<subject> <action_id> <case_id>`.
    Attempt,
    /// A development experience event; `ref` is `<attempt_id> <event_id>`.
    ExperienceEvent,
    /// An experience record at its current revision; `ref` is `<experience_id> <revision>`.
    RecordRevision,
    /// A memory item at its live revision; `ref` is `<key> <mrev_…>`.
    MemoryRevision,
}

/// One source: what, which, and its SHA-256 when the proposer looked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// What it is.
    pub kind: SourceKind,
    /// Which one, in the kind's form.
    #[serde(rename = "ref")]
    pub reference: String,
    /// 64 lowercase hex digits.
    pub sha256: String,
}

/// Where an approved candidate goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Destination {
    /// A memory item of the proposal's scope.
    Memory {
        /// The item's key.
        memory_key: String,
        /// Its revision as the proposer saw it; null: create-only.
        expected_revision: Option<String>,
    },
    /// A project skill, `.agents/skills/<name>/SKILL.md`.
    Skill {
        /// The project id: the scope's own project, mapped to a directory
        /// by the server's configuration.
        project: String,
        /// `.agents/skills/<name>/SKILL.md`.
        path: String,
        /// The file's SHA-256 as the proposer saw it; null: create-only.
        expected_sha256: Option<String>,
    },
}

/// A candidate: data, never guidance, until it is approved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    /// `praxis.experience-proposal.v1`.
    pub schema: String,
    /// One line, at most 512 characters.
    pub summary: String,
    /// At most 4 KiB; a skill's content begins with YAML frontmatter whose
    /// keys are `name`, then `description`.
    pub content: String,
    /// At most 8, each one line of at most 512 characters.
    #[schema(max_items = 8)]
    pub conditions: Vec<String>,
    /// At most 8.
    #[schema(max_items = 8)]
    pub sources: Vec<Source>,
    /// Where it goes.
    pub destination: Destination,
}

/// `POST /api/v1/proposals`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateExperienceProposalRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The candidate; its canonical JSON is at most 7,500 bytes.
    pub candidate: Candidate,
}

/// Where a proposal stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExperienceProposalState {
    /// Reviewable and approvable.
    Open,
    /// An approval is writing its skill file now.
    Promoting,
    /// A skill promotion's marker is durable and its outcome is not: inspect
    /// the file and run `praxis proposals resolve`; never retry.
    PromotionOutcomeUnresolvedDoNotRetry,
    /// The receipt is saved and the promotion note is not; the next
    /// approve completes the note without repeating the write.
    ReceiptSavedPromotionNoteMissing,
    /// Applied, with its receipt.
    Promoted,
    /// Withdrawn.
    Withdrawn,
}

/// Who approved, when, against what destination state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProposalApproval {
    /// The approval's event position.
    pub position: u64,
    /// The approving subject.
    pub approver: String,
    /// The approving credential.
    pub credential_id: String,
    /// When.
    pub at: String,
    /// The destination hash approved.
    pub destination_hash: String,
}

/// A skill promotion's attempt marker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PromotionMarker {
    /// The marker's event position.
    pub position: u64,
    /// The project.
    pub project: String,
    /// The skill file.
    pub path: String,
    /// The file's SHA-256 before the write (null: it did not exist).
    pub expected_sha256: Option<String>,
    /// The file's SHA-256 had the write landed.
    pub new_sha256: String,
}

/// What a promotion wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PromotedEffect {
    /// A memory item at a revision.
    Memory {
        /// The key.
        memory_key: String,
        /// The revision written.
        revision: String,
        /// The memory write's event position.
        position: u64,
    },
    /// A skill file with a hash.
    Skill {
        /// The project.
        project: String,
        /// The file.
        path: String,
        /// Its SHA-256 after the write.
        sha256: String,
        /// The marker's event position.
        marker_position: u64,
    },
}

/// A promotion receipt: the exact candidate, approval and promotion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PromotionReceipt {
    /// The proposal.
    pub proposal_id: String,
    /// The version approved.
    pub version_hash: String,
    /// The approval.
    pub approval: ProposalApproval,
    /// What was written.
    pub promoted: PromotedEffect,
}

/// A proposal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceProposal {
    /// Its id.
    pub id: String,
    /// Where it stands.
    pub state: ExperienceProposalState,
    /// What it proposes.
    pub candidate: Candidate,
    /// Its version hash: SHA-256 of the canonical JSON of its id and candidate.
    pub version_hash: String,
    /// The proposing subject.
    pub proposer: String,
    /// When it was proposed.
    pub created_at: String,
    /// The approval in force.
    pub approval: Option<ProposalApproval>,
    /// A skill promotion's marker.
    pub marker: Option<PromotionMarker>,
    /// The promotion receipt, once saved.
    pub receipt: Option<PromotionReceipt>,
    /// Why the last promotion was not applied.
    pub failure: Option<String>,
    /// Why it was withdrawn.
    pub withdrawal: Option<String>,
}

/// A proposal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceProposalResponse {
    /// 1.
    pub contract_version: u32,
    /// The proposal.
    pub proposal: ExperienceProposal,
}

/// A page of proposals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceProposalsResponse {
    /// 1.
    pub contract_version: u32,
    /// Proposals by id.
    pub proposals: Vec<ExperienceProposal>,
    /// The `after` of the next page, when this one is full.
    pub next: Option<String>,
}

/// `POST /api/v1/proposals/{id}/review` and `/withdraw`: the scope.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScopedProposalRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
}

/// A source as it stands now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceStatus {
    /// It still hashes as pinned.
    Fresh,
    /// It hashes to something else, or is no longer current.
    Changed,
    /// It is gone.
    Missing,
}

/// A source with its live status.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ReviewedSource {
    /// What it is.
    pub kind: SourceKind,
    /// Which one.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The SHA-256 the candidate pinned.
    pub sha256: String,
    /// Its status now.
    pub status: SourceStatus,
}

/// The destination and its state now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ReviewedDestination {
    /// The destination as proposed.
    pub destination: Destination,
    /// The memory item's live revision or the file's SHA-256 now; null
    /// when it does not exist.
    pub current: Option<String>,
    /// Whether that is what the candidate expects.
    pub as_expected: bool,
}

/// What a reviewer approves: the exact rendered body, the destination and
/// its state, every source's live status, and the two hashes to approve with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProposalReview {
    /// 1.
    pub contract_version: u32,
    /// The proposal.
    pub proposal: ExperienceProposal,
    /// The exact text approval writes: the content, then `Applies when:`
    /// and the conditions.
    pub rendered: String,
    /// The destination now.
    pub destination: ReviewedDestination,
    /// Each source now.
    pub sources: Vec<ReviewedSource>,
    /// The version hash to approve.
    pub version_hash: String,
    /// The destination hash to approve: SHA-256 of the canonical JSON of
    /// the destination and its current state.
    pub destination_hash: String,
}

/// `POST /api/v1/proposals/{id}/approve`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ApproveProposalRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The version hash the review showed.
    pub version_hash: String,
    /// The destination hash the review showed.
    pub destination_hash: String,
}

/// A promotion's receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PromotionResponse {
    /// 1.
    pub contract_version: u32,
    /// The receipt.
    pub receipt: PromotionReceipt,
    /// False when this call found the promotion already applied (a
    /// duplicate approval) and only answered, or completed the note.
    pub applied_now: bool,
}

/// `POST /api/v1/proposals/{id}/resolve`: an operator's resolution of a
/// promotion whose outcome is unknown, checked against the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResolveProposalRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// Whether the file write landed.
    pub applied: bool,
}

/// `POST /api/v1/proposals/{id}/withdraw`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawProposalRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// Why, at most 1 KiB.
    pub reason: String,
}

/// `POST /api/v1/proposals/sources`: one source object, hashed now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeSourceRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// What it is.
    pub kind: SourceKind,
    /// Which one.
    #[serde(rename = "ref")]
    pub reference: String,
}

/// `POST /api/v1/proposals/settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProposalSettingsRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// Whether a proposer may approve their own proposals here.
    pub self_approval: bool,
}

/// A scope's proposal settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProposalSettingsResponse {
    /// 1.
    pub contract_version: u32,
    /// Whether a proposer may approve their own proposals here.
    pub self_approval: bool,
}

/// A project skill file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProjectSkill {
    /// The skill's name.
    pub name: String,
    /// `.agents/skills/<name>/SKILL.md`.
    pub path: String,
    /// The whole file.
    pub content: String,
    /// The whole file's SHA-256.
    pub sha256: String,
}

/// A project's skill files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProjectSkillsResponse {
    /// 1.
    pub contract_version: u32,
    /// Every skill, by name.
    pub skills: Vec<ProjectSkill>,
}
