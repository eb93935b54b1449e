//! How every command answers, the same way: the API's JSON on stdout with
//! `--json`, text for a person without it; a refusal as one line on stderr
//! (and, with `--json`, its problem document on stdout); and the exit code.
//!
//! Exit codes: 0 success; 1 a refused or failed operation, or findings;
//! 2 a usage error (clap's own, and [`usage`] errors found after parsing).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use praxis_api::{CurrentRevision, Problem};
use praxis_client::ClientError;
use serde::Serialize;
use serde_json::Value;

/// Whether `--json` was given; set once, before any command runs.
static JSON: AtomicBool = AtomicBool::new(false);

/// The exit code of a usage error, as clap uses it.
const USAGE: u8 = 2;

/// Records whether the answer is to be JSON.
pub fn set_json(json: bool) {
    JSON.store(json, Ordering::Relaxed);
}

/// Whether the answer is to be JSON (`--json`).
pub fn json() -> bool {
    JSON.load(Ordering::Relaxed)
}

/// Prints `value`: as pretty JSON with `--json`, else as `human` renders it.
pub fn emit<T: Serialize>(value: &T, human: impl FnOnce(&T) -> String) -> anyhow::Result<()> {
    if json() {
        println!("{}", serde_json::to_string_pretty(value)?);
    } else {
        let text = human(value);
        println!("{}", text.trim_end_matches('\n'));
    }
    Ok(())
}

/// Prints `value`, for a person as indented `key: value` lines.
pub fn emit_any<T: Serialize>(value: &T) -> anyhow::Result<()> {
    let tree = serde_json::to_value(value)?;
    emit(&tree, render)
}

/// A JSON answer as indented `key: value` lines, for a person to read:
/// keys sorted, nested objects and lists indented under their key, `contract_version`
/// and `data_only` (the same in every answer) left out, and control
/// characters escaped so that stored text cannot rewrite the terminal.
pub fn render(value: &Value) -> String {
    let mut out = String::new();
    render_into(&mut out, value, 0);
    out
}

fn render_into(out: &mut String, value: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                if depth == 0 && matches!(key.as_str(), "contract_version" | "data_only") {
                    continue;
                }
                match scalar(item) {
                    Some(text) if !text.contains('\n') => {
                        let _ = writeln!(out, "{pad}{key}: {text}");
                    }
                    Some(text) => {
                        let _ = writeln!(out, "{pad}{key}: |");
                        for line in text.lines() {
                            let _ = writeln!(out, "{pad}  {line}");
                        }
                    }
                    None => {
                        let _ = writeln!(out, "{pad}{key}:");
                        render_into(out, item, depth + 1);
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                if let Some(text) = scalar(item) {
                    let _ = writeln!(out, "{pad}- {text}");
                } else {
                    let mut inner = String::new();
                    render_into(&mut inner, item, depth + 1);
                    // The first line of the item carries the dash.
                    let inner = inner.replacen(&format!("{pad}  "), &format!("{pad}- "), 1);
                    out.push_str(&inner);
                }
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", scalar(other).unwrap_or_default());
        }
    }
}

/// A value printed on its key's line, or `None` for a non-empty object or
/// list.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("-".to_owned()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(shown(s)),
        Value::Array(a) if a.is_empty() => Some("(none)".to_owned()),
        Value::Object(o) if o.is_empty() => Some("{}".to_owned()),
        _ => None,
    }
}

/// The exit status of a check that reports findings: 0 when it found
/// none, 1 when it found some (2 stays for usage errors).
pub fn findings_exit(total: usize) -> ExitCode {
    if total == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `text` safe to show on a terminal: control characters other than
/// newline and tab are escaped.
pub fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A JSON pointer as the CLI shows it: `/` for the whole document, whose
/// RFC 6901 pointer is empty and would print as nothing.
pub fn pointer(pointer: &str) -> &str {
    if pointer.is_empty() { "/" } else { pointer }
}

/// A refusal the server sent, with lines of advice for a person after the
/// one-line summary.
#[derive(Debug)]
pub struct Refused {
    problem: Problem,
    advice: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&problem_line(&self.problem))?;
        f.write_str(&self.advice)
    }
}

impl std::error::Error for Refused {}

/// The server's refusal `problem`, with `advice` (lines, each starting
/// with a newline) printed after it.
pub fn refused(problem: Problem, advice: String) -> anyhow::Error {
    anyhow::Error::new(Refused { problem, advice })
}

/// A client error as the CLI reports it: a refusal with every finding and,
/// on a conflict, the current revision; anything else as it is.
pub fn client_error(error: ClientError) -> anyhow::Error {
    match error {
        ClientError::Problem(problem) => {
            let advice = findings(&problem);
            refused(problem, advice)
        }
        other => other.into(),
    }
}

/// A problem's findings (`errors`) and current revision, one per line,
/// each line starting with a newline.
pub fn findings(problem: &Problem) -> String {
    let mut text = String::new();
    for item in &problem.errors {
        let _ = write!(
            text,
            "\n  {} {}: {}",
            pointer(&item.field),
            item.code,
            shown(&item.detail)
        );
    }
    if let Some(revision) = &problem.current_revision {
        let revision = match revision {
            CurrentRevision::Text(text) => text.clone(),
            CurrentRevision::Number(n) => n.to_string(),
        };
        let _ = write!(text, "\ncurrent_revision: {revision}");
    }
    text
}

/// One line naming the status, code, detail and offending field.
pub fn problem_line(problem: &Problem) -> String {
    let mut line = format!(
        "{} {}: {}",
        problem.status,
        problem.code,
        shown(&problem.detail)
    );
    if let Some(field) = &problem.field {
        let _ = write!(line, " (field {field})");
    }
    line
}

/// A mistake in how the command was called, found after parsing (a scope
/// id neither flag nor config gives, for example): exit 2, like clap's own.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// A usage error saying `message`.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(Usage(message.into()))
}

/// The server's problem document, wherever in the chain `error` holds it.
fn problem_of(error: &anyhow::Error) -> Option<&Problem> {
    error.chain().find_map(|cause| {
        cause
            .downcast_ref::<Refused>()
            .map(|r| &r.problem)
            .or_else(|| cause.downcast_ref::<ClientError>()?.problem())
    })
}

/// Ends a command: its own exit code on success; on an error, one clear
/// line on stderr (and the problem document on stdout with `--json`), then
/// 2 for a usage error and 1 for anything else.
pub fn finish(result: anyhow::Result<ExitCode>) -> ExitCode {
    let error = match result {
        Ok(code) => return code,
        Err(error) => error,
    };
    if json()
        && let Some(problem) = problem_of(&error)
        && let Ok(text) = serde_json::to_string_pretty(problem)
    {
        println!("{text}");
    }
    // A problem the chain holds bare (not yet rendered) still gets its
    // findings listed.
    match error
        .downcast_ref::<ClientError>()
        .and_then(ClientError::problem)
    {
        Some(problem) => eprintln!("praxis: {}{}", problem_line(problem), findings(problem)),
        None => eprintln!("praxis: {error:#}"),
    }
    if error.chain().any(|c| c.downcast_ref::<Usage>().is_some()) {
        ExitCode::from(USAGE)
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_render_as_indented_lines() {
        let text = render(&json!({
            "contract_version": 1,
            "id": "c1",
            "grants": [{"project_id": "p", "mission_id": null}],
            "capabilities": ["a", "b"],
            "none": [],
            "note": "two\nlines",
            "bell": "x\u{7}"
        }));
        // Keys come sorted, as serde_json's maps hold them.
        assert_eq!(
            text,
            "bell: x\\u{7}\ncapabilities:\n  - a\n  - b\ngrants:\n  - mission_id: -\n    \
             project_id: p\nid: c1\nnone: (none)\nnote: |\n  two\n  lines\n"
        );
    }

    #[test]
    fn a_problem_is_one_line_with_its_field() {
        let problem: Problem = serde_json::from_value(json!({
            "type": "urn:praxis:problem:self_review", "title": "t", "status": 403,
            "detail": "a reviewer cannot review their own record", "code": "self_review",
            "field": "/review"
        }))
        .unwrap();
        assert_eq!(
            problem_line(&problem),
            "403 self_review: a reviewer cannot review their own record (field /review)"
        );
        let e = refused(problem, String::new());
        assert_eq!(problem_of(&e).map(|p| p.status), Some(403));
    }

    #[test]
    fn the_root_pointer_shows_as_a_slash() {
        assert_eq!(pointer(""), "/");
        assert_eq!(pointer("/record/title"), "/record/title");
    }

    #[test]
    fn usage_errors_are_told_apart() {
        assert_eq!(finish(Err(usage("give --project"))), ExitCode::from(2));
        assert_eq!(finish(Err(anyhow::anyhow!("io"))), ExitCode::FAILURE);
        assert_eq!(finish(Ok(ExitCode::SUCCESS)), ExitCode::SUCCESS);
    }
}
