//! Attempt projection rows.

use praxis_domain::attempts::{CaseEntry, Disposition, Policy, Stage, Status, Streak};
use praxis_domain::time::Timestamp;

use crate::error::StoreError;
use crate::ledger::rows::to_u64;

/// An `attempt_cases` row as both engines read it.
pub(crate) struct CaseRow {
    pub case_id: String,
    pub stage: String,
    pub position: i64,
    pub revision: Option<String>,
    pub status: String,
    pub disposition: String,
    pub recorded_at: i64,
    pub subject_obs: i64,
}

impl CaseRow {
    /// Decodes the row.
    pub fn into_entry(self) -> Result<CaseEntry, StoreError> {
        let (stage, status, disposition) =
            decode_codes(&self.stage, &self.status, &self.disposition)?;
        Ok(CaseEntry {
            case_id: self.case_id,
            stage,
            position: to_u64(self.position)?,
            revision: self.revision,
            status,
            disposition,
            recorded_at: Timestamp::from_micros(self.recorded_at),
            subject_observations: to_u64(self.subject_obs)?,
        })
    }
}

/// The value columns of an `attempt_streaks` row.
pub(crate) struct StreakColumns {
    pub consecutive: i64,
    pub completed: i64,
    pub last_disposition: Option<String>,
    pub last_at: Option<i64>,
    pub last_obs: i64,
}

impl StreakColumns {
    /// Decodes the columns.
    pub fn into_streak(self) -> Result<Streak, StoreError> {
        let last_disposition = self
            .last_disposition
            .map(|d| {
                Disposition::parse(&d).ok_or_else(|| {
                    StoreError::inconsistent(format!("stored disposition {d:?} is unknown"))
                })
            })
            .transpose()?;
        Ok(Streak {
            consecutive: to_u64(self.consecutive)?,
            completed: to_u64(self.completed)?,
            last_disposition,
            last_at: self.last_at.map(Timestamp::from_micros),
            last_observations: to_u64(self.last_obs)?,
        })
    }
}

/// Decodes a (disposition, count) row.
pub(crate) fn count_row((d, n): (String, i64)) -> Result<(Disposition, u64), StoreError> {
    let d = Disposition::parse(&d)
        .ok_or_else(|| StoreError::inconsistent(format!("stored disposition {d:?} is unknown")))?;
    Ok((d, to_u64(n)?))
}

/// Decodes stage, status and disposition columns.
pub(crate) fn decode_codes(
    stage: &str,
    status: &str,
    disposition: &str,
) -> Result<(Stage, Status, Disposition), StoreError> {
    let bad =
        |what: &str, v: &str| StoreError::inconsistent(format!("stored {what} {v:?} is unknown"));
    Ok((
        Stage::parse(stage).ok_or_else(|| bad("stage", stage))?,
        Status::parse(status).ok_or_else(|| bad("status", status))?,
        Disposition::parse(disposition).ok_or_else(|| bad("disposition", disposition))?,
    ))
}

/// Decodes a stored policy column.
pub(crate) fn decode_policy(text: &str) -> Result<Policy, StoreError> {
    serde_json::from_str(text)
        .map_err(|e| StoreError::inconsistent(format!("stored attempt policy is malformed: {e}")))
}
