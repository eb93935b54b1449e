//! Record rows.

use crate::error::StoreError;
use crate::ledger::rows::to_u64;

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
    pub fn into_row(self) -> Result<super::RecordRow, StoreError> {
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
        Ok(super::RecordRow {
            experience_id: self.experience_id,
            source: self.source,
            revision: to_u64(self.revision)?,
            sha256: self.sha256,
            lifecycle: self.lifecycle,
            review_status: self.review_status,
            review_mode: self.review_mode,
            verification_level: self.verification_level,
            platform: self.platform,
            title: self.title,
            document,
            position: to_u64(self.position)?,
            withdrawal_reason: self.withdrawal_reason,
            superseded_by: self.superseded_by,
        })
    }
}
