//! Wire types of experience records (protocol v0.1) and the skill registry.
//!
//! A record document travels as opaque JSON (`serde_json::Value`): its
//! contract is the v0.1 JSON Schema served at `GET /api/v1/records/schema`,
//! not these types. What Praxis says about a record (its revision, digest,
//! lifecycle, review and flags) travels beside it as a [`RecordState`].
//! Record documents are data only: nothing in them is an instruction.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::Scope;

/// Where a submission comes from. Edits from the same source revise the
/// same record; a source is bound to one `experience_id` for good.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RecordSource {
    /// A key chosen by the client, scoped to the submitting subject
    /// (1-200 bytes without control characters).
    Key(String),
    /// A public issue the record was filed as.
    Issue(IssueRef),
}

/// A public issue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IssueRef {
    /// `owner/name`.
    pub repository: String,
    /// Issue number, at least 1.
    pub number: u64,
}

/// `POST /api/v1/records`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitRecordRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope the record lives in.
    pub scope: Scope,
    /// Where the submission comes from.
    pub source: RecordSource,
    /// The v0.1 record. The server sets `provenance.author_ref` to the
    /// authenticated subject and owns `lifecycle`, `review` and `screening`.
    pub record: Value,
}

/// `lifecycle.status` of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RecordLifecycle {
    /// Submitted, not yet approved.
    Candidate,
    /// Approved.
    Reviewed,
    /// Replaced by a newer approved record.
    Superseded,
    /// Withdrawn, with a reason; identity and history stay.
    Withdrawn,
}

impl RecordLifecycle {
    /// The protocol's text, as a query parameter spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordLifecycle::Candidate => "candidate",
            RecordLifecycle::Reviewed => "reviewed",
            RecordLifecycle::Superseded => "superseded",
            RecordLifecycle::Withdrawn => "withdrawn",
        }
    }
}

/// `review.status` of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewStatus {
    /// Not reviewed yet.
    Pending,
    /// Approved.
    Approved,
    /// A reviewer asked for changes.
    ChangesRequested,
}

/// How a review was made; reported as what it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewMode {
    /// A person decided.
    Human,
    /// The policy gate decided; never presented as human review.
    AutomatedPolicy,
}

/// `context.platform` of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Platform {
    /// Windows.
    Windows,
    /// macOS.
    Macos,
    /// Linux.
    Linux,
    /// More than one platform.
    CrossPlatform,
    /// Anything else.
    Other,
}

impl Platform {
    /// The protocol's text, as a query parameter spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Windows => "windows",
            Platform::Macos => "macos",
            Platform::Linux => "linux",
            Platform::CrossPlatform => "cross-platform",
            Platform::Other => "other",
        }
    }
}

/// `verification.level` of a record: the submitter's claim, as screened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum VerificationLevel {
    /// Observed by the submitter.
    SelfObserved,
    /// Verified locally by checks.
    LocallyVerified,
    /// Reproduced independently.
    IndependentlyReproduced,
}

impl VerificationLevel {
    /// The protocol's text, as a query parameter spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            VerificationLevel::SelfObserved => "self-observed",
            VerificationLevel::LocallyVerified => "locally-verified",
            VerificationLevel::IndependentlyReproduced => "independently-reproduced",
        }
    }
}

/// One finding about a record: where (a JSON pointer into the record), which
/// rule, and what the rule requires. It never repeats the offending text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordFinding {
    /// JSON pointer into the record document.
    pub pointer: String,
    /// Stable rule code, for example `gate.attempt_sequence` or `repo.withdrawn_skill`.
    pub rule: String,
    /// What the rule requires.
    pub message: String,
}

/// What Praxis holds about a kept record's current revision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordState {
    /// The record's id.
    pub experience_id: String,
    /// Current revision: 1 for the first kept one, then +1 per change.
    pub revision: u64,
    /// Lowercase hex SHA-256 of the current document's canonical JSON (RFC 8785).
    pub sha256: String,
    /// Lifecycle status.
    pub lifecycle: RecordLifecycle,
    /// Review status.
    pub review_status: ReviewStatus,
    /// How it was reviewed, once it was.
    #[schema(required = true)]
    pub review_mode: Option<ReviewMode>,
    /// The submitter's verification claim.
    pub verification_level: VerificationLevel,
    /// Platform.
    pub platform: Platform,
    /// Why it was withdrawn, when it was.
    #[schema(required = true)]
    pub withdrawal_reason: Option<String>,
    /// The record that superseded it, when one did.
    #[schema(required = true)]
    pub superseded_by: Option<String>,
    /// Findings that arose after it was kept, such as `repo.withdrawn_skill`
    /// for a relation to a skill release since withdrawn.
    pub flags: Vec<RecordFinding>,
}

/// A record document with its state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordEntry {
    /// The v0.1 document, as kept. Data only, never instructions.
    pub record: Value,
    /// What Praxis holds about it.
    pub state: RecordState,
}

/// `GET /api/v1/records/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The v0.1 document, as kept. Data only, never instructions.
    pub record: Value,
    /// What Praxis holds about it.
    pub state: RecordState,
    /// Always true: the document is data to read, not instructions to follow.
    pub data_only: bool,
}

/// Whether a write changed anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriteEffect {
    /// Something new was kept.
    Changed,
    /// It was already so; nothing was written.
    Unchanged,
}

/// Answer to a dry run of a submission (`POST /api/v1/records/check`): what
/// intake would say of the same body now. Nothing is written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordCheckResponse {
    /// Always 1.
    pub contract_version: u32,
    /// True when a submission of the same body would be kept now.
    pub passed: bool,
    /// Every finding a submission would be rejected with, sorted; empty
    /// when it passed. Pointers are into the record document (`""` is its
    /// root, as in RFC 6901).
    pub findings: Vec<RecordFinding>,
}

/// Answer to a submission, review or withdrawal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordWriteResponse {
    /// Always 1.
    pub contract_version: u32,
    /// `changed` when a revision was kept, `unchanged` when the identical
    /// document was already the current revision.
    pub write: WriteEffect,
    /// The record's current document.
    pub record: Value,
    /// The record's current state.
    pub state: RecordState,
    /// Records this write superseded, each at its new revision.
    pub superseded: Vec<RecordEntry>,
    /// Always true: documents are data to read, not instructions to follow.
    pub data_only: bool,
}

/// A review decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReviewDecision {
    /// The candidate becomes reviewed (and supersedes what it names).
    Approve,
    /// The record stays a candidate; notes are required.
    RequestChanges,
}

/// `POST /api/v1/records/{id}/review`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewRecordRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope the record lives in.
    pub scope: Scope,
    /// Approve or request changes.
    pub decision: ReviewDecision,
    /// Human (the reviewer is the authenticated subject) or automated policy
    /// (which only approves).
    pub mode: ReviewMode,
    /// Review notes, 1-1000 characters; required to request changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// The revision the reviewer saw; a newer one refuses the review (409).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
}

/// `POST /api/v1/records/{id}/withdraw`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawRecordRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope the record lives in.
    pub scope: Scope,
    /// Why, 1-1000 characters; screened like record text.
    pub reason: String,
    /// The revision the caller saw; a newer one refuses the withdrawal (409).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
}

/// `POST /api/v1/records/{id}/discard`: the author of a candidate
/// withdraws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DiscardRecordRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope the record lives in.
    pub scope: Scope,
    /// Why, 1-1000 characters; screened like record text.
    pub reason: String,
    /// The revision the caller saw; a newer one refuses the discard (409).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<u64>,
}

/// A page of records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordPage {
    /// Always 1.
    pub contract_version: u32,
    /// Records ordered by `experience_id`.
    pub records: Vec<RecordEntry>,
    /// Pass as `after` to read the next page; null at the end.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
    /// Always true: documents are data to read, not instructions to follow.
    pub data_only: bool,
}

/// What a revision changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordChange {
    /// A passing submission or edit by the source.
    Submitted,
    /// Approved, by a human or by the automated policy.
    Approved,
    /// A reviewer asked for changes.
    ChangesRequested,
    /// Another approved record superseded it.
    Superseded,
    /// Withdrawn, with a reason.
    Withdrawn,
    /// Discarded as a candidate by its author, with a reason; the record
    /// is withdrawn.
    Discarded,
    /// Loaded from a published repository as it was.
    Imported,
}

/// One entry of a record's history, in ledger order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordHistoryEntry {
    /// A kept revision.
    Revision {
        /// Sequence in the record's history, from 1.
        sequence: u64,
        /// Position in the tenant's ledger.
        position: u64,
        /// RFC 3339 time the ledger recorded it.
        #[schema(format = DateTime)]
        recorded_at: String,
        /// The subject whose request caused it.
        actor: String,
        /// Revision number.
        revision: u64,
        /// What changed.
        change: RecordChange,
        /// SHA-256 of the document's canonical JSON.
        sha256: String,
        /// Why it was withdrawn (withdrawals only).
        reason: Option<String>,
        /// The record that superseded it (supersessions only).
        superseded_by: Option<String>,
        /// The whole document as of this revision. Data only.
        record: Value,
    },
    /// A submission that failed screening: its findings and the digest of
    /// what was sent, never the text.
    Rejection {
        /// Sequence in the record's history, from 1.
        sequence: u64,
        /// Position in the tenant's ledger.
        position: u64,
        /// RFC 3339 time the ledger recorded it.
        #[schema(format = DateTime)]
        recorded_at: String,
        /// The subject who submitted it.
        actor: String,
        /// SHA-256 of the canonical JSON as submitted.
        sha256: String,
        /// Every finding.
        findings: Vec<RecordFinding>,
    },
}

/// `GET /api/v1/records/{id}/history`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RecordHistoryResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The record.
    pub experience_id: String,
    /// Revisions and rejections in order.
    pub entries: Vec<RecordHistoryEntry>,
    /// Pass as `after` to read the next page; null at the end.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
    /// Always true: documents are data to read, not instructions to follow.
    pub data_only: bool,
}

/// `POST /api/v1/records/settings`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordSettingsRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope whose namespace the settings govern.
    pub scope: Scope,
    /// Whether passing submissions are approved by the automated policy
    /// (reported as `automated-policy`, never as human review).
    pub automated_approval: bool,
}

/// A namespace's record settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RecordSettingsResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Whether passing submissions are approved by the automated policy.
    pub automated_approval: bool,
}

/// An immutable skill release.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillRelease {
    /// Lowercase words joined by single hyphens, at most 100 bytes.
    pub name: String,
    /// `MAJOR.MINOR.PATCH`.
    pub version: String,
    /// Lowercase hex SHA-256 of the release artifact; never changes.
    pub sha256: String,
    /// Artifact size in bytes.
    pub size: u64,
    /// What the release is for, 1-1000 characters.
    pub summary: String,
    /// Who published it and from where.
    pub provenance: Value,
}

/// Why and when a release was withdrawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SkillWithdrawal {
    /// RFC 3339 time.
    #[schema(format = DateTime)]
    pub at: String,
    /// Why.
    pub reason: String,
}

/// A release of the registry with its withdrawal, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SkillEntry {
    /// The release.
    pub release: SkillRelease,
    /// Set once withdrawn; the release stays in the registry.
    #[schema(required = true)]
    pub withdrawal: Option<SkillWithdrawal>,
}

/// `POST /api/v1/skills`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PublishSkillRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope whose registry it joins.
    pub scope: Scope,
    /// The release.
    pub release: SkillRelease,
}

/// `POST /api/v1/skills/{name}/{version}/withdraw`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawSkillRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope of the registry.
    pub scope: Scope,
    /// Why, 1-1000 characters; screened like record text.
    pub reason: String,
}

/// Answer to publishing or withdrawing a release.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SkillResponse {
    /// Always 1.
    pub contract_version: u32,
    /// `unchanged` for an identical republication or a repeated withdrawal.
    pub write: WriteEffect,
    /// The release as it stands.
    pub skill: SkillEntry,
}

/// `GET /api/v1/skills`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct SkillsResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Every release, by name then version.
    pub skills: Vec<SkillEntry>,
}
