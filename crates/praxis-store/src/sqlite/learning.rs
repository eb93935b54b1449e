//! The learning registry on SQLite.

use async_trait::async_trait;
use praxis_domain::learning::{Context, Policy};
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx};
use crate::error::StoreError;
use crate::learning::rows::RegistryRow;
use crate::learning::sql;
use crate::learning::{Entry, LearningRead, LearningReads, LearningTx, Registrable};

/// The learning registry's table (schema version 5).
pub(super) const SCHEMA_V5: &str = "CREATE TABLE learning_registry (
        tenant_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        payload TEXT NOT NULL,
        digest TEXT NOT NULL,
        registered_by TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, kind, id)
    ) STRICT, WITHOUT ROWID;";

fn registry_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<RegistryRow> {
    Ok(RegistryRow {
        kind: r.get(0)?,
        id: r.get(1)?,
        payload: r.get(2)?,
        digest: r.get(3)?,
        registered_by: r.get(4)?,
        recorded_at: r.get(5)?,
        position: r.get(6)?,
    })
}

fn query_row(
    conn: &Connection,
    tenant: &str,
    kind: &str,
    id: &str,
) -> Result<Option<RegistryRow>, StoreError> {
    Ok(conn
        .prepare_cached(sql::REGISTRY_ROW)?
        .query_row(params![tenant, kind, id], registry_at)
        .optional()?)
}

impl LearningTx for SqliteTx<'_> {
    async fn registry_row(
        &mut self,
        tenant: &str,
        kind: &str,
        id: &str,
    ) -> Result<Option<RegistryRow>, StoreError> {
        query_row(self.conn, tenant, kind, id)
    }

    async fn insert_registry_row(
        &mut self,
        tenant: &str,
        row: &RegistryRow,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::INSERT_REGISTRY_ROW)?
            .execute(params![
                tenant,
                row.kind,
                row.id,
                row.payload,
                row.digest,
                row.registered_by,
                row.recorded_at,
                row.position,
            ])?;
        Ok(())
    }
}

impl LearningRead for SqliteRead<'_> {
    async fn all_registry_rows(&mut self, tenant: &str) -> Result<Vec<RegistryRow>, StoreError> {
        let mut stmt = self.0.prepare(sql::REGISTRY_ROWS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], registry_at)?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

impl SqliteEngine {
    /// A point read, so it runs in the calling task.
    fn registry_entry<T: Registrable>(
        &self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Entry<T>>, StoreError> {
        self.read_now(|c| {
            query_row(c, tenant, T::KIND, id)?
                .map(RegistryRow::into_entry)
                .transpose()
        })
    }
}

#[async_trait]
impl LearningReads for SqliteEngine {
    async fn policy(&self, tenant: &str, id: &str) -> Result<Option<Entry<Policy>>, StoreError> {
        self.registry_entry(tenant, id)
    }

    async fn context(&self, tenant: &str, id: &str) -> Result<Option<Entry<Context>>, StoreError> {
        self.registry_entry(tenant, id)
    }
}
