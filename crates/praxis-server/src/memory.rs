//! Agent memory: set and delete (`memory_write`), get, search and history
//! (`memory_read`). Every request names an exact scope and acts in its
//! namespace; an item of another tenant or namespace is 404.
//!
//! Item text is screened like record text before anything is written, and
//! a finding is a 422 naming its rule, never the value.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use praxis_api::{
    CONTRACT_VERSION, DeleteMemoryRequest, DeleteMemoryResponse, GetMemoryRequest,
    MemoryHistoryRequest, MemoryHistoryResponse, MemoryResponse, SearchMemoryRequest,
    SearchMemoryResponse, SetMemoryRequest, SetMemoryResponse,
};
use praxis_domain::Refusal;
use praxis_domain::auth::Capability;
use praxis_domain::error::DomainError;
use praxis_domain::memory::search::{matched_fields, query_terms};
use praxis_domain::memory::{MemoryDefinition, MemoryKey, MemoryRevision};
use praxis_store::memory::{MemoryCommand, MemoryWrite};
use praxis_store::{Command, Missing, StoreError};

use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{namespace_of, write_as};
use crate::wire::{self, memory as wm};

/// Search results per page unless asked otherwise.
const SEARCH_PAGE: usize = 20;
/// History changes per page unless asked otherwise.
const HISTORY_PAGE: usize = 50;
/// Most results or changes a page holds.
const MAX_PAGE: usize = 100;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/memory/set", post(set))
        .route("/memory/get", post(get))
        .route("/memory/search", post(search))
        .route("/memory/history", post(history))
        .route("/memory/delete", post(delete))
}

fn unexpected() -> StoreError {
    StoreError::inconsistent("a memory write answered with another effect")
}

fn key_of(key: &str) -> Result<MemoryKey, ApiError> {
    Ok(MemoryKey::parse("/key", key)?)
}

fn revision_of(text: &str) -> Result<MemoryRevision, ApiError> {
    MemoryRevision::parse(text).ok_or_else(|| {
        DomainError::invalid(
            "/expected_revision",
            "must be a revision: mrev_ and 32 hex digits",
        )
        .into()
    })
}

fn page(limit: Option<u32>, default: usize) -> Result<usize, ApiError> {
    let limit = limit.map_or(default, |l| l as usize);
    if (1..=MAX_PAGE).contains(&limit) {
        Ok(limit)
    } else {
        Err(DomainError::invalid("/limit", format!("must be 1 to {MAX_PAGE}")).into())
    }
}

/// The definition a set asks for, checked and screened.
fn definition_of(body: &SetMemoryRequest) -> Result<MemoryDefinition, ApiError> {
    let definition = MemoryDefinition {
        summary: body.summary.clone(),
        body: body.body.clone(),
        tags: body.tags.iter().cloned().collect(),
        priority: wm::priority_from_wire(body.priority),
        bootstrap: body.bootstrap,
    };
    let findings = definition.findings();
    if findings.is_empty() {
        Ok(definition)
    } else {
        Err(Refusal::MemoryInvalid(findings).into())
    }
}

#[utoipa::path(
    post, path = "/api/v1/memory/set", operation_id = "set_memory", tag = "memory",
    request_body = SetMemoryRequest,
    responses(
        (status = 201, description = "Created: a new item (or a key recreated after a delete), with a revision never used before", body = SetMemoryResponse),
        (status = 200, description = "Updated, or the identical definition was already there (`state_changed: false`)", body = SetMemoryResponse),
        (status = 403, description = "Missing memory_write (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "A revision was given for a key with no live item (`memory_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Create-only on a key holding another item (`expected_revision_required`) or a stale revision (`memory_changed`); `current_revision` carries the item's", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`), or the text breaks a bound or screening (`memory_invalid`, each finding naming its rule)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 507, description = "The scope or the tenant holds its limit of live items (`memory_full`); nothing is evicted", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn set(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<SetMemoryRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryWrite, body.scope.clone())?;
    let item_key = key_of(&body.key)?;
    let expected = body
        .expected_revision
        .as_deref()
        .map(revision_of)
        .transpose()?;
    let definition = definition_of(&body)?;
    let command = Command::Memory(MemoryCommand::Set {
        namespace,
        key: item_key,
        definition,
        expected,
        limits: state.settings.memory,
    });
    let render: Render = Arc::new(|applied| match applied.memory() {
        Some(MemoryWrite::Set { item, changed }) => {
            let created = *changed && item.stamp.write == 1;
            let status = if created {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            Ok(Answer::json(
                status,
                &SetMemoryResponse {
                    contract_version: CONTRACT_VERSION,
                    memory: wm::item_to_wire(item),
                    state_changed: *changed,
                },
            ))
        }
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::MemoryWrite, command);
    let retry = Retry::new("memory.set", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/memory/get", operation_id = "get_memory", tag = "memory",
    request_body = GetMemoryRequest,
    responses(
        (status = 200, description = "The live item", body = MemoryResponse),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No live item under the key in this scope (`memory_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn get(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<GetMemoryRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryRead, body.scope)?;
    let key = key_of(&body.key)?;
    let item = state
        .engine
        .memory()
        .get(&p.tenant_id, &namespace, &key)
        .await?
        .ok_or(StoreError::NotFound(Missing::Memory))?;
    Ok(wire::json(
        StatusCode::OK,
        &MemoryResponse {
            contract_version: CONTRACT_VERSION,
            memory: wm::item_to_wire(&item),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/memory/search", operation_id = "search_memory", tag = "memory",
    request_body = SearchMemoryRequest,
    responses(
        (status = 200, description = "Live items holding every word of the query, by key, with their summaries and the fields that matched", body = SearchMemoryResponse),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The query is over 512 characters or 8 words, or `after` or `limit` breaks its rule (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn search(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<SearchMemoryRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryRead, body.scope)?;
    let terms = query_terms("/query", &body.query)?;
    let after = body
        .after
        .as_deref()
        .map(|a| MemoryKey::parse("/after", a))
        .transpose()?;
    let limit = page(body.limit, SEARCH_PAGE)?;
    let items = state
        .engine
        .memory()
        .search(&p.tenant_id, &namespace, &terms, after.as_ref(), limit)
        .await?;
    let next = (items.len() == limit)
        .then(|| items.last().map(|i| i.key.as_str().to_owned()))
        .flatten();
    let results = items
        .iter()
        .map(|i| wm::match_to_wire(i, &matched_fields(&i.key, &i.definition, &terms)))
        .collect();
    Ok(wire::json(
        StatusCode::OK,
        &SearchMemoryResponse {
            contract_version: CONTRACT_VERSION,
            results,
            next,
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/memory/history", operation_id = "memory_history", tag = "memory",
    request_body = MemoryHistoryRequest,
    responses(
        (status = 200, description = "The key's changes, oldest first, deletes included (empty for a key never written)", body = MemoryHistoryResponse),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn history(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<MemoryHistoryRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryRead, body.scope)?;
    let key = key_of(&body.key)?;
    let limit = page(body.limit, HISTORY_PAGE)?;
    let changes = state
        .engine
        .memory()
        .history(
            &p.tenant_id,
            &namespace,
            &key,
            body.after.unwrap_or(0),
            limit,
        )
        .await?;
    let next = (changes.len() == limit)
        .then(|| changes.last().map(|c| c.position))
        .flatten();
    Ok(wire::json(
        StatusCode::OK,
        &MemoryHistoryResponse {
            contract_version: CONTRACT_VERSION,
            key: body.key,
            changes: changes
                .iter()
                .map(|c| wm::change_to_wire(&key, c))
                .collect(),
            next,
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/memory/delete", operation_id = "delete_memory", tag = "memory",
    request_body = DeleteMemoryRequest,
    responses(
        (status = 200, description = "Deleted; the delete is a change of its own and the history stays", body = DeleteMemoryResponse),
        (status = 403, description = "Missing memory_write (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No live item under the key in this scope (`memory_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "A stale revision (`memory_changed`); `current_revision` carries the item's", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn delete(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(idem): IdempotencyKey,
    ApiJson { body, value }: ApiJson<DeleteMemoryRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::MemoryWrite, body.scope)?;
    let key = key_of(&body.key)?;
    let expected = revision_of(&body.expected_revision)?;
    let command = Command::Memory(MemoryCommand::Delete {
        namespace,
        key: key.clone(),
        expected,
    });
    let render: Render = Arc::new(move |applied| match applied.memory() {
        Some(MemoryWrite::Deleted(change)) => Ok(Answer::json(
            StatusCode::OK,
            &DeleteMemoryResponse {
                contract_version: CONTRACT_VERSION,
                key: key.as_str().to_owned(),
                change: wm::change_to_wire(&key, change),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::MemoryWrite, command);
    let retry = Retry::new("memory.delete", idem, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}
