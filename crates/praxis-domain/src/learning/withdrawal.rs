//! Withdrawal: an observation (an accepted event, named by its digest) is
//! withdrawn for good. Nothing is erased: the withdrawal is appended beside
//! the event, and every later reader sees both.
//!
//! The next issue makes a withdrawal propagate to every strategy bound to
//! the observation in the same transaction; [`Withdrawal::observation`] is
//! the key it will look them up by.

use serde::{Deserialize, Serialize};

use super::registry::digest_of;
use super::state::ReportedEvent;
use super::text::check_text;
use crate::digest::{Digest, EXPERIENCE_WITHDRAWAL_KIND};
use crate::error::DomainError;
use crate::records::notes::check_reason;
use crate::refusal::Refusal;

/// Event kind of a withdrawal; its payload is a [`Withdrawal`], appended
/// to the attempt's stream.
pub const WITHDRAWN: &str = "experience.withdrawn";

/// The observation withdrawn: one accepted event, pinned by its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObservationRef {
    /// The attempt.
    pub attempt_id: String,
    /// The event.
    pub event_id: String,
    /// The event's digest, as the caller last saw it.
    pub event_digest: Digest,
}

/// A withdrawal as requested, and the payload of [`WITHDRAWN`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Withdrawal {
    /// The caller's key for this withdrawal: a retry under it is answered
    /// with the original receipt.
    pub idempotency_key: String,
    /// What is withdrawn.
    pub observation: ObservationRef,
    /// Why, screened like record text since it is kept for good.
    pub reason: String,
}

/// What a withdrawal request does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawing {
    /// Append the withdrawal.
    New,
    /// The identical withdrawal is stored under the key: answer with its
    /// receipt and append nothing.
    Replayed,
}

impl Withdrawal {
    /// Checks the key, the observation's ids and the reason (findings
    /// pointed at `/reason`).
    pub fn validate(&self) -> Result<(), Refusal> {
        check_text("/idempotency_key", &self.idempotency_key)?;
        check_text("/observation/attempt_id", &self.observation.attempt_id)?;
        check_text("/observation/event_id", &self.observation.event_id)?;
        let findings = check_reason(&self.reason);
        if findings.is_empty() {
            Ok(())
        } else {
            Err(Refusal::ReasonInvalid(findings))
        }
    }

    /// Checks that the observation names the stored event exactly: a stale
    /// or invented digest withdraws nothing.
    pub fn bind(&self, stored: &ReportedEvent) -> Result<(), Refusal> {
        let o = &self.observation;
        if o.attempt_id != stored.attempt_id || o.event_id != stored.event.event_id {
            return Err(DomainError::invalid("/observation", "names another event").into());
        }
        if o.event_digest != stored.event_digest {
            return Err(DomainError::invalid(
                "/observation/event_digest",
                "is not the digest of the stored event",
            )
            .into());
        }
        Ok(())
    }

    /// Decides the request from the withdrawal stored under its key and the
    /// one stored for its observation, if any. The key is checked first, so
    /// a retry is answered even though the observation is now withdrawn.
    pub fn decide(
        &self,
        under_key: Option<&Withdrawal>,
        of_observation: Option<&Withdrawal>,
    ) -> Result<Withdrawing, Refusal> {
        match (under_key, of_observation) {
            (Some(stored), _) if stored == self => Ok(Withdrawing::Replayed),
            (Some(_), _) => Err(Refusal::ExperienceIdConflict {
                what: "withdrawal",
                id: self.idempotency_key.clone(),
            }),
            (None, Some(_)) => Err(Refusal::ExperienceAlreadyWithdrawn {
                attempt_id: self.observation.attempt_id.clone(),
                event_id: self.observation.event_id.clone(),
            }),
            (None, None) => Ok(Withdrawing::New),
        }
    }

    /// Digest of the withdrawal's canonical JSON under
    /// `praxis.experience-withdrawal.v1`: the receipt an inspection names.
    pub fn digest(&self) -> Digest {
        digest_of(EXPERIENCE_WITHDRAWAL_KIND, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::experience::ExperienceOutcome;
    use crate::learning::experience::tests::{attempt, event};
    use crate::learning::state::{ExperienceState, Reported};

    fn stored() -> ReportedEvent {
        let a = attempt("dev-1");
        match ExperienceState::recorded(&a).report(
            "agent-7",
            "agent-7",
            None,
            &event("e1", 1, ExperienceOutcome::Failed),
        ) {
            Ok(Reported::Accepted(acc)) => acc.event,
            other => panic!("{other:?}"),
        }
    }

    fn request(key: &str) -> Withdrawal {
        let e = stored();
        Withdrawal {
            idempotency_key: key.into(),
            observation: ObservationRef {
                attempt_id: e.attempt_id,
                event_id: e.event.event_id,
                event_digest: e.event_digest,
            },
            reason: "the grader was misconfigured".into(),
        }
    }

    #[test]
    fn requests_are_checked_and_reasons_screened() {
        assert_eq!(request("w-1").validate(), Ok(()));
        let mut w = request("");
        assert_eq!(
            w.validate().unwrap_err(),
            DomainError::invalid("/idempotency_key", "must not be empty or blank").into()
        );
        w.idempotency_key = "w-1".into();
        w.reason = "see /home/mara/notes".into();
        match w.validate() {
            Err(Refusal::ReasonInvalid(f)) => assert_eq!(f[0].pointer, "/reason"),
            other => panic!("{other:?}"),
        }
        w.reason = " ".into();
        assert!(matches!(w.validate(), Err(Refusal::ReasonInvalid(_))));
    }

    #[test]
    fn the_observation_must_be_the_stored_event() {
        let e = stored();
        assert_eq!(request("w-1").bind(&e), Ok(()));
        let mut stale = request("w-1");
        stale.observation.event_digest = Digest::sha256(b"other");
        let path = |r: Result<(), Refusal>| match r {
            Err(Refusal::Invalid(d)) => d.path().unwrap().to_owned(),
            other => panic!("{other:?}"),
        };
        assert_eq!(path(stale.bind(&e)), "/observation/event_digest");
        let mut elsewhere = request("w-1");
        elsewhere.observation.event_id = "e2".into();
        assert_eq!(path(elsewhere.bind(&e)), "/observation");
    }

    #[test]
    fn withdrawal_is_once_and_retries_replay() {
        let first = request("w-1");
        assert_eq!(first.decide(None, None), Ok(Withdrawing::New));
        assert_eq!(
            first.decide(Some(&first), Some(&first)),
            Ok(Withdrawing::Replayed)
        );
        let again = request("w-2");
        assert_eq!(
            again.decide(None, Some(&first)),
            Err(Refusal::ExperienceAlreadyWithdrawn {
                attempt_id: "dev-1".into(),
                event_id: "e1".into()
            })
        );
        let mut changed = request("w-1");
        changed.reason = "another reason".into();
        assert_eq!(
            changed.decide(Some(&first), Some(&first)),
            Err(Refusal::ExperienceIdConflict {
                what: "withdrawal",
                id: "w-1".into()
            })
        );
        assert_ne!(changed.digest(), first.digest());
    }
}
