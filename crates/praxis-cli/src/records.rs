//! `praxis records`: experience records in a protocol repository layout,
//! offline; the HTTP commands are in [`crate::records_http`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Subcommand};
use praxis_domain::auth::Namespace;
use praxis_domain::canonical::canonical_bytes;
use praxis_domain::ledger::Actor;
use praxis_domain::skills::Registry;
use praxis_store::records::{RecordFilter, RecordWrite, SearchAfter};
use praxis_store::skills::{SKILL_PUBLISHED, SKILL_WITHDRAWN, registry_of};
use praxis_store::{Applied, Command, Engine, RecordCommand, Write};

use crate::attempts::ScopeArgs;
use crate::config::OfflineStore;
use praxis_domain::records::repository::{self, RECORDS_DIR, REGISTRY_PATH, RecordFile};
use praxis_domain::records::{Directory, MAX_RECORD_BYTES};

/// The store and namespace an offline import or export works on (the
/// server must not be running on a SQLite store).
#[derive(Args)]
pub struct Target {
    #[command(flatten)]
    at: OfflineStore,
    #[command(flatten)]
    scope: ScopeArgs,
}

impl Target {
    async fn open(&self) -> anyhow::Result<(Arc<dyn Engine>, Namespace, Actor)> {
        self.at.open(&self.scope.domain()).await
    }
}

/// Applies one write and returns what it did.
async fn write(
    engine: &Arc<dyn Engine>,
    tenant: &str,
    actor: &Actor,
    command: Command,
) -> anyhow::Result<Applied> {
    Ok(engine
        .execute(Write::new(tenant, actor.clone(), command))
        .await?
        .applied()?)
}

/// Subcommands of `praxis records`.
#[derive(Subcommand)]
pub enum RecordsCmd {
    /// Check, offline, a repository laid out as experience_records/{candidates,reviewed}/<id>.json
    /// plus shared_skills/registry.json. Prints every finding as `path: json-pointer: rule: message`;
    /// exits 1 on any finding, 0 on none.
    Validate {
        /// Repository root.
        dir: PathBuf,
    },
    /// Check record files (or - for stdin), offline, exactly as the server's intake
    /// (POST /api/v1/records) checks a submission: the server-owned fields are set as the
    /// server sets them, then the schema, policy gate and screening run. Prints every finding
    /// as `file: json-pointer: rule: message` (`/` for the whole record); exits 1 on any
    /// finding, 0 on none, 2 when a file cannot be read. Relations to other records and skill
    /// releases need the store: POST /api/v1/records/check checks those too.
    Check(crate::records_check::CheckArgs),
    /// Load a repository in that layout into a namespace, offline: it is validated first and
    /// nothing is written if anything fails. Skill releases are published, then every record
    /// is kept as published, all or nothing.
    Import {
        /// Repository root.
        dir: PathBuf,
        #[command(flatten)]
        target: Target,
    },
    /// Publish a namespace's records in that layout, offline, as byte-stable canonical JSON
    /// (a file's SHA-256 is its revision's digest): reviewed, superseded and withdrawn records
    /// under reviewed/ (a candidate its author discarded stays under candidates/), and
    /// shared_skills/registry.json.
    Export {
        /// Repository root to write.
        dir: PathBuf,
        /// Also write candidates under candidates/.
        #[arg(long)]
        candidates: bool,
        /// Replace existing record directories instead of refusing.
        #[arg(long)]
        replace: bool,
        #[command(flatten)]
        target: Target,
    },
    #[command(flatten)]
    Http(crate::records_http::RecordsHttpCmd),
}

/// Runs a `praxis records` subcommand.
pub async fn run(command: RecordsCmd) -> anyhow::Result<ExitCode> {
    match command {
        RecordsCmd::Validate { dir } => validate(&dir),
        RecordsCmd::Check(args) => crate::records_check::run(&args),
        RecordsCmd::Import { dir, target } => import(&dir, &target).await,
        RecordsCmd::Export {
            dir,
            candidates,
            replace,
            target,
        } => export(&dir, candidates, replace, &target).await,
        RecordsCmd::Http(command) => crate::records_http::run(command)
            .await
            .map(|()| ExitCode::SUCCESS),
    }
}

/// A check's findings and flags as JSON: each with its file's path.
fn report_json(report: &repository::Report, count: usize) -> serde_json::Value {
    let located = |all: &[repository::Located]| -> Vec<serde_json::Value> {
        all.iter()
            .map(|l| {
                serde_json::json!({
                    "path": l.path,
                    "pointer": l.finding.shown_pointer(),
                    "rule": l.finding.rule,
                    "message": l.finding.message,
                })
            })
            .collect()
    };
    serde_json::json!({
        "records": count,
        "findings": located(&report.findings),
        "flags": located(&report.flags),
    })
}

/// Prints a check's findings: as `path: json-pointer: rule: message`
/// lines with a count on stderr, or as JSON with `--json`.
fn print_findings(report: &repository::Report, count: usize) -> anyhow::Result<()> {
    if crate::output::json() {
        return crate::output::emit(&report_json(report, count), |_| String::new());
    }
    for finding in &report.findings {
        println!("{finding}");
    }
    eprintln!("{} finding(s) in {count} record(s)", report.findings.len());
    Ok(())
}

async fn import(dir: &Path, target: &Target) -> anyhow::Result<ExitCode> {
    let files = read_records(dir)?;
    let count = files.len();
    let registry_bytes = read_bounded(&dir.join(REGISTRY_PATH), 16 * 1024 * 1024);
    let registry_doc = match &registry_bytes {
        Some(Ok(bytes)) => Some(praxis_domain::canonical::parse_strict(bytes)?),
        _ => None,
    };
    let report = repository::check(files, registry_bytes);
    if !report.passed() {
        print_findings(&report, count)?;
        eprintln!("nothing was imported");
        return Ok(ExitCode::from(1));
    }
    let registry = registry_doc
        .as_ref()
        .map(Registry::from_protocol)
        .transpose()
        .map_err(|f| anyhow::anyhow!("registry: {} problem(s)", f.len()))?
        .unwrap_or_default();
    let (engine, namespace, actor) = target.open().await?;
    let documents = report.records.into_iter().map(|(_, v)| v).collect();
    let skills = registry.entries().cloned().collect();
    // One write: the releases, their withdrawals and the records commit
    // together or not at all.
    let applied = write(
        &engine,
        &target.at.tenant,
        &actor,
        Command::Records(RecordCommand::Import {
            namespace,
            documents,
            skills,
        }),
    )
    .await?;
    let events_of = |kind: &str| applied.events.iter().filter(|e| e.kind == kind).count();
    let (published, withdrawn) = (events_of(SKILL_PUBLISHED), events_of(SKILL_WITHDRAWN));
    let written = applied.into_records();
    let kept = written
        .iter()
        .filter(|w| matches!(w, RecordWrite::Revised(_)))
        .count();
    let unchanged = written.len() - kept;
    let answer = serde_json::json!({
        "imported": kept,
        "unchanged": unchanged,
        "skills_published": published,
        "skills_withdrawn": withdrawn,
    });
    crate::output::emit(&answer, |_| {
        format!(
            "{kept} record(s) imported, {unchanged} already kept; {published} skill release(s) \
             published, {withdrawn} withdrawn"
        )
    })?;
    Ok(ExitCode::SUCCESS)
}

async fn export(
    dir: &Path,
    candidates: bool,
    replace: bool,
    target: &Target,
) -> anyhow::Result<ExitCode> {
    let (engine, namespace, _) = target.open().await?;
    let tenant = target.at.tenant.as_str();
    let root = dir.join(RECORDS_DIR);
    let occupied = std::fs::read_dir(&root).is_ok_and(|mut d| d.next().is_some());
    if occupied && !replace {
        anyhow::bail!(
            "{} is not empty; pass --replace to replace its records",
            root.display()
        );
    }
    // Built beside the target and swapped in by renames, so that a failure
    // leaves the previous publication whole.
    std::fs::create_dir_all(dir)?;
    let staging = dir.join(format!(".{RECORDS_DIR}.new-{}", std::process::id()));
    if staging.exists() {
        std::fs::remove_dir_all(&staging)?;
    }
    for sub in [Directory::Candidates, Directory::Reviewed] {
        std::fs::create_dir_all(staging.join(sub.as_str()))?;
    }
    let (mut written, mut after) = (0usize, SearchAfter::default());
    // A publication holds withdrawn records too: their identity stays.
    let every = RecordFilter {
        include_withdrawn: true,
        ..RecordFilter::default()
    };
    loop {
        let page = engine
            .records()
            .search(tenant, &namespace, every.clone(), &after, 500)
            .await?;
        for row in page.iter().map(|h| &h.record) {
            let approved = row.document["review"]["status"] == "approved";
            let directory = Directory::for_status(row.lifecycle, approved);
            if directory == Directory::Candidates && !candidates {
                continue;
            }
            let path = staging
                .join(directory.as_str())
                .join(format!("{}.json", row.experience_id));
            std::fs::write(&path, canonical_bytes(&row.document))
                .with_context(|| format!("writing {}", path.display()))?;
            written += 1;
        }
        match page.last() {
            Some(last) if page.len() == 500 => after = last.position(),
            _ => break,
        }
    }
    let old = dir.join(format!(".{RECORDS_DIR}.old-{}", std::process::id()));
    if root.exists() {
        std::fs::rename(&root, &old)?;
    }
    std::fs::rename(&staging, &root)?;
    if old.exists() {
        std::fs::remove_dir_all(&old)?;
    }
    let skills = engine.skills().list(tenant, &namespace).await?;
    let revision = skills.iter().map(|s| s.position).max().unwrap_or(0);
    let registry = registry_of(&skills);
    let registry_path = dir.join(REGISTRY_PATH);
    std::fs::create_dir_all(registry_path.parent().expect("registry path has a parent"))?;
    write_atomically(
        &registry_path,
        &canonical_bytes(&registry.to_protocol(revision)),
    )?;
    let releases = registry.entries().count();
    let answer = serde_json::json!({ "records": written, "skills": releases });
    crate::output::emit(&answer, |_| {
        format!("{written} record(s) and {releases} skill release(s) exported")
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Writes through a temporary file and a rename, so that a reader never
/// sees half a record.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

fn validate(dir: &Path) -> anyhow::Result<ExitCode> {
    let files = read_records(dir)?;
    let count = files.len();
    let registry = read_bounded(&dir.join(REGISTRY_PATH), 16 * 1024 * 1024);
    let report = repository::check(files, registry);
    for flag in &report.flags {
        eprintln!("flag: {flag}");
    }
    if report.passed() {
        crate::output::emit(&report_json(&report, count), |_| {
            format!("{count} record(s): no findings")
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    print_findings(&report, count)?;
    Ok(ExitCode::from(1))
}

/// Every `*.json` file under the records tree, with the directory it sits
/// in. Files deeper than one level, and symbolic links, are reported as
/// out of layout rather than followed.
fn read_records(dir: &Path) -> anyhow::Result<Vec<RecordFile>> {
    let root = dir.join(RECORDS_DIR);
    let mut files = Vec::new();
    let entries = match std::fs::read_dir(&root) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            anyhow::bail!("{} has no {RECORDS_DIR}/ directory", dir.display())
        }
        Err(e) => return Err(e).with_context(|| format!("reading {}", root.display())),
    };
    let mut subdirs: Vec<_> = entries.collect::<Result<_, _>>()?;
    subdirs.sort_by_key(std::fs::DirEntry::file_name);
    for sub in subdirs {
        let name = sub.file_name().to_string_lossy().into_owned();
        let directory = match name.as_str() {
            "candidates" => Some(Directory::Candidates),
            "reviewed" => Some(Directory::Reviewed),
            _ => None,
        };
        let kind = sub.file_type()?;
        if !kind.is_dir() || kind.is_symlink() {
            if is_json(&name) {
                files.push(out_of_layout(format!("{RECORDS_DIR}/{name}")));
            }
            continue;
        }
        let mut inner: Vec<_> = std::fs::read_dir(sub.path())?.collect::<Result<_, _>>()?;
        inner.sort_by_key(std::fs::DirEntry::file_name);
        for entry in inner {
            let file = entry.file_name().to_string_lossy().into_owned();
            if !is_json(&file) {
                continue;
            }
            let path = format!("{RECORDS_DIR}/{name}/{file}");
            let kind = entry.file_type()?;
            if kind.is_symlink() || !kind.is_file() || directory.is_none() {
                files.push(out_of_layout(path));
                continue;
            }
            let file_bytes = usize::try_from(entry.metadata()?.len()).unwrap_or(usize::MAX);
            let contents = match read_bounded(&entry.path(), MAX_RECORD_BYTES) {
                Some(contents) => contents,
                None => Err("the file vanished while being read".into()),
            };
            files.push(RecordFile {
                path,
                directory,
                contents,
                file_bytes,
            });
        }
    }
    Ok(files)
}

fn out_of_layout(path: String) -> RecordFile {
    RecordFile {
        path,
        directory: None,
        contents: Ok(Vec::new()),
        file_bytes: 0,
    }
}

/// Whether a file name ends in `.json`, exactly: the protocol's layout
/// names are case-sensitive, and a file named `.json` is a record file too.
#[allow(clippy::case_sensitive_file_extension_comparisons)]
fn is_json(name: &str) -> bool {
    name.ends_with(".json")
}

/// Reads at most `limit` bytes (plus one, so that an oversized file is seen
/// as such without being loaded whole). `None` when the file is missing.
fn read_bounded(path: &Path, limit: usize) -> Option<Result<Vec<u8>, String>> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(Err(format!("cannot be read: {e}"))),
    };
    let mut bytes = Vec::new();
    match file.take(limit as u64 + 1).read_to_end(&mut bytes) {
        Ok(_) => Some(Ok(bytes)),
        Err(e) => Some(Err(format!("cannot be read: {e}"))),
    }
}
