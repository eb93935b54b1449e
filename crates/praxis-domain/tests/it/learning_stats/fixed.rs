//! Families 1 and 2: candidate_delta, hoeffding_radius and FixedHoeffding.

use super::*;

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
