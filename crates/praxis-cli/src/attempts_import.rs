//! `praxis attempts import` over HTTP, in requests the server accepts.
//!
//! The server takes bodies up to [`praxis_server::BODY_LIMIT`]; a larger
//! store is checked whole here first (nothing is sent if any record is
//! invalid), then sent in consecutive chunks under that limit, each
//! renumbered from 0. Each chunk is all or nothing, the import as a whole
//! is not: when a chunk is refused, the chunks before it stay imported, and
//! running the same import again answers those records `unchanged` and
//! carries on. A progress bar with rate and ETA goes to stderr when it is
//! a terminal.

use std::fmt::Write as _;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use praxis_api::{
    CONTRACT_VERSION, ImportRequest, ImportResponse, LegacyRecord, LegacyStore, Problem, Scope,
};
use praxis_client::{Client, ClientError};

use crate::output::{emit, findings, refused};

/// Room left in each request for the wrapper's variable parts (sequence
/// numbers renumbered, `next_sequence`), so that a chunk never reaches the
/// limit.
const SLACK: usize = 1024;

/// Checks the whole store as the server would, so that an invalid record
/// refuses the import before anything is sent.
fn check(text: &str) -> anyhow::Result<()> {
    let store: praxis_domain::attempts::LegacyStore =
        serde_json::from_str(text).context("parsing the store")?;
    if let Err(problems) = store.validate() {
        for p in &problems {
            // Named as the request's fields, as the server would name them.
            eprintln!("/store{} {}: {}", p.path, p.code, p.message);
        }
        anyhow::bail!(
            "the store has {} problem(s); nothing was imported",
            problems.len()
        );
    }
    Ok(())
}

/// Splits `records` into consecutive chunks whose requests stay under
/// `limit` bytes, or says which record cannot fit in any request.
fn chunks(
    records: Vec<LegacyRecord>,
    scope: &Scope,
    limit: usize,
) -> anyhow::Result<Vec<Vec<LegacyRecord>>> {
    let empty = ImportRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.clone(),
        store: LegacyStore {
            next_sequence: 0,
            records: Vec::new(),
        },
    };
    let budget = limit.saturating_sub(serde_json::to_vec(&empty)?.len() + SLACK);
    let mut out: Vec<Vec<LegacyRecord>> = Vec::new();
    let mut current: Vec<LegacyRecord> = Vec::new();
    let mut used = 0;
    for (i, record) in records.into_iter().enumerate() {
        // The record, its separating comma, and a sequence of any width.
        let size = serde_json::to_vec(&record)?.len() + 1 + 20;
        if size > budget {
            anyhow::bail!(
                "record {i} is {size} bytes, more than the server accepts in one request \
                 ({limit} bytes with the request around it); import this store with --offline \
                 (on a SQLite store, with the server stopped)"
            );
        }
        if used + size > budget {
            out.push(std::mem::take(&mut current));
            used = 0;
        }
        used += size;
        current.push(record);
    }
    if !current.is_empty() {
        out.push(current);
    }
    Ok(out)
}

/// A chunk's problem with record indexes and fields counted from the start
/// of the whole store, not of the chunk.
fn in_store(mut problem: Problem, offset: usize) -> Problem {
    let shift = |field: &str| -> String {
        let (head, rest) = match field.find("/records/") {
            Some(at) => field.split_at(at + "/records/".len()),
            None => return field.to_owned(),
        };
        let (index, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        match index.parse::<usize>() {
            Ok(i) => format!("{head}{}{tail}", i + offset),
            Err(_) => field.to_owned(),
        }
    };
    for item in &mut problem.errors {
        item.index = item.index.map(|i| i + offset as u64);
        item.field = shift(&item.field);
    }
    problem.field = problem.field.as_deref().map(shift);
    problem
}

/// Imports the legacy store `text` into `scope`, chunk by chunk, and
/// prints how many records were imported.
pub async fn over_http(client: &Client, scope: Scope, text: &str) -> anyhow::Result<()> {
    check(text)?;
    let store: LegacyStore = serde_json::from_str(text).context("parsing the store")?;
    let total = store.records.len();
    let parts = chunks(store.records, &scope, praxis_server::BODY_LIMIT)?;
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "importing {bar:40} {human_pos}/{human_len} records, {per_sec}, eta {eta}",
        )
        .expect("a valid progress template"),
    );
    let (mut inserted, mut unchanged, mut offset) = (0, 0, 0);
    let count = parts.len();
    for (n, mut records) in parts.into_iter().enumerate() {
        let len = records.len();
        for (i, r) in records.iter_mut().enumerate() {
            r.sequence = i as u64;
        }
        let request = ImportRequest {
            contract_version: CONTRACT_VERSION,
            scope: scope.clone(),
            store: LegacyStore {
                next_sequence: len as u64,
                records,
            },
        };
        let answer = match client.import_attempts(&request).await {
            Ok(answer) => answer,
            Err(error) => {
                bar.abandon();
                let before = format!(
                    "\nrequest {} of {count} (records {offset} to {}) was refused; \
                     {inserted} record(s) imported before it stay imported, and running the \
                     same import again answers them unchanged",
                    n + 1,
                    offset + len - 1
                );
                return Err(match error {
                    ClientError::Problem(problem) => {
                        let problem = in_store(problem, offset);
                        let advice = findings(&problem) + &before;
                        refused(problem, advice)
                    }
                    other => anyhow::Error::new(other).context(format!(
                        "sending records {offset} to {}{before}",
                        offset + len - 1
                    )),
                });
            }
        };
        inserted += answer.inserted;
        unchanged += answer.unchanged;
        offset += len;
        bar.inc(len as u64);
    }
    bar.finish_and_clear();
    report(inserted, unchanged, count)
}

/// Prints what an import did: the API's answer with `--json`, else one
/// line (naming the requests when there were several).
pub fn report(inserted: u64, unchanged: u64, requests: usize) -> anyhow::Result<()> {
    let answer = ImportResponse {
        contract_version: CONTRACT_VERSION,
        inserted,
        unchanged,
    };
    emit(&answer, |a| {
        let mut line = format!(
            "imported {} records ({} unchanged)",
            a.inserted, a.unchanged
        );
        if requests > 1 {
            let _ = write!(line, " in {requests} requests");
        }
        line
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use praxis_api::Visibility;
    use serde_json::json;

    fn record(i: u64, pad: usize) -> LegacyRecord {
        serde_json::from_value(json!({
            "sequence": i,
            "outcome": {
                "case_id": format!("c{i}{}", "x".repeat(pad)), "subject": "s",
                "action_id": "a", "hypothesis_id": "h", "verifier_rule_id": "r",
                "stage": "active", "status": "false_positive", "confidence": 900_000,
                "rationale": "r", "evidence_ids": []
            },
            "disposition": "verification_rejected"
        }))
        .unwrap()
    }

    fn scope() -> Scope {
        Scope {
            project_id: "p".into(),
            mission_id: None,
            agent_id: "a".into(),
            visibility: Visibility::Shared,
        }
    }

    #[test]
    fn chunks_stay_under_the_limit_and_keep_the_order() {
        let records: Vec<_> = (0..500).map(|i| record(i, 100)).collect();
        let parts = chunks(records.clone(), &scope(), 16 * 1024).unwrap();
        assert!(parts.len() > 1);
        for part in &parts {
            let request = ImportRequest {
                contract_version: 1,
                scope: scope(),
                store: LegacyStore {
                    next_sequence: part.len() as u64,
                    records: part.clone(),
                },
            };
            assert!(serde_json::to_vec(&request).unwrap().len() < 16 * 1024);
        }
        assert_eq!(parts.concat(), records);
    }

    #[test]
    fn a_record_too_large_for_any_request_says_to_import_offline() {
        let e = chunks(vec![record(0, 20_000)], &scope(), 16 * 1024).unwrap_err();
        assert!(e.to_string().contains("--offline"), "{e}");
    }

    #[test]
    fn a_chunk_problem_names_records_of_the_whole_store() {
        let problem: Problem = serde_json::from_value(json!({
            "type": "t", "title": "t", "status": 409, "detail": "d", "code": "identity_conflict",
            "errors": [
                {"index": 2, "field": "/store/records/2/outcome", "code": "c", "detail": "d"},
                {"field": "/store/next_sequence", "code": "c", "detail": "d"}
            ]
        }))
        .unwrap();
        let shifted = in_store(problem, 100);
        assert_eq!(shifted.errors[0].index, Some(102));
        assert_eq!(shifted.errors[0].field, "/store/records/102/outcome");
        assert_eq!(shifted.errors[1].field, "/store/next_sequence");
    }
}
