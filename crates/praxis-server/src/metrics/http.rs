//! Per-route request metrics: latency histograms and counts by method,
//! route template and status class, responses by exact status, and
//! problem answers by their stable code.
//!
//! Every label value comes from a bounded set: the route is the template
//! the router matched (`/api/v1/records/{id}`, never the path as sent),
//! methods outside the standard ones are `OTHER`, and problem codes are
//! the server's own constants.
//!
//! Recording a request takes a shared read lock on the route table (a
//! write lock only the first time a route is seen) and a few relaxed
//! atomic adds; it allocates nothing.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock};
use std::time::Duration;

use axum::http::{Method, StatusCode};
use praxis_store::metrics::{DURATION_BUCKETS_US, Histogram, MICROS, escape, family, sample};

/// The route label of a request no route matched.
pub(crate) const UNMATCHED: &str = "unmatched";

/// Method label values; anything else is `OTHER`.
const METHODS: [&str; 8] = [
    "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "OTHER",
];

/// Status class label values.
const CLASSES: [&str; 5] = ["1xx", "2xx", "3xx", "4xx", "5xx"];

/// Lowest and highest status counted by exact code.
const FIRST_STATUS: u16 = 100;
const LAST_STATUS: u16 = 599;

/// Lowest status a problem answer can have (problems are 4xx and 5xx).
const FIRST_PROBLEM: u16 = 400;

fn method_index(method: &Method) -> usize {
    match *method {
        Method::GET => 0,
        Method::POST => 1,
        Method::PUT => 2,
        Method::PATCH => 3,
        Method::DELETE => 4,
        Method::HEAD => 5,
        Method::OPTIONS => 6,
        _ => 7,
    }
}

fn class_index(status: StatusCode) -> usize {
    usize::from(status.as_u16() / 100).clamp(1, CLASSES.len()) - 1
}

/// The stable code of a problem answer, set on the response by whatever
/// built it, so that the metrics layer can count refusals by code.
#[derive(Clone, Debug)]
pub(crate) struct ProblemCode(pub(crate) Cow<'static, str>);

/// One route's latency histograms, one per method and status class.
struct RouteSeries {
    latency: Vec<Histogram>,
}

impl RouteSeries {
    fn new() -> Self {
        RouteSeries {
            latency: (0..METHODS.len() * CLASSES.len())
                .map(|_| Histogram::new(&DURATION_BUCKETS_US))
                .collect(),
        }
    }

    fn observe(&self, method: usize, class: usize, micros: u64) {
        self.latency[method * CLASSES.len() + class].observe(micros);
    }

    /// Each (method, class, histogram) that saw a request.
    fn used(&self) -> impl Iterator<Item = (&'static str, &'static str, &Histogram)> {
        self.latency
            .iter()
            .enumerate()
            .filter(|(_, h)| h.count() > 0)
            .map(|(i, h)| (METHODS[i / CLASSES.len()], CLASSES[i % CLASSES.len()], h))
    }
}

/// Per-status counters of one problem code, indexed from [`FIRST_PROBLEM`].
type ProblemCounts = Box<[AtomicU64]>;

/// The HTTP metrics of one server.
pub(crate) struct HttpMetrics {
    routes: RwLock<HashMap<Box<str>, RouteSeries>>,
    unmatched: RouteSeries,
    /// By exact status, indexed from [`FIRST_STATUS`].
    statuses: Box<[AtomicU64]>,
    problems: RwLock<HashMap<Box<str>, ProblemCounts>>,
}

impl Default for HttpMetrics {
    fn default() -> Self {
        HttpMetrics {
            routes: RwLock::default(),
            unmatched: RouteSeries::new(),
            statuses: counters(usize::from(LAST_STATUS - FIRST_STATUS) + 1),
            problems: RwLock::default(),
        }
    }
}

fn counters(n: usize) -> Box<[AtomicU64]> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
}

impl HttpMetrics {
    /// Records one answered request.
    pub(crate) fn observe(
        &self,
        route: Option<&str>,
        method: &Method,
        status: StatusCode,
        problem: Option<&ProblemCode>,
        elapsed: Duration,
    ) {
        let micros = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        let (method, class) = (method_index(method), class_index(status));
        match route {
            None => self.unmatched.observe(method, class, micros),
            Some(route) => {
                let seen = self.routes.read().unwrap_or_else(PoisonError::into_inner);
                if let Some(series) = seen.get(route) {
                    series.observe(method, class, micros);
                } else {
                    drop(seen);
                    self.routes
                        .write()
                        .unwrap_or_else(PoisonError::into_inner)
                        .entry(route.into())
                        .or_insert_with(RouteSeries::new)
                        .observe(method, class, micros);
                }
            }
        }
        let code = status.as_u16();
        if let Some(n) = self
            .statuses
            .get(usize::from(code.saturating_sub(FIRST_STATUS)))
        {
            n.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(ProblemCode(name)) = problem
            && (FIRST_PROBLEM..=LAST_STATUS).contains(&code)
        {
            let at = usize::from(code - FIRST_PROBLEM);
            let seen = self.problems.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(counts) = seen.get(name.as_ref()) {
                counts[at].fetch_add(1, Ordering::Relaxed);
            } else {
                drop(seen);
                self.problems
                    .write()
                    .unwrap_or_else(PoisonError::into_inner)
                    .entry(name.as_ref().into())
                    .or_insert_with(|| counters(usize::from(LAST_STATUS - FIRST_PROBLEM) + 1))[at]
                    .fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Writes the HTTP metric families.
    pub(crate) fn render(&self, out: &mut String) {
        let routes = self.routes.read().unwrap_or_else(PoisonError::into_inner);
        let mut series: Vec<(&str, &RouteSeries)> =
            routes.iter().map(|(r, s)| (r.as_ref(), s)).collect();
        series.push((UNMATCHED, &self.unmatched));
        series.sort_by_key(|(route, _)| *route);
        let labelled = || {
            series.iter().flat_map(|(route, s)| {
                s.used().map(move |(method, class, h)| {
                    (
                        format!(
                            "method=\"{method}\",route=\"{}\",status_class=\"{class}\"",
                            escape(route)
                        ),
                        h,
                    )
                })
            })
        };
        let name = "praxis_http_requests_total";
        family(
            out,
            name,
            "counter",
            "Requests answered, by method, route template and status class.",
        );
        for (labels, h) in labelled() {
            sample(out, name, &labels, h.count());
        }
        let name = "praxis_http_request_duration_seconds";
        family(
            out,
            name,
            "histogram",
            "Time from a request's arrival to its response head, by method, route template and status class, in seconds.",
        );
        for (labels, h) in labelled() {
            h.render(out, name, &labels, MICROS);
        }
        drop(routes);
        let name = "praxis_http_responses_total";
        family(out, name, "counter", "Responses by exact status code.");
        for (code, n) in (FIRST_STATUS..).zip(self.statuses.iter()) {
            let n = n.load(Ordering::Relaxed);
            if n > 0 {
                sample(out, name, &format!("status=\"{code}\""), n);
            }
        }
        let name = "praxis_http_problems_total";
        family(
            out,
            name,
            "counter",
            "Problem answers (refusals and failures) by status and stable problem code.",
        );
        let problems = self.problems.read().unwrap_or_else(PoisonError::into_inner);
        let mut codes: Vec<_> = problems.iter().collect();
        codes.sort_by(|a, b| a.0.cmp(b.0));
        for (code, counts) in codes {
            for (status, n) in (FIRST_PROBLEM..).zip(counts.iter()) {
                let n = n.load(Ordering::Relaxed);
                if n > 0 {
                    let labels = format!("code=\"{}\",status=\"{status}\"", escape(code));
                    sample(out, name, &labels, n);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_come_from_bounded_sets() {
        let m = HttpMetrics::default();
        let odd = Method::from_bytes(b"BREW").unwrap();
        let code = ProblemCode("not_found".into());
        m.observe(
            None,
            &odd,
            StatusCode::NOT_FOUND,
            Some(&code),
            Duration::ZERO,
        );
        m.observe(
            Some("/a/{id}"),
            &Method::GET,
            StatusCode::OK,
            None,
            Duration::from_millis(3),
        );
        let mut out = String::new();
        m.render(&mut out);
        assert!(
            out.contains(
                "praxis_http_requests_total{method=\"OTHER\",route=\"unmatched\",status_class=\"4xx\"} 1\n"
            ),
            "{out}"
        );
        assert!(
            out.contains("praxis_http_request_duration_seconds_bucket{method=\"GET\",route=\"/a/{id}\",status_class=\"2xx\",le=\"0.0025\"} 0\n"),
            "{out}"
        );
        assert!(
            out.contains("praxis_http_request_duration_seconds_bucket{method=\"GET\",route=\"/a/{id}\",status_class=\"2xx\",le=\"0.005\"} 1\n"),
            "{out}"
        );
        assert!(out.contains("praxis_http_responses_total{status=\"404\"} 1\n"));
        assert!(out.contains("praxis_http_problems_total{code=\"not_found\",status=\"404\"} 1\n"));
    }

    #[test]
    fn statuses_outside_the_range_are_not_counted_by_code() {
        let m = HttpMetrics::default();
        let odd = StatusCode::from_u16(999).unwrap();
        let code = ProblemCode("odd".into());
        m.observe(None, &Method::GET, odd, Some(&code), Duration::ZERO);
        let mut out = String::new();
        m.render(&mut out);
        assert!(out.contains("status_class=\"5xx\"} 1\n"), "{out}");
        assert!(!out.contains("status=\"999\""), "{out}");
        assert!(!out.contains("code=\"odd\""), "{out}");
    }
}
