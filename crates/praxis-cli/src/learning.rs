//! `praxis learning …`: the learning authority's tenant-wide registry of
//! policies and evaluation contexts, over HTTP.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use praxis_api::{
    CONTRACT_VERSION, EvaluationContext, LearningPolicy, RegisterContextRequest,
    RegisterPolicyRequest,
};

use crate::attempts::{Remote, print_json, read_input};

/// `praxis learning` subcommands.
#[derive(Subcommand)]
pub enum LearningCmd {
    /// Learning policies: how candidates are judged (registered for good; policy_admin).
    Policy {
        #[command(subcommand)]
        command: PolicyCmd,
    },
    /// Evaluation contexts: everything a result depends on, pinned (registered for good; policy_admin).
    Context {
        #[command(subcommand)]
        command: ContextCmd,
    },
}

/// `praxis learning policy` subcommands.
#[derive(Subcommand)]
pub enum PolicyCmd {
    /// Register the policy read as JSON from FILE (or - for stdin):
    /// {"id","algorithm","parameters":{…}}. Registering the identical policy
    /// again answers the original entry; other content under its id is
    /// refused (registry_conflict).
    Register {
        #[command(flatten)]
        remote: Remote,
        /// JSON file holding the policy.
        file: PathBuf,
    },
    /// Print a registered policy (policy_admin or experience_read).
    Show {
        #[command(flatten)]
        remote: Remote,
        /// The policy's id.
        id: String,
    },
}

/// `praxis learning context` subcommands.
#[derive(Subcommand)]
pub enum ContextCmd {
    /// Register the evaluation context read as JSON from FILE (or - for
    /// stdin): {"id","task","baseline_revision",…,"tools":{name: revision}}.
    /// Registering the identical context again answers the original entry;
    /// other content under its id is refused (registry_conflict).
    Register {
        #[command(flatten)]
        remote: Remote,
        /// JSON file holding the context.
        file: PathBuf,
    },
    /// Print a registered context (policy_admin or experience_read).
    Show {
        #[command(flatten)]
        remote: Remote,
        /// The context's id.
        id: String,
    },
}

/// Runs one subcommand.
pub async fn run(cmd: LearningCmd) -> anyhow::Result<()> {
    match cmd {
        LearningCmd::Policy {
            command: PolicyCmd::Register { remote, file },
        } => {
            let policy: LearningPolicy =
                serde_json::from_str(&read_input(&file)?).context("parsing the policy")?;
            let answer = remote
                .client()?
                .register_learning_policy(&RegisterPolicyRequest {
                    contract_version: CONTRACT_VERSION,
                    policy,
                })
                .await?;
            print_json(&answer)
        }
        LearningCmd::Policy {
            command: PolicyCmd::Show { remote, id },
        } => print_json(&remote.client()?.learning_policy(&id).await?),
        LearningCmd::Context {
            command: ContextCmd::Register { remote, file },
        } => {
            let context: EvaluationContext =
                serde_json::from_str(&read_input(&file)?).context("parsing the context")?;
            let answer = remote
                .client()?
                .register_learning_context(&RegisterContextRequest {
                    contract_version: CONTRACT_VERSION,
                    context,
                })
                .await?;
            print_json(&answer)
        }
        LearningCmd::Context {
            command: ContextCmd::Show { remote, id },
        } => print_json(&remote.client()?.learning_context(&id).await?),
    }
}
