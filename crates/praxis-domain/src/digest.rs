//! Domain-separated SHA-256 digests over canonical JSON.
//!
//! A digest is `SHA-256(kind ‖ 0x0A ‖ canonical_bytes)`, printed as lowercase
//! hex. The kind string (for example `praxis.event.v1`) keeps a digest of one
//! kind of object from ever equalling a digest of another.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use sha2::{Digest as _, Sha256};

use crate::canonical::canonical_bytes;
use crate::error::DomainError;

/// Kind string of ledger event digests.
pub const EVENT_KIND: &str = "praxis.event.v1";
/// Kind string of event payload digests.
pub const PAYLOAD_KIND: &str = "praxis.payload.v1";
/// Kind string of request digests used for idempotency.
pub const REQUEST_KIND: &str = "praxis.request.v1";
/// Kind string of stored receipt digests.
pub const RECEIPT_KIND: &str = "praxis.receipt.v1";
/// Kind string of a development experience attempt's digest.
pub const EXPERIENCE_ATTEMPT_KIND: &str = "praxis.experience-attempt.v1";
/// Kind string of a development experience event's digest.
pub const EXPERIENCE_EVENT_KIND: &str = "praxis.experience-event.v1";
/// Kind string of an experience export's digest.
pub const EXPERIENCE_EXPORT_KIND: &str = "praxis.experience-export.v1";
/// Kind string of an experience withdrawal's digest.
pub const EXPERIENCE_WITHDRAWAL_KIND: &str = "praxis.experience-withdrawal.v1";
/// Kind string of the digest of a stored procedure receipt's bytes.
pub const PROCEDURE_RECEIPT_KIND: &str = "praxis.procedure-receipt.v1";
/// Kind string of the digest of a stored evaluation's bytes.
pub const PROCEDURE_EVALUATION_KIND: &str = "praxis.procedure-evaluation.v1";

/// A 32-byte SHA-256 digest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// Digest of already-canonical bytes under a kind string.
    pub fn of_bytes(kind: &str, bytes: &[u8]) -> Digest {
        let mut h = Sha256::new();
        h.update(kind.as_bytes());
        h.update(b"\n");
        h.update(bytes);
        Digest(h.finalize().into())
    }

    /// Digest of a JSON value's canonical form under a kind string.
    pub fn of_value(kind: &str, value: &Value) -> Digest {
        Digest::of_bytes(kind, &canonical_bytes(value))
    }

    /// Plain SHA-256 of raw bytes, without a kind (used for secrets).
    pub fn sha256(bytes: &[u8]) -> Digest {
        Digest(Sha256::digest(bytes).into())
    }

    /// Lowercase hex form.
    pub fn to_hex(&self) -> String {
        // A table lookup: this runs several times per appended event.
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = Vec::with_capacity(64);
        for b in self.0 {
            out.push(HEX[usize::from(b >> 4)]);
            out.push(HEX[usize::from(b & 0x0f)]);
        }
        String::from_utf8(out).expect("hex digits are ASCII")
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.to_hex())
    }
}

impl FromStr for Digest {
    type Err = DomainError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || DomainError::invalid("", "a digest is 64 lowercase hex characters");
        if s.len() != 64 || s.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(bad());
        }
        let mut out = [0u8; 32];
        hex::decode_to_slice(s, &mut out).map_err(|_| bad())?;
        Ok(Digest(out))
    }
}

impl Serialize for Digest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Digest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_separate_equal_content() {
        let v = serde_json::json!({"a": 1});
        assert_ne!(Digest::of_value("x.v1", &v), Digest::of_value("y.v1", &v));
    }

    #[test]
    fn hex_round_trips_and_rejects_uppercase() {
        let d = Digest::sha256(b"abc");
        assert_eq!(
            d.to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(d.to_hex().parse::<Digest>().unwrap(), d);
        assert_eq!(Digest([0xf0; 32]).to_hex(), hex::encode([0xf0; 32]));
        assert!(d.to_hex().to_uppercase().parse::<Digest>().is_err());
        assert!("abc".parse::<Digest>().is_err());
    }
}
