//! Skill registry endpoints: publish an immutable release, list the
//! namespace's registry, withdraw a release (it stays, marked).
//!
//! Releases are published for good, so their text is screened like record
//! text before anything is written.

use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use praxis_api::{
    CONTRACT_VERSION, PublishSkillRequest, SkillResponse, SkillsResponse, WithdrawSkillRequest,
    WriteEffect,
};
use praxis_domain::auth::Capability;
use praxis_store::skills::SkillWrite;
use praxis_store::{Applied, Command, SkillCommand, StoreError};

use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{ScopeQuery, check_reason, namespace_of, path, query, write_as};
use crate::wire::{self, skills as ws};

/// The skill routes under `/api/v1`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/skills", post(publish_skill).get(skills))
        .route("/skills/{name}/{version}/withdraw", post(withdraw_skill))
}

/// Renders a skill write: `status` when it changed the release, 200 when
/// it found it as asked.
fn skill_answer(status: StatusCode) -> Render {
    Arc::new(move |applied: &Applied| {
        let (effect, row) = match applied
            .skill()
            .ok_or_else(|| StoreError::inconsistent("a skill write returned no release"))?
        {
            SkillWrite::Changed(row) => (WriteEffect::Changed, row),
            SkillWrite::Unchanged(row) => (WriteEffect::Unchanged, row),
        };
        let status = match effect {
            WriteEffect::Changed => status,
            WriteEffect::Unchanged => StatusCode::OK,
        };
        Ok(Answer::json(
            status,
            &SkillResponse {
                contract_version: CONTRACT_VERSION,
                write: effect,
                skill: ws::skill_to_wire(row),
            },
        ))
    })
}

#[utoipa::path(
    post, path = "/api/v1/skills", tag = "skills",
    request_body = PublishSkillRequest,
    responses(
        (status = 201, description = "Published", body = SkillResponse),
        (status = 200, description = "The identical release was already published (`write: unchanged`)", body = SkillResponse),
        (status = 403, description = "Missing record_review (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "This name and version is published with other content; a version never changes (`skill_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The release is malformed or its text fails screening (`record_invalid`, every problem in `errors`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn publish_skill(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<PublishSkillRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::RecordReview, body.scope)?;
    let release = ws::release_from_wire(body.release);
    let problems = release.publication_problems("/release");
    if !problems.is_empty() {
        return Err(ApiError::findings(
            "record_invalid",
            format!(
                "the release breaks {} rule(s); nothing was written",
                problems.len()
            ),
            "",
            problems,
        ));
    }
    let command = Command::Skills(SkillCommand::Publish { namespace, release });
    let write = write_as(&p, Capability::RecordReview, command);
    let retry = Retry::new("skills.publish", key, value);
    Ok(answer(&state, &p, retry, write, skill_answer(StatusCode::CREATED)).await?)
}

#[utoipa::path(
    get, path = "/api/v1/skills", tag = "skills",
    params(ScopeQuery),
    responses(
        (status = 200, description = "Every release of the namespace's registry, withdrawn ones included", body = SkillsResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn skills(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<ScopeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, query(q)?.scope())?;
    let skills = state.engine.skills().list(&p.tenant_id, &namespace).await?;
    Ok(wire::json(
        StatusCode::OK,
        &SkillsResponse {
            contract_version: CONTRACT_VERSION,
            skills: skills.iter().map(ws::skill_to_wire).collect(),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/skills/{name}/{version}/withdraw", tag = "skills",
    params(
        ("name" = String, Path, description = "Skill name"),
        ("version" = String, Path, description = "Release version"),
    ),
    request_body = WithdrawSkillRequest,
    responses(
        (status = 200, description = "Withdrawn (`write: unchanged` when it already was); records relating to it are flagged `repo.withdrawn_skill`", body = SkillResponse),
        (status = 403, description = "Missing record_review (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such release in this scope (`skill_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The reason is blank, too long or fails screening (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn withdraw_skill(
    State(state): State<AppState>,
    Auth(p): Auth,
    names: Result<Path<(String, String)>, PathRejection>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<WithdrawSkillRequest>,
) -> Result<Response, ApiError> {
    let (name, version) = path(names)?;
    let retry = Retry::new(
        format!("skills.withdraw:{}", serde_json::json!([name, version])),
        key,
        value,
    );
    let namespace = namespace_of(&p, Capability::RecordReview, body.scope)?;
    check_reason(&body.reason)?;
    let command = Command::Skills(SkillCommand::Withdraw {
        namespace,
        name,
        version,
        reason: body.reason,
    });
    let write = write_as(&p, Capability::RecordReview, command);
    Ok(answer(&state, &p, retry, write, skill_answer(StatusCode::OK)).await?)
}
