//! Counters the engines keep for `/metrics`, and the Prometheus text
//! exposition they and the server write.
//!
//! Observations are integers in atomics (durations in microseconds), so
//! recording one is a few relaxed atomic adds with no lock; durations are
//! converted to seconds, Prometheus's base unit, only when rendered.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds of the commit batch size histogram.
pub const BATCH_BUCKETS: [u64; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

/// Upper bounds, in microseconds, of every duration histogram: 0.1 ms to
/// 10 s, rendered as seconds.
pub const DURATION_BUCKETS_US: [u64; 15] = [
    100, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 5_000_000, 10_000_000,
];

/// Microseconds per second: durations are kept in the former and shown in
/// the latter.
pub const MICROS: f64 = 1_000_000.0;

/// Writes a metric family's `# HELP` and `# TYPE` lines.
pub fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

/// Writes one sample. `labels` is a rendered label set without braces
/// (`a="x",b="y"`), empty for none.
pub fn sample(out: &mut String, name: &str, labels: &str, value: impl std::fmt::Display) {
    if labels.is_empty() {
        let _ = writeln!(out, "{name} {value}");
    } else {
        let _ = writeln!(out, "{name}{{{labels}}} {value}");
    }
}

/// A label value escaped for the text format (backslash, quote, newline).
pub fn escape(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains(['\\', '"', '\n']) {
        value
            .replace('\\', r"\\")
            .replace('"', r#"\""#)
            .replace('\n', r"\n")
            .into()
    } else {
        value.into()
    }
}

/// A fixed-bucket histogram of integer observations.
#[derive(Debug)]
pub struct Histogram {
    bounds: &'static [u64],
    /// Per bucket, not cumulative: each observation touches one.
    counts: Vec<AtomicU64>,
    sum: AtomicU64,
    total: AtomicU64,
}

impl Histogram {
    /// A histogram over the given upper bounds.
    pub fn new(bounds: &'static [u64]) -> Self {
        Histogram {
            bounds,
            counts: bounds.iter().map(|_| AtomicU64::new(0)).collect(),
            sum: AtomicU64::new(0),
            total: AtomicU64::new(0),
        }
    }

    /// Records one observation.
    pub fn observe(&self, value: u64) {
        if let Some(i) = self.bounds.iter().position(|b| value <= *b) {
            self.counts[i].fetch_add(1, Ordering::Relaxed);
        }
        self.sum.fetch_add(value, Ordering::Relaxed);
        self.total.fetch_add(1, Ordering::Relaxed);
    }

    /// How many observations were recorded.
    pub fn count(&self) -> u64 {
        self.total.load(Ordering::Relaxed)
    }

    /// Mean of all observations, 0 when there are none.
    pub fn mean(&self) -> f64 {
        let total = self.total.load(Ordering::Relaxed);
        if total == 0 {
            0.0
        } else {
            self.sum.load(Ordering::Relaxed) as f64 / total as f64
        }
    }

    /// Writes the histogram's samples (no `# HELP`/`# TYPE`: a family of
    /// several label sets writes those once) with `labels` on each line,
    /// bounds and sum divided by `scale` (1 for plain counts, [`MICROS`]
    /// for seconds).
    ///
    /// Buckets are loaded before the total, and `+Inf` and `_count` are at
    /// least the last finite bucket, so a scrape racing an observation
    /// still shows cumulative buckets.
    pub fn render(&self, out: &mut String, name: &str, labels: &str, scale: f64) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0;
        for (b, c) in self.bounds.iter().zip(&self.counts) {
            cumulative += c.load(Ordering::Relaxed);
            let le = *b as f64 / scale;
            let _ = writeln!(
                out,
                "{name}_bucket{{{labels}{sep}le=\"{le}\"}} {cumulative}"
            );
        }
        let total = self.total.load(Ordering::Relaxed).max(cumulative);
        let _ = writeln!(out, "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {total}");
        let sum = self.sum.load(Ordering::Relaxed) as f64 / scale;
        sample(out, &format!("{name}_sum"), labels, sum);
        sample(out, &format!("{name}_count"), labels, total);
    }
}

/// The storage metrics of one engine.
#[derive(Debug)]
pub struct StoreMetrics {
    /// Writes per commit.
    pub batch_size: Histogram,
    /// Time spent in COMMIT (the durable sync), in microseconds.
    pub sync_us: Histogram,
    /// Batches whose transaction failed, nothing of them durable.
    pub failed_batches: AtomicU64,
}

impl Default for StoreMetrics {
    fn default() -> Self {
        StoreMetrics {
            batch_size: Histogram::new(&BATCH_BUCKETS),
            sync_us: Histogram::new(&DURATION_BUCKETS_US),
            failed_batches: AtomicU64::new(0),
        }
    }
}

impl StoreMetrics {
    /// Counts a batch that failed.
    pub fn failed(&self) {
        self.failed_batches.fetch_add(1, Ordering::Relaxed);
    }

    /// Renders all storage metrics, labelled with the engine's kind.
    pub fn render(&self, engine: &str, out: &mut String) {
        let labels = format!("engine=\"{}\"", escape(engine));
        let name = "praxis_commit_batch_size";
        family(out, name, "histogram", "Writes per durable commit.");
        self.batch_size.render(out, name, &labels, 1.0);
        let name = "praxis_commit_duration_seconds";
        family(
            out,
            name,
            "histogram",
            "Time spent in the durable commit (COMMIT and its sync), in seconds.",
        );
        self.sync_us.render(out, name, &labels, MICROS);
        let name = "praxis_commit_failures_total";
        family(
            out,
            name,
            "counter",
            "Write batches whose transaction failed; none of their writes was acknowledged.",
        );
        sample(
            out,
            name,
            &labels,
            self.failed_batches.load(Ordering::Relaxed),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cumulative_and_seconds_are_scaled() {
        let h = Histogram::new(&DURATION_BUCKETS_US);
        for us in [50, 700, 700, 20_000_000] {
            h.observe(us);
        }
        let mut out = String::new();
        h.render(&mut out, "x_seconds", "a=\"b\"", MICROS);
        assert!(
            out.contains("x_seconds_bucket{a=\"b\",le=\"0.0001\"} 1\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_bucket{a=\"b\",le=\"0.001\"} 3\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_bucket{a=\"b\",le=\"10\"} 3\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_bucket{a=\"b\",le=\"+Inf\"} 4\n"),
            "{out}"
        );
        assert!(out.contains("x_seconds_sum{a=\"b\"} 20.00145\n"), "{out}");
        assert!(out.contains("x_seconds_count{a=\"b\"} 4\n"), "{out}");
    }

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(escape("plain"), "plain");
        assert_eq!(escape("a\"b\\c\nd"), r#"a\"b\\c\nd"#);
    }
}
