//! The two hashes an approval names: the proposal's version (what was
//! reviewed) and the destination's state (what it was reviewed against).
//! Both are plain SHA-256 of canonical JSON, as docs/proposals.md states.

use serde_json::{Value, json};

use super::candidate::Candidate;
use super::source::object_sha256;

/// The version hash: the proposal's id and its exact candidate.
pub fn version_hash(proposal_id: &str, candidate: &Candidate) -> String {
    let candidate = serde_json::to_value(candidate).unwrap_or(Value::Null);
    object_sha256(&json!({ "proposal_id": proposal_id, "candidate": candidate }))
}

/// The destination hash: the destination and its current state — the
/// memory item's live revision, or the skill file's SHA-256 — None when it
/// does not exist.
pub fn destination_hash(destination: &Value, current: Option<&str>) -> String {
    object_sha256(&json!({ "destination": destination, "current": current }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_destination_hash_moves_with_the_current_state() {
        let d = json!({"kind": "memory", "memory_key": "k"});
        let none = destination_hash(&d, None);
        assert_ne!(none, destination_hash(&d, Some("mrev_1")));
        assert_ne!(
            destination_hash(&d, Some("mrev_1")),
            destination_hash(&d, Some("mrev_2"))
        );
        assert_eq!(none, destination_hash(&d, None));
    }
}
