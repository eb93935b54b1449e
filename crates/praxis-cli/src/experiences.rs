//! `praxis experiences …`: development experiences over HTTP: record an
//! attempt, report events on it, read it, page its history, walk its
//! lineage, export observations, and withdraw or inspect one.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use praxis_api::{
    CONTRACT_VERSION, ContentReference, ExperienceHistoryRequest, ExperienceOutcome,
    ExportExperiencesRequest, InspectWithdrawalRequest, NewExperience, NewExperienceEvent,
    ObservationKey, PinnedObservation, ReadEventRequest, ReadExperienceRequest,
    RecordExperienceRequest, ReportEventRequest, WithdrawObservationRequest,
};

use crate::attempts::{Remote, ScopeArgs, print_json};

/// Events per history page.
const HISTORY_PAGE: u32 = 500;

/// What an event says happened.
#[derive(Clone, Copy, ValueEnum)]
enum OutcomeArg {
    /// Not known (yet); never the same as failed.
    Unknown,
    /// Succeeded (terminal).
    Succeeded,
    /// Failed (terminal).
    Failed,
    /// Cancelled (terminal).
    Cancelled,
}

impl OutcomeArg {
    fn wire(self) -> ExperienceOutcome {
        match self {
            OutcomeArg::Unknown => ExperienceOutcome::Unknown,
            OutcomeArg::Succeeded => ExperienceOutcome::Succeeded,
            OutcomeArg::Failed => ExperienceOutcome::Failed,
            OutcomeArg::Cancelled => ExperienceOutcome::Cancelled,
        }
    }
}

/// An attempt's new observation.
#[derive(Args)]
pub struct EventArgs {
    /// The event's id within its attempt; reporting the same event again
    /// answers the original.
    #[arg(long = "event", visible_alias = "event-id")]
    event: String,
    /// The revision the reporter saw (1 right after recording); a stale one
    /// is refused (revision_conflict).
    #[arg(long)]
    expected_revision: u64,
    /// What happened.
    #[arg(long, value_enum)]
    outcome: OutcomeArg,
    /// Cost units used so far (cumulative, in the attempt's accounting unit);
    /// leave out when unknown, which is never read as 0.
    #[arg(long)]
    cost_units: Option<u64>,
    /// Milliseconds taken so far (cumulative); leave out when unknown, which
    /// is never read as 0.
    #[arg(long)]
    latency_ms: Option<u64>,
    /// Where the evidence is (a URI or any label).
    #[arg(long, requires = "evidence_sha256")]
    evidence_ref: Option<String>,
    /// The evidence's SHA-256 (64 lowercase hex digits).
    #[arg(long, requires = "evidence_ref")]
    evidence_sha256: Option<String>,
}

impl EventArgs {
    fn wire(self) -> NewExperienceEvent {
        NewExperienceEvent {
            event_id: self.event,
            expected_revision: self.expected_revision,
            outcome: self.outcome.wire(),
            evidence: self
                .evidence_ref
                .zip(self.evidence_sha256)
                .map(|(reference, sha256)| ContentReference { reference, sha256 }),
            cost_units: self.cost_units,
            latency_ms: self.latency_ms,
        }
    }
}

/// One event: its JSON with `--json` (one document per line), else its
/// revision, id, outcome and consumption (`-` where unknown), tab-separated.
fn event_line(event: &praxis_api::ExperienceEvent) -> anyhow::Result<String> {
    if crate::output::json() {
        return Ok(serde_json::to_string(event)?);
    }
    let known = |n: Option<u64>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
    Ok(format!(
        "revision {}\t{}\t{}\tcost {}\tlatency_ms {}",
        event.revision,
        crate::output::shown(&event.event_id),
        crate::records_http::name_of(&event.outcome),
        known(event.cost_units),
        known(event.latency_ms)
    ))
}

/// `praxis experiences` subcommands.
#[derive(Subcommand)]
pub enum ExperiencesCmd {
    /// Record an attempt at revision 1 (experience_write). Recording the
    /// identical attempt again answers the original.
    Record {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The attempt's id within its scope.
        #[arg(long)]
        id: String,
        /// A registered evaluation context.
        #[arg(long)]
        context: String,
        /// The only subject who may report on it; in a private scope, the caller.
        #[arg(long)]
        reporter: String,
        /// What cost units count, for example tokens.
        #[arg(long)]
        unit: String,
        /// Where the input it ran on is (a URI or any label).
        #[arg(long)]
        input_ref: String,
        /// The input's SHA-256 (64 lowercase hex digits).
        #[arg(long)]
        input_sha256: String,
        /// The attempt whose observation this one corrects or continues.
        #[arg(long, requires = "parent_event")]
        parent_attempt: Option<String>,
        /// The parent observation's event.
        #[arg(long, requires = "parent_attempt")]
        parent_event: Option<String>,
    },
    /// Report an event on an attempt (experience_report; its reporter only).
    /// Prints the event and the experience right after it.
    Report {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The attempt.
        #[arg(long)]
        attempt: String,
        #[command(flatten)]
        event: EventArgs,
    },
    /// Print an attempt and its state, or with --event one of its events and
    /// its withdrawal if any (experience_read).
    Read {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The attempt.
        #[arg(long)]
        attempt: String,
        /// Read this event instead.
        #[arg(long)]
        event: Option<String>,
    },
    /// Print an attempt's events in revision order, one a line; with --json,
    /// each event's JSON (experience_read).
    History {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The attempt.
        #[arg(long)]
        attempt: String,
    },
    /// Print an attempt's parent chain, the attempt first and its root last
    /// (experience_read).
    Lineage {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The attempt.
        #[arg(long)]
        attempt: String,
    },
    /// Export 1 to 64 observations, one per attempt: sorted, counted by
    /// outcome, consumption summed, with the export's digest (experience_read).
    Export {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// An observation as ATTEMPT/EVENT, split at the last / (repeatable).
        #[arg(long = "event", required = true, value_parser = observation)]
        events: Vec<ObservationKey>,
        /// Write here instead of stdout.
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Withdraw an observation for good, pinned by its event digest
    /// (experience_evidence_admin and experience_read). A retry under the same
    /// key answers the original receipt.
    Withdraw {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The withdrawal's idempotency key.
        #[arg(long)]
        key: String,
        /// The attempt.
        #[arg(long)]
        attempt: String,
        /// The event.
        #[arg(long)]
        event: String,
        /// The event's digest (its event_digest).
        #[arg(long)]
        digest: String,
        /// Why; screened like record text.
        #[arg(long)]
        reason: String,
    },
    /// Tell whether an observation is withdrawn, and by which receipt (experience_read).
    Inspect {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The attempt.
        #[arg(long)]
        attempt: String,
        /// The event.
        #[arg(long)]
        event: String,
    },
}

/// Parses ATTEMPT/EVENT, splitting at the last `/` (an attempt id may hold one).
fn observation(text: &str) -> Result<ObservationKey, String> {
    match text.rsplit_once('/') {
        Some((attempt, event)) if !attempt.is_empty() && !event.is_empty() => Ok(ObservationKey {
            attempt_id: attempt.to_owned(),
            event_id: event.to_owned(),
        }),
        _ => Err(format!("{text:?} is not ATTEMPT/EVENT")),
    }
}

/// Runs one subcommand.
pub async fn run(cmd: ExperiencesCmd) -> anyhow::Result<()> {
    match cmd {
        ExperiencesCmd::Record {
            remote,
            scope,
            id,
            context,
            reporter,
            unit,
            input_ref,
            input_sha256,
            parent_attempt,
            parent_event,
        } => {
            let parent = parent_attempt
                .zip(parent_event)
                .map(|(attempt_id, event_id)| ObservationKey {
                    attempt_id,
                    event_id,
                });
            let answer = remote
                .client()?
                .record_experience(&RecordExperienceRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    experience: NewExperience {
                        id,
                        context_id: context,
                        reporter_subject: reporter,
                        accounting_unit: unit,
                        input: ContentReference {
                            reference: input_ref,
                            sha256: input_sha256,
                        },
                        parent,
                    },
                })
                .await?;
            print_json(&answer)
        }
        ExperiencesCmd::Report {
            remote,
            scope,
            attempt,
            event,
        } => {
            let answer = remote
                .client()?
                .report_experience_event(&ReportEventRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    attempt_id: attempt,
                    event: event.wire(),
                })
                .await?;
            print_json(&answer)
        }
        ExperiencesCmd::Read {
            remote,
            scope,
            attempt,
            event,
        } => {
            let client = remote.client()?;
            match event {
                None => print_json(
                    &client
                        .read_experience(&ReadExperienceRequest {
                            contract_version: CONTRACT_VERSION,
                            scope: scope.wire(),
                            attempt_id: attempt,
                        })
                        .await?,
                ),
                Some(event_id) => print_json(
                    &client
                        .read_experience_event(&ReadEventRequest {
                            contract_version: CONTRACT_VERSION,
                            scope: scope.wire(),
                            attempt_id: attempt,
                            event_id,
                        })
                        .await?,
                ),
            }
        }
        ExperiencesCmd::History {
            remote,
            scope,
            attempt,
        } => {
            let client = remote.client()?;
            let mut request = ExperienceHistoryRequest {
                contract_version: CONTRACT_VERSION,
                scope: scope.wire(),
                attempt_id: attempt,
                after: None,
                limit: Some(HISTORY_PAGE),
            };
            loop {
                let page = client.experience_history(&request).await?;
                for e in &page.events {
                    println!("{}", event_line(e)?);
                }
                match page.next_cursor {
                    Some(next) => request.after = Some(next),
                    None => return Ok(()),
                }
            }
        }
        ExperiencesCmd::Lineage {
            remote,
            scope,
            attempt,
        } => {
            let answer = remote
                .client()?
                .experience_lineage(&ReadExperienceRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    attempt_id: attempt,
                })
                .await?;
            print_json(&answer)
        }
        ExperiencesCmd::Export {
            remote,
            scope,
            events,
            output,
        } => {
            let export = remote
                .client()?
                .export_experiences(&ExportExperiencesRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    events,
                })
                .await?;
            match output {
                Some(path) => {
                    let text = serde_json::to_string_pretty(&export)? + "\n";
                    std::fs::write(&path, text)
                        .with_context(|| format!("writing {}", path.display()))
                }
                None => print_json(&export),
            }
        }
        ExperiencesCmd::Withdraw {
            remote,
            scope,
            key,
            attempt,
            event,
            digest,
            reason,
        } => {
            let answer = remote
                .client()?
                .withdraw_observation(&WithdrawObservationRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    idempotency_key: key,
                    observation: PinnedObservation {
                        attempt_id: attempt,
                        event_id: event,
                        event_digest: digest,
                    },
                    reason,
                })
                .await?;
            print_json(&answer)
        }
        ExperiencesCmd::Inspect {
            remote,
            scope,
            attempt,
            event,
        } => {
            let answer = remote
                .client()?
                .inspect_withdrawal(&InspectWithdrawalRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    observation: ObservationKey {
                        attempt_id: attempt,
                        event_id: event,
                    },
                })
                .await?;
            print_json(&answer)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::observation;

    #[test]
    fn observations_split_at_the_last_slash() {
        let key = observation("trace/dev-1/e1").unwrap();
        assert_eq!(
            (key.attempt_id.as_str(), key.event_id.as_str()),
            ("trace/dev-1", "e1")
        );
        for bad in ["dev-1", "dev-1/", "/e1"] {
            assert!(observation(bad).is_err(), "{bad}");
        }
    }
}
