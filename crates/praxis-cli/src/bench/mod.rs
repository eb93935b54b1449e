//! `praxis bench …`: measurements, never pass/fail tests.
//!
//! `bench ledger` measures durable appends through the engine (event, hash
//! chain, tenant position, idempotency receipt, group commit) with 1, 8 and
//! 64 concurrent writers, and beside it a raw baseline: the same rows written
//! by plain batched INSERTs with the same sync settings, one commit per batch
//! of as many rows as there are writers. The ratio is Praxis's own overhead.
//!
//! `bench experiences` measures event reports beside `bench ledger`'s
//! appends, in alternating rounds, and experience reads as the store grows.
//!
//! `bench learning` measures selection as the procedures of one namespace
//! grow, beside a registry read in the same store.
//!
//! `bench http` measures a write over loopback HTTP with and without an
//! `Idempotency-Key`, beside the HTTP stack's own ceiling.
//!
//! `bench redaction` is the exception to "never pass/fail": it measures the
//! screening engine's recall and false positives on its labelled corpus and
//! fails below the thresholds, so that a regression is visible.

mod attempts;
mod experiences;
mod http;
mod learning;
mod mcp;
mod proposals;
mod redaction;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use praxis_domain::auth::{Namespace, Scope, Visibility};
use praxis_domain::digest::{Digest, REQUEST_KIND};
use praxis_domain::ledger::{Actor, Event, NewEvent};
use praxis_domain::time::Timestamp;
use praxis_store::bench::RawRow;
use praxis_store::{AuthCommand, Command, Engine, Idempotency, Write};
use serde_json::json;

/// Benchmarks.
#[derive(Subcommand)]
pub enum BenchCmd {
    /// Durable appends/s and p50/p99 latency against a raw INSERT baseline.
    Ledger(LedgerArgs),
    /// Loads a large attempt history, then measures observe throughput and
    /// assess latency in process and over loopback HTTP.
    Attempts(attempts::AttemptsArgs),
    /// Event reports/s with concurrent reporters beside `bench ledger`'s
    /// appends/s in alternating rounds, and experience read latency as the
    /// store grows.
    Experiences(experiences::ExperiencesArgs),
    /// Selection latency as the procedures of one namespace grow, beside a
    /// raw registry read in the same store.
    Learning(learning::LearningArgs),
    /// Approve-to-memory promotions/s beside plain memory creates, and
    /// memory search latency beside a point read as the items grow.
    Proposals(proposals::ProposalsArgs),
    /// Writes over loopback HTTP with and without an Idempotency-Key,
    /// beside the HTTP stack's own ceiling, in alternating rounds.
    Http(http::HttpArgs),
    /// `attempts_assess` over MCP (streamable HTTP) beside the same
    /// assessment over REST, in alternating rounds, as the store grows.
    Mcp(mcp::McpArgs),
    /// Recall, false positives and throughput of the screening engine on its
    /// labelled corpus; exits non-zero if any rule, or all of them
    /// together, falls below 99% recall or above 1% false positives.
    Redaction(redaction::RedactionArgs),
}

/// Arguments of `bench ledger`.
#[derive(Args)]
pub struct LedgerArgs {
    /// Seconds per measurement.
    #[arg(long, default_value_t = 5.0)]
    seconds: f64,
    /// Concurrent writer counts to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,8,64")]
    writers: Vec<usize>,
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

/// Runs one benchmark; only `redaction` can fail on its figures.
pub async fn run(cmd: BenchCmd) -> anyhow::Result<std::process::ExitCode> {
    match cmd {
        BenchCmd::Ledger(args) => ledger(args).await?,
        BenchCmd::Attempts(args) => attempts::run(args).await?,
        BenchCmd::Experiences(args) => experiences::run(args).await?,
        BenchCmd::Http(args) => http::run(args).await?,
        BenchCmd::Mcp(args) => mcp::run(args).await?,
        BenchCmd::Learning(args) => learning::run(args).await?,
        BenchCmd::Proposals(args) => proposals::run(args).await?,
        BenchCmd::Redaction(args) => return redaction::run(&args),
    }
    Ok(std::process::ExitCode::SUCCESS)
}

struct Row {
    backend: String,
    writers: usize,
    appends_per_s: f64,
    p50_us: u64,
    p99_us: u64,
    raw_per_s: f64,
}

fn spinner(message: String) -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("template"));
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

async fn ledger(args: LedgerArgs) -> anyhow::Result<()> {
    let tmp = tempfile_dir(args.dir.as_deref())?;
    let duration = Duration::from_secs_f64(args.seconds);
    let mut rows = Vec::new();
    for backend in &args.backends {
        for &writers in &args.writers {
            let bar = spinner(format!("{backend}: {writers} writers"));
            let (praxis_store, raw_store) = match backend.as_str() {
                "sqlite" => (
                    tmp.join(format!("praxis-{writers}")).display().to_string(),
                    tmp.join(format!("raw-{writers}")).display().to_string(),
                ),
                "postgres" => match &args.postgres {
                    Some(url) => (url.clone(), url.clone()),
                    None => (
                        praxis_testkit::postgres_url(),
                        praxis_testkit::postgres_url(),
                    ),
                },
                other => anyhow::bail!("unknown backend {other:?}"),
            };
            let engine = praxis_store::open(&praxis_store).await?;
            let (rate, p50, p99) = measure_praxis(engine.clone(), writers, duration).await?;
            drop(engine);
            // The raw baseline uses a store created by the same migrations.
            drop(praxis_store::open(&raw_store).await?);
            let raw = if backend == "sqlite" {
                praxis_store::bench::raw_append_sqlite(
                    std::path::Path::new(&raw_store),
                    &raw_rows(RAW_ROWS),
                    writers,
                    duration,
                )?
            } else {
                praxis_store::bench::raw_append_postgres(
                    &raw_store,
                    &raw_rows(RAW_ROWS),
                    writers,
                    duration,
                )
                .await?
            };
            bar.finish_and_clear();
            let row = Row {
                backend: backend.clone(),
                writers,
                appends_per_s: rate,
                p50_us: p50,
                p99_us: p99,
                raw_per_s: raw,
            };
            eprintln!(
                "{} writers={} praxis={:.0}/s p50={}us p99={}us raw={:.0}/s",
                row.backend, row.writers, row.appends_per_s, row.p50_us, row.p99_us, row.raw_per_s
            );
            rows.push(row);
        }
    }
    println!(
        "| store | writers | Praxis appends/s | p50 | p99 | raw INSERT rows/s | Praxis / raw | overhead |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        let ratio = r.appends_per_s / r.raw_per_s;
        println!(
            "| {} | {} | {:.0} | {:.2} ms | {:.2} ms | {:.0} | {:.2} | {:.0}% |",
            r.backend,
            r.writers,
            r.appends_per_s,
            r.p50_us as f64 / 1000.0,
            r.p99_us as f64 / 1000.0,
            r.raw_per_s,
            ratio,
            (1.0 - ratio).max(0.0) * 100.0
        );
    }
    Ok(())
}

/// Opens a fresh store of `backend` with tenant `bench`: SQLite in `dir`
/// under `name`, PostgreSQL at `postgres` or in a throwaway local cluster.
async fn bench_store(
    backend: &str,
    dir: &std::path::Path,
    name: &str,
    postgres: Option<&str>,
) -> anyhow::Result<Arc<dyn Engine>> {
    let store = match backend {
        "sqlite" => dir.join(name).display().to_string(),
        "postgres" => postgres.map_or_else(praxis_testkit::postgres_url, str::to_owned),
        other => anyhow::bail!("unknown backend {other:?}"),
    };
    let engine = praxis_store::open(&store).await?;
    engine
        .execute(Write::new(
            "bench",
            Actor::system(),
            Command::Auth(AuthCommand::CreateTenant),
        ))
        .await?;
    Ok(engine)
}

/// A server on loopback over a benchmark's store, with a token for one
/// subject holding one capability and a grant for one scope.
struct Serving {
    base: String,
    token: String,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Serving {
    async fn start(
        engine: &Arc<dyn Engine>,
        subject: &str,
        capability: &str,
        grant: Scope,
    ) -> anyhow::Result<Serving> {
        Serving::start_holding(engine, subject, &[capability], grant).await
    }

    /// As [`Serving::start`], the token holding every one of `capabilities`.
    async fn start_holding(
        engine: &Arc<dyn Engine>,
        subject: &str,
        capabilities: &[&str],
        grant: Scope,
    ) -> anyhow::Result<Serving> {
        let request = praxis_domain::credentials::IssueRequest::new(
            subject.into(),
            capabilities.iter().map(|c| (*c).to_owned()).collect(),
            vec![grant],
            None,
            praxis_server::admin::now(),
        )?;
        let (_, token) =
            praxis_server::admin::issue(&**engine, "bench", Actor::system(), request).await?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(praxis_server::serve(
            listener,
            engine.clone(),
            praxis_server::seal::SealKey::generate(),
            async move {
                let _ = stopped.await;
            },
        ));
        Ok(Serving {
            base,
            token: token.render(),
            stop,
            server,
        })
    }

    /// Stops the server gracefully.
    async fn stop(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.server.await??;
        Ok(())
    }
}

fn tempfile_dir(dir: Option<&std::path::Path>) -> anyhow::Result<std::path::PathBuf> {
    let base = match dir {
        Some(d) => d.to_owned(),
        None => std::env::temp_dir().join(format!("praxis-bench-{}", std::process::id())),
    };
    if base.exists() {
        std::fs::remove_dir_all(&base).with_context(|| format!("clearing {}", base.display()))?;
    }
    std::fs::create_dir_all(&base)?;
    Ok(base)
}

fn scope() -> Scope {
    Scope {
        project_id: "bench".into(),
        mission_id: None,
        agent_id: "agent".into(),
        visibility: Visibility::Shared,
    }
}

/// The payload every appended event carries: the size of a typical attempt record.
fn payload(writer: usize, i: u64) -> serde_json::Value {
    json!({
        "case_id": format!("case-{writer}-{i}"),
        "subject": format!("subject-{}", i % 1000),
        "action_id": format!("action-{}", i % 37),
        "stage": "active",
        "status": "false_positive",
        "confidence": 875_000,
        "rationale": "verifier rejected the hypothesis after the negative control",
        "evidence_ids": ["ev-1", "ev-2"],
    })
}

fn bench_write(namespace: &Namespace, writer: usize, i: u64) -> Write {
    let new = NewEvent::new(
        namespace.clone(),
        format!("subject-{}", i % 1000),
        "bench.appended",
        payload(writer, i),
    );
    let request_digest = Digest::of_value(REQUEST_KIND, &new.payload);
    Write::new("bench", Actor::system(), Command::Append(vec![new])).idempotent(
        Idempotency {
            key: format!("bench:{writer}:{i}"),
            request_digest,
        },
        Arc::new(|applied| {
            Ok(format!("{{\"position\":{}}}", applied.events[0].position).into_bytes())
        }),
    )
}

async fn measure_praxis(
    engine: Arc<dyn Engine>,
    writers: usize,
    duration: Duration,
) -> anyhow::Result<(f64, u64, u64)> {
    engine
        .execute(Write::new(
            "bench",
            Actor::system(),
            Command::Auth(AuthCommand::CreateTenant),
        ))
        .await?;
    measure_appends(engine, writers, duration).await
}

/// Keyed appends/s, p50 and p99 with `writers` concurrent writers, on a
/// store whose tenant `bench` exists: what `bench ledger` measures.
async fn measure_appends(
    engine: Arc<dyn Engine>,
    writers: usize,
    duration: Duration,
) -> anyhow::Result<(f64, u64, u64)> {
    let namespace = scope().namespace("bench");
    // Warm up caches and prepared statements.
    for i in 0..200 {
        engine
            .execute(bench_write(&namespace, usize::MAX, i))
            .await?;
    }
    let start = Instant::now();
    let deadline = start + duration;
    let mut tasks = Vec::new();
    for w in 0..writers {
        let engine = engine.clone();
        let namespace = namespace.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut i = 0u64;
            while Instant::now() < deadline {
                let t = Instant::now();
                engine.execute(bench_write(&namespace, w, i)).await?;
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
    let elapsed = start.elapsed().as_secs_f64();
    eprintln!(
        "  mean commit batch {:.1} writes, mean commit {:.0} us",
        engine.metrics().batch_size.mean(),
        engine.metrics().sync_us.mean()
    );
    all.sort_unstable();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    Ok((all.len() as f64 / elapsed, pct(0.50), pct(0.99)))
}

fn raw_rows(n: usize) -> Vec<RawRow> {
    let mut prev: std::collections::HashMap<String, (u64, Digest)> =
        std::collections::HashMap::new();
    (0..n)
        .map(|i| {
            let new = NewEvent::new(
                scope().namespace("bench"),
                format!("subject-{}", i % 1000),
                "bench.appended",
                payload(0, i as u64),
            );
            let request_digest = Digest::of_value(REQUEST_KIND, &new.payload);
            let head = prev.get(&new.stream).copied();
            let stream = new.stream.clone();
            let event = Event::place(
                "raw",
                new,
                head.map_or(1, |h| h.0 + 1),
                i as u64 + 1,
                head.map(|h| h.1),
                Actor::system(),
                Timestamp::from_micros(0),
            );
            prev.insert(stream, (event.stream_seq, event.digest));
            let receipt = format!("{{\"position\":{}}}", i + 1).into_bytes();
            RawRow {
                payload: String::from_utf8(
                    serde_json_canonicalizer::to_vec(&event.payload).expect("json"),
                )
                .expect("utf-8"),
                key: format!("bench:0:{i}"),
                receipt_digest: Digest::sha256(&receipt),
                receipt,
                request_digest,
                event,
            }
        })
        .collect()
}

/// Rows pre-built for the raw baseline; more than any run on this machine class writes.
const RAW_ROWS: usize = 400_000;
