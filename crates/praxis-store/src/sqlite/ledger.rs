//! The ledger on SQLite: tenants, events, stream heads and receipts.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Event;
use praxis_domain::time::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use crate::error::StoreError;
use crate::ledger::rows::{self, EventRow, to_i64, to_u64};
use crate::ledger::sql;
use crate::ledger::{LedgerRead, LedgerReads, LedgerTx, StoredReceipt};

/// Tables of the ledger (schema version 1).
pub(super) const SCHEMA_V1: &str = "CREATE TABLE tenants (
        tenant_id TEXT PRIMARY KEY,
        head INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE events (
        tenant_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        namespace TEXT NOT NULL,
        stream TEXT NOT NULL,
        stream_seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        payload_digest BLOB NOT NULL,
        prev_digest BLOB,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        digest BLOB NOT NULL,
        PRIMARY KEY (tenant_id, position)
    ) STRICT, WITHOUT ROWID;
    CREATE UNIQUE INDEX events_by_stream ON events (tenant_id, namespace, stream, stream_seq);
    CREATE TABLE receipts (
        tenant_id TEXT NOT NULL,
        key TEXT NOT NULL,
        request_digest BLOB NOT NULL,
        receipt BLOB NOT NULL,
        receipt_digest BLOB NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, key)
    ) STRICT, WITHOUT ROWID;";

/// Store-wide key fingerprints (schema version 4).
pub(super) const SCHEMA_V4: &str = "CREATE TABLE store_keys (
        name TEXT PRIMARY KEY,
        fingerprint TEXT NOT NULL
    ) STRICT, WITHOUT ROWID;";

/// The writer's connection inside its open transaction.
pub(super) struct SqliteTx<'c> {
    pub(super) conn: &'c Connection,
}

/// A reader's connection.
pub(super) struct SqliteRead<'c>(pub(super) &'c Connection);

pub(super) fn event_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EventRow> {
    Ok(EventRow {
        tenant_id: r.get(0)?,
        position: r.get(1)?,
        namespace: r.get(2)?,
        stream: r.get(3)?,
        stream_seq: r.get(4)?,
        kind: r.get(5)?,
        payload: r.get(6)?,
        payload_digest: r.get(7)?,
        prev_digest: r.get(8)?,
        actor_credential: r.get(9)?,
        actor_subject: r.get(10)?,
        recorded_at: r.get(11)?,
        digest: r.get(12)?,
    })
}

/// key, request digest, receipt, receipt digest, position.
type ReceiptColumns = (String, Vec<u8>, Vec<u8>, Vec<u8>, i64);

fn receipt_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ReceiptColumns> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

fn into_receipt(row: ReceiptColumns) -> Result<StoredReceipt, StoreError> {
    let (key, request_digest, bytes, receipt_digest, position) = row;
    Ok(StoredReceipt {
        key,
        request_digest: rows::digest(&request_digest)?,
        bytes,
        receipt_digest: rows::digest(&receipt_digest)?,
        position: to_u64(position)?,
    })
}

pub(super) fn raw_events(
    conn: &Connection,
    tenant: &str,
    after: u64,
    limit: usize,
) -> Result<Vec<EventRow>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::EVENTS_AFTER)?;
    let rows = stmt
        .query_map(params![tenant, to_i64(after), limit as i64], event_row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

impl LedgerTx for SqliteTx<'_> {
    async fn lock_tenant(&mut self, tenant: &str) -> Result<Option<u64>, StoreError> {
        // BEGIN IMMEDIATE already holds the database's single write lock.
        let head: Option<i64> = self
            .conn
            .prepare_cached(sql::TENANT_HEAD)?
            .query_row(params![tenant], |r| r.get(0))
            .optional()?;
        head.map(to_u64).transpose()
    }

    async fn create_tenant(&mut self, tenant: &str, at: Timestamp) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_TENANT)?
            .execute(params![tenant, at.micros()])?;
        Ok(())
    }

    async fn set_tenant_head(&mut self, tenant: &str, head: u64) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::SET_TENANT_HEAD)?
            .execute(params![to_i64(head), tenant])?;
        Ok(())
    }

    async fn stream_head(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        stream: &str,
    ) -> Result<Option<(u64, Digest)>, StoreError> {
        let row: Option<(i64, Vec<u8>)> = self
            .conn
            .prepare_cached(sql::STREAM_HEAD)?
            .query_row(params![tenant, namespace.as_str(), stream], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        row.map(|(s, d)| Ok((to_u64(s)?, rows::digest(&d)?)))
            .transpose()
    }

    async fn insert_event(&mut self, e: &Event) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_EVENT)?
            .execute(params![
                e.tenant_id,
                to_i64(e.position),
                e.namespace.as_str(),
                e.stream,
                to_i64(e.stream_seq),
                e.kind,
                e.canonical,
                &e.payload_digest.0[..],
                e.prev_digest.as_ref().map(|d| d.0.to_vec()),
                e.actor.credential_id,
                e.actor.subject,
                e.recorded_at.micros(),
                &e.digest.0[..],
            ])?;
        Ok(())
    }

    async fn event_at(&mut self, tenant: &str, position: u64) -> Result<Event, StoreError> {
        self.conn
            .prepare_cached(sql::EVENT_AT)?
            .query_row(params![tenant, to_i64(position)], event_row)
            .optional()?
            .ok_or_else(|| StoreError::inconsistent(format!("no event at position {position}")))?
            .into_verified_event()
    }

    async fn receipt(
        &mut self,
        tenant: &str,
        key: &str,
    ) -> Result<Option<StoredReceipt>, StoreError> {
        let row = self
            .conn
            .prepare_cached(sql::RECEIPT)?
            .query_row(params![tenant, key], receipt_row)
            .optional()?;
        row.map(into_receipt).transpose()
    }

    async fn insert_receipt(
        &mut self,
        tenant: &str,
        r: &StoredReceipt,
    ) -> Result<bool, StoreError> {
        let inserted = self
            .conn
            .prepare_cached(sql::INSERT_RECEIPT)?
            .execute(params![
                tenant,
                r.key,
                &r.request_digest.0[..],
                r.bytes,
                &r.receipt_digest.0[..],
                to_i64(r.position)
            ])?;
        Ok(inserted == 1)
    }

    async fn savepoint(&mut self) -> Result<(), StoreError> {
        self.conn.prepare_cached("SAVEPOINT w")?.execute([])?;
        Ok(())
    }

    async fn release(&mut self) -> Result<(), StoreError> {
        self.conn.prepare_cached("RELEASE w")?.execute([])?;
        Ok(())
    }

    async fn rollback_to(&mut self) -> Result<(), StoreError> {
        self.conn.execute_batch("ROLLBACK TO w; RELEASE w")?;
        Ok(())
    }
}

impl LedgerRead for SqliteRead<'_> {
    async fn tenants(&mut self) -> Result<Vec<(String, u64)>, StoreError> {
        let mut stmt = self.0.prepare(sql::TENANTS)?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(|(t, h)| Ok((t, to_u64(h)?))).collect()
    }

    async fn raw_events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        raw_events(self.0, tenant, after, limit)?
            .into_iter()
            .map(EventRow::into_event)
            .collect()
    }

    async fn all_receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError> {
        let mut stmt = self.0.prepare(sql::RECEIPTS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], receipt_row)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(into_receipt).collect()
    }
}

#[async_trait]
impl LedgerReads for SqliteEngine {
    async fn events(
        &self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let tenant = tenant.to_owned();
        self.read(move |c| {
            raw_events(c, &tenant, after, limit)?
                .into_iter()
                .map(EventRow::into_verified_event)
                .collect()
        })
        .await
    }

    async fn tenants(&self) -> Result<Vec<String>, StoreError> {
        self.read(|c| {
            let rows = pollster::block_on(SqliteRead(c).tenants())?;
            Ok(rows.into_iter().map(|(t, _)| t).collect())
        })
        .await
    }
}
