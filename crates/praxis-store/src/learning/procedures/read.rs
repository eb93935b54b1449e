//! Stored procedure rows turned back into values, failing closed.
//!
//! Both engines fetch raw rows and hand them here. Every payload must hash
//! to its stored digest and name the row it sits in, and a head's record
//! must equal the fold of the procedure's accepted evaluations, each of
//! which must carry the decision and the summary the fold gives at that
//! point. A row edited behind the server's back breaks one of these.

use praxis_domain::digest::{Digest, PROCEDURE_EVALUATION_KIND, PROCEDURE_RECEIPT_KIND};
use praxis_domain::learning::{
    AdmissionOutcome, EvaluationSubmitted, Policy, ProcedureRecord, ProcedureState,
    ProposalReceipt, StrategyReceipt, export,
};

use super::rows::{EvaluationRow, HeadRow, ProcedureRow};
use super::{ProcedureLog, ProcedureRows, Selected, StrategyLog};
use crate::error::StoreError;
use crate::learning::read::log_of as experience_log;
use crate::learning::rows::parse_digest;
use crate::learning::{LogRows, Recorded};
use crate::ledger::rows::to_u64;

fn decode<T: serde::de::DeserializeOwned>(what: &str, text: &str) -> Result<T, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::inconsistent(format!("{what}: {e}")))
}

fn mismatch(what: &str) -> StoreError {
    StoreError::inconsistent(format!("{what} does not match its digest"))
}

/// Checks stored canonical bytes against their stored digest under `kind`.
fn check_bytes(what: &str, kind: &str, text: &str, digest_hex: &str) -> Result<(), StoreError> {
    if Digest::of_bytes(kind, text.as_bytes()) == parse_digest(what, digest_hex)? {
        Ok(())
    } else {
        Err(mismatch(what))
    }
}

/// A procedure row's proposal receipt and ledger receipt, verified.
pub(crate) fn proposal_of(row: &ProcedureRow) -> Result<(ProposalReceipt, Recorded), StoreError> {
    let what = format!("procedure {:?}", row.id);
    check_bytes(
        &what,
        PROCEDURE_RECEIPT_KIND,
        &row.proposal,
        &row.proposal_digest,
    )?;
    let receipt: ProposalReceipt = decode(&what, &row.proposal)?;
    let p = &receipt.proposal;
    if p.id != row.id
        || p.policy_id != row.policy_id
        || p.context_id != row.context_id
        || receipt.proposal_digest != p.digest()
    {
        return Err(mismatch(&what));
    }
    Ok((receipt, row.receipt.decode(&what)?))
}

/// A procedure row's strategy receipt, verified against its digest and its
/// procedure's receipt; none for an ordinary proposal.
pub(crate) fn strategy_of(
    row: &ProcedureRow,
    proposal: &ProposalReceipt,
) -> Result<Option<StrategyReceipt>, StoreError> {
    let what = format!("strategy {:?}", row.id);
    let (Some(text), Some(digest_hex)) = (&row.strategy, &row.strategy_digest) else {
        return Ok(None);
    };
    let receipt: StrategyReceipt = decode(&what, text)?;
    let digest = parse_digest(&what, digest_hex)?;
    if receipt.strategy_digest != digest
        || receipt.expected_digest() != digest
        || receipt.proposal != *proposal
        || receipt.request.id != row.id
    {
        return Err(mismatch(&what));
    }
    Ok(Some(receipt))
}

/// An evaluation row as what was submitted, verified.
pub(crate) fn evaluation_of(row: &EvaluationRow) -> Result<EvaluationSubmitted, StoreError> {
    let what = format!("evaluation {:?} of {:?}", row.case_id, row.procedure_id);
    check_bytes(
        &what,
        PROCEDURE_EVALUATION_KIND,
        &row.submitted,
        &row.submitted_digest,
    )?;
    let submitted: EvaluationSubmitted = decode(&what, &row.submitted)?;
    if submitted.procedure_id != row.procedure_id
        || submitted.evaluation.case_id != row.case_id
        || submitted.evaluation.evidence_ref != row.evidence_ref
    {
        return Err(mismatch(&what));
    }
    Ok(submitted)
}

/// Re-runs a procedure's lifecycle over its submissions in order: each
/// accepted one is counted, and each must carry the decision and summary
/// the fold gives right after it.
pub(crate) fn refold(
    policy: &Policy,
    proposal: &ProposalReceipt,
    evaluations: &[EvaluationSubmitted],
) -> Result<ProcedureRecord, StoreError> {
    let id = &proposal.proposal.id;
    let mut record = ProcedureRecord::new(policy, proposal.candidate_index);
    for e in evaluations {
        let decision = if e.receipt.outcome == AdmissionOutcome::Accepted {
            record.count(policy, &e.evaluation)
        } else {
            None
        };
        if decision != e.decision || e.receipt.procedure != record.summary(id) {
            return Err(StoreError::inconsistent(format!(
                "procedure {id:?}: evaluation {:?} does not match the fold of those before it",
                e.evaluation.case_id
            )));
        }
    }
    Ok(record)
}

/// Checks a head row against the record re-folded from the evaluations.
pub(crate) fn check_head(
    head: &HeadRow,
    proposal: &ProposalReceipt,
    record: &ProcedureRecord,
    evaluations: usize,
) -> Result<(), StoreError> {
    let stored: ProcedureRecord = decode(&format!("procedure head {:?}", head.id), &head.record)?;
    if stored != *record
        || head.state != record.state.as_str()
        || head.lower_bound != record.qualified_lower_bound
        || to_u64(head.evaluations)? != evaluations as u64
        || to_u64(head.instruction_bytes)? != proposal.proposal.instructions.len() as u64
        || head.policy_id != proposal.proposal.policy_id
        || head.context_id != proposal.proposal.context_id
    {
        return Err(StoreError::inconsistent(format!(
            "procedure {:?}: its head does not equal the fold of its evaluations",
            head.id
        )));
    }
    Ok(())
}

/// A procedure's rows as a verified log, under its policy.
pub(crate) fn log_of(policy: &Policy, rows: &ProcedureRows) -> Result<ProcedureLog, StoreError> {
    let (row, head, evaluation_rows) = rows;
    let (proposal, recorded) = proposal_of(row)?;
    let evaluations = evaluation_rows
        .iter()
        .map(evaluation_of)
        .collect::<Result<Vec<_>, _>>()?;
    let record = refold(policy, &proposal, &evaluations)?;
    check_head(head, &proposal, &record, evaluations.len())?;
    Ok(ProcedureLog {
        proposal,
        recorded,
        record,
        evaluations,
        withdrawn: head.withdrawn != 0,
    })
}

/// The attempts a strategy row's request binds, in request order; none
/// for an ordinary proposal. Read before verification, only to know which
/// rows to fetch: the receipt is verified with them.
pub(crate) fn bound_attempts(row: &ProcedureRow) -> Result<Vec<String>, StoreError> {
    let Some(text) = &row.strategy else {
        return Ok(Vec::new());
    };
    let receipt: StrategyReceipt = decode(&format!("strategy {:?}", row.id), text)?;
    Ok(receipt
        .request
        .selection
        .events
        .into_iter()
        .map(|o| o.attempt_id)
        .collect())
}

/// A strategy, verified: its procedure's log, its receipt, and the export
/// of its observations recomputed from the attempts' stored rows, which
/// must give the receipt's export digest, summary and procedure. None for
/// an ordinary proposal.
pub(crate) fn strategy_log(
    policy: &Policy,
    rows: &ProcedureRows,
    attempts: &[(String, Option<LogRows>)],
) -> Result<Option<StrategyLog>, StoreError> {
    let procedure = log_of(policy, rows)?;
    let Some(receipt) = strategy_of(&rows.0, &procedure.proposal)? else {
        return Ok(None);
    };
    let what = format!("strategy {:?}", rows.0.id);
    let logs = attempts
        .iter()
        .map(|(id, log)| Ok((id, log.clone().map(experience_log).transpose()?)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    let mut pairs = Vec::new();
    let mut withdrawn = Vec::new();
    for o in &receipt.request.selection.events {
        let log = logs
            .iter()
            .find(|(id, _)| **id == o.attempt_id)
            .and_then(|(_, log)| log.as_ref())
            .ok_or_else(|| {
                StoreError::inconsistent(format!("{what}: a bound attempt is missing"))
            })?;
        let event = log
            .event(&o.event_id)
            .filter(|e| e.event.event_digest == o.event_digest)
            .ok_or_else(|| {
                StoreError::inconsistent(format!(
                    "{what}: observation {}/{} no longer has the digest it was bound to",
                    o.attempt_id, o.event_id
                ))
            })?;
        if log.withdrawal_of(&o.event_id).is_some() {
            withdrawn.push(o.clone());
        }
        pairs.push((&log.experience.attempt, &event.event));
    }
    let exported = export(&pairs).map_err(|e| StoreError::inconsistent(format!("{what}: {e}")))?;
    if exported.export_digest != receipt.export_digest
        || exported.summary != receipt.summary
        || receipt.request.proposal(&pairs) != procedure.proposal.proposal
    {
        return Err(StoreError::inconsistent(format!(
            "{what}: its observations no longer give its export or its procedure"
        )));
    }
    if procedure.withdrawn == withdrawn.is_empty() {
        return Err(StoreError::inconsistent(format!(
            "{what}: its eligibility does not match its observations' withdrawals"
        )));
    }
    Ok(Some(StrategyLog {
        receipt,
        procedure,
        withdrawn,
    }))
}

/// The head selection found and its procedure row, verified.
pub(crate) fn selected_of(
    head: &HeadRow,
    row: Option<&ProcedureRow>,
) -> Result<Selected, StoreError> {
    let what = format!("procedure {:?}", head.id);
    let row = row.ok_or_else(|| StoreError::inconsistent(format!("{what}: its row is missing")))?;
    let (proposal, _) = proposal_of(row)?;
    let lower_bound = head
        .lower_bound
        .ok_or_else(|| StoreError::inconsistent(format!("{what}: qualified without a bound")))?;
    if head.state != ProcedureState::Qualified.as_str()
        || head.withdrawn != 0
        || to_u64(head.instruction_bytes)? != proposal.proposal.instructions.len() as u64
    {
        return Err(StoreError::inconsistent(format!(
            "{what}: its head does not match its receipt"
        )));
    }
    Ok(Selected {
        proposal,
        lower_bound,
    })
}
