//! A submission checked as intake would check it, against what is kept
//! now, without a write: nothing is appended, projected or receipted.
//!
//! It runs the same domain rules in the same order as the writer's
//! `submit` (source ownership, then the document's schema, gate and
//! screening as the server would keep it, then its references) but reads
//! through the engine's public reads instead of the writer's transaction,
//! so a write committed between a dry run and the submission can still
//! change the answer.

use praxis_domain::Refusal;
use praxis_domain::records::lifecycle::{self, View};
use praxis_domain::records::reference::{Reference, references};
use praxis_domain::records::source::{check_new_source, check_resubmission};
use praxis_domain::records::{Finding, KeptRecord};
use praxis_domain::time::Timestamp;

use super::{RecordReads, Submission};
use crate::error::StoreError;
use crate::skills::SkillReads;

/// Every finding a submission of `s` would be rejected with now, sorted
/// and without repeats; empty when it would be kept. A refusal intake
/// answers instead of keeping a rejection (a source bound to another id or
/// author, a record that is no longer a candidate) is the error, as from a
/// write. `records` and `skills` are an engine's reads.
pub async fn check_submission(
    records: &dyn RecordReads,
    skills: &dyn SkillReads,
    tenant: &str,
    s: &Submission,
    now: Timestamp,
) -> Result<Vec<Finding>, StoreError> {
    let ns = &s.namespace;
    let source = s.source.key(&s.author);
    let claimed = View(&s.document).id();
    let prior = records.by_source(tenant, ns, &source).await?;
    check_resubmission(
        prior.as_ref().map(KeptRecord::prior).as_ref(),
        &s.author,
        claimed,
    )?;
    if prior.is_none()
        && let Some(id) = claimed
    {
        let holder = records.get(tenant, ns, id).await?;
        check_new_source(holder.as_ref().map(|h| h.experience_id.as_str()))?;
    }
    let created = prior
        .as_ref()
        .and_then(|p| View(&p.document).created_at().map(str::to_owned));
    let mut findings = match lifecycle::submit(
        s.document.clone(),
        &s.author,
        &s.source,
        now,
        created.as_deref(),
    ) {
        Ok(_) => Vec::new(),
        Err(Refusal::RecordInvalid(f)) => f,
        Err(other) => return Err(other.into()),
    };
    let published = skills.list(tenant, ns).await?;
    for reference in references(&s.document) {
        let known = match &reference {
            Reference::Experience { id, .. } => records.get(tenant, ns, id).await?.is_some(),
            Reference::Skill {
                name,
                version,
                sha256,
                ..
            } => published.iter().any(|k| {
                k.release.name == *name
                    && k.release.version == *version
                    && k.release.sha256 == *sha256
            }),
        };
        if !known {
            findings.push(reference.unresolved());
        }
    }
    findings.sort();
    findings.dedup();
    Ok(findings)
}
