//! Procedures, strategies, evaluations and selection on SQLite.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::learning::{ObservationRef, Policy};
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use super::learning::{insert, log_rows, query_row, receipt_at, rows};
use super::ledger::{SqliteRead, SqliteTx};
use crate::error::StoreError;
use crate::learning::procedures::read::{log_of, selected_of, strategy_log};
use crate::learning::procedures::rows::{EvaluationRow, HeadRow, ProcedureRow};
use crate::learning::procedures::sql;
use crate::learning::procedures::{
    ProcedureLog, ProcedureRead, ProcedureReads, ProcedureRows, ProcedureTx, Selected, StrategyLog,
};
use crate::learning::registry::Registrable;
use crate::learning::{LogRows, rows::RegistryRow};
use crate::ledger::rows::to_i64;

/// Procedures' tables (schema version 8).
pub(super) const SCHEMA_V8: &str = "CREATE TABLE procedures (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        policy_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        origin TEXT NOT NULL,
        proposal TEXT NOT NULL,
        proposal_digest TEXT NOT NULL,
        strategy TEXT,
        strategy_digest TEXT,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE procedure_heads (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        policy_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        state TEXT NOT NULL,
        lower_bound REAL,
        instruction_bytes INTEGER NOT NULL,
        withdrawn INTEGER NOT NULL,
        evaluations INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    ) STRICT;
    CREATE INDEX procedure_selection ON procedure_heads
        (tenant_id, namespace, policy_id, context_id, lower_bound DESC, id)
        WHERE state = 'qualified' AND withdrawn = 0;
    CREATE TABLE procedure_pairs (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        policy_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        registered INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace, policy_id, context_id)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE procedure_evaluations (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        procedure_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        evidence_ref TEXT NOT NULL,
        submitted TEXT NOT NULL,
        submitted_digest TEXT NOT NULL,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        position INTEGER NOT NULL,
        receipt_digest TEXT NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX procedure_evaluations_by_case
        ON procedure_evaluations (tenant_id, namespace, procedure_id, case_id);
    CREATE INDEX procedure_evaluations_by_evidence
        ON procedure_evaluations (tenant_id, namespace, procedure_id, evidence_ref);
    CREATE TABLE strategy_observations (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        procedure_id TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, attempt_id, event_id, procedure_id)
    ) STRICT, WITHOUT ROWID;";

fn procedure_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<ProcedureRow> {
    Ok(ProcedureRow {
        namespace: r.get(0)?,
        id: r.get(1)?,
        policy_id: r.get(2)?,
        context_id: r.get(3)?,
        origin: r.get(4)?,
        proposal: r.get(5)?,
        proposal_digest: r.get(6)?,
        strategy: r.get(7)?,
        strategy_digest: r.get(8)?,
        receipt: receipt_at(r, 9)?,
    })
}

fn head_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<HeadRow> {
    Ok(HeadRow {
        namespace: r.get(0)?,
        id: r.get(1)?,
        policy_id: r.get(2)?,
        context_id: r.get(3)?,
        state: r.get(4)?,
        lower_bound: r.get(5)?,
        instruction_bytes: r.get(6)?,
        withdrawn: r.get(7)?,
        evaluations: r.get(8)?,
        record: r.get(9)?,
    })
}

fn evaluation_at(r: &rusqlite::Row<'_>) -> rusqlite::Result<EvaluationRow> {
    Ok(EvaluationRow {
        namespace: r.get(0)?,
        procedure_id: r.get(1)?,
        case_id: r.get(2)?,
        seq: r.get(3)?,
        evidence_ref: r.get(4)?,
        submitted: r.get(5)?,
        submitted_digest: r.get(6)?,
        receipt: receipt_at(r, 7)?,
    })
}

fn one<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    at: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, StoreError> {
    Ok(conn.prepare_cached(sql)?.query_row(params, at).optional()?)
}

/// Everything stored about a procedure, with its policy's registry row.
fn procedure_rows(
    conn: &Connection,
    tenant: &str,
    namespace: &str,
    id: &str,
) -> Result<Option<(RegistryRow, ProcedureRows)>, StoreError> {
    let Some(row) = one(
        conn,
        sql::PROCEDURE_ROW,
        params![tenant, namespace, id],
        procedure_at,
    )?
    else {
        return Ok(None);
    };
    let head = one(conn, sql::HEAD_ROW, params![tenant, namespace, id], head_at)?
        .ok_or_else(|| StoreError::inconsistent(format!("procedure {id:?} has no head")))?;
    let evaluations = rows(
        conn,
        sql::EVALUATIONS_OF_PROCEDURE,
        params![tenant, namespace, id],
        evaluation_at,
    )?;
    let policy = query_row(conn, tenant, Policy::KIND, &row.policy_id)?.ok_or_else(|| {
        StoreError::inconsistent(format!("procedure {id:?}: its policy is missing"))
    })?;
    Ok(Some((policy, (row, head, evaluations))))
}

impl ProcedureTx for SqliteTx<'_> {
    async fn procedure_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<ProcedureRow>, StoreError> {
        one(
            self.conn,
            sql::PROCEDURE_ROW,
            params![tenant, namespace, id],
            procedure_at,
        )
    }

    async fn head_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<HeadRow>, StoreError> {
        one(
            self.conn,
            sql::HEAD_ROW,
            params![tenant, namespace, id],
            head_at,
        )
    }

    async fn next_candidate(
        &mut self,
        tenant: &str,
        namespace: &str,
        policy_id: &str,
        context_id: &str,
    ) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .prepare_cached(sql::NEXT_CANDIDATE)?
            .query_row(params![tenant, namespace, policy_id, context_id], |r| {
                r.get(0)
            })?;
        crate::ledger::rows::to_u64(n)
    }

    async fn insert_procedure(
        &mut self,
        tenant: &str,
        row: &ProcedureRow,
        head: &HeadRow,
        observations: &[ObservationRef],
    ) -> Result<(), StoreError> {
        insert(
            self.conn,
            sql::INSERT_PROCEDURE_ROW,
            &[
                &tenant,
                &row.namespace,
                &row.id,
                &row.policy_id,
                &row.context_id,
                &row.origin,
                &row.proposal,
                &row.proposal_digest,
                &row.strategy,
                &row.strategy_digest,
            ],
            &row.receipt,
        )?;
        self.conn
            .prepare_cached(sql::INSERT_HEAD_ROW)?
            .execute(params![
                tenant,
                head.namespace,
                head.id,
                head.policy_id,
                head.context_id,
                head.state,
                head.lower_bound,
                head.instruction_bytes,
                head.withdrawn,
                head.evaluations,
                head.record,
            ])?;
        for o in observations {
            self.conn
                .prepare_cached(sql::INSERT_OBSERVATION)?
                .execute(params![
                    tenant,
                    row.namespace,
                    o.attempt_id,
                    o.event_id,
                    row.id
                ])?;
        }
        Ok(())
    }

    async fn advance_head(&mut self, tenant: &str, head: &HeadRow) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::ADVANCE_HEAD)?
            .execute(params![
                head.state,
                head.lower_bound,
                head.evaluations,
                head.record,
                tenant,
                head.namespace,
                head.id,
            ])?;
        Ok(())
    }

    async fn evaluation_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        procedure_id: &str,
        case_id: &str,
        evidence_ref: &str,
    ) -> Result<Vec<EvaluationRow>, StoreError> {
        rows(
            self.conn,
            sql::EVALUATION_ROWS,
            params![tenant, namespace, procedure_id, case_id, evidence_ref],
            evaluation_at,
        )
    }

    async fn insert_evaluation(
        &mut self,
        tenant: &str,
        row: &EvaluationRow,
    ) -> Result<(), StoreError> {
        insert(
            self.conn,
            sql::INSERT_EVALUATION_ROW,
            &[
                &tenant,
                &row.namespace,
                &row.procedure_id,
                &row.case_id,
                &row.seq,
                &row.evidence_ref,
                &row.submitted,
                &row.submitted_digest,
            ],
            &row.receipt,
        )
    }

    async fn mark_withdrawn(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::MARK_WITHDRAWN)?
            .execute(params![tenant, namespace, attempt_id, event_id])?;
        Ok(())
    }
}

#[async_trait]
impl ProcedureReads for SqliteEngine {
    async fn procedure(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<ProcedureLog>, StoreError> {
        let (tenant, namespace, id) = (
            tenant.to_owned(),
            namespace.as_str().to_owned(),
            id.to_owned(),
        );
        let found = self
            .read(move |c| {
                let tx = c.unchecked_transaction()?;
                let found = procedure_rows(&tx, &tenant, &namespace, &id)?;
                tx.finish()?;
                Ok(found)
            })
            .await?;
        found
            .map(|(policy, rows)| log_of(&policy.into_entry::<Policy>()?.payload, &rows))
            .transpose()
    }

    async fn strategy(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<StrategyLog>, StoreError> {
        let (tenant, namespace, id) = (
            tenant.to_owned(),
            namespace.as_str().to_owned(),
            id.to_owned(),
        );
        let found = self
            .read(move |c| {
                let tx = c.unchecked_transaction()?;
                let Some((policy, rows)) = procedure_rows(&tx, &tenant, &namespace, &id)? else {
                    return Ok(None);
                };
                // The attempts of the observations the receipt binds, in
                // the same snapshot.
                let mut logs: Vec<(String, Option<LogRows>)> = Vec::new();
                for attempt_id in crate::learning::procedures::read::bound_attempts(&rows.0)? {
                    let log = log_rows(&tx, &tenant, &namespace, &attempt_id)?;
                    logs.push((attempt_id, log));
                }
                tx.finish()?;
                Ok(Some((policy, rows, logs)))
            })
            .await?;
        found
            .map(|(policy, rows, logs)| {
                strategy_log(&policy.into_entry::<Policy>()?.payload, &rows, &logs)
            })
            .transpose()
            .map(Option::flatten)
    }

    async fn select(
        &self,
        tenant: &str,
        namespace: &Namespace,
        policy_id: &str,
        context_id: &str,
        max_instruction_bytes: u64,
    ) -> Result<Option<Selected>, StoreError> {
        let max = to_i64(max_instruction_bytes.min(i64::MAX as u64));
        let found = self.read_now(|c| {
            let Some(head) = one(
                c,
                sql::SELECT_BEST,
                params![tenant, namespace.as_str(), policy_id, context_id, max],
                head_at,
            )?
            else {
                return Ok(None);
            };
            let row = one(
                c,
                sql::PROCEDURE_ROW,
                params![tenant, namespace.as_str(), head.id],
                procedure_at,
            )?;
            Ok(Some((head, row)))
        })?;
        found
            .map(|(head, row)| selected_of(&head, row.as_ref()))
            .transpose()
    }
}

impl ProcedureRead for SqliteRead<'_> {
    async fn all_procedure_rows(&mut self, tenant: &str) -> Result<Vec<ProcedureRow>, StoreError> {
        rows(
            self.0,
            sql::PROCEDURE_ROWS_OF_TENANT,
            params![tenant],
            procedure_at,
        )
    }

    async fn all_head_rows(&mut self, tenant: &str) -> Result<Vec<HeadRow>, StoreError> {
        rows(self.0, sql::HEAD_ROWS_OF_TENANT, params![tenant], head_at)
    }

    async fn all_evaluation_rows(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<EvaluationRow>, StoreError> {
        rows(
            self.0,
            sql::EVALUATION_ROWS_OF_TENANT,
            params![tenant],
            evaluation_at,
        )
    }
}
