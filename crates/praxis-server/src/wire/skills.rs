//! Conversions between the skill registry's wire types and domain types,
//! field by field.

use praxis_api as api;
use praxis_domain::skills::{PublishedSkill, SkillRelease, Withdrawal};

pub(crate) fn release_from_wire(r: api::SkillRelease) -> SkillRelease {
    SkillRelease {
        name: r.name,
        version: r.version,
        sha256: r.sha256,
        size: r.size,
        summary: r.summary,
        provenance: r.provenance,
    }
}

fn release_to_wire(r: &SkillRelease) -> api::SkillRelease {
    api::SkillRelease {
        name: r.name.clone(),
        version: r.version.clone(),
        sha256: r.sha256.clone(),
        size: r.size,
        summary: r.summary.clone(),
        provenance: r.provenance.clone(),
    }
}

fn withdrawal_to_wire(w: &Withdrawal) -> api::SkillWithdrawal {
    api::SkillWithdrawal {
        at: w.at.clone(),
        reason: w.reason.clone(),
    }
}

pub(crate) fn skill_to_wire(row: &PublishedSkill) -> api::SkillEntry {
    api::SkillEntry {
        release: release_to_wire(&row.release),
        withdrawal: row.withdrawal.as_ref().map(withdrawal_to_wire),
    }
}
