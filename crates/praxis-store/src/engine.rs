//! The engine interface and store selection.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use std::collections::BTreeMap;

use praxis_domain::attempts::{Assessment, Disposition, Policy};
use praxis_domain::auth::Namespace;
use praxis_domain::credentials::Credential;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;

use crate::attempts::{ActionRef, HistoryOf, HistoryPage};
use crate::command::{Write, WriteOutcome};
use crate::error::StoreError;
use crate::metrics::StoreMetrics;
use crate::records::{RecordFilter, RecordRow, SkillRow};
use crate::verify::VerifyReport;

/// A durable ledger store.
///
/// Every write is durable before its future resolves. Every read of an event
/// or receipt re-verifies its digest and fails with
/// [`StoreError::Inconsistent`] rather than return altered data.
#[async_trait]
pub trait Engine: Send + Sync + 'static {
    /// Applies one write atomically and durably.
    async fn execute(&self, write: Write) -> Result<WriteOutcome, StoreError>;
    /// A credential of a tenant.
    async fn credential(&self, tenant: &str, id: &str) -> Result<Option<Credential>, StoreError>;
    /// A credential by id alone, for authentication.
    async fn credential_for_auth(&self, id: &str) -> Result<Option<Credential>, StoreError>;
    /// Credentials of a tenant ordered by id, after `after`.
    async fn list_credentials(
        &self,
        tenant: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Credential>, StoreError>;
    /// Events of a tenant after `after` in position order, each re-verified.
    async fn events(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// A namespace's attempt policy, or the default when none was set.
    async fn attempt_policy(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Policy, StoreError>;
    /// Assesses candidate actions for a subject from the write-time streak
    /// summaries (never from history). Reads only.
    async fn assess_attempts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: Vec<ActionRef>,
        now: Timestamp,
    ) -> Result<(Policy, Vec<Assessment>), StoreError>;
    /// One page of attempt history in sequence order, each record re-verified.
    async fn attempt_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError>;
    /// Attempt records per disposition, in a namespace or of a subject or pair.
    async fn attempt_counts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError>;
    /// A kept record's current revision.
    async fn record(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
    ) -> Result<Option<RecordRow>, StoreError>;
    /// Kept records matching every filter set, by id, after `after`.
    async fn search_records(
        &self,
        tenant: &str,
        namespace: &Namespace,
        filter: RecordFilter,
        after: &str,
        limit: usize,
    ) -> Result<Vec<RecordRow>, StoreError>;
    /// The revisions and rejected submissions of one source (its stream
    /// `record/<source>`) in order, after stream sequence `after`, each
    /// re-verified; empty when the source never submitted.
    async fn source_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;
    /// A kept record's history (that of its source); `None` when there is
    /// no such record.
    async fn record_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Option<Vec<Event>>, StoreError> {
        let Some(row) = self.record(tenant, namespace, experience_id).await? else {
            return Ok(None);
        };
        self.source_history(tenant, namespace, &row.source, after, limit)
            .await
            .map(Some)
    }
    /// The namespace's skill registry, by name then version.
    async fn skills(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Vec<SkillRow>, StoreError>;
    /// Whether the namespace approves passing submissions automatically.
    async fn automated_approval(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError>;
    /// Ids of all tenants.
    async fn tenants(&self) -> Result<Vec<String>, StoreError>;
    /// Walks the whole store and reports every problem.
    async fn verify(&self) -> Result<VerifyReport, StoreError>;
    /// Checks that the store is reachable and accepts writes.
    async fn ready(&self) -> Result<(), StoreError>;
    /// The engine's counters.
    fn metrics(&self) -> &StoreMetrics;
    /// A short name (`sqlite` or `postgres`).
    fn kind(&self) -> &'static str;
}

/// Opens a store: a `postgres://` URL, or else a SQLite data directory.
pub async fn open(store: &str) -> Result<Arc<dyn Engine>, StoreError> {
    if store.starts_with("postgres://") || store.starts_with("postgresql://") {
        Ok(Arc::new(
            crate::postgres::PostgresEngine::open(store).await?,
        ))
    } else {
        let dir = Path::new(store).to_owned();
        let engine = tokio::task::spawn_blocking(move || crate::sqlite::SqliteEngine::open(&dir))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))??;
        Ok(Arc::new(engine))
    }
}
