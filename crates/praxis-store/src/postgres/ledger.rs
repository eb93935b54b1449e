//! The ledger on PostgreSQL: tenants, events, stream heads and receipts.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;
use tokio_postgres::Row;

use super::pipeline::{Param, Pending, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::ledger::rows::{self, EventRow, to_i64, to_u64};
use crate::ledger::sql;
use crate::ledger::{LedgerRead, LedgerReads, LedgerTx, StoredReceipt};

/// Tables of the ledger (schema version 1).
pub(super) const SCHEMA_V1: &str = "CREATE TABLE tenants (
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
    );";

/// Store-wide key fingerprints (schema version 4).
pub(super) const SCHEMA_V4: &str = "CREATE TABLE store_keys (
        name TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL
    );";

/// Reads over any client: a pooled connection or a snapshot transaction.
pub(super) struct PgRead<'a, C>(pub(super) &'a C);

pub(super) fn event_row(r: &Row) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        tenant_id: col(r, 0)?,
        position: col(r, 1)?,
        namespace: col(r, 2)?,
        stream: col(r, 3)?,
        stream_seq: col(r, 4)?,
        kind: col(r, 5)?,
        payload: col(r, 6)?,
        payload_digest: col(r, 7)?,
        prev_digest: col(r, 8)?,
        actor_credential: col(r, 9)?,
        actor_subject: col(r, 10)?,
        recorded_at: col(r, 11)?,
        digest: col(r, 12)?,
    })
}

fn receipt_of(r: &Row) -> Result<StoredReceipt, StoreError> {
    Ok(StoredReceipt {
        key: col(r, 0)?,
        request_digest: rows::digest(col(r, 1)?)?,
        bytes: col(r, 2)?,
        receipt_digest: rows::digest(col(r, 3)?)?,
        position: to_u64(col(r, 4)?)?,
    })
}

pub(super) async fn query_events(
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
    rows.iter().map(event_row).collect()
}

impl LedgerTx for PgTx<'_, '_> {
    async fn lock_tenant(&mut self, tenant: &str) -> Result<Option<u64>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::LOCK_TENANT).await?;
        let tx = self.tx;
        let row = self.answer(tx.query_opt(&stmt, &[&tenant])).await?;
        row.map(|r| to_u64(col(&r, 0)?)).transpose()
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
        row.map(|r| Ok((to_u64(col(&r, 0)?)?, rows::digest(col(&r, 1)?)?)))
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

    async fn event_at(&mut self, tenant: &str, position: u64) -> Result<Event, StoreError> {
        let stmt = self.tx.prepare_cached(sql::EVENT_AT).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &to_i64(position)]))
            .await?
            .ok_or_else(|| StoreError::inconsistent(format!("no event at position {position}")))?;
        event_row(&row)?.into_verified_event()
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

impl<C: deadpool_postgres::GenericClient + Sync> LedgerRead for PgRead<'_, C> {
    async fn tenants(&mut self) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = self.0.query(sql::TENANTS, &[]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, to_u64(col(r, 1)?)?)))
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

    async fn all_receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError> {
        let rows = self.0.query(sql::RECEIPTS_OF_TENANT, &[&tenant]).await?;
        rows.iter().map(receipt_of).collect()
    }
}

#[async_trait]
impl LedgerReads for PostgresEngine {
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

    async fn tenants(&self) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query("SELECT tenant_id FROM tenants ORDER BY tenant_id", &[])
            .await?;
        rows.iter().map(|r| col(r, 0)).collect()
    }
}
