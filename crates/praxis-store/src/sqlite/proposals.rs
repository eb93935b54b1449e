//! Proposals on SQLite.

use async_trait::async_trait;
use praxis_domain::auth::Namespace;
use praxis_domain::proposals::{Proposal, ProposalState};
use rusqlite::{OptionalExtension, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx};
use crate::error::StoreError;
use crate::ledger::rows::{to_i64, to_u64};
use crate::memory::rows::json_text;
use crate::proposals::{ProposalRead, ProposalReads, ProposalTx, sql};

/// Proposals' tables (schema version 10). Rows hold a whole proposal, up
/// to about 10 KiB, so the table keeps its rowid.
pub(super) const SCHEMA_V10: &str = "CREATE TABLE proposals (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        id TEXT NOT NULL,
        state TEXT NOT NULL,
        proposal TEXT NOT NULL,
        position INTEGER NOT NULL,
        UNIQUE (tenant_id, namespace, id)
    ) STRICT;
    CREATE INDEX proposals_by_state ON proposals (tenant_id, namespace, state, id);
    CREATE TABLE proposal_settings (
        tenant_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        self_approval INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, namespace)
    ) STRICT, WITHOUT ROWID;";

/// Decodes a proposal column.
fn decode(text: &str) -> Result<Proposal, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::inconsistent(format!("proposal row: {e}")))
}

impl ProposalTx for SqliteTx<'_> {
    async fn proposal_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<Proposal>, StoreError> {
        let text: Option<String> = self
            .conn
            .prepare_cached(sql::PROPOSAL)?
            .query_row(params![tenant, namespace.as_str(), id], |r| r.get(0))
            .optional()?;
        text.as_deref().map(decode).transpose()
    }

    async fn put_proposal(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        proposal: &Proposal,
        position: u64,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_PROPOSAL)?
            .execute(params![
                tenant,
                namespace.as_str(),
                proposal.id,
                proposal.state.as_str(),
                json_text(proposal)?,
                to_i64(position),
            ])?;
        Ok(())
    }

    async fn open_proposals(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<u64, StoreError> {
        let n: i64 = self
            .conn
            .prepare_cached(sql::OPEN_COUNT)?
            .query_row(params![tenant, namespace.as_str()], |r| r.get(0))?;
        to_u64(n)
    }

    async fn self_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError> {
        let b: Option<bool> = self
            .conn
            .prepare_cached(sql::SELF_APPROVAL)?
            .query_row(params![tenant, namespace.as_str()], |r| r.get(0))
            .optional()?;
        Ok(b.unwrap_or(false))
    }

    async fn put_self_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        allowed: bool,
    ) -> Result<(), StoreError> {
        self.conn
            .prepare_cached(sql::UPSERT_SETTINGS)?
            .execute(params![tenant, namespace.as_str(), allowed])?;
        Ok(())
    }
}

impl ProposalRead for SqliteRead<'_> {
    async fn all_proposals(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, String, Proposal, u64)>, StoreError> {
        let rows: Vec<(String, String, String, i64)> = self
            .0
            .prepare(sql::PROPOSALS_OF_TENANT)?
            .query_map(params![tenant], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<Result<_, _>>()?;
        rows.into_iter()
            .map(|(ns, state, p, at)| Ok((ns, state, decode(&p)?, to_u64(at)?)))
            .collect()
    }

    async fn all_proposal_settings(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, bool)>, StoreError> {
        Ok(self
            .0
            .prepare(sql::SETTINGS_OF_TENANT)?
            .query_map(params![tenant], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?)
    }
}

#[async_trait]
impl ProposalReads for SqliteEngine {
    async fn get(
        &self,
        tenant: &str,
        namespace: &Namespace,
        id: &str,
    ) -> Result<Option<Proposal>, StoreError> {
        let (tenant, ns, id) = (tenant.to_owned(), namespace.clone(), id.to_owned());
        self.read(move |c| {
            let text: Option<String> = c
                .prepare_cached(sql::PROPOSAL)?
                .query_row(params![tenant, ns.as_str(), id], |r| r.get(0))
                .optional()?;
            text.as_deref().map(decode).transpose()
        })
        .await
    }

    async fn list(
        &self,
        tenant: &str,
        namespace: &Namespace,
        state: Option<ProposalState>,
        after: &str,
        limit: usize,
    ) -> Result<Vec<Proposal>, StoreError> {
        let (tenant, ns, after) = (tenant.to_owned(), namespace.clone(), after.to_owned());
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read(move |c| {
            let rows: Vec<String> = match state {
                Some(s) => c
                    .prepare_cached(sql::BY_STATE)?
                    .query_map(
                        params![tenant, ns.as_str(), s.as_str(), after, limit],
                        |r| r.get(0),
                    )?
                    .collect::<Result<_, _>>()?,
                None => c
                    .prepare_cached(sql::ALL_STATES)?
                    .query_map(params![tenant, ns.as_str(), after, limit], |r| r.get(0))?
                    .collect::<Result<_, _>>()?,
            };
            rows.iter().map(|t| decode(t)).collect()
        })
        .await
    }
}
