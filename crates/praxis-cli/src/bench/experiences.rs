//! `praxis bench experiences`: development experiences against the bare
//! ledger, on each store.
//!
//! - **Reports.** Event reports per second with `--writers` concurrent
//!   reporters, each on its own attempt (so every report is accepted: a
//!   revision conflict would measure the benchmark, not the store), in
//!   alternating rounds with `bench ledger`'s own measurement (keyed
//!   appends with the same number of writers, on a fresh store). A report
//!   does what the issue asks of it: the attempt's row and the event rows
//!   it needs are read and verified, the state is checked against the
//!   latest event, and one event, one event row and the new state are
//!   written in the writer's transaction. The ratio of the medians is the
//!   figure the target is about.
//! - **Reads.** `experiences/read` latency (one caller, in process, as
//!   the server's handler calls it: rows read, digests re-checked, the
//!   state re-folded) at growing store sizes, up to `--attempts`, each
//!   attempt holding `--events` events, so cost against size is visible.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use praxis_domain::auth::{Namespace, Scope, Visibility};
use praxis_domain::learning::{
    AttemptRequest, ContentRef, Context, EventReport, ExperienceOutcome,
};
use praxis_domain::ledger::Actor;
use praxis_store::{Command, Engine, LearningCommand, Write};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::attempts::pct;

/// Arguments of `bench experiences`.
#[derive(Args)]
pub struct ExperiencesArgs {
    /// Attempts in the store when reads are last measured.
    #[arg(long, default_value_t = 100_000)]
    attempts: u64,
    /// Events reported on each loaded attempt.
    #[arg(long, default_value_t = 2)]
    events: u64,
    /// Concurrent reporters (and concurrent ledger writers beside them).
    #[arg(long, default_value_t = 64)]
    writers: usize,
    /// Seconds per measurement round.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Alternating rounds of reports and ledger appends.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Reads per size measured.
    #[arg(long, default_value_t = 2_000)]
    reads: usize,
    /// Backends to measure.
    #[arg(long, value_delimiter = ',', default_value = "sqlite,postgres")]
    backends: Vec<String>,
    /// PostgreSQL URL of an empty database; without it a throwaway local cluster is started.
    #[arg(long)]
    postgres: Option<String>,
    /// Directory for the SQLite stores [default: a temporary directory].
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
}

/// The subject that records and reports every benchmark attempt.
const REPORTER: &str = "reporter";

fn actor() -> Actor {
    Actor {
        credential_id: "bench".into(),
        subject: REPORTER.into(),
    }
}

fn scope() -> Scope {
    Scope {
        project_id: "bench".into(),
        mission_id: None,
        agent_id: "learner".into(),
        visibility: Visibility::Shared,
    }
}

fn context() -> Context {
    Context {
        id: "context-bench".into(),
        task: "triage failing CI jobs".into(),
        baseline_revision: "baseline-1".into(),
        model_provider: "local".into(),
        model_revision: "model-1".into(),
        tools: [("search".into(), "search-2".into())].into(),
        environment_revision: "env-1".into(),
        evaluation_contract: "paired held-out tasks, utility in [0,1]".into(),
        dataset_revision: "dataset-1".into(),
        harness_revision: "harness-1".into(),
        permissions_revision: "perms-1".into(),
    }
}

fn attempt(id: &str) -> AttemptRequest {
    AttemptRequest {
        id: id.into(),
        context_id: "context-bench".into(),
        reporter_subject: REPORTER.into(),
        accounting_unit: "tokens".into(),
        input: ContentRef {
            reference: format!("trace://bench/{id}"),
            sha256: "ab".repeat(32),
        },
        parent: None,
    }
}

/// The event that moves an attempt from `revision` on: unknown outcomes
/// with growing cumulative cost, so that any number of them is accepted.
fn event(revision: u64) -> EventReport {
    EventReport {
        event_id: format!("e{revision}"),
        expected_revision: revision,
        outcome: ExperienceOutcome::Unknown,
        evidence: Some(ContentRef {
            reference: format!("trace://bench/out/{revision}"),
            sha256: "cd".repeat(32),
        }),
        cost_units: Some(100 * revision),
        latency_ms: None,
    }
}

async fn write(engine: &Arc<dyn Engine>, command: LearningCommand) -> anyhow::Result<()> {
    engine
        .execute(Write::new("bench", actor(), Command::Learning(command)))
        .await?
        .applied()?;
    Ok(())
}

/// One backend's figures.
struct Figures {
    backend: String,
    reports: Vec<f64>,
    ledger: Vec<f64>,
    report_p50: u64,
    report_p99: u64,
    /// (attempts in the store, read p50, read p99).
    reads: Vec<(u64, u64, u64)>,
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs the benchmark.
pub async fn run(args: ExperiencesArgs) -> anyhow::Result<()> {
    let tmp = super::tempfile_dir(args.dir.as_deref())?;
    let duration = Duration::from_secs_f64(args.seconds);
    let mut all = Vec::new();
    for backend in &args.backends {
        let engine =
            super::bench_store(backend, &tmp, "experiences", args.postgres.as_deref()).await?;
        write(&engine, LearningCommand::RegisterContext(context())).await?;
        let namespace = scope().namespace(REPORTER);
        let mut figures = Figures {
            backend: backend.clone(),
            reports: Vec::new(),
            ledger: Vec::new(),
            report_p50: 0,
            report_p99: 0,
            reads: Vec::new(),
        };
        let mut latencies = Vec::new();
        for round in 0..args.rounds {
            let ledger = super::bench_store(
                backend,
                &tmp,
                &format!("ledger-{round}"),
                args.postgres.as_deref(),
            )
            .await?;
            let (rate, _, _) = super::measure_appends(ledger, args.writers, duration).await?;
            figures.ledger.push(rate);
            let (rate, mut l) = reports(&engine, &namespace, round, args.writers, duration).await?;
            figures.reports.push(rate);
            latencies.append(&mut l);
            eprintln!(
                "{backend} round {round}: ledger {:.0}/s, reports {rate:.0}/s",
                figures.ledger[round]
            );
        }
        latencies.sort_unstable();
        figures.report_p50 = pct(&latencies, 0.5);
        figures.report_p99 = pct(&latencies, 0.99);
        let mut loaded = 0u64;
        let mut size = 1_000u64.min(args.attempts);
        loop {
            load(&engine, &namespace, loaded, size, args.events, args.writers).await?;
            loaded = size;
            let (p50, p99) = read(&engine, &namespace, loaded, args.reads).await?;
            eprintln!("{backend}: {loaded} attempts, read p50={p50}us p99={p99}us");
            figures.reads.push((loaded, p50, p99));
            if loaded >= args.attempts {
                break;
            }
            size = (size * 10).min(args.attempts);
        }
        all.push(figures);
    }
    print_tables(&all, &args);
    Ok(())
}

fn print_tables(all: &[Figures], args: &ExperiencesArgs) {
    let ms = |us: u64| format!("{:.2} ms", us as f64 / 1000.0);
    println!(
        "| store | writers | ledger appends/s (median of {r}) | reports/s (median of {r}) | reports / ledger | report p50 | report p99 |",
        r = args.rounds
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for f in all {
        let (ledger, reports) = (median(&f.ledger), median(&f.reports));
        println!(
            "| {} | {} | {ledger:.0} | {reports:.0} | {:.2} | {} | {} |",
            f.backend,
            args.writers,
            reports / ledger,
            ms(f.report_p50),
            ms(f.report_p99),
        );
    }
    println!();
    println!("| store | attempts | events each | read p50 | read p99 |");
    println!("|---|---:|---:|---:|---:|");
    for f in all {
        for (attempts, p50, p99) in &f.reads {
            println!(
                "| {} | {attempts} | {} | {} | {} |",
                f.backend,
                args.events,
                ms(*p50),
                ms(*p99)
            );
        }
    }
}

/// `writers` reporters for `duration`, each on a fresh attempt of its own.
async fn reports(
    engine: &Arc<dyn Engine>,
    namespace: &Namespace,
    round: usize,
    writers: usize,
    duration: Duration,
) -> anyhow::Result<(f64, Vec<u64>)> {
    for w in 0..writers {
        let command = LearningCommand::Record {
            namespace: namespace.clone(),
            attempt: attempt(&format!("report-{round}-{w}")),
        };
        write(engine, command).await?;
    }
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for w in 0..writers {
        let (engine, namespace) = (engine.clone(), namespace.clone());
        tasks.push(tokio::spawn(async move {
            let attempt_id = format!("report-{round}-{w}");
            let mut latencies = Vec::new();
            let mut revision = 1;
            while Instant::now() < deadline {
                let command = LearningCommand::Report {
                    namespace: namespace.clone(),
                    attempt_id: attempt_id.clone(),
                    event: event(revision),
                };
                let t = Instant::now();
                write(&engine, command).await?;
                latencies.push(t.elapsed().as_micros() as u64);
                revision += 1;
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    let rate = all.len() as f64 / start.elapsed().as_secs_f64();
    // Since the store opened: this round's and the earlier ones'.
    eprintln!(
        "  mean commit batch {:.1} writes, mean commit {:.0} us",
        engine.metrics().batch_size.mean(),
        engine.metrics().sync_us.mean()
    );
    Ok((rate, all))
}

/// Records attempts `from..to`, each with `events` events, by `writers`
/// concurrent loaders.
async fn load(
    engine: &Arc<dyn Engine>,
    namespace: &Namespace,
    from: u64,
    to: u64,
    events: u64,
    writers: usize,
) -> anyhow::Result<()> {
    let bar = ProgressBar::new(to - from);
    bar.set_style(
        ProgressStyle::with_template(
            "loading {bar:40} {human_pos}/{human_len} attempts, {per_sec}, eta {eta}",
        )
        .expect("template"),
    );
    let next = Arc::new(std::sync::atomic::AtomicU64::new(from));
    let mut loaders = Vec::new();
    for _ in 0..writers {
        let (engine, namespace, next, bar) =
            (engine.clone(), namespace.clone(), next.clone(), bar.clone());
        loaders.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= to {
                    return anyhow::Ok(());
                }
                let id = format!("load-{i}");
                let command = LearningCommand::Record {
                    namespace: namespace.clone(),
                    attempt: attempt(&id),
                };
                write(&engine, command).await?;
                for revision in 1..=events {
                    let command = LearningCommand::Report {
                        namespace: namespace.clone(),
                        attempt_id: id.clone(),
                        event: event(revision),
                    };
                    write(&engine, command).await?;
                }
                bar.inc(1);
            }
        }));
    }
    for l in loaders {
        l.await??;
    }
    bar.finish_and_clear();
    Ok(())
}

/// `reads` reads of uniformly chosen loaded attempts, one at a time.
async fn read(
    engine: &Arc<dyn Engine>,
    namespace: &Namespace,
    loaded: u64,
    reads: usize,
) -> anyhow::Result<(u64, u64)> {
    let mut rng = SmallRng::seed_from_u64(loaded);
    let mut latencies = Vec::with_capacity(reads);
    for _ in 0..reads {
        let id = format!("load-{}", rng.random_range(0..loaded));
        let t = Instant::now();
        let log = engine
            .learning()
            .experience("bench", namespace, &id)
            .await?;
        latencies.push(t.elapsed().as_micros() as u64);
        anyhow::ensure!(log.is_some(), "attempt {id} was loaded");
    }
    latencies.sort_unstable();
    Ok((pct(&latencies, 0.5), pct(&latencies, 0.99)))
}
