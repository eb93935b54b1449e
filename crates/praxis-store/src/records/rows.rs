//! Record rows: the trust fields as the protocol's text, decoded into
//! types on the way out.

use praxis_domain::records::KeptRecord;
use praxis_domain::records::lifecycle::ReviewMode;
use praxis_domain::records::state::{Lifecycle, Platform, ReviewStatus, VerificationLevel};
use serde_json::Value;

use crate::error::StoreError;
use crate::ledger::rows::to_u64;

/// A document's canonical JSON text, as the `document` column holds it.
pub(crate) fn document_text(document: &Value) -> String {
    String::from_utf8(praxis_domain::canonical::canonical_bytes(document))
        .expect("canonical JSON is UTF-8")
}

/// A stored protocol value, or an inconsistency naming the record and column.
fn decoded<T>(value: Option<T>, id: &str, column: &str) -> Result<T, StoreError> {
    value.ok_or_else(|| StoreError::inconsistent(format!("record {id} holds an invalid {column}")))
}

/// The columns of a `records` row, in `sql::record_columns!` order.
pub(crate) struct RecordColumns {
    pub experience_id: String,
    pub source: String,
    pub revision: i64,
    pub sha256: String,
    pub lifecycle: String,
    pub review_status: String,
    pub review_mode: Option<String>,
    pub verification_level: String,
    pub platform: String,
    pub title: String,
    pub document: String,
    pub position: i64,
    pub withdrawal_reason: Option<String>,
    pub superseded_by: Option<String>,
}

impl RecordColumns {
    /// Decodes the columns, re-checking the document against its digest.
    pub fn into_row(self) -> Result<KeptRecord, StoreError> {
        let document: serde_json::Value = serde_json::from_str(&self.document).map_err(|e| {
            StoreError::inconsistent(format!(
                "record {} does not decode: {e}",
                self.experience_id
            ))
        })?;
        if praxis_domain::records::lifecycle::document_sha256(&document) != self.sha256 {
            return Err(StoreError::inconsistent(format!(
                "record {} does not match its digest",
                self.experience_id
            )));
        }
        let id = self.experience_id.as_str();
        let review_mode = match self.review_mode.as_deref() {
            Some(m) => Some(decoded(ReviewMode::parse(m), id, "review mode")?),
            None => None,
        };
        Ok(KeptRecord {
            lifecycle: decoded(Lifecycle::parse(&self.lifecycle), id, "lifecycle")?,
            review_status: decoded(
                ReviewStatus::parse(&self.review_status),
                id,
                "review status",
            )?,
            review_mode,
            verification_level: decoded(
                VerificationLevel::parse(&self.verification_level),
                id,
                "verification level",
            )?,
            platform: decoded(Platform::parse(&self.platform), id, "platform")?,
            experience_id: self.experience_id,
            source: self.source,
            revision: to_u64(self.revision)?,
            sha256: self.sha256,
            title: self.title,
            document,
            position: to_u64(self.position)?,
            withdrawal_reason: self.withdrawal_reason,
            superseded_by: self.superseded_by,
        })
    }
}
