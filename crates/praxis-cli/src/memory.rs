//! `praxis memory …`: agent memory over HTTP: set an item by create-only
//! or compare-and-set, get it, search, page a key's history, and delete.
//!
//! The server, the token file and the scope's ids may come from the client
//! config file (see [`crate::client_config`]); flags and environment
//! variables override it. Each command prints the answer for a person, or
//! its JSON with `--json`. A refusal prints `praxis: <status> <code>:
//! <detail>` on stderr and exits 1; a 409 adds the item's
//! `current_revision` to retry with, and a 422 every finding (see
//! [`crate::output`]).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use praxis_api::{
    CONTRACT_VERSION, CurrentRevision, DeleteMemoryRequest, GetMemoryRequest, MemoryHistoryRequest,
    MemoryPriority, SearchMemoryRequest, SetMemoryRequest,
};
use praxis_client::{Client, ClientError};

use crate::attempts::{print_json, read_input};
use crate::client_config::{ConfiguredRemote, ScopeFlags};

/// How prominently an item is offered.
#[derive(Clone, Copy, ValueEnum)]
pub enum PriorityArg {
    /// Offered first.
    High,
    /// The default.
    Normal,
    /// Offered last.
    Low,
}

impl PriorityArg {
    fn wire(self) -> MemoryPriority {
        match self {
            PriorityArg::High => MemoryPriority::High,
            PriorityArg::Normal => MemoryPriority::Normal,
            PriorityArg::Low => MemoryPriority::Low,
        }
    }
}

/// The server, the caller and the scope of one memory command.
#[derive(Args)]
pub struct Target {
    #[command(flatten)]
    remote: ConfiguredRemote,
    #[command(flatten)]
    scope: ScopeFlags,
}

/// `praxis memory` subcommands.
#[derive(Subcommand)]
pub enum MemoryCmd {
    /// Create an item, or replace it at the revision you saw (memory_write).
    /// Without --expected-revision it creates and only creates: a key holding
    /// another item is refused (409 expected_revision_required) and the
    /// item's current_revision printed, to retry with. Prints the item.
    Set {
        #[command(flatten)]
        target: Target,
        /// The key: 1 to 96 characters of [A-Za-z0-9._-].
        key: String,
        /// One line, at most 512 characters.
        #[arg(long)]
        summary: String,
        /// The body text (at most 8 KiB); `-` reads it from stdin.
        #[arg(
            long,
            required_unless_present = "body_file",
            conflicts_with = "body_file"
        )]
        body: Option<String>,
        /// File holding the body; `-` is stdin.
        #[arg(long, value_name = "FILE")]
        body_file: Option<PathBuf>,
        /// A tag, of the key's form (repeat for up to 8).
        #[arg(long = "tag", value_name = "TAG")]
        tags: Vec<String>,
        /// How prominently the item is offered [default: normal].
        #[arg(long, value_enum)]
        priority: Option<PriorityArg>,
        /// An agent loads the item at start.
        #[arg(long)]
        bootstrap: bool,
        /// The item's revision as you saw it (`mrev_…`); leave out to create.
        #[arg(long, value_name = "REV")]
        expected_revision: Option<String>,
        /// Idempotency-Key of the write: retrying with the same key replays
        /// the first answer (16 to 255 visible ASCII characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
    /// Print the live item under KEY (memory_read).
    Get {
        #[command(flatten)]
        target: Target,
        /// The key.
        key: String,
    },
    /// Print one page of live items holding every word of QUERY in their
    /// key, summary, body or tags, by key, with summaries and the fields
    /// that matched (memory_read). Pass the page's `next` as --after.
    Search {
        #[command(flatten)]
        target: Target,
        /// Words the items must all hold; leave out to list every item.
        #[arg(default_value = "")]
        query: String,
        /// Items after this key (the previous page's `next`).
        #[arg(long, value_name = "KEY")]
        after: Option<String>,
        /// Items per page, 1 to 100 [default: 20].
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
    },
    /// Print one page of KEY's changes, oldest first, deletes included
    /// (memory_read). Pass the page's `next` as --after.
    History {
        #[command(flatten)]
        target: Target,
        /// The key.
        key: String,
        /// Changes after this position (the previous page's `next`).
        #[arg(long, value_name = "POS")]
        after: Option<u64>,
        /// Changes per page, 1 to 100 [default: 50].
        #[arg(long, value_name = "N")]
        limit: Option<u32>,
    },
    /// Delete the item at its current revision (memory_write); the key's
    /// history keeps every change. Prints the delete.
    Delete {
        #[command(flatten)]
        target: Target,
        /// The key.
        key: String,
        /// The item's current revision (`mrev_…`).
        #[arg(long, value_name = "REV")]
        expected_revision: String,
        /// Idempotency-Key of the write (16 to 255 visible ASCII characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
}

impl Target {
    /// The client (bound to `idempotency_key`, if any) and the scope.
    fn open(&self, idempotency_key: Option<&str>) -> anyhow::Result<(Client, praxis_api::Scope)> {
        let (client, scope) = self.remote.open(&self.scope)?;
        let client = match idempotency_key {
            Some(key) => client.with_idempotency_key(key),
            None => client,
        };
        Ok((client, scope))
    }
}

/// The body `--body` or `--body-file` gives, `-` reading stdin.
fn body_of(body: Option<String>, body_file: Option<PathBuf>) -> anyhow::Result<String> {
    match (body, body_file) {
        (Some(text), None) if text == "-" => {
            std::io::read_to_string(std::io::stdin()).context("reading the body from stdin")
        }
        (Some(text), None) => Ok(text),
        (None, Some(file)) => read_input(&file),
        _ => anyhow::bail!("give the body with exactly one of --body and --body-file"),
    }
}

/// A revision as the user passes it back.
fn revision_text(revision: &CurrentRevision) -> String {
    match revision {
        CurrentRevision::Text(text) => text.clone(),
        CurrentRevision::Number(n) => n.to_string(),
    }
}

/// A refusal as the CLI prints it: the problem's status, code, detail and
/// field; then each finding; then, on a conflict, the current revision to
/// retry with.
fn refusal(error: ClientError) -> anyhow::Error {
    let ClientError::Problem(problem) = &error else {
        return error.into();
    };
    let mut advice = crate::output::findings(problem);
    if let Some(revision) = error.current_revision().map(revision_text) {
        let _ = write!(advice, "\nretry with --expected-revision {revision}");
    }
    crate::output::refused(problem.clone(), advice)
}

/// Runs one subcommand.
pub async fn run(cmd: MemoryCmd) -> anyhow::Result<()> {
    match cmd {
        MemoryCmd::Set {
            target,
            key,
            summary,
            body,
            body_file,
            tags,
            priority,
            bootstrap,
            expected_revision,
            idempotency_key,
        } => {
            let (client, scope) = target.open(idempotency_key.as_deref())?;
            let request = SetMemoryRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                key,
                summary,
                body: body_of(body, body_file)?,
                tags,
                priority: priority.map_or(MemoryPriority::Normal, PriorityArg::wire),
                bootstrap,
                expected_revision,
            };
            print_json(&client.set_memory(&request).await.map_err(refusal)?)
        }
        MemoryCmd::Get { target, key } => {
            let (client, scope) = target.open(None)?;
            let request = GetMemoryRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                key,
            };
            print_json(&client.get_memory(&request).await.map_err(refusal)?)
        }
        MemoryCmd::Search {
            target,
            query,
            after,
            limit,
        } => {
            let (client, scope) = target.open(None)?;
            let request = SearchMemoryRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                query,
                after,
                limit,
            };
            print_json(&client.search_memory(&request).await.map_err(refusal)?)
        }
        MemoryCmd::History {
            target,
            key,
            after,
            limit,
        } => {
            let (client, scope) = target.open(None)?;
            let request = MemoryHistoryRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                key,
                after,
                limit,
            };
            print_json(&client.memory_history(&request).await.map_err(refusal)?)
        }
        MemoryCmd::Delete {
            target,
            key,
            expected_revision,
            idempotency_key,
        } => {
            let (client, scope) = target.open(idempotency_key.as_deref())?;
            let request = DeleteMemoryRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                key,
                expected_revision,
            };
            print_json(&client.delete_memory(&request).await.map_err(refusal)?)
        }
    }
}
