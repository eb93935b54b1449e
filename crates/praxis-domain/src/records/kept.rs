//! A kept record as it stands: its current revision with the trust fields
//! read once into types, for every reader (the server, the CLI, the store's
//! own rules) to decide on without reparsing the document.

use serde_json::Value;

use super::lifecycle::{ReviewMode, Revision};
use super::source::Prior;
use super::state::{Lifecycle, Platform, ReviewStatus, VerificationLevel};
use super::view::View;

/// The current revision of one kept record.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptRecord {
    /// `experience_id`.
    pub experience_id: String,
    /// Source identity text.
    pub source: String,
    /// Current revision number.
    pub revision: u64,
    /// SHA-256 of the current document's canonical JSON.
    pub sha256: String,
    /// `lifecycle.status`.
    pub lifecycle: Lifecycle,
    /// `review.status`.
    pub review_status: ReviewStatus,
    /// `review.mode`, once reviewed.
    pub review_mode: Option<ReviewMode>,
    /// `verification.level`.
    pub verification_level: VerificationLevel,
    /// `context.platform`.
    pub platform: Platform,
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

impl KeptRecord {
    /// The record a revision leaves, placed at `position`. Fails, naming the
    /// field, when the document lacks a trust field or holds a value the
    /// protocol does not allow: a kept revision always passed the schema, so
    /// that means the log is not what was written.
    pub fn from_revision(r: &Revision, position: u64) -> Result<KeptRecord, String> {
        let view = View(&r.document);
        let field = |name: &str| format!("record {} has no valid {name}", r.experience_id);
        Ok(KeptRecord {
            experience_id: r.experience_id.clone(),
            source: r.source.clone(),
            revision: r.revision,
            sha256: r.sha256.clone(),
            lifecycle: view.lifecycle_state().ok_or_else(|| field("lifecycle"))?,
            review_status: view.review_state().ok_or_else(|| field("review status"))?,
            review_mode: match view.review_mode() {
                Some(m) => Some(ReviewMode::parse(m).ok_or_else(|| field("review mode"))?),
                None => None,
            },
            verification_level: view
                .verification_level()
                .and_then(VerificationLevel::parse)
                .ok_or_else(|| field("verification level"))?,
            platform: view
                .platform()
                .and_then(Platform::parse)
                .ok_or_else(|| field("platform"))?,
            title: view.title().unwrap_or_default().to_owned(),
            document: r.document.clone(),
            position,
            withdrawal_reason: r.reason.clone(),
            superseded_by: r.superseded_by.clone(),
        })
    }

    /// What the source ownership rules need to know of it.
    pub fn prior(&self) -> Prior<'_> {
        Prior {
            experience_id: &self.experience_id,
            author: View(&self.document).author(),
            lifecycle: self.lifecycle,
        }
    }

    /// The document's author (`provenance.author_ref`).
    pub fn author(&self) -> Option<&str> {
        View(&self.document).author()
    }
}
