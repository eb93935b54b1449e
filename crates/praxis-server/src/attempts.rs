//! Attempt ledger endpoints: observe, assess, policy, history, counts,
//! import and export.
//!
//! Every endpoint names an exact scope; the caller needs a grant for it and
//! acts in that scope's namespace (a private scope's namespace includes the
//! caller's subject). Assessment reads only: nothing a planner decides from
//! it is written back.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use praxis_api::{
    AssessRequest, AssessResponse, CONTRACT_VERSION, CandidateAction, CountsResponse,
    HistoryResponse, ImportRequest, ImportResponse, ObserveRequest, ObserveResponse,
    PolicyResponse, SetPolicyRequest,
};
use praxis_domain::Refusal;
use praxis_domain::attempts::{self as domain, Observation};
use praxis_domain::auth::Capability;
use praxis_store::attempts::{ActionRef, HistoryOf, WriteKind};
use praxis_store::{AttemptCommand, Command, StoreError};
use serde::Deserialize;

use crate::AppState;
use crate::admin::now;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{ScopeQuery, namespace_of, page_limit, query, wire_scope, write_as};
use crate::wire::{self, attempts as wa};

/// Most candidate actions one assessment may ask about.
pub const MAX_CANDIDATES: usize = 256;
/// Largest history page.
pub const MAX_PAGE: usize = 500;

/// Routes under `/api/v1`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/attempts", post(observe))
        .route("/attempts/assess", post(assess))
        .route("/attempts/policy", post(set_policy).get(read_policy))
        .route("/attempts/history", get(history))
        .route("/attempts/counts", get(counts))
        .route("/attempts/import", post(import))
        .route("/attempts/export", get(export))
}

/// Checks a subject, action or revision an assessment asks about: anything
/// a record can be stored under, imported records included, so that a long
/// subject that came in with a legacy store can be assessed too.
fn check_subject(path: &str, subject: &str) -> Result<(), ApiError> {
    domain::Limits::IMPORT.check_key_id(path, subject)?;
    Ok(())
}

#[utoipa::path(
    post, path = "/api/v1/attempts", tag = "attempts",
    request_body = ObserveRequest,
    responses(
        (status = 201, description = "Recorded", body = ObserveResponse),
        (status = 200, description = "The identical record already existed (`write: unchanged`)", body = ObserveResponse),
        (status = 403, description = "Missing experience_write (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "A different record exists under the same identity (`identity_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The outcome breaks its rules (`invalid_field`) or the disposition does not fit (`invalid_disposition`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn observe(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<ObserveRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceWrite, body.scope)?;
    let outcome = wa::outcome_from_wire(body.outcome, "/outcome")?;
    let observation = Observation::new(
        outcome,
        body.disposition.map(wa::disposition_from_wire),
        "/outcome",
    )
    .map_err(praxis_store::StoreError::from)?;
    let command = Command::Attempts(AttemptCommand::observe(&namespace, observation));
    let render: Render = Arc::new(|applied| {
        let written = applied
            .attempts()
            .first()
            .ok_or_else(|| StoreError::inconsistent("an observation returned no record"))?;
        let status = match written.write {
            WriteKind::Inserted => StatusCode::CREATED,
            WriteKind::Unchanged => StatusCode::OK,
        };
        Ok(Answer::json(
            status,
            &ObserveResponse {
                contract_version: CONTRACT_VERSION,
                write: wa::write_kind_to_wire(written.write),
                record: wa::record_to_wire(&written.record),
            },
        ))
    });
    let write = write_as(&p, Capability::ExperienceWrite, command);
    let retry = Retry::new("attempts.observe", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/attempts/assess", tag = "attempts",
    request_body = AssessRequest,
    responses(
        (status = 200, description = "One assessment per candidate, in request order; nothing is written", body = AssessResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Bad subject or candidates (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn assess(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<AssessRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    check_subject("/subject", &body.subject)?;
    if body.actions.is_empty() || body.actions.len() > MAX_CANDIDATES {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
            "name 1 to 256 candidate actions",
        )
        .at("/actions"));
    }
    let mut actions = Vec::with_capacity(body.actions.len());
    for (i, a) in body.actions.into_iter().enumerate() {
        let (action_id, action_revision) = match a {
            CandidateAction::Id(id) => (id, None),
            CandidateAction::Revision(r) => (r.action_id, r.action_revision),
        };
        check_subject(&format!("/actions/{i}"), &action_id)?;
        if let Some(r) = &action_revision {
            check_subject(&format!("/actions/{i}/action_revision"), r)?;
        }
        actions.push(ActionRef {
            action_id,
            action_revision,
        });
    }
    let (_, assessments) = state
        .engine
        .attempts()
        .assess(
            &p.tenant_id,
            &namespace,
            &body.subject,
            actions.clone(),
            now(),
        )
        .await?;
    state.metrics.domain.assessed(&assessments);
    let assessments = actions
        .into_iter()
        .zip(assessments)
        .map(|(a, s)| wa::assessment_to_wire(a, s))
        .collect();
    Ok(wire::json(
        StatusCode::OK,
        &AssessResponse {
            contract_version: CONTRACT_VERSION,
            assessments,
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/attempts/policy", tag = "attempts",
    request_body = SetPolicyRequest,
    responses(
        (status = 200, description = "The whole policy now in force, after the fields sent were changed", body = PolicyResponse),
        (status = 403, description = "Missing policy_admin (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn set_policy(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<SetPolicyRequest>,
) -> Result<Response, ApiError> {
    let update = wa::policy_update_from_wire(&body);
    let namespace = namespace_of(&p, Capability::PolicyAdmin, body.scope)?;
    update.validate("")?;
    let command = Command::Attempts(AttemptCommand::SetPolicy { namespace, update });
    let render: Render = Arc::new(|applied| {
        let policy = applied
            .policy()
            .ok_or_else(|| StoreError::inconsistent("a policy change returned no policy"))?;
        Ok(Answer::json(StatusCode::OK, &wa::policy_to_wire(policy)))
    });
    let write = write_as(&p, Capability::PolicyAdmin, command);
    let retry = Retry::new("attempts.policy", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    get, path = "/api/v1/attempts/policy", tag = "attempts",
    params(ScopeQuery),
    responses(
        (status = 200, description = "The policy in force (the default when none was set)", body = PolicyResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_policy(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<ScopeQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let scope = q.scope();
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let policy = state
        .engine
        .attempts()
        .policy(&p.tenant_id, &namespace)
        .await?;
    Ok(wire::json(StatusCode::OK, &wa::policy_to_wire(&policy)))
}

/// Query of the history endpoint.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct HistoryQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
    /// The subject.
    subject: String,
    /// Only this action's records.
    action_id: Option<String>,
    /// The previous page's `next_cursor` (opaque), passed back unchanged; leave it out for the first page.
    after: Option<String>,
    /// Page size, 1..=500 (default 100).
    #[param(minimum = 1, maximum = 500)]
    limit: Option<usize>,
}

#[utoipa::path(
    get, path = "/api/v1/attempts/history", operation_id = "attempt_history", tag = "attempts",
    params(HistoryQuery),
    responses(
        (status = 200, description = "Records of the subject (or of the subject and action) in sequence order", body = HistoryResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn history(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<HistoryQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let limit = page_limit(q.limit, 100, MAX_PAGE)?;
    let scope = wire_scope(q.project_id, q.mission_id, q.agent_id, q.visibility);
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let list = crate::cursor::List::new(&state.seal, "attempts.history", &p.tenant_id)
        .by(Some(namespace.as_str()))
        .by(Some(&q.subject))
        .by(q.action_id.as_deref());
    let after = list.after(q.after.as_deref())?.unwrap_or(0);
    let of = match q.action_id {
        Some(action) => HistoryOf::Pair(q.subject, action),
        None => HistoryOf::Subject(q.subject),
    };
    let page = state
        .engine
        .attempts()
        .history(&p.tenant_id, &namespace, of, after, limit)
        .await?;
    Ok(wire::json(
        StatusCode::OK,
        &HistoryResponse {
            contract_version: CONTRACT_VERSION,
            records: page.records.iter().map(wa::record_to_wire).collect(),
            next_cursor: page.next.map(|n| list.cursor(&n)),
        },
    ))
}

/// Query of the counts endpoint.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct CountsQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
    /// Only this subject's records.
    subject: Option<String>,
    /// Only this action's records (needs `subject`).
    action_id: Option<String>,
}

#[utoipa::path(
    get, path = "/api/v1/attempts/counts", tag = "attempts",
    params(CountsQuery),
    responses(
        (status = 200, description = "Records per disposition", body = CountsResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn counts(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<CountsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    if q.action_id.is_some() && q.subject.is_none() {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            "action_id needs subject",
        )
        .at("action_id"));
    }
    let scope = wire_scope(q.project_id, q.mission_id, q.agent_id, q.visibility);
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let counts = state
        .engine
        .attempts()
        .counts(
            &p.tenant_id,
            &namespace,
            q.subject.as_deref(),
            q.action_id.as_deref(),
        )
        .await?;
    let total = counts.values().sum();
    Ok(wire::json(
        StatusCode::OK,
        &CountsResponse {
            contract_version: CONTRACT_VERSION,
            counts: counts
                .into_iter()
                .map(|(d, n)| (wa::disposition_to_wire(d), n))
                .collect(),
            total,
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/attempts/import", tag = "attempts",
    request_body = ImportRequest,
    responses(
        (status = 200, description = "Imported, all records", body = ImportResponse),
        (status = 403, description = "Missing experience_evidence_admin (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Records conflict with stored ones (`identity_conflict`); `errors` names each; nothing imported", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The store is invalid (`invalid_import`); `errors` names every problem; nothing imported", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn import(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<ImportRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceEvidenceAdmin, body.scope)?;
    let store = wa::legacy_from_wire(body.store)?;
    let observations = store.validate().map_err(Refusal::ImportInvalid)?;
    let command = Command::Attempts(AttemptCommand::import(&namespace, observations));
    let render: Render = Arc::new(|applied| {
        let done = applied.attempts();
        let inserted = done
            .iter()
            .filter(|a| a.write == WriteKind::Inserted)
            .count() as u64;
        Ok(Answer::json(
            StatusCode::OK,
            &ImportResponse {
                contract_version: CONTRACT_VERSION,
                inserted,
                unchanged: done.len() as u64 - inserted,
            },
        ))
    });
    let write = write_as(&p, Capability::ExperienceEvidenceAdmin, command);
    let retry = Retry::new("attempts.import", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    get, path = "/api/v1/attempts/export", tag = "attempts",
    params(ScopeQuery),
    responses(
        (status = 200, description = "The namespace as a legacy store, renumbered from 0, every disposition explicit", body = praxis_api::LegacyStore),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn export(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<ScopeQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let scope = q.scope();
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let store =
        praxis_store::attempts::export(state.engine.attempts(), &p.tenant_id, &namespace).await?;
    Ok(wire::json(StatusCode::OK, &wa::legacy_to_wire(store)))
}
