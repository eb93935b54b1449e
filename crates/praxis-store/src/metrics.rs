//! Counters the engines keep for `/metrics`.

use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds of the commit batch size histogram.
pub const BATCH_BUCKETS: [u64; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
/// Upper bounds (microseconds) of the sync time histogram.
pub const SYNC_BUCKETS_US: [u64; 8] = [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 50_000];

/// A fixed-bucket cumulative histogram.
#[derive(Debug)]
pub struct Histogram {
    bounds: &'static [u64],
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

    /// Mean of all observations, 0 when there are none.
    pub fn mean(&self) -> f64 {
        let total = self.total.load(Ordering::Relaxed);
        if total == 0 {
            0.0
        } else {
            self.sum.load(Ordering::Relaxed) as f64 / total as f64
        }
    }

    /// Writes the histogram in Prometheus text format.
    pub fn render(&self, name: &str, help: &str, out: &mut String) {
        use std::fmt::Write;
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (b, c) in self.bounds.iter().zip(&self.counts) {
            cumulative += c.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{b}\"}} {cumulative}");
        }
        let total = self.total.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {total}");
        let _ = writeln!(out, "{name}_sum {}", self.sum.load(Ordering::Relaxed));
        let _ = writeln!(out, "{name}_count {total}");
    }
}

/// The storage metrics of one engine.
#[derive(Debug)]
pub struct StoreMetrics {
    /// Writes per commit.
    pub batch_size: Histogram,
    /// Time spent in COMMIT (the durable sync), in microseconds.
    pub sync_us: Histogram,
}

impl Default for StoreMetrics {
    fn default() -> Self {
        StoreMetrics {
            batch_size: Histogram::new(&BATCH_BUCKETS),
            sync_us: Histogram::new(&SYNC_BUCKETS_US),
        }
    }
}

impl StoreMetrics {
    /// Renders all storage metrics.
    pub fn render(&self, out: &mut String) {
        self.batch_size.render(
            "praxis_commit_batch_size",
            "Writes per durable commit.",
            out,
        );
        self.sync_us.render(
            "praxis_commit_sync_microseconds",
            "Time spent in durable commit.",
            out,
        );
    }
}
