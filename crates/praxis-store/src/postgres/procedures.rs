//! Procedures, strategies, evaluations and selection on PostgreSQL.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use praxis_domain::auth::Namespace;
use praxis_domain::learning::{ObservationRef, Policy};
use tokio_postgres::Row;

use super::learning::{
    attempt_at, event_at, insert_params, receipt_at, registry_at, withdrawal_at,
};
use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::learning::procedures::read::{bound_attempts, log_of, selected_of, strategy_log};
use crate::learning::procedures::rows::{EvaluationRow, HeadRow, ProcedureRow};
use crate::learning::procedures::sql;
use crate::learning::procedures::{
    ProcedureLog, ProcedureRead, ProcedureReads, ProcedureRows, ProcedureTx, Selected, StrategyLog,
};
use crate::learning::registry::Registrable;
use crate::learning::rows::RegistryRow;
use crate::learning::{LogRows, sql as learning_sql};
use crate::ledger::rows::{to_i64, to_u64};

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
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    );
    CREATE TABLE procedure_heads (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        policy_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        state TEXT NOT NULL,
        lower_bound DOUBLE PRECISION,
        instruction_bytes BIGINT NOT NULL,
        withdrawn BIGINT NOT NULL,
        evaluations BIGINT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    );
    CREATE INDEX procedure_selection ON procedure_heads
        (tenant_id, namespace, policy_id, context_id, lower_bound DESC, id)
        WHERE state = 'qualified' AND withdrawn = 0;
    CREATE TABLE procedure_pairs (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        policy_id TEXT NOT NULL,
        context_id TEXT NOT NULL,
        registered BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, policy_id, context_id)
    );
    CREATE TABLE procedure_evaluations (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        procedure_id TEXT NOT NULL,
        case_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        evidence_ref TEXT NOT NULL,
        submitted TEXT NOT NULL,
        submitted_digest TEXT NOT NULL,
        actor_credential TEXT NOT NULL,
        actor_subject TEXT NOT NULL,
        recorded_at BIGINT NOT NULL,
        position BIGINT NOT NULL,
        receipt_digest TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, procedure_id, case_id)
    );
    CREATE INDEX procedure_evaluations_by_evidence
        ON procedure_evaluations (tenant_id, namespace, procedure_id, evidence_ref);
    CREATE TABLE strategy_observations (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        attempt_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        procedure_id TEXT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, attempt_id, event_id, procedure_id)
    );";

fn procedure_at(r: &Row) -> Result<ProcedureRow, StoreError> {
    Ok(ProcedureRow {
        namespace: col(r, 0)?,
        id: col(r, 1)?,
        policy_id: col(r, 2)?,
        context_id: col(r, 3)?,
        origin: col(r, 4)?,
        proposal: col(r, 5)?,
        proposal_digest: col(r, 6)?,
        strategy: col(r, 7)?,
        strategy_digest: col(r, 8)?,
        receipt: receipt_at(r, 9)?,
    })
}

fn head_at(r: &Row) -> Result<HeadRow, StoreError> {
    Ok(HeadRow {
        namespace: col(r, 0)?,
        id: col(r, 1)?,
        policy_id: col(r, 2)?,
        context_id: col(r, 3)?,
        state: col(r, 4)?,
        lower_bound: col(r, 5)?,
        instruction_bytes: col(r, 6)?,
        withdrawn: col(r, 7)?,
        evaluations: col(r, 8)?,
        record: col(r, 9)?,
    })
}

fn evaluation_at(r: &Row) -> Result<EvaluationRow, StoreError> {
    Ok(EvaluationRow {
        namespace: col(r, 0)?,
        procedure_id: col(r, 1)?,
        case_id: col(r, 2)?,
        seq: col(r, 3)?,
        evidence_ref: col(r, 4)?,
        submitted: col(r, 5)?,
        submitted_digest: col(r, 6)?,
        receipt: receipt_at(r, 7)?,
    })
}

/// Everything stored about a procedure, with its policy's registry row.
async fn procedure_rows(
    c: &impl GenericClient,
    tenant: &str,
    namespace: &str,
    id: &str,
) -> Result<Option<(RegistryRow, ProcedureRows)>, StoreError> {
    let Some(row) = c
        .query_opt(sql::PROCEDURE_ROW, &[&tenant, &namespace, &id])
        .await?
    else {
        return Ok(None);
    };
    let row = procedure_at(&row)?;
    let head = c
        .query_opt(sql::HEAD_ROW, &[&tenant, &namespace, &id])
        .await?
        .ok_or_else(|| StoreError::inconsistent(format!("procedure {id:?} has no head")))?;
    let evaluations = c
        .query(sql::EVALUATIONS_OF_PROCEDURE, &[&tenant, &namespace, &id])
        .await?
        .iter()
        .map(evaluation_at)
        .collect::<Result<Vec<_>, _>>()?;
    let policy = c
        .query_opt(
            learning_sql::REGISTRY_ROW,
            &[&tenant, &Policy::KIND, &row.policy_id],
        )
        .await?
        .ok_or_else(|| {
            StoreError::inconsistent(format!("procedure {id:?}: its policy is missing"))
        })?;
    Ok(Some((
        registry_at(&policy)?,
        (row, head_at(&head)?, evaluations),
    )))
}

/// An attempt's rows, if it exists.
async fn attempt_rows(
    c: &impl GenericClient,
    tenant: &str,
    namespace: &str,
    id: &str,
) -> Result<Option<LogRows>, StoreError> {
    let Some(attempt) = c
        .query_opt(learning_sql::ATTEMPT_ROW, &[&tenant, &namespace, &id])
        .await?
    else {
        return Ok(None);
    };
    let events = c
        .query(
            learning_sql::EVENT_ROWS_OF_ATTEMPT,
            &[&tenant, &namespace, &id],
        )
        .await?
        .iter()
        .map(event_at)
        .collect::<Result<Vec<_>, _>>()?;
    let withdrawals = c
        .query(
            learning_sql::WITHDRAWALS_OF_ATTEMPT,
            &[&tenant, &namespace, &id],
        )
        .await?
        .iter()
        .map(withdrawal_at)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some((attempt_at(&attempt)?, events, withdrawals)))
}

impl ProcedureTx for PgTx<'_, '_> {
    async fn procedure_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<ProcedureRow>, StoreError> {
        let rows = self
            .rows_now(sql::PROCEDURE_ROW, &[&tenant, &namespace, &id])
            .await?;
        rows.first().map(procedure_at).transpose()
    }

    async fn head_row(
        &mut self,
        tenant: &str,
        namespace: &str,
        id: &str,
    ) -> Result<Option<HeadRow>, StoreError> {
        let rows = self
            .rows_now(sql::HEAD_ROW, &[&tenant, &namespace, &id])
            .await?;
        rows.first().map(head_at).transpose()
    }

    async fn next_candidate(
        &mut self,
        tenant: &str,
        namespace: &str,
        policy_id: &str,
        context_id: &str,
    ) -> Result<u64, StoreError> {
        let rows = self
            .rows_now(
                sql::NEXT_CANDIDATE,
                &[&tenant, &namespace, &policy_id, &context_id],
            )
            .await?;
        let n: i64 = col(
            rows.first()
                .ok_or_else(|| StoreError::inconsistent("a counter returned no row"))?,
            0,
        )?;
        to_u64(n)
    }

    async fn insert_procedure(
        &mut self,
        tenant: &str,
        row: &ProcedureRow,
        head: &HeadRow,
        observations: &[ObservationRef],
    ) -> Result<(), StoreError> {
        let cols: Vec<Param> = vec![
            Box::new(row.namespace.clone()),
            Box::new(row.id.clone()),
            Box::new(row.policy_id.clone()),
            Box::new(row.context_id.clone()),
            Box::new(row.origin.clone()),
            Box::new(row.proposal.clone()),
            Box::new(row.proposal_digest.clone()),
            Box::new(row.strategy.clone()),
            Box::new(row.strategy_digest.clone()),
        ];
        self.defer(
            sql::INSERT_PROCEDURE_ROW,
            insert_params(tenant, cols, &row.receipt),
        )
        .await?;
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(head.namespace.clone()),
            Box::new(head.id.clone()),
            Box::new(head.policy_id.clone()),
            Box::new(head.context_id.clone()),
            Box::new(head.state.clone()),
            Box::new(head.lower_bound),
            Box::new(head.instruction_bytes),
            Box::new(head.withdrawn),
            Box::new(head.evaluations),
            Box::new(head.record.clone()),
        ];
        self.defer(sql::INSERT_HEAD_ROW, params).await?;
        for o in observations {
            let params: Vec<Param> = vec![
                Box::new(tenant.to_owned()),
                Box::new(row.namespace.clone()),
                Box::new(o.attempt_id.clone()),
                Box::new(o.event_id.clone()),
                Box::new(row.id.clone()),
            ];
            self.defer(sql::INSERT_OBSERVATION, params).await?;
        }
        Ok(())
    }

    async fn advance_head(&mut self, tenant: &str, head: &HeadRow) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(head.state.clone()),
            Box::new(head.lower_bound),
            Box::new(head.evaluations),
            Box::new(head.record.clone()),
            Box::new(tenant.to_owned()),
            Box::new(head.namespace.clone()),
            Box::new(head.id.clone()),
        ];
        self.defer(sql::ADVANCE_HEAD, params).await
    }

    async fn evaluation_rows(
        &mut self,
        tenant: &str,
        namespace: &str,
        procedure_id: &str,
        case_id: &str,
        evidence_ref: &str,
    ) -> Result<Vec<EvaluationRow>, StoreError> {
        let rows = self
            .rows_now(
                sql::EVALUATION_ROWS,
                &[&tenant, &namespace, &procedure_id, &case_id, &evidence_ref],
            )
            .await?;
        rows.iter().map(evaluation_at).collect()
    }

    async fn insert_evaluation(
        &mut self,
        tenant: &str,
        row: &EvaluationRow,
    ) -> Result<(), StoreError> {
        let cols: Vec<Param> = vec![
            Box::new(row.namespace.clone()),
            Box::new(row.procedure_id.clone()),
            Box::new(row.case_id.clone()),
            Box::new(row.seq),
            Box::new(row.evidence_ref.clone()),
            Box::new(row.submitted.clone()),
            Box::new(row.submitted_digest.clone()),
        ];
        self.defer(
            sql::INSERT_EVALUATION_ROW,
            insert_params(tenant, cols, &row.receipt),
        )
        .await
    }

    async fn mark_withdrawn(
        &mut self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.to_owned()),
            Box::new(attempt_id.to_owned()),
            Box::new(event_id.to_owned()),
        ];
        self.defer(sql::MARK_WITHDRAWN, params).await
    }
}

impl PostgresEngine {
    /// A read-only repeatable-read snapshot, so the rows agree.
    async fn snapshot<T>(
        &self,
        read: impl AsyncFnOnce(&deadpool_postgres::Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut client = self.client().await?;
        let tx = client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .await?;
        let found = read(&tx).await?;
        tx.commit().await?;
        Ok(found)
    }
}

#[async_trait]
impl ProcedureReads for PostgresEngine {
    async fn procedure(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<ProcedureLog>, StoreError> {
        let ns = namespace.as_str();
        let found = self
            .snapshot(async |tx| procedure_rows(tx, tenant, ns, id).await)
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
        let ns = namespace.as_str();
        let found = self
            .snapshot(async |tx| {
                let Some((policy, rows)) = procedure_rows(tx, tenant, ns, id).await? else {
                    return Ok(None);
                };
                let mut logs = Vec::new();
                for attempt_id in bound_attempts(&rows.0)? {
                    let log = attempt_rows(tx, tenant, ns, &attempt_id).await?;
                    logs.push((attempt_id, log));
                }
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
        let ns = namespace.as_str();
        let client = self.client().await?;
        let Some(head) = client
            .query_opt(
                sql::SELECT_BEST,
                &[&tenant, &ns, &policy_id, &context_id, &max],
            )
            .await?
        else {
            return Ok(None);
        };
        let head = head_at(&head)?;
        let row = client
            .query_opt(sql::PROCEDURE_ROW, &[&tenant, &ns, &head.id])
            .await?
            .map(|r| procedure_at(&r))
            .transpose()?;
        selected_of(&head, row.as_ref()).map(Some)
    }
}

impl<C: GenericClient + Sync> ProcedureRead for PgRead<'_, C> {
    async fn all_procedure_rows(&mut self, tenant: &str) -> Result<Vec<ProcedureRow>, StoreError> {
        let rows = self
            .0
            .query(sql::PROCEDURE_ROWS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter().map(procedure_at).collect()
    }

    async fn all_head_rows(&mut self, tenant: &str) -> Result<Vec<HeadRow>, StoreError> {
        let rows = self.0.query(sql::HEAD_ROWS_OF_TENANT, &[&tenant]).await?;
        rows.iter().map(head_at).collect()
    }

    async fn all_evaluation_rows(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<EvaluationRow>, StoreError> {
        let rows = self
            .0
            .query(sql::EVALUATION_ROWS_OF_TENANT, &[&tenant])
            .await?;
        rows.iter().map(evaluation_at).collect()
    }
}
