//! `praxis bench redaction`: the screening engine against its labelled
//! corpus, the train part and the held-out test part side by side.
//!
//! Prints, per part and per rule, how many of its positives it detects and
//! how many negatives it fires on, then the overall recall and
//! false-positive rate, and the scanning throughput. Unlike the other
//! benchmarks it has a verdict, on the held-out test part: it exits
//! non-zero when any single rule's recall there falls below 99% or its
//! false-positive rate rises above 1%, or the overall figures do, and names
//! each rule that misses. The targets hold per rule because an overall
//! figure hides a weak rule: one rule missing a tenth of its few dozen
//! positives barely moves the recall over all of them. The train part is
//! printed for comparison; the integration tests hold it at 100%.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use praxis_domain::records::screen::corpus::{CorpusCase, Part, corpus};
use praxis_domain::records::screen::prompt_model::{THRESHOLD, Training, cross_validate};
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
    /// Also score each seen part with a prompt-override model trained
    /// without it, and print how well the model alone reads writers it
    /// never learned from.
    #[arg(long)]
    cross_validate: bool,
}

/// Lowest acceptable recall, of each rule and overall.
const MIN_RECALL: f64 = 0.99;
/// Highest acceptable false-positive rate, of each rule and overall.
const MAX_FALSE_POSITIVE_RATE: f64 = 0.01;

/// Detection counts of one rule, or of all rules together.
#[derive(Default)]
struct Tally {
    positives: usize,
    detected: usize,
    negatives: usize,
    false_positives: usize,
}

impl Tally {
    /// How the counts miss the targets, one phrase per miss; empty when
    /// they meet both. Without positives the recall is unmeasured, which
    /// counts as a miss: a rule the corpus does not exercise is not guarded.
    fn shortfalls(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.positives == 0 {
            out.push("no positives, so its recall is unmeasured".to_owned());
        } else if rate(self.detected, self.positives) < MIN_RECALL {
            out.push(format!(
                "recall {} ({} of {}; minimum {:.0}%)",
                percent(self.detected, self.positives),
                self.detected,
                self.positives,
                MIN_RECALL * 100.0
            ));
        }
        if rate(self.false_positives, self.negatives) > MAX_FALSE_POSITIVE_RATE {
            out.push(format!(
                "false-positive rate {} ({} of {}; maximum {:.0}%)",
                percent(self.false_positives, self.negatives),
                self.false_positives,
                self.negatives,
                MAX_FALSE_POSITIVE_RATE * 100.0
            ));
        }
        out
    }
}

/// `part / whole`, 0 for an empty whole. Division rounds correctly, so a
/// count exactly at a threshold (99 of 100) compares equal to it.
fn rate(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        "–".to_owned()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

/// Detection counts of one part: per rule (indexed like [`Rule::ALL`]) and
/// overall.
struct Evaluation {
    rules: Vec<Tally>,
    overall: Tally,
}

/// Counts what fired on each case of one part.
fn evaluate(cases: &[&CorpusCase], fired: &[&Vec<Rule>]) -> Evaluation {
    let mut rules: Vec<Tally> = Rule::ALL.iter().map(|_| Tally::default()).collect();
    let mut overall = Tally::default();
    for (case, fired) in cases.iter().zip(fired) {
        if let Some(rule) = case.rule {
            overall.positives += 1;
            let tally = &mut rules[position(rule)];
            tally.positives += 1;
            if fired.contains(&rule) {
                tally.detected += 1;
                overall.detected += 1;
            }
        } else {
            overall.negatives += 1;
            overall.false_positives += usize::from(!fired.is_empty());
            for (rule, tally) in Rule::ALL.iter().zip(&mut rules) {
                // Command-field rules only run on command fields, so only
                // those negatives can test them.
                if rule.commands_only() && !case.commands {
                    continue;
                }
                tally.negatives += 1;
                tally.false_positives += usize::from(fired.contains(rule));
            }
        }
    }
    Evaluation { rules, overall }
}

fn print_table(part: Part, evaluation: &Evaluation) {
    println!("### {} part", part.name());
    println!();
    println!("| rule | positives | detected | recall | negatives | false positives | FP rate |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let rows = Rule::ALL
        .iter()
        .map(|r| (format!("`{}`", r.code()), r))
        .zip(&evaluation.rules)
        .map(|((name, _), t)| (name, t))
        .chain(std::iter::once(("**all**".to_owned(), &evaluation.overall)));
    for (name, t) in rows {
        println!(
            "| {name} | {} | {} | {} | {} | {} | {} |",
            t.positives,
            t.detected,
            percent(t.detected, t.positives),
            t.negatives,
            t.false_positives,
            percent(t.false_positives, t.negatives),
        );
    }
    println!();
}

/// Runs the benchmark; fails (exit code 1) when any rule, or all of them
/// together, falls below the recall or rises above the false-positive
/// threshold on the held-out test part.
pub fn run(args: &RedactionArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(args.runs > 0, "--runs must be positive");
    let cases = corpus();

    // The first scan compiles every pattern; it is timed apart.
    let cold = Instant::now();
    let fired: Vec<Vec<Rule>> = cases.iter().map(|c| scan(&c.text, c.commands)).collect();
    let first_pass = cold.elapsed();

    let mut test = None;
    for part in [Part::Train, Part::Seen, Part::Test] {
        let (part_cases, part_fired): (Vec<&CorpusCase>, Vec<&Vec<Rule>>) = cases
            .iter()
            .zip(&fired)
            .filter(|(c, _)| c.part == part)
            .unzip();
        let evaluation = evaluate(&part_cases, &part_fired);
        print_table(part, &evaluation);
        if part == Part::Test {
            test = Some(evaluation);
        }
    }
    let test = test.expect("the test part is evaluated");

    let rates = throughput(&cases, Duration::from_secs_f64(args.seconds), args.runs);
    let median = rates[rates.len() / 2];
    let bytes: usize = cases.iter().map(|c| c.text.len()).sum();
    let mean_bytes = bytes as f64 / cases.len() as f64;
    println!(
        "{} cases, mean {mean_bytes:.0} bytes; first pass (compiles the patterns) {:.1} ms",
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

    if args.cross_validate {
        print_cross_validation();
    }

    let failures = failures(&test.rules, &test.overall);
    if failures.is_empty() {
        println!(
            "PASS: on the test part, every rule and the overall figures meet recall >= {:.0}% and FP rate <= {:.0}%",
            MIN_RECALL * 100.0,
            MAX_FALSE_POSITIVE_RATE * 100.0
        );
        return Ok(ExitCode::SUCCESS);
    }
    for failure in &failures {
        eprintln!("FAIL (test part): {failure}");
    }
    Ok(ExitCode::FAILURE)
}

/// The prompt-override model's reading of each seen part, trained on
/// every other part: its recall on the part's overrides and its false
/// alarms on the part's negatives, at the screen's threshold.
fn print_cross_validation() {
    let scored = cross_validate(Training::DEFAULT);
    let overrides = || {
        scored
            .iter()
            .filter(|(c, _)| c.rule == Some(Rule::PromptOverride))
    };
    let negatives = || scored.iter().filter(|(c, _)| c.rule.is_none());
    let above = |(_, score): &&(CorpusCase, f64)| *score > THRESHOLD;
    let (found, positives) = (overrides().filter(above).count(), overrides().count());
    let (alarms, clean) = (negatives().filter(above).count(), negatives().count());
    println!(
        "prompt-override model, each seen part scored by a model trained without it \
         (threshold {THRESHOLD}): recall {found} of {positives} ({}), \
         false alarms {alarms} of {clean} negatives ({})",
        percent(found, positives),
        percent(alarms, clean)
    );
}

/// Every miss of a rule (`tallies` is indexed like [`Rule::ALL`]) and of
/// the overall figures, each naming what missed.
fn failures(tallies: &[Tally], overall: &Tally) -> Vec<String> {
    let rules = Rule::ALL.iter().map(|r| r.code()).zip(tallies);
    rules
        .chain(std::iter::once(("all rules", overall)))
        .flat_map(|(name, tally)| {
            tally
                .shortfalls()
                .into_iter()
                .map(move |miss| format!("{name}: {miss}"))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(positives: usize, detected: usize, negatives: usize, fp: usize) -> Tally {
        Tally {
            positives,
            detected,
            negatives,
            false_positives: fp,
        }
    }

    /// One rule missing 3 of its 20 positives fails the run even though
    /// overall recall (497 of 500) is above 99%; the message names it.
    #[test]
    fn a_weak_rule_fails_even_when_the_overall_figures_pass() {
        let mut tallies: Vec<Tally> = Rule::ALL.iter().map(|_| tally(30, 30, 500, 0)).collect();
        tallies[1] = tally(20, 17, 500, 0);
        let overall = tally(500, 497, 500, 0);
        assert!(overall.shortfalls().is_empty());
        let failures = failures(&tallies, &overall);
        assert_eq!(failures.len(), 1, "{failures:?}");
        assert!(failures[0].starts_with(Rule::ALL[1].code()), "{failures:?}");
        assert!(failures[0].contains("recall 85.0%"), "{failures:?}");
    }

    #[test]
    fn false_positives_and_missing_positives_fail_per_rule() {
        let mut tallies: Vec<Tally> = Rule::ALL.iter().map(|_| tally(30, 30, 500, 0)).collect();
        tallies[0] = tally(30, 30, 500, 6);
        tallies[2] = tally(0, 0, 500, 0);
        let failures = failures(&tallies, &tally(500, 500, 500, 6));
        assert_eq!(failures.len(), 3, "{failures:?}");
        assert!(failures[0].starts_with(Rule::ALL[0].code()));
        assert!(failures[0].contains("false-positive rate 1.2%"));
        assert!(failures[1].starts_with(Rule::ALL[2].code()));
        assert!(failures[1].contains("no positives"));
        assert!(failures[2].starts_with("all rules: false-positive rate"));
    }

    /// Exactly at the thresholds passes: 99 of 100 detected, 5 of 500
    /// negatives flagged.
    #[test]
    fn the_thresholds_are_inclusive() {
        assert!(tally(100, 99, 500, 5).shortfalls().is_empty());
        assert_eq!(tally(100, 98, 500, 6).shortfalls().len(), 2);
    }
}
