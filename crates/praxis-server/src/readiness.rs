//! Readiness probes, cached: `/readyz` commits a scratch row through the
//! store's writer, so however often it is scraped, the store is probed at
//! most once per [`ReadinessSettings::cache_for`].

use std::time::{Duration, Instant};

use praxis_store::Engine;
use praxis_store::readiness::{NotReady, ReadyCheck, Unready};
use tokio::sync::Mutex;

/// How long a probe result is reused unless configured otherwise.
pub const DEFAULT_READY_CACHE: Duration = Duration::from_secs(1);

/// Longest a probe may take before `/readyz` reports `probe_timeout`.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// How `/readyz` probes the store.
#[derive(Clone, Copy, Debug)]
pub struct ReadinessSettings {
    /// What the store checks besides a durable write.
    pub check: ReadyCheck,
    /// How long one probe's result answers every scrape.
    pub cache_for: Duration,
}

impl Default for ReadinessSettings {
    fn default() -> Self {
        ReadinessSettings {
            check: ReadyCheck::default(),
            cache_for: DEFAULT_READY_CACHE,
        }
    }
}

/// The last probe's result and when it was taken.
#[derive(Default)]
pub(crate) struct ProbeCache(Mutex<Option<(Instant, Result<(), NotReady>)>>);

impl ProbeCache {
    /// The store's readiness: the cached result while fresh, else a new
    /// probe. Scrapes arriving during a probe wait for it and share it.
    pub(crate) async fn probe(
        &self,
        engine: &dyn Engine,
        settings: ReadinessSettings,
    ) -> Result<(), NotReady> {
        let mut last = self.0.lock().await;
        if let Some((at, result)) = &*last
            && at.elapsed() < settings.cache_for
        {
            return result.clone();
        }
        let result = tokio::time::timeout(PROBE_TIMEOUT, engine.ready(settings.check))
            .await
            .unwrap_or_else(|_| {
                Err(NotReady::new(
                    Unready::ProbeTimeout,
                    format!("the store did not answer within {PROBE_TIMEOUT:?}"),
                ))
            });
        *last = Some((Instant::now(), result.clone()));
        result
    }
}
