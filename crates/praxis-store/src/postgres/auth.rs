//! Credentials on PostgreSQL.

use async_trait::async_trait;
use praxis_domain::credentials::Credential;
use praxis_domain::time::Timestamp;
use tokio_postgres::Row;

use super::ledger::PgRead;
use super::pipeline::{Param, PgTx};
use super::{PostgresEngine, col};
use crate::auth::rows::{self, CredentialRow};
use crate::auth::sql;
use crate::auth::{CredentialRead, CredentialReads, CredentialTx};
use crate::error::StoreError;
use crate::ledger::rows::to_i64;

/// The credentials table (schema version 1).
pub(super) const SCHEMA_V1: &str = "CREATE TABLE credentials (
        tenant_id TEXT NOT NULL,
        credential_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        capabilities TEXT NOT NULL,
        grants TEXT NOT NULL,
        secret_sha256 BYTEA NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        revoked_at BIGINT,
        rotated_at BIGINT,
        version BIGINT NOT NULL,
        PRIMARY KEY (tenant_id, credential_id)
    );
    CREATE UNIQUE INDEX credentials_by_id ON credentials (credential_id);";

fn credential_row(r: &Row) -> Result<CredentialRow, StoreError> {
    Ok(CredentialRow {
        tenant_id: col(r, 0)?,
        credential_id: col(r, 1)?,
        subject: col(r, 2)?,
        capabilities: col(r, 3)?,
        grants: col(r, 4)?,
        secret_sha256: col(r, 5)?,
        created_at: col(r, 6)?,
        expires_at: col(r, 7)?,
        revoked_at: col(r, 8)?,
        rotated_at: col(r, 9)?,
        version: col(r, 10)?,
    })
}

impl CredentialTx for PgTx<'_, '_> {
    async fn credential(
        &mut self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Credential>, StoreError> {
        let stmt = self.tx.prepare_cached(sql::CREDENTIAL).await?;
        let tx = self.tx;
        let row = self.answer(tx.query_opt(&stmt, &[&tenant, &id])).await?;
        row.map(|r| credential_row(&r)?.into_credential())
            .transpose()
    }

    async fn put_credential(&mut self, c: &Credential) -> Result<(), StoreError> {
        let (caps, grants) = rows::credential_columns(c);
        let params: Vec<Param> = vec![
            Box::new(c.tenant_id.clone()),
            Box::new(c.id.clone()),
            Box::new(c.subject.clone()),
            Box::new(caps),
            Box::new(grants),
            Box::new(c.secret_sha256.0.to_vec()),
            Box::new(c.created_at.micros()),
            Box::new(c.expires_at.map(Timestamp::micros)),
            Box::new(c.revoked_at.map(Timestamp::micros)),
            Box::new(c.rotated_at.map(Timestamp::micros)),
            Box::new(to_i64(c.version)),
        ];
        self.defer(sql::UPSERT_CREDENTIAL, params).await
    }
}

impl<C: deadpool_postgres::GenericClient + Sync> CredentialRead for PgRead<'_, C> {
    async fn all_credentials(&mut self, tenant: &str) -> Result<Vec<Credential>, StoreError> {
        let rows = self.0.query(sql::CREDENTIALS_OF_TENANT, &[&tenant]).await?;
        rows.iter()
            .map(|r| credential_row(r)?.into_credential())
            .collect()
    }
}

#[async_trait]
impl CredentialReads for PostgresEngine {
    async fn get(&self, tenant: &str, id: &str) -> Result<Option<Credential>, StoreError> {
        let client = self.client().await?;
        let row = client.query_opt(sql::CREDENTIAL, &[&tenant, &id]).await?;
        row.map(|r| credential_row(&r)?.into_credential())
            .transpose()
    }

    async fn for_auth(&self, id: &str) -> Result<Option<Credential>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(sql::CREDENTIAL_BY_ID).await?;
        let row = client.query_opt(&stmt, &[&id]).await?;
        row.map(|r| credential_row(&r)?.into_credential())
            .transpose()
    }

    async fn list(
        &self,
        tenant: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Credential>, StoreError> {
        let client = self.client().await?;
        let rows = client
            .query(
                sql::CREDENTIALS_PAGE,
                &[&tenant, &after.unwrap_or(""), &(limit as i64)],
            )
            .await?;
        rows.iter()
            .map(|r| credential_row(r)?.into_credential())
            .collect()
    }
}
