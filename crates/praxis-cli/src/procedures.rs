//! `praxis learning strategy|propose|evaluate|procedure|select`: procedures
//! over HTTP. Request bodies that are documents (a strategy, a proposal, an
//! evaluation) are read as JSON from a file or stdin, exactly as the API
//! takes them; the scope comes from flags.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use praxis_api::{
    CONTRACT_VERSION, CreateStrategyRequest, NewEvaluation, NewProposal, NewStrategy,
    ProposeRequest, ReadProcedureRequest, ReadStrategyRequest, SelectRequest,
    SubmitEvaluationRequest,
};

use crate::attempts::{Remote, ScopeArgs, print_json, read_input};

/// `praxis learning strategy` subcommands.
#[derive(Subcommand)]
pub enum StrategyCmd {
    /// Create the strategy read as JSON from FILE (or - for stdin), the
    /// seed's `strategy` object: its observations are bound and exported and
    /// its candidate registered in one transaction (procedure_propose and
    /// experience_read). An identical retry prints the original receipt.
    Create {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// JSON file holding the strategy.
        file: PathBuf,
    },
    /// Print a strategy's original receipt, re-verified (memory_read and
    /// experience_read).
    Read {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The strategy's id.
        id: String,
    },
    /// Whether selection may return the strategy now, why, and its
    /// withdrawn observations (memory_read and experience_read).
    Inspect {
        #[command(flatten)]
        remote: Remote,
        #[command(flatten)]
        scope: ScopeArgs,
        /// The strategy's id.
        id: String,
    },
}

/// Runs `praxis learning strategy …`.
pub async fn strategy(cmd: StrategyCmd) -> anyhow::Result<()> {
    match cmd {
        StrategyCmd::Create {
            remote,
            scope,
            file,
        } => {
            let strategy: NewStrategy =
                serde_json::from_str(&read_input(&file)?).context("parsing the strategy")?;
            let request = CreateStrategyRequest {
                contract_version: CONTRACT_VERSION,
                scope: scope.wire(),
                strategy,
            };
            print_json(&remote.client()?.create_strategy(&request).await?)
        }
        StrategyCmd::Read { remote, scope, id } => {
            let request = read_strategy(&scope, id);
            print_json(&remote.client()?.read_strategy(&request).await?)
        }
        StrategyCmd::Inspect { remote, scope, id } => {
            let request = read_strategy(&scope, id);
            print_json(&remote.client()?.inspect_strategy(&request).await?)
        }
    }
}

fn read_strategy(scope: &ScopeArgs, strategy_id: String) -> ReadStrategyRequest {
    ReadStrategyRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.wire(),
        strategy_id,
    }
}

/// Registers the ordinary proposal read as JSON from `file`.
pub async fn propose(remote: Remote, scope: ScopeArgs, file: PathBuf) -> anyhow::Result<()> {
    let proposal: NewProposal =
        serde_json::from_str(&read_input(&file)?).context("parsing the proposal")?;
    let request = ProposeRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.wire(),
        proposal,
    };
    print_json(&remote.client()?.propose_procedure(&request).await?)
}

/// Submits the evaluation read as JSON from `file` for `procedure_id`.
pub async fn evaluate(
    remote: Remote,
    scope: ScopeArgs,
    procedure_id: String,
    file: PathBuf,
) -> anyhow::Result<()> {
    let evaluation: NewEvaluation =
        serde_json::from_str(&read_input(&file)?).context("parsing the evaluation")?;
    let request = SubmitEvaluationRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.wire(),
        procedure_id,
        evaluation,
    };
    print_json(&remote.client()?.submit_evaluation(&request).await?)
}

/// Prints a procedure's state and statistics.
pub async fn procedure(
    remote: Remote,
    scope: ScopeArgs,
    procedure_id: String,
) -> anyhow::Result<()> {
    let request = ReadProcedureRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.wire(),
        procedure_id,
    };
    print_json(&remote.client()?.read_procedure(&request).await?)
}

/// Prints what selection chooses.
pub async fn select(
    remote: Remote,
    scope: ScopeArgs,
    policy_id: String,
    context_id: String,
    max_instruction_bytes: u64,
) -> anyhow::Result<()> {
    let request = SelectRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.wire(),
        policy_id,
        context_id,
        max_instruction_bytes,
    };
    print_json(&remote.client()?.select_procedure(&request).await?)
}
