//! Agent memory on PostgreSQL.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::memory::{MemoryChange, MemoryItem, MemoryKey};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::ledger::rows::to_i64;
use crate::memory::rows::{
    ChangeColumns, MemoryColumns, MemoryRow, json_text, kind_text, priority_text,
};
use crate::memory::{MemoryRead, MemoryReads, MemoryTx, rarest_first, sql};

/// Memory's tables (schema version 9). Keys compare bytewise (`C`), as
/// on SQLite, so both stores page search results in the same order.
pub(super) const SCHEMA_V9: &str = "CREATE TABLE memory_items (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        key TEXT COLLATE \"C\" NOT NULL,
        generation BIGINT NOT NULL,
        write_no BIGINT NOT NULL,
        revision TEXT,
        summary TEXT,
        body TEXT,
        tags TEXT,
        priority TEXT,
        bootstrap BOOLEAN,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, key)
    );
    CREATE TABLE memory_history (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        generation BIGINT NOT NULL,
        write_no BIGINT NOT NULL,
        kind TEXT NOT NULL,
        revision TEXT NOT NULL,
        definition TEXT,
        at TEXT NOT NULL,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, key, position)
    );
    CREATE TABLE memory_terms (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        term TEXT NOT NULL,
        key TEXT COLLATE \"C\" NOT NULL,
        PRIMARY KEY (tenant_id, namespace, term, key)
    );
    CREATE TABLE memory_usage (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        live_items BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    );";

fn memory_at(r: &Row, at: usize) -> Result<MemoryColumns, StoreError> {
    Ok(MemoryColumns {
        key: col(r, at)?,
        generation: col(r, at + 1)?,
        write_no: col(r, at + 2)?,
        revision: col(r, at + 3)?,
        summary: col(r, at + 4)?,
        body: col(r, at + 5)?,
        tags: col(r, at + 6)?,
        priority: col(r, at + 7)?,
        bootstrap: col(r, at + 8)?,
        position: col(r, at + 9)?,
    })
}

fn change_at(r: &Row, at: usize) -> Result<ChangeColumns, StoreError> {
    Ok(ChangeColumns {
        generation: col(r, at)?,
        write_no: col(r, at + 1)?,
        kind: col(r, at + 2)?,
        revision: col(r, at + 3)?,
        definition: col(r, at + 4)?,
        at: col(r, at + 5)?,
        position: col(r, at + 6)?,
    })
}

fn items(rows: &[Row]) -> Result<Vec<MemoryItem>, StoreError> {
    rows.iter()
        .map(|r| memory_at(r, 0)?.into_row().map(|r| r.item()))
        .filter_map(Result::transpose)
        .collect()
}

impl MemoryTx for PgTx<'_, '_> {
    async fn memory_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
    ) -> Result<Option<MemoryRow>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::MEMORY_ROW).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &key.as_str()]))
            .await?;
        row.map(|r| memory_at(&r, 0)?.into_row()).transpose()
    }

    async fn put_memory(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &MemoryRow,
    ) -> Result<(), StoreError> {
        let live = row.state.live.as_ref();
        let d = live.map(|(d, _)| d);
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(row.key.as_str().to_owned()),
            Box::new(to_i64(row.state.last.generation)),
            Box::new(to_i64(row.state.last.write)),
            Box::new(live.map(|(_, r)| r.as_str().to_owned())),
            Box::new(d.map(|d| d.summary.clone())),
            Box::new(d.map(|d| d.body.clone())),
            Box::new(d.map(|d| json_text(&d.tags)).transpose()?),
            Box::new(d.map(|d| priority_text(d.priority))),
            Box::new(d.map(|d| d.bootstrap)),
            Box::new(to_i64(row.position)),
        ];
        self.defer(sql::UPSERT_MEMORY, params).await
    }

    async fn add_memory_change(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        change: &MemoryChange,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(key.as_str().to_owned()),
            Box::new(to_i64(change.stamp.generation)),
            Box::new(to_i64(change.stamp.write)),
            Box::new(kind_text(change.kind)),
            Box::new(change.revision.as_str().to_owned()),
            Box::new(change.definition.as_ref().map(json_text).transpose()?),
            Box::new(change.at.clone()),
            Box::new(to_i64(change.position)),
        ];
        self.defer(sql::INSERT_HISTORY, params).await
    }

    async fn memory_terms(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        add: &[&String],
        drop: &[&String],
    ) -> Result<(), StoreError> {
        for (statement, terms) in [(sql::INSERT_TERM, add), (sql::DELETE_TERM, drop)] {
            for term in terms {
                let params: Vec<Param> = vec![
                    Box::new(tenant.to_owned()),
                    Box::new(namespace.0.clone()),
                    Box::new((*term).clone()),
                    Box::new(key.as_str().to_owned()),
                ];
                self.defer(statement, params).await?;
            }
        }
        Ok(())
    }

    async fn memory_usage(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<(u64, u64), StoreError> {
        let stmt = self.tx.prepare_cached(sql::USAGE).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_one(&stmt, &[&tenant, &namespace.as_str()]))
            .await?;
        let (scope, total): (i64, i64) = (col(&row, 0)?, col(&row, 1)?);
        Ok((scope.max(0).cast_unsigned(), total.max(0).cast_unsigned()))
    }

    async fn bump_memory_usage(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        delta: i64,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(delta),
        ];
        self.defer(sql::BUMP_USAGE, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> MemoryRead for PgRead<'_, C> {
    async fn all_memory(&mut self, tenant: &str) -> Result<Vec<(String, MemoryRow)>, StoreError> {
        let rows = self.0.query(sql::MEMORY_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, memory_at(r, 1)?.into_row()?)))
            .collect()
    }

    async fn all_memory_changes(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, MemoryChange)>, StoreError> {
        let rows = self.0.query(sql::HISTORY_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, col(r, 1)?, change_at(r, 2)?.into_change()?)))
            .collect()
    }

    async fn all_memory_terms(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, String)>, StoreError> {
        let rows = self.0.query(sql::TERMS_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| Ok((col(r, 0)?, col(r, 1)?, col(r, 2)?)))
            .collect()
    }

    async fn all_memory_usage(&mut self, tenant: &str) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = self.0.query(sql::USAGE_OF_TENANT, &[&tenant]).await?;
        rows.iter().map(|r| Ok((col(r, 0)?, col(r, 1)?))).collect()
    }
}

#[async_trait]
impl MemoryReads for PostgresEngine {
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
    ) -> Result<Option<MemoryItem>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql::MEMORY_ROW).await?;
        let row = client
            .query_opt(&stmt, &[&tenant, &namespace.as_str(), &key.as_str()])
            .await?;
        Ok(row
            .map(|r| memory_at(&r, 0)?.into_row())
            .transpose()?
            .and_then(|r| r.item()))
    }

    async fn search(
        &self,
        tenant: &str,
        namespace: &Namespace,
        terms: &[String],
        after: Option<&MemoryKey>,
        limit: usize,
    ) -> Result<Vec<MemoryItem>, StoreError> {
        let client = self.client().await?;
        let after = after.map_or("", MemoryKey::as_str);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ns = namespace.as_str();
        let ordered;
        let terms = if terms.len() > 1 {
            let stmt = client.prepare_cached(sql::TERM_COUNT).await?;
            let mut counts = Vec::with_capacity(terms.len());
            for t in terms {
                let row = client
                    .query_one(&stmt, &[&tenant, &ns, t, &sql::TERM_COUNT_CAP])
                    .await?;
                counts.push(col::<i64>(&row, 0)?);
            }
            ordered = rarest_first(terms, &counts);
            &ordered[..]
        } else {
            terms
        };
        let rows = if let Some((first, rest)) = terms.split_first() {
            let stmt = client.prepare_cached(&sql::search(terms.len())).await?;
            let mut params: Vec<&(dyn ToSql + Sync)> = vec![&tenant, &ns, first, &after];
            params.extend(rest.iter().map(|t| t as &(dyn ToSql + Sync)));
            params.push(&limit);
            client.query(&stmt, &params).await?
        } else {
            let stmt = client.prepare_cached(sql::LIVE_ITEMS).await?;
            client.query(&stmt, &[&tenant, &ns, &after, &limit]).await?
        };
        items(&rows)
    }

    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<MemoryChange>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql::HISTORY).await?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = client
            .query(
                &stmt,
                &[
                    &tenant,
                    &namespace.as_str(),
                    &key.as_str(),
                    &i64::try_from(after).unwrap_or(i64::MAX),
                    &limit,
                ],
            )
            .await?;
        rows.iter()
            .map(|r| change_at(r, 0)?.into_change())
            .collect()
    }
}
