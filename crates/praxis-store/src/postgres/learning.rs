//! The learning registry and development experiences on PostgreSQL.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use praxis_domain::auth::Namespace;
use praxis_domain::learning::{Context, Policy};
use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::learning::read::log_of;
use crate::learning::registry::Registrable;
use crate::learning::rows::{
    AttemptRow, EventRow, ReceiptCols, RegistryRow, WithdrawalRow, split_withdrawals,
};
use crate::learning::sql;
use crate::learning::{
    Entry, ExperienceLog, Heads, LearningRead, LearningReads, LearningTx, ReportSnapshot, StateMove,
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
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, kind, id)
    );";

/// Development experiences' tables (schema version 6). Payload columns hold
/// canonical JSON; an attempt's events are kept in revision order.
pub(super) const SCHEMA_V6: &str = "CREATE TABLE experience_attempts (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        attempt TEXT NOT NULL,
        attempt_digest TEXT NOT NULL,
        depth BIGINT NOT NULL,
        revision BIGINT NOT NULL,
        state TEXT NOT NULL,
        last_event_id TEXT,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    );
    CREATE TABLE experience_events (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        revision BIGINT NOT NULL,
        event TEXT NOT NULL,
        event_digest TEXT NOT NULL,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, attempt_id, event_id)
    );
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
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, key),
        UNIQUE (tenant_id, namespace, attempt_id, event_id)
    );";

/// The rows a report reads, in one round trip: the attempt's row and its
/// event rows, both queries pipelined.
async fn report_rows<C: GenericClient>(
    client: &C,
    tenant: &str,
    namespace: &str,
    attempt_id: &str,
    event_id: &str,
) -> Result<(Option<Row>, Vec<Row>), tokio_postgres::Error> {
    let attempt = client.prepare_cached(sql::ATTEMPT_ROW).await?;
    let events = client.prepare_cached(sql::REPORT_EVENT_ROWS).await?;
    let (a, e) = futures_util::future::join(
        client.query_opt(&attempt, &[&tenant, &namespace, &attempt_id]),
        client.query(&events, &[&tenant, &namespace, &attempt_id, &event_id]),
    )
    .await;
    Ok((a?, e?))
}

/// [`report_rows`]' answer, decoded.
fn report_rows_of(
    (attempt, events): (Option<Row>, Vec<Row>),
) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError> {
    Ok((
        attempt.as_ref().map(attempt_at).transpose()?,
        events.iter().map(event_at).collect::<Result<_, _>>()?,
    ))
}

/// Attempts' heads in a narrow table of their own (schema version 7): a
/// report rewrites only its attempt's head, not the wide attempt row.
pub(super) const SCHEMA_V7: &str = "CREATE TABLE experience_heads (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        revision BIGINT NOT NULL,
        state TEXT NOT NULL,
        last_event_id TEXT,
        PRIMARY KEY (tenant_id, namespace, id)
    );
    INSERT INTO experience_heads (tenant_id, namespace, id, revision, state, last_event_id)
        SELECT tenant_id, namespace, id, revision, state, last_event_id FROM experience_attempts;
    ALTER TABLE experience_attempts DROP COLUMN revision, DROP COLUMN state,
        DROP COLUMN last_event_id;";

/// The receipt columns that start at `at`.
pub(super) fn receipt_at(r: &Row, at: usize) -> Result<ReceiptCols, StoreError> {
    Ok(ReceiptCols {
        actor_credential: col(r, at)?,
        actor_subject: col(r, at + 1)?,
        recorded_at: col(r, at + 2)?,
        position: col(r, at + 3)?,
        receipt_digest: col(r, at + 4)?,
    })
}

pub(super) fn attempt_at(r: &Row) -> Result<AttemptRow, StoreError> {
    Ok(AttemptRow {
        namespace: col(r, 0)?,
        id: col(r, 1)?,
        attempt: col(r, 2)?,
        attempt_digest: col(r, 3)?,
        depth: col(r, 4)?,
        revision: col(r, 5)?,
        state: col(r, 6)?,
        last_event_id: col(r, 7)?,
        receipt: receipt_at(r, 8)?,
    })
}

pub(super) fn event_at(r: &Row) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        namespace: col(r, 0)?,
        attempt_id: col(r, 1)?,
        event_id: col(r, 2)?,
        revision: col(r, 3)?,
        event: col(r, 4)?,
        event_digest: col(r, 5)?,
        receipt: receipt_at(r, 6)?,
    })
}

pub(super) fn withdrawal_at(r: &Row) -> Result<WithdrawalRow, StoreError> {
    Ok(WithdrawalRow {
        namespace: col(r, 0)?,
        key: col(r, 1)?,
        attempt_id: col(r, 2)?,
        event_id: col(r, 3)?,
        withdrawal: col(r, 4)?,
        withdrawal_digest: col(r, 5)?,
        receipt: receipt_at(r, 6)?,
    })
}

/// The parameters of an insert: the tenant, the row's own columns, then
/// its receipt columns.
pub(super) fn insert_params(tenant: &str, head: Vec<Param>, r: &ReceiptCols) -> Vec<Param> {
    let mut params: Vec<Param> = vec![Box::new(tenant.to_owned())];
    params.extend(head);
    params.extend::<[Param; 5]>([
        Box::new(r.actor_credential.clone()),
        Box::new(r.actor_subject.clone()),
        Box::new(r.recorded_at),
        Box::new(r.position),
        Box::new(r.receipt_digest.clone()),
    ]);
    params
}

impl PgTx<'_, '_> {
    /// Rows of a query that sees this write's deferred statements.
    pub(super) async fn rows_now(
        &mut self,
        sql: &'static str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        let stmt = self.tx.prepare_cached(sql).await?;
        let tx = self.tx;
        self.answer(tx.query(&stmt, params)).await
    }
}

pub(super) fn registry_at(r: &Row) -> Result<RegistryRow, StoreError> {
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

    async fn attempt_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<AttemptRow>, StoreError> {
        let rows = self
            .rows_now(sql::ATTEMPT_ROW, &[&tenant, &namespace, &id])
            .await?;
        rows.first().map(attempt_at).transpose()
    }

    async fn insert_attempt_row(
        &mut self,
        tenant: &str,
        row: &AttemptRow,
    ) -> Result<(), StoreError> {
        let head: Vec<Param> = vec![
            Box::new(row.namespace.clone()),
            Box::new(row.id.clone()),
            Box::new(row.attempt.clone()),
            Box::new(row.attempt_digest.clone()),
            Box::new(row.depth),
        ];
        self.defer(
            sql::INSERT_ATTEMPT_ROW,
            insert_params(tenant, head, &row.receipt),
        )
        .await?;
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(row.namespace.clone()),
            Box::new(row.id.clone()),
            Box::new(row.revision),
            Box::new(row.state.clone()),
            Box::new(row.last_event_id.clone()),
        ];
        self.defer(sql::INSERT_HEAD_ROW, params).await
    }

    async fn advance_state(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
        to: StateMove<'_>,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(to.state.to_owned()),
            Box::new(to_i64(to.revision)),
            Box::new(to.last_event_id.to_owned()),
            Box::new(tenant.to_owned()),
            Box::new(namespace.to_owned()),
            Box::new(id.to_owned()),
            Box::new(to_i64(to.base.revision)),
            Box::new(to.base.last_event_id.clone()),
            Box::new(to.base.attempt.to_string()),
            Box::new(to.base.state.clone()),
            Box::new(to.base.last_event.as_ref().map(|(body, _)| body.clone())),
            Box::new(
                to.base
                    .last_event
                    .as_ref()
                    .map(|(_, digest)| digest.clone()),
            ),
        ];
        // Pipelined: a row that moved on fails the statement, and so the
        // write, before its savepoint is released.
        self.defer(sql::ADVANCE_STATE_OR_FAIL, params).await
    }

    async fn event_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<Option<EventRow>, StoreError> {
        let rows = self
            .rows_now(
                sql::EVENT_ROW,
                &[&tenant, &namespace, &attempt_id, &event_id],
            )
            .await?;
        rows.first().map(event_at).transpose()
    }

    async fn report_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError> {
        let tx = self.tx;
        // Both queries leave together, after the deferred statements.
        report_rows_of(
            self.answer(report_rows(tx, tenant, namespace, attempt_id, event_id))
                .await?,
        )
    }

    async fn event_rows_until(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        revision: u64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let revision = to_i64(revision);
        let rows = self
            .rows_now(
                sql::EVENT_ROWS_UNTIL,
                &[&tenant, &namespace, &attempt_id, &revision],
            )
            .await?;
        rows.iter().map(event_at).collect()
    }

    async fn insert_event_row(&mut self, tenant: &str, row: &EventRow) -> Result<(), StoreError> {
        let head: Vec<Param> = vec![
            Box::new(row.namespace.clone()),
            Box::new(row.attempt_id.clone()),
            Box::new(row.event_id.clone()),
            Box::new(row.revision),
            Box::new(row.event.clone()),
            Box::new(row.event_digest.clone()),
        ];
        self.defer(
            sql::INSERT_EVENT_ROW,
            insert_params(tenant, head, &row.receipt),
        )
        .await
    }

    async fn withdrawal_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        key: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<WithdrawalRow>, Option<WithdrawalRow>), StoreError> {
        let rows = self
            .rows_now(
                sql::WITHDRAWAL_ROWS,
                &[&tenant, &namespace, &key, &attempt_id, &event_id],
            )
            .await?;
        let found = rows
            .iter()
            .map(withdrawal_at)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(split_withdrawals(found, key, attempt_id, event_id))
    }

    async fn insert_withdrawal_row(
        &mut self,
        tenant: &str,
        row: &WithdrawalRow,
    ) -> Result<(), StoreError> {
        let head: Vec<Param> = vec![
            Box::new(row.namespace.clone()),
            Box::new(row.key.clone()),
            Box::new(row.attempt_id.clone()),
            Box::new(row.event_id.clone()),
            Box::new(row.withdrawal.clone()),
            Box::new(row.withdrawal_digest.clone()),
        ];
        self.defer(
            sql::INSERT_WITHDRAWAL_ROW,
            insert_params(tenant, head, &row.receipt),
        )
        .await
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

    async fn all_attempt_rows(&mut self, tenant: &str) -> Result<Vec<AttemptRow>, StoreError> {
        let rows = self
            .0
            .query(sql::ATTEMPT_ROWS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter().map(attempt_at).collect()
    }

    async fn all_event_rows(&mut self, tenant: &str) -> Result<Vec<EventRow>, StoreError> {
        let rows = self.0.query(sql::EVENT_ROWS_OF_TENANT, &[&tenant]).await?;
        rows.iter().map(event_at).collect()
    }

    async fn all_withdrawal_rows(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<WithdrawalRow>, StoreError> {
        let rows = self
            .0
            .query(sql::WITHDRAWAL_ROWS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter().map(withdrawal_at).collect()
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

impl ReportSnapshot for PostgresEngine {
    fn heads(&self) -> &Heads {
        &self.heads
    }

    /// Not one snapshot, and need not be: a later row than the attempt's
    /// read can only make the decision fail or go stale (see
    /// `learning::prepare`).
    async fn report_snapshot(
        &self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError> {
        let client = self.client().await?;
        report_rows_of(report_rows(&client, tenant, namespace, attempt_id, event_id).await?)
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

    async fn experience(
        &self,
        tenant: &str,
        namespace: &Namespace,
        attempt_id: &str,
    ) -> Result<Option<ExperienceLog>, StoreError> {
        let mut client = self.client().await?;
        // One repeatable-read snapshot, so the rows agree with each other.
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let ns = namespace.as_str();
        let (attempt, events, withdrawals) = futures_util::future::join3(
            tx.query_opt(sql::ATTEMPT_ROW, &[&tenant, &ns, &attempt_id]),
            tx.query(sql::EVENT_ROWS_OF_ATTEMPT, &[&tenant, &ns, &attempt_id]),
            tx.query(sql::WITHDRAWALS_OF_ATTEMPT, &[&tenant, &ns, &attempt_id]),
        )
        .await;
        let Some(attempt) = attempt? else {
            return Ok(None);
        };
        let rows = (
            attempt_at(&attempt)?,
            events?
                .iter()
                .map(event_at)
                .collect::<Result<Vec<_>, _>>()?,
            withdrawals?
                .iter()
                .map(withdrawal_at)
                .collect::<Result<Vec<_>, _>>()?,
        );
        tx.commit().await?;
        log_of(rows).map(Some)
    }
}
