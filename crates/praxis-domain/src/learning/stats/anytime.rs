//! `anytime_v1`: an anytime-valid confidence sequence on the mean paired
//! difference, checked after every trial.
//!
//! The sequence is the predictable-plug-in empirical-Bernstein sequence of
//! Waudby-Smith and Ramdas, "Estimating means of bounded random variables
//! by betting", J. R. Stat. Soc. B 86(1), 2024 (arXiv:2010.09686),
//! Theorem 2, one-sided on each side. For x in [0, 1] with conditional mean
//! μ, any bets λᵢ in [0, 1) fixed before xᵢ is seen, and any predictable
//! estimate μ̂ᵢ₋₁ in [0, 1],
//!
//! ```text
//! Mₜ(μ) = exp( Σ λᵢ(xᵢ − μ) − Σ ψ_E(λᵢ)(xᵢ − μ̂ᵢ₋₁)² )
//! ```
//!
//! is a nonnegative supermartingale (from Fan, Grama and Liu's inequality
//! exp(λξ − ψ_E(λ)ξ²) ≤ 1 + λξ for ξ ≥ −1), so by Ville's inequality it
//! ever reaches 1/δ with probability at most δ. Mₜ(μ) ≥ 1/δ is linear in μ,
//! which gives the lower bound in closed form:
//!
//! ```text
//! Lₜ = ( Σ λᵢxᵢ − Σ ψ_E(λᵢ)(xᵢ − μ̂ᵢ₋₁)² − ln(1/δ) ) / Σ λᵢ
//! ```
//!
//! and the upper bound by the same argument on 1 − x. If every trial's
//! conditional mean is at most the threshold, the first crossing of Lₜ
//! above it has probability at most δ, under continuous monitoring and
//! optional stopping; rejecting on the upper bound can only lower that.
//!
//! The theorem allows any predictable bets; the choice only moves power.
//! Each side bets the larger of the paper's plug-in schedule
//! √(2 ln(1/δ) / (σ̂²ₜ₋₁ t ln(1 + t))), which keeps the sequence shrinking,
//! and the plug-in optimum (μ̂ₜ₋₁ − μ₀)/σ̂²ₜ₋₁ of the exponent against the
//! threshold μ₀, which makes the test quick when the estimate is far from
//! μ₀; both capped at one half.

use serde::{Deserialize, Serialize};

use super::{MAX_BET, Verdict, psi, to_difference, to_unit};

/// One side's running sums.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Side {
    /// Σ λᵢ
    bets: f64,
    /// Σ λᵢxᵢ
    bets_x: f64,
    /// Σ ψ_E(λᵢ)(xᵢ − μ̂ᵢ₋₁)²
    penalty: f64,
}

impl Side {
    fn add(&mut self, bet: f64, x: f64, deviation_sq: f64) {
        self.bets += bet;
        self.bets_x += bet * x;
        self.penalty += psi(bet) * deviation_sq;
    }
}

/// An anytime-valid qualification test in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnytimeTest {
    delta: f64,
    threshold: f64,
    trials: u64,
    /// Σ xᵢ
    sum: f64,
    /// 1/4 + Σ (xᵢ − μ̂ᵢ)², the numerator of σ̂²ₜ.
    spread: f64,
    below: Side,
    above: Side,
    lower: f64,
    upper: f64,
    verdict: Verdict,
}

impl AnytimeTest {
    /// A test of whether the mean difference exceeds `min_improvement`,
    /// falsely qualifying with probability at most `delta`.
    pub fn new(delta: f64, min_improvement: f64) -> Self {
        Self {
            delta,
            threshold: min_improvement,
            trials: 0,
            sum: 0.0,
            spread: 0.25,
            below: Side::default(),
            above: Side::default(),
            lower: -1.0,
            upper: 1.0,
            verdict: Verdict::Undecided,
        }
    }

    /// Counts one difference and moves the bounds; qualifies when the
    /// lower bound exceeds the threshold, rejects when the upper bound falls
    /// below it (and rejects if both happen at once, which only a missed
    /// sequence can cause). After a decision nothing changes.
    pub fn observe(&mut self, difference: f64) -> Verdict {
        if self.verdict != Verdict::Undecided {
            return self.verdict;
        }
        let x = to_unit(difference);
        let t = (self.trials + 1) as f64;
        let estimate = (0.5 + self.sum) / t;
        let variance = self.spread / t;
        let log_inv_delta = (1.0 / self.delta).ln();
        let schedule = (2.0 * log_inv_delta / (variance * t * t.ln_1p())).sqrt();
        let target = to_unit(self.threshold);
        let bet = |edge: f64| (edge / variance).max(schedule).min(MAX_BET);
        let deviation_sq = (x - estimate).powi(2);
        self.below.add(bet(estimate - target), x, deviation_sq);
        self.above
            .add(bet(target - estimate), 1.0 - x, deviation_sq);

        self.trials += 1;
        self.sum += x;
        let estimate_now = (0.5 + self.sum) / (t + 1.0);
        self.spread += (x - estimate_now).powi(2);

        let below = &self.below;
        let lower = (below.bets_x - below.penalty - log_inv_delta) / below.bets;
        let above = &self.above;
        let upper = 1.0 - (above.bets_x - above.penalty - log_inv_delta) / above.bets;
        self.lower = self.lower.max(to_difference(lower.clamp(0.0, 1.0)));
        self.upper = self.upper.min(to_difference(upper.clamp(0.0, 1.0)));
        if self.upper < self.threshold {
            self.verdict = Verdict::Reject;
        } else if self.lower > self.threshold {
            self.verdict = Verdict::Qualify;
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

    /// The mean difference, if any was counted.
    pub fn mean(&self) -> Option<f64> {
        (self.trials > 0).then(|| to_difference(self.sum / self.trials as f64))
    }

    /// The running greatest lower bound on the mean difference, in [−1, 1].
    pub fn lower(&self) -> f64 {
        self.lower
    }

    /// The running least upper bound on the mean difference, in [−1, 1].
    pub fn upper(&self) -> f64 {
        self.upper
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The bounds recomputed from the whole history by the theorem's
    /// formula, with nothing carried between steps but the history.
    fn brute_force(delta: f64, threshold: f64, xs: &[f64]) -> (f64, f64) {
        let (mut lower, mut upper) = (-1.0f64, 1.0f64);
        for t in 1..=xs.len() {
            let (mut b, mut bx, mut bp, mut a, mut ax, mut ap) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            for i in 1..=t {
                let seen = &xs[..i - 1];
                let estimate = (0.5 + seen.iter().sum::<f64>()) / i as f64;
                let mut spread = 0.25;
                for j in 1..i {
                    let mean_j = (0.5 + xs[..j].iter().sum::<f64>()) / (j as f64 + 1.0);
                    spread += (xs[j - 1] - mean_j).powi(2);
                }
                let variance = spread / i as f64;
                let l = (1.0 / delta).ln();
                let schedule = (2.0 * l / (variance * i as f64 * (i as f64).ln_1p())).sqrt();
                let target = f64::midpoint(threshold, 1.0);
                let lam_b = ((estimate - target) / variance).max(schedule).min(0.5);
                let lam_a = ((target - estimate) / variance).max(schedule).min(0.5);
                let x = xs[i - 1];
                let d2 = (x - estimate).powi(2);
                b += lam_b;
                bx += lam_b * x;
                bp += psi(lam_b) * d2;
                a += lam_a;
                ax += lam_a * (1.0 - x);
                ap += psi(lam_a) * d2;
            }
            let l = (1.0 / delta).ln();
            lower = lower.max(2.0 * ((bx - bp - l) / b).clamp(0.0, 1.0) - 1.0);
            upper = upper.min(2.0 * (1.0 - (ax - ap - l) / a).clamp(0.0, 1.0) - 1.0);
        }
        (lower, upper)
    }

    proptest! {
        #[test]
        fn running_sums_match_the_formula_over_the_whole_history(
            diffs in proptest::collection::vec(-1.0f64..=1.0, 1..60),
            delta in 0.001f64..0.4,
            threshold in 0.0f64..0.5,
        ) {
            let mut test = AnytimeTest::new(delta, threshold);
            let mut xs = Vec::new();
            for d in diffs {
                if test.observe(d) != Verdict::Undecided {
                    // Decided: further observations must change nothing.
                    let before = test.clone();
                    test.observe(d);
                    prop_assert_eq!(&before, &test);
                    break;
                }
                xs.push(to_unit(d));
            }
            if test.verdict() == Verdict::Undecided {
                let (lower, upper) = brute_force(delta, threshold, &xs);
                prop_assert!((test.lower() - lower).abs() < 1e-9, "{} {}", test.lower(), lower);
                prop_assert!((test.upper() - upper).abs() < 1e-9, "{} {}", test.upper(), upper);
            }
        }
    }

    #[test]
    fn all_ones_qualify_and_all_minus_ones_reject() {
        let mut good = AnytimeTest::new(0.05, 0.05);
        let mut bad = AnytimeTest::new(0.05, 0.05);
        for _ in 0..200 {
            good.observe(1.0);
            bad.observe(-1.0);
        }
        assert_eq!(good.verdict(), Verdict::Qualify);
        assert_eq!(bad.verdict(), Verdict::Reject);
        assert!(good.trials() < 30, "{}", good.trials());
    }
}
