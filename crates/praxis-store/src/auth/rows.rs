//! Credential rows.

use std::collections::BTreeSet;

use praxis_domain::auth::{Capability, Scope};
use praxis_domain::credentials::Credential;
use praxis_domain::time::Timestamp;

use crate::error::StoreError;
use crate::ledger::rows::{digest, to_u64};

/// A credential row as both engines read it.
pub(crate) struct CredentialRow {
    pub tenant_id: String,
    pub credential_id: String,
    pub subject: String,
    pub capabilities: String,
    pub grants: String,
    pub secret_sha256: Vec<u8>,
    pub created_at: i64,
    pub expires_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub rotated_at: Option<i64>,
    pub version: i64,
}

/// Columns of a credential for writing.
pub(crate) fn credential_columns(c: &Credential) -> (String, String) {
    let caps: Vec<&str> = c.capabilities.iter().map(|c| c.as_str()).collect();
    (
        serde_json::to_string(&caps).expect("strings serialize"),
        serde_json::to_string(&c.grants).expect("scopes serialize"),
    )
}

impl CredentialRow {
    /// Decodes the row.
    pub fn into_credential(self) -> Result<Credential, StoreError> {
        let bad =
            |what: &str| StoreError::inconsistent(format!("credential {what} column is malformed"));
        let capabilities: BTreeSet<Capability> =
            serde_json::from_str(&self.capabilities).map_err(|_| bad("capabilities"))?;
        let grants: BTreeSet<Scope> =
            serde_json::from_str(&self.grants).map_err(|_| bad("grants"))?;
        Ok(Credential {
            id: self.credential_id,
            tenant_id: self.tenant_id,
            subject: self.subject,
            capabilities,
            grants,
            secret_sha256: digest(&self.secret_sha256)?,
            created_at: Timestamp::from_micros(self.created_at),
            expires_at: self.expires_at.map(Timestamp::from_micros),
            revoked_at: self.revoked_at.map(Timestamp::from_micros),
            rotated_at: self.rotated_at.map(Timestamp::from_micros),
            version: to_u64(self.version)?,
        })
    }
}
