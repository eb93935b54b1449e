//! Proposals on PostgreSQL.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::proposals::{Proposal, ProposalState};

use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::error::StoreError;
use crate::ledger::rows::{to_i64, to_u64};
use crate::memory::rows::json_text;
use crate::proposals::{ProposalRead, ProposalReads, ProposalTx, sql};

/// Proposals' tables (schema version 10).
pub(super) const SCHEMA_V10: &str = "CREATE TABLE proposals (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT COLLATE \"C\" NOT NULL,
        state TEXT NOT NULL,
        proposal TEXT NOT NULL,
        position BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, namespace, id)
    );
    CREATE INDEX proposals_by_state ON proposals (tenant_id, namespace, state, id);
    CREATE TABLE proposal_settings (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        self_approval BOOLEAN NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    );";

fn decode(text: &str) -> Result<Proposal, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::inconsistent(format!("proposal row: {e}")))
}

impl ProposalTx for PgTx<'_, '_> {
    async fn proposal_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<Proposal>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::PROPOSAL).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str(), &id]))
            .await?;
        row.map(|r| decode(&col::<String>(&r, 0)?)).transpose()
    }

    async fn put_proposal(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        proposal: &Proposal,
        position: u64,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(proposal.id.clone()),
            Box::new(proposal.state.as_str()),
            Box::new(json_text(proposal)?),
            Box::new(to_i64(position)),
        ];
        self.defer(sql::UPSERT_PROPOSAL, params).await
    }

    async fn open_proposals(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<u64, StoreError> {
        let stmt = self.tx.prepare_cached(sql::OPEN_COUNT).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_one(&stmt, &[&tenant, &namespace.as_str()]))
            .await?;
        to_u64(col(&row, 0)?)
    }

    async fn self_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        let stmt = self.tx.prepare_cached(sql::SELF_APPROVAL).await?;
        let tx = self.tx;
        let row = self
            .answer(tx.query_opt(&stmt, &[&tenant, &namespace.as_str()]))
            .await?;
        Ok(row
            .map(|r| col::<bool>(&r, 0))
            .transpose()?
            .unwrap_or(false))
    }

    async fn put_self_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        allowed: bool,
    ) -> Result<(), StoreError> {
        let params: Vec<Param> = vec![
            Box::new(tenant.to_owned()),
            Box::new(namespace.0.clone()),
            Box::new(allowed),
        ];
        self.defer(sql::UPSERT_SETTINGS, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> ProposalRead for PgRead<'_, C> {
    async fn all_proposals(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, Proposal, u64)>, StoreError> {
        let rows = self.0.query(sql::PROPOSALS_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| {
                Ok((
                    col(r, 0)?,
                    col(r, 1)?,
                    decode(&col::<String>(r, 2)?)?,
                    to_u64(col(r, 3)?)?,
                ))
            })
            .collect()
    }

    async fn all_proposal_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        let rows = self.0.query(sql::SETTINGS_OF_TENANT, &[&tenant]).await?;
        rows.iter().map(|r| Ok((col(r, 0)?, col(r, 1)?))).collect()
    }
}

#[async_trait]
impl ProposalReads for PostgresEngine {
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<Proposal>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql::PROPOSAL).await?;
        let row = client
            .query_opt(&stmt, &[&tenant, &namespace.as_str(), &id])
            .await?;
        row.map(|r| decode(&col::<String>(&r, 0)?)).transpose()
    }

    async fn list(
        &self,
        tenant: &str,
        namespace: &Namespace,
        state: Option<ProposalState>,
        after: &str,
        limit: usize,
    ) -> Result<Vec<Proposal>, StoreError> {
        let client = self.client().await?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ns = namespace.as_str();
        let rows = if let Some(s) = state {
            let stmt = client.prepare_cached(sql::BY_STATE).await?;
            client
                .query(&stmt, &[&tenant, &ns, &s.as_str(), &after, &limit])
                .await?
        } else {
            let stmt = client.prepare_cached(sql::ALL_STATES).await?;
            client.query(&stmt, &[&tenant, &ns, &after, &limit]).await?
        };
        rows.iter().map(|r| decode(&col::<String>(r, 0)?)).collect()
    }
}
