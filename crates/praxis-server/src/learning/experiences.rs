//! Development experiences: recording attempts (`experience_write`),
//! reporting events on them (`experience_report`, the bound reporter
//! only), reading, paging, lineage and exports (`experience_read`), and
//! withdrawing observations (`experience_evidence_admin` with
//! `experience_read`). Every endpoint names an exact scope and acts in its
//! namespace; an attempt in another tenant or namespace is 404.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use praxis_api::{
    CONTRACT_VERSION, EventReadResponse, ExperienceExport, ExperienceHistoryRequest,
    ExperienceHistoryResponse, ExperienceResponse, ExportExperiencesRequest,
    InspectWithdrawalRequest, InspectWithdrawalResponse, LineageResponse, ReadEventRequest,
    ReadExperienceRequest, RecordExperienceRequest, ReportEventRequest, ReportEventResponse,
    Visibility, WithdrawObservationRequest, WithdrawalResponse,
};
use praxis_domain::auth::{Capability, Namespace, Principal};
use praxis_domain::learning::{MAX_EXPORT_EVENTS, check_text, export as export_of};
use praxis_store::learning::{ExperienceLog, LearningWrite};
use praxis_store::{Command, LearningCommand, StoreError};

use super::written;
use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::request::{namespace_of, write_as};
use crate::wire::{self, learning as wl};

/// Default history page.
const DEFAULT_PAGE: usize = 100;
/// Largest history page.
const MAX_PAGE: usize = 500;

fn unexpected() -> StoreError {
    StoreError::inconsistent("an experience write answered with another effect")
}

fn experience_not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "experience_not_found",
        "no such attempt in this scope",
    )
    .at("/attempt_id")
}

fn observation_not_found(field: String) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "observation_not_found",
        "no such event of this attempt in this scope",
    )
    .at(field)
}

/// Everything stored about an attempt of the caller's namespace, or 404.
async fn log_of(
    state: &AppState,
    p: &Principal,
    namespace: &Namespace,
    attempt_id: &str,
) -> Result<ExperienceLog, ApiError> {
    check_text("/attempt_id", attempt_id)?;
    state
        .engine
        .learning()
        .experience(&p.tenant_id, namespace, attempt_id)
        .await?
        .ok_or_else(experience_not_found)
}

#[utoipa::path(
    post, path = "/api/v1/experiences", operation_id = "record_experience", tag = "experiences",
    request_body = RecordExperienceRequest,
    responses(
        (status = 201, description = "Recorded at revision 1", body = ExperienceResponse),
        (status = 200, description = "The identical attempt was already recorded by the caller: the original answer", body = ExperienceResponse),
        (status = 403, description = "Missing experience_write (`missing_capability`), the scope grant (`missing_grant`), or a private attempt that does not name the caller as its reporter (`not_reporter`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "The id names another attempt, or one recorded by another subject (`idempotency_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`), the context or parent does not exist (`unknown_reference`), or the parent chain would exceed 64 (`lineage_too_deep`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn record(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<RecordExperienceRequest>,
) -> Result<Response, ApiError> {
    let private = body.scope.visibility == Visibility::Private;
    let namespace = namespace_of(&p, Capability::ExperienceWrite, body.scope)?;
    let attempt = wl::attempt_from_wire(body.experience);
    attempt.validate("/experience")?;
    if private {
        attempt.check_private_reporter(&p.subject)?;
    }
    let command = Command::Learning(LearningCommand::Record { namespace, attempt });
    let render: Render = Arc::new(|applied| match applied.learning() {
        Some(LearningWrite::Recorded { experience, new }) => Ok(Answer::json(
            written(*new),
            &ExperienceResponse {
                contract_version: CONTRACT_VERSION,
                experience: wl::experience_to_wire(experience),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::ExperienceWrite, command);
    let retry = Retry::new("experiences.record", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/experiences/events", operation_id = "report_experience_event", tag = "experiences",
    request_body = ReportEventRequest,
    responses(
        (status = 201, description = "Accepted: the event and the experience after it", body = ReportEventResponse),
        (status = 200, description = "The identical event was already accepted under its id: the original answer", body = ReportEventResponse),
        (status = 403, description = "Missing experience_report (`missing_capability`), the scope grant (`missing_grant`), or the caller is not the attempt's reporter (`not_reporter`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such attempt in this scope (`experience_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "A stale expected revision (`revision_conflict`, with `current_revision`), a change of terminal outcome (`terminal_outcome`), or the event id names other content (`idempotency_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`) or a known consumption value decreased (`consumption_decreased`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn report(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<ReportEventRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceReport, body.scope)?;
    check_text("/attempt_id", &body.attempt_id)?;
    let event = wl::event_from_wire(body.event);
    event.validate("/event")?;
    let command = Command::Learning(LearningCommand::Report {
        namespace,
        attempt_id: body.attempt_id,
        event,
    });
    let render: Render = Arc::new(|applied| match applied.learning() {
        Some(LearningWrite::Reported {
            event,
            experience,
            new,
        }) => Ok(Answer::json(
            written(*new),
            &ReportEventResponse {
                contract_version: CONTRACT_VERSION,
                event: wl::event_to_wire(event),
                experience: wl::experience_to_wire(experience),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::ExperienceReport, command);
    let retry = Retry::new("experiences.report", key, value);
    answer(&state, &p, retry, write, render)
        .await
        .map_err(|e| ApiError::from(e).revision_at("/event/expected_revision"))
}

#[utoipa::path(
    post, path = "/api/v1/experiences/read", operation_id = "read_experience", tag = "experiences",
    request_body = ReadExperienceRequest,
    responses(
        (status = 200, description = "The experience, its state re-verified against the fold of its events", body = ExperienceResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such attempt in this scope (`experience_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ReadExperienceRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    let log = log_of(&state, &p, &namespace, &body.attempt_id).await?;
    Ok(wire::json(
        StatusCode::OK,
        &ExperienceResponse {
            contract_version: CONTRACT_VERSION,
            experience: wl::experience_to_wire(&log.experience),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/experiences/events/read", operation_id = "read_experience_event", tag = "experiences",
    request_body = ReadEventRequest,
    responses(
        (status = 200, description = "The event, re-verified, and its withdrawal if any", body = EventReadResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such attempt (`experience_not_found`) or event (`observation_not_found`) in this scope", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read_event(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ReadEventRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    let log = log_of(&state, &p, &namespace, &body.attempt_id).await?;
    let event = log
        .event(&body.event_id)
        .ok_or_else(|| observation_not_found("/event_id".into()))?;
    Ok(wire::json(
        StatusCode::OK,
        &EventReadResponse {
            contract_version: CONTRACT_VERSION,
            event: wl::event_to_wire(event),
            withdrawal: log
                .withdrawal_of(&body.event_id)
                .map(wl::withdrawal_to_wire),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/experiences/history", operation_id = "experience_history", tag = "experiences",
    request_body = ExperienceHistoryRequest,
    responses(
        (status = 200, description = "One page of the attempt's events in revision order", body = ExperienceHistoryResponse),
        (status = 400, description = "`after` is not a cursor of this list (`invalid_cursor`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such attempt in this scope (`experience_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` is not 1 to 500 (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn history(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ExperienceHistoryRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    let limit = match body.limit.map(|l| l as usize) {
        None => DEFAULT_PAGE,
        Some(l) if (1..=MAX_PAGE).contains(&l) => l,
        Some(_) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_field",
                format!("limit must be 1 to {MAX_PAGE}"),
            )
            .at("/limit"));
        }
    };
    let list = crate::cursor::List::new(&state.seal, "experiences.history", &p.tenant_id)
        .by(Some(namespace.as_str()))
        .by(Some(&body.attempt_id));
    // The cursor travels in the body here, so its pointer is `/after`.
    let after: u64 = list
        .after(body.after.as_deref())
        .map_err(|e| e.at("/after"))?
        .unwrap_or(0);
    let log = log_of(&state, &p, &namespace, &body.attempt_id).await?;
    let rest: Vec<_> = log
        .events
        .iter()
        .filter(|e| e.event.revision > after)
        .collect();
    let page = &rest[..rest.len().min(limit)];
    let next_cursor = (rest.len() > limit)
        .then(|| page.last().map(|e| list.cursor(&e.event.revision)))
        .flatten();
    Ok(wire::json(
        StatusCode::OK,
        &ExperienceHistoryResponse {
            contract_version: CONTRACT_VERSION,
            events: page.iter().map(|e| wl::event_to_wire(e)).collect(),
            next_cursor,
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/experiences/lineage", operation_id = "experience_lineage", tag = "experiences",
    request_body = ReadExperienceRequest,
    responses(
        (status = 200, description = "The parent chain, the attempt first and its root last (at most 64); every link's bound digest re-checked", body = LineageResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such attempt in this scope (`experience_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn lineage(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ReadExperienceRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    check_text("/attempt_id", &body.attempt_id)?;
    let chain = state
        .engine
        .learning()
        .lineage(&p.tenant_id, &namespace, &body.attempt_id)
        .await?
        .ok_or_else(experience_not_found)?;
    Ok(wire::json(
        StatusCode::OK,
        &LineageResponse {
            contract_version: CONTRACT_VERSION,
            lineage: chain.iter().map(wl::experience_to_wire).collect(),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/experiences/export", operation_id = "export_experiences", tag = "experiences",
    request_body = ExportExperiencesRequest,
    responses(
        (status = 200, description = "The observations sorted by attempt, their summary and its digest. Totals are decimal strings; `reported_total` is null when any part is unknown", body = ExperienceExport),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "An attempt (`experience_not_found`) or event (`observation_not_found`) does not exist in this scope; `field` names it", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "An observation is withdrawn (`observation_withdrawn`); `field` names it", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not 1 to 64 events, two of one attempt, or attempts of different accounting units (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn export(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<ExportExperiencesRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    if body.events.is_empty() || body.events.len() > MAX_EXPORT_EVENTS {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_field",
            format!("an export names 1 to {MAX_EXPORT_EVENTS} events"),
        )
        .at("/events"));
    }
    let mut logs: BTreeMap<&str, ExperienceLog> = BTreeMap::new();
    for (i, key) in body.events.iter().enumerate() {
        check_text(&format!("/events/{i}/attempt_id"), &key.attempt_id)?;
        check_text(&format!("/events/{i}/event_id"), &key.event_id)?;
        if !logs.contains_key(key.attempt_id.as_str()) {
            let log = state
                .engine
                .learning()
                .experience(&p.tenant_id, &namespace, &key.attempt_id)
                .await?
                .ok_or_else(|| experience_not_found().at(format!("/events/{i}/attempt_id")))?;
            logs.insert(&key.attempt_id, log);
        }
    }
    let mut pairs = Vec::with_capacity(body.events.len());
    for (i, key) in body.events.iter().enumerate() {
        let log = &logs[key.attempt_id.as_str()];
        let event = log
            .event(&key.event_id)
            .ok_or_else(|| observation_not_found(format!("/events/{i}/event_id")))?;
        if log.withdrawal_of(&key.event_id).is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "observation_withdrawn",
                "a withdrawn observation cannot be exported",
            )
            .at(format!("/events/{i}")));
        }
        pairs.push((&log.experience.attempt, &event.event));
    }
    let export = export_of(&pairs)?;
    let body: ExperienceExport = wl::export_to_wire(&export);
    Ok(wire::json(StatusCode::OK, &body))
}

#[utoipa::path(
    post, path = "/api/v1/experiences/withdrawals", operation_id = "withdraw_observation", tag = "experiences",
    request_body = WithdrawObservationRequest,
    responses(
        (status = 201, description = "Withdrawn for good; history is kept", body = WithdrawalResponse),
        (status = 200, description = "The identical withdrawal was already made under the key: the original receipt", body = WithdrawalResponse),
        (status = 403, description = "Missing experience_evidence_admin or experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such event in this scope (`observation_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already withdrawn under another key (`experience_already_withdrawn`), or the key names another withdrawal (`idempotency_conflict`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule, the digest is not the event's, or the reason has a screening finding (`invalid_field`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<WithdrawObservationRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceEvidenceAdmin, body.scope.clone())?;
    namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    let withdrawal = wl::withdrawal_from_wire(body.idempotency_key, body.observation, body.reason)?;
    withdrawal.validate()?;
    let command = Command::Learning(LearningCommand::Withdraw {
        namespace,
        withdrawal,
    });
    let render: Render = Arc::new(|applied| match applied.learning() {
        Some(LearningWrite::Withdrawn { withdrawal, new }) => Ok(Answer::json(
            written(*new),
            &WithdrawalResponse {
                contract_version: CONTRACT_VERSION,
                withdrawal: wl::withdrawal_to_wire(withdrawal),
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::ExperienceEvidenceAdmin, command);
    let retry = Retry::new("experiences.withdraw", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/experiences/withdrawals/inspect", operation_id = "inspect_withdrawal", tag = "experiences",
    request_body = InspectWithdrawalRequest,
    responses(
        (status = 200, description = "Whether the observation is withdrawn, and by which receipt", body = InspectWithdrawalResponse),
        (status = 403, description = "Missing experience_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such attempt (`experience_not_found`) or event (`observation_not_found`) in this scope", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn inspect(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<InspectWithdrawalRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::ExperienceRead, body.scope)?;
    let o = body.observation;
    let log = log_of(&state, &p, &namespace, &o.attempt_id)
        .await
        .map_err(|e| e.at("/observation/attempt_id"))?;
    log.event(&o.event_id)
        .ok_or_else(|| observation_not_found("/observation/event_id".into()))?;
    let withdrawal = log.withdrawal_of(&o.event_id).map(wl::withdrawal_to_wire);
    Ok(wire::json(
        StatusCode::OK,
        &InspectWithdrawalResponse {
            contract_version: CONTRACT_VERSION,
            withdrawn: withdrawal.is_some(),
            withdrawal,
        },
    ))
}
