//! Held-out evaluations: what an evaluator submits about one case, and the
//! admission rules that decide whether it may move a procedure's
//! statistics.
//!
//! Only an `accepted` evaluation moves them. Everything else is kept, with
//! a stable reason, so that what was left out is as auditable as what was
//! counted. The rules are checked in a fixed order, so one submission has
//! one reason: the contract first (a case run under another policy, context
//! or baseline says nothing about this one), then whether the phase is
//! open, then reuse of the case's evidence, then the evaluator's status,
//! then the values the statistics need.

use serde::{Deserialize, Serialize};

use super::procedure::{Decision, ProcedureSummary};
use super::text::{check_exact, check_text};
use crate::error::DomainError;

/// Event kind of a submitted evaluation; its payload is an
/// `EvaluationSubmitted` of the procedure module.
pub const EVALUATION_SUBMITTED: &str = "learning.evaluation_submitted";

/// Which of a procedure's phases a case belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Trials that decide qualification (open while the procedure is a
    /// candidate).
    Qualification,
    /// Trials that watch a qualified procedure for drift.
    Monitoring,
}

/// What the evaluator says became of the case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvaluationStatus {
    /// The case ran to the end and was graded.
    Complete,
    /// The evaluator refused the run.
    Rejected,
    /// The run did not finish.
    Incomplete,
    /// The run was cancelled.
    Cancelled,
    /// The evaluator does not know how the run ended.
    PendingOrUnknown,
}

/// One evaluated case, as submitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Evaluation {
    /// The case's id: used once per procedure.
    pub case_id: String,
    /// The phase the case belongs to.
    pub phase: Phase,
    /// The policy the case was run under.
    pub policy_id: String,
    /// The evaluation context the case was run in.
    pub context_id: String,
    /// The baseline the candidate was paired with.
    pub baseline_revision: String,
    /// Where the case's evidence lives: used once per procedure, and never
    /// a development source.
    pub evidence_ref: String,
    /// What became of the case.
    pub status: EvaluationStatus,
    /// The baseline's utility in [0, 1]; null when unknown.
    #[serde(default)]
    pub baseline_utility: Option<f64>,
    /// The candidate's utility in [0, 1]; null when unknown.
    #[serde(default)]
    pub candidate_utility: Option<f64>,
    /// Cost units the candidate's run used; null when unknown (never 0).
    #[serde(default)]
    pub cost_units: Option<u64>,
    /// Milliseconds the candidate's run took; null when unknown.
    #[serde(default)]
    pub latency_ms: Option<u64>,
}

impl Evaluation {
    /// Checks every field; `path` points at the evaluation object.
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/case_id"), &self.case_id)?;
        check_text(&format!("{path}/policy_id"), &self.policy_id)?;
        check_text(&format!("{path}/context_id"), &self.context_id)?;
        check_text(
            &format!("{path}/baseline_revision"),
            &self.baseline_revision,
        )?;
        check_text(&format!("{path}/evidence_ref"), &self.evidence_ref)?;
        for (name, value) in [
            ("baseline_utility", self.baseline_utility),
            ("candidate_utility", self.candidate_utility),
        ] {
            if value.is_some_and(|u| !(0.0..=1.0).contains(&u)) {
                return Err(DomainError::invalid(
                    format!("{path}/{name}"),
                    "must be in [0, 1]",
                ));
            }
        }
        if let Some(c) = self.cost_units {
            check_exact(&format!("{path}/cost_units"), c)?;
        }
        if let Some(l) = self.latency_ms {
            check_exact(&format!("{path}/latency_ms"), l)?;
        }
        Ok(())
    }

    /// The paired difference and the candidate's utility, when both
    /// utilities are known.
    pub fn utilities(&self) -> Option<(f64, f64)> {
        Some((
            self.candidate_utility? - self.baseline_utility?,
            self.candidate_utility?,
        ))
    }
}

/// The outcome of an admission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdmissionOutcome {
    /// Counted.
    Accepted,
    /// Refused: it cannot count toward this procedure.
    Rejected,
    /// The run or its grading is incomplete.
    Incomplete,
    /// The run was cancelled.
    Cancelled,
    /// How the run ended is unknown.
    PendingOrUnknown,
    /// Its cost or latency is unknown, which is never read as zero.
    UnknownConsumption,
}

/// Why, in a stable word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdmissionReason {
    /// Counted.
    Accepted,
    /// Another policy, context or baseline than the procedure's.
    ContractMismatch,
    /// The evaluator refused the run.
    EvaluatorRejected,
    /// The run did not finish.
    IncompleteEvidence,
    /// The evaluator reported the run cancelled.
    EvaluatorReportedCancelled,
    /// The evaluator does not know how the run ended.
    OutcomeUnknown,
    /// Cost or latency is missing.
    ConsumptionUnknown,
    /// A utility is missing from a complete case.
    UtilityUnknown,
    /// The evidence was already used for this procedure by another case.
    EvidenceReused,
    /// The evidence is one of the procedure's development sources.
    DevelopmentEvidence,
    /// The phase is not open in the procedure's state.
    PhaseNotOpen,
}

/// What admission decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Admission {
    /// The outcome.
    pub outcome: AdmissionOutcome,
    /// Its reason.
    pub reason: AdmissionReason,
}

impl Admission {
    const fn of(outcome: AdmissionOutcome, reason: AdmissionReason) -> Self {
        Self { outcome, reason }
    }
}

/// What admission needs to know about the procedure besides the case.
#[derive(Clone, Copy, Debug)]
pub struct Standing<'a> {
    /// The procedure's policy.
    pub policy_id: &'a str,
    /// The procedure's context.
    pub context_id: &'a str,
    /// The context's baseline revision.
    pub baseline_revision: &'a str,
    /// The phase the procedure's state opens, if any.
    pub open_phase: Option<Phase>,
    /// Whether another case of this procedure already used the evidence.
    pub evidence_used: bool,
    /// The procedure's development sources.
    pub sources: &'a [String],
}

/// What an evaluation is answered with, for good: a resubmission gets
/// these bytes again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluationReceipt {
    /// The outcome.
    pub outcome: AdmissionOutcome,
    /// Its reason.
    pub reason: AdmissionReason,
    /// The procedure right after the evaluation.
    pub procedure: ProcedureSummary,
}

/// The payload of [`EVALUATION_SUBMITTED`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvaluationSubmitted {
    /// The procedure evaluated.
    pub procedure_id: String,
    /// The evaluation as sent.
    pub evaluation: Evaluation,
    /// The answer.
    pub receipt: EvaluationReceipt,
    /// The transition it triggered, if any.
    pub decision: Option<Decision>,
}

/// Decides whether `evaluation` may count toward the procedure.
pub fn admit(evaluation: &Evaluation, standing: &Standing<'_>) -> Admission {
    use AdmissionOutcome as O;
    use AdmissionReason as R;
    let e = evaluation;
    if e.policy_id != standing.policy_id
        || e.context_id != standing.context_id
        || e.baseline_revision != standing.baseline_revision
    {
        return Admission::of(O::Rejected, R::ContractMismatch);
    }
    if standing.open_phase != Some(e.phase) {
        return Admission::of(O::Rejected, R::PhaseNotOpen);
    }
    if standing.evidence_used {
        return Admission::of(O::Rejected, R::EvidenceReused);
    }
    if is_development_evidence(&e.evidence_ref, standing.sources) {
        return Admission::of(O::Rejected, R::DevelopmentEvidence);
    }
    match e.status {
        EvaluationStatus::Rejected => return Admission::of(O::Rejected, R::EvaluatorRejected),
        EvaluationStatus::Incomplete => {
            return Admission::of(O::Incomplete, R::IncompleteEvidence);
        }
        EvaluationStatus::Cancelled => {
            return Admission::of(O::Cancelled, R::EvaluatorReportedCancelled);
        }
        EvaluationStatus::PendingOrUnknown => {
            return Admission::of(O::PendingOrUnknown, R::OutcomeUnknown);
        }
        EvaluationStatus::Complete => {}
    }
    if e.utilities().is_none() {
        return Admission::of(O::Incomplete, R::UtilityUnknown);
    }
    if e.cost_units.is_none() || e.latency_ms.is_none() {
        return Admission::of(O::UnknownConsumption, R::ConsumptionUnknown);
    }
    Admission::of(O::Accepted, R::Accepted)
}

/// Whether an evaluation's evidence is one of the procedure's development
/// sources: the same string, or the same content named by its SHA-256. A
/// digest is any run of exactly 64 hex digits (either case) in a source or
/// in the evidence reference, so `sha256:<hex>`, `…/sha256/<HEX>` and
/// `praxis:strategy-request:sha256:<hex>` all name the content they pin,
/// and renaming a reference that keeps its digest does not make it
/// independent.
pub fn is_development_evidence(evidence_ref: &str, sources: &[String]) -> bool {
    if sources.iter().any(|s| s == evidence_ref) {
        return true;
    }
    let named = digests_in(evidence_ref);
    !named.is_empty()
        && sources
            .iter()
            .flat_map(|s| digests_in(s))
            .any(|d| named.contains(&d))
}

/// Every maximal run of exactly 64 hex digits in `text`, lowercased.
fn digests_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    while start < bytes.len() {
        if bytes[start].is_ascii_hexdigit() {
            let end = bytes[start..]
                .iter()
                .position(|b| !b.is_ascii_hexdigit())
                .map_or(bytes.len(), |n| start + n);
            if end - start == 64 {
                found.push(text[start..end].to_ascii_lowercase());
            }
            start = end;
        } else {
            start += 1;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case() -> Evaluation {
        Evaluation {
            case_id: "c1".into(),
            phase: Phase::Qualification,
            policy_id: "p".into(),
            context_id: "x".into(),
            baseline_revision: "b1".into(),
            evidence_ref: "eval://held-out/1".into(),
            status: EvaluationStatus::Complete,
            baseline_utility: Some(0.4),
            candidate_utility: Some(0.7),
            cost_units: Some(10),
            latency_ms: Some(20),
        }
    }

    fn standing(sources: &[String]) -> Standing<'_> {
        Standing {
            policy_id: "p",
            context_id: "x",
            baseline_revision: "b1",
            open_phase: Some(Phase::Qualification),
            evidence_used: false,
            sources,
        }
    }

    #[test]
    fn each_rule_has_its_reason() {
        use AdmissionReason as R;
        let sources = vec!["trace://dev/1".to_owned()];
        let s = standing(&sources);
        assert_eq!(admit(&case(), &s).reason, R::Accepted);
        let with = |f: fn(&mut Evaluation)| {
            let mut e = case();
            f(&mut e);
            admit(&e, &s).reason
        };
        assert_eq!(
            with(|e| e.baseline_revision = "b2".into()),
            R::ContractMismatch
        );
        assert_eq!(with(|e| e.phase = Phase::Monitoring), R::PhaseNotOpen);
        assert_eq!(
            with(|e| e.evidence_ref = "trace://dev/1".into()),
            R::DevelopmentEvidence
        );
        assert_eq!(
            with(|e| e.status = EvaluationStatus::Rejected),
            R::EvaluatorRejected
        );
        assert_eq!(
            with(|e| e.status = EvaluationStatus::Incomplete),
            R::IncompleteEvidence
        );
        assert_eq!(
            with(|e| e.status = EvaluationStatus::Cancelled),
            R::EvaluatorReportedCancelled
        );
        assert_eq!(
            with(|e| e.status = EvaluationStatus::PendingOrUnknown),
            R::OutcomeUnknown
        );
        assert_eq!(with(|e| e.candidate_utility = None), R::UtilityUnknown);
        assert_eq!(with(|e| e.cost_units = None), R::ConsumptionUnknown);
        assert_eq!(with(|e| e.latency_ms = None), R::ConsumptionUnknown);
        let used = Standing {
            evidence_used: true,
            ..s
        };
        assert_eq!(admit(&case(), &used).reason, R::EvidenceReused);
    }

    #[test]
    fn a_renamed_reference_with_the_same_digest_is_development_evidence() {
        let hex = "ab".repeat(32);
        let sources = vec![format!("sha256:{hex}")];
        assert!(is_development_evidence(
            &format!("s3://elsewhere/{}", hex.to_uppercase()),
            &sources
        ));
        // 63 or 65 digits name no digest.
        assert!(!is_development_evidence(
            &format!("x/{}", &hex[1..]),
            &sources
        ));
        assert!(!is_development_evidence(&format!("x/{hex}0"), &sources));
        assert!(!is_development_evidence("eval://held-out/1", &sources));
    }
}
