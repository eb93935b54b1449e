//! `praxis records`: experience records in a protocol repository layout.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use praxis_domain::records::repository::{self, RECORDS_DIR, REGISTRY_PATH, RecordFile};
use praxis_domain::records::{Directory, MAX_RECORD_BYTES};

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
}

/// Runs a `praxis records` subcommand.
pub fn run(command: RecordsCmd) -> anyhow::Result<ExitCode> {
    match command {
        RecordsCmd::Validate { dir } => validate(&dir),
    }
}

fn validate(dir: &Path) -> anyhow::Result<ExitCode> {
    let files = read_records(dir)?;
    let count = files.len();
    let registry = read_bounded(&dir.join(REGISTRY_PATH), 16 * 1024 * 1024)?;
    let report = repository::check(files, registry);
    for flag in &report.flags {
        eprintln!("flag: {flag}");
    }
    if report.passed() {
        println!("{count} record(s): no findings");
        return Ok(ExitCode::SUCCESS);
    }
    for finding in &report.findings {
        println!("{finding}");
    }
    eprintln!("{} finding(s) in {count} record(s)", report.findings.len());
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
    subdirs.sort_by_key(|e| e.file_name());
    for sub in subdirs {
        let name = sub.file_name().to_string_lossy().into_owned();
        let directory = match name.as_str() {
            "candidates" => Some(Directory::Candidates),
            "reviewed" => Some(Directory::Reviewed),
            _ => None,
        };
        let kind = sub.file_type()?;
        if !kind.is_dir() || kind.is_symlink() {
            if name.ends_with(".json") {
                files.push(out_of_layout(format!("{RECORDS_DIR}/{name}")));
            }
            continue;
        }
        let mut inner: Vec<_> = std::fs::read_dir(sub.path())?.collect::<Result<_, _>>()?;
        inner.sort_by_key(|e| e.file_name());
        for entry in inner {
            let file = entry.file_name().to_string_lossy().into_owned();
            if !file.ends_with(".json") {
                continue;
            }
            let path = format!("{RECORDS_DIR}/{name}/{file}");
            let kind = entry.file_type()?;
            if kind.is_symlink() || !kind.is_file() || directory.is_none() {
                files.push(out_of_layout(path));
                continue;
            }
            let file_bytes = usize::try_from(entry.metadata()?.len()).unwrap_or(usize::MAX);
            let contents = match read_bounded(&entry.path(), MAX_RECORD_BYTES)? {
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

/// Reads at most `limit` bytes (plus one, so that an oversized file is seen
/// as such without being loaded whole). `None` when the file is missing.
fn read_bounded(path: &Path, limit: usize) -> anyhow::Result<Option<Result<Vec<u8>, String>>> {
    use std::io::Read;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Ok(Some(Err(format!("cannot be read: {e}")))),
    };
    let mut bytes = Vec::new();
    match file.take(limit as u64 + 1).read_to_end(&mut bytes) {
        Ok(_) => Ok(Some(Ok(bytes))),
        Err(e) => Ok(Some(Err(format!("cannot be read: {e}")))),
    }
}
