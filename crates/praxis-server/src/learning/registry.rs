//! The learning registry: policies and evaluation contexts, registered
//! once per id for the whole tenant by a `policy_admin`, and readable by a
//! `policy_admin` or anyone with `experience_read`.

use std::sync::Arc;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use praxis_api::{
    CONTRACT_VERSION, LearningContextResponse, LearningPolicyResponse, RegisterContextRequest,
    RegisterPolicyRequest,
};
use praxis_domain::auth::{Capability, Principal};
use praxis_store::learning::LearningWrite;
use praxis_store::{Command, LearningCommand, StoreError};

use super::written;
use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{path, write_as};
use crate::wire::{self, learning as wl};

/// Reading the registry takes `policy_admin` or `experience_read`.
fn may_read(p: &Principal) -> Result<(), ApiError> {
    p.require(Capability::PolicyAdmin)
        .or_else(|_| p.require(Capability::ExperienceRead))?;
    Ok(())
}

/// 404: nothing is registered under the id in the caller's tenant.
fn not_found(code: &'static str, what: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        code,
        format!("no {what} under this id"),
    )
}

/// Runs a registration by a `policy_admin`; `pick` renders the answer from
/// the write's effect (`None`: another effect, which is a fault).
async fn register(
    state: &AppState,
    p: &Principal,
    key: Option<String>,
    value: serde_json::Value,
    route: &str,
    command: LearningCommand,
    pick: fn(&LearningWrite) -> Option<Answer>,
) -> Result<Response, ApiError> {
    let render: Render = Arc::new(move |applied| {
        applied
            .learning()
            .and_then(pick)
            .ok_or_else(|| StoreError::inconsistent("a registration answered with another effect"))
    });
    let write = write_as(p, Capability::PolicyAdmin, Command::Learning(command));
    Ok(answer(state, p, Retry::new(route, key, value), write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/learning/policies", operation_id = "register_learning_policy", tag = "learning",
    request_body = RegisterPolicyRequest,
    responses(
        (status = 201, description = "Registered", body = LearningPolicyResponse),
        (status = 200, description = "The identical policy was already registered under the id: the original entry, byte for byte", body = LearningPolicyResponse),
        (status = 403, description = "Missing policy_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The id names other content (`registry_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A parameter breaks its rule (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn register_policy(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<RegisterPolicyRequest>,
) -> Result<Response, ApiError> {
    p.require(Capability::PolicyAdmin)?;
    let policy = wl::policy_from_wire(body.policy);
    policy.validate("/policy")?;
    let command = LearningCommand::RegisterPolicy(policy);
    register(
        &state,
        &p,
        key,
        value,
        "learning.policies.register",
        command,
        |w| match w {
            LearningWrite::Policy(r) => Some(Answer::json(
                written(r.new),
                &LearningPolicyResponse {
                    contract_version: CONTRACT_VERSION,
                    policy: wl::registered_policy(&r.entry),
                },
            )),
            _ => None,
        },
    )
    .await
}

#[utoipa::path(
    get, path = "/api/v1/learning/policies/{id}", operation_id = "read_learning_policy", tag = "learning",
    params(("id" = String, Path, description = "Policy id")),
    responses(
        (status = 200, description = "The registered policy", body = LearningPolicyResponse),
        (status = 403, description = "Missing policy_admin or experience_read (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No policy under the id in this tenant (`policy_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_policy(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    may_read(&p)?;
    let entry = state
        .engine
        .learning()
        .policy(&p.tenant_id, &id)
        .await?
        .ok_or_else(|| not_found("policy_not_found", "policy"))?;
    Ok(wire::json(
        StatusCode::OK,
        &LearningPolicyResponse {
            contract_version: CONTRACT_VERSION,
            policy: wl::registered_policy(&entry),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/learning/contexts", operation_id = "register_learning_context", tag = "learning",
    request_body = RegisterContextRequest,
    responses(
        (status = 201, description = "Registered", body = LearningContextResponse),
        (status = 200, description = "The identical context was already registered under the id: the original entry, byte for byte", body = LearningContextResponse),
        (status = 403, description = "Missing policy_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The id names other content (`registry_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn register_context(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<RegisterContextRequest>,
) -> Result<Response, ApiError> {
    p.require(Capability::PolicyAdmin)?;
    let context = wl::context_from_wire(body.context);
    context.validate("/context")?;
    let command = LearningCommand::RegisterContext(context);
    register(
        &state,
        &p,
        key,
        value,
        "learning.contexts.register",
        command,
        |w| match w {
            LearningWrite::Context(r) => Some(Answer::json(
                written(r.new),
                &LearningContextResponse {
                    contract_version: CONTRACT_VERSION,
                    context: wl::registered_context(&r.entry),
                },
            )),
            _ => None,
        },
    )
    .await
}

#[utoipa::path(
    get, path = "/api/v1/learning/contexts/{id}", operation_id = "read_learning_context", tag = "learning",
    params(("id" = String, Path, description = "Context id")),
    responses(
        (status = 200, description = "The registered context", body = LearningContextResponse),
        (status = 403, description = "Missing policy_admin or experience_read (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No context under the id in this tenant (`context_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_context(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    may_read(&p)?;
    let entry = state
        .engine
        .learning()
        .context(&p.tenant_id, &id)
        .await?
        .ok_or_else(|| not_found("context_not_found", "context"))?;
    Ok(wire::json(
        StatusCode::OK,
        &LearningContextResponse {
            contract_version: CONTRACT_VERSION,
            context: wl::registered_context(&entry),
        },
    ))
}
