//! Request counters and latency histogram for `/metrics`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use praxis_store::metrics::Histogram;

use crate::AppState;

/// Upper bounds (microseconds) of the request latency histogram.
const LATENCY_BUCKETS_US: [u64; 10] = [
    250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 100_000, 500_000, 2_000_000,
];

/// HTTP metrics.
pub(crate) struct HttpMetrics {
    requests: Mutex<BTreeMap<(String, String, u16), u64>>,
    latency: Histogram,
}

impl Default for HttpMetrics {
    fn default() -> Self {
        HttpMetrics {
            requests: Mutex::new(BTreeMap::new()),
            latency: Histogram::new(&LATENCY_BUCKETS_US),
        }
    }
}

impl HttpMetrics {
    pub(crate) fn render(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "# HELP praxis_http_requests_total Requests by method, route and status.\n# TYPE praxis_http_requests_total counter"
        );
        for ((method, route, status), n) in self.requests.lock().expect("metrics lock").iter() {
            let _ = writeln!(
                out,
                "praxis_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        self.latency.render(
            "praxis_http_request_duration_microseconds",
            "Request latency.",
            out,
        );
    }
}

/// Counts every request by its route template (never the raw path, which may hold ids).
pub(crate) async fn track(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().to_string();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".into(), |m| m.as_str().to_owned());
    let response = next.run(req).await;
    state
        .metrics
        .latency
        .observe(start.elapsed().as_micros() as u64);
    *state
        .metrics
        .requests
        .lock()
        .expect("metrics lock")
        .entry((method, route, response.status().as_u16()))
        .or_default() += 1;
    response
}
