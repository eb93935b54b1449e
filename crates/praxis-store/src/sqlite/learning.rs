//! The learning registry and development experiences on SQLite.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::learning::{Context, Policy};
use rusqlite::{Connection, OptionalExtension, Params, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx};
use crate::error::StoreError;
use crate::learning::read::log_of;
use crate::learning::registry::Registrable;
use crate::learning::rows::{
    AttemptRow, EventRow, ReceiptCols, RegistryRow, WithdrawalRow, split_withdrawals,
};
use crate::learning::sql;
use crate::learning::{
    Entry, ExperienceLog, Heads, LearningRead, LearningReads, LearningTx, LogRows, ReportSnapshot,
    StateMove,
};
use crate::ledger::rows::to_i64;

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

/// Development experiences' tables (schema version 6). Payload columns hold
/// canonical JSON; an attempt's events are kept in revision order.
pub(super) const SCHEMA_V6: &str = "CREATE TABLE experience_attempts (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        attempt TEXT NOT NULL,
        attempt_digest TEXT NOT NULL,
        depth INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        state TEXT NOT NULL,
        last_event_id TEXT,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE experience_events (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        event TEXT NOT NULL,
        event_digest TEXT NOT NULL,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, attempt_id, event_id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE experience_withdrawals (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        key TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        withdrawal TEXT NOT NULL,
        withdrawal_digest TEXT NOT NULL,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, key),
        UNIQUE (tenant_id, namespace, attempt_id, event_id)
    ) STRICT, WITHOUT ROWID;";

/// Attempts' heads in a narrow table of their own (schema version 7): a
/// report rewrites only its attempt's head, so the rows a batch of reports
/// rewrites share pages instead of each dirtying a page of wide attempt
/// rows. Events move into a rowid table with a unique index on their key:
/// new rows are appended at the table's end and only the narrow index is
/// written at a random place, where a clustered table split wide pages.
pub(super) const SCHEMA_V7: &str = "CREATE TABLE experience_heads (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        state TEXT NOT NULL,
        last_event_id TEXT,
        PRIMARY KEY (tenant_id, namespace, id)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO experience_heads (tenant_id, namespace, id, revision, state, last_event_id)
        SELECT tenant_id, namespace, id, revision, state, last_event_id FROM experience_attempts;
    ALTER TABLE experience_attempts DROP COLUMN revision;
    ALTER TABLE experience_attempts DROP COLUMN state;
    ALTER TABLE experience_attempts DROP COLUMN last_event_id;
    CREATE TABLE experience_events_v7 (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        revision INTEGER NOT NULL,
        event TEXT NOT NULL,
        event_digest TEXT NOT NULL,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        receipt_digest TEXT NOT NULL
    ) STRICT;
    INSERT INTO experience_events_v7 (tenant_id, namespace, attempt_id, event_id, revision,
        event, event_digest, actor_credential, actor_subject, recorded_at, position,
        receipt_digest)
        SELECT tenant_id, namespace, attempt_id, event_id, revision, event, event_digest,
            actor_credential, actor_subject, recorded_at, position, receipt_digest
        FROM experience_events ORDER BY position;
    DROP TABLE experience_events;
    ALTER TABLE experience_events_v7 RENAME TO experience_events;
    CREATE UNIQUE INDEX experience_events_by_id
        ON experience_events (tenant_id, namespace, attempt_id, event_id);";

/// The receipt columns that start at `at`.
pub(super) fn receipt_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<ReceiptCols> {
    Ok(ReceiptCols {
        actor_credential: r.get(at)?,
        actor_subject: r.get(at + 1)?,
        recorded_at: r.get(at + 2)?,
        position: r.get(at + 3)?,
        receipt_digest: r.get(at + 4)?,
    })
}

fn attempt_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<AttemptRow> {
    Ok(AttemptRow {
        namespace: r.get(0)?,
        id: r.get(1)?,
        attempt: r.get(2)?,
        attempt_digest: r.get(3)?,
        depth: r.get(4)?,
        revision: r.get(5)?,
        state: r.get(6)?,
        last_event_id: r.get(7)?,
        receipt: receipt_at(r, 8)?,
    })
}

fn event_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<EventRow> {
    Ok(EventRow {
        namespace: r.get(0)?,
        attempt_id: r.get(1)?,
        event_id: r.get(2)?,
        revision: r.get(3)?,
        event: r.get(4)?,
        event_digest: r.get(5)?,
        receipt: receipt_at(r, 6)?,
    })
}

fn withdrawal_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<WithdrawalRow> {
    Ok(WithdrawalRow {
        namespace: r.get(0)?,
        key: r.get(1)?,
        attempt_id: r.get(2)?,
        event_id: r.get(3)?,
        withdrawal: r.get(4)?,
        withdrawal_digest: r.get(5)?,
        receipt: receipt_at(r, 6)?,
    })
}

/// Every row `sql` selects with `params`, mapped by `at`.
pub(super) fn rows<T>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    at: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>, StoreError> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, at)?.collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

/// Inserts a row whose receipt columns follow `head`.
pub(super) fn insert(
    conn: &Connection,
    sql: &str,
    head: &[&dyn rusqlite::ToSql],
    r: &ReceiptCols,
) -> Result<(), StoreError> {
    let receipt: [&dyn rusqlite::ToSql; 5] = [
        &r.actor_credential,
        &r.actor_subject,
        &r.recorded_at,
        &r.position,
        &r.receipt_digest,
    ];
    let all: Vec<&dyn rusqlite::ToSql> = head.iter().chain(&receipt).copied().collect();
    conn.prepare_cached(sql)?.execute(&*all)?;
    Ok(())
}

fn attempt_row(
    conn: &Connection,
    tenant: &str,
    namespace: &str,
    id: &str,
) -> Result<Option<AttemptRow>, StoreError> {
    Ok(conn
        .prepare_cached(sql::ATTEMPT_ROW)?
        .query_row(params![tenant, namespace, id], attempt_at)
        .optional()?)
}

fn event_row(
    conn: &Connection,
    tenant: &str,
    namespace: &str,
    attempt_id: &str,
    event_id: &str,
) -> Result<Option<EventRow>, StoreError> {
    Ok(conn
        .prepare_cached(sql::EVENT_ROW)?
        .query_row(params![tenant, namespace, attempt_id, event_id], event_at)
        .optional()?)
}

/// The rows a report reads.
fn report_rows(
    conn: &Connection,
    tenant: &str,
    namespace: &str,
    attempt_id: &str,
    event_id: &str,
) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError> {
    let attempt = attempt_row(conn, tenant, namespace, attempt_id)?;
    let events = rows(
        conn,
        sql::REPORT_EVENT_ROWS,
        params![tenant, namespace, attempt_id, event_id],
        event_at,
    )?;
    Ok((attempt, events))
}

/// Everything stored about an attempt, as raw rows.
pub(super) fn log_rows(
    conn: &Connection,
    tenant: &str,
    namespace: &str,
    id: &str,
) -> Result<Option<LogRows>, StoreError> {
    let Some(attempt) = attempt_row(conn, tenant, namespace, id)? else {
        return Ok(None);
    };
    let events = rows(
        conn,
        sql::EVENT_ROWS_OF_ATTEMPT,
        params![tenant, namespace, id],
        event_at,
    )?;
    let withdrawals = rows(
        conn,
        sql::WITHDRAWALS_OF_ATTEMPT,
        params![tenant, namespace, id],
        withdrawal_at,
    )?;
    Ok(Some((attempt, events, withdrawals)))
}

pub(super) fn registry_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<RegistryRow> {
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

pub(super) fn query_row(
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

    async fn attempt_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<AttemptRow>, StoreError> {
        attempt_row(self.conn, tenant, namespace, id)
    }

    async fn insert_attempt_row(
        &mut self,
        tenant: &str,
        row: &AttemptRow,
    ) -> Result<(), StoreError> {
        insert(
            self.conn,
            sql::INSERT_ATTEMPT_ROW,
            &[
                &tenant,
                &row.namespace,
                &row.id,
                &row.attempt,
                &row.attempt_digest,
                &row.depth,
            ],
            &row.receipt,
        )?;
        self.conn
            .prepare_cached(sql::INSERT_HEAD_ROW)?
            .execute(params![
                tenant,
                row.namespace,
                row.id,
                row.revision,
                row.state,
                row.last_event_id,
            ])?;
        Ok(())
    }

    async fn advance_state(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
        to: StateMove<'_>,
    ) -> Result<(), StoreError> {
        let moved = self
            .conn
            .prepare_cached(sql::ADVANCE_STATE)?
            .execute(params![
                to.state,
                to_i64(to.revision),
                to.last_event_id,
                tenant,
                namespace,
                id,
                to_i64(to.base.revision),
                to.base.last_event_id,
                &*to.base.attempt,
                to.base.state,
                to.base.last_event.as_ref().map(|(body, _)| body),
                to.base.last_event.as_ref().map(|(_, digest)| digest),
            ])?;
        if moved == 1 {
            Ok(())
        } else {
            Err(StoreError::stale("sqlite"))
        }
    }

    async fn event_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<Option<EventRow>, StoreError> {
        event_row(self.conn, tenant, namespace, attempt_id, event_id)
    }

    async fn report_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError> {
        report_rows(self.conn, tenant, namespace, attempt_id, event_id)
    }

    async fn event_rows_until(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        revision: u64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let revision = to_i64(revision);
        rows(
            self.conn,
            sql::EVENT_ROWS_UNTIL,
            params![tenant, namespace, attempt_id, revision],
            event_at,
        )
    }

    async fn insert_event_row(&mut self, tenant: &str, row: &EventRow) -> Result<(), StoreError> {
        insert(
            self.conn,
            sql::INSERT_EVENT_ROW,
            &[
                &tenant,
                &row.namespace,
                &row.attempt_id,
                &row.event_id,
                &row.revision,
                &row.event,
                &row.event_digest,
            ],
            &row.receipt,
        )
    }

    async fn withdrawal_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        key: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<WithdrawalRow>, Option<WithdrawalRow>), StoreError> {
        let found = rows(
            self.conn,
            sql::WITHDRAWAL_ROWS,
            params![tenant, namespace, key, attempt_id, event_id],
            withdrawal_at,
        )?;
        Ok(split_withdrawals(found, key, attempt_id, event_id))
    }

    async fn insert_withdrawal_row(
        &mut self,
        tenant: &str,
        row: &WithdrawalRow,
    ) -> Result<(), StoreError> {
        insert(
            self.conn,
            sql::INSERT_WITHDRAWAL_ROW,
            &[
                &tenant,
                &row.namespace,
                &row.key,
                &row.attempt_id,
                &row.event_id,
                &row.withdrawal,
                &row.withdrawal_digest,
            ],
            &row.receipt,
        )
    }
}

impl LearningRead for SqliteRead<'_> {
    async fn all_registry_rows(&mut self, tenant: &str) -> Result<Vec<RegistryRow>, StoreError> {
        rows(
            self.0,
            sql::REGISTRY_ROWS_OF_TENANT,
            params![tenant],
            registry_at,
        )
    }

    async fn all_attempt_rows(&mut self, tenant: &str) -> Result<Vec<AttemptRow>, StoreError> {
        rows(
            self.0,
            sql::ATTEMPT_ROWS_OF_TENANT,
            params![tenant],
            attempt_at,
        )
    }

    async fn all_event_rows(&mut self, tenant: &str) -> Result<Vec<EventRow>, StoreError> {
        rows(self.0, sql::EVENT_ROWS_OF_TENANT, params![tenant], event_at)
    }

    async fn all_withdrawal_rows(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<WithdrawalRow>, StoreError> {
        rows(
            self.0,
            sql::WITHDRAWAL_ROWS_OF_TENANT,
            params![tenant],
            withdrawal_at,
        )
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

impl ReportSnapshot for SqliteEngine {
    fn heads(&self) -> &Heads {
        &self.heads
    }

    /// Two point reads, so they run in the calling task. They are not one
    /// snapshot, and need not be: a later row than the attempt's read can
    /// only make the decision fail or go stale (see `learning::prepare`).
    async fn report_snapshot(
        &self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError> {
        self.read_now(|c| report_rows(c, tenant, namespace, attempt_id, event_id))
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

    async fn experience(
        &self,
        tenant: &str,
        namespace: &Namespace,
        attempt_id: &str,
    ) -> Result<Option<ExperienceLog>, StoreError> {
        let (tenant, namespace, id) = (
            tenant.to_owned(),
            namespace.as_str().to_owned(),
            attempt_id.to_owned(),
        );
        // The rows come from one read transaction, so they are consistent
        // with each other; the fold then runs off the reader's thread.
        let found = self
            .read(move |c| {
                let tx = c.unchecked_transaction()?;
                let found = log_rows(&tx, &tenant, &namespace, &id)?;
                tx.finish()?;
                Ok(found)
            })
            .await?;
        found.map(log_of).transpose()
    }
}
