//! Family 8: edge inputs.

use super::*;

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
