//! Record intake, review, withdrawal and import, in the writer's transaction.

use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::NewEvent;
use praxis_domain::records::lifecycle::{
    self, Change, Decision, Rejection, ReviewMode, Revision, View,
};
use praxis_domain::records::reference::{Reference, references};
use praxis_domain::records::source::{check_new_source, check_resubmission};
use praxis_domain::records::{self as domain, Finding, KeptRecord};
use praxis_domain::review::may_review;
use praxis_domain::revision::check_revision;
use serde_json::{Value, json};

use super::{RecordKey, RecordTx, RecordWrite, Review, SETTINGS_STREAM, Submission};
use crate::error::{Missing, StoreError};
use crate::ledger::{Ctx, LedgerTx};
use crate::skills::{self, SkillTx};

/// Appends one revision and projects it.
async fn revise<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    revision: Revision,
) -> Result<KeptRecord, StoreError> {
    let search = View(&revision.document).search_text();
    let payload =
        serde_json::to_value(&revision).map_err(|e| StoreError::inconsistent(e.to_string()))?;
    let new = NewEvent::new(
        namespace.clone(),
        lifecycle::stream_of(&revision.source),
        lifecycle::REVISED,
        payload,
    );
    let position = ctx.append(tx, new).await?.position;
    let row = KeptRecord::from_revision(&revision, position).map_err(StoreError::Inconsistent)?;
    tx.put_record(ctx.tenant, namespace, &row, &search).await?;
    Ok(row)
}

/// Findings of the rules that need the namespace's other records and its
/// skill registry: relations resolve, related skills are exact releases.
async fn repository_findings<T: RecordTx + SkillTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    doc: &Value,
) -> Result<Vec<Finding>, StoreError> {
    let mut out = Vec::new();
    for reference in references(doc) {
        let known = match &reference {
            Reference::Experience { id, .. } => tx
                .record_row(tenant, namespace, RecordKey::Id(id))
                .await?
                .is_some(),
            Reference::Skill {
                name,
                version,
                sha256,
                ..
            } => tx
                .skill_row(tenant, namespace, name, version)
                .await?
                .is_some_and(|s| s.release.sha256 == *sha256),
        };
        if !known {
            out.push(reference.unresolved());
        }
    }
    Ok(out)
}

/// Screens and keeps a submission, or keeps its rejection.
pub(crate) async fn submit<T: LedgerTx + RecordTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    s: Submission,
) -> Result<RecordWrite, StoreError> {
    let ns = &s.namespace;
    let source = s.source.key(&s.author);
    let claimed = View(&s.document).id().map(str::to_owned);
    let prior = tx
        .record_row(ctx.tenant, ns, RecordKey::Source(&source))
        .await?;
    check_resubmission(
        prior.as_ref().map(KeptRecord::prior).as_ref(),
        &s.author,
        claimed.as_deref(),
    )?;
    if prior.is_none()
        && let Some(id) = &claimed
    {
        let holder = tx.record_row(ctx.tenant, ns, RecordKey::Id(id)).await?;
        check_new_source(holder.as_ref().map(|h| h.experience_id.as_str()))?;
    }
    let created = prior
        .as_ref()
        .and_then(|p| View(&p.document).created_at().map(str::to_owned));
    let prepared = lifecycle::submit(
        s.document.clone(),
        &s.author,
        &s.source,
        ctx.now(),
        created.as_deref(),
    );
    let mut findings = match &prepared {
        Ok(_) => Vec::new(),
        // Findings are kept as a rejection; any other refusal is the answer.
        Err(Refusal::RecordInvalid(f)) => f.clone(),
        Err(other) => return Err(other.clone().into()),
    };
    findings.extend(repository_findings(tx, ctx.tenant, ns, &s.document).await?);
    let doc = match prepared {
        Ok(doc) if findings.is_empty() => doc,
        _ => {
            findings.sort();
            findings.dedup();
            let rejection = Rejection {
                source: source.clone(),
                experience_id: claimed,
                sha256: lifecycle::document_sha256(&s.document),
                findings: findings.clone(),
            };
            let payload = serde_json::to_value(&rejection)
                .map_err(|e| StoreError::inconsistent(e.to_string()))?;
            let new = NewEvent::new(
                ns.clone(),
                lifecycle::stream_of(&source),
                lifecycle::REJECTED,
                payload,
            );
            ctx.append(tx, new).await?;
            return Ok(RecordWrite::Rejected(findings));
        }
    };
    if let Some(prior) = &prior {
        // Resubmitting what is kept changes nothing; only the server-owned
        // timestamps would differ.
        if same_content(&prior.document, &doc) {
            return Ok(RecordWrite::Unchanged(Box::new(prior.clone())));
        }
    }
    let id = claimed.unwrap_or_default();
    let revision = Revision {
        experience_id: id.clone(),
        source,
        revision: prior.as_ref().map_or(1, |p| p.revision + 1),
        change: Change::Submitted,
        sha256: lifecycle::document_sha256(&doc),
        document: doc,
        reason: None,
        superseded_by: None,
    };
    let row = revise(tx, ctx, ns, revision).await?;
    if tx.automated_approval(ctx.tenant, ns).await? {
        let approval = Review {
            namespace: ns.clone(),
            experience_id: id,
            decision: Decision::Approve,
            mode: ReviewMode::AutomatedPolicy,
            reviewer: lifecycle::GATE_ID.into(),
            notes: None,
            expected_revision: Some(row.revision),
        };
        return review(tx, ctx, approval).await;
    }
    Ok(RecordWrite::Revised(vec![row]))
}

/// Two documents equal but for the timestamps the server stamps.
fn same_content(a: &Value, b: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        for (parent, key) in [
            ("/lifecycle", "updated_at"),
            ("/lifecycle", "created_at"),
            ("/screening", "screened_at"),
        ] {
            if let Some(Value::Object(m)) = v.pointer_mut(parent) {
                m.remove(key);
            }
        }
        v
    };
    strip(a) == strip(b)
}

async fn current<T: RecordTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    id: &str,
    expected: Option<u64>,
) -> Result<KeptRecord, StoreError> {
    let row = tx
        .record_row(tenant, namespace, RecordKey::Id(id))
        .await?
        .ok_or(StoreError::NotFound(Missing::Record))?;
    check_revision(expected, row.revision)?;
    Ok(row)
}

/// Applies a review; an approval also supersedes the records it names.
pub(crate) async fn review<T: LedgerTx + RecordTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    r: Review,
) -> Result<RecordWrite, StoreError> {
    let ns = &r.namespace;
    let row = current(tx, ctx.tenant, ns, &r.experience_id, r.expected_revision).await?;
    // The setting is read only when it matters: for an automated review.
    let automated_on =
        r.mode == ReviewMode::AutomatedPolicy && tx.automated_approval(ctx.tenant, ns).await?;
    may_review(r.mode, &r.reviewer, row.author(), automated_on)?;
    let doc = lifecycle::review(
        &row.document,
        r.decision,
        r.mode,
        &r.reviewer,
        r.notes.as_deref(),
        ctx.now(),
    )?;
    // Relations are checked again against what is committed now; a
    // relation to a since-withdrawn skill release is reported as a flag by
    // the reads, not refused.
    let findings = repository_findings(tx, ctx.tenant, ns, &doc).await?;
    if !findings.is_empty() {
        return Err(StoreError::Refused(Refusal::RecordInvalid(findings)));
    }
    let change = match r.decision {
        Decision::Approve => Change::Approved,
        Decision::RequestChanges => Change::ChangesRequested,
    };
    let mut superseded = Vec::new();
    if r.decision == Decision::Approve {
        for old_id in View(&doc).relations("supersedes") {
            let old = current(tx, ctx.tenant, ns, old_id, None).await?;
            let old_doc = lifecycle::supersede(&old.document, ctx.now())?;
            superseded.push((old, old_doc));
        }
    }
    let revision = Revision {
        experience_id: row.experience_id.clone(),
        source: row.source.clone(),
        revision: row.revision + 1,
        change,
        sha256: lifecycle::document_sha256(&doc),
        document: doc,
        reason: None,
        superseded_by: None,
    };
    let mut rows = vec![revise(tx, ctx, ns, revision).await?];
    for (old, old_doc) in superseded {
        let revision = Revision {
            experience_id: old.experience_id.clone(),
            source: old.source.clone(),
            revision: old.revision + 1,
            change: Change::Superseded,
            sha256: lifecycle::document_sha256(&old_doc),
            document: old_doc,
            reason: None,
            superseded_by: Some(row.experience_id.clone()),
        };
        rows.push(revise(tx, ctx, ns, revision).await?);
    }
    Ok(RecordWrite::Revised(rows))
}

/// Withdraws a reviewed record, keeping its identity and history.
pub(crate) async fn withdraw<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    id: &str,
    reason: String,
    expected: Option<u64>,
) -> Result<RecordWrite, StoreError> {
    let row = current(tx, ctx.tenant, namespace, id, expected).await?;
    let doc = lifecycle::withdraw(&row.document, ctx.now())?;
    retire(tx, ctx, namespace, &row, doc, Change::Withdrawn, reason).await
}

/// Discards a candidate at its author's request: a withdrawal of a
/// candidate, recorded as a discard, keeping its identity and history.
pub(crate) async fn discard<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    id: &str,
    author: &str,
    reason: String,
    expected: Option<u64>,
) -> Result<RecordWrite, StoreError> {
    let row = current(tx, ctx.tenant, namespace, id, expected).await?;
    let doc = lifecycle::discard(&row.document, author, ctx.now())?;
    retire(tx, ctx, namespace, &row, doc, Change::Discarded, reason).await
}

/// Appends the revision that ends `row`'s life as `doc` (a withdrawal or a
/// discard), with the reason given for it.
async fn retire<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    row: &KeptRecord,
    doc: Value,
    change: Change,
    reason: String,
) -> Result<RecordWrite, StoreError> {
    let revision = Revision {
        experience_id: row.experience_id.clone(),
        source: row.source.clone(),
        revision: row.revision + 1,
        change,
        sha256: lifecycle::document_sha256(&doc),
        document: doc,
        reason: Some(reason),
        superseded_by: None,
    };
    Ok(RecordWrite::Revised(vec![
        revise(tx, ctx, namespace, revision).await?,
    ]))
}

/// Loads published records as they are, all or nothing. Each must pass
/// every check; a record already kept with the same content is left alone.
pub(crate) async fn import<T: LedgerTx + RecordTx + SkillTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    documents: Vec<Value>,
    skills: Vec<praxis_domain::skills::RegistryEntry>,
) -> Result<Vec<RecordWrite>, StoreError> {
    // Releases first, in this same write, so that related skills resolve
    // and a conflicting release refuses the whole import.
    for entry in skills {
        let (name, version) = (entry.release.name.clone(), entry.release.version.clone());
        skills::publish(tx, ctx, namespace, entry.release).await?;
        if let Some(w) = entry.withdrawal {
            skills::withdraw(tx, ctx, namespace, &name, &version, w.reason, Some(w.at)).await?;
        }
    }
    let mut findings = Vec::new();
    for (i, doc) in documents.iter().enumerate() {
        findings.extend(domain::check(doc, None).into_iter().map(|mut f| {
            f.pointer = format!("/records/{i}{}", f.pointer);
            f
        }));
    }
    if !findings.is_empty() {
        return Err(StoreError::Refused(Refusal::RecordInvalid(findings)));
    }
    let mut out = Vec::with_capacity(documents.len());
    // Rows first, so that relations among the imported records resolve.
    let mut kept = Vec::new();
    for doc in documents {
        let id = View(&doc).id().unwrap_or_default().to_owned();
        let sha256 = lifecycle::document_sha256(&doc);
        if let Some(row) = tx
            .record_row(ctx.tenant, namespace, RecordKey::Id(&id))
            .await?
        {
            if row.sha256 == sha256 {
                out.push(RecordWrite::Unchanged(Box::new(row)));
                continue;
            }
            return Err(StoreError::Refused(Refusal::SourceConflict(format!(
                "record {id} is already kept with other content"
            ))));
        }
        let revision = Revision {
            source: lifecycle::Source::Import {
                experience_id: id.clone(),
            }
            .key(""),
            experience_id: id,
            revision: 1,
            change: Change::Imported,
            sha256,
            document: doc,
            reason: None,
            superseded_by: None,
        };
        let row = revise(tx, ctx, namespace, revision).await?;
        kept.push(row.clone());
        out.push(RecordWrite::Revised(vec![row]));
    }
    let mut findings = Vec::new();
    for (i, row) in kept.iter().enumerate() {
        findings.extend(
            repository_findings(tx, ctx.tenant, namespace, &row.document)
                .await?
                .into_iter()
                .map(|mut f| {
                    f.pointer = format!("/records/{i}{}", f.pointer);
                    f
                }),
        );
    }
    if !findings.is_empty() {
        return Err(StoreError::Refused(Refusal::RecordInvalid(findings)));
    }
    Ok(out)
}

/// Sets whether passing submissions are approved by the automated policy.
pub(crate) async fn set_automated_approval<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    on: bool,
) -> Result<(), StoreError> {
    let payload = json!({ "automated_approval": on });
    let new = NewEvent::new(
        namespace.clone(),
        SETTINGS_STREAM,
        lifecycle::SETTINGS_SET,
        payload,
    );
    ctx.append(tx, new).await?;
    tx.put_automated_approval(ctx.tenant, namespace, on).await
}
