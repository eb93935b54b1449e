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

mod anytime;
mod drift;
mod edges;
mod fixed;

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
