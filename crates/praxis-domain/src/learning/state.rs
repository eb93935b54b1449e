//! An experience's state, the rules each reported event must pass, and the
//! fold that rebuilds the state from the stored events.
//!
//! The revision starts at 1 when the attempt is recorded, and each accepted
//! event moves it on by one. An event names the revision it was based on;
//! of several events based on one revision, exactly one is accepted.
//!
//! **What an event digest covers.** The digest of an accepted event (kind
//! `praxis.experience-event.v1`) covers the canonical JSON of the whole
//! [`ReportedEvent`] but the digest itself: the attempt's id and digest,
//! the event as sent, the revision it produced, the previous accepted
//! event's digest, and the observed lower bounds after it. It is chained on
//! purpose. An observation is later frozen by its `event_digest` alone (a
//! strategy names it, an export sums it), and a chained digest pins the
//! whole history that led to it, including every value the export reads,
//! so a client can check a frozen observation without trusting the ledger's
//! envelope digests, which also cover server-only fields (positions, times).
//! Events are never rewritten (withdrawal appends beside them), so the chain
//! costs nothing.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::experience::{Attempt, EventReport, ExperienceOutcome};
use crate::canonical::canonical_bytes;
use crate::digest::{Digest, EXPERIENCE_EVENT_KIND};
use crate::refusal::Refusal;
use crate::revision::check_revision;

/// An experience's current state: the projection a read answers with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperienceState {
    /// The attempt.
    pub attempt_id: String,
    /// The attempt's digest.
    pub attempt_digest: Digest,
    /// 1 when recorded, then one more per accepted event.
    pub revision: u64,
    /// The latest outcome; null before the first event.
    pub outcome: Option<ExperienceOutcome>,
    /// The latest reported cost units; null when the latest report did not
    /// know them.
    pub reported_cost_units: Option<u64>,
    /// The latest reported latency; null when unknown.
    pub reported_latency_ms: Option<u64>,
    /// The greatest cost units ever known: a lower bound of the true total.
    pub observed_cost_units: Option<u64>,
    /// The greatest latency ever known: a lower bound of the true latency.
    pub observed_latency_ms: Option<u64>,
    /// The digest of the latest accepted event; null before the first.
    pub last_event_digest: Option<Digest>,
}

/// An accepted event: the payload of `experience.event_reported`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportedEvent {
    /// The attempt.
    pub attempt_id: String,
    /// The attempt's digest.
    pub attempt_digest: Digest,
    /// The event as sent.
    pub event: EventReport,
    /// The revision this event produced.
    pub revision: u64,
    /// The previous accepted event's digest; null for the first.
    pub previous_event_digest: Option<Digest>,
    /// The greatest cost units known after this event.
    pub observed_cost_units: Option<u64>,
    /// The greatest latency known after this event.
    pub observed_latency_ms: Option<u64>,
    /// Digest of all of the above (see the module documentation).
    pub event_digest: Digest,
}

impl ReportedEvent {
    /// The bytes its digest covers: the canonical JSON of every member but
    /// `event_digest`.
    pub fn body(&self) -> Vec<u8> {
        let mut value = serde_json::to_value(self).expect("events serialize");
        if let Some(map) = value.as_object_mut() {
            map.remove("event_digest");
        }
        canonical_bytes(&value)
    }

    /// The digest its other fields determine.
    pub fn compute_digest(&self) -> Digest {
        Digest::of_bytes(EXPERIENCE_EVENT_KIND, &self.body())
    }

    /// The event whose body is `body`, if those bytes hash to `digest`
    /// and decode to an event: a stored body is checked by one hash, with
    /// no canonical form to rebuild.
    pub fn from_body(body: &[u8], digest: Digest) -> Option<ReportedEvent> {
        if Digest::of_bytes(EXPERIENCE_EVENT_KIND, body) != digest {
            return None;
        }
        let mut value: serde_json::Value = serde_json::from_slice(body).ok()?;
        value
            .as_object_mut()?
            .insert("event_digest".into(), serde_json::to_value(digest).ok()?);
        serde_json::from_value(value).ok()
    }
}

/// What reporting an event does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reported {
    /// The event is a retry of the accepted one stored under its id: answer
    /// with that, and append nothing.
    Replayed,
    /// The event is accepted: append it and store the new state.
    Accepted(Box<Acceptance>),
}

/// An accepted event and the state after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceptance {
    /// The event to append.
    pub event: ReportedEvent,
    /// Its body ([`ReportedEvent::body`]), computed once for its digest.
    pub body: Vec<u8>,
    /// The state after it.
    pub state: ExperienceState,
}

impl ExperienceState {
    /// The state of a freshly recorded attempt.
    pub fn recorded(attempt: &Attempt) -> ExperienceState {
        ExperienceState {
            attempt_id: attempt.id.clone(),
            attempt_digest: attempt.digest(),
            revision: 1,
            outcome: None,
            reported_cost_units: None,
            reported_latency_ms: None,
            observed_cost_units: None,
            observed_latency_ms: None,
            last_event_digest: None,
        }
    }

    /// The state right after `last`, the latest accepted event of the
    /// attempt `attempt_id` with digest `attempt_digest` (`None`: no event
    /// yet). A state is a function of its attempt and latest event alone,
    /// since each event carries the bounds after it, so a writer can check a
    /// stored state with one event instead of a fold. It takes the digest
    /// the caller has already verified rather than re-computing it.
    pub fn after(
        attempt_id: &str,
        attempt_digest: Digest,
        last: Option<&ReportedEvent>,
    ) -> ExperienceState {
        let recorded = ExperienceState {
            attempt_id: attempt_id.to_owned(),
            attempt_digest,
            revision: 1,
            outcome: None,
            reported_cost_units: None,
            reported_latency_ms: None,
            observed_cost_units: None,
            observed_latency_ms: None,
            last_event_digest: None,
        };
        match last {
            None => recorded,
            Some(e) => ExperienceState {
                revision: e.revision,
                outcome: Some(e.event.outcome),
                reported_cost_units: e.event.cost_units,
                reported_latency_ms: e.event.latency_ms,
                observed_cost_units: e.observed_cost_units,
                observed_latency_ms: e.observed_latency_ms,
                last_event_digest: Some(e.event_digest),
                ..recorded
            },
        }
    }

    /// Decides an event reported by `reporter` on the attempt bound to
    /// `bound_reporter`; `prior` is the accepted event stored under the
    /// same event id, if any.
    ///
    /// The rules run in this order: the event's own fields, the reporter,
    /// the event's identity (so a retry is answered even though its
    /// expected revision is now stale), the revision, the outcome, then
    /// consumption.
    pub fn report(
        &self,
        bound_reporter: &str,
        reporter: &str,
        prior: Option<&ReportedEvent>,
        event: &EventReport,
    ) -> Result<Reported, Refusal> {
        event.validate("/event")?;
        if reporter != bound_reporter {
            return Err(Refusal::NotReporter);
        }
        if let Some(prior) = prior {
            return if prior.event == *event {
                Ok(Reported::Replayed)
            } else {
                Err(Refusal::ExperienceIdConflict {
                    what: "event",
                    id: event.event_id.clone(),
                })
            };
        }
        check_revision(Some(event.expected_revision), self.revision)?;
        if let Some(current) = self.outcome.filter(|o| o.is_terminal())
            && current != event.outcome
        {
            return Err(Refusal::TerminalOutcome {
                current: current.as_str(),
                reported: event.outcome.as_str(),
            });
        }
        let observed_cost_units =
            advance("cost_units", self.observed_cost_units, event.cost_units)?;
        let observed_latency_ms =
            advance("latency_ms", self.observed_latency_ms, event.latency_ms)?;
        let mut accepted = ReportedEvent {
            attempt_id: self.attempt_id.clone(),
            attempt_digest: self.attempt_digest,
            event: event.clone(),
            revision: self.revision + 1,
            previous_event_digest: self.last_event_digest,
            observed_cost_units,
            observed_latency_ms,
            event_digest: Digest([0; 32]),
        };
        let body = accepted.body();
        accepted.event_digest = Digest::of_bytes(EXPERIENCE_EVENT_KIND, &body);
        let state = ExperienceState {
            revision: accepted.revision,
            outcome: Some(event.outcome),
            reported_cost_units: event.cost_units,
            reported_latency_ms: event.latency_ms,
            observed_cost_units,
            observed_latency_ms,
            last_event_digest: Some(accepted.event_digest),
            ..self.clone()
        };
        Ok(Reported::Accepted(Box::new(Acceptance {
            event: accepted,
            body,
            state,
        })))
    }
}

/// The new greatest known value of one consumption field. Unknown never
/// lowers what is known; a known value below it is refused.
fn advance(
    field: &'static str,
    observed: Option<u64>,
    reported: Option<u64>,
) -> Result<Option<u64>, Refusal> {
    match (observed, reported) {
        (Some(observed), Some(reported)) if reported < observed => {
            Err(Refusal::ConsumptionDecreased {
                field,
                observed,
                reported,
            })
        }
        // `None` orders below every `Some`.
        _ => Ok(observed.max(reported)),
    }
}

/// Why stored events do not fold into a state.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FoldError {
    /// A stored event would have been refused.
    #[error("event {index} would be refused: {refusal}")]
    Refused {
        /// Its index among the attempt's events.
        index: usize,
        /// Why.
        refusal: Refusal,
    },
    /// A stored event repeats an earlier event's id.
    #[error("event {index} repeats an earlier event id")]
    DuplicateEventId {
        /// Its index among the attempt's events.
        index: usize,
    },
    /// A stored event differs from the one its content produces (revision,
    /// chain, bounds or digest).
    #[error("event {index} differs from the event its content produces")]
    Mismatch {
        /// Its index among the attempt's events.
        index: usize,
    },
}

/// Rebuilds an experience's state from its attempt and its accepted
/// events, in order, checking that each is exactly what accepting its
/// content produces. A reader compares the result with the stored state.
pub fn fold(attempt: &Attempt, events: &[ReportedEvent]) -> Result<ExperienceState, FoldError> {
    let reporter = attempt.reporter_subject.as_str();
    let mut state = ExperienceState::recorded(attempt);
    let mut seen = BTreeSet::new();
    for (index, stored) in events.iter().enumerate() {
        if !seen.insert(stored.event.event_id.as_str()) {
            return Err(FoldError::DuplicateEventId { index });
        }
        match state.report(reporter, reporter, None, &stored.event) {
            Ok(Reported::Accepted(a)) if a.event == *stored => state = a.state,
            Ok(_) => return Err(FoldError::Mismatch { index }),
            Err(refusal) => return Err(FoldError::Refused { index, refusal }),
        }
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learning::experience::tests::{attempt, event};
    use ExperienceOutcome::{Cancelled, Failed, Succeeded, Unknown};
    use proptest::prelude::*;

    const ME: &str = "agent-7";

    fn accept(state: &ExperienceState, e: &EventReport) -> (ReportedEvent, ExperienceState) {
        match state.report(ME, ME, None, e).unwrap() {
            Reported::Accepted(a) => (a.event, a.state),
            Reported::Replayed => panic!("not a retry"),
        }
    }

    #[test]
    fn revisions_start_at_one_and_compare_and_set() {
        let s = ExperienceState::recorded(&attempt("dev-1"));
        assert_eq!((s.revision, s.outcome), (1, None));
        let (e1, s) = accept(&s, &event("e1", 1, Unknown));
        assert_eq!((e1.revision, s.revision), (2, 2));
        assert_eq!(e1.previous_event_digest, None);
        assert_eq!(
            s.report(ME, ME, None, &event("e2", 1, Failed)),
            Err(Refusal::RevisionConflict {
                expected: 1,
                current: 2
            })
        );
        let (e2, s) = accept(&s, &event("e2", 2, Failed));
        assert_eq!(e2.previous_event_digest, Some(e1.event_digest));
        assert_eq!(s.last_event_digest, Some(e2.event_digest));
    }

    #[test]
    fn only_the_bound_reporter_reports() {
        let s = ExperienceState::recorded(&attempt("dev-1"));
        assert_eq!(
            s.report(ME, "intruder", None, &event("e1", 1, Failed)),
            Err(Refusal::NotReporter)
        );
    }

    #[test]
    fn terminal_outcomes_may_only_be_repeated() {
        let s = ExperienceState::recorded(&attempt("dev-1"));
        let (_, s) = accept(&s, &event("e1", 1, Succeeded));
        for other in [Unknown, Failed, Cancelled] {
            assert_eq!(
                s.report(ME, ME, None, &event("e2", 2, other)),
                Err(Refusal::TerminalOutcome {
                    current: "succeeded",
                    reported: other.as_str()
                })
            );
        }
        let mut later = event("e2", 2, Succeeded);
        later.cost_units = Some(40);
        let (_, s) = accept(&s, &later);
        assert_eq!((s.revision, s.reported_cost_units), (3, Some(40)));
    }

    #[test]
    fn consumption_is_unknown_or_never_decreasing() {
        let s = ExperienceState::recorded(&attempt("dev-1"));
        let mut e = event("e1", 1, Unknown);
        e.cost_units = Some(100);
        e.latency_ms = Some(5);
        let (_, s) = accept(&s, &e);
        let mut unknown = event("e2", 2, Unknown);
        unknown.latency_ms = Some(7);
        let (_, s) = accept(&s, &unknown);
        // The latest report did not know the cost; the bound keeps it.
        assert_eq!(s.reported_cost_units, None);
        assert_eq!(s.observed_cost_units, Some(100));
        assert_eq!(s.observed_latency_ms, Some(7));
        let mut lower = event("e3", 3, Failed);
        lower.cost_units = Some(99);
        assert_eq!(
            s.report(ME, ME, None, &lower),
            Err(Refusal::ConsumptionDecreased {
                field: "cost_units",
                observed: 100,
                reported: 99
            })
        );
        lower.cost_units = Some(100);
        lower.latency_ms = Some(6);
        assert_eq!(
            s.report(ME, ME, None, &lower).unwrap_err(),
            Refusal::ConsumptionDecreased {
                field: "latency_ms",
                observed: 7,
                reported: 6
            }
        );
    }

    #[test]
    fn an_event_id_names_one_event() {
        let s = ExperienceState::recorded(&attempt("dev-1"));
        let e = event("e1", 1, Failed);
        let (first, s) = accept(&s, &e);
        assert_eq!(s.report(ME, ME, Some(&first), &e), Ok(Reported::Replayed));
        let mut other = e.clone();
        other.cost_units = Some(1);
        assert_eq!(
            s.report(ME, ME, Some(&first), &other),
            Err(Refusal::ExperienceIdConflict {
                what: "event",
                id: "e1".into()
            })
        );
    }

    #[test]
    fn the_fold_catches_tampering() {
        let a = attempt("dev-1");
        let s = ExperienceState::recorded(&a);
        let (e1, s) = accept(&s, &event("e1", 1, Unknown));
        let (e2, s) = accept(&s, &event("e2", 2, Failed));
        assert_eq!(fold(&a, &[e1.clone(), e2.clone()]), Ok(s));
        let mut forged = e2.clone();
        forged.event.outcome = Succeeded;
        assert_eq!(
            fold(&a, &[e1.clone(), forged]),
            Err(FoldError::Mismatch { index: 1 })
        );
        let mut reordered = e2.clone();
        reordered.event.expected_revision = 1;
        assert!(matches!(
            fold(&a, &[reordered]),
            Err(FoldError::Mismatch { index: 0 })
        ));
        assert!(matches!(
            fold(&a, std::slice::from_ref(&e2)),
            Err(FoldError::Refused { index: 0, .. })
        ));
        let mut again = e1.clone();
        again.event.expected_revision = 2;
        assert_eq!(
            fold(&a, &[e1.clone(), again]),
            Err(FoldError::DuplicateEventId { index: 1 })
        );
        assert_eq!(
            fold(&attempt("dev-2"), &[e1]),
            Err(FoldError::Mismatch { index: 0 })
        );
    }

    fn outcome() -> impl Strategy<Value = ExperienceOutcome> {
        prop::sample::select(ExperienceOutcome::ALL.to_vec())
    }

    /// A report: mostly fresh ids at the current revision, sometimes a
    /// stale revision, a reused id or a wrong reporter.
    #[derive(Clone, Debug)]
    struct Step {
        id: u8,
        stale: bool,
        stranger: bool,
        outcome: ExperienceOutcome,
        cost: Option<u16>,
        latency: Option<u16>,
    }

    fn step() -> impl Strategy<Value = Step> {
        (
            0u8..12,
            prop::bool::weighted(0.1),
            prop::bool::weighted(0.05),
            outcome(),
            prop::option::of(0u16..400),
            prop::option::of(0u16..400),
        )
            .prop_map(|(id, stale, stranger, outcome, cost, latency)| Step {
                id,
                stale,
                stranger,
                outcome,
                cost,
                latency,
            })
    }

    proptest! {
        /// Random event sequences: the revision moves exactly on accepted
        /// events, a terminal outcome never changes, known consumption
        /// never decreases, replaying an accepted event is answered with
        /// it, and the fold of the accepted events is the state built
        /// step by step.
        #[test]
        fn the_state_machine_holds_its_invariants(steps in prop::collection::vec(step(), 0..40)) {
            let a = attempt("dev-1");
            let mut state = ExperienceState::recorded(&a);
            let mut accepted: Vec<ReportedEvent> = Vec::new();
            for s in steps {
                let id = format!("e{}", s.id);
                let prior = accepted.iter().find(|e| e.event.event_id == id);
                let e = EventReport {
                    event_id: id.clone(),
                    expected_revision: if s.stale { state.revision - 1 } else { state.revision },
                    outcome: s.outcome,
                    evidence: None,
                    cost_units: s.cost.map(u64::from),
                    latency_ms: s.latency.map(u64::from),
                };
                let who = if s.stranger { "stranger" } else { ME };
                let before = state.clone();
                match state.report(ME, who, prior, &e) {
                    Ok(Reported::Accepted(a)) => {
                        let Acceptance { event, state: next, .. } = *a;
                        prop_assert!(prior.is_none() && !s.stranger && !s.stale);
                        prop_assert_eq!(next.revision, before.revision + 1);
                        prop_assert_eq!(event.revision, next.revision);
                        if let Some(o) = before.outcome.filter(|o| o.is_terminal()) {
                            prop_assert_eq!(next.outcome, Some(o));
                        }
                        prop_assert!(next.observed_cost_units >= before.observed_cost_units);
                        prop_assert!(next.observed_latency_ms >= before.observed_latency_ms);
                        prop_assert_eq!(next.reported_cost_units, e.cost_units);
                        prop_assert_eq!(event.event_digest, event.compute_digest());
                        prop_assert_eq!(
                            ReportedEvent::from_body(&event.body(), event.event_digest),
                            Some(event.clone())
                        );
                        // A retry of what was just accepted is answered with it.
                        prop_assert_eq!(next.report(ME, ME, Some(&event), &e), Ok(Reported::Replayed));
                        accepted.push(event);
                        state = next;
                    }
                    Ok(Reported::Replayed) => {
                        prop_assert_eq!(&prior.unwrap().event, &e);
                    }
                    Err(refusal) => {
                        match refusal {
                            Refusal::NotReporter => prop_assert!(s.stranger),
                            Refusal::ExperienceIdConflict { .. } => prop_assert!(prior.is_some()),
                            Refusal::RevisionConflict { current, .. } => {
                                prop_assert!(s.stale);
                                prop_assert_eq!(current, state.revision);
                            }
                            Refusal::TerminalOutcome { .. } => {
                                prop_assert!(before.outcome.is_some_and(|o| o.is_terminal() && o != s.outcome));
                            }
                            Refusal::ConsumptionDecreased { .. } => {}
                            other => prop_assert!(false, "unexpected {other:?}"),
                        }
                    }
                }
                prop_assert_eq!(state.revision, 1 + accepted.len() as u64);
            }
            prop_assert_eq!(&ExperienceState::after(&a.id, a.digest(), accepted.last()), &state);
            prop_assert_eq!(ExperienceState::after(&a.id, a.digest(), None), ExperienceState::recorded(&a));
            prop_assert_eq!(fold(&a, &accepted), Ok(state));
        }
    }
}
