//! Development experiences: an attempt bound to a registered context and a
//! reporter, and the events its reporter reports on it.
//!
//! An attempt is recorded once; its events follow, each moving the
//! experience one revision on (see `state`). A correction is never an
//! edit: it is a new attempt that names its parent observation.

use serde::{Deserialize, Serialize};

use super::registry::digest_of;
use super::text::{ContentRef, check_exact, check_text};
use crate::digest::{Digest, EXPERIENCE_ATTEMPT_KIND};
use crate::error::DomainError;
use crate::refusal::Refusal;

/// Event kind of a recorded attempt; its payload is an [`Attempt`].
pub const RECORDED: &str = "experience.recorded";
/// Event kind of an accepted event; its payload is a `ReportedEvent`.
pub const EVENT_REPORTED: &str = "experience.event_reported";
/// Longest parent chain a lineage read walks, the attempt included.
pub const MAX_LINEAGE: usize = 64;

/// The stream of one attempt: its recording, events and withdrawals, so
/// that one chain holds the attempt's whole story.
pub fn experience_stream(attempt_id: &str) -> String {
    format!("experience/{attempt_id}")
}

/// What an experience event says happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExperienceOutcome {
    /// Not known (yet); never the same as failed.
    Unknown,
    /// The attempt succeeded.
    Succeeded,
    /// The attempt failed.
    Failed,
    /// The attempt was cancelled.
    Cancelled,
}

impl ExperienceOutcome {
    /// Every outcome, in declaration order.
    pub const ALL: [ExperienceOutcome; 4] = [
        ExperienceOutcome::Unknown,
        ExperienceOutcome::Succeeded,
        ExperienceOutcome::Failed,
        ExperienceOutcome::Cancelled,
    ];

    /// Whether the outcome is final: it may then only be repeated.
    pub fn is_terminal(self) -> bool {
        self != ExperienceOutcome::Unknown
    }

    /// The wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ExperienceOutcome::Unknown => "unknown",
            ExperienceOutcome::Succeeded => "succeeded",
            ExperienceOutcome::Failed => "failed",
            ExperienceOutcome::Cancelled => "cancelled",
        }
    }
}

/// The observation an attempt's parent names, as the caller sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParentRef {
    /// The parent attempt.
    pub attempt_id: String,
    /// The parent's event observed.
    pub event_id: String,
}

/// A parent as bound by the server: the observation and its digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundParent {
    /// The parent attempt.
    pub attempt_id: String,
    /// The parent's event observed.
    pub event_id: String,
    /// That event's digest, so the lineage cannot follow a changed event.
    pub event_digest: Digest,
}

/// An attempt as the caller sends it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    /// The attempt's id within its namespace.
    pub id: String,
    /// The registered context it ran in.
    pub context_id: String,
    /// The only subject who may report on it.
    pub reporter_subject: String,
    /// What `cost_units` count (for example `tokens`).
    pub accounting_unit: String,
    /// The input it ran on.
    pub input: ContentRef,
    /// The observation it corrects or continues, if any.
    pub parent: Option<ParentRef>,
}

/// An attempt as recorded: the payload of [`RECORDED`], the request with
/// the context's digest and the parent's event digest bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    /// The attempt's id within its namespace.
    pub id: String,
    /// The registered context it ran in.
    pub context_id: String,
    /// That context's digest.
    pub context_digest: Digest,
    /// The only subject who may report on it.
    pub reporter_subject: String,
    /// What `cost_units` count.
    pub accounting_unit: String,
    /// The input it ran on.
    pub input: ContentRef,
    /// The bound parent observation, if any.
    pub parent: Option<BoundParent>,
}

impl AttemptRequest {
    /// Checks every field; `path` points at the attempt (`/experience`).
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/id"), &self.id)?;
        check_text(&format!("{path}/context_id"), &self.context_id)?;
        check_text(&format!("{path}/reporter_subject"), &self.reporter_subject)?;
        check_text(&format!("{path}/accounting_unit"), &self.accounting_unit)?;
        self.input.validate(&format!("{path}/input"))?;
        if let Some(parent) = &self.parent {
            check_text(&format!("{path}/parent/attempt_id"), &parent.attempt_id)?;
            check_text(&format!("{path}/parent/event_id"), &parent.event_id)?;
            if parent.attempt_id == self.id {
                return Err(DomainError::invalid(
                    format!("{path}/parent/attempt_id"),
                    "an attempt cannot be its own parent",
                ));
            }
        }
        Ok(())
    }

    /// In a private scope the attempt is the caller's own: it must name the
    /// caller as its reporter.
    pub fn check_private_reporter(&self, caller: &str) -> Result<(), Refusal> {
        if self.reporter_subject == caller {
            Ok(())
        } else {
            Err(Refusal::NotReporter)
        }
    }

    /// Binds the registered context's digest and, when a parent is named,
    /// the digest of the parent event the store found under its ids.
    pub fn bind(
        self,
        context_digest: Digest,
        parent_event_digest: Option<Digest>,
    ) -> Result<Attempt, Refusal> {
        let parent = match (self.parent, parent_event_digest) {
            (Some(p), Some(event_digest)) => Some(BoundParent {
                attempt_id: p.attempt_id,
                event_id: p.event_id,
                event_digest,
            }),
            (None, None) => None,
            (Some(_), None) | (None, Some(_)) => {
                return Err(Refusal::Invalid(DomainError::invalid(
                    "/experience/parent",
                    "a parent's event digest is bound exactly when a parent is named",
                )));
            }
        };
        Ok(Attempt {
            id: self.id,
            context_id: self.context_id,
            context_digest,
            reporter_subject: self.reporter_subject,
            accounting_unit: self.accounting_unit,
            input: self.input,
            parent,
        })
    }
}

impl Attempt {
    /// SHA-256 of the recorded attempt's canonical JSON under
    /// [`EXPERIENCE_ATTEMPT_KIND`]; every event digest starts from it.
    pub fn digest(&self) -> Digest {
        digest_of(EXPERIENCE_ATTEMPT_KIND, self)
    }

    /// Decides a second recording under this attempt's id: the identical
    /// attempt by the subject who recorded it is a retry (answer with the
    /// stored one); anything else reuses the id.
    pub fn retry(&self, recorded_by: &str, again: &Attempt, by: &str) -> Result<(), Refusal> {
        if self == again && recorded_by == by {
            Ok(())
        } else {
            Err(Refusal::ExperienceIdConflict {
                what: "attempt",
                id: self.id.clone(),
            })
        }
    }
}

/// One event as the reporter sends it.
///
/// `cost_units` and `latency_ms` are the attempt's cumulative consumption
/// so far, in the attempt's accounting unit and in milliseconds: null means
/// unknown, never zero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventReport {
    /// The event's id within its attempt.
    pub event_id: String,
    /// The revision the reporter saw (compare-and-set).
    pub expected_revision: u64,
    /// What happened.
    pub outcome: ExperienceOutcome,
    /// Evidence of it, if any.
    pub evidence: Option<ContentRef>,
    /// Cost units used so far; null when unknown.
    pub cost_units: Option<u64>,
    /// Milliseconds taken so far; null when unknown.
    pub latency_ms: Option<u64>,
}

impl EventReport {
    /// Checks every field; `path` points at the event (`/event`).
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        check_text(&format!("{path}/event_id"), &self.event_id)?;
        check_exact(&format!("{path}/expected_revision"), self.expected_revision)?;
        if let Some(evidence) = &self.evidence {
            evidence.validate(&format!("{path}/evidence"))?;
        }
        if let Some(n) = self.cost_units {
            check_exact(&format!("{path}/cost_units"), n)?;
        }
        if let Some(n) = self.latency_ms {
            check_exact(&format!("{path}/latency_ms"), n)?;
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A valid attempt request without a parent.
    pub(crate) fn request(id: &str) -> AttemptRequest {
        AttemptRequest {
            id: id.into(),
            context_id: "context-v1".into(),
            reporter_subject: "agent-7".into(),
            accounting_unit: "tokens".into(),
            input: ContentRef {
                reference: format!("trace://dev/{id}"),
                sha256: "a".repeat(64),
            },
            parent: None,
        }
    }

    /// A recorded attempt.
    pub(crate) fn attempt(id: &str) -> Attempt {
        request(id).bind(Digest::sha256(b"context"), None).unwrap()
    }

    /// A valid event report.
    pub(crate) fn event(id: &str, expected: u64, outcome: ExperienceOutcome) -> EventReport {
        EventReport {
            event_id: id.into(),
            expected_revision: expected,
            outcome,
            evidence: None,
            cost_units: None,
            latency_ms: None,
        }
    }

    #[test]
    fn attempt_fields_name_their_pointer() {
        assert_eq!(request("dev-1").validate("/experience"), Ok(()));
        let path = |edit: fn(&mut AttemptRequest)| {
            let mut r = request("dev-1");
            edit(&mut r);
            r.validate("/experience")
                .unwrap_err()
                .path()
                .unwrap()
                .to_owned()
        };
        assert_eq!(path(|r| r.id = String::new()), "/experience/id");
        assert_eq!(
            path(|r| r.context_id = "\t".into()),
            "/experience/context_id"
        );
        assert_eq!(
            path(|r| r.reporter_subject = "x".repeat(513)),
            "/experience/reporter_subject"
        );
        assert_eq!(
            path(|r| r.accounting_unit = String::new()),
            "/experience/accounting_unit"
        );
        assert_eq!(
            path(|r| r.input.sha256 = "A".repeat(64)),
            "/experience/input/sha256"
        );
        assert_eq!(
            path(|r| {
                r.parent = Some(ParentRef {
                    attempt_id: "p".into(),
                    event_id: String::new(),
                });
            }),
            "/experience/parent/event_id"
        );
        assert_eq!(
            path(|r| {
                r.parent = Some(ParentRef {
                    attempt_id: "dev-1".into(),
                    event_id: "e1".into(),
                });
            }),
            "/experience/parent/attempt_id"
        );
    }

    #[test]
    fn a_private_attempt_names_its_caller() {
        assert_eq!(request("a").check_private_reporter("agent-7"), Ok(()));
        assert_eq!(
            request("a").check_private_reporter("agent-8"),
            Err(Refusal::NotReporter)
        );
    }

    #[test]
    fn binding_pins_the_context_and_the_parent() {
        let mut r = request("child");
        r.parent = Some(ParentRef {
            attempt_id: "dev-1".into(),
            event_id: "e1".into(),
        });
        let d = Digest::sha256(b"event");
        let bound = r.clone().bind(Digest::sha256(b"c"), Some(d)).unwrap();
        assert_eq!(bound.parent.as_ref().unwrap().event_digest, d);
        assert!(r.bind(Digest::sha256(b"c"), None).is_err());
        assert!(request("x").bind(Digest::sha256(b"c"), Some(d)).is_err());
        let mut other = bound.clone();
        other.parent = None;
        assert_ne!(other.digest(), bound.digest());
    }

    #[test]
    fn only_an_identical_retry_by_the_same_subject_is_a_retry() {
        let a = attempt("dev-1");
        assert_eq!(a.retry("agent-7", &a, "agent-7"), Ok(()));
        let conflict = Err(Refusal::ExperienceIdConflict {
            what: "attempt",
            id: "dev-1".into(),
        });
        assert_eq!(a.retry("agent-7", &a, "other"), conflict);
        let mut changed = a.clone();
        changed.accounting_unit = "usd-cents".into();
        assert_eq!(a.retry("agent-7", &changed, "agent-7"), conflict);
    }

    #[test]
    fn event_fields_name_their_pointer() {
        let ok = event("e1", 1, ExperienceOutcome::Failed);
        assert_eq!(ok.validate("/event"), Ok(()));
        let path = |edit: fn(&mut EventReport)| {
            let mut e = ok.clone();
            edit(&mut e);
            e.validate("/event").unwrap_err().path().unwrap().to_owned()
        };
        assert_eq!(path(|e| e.event_id = String::new()), "/event/event_id");
        assert_eq!(
            path(|e| e.expected_revision = 1 << 53),
            "/event/expected_revision"
        );
        assert_eq!(
            path(|e| {
                e.evidence = Some(ContentRef {
                    reference: "r".into(),
                    sha256: "short".into(),
                });
            }),
            "/event/evidence/sha256"
        );
        assert_eq!(path(|e| e.cost_units = Some(1 << 53)), "/event/cost_units");
        assert_eq!(path(|e| e.latency_ms = Some(u64::MAX)), "/event/latency_ms");
    }

    #[test]
    fn outcomes_spell_as_the_wire_does() {
        for o in ExperienceOutcome::ALL {
            assert_eq!(serde_json::to_value(o).unwrap(), o.as_str());
            assert_eq!(o.is_terminal(), o != ExperienceOutcome::Unknown);
        }
    }
}
