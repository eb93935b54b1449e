//! `praxis backup` and `praxis restore`: one-file backups of the embedded
//! SQLite store, taken while the server serves, and their restore into an
//! empty data directory (see `praxis_store::backup`). PostgreSQL stores are
//! backed up with `pg_dump` (docs/operations.md).
//!
//! Both exit 0 on success and 1 when they refuse or fail, having changed
//! nothing; clap's usage errors stay 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use praxis_server::seal::SealKey;
use praxis_store::backup::{BackupOptions, Progress, RestoreOptions, SealKeyCopy, SealKeyRestore};

use crate::config::DEFAULT_DATA_DIR;

/// Arguments of `praxis backup`.
#[derive(Args)]
pub struct BackupArgs {
    /// Data directory of the SQLite store to back up; a server may be
    /// serving it [default: ./praxis-data].
    #[arg(long, env = "PRAXIS_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// The backup file to write (one SQLite file, mode 0600). An existing
    /// file is refused unless --force.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Carry the seal key in the backup. Whoever holds such a file can open
    /// the sealed receipts in it (tokens issued with an Idempotency-Key):
    /// keep it as you keep the key.
    #[arg(long)]
    include_seal_key: bool,
    /// The seal key file to carry with --include-seal-key [default: DATA_DIR/seal-key].
    #[arg(long, env = "PRAXIS_SEAL_KEY_FILE", value_name = "FILE")]
    seal_key_file: Option<PathBuf>,
    /// Replace an existing FILE (atomically, once the new backup is checked).
    #[arg(long)]
    force: bool,
}

/// Arguments of `praxis restore`.
#[derive(Args)]
pub struct RestoreArgs {
    /// The backup file `praxis backup` wrote.
    #[arg(long, value_name = "FILE")]
    from: PathBuf,
    /// The data directory to restore into: absent, or holding no store
    /// [default: ./praxis-data].
    #[arg(long, env = "PRAXIS_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// Where a seal key carried by the backup is written, mode 0600
    /// [default: DATA_DIR/seal-key].
    #[arg(long, env = "PRAXIS_SEAL_KEY_FILE", value_name = "FILE")]
    seal_key_file: Option<PathBuf>,
}

/// Runs `praxis backup`.
pub fn run_backup(args: &BackupArgs) -> anyhow::Result<ExitCode> {
    backup_cmd(args).map(|()| ExitCode::SUCCESS)
}

/// Runs `praxis restore`.
pub fn run_restore(args: &RestoreArgs) -> anyhow::Result<ExitCode> {
    restore_cmd(args).map(|()| ExitCode::SUCCESS)
}

/// A refused or failed operation is exit 1, with its reason on stderr.
fn data_dir(arg: Option<&PathBuf>) -> PathBuf {
    arg.cloned()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR))
}

fn backup_cmd(args: &BackupArgs) -> anyhow::Result<()> {
    let dir = data_dir(args.data_dir.as_ref());
    let seal_key = if args.include_seal_key {
        let path = args
            .seal_key_file
            .clone()
            .unwrap_or_else(|| dir.join("seal-key"));
        Some(read_seal_key(&path)?)
    } else {
        None
    };
    let bar = bar("backing up");
    let progress = |p: Progress| show(&bar, p);
    let options = BackupOptions {
        seal_key,
        replace: args.force,
        progress: &progress,
    };
    let summary =
        tokio::task::block_in_place(|| praxis_store::backup_sqlite(&dir, &args.out, &options))
            .with_context(|| format!("backing up {} to {}", dir.display(), args.out.display()))?;
    bar.finish_and_clear();
    let r = &summary.report;
    if crate::output::json() {
        println!(
            "{}",
            serde_json::json!({
                "out": args.out,
                "bytes": summary.bytes,
                "schema_version": summary.schema_version,
                "seal_key_included": summary.seal_key,
                "tenants": r.tenants,
                "events": r.events,
                "credentials": r.credentials,
                "receipts": r.receipts,
            })
        );
    } else {
        println!(
            "backed up {} to {} ({} bytes, schema version {})",
            dir.display(),
            args.out.display(),
            summary.bytes,
            summary.schema_version
        );
        println!(
            "checked the copy: integrity ok; {} tenants, {} events in {} streams, {} credentials, {} receipts",
            r.tenants, r.events, r.streams, r.credentials, r.receipts
        );
        if summary.seal_key {
            println!("the seal key is in the backup: keep the file as secret as the key");
        } else {
            println!("the seal key is not in the backup: keep a copy of it apart from the backup");
        }
    }
    Ok(())
}

/// Reads a seal key file for a backup to carry.
fn read_seal_key(path: &Path) -> anyhow::Result<SealKeyCopy> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let key = SealKey::from_hex(&text)
        .with_context(|| format!("{} does not hold 64 hex characters", path.display()))?;
    Ok(SealKeyCopy {
        hex: key.to_hex(),
        fingerprint: key.fingerprint(),
    })
}

fn restore_cmd(args: &RestoreArgs) -> anyhow::Result<()> {
    let dir = data_dir(args.data_dir.as_ref());
    let seal_key_file = args
        .seal_key_file
        .clone()
        .unwrap_or_else(|| dir.join("seal-key"));
    let bar = bar("restoring");
    let progress = |p: Progress| show(&bar, p);
    let fingerprint = |hex: &str| SealKey::from_hex(hex).map(|k| k.fingerprint());
    let options = RestoreOptions {
        seal_key_file: &seal_key_file,
        fingerprint: &fingerprint,
        progress: &progress,
    };
    let summary =
        tokio::task::block_in_place(|| praxis_store::restore_sqlite(&args.from, &dir, &options))
            .with_context(|| format!("restoring {} into {}", args.from.display(), dir.display()))?;
    bar.finish_and_clear();
    let r = &summary.report;
    let key = match &summary.seal_key {
        SealKeyRestore::Written => format!("written to {}", seal_key_file.display()),
        SealKeyRestore::AlreadyInPlace => format!("already in {}", seal_key_file.display()),
        SealKeyRestore::NotInBackup { fingerprint } => format!(
            "not in the backup: put the store's seal key in {} before serving it{}",
            seal_key_file.display(),
            fingerprint
                .as_ref()
                .map(|f| format!(" (fingerprint {f})"))
                .unwrap_or_default()
        ),
    };
    if crate::output::json() {
        println!(
            "{}",
            serde_json::json!({
                "data_dir": dir,
                "bytes": summary.bytes,
                "schema_version": summary.schema_version,
                "seal_key": match summary.seal_key {
                    SealKeyRestore::Written => "written",
                    SealKeyRestore::AlreadyInPlace => "already_in_place",
                    SealKeyRestore::NotInBackup { .. } => "not_in_backup",
                },
                "tenants": r.tenants,
                "events": r.events,
                "credentials": r.credentials,
                "receipts": r.receipts,
            })
        );
    } else {
        println!(
            "restored {} into {} ({} bytes, taken at schema version {})",
            args.from.display(),
            dir.display(),
            summary.bytes,
            summary.schema_version
        );
        println!(
            "checked the store: integrity ok; {} tenants, {} events in {} streams, {} credentials, {} receipts",
            r.tenants, r.events, r.streams, r.credentials, r.receipts
        );
        println!("seal key: {key}");
    }
    Ok(())
}

/// A progress bar on stderr, in bytes; indicatif draws nothing when stderr
/// is not a terminal.
fn bar(what: &'static str) -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} {bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .expect("a valid progress template"),
    );
    bar.set_message(what);
    bar
}

fn show(bar: &ProgressBar, p: Progress) {
    bar.set_length(p.total * p.page_size);
    bar.set_position(p.done * p.page_size);
}
