//! Conversions between the attempt ledger's wire types and domain types,
//! field by field.

use praxis_api as api;
use praxis_domain::attempts as domain;
use praxis_domain::time::Timestamp;
use praxis_store::attempts::{ActionRef, AttemptRecord, WriteKind};

use axum::http::StatusCode;

use crate::error::ApiError;

pub(crate) fn stage_from_wire(s: api::Stage) -> domain::Stage {
    match s {
        api::Stage::Passive => domain::Stage::Passive,
        api::Stage::Active => domain::Stage::Active,
    }
}

pub(crate) fn stage_to_wire(s: domain::Stage) -> api::Stage {
    match s {
        domain::Stage::Passive => api::Stage::Passive,
        domain::Stage::Active => api::Stage::Active,
    }
}

pub(crate) fn status_from_wire(s: api::OutcomeStatus) -> domain::Status {
    match s {
        api::OutcomeStatus::Success => domain::Status::Success,
        api::OutcomeStatus::Blocked => domain::Status::Blocked,
        api::OutcomeStatus::Unknown => domain::Status::Unknown,
        api::OutcomeStatus::NeedsReview => domain::Status::NeedsReview,
        api::OutcomeStatus::FalsePositive => domain::Status::FalsePositive,
        api::OutcomeStatus::ConfirmedNegative => domain::Status::ConfirmedNegative,
    }
}

pub(crate) fn status_to_wire(s: domain::Status) -> api::OutcomeStatus {
    match s {
        domain::Status::Success => api::OutcomeStatus::Success,
        domain::Status::Blocked => api::OutcomeStatus::Blocked,
        domain::Status::Unknown => api::OutcomeStatus::Unknown,
        domain::Status::NeedsReview => api::OutcomeStatus::NeedsReview,
        domain::Status::FalsePositive => api::OutcomeStatus::FalsePositive,
        domain::Status::ConfirmedNegative => api::OutcomeStatus::ConfirmedNegative,
    }
}

pub(crate) fn disposition_from_wire(d: api::Disposition) -> domain::Disposition {
    use api::Disposition as W;
    use domain::Disposition as D;
    match d {
        W::ConfirmedPositive => D::ConfirmedPositive,
        W::VerificationRejected => D::VerificationRejected,
        W::ConfirmedNegative => D::ConfirmedNegative,
        W::NotApplicable => D::NotApplicable,
        W::BlockedByTarget => D::BlockedByTarget,
        W::BlockedByPolicy => D::BlockedByPolicy,
        W::TransportFailure => D::TransportFailure,
        W::ExecutorFailure => D::ExecutorFailure,
        W::VerificationInconclusive => D::VerificationInconclusive,
    }
}

pub(crate) fn disposition_to_wire(d: domain::Disposition) -> api::Disposition {
    use api::Disposition as W;
    use domain::Disposition as D;
    match d {
        D::ConfirmedPositive => W::ConfirmedPositive,
        D::VerificationRejected => W::VerificationRejected,
        D::ConfirmedNegative => W::ConfirmedNegative,
        D::NotApplicable => W::NotApplicable,
        D::BlockedByTarget => W::BlockedByTarget,
        D::BlockedByPolicy => W::BlockedByPolicy,
        D::TransportFailure => W::TransportFailure,
        D::ExecutorFailure => W::ExecutorFailure,
        D::VerificationInconclusive => W::VerificationInconclusive,
    }
}

/// Converts an outcome; `path` is its JSON pointer, for a bad `observed_at`.
pub(crate) fn outcome_from_wire(o: api::Outcome, path: &str) -> Result<domain::Outcome, ApiError> {
    let observed_at = o
        .observed_at
        .as_deref()
        .map(|t| {
            Timestamp::parse_rfc3339(t).map_err(|_| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "invalid_field",
                    "expected an RFC 3339 timestamp",
                )
                .at(format!("{path}/observed_at"))
            })
        })
        .transpose()?;
    Ok(domain::Outcome {
        case_id: o.case_id,
        subject: o.subject,
        action_id: o.action_id,
        hypothesis_id: o.hypothesis_id,
        verifier_rule_id: o.verifier_rule_id,
        stage: stage_from_wire(o.stage),
        status: status_from_wire(o.status),
        confidence: o.confidence,
        rationale: o.rationale,
        evidence_ids: o.evidence_ids,
        action_revision: o.action_revision,
        observed_at,
    })
}

pub(crate) fn outcome_to_wire(o: &domain::Outcome) -> api::Outcome {
    api::Outcome {
        case_id: o.case_id.clone(),
        subject: o.subject.clone(),
        action_id: o.action_id.clone(),
        hypothesis_id: o.hypothesis_id.clone(),
        verifier_rule_id: o.verifier_rule_id.clone(),
        stage: stage_to_wire(o.stage),
        status: status_to_wire(o.status),
        confidence: o.confidence,
        rationale: o.rationale.clone(),
        evidence_ids: o.evidence_ids.clone(),
        action_revision: o.action_revision.clone(),
        observed_at: o.observed_at.map(|t| t.to_string()),
    }
}

pub(crate) fn record_to_wire(r: &AttemptRecord) -> api::AttemptRecord {
    api::AttemptRecord {
        sequence: r.position,
        outcome: outcome_to_wire(&r.observation.outcome),
        disposition: disposition_to_wire(r.observation.disposition),
        digest: r.digest.to_hex(),
        recorded_at: r.recorded_at.to_string(),
        recorded_by: r.recorded_by.clone(),
    }
}

pub(crate) fn write_kind_to_wire(w: WriteKind) -> api::WriteKind {
    match w {
        WriteKind::Inserted => api::WriteKind::Inserted,
        WriteKind::Unchanged => api::WriteKind::Unchanged,
    }
}

pub(crate) fn streak_key_from_wire(k: api::StreakKey) -> domain::StreakKey {
    match k {
        api::StreakKey::Action => domain::StreakKey::Action,
        api::StreakKey::ActionRevision => domain::StreakKey::ActionRevision,
    }
}

fn streak_key_to_wire(k: domain::StreakKey) -> api::StreakKey {
    match k {
        domain::StreakKey::Action => api::StreakKey::Action,
        domain::StreakKey::ActionRevision => api::StreakKey::ActionRevision,
    }
}

/// The change a policy request describes: each field absent (kept), null
/// (reset to its default) or a value (set).
pub(crate) fn policy_update_from_wire(body: &api::SetPolicyRequest) -> domain::PolicyUpdate {
    domain::PolicyUpdate {
        consecutive_failure_limit: domain::Change::from_wire(body.consecutive_failure_limit),
        streak_key: domain::Change::from_wire(body.streak_key.map(|k| k.map(streak_key_from_wire))),
        reexplore: domain::Change::from_wire(body.reexplore.map(|r| {
            r.map(|r| domain::ReexploreUpdate {
                after_seconds: domain::Change::from_wire(r.after_seconds),
                after_observations: domain::Change::from_wire(r.after_observations),
            })
        })),
    }
}

pub(crate) fn policy_to_wire(p: &domain::Policy) -> api::PolicyResponse {
    api::PolicyResponse {
        contract_version: api::CONTRACT_VERSION,
        consecutive_failure_limit: p.consecutive_failure_limit,
        streak_key: streak_key_to_wire(p.streak_key),
        reexplore: p.reexplore.map(|r| api::Reexplore {
            after_seconds: r.after_seconds,
            after_observations: r.after_observations,
        }),
    }
}

/// An assessment with the candidate it answers, revision included whatever
/// the policy's streak key, so candidates that differ only by revision can
/// be told apart.
pub(crate) fn assessment_to_wire(action: ActionRef, a: domain::Assessment) -> api::Assessment {
    api::Assessment {
        action_id: action.action_id,
        action_revision: action.action_revision,
        recommendation: match a.recommendation {
            domain::Recommendation::Suppress => api::Recommendation::Suppress,
            domain::Recommendation::Explore => api::Recommendation::Explore,
            domain::Recommendation::Continue => api::Recommendation::Continue,
        },
        consecutive_failures: a.consecutive_failures,
        limit: a.limit,
        completed_attempts: a.completed_attempts,
        last_disposition: a.last_disposition.map(disposition_to_wire),
        rationale: a.rationale,
    }
}

/// Converts a legacy store; a bad `observed_at` names its record.
pub(crate) fn legacy_from_wire(s: api::LegacyStore) -> Result<domain::LegacyStore, ApiError> {
    let records = s
        .records
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            Ok(domain::LegacyRecord {
                sequence: r.sequence,
                outcome: outcome_from_wire(r.outcome, &format!("/store/records/{i}/outcome"))?,
                disposition: r.disposition.map(disposition_from_wire),
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(domain::LegacyStore {
        next_sequence: s.next_sequence,
        records,
    })
}

pub(crate) fn legacy_to_wire(s: domain::LegacyStore) -> api::LegacyStore {
    api::LegacyStore {
        next_sequence: s.next_sequence,
        records: s
            .records
            .into_iter()
            .map(|r| api::LegacyRecord {
                sequence: r.sequence,
                outcome: outcome_to_wire(&r.outcome),
                disposition: r.disposition.map(disposition_to_wire),
            })
            .collect(),
    }
}
