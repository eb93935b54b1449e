//! Praxis wire types: the JSON documents of the HTTP API, version 1.
//!
//! These are distinct from the domain types on purpose: the wire format is a
//! contract with clients and changes only with `contract_version`, while the
//! domain may change shape freely. Request types reject unknown fields.

pub mod examples;
mod guidance;
mod learning;
mod memory;
mod procedures;
mod records;
mod screen;

pub use guidance::*;
pub use learning::*;
pub use memory::*;
pub use procedures::*;
pub use records::*;
pub use screen::*;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The only contract version this build speaks.
pub const CONTRACT_VERSION: u32 = 1;

/// Media type of error responses (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Header carrying a client's idempotency key.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Response header set on an answer replayed from a stored receipt.
pub const IDEMPOTENT_REPLAYED: &str = "idempotent-replayed";

/// An RFC 9457 problem document with a stable machine-readable `code`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// A URI naming the problem type (`urn:praxis:problem:<code>`).
    #[serde(rename = "type")]
    pub type_: String,
    /// Short human-readable summary of the problem type.
    pub title: String,
    /// HTTP status code.
    pub status: u16,
    /// Explanation specific to this occurrence.
    pub detail: String,
    /// Stable error code, for example `unknown_field` or `storage_inconsistency`.
    pub code: String,
    /// JSON pointer of the offending field, when one is to blame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Every problem, when a request is refused for several at once
    /// (imports, record findings).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ProblemItem>,
    /// The current revision, when a compare-and-set found another than
    /// the one expected: a number for records and experiences
    /// (`revision_conflict`), an opaque `mrev_…` string for memory
    /// (`memory_changed`, `expected_revision_required`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_revision: Option<CurrentRevision>,
}

/// A current revision: a counter or an opaque string, by concept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum CurrentRevision {
    /// A record's or an experience's revision number.
    Number(u64),
    /// A memory item's `mrev_…` revision.
    Text(String),
}

/// Visibility of a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Visible to every subject with the grant.
    Shared,
    /// Visible only to the writing subject.
    Private,
}

/// An exact scope tuple; a null mission is its own scope, not a wildcard.
/// Each id is 1 to 128 printable ASCII characters without spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    /// Project id.
    #[schema(min_length = 1, max_length = 128, pattern = "^[!-~]+$")]
    pub project_id: String,
    /// Mission id, or null. Required even when null, since null is a scope of its own.
    #[serde(deserialize_with = "Option::deserialize")]
    #[schema(
        required = true,
        min_length = 1,
        max_length = 128,
        pattern = "^[!-~]+$"
    )]
    pub mission_id: Option<String>,
    /// Agent id.
    #[schema(min_length = 1, max_length = 128, pattern = "^[!-~]+$")]
    pub agent_id: String,
    /// Shared or private.
    pub visibility: Visibility,
}

/// The name of a capability, as credentials list them. The server answers
/// an unknown name with 422 `invalid_field` naming its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CapabilityName {
    /// Issue, rotate, revoke, list and read credentials of the tenant.
    CredentialAdmin,
    /// Set per-namespace policies.
    PolicyAdmin,
    /// Read attempt history and assessments.
    ExperienceRead,
    /// Record attempt outcomes.
    ExperienceWrite,
    /// Read aggregate reports over experience.
    ExperienceReport,
    /// Import and export evidence stores.
    ExperienceEvidenceAdmin,
    /// Register strategy candidates.
    ProcedurePropose,
    /// Submit paired evaluations.
    ProcedureEvaluate,
    /// Read agent memory and strategy receipts.
    MemoryRead,
    /// Write agent memory.
    MemoryWrite,
    /// Submit experience records.
    RecordSubmit,
    /// Review experience records.
    RecordReview,
    /// Create guidance proposals.
    ProposalCreate,
    /// Approve guidance proposals.
    ProposalApprove,
}

/// `POST /api/v1/credentials`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IssueCredentialRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// Subject the credential acts for.
    pub subject: String,
    /// Capability names (at least one).
    #[schema(value_type = Vec<CapabilityName>)]
    pub capabilities: Vec<String>,
    /// Exact scope grants.
    pub grants: Vec<Scope>,
    /// RFC 3339 expiry, or null for none (required, so that no expiry is a stated choice).
    #[serde(deserialize_with = "Option::deserialize")]
    #[schema(required = true, format = DateTime)]
    pub expires_at: Option<String>,
}

/// A body with only the contract version (revoke, rotate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmptyRequest {
    /// Must be 1.
    pub contract_version: u32,
}

/// Whether a credential can authenticate now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CredentialStatus {
    /// Usable.
    Active,
    /// Revoked.
    Revoked,
    /// Expired.
    Expired,
}

/// A credential as the API shows it. The secret is never shown here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Credential {
    /// Credential id (the `<id>` of its token).
    pub id: String,
    /// Subject.
    pub subject: String,
    /// Capability names, sorted.
    #[schema(value_type = Vec<CapabilityName>)]
    pub capabilities: Vec<String>,
    /// Grants, sorted.
    pub grants: Vec<Scope>,
    /// Status at the time of the response.
    pub status: CredentialStatus,
    /// RFC 3339 issue time.
    #[schema(format = DateTime)]
    pub created_at: String,
    /// RFC 3339 expiry, if any.
    #[schema(required = true, format = DateTime)]
    pub expires_at: Option<String>,
    /// RFC 3339 revocation time, if revoked.
    #[schema(required = true, format = DateTime)]
    pub revoked_at: Option<String>,
    /// RFC 3339 time of the last secret rotation, if any.
    #[schema(required = true, format = DateTime)]
    pub rotated_at: Option<String>,
    /// Number of events in the credential's stream.
    pub version: u64,
}

/// Answer to issuing or rotating a credential: the only time a token is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The credential.
    pub credential: Credential,
    /// `prx_<id>_<secret>`; store it, it is not shown again.
    pub token: String,
}

/// Answer carrying one credential.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CredentialResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The credential.
    pub credential: Credential,
}

/// One capability a credential can hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CapabilityInfo {
    /// Its wire name, as `capabilities` of a credential lists it.
    #[schema(value_type = CapabilityName)]
    pub name: String,
    /// What it allows, in one line.
    pub description: String,
    /// Whether the calling credential holds it.
    pub held: bool,
}

/// `GET /api/v1/capabilities`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CapabilitiesResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Every capability; none implies another.
    pub capabilities: Vec<CapabilityInfo>,
}

/// A page of credentials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CredentialPage {
    /// Always 1.
    pub contract_version: u32,
    /// Credentials ordered by id.
    pub credentials: Vec<Credential>,
    /// Pass as `after` to read the next page; null at the end.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Answer of the health and readiness probes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`, or what is wrong.
    pub status: String,
    /// Store kind: `sqlite` or `postgres`.
    pub store: String,
    /// Which readiness check failed, when one did: `disk_full`,
    /// `low_disk_space`, `read_only`, `database_unreachable`,
    /// `writer_stopped`, `probe_timeout` or `write_failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the store or file system said, when a check failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// One problem among several, for requests that report every problem at
/// once (imports, record findings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProblemItem {
    /// Index of the record concerned, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// JSON pointer of the offending field.
    pub field: String,
    /// Stable code, for example `invalid_disposition`, `identity_conflict`
    /// or a record rule such as `gate.attempt_sequence`.
    pub code: String,
    /// What is wrong.
    pub detail: String,
}

/// Where in verification an outcome was produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Observation without acting on the target.
    Passive,
    /// An action was executed against the target.
    Active,
}

/// What a verifier concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeStatus {
    /// The action succeeded.
    Success,
    /// The target refused or rate-limited it.
    Blocked,
    /// No conclusion.
    Unknown,
    /// A human must look.
    NeedsReview,
    /// The verifier rejected the hypothesis.
    FalsePositive,
    /// An audited negative control disproved the hypothesis (active stage only).
    ConfirmedNegative,
}

/// How an outcome may influence planning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    /// Success; resets the streak.
    ConfirmedPositive,
    /// Verifier rejection; counts towards suppression.
    VerificationRejected,
    /// Audited negative control; counts towards suppression.
    ConfirmedNegative,
    /// The action does not apply to the subject (unknown/needs_review only).
    NotApplicable,
    /// The target denied or rate-limited the attempt (blocked only).
    BlockedByTarget,
    /// Host policy refused execution (unknown/needs_review only).
    BlockedByPolicy,
    /// Network failed before a conclusion (unknown/needs_review only).
    TransportFailure,
    /// The executor failed (unknown/needs_review only).
    ExecutorFailure,
    /// No deterministic conclusion (unknown/needs_review only).
    VerificationInconclusive,
}

/// A verifier's outcome, in the legacy stores' shape plus optional
/// `action_revision` and `observed_at`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The attempt; unique per subject and action.
    pub case_id: String,
    /// What the action was tried on.
    pub subject: String,
    /// The action.
    pub action_id: String,
    /// The hypothesis tested.
    pub hypothesis_id: String,
    /// The concluding rule; null for an unknown outcome.
    #[serde(default)]
    pub verifier_rule_id: Option<String>,
    /// Passive or active.
    pub stage: Stage,
    /// The conclusion.
    pub status: OutcomeStatus,
    /// Parts per million, 0..=1000000.
    pub confidence: u32,
    /// Why.
    pub rationale: String,
    /// Evidence cited.
    pub evidence_ids: Vec<String>,
    /// Version of the payload, rule or executor that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_revision: Option<String>,
    /// RFC 3339 time of observation, by the client's clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(format = DateTime)]
    pub observed_at: Option<String>,
}

/// `POST /api/v1/attempts`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ObserveRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope the caller acts in.
    pub scope: Scope,
    /// The outcome.
    pub outcome: Outcome,
    /// A stated disposition; inferred by the conservative mapping when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disposition: Option<Disposition>,
}

/// A recorded attempt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AttemptRecord {
    /// Ledger position; monotonic within the namespace, not dense.
    pub sequence: u64,
    /// The outcome as recorded.
    pub outcome: Outcome,
    /// Its disposition.
    pub disposition: Disposition,
    /// Hex SHA-256 of the sealed ledger event.
    pub digest: String,
    /// When the server recorded it (RFC 3339, UTC).
    pub recorded_at: String,
    /// The subject whose credential wrote it (`system` for an offline import).
    pub recorded_by: String,
}

/// Whether an observation was new.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriteKind {
    /// Appended now.
    Inserted,
    /// The identical record existed; nothing was written.
    Unchanged,
}

/// Answer to an observation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ObserveResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Inserted or unchanged.
    pub write: WriteKind,
    /// The record (the original one when unchanged).
    pub record: AttemptRecord,
}

/// What streaks are counted per.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum StreakKey {
    /// Per (subject, action).
    #[default]
    Action,
    /// Per (subject, action, action_revision).
    ActionRevision,
}

/// Re-exploration of a suppressed action after a cool-down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Reexplore {
    /// Seconds after the last completed attempt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_seconds: Option<u64>,
    /// Later observations of the subject, of any action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_observations: Option<u64>,
}

/// Reads a field that may be absent (`None`), `null` (`Some(None)`) or a
/// value (`Some(Some(v))`): serde's `default` covers absence, this the rest.
// Three states are the wire's own (RFC 7396): serde and utoipa read and
// describe `Option<Option<T>>` as exactly that.
#[allow(clippy::option_option)]
fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// `POST /api/v1/attempts/policy`: a change to the policy in force. Only
/// the fields sent change (JSON Merge Patch, RFC 7396): a field left out
/// keeps its value, a field sent as `null` goes back to its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(clippy::option_option)] // absent, null or a value: see `present`
pub struct SetPolicyRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope whose namespace the policy governs.
    pub scope: Scope,
    /// Consecutive verified negatives that suppress; at least 1. Left out:
    /// unchanged; null: back to the default, 10.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<u32>, minimum = 1)]
    pub consecutive_failure_limit: Option<Option<u32>>,
    /// What streaks are counted per. Left out: unchanged; null: back to the
    /// default, `action`.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<StreakKey>)]
    pub streak_key: Option<Option<StreakKey>>,
    /// Re-exploration after a cool-down, merged member by member into the
    /// settings in force. Left out: unchanged; null: off (the default).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<ReexploreUpdate>)]
    pub reexplore: Option<Option<ReexploreUpdate>>,
}

/// A change to the re-exploration settings: a member left out keeps its
/// value, a member sent as `null` is removed. At least one of the two must
/// remain; send `reexplore: null` to turn re-exploration off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(clippy::option_option)] // absent, null or a value: see `present`
pub struct ReexploreUpdate {
    /// Seconds after the last completed attempt; at least 1.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<u64>, minimum = 1)]
    pub after_seconds: Option<Option<u64>>,
    /// Later observations of the subject, of any action; at least 1.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<u64>, minimum = 1)]
    pub after_observations: Option<Option<u64>>,
}

/// A namespace's policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PolicyResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Consecutive verified negatives that suppress.
    pub consecutive_failure_limit: u32,
    /// What streaks are counted per.
    pub streak_key: StreakKey,
    /// Re-exploration, or null.
    #[schema(required = true)]
    pub reexplore: Option<Reexplore>,
}

/// A candidate action: its id, or an object naming the revision to run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum CandidateAction {
    /// Just the action id.
    Id(String),
    /// The action and the revision a planner would run.
    Revision(CandidateRevision),
}

/// A candidate named with the revision to run. Unknown fields are refused
/// here too: a misspelled `action_revision` must not be silently dropped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CandidateRevision {
    /// The action.
    pub action_id: String,
    /// Its revision.
    pub action_revision: Option<String>,
}

/// `POST /api/v1/attempts/assess`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AssessRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The subject.
    pub subject: String,
    /// Candidate actions (at most 256).
    pub actions: Vec<CandidateAction>,
}

/// What a planner should do with one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Recommendation {
    /// The limit of verified negatives is reached.
    Suppress,
    /// No completed attempt (or a cool-down allows one more).
    Explore,
    /// Below the limit.
    Continue,
}

/// The assessment of one action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Assessment {
    /// The action.
    pub action_id: String,
    /// The candidate's revision as the request gave it, whatever the
    /// policy's streak key (absent when the candidate named none); under a
    /// revision-keyed policy, the revision whose streak was assessed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_revision: Option<String>,
    /// The recommendation.
    pub recommendation: Recommendation,
    /// Consecutive verified negatives.
    pub consecutive_failures: u64,
    /// The policy's limit.
    pub limit: u32,
    /// Completed attempts counted.
    pub completed_attempts: u64,
    /// Disposition of the newest completed attempt.
    #[schema(required = true)]
    pub last_disposition: Option<Disposition>,
    /// Why.
    pub rationale: String,
}

/// Answer to an assessment, one entry per candidate in request order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct AssessResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The assessments.
    pub assessments: Vec<Assessment>,
}

/// A page of attempt history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct HistoryResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Records in sequence order.
    pub records: Vec<AttemptRecord>,
    /// Pass as `after` for the next page; null at the end.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Records per disposition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CountsResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Every disposition with its count (zero included).
    pub counts: std::collections::BTreeMap<Disposition, u64>,
    /// Sum of the counts.
    pub total: u64,
}

/// A legacy attempt store: what `import` reads and `export` writes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LegacyStore {
    /// Equals the number of records.
    pub next_sequence: u64,
    /// Records; `sequence` equals the index.
    pub records: Vec<LegacyRecord>,
}

/// One record of a legacy store.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LegacyRecord {
    /// Zero-based sequence.
    pub sequence: u64,
    /// The outcome.
    pub outcome: Outcome,
    /// Absent in stores written before dispositions existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disposition: Option<Disposition>,
}

/// `POST /api/v1/attempts/import`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope to import into.
    pub scope: Scope,
    /// The legacy store.
    pub store: LegacyStore,
}

/// Answer to an import.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ImportResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Records appended.
    pub inserted: u64,
    /// Records already present, identical.
    pub unchanged: u64,
}
