//! Conversions between storage columns and domain types, shared by both engines.

use std::collections::BTreeSet;

use praxis_domain::attempts::{CaseEntry, Disposition, Streak};
use praxis_domain::auth::{Capability, Namespace, Scope};
use praxis_domain::credentials::Credential;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::{Actor, Event};
use praxis_domain::time::Timestamp;

use crate::error::StoreError;

/// An event row as both engines read it.
pub(crate) struct EventRow {
    pub tenant_id: String,
    pub position: i64,
    pub namespace: String,
    pub stream: String,
    pub stream_seq: i64,
    pub kind: String,
    pub payload: String,
    pub payload_digest: Vec<u8>,
    pub prev_digest: Option<Vec<u8>>,
    pub actor_credential: String,
    pub actor_subject: String,
    pub recorded_at: i64,
    pub digest: Vec<u8>,
}

/// A credential row as both engines read it.
pub(crate) struct CredentialRow {
    pub tenant_id: String,
    pub credential_id: String,
    pub subject: String,
    pub capabilities: String,
    pub grants: String,
    pub secret_sha256: Vec<u8>,
    pub created_at: i64,
    pub expires_at: Option<i64>,
    pub revoked_at: Option<i64>,
    pub rotated_at: Option<i64>,
    pub version: i64,
}

pub(crate) fn digest(bytes: &[u8]) -> Result<Digest, StoreError> {
    <[u8; 32]>::try_from(bytes)
        .map(Digest)
        .map_err(|_| StoreError::inconsistent("stored digest is not 32 bytes"))
}

pub(crate) fn to_u64(v: i64) -> Result<u64, StoreError> {
    u64::try_from(v).map_err(|_| StoreError::inconsistent("negative position"))
}

pub(crate) fn to_i64(v: u64) -> i64 {
    i64::try_from(v).expect("positions stay below 2^63")
}

impl EventRow {
    /// Decodes the row; does not verify digests (callers do).
    pub fn into_event(self) -> Result<Event, StoreError> {
        let payload = serde_json::from_str(&self.payload)
            .map_err(|e| StoreError::inconsistent(format!("event payload is not JSON: {e}")))?;
        Ok(Event {
            tenant_id: self.tenant_id,
            namespace: Namespace(self.namespace),
            stream: self.stream,
            stream_seq: to_u64(self.stream_seq)?,
            position: to_u64(self.position)?,
            kind: self.kind,
            payload,
            canonical: self.payload,
            payload_digest: digest(&self.payload_digest)?,
            prev_digest: self.prev_digest.as_deref().map(digest).transpose()?,
            actor: Actor {
                credential_id: self.actor_credential,
                subject: self.actor_subject,
            },
            recorded_at: Timestamp::from_micros(self.recorded_at),
            digest: digest(&self.digest)?,
        })
    }

    /// Decodes and re-verifies the row, failing closed.
    pub fn into_verified_event(self) -> Result<Event, StoreError> {
        let event = self.into_event()?;
        event.verify().map_err(|e| {
            StoreError::inconsistent(format!(
                "event at position {} fails verification: {e:?}",
                event.position
            ))
        })?;
        Ok(event)
    }
}

/// Columns of a credential for writing.
pub(crate) fn credential_columns(c: &Credential) -> (String, String) {
    let caps: Vec<&str> = c.capabilities.iter().map(|c| c.as_str()).collect();
    (
        serde_json::to_string(&caps).expect("strings serialize"),
        serde_json::to_string(&c.grants).expect("scopes serialize"),
    )
}

impl CredentialRow {
    /// Decodes the row.
    pub fn into_credential(self) -> Result<Credential, StoreError> {
        let bad =
            |what: &str| StoreError::inconsistent(format!("credential {what} column is malformed"));
        let capabilities: BTreeSet<Capability> =
            serde_json::from_str(&self.capabilities).map_err(|_| bad("capabilities"))?;
        let grants: BTreeSet<Scope> =
            serde_json::from_str(&self.grants).map_err(|_| bad("grants"))?;
        Ok(Credential {
            id: self.credential_id,
            tenant_id: self.tenant_id,
            subject: self.subject,
            capabilities,
            grants,
            secret_sha256: digest(&self.secret_sha256)?,
            created_at: Timestamp::from_micros(self.created_at),
            expires_at: self.expires_at.map(Timestamp::from_micros),
            revoked_at: self.revoked_at.map(Timestamp::from_micros),
            rotated_at: self.rotated_at.map(Timestamp::from_micros),
            version: to_u64(self.version)?,
        })
    }
}

/// The current time as a [`Timestamp`].
pub(crate) fn now() -> Timestamp {
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0);
    Timestamp::from_micros(micros)
}

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
            crate::attempts::decode_codes(&self.stage, &self.status, &self.disposition)?;
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
    pub fn into_row(self) -> Result<crate::records::RecordRow, StoreError> {
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
        Ok(crate::records::RecordRow {
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

/// The columns of a `skill_releases` row, in `sql::skill_columns!` order.
pub(crate) struct SkillColumns {
    pub name: String,
    pub version: String,
    pub sha256: String,
    pub size: i64,
    pub summary: String,
    pub provenance: String,
    pub withdrawn_at: Option<String>,
    pub withdrawal_reason: Option<String>,
    pub position: i64,
}

impl SkillColumns {
    /// Decodes the columns.
    pub fn into_row(self) -> Result<crate::records::SkillRow, StoreError> {
        let provenance = serde_json::from_str(&self.provenance).map_err(|e| {
            StoreError::inconsistent(format!("skill {} provenance: {e}", self.name))
        })?;
        let withdrawal = match (self.withdrawn_at, self.withdrawal_reason) {
            (Some(at), reason) => Some(praxis_domain::skills::Withdrawal {
                at,
                reason: reason.unwrap_or_default(),
            }),
            (None, _) => None,
        };
        Ok(crate::records::SkillRow {
            release: praxis_domain::skills::SkillRelease {
                name: self.name,
                version: self.version,
                sha256: self.sha256,
                size: to_u64(self.size)?,
                summary: self.summary,
                provenance,
            },
            withdrawal,
            position: to_u64(self.position)?,
        })
    }
}
