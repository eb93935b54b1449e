//! `praxis bench http`: what a write costs over loopback HTTP, and what an
//! `Idempotency-Key` adds to it, side by side in one run.
//!
//! Three workloads take turns, round after round, against one server per
//! store, each with the same concurrent clients:
//! - `ceiling`: `GET /healthz`, the HTTP stack's own ceiling on this
//!   machine (no authentication, no store);
//! - `observe`: `POST /api/v1/attempts`, a new attempt per request;
//! - `observe+key`: the same with a fresh `Idempotency-Key`, so the answer
//!   is rendered inside the write's transaction and stored as its receipt.
//!
//! Taking turns spreads the machine's drift over all three; the report
//! gives the median of each workload's per-round rate and the ratios of
//! those medians.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use praxis_api::{
    CONTRACT_VERSION, IDEMPOTENCY_KEY, ObserveRequest, Outcome, OutcomeStatus, Stage,
};
use praxis_store::Engine;

/// Arguments of `bench http`.
#[derive(Args)]
pub struct HttpArgs {
    /// Seconds per workload per round.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Rounds; each runs every workload once.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Concurrent clients.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Backends to measure.
    #[arg(long, value_delimiter = ',', default_value = "sqlite,postgres")]
    backends: Vec<String>,
    /// PostgreSQL URL of an empty database; without it a throwaway local cluster is started.
    #[arg(long)]
    postgres: Option<String>,
    /// Directory for the SQLite store [default: a temporary directory].
    #[arg(long)]
    dir: Option<std::path::PathBuf>,
}

/// The workloads, in the order each round runs them.
const WORKLOADS: [Workload; 3] = [Workload::Ceiling, Workload::Observe, Workload::ObserveKeyed];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Workload {
    Ceiling,
    Observe,
    ObserveKeyed,
}

impl Workload {
    fn name(self) -> &'static str {
        match self {
            Workload::Ceiling => "ceiling (GET /healthz)",
            Workload::Observe => "observe",
            Workload::ObserveKeyed => "observe+key",
        }
    }
}

/// What every client needs.
struct Target {
    http: reqwest::Client,
    base: String,
    token: String,
    /// Makes every attempt and key unique across clients and rounds.
    next: AtomicU64,
}

/// Runs the benchmark.
pub async fn run(args: HttpArgs) -> anyhow::Result<()> {
    let tmp = super::tempfile_dir(args.dir.as_deref())?;
    println!(
        "| store | workload | requests/s (median of {} rounds) | p50 | p99 | / ceiling | / observe |",
        args.rounds
    );
    println!("|---|---|---|---|---|---|---|");
    for backend in &args.backends {
        let engine = super::bench_store(backend, &tmp, "http", args.postgres.as_deref()).await?;
        for (name, rate, p50, p99, ceiling, observe) in measure(engine, &args).await? {
            println!(
                "| {backend} | {name} | {rate:.0} | {:.2} ms | {:.2} ms | {ceiling:.2} | {observe:.2} |",
                p50 as f64 / 1000.0,
                p99 as f64 / 1000.0
            );
        }
    }
    Ok(())
}

/// One row per workload: name, median rate, p50 and p99 (µs, over all
/// rounds), and the median rate over the ceiling's and over observe's.
type Row = (&'static str, f64, u64, u64, f64, f64);

async fn measure(engine: Arc<dyn Engine>, args: &HttpArgs) -> anyhow::Result<Vec<Row>> {
    let grant = praxis_server::admin::scope_from_wire(praxis_api::examples::scope());
    let serving = super::Serving::start(&engine, "observer", "experience_write", grant).await?;
    let target = Arc::new(Target {
        http: reqwest::Client::new(),
        base: serving.base.clone(),
        token: serving.token.clone(),
        next: AtomicU64::new(0),
    });
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); WORKLOADS.len()];
    let mut latencies: Vec<Vec<u64>> = vec![Vec::new(); WORKLOADS.len()];
    for round in 0..args.rounds {
        for (w, workload) in WORKLOADS.iter().enumerate() {
            let (rate, mut lat) = run_workload(&target, *workload, args).await?;
            eprintln!("round {round}: {} {rate:.0}/s", workload.name());
            rates[w].push(rate);
            latencies[w].append(&mut lat);
        }
    }
    serving.stop().await?;
    let medians: Vec<f64> = rates.iter_mut().map(|r| median(r)).collect();
    Ok(WORKLOADS
        .iter()
        .enumerate()
        .map(|(w, workload)| {
            latencies[w].sort_unstable();
            (
                workload.name(),
                medians[w],
                super::attempts::pct(&latencies[w], 0.5),
                super::attempts::pct(&latencies[w], 0.99),
                medians[w] / medians[0],
                medians[w] / medians[1],
            )
        })
        .collect())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Runs one workload for the configured time with every client; returns
/// the rate and every latency in µs.
async fn run_workload(
    target: &Arc<Target>,
    workload: Workload,
    args: &HttpArgs,
) -> anyhow::Result<(f64, Vec<u64>)> {
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..args.clients {
        let target = target.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let t = Instant::now();
                let status = send(&target, workload).await?;
                latencies.push(t.elapsed().as_micros() as u64);
                anyhow::ensure!(status.is_success(), "{} answered {status}", workload.name());
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    Ok((all.len() as f64 / start.elapsed().as_secs_f64(), all))
}

async fn send(target: &Target, workload: Workload) -> anyhow::Result<reqwest::StatusCode> {
    let request = match workload {
        Workload::Ceiling => target.http.get(format!("{}/healthz", target.base)),
        Workload::Observe | Workload::ObserveKeyed => {
            let n = target.next.fetch_add(1, Ordering::Relaxed);
            let body = ObserveRequest {
                contract_version: CONTRACT_VERSION,
                scope: praxis_api::examples::scope(),
                outcome: Outcome {
                    case_id: format!("case-{n}"),
                    subject: format!("host-{}", n % 1000),
                    action_id: format!("action-{}", n % 50),
                    hypothesis_id: "h".into(),
                    verifier_rule_id: Some("rule".into()),
                    stage: Stage::Active,
                    status: OutcomeStatus::ConfirmedNegative,
                    confidence: 900_000,
                    rationale: "bench".into(),
                    evidence_ids: vec!["ev".into()],
                    action_revision: None,
                    observed_at: None,
                },
                disposition: None,
            };
            let mut r = target
                .http
                .post(format!("{}/api/v1/attempts", target.base))
                .bearer_auth(&target.token)
                .json(&body);
            if workload == Workload::ObserveKeyed {
                r = r.header(IDEMPOTENCY_KEY, format!("bench-key-{n:016}"));
            }
            r
        }
    };
    Ok(request.send().await?.status())
}
