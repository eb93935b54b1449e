//! Conversions between procedures' wire types and their domain types,
//! field by field.

use praxis_api as api;
use praxis_domain::DomainError;
use praxis_domain::digest::Digest;
use praxis_domain::learning::{
    Decision, Evaluation, EvaluationStatus, Extractor, ObservationRef, Origin, Phase,
    ProcedureState, ProcedureSummary, Proposal, ProposalReceipt, ProposalRequest, Selection,
    StrategyReceipt, StrategyRequest,
};
use serde::Serialize;

use super::learning::{actor_to_wire, summary_to_wire};

/// A unit enum's wire word (its serde name).
fn word<T: Serialize>(value: T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

fn digest_at(path: String, hex: &str) -> Result<Digest, DomainError> {
    hex.parse()
        .map_err(|_| DomainError::invalid(path, "must be 64 lowercase hex digits"))
}

/// A strategy as the domain takes it; a digest that is not 64 lowercase
/// hex digits is 422 at its pointer.
pub(crate) fn strategy_from_wire(s: api::NewStrategy) -> Result<StrategyRequest, DomainError> {
    let at = "/strategy/selection";
    let context_digest = digest_at(format!("{at}/context_digest"), &s.selection.context_digest)?;
    let events = s
        .selection
        .events
        .into_iter()
        .enumerate()
        .map(|(i, o)| {
            Ok(ObservationRef {
                event_digest: digest_at(format!("{at}/events/{i}/event_digest"), &o.event_digest)?,
                attempt_id: o.attempt_id,
                event_id: o.event_id,
            })
        })
        .collect::<Result<Vec<_>, DomainError>>()?;
    let x = s.extractor;
    Ok(StrategyRequest {
        id: s.id,
        policy_id: s.policy_id,
        context_id: s.context_id,
        instructions: s.instructions,
        preconditions: s.preconditions,
        counterexamples: s.counterexamples,
        extractor: Extractor {
            provider: x.provider,
            model: x.model,
            model_revision: x.model_revision,
            prompt_revision: x.prompt_revision,
            evidence_ref: x.evidence_ref,
        },
        selection: Selection {
            context_digest,
            accounting_unit: s.selection.accounting_unit,
            events,
        },
    })
}

fn observation_to_wire(o: &ObservationRef) -> api::PinnedObservation {
    api::PinnedObservation {
        attempt_id: o.attempt_id.clone(),
        event_id: o.event_id.clone(),
        event_digest: o.event_digest.to_hex(),
    }
}

fn strategy_to_wire(s: &StrategyRequest) -> api::NewStrategy {
    let x = &s.extractor;
    api::NewStrategy {
        id: s.id.clone(),
        policy_id: s.policy_id.clone(),
        context_id: s.context_id.clone(),
        instructions: s.instructions.clone(),
        preconditions: s.preconditions.clone(),
        counterexamples: s.counterexamples.clone(),
        extractor: api::StrategyExtractor {
            provider: x.provider.clone(),
            model: x.model.clone(),
            model_revision: x.model_revision.clone(),
            prompt_revision: x.prompt_revision.clone(),
            evidence_ref: x.evidence_ref.clone(),
        },
        selection: api::StrategySelection {
            context_digest: s.selection.context_digest.to_hex(),
            accounting_unit: s.selection.accounting_unit.clone(),
            events: s.selection.events.iter().map(observation_to_wire).collect(),
        },
    }
}

/// A withdrawn observation on the wire.
pub(crate) fn observations_to_wire(os: &[ObservationRef]) -> Vec<api::PinnedObservation> {
    os.iter().map(observation_to_wire).collect()
}

/// A procedure state on the wire.
pub(crate) fn state_to_wire(s: ProcedureState) -> api::ProcedureState {
    match s {
        ProcedureState::Candidate => api::ProcedureState::Candidate,
        ProcedureState::Qualified => api::ProcedureState::Qualified,
        ProcedureState::Rejected => api::ProcedureState::Rejected,
        ProcedureState::Suspended => api::ProcedureState::Suspended,
    }
}

fn proposal_to_wire(p: &Proposal) -> api::ProcedureProposal {
    api::ProcedureProposal {
        id: p.id.clone(),
        origin: match p.origin {
            Origin::Proposal => api::ProcedureOrigin::Proposal,
            Origin::Strategy => api::ProcedureOrigin::Strategy,
        },
        policy_id: p.policy_id.clone(),
        context_id: p.context_id.clone(),
        instructions: p.instructions.clone(),
        source_refs: p.source_refs.clone(),
        supersedes: p.supersedes.clone(),
    }
}

/// A procedure's registration receipt on the wire.
pub(crate) fn receipt_to_wire(r: &ProposalReceipt) -> api::ProposalReceipt {
    api::ProposalReceipt {
        proposal: proposal_to_wire(&r.proposal),
        proposal_digest: r.proposal_digest.to_hex(),
        state: state_to_wire(r.state),
        candidate_index: r.candidate_index,
        actor: actor_to_wire(&r.actor),
        recorded_at: r.recorded_at.to_string(),
    }
}

/// A strategy's receipt on the wire.
pub(crate) fn strategy_receipt_to_wire(r: &StrategyReceipt) -> api::StrategyReceipt {
    api::StrategyReceipt {
        method_version: r.method_version.clone(),
        request: strategy_to_wire(&r.request),
        export_digest: r.export_digest.to_hex(),
        summary: summary_to_wire(&r.summary),
        proposal: receipt_to_wire(&r.proposal),
        strategy_digest: r.strategy_digest.to_hex(),
    }
}

/// An ordinary proposal as the domain takes it.
pub(crate) fn proposal_from_wire(p: api::NewProposal) -> ProposalRequest {
    ProposalRequest {
        id: p.id,
        policy_id: p.policy_id,
        context_id: p.context_id,
        instructions: p.instructions,
        source_refs: p.source_refs,
        supersedes: p.supersedes,
    }
}

/// An evaluation as the domain takes it.
pub(crate) fn evaluation_from_wire(e: api::NewEvaluation) -> Evaluation {
    Evaluation {
        case_id: e.case_id,
        phase: match e.phase {
            api::EvaluationPhase::Qualification => Phase::Qualification,
            api::EvaluationPhase::Monitoring => Phase::Monitoring,
        },
        policy_id: e.policy_id,
        context_id: e.context_id,
        baseline_revision: e.baseline_revision,
        evidence_ref: e.evidence_ref,
        status: match e.status {
            api::EvaluationStatus::Complete => EvaluationStatus::Complete,
            api::EvaluationStatus::Rejected => EvaluationStatus::Rejected,
            api::EvaluationStatus::Incomplete => EvaluationStatus::Incomplete,
            api::EvaluationStatus::Cancelled => EvaluationStatus::Cancelled,
            api::EvaluationStatus::PendingOrUnknown => EvaluationStatus::PendingOrUnknown,
        },
        baseline_utility: e.baseline_utility,
        candidate_utility: e.candidate_utility,
        cost_units: e.cost_units,
        latency_ms: e.latency_ms,
    }
}

fn decision_to_wire(d: &Decision) -> api::ProcedureDecision {
    api::ProcedureDecision {
        from: state_to_wire(d.from),
        to: state_to_wire(d.to),
        rule: word(d.rule),
        reason: word(d.reason),
        case_id: d.case_id.clone(),
        trial: d.trial,
    }
}

/// A procedure's standing on the wire.
pub(crate) fn standing_to_wire(s: &ProcedureSummary) -> api::ProcedureStanding {
    api::ProcedureStanding {
        id: s.id.clone(),
        state: state_to_wire(s.state),
        trials: s.trials,
        mean_difference: s.mean_difference,
        mean_candidate_utility: s.mean_candidate_utility,
        budget_violations: s.budget_violations,
        lower_bound: s.lower_bound,
        upper_bound: s.upper_bound,
        delta: s.delta,
        candidate_index: s.candidate_index,
        monitoring_trials: s.monitoring_trials,
        decisions: s.decisions.iter().map(decision_to_wire).collect(),
    }
}

/// An evaluation's receipt on the wire.
pub(crate) fn evaluation_receipt_to_wire(
    r: &praxis_domain::learning::EvaluationReceipt,
) -> api::EvaluationReceipt {
    api::EvaluationReceipt {
        outcome: word(r.outcome),
        reason: word(r.reason),
        procedure: standing_to_wire(&r.procedure),
    }
}
