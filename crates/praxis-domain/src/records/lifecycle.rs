//! Intake, review and lifecycle of a record: the transitions, the fields the
//! server owns, and the event payloads that make each change a new
//! immutable revision.
//!
//! The server, not the submitter, decides a record's trust fields: it binds
//! `provenance.author_ref` to the authenticated subject, sets the lifecycle
//! and review state, and stamps the screening receipt. Every change of a
//! kept record is a revision: the whole document, canonicalized, with its
//! SHA-256. A submission that fails screening is kept as a rejection (its
//! findings and the digest of what was sent, never the text, which may
//! hold a secret) and leaves the last passing revision as it was.
//!
//! Lifecycle moves: candidate → reviewed (approval); reviewed → superseded,
//! only when an approved record supersedes it; reviewed → withdrawn, with a
//! reason. A changes-requested review keeps the record a candidate, and a
//! candidate may be revised by its source. Verification level is the
//! submitter's claim as screened; review and lifecycle never change it.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use super::Finding;
use crate::time::Timestamp;

/// Event kind: a kept record's new revision.
pub const REVISED: &str = "record.revised";
/// Event kind: a submission that failed screening.
pub const REJECTED: &str = "record.rejected";
/// Event kind: a namespace's intake settings.
pub const SETTINGS_SET: &str = "record.settings_set";

/// The policy gate's identity in screening and automated-review receipts.
/// Praxis runs the repository policy gate of the protocol (and more), so it
/// uses the protocol's name for it; the name is what the schema recognizes.
pub const GATE_ID: &str = "repository-policy-gate-v1";

/// Notes of an automated approval: it is never presented as human review.
pub const AUTOMATED_NOTES: &str = "Approved automatically by the Praxis policy gate after schema, policy and screening checks. This is not human review and not independent reproduction.";

/// Longest withdrawal reason or review note.
pub const MAX_NOTE_CHARS: usize = 1000;

/// The stream of a record's revisions and rejections, keyed by its source.
pub fn stream_of(source: &str) -> String {
    format!("record/{source}")
}

/// The stable identity of a record's source: edits from the same source
/// reconcile the same record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A client-chosen key, scoped to the submitting subject.
    Key {
        /// The key.
        key: String,
    },
    /// A public issue the record was filed as.
    Issue {
        /// `owner/repo`.
        repository: String,
        /// Issue number.
        number: u64,
    },
    /// A record loaded from a published repository.
    Import {
        /// The record's id.
        experience_id: String,
    },
}

impl Source {
    /// The canonical text of the source identity.
    ///
    /// A key is scoped by the subject that used it, so two submitters
    /// cannot collide on (or hijack) each other's keys.
    pub fn key(&self, subject: &str) -> String {
        match self {
            // The subject's length makes the split unambiguous: subjects
            // may themselves contain ':'.
            Source::Key { key } => format!("key:{}:{subject}:{key}", subject.len()),
            Source::Issue { repository, number } => {
                format!("issue:{}#{number}", repository.to_ascii_lowercase())
            }
            Source::Import { experience_id } => format!("import:{experience_id}"),
        }
    }

    /// Checks the source's own fields.
    pub fn problems(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        match self {
            Source::Key { key } => {
                if key.is_empty() || key.len() > 200 || key.chars().any(char::is_control) {
                    out.push(Finding::new(
                        "/source/key",
                        "source.key",
                        "a source key is 1-200 bytes without control characters",
                    ));
                }
            }
            Source::Issue { repository, number } => {
                let ok = repository.split('/').count() == 2
                    && repository.split('/').all(|p| {
                        !p.is_empty()
                            && p.bytes()
                                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
                    });
                if !ok {
                    out.push(Finding::new(
                        "/source/repository",
                        "source.repository",
                        "a repository is owner/name",
                    ));
                }
                if *number == 0 {
                    out.push(Finding::new(
                        "/source/number",
                        "source.number",
                        "an issue number is at least 1",
                    ));
                }
            }
            Source::Import { .. } => {}
        }
        out
    }
}

/// What a revision changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// A passing submission or edit by the source.
    Submitted,
    /// Approved, by a human or by the automated policy.
    Approved,
    /// A reviewer asked for changes.
    ChangesRequested,
    /// Another approved record superseded it.
    Superseded,
    /// Withdrawn, with a reason; identity and history stay.
    Withdrawn,
    /// Loaded from a published repository as it was.
    Imported,
}

/// A review decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// Approve: the candidate becomes reviewed.
    Approve,
    /// Ask for changes: the record stays a candidate.
    RequestChanges,
}

/// How a review was made; reported as what it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewMode {
    /// A person decided.
    Human,
    /// The policy gate decided.
    AutomatedPolicy,
}

impl ReviewMode {
    /// The protocol's name.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewMode::Human => "human",
            ReviewMode::AutomatedPolicy => "automated-policy",
        }
    }
}

/// The payload of a [`REVISED`] event: one immutable revision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Revision {
    /// The record's id.
    pub experience_id: String,
    /// Its source identity text.
    pub source: String,
    /// 1 for the first kept revision, then +1 per change.
    pub revision: u64,
    /// What changed.
    pub change: Change,
    /// The whole record as of this revision.
    pub document: Value,
    /// Lowercase hex SHA-256 of the document's canonical JSON.
    pub sha256: String,
    /// Why it was withdrawn (withdrawals only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The record that superseded it (supersessions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
}

/// The payload of a [`REJECTED`] event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    /// Its source identity text.
    pub source: String,
    /// The id it claimed, if it had a well-formed one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experience_id: Option<String>,
    /// SHA-256 of the canonical JSON as submitted (the text is not kept).
    pub sha256: String,
    /// Every finding.
    pub findings: Vec<Finding>,
}

/// SHA-256 (lowercase hex) of a document's canonical JSON.
pub fn document_sha256(document: &Value) -> String {
    hex::encode(Sha256::digest(crate::canonical::canonical_bytes(document)))
}

/// A read-only view of a record document's trust fields.
pub struct View<'a>(pub &'a Value);

impl View<'_> {
    fn text(&self, pointer: &str) -> Option<&str> {
        self.0.pointer(pointer).and_then(Value::as_str)
    }
    /// `experience_id`.
    pub fn id(&self) -> Option<&str> {
        self.text("/experience_id")
    }
    /// `lifecycle.status`.
    pub fn lifecycle(&self) -> Option<&str> {
        self.text("/lifecycle/status")
    }
    /// `review.status`.
    pub fn review_status(&self) -> Option<&str> {
        self.text("/review/status")
    }
    /// `review.mode`.
    pub fn review_mode(&self) -> Option<&str> {
        self.text("/review/mode")
    }
    /// `verification.level`.
    pub fn verification_level(&self) -> Option<&str> {
        self.text("/verification/level")
    }
    /// `context.platform`.
    pub fn platform(&self) -> Option<&str> {
        self.text("/context/platform")
    }
    /// `lifecycle.created_at`.
    pub fn created_at(&self) -> Option<&str> {
        self.text("/lifecycle/created_at")
    }
    /// `provenance.author_ref`.
    pub fn author(&self) -> Option<&str> {
        self.text("/provenance/author_ref")
    }
    /// `title`.
    pub fn title(&self) -> Option<&str> {
        self.text("/title")
    }
    /// Every related and superseded record id.
    pub fn relations(&self, list: &str) -> Vec<&str> {
        self.0
            .pointer(&format!("/relations/{list}"))
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
    /// Every string of the record, joined, for full-text search.
    pub fn search_text(&self) -> String {
        let mut out = String::new();
        collect_text(self.0, &mut out);
        out
    }
}

fn collect_text(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| collect_text(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_text(v, out)),
        _ => {}
    }
}

/// Why a transition is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The record breaks rules; every finding is listed.
    Findings(Vec<Finding>),
    /// The record's lifecycle does not allow the move.
    InvalidTransition(String),
}

fn set(doc: &mut Value, pointer_parent: &str, key: &str, value: Value) {
    if let Some(Value::Object(map)) = doc.pointer_mut(pointer_parent) {
        map.insert(key.to_owned(), value);
    }
}

fn checked(doc: Value) -> Result<Value, Refused> {
    let findings = super::check(&doc, None);
    if findings.is_empty() {
        Ok(doc)
    } else {
        Err(Refused::Findings(findings))
    }
}

/// Prepares a submitted document as a candidate: binds the author (and,
/// for an issue source, `provenance.source_issue`), sets the lifecycle,
/// review and screening fields the server owns, and runs every check.
/// `first_created_at` is the record's creation time when this is an edit of
/// a kept record.
pub fn submit(
    mut doc: Value,
    author: &str,
    source: &Source,
    now: Timestamp,
    first_created_at: Option<&str>,
) -> Result<Value, Refused> {
    if !doc.is_object() {
        return Err(Refused::Findings(vec![Finding::new(
            "",
            "schema.type",
            "a record is a JSON object",
        )]));
    }
    let now = now.to_string();
    set(&mut doc, "/provenance", "author_ref", json!(author));
    if let Source::Issue { repository, number } = source {
        set(
            &mut doc,
            "/provenance",
            "source_issue",
            json!({
                "provider": "github",
                "repository": repository,
                "issue_number": number,
                "url": format!("https://github.com/{repository}/issues/{number}"),
            }),
        );
    }
    let created = first_created_at.unwrap_or(&now).to_owned();
    doc["lifecycle"] = json!({ "status": "candidate", "created_at": created, "updated_at": now });
    doc["review"] = json!({ "status": "pending" });
    doc["screening"] = json!({
        "status": "passed", "method": GATE_ID, "screened_at": now, "findings": []
    });
    checked(doc)
}

/// Applies a review decision to a candidate.
pub fn review(
    current: &Value,
    decision: Decision,
    mode: ReviewMode,
    reviewer: &str,
    notes: Option<&str>,
    now: Timestamp,
) -> Result<Value, Refused> {
    if View(current).lifecycle() != Some("candidate") {
        return Err(Refused::InvalidTransition(
            "only a candidate can be reviewed".into(),
        ));
    }
    let now = now.to_string();
    let mut doc = current.clone();
    let mut review = json!({ "mode": mode.as_str(), "reviewed_at": now });
    match (decision, mode) {
        (Decision::RequestChanges, ReviewMode::AutomatedPolicy) => {
            return Err(Refused::InvalidTransition(
                "the automated policy only approves passing records".into(),
            ));
        }
        (Decision::RequestChanges, ReviewMode::Human) => {
            review["status"] = json!("changes-requested");
            review["reviewer"] = json!(reviewer);
        }
        (Decision::Approve, ReviewMode::Human) => {
            review["status"] = json!("approved");
            review["reviewer"] = json!(reviewer);
            doc["lifecycle"]["status"] = json!("reviewed");
        }
        (Decision::Approve, ReviewMode::AutomatedPolicy) => {
            // The automated review and its screening receipt name the same
            // gate and the same instant: the screening is rerun now.
            review["status"] = json!("approved");
            review["reviewer"] = json!(GATE_ID);
            doc["screening"] = json!({
                "status": "passed", "method": GATE_ID, "screened_at": now, "findings": []
            });
            doc["lifecycle"]["status"] = json!("reviewed");
        }
    }
    match (notes, mode) {
        (Some(n), ReviewMode::Human) => review["notes"] = json!(n),
        (_, ReviewMode::AutomatedPolicy) => review["notes"] = json!(AUTOMATED_NOTES),
        (None, ReviewMode::Human) => {}
    }
    doc["review"] = review;
    doc["lifecycle"]["updated_at"] = json!(now);
    checked(doc)
}

/// Marks a reviewed record superseded.
pub fn supersede(current: &Value, now: Timestamp) -> Result<Value, Refused> {
    move_reviewed(current, "superseded", now)
}

/// Withdraws a reviewed record; the reason lives in the revision event.
pub fn withdraw(current: &Value, now: Timestamp) -> Result<Value, Refused> {
    move_reviewed(current, "withdrawn", now)
}

fn move_reviewed(current: &Value, to: &str, now: Timestamp) -> Result<Value, Refused> {
    if View(current).lifecycle() != Some("reviewed") {
        return Err(Refused::InvalidTransition(format!(
            "only a reviewed record can become {to}"
        )));
    }
    let mut doc = current.clone();
    doc["lifecycle"]["status"] = json!(to);
    doc["lifecycle"]["updated_at"] = json!(now.to_string());
    checked(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Timestamp {
        Timestamp::parse_rfc3339(s).unwrap()
    }

    /// A minimal object: the transitions set fields, the checks are
    /// exercised by the store and HTTP tests with complete records.
    fn bare(status: &str) -> Value {
        json!({"lifecycle": {"status": status, "created_at": "2026-11-20T10:00:00Z",
               "updated_at": "2026-11-20T10:00:00Z"}, "review": {"status": "pending"}})
    }

    #[test]
    fn source_keys_scope_client_keys_by_subject() {
        let key = Source::Key { key: "k".into() };
        assert_ne!(key.key("alice"), key.key("mallory"));
        let issue = Source::Issue {
            repository: "Owner/Repo".into(),
            number: 7,
        };
        assert_eq!(issue.key("anyone"), "issue:owner/repo#7");
        assert!(Source::Key { key: String::new() }.problems()[0].rule == "source.key");
        let bad = Source::Issue {
            repository: "no-slash".into(),
            number: 0,
        };
        assert_eq!(bad.problems().len(), 2);
    }

    #[test]
    fn the_automated_policy_only_approves_and_binds_its_receipt() {
        let now = t("2026-11-21T08:00:00Z");
        let refused = review(
            &bare("candidate"),
            Decision::RequestChanges,
            ReviewMode::AutomatedPolicy,
            "x",
            None,
            now,
        );
        assert!(matches!(refused, Err(Refused::InvalidTransition(_))));
        // Findings are expected (the bare object is not a record), but the
        // refusal must come from the checks, not from the transition.
        let approved = review(
            &bare("candidate"),
            Decision::Approve,
            ReviewMode::AutomatedPolicy,
            "x",
            None,
            now,
        );
        assert!(matches!(approved, Err(Refused::Findings(_))));
    }

    #[test]
    fn only_the_allowed_lifecycle_moves_are_possible() {
        let now = t("2026-11-21T08:00:00Z");
        for status in ["candidate", "superseded", "withdrawn"] {
            assert!(matches!(
                supersede(&bare(status), now),
                Err(Refused::InvalidTransition(_))
            ));
            assert!(matches!(
                withdraw(&bare(status), now),
                Err(Refused::InvalidTransition(_))
            ));
        }
        for status in ["reviewed", "superseded", "withdrawn"] {
            let r = review(
                &bare(status),
                Decision::Approve,
                ReviewMode::Human,
                "bob",
                None,
                now,
            );
            assert!(matches!(r, Err(Refused::InvalidTransition(_))), "{status}");
        }
    }

    #[test]
    fn digests_are_of_canonical_json() {
        let a = json!({"b": 1, "a": [true, null]});
        let b: Value = serde_json::from_str(r#"{ "a": [true, null], "b": 1 }"#).unwrap();
        assert_eq!(document_sha256(&a), document_sha256(&b));
        assert_eq!(document_sha256(&a).len(), 64);
    }
}
