//! Example requests of procedures: a strategy is created from the example
//! observation, read and inspected, an ordinary proposal is registered, the
//! strategy is evaluated on one held-out case, read, and selection asked.

use super::learning::{ATTEMPT, CONTEXT, EVENT, EVENT_DIGEST, POLICY};
use super::scope;
use crate::{
    CONTRACT_VERSION, CreateStrategyRequest, EvaluationPhase, EvaluationStatus, NewEvaluation,
    NewProposal, NewStrategy, PinnedObservation, ProposeRequest, ReadProcedureRequest,
    ReadStrategyRequest, SelectRequest, StrategyExtractor, StrategySelection,
    SubmitEvaluationRequest,
};

/// The example strategy's id.
pub const STRATEGY: &str = "receipt-recovery-v1";
/// The example ordinary proposal's id.
pub const PROPOSAL: &str = "retry-with-receipt-v1";
/// The subject the example policy names as its evaluator.
pub const EVALUATOR: &str = "grader";
/// The digest of the example context once registered (plain SHA-256 of its
/// canonical JSON), fixed by its content; the live-server example test
/// fails if it goes stale.
pub const CONTEXT_DIGEST: &str = "12198d1f921174ac0853530d64dc49fe1fe5b4ff00f34b20f6b965e34f858c13";

/// `POST /api/v1/learning/strategies`: the seed's strategy, bound to the
/// example observation.
pub fn create_strategy() -> CreateStrategyRequest {
    CreateStrategyRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        strategy: NewStrategy {
            id: STRATEGY.into(),
            policy_id: POLICY.into(),
            context_id: CONTEXT.into(),
            instructions: "Read the operation receipt before deciding whether to retry.".into(),
            preconditions: vec!["The operation provides a durable receipt lookup.".into()],
            counterexamples: vec![
                "A timeout alone does not establish that the operation failed.".into(),
            ],
            extractor: StrategyExtractor {
                provider: "external-provider".into(),
                model: "external-extractor".into(),
                model_revision: "model-v1".into(),
                prompt_revision: "extraction-v1".into(),
                evidence_ref: "trace://development/receipt-recovery".into(),
            },
            selection: StrategySelection {
                context_digest: CONTEXT_DIGEST.into(),
                accounting_unit: "tokens".into(),
                events: vec![PinnedObservation {
                    attempt_id: ATTEMPT.into(),
                    event_id: EVENT.into(),
                    event_digest: EVENT_DIGEST.into(),
                }],
            },
        },
    }
}

/// `POST /api/v1/learning/strategies/read` and `…/inspect`.
pub fn read_strategy() -> ReadStrategyRequest {
    ReadStrategyRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        strategy_id: STRATEGY.into(),
    }
}

/// `POST /api/v1/learning/proposals`: an ordinary proposal.
pub fn propose() -> ProposeRequest {
    ProposeRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        proposal: NewProposal {
            id: PROPOSAL.into(),
            policy_id: POLICY.into(),
            context_id: CONTEXT.into(),
            instructions: "Before a retry, look the operation up by its receipt id.".into(),
            source_refs: vec!["runbook://payments/retries#receipts".into()],
            supersedes: None,
        },
    }
}

/// `POST /api/v1/learning/evaluations`: one held-out case of the strategy,
/// submitted by the policy's evaluator.
pub fn evaluate() -> SubmitEvaluationRequest {
    SubmitEvaluationRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        procedure_id: STRATEGY.into(),
        evaluation: NewEvaluation {
            case_id: "held-out-001".into(),
            phase: EvaluationPhase::Qualification,
            policy_id: POLICY.into(),
            context_id: CONTEXT.into(),
            baseline_revision: "baseline-2026-11".into(),
            evidence_ref: "eval://held-out/001".into(),
            status: EvaluationStatus::Complete,
            baseline_utility: Some(0.4),
            candidate_utility: Some(0.8),
            cost_units: Some(950),
            latency_ms: Some(4_200),
        },
    }
}

/// `POST /api/v1/learning/procedures/read`.
pub fn read_procedure() -> ReadProcedureRequest {
    ReadProcedureRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        procedure_id: STRATEGY.into(),
    }
}

/// `POST /api/v1/learning/select`.
pub fn select() -> SelectRequest {
    SelectRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        policy_id: POLICY.into(),
        context_id: CONTEXT.into(),
        max_instruction_bytes: 4_096,
    }
}
