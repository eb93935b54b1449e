//! Families 6 and 7: DriftTest false alarms and detection.

use super::*;

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
