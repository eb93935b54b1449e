//! Experience record endpoints (protocol v0.1): intake, reads, search,
//! history, review, withdrawal, the author's discard and settings.
//!
//! Every endpoint but the schema names an exact scope; the caller needs a
//! grant for it and acts in that scope's namespace, as for attempts. The
//! server owns a record's trust fields: the author is the authenticated
//! subject whatever the body claims, and a human reviewer is the subject
//! that reviews. A submission that fails screening is answered 422 and is
//! still kept, as a rejection in the record's history (findings and a
//! digest, never the text).

use std::sync::Arc;

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use praxis_api::{
    CONTRACT_VERSION, DiscardRecordRequest, RecordCheckResponse, RecordHistoryResponse, RecordPage,
    RecordResponse, RecordSettingsRequest, RecordSettingsResponse, RecordSource,
    RecordWriteResponse, ReviewRecordRequest, SubmitRecordRequest, WithdrawRecordRequest,
    WriteEffect,
};
use praxis_domain::Refusal;
use praxis_domain::auth::{Capability, Namespace, Principal};
use praxis_domain::ledger::Event;
use praxis_domain::records::KeptRecord;
use praxis_domain::records::lifecycle::Source;
use praxis_domain::records::state::{Lifecycle, Platform, VerificationLevel};
use praxis_domain::records::{Finding, schema};
use praxis_domain::skills::Registry;
use praxis_store::records::dry_run::check_submission;
use praxis_store::records::{RecordFilter, RecordWrite, Review, SearchAfter, Submission};
use praxis_store::skills::registry_of;
use praxis_store::{Applied, Command, Missing, RecordCommand, StoreError};
use serde::Deserialize;

use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{
    ScopeQuery, check_reason, namespace_of, page_limit, path, query, wire_scope, write_as,
};
use crate::wire::{self, records as rw};
use crate::{AppState, RECORD_BODY_LIMIT};

/// Largest page of records or history entries.
pub const MAX_PAGE: usize = 200;
/// Page size when none is asked for.
pub const DEFAULT_PAGE: usize = 50;
/// Longest full-text query, in characters.
pub const MAX_QUERY_CHARS: usize = 200;

/// Media type of the served JSON Schema.
const SCHEMA_JSON_TYPE: &str = "application/schema+json";

/// The submission route, which takes bodies up to [`RECORD_BODY_LIMIT`].
pub(crate) fn intake_routes() -> Router<AppState> {
    Router::new()
        .route("/records", post(submit).get(search))
        .route("/records/check", post(check))
}

/// Every other record route under `/api/v1`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/records/schema", get(record_schema))
        .route("/records/settings", post(set_settings).get(read_settings))
        .route("/records/intake", get(intake))
        .route("/records/{id}", get(read))
        .route("/records/{id}/history", get(history))
        .route("/records/{id}/review", post(review))
        .route("/records/{id}/withdraw", post(withdraw))
        .route("/records/{id}/discard", post(discard))
}

/// What a record write may answer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kept {
    /// A submission: a new revision, the unchanged current one, or a
    /// rejection kept in the history.
    Submission,
    /// A review, withdrawal or discard: always a new revision.
    Revision,
}

/// Renders a record write: `status` with the record's new revision and
/// those it superseded, 200 with an unchanged one, or 422 for a kept
/// rejection. `skills` is the registry as read just before the write; it
/// only flags records that relate to withdrawn releases.
fn record_answer(status: StatusCode, kept: Kept, skills: Registry) -> Render {
    Arc::new(move |applied: &Applied| {
        let write = applied
            .records()
            .first()
            .ok_or_else(|| StoreError::inconsistent("a record write returned no result"))?;
        let (effect, row, superseded) = match (write, kept) {
            (RecordWrite::Revised(rows), _) => {
                let (first, superseded) = rows
                    .split_first()
                    .ok_or_else(|| StoreError::inconsistent("a revision kept no row"))?;
                (WriteEffect::Changed, first, superseded)
            }
            (RecordWrite::Unchanged(row), Kept::Submission) => {
                (WriteEffect::Unchanged, &**row, &[] as &[KeptRecord])
            }
            (RecordWrite::Rejected(findings), Kept::Submission) => {
                return Ok(Answer::problem(&ApiError::findings(
                    "record_rejected",
                    format!(
                        "the record breaks {} rule(s); the rejection was kept in its history and the last passing revision is unchanged",
                        findings.len()
                    ),
                    "/record",
                    findings.clone(),
                )));
            }
            _ => return Err(StoreError::inconsistent("a record change kept no revision")),
        };
        let status = match effect {
            WriteEffect::Changed => status,
            WriteEffect::Unchanged => StatusCode::OK,
        };
        Ok(Answer::json(
            status,
            &RecordWriteResponse {
                contract_version: CONTRACT_VERSION,
                write: effect,
                record: row.document.clone(),
                state: rw::state_to_wire(row, &skills),
                superseded: superseded
                    .iter()
                    .map(|r| rw::entry_to_wire(r, &skills))
                    .collect(),
                data_only: true,
            },
        ))
    })
}

/// The namespace's skill registry, read once per answer to flag records.
pub(crate) async fn registry_for(
    state: &AppState,
    p: &Principal,
    ns: &Namespace,
) -> Result<Registry, ApiError> {
    Ok(registry_of(
        &state.engine.skills().list(&p.tenant_id, ns).await?,
    ))
}

#[utoipa::path(
    get, path = "/api/v1/records/schema", tag = "records",
    responses(
        (status = 200, description = "The v0.1 record JSON Schema (Draft 2020-12) every submission is checked against", content_type = "application/schema+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn record_schema(Auth(_): Auth) -> Response {
    (
        [(header::CONTENT_TYPE, SCHEMA_JSON_TYPE)],
        schema::SCHEMA_JSON,
    )
        .into_response()
}

/// The domain source of a submission, or `invalid_field` with every
/// problem of its fields.
fn submitted_source(wire: RecordSource) -> Result<Source, ApiError> {
    // The domain names source fields without the wire's `issue` level.
    let within = match &wire {
        RecordSource::Key(_) => "",
        RecordSource::Issue(_) => "/issue",
    };
    let source = rw::source_from_wire(wire);
    let problems: Vec<Finding> = source
        .problems()
        .into_iter()
        .map(|mut f| {
            f.pointer = f
                .pointer
                .replacen("/source", &format!("/source{within}"), 1);
            f
        })
        .collect();
    if problems.is_empty() {
        Ok(source)
    } else {
        Err(ApiError::findings(
            "invalid_field",
            "the source is malformed; nothing was written",
            "",
            problems,
        ))
    }
}

/// A submission's conflicts name the id the source holds.
fn submit_error(e: StoreError) -> ApiError {
    match e {
        StoreError::Refused(Refusal::SourceConflict(_)) => {
            ApiError::from(e).at("/record/experience_id")
        }
        e => e.into(),
    }
}

#[utoipa::path(
    post, path = "/api/v1/records", tag = "records",
    request_body = SubmitRecordRequest,
    responses(
        (status = 201, description = "A new revision was kept (revision 2 at once when the namespace approves automatically)", body = RecordWriteResponse),
        (status = 200, description = "The identical document is already the current revision (`write: unchanged`)", body = RecordWriteResponse),
        (status = 403, description = "Missing record_submit (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The source is bound to another id or the id to another source (`source_conflict`), or the record is no longer a candidate (`invalid_transition`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body exceeds 160 KiB (`request_too_large`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "`record_rejected`: the record failed screening; `errors` lists every finding (`field` is `/record` + its pointer, `code` its rule). The rejection is kept in the record's history and the last passing revision stays. `invalid_field`: the source is malformed; nothing was written", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn submit(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<SubmitRecordRequest, RECORD_BODY_LIMIT>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::RecordSubmit, body.scope)?;
    let source = submitted_source(body.source)?;
    let command = Command::Records(RecordCommand::Submit(Box::new(Submission {
        namespace: namespace.clone(),
        source,
        author: p.subject.clone(),
        document: body.record,
    })));
    let skills = registry_for(&state, &p, &namespace).await?;
    let render = record_answer(StatusCode::CREATED, Kept::Submission, skills);
    let write = write_as(&p, Capability::RecordSubmit, command);
    let retry = Retry::new("records.submit", key, value);
    // Both conflicts are about which id the source holds.
    answer(&state, &p, retry, write, render)
        .await
        .map_err(submit_error)
}

#[utoipa::path(
    post, path = "/api/v1/records/check", operation_id = "check_record", tag = "records",
    request_body = SubmitRecordRequest,
    responses(
        (status = 200, description = "What a submission of the same body would meet now: `passed`, or every finding it would be rejected with (pointers into the record). Nothing is written: no event, no rejection in the history, no idempotency receipt", body = RecordCheckResponse),
        (status = 403, description = "Missing record_submit (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "A submission would be refused: the source is bound to another id or the id to another source (`source_conflict`), or the record is no longer a candidate (`invalid_transition`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body exceeds 160 KiB (`request_too_large`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The source is malformed (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn check(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<SubmitRecordRequest, RECORD_BODY_LIMIT>,
) -> Result<Json<RecordCheckResponse>, ApiError> {
    let namespace = namespace_of(&p, Capability::RecordSubmit, body.scope)?;
    let source = submitted_source(body.source)?;
    let submission = Submission {
        namespace,
        source,
        author: p.subject.clone(),
        document: body.record,
    };
    let findings = check_submission(
        state.engine.records(),
        state.engine.skills(),
        &p.tenant_id,
        &submission,
        crate::admin::now(),
    )
    .await
    .map_err(submit_error)?;
    Ok(Json(RecordCheckResponse {
        contract_version: CONTRACT_VERSION,
        passed: findings.is_empty(),
        findings: findings.iter().map(rw::finding_to_wire).collect(),
    }))
}

#[utoipa::path(
    get, path = "/api/v1/records/{id}", operation_id = "read_record", tag = "records",
    params(("id" = String, Path, description = "The record's `experience_id`"), ScopeQuery),
    responses(
        (status = 200, description = "The current revision and its state", body = RecordResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such record in this scope (`record_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<ScopeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let namespace = namespace_of(&p, Capability::ExperienceRead, query(q)?.scope())?;
    let row = state
        .engine
        .records()
        .get(&p.tenant_id, &namespace, &id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Record))?;
    let skills = registry_for(&state, &p, &namespace).await?;
    Ok(wire::json(
        StatusCode::OK,
        &RecordResponse {
            contract_version: CONTRACT_VERSION,
            record: row.document.clone(),
            state: rw::state_to_wire(&row, &skills),
            data_only: true,
        },
    ))
}

/// Query of the record search.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
    /// Only records with this lifecycle status: `candidate`, `reviewed`, `superseded` or `withdrawn`.
    #[param(value_type = Option<praxis_api::RecordLifecycle>)]
    lifecycle: Option<String>,
    /// Only records of this platform: `windows`, `macos`, `linux`, `cross-platform` or `other`.
    #[param(value_type = Option<praxis_api::Platform>)]
    platform: Option<String>,
    /// Only records with this verification level: `self-observed`, `locally-verified` or `independently-reproduced`.
    #[param(value_type = Option<praxis_api::VerificationLevel>)]
    verification_level: Option<String>,
    /// Words that must all occur in the record's text, most relevant records first (at most 200 characters). Words are cut at every character that is not a letter or digit, so `rate-limit` asks for `rate` and `limit`; words are stemmed (`limit` finds "limiting"); quotes and operators are never query syntax.
    q: Option<String>,
    /// Find withdrawn records too (default false); `lifecycle=withdrawn` implies it.
    include_withdrawn: Option<bool>,
    /// The previous page's `next_cursor` (opaque), passed back unchanged; leave it out for the first page.
    after: Option<String>,
    /// Page size, 1..=200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    limit: Option<usize>,
}

/// A filter's value, when it is one the protocol allows.
fn filter<T>(
    name: &str,
    value: Option<String>,
    parse: fn(&str) -> Option<T>,
    values: &str,
) -> Result<Option<T>, ApiError> {
    value
        .map(|v| {
            parse(&v).ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "invalid_field",
                    format!("{name} must be one of {values}"),
                )
                .at(name)
            })
        })
        .transpose()
}

#[utoipa::path(
    get, path = "/api/v1/records", tag = "records",
    params(SearchQuery),
    responses(
        (status = 200, description = "Kept records matching every filter, withdrawn ones only when asked: with `q`, most relevant first (bm25 on SQLite, ts_rank on PostgreSQL), then by `experience_id`; without, by `experience_id`", body = RecordPage),
        (status = 400, description = "A malformed query or limit (`invalid_query`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A filter value the protocol does not allow (`invalid_field`, `field` names the parameter)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn search(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<SearchQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let scope = wire_scope(q.project_id, q.mission_id, q.agent_id, q.visibility);
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let limit = page_limit(q.limit, DEFAULT_PAGE, MAX_PAGE)?;
    let text = q.q.filter(|t| !t.trim().is_empty());
    if text
        .as_deref()
        .is_some_and(|t| t.chars().count() > MAX_QUERY_CHARS)
    {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
            format!("q is at most {MAX_QUERY_CHARS} characters"),
        )
        .at("q"));
    }
    let filter = RecordFilter {
        lifecycle: filter(
            "lifecycle",
            q.lifecycle,
            Lifecycle::parse,
            "candidate, reviewed, superseded, withdrawn",
        )?,
        platform: filter(
            "platform",
            q.platform,
            Platform::parse,
            "windows, macos, linux, cross-platform, other",
        )?,
        verification_level: filter(
            "verification_level",
            q.verification_level,
            VerificationLevel::parse,
            "self-observed, locally-verified, independently-reproduced",
        )?,
        text,
        include_withdrawn: false,
    };
    let filter = RecordFilter {
        include_withdrawn: q.include_withdrawn.unwrap_or(false)
            || filter.lifecycle == Some(Lifecycle::Withdrawn),
        ..filter
    };
    // Bound to the filters as the store reads them, so `q=` and no `q` page alike.
    let list = crate::cursor::List::new(&state.seal, "records.search", &p.tenant_id)
        .by(Some(namespace.as_str()))
        .by(filter.lifecycle.map(Lifecycle::as_str))
        .by(filter.platform.map(Platform::as_str))
        .by(filter.verification_level.map(VerificationLevel::as_str))
        .by(filter.text.as_deref())
        .by(filter.include_withdrawn.then_some("withdrawn"));
    let after: Option<SearchAfter> = list.after(q.after.as_deref())?;
    let hits = state
        .engine
        .records()
        .search(
            &p.tenant_id,
            &namespace,
            filter,
            &after.unwrap_or_default(),
            limit,
        )
        .await?;
    let skills = registry_for(&state, &p, &namespace).await?;
    let next_cursor = (hits.len() == limit)
        .then(|| hits.last().map(|h| list.cursor(&h.position())))
        .flatten();
    let rows: Vec<&KeptRecord> = hits.iter().map(|h| &h.record).collect();
    Ok(wire::json(
        StatusCode::OK,
        &RecordPage {
            contract_version: CONTRACT_VERSION,
            records: rows.iter().map(|r| rw::entry_to_wire(r, &skills)).collect(),
            next_cursor,
            data_only: true,
        },
    ))
}

/// Query of a record's history.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct RecordHistoryQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
    /// The previous page's `next_cursor` (opaque), passed back unchanged; leave it out for the first page.
    after: Option<String>,
    /// Page size, 1..=200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    limit: Option<usize>,
}

#[utoipa::path(
    get, path = "/api/v1/records/{id}/history", operation_id = "record_history", tag = "records",
    params(("id" = String, Path, description = "The record's `experience_id`"), RecordHistoryQuery),
    responses(
        (status = 200, description = "Every kept revision (with its document) and every rejected submission (findings and digest) in order", body = RecordHistoryResponse),
        (status = 400, description = "A malformed limit (`invalid_query`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such record in this scope (`record_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn history(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<RecordHistoryQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let q = query(q)?;
    let scope = wire_scope(q.project_id, q.mission_id, q.agent_id, q.visibility);
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let limit = page_limit(q.limit, DEFAULT_PAGE, MAX_PAGE)?;
    let list = crate::cursor::List::new(&state.seal, "records.history", &p.tenant_id)
        .by(Some(namespace.as_str()))
        .by(Some(&id));
    let after = list.after(q.after.as_deref())?.unwrap_or(0);
    let events = state
        .engine
        .records()
        .history(&p.tenant_id, &namespace, &id, after, limit)
        .await?
        .ok_or(StoreError::NotFound(Missing::Record))?;
    history_page(id, &events, limit, &list)
}

/// A page of a stream's history; its cursor is the last entry's stream sequence.
fn history_page(
    experience_id: String,
    events: &[Event],
    limit: usize,
    list: &crate::cursor::List,
) -> Result<Response, ApiError> {
    let next_cursor = (events.len() == limit)
        .then(|| events.last().map(|e| list.cursor(&e.stream_seq)))
        .flatten();
    Ok(wire::json(
        StatusCode::OK,
        &RecordHistoryResponse {
            contract_version: CONTRACT_VERSION,
            experience_id,
            entries: events
                .iter()
                .map(rw::history_entry_to_wire)
                .collect::<Result<_, _>>()?,
            next_cursor,
            data_only: true,
        },
    ))
}

/// Query of one source's intake history.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct IntakeQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
    /// A client key the caller submitted under (keys are the caller's own).
    key: Option<String>,
    /// An issue source as `owner/repo#number`.
    issue: Option<String>,
    /// The previous page's `next_cursor` (opaque), passed back unchanged; leave it out for the first page.
    after: Option<String>,
    /// Page size, 1..=200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    limit: Option<usize>,
}

#[utoipa::path(
    get, path = "/api/v1/records/intake", tag = "records",
    params(IntakeQuery),
    responses(
        (status = 200, description = "Every submission of one source, kept or rejected, in order, even when none passed; `experience_id` is the last one claimed", body = RecordHistoryResponse),
        (status = 400, description = "Neither or both of `key` and `issue`, or a malformed issue or limit (`invalid_query`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn intake(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<IntakeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let scope = wire_scope(q.project_id, q.mission_id, q.agent_id, q.visibility);
    let namespace = namespace_of(&p, Capability::ExperienceRead, scope)?;
    let limit = page_limit(q.limit, DEFAULT_PAGE, MAX_PAGE)?;
    let bad = |m: &str, field: &str| {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", m.to_owned()).at(field)
    };
    let source = match (q.key, q.issue) {
        (Some(key), None) => Source::Key { key },
        (None, Some(issue)) => {
            let (repository, number) = issue
                .split_once('#')
                .and_then(|(r, n)| Some((r.to_owned(), n.parse::<u64>().ok()?)))
                .ok_or_else(|| bad("issue is owner/repo#number", "issue"))?;
            Source::Issue { repository, number }
        }
        _ => return Err(bad("give exactly one of key and issue", "key")),
    };
    if let Some(problem) = source.problems().into_iter().next() {
        return Err(bad(&problem.message, "key"));
    }
    // A key is read under the caller's own subject, like it was written.
    let source = source.key(&p.subject);
    let list = crate::cursor::List::new(&state.seal, "records.intake", &p.tenant_id)
        .by(Some(namespace.as_str()))
        .by(Some(&source));
    let after = list.after(q.after.as_deref())?.unwrap_or(0);
    let events = state
        .engine
        .records()
        .source_history(&p.tenant_id, &namespace, &source, after, limit)
        .await?;
    let claimed = events
        .iter()
        .rev()
        .find_map(|e| e.payload["experience_id"].as_str().map(str::to_owned))
        .unwrap_or_default();
    history_page(claimed, &events, limit, &list)
}

/// Places a review's findings: notes are the request's `/notes`, anything
/// else is in the record.
fn review_error(e: StoreError) -> ApiError {
    match e {
        StoreError::Refused(Refusal::RecordInvalid(findings)) => {
            let (notes, record): (Vec<Finding>, Vec<Finding>) = findings
                .into_iter()
                .partition(|f| f.pointer.starts_with("/review/notes"));
            let notes = notes.into_iter().map(|mut f| {
                f.pointer = f.pointer.replacen("/review/notes", "/notes", 1);
                f
            });
            let record = record.into_iter().map(|mut f| {
                f.pointer = format!("/record{}", f.pointer);
                f
            });
            ApiError::findings(
                "record_invalid",
                "the reviewed record would break a rule; nothing was written",
                "",
                notes.chain(record).collect(),
            )
        }
        e => e.into(),
    }
}

#[utoipa::path(
    post, path = "/api/v1/records/{id}/review", tag = "records",
    params(("id" = String, Path, description = "The record's `experience_id`")),
    request_body = ReviewRecordRequest,
    responses(
        (status = 200, description = "The reviewed record's new revision, and those an approval superseded", body = RecordWriteResponse),
        (status = 403, description = "Missing record_review (`missing_capability`) or the scope grant (`missing_grant`); the reviewer submitted the record (`self_review`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such record in this scope (`record_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Not a candidate, or a superseded record is not reviewed (`invalid_transition`); the record changed since `expected_revision` (`revision_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The reviewed record would break a rule, for example notes missing to request changes (`record_invalid`, every finding in `errors`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn review(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<ReviewRecordRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let retry = Retry::new(format!("records.review:{id}"), key, value);
    let namespace = namespace_of(&p, Capability::RecordReview, body.scope)?;
    let decision = rw::decision_from_wire(body.decision);
    let human_request = body.decision == praxis_api::ReviewDecision::RequestChanges
        && body.mode == praxis_api::ReviewMode::Human;
    if human_request && body.notes.is_none() {
        return Err(ApiError::findings(
            "record_invalid",
            "a request for changes needs notes; nothing was written",
            "",
            vec![Finding::new(
                "/notes",
                "review.notes_required",
                "a request for changes says what to change in its notes",
            )],
        ));
    }
    let command = Command::Records(RecordCommand::Review(Box::new(Review {
        namespace: namespace.clone(),
        experience_id: id,
        decision,
        mode: rw::mode_from_wire(body.mode),
        reviewer: p.subject.clone(),
        notes: body.notes,
        expected_revision: body.expected_revision,
    })));
    let skills = registry_for(&state, &p, &namespace).await?;
    let render = record_answer(StatusCode::OK, Kept::Revision, skills);
    let write = write_as(&p, Capability::RecordReview, command);
    answer(&state, &p, retry, write, render)
        .await
        .map_err(review_error)
}

#[utoipa::path(
    post, path = "/api/v1/records/{id}/withdraw", tag = "records",
    params(("id" = String, Path, description = "The record's `experience_id`")),
    request_body = WithdrawRecordRequest,
    responses(
        (status = 200, description = "Withdrawn; identity and history stay", body = RecordWriteResponse),
        (status = 403, description = "Missing record_review (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such record in this scope (`record_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Only a reviewed record can be withdrawn (`invalid_transition`); the record changed since `expected_revision` (`revision_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The reason is blank, too long or fails screening (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<WithdrawRecordRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let retry = Retry::new(format!("records.withdraw:{id}"), key, value);
    let namespace = namespace_of(&p, Capability::RecordReview, body.scope)?;
    check_reason(&body.reason)?;
    let command = Command::Records(RecordCommand::Withdraw {
        namespace: namespace.clone(),
        experience_id: id,
        reason: body.reason,
        expected_revision: body.expected_revision,
    });
    let skills = registry_for(&state, &p, &namespace).await?;
    let render = record_answer(StatusCode::OK, Kept::Revision, skills);
    let write = write_as(&p, Capability::RecordReview, command);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/records/{id}/discard", operation_id = "discard_record", tag = "records",
    params(("id" = String, Path, description = "The record's `experience_id`")),
    request_body = DiscardRecordRequest,
    responses(
        (status = 200, description = "Discarded: the candidate is withdrawn (it leaves searches for candidates, the review queue) and its history shows the discard with its reason", body = RecordWriteResponse),
        (status = 403, description = "Missing record_submit (`missing_capability`) or the scope grant (`missing_grant`); the caller did not submit the record (`not_record_author`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such record in this scope (`record_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The record was approved, superseded or withdrawn already (`record_not_candidate`); the record changed since `expected_revision` (`revision_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The reason is blank, too long or fails screening (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn discard(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<DiscardRecordRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let retry = Retry::new(format!("records.discard:{id}"), key, value);
    // Discarding is part of submitting: the author needs no review right.
    let namespace = namespace_of(&p, Capability::RecordSubmit, body.scope)?;
    check_reason(&body.reason)?;
    let command = Command::Records(RecordCommand::Discard {
        namespace: namespace.clone(),
        experience_id: id,
        author: p.subject.clone(),
        reason: body.reason,
        expected_revision: body.expected_revision,
    });
    let skills = registry_for(&state, &p, &namespace).await?;
    let render = record_answer(StatusCode::OK, Kept::Revision, skills);
    let write = write_as(&p, Capability::RecordSubmit, command);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/records/settings", tag = "records",
    request_body = RecordSettingsRequest,
    responses(
        (status = 200, description = "The settings now in force", body = RecordSettingsResponse),
        (status = 403, description = "Missing policy_admin (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn set_settings(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<RecordSettingsRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::PolicyAdmin, body.scope)?;
    let command = Command::Records(RecordCommand::SetAutomatedApproval {
        namespace,
        on: body.automated_approval,
    });
    let on = body.automated_approval;
    let render: Render = Arc::new(move |_| {
        Ok(Answer::json(
            StatusCode::OK,
            &RecordSettingsResponse {
                contract_version: CONTRACT_VERSION,
                automated_approval: on,
            },
        ))
    });
    let write = write_as(&p, Capability::PolicyAdmin, command);
    let retry = Retry::new("records.settings", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    get, path = "/api/v1/records/settings", tag = "records",
    params(ScopeQuery),
    responses(
        (status = 200, description = "The settings in force (automated approval off unless set)", body = RecordSettingsResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_settings(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<ScopeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, query(q)?.scope())?;
    let on = state
        .engine
        .records()
        .automated_approval(&p.tenant_id, &namespace)
        .await?;
    Ok(wire::json(
        StatusCode::OK,
        &RecordSettingsResponse {
            contract_version: CONTRACT_VERSION,
            automated_approval: on,
        },
    ))
}
