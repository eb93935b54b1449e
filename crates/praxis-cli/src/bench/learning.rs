//! `praxis bench learning`: selection latency as the procedures of one
//! namespace grow, on each store, beside a raw baseline read in the same
//! store.
//!
//! Procedures are registered through the real write path, spread over
//! `--contexts` contexts of one policy, with instruction sizes from 64 to
//! 4,159 bytes. One in 97 (a stride prime to the number of contexts, so
//! every context gets its share) is qualified through real held-out
//! evaluations (clearly better cases, submitted by the policy's evaluator),
//! so the selection index holds about a hundredth of the store. Then, one caller in process, as the server's handler calls it:
//!
//! - **select**: a uniformly chosen context, with `max_instruction_bytes`
//!   uniform in 256..4,096, so the first qualified row in index order does
//!   not always fit;
//! - **select, nothing fits**: `max_instruction_bytes` 1, so every
//!   qualified row of the context is visited and the baseline answered;
//! - **baseline**: a registry read (`learning().policy`): one primary-key
//!   read and one digest check in the same store.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use praxis_domain::auth::{Namespace, Scope, Visibility};
use praxis_domain::learning::{
    Algorithm, Context, Evaluation, EvaluationStatus, Monitoring, MonitoringRule, Parameters,
    Phase, Policy, ProposalRequest,
};
use praxis_domain::ledger::Actor;
use praxis_store::learning::LearningWrite;
use praxis_store::{Command, Engine, LearningCommand, Write};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::attempts::pct;

/// Arguments of `bench learning`.
#[derive(Args)]
pub struct LearningArgs {
    /// Procedures in the namespace when selection is last measured.
    #[arg(long, default_value_t = 100_000)]
    procedures: u64,
    /// Contexts the procedures are spread over (one policy).
    #[arg(long, default_value_t = 100)]
    contexts: u64,
    /// Selections per size measured.
    #[arg(long, default_value_t = 2_000)]
    selects: usize,
    /// Concurrent loaders.
    #[arg(long, default_value_t = 64)]
    writers: usize,
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

const POLICY: &str = "policy-bench";
const AUTHOR: &str = "author";
const EVALUATOR: &str = "grader";

fn actor(subject: &str) -> Actor {
    Actor {
        credential_id: format!("bench-{subject}"),
        subject: subject.into(),
    }
}

fn policy() -> Policy {
    Policy {
        id: POLICY.into(),
        algorithm: Algorithm::AnytimeV1,
        parameters: Parameters {
            evaluator_subject: EVALUATOR.into(),
            confidence_delta: 0.2,
            min_improvement: 0.05,
            min_candidate_utility: 0.0,
            max_cost_units: 1_000_000,
            max_latency_ms: 1_000_000,
            qualification_trials: None,
            max_trials: 1_000_000,
            monitoring: Monitoring {
                rule: MonitoringRule::AnytimeDriftV1,
                false_alarm_delta: 0.01,
            },
            evaluation_contract: "paired held-out tasks, utility in [0,1]".into(),
        },
    }
}

fn context(i: u64) -> Context {
    Context {
        id: format!("context-{i}"),
        task: format!("task {i}"),
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

fn namespace() -> Namespace {
    Scope {
        project_id: "bench".into(),
        mission_id: None,
        agent_id: "learner".into(),
        visibility: Visibility::Shared,
    }
    .namespace(AUTHOR)
}

async fn write(
    engine: &Arc<dyn Engine>,
    subject: &str,
    command: LearningCommand,
) -> anyhow::Result<LearningWrite> {
    let applied = engine
        .execute(Write::new(
            "bench",
            actor(subject),
            Command::Learning(command),
        ))
        .await?
        .applied()?;
    applied
        .learning()
        .cloned()
        .ok_or_else(|| anyhow::anyhow!("a learning write answered another effect"))
}

/// Procedure `i`: its context and instruction size follow from `i`.
fn proposal(i: u64, contexts: u64) -> ProposalRequest {
    let bytes = 64 + (i * 37) % 4_096;
    ProposalRequest {
        id: format!("proc-{i:06}"),
        policy_id: POLICY.into(),
        context_id: format!("context-{}", i % contexts),
        instructions: "x".repeat(bytes as usize),
        source_refs: vec![format!("trace://bench/dev/{i}")],
        supersedes: None,
    }
}

/// Every how many procedures one is qualified.
const QUALIFIED_STRIDE: u64 = 97;

/// Registers procedures `from..to`, and qualifies one in [`QUALIFIED_STRIDE`].
async fn load(
    engine: &Arc<dyn Engine>,
    from: u64,
    to: u64,
    args: &LearningArgs,
) -> anyhow::Result<()> {
    let bar = ProgressBar::new(to - from);
    bar.set_style(
        ProgressStyle::with_template(
            "loading {bar:40} {human_pos}/{human_len} procedures, {per_sec}, eta {eta}",
        )
        .expect("template"),
    );
    let next = Arc::new(AtomicU64::new(from));
    let mut loaders = Vec::new();
    for _ in 0..args.writers {
        let (engine, next, bar, contexts) =
            (engine.clone(), next.clone(), bar.clone(), args.contexts);
        loaders.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= to {
                    return anyhow::Ok(());
                }
                let p = proposal(i, contexts);
                let id = p.id.clone();
                let command = LearningCommand::Propose {
                    namespace: namespace(),
                    proposal: Box::new(p),
                };
                write(&engine, AUTHOR, command).await?;
                if i % QUALIFIED_STRIDE == 0 {
                    qualify(&engine, &id, i % contexts).await?;
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

/// Submits clearly better cases until the procedure qualifies.
async fn qualify(engine: &Arc<dyn Engine>, id: &str, context: u64) -> anyhow::Result<()> {
    for case in 0..10_000u32 {
        let evaluation = Evaluation {
            case_id: format!("case-{case}"),
            phase: Phase::Qualification,
            policy_id: POLICY.into(),
            context_id: format!("context-{context}"),
            baseline_revision: "baseline-1".into(),
            evidence_ref: format!("eval://bench/{id}/{case}"),
            status: EvaluationStatus::Complete,
            baseline_utility: Some(0.0),
            candidate_utility: Some(1.0),
            cost_units: Some(10),
            latency_ms: Some(10),
        };
        let command = LearningCommand::Evaluate {
            namespace: namespace(),
            procedure_id: id.into(),
            evaluation: Box::new(evaluation),
        };
        if let LearningWrite::Evaluated { submitted, .. } =
            write(engine, EVALUATOR, command).await?
            && submitted.decision.is_some()
        {
            return Ok(());
        }
    }
    anyhow::bail!("{id} never qualified")
}

/// One size's latencies, in µs: (p50, p99) of select, select with nothing
/// fitting, and the baseline read.
struct Sizes {
    procedures: u64,
    select: (u64, u64),
    none_fits: (u64, u64),
    baseline: (u64, u64),
    chosen: usize,
}

async fn measure(
    engine: &Arc<dyn Engine>,
    procedures: u64,
    args: &LearningArgs,
) -> anyhow::Result<Sizes> {
    let mut rng = SmallRng::seed_from_u64(procedures);
    let ns = namespace();
    let (mut select, mut none_fits, mut baseline) = (Vec::new(), Vec::new(), Vec::new());
    let mut chosen = 0;
    for _ in 0..args.selects {
        let context = format!("context-{}", rng.random_range(0..args.contexts));
        let max = rng.random_range(256..4_096u64);
        let t = Instant::now();
        let found = engine
            .procedures()
            .select("bench", &ns, POLICY, &context, max)
            .await?;
        select.push(t.elapsed().as_micros() as u64);
        chosen += usize::from(found.is_some());
        let t = Instant::now();
        let found = engine
            .procedures()
            .select("bench", &ns, POLICY, &context, 1)
            .await?;
        none_fits.push(t.elapsed().as_micros() as u64);
        anyhow::ensure!(found.is_none(), "no instructions fit in one byte");
        let t = Instant::now();
        engine.learning().policy("bench", POLICY).await?;
        baseline.push(t.elapsed().as_micros() as u64);
    }
    let p = |mut v: Vec<u64>| {
        v.sort_unstable();
        (pct(&v, 0.5), pct(&v, 0.99))
    };
    Ok(Sizes {
        procedures,
        select: p(select),
        none_fits: p(none_fits),
        baseline: p(baseline),
        chosen,
    })
}

/// Runs the benchmark.
pub async fn run(args: LearningArgs) -> anyhow::Result<()> {
    let tmp = super::tempfile_dir(args.dir.as_deref())?;
    let mut all = Vec::new();
    for backend in &args.backends {
        let engine =
            super::bench_store(backend, &tmp, "learning", args.postgres.as_deref()).await?;
        write(&engine, "admin", LearningCommand::RegisterPolicy(policy())).await?;
        for c in 0..args.contexts {
            write(
                &engine,
                "admin",
                LearningCommand::RegisterContext(context(c)),
            )
            .await?;
        }
        let (mut loaded, mut size) = (0, 1_000u64.min(args.procedures));
        loop {
            let start = Instant::now();
            load(&engine, loaded, size, &args).await?;
            eprintln!(
                "{backend}: loaded {} procedures in {:.1}s",
                size - loaded,
                start.elapsed().as_secs_f64()
            );
            loaded = size;
            // One pass to warm caches and let the store settle after the load,
            // then the measured one.
            measure(&engine, loaded, &args).await?;
            let s = measure(&engine, loaded, &args).await?;
            eprintln!(
                "{backend}: {loaded} procedures, select p50={}us p99={}us, none fits p99={}us, baseline p99={}us",
                s.select.0, s.select.1, s.none_fits.1, s.baseline.1
            );
            all.push((backend.clone(), s));
            if loaded >= args.procedures {
                break;
            }
            size = (size * 10).min(args.procedures);
        }
    }
    println!(
        "| store | procedures | qualified | select p50 | select p99 | nothing fits p99 | baseline read p99 | select p99 / baseline p99 | selections answered |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let ms = |us: u64| format!("{:.2} ms", us as f64 / 1_000.0);
    for (backend, s) in &all {
        println!(
            "| {backend} | {} | {} | {} | {} | {} | {} | {:.1} | {}/{} |",
            s.procedures,
            s.procedures.div_ceil(QUALIFIED_STRIDE),
            ms(s.select.0),
            ms(s.select.1),
            ms(s.none_fits.1),
            ms(s.baseline.1),
            s.select.1 as f64 / s.baseline.1.max(1) as f64,
            s.chosen,
            args.selects
        );
    }
    Ok(())
}
