//! Public operational endpoints: health, readiness, metrics and the OpenAPI document.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use praxis_api::Health;
use praxis_store::readiness::NotReady;

use crate::AppState;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
}

fn health(status: StatusCode, message: &str, store: &str, failed: Option<NotReady>) -> Response {
    let body = Health {
        status: message.to_owned(),
        store: store.to_owned(),
        reason: failed.as_ref().map(|f| f.reason.code().to_owned()),
        detail: failed.map(|f| f.detail),
    };
    (status, axum::Json(body)).into_response()
}

/// Liveness: the process answers. It says nothing of the store.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The process is alive", body = Health)))]
pub(crate) async fn healthz(State(state): State<AppState>) -> Response {
    health(StatusCode::OK, "ok", state.engine.kind(), None)
}

/// Readiness: the store takes a durable write now. The probe commits a
/// scratch row through the store's writer and, on SQLite, checks free disk
/// space against the configured minimum; its result is reused for a
/// moment, so scraping does not become write load.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, description = "Ready: the latest probe's durable write succeeded", body = Health),
              (status = 503, description = "The store cannot take a durable write; `reason` says which check failed", body = Health)))]
pub(crate) async fn readyz(State(state): State<AppState>) -> Response {
    let settings = state.settings.readiness;
    match state.readiness.probe(&*state.engine, settings).await {
        Ok(()) => health(StatusCode::OK, "ok", state.engine.kind(), None),
        Err(failed) => {
            tracing::warn!(reason = failed.reason.code(), detail = %failed.detail, "not ready");
            health(
                StatusCode::SERVICE_UNAVAILABLE,
                "not ready",
                state.engine.kind(),
                Some(failed),
            )
        }
    }
}

/// Prometheus text metrics.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition", content_type = "text/plain")))]
pub(crate) async fn metrics(State(state): State<AppState>) -> Response {
    let out = state.metrics.render(state.engine.as_ref());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        out,
    )
        .into_response()
}

/// The OpenAPI 3.1 document of this API.
#[utoipa::path(get, path = "/openapi.json", tag = "operations",
    responses((status = 200, description = "OpenAPI 3.1 document", body = Object, content_type = "application/json")))]
pub(crate) async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::openapi::document(),
    )
        .into_response()
}
