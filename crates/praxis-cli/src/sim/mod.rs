//! `praxis sim`: simulations of the learning authority's statistics (not
//! tests and not benchmarks: they show what a rule does across many runs).

mod model;
mod plot;

use std::path::PathBuf;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use praxis_domain::learning::stats::{AnytimeTest, FixedHoeffding, Verdict};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use model::PairedBernoulli;

/// Simulations.
#[derive(Subcommand)]
pub enum SimCmd {
    /// Qualification rate and trials to a decision of `anytime_v1` and
    /// `fixed_hoeffding_v1` on simulated paired Bernoulli tasks, and an SVG
    /// of one anytime run's confidence sequence.
    Qualification(QualificationArgs),
}

/// Options of `praxis sim qualification`.
#[derive(Args)]
pub struct QualificationArgs {
    /// Candidates simulated per effect size.
    #[arg(long, default_value_t = 10_000)]
    candidates: u64,
    /// Effect sizes e (candidate minus baseline success rate).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "-0.1,0,0.05,0.1,0.2,0.3,0.4"
    )]
    effects: Vec<f64>,
    /// Within-task correlation of the two outcomes.
    #[arg(long, default_value_t = 0.5)]
    correlation: f64,
    /// The policy's min_improvement.
    #[arg(long, default_value_t = 0.05)]
    min_improvement: f64,
    /// The policy's confidence_delta.
    #[arg(long, default_value_t = 0.05)]
    delta: f64,
    /// The cap on an anytime run (the policy's max_trials).
    #[arg(long, default_value_t = 2_000)]
    max_trials: u64,
    /// The power fixed_hoeffding_v1's n is chosen for, at e = --power-effect.
    #[arg(long, default_value_t = 0.9)]
    power: f64,
    /// The effect at which fixed_hoeffding_v1's n reaches --power.
    #[arg(long, default_value_t = 0.2)]
    power_effect: f64,
    /// Seed of every run (each candidate's generator is derived from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the SVG of one anytime run at e = --power-effect.
    #[arg(long, default_value = "qualification-sequence.svg")]
    plot: PathBuf,
}

/// Runs a simulation.
pub fn run(command: SimCmd) -> anyhow::Result<()> {
    match command {
        SimCmd::Qualification(args) => qualification(&args),
    }
}

/// Where one simulated candidate ended.
#[derive(Clone, Copy)]
struct Outcome {
    qualified: bool,
    trials: u64,
}

/// One rule's results at one effect.
struct Row {
    rule: &'static str,
    effect: f64,
    correlation: f64,
    outcomes: Vec<Outcome>,
}

impl Row {
    fn rate(&self) -> f64 {
        self.outcomes.iter().filter(|o| o.qualified).count() as f64 / self.outcomes.len() as f64
    }

    /// The median and p90 trials of the runs `keep` selects, if any.
    fn trials(&self, keep: impl Fn(&Outcome) -> bool) -> Option<(u64, u64)> {
        let mut trials: Vec<u64> = self
            .outcomes
            .iter()
            .filter(|o| keep(o))
            .map(|o| o.trials)
            .collect();
        if trials.is_empty() {
            return None;
        }
        trials.sort_unstable();
        let at = |q: f64| trials[((trials.len() - 1) as f64 * q).round() as usize];
        Some((at(0.5), at(0.9)))
    }
}

/// Runs `praxis sim qualification`.
pub fn qualification(args: &QualificationArgs) -> anyhow::Result<()> {
    let (m, delta) = (args.min_improvement, args.delta);
    let powered = PairedBernoulli::new(args.power_effect, args.correlation);
    let (n, power) = powered
        .fixed_trials_for_power(m, delta, args.power, 1_000_000)
        .ok_or_else(|| anyhow::anyhow!("no n up to 1,000,000 reaches the power asked for"))?;
    println!(
        "fixed_hoeffding_v1 needs n = {n} paired trials for {:.0}% power at e = {} \
         (exact power {power:.4}; min_improvement {m}, delta {delta}, correlation {})",
        args.power * 100.0,
        args.power_effect,
        args.correlation
    );

    let bar = ProgressBar::new(args.candidates * args.effects.len() as u64 * 2);
    bar.set_style(
        ProgressStyle::with_template("simulating {bar:40} {human_pos}/{human_len} runs, eta {eta}")
            .expect("template"),
    );
    let mut rows = Vec::new();
    for (index, &effect) in args.effects.iter().enumerate() {
        let model = PairedBernoulli::new(effect, args.correlation);
        let stream = args.seed.wrapping_mul(1_000_003).wrapping_add(index as u64);
        let anytime = simulate(args.candidates, stream, &bar, |rng| {
            let mut test = AnytimeTest::new(delta, m);
            loop {
                match test.observe(model.draw(rng)) {
                    Verdict::Qualify => return (true, test.trials()),
                    Verdict::Reject => return (false, test.trials()),
                    Verdict::Undecided if test.trials() >= args.max_trials => {
                        return (false, test.trials());
                    }
                    Verdict::Undecided => {}
                }
            }
        });
        let fixed = simulate(args.candidates, stream ^ 0xf1fed, &bar, |rng| {
            let mut test = FixedHoeffding::new(n, delta, m);
            loop {
                match test.observe(model.draw(rng)) {
                    Verdict::Undecided => {}
                    v => return (v == Verdict::Qualify, test.trials()),
                }
            }
        });
        for (rule, outcomes) in [("anytime_v1", anytime), ("fixed_hoeffding_v1", fixed)] {
            rows.push(Row {
                rule,
                effect,
                correlation: model.correlation,
                outcomes,
            });
        }
    }
    bar.finish_and_clear();
    print_table(args, &rows);
    print_goals(args, &rows, n);

    let sequence = plot::one_run(&powered, args.seed, delta, m, args.max_trials);
    plot::write_svg(&args.plot, &sequence, m, args.power_effect)?;
    println!("\nwrote {}", args.plot.display());
    Ok(())
}

/// Runs `candidates` independent candidates on two threads, each with its
/// own generator derived from `stream` and its index, so the results do not
/// depend on how the work is split.
fn simulate(
    candidates: u64,
    stream: u64,
    bar: &ProgressBar,
    run: impl Fn(&mut SmallRng) -> (bool, u64) + Sync,
) -> Vec<Outcome> {
    let one = |i: u64| {
        let mut rng = SmallRng::seed_from_u64(stream.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i);
        let (qualified, trials) = run(&mut rng);
        bar.inc(1);
        Outcome { qualified, trials }
    };
    let half = candidates / 2;
    std::thread::scope(|scope| {
        let first = scope.spawn(|| (0..half).map(one).collect::<Vec<_>>());
        let second: Vec<Outcome> = (half..candidates).map(one).collect();
        let mut all = first.join().expect("a simulation thread panicked");
        all.extend(second);
        all
    })
}

fn print_table(args: &QualificationArgs, rows: &[Row]) {
    println!(
        "\n{} candidates per effect; anytime_v1 capped at {} trials\n",
        args.candidates, args.max_trials
    );
    println!(
        "| rule | e | correlation | qualified | trials to a decision (median / p90) | \
         trials to qualification (median / p90) |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let show = |t: Option<(u64, u64)>| t.map_or("—".to_owned(), |(a, b)| format!("{a} / {b}"));
    for row in rows {
        println!(
            "| {} | {} | {:.2} | {:.4} | {} | {} |",
            row.rule,
            row.effect,
            row.correlation,
            row.rate(),
            show(row.trials(|_| true)),
            show(row.trials(|o| o.qualified)),
        );
    }
}

fn print_goals(args: &QualificationArgs, rows: &[Row], n: u64) {
    println!();
    let slack = 3.0 * (args.delta * (1.0 - args.delta) / args.candidates as f64).sqrt();
    for row in rows
        .iter()
        .filter(|r| r.rule == "anytime_v1" && r.effect <= args.min_improvement)
    {
        println!(
            "anytime_v1 at e = {}: qualified {:.4} (goal <= delta = {}; 3 binomial sd = {slack:.4})",
            row.effect,
            row.rate(),
            args.delta
        );
    }
    if let Some(row) = rows
        .iter()
        .find(|r| r.rule == "anytime_v1" && (r.effect - args.power_effect).abs() < 1e-12)
        && let Some((median, _)) = row.trials(|o| o.qualified)
    {
        println!(
            "anytime_v1 at e = {}: median trials to qualification {median} \
             (goal <= n/2 = {}; ratio {:.2})",
            args.power_effect,
            n / 2,
            median as f64 / n as f64
        );
    }
}
