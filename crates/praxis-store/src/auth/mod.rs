//! Tenants and credentials: creating a tenant, issuing, rotating and
//! revoking credentials, and re-checking at apply time the credential that
//! authorized a write.
//!
//! A credential's history is the stream `credential/<id>` of the admin
//! namespace; the `credentials` projection is its fold.

pub(crate) mod rows;
pub(crate) mod sql;

use std::collections::BTreeMap;

use async_trait::async_trait;
use praxis_domain::Refusal;
use praxis_domain::auth::{Capability, Namespace};
use praxis_domain::credentials::{
    self, Credential, CredentialEvent, CredentialStatus, IssueRequest, Issued, Revoked, Rotated,
    TENANT_CREATED,
};
use praxis_domain::digest::Digest;
use praxis_domain::ledger::{Event, NewEvent};
use praxis_domain::time::Timestamp;
use serde_json::json;

use crate::error::{Missing, StoreError};
use crate::ledger::{Ctx, LedgerTx};

/// What a tenant or credential command asks for.
#[derive(Clone, Debug)]
pub enum AuthCommand {
    /// Create a tenant and its first event.
    CreateTenant,
    /// Create a tenant together with its first (administrator) credential, in
    /// one atomic write, so that no crash can leave a tenant nobody can administer.
    Bootstrap {
        /// The administrator's credential id.
        credential_id: String,
        /// Validated request.
        request: IssueRequest,
        /// SHA-256 of the secret.
        secret_sha256: Digest,
    },
    /// Issue a credential with a given id and secret hash.
    IssueCredential {
        /// New credential id.
        credential_id: String,
        /// Validated request.
        request: IssueRequest,
        /// SHA-256 of the secret.
        secret_sha256: Digest,
    },
    /// Replace a credential's secret.
    RotateCredential {
        /// Credential id.
        credential_id: String,
        /// SHA-256 of the new secret.
        secret_sha256: Digest,
    },
    /// Revoke a credential; revoking twice is a no-op that appends nothing.
    RevokeCredential {
        /// Credential id.
        credential_id: String,
    },
}

impl AuthCommand {
    /// Whether the command creates its tenant (and so must not find it).
    pub fn creates_tenant(&self) -> bool {
        matches!(
            self,
            AuthCommand::CreateTenant | AuthCommand::Bootstrap { .. }
        )
    }
}

/// The credential a write was authorized by when its request arrived.
///
/// The writer checks it again under the tenant's lock, so that a write queued
/// behind its own credential's revocation or rotation is refused rather than
/// committed after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Authority {
    /// The credential's id.
    pub credential_id: String,
    /// SHA-256 of the secret the request presented.
    pub secret_sha256: Digest,
    /// The capability the write needs.
    pub capability: Capability,
}

/// The credential projection's primitives, on an engine's transaction.
pub(crate) trait CredentialTx {
    /// Reads a credential row.
    async fn credential(
        &mut self,
        tenant: &str,
        id: &str,
    ) -> Result<Option<Credential>, StoreError>;
    /// Inserts or replaces a credential row.
    async fn put_credential(&mut self, credential: &Credential) -> Result<(), StoreError>;
}

/// The credential reads verification needs.
pub(crate) trait CredentialRead {
    /// Every stored credential row of a tenant.
    async fn all_credentials(&mut self, tenant: &str) -> Result<Vec<Credential>, StoreError>;
}

/// Reads of credentials, for callers of an engine.
#[async_trait]
pub trait CredentialReads: Send + Sync {
    /// A credential of a tenant.
    async fn get(&self, tenant: &str, id: &str) -> Result<Option<Credential>, StoreError>;
    /// A credential by id alone, for authentication.
    async fn for_auth(&self, id: &str) -> Result<Option<Credential>, StoreError>;
    /// Credentials of a tenant ordered by id, after `after`.
    async fn list(
        &self,
        tenant: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<Credential>, StoreError>;
}

/// Refuses a write whose authorizing credential no longer holds: revoked,
/// rotated, expired, or without the capability.
pub(crate) async fn check_authority<T: CredentialTx>(
    tx: &mut T,
    tenant: &str,
    authority: &Authority,
    now: Timestamp,
) -> Result<(), StoreError> {
    let current = tx.credential(tenant, &authority.credential_id).await?;
    let holds = current.is_some_and(|c| {
        c.status(now) == CredentialStatus::Active
            && c.secret_sha256 == authority.secret_sha256
            && c.capabilities.contains(&authority.capability)
    });
    if holds {
        Ok(())
    } else {
        Err(StoreError::AuthorityEnded)
    }
}

/// Applies a tenant or credential command; returns the credential as it
/// stands after it, when the command is about one.
pub(crate) async fn apply<T: LedgerTx + CredentialTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: AuthCommand,
) -> Result<Option<Credential>, StoreError> {
    match command {
        AuthCommand::CreateTenant => {
            create_tenant(tx, ctx).await?;
            Ok(None)
        }
        AuthCommand::Bootstrap {
            credential_id,
            request,
            secret_sha256,
        } => {
            create_tenant(tx, ctx).await?;
            issue(tx, ctx, credential_id, request, secret_sha256)
                .await
                .map(Some)
        }
        AuthCommand::IssueCredential {
            credential_id,
            request,
            secret_sha256,
        } => issue(tx, ctx, credential_id, request, secret_sha256)
            .await
            .map(Some),
        AuthCommand::RotateCredential {
            credential_id,
            secret_sha256,
        } => {
            let current = existing(tx, ctx.tenant, &credential_id).await?;
            if current.revoked_at.is_some() {
                return Err(Refusal::CredentialRevoked.into());
            }
            let rotated = CredentialEvent::Rotated(Rotated {
                credential_id: credential_id.clone(),
                secret_sha256,
            });
            credential_event(tx, ctx, Some(current), &credential_id, rotated)
                .await
                .map(Some)
        }
        AuthCommand::RevokeCredential { credential_id } => {
            let current = existing(tx, ctx.tenant, &credential_id).await?;
            if current.revoked_at.is_some() {
                return Ok(Some(current));
            }
            let revoked = CredentialEvent::Revoked(Revoked {
                credential_id: credential_id.clone(),
            });
            credential_event(tx, ctx, Some(current), &credential_id, revoked)
                .await
                .map(Some)
        }
    }
}

async fn existing<T: CredentialTx>(
    tx: &mut T,
    tenant: &str,
    id: &str,
) -> Result<Credential, StoreError> {
    tx.credential(tenant, id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Credential))
}

async fn create_tenant<T: LedgerTx>(tx: &mut T, ctx: &mut Ctx<'_>) -> Result<(), StoreError> {
    let payload = json!({ "tenant_id": ctx.tenant });
    let event = NewEvent::new(Namespace::admin(), "tenant", TENANT_CREATED, payload);
    ctx.append(tx, event).await?;
    Ok(())
}

async fn issue<T: LedgerTx + CredentialTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    credential_id: String,
    request: IssueRequest,
    secret_sha256: Digest,
) -> Result<Credential, StoreError> {
    if tx.credential(ctx.tenant, &credential_id).await?.is_some() {
        return Err(StoreError::inconsistent("credential id collision"));
    }
    let issued = CredentialEvent::Issued(Issued {
        credential_id: credential_id.clone(),
        subject: request.subject,
        capabilities: request.capabilities,
        grants: request.grants,
        secret_sha256,
        expires_at: request.expires_at.map(Timestamp::micros),
    });
    credential_event(tx, ctx, None, &credential_id, issued).await
}

/// Appends a credential event and folds it into the projection.
async fn credential_event<T: LedgerTx + CredentialTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    state: Option<Credential>,
    id: &str,
    decoded: CredentialEvent,
) -> Result<Credential, StoreError> {
    let new = NewEvent::new(
        Namespace::admin(),
        credentials::stream_of(id),
        decoded.kind(),
        decoded.payload(),
    );
    let event = ctx.append(tx, new).await?;
    let next = Credential::fold(state, event, &decoded).map_err(StoreError::inconsistent)?;
    tx.put_credential(&next).await?;
    Ok(next)
}

/// The credential projection rebuilt from the log, for verification.
#[derive(Default)]
pub(crate) struct CredentialFold {
    credentials: BTreeMap<String, Credential>,
}

impl CredentialFold {
    /// Folds one event; returns a problem when a credential event is malformed.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let decoded = match CredentialEvent::decode(&event.kind, &event.payload)? {
            Ok(decoded) => decoded,
            Err(e) => return Some(format!("undecodable payload: {e}")),
        };
        let id = credential_id(&decoded).to_owned();
        match Credential::fold(self.credentials.remove(&id), event, &decoded) {
            Ok(c) => {
                self.credentials.insert(id, c);
                None
            }
            Err(e) => Some(e.to_string()),
        }
    }

    /// Compares the stored rows with the fold; returns the rows compared
    /// and one line per difference.
    pub async fn compare<R: CredentialRead>(
        mut self,
        read: &mut R,
        tenant: &str,
    ) -> Result<(u64, Vec<String>), StoreError> {
        let stored = read.all_credentials(tenant).await?;
        let mut problems = Vec::new();
        let count = stored.len() as u64;
        for row in stored {
            match self.credentials.remove(&row.id) {
                Some(expected) if expected == row => {}
                Some(_) => problems.push(format!("credential {} differs from its events", row.id)),
                None => problems.push(format!("credential {} has no events", row.id)),
            }
        }
        for id in self.credentials.keys() {
            problems.push(format!("credential {id} is missing from the projection"));
        }
        Ok((count, problems))
    }
}

fn credential_id(e: &CredentialEvent) -> &str {
    match e {
        CredentialEvent::Issued(i) => &i.credential_id,
        CredentialEvent::Rotated(r) => &r.credential_id,
        CredentialEvent::Revoked(r) => &r.credential_id,
    }
}
