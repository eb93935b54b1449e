//! Writing development experiences: recording an attempt, reporting an
//! event and withdrawing an observation.
//!
//! Each runs inside the write's transaction after the tenant is locked, so
//! its reads (the registry, the attempt's state, a prior event, earlier
//! withdrawals) and its appends are decided one write after the other: of
//! several events based on one revision, the first to run moves the
//! revision on and the others see the new one and are refused.

use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::{Digest, EXPERIENCE_ATTEMPT_KIND};
use praxis_domain::learning::{
    AttemptRequest, Context, EventReport, ExperienceState, MAX_LINEAGE, RECORDED, WITHDRAWN,
    Withdrawal, Withdrawing, experience_stream,
};
use praxis_domain::ledger::NewEvent;

use super::prepare::{Decision, PreparedReport, decide, head_of};
use super::procedures::ProcedureTx;
use super::read::{event_of, experience_of, state_after, withdrawal_of};
use super::registry::Registrable;
use super::rows::{AttemptRow, EventRow, ReceiptCols, WithdrawalRow, canonical_text};
use super::{
    Experience, LearningTx, LearningWrite, Recorded, StateMove, StoredEvent, StoredWithdrawal,
};
use crate::error::{Missing, StoreError};
use crate::ledger::rows::to_i64;
use crate::ledger::{Ctx, LedgerTx, payload};

/// Records an attempt: binds its context's digest and its parent's event
/// digest, then appends it, unless the identical attempt was recorded by
/// the same subject (answered with the stored one).
pub(crate) async fn record<T: LedgerTx + LearningTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    request: AttemptRequest,
) -> Result<LearningWrite, StoreError> {
    request.validate("/experience")?;
    let ns = namespace.as_str();
    let context = tx
        .registry_row(ctx.tenant, Context::KIND, &request.context_id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Context))?
        .into_entry::<Context>()?;
    let (parent_digest, depth) = match &request.parent {
        None => (None, 1),
        Some(p) => {
            let event = tx
                .event_row(ctx.tenant, ns, &p.attempt_id, &p.event_id)
                .await?
                .ok_or(StoreError::NotFound(Missing::Parent))?;
            let event = event_of(&event)?;
            let parent = tx
                .attempt_row(ctx.tenant, ns, &p.attempt_id)
                .await?
                .ok_or_else(|| StoreError::inconsistent("an event's attempt is missing"))?;
            let depth = experience_of(&parent)?.depth + 1;
            if depth > MAX_LINEAGE as u64 {
                return Err(Refusal::LineageTooDeep { max: MAX_LINEAGE }.into());
            }
            (Some(event.event.event_digest), depth)
        }
    };
    let by = ctx_subject(ctx);
    let attempt = request.bind(context.digest, parent_digest)?;
    if let Some(row) = tx.attempt_row(ctx.tenant, ns, &attempt.id).await? {
        let stored = experience_of(&row)?;
        stored
            .attempt
            .retry(&stored.recorded.actor.subject, &attempt, &by)?;
        // The original answer: the attempt as it was recorded, at revision 1.
        let original = Experience {
            state: ExperienceState::recorded(&stored.attempt),
            ..stored
        };
        return Ok(LearningWrite::Recorded {
            experience: Box::new(original),
            new: false,
        });
    }
    let new = NewEvent::new(
        namespace.clone(),
        experience_stream(&attempt.id),
        RECORDED,
        payload(&attempt)?,
    );
    let recorded = Recorded::of(ctx.append(tx, new).await?);
    let experience = Experience {
        state: ExperienceState::recorded(&attempt),
        attempt,
        depth,
        recorded,
    };
    tx.insert_attempt_row(ctx.tenant, &attempt_row(ns, &experience, None)?)
        .await?;
    Ok(LearningWrite::Recorded {
        experience: Box::new(experience),
        new: true,
    })
}

/// The subject the write acts for.
fn ctx_subject(ctx: &Ctx<'_>) -> String {
    ctx.actor.subject.clone()
}

/// The row of an experience whose latest event is `last_event_id`.
pub(crate) fn attempt_row(
    namespace: &str,
    e: &Experience,
    last_event_id: Option<&str>,
) -> Result<AttemptRow, StoreError> {
    let attempt = canonical_text(&e.attempt)?;
    Ok(AttemptRow {
        namespace: namespace.to_owned(),
        id: e.attempt.id.clone(),
        attempt_digest: Digest::of_bytes(EXPERIENCE_ATTEMPT_KIND, attempt.as_bytes()).to_hex(),
        attempt,
        depth: to_i64(e.depth),
        revision: to_i64(e.state.revision),
        state: state_text(&e.state)?,
        last_event_id: last_event_id.map(str::to_owned),
        receipt: ReceiptCols::of(&e.recorded),
    })
}

/// A state as stored: plain JSON, since no digest covers it (a reader
/// re-folds it from the events instead).
pub(crate) fn state_text(state: &ExperienceState) -> Result<String, StoreError> {
    serde_json::to_string(state).map_err(|e| StoreError::inconsistent(format!("state: {e}")))
}

/// The row of an event whose body
/// ([`praxis_domain::learning::ReportedEvent::body`]) is `body`.
pub(crate) fn event_row(
    namespace: &str,
    e: &StoredEvent,
    body: Vec<u8>,
) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        namespace: namespace.to_owned(),
        attempt_id: e.event.attempt_id.clone(),
        event_id: e.event.event.event_id.clone(),
        revision: to_i64(e.event.revision),
        event: String::from_utf8(body)
            .map_err(|e| StoreError::inconsistent(format!("event body: {e}")))?,
        event_digest: e.event.event_digest.to_hex(),
        receipt: ReceiptCols::of(&e.recorded),
    })
}

/// The row of a withdrawal.
pub(crate) fn withdrawal_row(
    namespace: &str,
    w: &StoredWithdrawal,
) -> Result<WithdrawalRow, StoreError> {
    let o = &w.withdrawal.observation;
    Ok(WithdrawalRow {
        namespace: namespace.to_owned(),
        key: w.withdrawal.idempotency_key.clone(),
        attempt_id: o.attempt_id.clone(),
        event_id: o.event_id.clone(),
        withdrawal: canonical_text(&w.withdrawal)?,
        withdrawal_digest: w.digest.to_hex(),
        receipt: ReceiptCols::of(&w.recorded),
    })
}

/// Reports an event on an attempt: compare-and-set on its revision, by its
/// bound reporter only. A retry of an accepted event (same id and content)
/// is answered with the original answer: the event and the experience as
/// it stood right after it.
///
/// `prepared` is the decision made ahead of the writer
/// ([`super::prepare`]); without it the rows are read and the report
/// decided here.
pub(crate) async fn report<T: LedgerTx + LearningTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    attempt_id: &str,
    event: EventReport,
    prepared: Option<Box<PreparedReport>>,
) -> Result<LearningWrite, StoreError> {
    if let Some(prepared) = prepared {
        return accept(tx, ctx, namespace.as_str(), *prepared).await;
    }
    let ns = namespace.as_str();
    let (row, events) = tx
        .report_rows(ctx.tenant, ns, attempt_id, &event.event_id)
        .await?;
    let (head, prior) = head_of(attempt_id, row, events, &event.event_id)?;
    let reporter = ctx_subject(ctx);
    match decide(namespace, &reporter, head, prior, &event)? {
        Decision::Replayed { experience, prior } => {
            let earlier = tx
                .event_rows_until(ctx.tenant, ns, attempt_id, prior.event.revision)
                .await?
                .iter()
                .map(|r| event_of(r).map(|e| e.event))
                .collect::<Result<Vec<_>, _>>()?;
            let state = state_after(&experience.attempt, &earlier)?;
            Ok(LearningWrite::Reported {
                event: prior,
                experience: Box::new(Experience {
                    state,
                    ..*experience
                }),
                new: false,
            })
        }
        Decision::Accepted(prepared) => accept(tx, ctx, ns, *prepared).await,
    }
}

/// Writes an accepted report: the state moves on only if the attempt's row
/// is still the one the report was decided on (else the write fails as
/// stale), then the event and its row are appended.
async fn accept<T: LedgerTx + LearningTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    ns: &str,
    p: PreparedReport,
) -> Result<LearningWrite, StoreError> {
    let attempt_id = p.event.attempt_id.clone();
    tx.advance_state(
        ctx.tenant,
        ns,
        &attempt_id,
        StateMove {
            state: &p.state_text,
            revision: p.state.revision,
            last_event_id: &p.event.event.event_id,
            base: &p.base,
        },
    )
    .await?;
    let recorded = Recorded::of(ctx.append(tx, p.new_event).await?);
    let stored = StoredEvent {
        event: p.event,
        recorded,
    };
    tx.insert_event_row(ctx.tenant, &event_row(ns, &stored, p.body)?)
        .await?;
    Ok(LearningWrite::Reported {
        event: Box::new(stored),
        experience: Box::new(Experience {
            state: p.state,
            ..p.experience
        }),
        new: true,
    })
}

/// Withdraws an observation for good, unless the identical withdrawal is
/// stored under the key (answered with its receipt). Nothing is erased:
/// the withdrawal is appended to the attempt's stream beside the event.
///
/// Every strategy bound to the observation is made ineligible for
/// selection here, in this same transaction.
pub(crate) async fn withdraw<T: LedgerTx + LearningTx + ProcedureTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    withdrawal: Withdrawal,
) -> Result<LearningWrite, StoreError> {
    withdrawal.validate()?;
    let ns = namespace.as_str();
    let o = &withdrawal.observation;
    let (under_key, of_observation) = tx
        .withdrawal_rows(
            ctx.tenant,
            ns,
            &withdrawal.idempotency_key,
            &o.attempt_id,
            &o.event_id,
        )
        .await?;
    let under_key = under_key.map(|r| withdrawal_of(&r)).transpose()?;
    let of_observation = of_observation.map(|r| withdrawal_of(&r)).transpose()?;
    match withdrawal.decide(
        under_key.as_ref().map(|w| &w.withdrawal),
        of_observation.as_ref().map(|w| &w.withdrawal),
    )? {
        Withdrawing::Replayed => {
            let stored =
                under_key.ok_or_else(|| StoreError::inconsistent("a replay without a prior"))?;
            // A key answers its own subject's retries only, as an attempt
            // id does.
            if stored.recorded.actor.subject != ctx.actor.subject {
                return Err(Refusal::ExperienceIdConflict {
                    what: "withdrawal",
                    id: stored.withdrawal.idempotency_key.clone(),
                }
                .into());
            }
            return Ok(LearningWrite::Withdrawn {
                withdrawal: Box::new(stored),
                new: false,
            });
        }
        Withdrawing::New => {}
    }
    let event = tx
        .event_row(ctx.tenant, ns, &o.attempt_id, &o.event_id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Observation))?;
    withdrawal.bind(&event_of(&event)?.event)?;
    let new = NewEvent::new(
        namespace.clone(),
        experience_stream(&o.attempt_id),
        WITHDRAWN,
        payload(&withdrawal)?,
    );
    let recorded = Recorded::of(ctx.append(tx, new).await?);
    // Every strategy bound to the observation leaves selection in this
    // same transaction.
    tx.mark_withdrawn(ctx.tenant, ns, &o.attempt_id, &o.event_id)
        .await?;
    let stored = StoredWithdrawal {
        digest: withdrawal.digest(),
        withdrawal,
        recorded,
    };
    tx.insert_withdrawal_row(ctx.tenant, &withdrawal_row(ns, &stored)?)
        .await?;
    Ok(LearningWrite::Withdrawn {
        withdrawal: Box::new(stored),
        new: true,
    })
}
