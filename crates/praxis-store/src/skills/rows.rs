//! Skill release rows.

use praxis_domain::skills::PublishedSkill;

use crate::error::StoreError;
use crate::ledger::rows::to_u64;

/// The columns of a `skill_releases` row, in `sql::skill_columns!` order.
pub(crate) struct SkillColumns {
    pub name: String,
    pub version: String,
    pub sha256: String,
    pub size: i64,
    pub summary: String,
    pub provenance: String,
    pub withdrawn_at: Option<String>,
    pub withdrawal_reason: Option<String>,
    pub position: i64,
}

impl SkillColumns {
    /// Decodes the columns.
    pub fn into_row(self) -> Result<PublishedSkill, StoreError> {
        let provenance = serde_json::from_str(&self.provenance).map_err(|e| {
            StoreError::inconsistent(format!("skill {} provenance: {e}", self.name))
        })?;
        let withdrawal = match (self.withdrawn_at, self.withdrawal_reason) {
            (Some(at), reason) => Some(praxis_domain::skills::Withdrawal {
                at,
                reason: reason.unwrap_or_default(),
            }),
            (None, _) => None,
        };
        Ok(PublishedSkill {
            release: praxis_domain::skills::SkillRelease {
                name: self.name,
                version: self.version,
                sha256: self.sha256,
                size: to_u64(self.size)?,
                summary: self.summary,
                provenance,
            },
            withdrawal,
            position: to_u64(self.position)?,
        })
    }
}
