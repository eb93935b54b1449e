//! The Praxis HTTP server.
//!
//! [`router`] builds the axum application over any [`praxis_store::Engine`];
//! [`serve`] runs it with graceful shutdown. Handlers authenticate every
//! request from its bearer token, check capabilities and grants, translate
//! wire types to domain commands and answer in problem+json on any failure.

pub mod admin;
mod attempts;
mod connection;
mod credentials;
mod cursor;
pub mod error;
mod extract;
mod head;
mod idempotency;
mod learning;
pub mod listener;
pub mod mcp;
mod memory;
mod metrics;
pub mod openapi;
mod ops;
pub mod projects;
mod proposals;
pub mod readiness;
mod records;
mod request;
pub mod screen;
pub mod seal;
mod skills;
mod wire;

use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, header};
use praxis_store::Engine;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

pub use error::ApiError;

/// Largest accepted request body, in bytes, except record submissions.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Largest accepted record submission body, in bytes: a record of up to
/// 64 KiB as compact JSON, sent pretty-printed or escaped, plus its wrapper.
pub const RECORD_BODY_LIMIT: usize = 160 * 1024;

/// Longest request target accepted, in bytes (path and query as sent);
/// longer is 414 `uri_too_long`. hyper's own limit, past which it answers a
/// bare 414 itself, is 65,534 bytes.
pub const URI_LIMIT: usize = 8 * 1024;

/// Most header bytes accepted (each field's name, value, `": "` and CRLF);
/// more is 431 `headers_too_large`. hyper answers a bare 431 itself past a
/// head of about 400 KiB.
pub const HEADERS_LIMIT: usize = 16 * 1024;

/// Most header fields accepted; more is 431 `headers_too_large`. hyper
/// answers a bare 431 itself past 100.
pub const HEADER_FIELDS_LIMIT: usize = 64;

/// Shared state of every handler.
#[derive(Clone)]
pub struct AppState {
    /// The store.
    pub engine: Arc<dyn Engine>,
    seal: Arc<seal::SealKey>,
    metrics: Arc<metrics::Metrics>,
    settings: Arc<Settings>,
    promotions: proposals::InFlight,
    readiness: Arc<readiness::ProbeCache>,
}

/// What the server's own configuration decides, never a request.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Memory capacity limits.
    pub memory: praxis_store::memory::MemoryLimits,
    /// Project roots, by tenant and id (`--project [TENANT/]ID=DIR`).
    pub projects: Arc<projects::Projects>,
    /// Most open proposals one scope may hold.
    pub max_open_proposals: u64,
    /// Who may call `/mcp` from a browser.
    pub mcp: mcp::McpSettings,
    /// How `/readyz` probes the store.
    pub readiness: readiness::ReadinessSettings,
}

/// Open proposals a scope may hold unless configured otherwise.
pub const DEFAULT_MAX_OPEN_PROPOSALS: u64 = 1_024;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            memory: praxis_store::memory::MemoryLimits::default(),
            projects: Arc::default(),
            max_open_proposals: DEFAULT_MAX_OPEN_PROPOSALS,
            mcp: mcp::McpSettings::default(),
            readiness: readiness::ReadinessSettings::default(),
        }
    }
}

impl AppState {
    /// State over an opened engine, sealing receipts with `seal`, with
    /// default settings.
    pub fn new(engine: Arc<dyn Engine>, seal: seal::SealKey) -> Self {
        AppState {
            engine,
            seal: Arc::new(seal),
            metrics: Arc::default(),
            settings: Arc::new(Settings::default()),
            promotions: proposals::InFlight::default(),
            readiness: Arc::default(),
        }
    }

    /// This state with `settings`.
    #[must_use]
    pub fn with_settings(mut self, settings: Settings) -> Self {
        self.settings = Arc::new(settings);
        self
    }
}

#[derive(Clone, Copy)]
struct UuidRequestId;

impl MakeRequestId for UuidRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        HeaderValue::from_str(&uuid::Uuid::now_v7().to_string())
            .ok()
            .map(RequestId::new)
    }
}

/// Builds the application router: the REST API, and `/mcp`, whose tools
/// call that same REST API in process.
pub fn router(state: AppState) -> Router {
    // Tool calls enter the REST routes below the layers: the `/mcp`
    // request that carries them was already measured, traced and counted.
    let rest = rest_routes()
        .layer(error::catch_panics())
        .with_state(state.clone());
    let mcp = mcp::routes(rest, state.clone());
    layered(rest_routes().merge(mcp), state)
}

/// The REST API's routes and the router's own answers, before the layers.
fn rest_routes() -> Router<AppState> {
    let bounded =
        |limit: usize| axum::middleware::from_fn_with_state(limit, extract::limit_declared_length);
    let api = credentials::routes()
        .merge(attempts::routes())
        .merge(records::routes())
        .merge(skills::routes())
        .merge(learning::routes())
        .merge(memory::routes())
        .merge(projects::routes())
        .merge(proposals::routes())
        .layer(bounded(BODY_LIMIT))
        .merge(records::intake_routes().layer(bounded(RECORD_BODY_LIMIT)))
        .merge(screen::routes().layer(bounded(RECORD_BODY_LIMIT)))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ));
    Router::new()
        .nest("/api/v1", api)
        .merge(ops::routes())
        // The router's own answers are problem documents like every other.
        .fallback(error::no_route)
        .method_not_allowed_fallback(error::method_not_allowed)
}

/// `routes` inside the layers every answer passes through.
fn layered(routes: Router<AppState>, state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    let bounded =
        |limit: usize| axum::middleware::from_fn_with_state(limit, extract::limit_declared_length);
    routes
        // Inside the metrics, request id and trace layers, so a panic's 500
        // is counted and carries the request id.
        .layer(error::catch_panics())
        // Inside the metrics, request id and trace layers like any refusal.
        .layer(axum::middleware::from_fn(head::limit_head))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            metrics::track,
        ))
        // No route accepts more; each group above refuses past its own limit.
        .layer(bounded(RECORD_BODY_LIMIT))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &axum::http::Request<_>| {
            let id = req
                .headers()
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            // Only method, path and request id: headers may carry tokens.
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), request_id = %id)
        }))
        .layer(SetRequestIdLayer::new(request_id, UuidRequestId))
        // Outermost: the head is measured as the client sent it.
        .layer(axum::middleware::map_request(head::measure_head))
        .with_state(state)
}

/// Serves the API on `listener` until `shutdown` resolves, then drains in-flight requests.
pub async fn serve(
    listener: tokio::net::TcpListener,
    engine: Arc<dyn Engine>,
    seal: seal::SealKey,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_router(listener, router(AppState::new(engine, seal)), shutdown).await
}

/// Serves `app` as [`serve`] serves the API, within the default
/// [`listener::Limits`]: for tests and embedders that wrap [`router`] in
/// layers of their own (the integration tests check every answer against
/// the OpenAPI document this way).
pub async fn serve_router(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_router_with(listener, app, listener::Limits::default(), shutdown).await
}

/// Serves `app` within `limits`: the header, body and idle timeouts, the
/// connection cap and the shutdown drain time.
pub async fn serve_router_with(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: listener::Limits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    listener::serve(listener, app, limits, shutdown).await
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! { () = ctrl_c => {}, () = term => {} }
    tracing::info!("shutting down; draining in-flight requests");
}
