//! SQL of proposals, shared by both engines (placeholders as in
//! `skills::sql`).

/// One proposal: (tenant, namespace, id).
pub const PROPOSAL: &str =
    "SELECT proposal FROM proposals WHERE tenant_id = $1 AND namespace = $2 AND id = $3";
/// Inserts or replaces a proposal's row.
pub const UPSERT_PROPOSAL: &str = "INSERT INTO proposals (tenant_id, namespace, id, state, \
     proposal, position) VALUES ($1, $2, $3, $4, $5, $6) \
     ON CONFLICT (tenant_id, namespace, id) DO UPDATE SET state = excluded.state, \
     proposal = excluded.proposal, position = excluded.position";
/// Open proposals of a scope: (tenant, namespace).
pub const OPEN_COUNT: &str = "SELECT count(*) FROM proposals WHERE tenant_id = $1 \
     AND namespace = $2 AND state = 'open'";
/// A page of a scope's proposals in one state, by id: (tenant, namespace,
/// state, after id, limit).
pub const BY_STATE: &str = "SELECT proposal FROM proposals WHERE tenant_id = $1 \
     AND namespace = $2 AND state = $3 AND id > $4 ORDER BY id LIMIT $5";
/// A page of a scope's proposals, by id: (tenant, namespace, after id, limit).
pub const ALL_STATES: &str = "SELECT proposal FROM proposals WHERE tenant_id = $1 \
     AND namespace = $2 AND id > $3 ORDER BY id LIMIT $4";
/// A scope's self-approval setting: (tenant, namespace).
pub const SELF_APPROVAL: &str = "SELECT self_approval FROM proposal_settings \
     WHERE tenant_id = $1 AND namespace = $2";
/// Stores a scope's self-approval setting.
pub const UPSERT_SETTINGS: &str = "INSERT INTO proposal_settings (tenant_id, namespace, \
     self_approval) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, namespace) \
     DO UPDATE SET self_approval = excluded.self_approval";
/// Every proposal of a tenant, for verification.
pub const PROPOSALS_OF_TENANT: &str =
    "SELECT namespace, state, proposal, position FROM proposals WHERE tenant_id = $1";
/// Every setting of a tenant, for verification.
pub const SETTINGS_OF_TENANT: &str =
    "SELECT namespace, self_approval FROM proposal_settings WHERE tenant_id = $1";

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
    PROPOSAL,
    UPSERT_PROPOSAL,
    OPEN_COUNT,
    BY_STATE,
    ALL_STATES,
    SELF_APPROVAL,
    UPSERT_SETTINGS,
    PROPOSALS_OF_TENANT,
    SETTINGS_OF_TENANT,
];
