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

/// The event at a position: (tenant, position).
pub const EVENT_AT: &str = "SELECT tenant_id, position, namespace, stream, stream_seq, kind, payload, \
     payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest \
     FROM events WHERE tenant_id = $1 AND position = $2";
/// Events of one stream after a sequence: (tenant, namespace, stream, after, limit).
pub const STREAM_EVENTS: &str = "SELECT tenant_id, position, namespace, stream, stream_seq, kind, payload, \
     payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest \
     FROM events WHERE tenant_id = $1 AND namespace = $2 AND stream = $3 AND stream_seq > $4 \
     ORDER BY stream_seq LIMIT $5";
/// Attempt events of a (subject, action) after a position: (tenant, namespace, subject, action, after, limit).
pub const PAIR_EVENTS: &str = "SELECT e.tenant_id, e.position, e.namespace, e.stream, e.stream_seq, e.kind, \
     e.payload, e.payload_digest, e.prev_digest, e.actor_credential, e.actor_subject, e.recorded_at, \
     e.digest FROM attempt_cases c JOIN events e ON e.tenant_id = c.tenant_id AND e.position = c.position \
     WHERE c.tenant_id = $1 AND c.namespace = $2 AND c.subject = $3 AND c.action_id = $4 \
     AND c.position > $5 ORDER BY c.position LIMIT $6";
/// Attempt events of a namespace after a position: (tenant, namespace, after, limit).
///
/// A walk of the tenant's log in position order (exports read everything
/// anyway), so that no index beside the identity key has to be kept up at
/// write time.
pub const NAMESPACE_ATTEMPT_EVENTS: &str = "SELECT tenant_id, position, namespace, stream, stream_seq, kind, \
     payload, payload_digest, prev_digest, actor_credential, actor_subject, recorded_at, digest \
     FROM events WHERE tenant_id = $1 AND namespace = $2 AND kind = 'attempt.observed' \
     AND position > $3 ORDER BY position LIMIT $4";
/// Identity rows of one case: (tenant, namespace, subject, action, case).
pub const ATTEMPT_CASE: &str = "SELECT case_id, stage, position, revision, status, disposition, recorded_at, \
     subject_obs FROM attempt_cases WHERE tenant_id = $1 AND namespace = $2 AND subject = $3 \
     AND action_id = $4 AND case_id = $5";
/// Identity rows of a (subject, action): (tenant, namespace, subject, action).
pub const ATTEMPT_CASES_OF_PAIR: &str = "SELECT case_id, stage, position, revision, status, disposition, \
     recorded_at, subject_obs FROM attempt_cases WHERE tenant_id = $1 AND namespace = $2 \
     AND subject = $3 AND action_id = $4";
/// A new identity row.
pub const INSERT_ATTEMPT_CASE: &str = "INSERT INTO attempt_cases (tenant_id, namespace, subject, action_id, \
     case_id, stage, position, revision, status, disposition, recorded_at, subject_obs) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
/// Every identity row of a tenant, for verification.
pub const ATTEMPT_CASES_OF_TENANT: &str = "SELECT namespace, subject, action_id, case_id, stage, position, \
     revision, status, disposition, recorded_at, subject_obs FROM attempt_cases WHERE tenant_id = $1";
/// One streak summary: (tenant, namespace, subject, action, grain, revision).
pub const ATTEMPT_STREAK: &str = "SELECT consecutive, completed, last_disposition, last_at, last_obs \
     FROM attempt_streaks WHERE tenant_id = $1 AND namespace = $2 AND subject = $3 \
     AND action_id = $4 AND grain = $5 AND revision = $6";
/// Streak summaries for many keys at once (PostgreSQL): the keys are
/// parallel arrays, and each found row carries its key's 1-based index.
pub const PG_ATTEMPT_STREAKS_OF_KEYS: &str = "SELECT k.i, s.consecutive, s.completed, \
     s.last_disposition, s.last_at, s.last_obs \
     FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[]) \
     WITH ORDINALITY AS k(namespace, subject, action_id, grain, revision, i) \
     JOIN attempt_streaks s ON s.tenant_id = $1 AND s.namespace = k.namespace \
     AND s.subject = k.subject AND s.action_id = k.action_id AND s.grain = k.grain \
     AND s.revision = k.revision";
/// Inserts or replaces a streak summary.
pub const UPSERT_ATTEMPT_STREAK: &str = "INSERT INTO attempt_streaks (tenant_id, namespace, subject, action_id, \
     grain, revision, consecutive, completed, last_disposition, last_at, last_obs) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
     ON CONFLICT (tenant_id, namespace, subject, action_id, grain, revision) DO UPDATE SET \
     consecutive = excluded.consecutive, completed = excluded.completed, \
     last_disposition = excluded.last_disposition, last_at = excluded.last_at, \
     last_obs = excluded.last_obs";
/// Every streak summary of a tenant, for verification.
pub const ATTEMPT_STREAKS_OF_TENANT: &str = "SELECT namespace, subject, action_id, grain, revision, \
     consecutive, completed, last_disposition, last_at, last_obs FROM attempt_streaks WHERE tenant_id = $1";
/// Adds to a namespace's count of a disposition: (tenant, namespace, disposition, n).
pub const ADD_ATTEMPT_COUNT: &str = "INSERT INTO attempt_counts (tenant_id, namespace, disposition, count) \
     VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id, namespace, disposition) \
     DO UPDATE SET count = attempt_counts.count + excluded.count";
/// A namespace's counts: (tenant, namespace).
pub const ATTEMPT_COUNTS: &str =
    "SELECT disposition, count FROM attempt_counts WHERE tenant_id = $1 AND namespace = $2";
/// Counts of a subject: (tenant, namespace, subject).
pub const ATTEMPT_COUNTS_OF_SUBJECT: &str = "SELECT disposition, COUNT(*) FROM attempt_cases \
     WHERE tenant_id = $1 AND namespace = $2 AND subject = $3 GROUP BY disposition";
/// Counts of a (subject, action): (tenant, namespace, subject, action).
pub const ATTEMPT_COUNTS_OF_PAIR: &str = "SELECT disposition, COUNT(*) FROM attempt_cases \
     WHERE tenant_id = $1 AND namespace = $2 AND subject = $3 AND action_id = $4 GROUP BY disposition";
/// Every count row of a tenant, for verification.
pub const ATTEMPT_COUNTS_OF_TENANT: &str =
    "SELECT namespace, disposition, count FROM attempt_counts WHERE tenant_id = $1";
/// A namespace's policy: (tenant, namespace).
pub const ATTEMPT_POLICY: &str =
    "SELECT policy FROM attempt_policies WHERE tenant_id = $1 AND namespace = $2";
/// Inserts or replaces a namespace's policy.
pub const UPSERT_ATTEMPT_POLICY: &str = "INSERT INTO attempt_policies (tenant_id, namespace, policy) \
     VALUES ($1, $2, $3) ON CONFLICT (tenant_id, namespace) DO UPDATE SET policy = excluded.policy";
/// Every policy of a tenant, for verification.
pub const ATTEMPT_POLICIES_OF_TENANT: &str =
    "SELECT namespace, policy FROM attempt_policies WHERE tenant_id = $1";

/// Every statement both engines run (and the SQLite-only ones), for the
/// placeholder-order test; PostgreSQL-only statements bind by number anyway.
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
    EVENT_AT,
    STREAM_EVENTS,
    PAIR_EVENTS,
    NAMESPACE_ATTEMPT_EVENTS,
    ATTEMPT_CASE,
    ATTEMPT_CASES_OF_PAIR,
    INSERT_ATTEMPT_CASE,
    ATTEMPT_CASES_OF_TENANT,
    ATTEMPT_STREAK,
    UPSERT_ATTEMPT_STREAK,
    ATTEMPT_STREAKS_OF_TENANT,
    ADD_ATTEMPT_COUNT,
    ATTEMPT_COUNTS,
    ATTEMPT_COUNTS_OF_SUBJECT,
    ATTEMPT_COUNTS_OF_PAIR,
    ATTEMPT_COUNTS_OF_TENANT,
    ATTEMPT_POLICY,
    UPSERT_ATTEMPT_POLICY,
    ATTEMPT_POLICIES_OF_TENANT,
    RECORD_BY_ID,
    RECORD_BY_SOURCE,
    SQLITE_UPSERT_RECORD,
    SQLITE_DELETE_RECORD_TEXT,
    SQLITE_INSERT_RECORD_TEXT,
    SQLITE_SEARCH_RECORDS,
    SKILL_RELEASE,
    SKILL_RELEASES,
    UPSERT_SKILL_RELEASE,
    RECORD_SETTINGS,
    UPSERT_RECORD_SETTINGS,
    RECORDS_OF_TENANT,
    SKILL_RELEASES_OF_TENANT,
    RECORD_SETTINGS_OF_TENANT,
];

/// The `records` columns every record read returns, in [`crate::rows::RecordColumns`] order.
macro_rules! record_columns {
    () => {
        "experience_id, source, revision, sha256, lifecycle, review_status, review_mode, \
         verification_level, platform, title, document, position, withdrawal_reason, superseded_by"
    };
}

/// One record by id: (tenant, namespace, experience_id).
pub const RECORD_BY_ID: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 AND experience_id = $3"
);
/// One record by source: (tenant, namespace, source).
pub const RECORD_BY_SOURCE: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 AND source = $3"
);
/// Upsert of a record row. The search text is engine-specific: PostgreSQL
/// keeps a `tsvector` column, SQLite a separate FTS5 table keyed by rowid.
macro_rules! upsert_record {
    ($extra_column:literal, $extra_value:literal, $extra_set:literal, $returning:literal) => {
        concat!(
            "INSERT INTO records (tenant_id, namespace, experience_id, source, revision, sha256, \
             lifecycle, review_status, review_mode, verification_level, platform, title, document, \
             position, withdrawal_reason, superseded_by",
            $extra_column,
            ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16",
            $extra_value,
            ") ON CONFLICT (tenant_id, namespace, experience_id) DO UPDATE SET \
             source = excluded.source, revision = excluded.revision, sha256 = excluded.sha256, \
             lifecycle = excluded.lifecycle, review_status = excluded.review_status, \
             review_mode = excluded.review_mode, verification_level = excluded.verification_level, \
             platform = excluded.platform, title = excluded.title, document = excluded.document, \
             position = excluded.position, withdrawal_reason = excluded.withdrawal_reason, \
             superseded_by = excluded.superseded_by",
            $extra_set,
            $returning
        )
    };
}
/// Record upsert on SQLite; returns the rowid the FTS5 index is keyed by.
pub const SQLITE_UPSERT_RECORD: &str = upsert_record!("", "", "", " RETURNING rowid");
/// Record upsert on PostgreSQL, with its `tsvector` built from `$17`.
pub const PG_UPSERT_RECORD: &str = upsert_record!(
    ", search",
    ", to_tsvector('simple', $17)",
    ", search = excluded.search",
    ""
);
/// Replaces a record's FTS5 entry: (rowid, body).
pub const SQLITE_DELETE_RECORD_TEXT: &str = "DELETE FROM records_fts WHERE rowid = $1";
/// Inserts a record's FTS5 entry: (rowid, body).
pub const SQLITE_INSERT_RECORD_TEXT: &str = "INSERT INTO records_fts (rowid, body) VALUES ($1, $2)";
/// A page of records matching filters, by id, on SQLite:
/// (tenant, namespace, lifecycle?, platform?, level?, after, fts query?, limit).
pub const SQLITE_SEARCH_RECORDS: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 \
     AND ($3 IS NULL OR lifecycle = $3) AND ($4 IS NULL OR platform = $4) \
     AND ($5 IS NULL OR verification_level = $5) AND experience_id > $6 \
     AND ($7 IS NULL OR rowid IN (SELECT rowid FROM records_fts WHERE records_fts MATCH $7)) \
     ORDER BY experience_id LIMIT $8"
);
/// The same search on PostgreSQL, over the `tsvector`.
pub const PG_SEARCH_RECORDS: &str = concat!(
    "SELECT ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1 AND namespace = $2 \
     AND ($3::text IS NULL OR lifecycle = $3) AND ($4::text IS NULL OR platform = $4) \
     AND ($5::text IS NULL OR verification_level = $5) AND experience_id COLLATE \"C\" > $6 \
     AND ($7::text IS NULL OR search @@ plainto_tsquery('simple', $7)) \
     ORDER BY experience_id COLLATE \"C\" LIMIT $8"
);
/// The `skill_releases` columns, in [`crate::rows::SkillColumns`] order.
macro_rules! skill_columns {
    () => {
        "name, version, sha256, size, summary, provenance, withdrawn_at, withdrawal_reason, position"
    };
}
/// One skill release: (tenant, namespace, name, version).
pub const SKILL_RELEASE: &str = concat!(
    "SELECT ",
    skill_columns!(),
    " FROM skill_releases WHERE tenant_id = $1 AND namespace = $2 AND name = $3 AND version = $4"
);
/// Every skill release of a namespace: (tenant, namespace).
pub const SKILL_RELEASES: &str = concat!(
    "SELECT ",
    skill_columns!(),
    " FROM skill_releases WHERE tenant_id = $1 AND namespace = $2 ORDER BY name, version"
);
/// Inserts or replaces a skill release row.
pub const UPSERT_SKILL_RELEASE: &str = "INSERT INTO skill_releases (tenant_id, namespace, name, \
     version, sha256, size, summary, provenance, withdrawn_at, withdrawal_reason, position) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
     ON CONFLICT (tenant_id, namespace, name, version) DO UPDATE SET \
     withdrawn_at = excluded.withdrawn_at, withdrawal_reason = excluded.withdrawal_reason";
/// A namespace's automated-approval setting: (tenant, namespace).
pub const RECORD_SETTINGS: &str =
    "SELECT automated_approval FROM record_settings WHERE tenant_id = $1 AND namespace = $2";
/// Stores a namespace's automated-approval setting.
pub const UPSERT_RECORD_SETTINGS: &str = "INSERT INTO record_settings (tenant_id, namespace, \
     automated_approval) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, namespace) DO UPDATE SET \
     automated_approval = excluded.automated_approval";
/// Every record row of a tenant, namespace first, for verification.
pub const RECORDS_OF_TENANT: &str = concat!(
    "SELECT namespace, ",
    record_columns!(),
    " FROM records WHERE tenant_id = $1"
);
/// Every skill release row of a tenant, namespace first, for verification.
pub const SKILL_RELEASES_OF_TENANT: &str = concat!(
    "SELECT namespace, ",
    skill_columns!(),
    " FROM skill_releases WHERE tenant_id = $1"
);
/// Every record setting of a tenant, for verification.
pub const RECORD_SETTINGS_OF_TENANT: &str =
    "SELECT namespace, automated_approval FROM record_settings WHERE tenant_id = $1";
