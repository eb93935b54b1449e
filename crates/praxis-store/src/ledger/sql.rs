//! SQL of the ledger itself: tenants, events, stream heads and receipts.
//!
//! Statements are shared by both engines. Placeholders are `$1`, `$2`, … in
//! ascending order of first appearance: PostgreSQL binds them by number and
//! SQLite by order of appearance, so the same text binds the same way on both
//! (a unit test of the SQLite engine checks every statement in `ALL`).

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

/// The event at a position: (tenant, position).
pub const EVENT_AT: &str = "SELECT tenant_id, position, namespace, stream, stream_seq, kind, payload, \
     payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest \
     FROM events WHERE tenant_id = $1 AND position = $2";
/// Events of one stream after a sequence: (tenant, namespace, stream, after, limit).
pub const STREAM_EVENTS: &str = "SELECT tenant_id, position, namespace, stream, stream_seq, kind, payload, \
     payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest \
     FROM events WHERE tenant_id = $1 AND namespace = $2 AND stream = $3 AND stream_seq > $4 \
     ORDER BY stream_seq LIMIT $5";

/// Records a store-wide key fingerprint unless one is recorded: (name, fingerprint).
pub const INSERT_STORE_KEY: &str = "INSERT INTO store_keys (name, fingerprint) VALUES ($1, $2) \
     ON CONFLICT (name) DO NOTHING";
/// A store-wide key fingerprint: (name).
pub const STORE_KEY: &str = "SELECT fingerprint FROM store_keys WHERE name = $1";

/// Every statement here that SQLite runs, for the placeholder-order test.
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
    EVENT_AT,
    STREAM_EVENTS,
    INSERT_STORE_KEY,
    STORE_KEY,
];
