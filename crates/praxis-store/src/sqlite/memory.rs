//! Agent memory on SQLite.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::memory::{MemoryChange, MemoryItem, MemoryKey};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx};
use crate::error::StoreError;
use crate::ledger::rows::to_i64;
use crate::memory::rows::{
    ChangeColumns, MemoryColumns, MemoryRow, json_text, kind_text, priority_text,
};
use crate::memory::{MemoryRead, MemoryReads, MemoryTx, rarest_first, sql};

/// Memory's tables (schema version 9). Items are a rowid table: a body of
/// up to 8 KiB is too large a row for a clustered key.
pub(super) const SCHEMA_V9: &str = "CREATE TABLE memory_items (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        generation INTEGER NOT NULL,
        write_no INTEGER NOT NULL,
        revision TEXT,
        summary TEXT,
        body TEXT,
        tags TEXT,
        priority TEXT,
        bootstrap INTEGER,
        position INTEGER NOT NULL,
        UNIQUE (tenant_id, namespace, key)
    ) STRICT;
    CREATE TABLE memory_history (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        generation INTEGER NOT NULL,
        write_no INTEGER NOT NULL,
        kind TEXT NOT NULL,
        revision TEXT NOT NULL,
        definition TEXT,
        at TEXT NOT NULL,
        position INTEGER NOT NULL,
        UNIQUE (tenant_id, namespace, key, position)
    ) STRICT;
    CREATE TABLE memory_terms (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        term TEXT NOT NULL,
        key TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, term, key)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE memory_usage (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        live_items INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    ) STRICT, WITHOUT ROWID;";

fn memory_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<MemoryColumns> {
    Ok(MemoryColumns {
        key: r.get(at)?,
        generation: r.get(at + 1)?,
        write_no: r.get(at + 2)?,
        revision: r.get(at + 3)?,
        summary: r.get(at + 4)?,
        body: r.get(at + 5)?,
        tags: r.get(at + 6)?,
        priority: r.get(at + 7)?,
        bootstrap: r.get(at + 8)?,
        position: r.get(at + 9)?,
    })
}

fn change_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<ChangeColumns> {
    Ok(ChangeColumns {
        generation: r.get(at)?,
        write_no: r.get(at + 1)?,
        kind: r.get(at + 2)?,
        revision: r.get(at + 3)?,
        definition: r.get(at + 4)?,
        at: r.get(at + 5)?,
        position: r.get(at + 6)?,
    })
}

fn query_row(
    conn: &Connection,
    tenant: &str,
    namespace: &Namespace,
    key: &MemoryKey,
) -> Result<Option<MemoryRow>, StoreError> {
    conn.prepare_cached(sql::MEMORY_ROW)?
        .query_row(params![tenant, namespace.as_str(), key.as_str()], |r| {
            memory_at(r, 0)
        })
        .optional()?
        .map(MemoryColumns::into_row)
        .transpose()
}

fn items(rows: Vec<MemoryColumns>) -> Result<Vec<MemoryItem>, StoreError> {
    rows.into_iter()
        .map(|c| c.into_row().map(|r| r.item()))
        .filter_map(Result::transpose)
        .collect()
}

impl MemoryTx for SqliteTx<'_> {
    async fn memory_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
    ) -> Result<Option<MemoryRow>, StoreError> {
        query_row(self.conn, tenant, namespace, key)
    }

    async fn put_memory(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &MemoryRow,
    ) -> Result<(), StoreError> {
        let live = row.state.live.as_ref();
        let d = live.map(|(d, _)| d);
        let tags = d.map(|d| json_text(&d.tags)).transpose()?;
        self.conn
            .prepare_cached(sql::UPSERT_MEMORY)?
            .execute(params![
                tenant,
                namespace.as_str(),
                row.key.as_str(),
                to_i64(row.state.last.generation),
                to_i64(row.state.last.write),
                live.map(|(_, r)| r.as_str()),
                d.map(|d| d.summary.as_str()),
                d.map(|d| d.body.as_str()),
                tags,
                d.map(|d| priority_text(d.priority)),
                d.map(|d| d.bootstrap),
                to_i64(row.position),
            ])?;
        Ok(())
    }

    async fn add_memory_change(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        change: &MemoryChange,
    ) -> Result<(), StoreError> {
        let definition = change.definition.as_ref().map(json_text).transpose()?;
        self.conn
            .prepare_cached(sql::INSERT_HISTORY)?
            .execute(params![
                tenant,
                namespace.as_str(),
                key.as_str(),
                to_i64(change.stamp.generation),
                to_i64(change.stamp.write),
                kind_text(change.kind),
                change.revision.as_str(),
                definition,
                change.at,
                to_i64(change.position),
            ])?;
        Ok(())
    }

    async fn memory_terms(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        add: &[&String],
        drop: &[&String],
    ) -> Result<(), StoreError> {
        let mut insert = self.conn.prepare_cached(sql::INSERT_TERM)?;
        for term in add {
            insert.execute(params![tenant, namespace.as_str(), term, key.as_str()])?;
        }
        let mut delete = self.conn.prepare_cached(sql::DELETE_TERM)?;
        for term in drop {
            delete.execute(params![tenant, namespace.as_str(), term, key.as_str()])?;
        }
        Ok(())
    }

    async fn memory_usage(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<(u64, u64), StoreError> {
        let (scope, total): (i64, i64) = self
            .conn
            .prepare_cached(sql::USAGE)?
            .query_row(params![tenant, namespace.as_str()], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
        Ok((scope.max(0).cast_unsigned(), total.max(0).cast_unsigned()))
    }

    async fn bump_memory_usage(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        delta: i64,
    ) -> Result<(), StoreError> {
        self.conn.prepare_cached(sql::BUMP_USAGE)?.execute(params![
            tenant,
            namespace.as_str(),
            delta
        ])?;
        Ok(())
    }
}

impl MemoryRead for SqliteRead<'_> {
    async fn all_memory(&mut self, tenant: &str) -> Result<Vec<(String, MemoryRow)>, StoreError> {
        let rows = self
            .0
            .prepare(sql::MEMORY_OF_TENANT)?
            .query_map(params![tenant], |r| {
                Ok((r.get::<_, String>(0)?, memory_at(r, 1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, c)| c.into_row().map(|row| (ns, row)))
            .collect()
    }

    async fn all_memory_changes(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, MemoryChange)>, StoreError> {
        let rows = self
            .0
            .prepare(sql::HISTORY_OF_TENANT)?
            .query_map(params![tenant], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    change_at(r, 2)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(ns, key, c)| c.into_change().map(|c| (ns, key, c)))
            .collect()
    }

    async fn all_memory_terms(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, String)>, StoreError> {
        Ok(self
            .0
            .prepare(sql::TERMS_OF_TENANT)?
            .query_map(params![tenant], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<Vec<_>, _>>()?)
    }

    async fn all_memory_usage(&mut self, tenant: &str) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(self
            .0
            .prepare(sql::USAGE_OF_TENANT)?
            .query_map(params![tenant], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<Vec<_>, _>>()?)
    }
}

#[async_trait]
impl MemoryReads for SqliteEngine {
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
    ) -> Result<Option<MemoryItem>, StoreError> {
        let (tenant, namespace, key) = (tenant.to_owned(), namespace.clone(), key.clone());
        self.read(move |c| Ok(query_row(c, &tenant, &namespace, &key)?.and_then(|r| r.item())))
            .await
    }

    async fn search(
        &self,
        tenant: &str,
        namespace: &Namespace,
        terms: &[String],
        after: Option<&MemoryKey>,
        limit: usize,
    ) -> Result<Vec<MemoryItem>, StoreError> {
        let (tenant, namespace) = (tenant.to_owned(), namespace.as_str().to_owned());
        let after = after.map_or_else(String::new, |k| k.as_str().to_owned());
        let terms = terms.to_vec();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |c| {
            let terms = if terms.len() > 1 {
                let mut counts = Vec::with_capacity(terms.len());
                let mut stmt = c.prepare_cached(sql::TERM_COUNT)?;
                for t in &terms {
                    let n: i64 = stmt
                        .query_row(params![tenant, namespace, t, sql::TERM_COUNT_CAP], |r| {
                            r.get(0)
                        })?;
                    counts.push(n);
                }
                rarest_first(&terms, &counts)
            } else {
                terms
            };
            let rows = if let Some((first, rest)) = terms.split_first() {
                let mut values: Vec<rusqlite::types::Value> = vec![
                    tenant.into(),
                    namespace.into(),
                    first.clone().into(),
                    after.into(),
                ];
                values.extend(rest.iter().map(|t| t.clone().into()));
                values.push(limit.into());
                c.prepare_cached(&sql::search(terms.len()))?
                    .query_map(params_from_iter(values), |r| memory_at(r, 0))?
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                c.prepare_cached(sql::LIVE_ITEMS)?
                    .query_map(params![tenant, namespace, after, limit], |r| {
                        memory_at(r, 0)
                    })?
                    .collect::<Result<Vec<_>, _>>()?
            };
            items(rows)
        })
        .await
    }

    async fn history(
        &self,
        tenant: &str,
        namespace: &Namespace,
        key: &MemoryKey,
        after: u64,
        limit: usize,
    ) -> Result<Vec<MemoryChange>, StoreError> {
        let (tenant, namespace, key) = (tenant.to_owned(), namespace.clone(), key.clone());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |c| {
            let rows = c
                .prepare_cached(sql::HISTORY)?
                .query_map(
                    params![
                        tenant,
                        namespace.as_str(),
                        key.as_str(),
                        i64::try_from(after).unwrap_or(i64::MAX),
                        limit
                    ],
                    |r| change_at(r, 0),
                )?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter().map(ChangeColumns::into_change).collect()
        })
        .await
    }
}
