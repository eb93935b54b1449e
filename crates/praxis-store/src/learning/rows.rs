//! Learning rows: the registry, attempts, events and withdrawals.
//!
//! Digested payloads are kept as the exact bytes their digests cover (the
//! canonical JSON of an attempt, a withdrawal or a registry entry; an
//! event's body, every member but its digest), so a reader re-checks them
//! with one hash and no re-encoding (see `read`). A state is plain JSON: no
//! digest covers it, and a reader re-folds it from the events.

use praxis_domain::canonical::canonical_of;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::Actor;
use praxis_domain::time::Timestamp;
use serde::Serialize;

use super::registry::Registrable;
use super::{Entry, Recorded};
use crate::error::StoreError;
use crate::ledger::rows::{to_i64, to_u64};

/// A value's canonical JSON, as text.
pub(crate) fn canonical_text<T: Serialize>(value: &T) -> Result<String, StoreError> {
    let bytes = canonical_of(value)?;
    String::from_utf8(bytes).map_err(|e| StoreError::inconsistent(format!("canonical JSON: {e}")))
}

/// The receipt columns every experience row ends with, in
/// `sql::receipt_columns!` order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ReceiptCols {
    pub actor_credential: String,
    pub actor_subject: String,
    pub recorded_at: i64,
    pub position: i64,
    pub receipt_digest: String,
}

impl ReceiptCols {
    /// The columns of a receipt.
    pub fn of(r: &Recorded) -> ReceiptCols {
        ReceiptCols {
            actor_credential: r.actor.credential_id.clone(),
            actor_subject: r.actor.subject.clone(),
            recorded_at: r.recorded_at.micros(),
            position: to_i64(r.position),
            receipt_digest: r.receipt_digest.to_hex(),
        }
    }

    /// The receipt, failing closed on an undecodable digest or position.
    pub fn decode(&self, what: &str) -> Result<Recorded, StoreError> {
        Ok(Recorded {
            actor: Actor {
                credential_id: self.actor_credential.clone(),
                subject: self.actor_subject.clone(),
            },
            recorded_at: Timestamp::from_micros(self.recorded_at),
            position: to_u64(self.position)?,
            receipt_digest: parse_digest(what, &self.receipt_digest)?,
        })
    }
}

/// A stored digest, failing closed when it does not decode.
pub(crate) fn parse_digest(what: &str, hex: &str) -> Result<Digest, StoreError> {
    hex.parse()
        .map_err(|_| StoreError::inconsistent(format!("{what}: undecodable digest")))
}

/// An `experience_attempts` row: the attempt, its depth and current state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AttemptRow {
    pub namespace: String,
    pub id: String,
    pub attempt: String,
    pub attempt_digest: String,
    pub depth: i64,
    pub revision: i64,
    pub state: String,
    pub last_event_id: Option<String>,
    pub receipt: ReceiptCols,
}

/// An `experience_events` row: one accepted event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EventRow {
    pub namespace: String,
    pub attempt_id: String,
    pub event_id: String,
    pub revision: i64,
    pub event: String,
    pub event_digest: String,
    pub receipt: ReceiptCols,
}

/// An `experience_withdrawals` row: one withdrawal, under its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct WithdrawalRow {
    pub namespace: String,
    pub key: String,
    pub attempt_id: String,
    pub event_id: String,
    pub withdrawal: String,
    pub withdrawal_digest: String,
    pub receipt: ReceiptCols,
}

/// The columns of a `learning_registry` row, in `sql::registry_columns!`
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegistryRow {
    pub kind: String,
    pub id: String,
    pub payload: String,
    pub digest: String,
    pub registered_by: String,
    pub recorded_at: i64,
    pub position: i64,
}

impl RegistryRow {
    /// The row of an entry.
    pub fn of<T: Registrable>(entry: &Entry<T>) -> Result<RegistryRow, StoreError> {
        let payload = canonical_text(&entry.payload)?;
        Ok(RegistryRow {
            kind: T::KIND.to_owned(),
            id: entry.payload.id().to_owned(),
            payload,
            digest: entry.digest.to_hex(),
            registered_by: entry.registered_by.clone(),
            recorded_at: entry.recorded_at.micros(),
            position: to_i64(entry.position),
        })
    }

    /// Decodes the row, failing closed unless the stored text hashes to the
    /// stored digest and decodes to a payload with that digest and id.
    pub fn into_entry<T: Registrable>(self) -> Result<Entry<T>, StoreError> {
        let what = format!("learning {} {:?}", T::KIND, self.id);
        let digest = parse_digest(&what, &self.digest)?;
        if self.kind != T::KIND || Digest::sha256(self.payload.as_bytes()) != digest {
            return Err(StoreError::inconsistent(format!(
                "{what} does not match its digest"
            )));
        }
        let payload: T = serde_json::from_str(&self.payload)
            .map_err(|e| StoreError::inconsistent(format!("{what}: {e}")))?;
        if payload.digest() != digest || payload.id() != self.id {
            return Err(StoreError::inconsistent(format!(
                "{what} does not match its digest"
            )));
        }
        Ok(Entry {
            payload,
            digest,
            registered_by: self.registered_by,
            recorded_at: Timestamp::from_micros(self.recorded_at),
            position: to_u64(self.position)?,
        })
    }
}

/// Splits the rows of `sql::WITHDRAWAL_ROWS` into the one under the key
/// and the one of the observation (one row may be both).
pub(crate) fn split_withdrawals(
    found: Vec<WithdrawalRow>,
    key: &str,
    attempt_id: &str,
    event_id: &str,
) -> (Option<WithdrawalRow>, Option<WithdrawalRow>) {
    let under_key = found.iter().find(|r| r.key == key).cloned();
    let of_observation = found
        .into_iter()
        .find(|r| r.attempt_id == attempt_id && r.event_id == event_id);
    (under_key, of_observation)
}
