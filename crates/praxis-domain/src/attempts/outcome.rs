//! What a verifier concluded about one attempt: its stage, status and
//! disposition, and the rules an outcome must follow.
//!
//! Verifier outcomes ([`Status`]) and experience dispositions ([`Disposition`])
//! are separate: only verified negatives count towards suppression, and a
//! timeout, a block or an executor failure is never evidence about an action.

use serde::{Deserialize, Serialize};

use crate::error::DomainError;
use crate::time::Timestamp;

/// Highest confidence, in parts per million.
pub const MAX_CONFIDENCE: u32 = 1_000_000;
/// Longest identifier inside an outcome, in bytes.
pub const MAX_OUTCOME_ID: usize = 256;
/// Longest rationale, in bytes.
pub const MAX_RATIONALE: usize = 4096;
/// Most evidence ids one outcome may cite.
pub const MAX_EVIDENCE: usize = 64;

/// Where in verification an outcome was produced.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Observation without touching the target.
    Passive,
    /// An action was executed against the target.
    Active,
}

/// What a verifier concluded.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The action succeeded.
    Success,
    /// The target refused or rate-limited the action.
    Blocked,
    /// No conclusion.
    Unknown,
    /// A human must look at it.
    NeedsReview,
    /// The verifier rejected the hypothesis.
    FalsePositive,
    /// An audited negative control disproved the hypothesis.
    ConfirmedNegative,
}

/// How an outcome may influence later planning.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    /// The verifier reported success; resets the streak.
    ConfirmedPositive,
    /// A verifier rejected the hypothesis; counts towards suppression.
    VerificationRejected,
    /// An audited negative control disproved the hypothesis; counts.
    ConfirmedNegative,
    /// The action does not apply to this subject.
    NotApplicable,
    /// The target denied or rate-limited the attempt.
    BlockedByTarget,
    /// Host authorization or safety policy refused execution.
    BlockedByPolicy,
    /// The network failed before a conclusion.
    TransportFailure,
    /// The selected executor failed.
    ExecutorFailure,
    /// Evidence did not support a deterministic conclusion.
    VerificationInconclusive,
}

impl Stage {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Passive => "passive",
            Stage::Active => "active",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Stage> {
        [Stage::Passive, Stage::Active]
            .into_iter()
            .find(|x| x.as_str() == s)
    }
}

/// Every status, in declaration order.
pub const STATUSES: [Status; 6] = [
    Status::Success,
    Status::Blocked,
    Status::Unknown,
    Status::NeedsReview,
    Status::FalsePositive,
    Status::ConfirmedNegative,
];

impl Status {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Blocked => "blocked",
            Status::Unknown => "unknown",
            Status::NeedsReview => "needs_review",
            Status::FalsePositive => "false_positive",
            Status::ConfirmedNegative => "confirmed_negative",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Status> {
        STATUSES.into_iter().find(|x| x.as_str() == s)
    }
}

/// Every disposition, in declaration order (counts are reported in it).
pub const DISPOSITIONS: [Disposition; 9] = [
    Disposition::ConfirmedPositive,
    Disposition::VerificationRejected,
    Disposition::ConfirmedNegative,
    Disposition::NotApplicable,
    Disposition::BlockedByTarget,
    Disposition::BlockedByPolicy,
    Disposition::TransportFailure,
    Disposition::ExecutorFailure,
    Disposition::VerificationInconclusive,
];

/// What a disposition does to a suppression streak.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    /// Adds one verified negative.
    Increment,
    /// Ends the streak.
    Reset,
    /// Neither adds nor erases.
    Neutral,
}

impl Disposition {
    /// The conservative mapping used when a host states no disposition.
    pub fn infer(status: Status) -> Disposition {
        match status {
            Status::Success => Disposition::ConfirmedPositive,
            Status::Blocked => Disposition::BlockedByTarget,
            Status::Unknown | Status::NeedsReview => Disposition::VerificationInconclusive,
            Status::FalsePositive => Disposition::VerificationRejected,
            Status::ConfirmedNegative => Disposition::ConfirmedNegative,
        }
    }

    /// Whether this disposition may accompany an outcome of `status`.
    ///
    /// Operational causes attach only to inconclusive outcomes, so that they
    /// can never trigger rejection or target-block semantics by accident.
    pub fn fits(self, status: Status) -> bool {
        match self {
            Disposition::NotApplicable
            | Disposition::BlockedByPolicy
            | Disposition::TransportFailure
            | Disposition::ExecutorFailure
            | Disposition::VerificationInconclusive => {
                matches!(status, Status::Unknown | Status::NeedsReview)
            }
            Disposition::ConfirmedPositive => status == Status::Success,
            Disposition::BlockedByTarget => status == Status::Blocked,
            Disposition::VerificationRejected => status == Status::FalsePositive,
            Disposition::ConfirmedNegative => status == Status::ConfirmedNegative,
        }
    }

    /// What the disposition does to a streak.
    pub fn effect(self) -> Effect {
        match self {
            Disposition::VerificationRejected | Disposition::ConfirmedNegative => Effect::Increment,
            Disposition::ConfirmedPositive => Effect::Reset,
            _ => Effect::Neutral,
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::ConfirmedPositive => "confirmed_positive",
            Disposition::VerificationRejected => "verification_rejected",
            Disposition::ConfirmedNegative => "confirmed_negative",
            Disposition::NotApplicable => "not_applicable",
            Disposition::BlockedByTarget => "blocked_by_target",
            Disposition::BlockedByPolicy => "blocked_by_policy",
            Disposition::TransportFailure => "transport_failure",
            Disposition::ExecutorFailure => "executor_failure",
            Disposition::VerificationInconclusive => "verification_inconclusive",
        }
    }

    /// Parses a wire name.
    pub fn parse(s: &str) -> Option<Disposition> {
        DISPOSITIONS.into_iter().find(|d| d.as_str() == s)
    }
}

/// What a verifier concluded about one attempt, in the legacy stores' shape
/// plus Praxis's optional `action_revision` and `observed_at`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The attempt, chosen by the client; unique per subject and action.
    pub case_id: String,
    /// What the action was tried on.
    pub subject: String,
    /// The action.
    pub action_id: String,
    /// The hypothesis the action tested.
    pub hypothesis_id: String,
    /// The verifier rule that concluded, or null for an unknown outcome.
    pub verifier_rule_id: Option<String>,
    /// Passive or active.
    pub stage: Stage,
    /// The verifier's conclusion.
    pub status: Status,
    /// Confidence in parts per million.
    pub confidence: u32,
    /// Why the verifier concluded so.
    pub rationale: String,
    /// Evidence the conclusion rests on.
    pub evidence_ids: Vec<String>,
    /// The version of the payload, rule or executor that ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_revision: Option<String>,
    /// When the attempt was observed, by the client's clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_at: Option<Timestamp>,
}

fn check_outcome_id(path: &str, value: &str) -> Result<(), DomainError> {
    if value.is_empty() || value.len() > MAX_OUTCOME_ID {
        return Err(DomainError::invalid(path, "must be 1 to 256 bytes"));
    }
    if value.chars().any(char::is_control) {
        return Err(DomainError::invalid(
            path,
            "must not contain control characters",
        ));
    }
    Ok(())
}

impl Outcome {
    /// Whether the status is a conclusion that must rest on evidence.
    pub fn is_conclusive(&self) -> bool {
        matches!(
            self.status,
            Status::Success | Status::FalsePositive | Status::ConfirmedNegative
        )
    }

    /// Whether this outcome is a completed attempt: every conclusion or
    /// block, and an inconclusive one only once an action actually ran.
    pub fn is_completed(&self) -> bool {
        completed(self.stage, self.status)
    }

    /// Checks the outcome's own rules; `path` is the outcome's JSON pointer.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_outcome_id(&format!("{path}/case_id"), &self.case_id)?;
        check_outcome_id(&format!("{path}/subject"), &self.subject)?;
        check_outcome_id(&format!("{path}/action_id"), &self.action_id)?;
        check_outcome_id(&format!("{path}/hypothesis_id"), &self.hypothesis_id)?;
        if let Some(rule) = &self.verifier_rule_id {
            check_outcome_id(&format!("{path}/verifier_rule_id"), rule)?;
        }
        if let Some(revision) = &self.action_revision {
            check_outcome_id(&format!("{path}/action_revision"), revision)?;
        }
        if self.confidence > MAX_CONFIDENCE {
            return Err(DomainError::invalid(
                format!("{path}/confidence"),
                "must be 0 to 1000000 parts per million",
            ));
        }
        if self.rationale.len() > MAX_RATIONALE {
            return Err(DomainError::invalid(
                format!("{path}/rationale"),
                "must be at most 4096 bytes",
            ));
        }
        if self.evidence_ids.len() > MAX_EVIDENCE {
            return Err(DomainError::invalid(
                format!("{path}/evidence_ids"),
                "must hold at most 64 ids",
            ));
        }
        for (i, id) in self.evidence_ids.iter().enumerate() {
            check_outcome_id(&format!("{path}/evidence_ids/{i}"), id)?;
            if self.evidence_ids[..i].contains(id) {
                return Err(DomainError::invalid(
                    format!("{path}/evidence_ids/{i}"),
                    "repeats an earlier evidence id",
                ));
            }
        }
        if self.status == Status::Unknown {
            if self.confidence != 0 {
                return Err(DomainError::invalid(
                    format!("{path}/confidence"),
                    "an unknown outcome has zero confidence",
                ));
            }
            if self.verifier_rule_id.is_some() {
                return Err(DomainError::invalid(
                    format!("{path}/verifier_rule_id"),
                    "an unknown outcome names no rule",
                ));
            }
            if !self.evidence_ids.is_empty() {
                return Err(DomainError::invalid(
                    format!("{path}/evidence_ids"),
                    "an unknown outcome cites no evidence",
                ));
            }
        }
        if self.is_conclusive() {
            if self.confidence == 0 {
                return Err(DomainError::invalid(
                    format!("{path}/confidence"),
                    "a conclusive outcome needs non-zero confidence",
                ));
            }
            if self.verifier_rule_id.is_none() {
                return Err(DomainError::invalid(
                    format!("{path}/verifier_rule_id"),
                    "a conclusive outcome names its rule",
                ));
            }
            if self.evidence_ids.is_empty() {
                return Err(DomainError::invalid(
                    format!("{path}/evidence_ids"),
                    "a conclusive outcome cites at least one evidence id",
                ));
            }
        }
        if self.status == Status::ConfirmedNegative && self.stage != Stage::Active {
            return Err(DomainError::invalid(
                format!("{path}/stage"),
                "confirmed_negative is only valid at the active stage",
            ));
        }
        Ok(())
    }
}

/// Whether an outcome of this stage and status is a completed attempt.
pub fn completed(stage: Stage, status: Status) -> bool {
    match status {
        Status::Success | Status::Blocked | Status::FalsePositive | Status::ConfirmedNegative => {
            true
        }
        Status::Unknown | Status::NeedsReview => stage == Stage::Active,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attempts::fixtures::outcome;

    #[test]
    fn inferred_dispositions_always_fit() {
        for s in STATUSES {
            assert!(Disposition::infer(s).fits(s), "{s:?}");
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
    }

    #[test]
    fn pair_table_matches_the_contract() {
        let operational = [
            Disposition::NotApplicable,
            Disposition::BlockedByPolicy,
            Disposition::TransportFailure,
            Disposition::ExecutorFailure,
            Disposition::VerificationInconclusive,
        ];
        for d in DISPOSITIONS {
            for s in STATUSES {
                let expected = if operational.contains(&d) {
                    matches!(s, Status::Unknown | Status::NeedsReview)
                } else {
                    matches!(
                        (d, s),
                        (Disposition::ConfirmedPositive, Status::Success)
                            | (Disposition::BlockedByTarget, Status::Blocked)
                            | (Disposition::VerificationRejected, Status::FalsePositive)
                            | (Disposition::ConfirmedNegative, Status::ConfirmedNegative)
                    )
                };
                assert_eq!(d.fits(s), expected, "{d:?} with {s:?}");
            }
        }
    }

    #[test]
    fn only_verified_negatives_count_and_only_positive_resets() {
        for d in DISPOSITIONS {
            let expected = match d {
                Disposition::VerificationRejected | Disposition::ConfirmedNegative => {
                    Effect::Increment
                }
                Disposition::ConfirmedPositive => Effect::Reset,
                _ => Effect::Neutral,
            };
            assert_eq!(d.effect(), expected);
            assert_eq!(Disposition::parse(d.as_str()), Some(d));
        }
    }

    #[test]
    fn outcome_rules() {
        let ok = outcome(Stage::Active, Status::FalsePositive);
        assert!(ok.validate("/outcome").is_ok());
        let mut unknown = outcome(Stage::Active, Status::Unknown);
        assert!(unknown.validate("/outcome").is_ok());
        unknown.confidence = 1;
        assert_eq!(
            unknown.validate("/outcome").unwrap_err().path(),
            Some("/outcome/confidence")
        );
        let mut no_rule = outcome(Stage::Active, Status::Success);
        no_rule.verifier_rule_id = None;
        assert_eq!(
            no_rule.validate("/o").unwrap_err().path(),
            Some("/o/verifier_rule_id")
        );
        let mut no_evidence = outcome(Stage::Active, Status::Success);
        no_evidence.evidence_ids.clear();
        assert_eq!(
            no_evidence.validate("/o").unwrap_err().path(),
            Some("/o/evidence_ids")
        );
        let passive_negative = outcome(Stage::Passive, Status::ConfirmedNegative);
        assert_eq!(
            passive_negative.validate("/o").unwrap_err().path(),
            Some("/o/stage")
        );
        let mut too_sure = outcome(Stage::Active, Status::Success);
        too_sure.confidence = MAX_CONFIDENCE + 1;
        assert!(too_sure.validate("/o").is_err());
        let mut twice = outcome(Stage::Active, Status::Success);
        twice.evidence_ids = vec!["a".into(), "a".into()];
        assert_eq!(
            twice.validate("/o").unwrap_err().path(),
            Some("/o/evidence_ids/1")
        );
        let mut empty = outcome(Stage::Active, Status::Success);
        empty.subject = String::new();
        assert_eq!(empty.validate("/o").unwrap_err().path(), Some("/o/subject"));
    }
}
