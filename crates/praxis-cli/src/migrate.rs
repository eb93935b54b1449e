//! `praxis migrate`: a full copy of one store into another (SQLite or
//! PostgreSQL, either way), resumable, verified on both sides and compared
//! event for event.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use praxis_store::migrate::Progress;

use crate::config::redact;

/// Arguments of `praxis migrate`.
#[derive(Args, Debug)]
pub struct MigrateArgs {
    /// The store to copy: a data directory or a postgres:// URL. It may be
    /// served meanwhile; the copy is of its state when the run starts.
    #[arg(long)]
    pub from: String,
    /// The store to copy into: an empty data directory or database, or one
    /// holding this source's unfinished migration (which is resumed). It
    /// must not be served until the migration has finished.
    #[arg(long)]
    pub to: String,
    /// Events copied per transaction.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,
}

/// A progress bar on stderr, drawn only for a person at a terminal.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn start(&mut self, events: u64, resumed: bool) {
        self.0.set_length(events);
        if resumed {
            self.0.println("resuming an unfinished migration");
        }
    }

    fn advance(&mut self, n: u64) {
        self.0.inc(n);
    }

    fn phase(&mut self, what: &str) {
        self.0.set_message(what.to_owned());
    }
}

/// Runs the migration; exit code 1 when it is refused or fails.
pub async fn run(args: MigrateArgs) -> anyhow::Result<ExitCode> {
    let bar = ProgressBar::with_draw_target(
        Some(0),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} events {per_sec} ETA {eta} {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let fresh = FreshDir::new(&args.to);
    let batch = usize::try_from(args.batch).unwrap_or(usize::MAX);
    let outcome = praxis_store::migrate(&args.from, &args.to, batch, &mut Bar(bar.clone())).await;
    bar.finish_and_clear();
    match outcome {
        Ok(report) => {
            println!(
                "migrated {} tenants, {} events and {} receipts from {} to {} ({} events copied by this run{}); both verified and identical",
                report.tenants,
                report.events,
                report.receipts,
                redact(&args.from),
                redact(&args.to),
                report.copied,
                if report.resumed { ", resumed" } else { "" }
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            fresh.clean_if_untouched().await;
            eprintln!("praxis: migrate: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// A SQLite target directory without a store when the run began: if the
/// run fails before any batch is committed, nothing of it is left behind.
struct FreshDir {
    dir: Option<PathBuf>,
    existed: bool,
}

impl FreshDir {
    fn new(store: &str) -> FreshDir {
        let is_dir_store = !store.starts_with("postgres://") && !store.starts_with("postgresql://");
        let dir = Path::new(store);
        let fresh = is_dir_store && !dir.join(praxis_store::SQLITE_FILE).exists();
        FreshDir {
            dir: fresh.then(|| dir.to_owned()),
            existed: dir.exists(),
        }
    }

    /// Removes the store this run created, unless a batch reached it.
    async fn clean_if_untouched(&self) {
        let Some(dir) = &self.dir else { return };
        let db = dir.join(praxis_store::SQLITE_FILE);
        if !db.exists()
            || !matches!(
                praxis_store::migrate::is_empty(&dir.to_string_lossy()).await,
                Ok(true)
            )
        {
            return;
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        let _ = std::fs::remove_file(dir.join("LOCK"));
        if !self.existed {
            let _ = std::fs::remove_dir(dir);
        }
    }
}
