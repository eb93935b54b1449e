//! Event rows and the column conversions every concept's rows share.

use praxis_domain::auth::Namespace;
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

/// A stored 32-byte digest.
pub(crate) fn digest(bytes: &[u8]) -> Result<Digest, StoreError> {
    <[u8; 32]>::try_from(bytes)
        .map(Digest)
        .map_err(|_| StoreError::inconsistent("stored digest is not 32 bytes"))
}

/// A stored non-negative integer.
pub(crate) fn to_u64(v: i64) -> Result<u64, StoreError> {
    u64::try_from(v).map_err(|_| StoreError::inconsistent("negative position"))
}

/// A count or position as a column value.
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

/// The current time as a [`Timestamp`].
pub(crate) fn now() -> Timestamp {
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as i64);
    Timestamp::from_micros(micros)
}
