//! The event vocabulary of the append-only ledger and its hash chain.
//!
//! Every event is sealed by a digest over a small canonical envelope that
//! names its tenant, namespace, stream, positions, kind, payload digest,
//! predecessor digest, actor and time. Each stream is its own chain, so
//! unrelated streams never wait on each other.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::auth::scope::Namespace;
use crate::canonical::canonical_bytes;
use crate::digest::{Digest, EVENT_KIND, PAYLOAD_KIND};
use crate::time::Timestamp;

/// Who caused an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actor {
    /// The credential that authenticated the write (`"system"` for offline admin).
    pub credential_id: String,
    /// The subject that credential acts for.
    pub subject: String,
}

impl Actor {
    /// The actor of offline administrative commands run against the store directly.
    pub fn system() -> Actor {
        Actor {
            credential_id: "system".into(),
            subject: "system".into(),
        }
    }
}

/// An event as a command proposes it, before the writer places it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewEvent {
    /// Namespace the event belongs to.
    pub namespace: Namespace,
    /// Stream within the namespace; the unit of ordering and chaining.
    pub stream: String,
    /// Event kind, for example `credential.issued`.
    pub kind: String,
    /// Canonical-checked payload.
    pub payload: Value,
    /// Canonical text of the payload, computed off the writer's critical path.
    pub canonical: String,
    /// Digest of the payload, computed off the writer's critical path.
    pub payload_digest: Digest,
}

impl NewEvent {
    /// Builds an event, canonicalizes and digests its payload.
    pub fn new(
        namespace: Namespace,
        stream: impl Into<String>,
        kind: impl Into<String>,
        payload: Value,
    ) -> Self {
        let canonical =
            String::from_utf8(canonical_bytes(&payload)).expect("canonical JSON is UTF-8");
        let payload_digest = Digest::of_bytes(PAYLOAD_KIND, canonical.as_bytes());
        NewEvent {
            namespace,
            stream: stream.into(),
            kind: kind.into(),
            payload,
            canonical,
            payload_digest,
        }
    }
}

/// The sealed envelope of an event. Its fields are declared in RFC 8785 key
/// order and hold only ASCII-keyed strings, integers below 2^53 and nulls,
/// so plain serialization already is the canonical form; a property test
/// checks that against the canonicalizer.
#[derive(Serialize)]
struct Envelope<'a> {
    actor: EnvelopeActor<'a>,
    kind: &'a str,
    namespace: &'a str,
    payload_digest: &'a str,
    position: u64,
    prev_digest: Option<&'a str>,
    recorded_at: i64,
    stream: &'a str,
    stream_seq: u64,
    tenant_id: &'a str,
}

#[derive(Serialize)]
struct EnvelopeActor<'a> {
    credential_id: &'a str,
    subject: &'a str,
}

/// A placed, sealed event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Owning tenant.
    pub tenant_id: String,
    /// Namespace within the tenant.
    pub namespace: Namespace,
    /// Stream within the namespace.
    pub stream: String,
    /// Dense position within the stream, from 1.
    pub stream_seq: u64,
    /// Dense position within the tenant's whole log, from 1.
    pub position: u64,
    /// Event kind.
    pub kind: String,
    /// Payload.
    pub payload: Value,
    /// Canonical text of the payload, as stored.
    pub canonical: String,
    /// Digest of the payload.
    pub payload_digest: Digest,
    /// Digest of the previous event in the same stream, `None` for the first.
    pub prev_digest: Option<Digest>,
    /// Who caused it.
    pub actor: Actor,
    /// When the writer placed it.
    pub recorded_at: Timestamp,
    /// Seal over all of the above.
    pub digest: Digest,
}

/// What is wrong with a stored event or chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inconsistency {
    /// The payload does not hash to its stored digest.
    PayloadDigest,
    /// The envelope does not hash to its stored digest.
    EventDigest,
    /// The predecessor link does not match the previous event of the stream.
    BrokenChain,
    /// Stream sequence numbers are not dense from 1.
    StreamGap,
    /// Tenant positions are not dense from 1.
    PositionGap,
}

impl Event {
    /// Computes the seal of an event from its parts.
    #[allow(clippy::too_many_arguments)]
    pub fn seal(
        tenant_id: &str,
        new: &NewEvent,
        stream_seq: u64,
        position: u64,
        prev_digest: Option<Digest>,
        actor: &Actor,
        recorded_at: Timestamp,
    ) -> Digest {
        let payload_digest = new.payload_digest.to_hex();
        let prev = prev_digest.map(|d| d.to_hex());
        let envelope = Envelope {
            actor: EnvelopeActor {
                credential_id: &actor.credential_id,
                subject: &actor.subject,
            },
            kind: &new.kind,
            namespace: new.namespace.as_str(),
            payload_digest: &payload_digest,
            position,
            prev_digest: prev.as_deref(),
            recorded_at: recorded_at.micros(),
            stream: &new.stream,
            stream_seq,
            tenant_id,
        };
        let bytes = serde_json::to_vec(&envelope).expect("envelopes serialize");
        Digest::of_bytes(EVENT_KIND, &bytes)
    }

    /// Places a new event, sealing it.
    pub fn place(
        tenant_id: &str,
        new: NewEvent,
        stream_seq: u64,
        position: u64,
        prev_digest: Option<Digest>,
        actor: Actor,
        recorded_at: Timestamp,
    ) -> Event {
        let digest = Event::seal(
            tenant_id,
            &new,
            stream_seq,
            position,
            prev_digest,
            &actor,
            recorded_at,
        );
        Event {
            tenant_id: tenant_id.to_owned(),
            namespace: new.namespace,
            stream: new.stream,
            stream_seq,
            position,
            kind: new.kind,
            payload: new.payload,
            canonical: new.canonical,
            payload_digest: new.payload_digest,
            prev_digest,
            actor,
            recorded_at,
            digest,
        }
    }

    /// Re-checks both digests of a stored event.
    ///
    /// The payload is re-canonicalized from its parsed value, so stored text
    /// that parses to different data, or is not canonical, fails too.
    pub fn verify(&self) -> Result<(), Inconsistency> {
        let canonical = canonical_bytes(&self.payload);
        if canonical != self.canonical.as_bytes()
            || Digest::of_bytes(PAYLOAD_KIND, &canonical) != self.payload_digest
        {
            return Err(Inconsistency::PayloadDigest);
        }
        let new = NewEvent {
            namespace: self.namespace.clone(),
            stream: self.stream.clone(),
            kind: self.kind.clone(),
            payload: Value::Null,
            canonical: String::new(),
            payload_digest: self.payload_digest,
        };
        let seal = Event::seal(
            &self.tenant_id,
            &new,
            self.stream_seq,
            self.position,
            self.prev_digest,
            &self.actor,
            self.recorded_at,
        );
        if seal != self.digest {
            return Err(Inconsistency::EventDigest);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sample() -> Event {
        Event::place(
            "t",
            NewEvent::new(Namespace::admin(), "s", "k", json!({"x": 1})),
            1,
            1,
            None,
            Actor::system(),
            Timestamp::from_micros(5),
        )
    }

    proptest::proptest! {
        #[test]
        fn envelope_serialization_is_canonical(
            tenant in "\\PC{0,8}", ns in "\\PC{0,8}", stream in "\\PC{0,8}", kind in "\\PC{0,8}",
            subject in "[\\x00-\\x7f\\u{80}-\\u{10ffff}]{0,8}",
            seq in 1u64..(1 << 53), pos in 1u64..(1 << 53), at in -(1i64 << 53)..(1i64 << 53),
            prev in proptest::option::of(proptest::array::uniform32(0u8..)),
        ) {
            let new = NewEvent::new(Namespace(ns.clone()), stream.clone(), kind.clone(), json!(null));
            let actor = Actor { credential_id: "c".into(), subject: subject.clone() };
            let prev = prev.map(Digest);
            let expected = Digest::of_value(EVENT_KIND, &json!({
                "tenant_id": tenant, "namespace": ns, "stream": stream, "stream_seq": seq,
                "position": pos, "kind": kind, "payload_digest": new.payload_digest.to_hex(),
                "prev_digest": prev.map(|d| d.to_hex()),
                "actor": {"credential_id": "c", "subject": subject}, "recorded_at": at,
            }));
            let got = Event::seal(&tenant, &new, seq, pos, prev, &actor, Timestamp::from_micros(at));
            proptest::prop_assert_eq!(got, expected);
        }
    }

    #[test]
    fn placed_events_verify() {
        assert_eq!(sample().verify(), Ok(()));
    }

    #[test]
    fn any_change_breaks_the_seal() {
        let mut e = sample();
        e.payload = json!({"x": 2});
        assert_eq!(e.verify(), Err(Inconsistency::PayloadDigest));
        let mut e = sample();
        e.position = 2;
        assert_eq!(e.verify(), Err(Inconsistency::EventDigest));
        let mut e = sample();
        e.actor.subject = "other".into();
        assert_eq!(e.verify(), Err(Inconsistency::EventDigest));
    }
}
