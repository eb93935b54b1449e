//! Learning policies: the registered, immutable rules by which a candidate
//! will be evaluated, qualified and monitored (the next issue runs them).

use serde::{Deserialize, Serialize};

use super::registry::registry_digest;
use super::text::{check_exact, check_text};
use crate::digest::Digest;
use crate::error::DomainError;

/// Event kind of a registered policy; its payload is a [`PolicyRegistered`].
pub const POLICY_REGISTERED: &str = "learning.policy_registered";
/// Fewest trials a fixed-sample run (or any run's cap) may name.
pub const MIN_TRIALS: u64 = 2;
/// Most trials a fixed-sample run (or any run's cap) may name.
pub const MAX_TRIALS: u64 = 1_000_000;

/// The stream of one policy's registration.
pub fn policy_stream(id: &str) -> String {
    format!("learning-policy/{id}")
}

/// How a candidate is qualified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// A fixed number of paired trials, then one Hoeffding test.
    FixedHoeffdingV1,
    /// An anytime-valid sequential test, stopped at `max_trials`.
    AnytimeV1,
}

/// The drift rule that may suspend a selected candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MonitoringRule {
    /// An anytime-valid drift test on selected runs.
    AnytimeDriftV1,
}

/// How a selected candidate is watched.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monitoring {
    /// The rule.
    pub rule: MonitoringRule,
    /// Probability of suspending a candidate that did not drift, in (0, 0.5).
    pub false_alarm_delta: f64,
}

/// A policy's parameters, exactly as the issue lists them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameters {
    /// The subject whose credential alone may submit evaluations.
    pub evaluator_subject: String,
    /// Probability of qualifying a candidate that is not better, in (0, 0.5).
    pub confidence_delta: f64,
    /// Least utility gain over the baseline, in [0, 1].
    pub min_improvement: f64,
    /// Least utility a candidate must reach, in [0, 1].
    pub min_candidate_utility: f64,
    /// Most cost units one trial may use.
    pub max_cost_units: u64,
    /// Most milliseconds one trial may take.
    pub max_latency_ms: u64,
    /// Trials of a fixed-sample run; null for an anytime run.
    pub qualification_trials: Option<u64>,
    /// The most trials any run may take.
    pub max_trials: u64,
    /// How a selected candidate is watched.
    pub monitoring: Monitoring,
    /// What the evaluation measures, in a sentence.
    pub evaluation_contract: String,
}

/// A learning policy as registered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    /// The policy's id, tenant-wide.
    pub id: String,
    /// How candidates are qualified.
    pub algorithm: Algorithm,
    /// Its parameters.
    pub parameters: Parameters,
}

/// The payload of [`POLICY_REGISTERED`]: the policy as sent and its digest.
/// Who registered it and when are the event's actor and time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyRegistered {
    /// The policy.
    pub policy: Policy,
    /// [`Policy::digest`].
    pub digest: Digest,
}

fn open_half(path: String, value: f64) -> Result<(), DomainError> {
    // Written so that NaN fails too.
    if value > 0.0 && value < 0.5 {
        Ok(())
    } else {
        Err(DomainError::invalid(path, "must be in (0, 0.5)"))
    }
}

fn unit(path: String, value: f64) -> Result<(), DomainError> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(DomainError::invalid(path, "must be in [0, 1]"))
    }
}

fn budget(path: String, value: u64) -> Result<(), DomainError> {
    if value == 0 {
        return Err(DomainError::invalid(path, "must be at least 1"));
    }
    check_exact(&path, value)
}

fn trials(path: String, value: u64) -> Result<(), DomainError> {
    if (MIN_TRIALS..=MAX_TRIALS).contains(&value) {
        Ok(())
    } else {
        Err(DomainError::invalid(
            path,
            format!("must be {MIN_TRIALS} to {MAX_TRIALS}"),
        ))
    }
}

impl Policy {
    /// Checks every field; `path` points at the policy object (`/policy`).
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/id"), &self.id)?;
        let at = format!("{path}/parameters");
        let p = &self.parameters;
        check_text(&format!("{at}/evaluator_subject"), &p.evaluator_subject)?;
        open_half(format!("{at}/confidence_delta"), p.confidence_delta)?;
        unit(format!("{at}/min_improvement"), p.min_improvement)?;
        unit(
            format!("{at}/min_candidate_utility"),
            p.min_candidate_utility,
        )?;
        budget(format!("{at}/max_cost_units"), p.max_cost_units)?;
        budget(format!("{at}/max_latency_ms"), p.max_latency_ms)?;
        let q = format!("{at}/qualification_trials");
        match (self.algorithm, p.qualification_trials) {
            (Algorithm::FixedHoeffdingV1, None) => {
                return Err(DomainError::invalid(
                    q,
                    "is required for fixed_hoeffding_v1",
                ));
            }
            (Algorithm::FixedHoeffdingV1, Some(n)) => trials(q, n)?,
            (Algorithm::AnytimeV1, Some(_)) => {
                return Err(DomainError::invalid(q, "must be null for anytime_v1"));
            }
            (Algorithm::AnytimeV1, None) => {}
        }
        trials(format!("{at}/max_trials"), p.max_trials)?;
        if p.qualification_trials.is_some_and(|n| n > p.max_trials) {
            // A fixed run that may not take its own sample could never decide.
            return Err(DomainError::invalid(
                format!("{at}/max_trials"),
                "must be at least qualification_trials",
            ));
        }
        open_half(
            format!("{at}/monitoring/false_alarm_delta"),
            p.monitoring.false_alarm_delta,
        )?;
        check_text(&format!("{at}/evaluation_contract"), &p.evaluation_contract)
    }

    /// Plain SHA-256 of the policy's canonical JSON; `qualification_trials`
    /// is always present, null when absent.
    pub fn digest(&self) -> Digest {
        registry_digest(self)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::canonical::{canonical_bytes, parse_strict};
    use serde_json::json;

    /// The example policy.
    pub(crate) fn anytime() -> Policy {
        serde_json::from_value(json!({
            "id": "policy-v1", "algorithm": "anytime_v1",
            "parameters": {"evaluator_subject": "grader", "confidence_delta": 0.01,
                "min_improvement": 0.05, "min_candidate_utility": 0.6,
                "max_cost_units": 10000, "max_latency_ms": 60000,
                "qualification_trials": null, "max_trials": 2000,
                "monitoring": {"rule": "anytime_drift_v1", "false_alarm_delta": 0.01},
                "evaluation_contract": "paired held-out tasks, utility in [0,1]"}
        }))
        .unwrap()
    }

    fn refused(edit: impl FnOnce(&mut Policy)) -> String {
        let mut p = anytime();
        edit(&mut p);
        p.validate("/policy")
            .unwrap_err()
            .path()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn the_example_is_valid() {
        assert_eq!(anytime().validate("/policy"), Ok(()));
        let mut fixed = anytime();
        fixed.algorithm = Algorithm::FixedHoeffdingV1;
        fixed.parameters.qualification_trials = Some(2);
        assert_eq!(fixed.validate("/policy"), Ok(()));
    }

    #[test]
    fn every_parameter_names_its_pointer() {
        let at = |f: &str| format!("/policy/parameters/{f}");
        assert_eq!(refused(|p| p.id = String::new()), "/policy/id");
        assert_eq!(
            refused(|p| p.parameters.evaluator_subject = "x".repeat(513)),
            at("evaluator_subject")
        );
        for bad in [0.0, 0.5, -0.1, f64::NAN] {
            assert_eq!(
                refused(|p| p.parameters.confidence_delta = bad),
                at("confidence_delta")
            );
            assert_eq!(
                refused(|p| p.parameters.monitoring.false_alarm_delta = bad),
                at("monitoring/false_alarm_delta")
            );
        }
        for bad in [-0.01, 1.01, f64::NAN] {
            assert_eq!(
                refused(|p| p.parameters.min_improvement = bad),
                at("min_improvement")
            );
            assert_eq!(
                refused(|p| p.parameters.min_candidate_utility = bad),
                at("min_candidate_utility")
            );
        }
        assert_eq!(
            refused(|p| p.parameters.max_cost_units = 0),
            at("max_cost_units")
        );
        assert_eq!(
            refused(|p| p.parameters.max_latency_ms = 1 << 53),
            at("max_latency_ms")
        );
        assert_eq!(
            refused(|p| p.parameters.qualification_trials = Some(10)),
            at("qualification_trials")
        );
        for bad in [1, MAX_TRIALS + 1] {
            assert_eq!(refused(|p| p.parameters.max_trials = bad), at("max_trials"));
        }
        assert_eq!(
            refused(|p| p.parameters.evaluation_contract = " ".into()),
            at("evaluation_contract")
        );
    }

    #[test]
    fn fixed_runs_need_a_sample_within_the_cap() {
        let fixed = |n: Option<u64>, cap: u64| {
            refused(|p| {
                p.algorithm = Algorithm::FixedHoeffdingV1;
                p.parameters.qualification_trials = n;
                p.parameters.max_trials = cap;
            })
        };
        let q = "/policy/parameters/qualification_trials";
        assert_eq!(fixed(None, 10), q);
        assert_eq!(fixed(Some(1), 10), q);
        assert_eq!(fixed(Some(MAX_TRIALS + 1), MAX_TRIALS), q);
        assert_eq!(fixed(Some(11), 10), "/policy/parameters/max_trials");
    }

    #[test]
    fn unknown_fields_and_algorithms_are_refused() {
        let mut v = serde_json::to_value(anytime()).unwrap();
        v["parameters"]["extra"] = json!(1);
        assert!(serde_json::from_value::<Policy>(v).is_err());
        let mut v = serde_json::to_value(anytime()).unwrap();
        v["algorithm"] = json!("bandit_v1");
        assert!(serde_json::from_value::<Policy>(v).is_err());
    }

    #[test]
    fn the_digest_is_of_the_canonical_payload() {
        let p = anytime();
        let canonical = canonical_bytes(&serde_json::to_value(&p).unwrap());
        assert_eq!(p.digest(), Digest::sha256(&canonical));
        // Another spelling of the same numbers is the same payload.
        let text = String::from_utf8(canonical)
            .unwrap()
            .replace("0.01", "1e-2");
        let respelled: Policy =
            serde_json::from_value(parse_strict(text.as_bytes()).unwrap()).unwrap();
        assert_eq!(respelled.digest(), p.digest());
        let mut changed = p.clone();
        changed.parameters.max_trials += 1;
        assert_ne!(changed.digest(), p.digest());
    }
}
