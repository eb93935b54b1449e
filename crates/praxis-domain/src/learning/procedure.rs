//! Procedures: candidate guidance under a policy and a context, and the
//! lifecycle the policy's rules drive it through.
//!
//! ```text
//! candidate ──(qualification rule)──▶ qualified ──(drift rule)──▶ suspended
//!     └──────(qualification rule)──▶ rejected
//! ```
//!
//! Every transition is a [`Decision`] that names its trigger: the case whose
//! accepted evaluation moved the rule, with the rule's reason. Nothing else
//! moves a procedure: a rejected or suspended one stays so, and a revision
//! is a new procedure that names it in `supersedes`, with zero trials.
//!
//! The record is a fold of the procedure's accepted evaluations in order:
//! [`ProcedureRecord::count`] is the only step, so a reader re-runs it to
//! verify a stored record.

use serde::{Deserialize, Serialize};

use super::evaluation::{Evaluation, Phase};
use super::policy::{Algorithm, Policy};
use super::stats::{
    AnytimeTest, DriftTest, DriftVerdict, FixedHoeffding, Verdict, candidate_delta,
};

/// Where a procedure stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProcedureState {
    /// Being qualified.
    Candidate,
    /// Qualified, and watched for drift.
    Qualified,
    /// Not qualified, for good.
    Rejected,
    /// Qualified once, then suspended by the drift rule, for good.
    Suspended,
}

impl ProcedureState {
    /// The state's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Candidate => "candidate",
            Self::Qualified => "qualified",
            Self::Rejected => "rejected",
            Self::Suspended => "suspended",
        }
    }

    /// The evaluation phase the state accepts, if any.
    pub fn open_phase(self) -> Option<Phase> {
        match self {
            Self::Candidate => Some(Phase::Qualification),
            Self::Qualified => Some(Phase::Monitoring),
            Self::Rejected | Self::Suspended => None,
        }
    }
}

/// Why a procedure moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecisionReason {
    /// The lower bound cleared `min_improvement`, the mean candidate utility
    /// reached its minimum, and no trial broke the budget.
    Qualified,
    /// The upper bound fell below `min_improvement` (or the fixed test's
    /// lower bound did not reach it at n).
    ImprovementNotShown,
    /// The mean candidate utility was below `min_candidate_utility` when
    /// the rule had to decide.
    CandidateUtilityBelowMinimum,
    /// A trial used more cost units or milliseconds than the policy allows.
    BudgetExceeded,
    /// An anytime run reached `max_trials` undecided.
    TrialBudgetExhausted,
    /// The drift rule found the improvement fell below `min_improvement`.
    DriftDetected,
}

/// The rule that decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleName {
    /// `fixed_hoeffding_v1`
    FixedHoeffdingV1,
    /// `anytime_v1`
    AnytimeV1,
    /// `anytime_drift_v1`
    AnytimeDriftV1,
}

/// One transition and what triggered it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    /// The state left.
    pub from: ProcedureState,
    /// The state entered.
    pub to: ProcedureState,
    /// The rule that decided.
    pub rule: RuleName,
    /// Why.
    pub reason: DecisionReason,
    /// The case whose evaluation triggered it.
    pub case_id: String,
    /// Qualification trials counted when it was decided (monitoring trials
    /// for a suspension).
    pub trial: u64,
}

/// The qualification rule in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QualificationRule {
    /// `fixed_hoeffding_v1`
    Fixed(FixedHoeffding),
    /// `anytime_v1`
    Anytime(AnytimeTest),
}

/// A procedure's statistics and lifecycle: what `procedures/read` shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcedureRecord {
    /// Where it stands.
    pub state: ProcedureState,
    /// Its ordinal among the procedures registered for its (policy,
    /// context) in its namespace, from 1.
    pub candidate_index: u64,
    /// The share of the policy's δ its qualification spends
    /// ([`candidate_delta`]).
    pub delta: f64,
    /// Accepted qualification trials.
    pub trials: u64,
    /// Σ candidate utility over them.
    pub candidate_utility_sum: f64,
    /// Trials (of either phase) that broke the cost or latency budget.
    pub budget_violations: u64,
    /// The qualification rule's state.
    pub rule: QualificationRule,
    /// The lower bound at qualification: what selection ranks by.
    pub qualified_lower_bound: Option<f64>,
    /// The drift rule's state, once qualified.
    pub monitoring: Option<DriftTest>,
    /// Every transition, in order.
    pub decisions: Vec<Decision>,
}

/// A procedure's standing as answered by `procedures/read` and inside an
/// evaluation's receipt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcedureSummary {
    /// The procedure.
    pub id: String,
    /// Where it stands.
    pub state: ProcedureState,
    /// Accepted qualification trials.
    pub trials: u64,
    /// Mean paired difference over them.
    pub mean_difference: Option<f64>,
    /// Mean candidate utility over them.
    pub mean_candidate_utility: Option<f64>,
    /// Trials that broke the budget.
    pub budget_violations: u64,
    /// The current lower bound on the mean paired difference.
    pub lower_bound: f64,
    /// The current upper bound.
    pub upper_bound: f64,
    /// The share of δ the qualification spends.
    pub delta: f64,
    /// Its ordinal among its (policy, context)'s procedures.
    pub candidate_index: u64,
    /// Accepted monitoring trials.
    pub monitoring_trials: u64,
    /// Every transition, in order.
    pub decisions: Vec<Decision>,
}

impl ProcedureRecord {
    /// A new candidate under `policy`, the `candidate_index`-th for its
    /// (policy, context) in its namespace.
    pub fn new(policy: &Policy, candidate_index: u64) -> Self {
        let p = &policy.parameters;
        let delta = candidate_delta(p.confidence_delta, candidate_index);
        let rule = match policy.algorithm {
            Algorithm::FixedHoeffdingV1 => QualificationRule::Fixed(FixedHoeffding::new(
                p.qualification_trials.unwrap_or(p.max_trials),
                delta,
                p.min_improvement,
            )),
            Algorithm::AnytimeV1 => {
                QualificationRule::Anytime(AnytimeTest::new(delta, p.min_improvement))
            }
        };
        Self {
            state: ProcedureState::Candidate,
            candidate_index: candidate_index.max(1),
            delta,
            trials: 0,
            candidate_utility_sum: 0.0,
            budget_violations: 0,
            rule,
            qualified_lower_bound: None,
            monitoring: None,
            decisions: Vec::new(),
        }
    }

    /// The mean paired difference over qualification trials.
    pub fn mean_difference(&self) -> Option<f64> {
        match &self.rule {
            QualificationRule::Fixed(t) => t.mean(),
            QualificationRule::Anytime(t) => t.mean(),
        }
    }

    /// The mean candidate utility over qualification trials.
    pub fn mean_candidate_utility(&self) -> Option<f64> {
        (self.trials > 0).then(|| self.candidate_utility_sum / self.trials as f64)
    }

    /// The current lower and upper bounds on the mean paired difference.
    pub fn bounds(&self) -> (f64, f64) {
        match &self.rule {
            QualificationRule::Fixed(t) => (t.lower(), t.upper()),
            QualificationRule::Anytime(t) => (t.lower(), t.upper()),
        }
    }

    /// What a reader is shown of the record.
    pub fn summary(&self, id: &str) -> ProcedureSummary {
        let (lower_bound, upper_bound) = self.bounds();
        ProcedureSummary {
            id: id.to_owned(),
            state: self.state,
            trials: self.trials,
            mean_difference: self.mean_difference(),
            mean_candidate_utility: self.mean_candidate_utility(),
            budget_violations: self.budget_violations,
            lower_bound,
            upper_bound,
            delta: self.delta,
            candidate_index: self.candidate_index,
            monitoring_trials: self.monitoring.as_ref().map_or(0, DriftTest::trials),
            decisions: self.decisions.clone(),
        }
    }

    /// Counts one *accepted* evaluation (admission decided it may count)
    /// and returns the transition it triggered, if any. The evaluation's
    /// phase is the one the state opens; an accepted evaluation always has
    /// both utilities and both consumption figures.
    pub fn count(&mut self, policy: &Policy, evaluation: &Evaluation) -> Option<Decision> {
        let (difference, candidate) = evaluation.utilities()?;
        let p = &policy.parameters;
        let over_budget = evaluation.cost_units.is_some_and(|c| c > p.max_cost_units)
            || evaluation.latency_ms.is_some_and(|l| l > p.max_latency_ms);
        if over_budget {
            self.budget_violations += 1;
        }
        let decided = match self.state {
            ProcedureState::Candidate => self.qualify(policy, difference, candidate, over_budget),
            ProcedureState::Qualified => self.monitor(difference, over_budget),
            ProcedureState::Rejected | ProcedureState::Suspended => None,
        };
        let (to, rule, reason) = decided?;
        let decision = Decision {
            from: self.state,
            to,
            rule,
            reason,
            case_id: evaluation.case_id.clone(),
            trial: if to == ProcedureState::Suspended {
                self.monitoring.as_ref().map_or(0, DriftTest::trials)
            } else {
                self.trials
            },
        };
        if to == ProcedureState::Qualified {
            self.qualified_lower_bound = Some(self.bounds().0);
            self.monitoring = Some(DriftTest::new(
                p.monitoring.false_alarm_delta,
                p.min_improvement,
                self.mean_difference().unwrap_or(0.0),
            ));
        }
        self.state = to;
        self.decisions.push(decision.clone());
        Some(decision)
    }

    fn qualify(
        &mut self,
        policy: &Policy,
        difference: f64,
        candidate: f64,
        over_budget: bool,
    ) -> Option<(ProcedureState, RuleName, DecisionReason)> {
        use DecisionReason as R;
        use ProcedureState::{Qualified, Rejected};
        let p = &policy.parameters;
        self.trials += 1;
        self.candidate_utility_sum += candidate;
        let utility_met =
            self.candidate_utility_sum / self.trials as f64 >= p.min_candidate_utility;
        match &mut self.rule {
            QualificationRule::Fixed(test) => {
                let verdict = test.observe(difference);
                if verdict == Verdict::Undecided {
                    return None;
                }
                let reason = if self.budget_violations > 0 {
                    R::BudgetExceeded
                } else if verdict == Verdict::Reject {
                    R::ImprovementNotShown
                } else if !utility_met {
                    R::CandidateUtilityBelowMinimum
                } else {
                    return Some((Qualified, RuleName::FixedHoeffdingV1, R::Qualified));
                };
                Some((Rejected, RuleName::FixedHoeffdingV1, reason))
            }
            QualificationRule::Anytime(test) => {
                // A broken budget can never be undone: no later trial could
                // qualify the procedure, so it is rejected at once.
                if over_budget {
                    return Some((Rejected, RuleName::AnytimeV1, R::BudgetExceeded));
                }
                // After the bound has cleared, the test is decided for good;
                // later trials only move the utility mean, which may still
                // reach its minimum before the cap.
                let verdict = test.observe(difference);
                let exhausted = self.trials >= p.max_trials;
                match verdict {
                    Verdict::Reject => {
                        Some((Rejected, RuleName::AnytimeV1, R::ImprovementNotShown))
                    }
                    Verdict::Qualify if utility_met => {
                        Some((Qualified, RuleName::AnytimeV1, R::Qualified))
                    }
                    Verdict::Qualify if exhausted => Some((
                        Rejected,
                        RuleName::AnytimeV1,
                        R::CandidateUtilityBelowMinimum,
                    )),
                    _ if exhausted => {
                        Some((Rejected, RuleName::AnytimeV1, R::TrialBudgetExhausted))
                    }
                    _ => None,
                }
            }
        }
    }

    fn monitor(
        &mut self,
        difference: f64,
        over_budget: bool,
    ) -> Option<(ProcedureState, RuleName, DecisionReason)> {
        let drift = self.monitoring.as_mut()?;
        let verdict = drift.observe(difference);
        if over_budget {
            return Some((
                ProcedureState::Suspended,
                RuleName::AnytimeDriftV1,
                DecisionReason::BudgetExceeded,
            ));
        }
        (verdict == DriftVerdict::Drifted).then_some((
            ProcedureState::Suspended,
            RuleName::AnytimeDriftV1,
            DecisionReason::DriftDetected,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::evaluation::{EvaluationStatus, Standing, admit};
    use crate::learning::policy::tests::anytime;
    use proptest::prelude::*;

    /// One generated submission: which phase, what status, the utilities
    /// and the consumption (None for unknown, `true` for over the budget).
    #[derive(Clone, Debug)]
    struct Step {
        monitoring: bool,
        status: EvaluationStatus,
        utilities: Option<(f64, f64)>,
        consumption: Option<bool>,
    }

    fn step() -> impl Strategy<Value = Step> {
        let status = prop_oneof![
            8 => Just(EvaluationStatus::Complete),
            1 => Just(EvaluationStatus::Rejected),
            1 => Just(EvaluationStatus::Incomplete),
            1 => Just(EvaluationStatus::Cancelled),
            1 => Just(EvaluationStatus::PendingOrUnknown),
        ];
        let grid = (0u8..=4).prop_map(|u| f64::from(u) / 4.0);
        (
            prop::bool::weighted(0.3),
            status,
            prop::option::weighted(0.9, (grid.clone(), grid)),
            prop::option::weighted(0.9, prop::bool::weighted(0.03)),
        )
            .prop_map(|(monitoring, status, utilities, consumption)| Step {
                monitoring,
                status,
                utilities,
                consumption,
            })
    }

    fn policy(fixed: Option<u64>, max_trials: u64) -> Policy {
        let mut p = anytime();
        p.parameters.max_trials = max_trials;
        p.parameters.min_candidate_utility = 0.5;
        p.parameters.confidence_delta = 0.2;
        if let Some(n) = fixed {
            p.algorithm = Algorithm::FixedHoeffdingV1;
            p.parameters.qualification_trials = Some(n);
        }
        p
    }

    fn evaluation(i: usize, s: &Step, p: &Policy) -> Evaluation {
        let over = s.consumption == Some(true);
        Evaluation {
            case_id: format!("case-{i}"),
            phase: if s.monitoring {
                Phase::Monitoring
            } else {
                Phase::Qualification
            },
            policy_id: p.id.clone(),
            context_id: "ctx".into(),
            baseline_revision: "base".into(),
            evidence_ref: format!("eval://{i}"),
            status: s.status,
            baseline_utility: s.utilities.map(|u| u.0),
            candidate_utility: s.utilities.map(|u| u.1),
            cost_units: s.consumption.map(|_| if over { 20_000 } else { 5 }),
            latency_ms: s.consumption.map(|_| 5),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The record against a model that knows only the lifecycle's rules:
        /// which steps count, which edges exist, when each rule may decide.
        #[test]
        fn the_lifecycle_follows_its_model(
            steps in prop::collection::vec(step(), 0..120),
            fixed in prop::option::of(2u64..20),
            max_trials in 2u64..60,
        ) {
            let max_trials = max_trials.max(fixed.unwrap_or(0));
            let p = policy(fixed, max_trials);
            let mut record = ProcedureRecord::new(&p, 1);
            let (mut model_state, mut counted, mut monitored) =
                (ProcedureState::Candidate, 0u64, 0u64);
            let (mut violations_in_qualification, mut utility_sum) = (0u64, 0.0);
            for (i, s) in steps.iter().enumerate() {
                let e = evaluation(i, s, &p);
                let standing = Standing {
                    policy_id: &p.id,
                    context_id: "ctx",
                    baseline_revision: "base",
                    open_phase: record.state.open_phase(),
                    evidence_used: false,
                    sources: &[],
                };
                let admission = admit(&e, &standing);
                let accepted = admission.outcome == crate::learning::evaluation::AdmissionOutcome::Accepted;
                // The model's view of admission: the open phase, a complete
                // status, known utilities and consumption.
                let open = match model_state {
                    ProcedureState::Candidate => !s.monitoring,
                    ProcedureState::Qualified => s.monitoring,
                    _ => false,
                };
                prop_assert_eq!(accepted, open && s.status == EvaluationStatus::Complete
                    && s.utilities.is_some() && s.consumption.is_some());
                let before = record.clone();
                let decision = if accepted { record.count(&p, &e) } else { None };
                if !accepted {
                    prop_assert_eq!(&before, &record);
                    continue;
                }
                let over = s.consumption == Some(true);
                if model_state == ProcedureState::Candidate {
                    counted += 1;
                    utility_sum += s.utilities.unwrap().1;
                    violations_in_qualification += u64::from(over);
                } else {
                    monitored += 1;
                }
                prop_assert_eq!(record.trials, counted);
                match decision {
                    None => prop_assert_eq!(record.state, model_state),
                    Some(d) => {
                        prop_assert_eq!(d.from, model_state);
                        prop_assert_eq!(d.to, record.state);
                        prop_assert_eq!(&d.case_id, &e.case_id);
                        let edge = matches!(
                            (d.from, d.to),
                            (ProcedureState::Candidate, ProcedureState::Qualified | ProcedureState::Rejected)
                                | (ProcedureState::Qualified, ProcedureState::Suspended)
                        );
                        prop_assert!(edge, "{:?}", d);
                        if d.to == ProcedureState::Qualified {
                            prop_assert_eq!(violations_in_qualification, 0);
                            prop_assert!(utility_sum / counted as f64 >= 0.5);
                            let lower = record.qualified_lower_bound.unwrap();
                            match fixed {
                                Some(n) => {
                                    prop_assert_eq!(counted, n);
                                    prop_assert!(lower >= p.parameters.min_improvement);
                                }
                                None => prop_assert!(lower > p.parameters.min_improvement),
                            }
                        }
                        if d.to == ProcedureState::Rejected {
                            match fixed {
                                Some(n) => prop_assert_eq!(counted, n),
                                None => prop_assert!(
                                    over || counted == max_trials
                                        || d.reason == DecisionReason::ImprovementNotShown
                                ),
                            }
                        }
                        if d.to == ProcedureState::Suspended {
                            prop_assert_eq!(d.trial, monitored);
                        }
                        model_state = d.to;
                    }
                }
                prop_assert_eq!(record.decisions.len(),
                    usize::from(model_state != ProcedureState::Candidate)
                        + usize::from(model_state == ProcedureState::Suspended));
                // An anytime candidate never outlives its cap; a fixed one
                // never outlives n.
                if model_state == ProcedureState::Candidate {
                    prop_assert!(counted < fixed.unwrap_or(max_trials));
                }
            }
        }
    }

    #[test]
    fn a_fixed_run_over_budget_is_rejected_at_n_for_its_budget() {
        let p = policy(Some(3), 10);
        let mut record = ProcedureRecord::new(&p, 1);
        let good = Step {
            monitoring: false,
            status: EvaluationStatus::Complete,
            utilities: Some((0.0, 1.0)),
            consumption: Some(false),
        };
        let over = Step {
            consumption: Some(true),
            ..good.clone()
        };
        assert_eq!(record.count(&p, &evaluation(0, &over, &p)), None);
        assert_eq!(record.count(&p, &evaluation(1, &good, &p)), None);
        let d = record.count(&p, &evaluation(2, &good, &p)).unwrap();
        assert_eq!(
            (d.to, d.reason),
            (ProcedureState::Rejected, DecisionReason::BudgetExceeded)
        );
    }
}
