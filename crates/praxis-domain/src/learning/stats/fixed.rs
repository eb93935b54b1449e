//! `fixed_hoeffding_v1`: n paired trials, then one test.
//!
//! Hoeffding's inequality for n independent differences in [−1, 1] (range
//! 2): P(mean − μ ≥ r) ≤ exp(−n r²/2), so with r = √(2 ln(1/δ)/n) the
//! one-sided lower bound mean − r is below μ with probability at least
//! 1 − δ. It is valid only at the n fixed in advance: looking earlier and
//! stopping on a good look would void it, which is why this rule decides
//! exactly once.

use serde::{Deserialize, Serialize};

use super::Verdict;

/// The one-sided Hoeffding radius for the mean of `n` paired differences
/// in [−1, 1]: √(2 ln(1/δ)/n); infinite for n = 0.
pub fn hoeffding_radius(n: u64, delta: f64) -> f64 {
    if n == 0 {
        return f64::INFINITY;
    }
    (2.0 * (1.0 / delta).ln() / n as f64).sqrt()
}

/// A fixed-sample Hoeffding test in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixedHoeffding {
    required: u64,
    delta: f64,
    threshold: f64,
    trials: u64,
    sum: f64,
    verdict: Verdict,
}

impl FixedHoeffding {
    /// A test that decides at exactly `n` trials whether the mean
    /// difference exceeds `min_improvement` at level `delta`.
    pub fn new(n: u64, delta: f64, min_improvement: f64) -> Self {
        Self {
            required: n.max(1),
            delta,
            threshold: min_improvement,
            trials: 0,
            sum: 0.0,
            verdict: Verdict::Undecided,
        }
    }

    /// Counts one difference; at the n-th, qualifies when the lower bound
    /// is at least the threshold and rejects otherwise. After a decision
    /// nothing changes.
    pub fn observe(&mut self, difference: f64) -> Verdict {
        if self.verdict != Verdict::Undecided {
            return self.verdict;
        }
        self.trials += 1;
        self.sum += super::to_difference(super::to_unit(difference));
        if self.trials == self.required {
            self.verdict = if self.lower() >= self.threshold {
                Verdict::Qualify
            } else {
                Verdict::Reject
            };
        }
        self.verdict
    }

    /// What has been decided.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// Differences counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// The trials the test decides at.
    pub fn required(&self) -> u64 {
        self.required
    }

    /// The mean difference, if any was counted.
    pub fn mean(&self) -> Option<f64> {
        (self.trials > 0).then(|| self.sum / self.trials as f64)
    }

    /// The mean less the radius at the trials counted so far, in [−1, 1]
    /// (−1 before any). Only its value at n carries the guarantee.
    pub fn lower(&self) -> f64 {
        self.mean().map_or(-1.0, |m| {
            (m - hoeffding_radius(self.trials, self.delta)).clamp(-1.0, 1.0)
        })
    }

    /// The mean plus the radius, in [−1, 1] (1 before any).
    pub fn upper(&self) -> f64 {
        self.mean().map_or(1.0, |m| {
            (m + hoeffding_radius(self.trials, self.delta)).clamp(-1.0, 1.0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decides_once_at_n() {
        let mut t = FixedHoeffding::new(3, 0.05, 0.05);
        assert_eq!(t.observe(1.0), Verdict::Undecided);
        assert_eq!(t.observe(1.0), Verdict::Undecided);
        // mean 1, radius √(2 ln 20 / 3) ≈ 1.41: the bound is below 0.05.
        assert_eq!(t.observe(1.0), Verdict::Reject);
        assert_eq!(t.observe(1.0), Verdict::Reject);
        assert_eq!(t.trials(), 3);
    }

    #[test]
    fn qualifies_when_the_bound_clears_the_threshold() {
        let n = 100;
        let mut t = FixedHoeffding::new(n, 0.05, 0.05);
        for _ in 0..n {
            t.observe(0.5);
        }
        // 0.5 − √(2 ln 20 / 100) ≈ 0.255
        assert_eq!(t.verdict(), Verdict::Qualify);
        assert!((t.lower() - (0.5 - (2.0 * 20f64.ln() / 100.0).sqrt())).abs() < 1e-12);
    }
}
