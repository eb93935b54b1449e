//! `anytime_drift_v1`: a sequential test that a qualified candidate's mean
//! paired difference has fallen below the threshold.
//!
//! A test started at monitoring trial j bets against "every trial's
//! conditional mean is at least the threshold μ₀" with the upper-side
//! empirical-Bernstein process of `anytime` (Waudby-Smith and Ramdas 2024,
//! Theorem 2, on 1 − x): Πᵢ≥ⱼ exp(λᵢ(μ₀ − xᵢ) − ψ_E(λᵢ)(xᵢ − rᵢ₋₁)²), a
//! nonnegative supermartingale under that null for any predictable bets λᵢ
//! in [0, 1) and estimates rᵢ₋₁ in [0, 1].
//!
//! One test started at the first trial would carry the whole history: a
//! long good stretch leaves its wealth low, and a later drop must first
//! climb out of it. So a test is started at every trial j with weight wⱼ,
//! Σ wⱼ ≤ 1, and the rule alarms when the weighted sum Sₜ reaches 1/α. Sₜ
//! plus the weights not yet used is a nonnegative supermartingale starting
//! at most 1 (the construction of Shin, Ramdas and Rinaldo's e-detectors,
//! "E-detectors: a nonparametric framework for sequential change
//! detection", 2023, with summable weights), so by Ville's inequality the
//! rule *ever* alarms with probability at most α while the null holds. The
//! sum obeys Sₜ = e^{gₜ}(Sₜ₋₁ + wₜ), where gₜ is trial t's log factor, so
//! it costs O(1) per trial. A drop at trial τ is found by the test started
//! near τ, at an extra cost of ln(1/w_τ) ≈ ln τ + 2 ln ln τ nats of
//! evidence: the price of a false-alarm probability (not merely a long
//! average run) over an unbounded horizon.
//!
//! The bet follows a recent estimate (an exponentially weighted mean, 1/16
//! per trial, starting at the qualification mean): zero while the recent
//! mean is above μ₀, so good stretches cost nothing, growing with the gap
//! once it falls below, capped at one half.

use serde::{Deserialize, Serialize};

use super::{MAX_BET, psi, to_unit};

/// What the drift rule has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriftVerdict {
    /// No evidence yet that the improvement fell below the threshold.
    Holding,
    /// The evidence shows the improvement fell below the threshold.
    Drifted,
}

/// How fast the recent estimates follow new trials.
const RECENT_WEIGHT: f64 = 1.0 / 16.0;
/// A bound on Σ_{k≥2} 1/(k ln²k) (≤ 1/(2 ln²2) + 1/ln 2 ≈ 2.4834, bounding
/// the tail by its integral), so that wⱼ = 1/(NORM (j+1) ln²(j+1)) sum to
/// at most 1.
const NORM: f64 = 2.49;
/// The least variance estimate a bet divides by.
const MIN_VARIANCE: f64 = 1e-6;

/// The log weight of the test started at trial j ≥ 1.
fn log_weight(j: u64) -> f64 {
    let k = (j + 1) as f64;
    -(NORM * k * k.ln().powi(2)).ln()
}

/// ln(eᵃ + eᵇ) without overflow.
fn log_add(a: f64, b: f64) -> f64 {
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// A drift test in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DriftTest {
    false_alarm_delta: f64,
    threshold: f64,
    trials: u64,
    /// The recent mean on the [0, 1] scale.
    recent: f64,
    /// The recent variance.
    variance: f64,
    /// ln Sₜ; none before the first trial (S₀ = 0).
    log_evidence: Option<f64>,
    verdict: DriftVerdict,
}

impl DriftTest {
    /// A drift test against `min_improvement` that alarms falsely with
    /// probability at most `false_alarm_delta`, starting its recent
    /// estimate at `qualified_mean` (which moves only its power).
    pub fn new(false_alarm_delta: f64, min_improvement: f64, qualified_mean: f64) -> Self {
        Self {
            false_alarm_delta,
            threshold: min_improvement,
            trials: 0,
            recent: to_unit(qualified_mean),
            variance: 0.25,
            log_evidence: None,
            verdict: DriftVerdict::Holding,
        }
    }

    /// Counts one monitoring difference. After `Drifted` nothing changes.
    pub fn observe(&mut self, difference: f64) -> DriftVerdict {
        if self.verdict == DriftVerdict::Drifted {
            return self.verdict;
        }
        let x = to_unit(difference);
        let target = to_unit(self.threshold);
        let bet = ((target - self.recent) / self.variance.max(MIN_VARIANCE)).clamp(0.0, MAX_BET);
        let deviation_sq = (x - self.recent).powi(2);
        let gain = bet * (target - x) - psi(bet) * deviation_sq;
        self.trials += 1;
        let weight = log_weight(self.trials);
        let carried = self.log_evidence.map_or(weight, |e| log_add(e, weight));
        let evidence = gain + carried;
        self.log_evidence = Some(evidence);
        self.variance += RECENT_WEIGHT * (deviation_sq - self.variance);
        self.recent += RECENT_WEIGHT * (x - self.recent);
        if evidence >= (1.0 / self.false_alarm_delta).ln() {
            self.verdict = DriftVerdict::Drifted;
        }
        self.verdict
    }

    /// What has been decided.
    pub fn verdict(&self) -> DriftVerdict {
        self.verdict
    }

    /// Monitoring differences counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// ln Sₜ, the log of the weighted evidence against "no drift" (the rule
    /// alarms at ln(1/α)); none before the first trial.
    pub fn log_evidence(&self) -> Option<f64> {
        self.log_evidence
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_at_most_one() {
        let partial: f64 = (1..=1_000_000u64).map(|j| log_weight(j).exp()).sum();
        // The rest is at most ∫ from 10⁶ of 1/(NORM x ln²x) dx = 1/(NORM ln 10⁶).
        let tail = 1.0 / (NORM * 1e6f64.ln());
        assert!(partial + tail <= 1.0, "{}", partial + tail);
    }

    #[test]
    fn the_recursion_equals_the_weighted_sum_of_started_tests() {
        let xs = [0.3, -0.2, 0.1, -0.5, 0.0, -0.3, 0.2, -0.4];
        let mut drift = DriftTest::new(1e-9, 0.05, 0.0);
        // Each trial's log factor gₜ, recovered from ln Sₜ = gₜ + ln(Sₜ₋₁ + wₜ).
        let mut gains = Vec::new();
        for d in xs {
            let before = drift.log_evidence();
            drift.observe(d);
            let w = log_weight(drift.trials());
            let carried = before.map_or(w, |e| log_add(e, w));
            gains.push(drift.log_evidence().unwrap() - carried);
        }
        assert!(gains.iter().any(|g| *g > 0.0) && gains.iter().all(|g| g.is_finite()));
        let direct: f64 = (1..=xs.len())
            .map(|j| (log_weight(j as u64) + gains[j - 1..].iter().sum::<f64>()).exp())
            .sum();
        let kept = drift.log_evidence().unwrap().exp();
        assert!(
            (direct - kept).abs() < 1e-12 * direct.max(1.0),
            "{direct} {kept}"
        );
    }

    #[test]
    fn a_long_good_stretch_does_not_blind_it() {
        let mut drift = DriftTest::new(0.05, 0.05, 0.3);
        for i in 0..5_000 {
            drift.observe(if i % 2 == 0 { 0.6 } else { 0.0 });
        }
        assert_eq!(drift.verdict(), DriftVerdict::Holding);
        let start = drift.trials();
        while drift.observe(-0.5) == DriftVerdict::Holding {}
        assert!(drift.trials() - start < 100, "{}", drift.trials() - start);
    }
}
