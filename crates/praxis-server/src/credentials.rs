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
use praxis_domain::digest::{Digest, REQUEST_KIND};
use praxis_domain::time::Timestamp;
use praxis_store::{Applied, AuthCommand, Command, Idempotency, WriteOutcome};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::admin::{credential_to_wire, issue_command, new_token, now, scope_from_wire};
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::request::{execute, page_limit, path, write_as};

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
        (status = 401, description = "No valid credential", body = praxis_api::Problem, content_type = "application/problem+json"),
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

fn token_receipt(applied: &Applied, token: &str, at: Timestamp) -> Vec<u8> {
    let credential = applied
        .credential()
        .expect("credential commands always report the credential");
    serde_json::to_vec(&TokenResponse {
        contract_version: CONTRACT_VERSION,
        credential: credential_to_wire(credential, at),
        token: token.to_owned(),
    })
    .expect("responses serialize")
}

/// Runs a command whose answer carries a fresh token, with sealed idempotent replay.
/// How a request is recognised when retried: its route, client key and body.
struct Retry<'a> {
    route: &'a str,
    key: Option<String>,
    body: &'a Value,
}

async fn token_write(
    state: &AppState,
    p: &Principal,
    retry: Retry<'_>,
    token: Token,
    command: Command,
    status: StatusCode,
) -> Result<Response, ApiError> {
    let Retry { route, key, body } = retry;
    let at = now();
    let rendered = token.render();
    let mut write = write_as(p, Capability::CredentialAdmin, command);
    let storage_key = key
        .as_deref()
        .map(|raw| state.seal.storage_key(&p.tenant_id, route, raw));
    if let (Some(raw), Some(storage_key)) = (&key, &storage_key) {
        let (tenant, raw_key, rendered) = (p.tenant_id.clone(), raw.clone(), rendered.clone());
        let (seal, sealed_under) = (state.seal.clone(), storage_key.clone());
        write = write.idempotent(
            Idempotency {
                key: storage_key.clone(),
                request_digest: Digest::of_value(
                    REQUEST_KIND,
                    &json!({ "route": route, "body": body }),
                ),
            },
            Arc::new(move |applied| {
                let receipt = token_receipt(applied, &rendered, at);
                seal.seal(&tenant, &raw_key, &sealed_under, &receipt)
            }),
        );
    }
    match state.engine.execute(write).await? {
        WriteOutcome::Committed { applied, .. } => Ok(json_response(
            status,
            token_receipt(&applied, &rendered, at),
        )),
        WriteOutcome::Replayed { receipt } => {
            let raw = key.as_deref().unwrap_or_default();
            let storage_key = storage_key.unwrap_or_default();
            let plain = state
                .seal
                .open(&p.tenant_id, raw, &storage_key, &receipt)
                .ok_or_else(|| {
                    ApiError::from(praxis_store::StoreError::inconsistent(
                        "sealed receipt does not open",
                    ))
                })?;
            Ok(json_response(status, plain))
        }
    }
}

#[utoipa::path(
    post, path = "/api/v1/credentials", tag = "credentials",
    request_body = IssueCredentialRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "16..255 printable ASCII; retries with it return the original receipt, token included")),
    responses(
        (status = 201, description = "Issued; the token is shown only here", body = TokenResponse),
        (status = 400, description = "Malformed request", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 401, description = "No usable credential", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Missing credential_admin", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Idempotency key reused with another request", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 64 KiB", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule", body = praxis_api::Problem, content_type = "application/problem+json"),
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
    let retry = Retry {
        route: "credentials.issue",
        key,
        body: &value,
    };
    token_write(&state, &p, retry, token, command, StatusCode::CREATED).await
}

#[utoipa::path(
    post, path = "/api/v1/credentials/{id}/rotate", tag = "credentials",
    request_body = EmptyRequest,
    params(("id" = String, Path, description = "Credential id"),
           ("Idempotency-Key" = Option<String>, Header, description = "Retries with it return the original new token")),
    responses(
        (status = 200, description = "Rotated; the old token stops working at once", body = TokenResponse),
        (status = 403, description = "Missing credential_admin", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such credential in this tenant", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Revoked, or key reused", body = praxis_api::Problem, content_type = "application/problem+json"),
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
    let route = format!("credentials.rotate:{id}");
    let retry = Retry {
        route: &route,
        key,
        body: &value,
    };
    token_write(&state, &p, retry, token, command, StatusCode::OK).await
}

#[utoipa::path(
    post, path = "/api/v1/credentials/{id}/revoke", tag = "credentials",
    request_body = EmptyRequest,
    params(("id" = String, Path, description = "Credential id")),
    responses(
        (status = 200, description = "Revoked (revoking again changes nothing)", body = CredentialResponse),
        (status = 403, description = "Missing credential_admin", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such credential in this tenant", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn revoke(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    _body: ApiJson<EmptyRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    p.require(Capability::CredentialAdmin)?;
    let command = Command::Auth(AuthCommand::RevokeCredential { credential_id: id });
    let credential = execute(&state, write_as(&p, Capability::CredentialAdmin, command))
        .await?
        .into_credential()
        .ok_or_else(|| {
            ApiError::from(praxis_store::StoreError::inconsistent(
                "revoke applied no credential",
            ))
        })?;
    Ok(credential_response(&credential))
}

#[utoipa::path(
    get, path = "/api/v1/credentials/{id}", operation_id = "read_credential", tag = "credentials",
    params(("id" = String, Path, description = "Credential id")),
    responses(
        (status = 200, description = "The credential", body = CredentialResponse),
        (status = 403, description = "Missing credential_admin", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such credential in this tenant", body = praxis_api::Problem, content_type = "application/problem+json"),
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
    /// Return credentials with ids after this cursor.
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
        (status = 403, description = "Missing credential_admin", body = praxis_api::Problem, content_type = "application/problem+json"),
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
    let rows = state
        .engine
        .credentials()
        .list(&p.tenant_id, q.after.as_deref(), limit)
        .await?;
    let at = now();
    let next_cursor = (rows.len() == limit)
        .then(|| rows.last().map(|c| c.id.clone()))
        .flatten();
    let bytes = serde_json::to_vec(&CredentialPage {
        contract_version: CONTRACT_VERSION,
        credentials: rows.iter().map(|c| credential_to_wire(c, at)).collect(),
        next_cursor,
    })
    .expect("responses serialize");
    Ok(json_response(StatusCode::OK, bytes))
}
