//! Conversions between the learning authority's wire types and its domain
//! and storage types, field by field.

use praxis_api as api;
use praxis_domain::DomainError;
use praxis_domain::digest::Digest;
use praxis_domain::learning::{
    Algorithm, AttemptRequest, BoundParent, ContentRef, Context, EventReport, ExperienceOutcome,
    Export, Monitoring, MonitoringRule, ObservationRef, Parameters, ParentRef, Policy, Summary,
    Totals, Withdrawal,
};
use praxis_domain::ledger::Actor;
use praxis_store::learning::{Entry, Experience, StoredEvent, StoredWithdrawal};

pub(crate) fn actor_to_wire(a: &Actor) -> api::Actor {
    api::Actor {
        credential_id: a.credential_id.clone(),
        subject: a.subject.clone(),
    }
}

fn algorithm_from_wire(a: api::LearningAlgorithm) -> Algorithm {
    match a {
        api::LearningAlgorithm::FixedHoeffdingV1 => Algorithm::FixedHoeffdingV1,
        api::LearningAlgorithm::AnytimeV1 => Algorithm::AnytimeV1,
    }
}

fn algorithm_to_wire(a: Algorithm) -> api::LearningAlgorithm {
    match a {
        Algorithm::FixedHoeffdingV1 => api::LearningAlgorithm::FixedHoeffdingV1,
        Algorithm::AnytimeV1 => api::LearningAlgorithm::AnytimeV1,
    }
}

fn rule_from_wire(r: api::MonitoringRule) -> MonitoringRule {
    match r {
        api::MonitoringRule::AnytimeDriftV1 => MonitoringRule::AnytimeDriftV1,
    }
}

fn rule_to_wire(r: MonitoringRule) -> api::MonitoringRule {
    match r {
        MonitoringRule::AnytimeDriftV1 => api::MonitoringRule::AnytimeDriftV1,
    }
}

/// A policy as the domain holds it.
pub(crate) fn policy_from_wire(p: api::LearningPolicy) -> Policy {
    let q = p.parameters;
    Policy {
        id: p.id,
        algorithm: algorithm_from_wire(p.algorithm),
        parameters: Parameters {
            evaluator_subject: q.evaluator_subject,
            confidence_delta: q.confidence_delta,
            min_improvement: q.min_improvement,
            min_candidate_utility: q.min_candidate_utility,
            max_cost_units: q.max_cost_units,
            max_latency_ms: q.max_latency_ms,
            qualification_trials: q.qualification_trials,
            max_trials: q.max_trials,
            monitoring: Monitoring {
                rule: rule_from_wire(q.monitoring.rule),
                false_alarm_delta: q.monitoring.false_alarm_delta,
            },
            evaluation_contract: q.evaluation_contract,
        },
    }
}

fn policy_to_wire(p: &Policy) -> api::LearningPolicy {
    let q = &p.parameters;
    api::LearningPolicy {
        id: p.id.clone(),
        algorithm: algorithm_to_wire(p.algorithm),
        parameters: api::PolicyParameters {
            evaluator_subject: q.evaluator_subject.clone(),
            confidence_delta: q.confidence_delta,
            min_improvement: q.min_improvement,
            min_candidate_utility: q.min_candidate_utility,
            max_cost_units: q.max_cost_units,
            max_latency_ms: q.max_latency_ms,
            qualification_trials: q.qualification_trials,
            max_trials: q.max_trials,
            monitoring: api::PolicyMonitoring {
                rule: rule_to_wire(q.monitoring.rule),
                false_alarm_delta: q.monitoring.false_alarm_delta,
            },
            evaluation_contract: q.evaluation_contract.clone(),
        },
    }
}

/// A registered policy on the wire.
pub(crate) fn registered_policy(e: &Entry<Policy>) -> api::RegisteredPolicy {
    let p = policy_to_wire(&e.payload);
    api::RegisteredPolicy {
        id: p.id,
        algorithm: p.algorithm,
        parameters: p.parameters,
        digest: e.digest.to_hex(),
        registered_by: e.registered_by.clone(),
        recorded_at: e.recorded_at.to_string(),
    }
}

/// A context as the domain holds it.
pub(crate) fn context_from_wire(c: api::EvaluationContext) -> Context {
    Context {
        id: c.id,
        task: c.task,
        baseline_revision: c.baseline_revision,
        model_provider: c.model_provider,
        model_revision: c.model_revision,
        tools: c.tools,
        environment_revision: c.environment_revision,
        evaluation_contract: c.evaluation_contract,
        dataset_revision: c.dataset_revision,
        harness_revision: c.harness_revision,
        permissions_revision: c.permissions_revision,
    }
}

/// A registered context on the wire.
pub(crate) fn registered_context(e: &Entry<Context>) -> api::RegisteredContext {
    let c = &e.payload;
    api::RegisteredContext {
        id: c.id.clone(),
        task: c.task.clone(),
        baseline_revision: c.baseline_revision.clone(),
        model_provider: c.model_provider.clone(),
        model_revision: c.model_revision.clone(),
        tools: c.tools.clone(),
        environment_revision: c.environment_revision.clone(),
        evaluation_contract: c.evaluation_contract.clone(),
        dataset_revision: c.dataset_revision.clone(),
        harness_revision: c.harness_revision.clone(),
        permissions_revision: c.permissions_revision.clone(),
        digest: e.digest.to_hex(),
        registered_by: e.registered_by.clone(),
        recorded_at: e.recorded_at.to_string(),
    }
}

fn content_from_wire(c: api::ContentReference) -> ContentRef {
    ContentRef {
        reference: c.reference,
        sha256: c.sha256,
    }
}

fn content_to_wire(c: &ContentRef) -> api::ContentReference {
    api::ContentReference {
        reference: c.reference.clone(),
        sha256: c.sha256.clone(),
    }
}

fn outcome_from_wire(o: api::ExperienceOutcome) -> ExperienceOutcome {
    match o {
        api::ExperienceOutcome::Unknown => ExperienceOutcome::Unknown,
        api::ExperienceOutcome::Succeeded => ExperienceOutcome::Succeeded,
        api::ExperienceOutcome::Failed => ExperienceOutcome::Failed,
        api::ExperienceOutcome::Cancelled => ExperienceOutcome::Cancelled,
    }
}

fn outcome_to_wire(o: ExperienceOutcome) -> api::ExperienceOutcome {
    match o {
        ExperienceOutcome::Unknown => api::ExperienceOutcome::Unknown,
        ExperienceOutcome::Succeeded => api::ExperienceOutcome::Succeeded,
        ExperienceOutcome::Failed => api::ExperienceOutcome::Failed,
        ExperienceOutcome::Cancelled => api::ExperienceOutcome::Cancelled,
    }
}

/// An attempt as the domain takes it.
pub(crate) fn attempt_from_wire(e: api::NewExperience) -> AttemptRequest {
    AttemptRequest {
        id: e.id,
        context_id: e.context_id,
        reporter_subject: e.reporter_subject,
        accounting_unit: e.accounting_unit,
        input: content_from_wire(e.input),
        parent: e.parent.map(|p| ParentRef {
            attempt_id: p.attempt_id,
            event_id: p.event_id,
        }),
    }
}

/// An event as the domain takes it.
pub(crate) fn event_from_wire(e: api::NewExperienceEvent) -> EventReport {
    EventReport {
        event_id: e.event_id,
        expected_revision: e.expected_revision,
        outcome: outcome_from_wire(e.outcome),
        evidence: e.evidence.map(content_from_wire),
        cost_units: e.cost_units,
        latency_ms: e.latency_ms,
    }
}

fn pinned(p: &BoundParent) -> api::PinnedObservation {
    api::PinnedObservation {
        attempt_id: p.attempt_id.clone(),
        event_id: p.event_id.clone(),
        event_digest: p.event_digest.to_hex(),
    }
}

/// An experience on the wire.
pub(crate) fn experience_to_wire(e: &Experience) -> api::Experience {
    let (a, s) = (&e.attempt, &e.state);
    api::Experience {
        id: a.id.clone(),
        context_id: a.context_id.clone(),
        context_digest: a.context_digest.to_hex(),
        reporter_subject: a.reporter_subject.clone(),
        accounting_unit: a.accounting_unit.clone(),
        input: content_to_wire(&a.input),
        parent: a.parent.as_ref().map(pinned),
        attempt_digest: s.attempt_digest.to_hex(),
        depth: e.depth,
        revision: s.revision,
        outcome: s.outcome.map(outcome_to_wire),
        reported_cost_units: s.reported_cost_units,
        reported_latency_ms: s.reported_latency_ms,
        observed_cost_units: s.observed_cost_units,
        observed_latency_ms: s.observed_latency_ms,
        last_event_digest: s.last_event_digest.map(|d| d.to_hex()),
        actor: actor_to_wire(&e.recorded.actor),
        recorded_at: e.recorded.recorded_at.to_string(),
        receipt_digest: e.recorded.receipt_digest.to_hex(),
    }
}

/// An accepted event on the wire.
pub(crate) fn event_to_wire(e: &StoredEvent) -> api::ExperienceEvent {
    let r = &e.event;
    api::ExperienceEvent {
        attempt_id: r.attempt_id.clone(),
        event_id: r.event.event_id.clone(),
        expected_revision: r.event.expected_revision,
        outcome: outcome_to_wire(r.event.outcome),
        evidence: r.event.evidence.as_ref().map(content_to_wire),
        cost_units: r.event.cost_units,
        latency_ms: r.event.latency_ms,
        revision: r.revision,
        previous_event_digest: r.previous_event_digest.map(|d| d.to_hex()),
        observed_cost_units: r.observed_cost_units,
        observed_latency_ms: r.observed_latency_ms,
        event_digest: r.event_digest.to_hex(),
        actor: actor_to_wire(&e.recorded.actor),
        recorded_at: e.recorded.recorded_at.to_string(),
        receipt_digest: e.recorded.receipt_digest.to_hex(),
    }
}

/// A withdrawal as the domain takes it; an event digest that is not 64
/// lowercase hex digits is 422 at `/observation/event_digest`.
pub(crate) fn withdrawal_from_wire(
    key: String,
    o: api::PinnedObservation,
    reason: String,
) -> Result<Withdrawal, DomainError> {
    let event_digest: Digest = o.event_digest.parse().map_err(|_| {
        DomainError::invalid(
            "/observation/event_digest",
            "must be 64 lowercase hex digits",
        )
    })?;
    Ok(Withdrawal {
        idempotency_key: key,
        observation: ObservationRef {
            attempt_id: o.attempt_id,
            event_id: o.event_id,
            event_digest,
        },
        reason,
    })
}

/// A withdrawal's receipt on the wire.
pub(crate) fn withdrawal_to_wire(w: &StoredWithdrawal) -> api::WithdrawalReceipt {
    let o = &w.withdrawal.observation;
    api::WithdrawalReceipt {
        idempotency_key: w.withdrawal.idempotency_key.clone(),
        observation: api::PinnedObservation {
            attempt_id: o.attempt_id.clone(),
            event_id: o.event_id.clone(),
            event_digest: o.event_digest.to_hex(),
        },
        reason: w.withdrawal.reason.clone(),
        withdrawal_digest: w.digest.to_hex(),
        actor: actor_to_wire(&w.recorded.actor),
        recorded_at: w.recorded.recorded_at.to_string(),
        receipt_digest: w.recorded.receipt_digest.to_hex(),
    }
}

fn totals_to_wire(t: &Totals) -> api::ConsumptionTotals {
    api::ConsumptionTotals {
        known_reports: t.known_reports,
        unknown_reports: t.unknown_reports,
        reported_total: t.reported_total.clone(),
        observed_lower_bound: t.observed_lower_bound.clone(),
    }
}

/// An export on the wire.
pub(crate) fn export_to_wire(x: &Export) -> api::ExperienceExport {
    api::ExperienceExport {
        method_version: x.method_version.clone(),
        events: x
            .events
            .iter()
            .map(|e| api::ExportedEvent {
                attempt_id: e.attempt_id.clone(),
                event_id: e.event_id.clone(),
                event_digest: e.event_digest.to_hex(),
                revision: e.revision,
                context_digest: e.context_digest.to_hex(),
                accounting_unit: e.accounting_unit.clone(),
                outcome: outcome_to_wire(e.outcome),
                cost_units: e.cost_units,
                latency_ms: e.latency_ms,
                observed_cost_units: e.observed_cost_units,
                observed_latency_ms: e.observed_latency_ms,
            })
            .collect(),
        summary: summary_to_wire(&x.summary),
        export_digest: x.export_digest.to_hex(),
    }
}

/// An export's summary on the wire.
pub(crate) fn summary_to_wire(s: &Summary) -> api::ExportSummary {
    api::ExportSummary {
        attempts: s.attempts,
        succeeded: s.succeeded,
        failed: s.failed,
        cancelled: s.cancelled,
        unknown: s.unknown,
        cost_units: totals_to_wire(&s.cost_units),
        latency_ms: totals_to_wire(&s.latency_ms),
    }
}
