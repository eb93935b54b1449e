//! Public operational endpoints: health, readiness, metrics and the OpenAPI document.

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use praxis_api::Health;

use crate::AppState;

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
}

fn health(status: StatusCode, message: &str, store: &str) -> Response {
    let body = Health {
        status: message.to_owned(),
        store: store.to_owned(),
    };
    (status, axum::Json(body)).into_response()
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, description = "The process is alive", body = Health)))]
pub(crate) async fn healthz(State(state): State<AppState>) -> Response {
    health(StatusCode::OK, "ok", state.engine.kind())
}

/// Readiness: the store is reachable and accepts writes.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, description = "Ready", body = Health),
              (status = 503, description = "The store is not writable", body = Health)))]
pub(crate) async fn readyz(State(state): State<AppState>) -> Response {
    match state.engine.ready().await {
        Ok(()) => health(StatusCode::OK, "ok", state.engine.kind()),
        Err(e) => {
            tracing::warn!(error = %e, "readiness probe failed");
            health(
                StatusCode::SERVICE_UNAVAILABLE,
                "store not writable",
                state.engine.kind(),
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
