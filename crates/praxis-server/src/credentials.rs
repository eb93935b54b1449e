//! Credential endpoints: issue, rotate, revoke, read and list.

use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use praxis_api::{
    CONTRACT_VERSION, CredentialPage, CredentialResponse, EmptyRequest, IssueCredentialRequest,
    TokenResponse,
};
use praxis_domain::auth::{Capability, Principal, Token};
use praxis_domain::credentials::IssueRequest;
use praxis_domain::time::Timestamp;
use praxis_store::{AuthCommand, Command, StoreError};
use serde::Deserialize;

use crate::AppState;
use crate::admin::{credential_to_wire, issue_command, new_token, now, scope_from_wire};
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{page_limit, path, write_as};

/// Routes under `/api/v1`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/credentials", post(issue).get(list))
        .route("/credentials/{id}", get(read))
        .route("/credentials/{id}/revoke", post(revoke))
        .route("/credentials/{id}/rotate", post(rotate))
        .route("/capabilities", get(capabilities))
}

#[utoipa::path(
    get, path = "/api/v1/capabilities", tag = "credentials",
    responses(
        (status = 200, description = "Every capability with one line on what it allows, and whether the caller holds it (any credential may ask)", body = praxis_api::CapabilitiesResponse),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn capabilities(Auth(p): Auth) -> Response {
    let capabilities = Capability::ALL
        .iter()
        .map(|c| praxis_api::CapabilityInfo {
            name: c.as_str().to_owned(),
            description: c.description().to_owned(),
            held: p.capabilities.contains(c),
        })
        .collect();
    crate::wire::json(
        StatusCode::OK,
        &praxis_api::CapabilitiesResponse {
            contract_version: CONTRACT_VERSION,
            capabilities,
        },
    )
}

fn json_response(status: StatusCode, bytes: Vec<u8>) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

/// A 200 answer carrying one credential as it stands now.
fn credential_response(credential: &praxis_domain::credentials::Credential) -> Response {
    let bytes = serde_json::to_vec(&CredentialResponse {
        contract_version: CONTRACT_VERSION,
        credential: credential_to_wire(credential, now()),
    })
    .expect("responses serialize");
    json_response(StatusCode::OK, bytes)
}

/// Answers a command whose answer carries a fresh token: the receipt of a
/// keyed request is sealed, so a retry gets the same token back while the
/// store never holds it in clear.
async fn token_write(
    state: &AppState,
    p: &Principal,
    retry: Retry,
    token: &Token,
    command: Command,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let rendered = token.render();
    let at = now();
    let render: Render = Arc::new(move |applied| {
        let credential = applied
            .credential()
            .ok_or_else(|| StoreError::inconsistent("a credential command reported none"))?;
        Ok(Answer::json(
            status,
            &TokenResponse {
                contract_version: CONTRACT_VERSION,
                credential: credential_to_wire(credential, at),
                token: rendered.clone(),
            },
        ))
    });
    let write = write_as(p, Capability::CredentialAdmin, command);
    Ok(answer(state, p, retry.sealed(), write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/credentials", tag = "credentials",
    request_body = IssueCredentialRequest,
    responses(
        (status = 201, description = "Issued; the token is shown only here", body = TokenResponse),
        (status = 403, description = "Missing credential_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn issue(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<IssueCredentialRequest>,
) -> Result<Response, ApiError> {
    p.require(Capability::CredentialAdmin)?;
    let expires_at = body
        .expires_at
        .as_deref()
        .map(|s| {
            Timestamp::parse_rfc3339(s).map_err(|_| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_field",
                    "expected RFC 3339",
                )
                .at("/expires_at")
            })
        })
        .transpose()?;
    let grants = body.grants.into_iter().map(scope_from_wire).collect();
    let request = IssueRequest::new(body.subject, body.capabilities, grants, expires_at, now())?;
    let token = new_token();
    let command = issue_command(&token, request);
    let retry = Retry::new("credentials.issue", key, value);
    token_write(&state, &p, retry, &token, command, StatusCode::CREATED).await
}

#[utoipa::path(
    post, path = "/api/v1/credentials/{id}/rotate", tag = "credentials",
    request_body = EmptyRequest,
    params(("id" = String, Path, description = "Credential id")),
    responses(
        (status = 200, description = "Rotated; the old token stops working at once", body = TokenResponse),
        (status = 403, description = "Missing credential_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such credential in this tenant (`not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The credential is revoked (`credential_revoked`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn rotate(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { value, .. }: ApiJson<EmptyRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    p.require(Capability::CredentialAdmin)?;
    let mut token = new_token();
    token.credential_id = id.clone();
    let command = Command::Auth(AuthCommand::RotateCredential {
        credential_id: id.clone(),
        secret_sha256: token.secret_hash(),
    });
    let retry = Retry::new(format!("credentials.rotate:{id}"), key, value);
    token_write(&state, &p, retry, &token, command, StatusCode::OK).await
}

#[utoipa::path(
    post, path = "/api/v1/credentials/{id}/revoke", tag = "credentials",
    request_body = EmptyRequest,
    params(("id" = String, Path, description = "Credential id")),
    responses(
        (status = 200, description = "Revoked (revoking again changes nothing)", body = CredentialResponse),
        (status = 403, description = "Missing credential_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such credential in this tenant (`not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn revoke(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { value, .. }: ApiJson<EmptyRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    p.require(Capability::CredentialAdmin)?;
    let retry = Retry::new(format!("credentials.revoke:{id}"), key, value);
    let command = Command::Auth(AuthCommand::RevokeCredential { credential_id: id });
    let render: Render = Arc::new(|applied| {
        let credential = applied
            .credential()
            .ok_or_else(|| StoreError::inconsistent("revoke applied no credential"))?;
        Ok(Answer::json(
            StatusCode::OK,
            &CredentialResponse {
                contract_version: CONTRACT_VERSION,
                credential: credential_to_wire(credential, now()),
            },
        ))
    });
    let write = write_as(&p, Capability::CredentialAdmin, command);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    get, path = "/api/v1/credentials/{id}", operation_id = "read_credential", tag = "credentials",
    params(("id" = String, Path, description = "Credential id")),
    responses(
        (status = 200, description = "The credential", body = CredentialResponse),
        (status = 403, description = "Missing credential_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such credential in this tenant (`not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    p.require(Capability::CredentialAdmin)?;
    let credential = state
        .engine
        .credentials()
        .get(&p.tenant_id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("credential"))?;
    Ok(credential_response(&credential))
}

/// Query of the credential list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// The previous page's `next_cursor` (opaque), passed back unchanged; leave it out for the first page.
    after: Option<String>,
    /// Page size, 1..=500 (default 100).
    #[param(minimum = 1, maximum = 500)]
    limit: Option<usize>,
}

#[utoipa::path(
    get, path = "/api/v1/credentials", tag = "credentials",
    params(ListQuery),
    responses(
        (status = 200, description = "A page of credentials", body = CredentialPage),
        (status = 403, description = "Missing credential_admin (`missing_capability`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    Auth(p): Auth,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    p.require(Capability::CredentialAdmin)?;
    let q = crate::request::query(query)?;
    let limit = page_limit(q.limit, 100, 500)?;
    let list = crate::cursor::List::new(&state.seal, "credentials.list", &p.tenant_id);
    let after: Option<String> = list.after(q.after.as_deref())?;
    let rows = state
        .engine
        .credentials()
        .list(&p.tenant_id, after.as_deref(), limit)
        .await?;
    let at = now();
    let next_cursor = (rows.len() == limit)
        .then(|| rows.last().map(|c| list.cursor(&c.id)))
        .flatten();
    let bytes = serde_json::to_vec(&CredentialPage {
        contract_version: CONTRACT_VERSION,
        credentials: rows.iter().map(|c| credential_to_wire(c, at)).collect(),
        next_cursor,
    })
    .expect("responses serialize");
    Ok(json_response(StatusCode::OK, bytes))
}
