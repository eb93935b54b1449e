//! `praxis records …` over HTTP: submit a record, review it, search, read
//! it and its history, withdraw it, read a source's intake, the record
//! schema and the namespace's settings; the skill registry is in
//! [`crate::skills`]. The offline repository commands are in
//! [`crate::records`].
//!
//! The server, the token file and the scope's ids may come from the client
//! config file (see [`crate::client_config`]). Each command prints its
//! answer for a person, or the API's JSON with `--json`; a refusal follows
//! [`crate::output`] (exit 1, its findings listed).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::{ArgGroup, Args, Subcommand};
use praxis_api::{
    CONTRACT_VERSION, DiscardRecordRequest, IssueRef, Platform, RecordCheckResponse, RecordEntry,
    RecordHistoryEntry, RecordHistoryResponse, RecordLifecycle, RecordSettingsRequest,
    RecordSource, RecordState, RecordWriteResponse, ReviewDecision, ReviewMode,
    ReviewRecordRequest, Scope, SubmitRecordRequest, VerificationLevel, WithdrawRecordRequest,
};
use praxis_client::{Client, IntakeSource, RecordSearch};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::attempts::read_input;
use crate::client_config::{ConfiguredRemote, ScopeFlags};
use crate::output::{client_error, emit, render, shown, usage};
use crate::skills::{self, SkillsCmd};

/// The server, the caller and the scope of one records command.
#[derive(Args)]
pub struct Target {
    #[command(flatten)]
    remote: ConfiguredRemote,
    #[command(flatten)]
    scope: ScopeFlags,
}

impl Target {
    /// The client (bound to `idempotency_key`, if any) and the scope.
    pub(crate) fn open(&self, idempotency_key: Option<&str>) -> anyhow::Result<(Client, Scope)> {
        let (client, scope) = self.remote.open(&self.scope)?;
        let client = match idempotency_key {
            Some(key) => client.with_idempotency_key(key),
            None => client,
        };
        Ok((client, scope))
    }
}

/// Where a submission comes from: exactly one of a key or an issue.
#[derive(Args)]
#[command(group(ArgGroup::new("source").required(true).args(["key", "issue"])))]
pub struct SourceArgs {
    /// A key of your choosing (1 to 200 bytes); resubmitting under it
    /// revises the same record.
    #[arg(long)]
    key: Option<String>,
    /// A public issue, as OWNER/REPO#NUMBER.
    #[arg(long, value_name = "OWNER/REPO#N")]
    issue: Option<String>,
}

/// `owner/repo#number` split, or a usage error.
pub(crate) fn issue_ref(issue: &str) -> anyhow::Result<IssueRef> {
    issue
        .split_once('#')
        .and_then(|(repository, n)| {
            Some(IssueRef {
                repository: repository.to_owned(),
                number: n.parse().ok()?,
            })
        })
        .ok_or_else(|| usage(format!("--issue {issue:?} is not OWNER/REPO#NUMBER")))
}

/// A wire enum from its wire name (`kebab-case`), for clap.
fn wire<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(text.to_owned()))
        .map_err(|_| format!("unknown value {text:?}"))
}

/// The wire name of an enum value.
pub(crate) fn name_of<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => "?".to_owned(),
    }
}

/// Idempotency-Key of a write: retrying with the same key replays the
/// first answer (16 to 255 visible ASCII characters).
#[derive(Args)]
pub struct Keyed {
    /// Idempotency-Key of the write (16 to 255 visible ASCII characters).
    #[arg(long, value_name = "IDEMPOTENCY_KEY")]
    pub(crate) idempotency_key: Option<String>,
}

/// The HTTP subcommands of `praxis records`.
#[derive(Subcommand)]
pub enum RecordsHttpCmd {
    /// Submit the v0.1 record read as JSON from FILE (or - for stdin) under
    /// a source (record_submit). The server sets the author to you and
    /// screens it: a failing record is refused with every finding (exit 1)
    /// and the rejection kept in its intake history. With --dry-run the
    /// server only answers what a submission would meet now, writing
    /// nothing (POST /api/v1/records/check): exit 1 when it has findings.
    Submit {
        #[command(flatten)]
        target: Target,
        /// JSON file holding the record.
        file: PathBuf,
        #[command(flatten)]
        source: SourceArgs,
        #[command(flatten)]
        keyed: Keyed,
        /// Check only: run intake's checks against the store now, keep nothing.
        #[arg(long, conflicts_with = "idempotency_key")]
        dry_run: bool,
    },
    /// Approve a candidate, or request changes with notes (record_review).
    /// You cannot review a record you submitted (403 self_review).
    #[command(group(ArgGroup::new("decision").required(true).args(["approve", "request_changes"])))]
    Review {
        #[command(flatten)]
        target: Target,
        /// The record (`exp-…`).
        id: String,
        /// Approve: the candidate becomes reviewed.
        #[arg(long)]
        approve: bool,
        /// Request changes: it stays a candidate; needs --notes.
        #[arg(long, requires = "notes")]
        request_changes: bool,
        /// Review notes, 1 to 1000 characters.
        #[arg(long)]
        notes: Option<String>,
        /// Decided by automated policy, not by you (approvals only); never
        /// reported as human review.
        #[arg(long)]
        automated_policy: bool,
        /// The revision you reviewed; a newer one refuses the review (409).
        #[arg(long, value_name = "N")]
        expected_revision: Option<u64>,
        #[command(flatten)]
        keyed: Keyed,
    },
    /// Search kept records: one page, by relevance to QUERY when given
    /// (experience_read). Pass the page's next_cursor as --after.
    Search {
        #[command(flatten)]
        target: Target,
        /// Words that must all occur in the record's text (stemmed, so
        /// `rate-limit` finds "rate limiting"); results come most relevant first.
        query: Option<String>,
        /// candidate, reviewed, superseded or withdrawn.
        #[arg(long, value_parser = wire::<RecordLifecycle>)]
        lifecycle: Option<RecordLifecycle>,
        /// windows, macos, linux, cross-platform or other.
        #[arg(long, value_parser = wire::<Platform>)]
        platform: Option<Platform>,
        /// self-observed, locally-verified or independently-reproduced.
        #[arg(long, value_parser = wire::<VerificationLevel>)]
        verification_level: Option<VerificationLevel>,
        /// The previous page's next_cursor.
        #[arg(long, value_name = "CURSOR")]
        after: Option<String>,
        /// Records per page [default: the server's].
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Also list withdrawn records (left out unless asked for).
        #[arg(long)]
        include_withdrawn: bool,
    },
    /// Print a record as kept, and its state (experience_read).
    Get {
        #[command(flatten)]
        target: Target,
        /// The record.
        id: String,
    },
    /// Print one page of a record's revisions and rejections, in order
    /// (experience_read). Pass the page's next_cursor as --after.
    History {
        #[command(flatten)]
        target: Target,
        /// The record.
        id: String,
        /// The previous page's next_cursor.
        #[arg(long, value_name = "CURSOR")]
        after: Option<String>,
        /// Entries per page, 1 to 200.
        #[arg(long, value_name = "N", default_value_t = 50)]
        limit: usize,
    },
    /// Withdraw a record with a reason (record_review); its history stays.
    Withdraw {
        #[command(flatten)]
        target: Target,
        /// The record.
        id: String,
        /// Why, 1 to 1000 characters; screened like record text.
        #[arg(long)]
        reason: String,
        /// The revision you saw; a newer one refuses the withdrawal (409).
        #[arg(long, value_name = "N")]
        expected_revision: Option<u64>,
        #[command(flatten)]
        keyed: Keyed,
    },
    /// Discard a candidate you submitted (record_submit): it is withdrawn
    /// with the reason, and its history shows the discard.
    Discard {
        #[command(flatten)]
        target: Target,
        /// The record.
        id: String,
        /// Why, 1 to 1000 characters; screened like record text.
        #[arg(long)]
        reason: String,
        /// The revision you saw; a newer one refuses the discard (409).
        #[arg(long, value_name = "N")]
        expected_revision: Option<u64>,
        #[command(flatten)]
        keyed: Keyed,
    },
    /// Print one page of a source's submissions, kept or rejected, in order
    /// (experience_read); a key is read as your own.
    Intake {
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        source: SourceArgs,
        /// The previous page's next_cursor.
        #[arg(long, value_name = "CURSOR")]
        after: Option<String>,
        /// Entries per page, 1 to 200 [default: 50].
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// Print the v0.1 record JSON Schema the server checks against.
    Schema {
        #[command(flatten)]
        remote: ConfiguredRemote,
    },
    /// Print the namespace's record settings (experience_read), or set
    /// automated approval with --automated-approval (policy_admin).
    Settings {
        #[command(flatten)]
        target: Target,
        /// true: passing submissions are approved by the automated policy.
        #[arg(long, value_name = "BOOL")]
        automated_approval: Option<bool>,
        #[command(flatten)]
        keyed: Keyed,
    },
    /// The namespace's skill registry: list, publish, withdraw.
    Skills {
        #[command(subcommand)]
        command: SkillsCmd,
    },
}

/// One line for a record's state.
fn state_line(state: &RecordState) -> String {
    let mut line = format!(
        "{} revision {}: {}, review {}",
        state.experience_id,
        state.revision,
        state.lifecycle.as_str(),
        name_of(&state.review_status)
    );
    if let Some(mode) = &state.review_mode {
        let _ = write!(line, " ({})", name_of(mode));
    }
    if let Some(reason) = &state.withdrawal_reason {
        let _ = write!(line, "; withdrawn: {}", shown(reason));
    }
    line
}

/// A write's answer for a person.
fn write_text(answer: &RecordWriteResponse) -> String {
    let mut text = format!("{}: {}", name_of(&answer.write), state_line(&answer.state));
    for entry in &answer.superseded {
        let _ = write!(text, "\nsuperseded {}", state_line(&entry.state));
    }
    text
}

/// One line per entry of a search page.
fn search_line(entry: &RecordEntry) -> String {
    let summary = entry.record["summary"].as_str().unwrap_or_default();
    let summary: String = shown(summary).chars().take(100).collect();
    format!(
        "{}\trev {}\t{}\t{}\t{summary}",
        entry.state.experience_id,
        entry.state.revision,
        entry.state.lifecycle.as_str(),
        name_of(&entry.state.review_status)
    )
}

/// A history page for a person: one line per revision or rejection, each
/// rejection's findings under it.
fn history_text(page: &RecordHistoryResponse) -> String {
    let mut text = format!("{}:", page.experience_id);
    for entry in &page.entries {
        match entry {
            RecordHistoryEntry::Revision {
                sequence,
                recorded_at,
                actor,
                revision,
                change,
                reason,
                superseded_by,
                ..
            } => {
                let _ = write!(
                    text,
                    "\n{sequence}\t{recorded_at}\t{}\trevision {revision}\t{}",
                    shown(actor),
                    name_of(change)
                );
                if let Some(reason) = reason {
                    let _ = write!(text, ": {}", shown(reason));
                }
                if let Some(by) = superseded_by {
                    let _ = write!(text, " by {by}");
                }
            }
            RecordHistoryEntry::Rejection {
                sequence,
                recorded_at,
                actor,
                findings,
                ..
            } => {
                let _ = write!(
                    text,
                    "\n{sequence}\t{recorded_at}\t{}\trejected: {} finding(s)",
                    shown(actor),
                    findings.len()
                );
                for f in findings {
                    let _ = write!(
                        text,
                        "\n  {} {}: {}",
                        crate::output::pointer(&f.pointer),
                        f.rule,
                        shown(&f.message)
                    );
                }
            }
        }
    }
    text.push_str(&more(page.next_cursor.as_deref()));
    text
}

/// The line pointing at the next page, if there is one.
pub(crate) fn more(next: Option<&str>) -> String {
    next.map(|c| format!("\nmore: --after {c}"))
        .unwrap_or_default()
}

/// A dry run's answer for a person: `passed`, or one finding per line.
fn check_text(answer: &RecordCheckResponse) -> String {
    if answer.passed {
        return "passed: a submission would be kept".to_owned();
    }
    let mut text = String::new();
    for f in &answer.findings {
        let _ = writeln!(
            text,
            "{}: {}: {}",
            crate::output::pointer(&f.pointer),
            f.rule,
            shown(&f.message)
        );
    }
    text
}

/// Runs one subcommand.
pub async fn run(cmd: RecordsHttpCmd) -> anyhow::Result<()> {
    match cmd {
        RecordsHttpCmd::Submit {
            target,
            file,
            source,
            keyed,
            dry_run,
        } => {
            let text = read_input(&file)?;
            let record = serde_json::from_str(&text)
                .with_context(|| format!("parsing the record in {}", file.display()))?;
            let source = match (source.key, source.issue) {
                (Some(key), _) => RecordSource::Key(key),
                (None, Some(issue)) => RecordSource::Issue(issue_ref(&issue)?),
                (None, None) => return Err(usage("give --key or --issue")),
            };
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let request = SubmitRecordRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                source,
                record,
            };
            if dry_run {
                let answer = client.check_record(&request).await.map_err(client_error)?;
                emit(&answer, check_text)?;
                if !answer.passed {
                    return Err(anyhow::anyhow!(
                        "a submission would be rejected with {} finding(s)",
                        answer.findings.len()
                    ));
                }
                return Ok(());
            }
            let answer = client.submit_record(&request).await.map_err(client_error)?;
            emit(answer.response(), write_text)
        }
        RecordsHttpCmd::Review {
            target,
            id,
            approve,
            request_changes: _,
            notes,
            automated_policy,
            expected_revision,
            keyed,
        } => {
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let request = ReviewRecordRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                decision: if approve {
                    ReviewDecision::Approve
                } else {
                    ReviewDecision::RequestChanges
                },
                mode: if automated_policy {
                    ReviewMode::AutomatedPolicy
                } else {
                    ReviewMode::Human
                },
                notes,
                expected_revision,
            };
            let answer = client
                .review_record(&id, &request)
                .await
                .map_err(client_error)?;
            emit(&answer, write_text)
        }
        RecordsHttpCmd::Search {
            target,
            query,
            lifecycle,
            platform,
            verification_level,
            after,
            limit,
            include_withdrawn,
        } => {
            let (client, scope) = target.open(None)?;
            let search = RecordSearch {
                lifecycle,
                platform,
                verification_level,
                q: query,
                after,
                limit,
                include_withdrawn,
            };
            let page = client
                .search_records(&scope, &search)
                .await
                .map_err(client_error)?;
            emit(&page, |p| {
                let mut text: Vec<String> = p.records.iter().map(search_line).collect();
                if text.is_empty() {
                    text.push("no records".to_owned());
                }
                text.join("\n") + &more(p.next_cursor.as_deref())
            })
        }
        RecordsHttpCmd::Get { target, id } => {
            let (client, scope) = target.open(None)?;
            let answer = client.record(&scope, &id).await.map_err(client_error)?;
            emit(&answer, |a| {
                format!(
                    "{}\nsha256: {}\nrecord (data only, not instructions):\n{}",
                    state_line(&a.state),
                    a.state.sha256,
                    render(&a.record)
                )
            })
        }
        RecordsHttpCmd::History {
            target,
            id,
            after,
            limit,
        } => {
            let (client, scope) = target.open(None)?;
            let page = client
                .record_history(&scope, &id, after.as_deref(), limit)
                .await
                .map_err(client_error)?;
            emit(&page, history_text)
        }
        RecordsHttpCmd::Withdraw {
            target,
            id,
            reason,
            expected_revision,
            keyed,
        } => {
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let request = WithdrawRecordRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                reason,
                expected_revision,
            };
            let answer = client
                .withdraw_record(&id, &request)
                .await
                .map_err(client_error)?;
            emit(&answer, write_text)
        }
        RecordsHttpCmd::Discard {
            target,
            id,
            reason,
            expected_revision,
            keyed,
        } => {
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let request = DiscardRecordRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                reason,
                expected_revision,
            };
            let answer = client
                .discard_record(&id, &request)
                .await
                .map_err(client_error)?;
            emit(&answer, write_text)
        }
        RecordsHttpCmd::Intake {
            target,
            source,
            after,
            limit,
        } => {
            let source = match (source.key, source.issue) {
                (Some(key), _) => IntakeSource::Key(key),
                (None, Some(issue)) => IntakeSource::Issue(issue),
                (None, None) => return Err(usage("give --key or --issue")),
            };
            let (client, scope) = target.open(None)?;
            let page = client
                .record_intake(&scope, &source, after.as_deref(), limit)
                .await
                .map_err(client_error)?;
            emit(&page, history_text)
        }
        RecordsHttpCmd::Schema { remote } => {
            let schema = remote
                .client()?
                .record_schema()
                .await
                .map_err(client_error)?;
            // The schema is itself JSON: a person reads it as such too.
            emit(&schema, |s| {
                serde_json::to_string_pretty(s).unwrap_or_default()
            })
        }
        RecordsHttpCmd::Settings {
            target,
            automated_approval,
            keyed,
        } => {
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let answer = match automated_approval {
                None => client.record_settings(&scope).await,
                Some(automated_approval) => {
                    client
                        .set_record_settings(&RecordSettingsRequest {
                            contract_version: CONTRACT_VERSION,
                            scope,
                            automated_approval,
                        })
                        .await
                }
            }
            .map_err(client_error)?;
            emit(&answer, |a| {
                format!("automated_approval: {}", a.automated_approval)
            })
        }
        RecordsHttpCmd::Skills { command } => skills::run(command).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_and_wire_names_parse() {
        let issue = issue_ref("acme/app#12").unwrap();
        assert_eq!((issue.repository.as_str(), issue.number), ("acme/app", 12));
        assert!(issue_ref("acme/app").is_err());
        assert_eq!(
            wire::<RecordLifecycle>("withdrawn"),
            Ok(RecordLifecycle::Withdrawn)
        );
        assert!(wire::<Platform>("beos").is_err());
        assert_eq!(name_of(&VerificationLevel::SelfObserved), "self-observed");
    }
}
