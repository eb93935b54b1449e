//! Conversions between the wire types of experience records and the skill
//! registry and their domain and storage types, field by field.
//!
//! Trust fields are stored as the protocol's text; a stored value that is
//! not one the protocol allows is an inconsistency (500), never guessed at.

use praxis_api as api;
use praxis_domain::ledger::Event;
use praxis_domain::records::Finding;
use praxis_domain::records::lifecycle::{self, Change, Decision, Rejection, ReviewMode, Source};
use praxis_domain::skills::{Registry, SkillRelease, Withdrawal};
use praxis_store::StoreError;
use praxis_store::records::{RecordRow, flags, revision_of};
use praxis_store::skills::SkillRow;

use crate::error::ApiError;

/// Reads each wire enum from the protocol text of its variants.
macro_rules! from_protocol_text {
    ($(#[doc = $doc:literal] $from:ident: $ty:ty { $($variant:ident => $text:literal),+ $(,)? })+) => {
        $(
            #[doc = $doc]
            pub(crate) fn $from(text: &str) -> Option<$ty> {
                match text {
                    $($text => Some(<$ty>::$variant),)+
                    _ => None,
                }
            }
        )+
    };
}

from_protocol_text! {
    /// `lifecycle.status` from its protocol text.
    lifecycle_from_text: api::RecordLifecycle {
        Candidate => "candidate",
        Reviewed => "reviewed",
        Superseded => "superseded",
        Withdrawn => "withdrawn",
    }
    /// `review.status` from its protocol text.
    review_status_from_text: api::ReviewStatus {
        Pending => "pending",
        Approved => "approved",
        ChangesRequested => "changes-requested",
    }
    /// `review.mode` from its protocol text.
    review_mode_from_text: api::ReviewMode {
        Human => "human",
        AutomatedPolicy => "automated-policy",
    }
    /// `context.platform` from its protocol text.
    platform_from_text: api::Platform {
        Windows => "windows",
        Macos => "macos",
        Linux => "linux",
        CrossPlatform => "cross-platform",
        Other => "other",
    }
    /// `verification.level` from its protocol text.
    verification_from_text: api::VerificationLevel {
        SelfObserved => "self-observed",
        LocallyVerified => "locally-verified",
        IndependentlyReproduced => "independently-reproduced",
    }
}

fn stored<T>(value: Option<T>, what: &str, id: &str) -> Result<T, ApiError> {
    value.ok_or_else(|| {
        StoreError::inconsistent(format!("record {id} holds an invalid {what}")).into()
    })
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
pub(crate) fn state_to_wire(
    row: &RecordRow,
    skills: &Registry,
) -> Result<api::RecordState, ApiError> {
    let id = row.experience_id.as_str();
    Ok(api::RecordState {
        experience_id: row.experience_id.clone(),
        revision: row.revision,
        sha256: row.sha256.clone(),
        lifecycle: stored(lifecycle_from_text(&row.lifecycle), "lifecycle", id)?,
        review_status: stored(
            review_status_from_text(&row.review_status),
            "review status",
            id,
        )?,
        review_mode: row
            .review_mode
            .as_deref()
            .map(|m| stored(review_mode_from_text(m), "review mode", id))
            .transpose()?,
        verification_level: stored(
            verification_from_text(&row.verification_level),
            "verification level",
            id,
        )?,
        platform: stored(platform_from_text(&row.platform), "platform", id)?,
        withdrawal_reason: row.withdrawal_reason.clone(),
        superseded_by: row.superseded_by.clone(),
        flags: flags(row, skills).iter().map(finding_to_wire).collect(),
    })
}

/// A kept record's document and state.
pub(crate) fn entry_to_wire(
    row: &RecordRow,
    skills: &Registry,
) -> Result<api::RecordEntry, ApiError> {
    Ok(api::RecordEntry {
        record: row.document.clone(),
        state: state_to_wire(row, skills)?,
    })
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

pub(crate) fn release_from_wire(r: api::SkillRelease) -> SkillRelease {
    SkillRelease {
        name: r.name,
        version: r.version,
        sha256: r.sha256,
        size: r.size,
        summary: r.summary,
        provenance: r.provenance,
    }
}

fn release_to_wire(r: &SkillRelease) -> api::SkillRelease {
    api::SkillRelease {
        name: r.name.clone(),
        version: r.version.clone(),
        sha256: r.sha256.clone(),
        size: r.size,
        summary: r.summary.clone(),
        provenance: r.provenance.clone(),
    }
}

fn withdrawal_to_wire(w: &Withdrawal) -> api::SkillWithdrawal {
    api::SkillWithdrawal {
        at: w.at.clone(),
        reason: w.reason.clone(),
    }
}

pub(crate) fn skill_to_wire(row: &SkillRow) -> api::SkillEntry {
    api::SkillEntry {
        release: release_to_wire(&row.release),
        withdrawal: row.withdrawal.as_ref().map(withdrawal_to_wire),
    }
}
