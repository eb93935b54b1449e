//! The statistics by which a candidate is qualified and a qualified
//! candidate is watched, on *paired differences*: a held-out case's
//! candidate utility minus its baseline utility, each in [0, 1], so a
//! difference is in [−1, 1].
//!
//! - `fixed`: `fixed_hoeffding_v1`, one Hoeffding test at exactly n trials;
//! - `anytime`: `anytime_v1`, an anytime-valid confidence sequence checked
//!   after every trial;
//! - `drift`: `anytime_drift_v1`, a sequential test that a monitored mean
//!   difference has fallen below the threshold.
//!
//! Every rule assumes what docs/learning.md states: trials are independent
//! held-out cases (or at least each trial's conditional mean obeys the null
//! whatever came before), and utilities are in [0, 1]. All state is a few
//! numbers, so a trial costs O(1) whatever the run's length.
//!
//! The sequential rules work on x = (d + 1) / 2 in [0, 1], where the
//! betting inequalities they rest on are stated, and report bounds back on
//! the difference scale.

mod anytime;
mod drift;
mod fixed;

pub use anytime::AnytimeTest;
pub use drift::{DriftTest, DriftVerdict};
pub use fixed::{FixedHoeffding, hoeffding_radius};

use serde::{Deserialize, Serialize};

/// What a qualification rule has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// More trials are needed.
    Undecided,
    /// The candidate is better than the baseline by the policy's margin.
    Qualify,
    /// The candidate cannot be shown to be (or is shown not to be) better.
    Reject,
}

/// The share of a policy's δ the k-th candidate registered for one (policy,
/// context) in a namespace may spend: δ·6/(π²k²). Since Σ 1/k² = π²/6, the
/// shares of all candidates ever registered sum to δ, so the chance that
/// any of them is falsely qualified is at most δ (a union bound), however
/// many are tried. `k = 0` is read as 1.
pub fn candidate_delta(delta: f64, k: u64) -> f64 {
    let k = k.max(1) as f64;
    delta * 6.0 / (std::f64::consts::PI * std::f64::consts::PI * k * k)
}

/// The largest bet the sequential rules place: a fraction of the wealth
/// that keeps every factor of the betting process positive (Waudby-Smith
/// and Ramdas use 1/2 or 3/4).
const MAX_BET: f64 = 0.5;

/// ψ_E(λ) = −ln(1 − λ) − λ, the empirical-Bernstein penalty of a bet λ in
/// [0, 1), computed without cancellation for small λ.
fn psi(lambda: f64) -> f64 {
    -(-lambda).ln_1p() - lambda
}

/// A difference in [−1, 1] on the [0, 1] scale; out-of-range input is
/// clamped so that no bound is ever NaN or outside its range.
fn to_unit(difference: f64) -> f64 {
    if difference.is_nan() {
        return 0.5;
    }
    f64::midpoint(difference.clamp(-1.0, 1.0), 1.0)
}

/// A point on the [0, 1] scale back on the difference scale.
fn to_difference(x: f64) -> f64 {
    (2.0 * x - 1.0).clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_shares_sum_to_delta() {
        let total: f64 = (1..=1_000_000).map(|k| candidate_delta(0.05, k)).sum();
        assert!(total < 0.05 && total > 0.05 * 0.999_99, "{total}");
        assert_eq!(
            candidate_delta(0.05, 0).to_bits(),
            candidate_delta(0.05, 1).to_bits()
        );
    }

    #[test]
    fn psi_is_the_bernstein_penalty() {
        assert_eq!(psi(0.0).to_bits(), 0f64.to_bits());
        // −ln(0.5) − 0.5
        assert!((psi(0.5) - (std::f64::consts::LN_2 - 0.5)).abs() < 1e-15);
        // λ²/2 for small λ
        assert!((psi(1e-6) - 5e-13).abs() < 1e-18);
    }
}
