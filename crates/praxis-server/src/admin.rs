//! Tenant and credential administration shared by the HTTP handlers and the CLI.

use praxis_domain::auth::{Capability, Scope, Token, Visibility};
use praxis_domain::credentials::{Credential, CredentialStatus, IssueRequest};
use praxis_domain::ledger::Actor;
use praxis_domain::time::Timestamp;
use praxis_store::{AuthCommand, Command, Engine, StoreError, Write};
use rand::Rng;

/// The current time.
pub fn now() -> Timestamp {
    Timestamp::from_micros(jiff::Timestamp::now().as_microsecond())
}

/// A fresh credential id and token with a 256-bit random secret.
pub fn new_token() -> Token {
    let mut secret = [0u8; 32];
    rand::rng().fill_bytes(&mut secret);
    Token {
        credential_id: uuid::Uuid::now_v7().simple().to_string(),
        secret,
    }
}

/// The command that issues a credential for a fresh token.
pub fn issue_command(token: &Token, request: IssueRequest) -> Command {
    Command::Auth(AuthCommand::IssueCredential {
        credential_id: token.credential_id.clone(),
        request,
        secret_sha256: token.secret_hash(),
    })
}

/// The request of a tenant's first administrator (credential_admin, policy_admin).
pub fn admin_request(subject: &str) -> Result<IssueRequest, praxis_domain::DomainError> {
    IssueRequest::new(
        subject.into(),
        vec![
            Capability::CredentialAdmin.as_str().into(),
            Capability::PolicyAdmin.as_str().into(),
        ],
        vec![],
        None,
        now(),
    )
}

/// Creates a tenant and its administrator credential in one atomic write.
///
/// `before_commit` receives the token before the write is sent, so that a
/// caller can persist it first: a crash then leaves either no tenant, or a
/// tenant whose token was already saved.
pub async fn bootstrap_tenant_with(
    engine: &dyn Engine,
    tenant: &str,
    subject: &str,
    before_commit: impl FnOnce(&Token) -> std::io::Result<()>,
) -> Result<(Credential, Token), StoreError> {
    praxis_domain::auth::check_id("/tenant", tenant)?;
    let token = new_token();
    before_commit(&token)?;
    let command = Command::Auth(AuthCommand::Bootstrap {
        credential_id: token.credential_id.clone(),
        request: admin_request(subject)?,
        secret_sha256: token.secret_hash(),
    });
    let write = Write::new(tenant, Actor::system(), command);
    Ok((applied_credential(engine, write).await?, token))
}

/// Creates a tenant and its administrator credential in one atomic write.
pub async fn bootstrap_tenant(
    engine: &dyn Engine,
    tenant: &str,
    subject: &str,
) -> Result<(Credential, Token), StoreError> {
    bootstrap_tenant_with(engine, tenant, subject, |_| Ok(())).await
}

/// Issues a credential without idempotency (offline administration).
pub async fn issue(
    engine: &dyn Engine,
    tenant: &str,
    actor: Actor,
    request: IssueRequest,
) -> Result<(Credential, Token), StoreError> {
    let token = new_token();
    let write = Write::new(tenant, actor, issue_command(&token, request));
    Ok((applied_credential(engine, write).await?, token))
}

/// Applies a credential write and returns the credential it left.
async fn applied_credential(engine: &dyn Engine, write: Write) -> Result<Credential, StoreError> {
    engine
        .execute(write)
        .await?
        .applied()?
        .into_credential()
        .ok_or_else(|| StoreError::inconsistent("a credential write left no credential"))
}

/// The wire form of a scope.
pub fn scope_to_wire(s: &Scope) -> praxis_api::Scope {
    praxis_api::Scope {
        project_id: s.project_id.clone(),
        mission_id: s.mission_id.clone(),
        agent_id: s.agent_id.clone(),
        visibility: match s.visibility {
            Visibility::Shared => praxis_api::Visibility::Shared,
            Visibility::Private => praxis_api::Visibility::Private,
        },
    }
}

/// The domain form of a wire scope.
pub fn scope_from_wire(s: praxis_api::Scope) -> Scope {
    Scope {
        project_id: s.project_id,
        mission_id: s.mission_id,
        agent_id: s.agent_id,
        visibility: match s.visibility {
            praxis_api::Visibility::Shared => Visibility::Shared,
            praxis_api::Visibility::Private => Visibility::Private,
        },
    }
}

/// The wire form of a credential, with its status at `at`.
pub fn credential_to_wire(c: &Credential, at: Timestamp) -> praxis_api::Credential {
    praxis_api::Credential {
        id: c.id.clone(),
        subject: c.subject.clone(),
        capabilities: c
            .capabilities
            .iter()
            .map(|c| c.as_str().to_owned())
            .collect(),
        grants: c.grants.iter().map(scope_to_wire).collect(),
        status: match c.status(at) {
            CredentialStatus::Active => praxis_api::CredentialStatus::Active,
            CredentialStatus::Revoked => praxis_api::CredentialStatus::Revoked,
            CredentialStatus::Expired => praxis_api::CredentialStatus::Expired,
        },
        created_at: c.created_at.to_string(),
        expires_at: c.expires_at.map(|t| t.to_string()),
        revoked_at: c.revoked_at.map(|t| t.to_string()),
        rotated_at: c.rotated_at.map(|t| t.to_string()),
        version: c.version,
    }
}
