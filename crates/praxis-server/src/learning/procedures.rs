//! Procedures: strategies bound to exact observations (`procedure_propose`
//! with `experience_read` to create, `memory_read` with `experience_read` to
//! read and inspect), ordinary proposals (`procedure_propose`), held-out
//! evaluations (`procedure_evaluate`, the policy's evaluator only),
//! procedure reads and selection (`memory_read`). Every endpoint names an
//! exact scope and acts in its namespace; a procedure of another tenant or
//! namespace is 404.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use praxis_api::{
    CONTRACT_VERSION, CreateStrategyRequest, EligibilityReason, EvaluationResponse,
    ProcedureResponse, ProposalResponse, ProposeRequest, ReadProcedureRequest, ReadStrategyRequest,
    SelectRequest, SelectResponse, StrategyInspection, StrategyResponse, SubmitEvaluationRequest,
};
use praxis_domain::auth::{Capability, Namespace, Principal};
use praxis_domain::learning::{ProcedureState, check_text};
use praxis_store::learning::LearningWrite;
use praxis_store::learning::procedures::{ProcedureLog, StrategyLog};
use praxis_store::{Command, LearningCommand, Missing, StoreError};

use super::written;
use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{namespace_of, write_as};
use crate::wire::{self, procedures as wp};

/// The answer of selection when nothing qualifies.
const NO_PROCEDURE: &str = "no_qualified_compatible_procedure";

fn unexpected() -> StoreError {
    StoreError::inconsistent("a procedure write answered with another effect")
}

/// The namespace, if the principal holds both capabilities in the scope.
fn namespace_both(
    p: &Principal,
    first: Capability,
    second: Capability,
    scope: praxis_api::Scope,
) -> Result<Namespace, ApiError> {
    let namespace = namespace_of(p, first, scope.clone())?;
    namespace_of(p, second, scope)?;
    Ok(namespace)
}

async fn strategy_of(
    state: &AppState,
    p: &Principal,
    namespace: &Namespace,
    id: &str,
) -> Result<StrategyLog, ApiError> {
    check_text("/strategy_id", id)?;
    state
        .engine
        .procedures()
        .strategy(&p.tenant_id, namespace, id)
        .await?
        .ok_or_else(|| StoreError::NotFound(Missing::Strategy).into())
}

async fn procedure_of(
    state: &AppState,
    p: &Principal,
    namespace: &Namespace,
    id: &str,
) -> Result<ProcedureLog, ApiError> {
    check_text("/procedure_id", id)?;
    state
        .engine
        .procedures()
        .procedure(&p.tenant_id, namespace, id)
        .await?
        .ok_or_else(|| StoreError::NotFound(Missing::Procedure).into())
}

#[utoipa::path(
    post, path = "/api/v1/learning/strategies", operation_id = "create_strategy", tag = "learning",
    request_body = CreateStrategyRequest,
    responses(
        (status = 201, description = "Created: the evidence, its binding, the receipt and the candidate procedure, in one transaction", body = StrategyResponse),
        (status = 200, description = "The identical request was already answered: the original receipt, byte for byte", body = StrategyResponse),
        (status = 403, description = "Missing procedure_propose or experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The id names other content or an ordinary procedure (`idempotency_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`), the policy or context is not registered (`unknown_reference`), or an observation is invented, mismatched or withdrawn (`invalid_observation`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn create_strategy(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<CreateStrategyRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_both(
        &p,
        Capability::ProcedurePropose,
        Capability::ExperienceRead,
        body.scope,
    )?;
    let strategy = wp::strategy_from_wire(body.strategy)?;
    strategy.validate("/strategy")?;
    let command = Command::Learning(LearningCommand::CreateStrategy {
        namespace,
        strategy: Box::new(strategy),
    });
    let render: Render = Arc::new(|applied| match applied.learning() {
        Some(LearningWrite::StrategyCreated { receipt, new }) => Ok(Answer::json(
            written(*new),
            &StrategyResponse {
                contract_version: CONTRACT_VERSION,
                receipt: wp::strategy_receipt_to_wire(receipt),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::ProcedurePropose, command);
    let retry = Retry::new("learning.strategies.create", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/learning/strategies/read", operation_id = "read_strategy", tag = "learning",
    request_body = ReadStrategyRequest,
    responses(
        (status = 200, description = "The original receipt, its digest, export and binding re-verified", body = StrategyResponse),
        (status = 403, description = "Missing memory_read or experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such strategy in this scope (`strategy_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_strategy(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ReadStrategyRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_both(
        &p,
        Capability::MemoryRead,
        Capability::ExperienceRead,
        body.scope,
    )?;
    let log = strategy_of(&state, &p, &namespace, &body.strategy_id).await?;
    Ok(wire::json(
        StatusCode::OK,
        &StrategyResponse {
            contract_version: CONTRACT_VERSION,
            receipt: wp::strategy_receipt_to_wire(&log.receipt),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/learning/strategies/inspect", operation_id = "inspect_strategy", tag = "learning",
    request_body = ReadStrategyRequest,
    responses(
        (status = 200, description = "Whether selection may return the strategy now, why, and its withdrawn observations", body = StrategyInspection),
        (status = 403, description = "Missing memory_read or experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such strategy in this scope (`strategy_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn inspect_strategy(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ReadStrategyRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_both(
        &p,
        Capability::MemoryRead,
        Capability::ExperienceRead,
        body.scope,
    )?;
    let log = strategy_of(&state, &p, &namespace, &body.strategy_id).await?;
    let state_now = log.procedure.record.state;
    let reason = match state_now {
        _ if !log.withdrawn.is_empty() => EligibilityReason::EvidenceWithdrawn,
        ProcedureState::Qualified => EligibilityReason::Eligible,
        ProcedureState::Candidate => EligibilityReason::NotQualified,
        ProcedureState::Suspended => EligibilityReason::Suspended,
        ProcedureState::Rejected => EligibilityReason::Rejected,
    };
    Ok(wire::json(
        StatusCode::OK,
        &StrategyInspection {
            contract_version: CONTRACT_VERSION,
            strategy_id: body.strategy_id,
            state: wp::state_to_wire(state_now),
            eligible: reason == EligibilityReason::Eligible,
            reason,
            withdrawn_observations: wp::observations_to_wire(&log.withdrawn),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/learning/proposals", operation_id = "propose_procedure", tag = "learning",
    request_body = ProposeRequest,
    responses(
        (status = 201, description = "Registered as a candidate", body = ProposalResponse),
        (status = 200, description = "The identical proposal was already registered: the original receipt", body = ProposalResponse),
        (status = 403, description = "Missing procedure_propose (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The id names other content (`idempotency_conflict`), or `supersedes` names a procedure that is not rejected or suspended (`invalid_transition`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`) or the policy or context is not registered (`unknown_reference`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn propose(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<ProposeRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ProcedurePropose, body.scope)?;
    let proposal = wp::proposal_from_wire(body.proposal);
    proposal.validate("/proposal")?;
    let command = Command::Learning(LearningCommand::Propose {
        namespace,
        proposal: Box::new(proposal),
    });
    let render: Render = Arc::new(|applied| match applied.learning() {
        Some(LearningWrite::Proposed { receipt, new }) => Ok(Answer::json(
            written(*new),
            &ProposalResponse {
                contract_version: CONTRACT_VERSION,
                proposal: wp::receipt_to_wire(receipt),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::ProcedurePropose, command);
    let retry = Retry::new("learning.proposals.create", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/learning/evaluations", operation_id = "submit_evaluation", tag = "learning",
    request_body = SubmitEvaluationRequest,
    responses(
        (status = 200, description = "The admission's outcome and reason, and the procedure right after; an identical resubmission gets the original receipt", body = EvaluationResponse),
        (status = 403, description = "Missing procedure_evaluate (`missing_capability`), the scope grant (`missing_grant`), or the caller is not the policy's evaluator (`not_evaluator`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such procedure in this scope (`procedure_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The case id names other content (`idempotency_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn evaluate(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<SubmitEvaluationRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ProcedureEvaluate, body.scope)?;
    check_text("/procedure_id", &body.procedure_id)?;
    let evaluation = wp::evaluation_from_wire(body.evaluation);
    evaluation.validate("/evaluation")?;
    let command = Command::Learning(LearningCommand::Evaluate {
        namespace,
        procedure_id: body.procedure_id,
        evaluation: Box::new(evaluation),
    });
    let render: Render = Arc::new(|applied| match applied.learning() {
        Some(LearningWrite::Evaluated { submitted, .. }) => Ok(Answer::json(
            StatusCode::OK,
            &EvaluationResponse {
                contract_version: CONTRACT_VERSION,
                receipt: wp::evaluation_receipt_to_wire(&submitted.receipt),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::ProcedureEvaluate, command);
    let retry = Retry::new("learning.evaluations.submit", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/learning/procedures/read", operation_id = "read_procedure", tag = "learning",
    request_body = ReadProcedureRequest,
    responses(
        (status = 200, description = "The procedure: its receipt, and its state and statistics re-folded from its evaluations", body = ProcedureResponse),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such procedure in this scope (`procedure_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_procedure(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ReadProcedureRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryRead, body.scope)?;
    let log = procedure_of(&state, &p, &namespace, &body.procedure_id).await?;
    Ok(wire::json(
        StatusCode::OK,
        &ProcedureResponse {
            contract_version: CONTRACT_VERSION,
            proposal: wp::receipt_to_wire(&log.proposal),
            procedure: wp::standing_to_wire(&log.record.summary(&log.proposal.proposal.id)),
            evidence_withdrawn: log.withdrawn,
            evaluations: log.evaluations.len() as u64,
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/learning/select", operation_id = "select_procedure", tag = "learning",
    request_body = SelectRequest,
    responses(
        (status = 200, description = "The qualified procedure with the highest lower bound whose instructions fit and whose evidence stands (ties to the lowest id), or the context's baseline", body = SelectResponse),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`) or the policy or context is not registered (`unknown_reference`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn select(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<SelectRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryRead, body.scope)?;
    check_text("/policy_id", &body.policy_id)?;
    check_text("/context_id", &body.context_id)?;
    let learning = state.engine.learning();
    if learning
        .policy(&p.tenant_id, &body.policy_id)
        .await?
        .is_none()
    {
        return Err(StoreError::NotFound(Missing::Registered {
            what: "policy",
            pointer: "/policy_id",
        })
        .into());
    }
    let context = learning
        .context(&p.tenant_id, &body.context_id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Registered {
            what: "context",
            pointer: "/context_id",
        }))?;
    let found = state
        .engine
        .procedures()
        .select(
            &p.tenant_id,
            &namespace,
            &body.policy_id,
            &body.context_id,
            body.max_instruction_bytes,
        )
        .await?;
    let answer = match found {
        Some(s) => SelectResponse::Procedure {
            contract_version: CONTRACT_VERSION,
            procedure_id: s.proposal.proposal.id.clone(),
            instructions: s.proposal.proposal.instructions.clone(),
            proposal_digest: s.proposal.proposal_digest.to_hex(),
            lower_bound: s.lower_bound,
        },
        None => SelectResponse::Baseline {
            contract_version: CONTRACT_VERSION,
            baseline_revision: context.payload.baseline_revision,
            reason: NO_PROCEDURE.to_owned(),
        },
    };
    Ok(wire::json(StatusCode::OK, &answer))
}
