//! Learning registry rows.

use praxis_domain::canonical::canonical_of;
use praxis_domain::digest::Digest;
use praxis_domain::time::Timestamp;

use super::{Entry, Registrable};
use crate::error::StoreError;
use crate::ledger::rows::{to_i64, to_u64};

/// The columns of a `learning_registry` row, in `sql::registry_columns!`
/// order. The payload is kept as its canonical JSON text, the exact bytes
/// its digest covers, so a reader can re-check it without re-encoding.
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
        let bytes = canonical_of(&entry.payload)?;
        let payload = String::from_utf8(bytes)
            .map_err(|e| StoreError::inconsistent(format!("canonical JSON: {e}")))?;
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
        let digest: Digest = self
            .digest
            .parse()
            .map_err(|_| StoreError::inconsistent(format!("{what}: undecodable digest")))?;
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
