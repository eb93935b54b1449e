//! Wire types of the learning authority's ground floor: the registry of
//! policies and evaluation contexts, development experiences, exports and
//! withdrawals.
//!
//! Text fields are 1 to 512 bytes without control characters; digests
//! are 64 lowercase hex digits; counts are at most 2^53 − 1.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::Scope;

/// How a candidate is qualified (the next part of the authority runs it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LearningAlgorithm {
    /// A fixed number of paired trials, then one Hoeffding test.
    FixedHoeffdingV1,
    /// An anytime-valid sequential test, stopped at `max_trials`.
    AnytimeV1,
}

/// The drift rule that may suspend a selected candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MonitoringRule {
    /// An anytime-valid drift test on selected runs.
    AnytimeDriftV1,
}

/// How a selected candidate is watched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyMonitoring {
    /// The rule.
    pub rule: MonitoringRule,
    /// Probability of a false suspension, in (0, 0.5).
    pub false_alarm_delta: f64,
}

/// A policy's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PolicyParameters {
    /// The subject whose credential alone may submit evaluations.
    #[schema(min_length = 1, max_length = 512)]
    pub evaluator_subject: String,
    /// Probability of qualifying a candidate that is not better, in (0, 0.5).
    pub confidence_delta: f64,
    /// Least utility gain over the baseline, in [0, 1].
    pub min_improvement: f64,
    /// Least utility a candidate must reach, in [0, 1].
    pub min_candidate_utility: f64,
    /// Most cost units one trial may use (at least 1).
    pub max_cost_units: u64,
    /// Most milliseconds one trial may take (at least 1).
    pub max_latency_ms: u64,
    /// Trials of a `fixed_hoeffding_v1` run (2 to 1,000,000); null for
    /// `anytime_v1`. Required even when null.
    #[serde(deserialize_with = "Option::deserialize")]
    #[schema(required = true)]
    pub qualification_trials: Option<u64>,
    /// The most trials any run may take (2 to 1,000,000); at the cap an
    /// undecided anytime candidate is rejected (`trial_budget_exhausted`).
    pub max_trials: u64,
    /// How a selected candidate is watched.
    pub monitoring: PolicyMonitoring,
    /// What the evaluation measures.
    #[schema(min_length = 1, max_length = 512)]
    pub evaluation_contract: String,
}

/// A learning policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LearningPolicy {
    /// Tenant-wide id.
    #[schema(min_length = 1, max_length = 512)]
    pub id: String,
    /// How candidates are qualified.
    pub algorithm: LearningAlgorithm,
    /// Its parameters.
    pub parameters: PolicyParameters,
}

/// `POST /api/v1/learning/policies`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterPolicyRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The policy.
    pub policy: LearningPolicy,
}

/// A registered policy: the policy as sent, its digest, who registered it
/// first and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RegisteredPolicy {
    /// Tenant-wide id.
    pub id: String,
    /// How candidates are qualified.
    pub algorithm: LearningAlgorithm,
    /// Its parameters.
    pub parameters: PolicyParameters,
    /// Hex SHA-256 of the policy's canonical JSON.
    pub digest: String,
    /// The subject that registered it first.
    pub registered_by: String,
    /// RFC 3339 time of the first registration.
    #[schema(format = DateTime)]
    pub recorded_at: String,
}

/// Answer to registering or reading a policy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LearningPolicyResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The registered policy.
    pub policy: RegisteredPolicy,
}

/// An evaluation context: everything a result depends on, pinned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluationContext {
    /// Tenant-wide id.
    #[schema(min_length = 1, max_length = 512)]
    pub id: String,
    /// The task evaluated.
    #[schema(min_length = 1, max_length = 512)]
    pub task: String,
    /// The baseline compared with.
    #[schema(min_length = 1, max_length = 512)]
    pub baseline_revision: String,
    /// Who serves the model.
    #[schema(min_length = 1, max_length = 512)]
    pub model_provider: String,
    /// The model's revision.
    #[schema(min_length = 1, max_length = 512)]
    pub model_revision: String,
    /// Each tool's revision by tool name; at most 128 tools.
    pub tools: BTreeMap<String, String>,
    /// The environment's revision.
    #[schema(min_length = 1, max_length = 512)]
    pub environment_revision: String,
    /// What the evaluation measures.
    #[schema(min_length = 1, max_length = 512)]
    pub evaluation_contract: String,
    /// The dataset's revision.
    #[schema(min_length = 1, max_length = 512)]
    pub dataset_revision: String,
    /// The harness's revision.
    #[schema(min_length = 1, max_length = 512)]
    pub harness_revision: String,
    /// The permissions' revision.
    #[schema(min_length = 1, max_length = 512)]
    pub permissions_revision: String,
}

/// `POST /api/v1/learning/contexts`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterContextRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The context.
    pub context: EvaluationContext,
}

/// A registered context: the context as sent, its digest, who registered
/// it first and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RegisteredContext {
    /// Tenant-wide id.
    pub id: String,
    /// The task evaluated.
    pub task: String,
    /// The baseline compared with.
    pub baseline_revision: String,
    /// Who serves the model.
    pub model_provider: String,
    /// The model's revision.
    pub model_revision: String,
    /// Each tool's revision by tool name.
    pub tools: BTreeMap<String, String>,
    /// The environment's revision.
    pub environment_revision: String,
    /// What the evaluation measures.
    pub evaluation_contract: String,
    /// The dataset's revision.
    pub dataset_revision: String,
    /// The harness's revision.
    pub harness_revision: String,
    /// The permissions' revision.
    pub permissions_revision: String,
    /// Hex SHA-256 of the context's canonical JSON.
    pub digest: String,
    /// The subject that registered it first.
    pub registered_by: String,
    /// RFC 3339 time of the first registration.
    #[schema(format = DateTime)]
    pub recorded_at: String,
}

/// Answer to registering or reading a context.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LearningContextResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The registered context.
    pub context: RegisteredContext,
}

/// External content: where it is and its plain SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContentReference {
    /// Where the content is (a URI or any label).
    #[schema(min_length = 1, max_length = 512)]
    pub reference: String,
    /// 64 lowercase hex digits.
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub sha256: String,
}

/// An observation named by its ids.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ObservationKey {
    /// The attempt.
    #[schema(min_length = 1, max_length = 512)]
    pub attempt_id: String,
    /// The event.
    #[schema(min_length = 1, max_length = 512)]
    pub event_id: String,
}

/// An observation pinned by its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PinnedObservation {
    /// The attempt.
    #[schema(min_length = 1, max_length = 512)]
    pub attempt_id: String,
    /// The event.
    #[schema(min_length = 1, max_length = 512)]
    pub event_id: String,
    /// The event's digest.
    #[schema(pattern = "^[0-9a-f]{64}$")]
    pub event_digest: String,
}

/// An attempt as the caller records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewExperience {
    /// The attempt's id within its scope.
    #[schema(min_length = 1, max_length = 512)]
    pub id: String,
    /// A registered context.
    #[schema(min_length = 1, max_length = 512)]
    pub context_id: String,
    /// The only subject who may report on it; in a private scope, the caller.
    #[schema(min_length = 1, max_length = 512)]
    pub reporter_subject: String,
    /// What `cost_units` count (for example `tokens`).
    #[schema(min_length = 1, max_length = 512)]
    pub accounting_unit: String,
    /// The input it ran on.
    pub input: ContentReference,
    /// The observation it corrects or continues, in the same scope; null for none.
    #[serde(default)]
    pub parent: Option<ObservationKey>,
}

/// `POST /api/v1/experiences`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordExperienceRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The attempt.
    pub experience: NewExperience,
}

/// What an experience event says happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExperienceOutcome {
    /// Not known (yet); never the same as failed. May move to any outcome.
    Unknown,
    /// Succeeded (terminal).
    Succeeded,
    /// Failed (terminal).
    Failed,
    /// Cancelled (terminal).
    Cancelled,
}

/// Who wrote a ledger event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Actor {
    /// The credential.
    pub credential_id: String,
    /// Its subject.
    pub subject: String,
}

/// A recorded attempt and its state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Experience {
    /// The attempt's id.
    pub id: String,
    /// Its context.
    pub context_id: String,
    /// The context's digest, bound when recorded.
    pub context_digest: String,
    /// The only subject who may report on it.
    pub reporter_subject: String,
    /// What `cost_units` count.
    pub accounting_unit: String,
    /// The input it ran on.
    pub input: ContentReference,
    /// The parent observation with the digest bound when recorded.
    #[schema(required = true)]
    pub parent: Option<PinnedObservation>,
    /// Digest of the recorded attempt.
    pub attempt_digest: String,
    /// Attempts on its parent chain, itself included (at most 64).
    pub depth: u64,
    /// 1 when recorded, one more per accepted event.
    pub revision: u64,
    /// The latest outcome; null before the first event.
    #[schema(required = true)]
    pub outcome: Option<ExperienceOutcome>,
    /// The latest reported cost units; null when unknown.
    #[schema(required = true)]
    pub reported_cost_units: Option<u64>,
    /// The latest reported latency; null when unknown.
    #[schema(required = true)]
    pub reported_latency_ms: Option<u64>,
    /// The greatest cost units ever known: a lower bound.
    #[schema(required = true)]
    pub observed_cost_units: Option<u64>,
    /// The greatest latency ever known: a lower bound.
    #[schema(required = true)]
    pub observed_latency_ms: Option<u64>,
    /// The latest accepted event's digest; null before the first.
    #[schema(required = true)]
    pub last_event_digest: Option<String>,
    /// Who recorded it.
    pub actor: Actor,
    /// RFC 3339 time it was recorded.
    #[schema(format = DateTime)]
    pub recorded_at: String,
    /// Digest of the recording's sealed ledger event.
    pub receipt_digest: String,
}

/// Answer to recording or reading an experience.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The experience.
    pub experience: Experience,
}

/// An event as the reporter sends it. Consumption is cumulative for the
/// attempt; null (or absent) means unknown, never zero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewExperienceEvent {
    /// The event's id within its attempt.
    #[schema(min_length = 1, max_length = 512)]
    pub event_id: String,
    /// The revision the reporter saw.
    pub expected_revision: u64,
    /// What happened.
    pub outcome: ExperienceOutcome,
    /// Evidence of it.
    #[serde(default)]
    pub evidence: Option<ContentReference>,
    /// Cost units so far; null when unknown.
    #[serde(default)]
    pub cost_units: Option<u64>,
    /// Milliseconds so far; null when unknown.
    #[serde(default)]
    pub latency_ms: Option<u64>,
}

/// `POST /api/v1/experiences/events`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportEventRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The attempt reported on.
    #[schema(min_length = 1, max_length = 512)]
    pub attempt_id: String,
    /// The event.
    pub event: NewExperienceEvent,
}

/// An accepted event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceEvent {
    /// The attempt.
    pub attempt_id: String,
    /// The event's id.
    pub event_id: String,
    /// The revision the reporter saw.
    pub expected_revision: u64,
    /// What happened.
    pub outcome: ExperienceOutcome,
    /// Evidence of it.
    #[schema(required = true)]
    pub evidence: Option<ContentReference>,
    /// Cost units reported; null when unknown.
    #[schema(required = true)]
    pub cost_units: Option<u64>,
    /// Latency reported; null when unknown.
    #[schema(required = true)]
    pub latency_ms: Option<u64>,
    /// The revision this event produced.
    pub revision: u64,
    /// The previous accepted event's digest; null for the first.
    #[schema(required = true)]
    pub previous_event_digest: Option<String>,
    /// The greatest cost units known after this event.
    #[schema(required = true)]
    pub observed_cost_units: Option<u64>,
    /// The greatest latency known after this event.
    #[schema(required = true)]
    pub observed_latency_ms: Option<u64>,
    /// Digest of the event, chained to the attempt and every earlier event.
    pub event_digest: String,
    /// Who reported it.
    pub actor: Actor,
    /// RFC 3339 time it was recorded.
    #[schema(format = DateTime)]
    pub recorded_at: String,
    /// Digest of its sealed ledger event.
    pub receipt_digest: String,
}

/// Answer to reporting an event: the event and the experience right after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ReportEventResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The event.
    pub event: ExperienceEvent,
    /// The experience right after it.
    pub experience: Experience,
}

/// `POST /api/v1/experiences/read` and `/api/v1/experiences/lineage`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadExperienceRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The attempt.
    #[schema(min_length = 1, max_length = 512)]
    pub attempt_id: String,
}

/// `POST /api/v1/experiences/events/read`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadEventRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The attempt.
    #[schema(min_length = 1, max_length = 512)]
    pub attempt_id: String,
    /// The event.
    #[schema(min_length = 1, max_length = 512)]
    pub event_id: String,
}

/// Answer to reading an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EventReadResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The event.
    pub event: ExperienceEvent,
    /// Its withdrawal, if it is withdrawn.
    #[schema(required = true)]
    pub withdrawal: Option<WithdrawalReceipt>,
}

/// `POST /api/v1/experiences/history`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExperienceHistoryRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The attempt.
    #[schema(min_length = 1, max_length = 512)]
    pub attempt_id: String,
    /// `next_cursor` of the previous page; null or absent for the first.
    #[serde(default)]
    pub after: Option<String>,
    /// Page size, 1 to 500 (default 100).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
}

/// One page of an attempt's events, in revision order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceHistoryResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The events.
    pub events: Vec<ExperienceEvent>,
    /// Pass as `after` for the next page; null at the end.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}

/// Answer to a lineage read: the attempt first, its root last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct LineageResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The chain.
    pub lineage: Vec<Experience>,
}

/// `POST /api/v1/experiences/export`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportExperiencesRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// 1 to 64 observations, at most one per attempt.
    #[schema(min_items = 1, max_items = 64)]
    pub events: Vec<ObservationKey>,
}

/// One exported observation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExportedEvent {
    /// The attempt.
    pub attempt_id: String,
    /// The event.
    pub event_id: String,
    /// The event's digest, which pins every value below.
    pub event_digest: String,
    /// The revision the event produced.
    pub revision: u64,
    /// The attempt's context digest.
    pub context_digest: String,
    /// What cost units count.
    pub accounting_unit: String,
    /// The outcome reported.
    pub outcome: ExperienceOutcome,
    /// Cost units reported; null when unknown.
    #[schema(required = true)]
    pub cost_units: Option<u64>,
    /// Latency reported; null when unknown.
    #[schema(required = true)]
    pub latency_ms: Option<u64>,
    /// Greatest cost units known as of the event.
    #[schema(required = true)]
    pub observed_cost_units: Option<u64>,
    /// Greatest latency known as of the event.
    #[schema(required = true)]
    pub observed_latency_ms: Option<u64>,
}

/// The totals of one consumption field, in decimal strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ConsumptionTotals {
    /// Observations whose report knew the value.
    pub known_reports: u64,
    /// Observations whose report did not.
    pub unknown_reports: u64,
    /// Sum of the reported values; null when any is unknown.
    #[schema(required = true, pattern = "^[0-9]+$")]
    pub reported_total: Option<String>,
    /// Sum of the greatest known values (unknown counts 0): a lower bound.
    #[schema(pattern = "^[0-9]+$")]
    pub observed_lower_bound: String,
}

/// What an export's observations add up to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExportSummary {
    /// Observations.
    pub attempts: u64,
    /// Observations that succeeded.
    pub succeeded: u64,
    /// Observations that failed.
    pub failed: u64,
    /// Observations that were cancelled.
    pub cancelled: u64,
    /// Observations whose outcome is unknown.
    pub unknown: u64,
    /// Cost units.
    pub cost_units: ConsumptionTotals,
    /// Latency.
    pub latency_ms: ConsumptionTotals,
}

/// An export: sorted observations, their summary and its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ExperienceExport {
    /// `praxis.experience-export.v1`.
    pub method_version: String,
    /// The observations, sorted by attempt id.
    pub events: Vec<ExportedEvent>,
    /// Their summary.
    pub summary: ExportSummary,
    /// Digest of the three members above.
    pub export_digest: String,
}

/// `POST /api/v1/experiences/withdrawals`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WithdrawObservationRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// A retry under the same key returns the original receipt.
    #[schema(min_length = 1, max_length = 512)]
    pub idempotency_key: String,
    /// The observation, pinned by its current digest.
    pub observation: PinnedObservation,
    /// Why; screened like record text.
    #[schema(min_length = 1)]
    pub reason: String,
}

/// A withdrawal's receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WithdrawalReceipt {
    /// The key it was made under.
    pub idempotency_key: String,
    /// The observation withdrawn.
    pub observation: PinnedObservation,
    /// Why.
    pub reason: String,
    /// Digest of the withdrawal.
    pub withdrawal_digest: String,
    /// Who withdrew it.
    pub actor: Actor,
    /// RFC 3339 time it was recorded.
    #[schema(format = DateTime)]
    pub recorded_at: String,
    /// Digest of its sealed ledger event.
    pub receipt_digest: String,
}

/// Answer to a withdrawal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct WithdrawalResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The receipt (the original one on a retry).
    pub withdrawal: WithdrawalReceipt,
}

/// `POST /api/v1/experiences/withdrawals/inspect`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InspectWithdrawalRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The observation.
    pub observation: ObservationKey,
}

/// Whether an observation is withdrawn, and by which receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct InspectWithdrawalResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Whether it is withdrawn.
    pub withdrawn: bool,
    /// The withdrawal, if any.
    #[schema(required = true)]
    pub withdrawal: Option<WithdrawalReceipt>,
}
