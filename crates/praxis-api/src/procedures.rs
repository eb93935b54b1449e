//! Wire types of procedures: ordinary proposals, strategies bound to exact
//! development observations, held-out evaluations, procedure reads and
//! selection.
//!
//! Utilities are in [0, 1]; bounds on a mean paired difference in [−1, 1];
//! digests are 64 lowercase hex digits.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{Actor, ExportSummary, PinnedObservation, Scope};

/// Who extracted a strategy's instructions, and from what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategyExtractor {
    /// The extraction's provider.
    pub provider: String,
    /// Its model.
    pub model: String,
    /// The model's revision.
    pub model_revision: String,
    /// The prompt's revision.
    pub prompt_revision: String,
    /// Where the extraction's own evidence lives.
    pub evidence_ref: String,
}

/// The observations a strategy was derived from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StrategySelection {
    /// The registered context's digest, which every observation's attempt carries.
    pub context_digest: String,
    /// The accounting unit every observation's attempt uses.
    pub accounting_unit: String,
    /// 1 to 16 observations, at most one per attempt; their order is part
    /// of the request's identity.
    #[schema(min_items = 1, max_items = 16)]
    pub events: Vec<PinnedObservation>,
}

/// A strategy as sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewStrategy {
    /// The strategy's id, also its procedure's.
    pub id: String,
    /// The policy that will judge it.
    pub policy_id: String,
    /// The context it is for.
    pub context_id: String,
    /// The instructions, at most 16 KiB.
    pub instructions: String,
    /// When they apply: 1 to 16, each at most 1 KiB.
    #[schema(min_items = 1, max_items = 16)]
    pub preconditions: Vec<String>,
    /// Where they do not: 0 to 16, each at most 1 KiB.
    #[schema(max_items = 16)]
    pub counterexamples: Vec<String>,
    /// Who extracted them.
    pub extractor: StrategyExtractor,
    /// From which observations.
    pub selection: StrategySelection,
}

/// `POST /api/v1/learning/strategies`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateStrategyRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The strategy.
    pub strategy: NewStrategy,
}

/// How a procedure came to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProcedureOrigin {
    /// An ordinary proposal.
    Proposal,
    /// A strategy.
    Strategy,
}

/// Where a procedure stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProcedureState {
    /// Being qualified.
    Candidate,
    /// Qualified and watched for drift.
    Qualified,
    /// Not qualified, for good.
    Rejected,
    /// Suspended by the drift rule, for good.
    Suspended,
}

/// A procedure as registered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProcedureProposal {
    /// Its id.
    pub id: String,
    /// How it came to be.
    pub origin: ProcedureOrigin,
    /// Its policy.
    pub policy_id: String,
    /// Its context.
    pub context_id: String,
    /// The exact instruction bytes evaluated and selected (for a strategy,
    /// the `praxis.strategy-instructions.v1` document).
    pub instructions: String,
    /// Its development sources.
    pub source_refs: Vec<String>,
    /// The procedure it revises, if any.
    pub supersedes: Option<String>,
}

/// A registered procedure's receipt, in its initial `candidate` state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProposalReceipt {
    /// The procedure.
    pub proposal: ProcedureProposal,
    /// Its digest.
    pub proposal_digest: String,
    /// `candidate`.
    pub state: ProcedureState,
    /// Its ordinal among its (policy, context)'s procedures in the
    /// namespace, which fixes its share of δ.
    pub candidate_index: u64,
    /// Who registered it.
    pub actor: Actor,
    /// When (RFC 3339).
    pub recorded_at: String,
}

/// A strategy's receipt, answered byte for byte on every identical retry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StrategyReceipt {
    /// `praxis.experience-strategy.v1`.
    pub method_version: String,
    /// The request as sent.
    pub request: NewStrategy,
    /// The export digest of the bound observations.
    pub export_digest: String,
    /// Their summary.
    pub summary: ExportSummary,
    /// The candidate procedure's receipt.
    pub proposal: ProposalReceipt,
    /// Digest of the members above.
    pub strategy_digest: String,
}

/// A strategy's receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StrategyResponse {
    /// 1.
    pub contract_version: u32,
    /// The receipt.
    pub receipt: StrategyReceipt,
}

/// `POST /api/v1/learning/strategies/read` and `…/inspect`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadStrategyRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The strategy.
    pub strategy_id: String,
}

/// Why a strategy is or is not eligible for selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EligibilityReason {
    /// Qualified, evidence intact.
    Eligible,
    /// Still a candidate.
    NotQualified,
    /// An observation it is bound to was withdrawn.
    EvidenceWithdrawn,
    /// Suspended by monitoring.
    Suspended,
    /// Rejected by qualification.
    Rejected,
}

/// A strategy's present eligibility.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct StrategyInspection {
    /// 1.
    pub contract_version: u32,
    /// The strategy.
    pub strategy_id: String,
    /// Its procedure's state.
    pub state: ProcedureState,
    /// Whether selection may return it.
    pub eligible: bool,
    /// Why.
    pub reason: EligibilityReason,
    /// The bound observations withdrawn since it was created.
    pub withdrawn_observations: Vec<PinnedObservation>,
}

/// An ordinary proposal as sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewProposal {
    /// The procedure's id.
    pub id: String,
    /// Its policy.
    pub policy_id: String,
    /// Its context.
    pub context_id: String,
    /// The guidance, at most 16 KiB.
    pub instructions: String,
    /// 1 to 128 development sources.
    #[schema(min_items = 1, max_items = 128)]
    pub source_refs: Vec<String>,
    /// A rejected or suspended procedure it revises.
    #[serde(default)]
    pub supersedes: Option<String>,
}

/// `POST /api/v1/learning/proposals`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProposeRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The proposal.
    pub proposal: NewProposal,
}

/// A proposal's receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProposalResponse {
    /// 1.
    pub contract_version: u32,
    /// The receipt.
    pub proposal: ProposalReceipt,
}

/// A case's phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvaluationPhase {
    /// Decides qualification.
    Qualification,
    /// Watches a qualified procedure.
    Monitoring,
}

/// What the evaluator says became of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvaluationStatus {
    /// Ran and graded.
    Complete,
    /// Refused by the evaluator.
    Rejected,
    /// Did not finish.
    Incomplete,
    /// Cancelled.
    Cancelled,
    /// Unknown.
    PendingOrUnknown,
}

/// One evaluated case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEvaluation {
    /// Used once per procedure.
    pub case_id: String,
    /// Its phase.
    pub phase: EvaluationPhase,
    /// The policy it ran under.
    pub policy_id: String,
    /// The context it ran in.
    pub context_id: String,
    /// The baseline it was paired with.
    pub baseline_revision: String,
    /// Used once per procedure, and never a development source.
    pub evidence_ref: String,
    /// What became of it.
    pub status: EvaluationStatus,
    /// In [0, 1]; null when unknown.
    #[serde(default)]
    pub baseline_utility: Option<f64>,
    /// In [0, 1]; null when unknown.
    #[serde(default)]
    pub candidate_utility: Option<f64>,
    /// Null when unknown (never 0).
    #[serde(default)]
    pub cost_units: Option<u64>,
    /// Null when unknown.
    #[serde(default)]
    pub latency_ms: Option<u64>,
}

/// `POST /api/v1/learning/evaluations`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubmitEvaluationRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The procedure evaluated.
    pub procedure_id: String,
    /// The case.
    pub evaluation: NewEvaluation,
}

/// One transition of a procedure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ProcedureDecision {
    /// The state left.
    pub from: ProcedureState,
    /// The state entered.
    pub to: ProcedureState,
    /// `fixed_hoeffding_v1`, `anytime_v1` or `anytime_drift_v1`.
    pub rule: String,
    /// `qualified`, `improvement_not_shown`, `candidate_utility_below_minimum`,
    /// `budget_exceeded`, `trial_budget_exhausted` or `drift_detected`.
    pub reason: String,
    /// The case that triggered it.
    pub case_id: String,
    /// Trials counted when it was decided.
    pub trial: u64,
}

/// A procedure's statistics and state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProcedureStanding {
    /// The procedure.
    pub id: String,
    /// Where it stands.
    pub state: ProcedureState,
    /// Accepted qualification trials.
    pub trials: u64,
    /// Mean paired difference over them.
    pub mean_difference: Option<f64>,
    /// Mean candidate utility over them.
    pub mean_candidate_utility: Option<f64>,
    /// Trials that broke the budget.
    pub budget_violations: u64,
    /// Current lower bound on the mean paired difference.
    pub lower_bound: f64,
    /// Current upper bound.
    pub upper_bound: f64,
    /// The share of δ its qualification spends.
    pub delta: f64,
    /// Its ordinal among its (policy, context)'s procedures.
    pub candidate_index: u64,
    /// Accepted monitoring trials.
    pub monitoring_trials: u64,
    /// Every transition.
    pub decisions: Vec<ProcedureDecision>,
}

/// An evaluation's receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EvaluationReceipt {
    /// `accepted`, `rejected`, `incomplete`, `cancelled`,
    /// `pending_or_unknown` or `unknown_consumption`.
    pub outcome: String,
    /// The stable reason.
    pub reason: String,
    /// The procedure right after.
    pub procedure: ProcedureStanding,
}

/// An evaluation's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EvaluationResponse {
    /// 1.
    pub contract_version: u32,
    /// The receipt.
    pub receipt: EvaluationReceipt,
}

/// `POST /api/v1/learning/procedures/read`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadProcedureRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The procedure.
    pub procedure_id: String,
}

/// A procedure, re-verified.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct ProcedureResponse {
    /// 1.
    pub contract_version: u32,
    /// Its registration's receipt.
    pub proposal: ProposalReceipt,
    /// Its statistics and state now.
    pub procedure: ProcedureStanding,
    /// Whether an observation it is bound to was withdrawn.
    pub evidence_withdrawn: bool,
    /// Submissions so far, whatever their outcome.
    pub evaluations: u64,
}

/// `POST /api/v1/learning/select`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// The exact scope.
    pub scope: Scope,
    /// The policy.
    pub policy_id: String,
    /// The context.
    pub context_id: String,
    /// The most instruction bytes the caller can use.
    pub max_instruction_bytes: u64,
}

/// Selection's answer: a qualified procedure, or the context's baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SelectResponse {
    /// A qualified procedure.
    Procedure {
        /// 1.
        contract_version: u32,
        /// The procedure.
        procedure_id: String,
        /// Its exact instruction bytes.
        instructions: String,
        /// Its digest.
        proposal_digest: String,
        /// Its lower bound at qualification, which ranked it.
        lower_bound: f64,
    },
    /// The context's baseline: no qualified compatible procedure.
    Baseline {
        /// 1.
        contract_version: u32,
        /// The baseline to run.
        baseline_revision: String,
        /// `no_qualified_compatible_procedure`.
        reason: String,
    },
}
