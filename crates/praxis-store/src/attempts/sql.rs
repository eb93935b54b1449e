//! SQL of the attempt projections and attempt history.
//!
//! Statements are shared by both engines. Placeholders are `$1`, `$2`, … in
//! ascending order of first appearance: PostgreSQL binds them by number and
//! SQLite by order of appearance, so the same text binds the same way on both
//! (a unit test of the SQLite engine checks every statement in `ALL`).

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

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
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
];
