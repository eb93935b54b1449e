//! `praxis records check`: a submission checked offline as the server's
//! intake checks it (`POST /api/v1/records`), with no store and no server.
//!
//! Each file holds one record as it would be submitted (the `record` of a
//! submission; the fields the server owns may be left out). It is parsed
//! as strictly as the server parses a body, bounded as the server bounds
//! one, and then prepared and checked by the same domain function the
//! writer runs, `lifecycle::submit`: the author bound, the lifecycle,
//! review and screening fields set, then the schema, the policy gate and
//! screening. What needs the namespace (related records and skill releases
//! resolving, which source holds which id) is left to
//! `POST /api/v1/records/check`, which runs it against the store.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;
use praxis_domain::Refusal;
use praxis_domain::canonical::parse_strict;
use praxis_domain::records::Finding;
use praxis_domain::records::lifecycle::{self, Source};
use praxis_domain::records::view::View;
use serde_json::{Value, json};

use crate::output::{emit, findings_exit, json, shown, usage};

/// The largest body the server's intake takes.
const BODY_LIMIT: usize = praxis_server::RECORD_BODY_LIMIT;

/// The author bound when neither `--author` nor the record names one.
const DEFAULT_AUTHOR: &str = "local";

/// Arguments of `praxis records check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Record files (JSON), or - for stdin.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The subject the server will bind as `provenance.author_ref` (your
    /// credential's subject). Default: the record's own `author_ref`, else
    /// `local`.
    #[arg(long)]
    author: Option<String>,
    /// Check as submitted from this public issue (OWNER/REPO#NUMBER): the
    /// server then sets `provenance.source_issue` and requires a
    /// `github:<login>` author. Default: a client key, which changes nothing
    /// in the record.
    #[arg(long, value_name = "OWNER/REPO#N")]
    issue: Option<String>,
}

/// Every finding for one file's bytes, as intake would report them.
fn check_bytes(bytes: &[u8], author: Option<&str>, source: &Source) -> Vec<Finding> {
    if bytes.len() > BODY_LIMIT {
        return vec![Finding::new(
            "",
            "request_too_large",
            format!("the server takes a submission of at most {BODY_LIMIT} bytes"),
        )];
    }
    let record = match parse_strict(bytes) {
        Ok(record) => record,
        Err(e) => {
            return vec![Finding::new(
                e.path().unwrap_or(""),
                "json.malformed",
                e.to_string(),
            )];
        }
    };
    let author = author
        .map(str::to_owned)
        .or_else(|| View(&record).author().map(str::to_owned))
        .unwrap_or_else(|| DEFAULT_AUTHOR.to_owned());
    match lifecycle::submit(record, &author, source, praxis_server::admin::now(), None) {
        Ok(_) => Vec::new(),
        Err(Refusal::RecordInvalid(findings)) => findings,
        Err(other) => vec![Finding::new("", "refused", other.to_string())],
    }
}

/// Reads a file (or stdin for `-`), at most one byte over the limit, so an
/// oversized file is seen as such without being loaded whole.
fn read(file: &Path) -> anyhow::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let limit = BODY_LIMIT as u64 + 1;
    if file.as_os_str() == "-" {
        std::io::stdin().take(limit).read_to_end(&mut bytes)?;
    } else {
        std::fs::File::open(file)
            .and_then(|f| f.take(limit).read_to_end(&mut bytes))
            .with_context(|| format!("reading {}", file.display()))?;
    }
    Ok(bytes)
}

/// The source the record is checked under, from `--issue`.
fn source_of(issue: Option<&str>) -> anyhow::Result<Source> {
    let Some(issue) = issue else {
        return Ok(Source::Key {
            key: "praxis-records-check".into(),
        });
    };
    let issue = crate::records_http::issue_ref(issue)?;
    let source = Source::Issue {
        repository: issue.repository,
        number: issue.number,
    };
    let problems = source.problems();
    if let Some(first) = problems.first() {
        return Err(usage(format!("--issue: {}", first.message)));
    }
    Ok(source)
}

/// Runs `praxis records check`: exit 0 when no file has a finding, 1 when
/// one has, 2 when a file cannot be read or the flags are wrong.
pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let source = source_of(args.issue.as_deref())?;
    let mut reports = Vec::new();
    for file in &args.files {
        let bytes = read(file).map_err(|e| usage(format!("{e:#}")))?;
        let findings = check_bytes(&bytes, args.author.as_deref(), &source);
        reports.push((file.display().to_string(), findings));
    }
    let total: usize = reports.iter().map(|(_, f)| f.len()).sum();
    let report = json!({
        "passed": total == 0,
        "files": reports.iter().map(|(file, findings)| json!({
            "file": file,
            "passed": findings.is_empty(),
            "findings": findings.iter().map(|f| json!({
                "pointer": f.shown_pointer(),
                "rule": f.rule,
                "message": f.message,
            })).collect::<Vec<Value>>(),
        })).collect::<Vec<Value>>(),
    });
    if json() {
        emit(&report, |_| String::new())?;
    } else {
        for (file, findings) in &reports {
            for finding in findings {
                println!("{}: {finding}", shown(file));
            }
        }
        eprintln!("{total} finding(s) in {} file(s)", reports.len());
    }
    Ok(findings_exit(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Source {
        Source::Key { key: "k".into() }
    }

    #[test]
    fn the_example_record_passes_and_a_broken_one_is_found_out() {
        let record = praxis_api::examples::record("root-ci");
        let bytes = serde_json::to_vec(&record).unwrap();
        assert_eq!(check_bytes(&bytes, None, &key()), []);
        let mut bad = record;
        bad["attempts"][1]["sequence"] = json!(5);
        let findings = check_bytes(&serde_json::to_vec(&bad).unwrap(), None, &key());
        assert!(findings.iter().any(|f| f.rule == "gate.attempt_sequence"));
    }

    #[test]
    fn bytes_the_server_would_not_parse_or_take_are_one_finding_at_the_root() {
        let dup = check_bytes(br#"{"a": 1, "a": 2}"#, None, &key());
        assert_eq!(dup.len(), 1);
        assert_eq!(dup[0].rule, "json.malformed");
        let big = vec![b' '; BODY_LIMIT + 1];
        let found = check_bytes(&big, None, &key());
        assert_eq!(
            (found[0].shown_pointer(), found[0].rule.as_str()),
            ("/", "request_too_large")
        );
        let not_object = check_bytes(b"[]", None, &key());
        assert_eq!(
            not_object[0].to_string(),
            "/: schema.type: a record is a JSON object"
        );
    }

    #[test]
    fn an_issue_source_binds_the_issue_and_wants_a_github_author() {
        let record = praxis_api::examples::record("root-ci");
        let bytes = serde_json::to_vec(&record).unwrap();
        let issue = source_of(Some("acme/app#12")).unwrap();
        let findings = check_bytes(&bytes, Some("alice"), &issue);
        assert!(
            findings.iter().any(|f| f.rule == "gate.author_ref"),
            "{findings:?}"
        );
        assert!(source_of(Some("acme#12")).is_err());
    }
}
