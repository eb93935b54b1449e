//! The PostgreSQL engine.
//!
//! Writes go through one writer task that drains a queue and groups writes by
//! tenant: each group is one transaction (every transaction touches one
//! tenant), each write in its own savepoint, committed once. Positions come
//! from the tenant row, locked `FOR UPDATE` until commit, so a tenant's
//! positions commit in order and a reader polling `position > last` never
//! skips a row that commits later. Serialization failures and deadlocks
//! (40001, 40P01) retry the whole group. Readers use a connection pool.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Transaction};
use futures_util::FutureExt;
use futures_util::future::{join, join_all};
use praxis_domain::attempts::{Assessment, CaseEntry, Disposition, Policy, Streak, StreakKey};
use praxis_domain::auth::Namespace;
use praxis_domain::credentials::Credential;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row, Statement};

use crate::SCHEMA_VERSION;
use crate::apply::{LedgerTx, StoredReceipt, Waiter, answer_waiters, apply_batch};
use crate::attempts::{
    self, ActionRef, AttemptRead, AttemptTx, CaseKeyRow, HistoryOf, HistoryPage, ObserveReads,
    StreakKeyRow, StreakRow, assessed_key,
};
use crate::command::{Write, WriteOutcome};
use crate::engine::Engine;
use crate::error::StoreError;
use crate::heads::HeadCache;
use crate::metrics::StoreMetrics;
use crate::records::{RecordFilter, RecordKey, RecordRow, RecordTx, SkillRow};
use crate::rows::{self, CredentialRow, EventRow, to_i64, to_u64};
use crate::sql;
use crate::verify::{LedgerRead, VerifyReport, verify_store};

/// Most writes the writer folds into one drain.
const MAX_BATCH: usize = 256;
/// How often a group is retried on 40001/40P01.
const RETRIES: usize = 8;

const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE tenants (
        tenant_id TEXT PRIMARY KEY,
        head BIGINT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE events (
        tenant_id TEXT NOT NULL,
        position BIGINT NOT NULL,
        namespace TEXT NOT NULL,
        stream TEXT NOT NULL,
        stream_seq BIGINT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        payload_digest BYTEA NOT NULL,
        prev_digest BYTEA,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at BIGINT NOT NULL,
        digest BYTEA NOT NULL,
        PRIMARY KEY (tenant_id, position)
    );
    CREATE UNIQUE INDEX events_by_stream ON events (tenant_id, namespace, stream, stream_seq);
    CREATE TABLE receipts (
        tenant_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_digest BYTEA NOT NULL,
        receipt BYTEA NOT NULL,
        receipt_digest BYTEA NOT NULL,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, key)
    );
    CREATE TABLE credentials (
        tenant_id TEXT NOT NULL,
        credential_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        capabilities TEXT NOT NULL,
        grants TEXT NOT NULL,
        secret_sha256 BYTEA NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        revoked_at BIGINT,
        rotated_at BIGINT,
        version BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, credential_id)
    );
    CREATE UNIQUE INDEX credentials_by_id ON credentials (credential_id);",
    ),
    (
        2,
        "CREATE TABLE attempt_cases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        stage TEXT NOT NULL,
        position BIGINT NOT NULL,
        revision TEXT,
        status TEXT NOT NULL,
        disposition TEXT NOT NULL,
        recorded_at BIGINT NOT NULL,
        subject_obs BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, case_id, stage)
    );
    CREATE TABLE attempt_streaks (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        subject TEXT NOT NULL,
        action_id TEXT NOT NULL,
        grain BIGINT NOT NULL,
        revision TEXT NOT NULL,
        consecutive BIGINT NOT NULL,
        completed BIGINT NOT NULL,
        last_disposition TEXT,
        last_at BIGINT,
        last_obs BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, subject, action_id, grain, revision)
    );
    CREATE TABLE attempt_counts (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        disposition TEXT NOT NULL,
        count BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, disposition)
    );
    CREATE TABLE attempt_policies (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        policy TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    );",
    ),
    (
        3,
        "CREATE TABLE records (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        experience_id TEXT NOT NULL,
        source TEXT NOT NULL,
        revision BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        lifecycle TEXT NOT NULL,
        review_status TEXT NOT NULL,
        review_mode TEXT,
        verification_level TEXT NOT NULL,
        platform TEXT NOT NULL,
        title TEXT NOT NULL,
        document TEXT NOT NULL,
        position BIGINT NOT NULL,
        withdrawal_reason TEXT,
        superseded_by TEXT,
        search tsvector NOT NULL,
        PRIMARY KEY (tenant_id, namespace, experience_id)
    );
    CREATE UNIQUE INDEX records_by_source ON records (tenant_id, namespace, source);
    CREATE INDEX records_search ON records USING GIN (search);
    CREATE TABLE skill_releases (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        version TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        size BIGINT NOT NULL,
        summary TEXT NOT NULL,
        provenance TEXT NOT NULL,
        withdrawn_at TEXT,
        withdrawal_reason TEXT,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, name, version)
    );
    CREATE TABLE record_settings (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        automated_approval BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    );",
    ),
];

type Job = (Write, Waiter);

/// The PostgreSQL engine.
pub struct PostgresEngine {
    pool: Pool,
    queue: mpsc::UnboundedSender<Job>,
    metrics: Arc<StoreMetrics>,
}

fn event_row(r: &Row) -> EventRow {
    EventRow {
        tenant_id: r.get(0),
        position: r.get(1),
        namespace: r.get(2),
        stream: r.get(3),
        stream_seq: r.get(4),
        kind: r.get(5),
        payload: r.get(6),
        payload_digest: r.get(7),
        prev_digest: r.get(8),
        actor_credential: r.get(9),
        actor_subject: r.get(10),
        recorded_at: r.get(11),
        digest: r.get(12),
    }
}

fn credential_row(r: &Row) -> CredentialRow {
    CredentialRow {
        tenant_id: r.get(0),
        credential_id: r.get(1),
        subject: r.get(2),
        capabilities: r.get(3),
        grants: r.get(4),
        secret_sha256: r.get(5),
        created_at: r.get(6),
        expires_at: r.get(7),
        revoked_at: r.get(8),
        rotated_at: r.get(9),
        version: r.get(10),
    }
}

fn receipt_of(r: &Row) -> Result<StoredReceipt, StoreError> {
    Ok(StoredReceipt {
        key: r.get(0),
        request_digest: rows::digest(r.get::<_, &[u8]>(1))?,
        bytes: r.get(2),
        receipt_digest: rows::digest(r.get::<_, &[u8]>(3))?,
        position: to_u64(r.get(4))?,
    })
}

impl PostgresEngine {
    /// Connects, checks durability settings, migrates and starts the writer.
    pub async fn open(url: &str) -> Result<PostgresEngine, StoreError> {
        let config: tokio_postgres::Config =
            url.parse().map_err(|e| StoreError::Open(format!("{e}")))?;
        let manager = Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(16)
            .build()
            .map_err(|e| StoreError::Open(e.to_string()))?;
        let mut client = pool
            .get()
            .await
            .map_err(|e| StoreError::Open(e.to_string()))?;
        for (setting, wanted) in [("fsync", "on"), ("synchronous_commit", "on")] {
            let value: String = client
                .query_one(&format!("SHOW {setting}"), &[])
                .await?
                .get(0);
            if value != wanted {
                return Err(StoreError::Open(format!(
                    "PostgreSQL has {setting}={value}; Praxis needs {setting}={wanted} for durable acknowledgements"
                )));
            }
        }
        migrate(&mut client).await?;
        drop(client);
        let metrics = Arc::new(StoreMetrics::default());
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(writer_loop(pool.clone(), rx, metrics.clone()));
        Ok(PostgresEngine {
            pool,
            queue,
            metrics,
        })
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        self.pool
            .get()
            .await
            .map_err(|e| StoreError::Open(e.to_string()))
    }
}

async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    // Serializes concurrent first opens of the same database.
    tx.execute("SELECT pg_advisory_xact_lock(7072617869)", &[])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS praxis_schema (version BIGINT NOT NULL)")
        .await?;
    let found: i64 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM praxis_schema", &[])
        .await?
        .get(0);
    if found > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO praxis_schema (version) VALUES ($1)",
            &[version],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn writer_loop(pool: Pool, mut rx: mpsc::UnboundedReceiver<Job>, metrics: Arc<StoreMetrics>) {
    let mut cache = HeadCache::default();
    while let Some(first) = rx.recv().await {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        let mut groups: BTreeMap<String, Vec<Job>> = BTreeMap::new();
        for job in jobs {
            groups.entry(job.0.tenant_id.clone()).or_default().push(job);
        }
        for (_, group) in groups {
            let (writes, waiters): (Vec<Write>, Vec<_>) = group.into_iter().unzip();
            metrics.batch_size.observe(writes.len() as u64);
            answer_waiters(
                waiters,
                commit_group(&pool, &mut cache, &writes, &metrics).await,
            );
        }
    }
}

async fn commit_group(
    pool: &Pool,
    cache: &mut HeadCache,
    writes: &[Write],
    metrics: &StoreMetrics,
) -> Result<Vec<Result<WriteOutcome, StoreError>>, StoreError> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match try_commit_group(pool, cache, writes, metrics).await {
            Ok(results) => return Ok(results),
            Err(e) => {
                // Nothing of a failed group is durable, so nothing it cached may survive.
                cache.clear();
                if !(e.is_retryable() && attempt < RETRIES) {
                    return Err(e);
                }
            }
        }
    }
}

async fn try_commit_group(
    pool: &Pool,
    cache: &mut HeadCache,
    writes: &[Write],
    metrics: &StoreMetrics,
) -> Result<Vec<Result<WriteOutcome, StoreError>>, StoreError> {
    let mut client = pool
        .get()
        .await
        .map_err(|e| StoreError::Open(e.to_string()))?;
    let tx = client.transaction().await?;
    let (results, heads) = {
        let mut ptx = PgTx::new(&tx);
        // A bug in one write must not end the writer task, and with it
        // every later write.
        let applied = std::panic::AssertUnwindSafe(apply_batch(
            &mut ptx,
            cache,
            writes.to_vec(),
            rows::now(),
        ))
        .catch_unwind()
        .await
        .unwrap_or(Err(StoreError::Panicked))?;
        ptx.flush().await?;
        applied
    };
    let start = Instant::now();
    tx.commit().await?;
    metrics.sync_us.observe(start.elapsed().as_micros() as u64);
    cache.committed(&heads);
    Ok(results)
}

/// Most deferred statements held before they are sent.
const MAX_PIPELINE: usize = 16;

/// A statement parameter owned by a deferred statement.
type Param = Box<dyn ToSql + Sync + Send>;

/// A statement whose result nobody waits for, sent with the next round trip.
enum Pending {
    Simple(&'static str),
    Exec(Statement, Vec<Param>),
}

/// The writer's transaction. Statements whose results are not needed are
/// deferred and pipelined ahead of the next statement that needs an answer,
/// so a write costs one round trip on loopback instead of four or five.
/// Deferred statements are always flushed before the write's savepoint is
/// released, so an error is still attributed to the write that caused it.
struct PgTx<'a, 'c> {
    tx: &'a Transaction<'c>,
    pending: Vec<Pending>,
    /// Whether this write's savepoint has been opened, deferred or not.
    flushed_in_write: bool,
}

impl<'a, 'c> PgTx<'a, 'c> {
    fn new(tx: &'a Transaction<'c>) -> Self {
        PgTx {
            tx,
            pending: Vec::new(),
            flushed_in_write: false,
        }
    }

    async fn defer(&mut self, sql: &'static str, params: Vec<Param>) -> Result<(), StoreError> {
        let stmt = self.tx.prepare_cached(sql).await?;
        self.pending.push(Pending::Exec(stmt, params));
        // `join_all` polls every future in order only below 30 of them; a
        // longer pipeline could reorder, so it is sent before it gets there.
        if self.pending.len() >= MAX_PIPELINE {
            self.flush().await?;
        }
        Ok(())
    }

    /// Sends the deferred statements and then `last`, in one pipeline.
    /// Returns the first deferred error, or else `last`'s result.
    async fn flush_then<T>(
        &mut self,
        last: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> (Result<(), StoreError>, Result<T, StoreError>) {
        let pending = std::mem::take(&mut self.pending);
        self.flushed_in_write = true;
        let tx = self.tx;
        let sent = pending.iter().map(|p| async move {
            match p {
                Pending::Simple(sql) => tx.batch_execute(sql).await,
                Pending::Exec(stmt, params) => {
                    let refs: Vec<&(dyn ToSql + Sync)> = params
                        .iter()
                        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                        .collect();
                    tx.execute(stmt, &refs).await.map(|_| ())
                }
            }
        });
        // join_all polls in order, so requests leave in order, before `last`.
        let (earlier, last) = join(join_all(sent), last).await;
        let earlier = earlier
            .into_iter()
            .collect::<Result<Vec<()>, _>>()
            .map(|_| ());
        (
            earlier.map_err(StoreError::from),
            last.map_err(StoreError::from),
        )
    }

    /// Runs `last` after the deferred statements; any error fails the call.
    async fn answer<T>(
        &mut self,
        last: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, StoreError> {
        let (earlier, last) = self.flush_then(last).await;
        earlier?;
        last
    }

    /// Sends whatever is still deferred.
    async fn flush(&mut self) -> Result<(), StoreError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.answer(async { Ok(()) }).await
    }
}

impl LedgerTx for PgTx<'_, '_> {
    async fn lock_tenant(&mut self, tenant: &str) -> Result<Option<u64>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::LOCK_TENANT).await?;
        let tx = self.tx;
        let row = self.answer(tx.query_opt(&stmt, &[&tenant])).await?;
        row.map(|r| to_u64(r.get(0))).transpose()
    }

    async fn create_tenant(&mut self, tenant: &str, at: Timestamp) -> Result<(), StoreError> {
        self.defer(
            sql::INSERT_TENANT,
            vec![Box::new(tenant.to_owned()), Box::new(at.micros())],
        )
        .await
    }

    async fn set_tenant_head(&mut self, tenant: &str, head: u64) -> Result<(), StoreError> {
        self.defer(
            sql::SET_TENANT_HEAD,
            vec![Box::new(to_i64(head)), Box::new(tenant.to_owned())],
        )
        .await
    }

    async fn stream_head(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        stream: &str,
    ) -> Result<Option<(u64, Digest)>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::STREAM_HEAD).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &stream]))
            .await?;
        row.map(|r| Ok((to_u64(r.get(0))?, rows::digest(r.get::<_, &[u8]>(1))?)))
            .transpose()
    }

    async fn insert_event(&mut self, e: &Event) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(e.tenant_id.clone()),
            Box::new(to_i64(e.position)),
            Box::new(e.namespace.0.clone()),
            Box::new(e.stream.clone()),
            Box::new(to_i64(e.stream_seq)),
            Box::new(e.kind.clone()),
            Box::new(e.canonical.clone()),
            Box::new(e.payload_digest.0.to_vec()),
            Box::new(e.prev_digest.map(|d| d.0.to_vec())),
            Box::new(e.actor.credential_id.clone()),
            Box::new(e.actor.subject.clone()),
            Box::new(e.recorded_at.micros()),
            Box::new(e.digest.0.to_vec()),
        ];
        self.defer(sql::INSERT_EVENT, params).await
    }

    async fn receipt(
        &mut self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<StoredReceipt>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::RECEIPT).await?;
        let tx = self.tx;
        let row = self.answer(tx.query_opt(&stmt, &[&tenant, &key])).await?;
        row.as_ref().map(receipt_of).transpose()
    }

    async fn insert_receipt(
        &mut self,
        tenant: &str,
        r: &StoredReceipt,
    ) -> Result<bool, StoreError> {
        let stmt = self.tx.prepare_cached(sql::INSERT_RECEIPT).await?;
        let tx = self.tx;
        let position = to_i64(r.position);
        let inserted = self
            .answer(tx.execute(
                &stmt,
                &[
                    &tenant,
                    &r.key,
                    &&r.request_digest.0[..],
                    &r.bytes,
                    &&r.receipt_digest.0[..],
                    &position,
                ],
            ))
            .await?;
        Ok(inserted == 1)
    }

    async fn credential(
        &mut self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Credential>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::CREDENTIAL).await?;
        let tx = self.tx;
        let row = self.answer(tx.query_opt(&stmt, &[&tenant, &id])).await?;
        row.map(|r| credential_row(&r).into_credential())
            .transpose()
    }

    async fn put_credential(&mut self, c: &Credential) -> Result<(), StoreError> {
        let (caps, grants) = rows::credential_columns(c);
        let params: Vec<Param> = vec![
            Box::new(c.tenant_id.clone()),
            Box::new(c.id.clone()),
            Box::new(c.subject.clone()),
            Box::new(caps),
            Box::new(grants),
            Box::new(c.secret_sha256.0.to_vec()),
            Box::new(c.created_at.micros()),
            Box::new(c.expires_at.map(Timestamp::micros)),
            Box::new(c.revoked_at.map(Timestamp::micros)),
            Box::new(c.rotated_at.map(Timestamp::micros)),
            Box::new(to_i64(c.version)),
        ];
        self.defer(sql::UPSERT_CREDENTIAL, params).await
    }

    async fn savepoint(&mut self) -> Result<(), StoreError> {
        self.flushed_in_write = false;
        self.pending.push(Pending::Simple("SAVEPOINT w"));
        Ok(())
    }

    async fn release(&mut self) -> Result<(), StoreError> {
        self.pending.push(Pending::Simple("RELEASE SAVEPOINT w"));
        // Everything this write sent has already been answered only if the
        // last statement pending is the release itself; otherwise send now so
        // that an error belongs to this write, not to a later one.
        if self.pending.len() > 1 || !self.flushed_in_write {
            self.flush().await?;
        }
        Ok(())
    }

    async fn rollback_to(&mut self) -> Result<(), StoreError> {
        let tx = self.tx;
        // Deferred statements may fail here; the rollback undoes them either way.
        let (_, rolled_back) = self
            .flush_then(tx.batch_execute("ROLLBACK TO SAVEPOINT w; RELEASE SAVEPOINT w"))
            .await;
        rolled_back
    }
}

/// The `attempt_cases` value columns starting at column `at`.
fn case_row(r: &Row, at: usize) -> rows::CaseRow {
    rows::CaseRow {
        case_id: r.get(at),
        stage: r.get(at + 1),
        position: r.get(at + 2),
        revision: r.get(at + 3),
        status: r.get(at + 4),
        disposition: r.get(at + 5),
        recorded_at: r.get(at + 6),
        subject_obs: r.get(at + 7),
    }
}

/// The `attempt_streaks` value columns starting at column `at`.
fn streak_row(r: &Row, at: usize) -> rows::StreakColumns {
    rows::StreakColumns {
        consecutive: r.get(at),
        completed: r.get(at + 1),
        last_disposition: r.get(at + 2),
        last_at: r.get(at + 3),
        last_obs: r.get(at + 4),
    }
}

fn streak_params(tenant: &str, key: &StreakRow<'_>) -> Vec<Param> {
    vec![
        Box::new(tenant.to_owned()),
        Box::new(key.namespace.0.clone()),
        Box::new(key.subject.to_owned()),
        Box::new(key.action.to_owned()),
        Box::new(key.grain),
        Box::new(key.revision.to_owned()),
    ]
}

fn refs(params: &[Param]) -> Vec<&(dyn ToSql + Sync)> {
    params
        .iter()
        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
        .collect()
}

impl AttemptTx for PgTx<'_, '_> {
    async fn event_at(&mut self, tenant: &str, position: u64) -> Result<Event, StoreError> {
        let stmt = self.tx.prepare_cached(sql::EVENT_AT).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &to_i64(position)]))
            .await?
            .ok_or_else(|| StoreError::inconsistent(format!("no event at position {position}")))?;
        event_row(&row).into_verified_event()
    }

    async fn case_entries(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        case: Option<&str>,
    ) -> Result<Vec<CaseEntry>, StoreError> {
        let ns = namespace.as_str();
        let tx = self.tx;
        let rows = match case {
            Some(c) => {
                let stmt = tx.prepare_cached(sql::ATTEMPT_CASE).await?;
                self.answer(tx.query(&stmt, &[&tenant, &ns, &subject, &action, &c]))
                    .await?
            }
            None => {
                let stmt = tx.prepare_cached(sql::ATTEMPT_CASES_OF_PAIR).await?;
                self.answer(tx.query(&stmt, &[&tenant, &ns, &subject, &action]))
                    .await?
            }
        };
        rows.iter().map(|r| case_row(r, 0).into_entry()).collect()
    }

    async fn insert_case(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        action: &str,
        e: &CaseEntry,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(subject.to_owned()),
            Box::new(action.to_owned()),
            Box::new(e.case_id.clone()),
            Box::new(e.stage.as_str()),
            Box::new(to_i64(e.position)),
            Box::new(e.revision.clone()),
            Box::new(e.status.as_str()),
            Box::new(e.disposition.as_str()),
            Box::new(e.recorded_at.micros()),
            Box::new(to_i64(e.subject_observations)),
        ];
        self.defer(sql::INSERT_ATTEMPT_CASE, params).await
    }

    async fn observe_reads(
        &mut self,
        tenant: &str,
        case: &str,
        [a, r]: [&StreakRow<'_>; 2],
        stream: Option<&str>,
    ) -> Result<ObserveReads, StoreError> {
        let cases = self.tx.prepare_cached(sql::ATTEMPT_CASE).await?;
        let streak = self.tx.prepare_cached(sql::ATTEMPT_STREAK).await?;
        let head = self.tx.prepare_cached(sql::STREAM_HEAD).await?;
        let (pa, pr) = (streak_params(tenant, a), streak_params(tenant, r));
        let ns = a.namespace.as_str();
        let tx = self.tx;
        // Pending writes, the case lookup, both streaks and the stream head:
        // one pipeline, one round trip.
        let reads = async {
            let head_read = async {
                match stream {
                    Some(s) => tx.query_opt(&head, &[&tenant, &ns, &s]).await,
                    None => Ok(None),
                }
            };
            let ((c, sa), (sr, h)) = join(
                join(
                    tx.query(&cases, &[&tenant, &ns, &a.subject, &a.action, &case]),
                    tx.query_opt(&streak, &refs(&pa)),
                ),
                join(tx.query_opt(&streak, &refs(&pr)), head_read),
            )
            .await;
            Ok((c?, sa?, sr?, h?))
        };
        let (rows, sa, sr, h) = self.answer(reads).await?;
        let entries = rows
            .iter()
            .map(|r| case_row(r, 0).into_entry())
            .collect::<Result<Vec<_>, _>>()?;
        let streak_of = |row: Option<Row>| {
            row.map_or(Ok(Streak::default()), |r| streak_row(&r, 0).into_streak())
        };
        let head = h
            .map(|r| Ok::<_, StoreError>((to_u64(r.get(0))?, rows::digest(r.get::<_, &[u8]>(1))?)))
            .transpose()?;
        Ok(ObserveReads {
            case: entries,
            streaks: [streak_of(sa)?, streak_of(sr)?],
            head,
        })
    }

    async fn put_streak(
        &mut self,
        tenant: &str,
        key: &StreakRow<'_>,
        s: &Streak,
    ) -> Result<(), StoreError> {
        let mut params = streak_params(tenant, key);
        params.push(Box::new(to_i64(s.consecutive)));
        params.push(Box::new(to_i64(s.completed)));
        params.push(Box::new(s.last_disposition.map(Disposition::as_str)));
        params.push(Box::new(s.last_at.map(Timestamp::micros)));
        params.push(Box::new(to_i64(s.last_observations)));
        self.defer(sql::UPSERT_ATTEMPT_STREAK, params).await
    }

    async fn add_count(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        disposition: Disposition,
        n: u64,
    ) -> Result<(), StoreError> {
        self.defer(
            sql::ADD_ATTEMPT_COUNT,
            vec![
                Box::new(tenant.to_owned()),
                Box::new(namespace.0.clone()),
                Box::new(disposition.as_str()),
                Box::new(to_i64(n)),
            ],
        )
        .await
    }

    async fn put_policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        policy: &str,
    ) -> Result<(), StoreError> {
        self.defer(
            sql::UPSERT_ATTEMPT_POLICY,
            vec![
                Box::new(tenant.to_owned()),
                Box::new(namespace.0.clone()),
                Box::new(policy.to_owned()),
            ],
        )
        .await
    }
}

fn record_at(r: &Row, at: usize) -> rows::RecordColumns {
    rows::RecordColumns {
        experience_id: r.get(at),
        source: r.get(at + 1),
        revision: r.get(at + 2),
        sha256: r.get(at + 3),
        lifecycle: r.get(at + 4),
        review_status: r.get(at + 5),
        review_mode: r.get(at + 6),
        verification_level: r.get(at + 7),
        platform: r.get(at + 8),
        title: r.get(at + 9),
        document: r.get(at + 10),
        position: r.get(at + 11),
        withdrawal_reason: r.get(at + 12),
        superseded_by: r.get(at + 13),
    }
}

fn skill_at(r: &Row, at: usize) -> rows::SkillColumns {
    rows::SkillColumns {
        name: r.get(at),
        version: r.get(at + 1),
        sha256: r.get(at + 2),
        size: r.get(at + 3),
        summary: r.get(at + 4),
        provenance: r.get(at + 5),
        withdrawn_at: r.get(at + 6),
        withdrawal_reason: r.get(at + 7),
        position: r.get(at + 8),
    }
}

fn record_query(key: RecordKey<'_>) -> (&'static str, String) {
    match key {
        RecordKey::Id(id) => (sql::RECORD_BY_ID, id.to_owned()),
        RecordKey::Source(source) => (sql::RECORD_BY_SOURCE, source.to_owned()),
    }
}

impl RecordTx for PgTx<'_, '_> {
    async fn record_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: RecordKey<'_>,
    ) -> Result<Option<RecordRow>, StoreError> {
        let (query, value) = record_query(key);
        let stmt = self.tx.prepare_cached(query).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &value]))
            .await?;
        row.map(|r| record_at(&r, 0).into_row()).transpose()
    }

    async fn put_record(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &RecordRow,
        search: &str,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(row.experience_id.clone()),
            Box::new(row.source.clone()),
            Box::new(to_i64(row.revision)),
            Box::new(row.sha256.clone()),
            Box::new(row.lifecycle.clone()),
            Box::new(row.review_status.clone()),
            Box::new(row.review_mode.clone()),
            Box::new(row.verification_level.clone()),
            Box::new(row.platform.clone()),
            Box::new(row.title.clone()),
            Box::new(row.document_text()),
            Box::new(to_i64(row.position)),
            Box::new(row.withdrawal_reason.clone()),
            Box::new(row.superseded_by.clone()),
            Box::new(search.to_owned()),
        ];
        self.defer(sql::PG_UPSERT_RECORD, params).await
    }

    async fn skill_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        name: &str,
        version: &str,
    ) -> Result<Option<SkillRow>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::SKILL_RELEASE).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &name, &version]))
            .await?;
        row.map(|r| skill_at(&r, 0).into_row()).transpose()
    }

    async fn put_skill(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &SkillRow,
    ) -> Result<(), StoreError> {
        let r = &row.release;
        let w = row.withdrawal.as_ref();
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(r.name.clone()),
            Box::new(r.version.clone()),
            Box::new(r.sha256.clone()),
            Box::new(to_i64(r.size)),
            Box::new(r.summary.clone()),
            Box::new(r.provenance.to_string()),
            Box::new(w.map(|w| w.at.clone())),
            Box::new(w.map(|w| w.reason.clone())),
            Box::new(to_i64(row.position)),
        ];
        self.defer(sql::UPSERT_SKILL_RELEASE, params).await
    }

    async fn automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        let stmt = self.tx.prepare_cached(sql::RECORD_SETTINGS).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str()]))
            .await?;
        Ok(row.is_some_and(|r| r.get::<_, i64>(0) == 1))
    }

    async fn put_automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        on: bool,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(i64::from(on)),
        ];
        self.defer(sql::UPSERT_RECORD_SETTINGS, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> AttemptRead for PgRead<'_, C> {
    async fn policy(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Option<Policy>, StoreError> {
        let stmt = self.0.prepare_cached(sql::ATTEMPT_POLICY).await?;
        let row = self
            .0
            .query_opt(&stmt, &[&tenant, &namespace.as_str()])
            .await?;
        row.map(|r| crate::attempts::decode_policy(r.get(0)))
            .transpose()
    }

    async fn subject_observations(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
    ) -> Result<u64, StoreError> {
        let stmt = self.0.prepare_cached(sql::STREAM_HEAD).await?;
        let stream = praxis_domain::attempts::stream_of(subject);
        let row = self
            .0
            .query_opt(&stmt, &[&tenant, &namespace.as_str(), &stream])
            .await?;
        row.map_or(Ok(0), |r| to_u64(r.get(0)))
    }

    async fn streaks(
        &mut self,
        tenant: &str,
        keys: &[StreakRow<'_>],
    ) -> Result<Vec<Streak>, StoreError> {
        // One statement for every candidate: the keys travel as parallel
        // arrays and come back tagged with their index. Eight pipelined
        // point queries cost the server eight executions; this costs one.
        let stmt = self
            .0
            .prepare_cached(sql::PG_ATTEMPT_STREAKS_OF_KEYS)
            .await?;
        let namespaces: Vec<&str> = keys.iter().map(|k| k.namespace.as_str()).collect();
        let subjects: Vec<&str> = keys.iter().map(|k| k.subject).collect();
        let actions: Vec<&str> = keys.iter().map(|k| k.action).collect();
        let grains: Vec<i64> = keys.iter().map(|k| k.grain).collect();
        let revisions: Vec<&str> = keys.iter().map(|k| k.revision).collect();
        let rows = self
            .0
            .query(
                &stmt,
                &[
                    &tenant,
                    &namespaces,
                    &subjects,
                    &actions,
                    &grains,
                    &revisions,
                ],
            )
            .await?;
        let mut streaks = vec![Streak::default(); keys.len()];
        for row in rows {
            let at: i64 = row.get(0);
            let slot = usize::try_from(at - 1)
                .ok()
                .and_then(|i| streaks.get_mut(i))
                .ok_or_else(|| StoreError::inconsistent(format!("streak key index {at}")))?;
            *slot = streak_row(&row, 1).into_streak()?;
        }
        Ok(streaks)
    }

    async fn assessment_reads(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: &[ActionRef],
    ) -> Result<(Policy, Vec<Streak>), StoreError> {
        // One round trip: the policy query and a read of both grains of
        // every candidate are pipelined, and the policy then picks a row.
        // A round trip on loopback costs about as much as the whole read.
        let both = [
            Policy::default(),
            Policy {
                streak_key: StreakKey::ActionRevision,
                ..Policy::default()
            },
        ];
        let keys: Vec<StreakRow<'_>> = both
            .iter()
            .flat_map(|p| {
                actions
                    .iter()
                    .map(move |a| assessed_key(p, namespace, subject, a))
            })
            .collect();
        let mut streaks_read = PgRead(self.0);
        let mut policy_read = PgRead(self.0);
        let (policy, streaks) = join(
            policy_read.policy(tenant, namespace),
            streaks_read.streaks(tenant, &keys),
        )
        .await;
        let policy = policy?.unwrap_or_default();
        let mut streaks = streaks?;
        let chosen = match policy.streak_key {
            StreakKey::Action => streaks.drain(..actions.len()).collect(),
            StreakKey::ActionRevision => streaks.split_off(actions.len()),
        };
        Ok((policy, chosen))
    }

    async fn history(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        of: &HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let ns = namespace.as_str();
        let (after, limit) = (to_i64(after), limit as i64);
        let rows = match of {
            HistoryOf::Subject(subject) => {
                let stream = praxis_domain::attempts::stream_of(subject);
                self.0
                    .query(sql::STREAM_EVENTS, &[&tenant, &ns, &stream, &after, &limit])
                    .await?
            }
            HistoryOf::Pair(subject, action) => {
                self.0
                    .query(
                        sql::PAIR_EVENTS,
                        &[&tenant, &ns, subject, action, &after, &limit],
                    )
                    .await?
            }
            HistoryOf::Namespace => {
                self.0
                    .query(
                        sql::NAMESPACE_ATTEMPT_EVENTS,
                        &[&tenant, &ns, &after, &limit],
                    )
                    .await?
            }
        };
        rows.iter()
            .map(|r| event_row(r).into_verified_event())
            .collect()
    }

    async fn counts(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<Vec<(Disposition, u64)>, StoreError> {
        let ns = namespace.as_str();
        let rows = match (subject, action) {
            (Some(s), Some(a)) => {
                self.0
                    .query(sql::ATTEMPT_COUNTS_OF_PAIR, &[&tenant, &ns, &s, &a])
                    .await?
            }
            (Some(s), None) => {
                self.0
                    .query(sql::ATTEMPT_COUNTS_OF_SUBJECT, &[&tenant, &ns, &s])
                    .await?
            }
            _ => self.0.query(sql::ATTEMPT_COUNTS, &[&tenant, &ns]).await?,
        };
        rows.iter()
            .map(|r| rows::count_row((r.get(0), r.get(1))))
            .collect()
    }
}

/// Reads over any client: a pooled connection or a snapshot transaction.
struct PgRead<'a, C>(&'a C);

async fn query_events(
    client: &impl deadpool_postgres::GenericClient,
    tenant: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<EventRow>, StoreError> {
    let rows = client
        .query(
            sql::EVENTS_AFTER,
            &[&tenant, &to_i64(after), &(limit as i64)],
        )
        .await?;
    Ok(rows.iter().map(event_row).collect())
}

impl<C: deadpool_postgres::GenericClient + Sync> LedgerRead for PgRead<'_, C> {
    async fn tenants(&mut self) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = self.0.query(sql::TENANTS, &[]).await?;
        rows.iter()
            .map(|r| Ok((r.get(0), to_u64(r.get(1))?)))
            .collect()
    }

    async fn raw_events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        query_events(self.0, tenant, after, limit)
            .await?
            .into_iter()
            .map(EventRow::into_event)
            .collect()
    }

    async fn all_credentials(&mut self, tenant: &str) -> Result<Vec<Credential>, StoreError> {
        let rows = self.0.query(sql::CREDENTIALS_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| credential_row(r).into_credential())
            .collect()
    }

    async fn all_attempt_cases(&mut self, tenant: &str) -> Result<Vec<CaseKeyRow>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_CASES_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| Ok((r.get(0), r.get(1), r.get(2), case_row(r, 3).into_entry()?)))
            .collect()
    }

    async fn all_attempt_streaks(&mut self, tenant: &str) -> Result<Vec<StreakKeyRow>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_STREAKS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| {
                let streak = streak_row(r, 5).into_streak()?;
                Ok((r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), streak))
            })
            .collect()
    }

    async fn all_attempt_counts(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, Disposition, u64)>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_COUNTS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| {
                let (d, n) = rows::count_row((r.get(1), r.get(2)))?;
                Ok((r.get(0), d, n))
            })
            .collect()
    }

    async fn all_attempt_policies(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_POLICIES_OF_TENANT, &[&tenant])
            .await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    async fn all_records(&mut self, tenant: &str) -> Result<Vec<(String, RecordRow)>, StoreError> {
        let rows = self.0.query(sql::RECORDS_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| record_at(r, 1).into_row().map(|row| (r.get(0), row)))
            .collect()
    }

    async fn all_skills(&mut self, tenant: &str) -> Result<Vec<(String, SkillRow)>, StoreError> {
        let rows = self
            .0
            .query(sql::SKILL_RELEASES_OF_TENANT, &[&tenant])
            .await?;
        rows.iter()
            .map(|r| skill_at(r, 1).into_row().map(|row| (r.get(0), row)))
            .collect()
    }

    async fn all_record_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        let rows = self
            .0
            .query(sql::RECORD_SETTINGS_OF_TENANT, &[&tenant])
            .await?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), r.get::<_, i64>(1) == 1))
            .collect())
    }

    async fn all_receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError> {
        let rows = self.0.query(sql::RECEIPTS_OF_TENANT, &[&tenant]).await?;
        rows.iter().map(receipt_of).collect()
    }
}

#[async_trait]
impl Engine for PostgresEngine {
    async fn execute(&self, write: Write) -> Result<WriteOutcome, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.queue
            .send((write, tx))
            .map_err(|_| StoreError::WriterStopped)?;
        rx.await.map_err(|_| StoreError::WriterStopped)?
    }

    async fn credential(&self, tenant: &str, id: &str) -> Result<Option<Credential>, StoreError> {
        let client = self.client().await?;
        let row = client.query_opt(sql::CREDENTIAL, &[&tenant, &id]).await?;
        row.map(|r| credential_row(&r).into_credential())
            .transpose()
    }

    async fn credential_for_auth(&self, id: &str) -> Result<Option<Credential>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql::CREDENTIAL_BY_ID).await?;
        let row = client.query_opt(&stmt, &[&id]).await?;
        row.map(|r| credential_row(&r).into_credential())
            .transpose()
    }

    async fn list_credentials(
        &self,
        tenant: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Credential>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                sql::CREDENTIALS_PAGE,
                &[&tenant, &after.unwrap_or(""), &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| credential_row(r).into_credential())
            .collect()
    }

    async fn events(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let client = self.client().await?;
        query_events(&client, tenant, after, limit)
            .await?
            .into_iter()
            .map(EventRow::into_verified_event)
            .collect()
    }

    async fn attempt_policy(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Policy, StoreError> {
        let client = self.client().await?;
        let policy = PgRead(&client).policy(tenant, namespace).await?;
        Ok(policy.unwrap_or_default())
    }

    async fn assess_attempts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: &str,
        actions: Vec<ActionRef>,
        now: Timestamp,
    ) -> Result<(Policy, Vec<Assessment>), StoreError> {
        // Autocommit reads: each streak row is written whole in one
        // transaction, and a policy change racing an assessment may apply
        // to either side of it, as it would a moment later.
        let client = self.client().await?;
        attempts::assess(
            &mut PgRead(&client),
            tenant,
            namespace,
            subject,
            &actions,
            now,
        )
        .await
    }

    async fn record(
        &self,
        tenant: &str,
        namespace: &Namespace,
        experience_id: &str,
    ) -> Result<Option<RecordRow>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                sql::RECORD_BY_ID,
                &[&tenant, &namespace.as_str(), &experience_id],
            )
            .await?;
        row.map(|r| record_at(&r, 0).into_row()).transpose()
    }

    async fn search_records(
        &self,
        tenant: &str,
        namespace: &Namespace,
        filter: RecordFilter,
        after: &str,
        limit: usize,
    ) -> Result<Vec<RecordRow>, StoreError> {
        let client = self.client().await?;
        let text = filter.text.filter(|t| !t.trim().is_empty());
        let rows = client
            .query(
                sql::PG_SEARCH_RECORDS,
                &[
                    &tenant,
                    &namespace.as_str(),
                    &filter.lifecycle,
                    &filter.platform,
                    &filter.verification_level,
                    &after,
                    &text,
                    &(limit as i64),
                ],
            )
            .await?;
        rows.iter().map(|r| record_at(r, 0).into_row()).collect()
    }

    async fn source_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        source: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let client = self.client().await?;
        let stream = praxis_domain::records::lifecycle::stream_of(source);
        let rows = client
            .query(
                sql::STREAM_EVENTS,
                &[
                    &tenant,
                    &namespace.as_str(),
                    &stream,
                    &to_i64(after),
                    &(limit as i64),
                ],
            )
            .await?;
        rows.iter()
            .map(|r| event_row(r).into_verified_event())
            .collect()
    }

    async fn skills(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Vec<SkillRow>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(sql::SKILL_RELEASES, &[&tenant, &namespace.as_str()])
            .await?;
        rows.iter().map(|r| skill_at(r, 0).into_row()).collect()
    }

    async fn automated_approval(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(sql::RECORD_SETTINGS, &[&tenant, &namespace.as_str()])
            .await?;
        Ok(row.is_some_and(|r| r.get::<_, i64>(0) == 1))
    }

    async fn attempt_history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        of: HistoryOf,
        after: u64,
        limit: usize,
    ) -> Result<HistoryPage, StoreError> {
        let client = self.client().await?;
        attempts::history(&mut PgRead(&client), tenant, namespace, &of, after, limit).await
    }

    async fn attempt_counts(
        &self,
        tenant: &str,
        namespace: &Namespace,
        subject: Option<&str>,
        action: Option<&str>,
    ) -> Result<BTreeMap<Disposition, u64>, StoreError> {
        let client = self.client().await?;
        attempts::counts(&mut PgRead(&client), tenant, namespace, subject, action).await
    }

    async fn tenants(&self) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query("SELECT tenant_id FROM tenants ORDER BY tenant_id", &[])
            .await?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    async fn verify(&self) -> Result<VerifyReport, StoreError> {
        let mut client = self.client().await?;
        // One repeatable-read snapshot so heads, events and projections agree.
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let report = verify_store(&mut PgRead(&tx)).await?;
        tx.commit().await?;
        Ok(report)
    }

    async fn ready(&self) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.batch_execute("CREATE TEMP TABLE IF NOT EXISTS praxis_ready (x INT) ON COMMIT DROP; INSERT INTO praxis_ready VALUES (1)")
            .await?;
        tx.rollback().await?;
        Ok(())
    }

    fn metrics(&self) -> &StoreMetrics {
        &self.metrics
    }

    fn kind(&self) -> &'static str {
        "postgres"
    }
}
