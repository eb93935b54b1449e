//! `praxis bench proposals`: approve-to-memory promotions per second beside
//! plain memory creates, and memory search latency beside a point read as
//! the items of one scope grow, on each store.
//!
//! Everything goes through the real write and read paths, one engine in
//! process, as the server's handlers call them:
//!
//! - **promotions**: open proposals (memory destination, one cited memory
//!   revision) are approved by `--writers` concurrent approvers; each
//!   approval re-hashes the source, writes the item and saves the receipt
//!   and note in one transaction. The baseline is the same number of plain
//!   create-only memory sets of the same rendered text, measured right
//!   before in the same store, with the same writers. Rounds alternate.
//! - **search**: items carry a unique word, a few words of a 2,000-word
//!   vocabulary (drawn with a skew, so some words are common) and a tag. A
//!   query is one or two vocabulary words, 20 results a page; the baseline
//!   is `memory/get` of a random key.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Actor;
use praxis_domain::memory::{MemoryDefinition, MemoryKey, MemoryRevision, Priority};
use praxis_domain::proposals::{
    Candidate, Destination, SCHEMA, SourceKind, SourceRef, destination_hash, render,
};
use praxis_store::memory::{MemoryCommand, MemoryLimits, MemoryWrite};
use praxis_store::proposals::{Approve, ProposalCommand, ProposalWrite, destination_value};
use praxis_store::{Command, Engine, Write};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use super::attempts::pct;

/// Arguments of `bench proposals`.
#[derive(Args)]
pub struct ProposalsArgs {
    /// Memory items in the scope when search is last measured.
    #[arg(long, default_value_t = 100_000)]
    items: u64,
    /// Searches (and point reads) per size measured.
    #[arg(long, default_value_t = 2_000)]
    searches: usize,
    /// Promotions (and baseline creates) per round.
    #[arg(long, default_value_t = 2_000)]
    promotions: u64,
    /// Alternating rounds of promotions and creates.
    #[arg(long, default_value_t = 3)]
    rounds: u64,
    /// Concurrent writers.
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

/// The bench never fills memory: it measures, it does not test limits.
const LIMITS: MemoryLimits = MemoryLimits {
    per_scope: u64::MAX,
    per_tenant: u64::MAX,
};
const VOCABULARY: u64 = 2_000;

fn actor(subject: &str) -> Actor {
    Actor {
        credential_id: format!("bench-{subject}"),
        subject: subject.into(),
    }
}

fn namespace() -> Namespace {
    super::scope().namespace("proposer")
}

fn word(i: u64) -> String {
    format!("w{i}")
}

/// A skewed vocabulary word: low numbers are much more common.
fn draw(rng: &mut SmallRng) -> u64 {
    let u: f64 = rng.random_range(0.0..1.0);
    ((VOCABULARY as f64).powf(u) as u64).min(VOCABULARY - 1)
}

fn definition(i: u64, rng: &mut SmallRng) -> MemoryDefinition {
    let words: Vec<String> = (0..12).map(|_| word(draw(rng))).collect();
    MemoryDefinition {
        summary: format!("Note {i} on {}", words[0]),
        body: format!("unique{i} {}", words.join(" ")),
        tags: BTreeSet::from([format!("t{}", i % 50)]),
        priority: Priority::Normal,
        bootstrap: false,
    }
}

async fn run_write(
    engine: &Arc<dyn Engine>,
    subject: &str,
    command: Command,
) -> anyhow::Result<praxis_store::Applied> {
    Ok(engine
        .execute(Write::new("bench", actor(subject), command))
        .await?
        .applied()?)
}

async fn set(
    engine: &Arc<dyn Engine>,
    key: &str,
    definition: MemoryDefinition,
) -> anyhow::Result<MemoryRevision> {
    let command = Command::Memory(MemoryCommand::Set {
        namespace: namespace(),
        key: MemoryKey::parse("/key", key)?,
        definition,
        expected: None,
        limits: LIMITS,
    });
    match run_write(engine, "proposer", command).await?.memory() {
        Some(MemoryWrite::Set { item, .. }) => Ok(item.revision.clone()),
        _ => anyhow::bail!("a memory set answered another effect"),
    }
}

/// Runs `f(i)` for every `i` in `from..to` with `writers` concurrent tasks.
async fn spread<F, Fut>(
    from: u64,
    to: u64,
    writers: usize,
    label: &str,
    f: F,
) -> anyhow::Result<f64>
where
    F: Fn(u64) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send,
{
    let bar = ProgressBar::new(to - from);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{label} {{bar:40}} {{human_pos}}/{{human_len}}, {{per_sec}}"
        ))
        .expect("template"),
    );
    let (next, f) = (Arc::new(AtomicU64::new(from)), Arc::new(f));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..writers {
        let (next, f, bar) = (next.clone(), f.clone(), bar.clone());
        tasks.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= to {
                    return anyhow::Ok(());
                }
                f(i).await?;
                bar.inc(1);
            }
        }));
    }
    for t in tasks {
        t.await??;
    }
    bar.finish_and_clear();
    Ok((to - from) as f64 / start.elapsed().as_secs_f64())
}

/// Loads items `from..to`.
async fn load(engine: &Arc<dyn Engine>, from: u64, to: u64, writers: usize) -> anyhow::Result<()> {
    let engine = engine.clone();
    spread(from, to, writers, "loading", move |i| {
        let engine = engine.clone();
        async move {
            let mut rng = SmallRng::seed_from_u64(i);
            set(&engine, &format!("item-{i:07}"), definition(i, &mut rng)).await?;
            Ok(())
        }
    })
    .await?;
    Ok(())
}

/// One size's latencies in µs: (p50, p99) of search and of the point read.
struct Search {
    items: u64,
    query: (u64, u64),
    get: (u64, u64),
    found: usize,
}

async fn measure_search(engine: &Arc<dyn Engine>, items: u64, n: usize) -> anyhow::Result<Search> {
    let mut rng = SmallRng::seed_from_u64(items + 7);
    let ns = namespace();
    let (mut search, mut get, mut found) = (Vec::new(), Vec::new(), 0);
    for q in 0..n {
        let terms: Vec<String> = (0..=(q % 2)).map(|_| word(draw(&mut rng))).collect();
        let t = Instant::now();
        let hits = engine
            .memory()
            .search("bench", &ns, &terms, None, 20)
            .await?;
        search.push(t.elapsed().as_micros() as u64);
        found += hits.len();
        let key = MemoryKey::parse("/key", &format!("item-{:07}", rng.random_range(0..items)))?;
        let t = Instant::now();
        anyhow::ensure!(engine.memory().get("bench", &ns, &key).await?.is_some());
        get.push(t.elapsed().as_micros() as u64);
    }
    let p = |mut v: Vec<u64>| {
        v.sort_unstable();
        (pct(&v, 0.5), pct(&v, 0.99))
    };
    Ok(Search {
        items,
        query: p(search),
        get: p(get),
        found,
    })
}

/// The summary, content and conditions of promotion `i` of `round`.
fn text(round: u64, i: u64) -> (String, String, Vec<String>) {
    (
        format!("Promoted note {round}-{i}"),
        format!("Follow the cursor before answering ({round}-{i})."),
        vec!["A read returns a next cursor.".into()],
    )
}

/// A memory candidate citing the live revision of `cited`.
fn candidate(round: u64, i: u64, cited: &str, revision: &MemoryRevision) -> Candidate {
    let (summary, content, conditions) = text(round, i);
    Candidate {
        schema: SCHEMA.into(),
        summary,
        content,
        conditions,
        sources: vec![SourceRef {
            kind: SourceKind::MemoryRevision,
            r#ref: format!("{cited} {}", revision.as_str()),
            sha256: String::new(),
        }],
        destination: Destination::Memory {
            memory_key: MemoryKey::parse("/key", &format!("promoted-{round}-{i:06}"))
                .expect("a key"),
            expected_revision: None,
        },
    }
}

/// Proposes `n` candidates of `round`, each citing one loaded item at its
/// live revision; returns (id, version hash, destination hash).
async fn propose_round(
    engine: &Arc<dyn Engine>,
    round: u64,
    n: u64,
) -> anyhow::Result<Vec<(String, String, String)>> {
    let ns = namespace();
    let mut out = Vec::new();
    for i in 0..n {
        let cited = format!("item-{i:07}");
        let item = engine
            .memory()
            .get("bench", &ns, &MemoryKey::parse("/key", &cited)?)
            .await?
            .ok_or_else(|| anyhow::anyhow!("{cited} is loaded"))?;
        let mut c = candidate(round, i, &cited, &item.revision);
        // The store hashes the source as approval will, from its own
        // documented fields.
        let describe = Command::Proposals(ProposalCommand::Describe {
            namespace: ns.clone(),
            source: c.sources[0].clone(),
        });
        c.sources[0].sha256 = match run_write(engine, "proposer", describe).await?.proposals() {
            Some(ProposalWrite::Source(Some(sha))) => sha.clone(),
            _ => anyhow::bail!("{cited} is not current"),
        };
        let destination = destination_hash(&destination_value(&c.destination), None);
        let id = format!("prop_{:032x}", (round << 32) | i);
        let command = Command::Proposals(ProposalCommand::Propose {
            namespace: ns.clone(),
            id: id.clone(),
            candidate: Box::new(c),
            max_open: u64::MAX,
        });
        match run_write(engine, "proposer", command).await?.proposals() {
            Some(ProposalWrite::Proposal(v)) => {
                out.push((id, v.proposal.version_hash.clone(), destination));
            }
            _ => anyhow::bail!("a proposal answered another effect"),
        }
    }
    Ok(out)
}

/// Approves every proposal of a round; promotions per second.
async fn approve_round(
    engine: &Arc<dyn Engine>,
    proposals: Vec<(String, String, String)>,
    writers: usize,
) -> anyhow::Result<f64> {
    let (engine, proposals) = (engine.clone(), Arc::new(proposals));
    let n = proposals.len() as u64;
    spread(0, n, writers, "approving", move |i| {
        let (engine, proposals) = (engine.clone(), proposals.clone());
        async move {
            let (id, version, destination) = &proposals[i as usize];
            let approve = Approve {
                namespace: namespace(),
                id: id.clone(),
                version_hash: version.clone(),
                destination_hash: destination.clone(),
                skill: None,
                limits: LIMITS,
            };
            let command = Command::Proposals(ProposalCommand::Approve(Box::new(approve)));
            let applied = run_write(&engine, "approver", command).await?;
            match applied.proposals() {
                Some(ProposalWrite::Proposal(v)) if v.proposal.receipt.is_some() => Ok(()),
                _ => anyhow::bail!("{id} was not promoted"),
            }
        }
    })
    .await
}

/// Creates `n` plain items of the rendered text; creates per second.
async fn create_round(
    engine: &Arc<dyn Engine>,
    round: u64,
    n: u64,
    writers: usize,
) -> anyhow::Result<f64> {
    let engine = engine.clone();
    spread(0, n, writers, "creating", move |i| {
        let engine = engine.clone();
        async move {
            let (summary, content, conditions) = text(round, i);
            let definition = MemoryDefinition {
                summary,
                body: render(&content, &conditions),
                tags: BTreeSet::from(["experience".to_owned()]),
                priority: Priority::Normal,
                bootstrap: false,
            };
            set(&engine, &format!("plain-{round}-{i:06}"), definition).await?;
            Ok(())
        }
    })
    .await
}

/// Runs the benchmark.
pub async fn run(args: ProposalsArgs) -> anyhow::Result<()> {
    let tmp = super::tempfile_dir(args.dir.as_deref())?;
    let (mut searches, mut promotions) = (Vec::new(), Vec::new());
    for backend in &args.backends {
        let engine =
            super::bench_store(backend, &tmp, "proposals", args.postgres.as_deref()).await?;
        let (mut loaded, mut size) = (0, 1_000u64.min(args.items));
        loop {
            let start = Instant::now();
            load(&engine, loaded, size, args.writers).await?;
            eprintln!(
                "{backend}: loaded {} items in {:.1}s",
                size - loaded,
                start.elapsed().as_secs_f64()
            );
            loaded = size;
            measure_search(&engine, loaded, args.searches).await?;
            let s = measure_search(&engine, loaded, args.searches).await?;
            eprintln!(
                "{backend}: {loaded} items, search p50={}us p99={}us, get p99={}us",
                s.query.0, s.query.1, s.get.1
            );
            searches.push((backend.clone(), s));
            if loaded >= args.items {
                break;
            }
            size = (size * 10).min(args.items);
        }
        for round in 0..args.rounds {
            let n = args.promotions.min(loaded);
            let creates = create_round(&engine, round, n, args.writers).await?;
            let proposed = propose_round(&engine, round, n).await?;
            let promoted = approve_round(&engine, proposed, args.writers).await?;
            eprintln!(
                "{backend}: round {round}: {promoted:.0} promotions/s, {creates:.0} creates/s, ratio {:.2}",
                promoted / creates
            );
            promotions.push((backend.clone(), round, promoted, creates));
        }
        let report = engine.verify().await?;
        anyhow::ensure!(report.is_clean(), "verify: {:?}", report.problems);
    }
    println!(
        "| store | items | search p50 | search p99 | get p99 | search p99 / get p99 | results per search |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let ms = |us: u64| format!("{:.2} ms", us as f64 / 1_000.0);
    for (backend, s) in &searches {
        println!(
            "| {backend} | {} | {} | {} | {} | {:.1} | {:.1} |",
            s.items,
            ms(s.query.0),
            ms(s.query.1),
            ms(s.get.1),
            s.query.1 as f64 / s.get.1.max(1) as f64,
            s.found as f64 / args.searches as f64
        );
    }
    println!();
    println!("| store | round | promotions/s | plain creates/s | promotions / creates |");
    println!("|---|---:|---:|---:|---:|");
    for (backend, round, promoted, creates) in &promotions {
        println!(
            "| {backend} | {round} | {promoted:.0} | {creates:.0} | {:.2} |",
            promoted / creates
        );
    }
    Ok(())
}
