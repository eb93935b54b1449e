//! The skill registry: immutable releases, published and withdrawn as
//! events of the namespace's `skills` stream, projected into
//! `skill_releases`.

pub mod project;
pub(crate) mod rows;
pub(crate) mod sql;

use std::collections::BTreeMap;

use async_trait::async_trait;
use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::{Event, NewEvent};
use praxis_domain::skills::{PublishedSkill, Registry, SkillRelease, Withdrawal};
use serde_json::json;

use crate::error::{Missing, StoreError};
use crate::ledger::{Ctx, LedgerTx};

/// Event kind: a skill release was published.
pub const SKILL_PUBLISHED: &str = "skill.published";
/// Event kind: a skill release was withdrawn.
pub const SKILL_WITHDRAWN: &str = "skill.withdrawn";
/// The stream of a namespace's skill registry.
pub const SKILL_STREAM: &str = "skills";

/// What a skill write did.
#[derive(Clone, Debug, PartialEq)]
pub enum SkillWrite {
    /// The release was published (or withdrawn) now.
    Changed(PublishedSkill),
    /// The identical release was already published, or already withdrawn.
    Unchanged(PublishedSkill),
}

/// What a skill command asks for.
#[derive(Clone, Debug)]
pub enum SkillCommand {
    /// Publish an immutable skill release.
    Publish {
        /// The namespace.
        namespace: Namespace,
        /// The release.
        release: SkillRelease,
    },
    /// Withdraw a skill release.
    Withdraw {
        /// The namespace.
        namespace: Namespace,
        /// Skill name.
        name: String,
        /// Version.
        version: String,
        /// Why.
        reason: String,
    },
}

/// Applies a skill command.
pub(crate) async fn apply<T: LedgerTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    command: SkillCommand,
) -> Result<SkillWrite, StoreError> {
    match command {
        SkillCommand::Publish { namespace, release } => publish(tx, ctx, &namespace, release).await,
        SkillCommand::Withdraw {
            namespace,
            name,
            version,
            reason,
        } => withdraw(tx, ctx, &namespace, &name, &version, reason, None).await,
    }
}

/// The skill projection's primitives, on an engine's transaction.
pub(crate) trait SkillTx {
    /// One skill release.
    async fn skill_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        name: &str,
        version: &str,
    ) -> Result<Option<PublishedSkill>, StoreError>;
    /// Inserts or replaces a skill release row.
    async fn put_skill(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &PublishedSkill,
    ) -> Result<(), StoreError>;
}

/// The skill reads verification needs.
pub(crate) trait SkillRead {
    /// Every skill release row of a tenant, with its namespace.
    async fn all_skills(
        &mut self,
        tenant: &str,
    ) -> Result<Vec<(String, PublishedSkill)>, StoreError>;
}

/// Reads of the skill registry, for callers of an engine.
#[async_trait]
pub trait SkillReads: Send + Sync {
    /// The namespace's skill registry, by name then version.
    async fn list(
        &self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<Vec<PublishedSkill>, StoreError>;
}

/// Publishes an immutable skill release.
pub(crate) async fn publish<T: LedgerTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    release: SkillRelease,
) -> Result<SkillWrite, StoreError> {
    let problems = release.problems("");
    if !problems.is_empty() {
        return Err(Refusal::RecordInvalid(problems).into());
    }
    if let Some(row) = tx
        .skill_row(ctx.tenant, namespace, &release.name, &release.version)
        .await?
    {
        return if row.release == release {
            Ok(SkillWrite::Unchanged(row))
        } else {
            Err(StoreError::Refused(Refusal::SkillConflict(format!(
                "{}@{} is already published with other content; a version never changes",
                release.name, release.version
            ))))
        };
    }
    let payload =
        serde_json::to_value(&release).map_err(|e| StoreError::inconsistent(e.to_string()))?;
    let new = NewEvent::new(namespace.clone(), SKILL_STREAM, SKILL_PUBLISHED, payload);
    let position = ctx.append(tx, new).await?.position;
    let row = PublishedSkill {
        release,
        withdrawal: None,
        position,
    };
    tx.put_skill(ctx.tenant, namespace, &row).await?;
    Ok(SkillWrite::Changed(row))
}

/// Withdraws a skill release; it stays in the registry, marked. `at` is
/// the withdrawal's own time when it is imported, else now.
pub(crate) async fn withdraw<T: LedgerTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    name: &str,
    version: &str,
    reason: String,
    at: Option<String>,
) -> Result<SkillWrite, StoreError> {
    let mut row = tx
        .skill_row(ctx.tenant, namespace, name, version)
        .await?
        .ok_or(StoreError::NotFound(Missing::SkillRelease))?;
    if row.withdrawal.is_some() {
        return Ok(SkillWrite::Unchanged(row));
    }
    let withdrawal = Withdrawal {
        at: at.unwrap_or_else(|| ctx.now().to_string()),
        reason,
    };
    let payload = json!({ "name": name, "version": version, "withdrawal": withdrawal });
    let new = NewEvent::new(namespace.clone(), SKILL_STREAM, SKILL_WITHDRAWN, payload);
    ctx.append(tx, new).await?;
    row.withdrawal = Some(withdrawal);
    tx.put_skill(ctx.tenant, namespace, &row).await?;
    Ok(SkillWrite::Changed(row))
}

/// The namespace's skill registry, from its rows.
pub fn registry_of(skills: &[PublishedSkill]) -> Registry {
    let mut registry = Registry::new();
    for s in skills {
        // Rows hold one release per (name, version): publishing cannot conflict.
        let _ = registry.publish(s.release.clone());
        if let Some(w) = &s.withdrawal {
            registry.withdraw(&s.release.name, &s.release.version, w.clone());
        }
    }
    registry
}

/// The skill projection rebuilt from events, for verification.
#[derive(Default)]
pub(crate) struct SkillFold {
    skills: BTreeMap<(String, String, String), PublishedSkill>,
}

impl SkillFold {
    /// Folds one event; returns a problem when a skill event is malformed.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let ns = event.namespace.0.clone();
        match event.kind.as_str() {
            SKILL_PUBLISHED => {
                match serde_json::from_value::<SkillRelease>(event.payload.clone()) {
                    Ok(release) => {
                        let key = (ns, release.name.clone(), release.version.clone());
                        let row = PublishedSkill {
                            release,
                            withdrawal: None,
                            position: event.position,
                        };
                        self.skills.insert(key, row);
                        None
                    }
                    Err(e) => Some(format!("undecodable skill release: {e}")),
                }
            }
            SKILL_WITHDRAWN => {
                let text = |k: &str| event.payload[k].as_str().unwrap_or_default().to_owned();
                let key = (ns, text("name"), text("version"));
                match (
                    self.skills.get_mut(&key),
                    serde_json::from_value::<Withdrawal>(event.payload["withdrawal"].clone()),
                ) {
                    (Some(row), Ok(w)) => {
                        row.withdrawal = Some(w);
                        None
                    }
                    (None, _) => Some("withdrawal of an unpublished skill release".into()),
                    (_, Err(e)) => Some(format!("undecodable skill withdrawal: {e}")),
                }
            }
            _ => None,
        }
    }

    /// Compares the stored rows with the fold; one line per difference.
    pub async fn compare<R: SkillRead>(
        mut self,
        read: &mut R,
        tenant: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut problems = Vec::new();
        for (ns, row) in read.all_skills(tenant).await? {
            let key = (ns, row.release.name.clone(), row.release.version.clone());
            match self.skills.remove(&key) {
                Some(expected) if expected == row => {}
                _ => problems.push(format!(
                    "skill release {}@{} differs from its events",
                    key.1, key.2
                )),
            }
        }
        for (_, name, version) in self.skills.keys() {
            problems.push(format!(
                "skill release {name}@{version} is missing from the projection"
            ));
        }
        Ok(problems)
    }
}
