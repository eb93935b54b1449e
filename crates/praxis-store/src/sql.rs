//! SQL statements shared by both engines (and by the benchmark's raw baseline).
//!
//! Placeholders are `$1`, `$2`, … in ascending order of first appearance:
//! PostgreSQL binds them by number and SQLite by order of appearance, so the
//! same text binds the same way on both (a unit test in `sqlite` checks it).

/// A tenant's head position (PostgreSQL appends `FOR UPDATE`).
pub const TENANT_HEAD: &str = "SELECT head FROM tenants WHERE tenant_id = $1";
/// A tenant's head position, locked until commit (PostgreSQL).
pub const LOCK_TENANT: &str = "SELECT head FROM tenants WHERE tenant_id = $1 FOR UPDATE";
/// A new tenant at head 0.
pub const INSERT_TENANT: &str =
    "INSERT INTO tenants (tenant_id, head, created_at) VALUES ($1, 0, $2)";
/// Moves a tenant's head: (head, tenant).
pub const SET_TENANT_HEAD: &str = "UPDATE tenants SET head = $1 WHERE tenant_id = $2";
/// Every tenant with its head.
pub const TENANTS: &str = "SELECT tenant_id, head FROM tenants ORDER BY tenant_id";
/// The last (sequence, digest) of a stream.
pub const STREAM_HEAD: &str = "SELECT stream_seq, digest FROM events \
     WHERE tenant_id = $1 AND namespace = $2 AND stream = $3 ORDER BY stream_seq DESC LIMIT 1";
/// A sealed event.
pub const INSERT_EVENT: &str = "INSERT INTO events (tenant_id, position, namespace, stream, stream_seq, kind, \
     payload, payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)";
/// Events of a tenant after a position, in order: (tenant, after, limit).
pub const EVENTS_AFTER: &str = "SELECT tenant_id, position, namespace, stream, stream_seq, kind, payload, \
     payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest \
     FROM events WHERE tenant_id = $1 AND position > $2 ORDER BY position LIMIT $3";
/// One receipt: (tenant, key).
pub const RECEIPT: &str = "SELECT key, request_digest, receipt, receipt_digest, position FROM receipts \
     WHERE tenant_id = $1 AND key = $2";
/// Every receipt of a tenant.
pub const RECEIPTS_OF_TENANT: &str = "SELECT key, request_digest, receipt, receipt_digest, position FROM receipts WHERE tenant_id = $1";
/// A receipt, unless its key is taken.
pub const INSERT_RECEIPT: &str = "INSERT INTO receipts (tenant_id, key, request_digest, receipt, receipt_digest, \
     position) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id, key) DO NOTHING";
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

/// Every statement above, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
    TENANT_HEAD,
    INSERT_TENANT,
    SET_TENANT_HEAD,
    TENANTS,
    STREAM_HEAD,
    INSERT_EVENT,
    EVENTS_AFTER,
    RECEIPT,
    RECEIPTS_OF_TENANT,
    INSERT_RECEIPT,
    CREDENTIAL,
    CREDENTIAL_BY_ID,
    CREDENTIALS_OF_TENANT,
    CREDENTIALS_PAGE,
    UPSERT_CREDENTIAL,
];
