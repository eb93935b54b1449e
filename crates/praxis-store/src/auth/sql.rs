//! SQL of the credential projection.
//!
//! Statements are shared by both engines. Placeholders are `$1`, `$2`, … in
//! ascending order of first appearance: PostgreSQL binds them by number and
//! SQLite by order of appearance, so the same text binds the same way on both
//! (a unit test of the SQLite engine checks every statement in `ALL`).

/// One credential of a tenant: (tenant, id).
pub const CREDENTIAL: &str = "SELECT tenant_id, credential_id, subject, capabilities, grants, secret_sha256, \
     created_at, expires_at, revoked_at, rotated_at, version FROM credentials \
     WHERE tenant_id = $1 AND credential_id = $2";
/// A credential by id alone, for authentication.
pub const CREDENTIAL_BY_ID: &str = "SELECT tenant_id, credential_id, subject, capabilities, grants, \
     secret_sha256, created_at, expires_at, revoked_at, rotated_at, version FROM credentials \
     WHERE credential_id = $1";
/// Every credential of a tenant.
pub const CREDENTIALS_OF_TENANT: &str = "SELECT tenant_id, credential_id, subject, capabilities, grants, \
     secret_sha256, created_at, expires_at, revoked_at, rotated_at, version FROM credentials \
     WHERE tenant_id = $1";
/// A page of a tenant's credentials: (tenant, after id, limit).
pub const CREDENTIALS_PAGE: &str = "SELECT tenant_id, credential_id, subject, capabilities, grants, \
     secret_sha256, created_at, expires_at, revoked_at, rotated_at, version FROM credentials \
     WHERE tenant_id = $1 AND credential_id > $2 ORDER BY credential_id LIMIT $3";
/// Inserts or replaces a credential row.
pub const UPSERT_CREDENTIAL: &str = "INSERT INTO credentials (tenant_id, credential_id, subject, capabilities, \
     grants, secret_sha256, created_at, expires_at, revoked_at, rotated_at, version) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
     ON CONFLICT (tenant_id, credential_id) DO UPDATE SET subject = excluded.subject, \
     capabilities = excluded.capabilities, grants = excluded.grants, \
     secret_sha256 = excluded.secret_sha256, created_at = excluded.created_at, \
     expires_at = excluded.expires_at, revoked_at = excluded.revoked_at, \
     rotated_at = excluded.rotated_at, version = excluded.version";

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
    CREDENTIAL,
    CREDENTIAL_BY_ID,
    CREDENTIALS_OF_TENANT,
    CREDENTIALS_PAGE,
    UPSERT_CREDENTIAL,
];
