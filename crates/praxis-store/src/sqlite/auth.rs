//! Credentials on SQLite.

use async_trait::async_trait;
use praxis_domain::credentials::Credential;
use praxis_domain::time::Timestamp;
use rusqlite::{Connection, OptionalExtension, params};

use super::SqliteEngine;
use super::ledger::{SqliteRead, SqliteTx};
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
        secret_sha256 BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER,
        rotated_at INTEGER,
        version INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, credential_id)
    ) STRICT, WITHOUT ROWID;
    CREATE UNIQUE INDEX credentials_by_id ON credentials (credential_id);";

fn credential_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CredentialRow> {
    Ok(CredentialRow {
        tenant_id: r.get(0)?,
        credential_id: r.get(1)?,
        subject: r.get(2)?,
        capabilities: r.get(3)?,
        grants: r.get(4)?,
        secret_sha256: r.get(5)?,
        created_at: r.get(6)?,
        expires_at: r.get(7)?,
        revoked_at: r.get(8)?,
        rotated_at: r.get(9)?,
        version: r.get(10)?,
    })
}

fn credential_query(
    conn: &Connection,
    tenant: Option<&str>,
    id: &str,
) -> Result<Option<Credential>, StoreError> {
    let row = match tenant {
        Some(t) => conn
            .prepare_cached(sql::CREDENTIAL)?
            .query_row(params![t, id], credential_row)
            .optional()?,
        None => conn
            .prepare_cached(sql::CREDENTIAL_BY_ID)?
            .query_row(params![id], credential_row)
            .optional()?,
    };
    row.map(CredentialRow::into_credential).transpose()
}

impl CredentialTx for SqliteTx<'_> {
    async fn credential(
        &mut self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Credential>, StoreError> {
        credential_query(self.conn, Some(tenant), id)
    }

    async fn put_credential(&mut self, c: &Credential) -> Result<(), StoreError> {
        let (caps, grants) = rows::credential_columns(c);
        self.conn
            .prepare_cached(sql::UPSERT_CREDENTIAL)?
            .execute(params![
                c.tenant_id,
                c.id,
                c.subject,
                caps,
                grants,
                &c.secret_sha256.0[..],
                c.created_at.micros(),
                c.expires_at.map(Timestamp::micros),
                c.revoked_at.map(Timestamp::micros),
                c.rotated_at.map(Timestamp::micros),
                to_i64(c.version)
            ])?;
        Ok(())
    }
}

impl CredentialRead for SqliteRead<'_> {
    async fn all_credentials(&mut self, tenant: &str) -> Result<Vec<Credential>, StoreError> {
        let mut stmt = self.0.prepare(sql::CREDENTIALS_OF_TENANT)?;
        let rows = stmt
            .query_map(params![tenant], credential_row)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(CredentialRow::into_credential)
            .collect()
    }
}

#[async_trait]
impl CredentialReads for SqliteEngine {
    async fn get(&self, tenant: &str, id: &str) -> Result<Option<Credential>, StoreError> {
        self.read_now(|c| credential_query(c, Some(tenant), id))
    }

    async fn for_auth(&self, id: &str) -> Result<Option<Credential>, StoreError> {
        self.read_now(|c| credential_query(c, None, id))
    }

    async fn list(
        &self,
        tenant: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Credential>, StoreError> {
        let (tenant, after) = (tenant.to_owned(), after.unwrap_or("").to_owned());
        self.read(move |c| {
            let mut stmt = c.prepare_cached(sql::CREDENTIALS_PAGE)?;
            let rows = stmt
                .query_map(params![tenant, after, limit as i64], credential_row)?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(CredentialRow::into_credential)
                .collect()
        })
        .await
    }
}
