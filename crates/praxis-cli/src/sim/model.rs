//! The simulated task: a paired Bernoulli trial, and the exact sample size
//! a fixed Hoeffding test needs for a given power under it.

use praxis_domain::learning::stats::hoeffding_radius;
use rand::RngExt;

/// One held-out task run by the baseline and the candidate: the baseline
/// succeeds with probability 0.5 − e/2, the candidate with 0.5 + e/2, and
/// the two outcomes of one task are correlated.
#[derive(Clone, Copy, Debug)]
pub struct PairedBernoulli {
    /// P(difference = +1): the candidate succeeds and the baseline fails.
    plus: f64,
    /// P(difference = −1): the baseline succeeds and the candidate fails.
    minus: f64,
    /// The correlation actually used.
    pub correlation: f64,
}

impl PairedBernoulli {
    /// The task at effect `effect` with within-task correlation
    /// `correlation`, or the largest correlation the two success rates allow
    /// when they do not allow it (both succeed at most as often as the less
    /// likely one does; at e = 0.4 that caps 0.5 at 0.43).
    pub fn new(effect: f64, correlation: f64) -> Self {
        let base = 0.5 - effect / 2.0;
        let cand = 0.5 + effect / 2.0;
        let spread = (base * (1.0 - base) * cand * (1.0 - cand)).sqrt();
        let both = (base * cand + correlation * spread).min(base.min(cand));
        Self {
            plus: cand - both,
            minus: base - both,
            correlation: (both - base * cand) / spread,
        }
    }

    /// One paired difference.
    pub fn draw(&self, rng: &mut impl RngExt) -> f64 {
        let u: f64 = rng.random();
        if u < self.plus {
            1.0
        } else if u < self.plus + self.minus {
            -1.0
        } else {
            0.0
        }
    }

    /// The exact probability that `FixedHoeffding` qualifies after `n`
    /// trials, for every n up to `limit`, returning the first n at which it
    /// reaches `power`. The sum of n differences is a walk on −n..=n whose
    /// distribution is convolved one trial at a time (O(limit²) in all), and
    /// the test's own comparison decides each sum, so the figure is the
    /// rule's, not a normal approximation's.
    pub fn fixed_trials_for_power(
        &self,
        min_improvement: f64,
        delta: f64,
        power: f64,
        limit: u64,
    ) -> Option<(u64, f64)> {
        let zero = 1.0 - self.plus - self.minus;
        // dist[k] = P(sum = k − n)
        let mut dist = vec![1.0f64];
        for n in 1..=limit {
            let mut next = vec![0.0f64; dist.len() + 2];
            for (k, p) in dist.iter().enumerate() {
                next[k] += p * self.minus;
                next[k + 1] += p * zero;
                next[k + 2] += p * self.plus;
            }
            dist = next;
            let radius = hoeffding_radius(n, delta);
            let reached: f64 = dist
                .iter()
                .enumerate()
                .filter(|(k, _)| {
                    let mean = (*k as f64 - n as f64) / n as f64;
                    (mean - radius).clamp(-1.0, 1.0) >= min_improvement
                })
                .map(|(_, p)| p)
                .sum();
            if reached >= power {
                return Some((n, reached));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn draws_have_the_model_mean_and_correlation() {
        let model = PairedBernoulli::new(0.2, 0.5);
        assert!((model.correlation - 0.5).abs() < 1e-12);
        let mut rng = SmallRng::seed_from_u64(7);
        let n = 200_000;
        let mean = (0..n).map(|_| model.draw(&mut rng)).sum::<f64>() / f64::from(n);
        assert!((mean - 0.2).abs() < 0.01, "{mean}");
        // At e = 0.4 the requested correlation is out of reach.
        let capped = PairedBernoulli::new(0.4, 0.5);
        assert!(capped.correlation < 0.5 && capped.minus.abs() < 1e-12);
    }

    #[test]
    fn power_is_found_where_a_normal_approximation_puts_it() {
        // Normal approximation: (e − m)√n ≥ √(2 ln(1/δ)) + z₀.₉σ, with
        // σ² = 0.24 at e = 0.2 and ρ = 0.5: n ≈ 420.
        let model = PairedBernoulli::new(0.2, 0.5);
        let (n, power) = model
            .fixed_trials_for_power(0.05, 0.05, 0.9, 2_000)
            .unwrap();
        assert!((380..=460).contains(&n), "{n}");
        assert!(power >= 0.9);
    }
}
