//! `praxis learning …`: the learning authority's tenant-wide registry of
//! policies and evaluation contexts, and procedures (`crate::procedures`),
//! over HTTP; and the qualification simulation, offline.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use praxis_api::{
    CONTRACT_VERSION, EvaluationContext, LearningPolicy, RegisterContextRequest,
    RegisterPolicyRequest,
};

use crate::attempts::{Remote, ScopeArgs, print_json, read_input};
use crate::procedures::{self, StrategyCmd};
use crate::sim::QualificationArgs;

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
    /// Strategies bound to exact development observations: create, read, inspect.
    Strategy {
        #[command(subcommand)]
        command: StrategyCmd,
    },
    /// Register the ordinary proposal read as JSON from FILE (or - for
    /// stdin): {"id","policy_id","context_id","instructions","source_refs":[…]}
    /// (procedure_propose).
    Propose {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// JSON file holding the proposal.
        file: PathBuf,
    },
    /// Submit the held-out evaluation read as JSON from FILE (or - for
    /// stdin) for a procedure; only the policy's evaluator may
    /// (procedure_evaluate). Prints the outcome, its reason and the
    /// procedure after it.
    Evaluate {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The procedure evaluated.
        #[arg(long)]
        procedure: String,
        /// JSON file holding the evaluation.
        file: PathBuf,
    },
    /// Print a procedure's state, statistics, bounds and decisions (memory_read).
    Procedure {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The procedure's id.
        id: String,
    },
    /// Print the qualified procedure selection returns, or the baseline (memory_read).
    Select {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The policy.
        #[arg(long)]
        policy: String,
        /// The context.
        #[arg(long)]
        context: String,
        /// The most instruction bytes the caller can use.
        #[arg(long, default_value_t = 16_384)]
        max_bytes: u64,
    },
    /// The qualification rules on simulated paired tasks (as `praxis sim qualification`).
    Sim(QualificationArgs),
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
        LearningCmd::Strategy { command } => procedures::strategy(command).await,
        LearningCmd::Propose {
            remote,
            scope,
            file,
        } => procedures::propose(remote, scope, file).await,
        LearningCmd::Evaluate {
            remote,
            scope,
            procedure,
            file,
        } => procedures::evaluate(remote, scope, procedure, file).await,
        LearningCmd::Procedure { remote, scope, id } => {
            procedures::procedure(remote, scope, id).await
        }
        LearningCmd::Select {
            remote,
            scope,
            policy,
            context,
            max_bytes,
        } => procedures::select(remote, scope, policy, context, max_bytes).await,
        LearningCmd::Sim(args) => crate::sim::qualification(&args),
    }
}
