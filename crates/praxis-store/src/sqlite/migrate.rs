//! The two ends of a migration on SQLite: a read snapshot of a data
//! directory (no lock taken, so a running server may keep serving), and a
//! target whose every batch is one `BEGIN IMMEDIATE` transaction.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Event;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, params, params_from_iter};

use super::ledger::{SqliteRead, SqliteTx};
use super::{DB_FILE, SqliteEngine, open_connection};
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
    ) STRICT, WITHOUT ROWID;";

/// Reads the marker on any connection.
pub(super) fn marker(conn: &Connection) -> Result<Option<String>, StoreError> {
    let mut stmt = conn.prepare_cached(sql::MARKER)?;
    let mut rows = stmt.query(params![MARKER_NAME])?;
    Ok(match rows.next()? {
        Some(r) => Some(r.get(0)?),
        None => None,
    })
}

/// A read snapshot: one connection inside one read transaction.
pub(crate) struct SqliteSource {
    conn: Arc<Mutex<Connection>>,
    identity: String,
}

impl SqliteSource {
    /// Opens a snapshot of the store in `dir`, which must exist.
    pub(crate) fn open(dir: &Path) -> Result<SqliteSource, StoreError> {
        let path = dir.join(DB_FILE);
        if !path.is_file() {
            return Err(StoreError::Open(format!("no store in {}", dir.display())));
        }
        let conn = open_connection(&path)?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if version != crate::SCHEMA_VERSION {
            return Err(StoreError::Migration(format!(
                "{} has schema version {version}, this build {}: open it once with this build first",
                dir.display(),
                crate::SCHEMA_VERSION
            )));
        }
        // The snapshot starts at the first read inside the transaction.
        conn.execute_batch("BEGIN")?;
        conn.query_row("SELECT count(*) FROM tenants", [], |r| r.get::<_, i64>(0))?;
        let dir = std::fs::canonicalize(dir)?;
        Ok(SqliteSource {
            conn: Arc::new(Mutex::new(conn)),
            identity: format!("sqlite:{}", dir.display()),
        })
    }

    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let conn = self.conn.clone();
        tokio::task::spawn_blocking(move || f(&conn.lock().expect("snapshot connection")))
            .await
            .map_err(|e| StoreError::Open(format!("snapshot read failed: {e}")))?
    }
}

fn value_of(v: ValueRef<'_>) -> Result<Value, StoreError> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(f) => Value::Real(f),
        ValueRef::Text(t) => Value::Text(
            String::from_utf8(t.to_vec())
                .map_err(|_| StoreError::inconsistent("a text column is not UTF-8"))?,
        ),
        ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
    })
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(*i)),
            Value::Real(f) => ToSqlOutput::Borrowed(ValueRef::Real(*f)),
            Value::Text(t) => ToSqlOutput::Borrowed(ValueRef::Text(t.as_bytes())),
            Value::Bytes(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
            Value::Bool(b) => ToSqlOutput::Borrowed(ValueRef::Integer(i64::from(*b))),
        })
    }
}

fn table_rows(conn: &Connection, tenant: &str, name: &'static str) -> Result<Table, StoreError> {
    let mut stmt = conn.prepare(&sql::select_rows(name))?;
    let columns: Vec<String> = stmt.column_names().map(str::to_owned).collect();
    let width = columns.len();
    let mut rows = Vec::new();
    let mut cursor = stmt.query(params![tenant])?;
    while let Some(r) = cursor.next()? {
        rows.push(
            (0..width)
                .map(|i| value_of(r.get_ref(i)?))
                .collect::<Result<Vec<_>, StoreError>>()?,
        );
    }
    Ok(Table {
        name,
        columns,
        rows,
    })
}

#[async_trait]
impl Source for SqliteSource {
    fn identity(&self) -> String {
        self.identity.clone()
    }

    async fn tenants(&mut self) -> Result<Vec<Tenant>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(sql::TENANTS)?;
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<Result<Vec<(String, i64, i64)>, _>>()?;
            rows.into_iter()
                .map(|(id, head, created_at)| {
                    Ok(Tenant {
                        id,
                        head: crate::ledger::rows::to_u64(head)?,
                        created_at,
                    })
                })
                .collect()
        })
        .await
    }

    async fn store_keys(&mut self) -> Result<Vec<(String, String)>, StoreError> {
        self.with(|c| {
            let mut stmt = c.prepare(sql::STORE_KEYS)?;
            let rows = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
        .await
    }

    async fn marker(&mut self) -> Result<Option<String>, StoreError> {
        self.with(marker).await
    }

    async fn events(
        &mut self,
        tenant: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let tenant = tenant.to_owned();
        self.with(move |c| pollster::block_on(SqliteRead(c).raw_events(&tenant, after, limit)))
            .await
    }

    async fn receipts(&mut self, tenant: &str) -> Result<Vec<StoredReceipt>, StoreError> {
        let tenant = tenant.to_owned();
        self.with(move |c| pollster::block_on(SqliteRead(c).all_receipts(&tenant)))
            .await
    }

    async fn beside(&mut self, tenant: &str) -> Result<Beside, StoreError> {
        let tenant = tenant.to_owned();
        self.with(move |c| {
            let mut read = SqliteRead(c);
            let receipts = pollster::block_on(read.all_receipts(&tenant))?;
            let records = pollster::block_on(records_of(&mut read, &tenant))?;
            let tables = TABLES
                .iter()
                .map(|name| table_rows(c, &tenant, name))
                .collect::<Result<_, _>>()?;
            Ok(Beside {
                receipts,
                records,
                tables,
            })
        })
        .await
    }

    async fn verify(&mut self) -> Result<VerifyReport, StoreError> {
        self.with(|c| pollster::block_on(verify_store(&mut SqliteRead(c))))
            .await
    }
}

/// The store a migration writes into: the engine (its lock and schema)
/// and one connection for the copy's transactions.
pub(crate) struct SqliteTarget {
    dir: PathBuf,
    conn: Arc<Mutex<Connection>>,
    _engine: SqliteEngine,
}

impl SqliteTarget {
    /// Opens (creating if needed) the store in `dir`.
    pub(crate) fn open(dir: &Path) -> Result<SqliteTarget, StoreError> {
        let engine = SqliteEngine::open(dir)?;
        let conn = open_connection(&dir.join(DB_FILE))?;
        Ok(SqliteTarget {
            dir: dir.to_owned(),
            conn: Arc::new(Mutex::new(conn)),
            _engine: engine,
        })
    }

    /// Runs `f` in one immediate transaction that also stores `marker`.
    async fn write(
        &self,
        marker: &Marker,
        f: impl FnOnce(&Connection) -> Result<(), StoreError> + Send + 'static,
    ) -> Result<(), StoreError> {
        let conn = self.conn.clone();
        let marker = marker.encode();
        tokio::task::spawn_blocking(move || {
            let mut conn = conn.lock().expect("target connection");
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            f(&tx)?;
            tx.execute(sql::PUT_MARKER, params![MARKER_NAME, marker])?;
            tx.commit()?;
            Ok(())
        })
        .await
        .map_err(|e| StoreError::Open(format!("target write failed: {e}")))?
    }
}

#[async_trait]
impl Target for SqliteTarget {
    async fn snapshot(&self) -> Result<Box<dyn Source>, StoreError> {
        let dir = self.dir.clone();
        let source = tokio::task::spawn_blocking(move || SqliteSource::open(&dir))
            .await
            .map_err(|e| StoreError::Open(e.to_string()))??;
        Ok(Box::new(source))
    }

    async fn start(&self, marker: &Marker, keys: &[(String, String)]) -> Result<(), StoreError> {
        let keys = keys.to_vec();
        self.write(marker, move |c| {
            for (name, fingerprint) in &keys {
                c.execute(sql::PUT_STORE_KEY, params![name, fingerprint])?;
            }
            Ok(())
        })
        .await
    }

    async fn append(
        &self,
        tenant: &Tenant,
        events: &[Event],
        marker: &Marker,
    ) -> Result<(), StoreError> {
        let (tenant, events) = (tenant.clone(), events.to_vec());
        self.write(marker, move |c| {
            let head = events.last().map_or(0, |e| e.position);
            c.execute(
                sql::PUT_TENANT,
                params![tenant.id, to_i64(head), tenant.created_at],
            )?;
            let mut tx = SqliteTx { conn: c };
            for event in &events {
                pollster::block_on(tx.insert_event(event))?;
            }
            Ok(())
        })
        .await
    }

    async fn replace_beside(
        &self,
        tenant: &str,
        beside: &Beside,
        marker: &Marker,
    ) -> Result<(), StoreError> {
        let tenant = tenant.to_owned();
        let receipts = beside.receipts.clone();
        let records = beside.records.clone();
        let tables = beside.tables.clone();
        self.write(marker, move |c| {
            c.execute(sql::DELETE_RECEIPTS, params![tenant])?;
            c.execute(
                "DELETE FROM records_fts WHERE rowid IN (SELECT rowid FROM records WHERE tenant_id = $1)",
                params![tenant],
            )?;
            c.execute(sql::DELETE_RECORDS, params![tenant])?;
            for name in TABLES {
                c.execute(&sql::delete_rows(name), params![tenant])?;
            }
            let mut tx = SqliteTx { conn: c };
            for receipt in &receipts {
                pollster::block_on(tx.insert_receipt(&tenant, receipt))?;
            }
            for (ns, row, search) in &records {
                pollster::block_on(tx.put_record(&tenant, &Namespace(ns.clone()), row, search))?;
            }
            for table in &tables {
                let mut stmt = c.prepare(&sql::insert_row(table.name, &table.columns))?;
                for row in &table.rows {
                    stmt.execute(params_from_iter(row.iter()))?;
                }
            }
            Ok(())
        })
        .await
    }

    async fn mark(&self, marker: &Marker) -> Result<(), StoreError> {
        self.write(marker, |_| Ok(())).await
    }
}
