//! What a verifier concluded about one attempt: its stage, status and
//! disposition, and the rules an outcome must follow.
//!
//! Verifier outcomes ([`Status`]) and experience dispositions ([`Disposition`])
//! are separate: only verified negatives count towards suppression, and a
//! timeout, a block or an executor failure is never evidence about an action.

use serde::{Deserialize, Serialize};

use super::limits::Limits;
use crate::error::DomainError;
use crate::time::Timestamp;

/// Highest confidence, in parts per million.
pub const MAX_CONFIDENCE: u32 = 1_000_000;
/// Longest identifier inside an outcome a live write accepts, in bytes
/// (imports accept more: see [`Limits`]).
pub const MAX_OUTCOME_ID: usize = 256;
/// Longest rationale a live write accepts, in bytes.
pub const MAX_RATIONALE: usize = 4096;
/// Most evidence ids a live write may cite in one outcome.
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

impl Outcome {
    /// Whether the status concludes about the hypothesis: success,
    /// false_positive or confirmed_negative.
    pub fn is_conclusive(&self) -> bool {
        matches!(
            self.status,
            Status::Success | Status::FalsePositive | Status::ConfirmedNegative
        )
    }

    /// Whether the outcome must name its rule, cite evidence and be
    /// confident: every status but `unknown`, which is the canonical
    /// evidence-free fallback.
    pub fn rests_on_evidence(&self) -> bool {
        self.status != Status::Unknown
    }

    /// Whether this outcome is a completed attempt: every conclusion or
    /// block, and an inconclusive one only once an action actually ran.
    pub fn is_completed(&self) -> bool {
        completed(self.stage, self.status)
    }

    /// Checks the outcome's own rules within the live limits
    /// ([`Limits::LIVE`]); `path` is the outcome's JSON pointer.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        self.validate_within(path, &Limits::LIVE)
    }

    /// Checks the outcome's own rules within `limits`; `path` is the
    /// outcome's JSON pointer, and a refusal names the offending field.
    ///
    /// As in the original store: every id and the rationale must not be
    /// empty once trimmed (the value is kept as sent); an `unknown` outcome
    /// names no rule, cites no evidence and has zero confidence; every other
    /// status names its rule, cites at least one evidence id and has
    /// non-zero confidence; `confirmed_negative` is only valid at the active
    /// stage.
    pub fn validate_within(&self, path: &str, limits: &Limits) -> Result<(), DomainError> {
        let at = |field: &str| format!("{path}/{field}");
        limits.check_key_id(&at("case_id"), &self.case_id)?;
        limits.check_key_id(&at("subject"), &self.subject)?;
        limits.check_key_id(&at("action_id"), &self.action_id)?;
        limits.check_id(&at("hypothesis_id"), &self.hypothesis_id)?;
        if let Some(rule) = &self.verifier_rule_id {
            limits.check_id(&at("verifier_rule_id"), rule)?;
        }
        if let Some(revision) = &self.action_revision {
            limits.check_key_id(&at("action_revision"), revision)?;
        }
        let pair = [
            ("subject", self.subject.as_str()),
            ("action_id", self.action_id.as_str()),
        ];
        limits.check_key(
            path,
            &[pair[0], pair[1], ("case_id", self.case_id.as_str())],
        )?;
        if let Some(revision) = &self.action_revision {
            limits.check_key(
                path,
                &[pair[0], pair[1], ("action_revision", revision.as_str())],
            )?;
        }
        if self.confidence > MAX_CONFIDENCE {
            return Err(DomainError::invalid(
                at("confidence"),
                "must be 0 to 1000000 parts per million",
            ));
        }
        if self.rationale.trim().is_empty() {
            return Err(DomainError::invalid(
                at("rationale"),
                "must not be empty or only whitespace",
            ));
        }
        if self.rationale.len() > limits.max_rationale {
            return Err(DomainError::invalid(
                at("rationale"),
                format!("must be at most {} bytes", limits.max_rationale),
            ));
        }
        self.check_evidence(path, limits)?;
        if self.rests_on_evidence() {
            let status = self.status.as_str();
            if self.confidence == 0 {
                return Err(DomainError::invalid(
                    at("confidence"),
                    format!("a {status} outcome needs non-zero confidence"),
                ));
            }
            if self.verifier_rule_id.is_none() {
                return Err(DomainError::invalid(
                    at("verifier_rule_id"),
                    format!("a {status} outcome names its verifier rule"),
                ));
            }
            if self.evidence_ids.is_empty() {
                return Err(DomainError::invalid(
                    at("evidence_ids"),
                    format!("a {status} outcome cites at least one evidence id"),
                ));
            }
        } else {
            if self.confidence != 0 {
                return Err(DomainError::invalid(
                    at("confidence"),
                    "an unknown outcome has zero confidence",
                ));
            }
            if self.verifier_rule_id.is_some() {
                return Err(DomainError::invalid(
                    at("verifier_rule_id"),
                    "an unknown outcome names no rule",
                ));
            }
            if !self.evidence_ids.is_empty() {
                return Err(DomainError::invalid(
                    at("evidence_ids"),
                    "an unknown outcome cites no evidence",
                ));
            }
        }
        if self.status == Status::ConfirmedNegative && self.stage != Stage::Active {
            return Err(DomainError::invalid(
                at("stage"),
                "confirmed_negative is only valid at the active stage",
            ));
        }
        Ok(())
    }

    /// The evidence ids: how many, how large together, each id, no repeats.
    fn check_evidence(&self, path: &str, limits: &Limits) -> Result<(), DomainError> {
        let at = format!("{path}/evidence_ids");
        if self.evidence_ids.len() > limits.max_evidence {
            return Err(DomainError::invalid(
                at,
                format!("must hold at most {} ids", limits.max_evidence),
            ));
        }
        let bytes: usize = self.evidence_ids.iter().map(String::len).sum();
        if bytes > limits.max_evidence_bytes {
            return Err(DomainError::invalid(
                at,
                format!(
                    "take {bytes} bytes together; at most {} are allowed",
                    limits.max_evidence_bytes
                ),
            ));
        }
        let mut seen = std::collections::HashSet::with_capacity(self.evidence_ids.len());
        for (i, id) in self.evidence_ids.iter().enumerate() {
            limits.check_id(&format!("{at}/{i}"), id)?;
            if !seen.insert(id.as_str()) {
                return Err(DomainError::invalid(
                    format!("{at}/{i}"),
                    "repeats an earlier evidence id",
                ));
            }
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
    use crate::attempts::limits::{IMPORT_MAX_EVIDENCE, IMPORT_MAX_KEY, IMPORT_MAX_RATIONALE};

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

    fn path_of(o: &Outcome, limits: &Limits) -> String {
        o.validate_within("/outcome", limits)
            .unwrap_err()
            .path()
            .unwrap_or_default()
            .to_owned()
    }

    #[test]
    fn blocked_and_needs_review_rest_on_a_rule_evidence_and_confidence() {
        for status in [Status::Blocked, Status::NeedsReview] {
            for stage in [Stage::Passive, Stage::Active] {
                for limits in [Limits::LIVE, Limits::IMPORT] {
                    let ok = outcome(stage, status);
                    assert_eq!(ok.validate_within("/outcome", &limits), Ok(()));
                    let mut no_rule = ok.clone();
                    no_rule.verifier_rule_id = None;
                    assert_eq!(path_of(&no_rule, &limits), "/outcome/verifier_rule_id");
                    let mut no_evidence = ok.clone();
                    no_evidence.evidence_ids.clear();
                    assert_eq!(path_of(&no_evidence, &limits), "/outcome/evidence_ids");
                    let mut unsure = ok.clone();
                    unsure.confidence = 0;
                    assert_eq!(path_of(&unsure, &limits), "/outcome/confidence");
                    // The bare shape an unknown outcome has is not enough.
                    let mut bare = ok;
                    bare.verifier_rule_id = None;
                    bare.evidence_ids.clear();
                    bare.confidence = 0;
                    assert_eq!(path_of(&bare, &limits), "/outcome/confidence");
                }
            }
        }
        // The rule holds for every status but unknown, conclusive or not.
        for status in STATUSES {
            let mut o = outcome(Stage::Active, status);
            o.evidence_ids.clear();
            assert_eq!(
                o.validate("/o").is_ok(),
                status == Status::Unknown,
                "{status:?}"
            );
        }
    }

    #[test]
    fn unknown_stays_the_evidence_free_fallback() {
        for stage in [Stage::Passive, Stage::Active] {
            let unknown = outcome(stage, Status::Unknown);
            assert_eq!(unknown.verifier_rule_id, None);
            assert!(unknown.evidence_ids.is_empty());
            assert_eq!(unknown.confidence, 0);
            assert_eq!(unknown.validate("/o"), Ok(()));
            assert_eq!(unknown.validate_within("/o", &Limits::IMPORT), Ok(()));
            let mut ruled = unknown.clone();
            ruled.verifier_rule_id = Some("rule".into());
            assert_eq!(path_of(&ruled, &Limits::LIVE), "/outcome/verifier_rule_id");
            let mut cited = unknown;
            cited.evidence_ids = vec!["ev".into()];
            assert_eq!(path_of(&cited, &Limits::LIVE), "/outcome/evidence_ids");
        }
    }

    #[test]
    fn blank_ids_and_rationale_are_refused_after_trimming() {
        type Set = fn(&mut Outcome, String);
        let fields: [(&str, Set); 8] = [
            ("case_id", |o, v| o.case_id = v),
            ("subject", |o, v| o.subject = v),
            ("action_id", |o, v| o.action_id = v),
            ("hypothesis_id", |o, v| o.hypothesis_id = v),
            ("verifier_rule_id", |o, v| o.verifier_rule_id = Some(v)),
            ("action_revision", |o, v| o.action_revision = Some(v)),
            ("evidence_ids/0", |o, v| o.evidence_ids = vec![v]),
            ("rationale", |o, v| o.rationale = v),
        ];
        for (field, set) in fields {
            for blank in ["", " ", "  \u{3000} ", "\u{a0}"] {
                for limits in [Limits::LIVE, Limits::IMPORT] {
                    let mut o = outcome(Stage::Active, Status::Blocked);
                    set(&mut o, blank.to_owned());
                    assert_eq!(
                        path_of(&o, &limits),
                        format!("/outcome/{field}"),
                        "{field} = {blank:?}"
                    );
                }
            }
            // Only the check trims: a padded value is valid and kept as sent.
            let mut padded = outcome(Stage::Active, Status::Success);
            set(&mut padded, " x ".to_owned());
            let observed = crate::attempts::Observation::new(padded.clone(), None, "/o").unwrap();
            assert_eq!(observed.outcome, padded, "{field}");
        }
        // An unknown outcome needs a rationale too.
        let mut silent = outcome(Stage::Active, Status::Unknown);
        silent.rationale = "\n".into();
        assert_eq!(path_of(&silent, &Limits::IMPORT), "/outcome/rationale");
    }

    #[test]
    fn imports_accept_what_live_writes_refuse() {
        let mut big = outcome(Stage::Active, Status::Blocked);
        big.subject = format!("https://example.test/{}", "p".repeat(1000));
        big.hypothesis_id = "h".repeat(4096);
        big.rationale = "r".repeat(64 * 1024);
        big.evidence_ids = (0..1024).map(|i| format!("ev-{i}\u{1}")).collect();
        big.case_id = "c\tase".into();
        assert_eq!(big.validate_within("/o", &Limits::IMPORT), Ok(()));
        let live = big.validate("/outcome").unwrap_err();
        assert_eq!(live.path(), Some("/outcome/case_id"));
        big.case_id = "case".into();
        assert_eq!(path_of(&big, &Limits::LIVE), "/outcome/subject");
        big.subject = "s".into();
        assert_eq!(path_of(&big, &Limits::LIVE), "/outcome/hypothesis_id");
        big.hypothesis_id = "h".into();
        assert_eq!(path_of(&big, &Limits::LIVE), "/outcome/rationale");
        big.rationale = "r".into();
        assert_eq!(path_of(&big, &Limits::LIVE), "/outcome/evidence_ids");
        big.evidence_ids.truncate(MAX_EVIDENCE);
        assert_eq!(path_of(&big, &Limits::LIVE), "/outcome/evidence_ids/0");
    }

    #[test]
    fn import_limits_are_bounds_too() {
        let at_limit = |o: &mut Outcome| {
            o.subject = "s".repeat(IMPORT_MAX_KEY - 8);
            o.action_id = "a".repeat(4);
            o.case_id = "c".repeat(4);
        };
        let mut o = outcome(Stage::Active, Status::Success);
        at_limit(&mut o);
        assert_eq!(o.validate_within("/o", &Limits::IMPORT), Ok(()));
        o.case_id.push('c');
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/subject");
        at_limit(&mut o);
        o.action_revision = Some("v".repeat(5));
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/subject");
        o.action_revision = Some("v".repeat(4));
        assert_eq!(o.validate_within("/o", &Limits::IMPORT), Ok(()));

        let mut o = outcome(Stage::Active, Status::Success);
        o.subject = "host\0a".into();
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/subject");
        o.subject = "host".into();
        o.hypothesis_id = "hyp\0".into();
        assert_eq!(o.validate_within("/o", &Limits::IMPORT), Ok(()));
        o.rationale = "r".repeat(IMPORT_MAX_RATIONALE + 1);
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/rationale");
        o.rationale = "r".into();
        o.evidence_ids = (0..=IMPORT_MAX_EVIDENCE).map(|i| i.to_string()).collect();
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/evidence_ids");
        o.evidence_ids = (0..17).map(|i| format!("{i:04}").repeat(1024)).collect();
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/evidence_ids");
        o.evidence_ids.pop();
        assert_eq!(o.validate_within("/o", &Limits::IMPORT), Ok(()));
        o.evidence_ids.pop();
        o.evidence_ids[3].push('x');
        assert_eq!(path_of(&o, &Limits::IMPORT), "/outcome/evidence_ids/3");
    }
}
