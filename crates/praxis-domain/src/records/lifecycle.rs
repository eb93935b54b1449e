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
//! reason; candidate → withdrawn when its author discards it, with a reason
//! (a discard, told apart from a withdrawal by its revision's change). A
//! changes-requested review keeps the record a candidate, and a
//! candidate may be revised by its source. Verification level is the
//! submitter's claim as screened; review and lifecycle never change it.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use super::check::check;
use crate::finding::Finding;
use crate::refusal::Refusal;
use crate::time::Timestamp;

// Kept at their old paths: these moved to modules of their own.
pub use super::notes::MAX_NOTE_CHARS;
pub use super::source::Source;
pub use super::state::{Lifecycle, ReviewStatus};
pub use super::view::View;

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

/// The stream of a record's revisions and rejections, keyed by its source.
pub fn stream_of(source: &str) -> String {
    format!("record/{source}")
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
    /// Withdrawn as a candidate by its own author, with a reason.
    Discarded,
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

    /// Parses the protocol's name (exactly).
    pub fn parse(s: &str) -> Option<ReviewMode> {
        [ReviewMode::Human, ReviewMode::AutomatedPolicy]
            .into_iter()
            .find(|m| m.as_str() == s)
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
    /// Why it was withdrawn (withdrawals and discards only).
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

fn set(doc: &mut Value, pointer_parent: &str, key: &str, value: Value) {
    if let Some(Value::Object(map)) = doc.pointer_mut(pointer_parent) {
        map.insert(key.to_owned(), value);
    }
}

fn checked(doc: Value) -> Result<Value, Refusal> {
    let findings = check(&doc, None);
    if findings.is_empty() {
        Ok(doc)
    } else {
        Err(Refusal::RecordInvalid(findings))
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
) -> Result<Value, Refusal> {
    if !doc.is_object() {
        return Err(Refusal::RecordInvalid(vec![Finding::new(
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
    doc["lifecycle"] = json!({
        "status": Lifecycle::Candidate.as_str(), "created_at": created, "updated_at": now
    });
    doc["review"] = json!({ "status": ReviewStatus::Pending.as_str() });
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
) -> Result<Value, Refusal> {
    if View(current).lifecycle_state() != Some(Lifecycle::Candidate) {
        return Err(Refusal::InvalidTransition(
            "only a candidate can be reviewed".into(),
        ));
    }
    let now = now.to_string();
    let mut doc = current.clone();
    let mut review = json!({ "mode": mode.as_str(), "reviewed_at": now });
    match (decision, mode) {
        (Decision::RequestChanges, ReviewMode::AutomatedPolicy) => {
            return Err(Refusal::InvalidTransition(
                "the automated policy only approves passing records".into(),
            ));
        }
        (Decision::RequestChanges, ReviewMode::Human) => {
            review["status"] = json!(ReviewStatus::ChangesRequested.as_str());
            review["reviewer"] = json!(reviewer);
        }
        (Decision::Approve, ReviewMode::Human) => {
            review["status"] = json!(ReviewStatus::Approved.as_str());
            review["reviewer"] = json!(reviewer);
            doc["lifecycle"]["status"] = json!(Lifecycle::Reviewed.as_str());
        }
        (Decision::Approve, ReviewMode::AutomatedPolicy) => {
            // The automated review and its screening receipt name the same
            // gate and the same instant: the screening is rerun now.
            review["status"] = json!(ReviewStatus::Approved.as_str());
            review["reviewer"] = json!(GATE_ID);
            doc["screening"] = json!({
                "status": "passed", "method": GATE_ID, "screened_at": now, "findings": []
            });
            doc["lifecycle"]["status"] = json!(Lifecycle::Reviewed.as_str());
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
pub fn supersede(current: &Value, now: Timestamp) -> Result<Value, Refusal> {
    move_reviewed(current, Lifecycle::Superseded, now)
}

/// Withdraws a reviewed record; the reason lives in the revision event.
pub fn withdraw(current: &Value, now: Timestamp) -> Result<Value, Refusal> {
    move_reviewed(current, Lifecycle::Withdrawn, now)
}

/// Withdraws a candidate at its author's request (a discard); the reason
/// lives in the revision event. Only the author (`provenance.author_ref`,
/// bound to the submitting subject and the same for every revision of a
/// candidate) may discard, and only while the record is a candidate.
pub fn discard(current: &Value, by: &str, now: Timestamp) -> Result<Value, Refusal> {
    let view = View(current);
    if view.author() != Some(by) {
        return Err(Refusal::NotRecordAuthor);
    }
    let status = view.lifecycle_state();
    if status != Some(Lifecycle::Candidate) {
        let status = status.map_or("of no known status", Lifecycle::as_str);
        return Err(Refusal::RecordNotCandidate(format!(
            "the record is {status}; only a candidate can be discarded"
        )));
    }
    let mut doc = current.clone();
    doc["lifecycle"]["status"] = json!(Lifecycle::Withdrawn.as_str());
    doc["lifecycle"]["updated_at"] = json!(now.to_string());
    checked(doc)
}

fn move_reviewed(current: &Value, to: Lifecycle, now: Timestamp) -> Result<Value, Refusal> {
    if View(current).lifecycle_state() != Some(Lifecycle::Reviewed) {
        return Err(Refusal::InvalidTransition(format!(
            "only a reviewed record can become {to}"
        )));
    }
    let mut doc = current.clone();
    doc["lifecycle"]["status"] = json!(to.as_str());
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
        assert!(matches!(refused, Err(Refusal::InvalidTransition(_))));
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
        assert!(matches!(approved, Err(Refusal::RecordInvalid(_))));
    }

    #[test]
    fn only_the_allowed_lifecycle_moves_are_possible() {
        let now = t("2026-11-21T08:00:00Z");
        for status in ["candidate", "superseded", "withdrawn"] {
            assert!(matches!(
                supersede(&bare(status), now),
                Err(Refusal::InvalidTransition(_))
            ));
            assert!(matches!(
                withdraw(&bare(status), now),
                Err(Refusal::InvalidTransition(_))
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
            assert!(matches!(r, Err(Refusal::InvalidTransition(_))), "{status}");
        }
    }

    #[test]
    fn only_the_author_discards_and_only_a_candidate() {
        let now = t("2026-11-21T08:00:00Z");
        let authored = |status: &str| {
            let mut doc = bare(status);
            doc["provenance"] = json!({"author_ref": "alice"});
            doc
        };
        assert_eq!(
            discard(&authored("candidate"), "bob", now),
            Err(Refusal::NotRecordAuthor)
        );
        for status in ["reviewed", "superseded", "withdrawn"] {
            assert!(
                matches!(
                    discard(&authored(status), "alice", now),
                    Err(Refusal::RecordNotCandidate(_))
                ),
                "{status}"
            );
        }
        // The author's discard of a candidate passes the transition; the
        // bare object then fails the record checks, as in the test above.
        assert!(matches!(
            discard(&authored("candidate"), "alice", now),
            Err(Refusal::RecordInvalid(_))
        ));
    }

    #[test]
    fn digests_are_of_canonical_json() {
        let a = json!({"b": 1, "a": [true, null]});
        let b: Value = serde_json::from_str(r#"{ "a": [true, null], "b": 1 }"#).unwrap();
        assert_eq!(document_sha256(&a), document_sha256(&b));
        assert_eq!(document_sha256(&a).len(), 64);
    }
}
