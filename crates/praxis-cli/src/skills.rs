//! `praxis records skills …`: the namespace's shared-skill registry over
//! HTTP: list its releases, publish one, withdraw one with a reason.
//! (A project's skill files are `praxis proposals skills`.)

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use praxis_api::{
    CONTRACT_VERSION, PublishSkillRequest, SkillEntry, SkillRelease, WithdrawSkillRequest,
};

use crate::attempts::read_input;
use crate::output::{client_error, emit, shown};
use crate::records_http::{Keyed, Target, name_of};

/// `praxis records skills` subcommands.
#[derive(Subcommand)]
pub enum SkillsCmd {
    /// Print every release of the registry, by name then version
    /// (experience_read).
    List {
        #[command(flatten)]
        target: Target,
    },
    /// Publish the release read as JSON from FILE (or - for stdin):
    /// {"name","version","sha256","size","summary","provenance":{…}}
    /// (record_review). Publishing the identical release again changes
    /// nothing; other content under its name and version is refused.
    Publish {
        #[command(flatten)]
        target: Target,
        /// JSON file holding the release.
        file: PathBuf,
        #[command(flatten)]
        keyed: Keyed,
    },
    /// Withdraw a release with a reason; it stays in the registry, marked
    /// (record_review).
    Withdraw {
        #[command(flatten)]
        target: Target,
        /// The skill's name.
        name: String,
        /// The release's version, MAJOR.MINOR.PATCH.
        version: String,
        /// Why, 1 to 1000 characters.
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        keyed: Keyed,
    },
}

/// One line for a release.
fn entry_line(entry: &SkillEntry) -> String {
    let r = &entry.release;
    let mut line = format!(
        "{} {}\t{} bytes\tsha256 {}\t{}",
        r.name,
        r.version,
        r.size,
        r.sha256,
        shown(&r.summary)
    );
    if let Some(w) = &entry.withdrawal {
        let _ = write!(line, "\twithdrawn {}: {}", w.at, shown(&w.reason));
    }
    line
}

/// Runs one subcommand.
pub async fn run(cmd: SkillsCmd) -> anyhow::Result<()> {
    match cmd {
        SkillsCmd::List { target } => {
            let (client, scope) = target.open(None)?;
            let answer = client.skills(&scope).await.map_err(client_error)?;
            emit(&answer, |a| {
                if a.skills.is_empty() {
                    return "no skills".to_owned();
                }
                a.skills
                    .iter()
                    .map(entry_line)
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        }
        SkillsCmd::Publish {
            target,
            file,
            keyed,
        } => {
            let release: SkillRelease = serde_json::from_str(&read_input(&file)?)
                .with_context(|| format!("parsing the release in {}", file.display()))?;
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let request = PublishSkillRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                release,
            };
            let answer = client.publish_skill(&request).await.map_err(client_error)?;
            emit(&answer, |a| {
                format!("{}: {}", name_of(&a.write), entry_line(&a.skill))
            })
        }
        SkillsCmd::Withdraw {
            target,
            name,
            version,
            reason,
            keyed,
        } => {
            let (client, scope) = target.open(keyed.idempotency_key.as_deref())?;
            let request = WithdrawSkillRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                reason,
            };
            let answer = client
                .withdraw_skill(&name, &version, &request)
                .await
                .map_err(client_error)?;
            emit(&answer, |a| {
                format!("{}: {}", name_of(&a.write), entry_line(&a.skill))
            })
        }
    }
}
