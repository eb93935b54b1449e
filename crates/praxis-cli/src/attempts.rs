//! `praxis attempts …`: the attempt ledger from the command line, over HTTP,
//! or offline on a store for imports and exports too large for one request.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use praxis_api::{
    AssessRequest, CONTRACT_VERSION, CandidateAction, CandidateRevision, Disposition,
    ObserveRequest, Outcome, ReexploreUpdate, Scope, SetPolicyRequest, StreakKey, Visibility,
};
use praxis_client::Client;
use praxis_domain::Refusal;
use praxis_store::AttemptLedger;
use serde::Deserialize;

use crate::client_config::{ClientConfig, read_token_file};
use crate::config::OfflineStore;
use crate::output::usage;

/// The server a remote command calls unless told otherwise.
pub const DEFAULT_URL: &str = "http://127.0.0.1:7878";

/// Where the server is and who calls it.
#[derive(Args)]
pub struct Remote {
    /// Base URL of the Praxis server [default: http://127.0.0.1:7878].
    #[arg(long, env = "PRAXIS_URL")]
    url: Option<String>,
    /// Bearer token (`prx_…`); prefer PRAXIS_TOKEN or --token-file over the flag.
    #[arg(
        long,
        env = "PRAXIS_TOKEN",
        hide_env_values = true,
        conflicts_with = "token_file"
    )]
    token: Option<String>,
    /// File holding the token, for example DATA_DIR/admin-token; refused
    /// unless only its owner may access it (chmod 600).
    #[arg(long, env = "PRAXIS_TOKEN_FILE")]
    token_file: Option<PathBuf>,
}

/// Where a remote command's token comes from.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TokenSource {
    /// Given as it is (`--token`, `PRAXIS_TOKEN`).
    Given(String),
    /// Read from a file, checked first.
    File(PathBuf),
}

impl Remote {
    /// Remote flags as if given on the command line (for tests).
    #[cfg(test)]
    pub(crate) fn given(
        url: Option<&str>,
        token: Option<&str>,
        token_file: Option<&str>,
    ) -> Remote {
        Remote {
            url: url.map(str::to_owned),
            token: token.map(str::to_owned),
            token_file: token_file.map(PathBuf::from),
        }
    }

    /// A client for the server, authenticating with the token given.
    pub(crate) fn client(&self) -> anyhow::Result<Client> {
        self.client_with(&ClientConfig::default())
    }

    /// As [`Remote::client`], with the client config file's `url` and
    /// `token_file` where no flag or environment variable gives one.
    pub(crate) fn client_with(&self, config: &ClientConfig) -> anyhow::Result<Client> {
        let (url, source) = self.resolve(config)?;
        let token = match source {
            TokenSource::Given(token) => token,
            TokenSource::File(path) => read_token_file(&path)?,
        };
        Ok(Client::new(url).with_token(token))
    }

    /// The URL and the token's source: flags and environment over the
    /// config file over the default; a token given outright over a token file.
    pub(crate) fn resolve(&self, config: &ClientConfig) -> anyhow::Result<(String, TokenSource)> {
        let url = self
            .url
            .clone()
            .or_else(|| config.url.clone())
            .unwrap_or_else(|| DEFAULT_URL.to_owned());
        let source = match (&self.token, &self.token_file, &config.token_file) {
            (Some(t), _, _) => TokenSource::Given(t.clone()),
            (None, Some(f), _) | (None, None, Some(f)) => TokenSource::File(f.clone()),
            (None, None, None) => {
                return Err(usage(
                    "give a token with PRAXIS_TOKEN, --token or --token-file",
                ));
            }
        };
        Ok((url, source))
    }
}

/// `shared` or `private`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VisibilityArg {
    /// Visible to every subject with the grant.
    Shared,
    /// Visible only to the writing subject.
    Private,
}

/// The exact scope to act in.
#[derive(Args, Debug)]
pub struct ScopeArgs {
    /// Project id.
    #[arg(long)]
    project: String,
    /// Mission id; leave out for the null mission (null is not a wildcard).
    #[arg(long)]
    mission: Option<String>,
    /// Agent id.
    #[arg(long)]
    agent: String,
    /// Visibility.
    #[arg(long, value_enum, default_value = "shared")]
    visibility: VisibilityArg,
}

impl ScopeArgs {
    /// The scope of these ids.
    pub(crate) fn new(
        project: String,
        mission: Option<String>,
        agent: String,
        visibility: VisibilityArg,
    ) -> ScopeArgs {
        ScopeArgs {
            project,
            mission,
            agent,
            visibility,
        }
    }

    /// The scope as the API spells it.
    pub(crate) fn wire(&self) -> Scope {
        Scope {
            project_id: self.project.clone(),
            mission_id: self.mission.clone(),
            agent_id: self.agent.clone(),
            visibility: match self.visibility {
                VisibilityArg::Shared => Visibility::Shared,
                VisibilityArg::Private => Visibility::Private,
            },
        }
    }

    pub(crate) fn domain(&self) -> praxis_domain::auth::Scope {
        praxis_domain::auth::Scope {
            project_id: self.project.clone(),
            mission_id: self.mission.clone(),
            agent_id: self.agent.clone(),
            visibility: match self.visibility {
                VisibilityArg::Shared => praxis_domain::auth::Visibility::Shared,
                VisibilityArg::Private => praxis_domain::auth::Visibility::Private,
            },
        }
    }
}

/// Offline access to a store (the server must not be running on a SQLite store).
#[derive(Args)]
pub struct Offline {
    /// Work on the store directly instead of over HTTP.
    #[arg(long)]
    offline: bool,
    #[command(flatten)]
    at: OfflineStore,
}

impl Offline {
    async fn ledger(&self, scope: &ScopeArgs) -> anyhow::Result<AttemptLedger> {
        let (engine, namespace, actor) = self.at.open(&scope.domain()).await?;
        Ok(AttemptLedger::new(
            engine,
            &self.at.tenant,
            namespace,
            actor,
        ))
    }
}

/// `praxis attempts` subcommands.
#[derive(Subcommand)]
pub enum AttemptsCmd {
    /// Record an outcome read as JSON from FILE (or - for stdin).
    Observe {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// JSON file holding the outcome.
        file: PathBuf,
        /// State the disposition (for example transport_failure); inferred when absent.
        #[arg(long)]
        disposition: Option<String>,
    },
    /// Should the planner try these actions on SUBJECT? Reads only.
    Assess {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The subject.
        #[arg(long)]
        subject: String,
        /// A candidate action, as ACTION or ACTION@REVISION (repeatable).
        #[arg(long = "action", required = true)]
        actions: Vec<String>,
    },
    /// Show the namespace's policy, or change it: only the settings named
    /// change, the others keep their values.
    Policy {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// Consecutive verified negatives that suppress.
        #[arg(long)]
        limit: Option<u32>,
        /// Count streaks per action revision instead of per action.
        #[arg(long, conflicts_with = "by_action")]
        by_revision: bool,
        /// Count streaks per action (the default).
        #[arg(long)]
        by_action: bool,
        /// Allow one exploratory attempt this many seconds after the last completed one.
        #[arg(long, conflicts_with = "no_reexplore")]
        reexplore_after_seconds: Option<u64>,
        /// Allow one exploratory attempt after this many later observations of the subject.
        #[arg(long, conflicts_with = "no_reexplore")]
        reexplore_after_observations: Option<u64>,
        /// Turn re-exploration off.
        #[arg(long)]
        no_reexplore: bool,
    },
    /// Print the records of a subject (or of a subject and action), one a
    /// line: sequence, recorded_at, recorded_by, case, action, stage,
    /// status and disposition; with --json, each record's JSON.
    History {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The subject.
        #[arg(long)]
        subject: String,
        /// Only this action.
        #[arg(long)]
        action: Option<String>,
    },
    /// Records per disposition.
    Counts {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// Only this subject.
        #[arg(long)]
        subject: Option<String>,
        /// Only this action (needs --subject).
        #[arg(long, requires = "subject")]
        action: Option<String>,
    },
    /// Import a legacy store file. Offline, all or nothing. Over HTTP, the
    /// whole file is checked first, then sent in requests under the
    /// server's body limit, with a progress bar: each request is all or
    /// nothing, and running the import again after a refusal answers the
    /// records already imported unchanged.
    Import {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        offline: Offline,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The legacy store: {"next_sequence":N,"records":[…]}.
        file: PathBuf,
    },
    /// Export the namespace as a legacy store, every disposition explicit.
    Export {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        offline: Offline,
        #[command(flatten)]
        scope: ScopeArgs,
        /// Write here instead of stdout.
        #[arg(long)]
        output: Option<PathBuf>,
    },
}

/// The text of FILE, or of stdin when FILE is `-`.
pub(crate) fn read_input(file: &PathBuf) -> anyhow::Result<String> {
    if file.as_os_str() == "-" {
        Ok(std::io::read_to_string(std::io::stdin())?)
    } else {
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))
    }
}

/// Prints an answer: its JSON with `--json`, else indented lines for a
/// person (see [`crate::output`]).
pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    crate::output::emit_any(value)
}

/// One attempt record: its JSON with `--json` (one document per line),
/// else the fields a person scans for, tab-separated.
fn history_line(record: &praxis_api::AttemptRecord) -> anyhow::Result<String> {
    if crate::output::json() {
        return Ok(serde_json::to_string(record)?);
    }
    let outcome = serde_json::to_value(&record.outcome)?;
    let field = |name: &str| outcome[name].as_str().unwrap_or("-").to_owned();
    Ok(format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        record.sequence,
        record.recorded_at,
        record.recorded_by,
        field("case_id"),
        field("action_id"),
        field("stage"),
        field("status"),
        crate::records_http::name_of(&record.disposition)
    ))
}

/// Runs one subcommand.
pub async fn run(cmd: AttemptsCmd) -> anyhow::Result<()> {
    match cmd {
        AttemptsCmd::Observe {
            remote,
            scope,
            file,
            disposition,
        } => {
            let outcome: Outcome =
                serde_json::from_str(&read_input(&file)?).context("parsing the outcome")?;
            let disposition = disposition
                .map(|d| serde_json::from_value::<Disposition>(serde_json::Value::String(d)))
                .transpose()
                .context("unknown disposition")?;
            let answer = remote
                .client()?
                .observe(&ObserveRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    outcome,
                    disposition,
                })
                .await?;
            print_json(&answer)
        }
        AttemptsCmd::Assess {
            remote,
            scope,
            subject,
            actions,
        } => {
            let actions = actions
                .into_iter()
                .map(|a| match a.split_once('@') {
                    Some((id, rev)) => CandidateAction::Revision(CandidateRevision {
                        action_id: id.to_owned(),
                        action_revision: Some(rev.to_owned()),
                    }),
                    None => CandidateAction::Id(a),
                })
                .collect();
            let answer = remote
                .client()?
                .assess(&AssessRequest {
                    contract_version: CONTRACT_VERSION,
                    scope: scope.wire(),
                    subject,
                    actions,
                })
                .await?;
            print_json(&answer)
        }
        AttemptsCmd::Policy {
            remote,
            scope,
            limit,
            by_revision,
            by_action,
            reexplore_after_seconds,
            reexplore_after_observations,
            no_reexplore,
        } => {
            let client = remote.client()?;
            let streak_key = if by_revision {
                Some(StreakKey::ActionRevision)
            } else {
                by_action.then_some(StreakKey::Action)
            };
            let reexplore = if no_reexplore {
                Some(None)
            } else {
                (reexplore_after_seconds.is_some() || reexplore_after_observations.is_some())
                    .then_some(Some(ReexploreUpdate {
                        after_seconds: reexplore_after_seconds.map(Some),
                        after_observations: reexplore_after_observations.map(Some),
                    }))
            };
            let request = SetPolicyRequest {
                contract_version: CONTRACT_VERSION,
                scope: scope.wire(),
                consecutive_failure_limit: limit.map(Some),
                streak_key: streak_key.map(Some),
                reexplore,
            };
            let changes = request.consecutive_failure_limit.is_some()
                || request.streak_key.is_some()
                || request.reexplore.is_some();
            let answer = if changes {
                client.set_attempt_policy(&request).await?
            } else {
                client.attempt_policy(&request.scope).await?
            };
            print_json(&answer)
        }
        AttemptsCmd::History {
            remote,
            scope,
            subject,
            action,
        } => {
            let client = remote.client()?;
            let scope = scope.wire();
            let mut after: Option<String> = None;
            loop {
                let page = client
                    .attempt_history(&scope, &subject, action.as_deref(), after.as_deref(), 500)
                    .await?;
                for r in &page.records {
                    println!("{}", history_line(r)?);
                }
                match page.next_cursor {
                    Some(next) => after = Some(next),
                    None => return Ok(()),
                }
            }
        }
        AttemptsCmd::Counts {
            remote,
            scope,
            subject,
            action,
        } => {
            let answer = remote
                .client()?
                .attempt_counts(&scope.wire(), subject.as_deref(), action.as_deref())
                .await?;
            print_json(&answer)
        }
        AttemptsCmd::Import {
            remote,
            offline,
            scope,
            file,
        } => {
            let text = read_input(&file)?;
            if offline.offline {
                let store: praxis_domain::attempts::LegacyStore =
                    serde_json::from_str(&text).context("parsing the store")?;
                let written = offline.ledger(&scope).await?.import(store).await;
                let written = match written {
                    Err(praxis_store::StoreError::Refused(Refusal::ImportInvalid(problems))) => {
                        for p in &problems {
                            eprintln!("{} {}: {}", p.path, p.code, p.message);
                        }
                        anyhow::bail!(
                            "the store has {} problem(s); nothing was imported",
                            problems.len()
                        );
                    }
                    other => other?,
                };
                let inserted = written
                    .iter()
                    .filter(|w| w.write == praxis_store::attempts::WriteKind::Inserted)
                    .count();
                return crate::attempts_import::report(
                    inserted as u64,
                    (written.len() - inserted) as u64,
                    1,
                );
            }
            crate::attempts_import::over_http(&remote.client()?, scope.wire(), &text).await
        }
        AttemptsCmd::Export {
            remote,
            offline,
            scope,
            output,
        } => {
            let text = if offline.offline {
                let store = offline.ledger(&scope).await?.export().await?;
                serde_json::to_string_pretty(&store)?
            } else {
                let store = remote.client()?.export_attempts(&scope.wire()).await?;
                serde_json::to_string_pretty(&store)?
            };
            if let Some(path) = output {
                std::fs::write(&path, text + "\n")
                    .with_context(|| format!("writing {}", path.display()))
            } else {
                println!("{text}");
                Ok(())
            }
        }
    }
}
