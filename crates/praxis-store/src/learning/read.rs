//! Stored experience rows turned back into values, failing closed.
//!
//! Both engines fetch raw rows and hand them here, so the checks are
//! written once: every payload must hash to its stored digest and name the
//! row it sits in, and an attempt's stored state must equal the fold of its
//! stored events. A row edited behind the server's back (an outcome, a
//! cost, a revision) breaks one of these and the read answers
//! [`StoreError::Inconsistent`].

use praxis_domain::digest::{Digest, EXPERIENCE_ATTEMPT_KIND};
use praxis_domain::learning::{Attempt, ExperienceState, ReportedEvent, Withdrawal, fold};

use super::rows::{AttemptRow, EventRow, WithdrawalRow, parse_digest};
use super::{Experience, ExperienceLog, LogRows, StoredEvent, StoredWithdrawal};
use crate::error::StoreError;
use crate::ledger::rows::to_u64;

fn decode<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::inconsistent(format!("{what}: {e}")))
}

fn mismatch(what: &str) -> StoreError {
    StoreError::inconsistent(format!("{what} does not match its digest"))
}

/// An attempt row as an experience: the attempt hashes to its digest, the
/// state is bound to it, and the depth fits the parent.
pub(crate) fn experience_of(row: &AttemptRow) -> Result<Experience, StoreError> {
    let what = format!("experience attempt {:?}", row.id);
    let digest = parse_digest(&what, &row.attempt_digest)?;
    // The stored text is the canonical form the digest was computed from,
    // so one hash checks it.
    if Digest::of_bytes(EXPERIENCE_ATTEMPT_KIND, row.attempt.as_bytes()) != digest {
        return Err(mismatch(&what));
    }
    let attempt: Attempt = decode(&what, &row.attempt)?;
    let state: ExperienceState = decode(&what, &row.state)?;
    if attempt.id != row.id
        || state.attempt_id != row.id
        || state.attempt_digest != digest
        || state.revision != to_u64(row.revision)?
    {
        return Err(mismatch(&what));
    }
    let depth = to_u64(row.depth)?;
    if depth == 0 || (depth == 1) != attempt.parent.is_none() {
        return Err(StoreError::inconsistent(format!(
            "{what}: depth {depth} does not fit its parent"
        )));
    }
    Ok(Experience {
        attempt,
        state,
        depth,
        recorded: row.receipt.decode(&what)?,
    })
}

/// An event row as a stored event: the event hashes to its digest and
/// names its row's attempt, id and revision.
pub(crate) fn event_of(row: &EventRow) -> Result<StoredEvent, StoreError> {
    let what = format!("experience event {:?}/{:?}", row.attempt_id, row.event_id);
    let digest = parse_digest(&what, &row.event_digest)?;
    // The stored text is the event's body, the exact bytes its digest
    // covers, so one hash checks it.
    let event =
        ReportedEvent::from_body(row.event.as_bytes(), digest).ok_or_else(|| mismatch(&what))?;
    if event.attempt_id != row.attempt_id
        || event.event.event_id != row.event_id
        || event.revision != to_u64(row.revision)?
    {
        return Err(mismatch(&what));
    }
    Ok(StoredEvent {
        event,
        recorded: row.receipt.decode(&what)?,
    })
}

/// A withdrawal row as a stored withdrawal: it hashes to its digest and
/// names its row's key and observation.
pub(crate) fn withdrawal_of(row: &WithdrawalRow) -> Result<StoredWithdrawal, StoreError> {
    let what = format!("experience withdrawal {:?}", row.key);
    let digest = parse_digest(&what, &row.withdrawal_digest)?;
    let withdrawal: Withdrawal = decode(&what, &row.withdrawal)?;
    if withdrawal.digest() != digest
        || withdrawal.idempotency_key != row.key
        || withdrawal.observation.attempt_id != row.attempt_id
        || withdrawal.observation.event_id != row.event_id
    {
        return Err(mismatch(&what));
    }
    Ok(StoredWithdrawal {
        withdrawal,
        digest,
        recorded: row.receipt.decode(&what)?,
    })
}

/// The state after an attempt's first events, re-folded: what an event's
/// original answer carried.
pub(crate) fn state_after(
    attempt: &Attempt,
    events: &[ReportedEvent],
) -> Result<ExperienceState, StoreError> {
    fold(attempt, events).map_err(|e| {
        StoreError::inconsistent(format!(
            "experience attempt {:?}: its events do not fold: {e}",
            attempt.id
        ))
    })
}

/// Everything stored about an attempt, verified: each row decodes, the
/// stored state is the fold of the events (in revision order), and every
/// withdrawal names one of the events by its current digest, once.
pub(crate) fn log_of((attempt, events, withdrawals): LogRows) -> Result<ExperienceLog, StoreError> {
    let experience = experience_of(&attempt)?;
    let events = events.iter().map(event_of).collect::<Result<Vec<_>, _>>()?;
    let reported: Vec<ReportedEvent> = events.iter().map(|e| e.event.clone()).collect();
    if state_after(&experience.attempt, &reported)? != experience.state {
        return Err(StoreError::inconsistent(format!(
            "experience attempt {:?}: the stored state is not the fold of its events",
            attempt.id
        )));
    }
    if attempt.last_event_id.as_deref() != events.last().map(|e| e.event.event.event_id.as_str()) {
        return Err(StoreError::inconsistent(format!(
            "experience attempt {:?}: its latest event id is not its last event's",
            attempt.id
        )));
    }
    let withdrawals = withdrawals
        .iter()
        .map(withdrawal_of)
        .collect::<Result<Vec<_>, _>>()?;
    for (i, w) in withdrawals.iter().enumerate() {
        let o = &w.withdrawal.observation;
        let names_an_event = events.iter().any(|e| {
            e.event.event.event_id == o.event_id && e.event.event_digest == o.event_digest
        });
        let repeated = withdrawals[..i]
            .iter()
            .any(|p| p.withdrawal.observation.event_id == o.event_id);
        if o.attempt_id != attempt.id || !names_an_event || repeated {
            return Err(StoreError::inconsistent(format!(
                "experience withdrawal {:?} does not name one stored event",
                w.withdrawal.idempotency_key
            )));
        }
    }
    Ok(ExperienceLog {
        experience,
        events,
        withdrawals,
    })
}
