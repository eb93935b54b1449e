//! Conversions between the wire types of experience records and the skill
//! registry and their domain and storage types, field by field.
//!
//! The store hands out kept records with their trust fields already typed
//! (a stored value the protocol does not allow fails there, as an
//! inconsistency); this module only maps types to types.

use praxis_api as api;
use praxis_domain::ledger::Event;
use praxis_domain::records::lifecycle::{self, Change, Decision, Rejection, ReviewMode, Source};
use praxis_domain::records::state::{Lifecycle, Platform, ReviewStatus, VerificationLevel};
use praxis_domain::records::{Finding, KeptRecord};
use praxis_domain::skills::Registry;
use praxis_store::StoreError;
use praxis_store::records::{flags, revision_of};

use crate::error::ApiError;

fn lifecycle_to_wire(l: Lifecycle) -> api::RecordLifecycle {
    match l {
        Lifecycle::Candidate => api::RecordLifecycle::Candidate,
        Lifecycle::Reviewed => api::RecordLifecycle::Reviewed,
        Lifecycle::Superseded => api::RecordLifecycle::Superseded,
        Lifecycle::Withdrawn => api::RecordLifecycle::Withdrawn,
    }
}

fn review_status_to_wire(r: ReviewStatus) -> api::ReviewStatus {
    match r {
        ReviewStatus::Pending => api::ReviewStatus::Pending,
        ReviewStatus::Approved => api::ReviewStatus::Approved,
        ReviewStatus::ChangesRequested => api::ReviewStatus::ChangesRequested,
    }
}

fn mode_to_wire(m: ReviewMode) -> api::ReviewMode {
    match m {
        ReviewMode::Human => api::ReviewMode::Human,
        ReviewMode::AutomatedPolicy => api::ReviewMode::AutomatedPolicy,
    }
}

fn platform_to_wire(p: Platform) -> api::Platform {
    match p {
        Platform::Windows => api::Platform::Windows,
        Platform::Macos => api::Platform::Macos,
        Platform::Linux => api::Platform::Linux,
        Platform::CrossPlatform => api::Platform::CrossPlatform,
        Platform::Other => api::Platform::Other,
    }
}

fn verification_to_wire(v: VerificationLevel) -> api::VerificationLevel {
    match v {
        VerificationLevel::SelfObserved => api::VerificationLevel::SelfObserved,
        VerificationLevel::LocallyVerified => api::VerificationLevel::LocallyVerified,
        VerificationLevel::IndependentlyReproduced => {
            api::VerificationLevel::IndependentlyReproduced
        }
    }
}

pub(crate) fn source_from_wire(s: api::RecordSource) -> Source {
    match s {
        api::RecordSource::Key(key) => Source::Key { key },
        api::RecordSource::Issue(i) => Source::Issue {
            repository: i.repository,
            number: i.number,
        },
    }
}

pub(crate) fn decision_from_wire(d: api::ReviewDecision) -> Decision {
    match d {
        api::ReviewDecision::Approve => Decision::Approve,
        api::ReviewDecision::RequestChanges => Decision::RequestChanges,
    }
}

pub(crate) fn mode_from_wire(m: api::ReviewMode) -> ReviewMode {
    match m {
        api::ReviewMode::Human => ReviewMode::Human,
        api::ReviewMode::AutomatedPolicy => ReviewMode::AutomatedPolicy,
    }
}

fn change_to_wire(c: Change) -> api::RecordChange {
    match c {
        Change::Submitted => api::RecordChange::Submitted,
        Change::Approved => api::RecordChange::Approved,
        Change::ChangesRequested => api::RecordChange::ChangesRequested,
        Change::Superseded => api::RecordChange::Superseded,
        Change::Withdrawn => api::RecordChange::Withdrawn,
        Change::Discarded => api::RecordChange::Discarded,
        Change::Imported => api::RecordChange::Imported,
    }
}

pub(crate) fn finding_to_wire(f: &Finding) -> api::RecordFinding {
    api::RecordFinding {
        pointer: f.pointer.clone(),
        rule: f.rule.clone(),
        message: f.message.clone(),
    }
}

/// A kept record's state, flagged against the namespace's skill registry.
pub(crate) fn state_to_wire(row: &KeptRecord, skills: &Registry) -> api::RecordState {
    api::RecordState {
        experience_id: row.experience_id.clone(),
        revision: row.revision,
        sha256: row.sha256.clone(),
        lifecycle: lifecycle_to_wire(row.lifecycle),
        review_status: review_status_to_wire(row.review_status),
        review_mode: row.review_mode.map(mode_to_wire),
        verification_level: verification_to_wire(row.verification_level),
        platform: platform_to_wire(row.platform),
        withdrawal_reason: row.withdrawal_reason.clone(),
        superseded_by: row.superseded_by.clone(),
        flags: flags(row, skills).iter().map(finding_to_wire).collect(),
    }
}

/// A kept record's document and state.
pub(crate) fn entry_to_wire(row: &KeptRecord, skills: &Registry) -> api::RecordEntry {
    api::RecordEntry {
        record: row.document.clone(),
        state: state_to_wire(row, skills),
    }
}

/// One event of a record's stream: a kept revision or a rejection.
pub(crate) fn history_entry_to_wire(event: &Event) -> Result<api::RecordHistoryEntry, ApiError> {
    let (sequence, position) = (event.stream_seq, event.position);
    let recorded_at = event.recorded_at.to_string();
    let actor = event.actor.subject.clone();
    match event.kind.as_str() {
        lifecycle::REVISED => {
            let r = revision_of(event)?;
            Ok(api::RecordHistoryEntry::Revision {
                sequence,
                position,
                recorded_at,
                actor,
                revision: r.revision,
                change: change_to_wire(r.change),
                sha256: r.sha256,
                reason: r.reason,
                superseded_by: r.superseded_by,
                record: r.document,
            })
        }
        lifecycle::REJECTED => {
            let r: Rejection = serde_json::from_value(event.payload.clone()).map_err(|e| {
                StoreError::inconsistent(format!(
                    "record rejection at position {position} does not decode: {e}"
                ))
            })?;
            Ok(api::RecordHistoryEntry::Rejection {
                sequence,
                position,
                recorded_at,
                actor,
                sha256: r.sha256,
                findings: r.findings.iter().map(finding_to_wire).collect(),
            })
        }
        other => Err(StoreError::inconsistent(format!(
            "a record stream holds an event of kind {other} at position {position}"
        ))
        .into()),
    }
}
