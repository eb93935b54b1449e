//! `praxis bench attempts`: the attempt ledger under a large store.
//!
//! Loads a synthetic history (skewed over subjects and actions, as real
//! planners' histories are: a few hot subjects and actions, a long tail),
//! then measures, on the loaded store:
//! - observe throughput and latency with concurrent writers;
//! - assess latency in process (one embedded caller, as a planner would);
//! - assess latency over loopback HTTP with concurrent clients.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use praxis_api::{AssessRequest, CONTRACT_VERSION, CandidateAction};
use praxis_domain::attempts::{Observation, Outcome, Stage, Status};
use praxis_domain::auth::{Namespace, Scope, Visibility};
use praxis_domain::ledger::Actor;
use praxis_store::attempts::ActionRef;
use praxis_store::{AttemptCommand, Command, Engine, Write};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// Arguments of `bench attempts`.
#[derive(Args)]
pub struct AttemptsArgs {
    /// Attempts loaded before measuring.
    #[arg(long, default_value_t = 10_000_000)]
    attempts: u64,
    /// Distinct subjects (Zipf-distributed).
    #[arg(long, default_value_t = 100_000)]
    subjects: usize,
    /// Distinct actions (Zipf-distributed).
    #[arg(long, default_value_t = 500)]
    actions: usize,
    /// Attempts per load transaction.
    #[arg(long, default_value_t = 5_000)]
    batch: usize,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Concurrent observers, and concurrent HTTP clients for assess.
    #[arg(long, default_value_t = 64)]
    concurrency: usize,
    /// Candidate actions per assessment.
    #[arg(long, default_value_t = 8)]
    candidates: usize,
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

/// Zipf-distributed indexes in 0..n, by inverse CDF.
#[derive(Clone)]
struct Zipf {
    cdf: Arc<Vec<f64>>,
}

impl Zipf {
    fn new(n: usize, exponent: f64) -> Zipf {
        let mut cdf = Vec::with_capacity(n);
        let mut sum = 0.0;
        for k in 1..=n {
            sum += 1.0 / (k as f64).powf(exponent);
            cdf.push(sum);
        }
        for c in &mut cdf {
            *c /= sum;
        }
        Zipf { cdf: Arc::new(cdf) }
    }

    fn sample(&self, rng: &mut SmallRng) -> usize {
        let u: f64 = rng.random();
        self.cdf.partition_point(|c| *c < u).min(self.cdf.len() - 1)
    }
}

/// Generates synthetic outcomes.
#[derive(Clone)]
struct Generator {
    subjects: Zipf,
    actions: Zipf,
}

impl Generator {
    fn observation(&self, rng: &mut SmallRng, case: &str) -> Observation {
        let subject = format!("host-{}", self.subjects.sample(rng));
        let action = format!("action-{}", self.actions.sample(rng));
        // Mostly verified outcomes, with operational failures and passive
        // observations mixed in at realistic rates.
        let roll: u32 = rng.random_range(0..100);
        let (stage, status) = match roll {
            0..40 => (Stage::Active, Status::FalsePositive),
            40..60 => (Stage::Active, Status::Success),
            60..70 => (Stage::Active, Status::ConfirmedNegative),
            70..80 => (Stage::Active, Status::Blocked),
            80..92 => (Stage::Active, Status::Unknown),
            _ => (Stage::Passive, Status::NeedsReview),
        };
        // Every status but unknown names its rule and cites evidence.
        let evidenced = status != Status::Unknown;
        let outcome = Outcome {
            case_id: case.to_owned(),
            subject,
            action_id: action,
            hypothesis_id: format!("hyp-{}", roll % 7),
            verifier_rule_id: evidenced.then(|| "rule-negative-control".to_owned()),
            stage,
            status,
            confidence: if status == Status::Unknown {
                0
            } else {
                850_000
            },
            rationale: "verifier compared the response against the negative control".into(),
            evidence_ids: if status == Status::Unknown {
                vec![]
            } else {
                vec![format!("ev-{case}")]
            },
            action_revision: Some(format!("v{}", roll % 3)),
            observed_at: None,
        };
        let disposition = (status == Status::Unknown)
            .then_some(praxis_domain::attempts::Disposition::TransportFailure);
        Observation::new(outcome, disposition, "").expect("generated outcomes are valid")
    }
}

fn scope() -> Scope {
    Scope {
        project_id: "bench".into(),
        mission_id: None,
        agent_id: "planner".into(),
        visibility: Visibility::Shared,
    }
}

/// The `p` quantile of sorted values (0 when there are none).
pub(super) fn pct(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

/// One backend's figures.
struct Figures {
    backend: String,
    load_per_s: f64,
    observe_per_s: f64,
    observe_p50: u64,
    observe_p99: u64,
    assess_p50: u64,
    assess_p99: u64,
    http_per_s: f64,
    http_p50: u64,
    http_p99: u64,
}

/// Runs the benchmark.
pub async fn run(args: AttemptsArgs) -> anyhow::Result<()> {
    let tmp = super::tempfile_dir(args.dir.as_deref())?;
    let generator = Generator {
        subjects: Zipf::new(args.subjects, 1.1),
        actions: Zipf::new(args.actions, 1.0),
    };
    let mut all = Vec::new();
    for backend in &args.backends {
        let engine =
            super::bench_store(backend, &tmp, "attempts", args.postgres.as_deref()).await?;
        let namespace = scope().namespace("planner");
        let load_per_s = load(&engine, &namespace, &generator, &args).await?;
        eprintln!(
            "{backend}: loaded {} attempts at {load_per_s:.0}/s",
            args.attempts
        );
        let (observe_per_s, observe_p50, observe_p99) =
            observe(&engine, &namespace, &generator, &args).await?;
        eprintln!(
            "{backend}: observe {observe_per_s:.0}/s p50={observe_p50}us p99={observe_p99}us"
        );
        let (assess_p50, assess_p99) =
            assess_in_process(&engine, &namespace, &generator, &args).await?;
        eprintln!("{backend}: assess in process p50={assess_p50}us p99={assess_p99}us");
        let (http_per_s, http_p50, http_p99) = assess_http(&engine, &generator, &args).await?;
        eprintln!(
            "{backend}: assess over HTTP {http_per_s:.0}/s p50={http_p50}us p99={http_p99}us"
        );
        all.push(Figures {
            backend: backend.clone(),
            load_per_s,
            observe_per_s,
            observe_p50,
            observe_p99,
            assess_p50,
            assess_p99,
            http_per_s,
            http_p50,
            http_p99,
        });
    }
    let ms = |us: u64| format!("{:.2} ms", us as f64 / 1000.0);
    println!(
        "| store | loaded | load/s | observe/s ({c} writers) | observe p50 | observe p99 | assess p50 (in process) | assess p99 (in process) | HTTP assess/s ({c} clients) | HTTP p50 | HTTP p99 |",
        c = args.concurrency
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for f in &all {
        println!(
            "| {} | {} | {:.0} | {:.0} | {} | {} | {} | {} | {:.0} | {} | {} |",
            f.backend,
            args.attempts,
            f.load_per_s,
            f.observe_per_s,
            ms(f.observe_p50),
            ms(f.observe_p99),
            ms(f.assess_p50),
            ms(f.assess_p99),
            f.http_per_s,
            ms(f.http_p50),
            ms(f.http_p99),
        );
    }
    Ok(())
}

/// Loads the synthetic history in import transactions, two in flight so
/// that the writer always has the next one queued.
async fn load(
    engine: &Arc<dyn Engine>,
    namespace: &Namespace,
    generator: &Generator,
    args: &AttemptsArgs,
) -> anyhow::Result<f64> {
    let bar = ProgressBar::new(args.attempts);
    bar.set_style(
        ProgressStyle::with_template(
            "loading {bar:40} {human_pos}/{human_len} attempts, {per_sec}, eta {eta}",
        )
        .expect("template"),
    );
    let start = Instant::now();
    let batches = args.attempts.div_ceil(args.batch as u64);
    let next = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut loaders = Vec::new();
    for worker in 0..2u64 {
        let (engine, namespace, generator) = (engine.clone(), namespace.clone(), generator.clone());
        let (next, bar) = (next.clone(), bar.clone());
        let (total, batch) = (args.attempts, args.batch as u64);
        loaders.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(0x5eed + worker);
            loop {
                let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if b >= batches {
                    return anyhow::Ok(());
                }
                let first = b * batch;
                let last = (first + batch).min(total);
                let observations = (first..last)
                    .map(|i| generator.observation(&mut rng, &format!("load-{i}")))
                    .collect();
                engine
                    .execute(Write::new(
                        "bench",
                        Actor::system(),
                        Command::Attempts(AttemptCommand::import(&namespace, observations)),
                    ))
                    .await?;
                bar.inc(last - first);
            }
        }));
    }
    for l in loaders {
        l.await??;
    }
    bar.finish_and_clear();
    Ok(args.attempts as f64 / start.elapsed().as_secs_f64())
}

async fn observe(
    engine: &Arc<dyn Engine>,
    namespace: &Namespace,
    generator: &Generator,
    args: &AttemptsArgs,
) -> anyhow::Result<(f64, u64, u64)> {
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for w in 0..args.concurrency {
        let (engine, namespace, generator) = (engine.clone(), namespace.clone(), generator.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(w as u64);
            let mut latencies = Vec::new();
            let mut i = 0u64;
            while Instant::now() < deadline {
                let observation = generator.observation(&mut rng, &format!("obs-{w}-{i}"));
                let t = Instant::now();
                let command = Command::Attempts(AttemptCommand::observe(&namespace, observation));
                engine
                    .execute(Write::new("bench", Actor::system(), command))
                    .await?;
                latencies.push(t.elapsed().as_micros() as u64);
                i += 1;
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    let rate = all.len() as f64 / start.elapsed().as_secs_f64();
    all.sort_unstable();
    Ok((rate, pct(&all, 0.5), pct(&all, 0.99)))
}

fn candidates(generator: &Generator, rng: &mut SmallRng, n: usize) -> Vec<ActionRef> {
    (0..n)
        .map(|_| ActionRef {
            action_id: format!("action-{}", generator.actions.sample(rng)),
            action_revision: None,
        })
        .collect()
}

/// One embedded caller assessing back to back, as a planner does.
async fn assess_in_process(
    engine: &Arc<dyn Engine>,
    namespace: &Namespace,
    generator: &Generator,
    args: &AttemptsArgs,
) -> anyhow::Result<(u64, u64)> {
    let mut rng = SmallRng::seed_from_u64(7);
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let mut latencies = Vec::new();
    while Instant::now() < deadline {
        let subject = format!("host-{}", generator.subjects.sample(&mut rng));
        let actions = candidates(generator, &mut rng, args.candidates);
        let t = Instant::now();
        let (_, a) = engine
            .attempts()
            .assess(
                "bench",
                namespace,
                &subject,
                actions,
                praxis_server::admin::now(),
            )
            .await?;
        latencies.push(t.elapsed().as_micros() as u64);
        anyhow::ensure!(a.len() == args.candidates, "one assessment per candidate");
    }
    latencies.sort_unstable();
    Ok((pct(&latencies, 0.5), pct(&latencies, 0.99)))
}

/// Concurrent HTTP clients against a server on loopback over the same store.
async fn assess_http(
    engine: &Arc<dyn Engine>,
    generator: &Generator,
    args: &AttemptsArgs,
) -> anyhow::Result<(f64, u64, u64)> {
    let grant = scope();
    let serving =
        super::Serving::start(engine, "planner", "experience_read", grant.clone()).await?;
    let client = praxis_client::Client::new(&serving.base).with_token(&serving.token);
    let wire_scope = praxis_api::Scope {
        project_id: grant.project_id,
        mission_id: None,
        agent_id: grant.agent_id,
        visibility: praxis_api::Visibility::Shared,
    };
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..args.concurrency {
        let (client, generator, wire_scope) =
            (client.clone(), generator.clone(), wire_scope.clone());
        let n = args.candidates;
        tasks.push(tokio::spawn(async move {
            let mut rng = SmallRng::seed_from_u64(1000 + c as u64);
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let request = AssessRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: wire_scope.clone(),
                    subject: format!("host-{}", generator.subjects.sample(&mut rng)),
                    actions: candidates(&generator, &mut rng, n)
                        .into_iter()
                        .map(|a| CandidateAction::Id(a.action_id))
                        .collect(),
                };
                let t = Instant::now();
                let answer = client.assess(&request).await?;
                latencies.push(t.elapsed().as_micros() as u64);
                anyhow::ensure!(
                    answer.assessments.len() == n,
                    "one assessment per candidate"
                );
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    let rate = all.len() as f64 / start.elapsed().as_secs_f64();
    serving.stop().await?;
    all.sort_unstable();
    Ok((rate, pct(&all, 0.5), pct(&all, 0.99)))
}
