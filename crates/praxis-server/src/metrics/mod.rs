//! What `/metrics` shows: per-route HTTP metrics ([`http`]), domain
//! counters ([`domain`]) and, rendered beside them, the engine's writer
//! metrics ([`praxis_store::metrics`]), all in the Prometheus text format.

mod domain;
mod http;

use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use praxis_store::metrics::{escape, family, sample};

use crate::AppState;

pub(crate) use domain::Counted;
pub(crate) use http::ProblemCode;

/// Everything the server itself counts.
#[derive(Default)]
pub(crate) struct Metrics {
    /// Requests by route.
    pub(crate) http: http::HttpMetrics,
    /// What the ledger acknowledged.
    pub(crate) domain: domain::DomainMetrics,
}

impl Metrics {
    /// Writes every family: the server's, then the engine's, labelled with
    /// its kind.
    pub(crate) fn render(&self, engine: &dyn praxis_store::Engine) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let name = "praxis_build_info";
        family(
            &mut out,
            name,
            "gauge",
            "Always 1, labelled with the server's version and store engine.",
        );
        let labels = format!(
            "engine=\"{}\",version=\"{}\"",
            escape(engine.kind()),
            env!("CARGO_PKG_VERSION")
        );
        sample(&mut out, name, &labels, 1);
        self.http.render(&mut out);
        self.domain.render(&mut out);
        engine.metrics().render(engine.kind(), &mut out);
        out
    }
}

/// Measures every request under its route template (never the raw path,
/// which may hold ids); a path no route matched is `unmatched`.
pub(crate) async fn track(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    // A clone of the router's own shared string: no allocation.
    let route = req.extensions().get::<MatchedPath>().cloned();
    let response = next.run(req).await;
    state.metrics.http.observe(
        route.as_ref().map(MatchedPath::as_str),
        &method,
        response.status(),
        response.extensions().get::<ProblemCode>(),
        start.elapsed(),
    );
    response
}
