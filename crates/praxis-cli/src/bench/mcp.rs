//! `praxis bench mcp`: what MCP adds to a tool call, side by side in one run.
//!
//! One server per store, one credential. Two workloads take turns, round
//! after round, each sending the same assessment of the same candidates:
//! - `rest`: `POST /api/v1/attempts/assess`;
//! - `mcp`: `POST /mcp` with a `tools/call` of `attempts_assess` over
//!   streamable HTTP (stateless, JSON answers), which the server turns into
//!   that same REST call in process.
//!
//! Both read and parse the whole answer and check it succeeded. The report
//! gives each workload's p50 and p99 over every round and the ratio of the
//! p50s, at each store size (observations in the namespace, a share of
//! them on the assessed subject).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use praxis_api::{CONTRACT_VERSION, ObserveRequest, Outcome, OutcomeStatus, Stage};
use serde_json::{Value, json};

/// Arguments of `bench mcp`.
#[derive(Args)]
pub struct McpArgs {
    /// Seconds per workload per round.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Rounds; each runs both workloads once.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Concurrent clients (1 measures latency without queueing).
    #[arg(long, default_value_t = 1)]
    clients: usize,
    /// Observations in the namespace to measure at, cumulative.
    #[arg(long, value_delimiter = ',', default_value = "100,10000")]
    sizes: Vec<u64>,
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

/// The two ways to ask.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Via {
    Rest,
    Mcp,
    /// An MCP `ping`: authentication and the MCP transport, no REST call.
    Ping,
    /// `GET /api/v1/capabilities`: authentication and HTTP, no store work
    /// beyond the credential: the floor under every authenticated call.
    Floor,
}

/// The candidates every request assesses on `host-17`.
fn actions() -> Value {
    json!(["action-0", "action-1", "action-2", {"action_id": "action-3", "action_revision": "v2"}])
}

/// Runs the benchmark.
pub async fn run(args: McpArgs) -> anyhow::Result<()> {
    let tmp = super::tempfile_dir(args.dir.as_deref())?;
    println!(
        "| store | observations | REST p50 | REST p99 | MCP p50 | MCP p99 | MCP p50 / REST p50 | MCP ping p50 | floor p50 (capabilities) | requests (each) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for backend in &args.backends {
        let engine = super::bench_store(backend, &tmp, "mcp", args.postgres.as_deref()).await?;
        let grant = praxis_server::admin::scope_from_wire(praxis_api::examples::scope());
        let capabilities = ["experience_read", "experience_write"];
        let serving =
            super::Serving::start_holding(&engine, "assessor", &capabilities, grant).await?;
        let http = reqwest::Client::new();
        let next = AtomicU64::new(0);
        let mut loaded = 0;
        for &size in &args.sizes {
            load(&http, &serving, &next, size.saturating_sub(loaded)).await?;
            loaded = loaded.max(size);
            let row = measure(&http, &serving, &args).await?;
            println!(
                "| {backend} | {loaded} | {:.3} ms | {:.3} ms | {:.3} ms | {:.3} ms | {:.2} | {:.3} ms | {:.3} ms | {} |",
                row.rest.0,
                row.rest.1,
                row.mcp.0,
                row.mcp.1,
                row.mcp.0 / row.rest.0,
                row.ping,
                row.floor,
                row.count
            );
        }
        serving.stop().await?;
    }
    Ok(())
}

/// p50 and p99 in ms of each workload, and the smaller request count.
struct Row {
    rest: (f64, f64),
    mcp: (f64, f64),
    ping: f64,
    floor: f64,
    count: usize,
}

/// Observes `count` new attempts through REST, one in ten on `host-17`.
async fn load(
    http: &reqwest::Client,
    serving: &super::Serving,
    next: &AtomicU64,
    count: u64,
) -> anyhow::Result<()> {
    for _ in 0..count {
        let n = next.fetch_add(1, Ordering::Relaxed);
        let subject = if n.is_multiple_of(10) {
            "host-17".to_owned()
        } else {
            format!("host-{}", n % 997)
        };
        let body = ObserveRequest {
            contract_version: CONTRACT_VERSION,
            scope: praxis_api::examples::scope(),
            outcome: Outcome {
                case_id: format!("case-{n}"),
                subject,
                action_id: format!("action-{}", n % 7),
                hypothesis_id: "h".into(),
                verifier_rule_id: Some("rule".into()),
                stage: Stage::Active,
                status: if n.is_multiple_of(3) {
                    OutcomeStatus::Success
                } else {
                    OutcomeStatus::ConfirmedNegative
                },
                confidence: 900_000,
                rationale: "bench".into(),
                evidence_ids: vec!["ev".into()],
                action_revision: None,
                observed_at: None,
            },
            disposition: None,
        };
        let status = http
            .post(format!("{}/api/v1/attempts", serving.base))
            .bearer_auth(&serving.token)
            .json(&body)
            .send()
            .await?
            .status();
        anyhow::ensure!(status.is_success(), "loading answered {status}");
    }
    Ok(())
}

async fn measure(
    http: &reqwest::Client,
    serving: &super::Serving,
    args: &McpArgs,
) -> anyhow::Result<Row> {
    let mut rest = Vec::new();
    let mut mcp = Vec::new();
    let mut ping = Vec::new();
    let mut floor = Vec::new();
    for round in 0..args.rounds {
        for via in [Via::Rest, Via::Mcp, Via::Ping, Via::Floor] {
            let mut latencies = run_workload(http, serving, via, args).await?;
            let p50 = super::attempts::pct(sorted(&mut latencies), 0.5);
            let (name, all) = match via {
                Via::Rest => ("rest", &mut rest),
                Via::Mcp => ("mcp", &mut mcp),
                Via::Ping => ("mcp ping", &mut ping),
                Via::Floor => ("capabilities", &mut floor),
            };
            eprintln!(
                "round {round}: {name} p50 {p50} µs over {} calls",
                latencies.len()
            );
            all.append(&mut latencies);
        }
    }
    let ms = |v: &mut Vec<u64>, p: f64| super::attempts::pct(sorted(v), p) as f64 / 1000.0;
    Ok(Row {
        count: rest.len().min(mcp.len()),
        rest: (ms(&mut rest, 0.5), ms(&mut rest, 0.99)),
        mcp: (ms(&mut mcp, 0.5), ms(&mut mcp, 0.99)),
        ping: ms(&mut ping, 0.5),
        floor: ms(&mut floor, 0.5),
    })
}

fn sorted(values: &mut Vec<u64>) -> &Vec<u64> {
    values.sort_unstable();
    values
}

/// Sends `via` requests from every client for the configured time; every
/// latency in µs.
async fn run_workload(
    http: &reqwest::Client,
    serving: &super::Serving,
    via: Via,
    args: &McpArgs,
) -> anyhow::Result<Vec<u64>> {
    let deadline = Instant::now() + Duration::from_secs_f64(args.seconds);
    let mut tasks = Vec::new();
    for _ in 0..args.clients {
        let (http, base, token) = (http.clone(), serving.base.clone(), serving.token.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let t = Instant::now();
                send(&http, &base, &token, via).await?;
                latencies.push(t.elapsed().as_micros() as u64);
            }
            anyhow::Ok(latencies)
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await??);
    }
    Ok(all)
}

/// One assessment; fails unless it succeeded with four answers.
async fn send(http: &reqwest::Client, base: &str, token: &str, via: Via) -> anyhow::Result<()> {
    let arguments = json!({
        "scope": praxis_api::examples::scope(),
        "subject": "host-17",
        "actions": actions(),
    });
    let answer: Value = match via {
        Via::Rest => {
            let mut body = arguments;
            body["contract_version"] = json!(CONTRACT_VERSION);
            http.post(format!("{base}/api/v1/attempts/assess"))
                .bearer_auth(token)
                .json(&body)
                .send()
                .await?
                .json()
                .await?
        }
        Via::Floor => {
            let status = http
                .get(format!("{base}/api/v1/capabilities"))
                .bearer_auth(token)
                .send()
                .await?
                .status();
            anyhow::ensure!(status.is_success(), "capabilities answered {status}");
            return Ok(());
        }
        Via::Ping => {
            let reply = rpc(http, base, token, &json!({"method": "ping"})).await?;
            anyhow::ensure!(reply["result"].is_object(), "ping answered {reply}");
            return Ok(());
        }
        Via::Mcp => {
            let call = json!({"method": "tools/call",
                "params": {"name": "attempts_assess", "arguments": arguments}});
            let reply = rpc(http, base, token, &call).await?;
            anyhow::ensure!(reply["result"]["isError"] == false, "mcp answered {reply}");
            reply["result"]["structuredContent"].clone()
        }
    };
    let count = answer["assessments"].as_array().map_or(0, Vec::len);
    anyhow::ensure!(count == 4, "the assessment answered {answer}");
    Ok(())
}

/// One JSON-RPC request (`method` and `params` of `message`) to `/mcp`.
async fn rpc(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    message: &Value,
) -> anyhow::Result<Value> {
    let mut request = json!({"jsonrpc": "2.0", "id": 1});
    for (key, value) in message.as_object().into_iter().flatten() {
        request[key] = value.clone();
    }
    Ok(http
        .post(format!("{base}/mcp"))
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&request)
        .send()
        .await?
        .json()
        .await?)
}
