//! Held-out tests of `learning::stats`, written from its specification alone.
//!
//! Most guarantees under test are probabilistic, so most tests run many seeded
//! replications and compare an observed rate with the guaranteed one. The rate
//! of an event whose probability is at most `p` may reach `p` plus three
//! binomial standard deviations ([`binomial_ceiling`]) before a test fails; a
//! correct implementation then fails by bad luck in roughly one run in a
//! thousand, and no threshold is tuned to an implementation. Power and
//! detection tests instead compare with what a plainly conservative valid
//! procedure (a Hoeffding bound with a union bound over times) achieves, with
//! a margin of two or more. Every generator is seeded, so every test is
//! deterministic.
//!
//! Where the data are deterministic, a probabilistic guarantee becomes an
//! exact one: an event of probability 0 or 1 that must have probability at
//! most `delta < 1` must not happen at all. Several tests use that.

// Several assertions are about exact equality: a verdict that "changes
// nothing", the `>=` boundary, `k = 0` treated as `k = 1`.
#![allow(clippy::float_cmp)]

use std::f64::consts::PI;

use praxis_domain::learning::stats::{
    AnytimeTest, DriftTest, DriftVerdict, FixedHoeffding, Verdict, candidate_delta,
    hoeffding_radius,
};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// A small, fast generator whose stream is fixed by its seed on every platform.
type Gen = Xoshiro256PlusPlus;

/// The minimum improvement most tests use: small, positive, and not a dyadic
/// fraction, so that no exact float coincidence helps an implementation.
const M: f64 = 0.05;

/// The delta of the validity tests: large enough that a procedure which is
/// not anytime-valid (say a fixed-n Hoeffding bound checked after every
/// difference) shows its excess within a thousand runs.
const NULL_DELTA: f64 = 0.1;

/// Replications of each validity test: at `NULL_DELTA` the ceiling is
/// 0.1 + 3 * sqrt(0.09 / 1000) = 0.1285.
const NULL_RUNS: u32 = 1000;

/// Differences per validity run. The guarantee is over an unbounded horizon,
/// so any finite horizon gives a lower bound on the probability it bounds.
const NULL_HORIZON: u32 = 1000;

fn seeded(seed: u64) -> Gen {
    Gen::seed_from_u64(seed)
}

/// The largest observed rate of an event of probability at most `p` over
/// `runs` independent runs that does not yet contradict the bound: `p` plus
/// three binomial standard deviations.
fn binomial_ceiling(p: f64, runs: u32) -> f64 {
    p + 3.0 * (p * (1.0 - p) / f64::from(runs)).sqrt()
}

fn rate(count: u32, runs: u32) -> f64 {
    f64::from(count) / f64::from(runs)
}

fn uniform(rng: &mut Gen, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * rng.random::<f64>()
}

fn bit(b: bool) -> f64 {
    if b { 1.0 } else { 0.0 }
}

/// The difference `candidate - baseline` of two correlated Bernoulli
/// utilities: the baseline succeeds with probability `p_base`; the candidate
/// copies the baseline with probability `rho`, and otherwise succeeds
/// independently with the probability that makes its marginal `p_cand`. The
/// mean difference is exactly `p_cand - p_base`; values are -1, 0 and 1.
fn paired_bernoulli(rng: &mut Gen, p_base: f64, p_cand: f64, rho: f64) -> f64 {
    let baseline = rng.random_bool(p_base);
    let candidate = if rho > 0.0 && rng.random_bool(rho) {
        baseline
    } else {
        rng.random_bool((p_cand - rho * p_base) / (1.0 - rho))
    };
    bit(candidate) - bit(baseline)
}

/// `hi` with probability `p_hi`, else `lo`.
fn two_point(rng: &mut Gen, lo: f64, hi: f64, p_hi: f64) -> f64 {
    if rng.random_bool(p_hi) { hi } else { lo }
}

/// The probability of `hi` that gives the two-point law on `{lo, hi}` mean `mean`.
fn p_hi_for_mean(lo: f64, hi: f64, mean: f64) -> f64 {
    (mean - lo) / (hi - lo)
}

// ---------------------------------------------------------------------------
// 1. candidate_delta
// ---------------------------------------------------------------------------

/// Checks the formula `delta * 6 / (pi^2 k^2)` at k = 1, 2, 10 against values
/// computed here, and that k = 0 is treated exactly as k = 1. Tolerance is a
/// relative 1e-12: the formula has a handful of roundings.
#[test]
fn candidate_delta_matches_the_formula() {
    let six_over_pi2 = 6.0 / (PI * PI); // 0.6079271018540267
    assert!((six_over_pi2 - 0.607_927_101_854_026_7).abs() < 1e-15);
    for delta in [0.05, 0.1, 0.25, 1e-6, 0.499] {
        for (k, expected) in [
            (1u64, delta * six_over_pi2),
            (2, delta * six_over_pi2 / 4.0),
            (10, delta * six_over_pi2 / 100.0),
            (1000, delta * six_over_pi2 / 1e6),
        ] {
            let got = candidate_delta(delta, k);
            assert!(
                (got - expected).abs() <= 1e-12 * expected,
                "candidate_delta({delta}, {k}) = {got}, expected {expected}"
            );
        }
        assert_eq!(
            candidate_delta(delta, 0),
            candidate_delta(delta, 1),
            "k = 0 must be treated as k = 1 (delta {delta})"
        );
    }
    // Hand values for the common policy delta 0.05.
    assert!((candidate_delta(0.05, 1) - 0.030_396_355_092_701_333).abs() < 1e-15);
    assert!((candidate_delta(0.05, 2) - 0.007_599_088_773_175_333).abs() < 1e-15);
    assert!((candidate_delta(0.05, 10) - 0.000_303_963_550_927_013_35).abs() < 1e-16);
}

/// Checks that spending `candidate_delta(delta, k)` for k = 1, 2, ... never
/// overspends `delta`, and that the partial sums approach it as fast as the
/// series says: delta minus the sum of the first N shares lies in
/// [6 delta / (pi^2 (N + 1)), 6 delta / (pi^2 N)], because
/// 1/(N+1) < sum_{k>N} 1/k^2 < 1/N. At N = 1e5 that gap (about 6e-6 delta)
/// dwarfs the float error of the summation (about 1e-11 delta), so the bounds
/// are allowed only a 1e-9 relative tolerance.
#[test]
fn candidate_delta_partial_sums_stay_below_delta_and_approach_it() {
    for delta in [0.05, 0.1, 0.3] {
        let mut sum = 0.0;
        let mut previous = f64::INFINITY;
        for k in 1..=100_000u64 {
            let share = candidate_delta(delta, k);
            assert!(share > 0.0 && share.is_finite(), "share {share} at k {k}");
            assert!(share <= previous, "shares must not grow with k (k {k})");
            previous = share;
            sum += share;
            assert!(
                sum <= delta,
                "the first {k} shares of delta {delta} sum to {sum} > delta"
            );
            if [10, 1000, 100_000].contains(&k) {
                let n = k as f64;
                let gap = delta - sum;
                let most = 6.0 * delta / (PI * PI * n);
                let least = 6.0 * delta / (PI * PI * (n + 1.0));
                assert!(
                    gap <= most * (1.0 + 1e-9) && gap >= least * (1.0 - 1e-9),
                    "delta {delta}: after {k} shares the unspent part is {gap}, \
                     outside [{least}, {most}]"
                );
            }
        }
    }
}

/// Checks that very large k neither panics (a `k * k` in u64 would overflow
/// from k = 2^32) nor yields a negative, NaN or larger-than-earlier share.
#[test]
fn candidate_delta_survives_huge_k() {
    let at_million = candidate_delta(0.05, 1_000_000);
    for k in [1u64 << 32, (1u64 << 32) + 1, 1u64 << 40, u64::MAX] {
        let share = candidate_delta(0.05, k);
        assert!(
            share.is_finite() && share >= 0.0 && share <= at_million,
            "candidate_delta(0.05, {k}) = {share}"
        );
    }
}

// ---------------------------------------------------------------------------
// 2. hoeffding_radius and FixedHoeffding
// ---------------------------------------------------------------------------

/// Checks `sqrt(2 ln(1/delta) / n)` on values worked by hand. With
/// delta = e^-2 and e^-8 the logarithm is an integer, so the radius is a
/// simple square root; tolerance 1e-12 covers the rounding of exp and ln.
#[test]
fn hoeffding_radius_hand_values() {
    let e2 = (-2.0f64).exp();
    let e8 = (-8.0f64).exp();
    for (n, delta, expected) in [
        (1u64, e2, 2.0),                        // sqrt(2 * 2 / 1)
        (4, e2, 1.0),                           // sqrt(2 * 2 / 4)
        (16, e2, 0.5),                          // sqrt(2 * 2 / 16)
        (16, e8, 1.0),                          // sqrt(2 * 8 / 16)
        (64, e8, 0.5),                          // sqrt(2 * 8 / 64)
        (100, 0.05, 0.244_774_683_068_081_64),  // sqrt(2 ln 20 / 100)
        (1000, 0.05, 0.077_404_551_204_098_99), // sqrt(2 ln 20 / 1000)
        (1, 1e-6, 5.256_521_769_756_932),       // sqrt(2 ln 1e6)
    ] {
        let got = hoeffding_radius(n, delta);
        assert!(
            (got - expected).abs() <= 1e-12,
            "hoeffding_radius({n}, {delta}) = {got}, expected {expected}"
        );
    }
    // Quadrupling n halves the radius; shrinking delta widens it.
    for n in [1u64, 7, 100, 12_345] {
        let ratio = hoeffding_radius(n, 0.05) / hoeffding_radius(4 * n, 0.05);
        assert!((ratio - 2.0).abs() < 1e-12, "ratio {ratio} at n {n}");
        assert!(hoeffding_radius(n, 0.01) > hoeffding_radius(n, 0.05));
    }
}

/// Checks the state before any difference (spec: mean None, lower -1,
/// upper 1, Undecided, no trials), that the verdict stays Undecided through
/// n - 1 differences, and that the decision comes exactly at the n-th, for
/// n from 1 up. With m = 0, all-1 differences qualify iff
/// 1 - radius(n, delta) >= 0 (false at n = 1, where the radius exceeds 1 for
/// every allowed delta), and all -1 differences always reject.
#[test]
fn fixed_hoeffding_is_undecided_until_exactly_n() {
    for n in [1u64, 2, 5, 30] {
        for delta in [0.3, 0.05] {
            for value in [1.0, -1.0] {
                let expected = if value > 0.0 && 1.0 - hoeffding_radius(n, delta) >= 0.0 {
                    Verdict::Qualify
                } else {
                    Verdict::Reject
                };
                let mut test = FixedHoeffding::new(n, delta, 0.0);
                assert_eq!(test.verdict(), Verdict::Undecided);
                assert_eq!(test.trials(), 0);
                assert_eq!(test.mean(), None);
                assert_eq!(test.lower(), -1.0);
                assert_eq!(test.upper(), 1.0);
                for i in 1..n {
                    assert_eq!(test.observe(value), Verdict::Undecided, "n {n}, after {i}");
                    assert_eq!(test.verdict(), Verdict::Undecided);
                    assert_eq!(test.trials(), i);
                }
                assert_eq!(
                    test.observe(value),
                    expected,
                    "n {n}, delta {delta}, value {value}"
                );
                assert_eq!(test.verdict(), expected);
                assert_eq!(test.trials(), n);
                assert_eq!(test.mean(), Some(value));
            }
        }
    }
    // The hand cases behind that rule: radius(30, 0.05) = 0.447 and
    // radius(5, 0.3) = 0.694 qualify; radius(2, 0.05) = 1.731 rejects.
    assert!(hoeffding_radius(30, 0.05) < 1.0 && hoeffding_radius(5, 0.3) < 1.0);
    assert!(hoeffding_radius(2, 0.05) > 1.0 && hoeffding_radius(1, 0.3) > 1.0);
}

/// Checks a decision worked by hand: n = 100, delta = 0.05 gives radius
/// 0.2447747; 65 differences of 1 and 35 of -1 have mean exactly 0.3, so the
/// lower bound is 0.0552253. That qualifies against m = 0.05 and rejects
/// against m = 0.06 (margins of 0.005, far above float error). The bounds
/// must be the mean minus and plus the radius.
#[test]
fn fixed_hoeffding_decides_a_hand_worked_example() {
    for (m, expected) in [(0.05, Verdict::Qualify), (0.06, Verdict::Reject)] {
        let mut test = FixedHoeffding::new(100, 0.05, m);
        let mut last = Verdict::Undecided;
        for i in 0..100 {
            last = test.observe(if i % 20 < 13 { 1.0 } else { -1.0 });
        }
        assert_eq!(last, expected, "m {m}");
        let mean = test.mean().expect("mean after 100 differences");
        assert!((mean - 0.3).abs() < 1e-12, "mean {mean}");
        assert!(
            (test.lower() - 0.055_225_316_931_918_345).abs() < 1e-9,
            "lower {}",
            test.lower()
        );
        assert!(
            (test.upper() - 0.544_774_683_068_081_6).abs() < 1e-9,
            "upper {}",
            test.upper()
        );
    }
}

/// Checks the `>=` in "Qualify iff mean - radius(n, delta) >= m": with all
/// differences 0.75 the mean is exactly 0.75 however it is accumulated, so
/// m = 0.75 - hoeffding_radius(n, delta) sits exactly on the boundary and
/// must qualify, while the next float above it must reject.
#[test]
fn fixed_hoeffding_boundary_is_inclusive() {
    for (n, delta) in [(64u64, 0.05), (100, 0.1), (1000, 0.01), (37, 0.2)] {
        let boundary = 0.75 - hoeffding_radius(n, delta);
        assert!((0.0..=1.0).contains(&boundary));
        for (m, expected) in [
            (boundary, Verdict::Qualify),
            (boundary.next_up(), Verdict::Reject),
        ] {
            let mut test = FixedHoeffding::new(n, delta, m);
            let mut last = Verdict::Undecided;
            for _ in 0..n {
                last = test.observe(0.75);
            }
            assert_eq!(last, expected, "n {n}, delta {delta}, m {m:e}");
            assert_eq!(test.mean(), Some(0.75));
        }
    }
}

/// Checks that the verdict is sticky: once decided, further differences (of
/// the opposite sign, at the extremes) change neither the verdict, the
/// trials, the mean nor the bounds, and observe() returns the verdict.
#[test]
fn fixed_hoeffding_verdict_is_sticky() {
    for (fill, after, expected) in [
        (1.0, -1.0, Verdict::Qualify),
        (-1.0, 1.0, Verdict::Reject),
        (0.5, 1.0, Verdict::Qualify),
        (0.0, 1.0, Verdict::Reject),
    ] {
        let mut test = FixedHoeffding::new(50, 0.05, 0.1);
        for _ in 0..50 {
            test.observe(fill);
        }
        assert_eq!(test.verdict(), expected, "fill {fill}");
        let (mean, lower, upper) = (test.mean(), test.lower(), test.upper());
        for _ in 0..200 {
            assert_eq!(test.observe(after), expected);
            assert_eq!(test.verdict(), expected);
            assert_eq!(test.trials(), 50);
            assert_eq!(test.mean(), mean);
            assert_eq!(test.lower(), lower);
            assert_eq!(test.upper(), upper);
        }
    }
}

/// Checks that lower and upper are mean -/+ radius(trials) clamped to
/// [-1, 1], both before the decision (using the trials so far) and after.
/// One difference has radius sqrt(2 ln 20) = 2.45 at delta 0.05, so both
/// bounds are clamped; after 1000 differences of 1 the upper bound is clamped
/// and the lower is 1 - 0.0774046.
#[test]
fn fixed_hoeffding_bounds_are_clamped() {
    let mut test = FixedHoeffding::new(1000, 0.05, 0.05);
    test.observe(1.0);
    assert_eq!(test.mean(), Some(1.0));
    assert_eq!(test.lower(), -1.0);
    assert_eq!(test.upper(), 1.0);

    let mut test = FixedHoeffding::new(1000, 0.05, 0.05);
    test.observe(-1.0);
    assert_eq!(test.lower(), -1.0);
    assert_eq!(test.upper(), 1.0);

    // Before the decision the radius is that of the trials so far.
    let mut test = FixedHoeffding::new(1000, 0.05, 0.05);
    for _ in 0..100 {
        test.observe(0.25);
    }
    assert_eq!(test.verdict(), Verdict::Undecided);
    let r = hoeffding_radius(100, 0.05);
    assert!(
        (test.lower() - (0.25 - r)).abs() < 1e-12,
        "lower {}",
        test.lower()
    );
    assert!(
        (test.upper() - (0.25 + r)).abs() < 1e-12,
        "upper {}",
        test.upper()
    );

    let mut test = FixedHoeffding::new(1000, 0.05, 0.05);
    for _ in 0..1000 {
        test.observe(1.0);
    }
    assert_eq!(test.verdict(), Verdict::Qualify);
    assert_eq!(test.upper(), 1.0);
    assert!((test.lower() - (1.0 - 0.077_404_551_204_098_99)).abs() < 1e-9);

    let mut test = FixedHoeffding::new(1000, 0.05, 0.05);
    for _ in 0..1000 {
        test.observe(-1.0);
    }
    assert_eq!(test.verdict(), Verdict::Reject);
    assert_eq!(test.lower(), -1.0);
    assert!((test.upper() - (-1.0 + 0.077_404_551_204_098_99)).abs() < 1e-9);
}

// ---------------------------------------------------------------------------
// 3. AnytimeTest validity
// ---------------------------------------------------------------------------

/// How a batch of anytime runs ended.
struct Outcome {
    runs: u32,
    qualified: u32,
    rejected: u32,
}

/// Runs `runs` independent tests for at most `horizon` differences each,
/// stopping a run at its decision. `draw` sees the test so far, which lets a
/// null choose its next law from the past (it stays predictable).
fn run_anytime(
    delta: f64,
    m: f64,
    runs: u32,
    horizon: u32,
    seed: u64,
    mut draw: impl FnMut(&mut Gen, &AnytimeTest) -> f64,
) -> Outcome {
    let mut rng = seeded(seed);
    let mut out = Outcome {
        runs,
        qualified: 0,
        rejected: 0,
    };
    for _ in 0..runs {
        let mut test = AnytimeTest::new(delta, m);
        for _ in 0..horizon {
            let x = draw(&mut rng, &test);
            assert!((-1.0..=1.0).contains(&x), "generator produced {x}");
            match test.observe(x) {
                Verdict::Undecided => {}
                Verdict::Qualify => {
                    out.qualified += 1;
                    break;
                }
                Verdict::Reject => {
                    out.rejected += 1;
                    break;
                }
            }
        }
    }
    out
}

/// Asserts the guarantee "P(ever Qualify) <= delta" for a null batch.
fn assert_rarely_qualifies(case: &str, delta: f64, out: &Outcome) {
    let observed = rate(out.qualified, out.runs);
    let ceiling = binomial_ceiling(delta, out.runs);
    assert!(
        observed <= ceiling,
        "{case}: qualified in {observed:.4} of {} runs although the mean difference \
         is <= m; the guarantee is {delta}, the ceiling with binomial slack {ceiling:.4}",
        out.runs
    );
}

/// Null at the boundary: paired Bernoulli utilities (baseline 0.45, candidate
/// 0.50, correlation through copying with probability 0.4), so differences
/// are -1, 0, 1 with mean exactly m = 0.05. Ceiling: delta plus binomial slack.
#[test]
fn anytime_null_correlated_paired_bernoulli_at_m() {
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0301,
        |rng, _| paired_bernoulli(rng, 0.45, 0.45 + M, 0.4),
    );
    assert_rarely_qualifies("correlated paired Bernoulli at m", NULL_DELTA, &out);
}

/// Null at the boundary with continuous utilities: candidate uniform on
/// [0.05, 1], baseline uniform on [0, 0.95], independent, so the difference
/// has mean exactly 0.05 and a triangular law on [-0.9, 1].
#[test]
fn anytime_null_continuous_uniform_utilities_at_m() {
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0302,
        |rng, _| uniform(rng, M, 1.0) - uniform(rng, 0.0, 1.0 - M),
    );
    assert_rarely_qualifies("continuous uniform utilities at m", NULL_DELTA, &out);
}

/// Null at the boundary with low variance: differences uniform on
/// m +/- 0.1. A variance-adaptive bound tightens fast here, which is where an
/// invalid variance plug-in would overshoot.
#[test]
fn anytime_null_narrow_continuous_at_m() {
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0303,
        |rng, _| uniform(rng, M - 0.1, M + 0.1),
    );
    assert_rarely_qualifies("narrow continuous at m", NULL_DELTA, &out);
}

/// Null at the boundary, skewed with rare big wins: 1 with probability
/// 0.15/1.1 (about 0.136), else -0.1; mean exactly 0.05. A few early wins in a
/// row look like a large improvement.
#[test]
fn anytime_null_skewed_rare_wins_at_m() {
    let p = p_hi_for_mean(-0.1, 1.0, M);
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0304,
        |rng, _| two_point(rng, -0.1, 1.0, p),
    );
    assert_rarely_qualifies("skewed rare wins at m", NULL_DELTA, &out);
}

/// Null at the boundary, skewed with rare big losses: 0.1 with probability
/// 1 - 0.05/1.1 (about 0.955), else -1; mean exactly 0.05. Long loss-free
/// stretches look like a steady, low-variance improvement of 0.1; the chance
/// of 50 in a row is about 0.098, so a procedure that trusts the empirical
/// variance without paying for it qualifies far more often than delta.
#[test]
fn anytime_null_skewed_rare_losses_at_m() {
    let p = p_hi_for_mean(-1.0, 0.1, M);
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0305,
        |rng, _| two_point(rng, -1.0, 0.1, p),
    );
    assert_rarely_qualifies("skewed rare losses at m", NULL_DELTA, &out);
}

/// Null at the boundary with the largest variance: -1 or 1 with mean exactly
/// m. This is where a fixed-n Hoeffding radius checked after every
/// difference (no price for peeking) crosses most often.
#[test]
fn anytime_null_extremes_at_m() {
    let p = p_hi_for_mean(-1.0, 1.0, M);
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0306,
        |rng, _| two_point(rng, -1.0, 1.0, p),
    );
    assert_rarely_qualifies("extremes at m", NULL_DELTA, &out);
}

/// Null at m = 0 (no improvement required, a fair coin of -1 and 1): the
/// guarantee holds for every m in [0, 1], including 0.
#[test]
fn anytime_null_fair_coin_at_zero_margin() {
    let out = run_anytime(
        NULL_DELTA,
        0.0,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0307,
        |rng, _| two_point(rng, -1.0, 1.0, 0.5),
    );
    assert_rarely_qualifies("fair coin at m = 0", NULL_DELTA, &out);
}

/// A predictable, adaptive null: the guarantee is about conditional means,
/// so the law of each difference may depend on the past. Every difference
/// has conditional mean exactly m, but while the test's lower bound is far
/// from m the differences are nearly constant (m +/- 0.02), and once it comes
/// within 0.15 of m they jump to the widest law with that mean
/// (1 or 2m - 1, evenly). A bound calibrated on the calm stretch must still
/// not be overshot by the wild one.
#[test]
fn anytime_null_adaptive_variance_at_m() {
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0308,
        |rng, test| {
            if test.lower() > M - 0.15 {
                two_point(rng, 2.0 * M - 1.0, 1.0, 0.5)
            } else {
                uniform(rng, M - 0.02, M + 0.02)
            }
        },
    );
    assert_rarely_qualifies("adaptive variance at m", NULL_DELTA, &out);
}

/// A null whose mean changes over time but never exceeds m: a first stretch
/// at mean m - 0.2 (which drags the estimate down), then mean exactly m with
/// -1/1 differences. The guarantee covers any such sequence.
#[test]
fn anytime_null_mean_rising_to_m() {
    let low = p_hi_for_mean(-1.0, 1.0, M - 0.2);
    let at = p_hi_for_mean(-1.0, 1.0, M);
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_0309,
        |rng, test| {
            let p = if test.trials() < 100 { low } else { at };
            two_point(rng, -1.0, 1.0, p)
        },
    );
    assert_rarely_qualifies("mean rising to m", NULL_DELTA, &out);
}

/// Null well below the boundary: paired Bernoulli with mean -0.15 (0.35 vs
/// 0.5), which should qualify even less often than at the boundary, and in
/// fact should mostly reject; the guarantee only bounds qualification.
#[test]
fn anytime_null_well_below_m() {
    let out = run_anytime(
        NULL_DELTA,
        M,
        NULL_RUNS,
        NULL_HORIZON,
        0x5eed_030a,
        |rng, _| paired_bernoulli(rng, 0.5, 0.35, 0.2),
    );
    assert_rarely_qualifies("well below m", NULL_DELTA, &out);
}

// ---------------------------------------------------------------------------
// 4. AnytimeTest power and decisions
// ---------------------------------------------------------------------------

/// A clearly better candidate (independent Bernoulli utilities 0.7 vs 0.4,
/// mean difference 0.3, m = 0.05, delta = 0.05) must qualify in most runs
/// within 2000 differences. A conservative valid procedure (Hoeffding with a
/// union bound over times, radius sqrt(2 ln(n(n+1)/delta) / n)) needs about
/// 480 here (700 in nine runs of ten), so 2000 leaves a factor near three; the spec promises no power,
/// so "most" is taken as 90%.
#[test]
fn anytime_qualifies_a_clearly_better_candidate() {
    let out = run_anytime(0.05, M, 200, 2000, 0x5eed_0401, |rng, _| {
        paired_bernoulli(rng, 0.4, 0.7, 0.0)
    });
    let qualified = rate(out.qualified, out.runs);
    assert!(qualified >= 0.9, "qualified in only {qualified:.3} of runs");
    // Rejecting a candidate whose mean clears m by 0.25 would mean the
    // sequence missed the mean, which has probability <= 2 delta.
    let rejected = rate(out.rejected, out.runs);
    assert!(
        rejected <= binomial_ceiling(0.1, out.runs),
        "rejected in {rejected:.3} of runs"
    );
}

/// A clearly worse candidate (0.4 vs 0.6, mean difference -0.2, a gap of
/// 0.25 below m) must reject in most runs within 2000 differences, by the
/// same reasoning as the better one; it may qualify at most at the null rate.
#[test]
fn anytime_rejects_a_clearly_worse_candidate() {
    let out = run_anytime(0.05, M, 200, 2000, 0x5eed_0402, |rng, _| {
        paired_bernoulli(rng, 0.6, 0.4, 0.0)
    });
    let rejected = rate(out.rejected, out.runs);
    assert!(rejected >= 0.9, "rejected in only {rejected:.3} of runs");
    assert_rarely_qualifies("clearly worse candidate", 0.05, &out);
}

/// Constant differences: all 1 qualifies and all -1 rejects, each within 200
/// differences (the union-bound Hoeffding procedure needs 21); all
/// exactly m is a deterministic null whose mean is m, so it must never
/// qualify and, since the sequence may not miss a deterministic mean, must
/// never reject either: the bounds keep m between them throughout.
#[test]
fn anytime_constant_differences() {
    for delta in [0.05, 0.1, 0.01] {
        let mut test = AnytimeTest::new(delta, M);
        let decided = (0..200).find(|_| test.observe(1.0) != Verdict::Undecided);
        assert!(
            decided.is_some(),
            "all 1.0 undecided after 200 (delta {delta})"
        );
        assert_eq!(test.verdict(), Verdict::Qualify, "all 1.0 (delta {delta})");

        let mut test = AnytimeTest::new(delta, M);
        let decided = (0..200).find(|_| test.observe(-1.0) != Verdict::Undecided);
        assert!(
            decided.is_some(),
            "all -1.0 undecided after 200 (delta {delta})"
        );
        assert_eq!(test.verdict(), Verdict::Reject, "all -1.0 (delta {delta})");

        for m in [M, 0.25, 0.5, 0.0] {
            let mut test = AnytimeTest::new(delta, m);
            for step in 1..=3000 {
                assert_eq!(
                    test.observe(m),
                    Verdict::Undecided,
                    "all differences exactly m = {m} decided at step {step} (delta {delta})"
                );
                assert!(
                    test.lower() <= m && test.upper() >= m,
                    "m = {m} outside [{}, {}] at step {step}",
                    test.lower(),
                    test.upper()
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 5. AnytimeTest structure
// ---------------------------------------------------------------------------

/// Checks, over many runs of varied laws (means from -0.3 to 0.4, both
/// high-variance -1/1 and continuous differences), at every step:
/// observe() returns verdict(); both bounds are finite and in [-1, 1];
/// lower never decreases and upper never increases; trials counts the
/// differences until the decision; mean is their arithmetic mean; a
/// Qualify comes with lower > m and a Reject with upper < m; an Undecided
/// test has lower <= m <= upper (else it would have decided "as soon as");
/// and after a decision nothing changes. No statistics: these are invariants.
#[test]
fn anytime_structure_holds_along_every_run() {
    let mut rng = seeded(0x5eed_0501);
    let delta = 0.05;
    for (case, &mu) in [-0.3, -0.05, 0.0, 0.05, 0.1, 0.2, 0.4].iter().enumerate() {
        for run in 0..30 {
            let mut test = AnytimeTest::new(delta, M);
            assert_eq!(test.verdict(), Verdict::Undecided);
            assert_eq!(test.trials(), 0);
            assert_eq!(test.mean(), None);
            let (mut prev_lo, mut prev_hi) = (test.lower(), test.upper());
            assert!((-1.0..=1.0).contains(&prev_lo) && (-1.0..=1.0).contains(&prev_hi));
            let mut sum = 0.0;
            let mut decided: Option<(Verdict, u64, f64, f64, Option<f64>)> = None;
            for step in 1..=1500u64 {
                let x = if run % 2 == 0 {
                    two_point(&mut rng, -1.0, 1.0, p_hi_for_mean(-1.0, 1.0, mu))
                } else {
                    let half = 0.5 * (1.0 - mu.abs());
                    uniform(&mut rng, mu - half, mu + half)
                };
                let v = test.observe(x);
                let at = format!("case {case} (mean {mu}), run {run}, step {step}");
                assert_eq!(v, test.verdict(), "{at}");
                let (lo, hi) = (test.lower(), test.upper());
                assert!(
                    lo.is_finite() && (-1.0..=1.0).contains(&lo),
                    "{at}: lower {lo}"
                );
                assert!(
                    hi.is_finite() && (-1.0..=1.0).contains(&hi),
                    "{at}: upper {hi}"
                );
                assert!(lo >= prev_lo, "{at}: lower fell from {prev_lo} to {lo}");
                assert!(hi <= prev_hi, "{at}: upper rose from {prev_hi} to {hi}");
                prev_lo = lo;
                prev_hi = hi;
                if let Some((verdict, trials, d_lo, d_hi, d_mean)) = decided {
                    assert_eq!(v, verdict, "{at}: verdict changed after the decision");
                    assert_eq!(
                        test.trials(),
                        trials,
                        "{at}: trials changed after the decision"
                    );
                    assert_eq!(lo, d_lo, "{at}: lower changed after the decision");
                    assert_eq!(hi, d_hi, "{at}: upper changed after the decision");
                    assert_eq!(test.mean(), d_mean, "{at}: mean changed after the decision");
                    continue;
                }
                sum += x;
                assert_eq!(test.trials(), step, "{at}");
                let mean = test.mean().expect("mean after a difference");
                assert!((mean - sum / step as f64).abs() < 1e-9, "{at}: mean {mean}");
                match v {
                    Verdict::Undecided => {
                        assert!(lo <= M && hi >= M, "{at}: undecided with [{lo}, {hi}]");
                    }
                    Verdict::Qualify => assert!(lo > M, "{at}: qualified with lower {lo}"),
                    Verdict::Reject => assert!(hi < M, "{at}: rejected with upper {hi}"),
                }
                if v != Verdict::Undecided {
                    decided = Some((v, step, lo, hi, test.mean()));
                }
            }
        }
    }
}

/// Checks stickiness against the most hostile follow-up: after a
/// qualification, a thousand differences of -1; after a rejection, a
/// thousand of 1. Verdict, trials, mean and bounds must not move.
#[test]
fn anytime_verdict_is_sticky_against_reversal() {
    for (fill, reversal, expected) in [(1.0, -1.0, Verdict::Qualify), (-1.0, 1.0, Verdict::Reject)]
    {
        let mut test = AnytimeTest::new(0.05, M);
        let mut steps = 0u64;
        while test.observe(fill) == Verdict::Undecided {
            steps += 1;
            assert!(steps < 10_000, "constant {fill} never decided");
        }
        assert_eq!(test.verdict(), expected);
        let snapshot = (test.trials(), test.mean(), test.lower(), test.upper());
        assert_eq!(
            snapshot.0,
            steps + 1,
            "trials counts differences up to the decision"
        );
        for _ in 0..1000 {
            assert_eq!(test.observe(reversal), expected);
        }
        assert_eq!(test.verdict(), expected);
        assert_eq!(
            (test.trials(), test.mean(), test.lower(), test.upper()),
            snapshot
        );
    }
}

// ---------------------------------------------------------------------------
// 6. DriftTest false alarms
// ---------------------------------------------------------------------------

/// The false alarm rate of the drift tests below. 0.1 gives the ceiling
/// 0.1 + 3 sqrt(0.09 / runs).
const DRIFT_DELTA: f64 = 0.1;
const DRIFT_RUNS: u32 = 600;
const DRIFT_HORIZON: u64 = 1500;

/// Returns how many of `runs` monitors ever reported Drifted within
/// `horizon` differences; `draw` gets the index of the difference.
fn drift_alarms(
    delta: f64,
    m: f64,
    qualified_mean: f64,
    runs: u32,
    horizon: u64,
    seed: u64,
    mut draw: impl FnMut(&mut Gen, u64) -> f64,
) -> u32 {
    let mut rng = seeded(seed);
    let mut alarms = 0;
    for _ in 0..runs {
        let mut test = DriftTest::new(delta, m, qualified_mean);
        for step in 0..horizon {
            let x = draw(&mut rng, step);
            assert!((-1.0..=1.0).contains(&x), "generator produced {x}");
            if test.observe(x) == DriftVerdict::Drifted {
                alarms += 1;
                break;
            }
        }
    }
    alarms
}

fn assert_rare_false_alarms(case: &str, delta: f64, alarms: u32, runs: u32) {
    let observed = rate(alarms, runs);
    let ceiling = binomial_ceiling(delta, runs);
    assert!(
        observed <= ceiling,
        "{case}: drifted in {observed:.4} of {runs} runs although every mean difference \
         is >= m; the guarantee is {delta}, the ceiling with binomial slack {ceiling:.4}"
    );
}

/// Monitoring differences with mean exactly m, paired Bernoulli (-1, 0, 1)
/// with correlation: the boundary of the drift guarantee.
#[test]
fn drift_false_alarms_correlated_paired_bernoulli_at_m() {
    let alarms = drift_alarms(
        DRIFT_DELTA,
        M,
        0.3,
        DRIFT_RUNS,
        DRIFT_HORIZON,
        0x5eed_0601,
        |rng, _| paired_bernoulli(rng, 0.45, 0.45 + M, 0.4),
    );
    assert_rare_false_alarms("paired Bernoulli at m", DRIFT_DELTA, alarms, DRIFT_RUNS);
}

/// Mean exactly m with -1/1 differences, the largest variance possible.
#[test]
fn drift_false_alarms_extremes_at_m() {
    let p = p_hi_for_mean(-1.0, 1.0, M);
    let alarms = drift_alarms(
        DRIFT_DELTA,
        M,
        0.3,
        DRIFT_RUNS,
        DRIFT_HORIZON,
        0x5eed_0602,
        |rng, _| two_point(rng, -1.0, 1.0, p),
    );
    assert_rare_false_alarms("extremes at m", DRIFT_DELTA, alarms, DRIFT_RUNS);
}

/// Mean exactly m but mostly below it: -0.1 except for rare wins of 1
/// (probability about 0.136). Runs of -0.1 look exactly like a drift to
/// -0.1 (20 in a row have probability about 0.054), and a streak counter or
/// a monitor that trusts low empirical variance alarms far too often.
#[test]
fn drift_false_alarms_skewed_rare_wins_at_m() {
    let p = p_hi_for_mean(-0.1, 1.0, M);
    let alarms = drift_alarms(
        DRIFT_DELTA,
        M,
        0.3,
        DRIFT_RUNS,
        DRIFT_HORIZON,
        0x5eed_0603,
        |rng, _| two_point(rng, -0.1, 1.0, p),
    );
    assert_rare_false_alarms("skewed rare wins at m", DRIFT_DELTA, alarms, DRIFT_RUNS);
}

/// Mean exactly m in alternating regimes of 50 differences: calm (uniform on
/// m +/- 0.02) then wild (1 or 2m - 1, evenly). A monitor calibrated on the
/// calm regime must not mistake the wild one for a drift.
#[test]
fn drift_false_alarms_switching_variance_at_m() {
    let alarms = drift_alarms(
        DRIFT_DELTA,
        M,
        0.3,
        DRIFT_RUNS,
        DRIFT_HORIZON,
        0x5eed_0604,
        |rng, step| {
            if (step / 50) % 2 == 0 {
                uniform(rng, M - 0.02, M + 0.02)
            } else {
                two_point(rng, 2.0 * M - 1.0, 1.0, 0.5)
            }
        },
    );
    assert_rare_false_alarms("switching variance at m", DRIFT_DELTA, alarms, DRIFT_RUNS);
}

/// Mean well above m (0.3, independent Bernoulli 0.7 vs 0.4), with a
/// starting estimate that is right, far too high, and far too low: the
/// guarantee does not depend on `qualified_mean`.
#[test]
fn drift_false_alarms_above_m_whatever_the_qualified_mean() {
    for (i, qualified_mean) in [0.3, 1.0, -1.0, M].into_iter().enumerate() {
        let alarms = drift_alarms(
            DRIFT_DELTA,
            M,
            qualified_mean,
            300,
            1000,
            0x5eed_0605 + i as u64,
            |rng, _| paired_bernoulli(rng, 0.4, 0.7, 0.0),
        );
        assert_rare_false_alarms(
            &format!("mean 0.3, qualified mean {qualified_mean}"),
            DRIFT_DELTA,
            alarms,
            300,
        );
    }
}

/// Deterministic monitoring differences whose mean is at least m: all
/// exactly m (for several m, including 0 and 1), and all 1. A false alarm
/// here would have probability 1, so it must never happen, whatever the
/// qualified mean and however long the run.
#[test]
fn drift_never_alarms_on_deterministic_good_differences() {
    for delta in [0.05, 0.1, 1e-6, 0.499] {
        for m in [0.0, M, 0.5, 1.0] {
            for qualified_mean in [-1.0, m, 1.0] {
                for value in [m, 1.0] {
                    let mut test = DriftTest::new(delta, m, qualified_mean);
                    for step in 1..=3000u64 {
                        assert_eq!(
                            test.observe(value),
                            DriftVerdict::Holding,
                            "constant {value} >= m = {m} drifted at step {step} \
                             (delta {delta}, qualified mean {qualified_mean})"
                        );
                        assert_eq!(test.trials(), step);
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 7. DriftTest detection
// ---------------------------------------------------------------------------

/// Runs a monitor through `history` good differences and then at most
/// `after` bad ones. Returns the number of bad differences up to and
/// including the one that reported Drifted (0 if it drifted during the
/// history), or None if it never did.
fn drift_delay(
    rng: &mut Gen,
    delta: f64,
    history: u64,
    after: u64,
    good: impl Fn(&mut Gen) -> f64,
    bad: impl Fn(&mut Gen) -> f64,
) -> Option<u64> {
    let mut test = DriftTest::new(delta, M, 0.3);
    for _ in 0..history {
        if test.observe(good(rng)) == DriftVerdict::Drifted {
            return Some(0);
        }
    }
    for delay in 1..=after {
        if test.observe(bad(rng)) == DriftVerdict::Drifted {
            assert_eq!(
                test.trials(),
                history + delay,
                "trials counts up to the alarm"
            );
            return Some(delay);
        }
        assert_eq!(test.trials(), history + delay);
    }
    None
}

/// Good: independent Bernoulli 0.7 vs 0.4, mean 0.3.
fn good_difference(rng: &mut Gen) -> f64 {
    paired_bernoulli(rng, 0.4, 0.7, 0.0)
}

/// Bad: independent Bernoulli 0.2 vs 0.7, mean -0.5, a gap of 0.55 below m.
fn bad_difference(rng: &mut Gen) -> f64 {
    paired_bernoulli(rng, 0.7, 0.2, 0.0)
}

/// After 1000 good differences (mean 0.3) the mean collapses to -0.5. The
/// monitor must report Drifted within 400 more in at least 90% of runs.
/// Why 400: a conservative valid monitor that restarts a union-bound
/// Hoeffding test at every trial, spending delta / (s (s + 1)) on the start
/// s, needs about 175 here (240 in nine runs of ten); one that merely tracks
/// the running mean since qualification (blinded by history) must first burn
/// the 1000 * 0.25 of accumulated surplus and needs about 930.
#[test]
fn drift_detects_a_collapse_after_a_long_good_history() {
    let mut rng = seeded(0x5eed_0701);
    let runs = 200;
    let mut detected = 0;
    for _ in 0..runs {
        if drift_delay(&mut rng, 0.05, 1000, 400, good_difference, bad_difference).is_some() {
            detected += 1;
        }
    }
    let observed = rate(detected, runs);
    assert!(
        observed >= 0.9,
        "detected in only {observed:.3} of runs within 400"
    );
}

/// After 1000 good differences every difference becomes -1. The monitor
/// must report Drifted within 150 more in at least 95% of runs (the
/// restarting Hoeffding monitor needs about 45; a running-mean monitor
/// about 450).
#[test]
fn drift_detects_a_total_collapse_quickly() {
    let mut rng = seeded(0x5eed_0702);
    let runs = 200;
    let mut detected = 0;
    for _ in 0..runs {
        if drift_delay(&mut rng, 0.05, 1000, 150, good_difference, |_| -1.0).is_some() {
            detected += 1;
        }
    }
    let observed = rate(detected, runs);
    assert!(
        observed >= 0.95,
        "detected in only {observed:.3} of runs within 150"
    );
}

/// The detection delay must not grow in proportion to the good history: the
/// median delay after 2000 good differences is at most twice that after 100,
/// plus 100. A monitor that pays only logarithmically for history meets it
/// easily: the restarting Hoeffding monitor, whose price ln(s^2 / delta)
/// grows from 12 to 18, has medians of about 140 and 185. One blinded by
/// history, whose delay grows like 0.25 * history / 0.55, does not: a
/// running-mean monitor has medians of about 220 and 1600. Undetected runs
/// count as infinitely late.
#[test]
fn drift_delay_is_not_blinded_by_history() {
    let mut rng = seeded(0x5eed_0703);
    let runs = 101;
    let mut median = |history: u64| {
        let mut delays: Vec<u64> = (0..runs)
            .map(|_| {
                drift_delay(
                    &mut rng,
                    0.05,
                    history,
                    3000,
                    good_difference,
                    bad_difference,
                )
                .unwrap_or(u64::MAX)
            })
            .collect();
        delays.sort_unstable();
        delays[delays.len() / 2]
    };
    let short = median(100);
    let long = median(2000);
    assert!(
        short < 3000,
        "median delay after 100 good differences: {short}"
    );
    assert!(
        long <= 2 * short + 100,
        "median delay {long} after 2000 good differences vs {short} after 100"
    );
}

/// After Drifted, observe() changes nothing: it keeps returning Drifted on
/// the best possible differences, and trials stops counting.
#[test]
fn drift_verdict_is_sticky() {
    let mut test = DriftTest::new(0.05, M, 0.3);
    assert_eq!(test.verdict(), DriftVerdict::Holding);
    assert_eq!(test.trials(), 0);
    let mut steps = 0u64;
    while test.observe(-1.0) == DriftVerdict::Holding {
        steps += 1;
        assert_eq!(test.trials(), steps);
        assert!(steps < 10_000, "constant -1 never drifted");
    }
    assert_eq!(test.verdict(), DriftVerdict::Drifted);
    let trials = test.trials();
    assert_eq!(trials, steps + 1);
    for _ in 0..1000 {
        assert_eq!(test.observe(1.0), DriftVerdict::Drifted);
    }
    assert_eq!(test.verdict(), DriftVerdict::Drifted);
    assert_eq!(test.trials(), trials);
}

// ---------------------------------------------------------------------------
// 8. Edge inputs
// ---------------------------------------------------------------------------

/// Extreme differences (-1 and 1 only, constant, alternating and random),
/// deltas from 1e-6 to just under 0.5, and m at 0, 1 and between: nothing
/// panics, bounds and means are finite and within [-1, 1], and the
/// FixedHoeffding and DriftTest accessors behave likewise.
#[test]
fn edge_inputs_never_panic_or_produce_nan() {
    let mut rng = seeded(0x5eed_0801);
    for delta in [1e-6, 0.001, 0.05, 0.25, 0.4999] {
        for m in [0.0, M, 0.5, 1.0] {
            for pattern in 0..4u32 {
                let draw = |rng: &mut Gen, i: u32| match pattern {
                    0 => 1.0,
                    1 => -1.0,
                    2 => {
                        if i.is_multiple_of(2) {
                            1.0
                        } else {
                            -1.0
                        }
                    }
                    _ => {
                        if rng.random_bool(0.5) {
                            1.0
                        } else {
                            -1.0
                        }
                    }
                };
                let mut anytime = AnytimeTest::new(delta, m);
                let mut fixed = FixedHoeffding::new(200, delta, m);
                let mut drift = DriftTest::new(delta, m, 0.0);
                for i in 0..400 {
                    let x = draw(&mut rng, i);
                    anytime.observe(x);
                    fixed.observe(x);
                    drift.observe(x);
                    let at = format!("delta {delta}, m {m}, pattern {pattern}, step {i}");
                    for (name, b) in [
                        ("anytime lower", anytime.lower()),
                        ("anytime upper", anytime.upper()),
                        ("fixed lower", fixed.lower()),
                        ("fixed upper", fixed.upper()),
                    ] {
                        assert!(
                            b.is_finite() && (-1.0..=1.0).contains(&b),
                            "{at}: {name} {b}"
                        );
                    }
                    for (name, mean) in [("anytime", anytime.mean()), ("fixed", fixed.mean())] {
                        let mean = mean.expect("mean after a difference");
                        assert!(
                            mean.is_finite() && (-1.0..=1.0).contains(&mean),
                            "{at}: {name} mean {mean}"
                        );
                    }
                }
                assert_ne!(
                    fixed.verdict(),
                    Verdict::Undecided,
                    "fixed test undecided after n"
                );
                assert_eq!(fixed.trials(), 200);
                assert!(drift.trials() <= 400);
            }
        }
    }
}

/// m = 1 can never be beaten: lower() <= 1 = m, so even all-1 differences
/// never qualify, and since their mean is exactly m (deterministic), they
/// never reject either. FixedHoeffding rejects them: 1 - radius < 1.
#[test]
fn edge_margin_one_is_never_beaten() {
    for delta in [1e-6, 0.05, 0.4999] {
        let mut test = AnytimeTest::new(delta, 1.0);
        for step in 0..3000 {
            assert_eq!(
                test.observe(1.0),
                Verdict::Undecided,
                "step {step}, delta {delta}"
            );
        }
        assert_eq!(test.upper(), 1.0);

        let mut fixed = FixedHoeffding::new(500, delta, 1.0);
        for _ in 0..500 {
            fixed.observe(1.0);
        }
        assert_eq!(fixed.verdict(), Verdict::Reject, "delta {delta}");
    }
}

/// m = 0: all-1 differences qualify (within 200, as for m = 0.05), and
/// all-0 differences are a deterministic null at the boundary, never decided.
#[test]
fn edge_margin_zero() {
    for delta in [1e-6, 0.05, 0.4999] {
        let mut test = AnytimeTest::new(delta, 0.0);
        let decided = (0..200).find(|_| test.observe(1.0) != Verdict::Undecided);
        assert!(
            decided.is_some(),
            "all 1.0 undecided after 200 at m = 0 (delta {delta})"
        );
        assert_eq!(test.verdict(), Verdict::Qualify);

        let mut test = AnytimeTest::new(delta, 0.0);
        for step in 0..3000 {
            assert_eq!(
                test.observe(0.0),
                Verdict::Undecided,
                "step {step}, delta {delta}"
            );
        }
    }
}

/// A tiny delta (1e-6) still lets overwhelming evidence through: all-1
/// differences qualify within 2000 (the union-bound Hoeffding procedure
/// needs about 50) and all -1 reject; a delta just under 0.5 is accepted too.
#[test]
fn edge_extreme_deltas_still_decide() {
    for delta in [1e-6, 0.4999] {
        let mut test = AnytimeTest::new(delta, M);
        let decided = (0..2000).find(|_| test.observe(1.0) != Verdict::Undecided);
        assert!(
            decided.is_some(),
            "all 1.0 undecided after 2000 (delta {delta})"
        );
        assert_eq!(test.verdict(), Verdict::Qualify, "delta {delta}");

        let mut test = AnytimeTest::new(delta, M);
        let decided = (0..2000).find(|_| test.observe(-1.0) != Verdict::Undecided);
        assert!(
            decided.is_some(),
            "all -1.0 undecided after 2000 (delta {delta})"
        );
        assert_eq!(test.verdict(), Verdict::Reject, "delta {delta}");

        let mut drift = DriftTest::new(delta, M, 0.3);
        let drifted = (0..2000).find(|_| drift.observe(-1.0) == DriftVerdict::Drifted);
        assert!(
            drifted.is_some(),
            "all -1.0 never drifted in 2000 (delta {delta})"
        );
    }
}
