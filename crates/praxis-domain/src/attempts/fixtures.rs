//! Test fixtures shared by the attempt modules' unit tests.

use super::outcome::{Disposition, Outcome, Stage, Status};
use super::streak::CaseEntry;
use crate::time::Timestamp;

/// A valid outcome of `stage` and `status`: every status but unknown names
/// a rule, cites evidence and is confident; an unknown one does none of that.
pub(super) fn outcome(stage: Stage, status: Status) -> Outcome {
    let evidenced = status != Status::Unknown;
    Outcome {
        case_id: "c1".into(),
        subject: "host-a".into(),
        action_id: "probe".into(),
        hypothesis_id: "h1".into(),
        verifier_rule_id: evidenced.then(|| "rule".into()),
        stage,
        status,
        confidence: if evidenced { 900_000 } else { 0 },
        rationale: "because".into(),
        evidence_ids: if evidenced { vec!["ev".into()] } else { vec![] },
        action_revision: None,
        observed_at: None,
    }
}

/// A case entry at `position`, whose status is the one `d` is inferred
/// from (unknown for operational causes).
pub(super) fn entry(case: &str, stage: Stage, position: u64, d: Disposition) -> CaseEntry {
    let status = match d {
        Disposition::ConfirmedPositive => Status::Success,
        Disposition::VerificationRejected => Status::FalsePositive,
        Disposition::ConfirmedNegative => Status::ConfirmedNegative,
        Disposition::BlockedByTarget => Status::Blocked,
        _ => Status::Unknown,
    };
    CaseEntry {
        case_id: case.into(),
        stage,
        position,
        revision: None,
        status,
        disposition: d,
        recorded_at: Timestamp::from_micros(position as i64 * 1_000_000),
        subject_observations: position,
    }
}
