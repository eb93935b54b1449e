//! Learning authority endpoints: the tenant-wide registry of policies and
//! contexts (`registry`), scoped development experiences with their
//! events, reads, exports and withdrawals (`experiences`), and procedures:
//! strategies, proposals, evaluations, reads and selection (`procedures`).

pub(crate) mod experiences;
pub(crate) mod procedures;
pub(crate) mod registry;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::{get, post};

use crate::AppState;

/// Routes under `/api/v1`.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/learning/policies", post(registry::register_policy))
        .route("/learning/policies/{id}", get(registry::read_policy))
        .route("/learning/contexts", post(registry::register_context))
        .route("/learning/contexts/{id}", get(registry::read_context))
        .route("/experiences", post(experiences::record))
        .route("/experiences/events", post(experiences::report))
        .route("/experiences/read", post(experiences::read))
        .route("/experiences/events/read", post(experiences::read_event))
        .route("/experiences/history", post(experiences::history))
        .route("/experiences/lineage", post(experiences::lineage))
        .route("/experiences/export", post(experiences::export))
        .route("/experiences/withdrawals", post(experiences::withdraw))
        .route(
            "/experiences/withdrawals/inspect",
            post(experiences::inspect),
        )
        .route("/learning/strategies", post(procedures::create_strategy))
        .route("/learning/strategies/read", post(procedures::read_strategy))
        .route(
            "/learning/strategies/inspect",
            post(procedures::inspect_strategy),
        )
        .route("/learning/proposals", post(procedures::propose))
        .route("/learning/evaluations", post(procedures::evaluate))
        .route(
            "/learning/procedures/read",
            post(procedures::read_procedure),
        )
        .route("/learning/select", post(procedures::select))
}

/// The status of a write that is answered the same whether it was made now
/// or found made: 201 when this request wrote it, 200 for the original.
fn written(new: bool) -> StatusCode {
    if new {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    }
}
