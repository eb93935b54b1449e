//! `praxis screen`: the record and memory screening, run on any text
//! before it is written. Offline by default (the domain's own screen);
//! with `--remote`, the server's `POST /api/v1/screen` answers instead.
//!
//! A finding is shown as `FILE:LINE:COL: rule: remedy`, never with the
//! text it found, so the output can be logged and shared.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use praxis_api::{CONTRACT_VERSION, ScreenFinding, ScreenRequest, ScreenScope};
use praxis_domain::records::{MAX_RECORD_BYTES, screen};
use serde_json::{Value, json};

use crate::client_config::ConfiguredRemote;
use crate::output::{client_error, emit, findings_exit, json, shown, usage};

/// What the text is about to become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "snake_case")]
pub enum Scope {
    /// A string of an experience record (prose unless --commands or a
    /// command field's --pointer).
    RecordSubmit,
    /// An agent memory item: screened as a command field.
    MemoryWrite,
}

/// Arguments of `praxis screen`.
#[derive(Args)]
pub struct ScreenArgs {
    /// Files to screen, each as one text; - or none for stdin.
    files: Vec<PathBuf>,
    /// Screen as a command field: unsafe commands are findings too.
    #[arg(long)]
    commands: bool,
    /// What the text is for.
    #[arg(long, value_enum, default_value = "record_submit")]
    scope: Scope,
    /// The record field the text is for (record_submit), e.g.
    /// /resolution/steps/0: a command field is screened for unsafe commands.
    #[arg(long, value_name = "JSON_POINTER")]
    pointer: Option<String>,
    /// Ask the server (POST /api/v1/screen, any credential) instead of
    /// screening here.
    #[arg(long)]
    remote: bool,
    #[command(flatten)]
    server: ConfiguredRemote,
}

/// One finding with where it is, for a person: 1-based line and column (in
/// characters) of its start.
fn located(text: &str, finding: &ScreenFinding) -> (usize, usize) {
    let start = usize::try_from(finding.start).unwrap_or(usize::MAX);
    let (mut line, mut column) = (1, 1);
    for c in text.chars().take(start) {
        if c == '\n' {
            line += 1;
            column = 1;
        } else {
            column += 1;
        }
    }
    (line, column)
}

/// Reads one input whole, refusing more than `limit` bytes and text that
/// is not UTF-8.
fn read(file: &Path, limit: usize) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    let cap = limit as u64 + 1;
    if file.as_os_str() == "-" {
        std::io::stdin().take(cap).read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(file)
            .and_then(|f| f.take(cap).read_to_end(&mut bytes))
            .with_context(|| format!("reading {}", file.display()))?;
    }
    if bytes.len() > limit {
        anyhow::bail!("{} is over {limit} bytes", file.display());
    }
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} is not UTF-8", file.display()))
}

/// Runs `praxis screen`: exit 0 when nothing is found, 1 when something
/// is, 2 when an input cannot be read or the flags do not fit.
pub async fn run(args: ScreenArgs) -> anyhow::Result<ExitCode> {
    if args.scope == Scope::MemoryWrite && args.pointer.is_some() {
        return Err(usage(
            "--pointer names a record field: it needs --scope record_submit",
        ));
    }
    if args.remote && args.commands {
        return Err(usage(
            "the server decides by --scope and --pointer: drop --commands with --remote",
        ));
    }
    let commands = args.commands
        || args.scope == Scope::MemoryWrite
        || args
            .pointer
            .as_deref()
            .is_some_and(screen::is_command_pointer);
    let client = if args.remote {
        Some(args.server.client()?)
    } else {
        None
    };
    let files = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    // Offline there is no server to bound the text; the bound only keeps a
    // stray huge file from being loaded whole.
    let limit = if args.remote {
        MAX_RECORD_BYTES
    } else {
        16 * 1024 * 1024
    };
    let mut reports = Vec::new();
    for file in &files {
        let text = read(file, limit).map_err(|e| usage(format!("{e:#}")))?;
        let findings = match &client {
            None => praxis_server::screen::findings(&text, commands),
            Some(client) => {
                let scope = match args.scope {
                    Scope::MemoryWrite => ScreenScope::MemoryWrite,
                    Scope::RecordSubmit => ScreenScope::RecordSubmit {
                        pointer: args.pointer.clone(),
                    },
                };
                let request = ScreenRequest {
                    contract_version: CONTRACT_VERSION,
                    scope,
                    text: text.clone(),
                };
                client
                    .screen(&request)
                    .await
                    .map_err(client_error)?
                    .findings
            }
        };
        reports.push((file.display().to_string(), text, findings));
    }
    let total: usize = reports.iter().map(|(_, _, f)| f.len()).sum();
    if json() {
        let files: Vec<Value> = reports
            .iter()
            .map(|(file, text, findings)| {
                let findings: Vec<Value> = findings
                    .iter()
                    .map(|f| {
                        let (line, column) = located(text, f);
                        json!({
                            "rule": f.rule, "start": f.start, "end": f.end,
                            "line": line, "column": column, "remedy": f.remedy,
                        })
                    })
                    .collect();
                json!({ "file": file, "findings": findings })
            })
            .collect();
        emit(&json!({ "passed": total == 0, "files": files }), |_| {
            String::new()
        })?;
    } else {
        for (file, text, findings) in &reports {
            for f in findings {
                let (line, column) = located(text, f);
                println!("{}:{line}:{column}: {}: {}", shown(file), f.rule, f.remedy);
            }
        }
        eprintln!("{total} finding(s) in {} input(s)", reports.len());
    }
    Ok(findings_exit(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: u64) -> ScreenFinding {
        ScreenFinding {
            rule: "r".into(),
            start,
            end: start + 1,
            remedy: "m".into(),
        }
    }

    #[test]
    fn lines_and_columns_count_characters_from_one() {
        let text = "é\nab\u{1F600}cd";
        assert_eq!(located(text, &at(0)), (1, 1));
        assert_eq!(located(text, &at(1)), (1, 2));
        assert_eq!(located(text, &at(2)), (2, 1));
        // The emoji is one character, whatever its UTF-8 length.
        assert_eq!(located(text, &at(5)), (2, 4));
    }
}
