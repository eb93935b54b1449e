//! The registration rule the immutable learning registry applies to both
//! policies and contexts: an id names one payload for good.

use serde::Serialize;

use crate::digest::Digest;
use crate::refusal::Refusal;

/// What registering a payload under an id does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registration {
    /// Nothing is registered under the id: append the registration.
    New,
    /// The identical payload is registered: answer with the stored entry,
    /// whoever asks, and append nothing.
    Existing,
}

/// Decides a registration from the digest stored under the id, if any.
///
/// Digests are compared rather than values, so that two spellings of one
/// number (`0.01` and `1e-2`) that canonicalize alike are the same payload.
pub fn register(
    what: &'static str,
    id: &str,
    stored: Option<&Digest>,
    candidate: &Digest,
) -> Result<Registration, Refusal> {
    match stored {
        None => Ok(Registration::New),
        Some(d) if d == candidate => Ok(Registration::Existing),
        Some(_) => Err(Refusal::RegistryConflict {
            what,
            id: id.to_owned(),
        }),
    }
}

/// Plain SHA-256 of a registry payload's canonical JSON (RFC 8785), as the
/// contract states it, so that any client can recompute it without a
/// Praxis-specific prefix.
pub(crate) fn registry_digest<T: Serialize>(payload: &T) -> Digest {
    Digest::sha256(&crate::canonical::canonical_bytes(&value_of(payload)))
}

/// Digest of a payload's canonical JSON under `kind`, for the digests the
/// contract leaves to Praxis (attempts, withdrawals).
pub(crate) fn digest_of<T: Serialize>(kind: &str, payload: &T) -> Digest {
    Digest::of_value(kind, &value_of(payload))
}

fn value_of<T: Serialize>(payload: &T) -> serde_json::Value {
    // These payloads have string keys and finite numbers only.
    serde_json::to_value(payload).expect("learning payloads serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_names_one_payload_for_good() {
        let a = Digest::sha256(b"a");
        let b = Digest::sha256(b"b");
        assert_eq!(register("policy", "p", None, &a), Ok(Registration::New));
        assert_eq!(
            register("policy", "p", Some(&a), &a),
            Ok(Registration::Existing)
        );
        assert_eq!(
            register("context", "c", Some(&a), &b),
            Err(Refusal::RegistryConflict {
                what: "context",
                id: "c".into()
            })
        );
    }
}
