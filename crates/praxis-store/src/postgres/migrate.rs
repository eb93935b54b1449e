//! The two ends of a migration on PostgreSQL: a repeatable-read, read-only
//! snapshot to copy from, and a target whose every batch is one transaction
//! (events sent pipelined).

use async_trait::async_trait;
use deadpool_postgres::{GenericClient, Object};
use futures_util::future::try_join_all;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use tokio_postgres::types::private::BytesMut;
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::ledger::PgRead;
use super::pipeline::PgTx;
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::ledger::rows::to_i64;
use crate::ledger::{LedgerRead, LedgerTx, StoredReceipt};
use crate::migrate::sql::{self, MARKER_NAME, TABLES};
use crate::migrate::{Beside, Marker, Source, Table, Target, Tenant, Value, records_of};
use crate::records::RecordTx;
use crate::verify::{VerifyReport, verify_store};

/// The migration marker (schema version 12).
pub(super) const SCHEMA_V12: &str = "CREATE TABLE migration_marker (
        name TEXT PRIMARY KEY,
        marker TEXT NOT NULL
    );";

/// Reads the marker on any client.
pub(super) async fn marker<C: GenericClient + Sync>(
    client: &C,
) -> Result<Option<String>, StoreError> {
    let row = client.query_opt(sql::MARKER, &[&MARKER_NAME]).await?;
    row.map(|r| col(&r, 0)).transpose()
}

fn identity(url: &str) -> String {
    // The password never reaches the marker.
    crate::redact_location(url)
}

/// A read snapshot: one connection inside one repeatable-read transaction.
pub(crate) struct PgSource {
    client: Object,
    identity: String,
}

impl PgSource {
    /// Opens a snapshot of the database at `url`.
    pub(crate) async fn open(url: &str) -> Result<PgSource, StoreError> {
        let pool = super::pool(url, 1)?;
        let client = pool
            .get()
            .await
            .map_err(|e| StoreError::Open(e.to_string()))?;
        client
            .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .await?;
        let version: i64 = col(
            &client
                .query_one("SELECT COALESCE(MAX(version), 0) FROM praxis_schema", &[])
                .await?,
            0,
        )?;
        if version != crate::SCHEMA_VERSION {
            return Err(StoreError::Migration(format!(
                "the database has schema version {version}, this build {}: open it once with this build first",
                crate::SCHEMA_VERSION
            )));
        }
        Ok(PgSource {
            client,
            identity: identity(url),
        })
    }
}

fn value_of(row: &tokio_postgres::Row, i: usize) -> Result<Value, StoreError> {
    let ty = row.columns()[i].type_().clone();
    Ok(if ty == Type::BOOL {
        col::<Option<bool>>(row, i)?.map_or(Value::Null, Value::Bool)
    } else if ty == Type::INT8 {
        col::<Option<i64>>(row, i)?.map_or(Value::Null, Value::Int)
    } else if ty == Type::INT4 {
        col::<Option<i32>>(row, i)?.map_or(Value::Null, |v| Value::Int(v.into()))
    } else if ty == Type::FLOAT8 {
        col::<Option<f64>>(row, i)?.map_or(Value::Null, Value::Real)
    } else if ty == Type::BYTEA {
        col::<Option<Vec<u8>>>(row, i)?.map_or(Value::Null, Value::Bytes)
    } else if ty == Type::TEXT {
        col::<Option<String>>(row, i)?.map_or(Value::Null, Value::Text)
    } else {
        return Err(StoreError::Migration(format!(
            "column {} has type {ty}, which a migration cannot copy",
            row.columns()[i].name()
        )));
    })
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        // SQLite keeps booleans as integers; the column's type decides.
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) if *ty == Type::BOOL => (*i != 0).to_sql(ty, out),
            Value::Int(i) => i.to_sql(ty, out),
            Value::Bool(b) if *ty == Type::INT8 => i64::from(*b).to_sql(ty, out),
            Value::Bool(b) => b.to_sql(ty, out),
            Value::Real(f) => f.to_sql(ty, out),
            Value::Text(t) => t.to_sql(ty, out),
            Value::Bytes(b) => b.to_sql(ty, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

#[async_trait]
impl Source for PgSource {
    fn identity(&self) -> String {
        self.identity.clone()
    }

    async fn tenants(&mut self) -> Result<Vec<Tenant>, StoreError> {
        let rows = self.client.query(sql::TENANTS, &[]).await?;
        rows.iter()
            .map(|r| {
                Ok(Tenant {
                    id: col(r, 0)?,
                    head: crate::ledger::rows::to_u64(col(r, 1)?)?,
                    created_at: col(r, 2)?,
                })
            })
            .collect()
    }

    async fn store_keys(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self.client.query(sql::STORE_KEYS, &[]).await?;
        rows.iter().map(|r| Ok((col(r, 0)?, col(r, 1)?))).collect()
    }

    async fn marker(&mut self) -> Result<Option<String>, StoreError> {
        marker(&self.client).await
    }

    async fn events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        PgRead(&self.client).raw_events(tenant, after, limit).await
    }

    async fn receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError> {
        PgRead(&self.client).all_receipts(tenant).await
    }

    async fn beside(&mut self, tenant: &str) -> Result<Beside, StoreError> {
        let mut read = PgRead(&self.client);
        let receipts = read.all_receipts(tenant).await?;
        let records = records_of(&mut read, tenant).await?;
        let mut tables = Vec::new();
        for name in TABLES {
            let rows = self
                .client
                .query(&sql::select_rows(name), &[&tenant])
                .await?;
            let stmt = self.client.prepare(&sql::select_rows(name)).await?;
            let columns: Vec<String> = stmt.columns().iter().map(|c| c.name().to_owned()).collect();
            let rows = rows
                .iter()
                .map(|r| (0..columns.len()).map(|i| value_of(r, i)).collect())
                .collect::<Result<_, StoreError>>()?;
            tables.push(Table {
                name,
                columns,
                rows,
            });
        }
        Ok(Beside {
            receipts,
            records,
            tables,
        })
    }

    async fn verify(&mut self) -> Result<VerifyReport, StoreError> {
        verify_store(&mut PgRead(&self.client)).await
    }
}

/// The database a migration writes into.
pub(crate) struct PgTarget {
    url: String,
    engine: PostgresEngine,
}

impl PgTarget {
    /// Connects, creating the schema if the database has none.
    pub(crate) async fn open(url: &str) -> Result<PgTarget, StoreError> {
        Ok(PgTarget {
            url: url.to_owned(),
            engine: PostgresEngine::open(url).await?,
        })
    }
}

/// Inserts rows of one table, pipelined.
async fn insert_table(
    tx: &deadpool_postgres::Transaction<'_>,
    table: &Table,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare(&sql::insert_row(table.name, &table.columns))
        .await?;
    for chunk in table.rows.chunks(256) {
        try_join_all(chunk.iter().map(|row| {
            let refs: Vec<&(dyn ToSql + Sync)> =
                row.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
            let stmt = &stmt;
            async move { tx.execute(stmt, &refs).await }
        }))
        .await?;
    }
    Ok(())
}

#[async_trait]
impl Target for PgTarget {
    async fn snapshot(&self) -> Result<Box<dyn Source>, StoreError> {
        Ok(Box::new(PgSource::open(&self.url).await?))
    }

    async fn start(&self, marker: &Marker, keys: &[(String, String)]) -> Result<(), StoreError> {
        let mut client = self.engine.client().await?;
        let tx = client.transaction().await?;
        for (name, fingerprint) in keys {
            tx.execute(sql::PUT_STORE_KEY, &[name, fingerprint]).await?;
        }
        tx.execute(sql::PUT_MARKER, &[&MARKER_NAME, &marker.encode()])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn append(
        &self,
        tenant: &Tenant,
        events: &[Event],
        marker: &Marker,
    ) -> Result<(), StoreError> {
        let mut client = self.engine.client().await?;
        let tx = client.transaction().await?;
        let head = to_i64(events.last().map_or(0, |e| e.position));
        tx.execute(sql::PUT_TENANT, &[&tenant.id, &head, &tenant.created_at])
            .await?;
        let mut writer = PgTx::new(&tx);
        for event in events {
            writer.insert_event(event).await?;
        }
        writer.flush().await?;
        tx.execute(sql::PUT_MARKER, &[&MARKER_NAME, &marker.encode()])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn replace_beside(
        &self,
        tenant: &str,
        beside: &Beside,
        marker: &Marker,
    ) -> Result<(), StoreError> {
        let mut client = self.engine.client().await?;
        let tx = client.transaction().await?;
        tx.execute(sql::DELETE_RECEIPTS, &[&tenant]).await?;
        tx.execute(sql::DELETE_RECORDS, &[&tenant]).await?;
        for name in TABLES {
            tx.execute(&sql::delete_rows(name), &[&tenant]).await?;
        }
        let mut writer = PgTx::new(&tx);
        for receipt in &beside.receipts {
            writer.insert_receipt(tenant, receipt).await?;
        }
        for (ns, row, search) in &beside.records {
            writer
                .put_record(tenant, &Namespace(ns.clone()), row, search)
                .await?;
        }
        writer.flush().await?;
        for table in &beside.tables {
            insert_table(&tx, table).await?;
        }
        tx.execute(sql::PUT_MARKER, &[&MARKER_NAME, &marker.encode()])
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn mark(&self, marker: &Marker) -> Result<(), StoreError> {
        let client = self.engine.client().await?;
        client
            .execute(sql::PUT_MARKER, &[&MARKER_NAME, &marker.encode()])
            .await?;
        Ok(())
    }
}
