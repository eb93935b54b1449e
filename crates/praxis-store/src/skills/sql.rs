//! SQL of the skill registry projection.
//!
//! Statements are shared by both engines. Placeholders are `$1`, `$2`, … in
//! ascending order of first appearance: PostgreSQL binds them by number and
//! SQLite by order of appearance, so the same text binds the same way on both
//! (a unit test of the SQLite engine checks every statement in `ALL`).

/// The `skill_releases` columns, in [`super::rows::SkillColumns`] order.
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
/// Every skill release row of a tenant, namespace first, for verification.
pub const SKILL_RELEASES_OF_TENANT: &str = concat!(
    "SELECT namespace, ",
    skill_columns!(),
    " FROM skill_releases WHERE tenant_id = $1"
);

/// Every statement here that SQLite runs, for the placeholder-order test.
#[cfg(test)]
pub(crate) const ALL: &[&str] = &[
    SKILL_RELEASE,
    SKILL_RELEASES,
    UPSERT_SKILL_RELEASE,
    SKILL_RELEASES_OF_TENANT,
];
