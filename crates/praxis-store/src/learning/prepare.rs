//! Deciding an event report from stored rows, on the writer or ahead of it.
//!
//! A report reads the attempt's row and two event rows, re-verifies their
//! digests, re-folds the state, lets the domain decide and canonicalizes
//! the new event. Done on the single writer, that was about half of its
//! time per report. So the engine does it first on the caller's task and
//! hands the writer a [`PreparedReport`]: the writer only moves the state
//! on with a compare-and-set on the attempt's row, then appends.
//!
//! The decision is made on the attempt's [`Head`]: the attempt, its state
//! and latest event, verified. The engine takes it from the [`Heads`] it
//! remembers from its own committed reports, or else reads it from the
//! store outside the writer's transaction.
//!
//! Why the compare-and-set is enough: the writer moves the state on only if
//! the rows still hold the revision, latest event id, attempt and state
//! text, and latest event body and digest, the decision was made on. An attempt row never changes but in its
//! state, revision and latest event id, and every accepted event moves the
//! revision on, so nothing the decision read has changed (and a row altered
//! behind the server's back no longer matches: the report is decided again
//! in the writer, which reads and verifies it, and fails closed). The one thing a remembered
//! head does not know is whether an older event holds the reported id: if
//! one does, inserting the event row fails on its primary key.
//!
//! A prepared write that fails in the writer for any reason (the row moved
//! on: a [`crate::error::BackendKind::Stale`] fault; the event id taken; or
//! anything else) is rolled back and applied again unprepared, inside the
//! writer's transaction, where it gets the authoritative answer (a revision
//! conflict, the original answer to an identical retry, or the error).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use praxis_domain::auth::Namespace;
use praxis_domain::learning::{
    EVENT_REPORTED, EventReport, ExperienceState, Reported, ReportedEvent, experience_stream,
};
use praxis_domain::ledger::NewEvent;

use super::experiences::state_text;
use super::read::{event_of, experience_of};
use super::rows::{AttemptRow, EventRow};
use super::{Experience, StoredEvent};
use crate::error::{Missing, StoreError};
use crate::ledger::payload;

/// The attempt row a report is decided on, as stored: the writer moves the
/// state on only while the row still holds exactly these.
#[derive(Clone, Debug)]
pub(crate) struct ReportBase {
    /// The revision.
    pub(crate) revision: u64,
    /// The latest event's id.
    pub(crate) last_event_id: Option<String>,
    /// The attempt column (its canonical JSON).
    pub(crate) attempt: Arc<str>,
    /// The state column.
    pub(crate) state: String,
    /// The latest event's row, as stored: its body and digest columns.
    pub(crate) last_event: Option<(String, String)>,
}

/// An attempt as a report sees it, verified: the attempt and its state,
/// its latest event, and the row they were read from.
#[derive(Clone, Debug)]
pub(crate) struct Head {
    /// The attempt and its current state.
    pub(crate) experience: Experience,
    /// Its latest event.
    pub(crate) last: Option<ReportedEvent>,
    /// The row, as stored.
    pub(crate) base: ReportBase,
}

/// An accepted report, ready to be written.
#[derive(Clone, Debug)]
pub(crate) struct PreparedReport {
    /// The row the decision was based on.
    pub(crate) base: ReportBase,
    /// The attempt as recorded (its state is the one before the event).
    pub(crate) experience: Experience,
    /// The accepted event.
    pub(crate) event: ReportedEvent,
    /// The event's body, as its row keeps it.
    pub(crate) body: Vec<u8>,
    /// The state after the event.
    pub(crate) state: ExperienceState,
    /// That state as stored.
    pub(crate) state_text: String,
    /// The ledger event, canonicalized and digested.
    pub(crate) new_event: NewEvent,
}

impl PreparedReport {
    /// The attempt as it stands once this report is committed.
    pub(crate) fn next_head(&self) -> Head {
        let body = String::from_utf8_lossy(&self.body).into_owned();
        Head {
            experience: Experience {
                state: self.state.clone(),
                ..self.experience.clone()
            },
            last: Some(self.event.clone()),
            base: ReportBase {
                revision: self.state.revision,
                last_event_id: Some(self.event.event.event_id.clone()),
                attempt: self.base.attempt.clone(),
                state: self.state_text.clone(),
                last_event: Some((body, self.event.event_digest.to_hex())),
            },
        }
    }
}

/// What the stored rows decide about a report.
pub(crate) enum Decision {
    /// The identical event is stored: answer with it.
    Replayed {
        /// The attempt, with its current state.
        experience: Box<Experience>,
        /// The stored event.
        prior: Box<StoredEvent>,
    },
    /// The event is accepted.
    Accepted(Box<PreparedReport>),
}

/// Verifies the rows [`super::LearningTx::report_rows`] returns for a report
/// of `event_id`: the attempt's head, and the event stored under
/// `event_id`, if any.
pub(crate) fn head_of(
    attempt_id: &str,
    row: Option<AttemptRow>,
    events: Vec<EventRow>,
    event_id: &str,
) -> Result<(Head, Option<StoredEvent>), StoreError> {
    let row = row.ok_or(StoreError::NotFound(Missing::Experience))?;
    let experience = experience_of(&row)?;
    let mut prior = None;
    let mut last = None;
    let mut last_event = None;
    for r in events {
        let stored = event_of(&r)?;
        if stored.event.revision == experience.state.revision {
            last = Some(stored.event.clone());
            last_event = Some((r.event.clone(), r.event_digest.clone()));
        }
        if stored.event.event.event_id == event_id {
            prior = Some(stored);
        }
    }
    // The stored state decides the new event, so it is checked first: it
    // must be the state right after the attempt's latest event.
    // `experience_of` checked the attempt against its digest already.
    let expected =
        ExperienceState::after(attempt_id, experience.state.attempt_digest, last.as_ref());
    if expected != experience.state {
        return Err(StoreError::inconsistent(format!(
            "experience attempt {attempt_id:?}: the stored state is not the one after its latest event"
        )));
    }
    let base = ReportBase {
        revision: experience.state.revision,
        last_event_id: row.last_event_id,
        attempt: row.attempt.into(),
        state: row.state,
        last_event,
    };
    Ok((
        Head {
            experience,
            last,
            base,
        },
        prior,
    ))
}

/// Decides a report by `reporter` on an attempt's verified head, given the
/// event stored under the report's id (if known to be none, `None`).
pub(crate) fn decide(
    namespace: &Namespace,
    reporter: &str,
    head: Head,
    prior: Option<StoredEvent>,
    event: &EventReport,
) -> Result<Decision, StoreError> {
    let Head {
        experience, base, ..
    } = head;
    let bound = experience.attempt.reporter_subject.as_str();
    match experience
        .state
        .report(bound, reporter, prior.as_ref().map(|p| &p.event), event)?
    {
        Reported::Replayed => Ok(Decision::Replayed {
            prior: Box::new(
                prior.ok_or_else(|| StoreError::inconsistent("a replay without a prior"))?,
            ),
            experience: Box::new(experience),
        }),
        Reported::Accepted(acceptance) => {
            let acceptance = *acceptance;
            let new_event = NewEvent::new(
                namespace.clone(),
                experience_stream(&experience.attempt.id),
                EVENT_REPORTED,
                payload(&acceptance.event)?,
            );
            Ok(Decision::Accepted(Box::new(PreparedReport {
                base,
                state_text: state_text(&acceptance.state)?,
                experience,
                event: acceptance.event,
                body: acceptance.body,
                state: acceptance.state,
                new_event,
            })))
        }
    }
}

/// Most attempts whose heads an engine remembers; past it, it forgets all
/// of them at once (a forgotten head costs one read, never correctness).
const MAX_HEADS: usize = 4096;

/// The heads of attempts as this engine's last reports on them committed,
/// so that the next report on one is decided without reading it. A head
/// here may be out of date (another server, or a report decided in the
/// writer): the writer's compare-and-set then fails and the report is
/// decided again, in the writer, from the stored rows.
#[derive(Default)]
pub(crate) struct Heads(Mutex<HashMap<HeadKey, Head>>);

/// (tenant, namespace, attempt id).
type HeadKey = (String, String, String);

impl Heads {
    fn key(tenant: &str, namespace: &str, attempt_id: &str) -> HeadKey {
        (tenant.into(), namespace.into(), attempt_id.into())
    }

    /// The remembered head of an attempt.
    pub(crate) fn get(&self, tenant: &str, namespace: &str, attempt_id: &str) -> Option<Head> {
        let heads = self.0.lock().expect("heads lock");
        heads
            .get(&Self::key(tenant, namespace, attempt_id))
            .cloned()
    }

    /// Remembers a committed head.
    pub(crate) fn put(&self, tenant: &str, namespace: &str, head: Head) {
        let key = Self::key(tenant, namespace, &head.experience.attempt.id);
        let mut heads = self.0.lock().expect("heads lock");
        if heads.len() >= MAX_HEADS && !heads.contains_key(&key) {
            heads.clear();
        }
        heads.insert(key, head);
    }

    /// Forgets an attempt's head.
    pub(crate) fn forget(&self, tenant: &str, namespace: &str, attempt_id: &str) {
        let mut heads = self.0.lock().expect("heads lock");
        heads.remove(&Self::key(tenant, namespace, attempt_id));
    }
}

/// The rows a report reads, read by an engine outside its writer, and the
/// heads it remembers.
pub(crate) trait ReportSnapshot {
    /// The heads this engine remembers.
    fn heads(&self) -> &Heads;
    /// The attempt's row, and the event rows under `event_id` and of the
    /// attempt's latest event, as [`super::LearningTx::report_rows`] reads
    /// them.
    async fn report_snapshot(
        &self,
        tenant: &str,
        namespace: &str,
        attempt_id: &str,
        event_id: &str,
    ) -> Result<(Option<AttemptRow>, Vec<EventRow>), StoreError>;
}
