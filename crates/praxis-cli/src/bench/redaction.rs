//! `praxis bench redaction`: the screening engine against its labelled
//! corpus.
//!
//! Prints, per rule, how many of its positives it detects and how many
//! negatives it fires on, then the overall recall and false-positive rate
//! and the scanning throughput. Unlike the other benchmarks it has a verdict:
//! it exits non-zero when recall falls below 99% or the false-positive rate
//! rises above 1%, so that a regression of the engine or the corpus shows.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use praxis_domain::records::screen::corpus::{CorpusCase, corpus};
use praxis_domain::records::screen::{Rule, scan};

/// Arguments of `bench redaction`.
#[derive(Args)]
pub struct RedactionArgs {
    /// Seconds of repeated scanning per throughput run.
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Throughput runs; the median is reported.
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

/// Lowest acceptable overall recall.
const MIN_RECALL: f64 = 0.99;
/// Highest acceptable overall false-positive rate.
const MAX_FALSE_POSITIVE_RATE: f64 = 0.01;

/// Detection counts of one rule.
#[derive(Default)]
struct Tally {
    positives: usize,
    detected: usize,
    negatives: usize,
    false_positives: usize,
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// Runs the benchmark; fails (exit code 1) below the recall or above the
/// false-positive threshold.
pub fn run(args: RedactionArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.runs > 0, "--runs must be positive");
    let cases = corpus();

    // The first scan compiles every pattern; it is timed apart.
    let cold = Instant::now();
    let fired: Vec<Vec<Rule>> = cases.iter().map(|c| scan(&c.text, c.commands)).collect();
    let first_pass = cold.elapsed();

    let mut tallies: Vec<Tally> = Rule::ALL.iter().map(|_| Tally::default()).collect();
    let (mut positives, mut detected, mut negatives, mut flagged) = (0, 0, 0, 0);
    for (case, rules) in cases.iter().zip(&fired) {
        match case.rule {
            Some(rule) => {
                positives += 1;
                let tally = &mut tallies[position(rule)];
                tally.positives += 1;
                if rules.contains(&rule) {
                    tally.detected += 1;
                    detected += 1;
                }
            }
            None => {
                negatives += 1;
                flagged += usize::from(!rules.is_empty());
                for (rule, tally) in Rule::ALL.iter().zip(&mut tallies) {
                    // Unsafe-command rules only run on command fields, so
                    // only those negatives can test them.
                    if *rule == Rule::UnsafeCommand && !case.commands {
                        continue;
                    }
                    tally.negatives += 1;
                    tally.false_positives += usize::from(rules.contains(rule));
                }
            }
        }
    }

    let rates = throughput(&cases, Duration::from_secs_f64(args.seconds), args.runs);
    let median = rates[rates.len() / 2];
    let bytes: usize = cases.iter().map(|c| c.text.len()).sum();
    let mean_bytes = bytes as f64 / cases.len() as f64;

    println!("| rule | positives | detected | recall | negatives | false positives | FP rate |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (rule, t) in Rule::ALL.iter().zip(&tallies) {
        println!(
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            rule.code(),
            t.positives,
            t.detected,
            percent(t.detected, t.positives),
            t.negatives,
            t.false_positives,
            percent(t.false_positives, t.negatives),
        );
    }
    println!(
        "| **all** | {positives} | {detected} | {} | {negatives} | {flagged} | {} |",
        percent(detected, positives),
        percent(flagged, negatives),
    );
    println!();
    println!(
        "{} cases ({positives} positive, {negatives} negative), mean {mean_bytes:.0} bytes; \
         first pass (compiles the patterns) {:.1} ms",
        cases.len(),
        first_pass.as_secs_f64() * 1000.0
    );
    println!(
        "throughput: {median:.0} strings/s ({:.1} MB/s), median of {} runs of {:.1} s \
         (min {:.0}, max {:.0})",
        median * mean_bytes / 1e6,
        rates.len(),
        args.seconds,
        rates[0],
        rates[rates.len() - 1],
    );

    let recall = detected as f64 / positives.max(1) as f64;
    let false_positive_rate = flagged as f64 / negatives.max(1) as f64;
    if recall < MIN_RECALL || false_positive_rate > MAX_FALSE_POSITIVE_RATE {
        eprintln!(
            "FAIL: recall {:.2}% (minimum {:.0}%), false-positive rate {:.2}% (maximum {:.0}%)",
            recall * 100.0,
            MIN_RECALL * 100.0,
            false_positive_rate * 100.0,
            MAX_FALSE_POSITIVE_RATE * 100.0
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn position(rule: Rule) -> usize {
    Rule::ALL
        .iter()
        .position(|r| *r == rule)
        .expect("every rule is in Rule::ALL")
}

/// Strings scanned per second in each of `runs` runs of about `duration`,
/// sorted. Each run scans the whole corpus repeatedly.
fn throughput(cases: &[CorpusCase], duration: Duration, runs: usize) -> Vec<f64> {
    let mut rates: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            let mut scanned = 0usize;
            let mut fired = 0usize;
            while start.elapsed() < duration {
                for case in cases {
                    fired += scan(std::hint::black_box(&case.text), case.commands).len();
                }
                scanned += cases.len();
            }
            std::hint::black_box(fired);
            scanned as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates
}
