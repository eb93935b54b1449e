//! The learning registry on PostgreSQL.

use async_trait::async_trait;
use praxis_domain::learning::{Context, Policy};
use tokio_postgres::Row;

use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
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
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, kind, id)
    );";

fn registry_at(r: &Row) -> Result<RegistryRow, StoreError> {
    Ok(RegistryRow {
        kind: col(r, 0)?,
        id: col(r, 1)?,
        payload: col(r, 2)?,
        digest: col(r, 3)?,
        registered_by: col(r, 4)?,
        recorded_at: col(r, 5)?,
        position: col(r, 6)?,
    })
}

impl LearningTx for PgTx<'_, '_> {
    async fn registry_row(
        &mut self,
        tenant: &str,
        kind: &str,
        id: &str,
    ) -> Result<Option<RegistryRow>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::REGISTRY_ROW).await?;
        let tx = self.tx;
        // Deferred inserts are sent first, so an earlier write of the same
        // batch is seen.
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &kind, &id]))
            .await?;
        row.map(|r| registry_at(&r)).transpose()
    }

    async fn insert_registry_row(
        &mut self,
        tenant: &str,
        row: &RegistryRow,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(row.kind.clone()),
            Box::new(row.id.clone()),
            Box::new(row.payload.clone()),
            Box::new(row.digest.clone()),
            Box::new(row.registered_by.clone()),
            Box::new(row.recorded_at),
            Box::new(row.position),
        ];
        self.defer(sql::INSERT_REGISTRY_ROW, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> LearningRead for PgRead<'_, C> {
    async fn all_registry_rows(&mut self, tenant: &str) -> Result<Vec<RegistryRow>, StoreError> {
        let rows = self
            .0
            .query(sql::REGISTRY_ROWS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter().map(registry_at).collect()
    }
}

impl PostgresEngine {
    async fn registry_entry<T: Registrable>(
        &self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Entry<T>>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(sql::REGISTRY_ROW, &[&tenant, &T::KIND, &id])
            .await?;
        row.map(|r| registry_at(&r)?.into_entry()).transpose()
    }
}

#[async_trait]
impl LearningReads for PostgresEngine {
    async fn policy(&self, tenant: &str, id: &str) -> Result<Option<Entry<Policy>>, StoreError> {
        self.registry_entry(tenant, id).await
    }

    async fn context(&self, tenant: &str, id: &str) -> Result<Option<Entry<Context>>, StoreError> {
        self.registry_entry(tenant, id).await
    }
}
