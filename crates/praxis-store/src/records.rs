//! Experience records' storage: revisions and rejections as events, and the
//! projections that answer reads, searches and repository rules.
//!
//! Each record's history is one stream, `record/<source>`, holding every
//! kept revision ([`lifecycle::REVISED`], the whole document) and every
//! rejected submission ([`lifecycle::REJECTED`], findings and a digest,
//! never the text). Beside it, in the same transaction, the writer keeps:
//! - `records`: the current revision of each record, its trust fields as
//!   columns for filtering, and its text for full-text search (FTS5 on
//!   SQLite, a `tsvector` on PostgreSQL);
//! - `skill_releases`: the namespace's immutable skill registry;
//! - `record_settings`: whether the namespace approves by automated policy.

use std::collections::BTreeMap;

use praxis_domain::auth::Namespace;
use praxis_domain::canonical;
use praxis_domain::ledger::{Event, NewEvent};
use praxis_domain::records::lifecycle::{
    self, Change, Decision, Refused, Rejection, ReviewMode, Revision, View,
};
use praxis_domain::records::{self as domain, Finding};
use praxis_domain::skills::{Registry, SkillRelease, Withdrawal};
use serde_json::{Value, json};

use crate::apply::{Ctx, LedgerTx};
use crate::error::StoreError;

/// Event kind: a skill release was published.
pub const SKILL_PUBLISHED: &str = "skill.published";
/// Event kind: a skill release was withdrawn.
pub const SKILL_WITHDRAWN: &str = "skill.withdrawn";

/// The stream of a namespace's skill registry.
pub const SKILL_STREAM: &str = "skills";
/// The stream of a namespace's record settings.
pub const SETTINGS_STREAM: &str = "record-settings";

/// The current state of one kept record, as the `records` table holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordRow {
    /// `experience_id`.
    pub experience_id: String,
    /// Source identity text.
    pub source: String,
    /// Current revision number.
    pub revision: u64,
    /// SHA-256 of the current document's canonical JSON.
    pub sha256: String,
    /// `lifecycle.status`.
    pub lifecycle: String,
    /// `review.status`.
    pub review_status: String,
    /// `review.mode`, once reviewed.
    pub review_mode: Option<String>,
    /// `verification.level`.
    pub verification_level: String,
    /// `context.platform`.
    pub platform: String,
    /// `title`.
    pub title: String,
    /// The current document.
    pub document: Value,
    /// Ledger position of the current revision.
    pub position: u64,
    /// Why it was withdrawn.
    pub withdrawal_reason: Option<String>,
    /// Which record superseded it.
    pub superseded_by: Option<String>,
}

impl RecordRow {
    pub(crate) fn from_revision(r: &Revision, position: u64) -> RecordRow {
        let view = View(&r.document);
        let text = |v: Option<&str>| v.unwrap_or_default().to_owned();
        RecordRow {
            experience_id: r.experience_id.clone(),
            source: r.source.clone(),
            revision: r.revision,
            sha256: r.sha256.clone(),
            lifecycle: text(view.lifecycle()),
            review_status: text(view.review_status()),
            review_mode: view.review_mode().map(str::to_owned),
            verification_level: text(view.verification_level()),
            platform: text(view.platform()),
            title: text(view.title()),
            document: r.document.clone(),
            position,
            withdrawal_reason: r.reason.clone(),
            superseded_by: r.superseded_by.clone(),
        }
    }

    /// The document's canonical JSON text, as stored.
    pub fn document_text(&self) -> String {
        String::from_utf8(canonical::canonical_bytes(&self.document))
            .expect("canonical JSON is UTF-8")
    }
}

/// A skill release with its withdrawal, as `skill_releases` holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct SkillRow {
    /// The release.
    pub release: SkillRelease,
    /// Its withdrawal, if any.
    pub withdrawal: Option<Withdrawal>,
    /// Ledger position of its publication.
    pub position: u64,
}

/// How a record is looked up.
#[derive(Clone, Copy, Debug)]
pub enum RecordKey<'a> {
    /// By `experience_id`.
    Id(&'a str),
    /// By source identity text.
    Source(&'a str),
}

/// Filters of a record search; every one set must hold.
#[derive(Clone, Debug, Default)]
pub struct RecordFilter {
    /// `lifecycle.status`.
    pub lifecycle: Option<String>,
    /// `context.platform`.
    pub platform: Option<String>,
    /// `verification.level`.
    pub verification_level: Option<String>,
    /// Words that must all occur in the record's text.
    pub text: Option<String>,
}

/// What a record write did.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordWrite {
    /// New revisions were kept: this record's, then any it superseded.
    Revised(Vec<RecordRow>),
    /// The submission failed screening and was kept as a rejection.
    Rejected(Vec<Finding>),
    /// The same document was submitted again: nothing changed (boxed: a
    /// row is much larger than the other variants).
    Unchanged(Box<RecordRow>),
}

/// What a skill write did.
#[derive(Clone, Debug, PartialEq)]
pub enum SkillWrite {
    /// The release was published (or withdrawn) now.
    Changed(SkillRow),
    /// The identical release was already published, or already withdrawn.
    Unchanged(SkillRow),
}

/// The transactional primitives an engine offers to the records logic.
pub(crate) trait RecordTx {
    /// One record's current row.
    async fn record_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        key: RecordKey<'_>,
    ) -> Result<Option<RecordRow>, StoreError>;
    /// Inserts or replaces a record's row and its search text.
    async fn put_record(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &RecordRow,
        search: &str,
    ) -> Result<(), StoreError>;
    /// One skill release.
    async fn skill_row(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        name: &str,
        version: &str,
    ) -> Result<Option<SkillRow>, StoreError>;
    /// Inserts or replaces a skill release row.
    async fn put_skill(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        row: &SkillRow,
    ) -> Result<(), StoreError>;
    /// Whether the namespace approves passing submissions automatically.
    async fn automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
    ) -> Result<bool, StoreError>;
    /// Stores the namespace's setting.
    async fn put_automated_approval(
        &mut self,
        tenant: &str,
        namespace: &Namespace,
        on: bool,
    ) -> Result<(), StoreError>;
}

/// A submission, as the server hands it to the store.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The namespace the record lives in.
    pub namespace: Namespace,
    /// Where the record comes from; edits from the same source (and the
    /// same author) reconcile the same record.
    pub source: lifecycle::Source,
    /// The authenticated subject, bound as `provenance.author_ref`.
    pub author: String,
    /// The record as submitted.
    pub document: Value,
}

/// A review, as the server hands it to the store.
#[derive(Clone, Debug)]
pub struct Review {
    /// The namespace.
    pub namespace: Namespace,
    /// The record.
    pub experience_id: String,
    /// Approve or request changes.
    pub decision: Decision,
    /// Human or automated policy.
    pub mode: ReviewMode,
    /// The reviewing subject (human mode).
    pub reviewer: String,
    /// Notes (required to request changes).
    pub notes: Option<String>,
    /// The revision the reviewer saw; a newer one refuses the review.
    pub expected_revision: Option<u64>,
}

fn refused(r: Refused) -> StoreError {
    match r {
        Refused::Findings(f) => StoreError::RecordInvalid(f),
        Refused::InvalidTransition(m) => StoreError::InvalidTransition(m),
    }
}

/// Appends one revision and projects it.
async fn revise<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    revision: Revision,
) -> Result<RecordRow, StoreError> {
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
    let row = RecordRow::from_revision(&revision, position);
    tx.put_record(ctx.tenant, namespace, &row, &search).await?;
    Ok(row)
}

/// Findings of the rules that need the namespace's other records and its
/// skill registry: relations resolve, related skills are exact releases.
async fn repository_findings<T: RecordTx>(
    tx: &mut T,
    tenant: &str,
    namespace: &Namespace,
    doc: &Value,
) -> Result<Vec<Finding>, StoreError> {
    let mut out = Vec::new();
    let view = View(doc);
    for list in ["related_experiences", "supersedes"] {
        for (i, id) in view.relations(list).into_iter().enumerate() {
            if tx
                .record_row(tenant, namespace, RecordKey::Id(id))
                .await?
                .is_none()
            {
                out.push(Finding::new(
                    format!("/relations/{list}/{i}"),
                    "repo.unknown_experience",
                    "no record of this namespace has this id",
                ));
            }
        }
    }
    let skills = doc
        .pointer("/relations/related_skills")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, skill) in skills.iter().enumerate() {
        let field = |k: &str| skill.get(k).and_then(Value::as_str).unwrap_or_default();
        let found = tx
            .skill_row(tenant, namespace, field("name"), field("version"))
            .await?;
        let known = found.is_some_and(|s| s.release.sha256 == field("sha256"));
        if !known {
            out.push(Finding::new(
                format!("/relations/related_skills/{i}"),
                "repo.unknown_skill",
                "no skill release with this name, version and digest is published here",
            ));
        }
    }
    Ok(out)
}

/// Screens and keeps a submission, or keeps its rejection.
pub(crate) async fn submit<T: LedgerTx + RecordTx>(
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
    if let Some(prior) = &prior {
        // A source belongs to the author of its first kept revision: an
        // issue reference names no author, so nobody else may revise it.
        if View(&prior.document).author() != Some(s.author.as_str()) {
            return Err(StoreError::SourceConflict(format!(
                "record {} from this source belongs to another author",
                prior.experience_id
            )));
        }
        if claimed.as_deref() != Some(prior.experience_id.as_str()) {
            return Err(StoreError::SourceConflict(format!(
                "this source already holds record {}; its id cannot change",
                prior.experience_id
            )));
        }
        if prior.lifecycle != "candidate" {
            return Err(StoreError::InvalidTransition(format!(
                "record {} is {}; only a candidate can be revised by its source",
                prior.experience_id, prior.lifecycle
            )));
        }
    } else if let Some(id) = &claimed
        && let Some(other) = tx.record_row(ctx.tenant, ns, RecordKey::Id(id)).await?
    {
        return Err(StoreError::SourceConflict(format!(
            "record {} belongs to another source",
            other.experience_id
        )));
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
        Err(Refused::Findings(f)) => f.clone(),
        Err(Refused::InvalidTransition(m)) => return Err(StoreError::InvalidTransition(m.clone())),
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
        let review = Review {
            namespace: ns.clone(),
            experience_id: id,
            decision: Decision::Approve,
            mode: ReviewMode::AutomatedPolicy,
            reviewer: lifecycle::GATE_ID.into(),
            notes: None,
            expected_revision: Some(row.revision),
        };
        return review_record(tx, ctx, review).await;
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
) -> Result<RecordRow, StoreError> {
    let row = tx
        .record_row(tenant, namespace, RecordKey::Id(id))
        .await?
        .ok_or(StoreError::RecordNotFound)?;
    match expected {
        Some(e) if e != row.revision => Err(StoreError::RevisionConflict {
            expected: e,
            current: row.revision,
        }),
        _ => Ok(row),
    }
}

/// Applies a review; an approval also supersedes the records it names.
pub(crate) async fn review_record<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    r: Review,
) -> Result<RecordWrite, StoreError> {
    let ns = &r.namespace;
    let row = current(tx, ctx.tenant, ns, &r.experience_id, r.expected_revision).await?;
    match r.mode {
        // Automated approval is the namespace's decision, not the caller's.
        ReviewMode::AutomatedPolicy if !tx.automated_approval(ctx.tenant, ns).await? => {
            return Err(StoreError::InvalidTransition(
                "automated-policy review is off in this namespace; a person reviews here".into(),
            ));
        }
        // The submitter never reviews their own record.
        ReviewMode::Human if View(&row.document).author() == Some(r.reviewer.as_str()) => {
            return Err(StoreError::SelfReview);
        }
        _ => {}
    }
    let doc = lifecycle::review(
        &row.document,
        r.decision,
        r.mode,
        &r.reviewer,
        r.notes.as_deref(),
        ctx.now(),
    )
    .map_err(refused)?;
    // Relations are checked again against what is committed now; a
    // relation to a since-withdrawn skill release is reported as a flag by
    // the reads, not refused.
    let findings = repository_findings(tx, ctx.tenant, ns, &doc).await?;
    if !findings.is_empty() {
        return Err(StoreError::RecordInvalid(findings));
    }
    let change = match r.decision {
        Decision::Approve => Change::Approved,
        Decision::RequestChanges => Change::ChangesRequested,
    };
    let mut superseded = Vec::new();
    if r.decision == Decision::Approve {
        for old_id in View(&doc).relations("supersedes") {
            let old = current(tx, ctx.tenant, ns, old_id, None).await?;
            let old_doc = lifecycle::supersede(&old.document, ctx.now()).map_err(refused)?;
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
pub(crate) async fn withdraw_record<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    id: &str,
    reason: String,
    expected: Option<u64>,
) -> Result<RecordWrite, StoreError> {
    let row = current(tx, ctx.tenant, namespace, id, expected).await?;
    let doc = lifecycle::withdraw(&row.document, ctx.now()).map_err(refused)?;
    let revision = Revision {
        experience_id: row.experience_id.clone(),
        source: row.source.clone(),
        revision: row.revision + 1,
        change: Change::Withdrawn,
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
pub(crate) async fn import_records<T: LedgerTx + RecordTx>(
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
        publish_skill(tx, ctx, namespace, entry.release).await?;
        if let Some(w) = entry.withdrawal {
            withdraw_skill(tx, ctx, namespace, &name, &version, w.reason, Some(w.at)).await?;
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
        return Err(StoreError::RecordInvalid(findings));
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
            return Err(StoreError::SourceConflict(format!(
                "record {id} is already kept with other content"
            )));
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
        return Err(StoreError::RecordInvalid(findings));
    }
    Ok(out)
}

/// Publishes an immutable skill release.
pub(crate) async fn publish_skill<T: LedgerTx + RecordTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    release: SkillRelease,
) -> Result<SkillWrite, StoreError> {
    let problems = release.problems("");
    if !problems.is_empty() {
        return Err(StoreError::RecordInvalid(problems));
    }
    if let Some(row) = tx
        .skill_row(ctx.tenant, namespace, &release.name, &release.version)
        .await?
    {
        return if row.release == release {
            Ok(SkillWrite::Unchanged(row))
        } else {
            Err(StoreError::SkillConflict(format!(
                "{}@{} is already published with other content; a version never changes",
                release.name, release.version
            )))
        };
    }
    let payload =
        serde_json::to_value(&release).map_err(|e| StoreError::inconsistent(e.to_string()))?;
    let new = NewEvent::new(namespace.clone(), SKILL_STREAM, SKILL_PUBLISHED, payload);
    let position = ctx.append(tx, new).await?.position;
    let row = SkillRow {
        release,
        withdrawal: None,
        position,
    };
    tx.put_skill(ctx.tenant, namespace, &row).await?;
    Ok(SkillWrite::Changed(row))
}

/// Withdraws a skill release; it stays in the registry, marked. `at` is
/// the withdrawal's own time when it is imported, else now.
pub(crate) async fn withdraw_skill<T: LedgerTx + RecordTx>(
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
        .ok_or(StoreError::SkillNotFound)?;
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

/// The namespace's skill registry, from its rows.
pub fn registry_of(skills: &[SkillRow]) -> Registry {
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

/// Flags of a kept record: relations to withdrawn skill releases.
pub fn flags(row: &RecordRow, registry: &Registry) -> Vec<Finding> {
    praxis_domain::records::repository::skill_findings(&row.document, registry).1
}

/// Decodes a revision event.
pub fn revision_of(event: &Event) -> Result<Revision, StoreError> {
    serde_json::from_value(event.payload.clone()).map_err(|e| {
        StoreError::inconsistent(format!(
            "record revision at position {} does not decode: {e}",
            event.position
        ))
    })
}

/// Record, skill and setting projections rebuilt from events, for
/// verification.
#[derive(Default)]
pub(crate) struct RecordFold {
    records: BTreeMap<(String, String), RecordRow>,
    skills: BTreeMap<(String, String, String), SkillRow>,
    settings: BTreeMap<String, bool>,
}

impl RecordFold {
    /// Folds one event; returns a problem when a records event is malformed.
    pub fn fold(&mut self, event: &Event) -> Option<String> {
        let ns = event.namespace.0.clone();
        let result: Result<(), String> = match event.kind.as_str() {
            lifecycle::REVISED => revision_of(event)
                .map(|r| {
                    let row = RecordRow::from_revision(&r, event.position);
                    self.records.insert((ns, r.experience_id), row);
                })
                .map_err(|e| e.to_string()),
            SKILL_PUBLISHED => serde_json::from_value::<SkillRelease>(event.payload.clone())
                .map(|release| {
                    let key = (ns, release.name.clone(), release.version.clone());
                    let row = SkillRow {
                        release,
                        withdrawal: None,
                        position: event.position,
                    };
                    self.skills.insert(key, row);
                })
                .map_err(|e| format!("undecodable skill release: {e}")),
            SKILL_WITHDRAWN => {
                let text = |k: &str| event.payload[k].as_str().unwrap_or_default().to_owned();
                let key = (ns, text("name"), text("version"));
                match (
                    self.skills.get_mut(&key),
                    serde_json::from_value::<Withdrawal>(event.payload["withdrawal"].clone()),
                ) {
                    (Some(row), Ok(w)) => {
                        row.withdrawal = Some(w);
                        Ok(())
                    }
                    (None, _) => Err("withdrawal of an unpublished skill release".into()),
                    (_, Err(e)) => Err(format!("undecodable skill withdrawal: {e}")),
                }
            }
            lifecycle::SETTINGS_SET => match event.payload["automated_approval"].as_bool() {
                Some(on) => {
                    self.settings.insert(ns, on);
                    Ok(())
                }
                None => Err("undecodable record settings".into()),
            },
            _ => Ok(()),
        };
        result.err()
    }

    /// Compares the rebuilt projections with the stored rows.
    pub fn compare(
        mut self,
        records: Vec<(String, RecordRow)>,
        skills: Vec<(String, SkillRow)>,
        settings: Vec<(String, bool)>,
    ) -> Vec<String> {
        let mut problems = Vec::new();
        for (ns, row) in records {
            match self
                .records
                .remove(&(ns.clone(), row.experience_id.clone()))
            {
                Some(expected) if expected == row => {}
                Some(_) => problems.push(format!(
                    "record {} in {ns:?} differs from its revisions",
                    row.experience_id
                )),
                None => problems.push(format!(
                    "record {} in {ns:?} has no revisions",
                    row.experience_id
                )),
            }
        }
        for (ns, id) in self.records.keys() {
            problems.push(format!(
                "record {id} in {ns:?} is missing from the projection"
            ));
        }
        for (ns, row) in skills {
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
        for (ns, on) in settings {
            if self.settings.remove(&ns) != Some(on) {
                problems.push(format!(
                    "record settings of {ns:?} differ from their events"
                ));
            }
        }
        for ns in self.settings.keys() {
            problems.push(format!(
                "record settings of {ns:?} are missing from the projection"
            ));
        }
        problems
    }
}
