//! Screening a text before it is written (`POST /api/v1/screen`): the
//! record and memory screening, offered to any agent ahead of a write.
//!
//! Any authenticated credential may call it: it reads nothing of the
//! tenant and writes nothing, so it needs no capability and no grant. The
//! answer names each finding's rule, span and remedy, never the text found.

use axum::Router;
use axum::extract::Json;
use axum::http::StatusCode;
use axum::routing::post;
use praxis_api::{CONTRACT_VERSION, ScreenFinding, ScreenRequest, ScreenResponse, ScreenScope};
use praxis_domain::records::MAX_RECORD_BYTES;
use praxis_domain::records::screen;

use crate::error::ApiError;
use crate::extract::{ApiJson, Auth};
use crate::{AppState, RECORD_BODY_LIMIT};

/// The screen route, which takes bodies up to [`RECORD_BODY_LIMIT`]: a
/// text as long as a whole record, escaped.
/// The domain's findings for `text` in the wire's shape: what the endpoint
/// answers, and what `praxis screen` prints offline.
pub fn findings(text: &str, commands: bool) -> Vec<ScreenFinding> {
    screen::screen(text, commands)
        .into_iter()
        .map(|hit| ScreenFinding {
            rule: hit.rule.code().to_owned(),
            start: hit.start as u64,
            end: hit.end as u64,
            remedy: hit.rule.remedy().to_owned(),
        })
        .collect()
}

pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/screen", post(screen_text))
}

/// Whether a scope's text is screened as a command field.
fn commands(scope: &ScreenScope) -> Result<bool, ApiError> {
    match scope {
        ScreenScope::MemoryWrite => Ok(true),
        ScreenScope::RecordSubmit { pointer: None } => Ok(false),
        ScreenScope::RecordSubmit {
            pointer: Some(pointer),
        } => {
            if !pointer.is_empty() && !pointer.starts_with('/') {
                return Err(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "invalid_field",
                    "a pointer is empty or starts with /",
                )
                .at("/scope/pointer"));
            }
            Ok(screen::is_command_pointer(pointer))
        }
    }
}

#[utoipa::path(
    post, path = "/api/v1/screen", operation_id = "screen", tag = "screen",
    request_body = ScreenRequest,
    responses(
        (status = 200, description = "Every finding, by rule, span (Unicode code points of the text as sent, end exclusive) and remedy; empty when the text passed. The text found is never repeated. Any credential may ask: the screen reads nothing of the tenant and writes nothing", body = ScreenResponse),
        (status = 413, description = "The body exceeds 160 KiB (`request_too_large`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The text is over 64 KiB of UTF-8, a record's own bound (`text_too_long`, `field` is `/text`), or the pointer is not a JSON pointer (`invalid_field`, `field` is `/scope/pointer`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn screen_text(
    Auth(_): Auth,
    ApiJson { body, .. }: ApiJson<ScreenRequest, RECORD_BODY_LIMIT>,
) -> Result<Json<ScreenResponse>, ApiError> {
    if body.text.len() > MAX_RECORD_BYTES {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "text_too_long",
            format!("a text to screen holds at most {MAX_RECORD_BYTES} bytes of UTF-8"),
        )
        .at("/text"));
    }
    let commands = commands(&body.scope)?;
    let findings = findings(&body.text, commands);
    Ok(Json(ScreenResponse {
        contract_version: CONTRACT_VERSION,
        findings,
    }))
}
