//! Writing procedures: an ordinary proposal, a strategy bound to exact
//! observations, and an evaluation.
//!
//! Each runs inside the write's transaction after the tenant is locked, so
//! its reads (the registry, the procedure, earlier evaluations) and its
//! writes are decided one write after the other: of several identical
//! evaluations submitted at once, the first counts and the others find it
//! and are answered with its receipt.

use praxis_domain::auth::Namespace;
use praxis_domain::digest::{Digest, PROCEDURE_EVALUATION_KIND, PROCEDURE_RECEIPT_KIND};
use praxis_domain::learning::{
    AdmissionOutcome, Context, EVALUATION_SUBMITTED, Evaluation, EvaluationReceipt,
    EvaluationSubmitted, Export, ObservationRef, Origin, PROCEDURE_PROPOSED, Policy,
    ProcedureRecord, ProcedureState, Proposal, ProposalReceipt, ProposalRequest, Resolved,
    STRATEGY_CREATED, Standing, StrategyReceipt, StrategyRequest, admit, export, procedure_stream,
};
use praxis_domain::ledger::NewEvent;
use praxis_domain::{DomainError, Refusal};

use super::ProcedureTx;
use super::read::{evaluation_of, proposal_of, strategy_of};
use super::rows::{EvaluationRow, HeadRow, ProcedureRow};
use crate::error::{Missing, StoreError};
use crate::learning::read::{event_of, experience_of, withdrawal_of};
use crate::learning::registry::Registrable;
use crate::learning::rows::{ReceiptCols, canonical_text};
use crate::learning::{Entry, LearningTx, LearningWrite, Recorded};
use crate::ledger::rows::to_i64;
use crate::ledger::{Ctx, LedgerTx, payload};

/// The entry registered under `id`; a request that names none is refused
/// at `pointer`.
async fn registered<R: Registrable, T: LearningTx>(
    tx: &mut T,
    tenant: &str,
    id: &str,
    pointer: &'static str,
) -> Result<Entry<R>, StoreError> {
    tx.registry_row(tenant, R::KIND, id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Registered {
            what: R::KIND,
            pointer,
        }))?
        .into_entry::<R>()
}

/// Registers an ordinary proposal, unless the identical one is registered
/// under its id (answered with the stored receipt).
pub(crate) async fn propose<T: LedgerTx + LearningTx + ProcedureTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    request: ProposalRequest,
) -> Result<LearningWrite, StoreError> {
    request.validate("/proposal")?;
    let ns = namespace.as_str();
    let policy =
        registered::<Policy, _>(tx, ctx.tenant, &request.policy_id, "/proposal/policy_id").await?;
    registered::<Context, _>(tx, ctx.tenant, &request.context_id, "/proposal/context_id").await?;
    let proposal = request.into_proposal();
    if let Some(row) = tx.procedure_row(ctx.tenant, ns, &proposal.id).await? {
        let (stored, _) = proposal_of(&row)?;
        if stored.proposal == proposal {
            return Ok(LearningWrite::Proposed {
                receipt: Box::new(stored),
                new: false,
            });
        }
        return Err(Refusal::ExperienceIdConflict {
            what: "procedure",
            id: proposal.id,
        }
        .into());
    }
    if let Some(old) = &proposal.supersedes {
        let head = tx.head_row(ctx.tenant, ns, old).await?.ok_or_else(|| {
            DomainError::invalid("/proposal/supersedes", "names no procedure in this scope")
        })?;
        if head.state != ProcedureState::Rejected.as_str()
            && head.state != ProcedureState::Suspended.as_str()
        {
            return Err(Refusal::InvalidTransition(format!(
                "procedure {old:?} is {}: only a rejected or suspended procedure can be superseded",
                head.state
            ))
            .into());
        }
    }
    let (receipt, _) = register(tx, ctx, namespace, proposal, &policy.payload, None).await?;
    Ok(LearningWrite::Proposed {
        receipt: Box::new(receipt),
        new: true,
    })
}

/// Creates a strategy: binds every named observation to its stored event,
/// exports them, and registers the candidate procedure, all in this
/// transaction; nothing is written if any observation is refused.
pub(crate) async fn create_strategy<T: LedgerTx + LearningTx + ProcedureTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    request: StrategyRequest,
) -> Result<LearningWrite, StoreError> {
    request.validate("/strategy")?;
    let ns = namespace.as_str();
    let policy =
        registered::<Policy, _>(tx, ctx.tenant, &request.policy_id, "/strategy/policy_id").await?;
    let context =
        registered::<Context, _>(tx, ctx.tenant, &request.context_id, "/strategy/context_id")
            .await?;
    if let Some(row) = tx.procedure_row(ctx.tenant, ns, &request.id).await? {
        let (proposal, _) = proposal_of(&row)?;
        return match strategy_of(&row, &proposal)? {
            Some(stored) if stored.request == request => Ok(LearningWrite::StrategyCreated {
                receipt: Box::new(stored),
                new: false,
            }),
            Some(_) => Err(Refusal::ExperienceIdConflict {
                what: "strategy",
                id: request.id,
            }
            .into()),
            None => Err(Refusal::ExperienceIdConflict {
                what: "procedure",
                id: request.id,
            }
            .into()),
        };
    }
    if context.digest != request.selection.context_digest {
        return Err(DomainError::invalid(
            "/strategy/selection/context_digest",
            "is not the digest of the registered context",
        )
        .into());
    }
    let mut found = Vec::with_capacity(request.selection.events.len());
    for o in &request.selection.events {
        let attempt = match tx.attempt_row(ctx.tenant, ns, &o.attempt_id).await? {
            Some(row) => Some(experience_of(&row)?.attempt),
            None => None,
        };
        let event = match tx
            .event_row(ctx.tenant, ns, &o.attempt_id, &o.event_id)
            .await?
        {
            Some(row) => Some(event_of(&row)?.event),
            None => None,
        };
        // No idempotency key is empty (keys are non-blank), so only the
        // observation's own withdrawal can be found.
        let (_, withdrawn) = tx
            .withdrawal_rows(ctx.tenant, ns, "", &o.attempt_id, &o.event_id)
            .await?;
        if let Some(w) = &withdrawn {
            withdrawal_of(w)?;
        }
        found.push((attempt, event, withdrawn.is_some()));
    }
    let resolved: Vec<Resolved<'_>> = found
        .iter()
        .map(|(attempt, event, withdrawn)| Resolved {
            attempt: attempt.as_ref(),
            event: event.as_ref(),
            withdrawn: *withdrawn,
        })
        .collect();
    let pairs = request.bind(&resolved)?;
    let exported = export(&pairs)?;
    let proposal = request.proposal(&pairs);
    let (_, strategy) = register(
        tx,
        ctx,
        namespace,
        proposal,
        &policy.payload,
        Some((request, &exported)),
    )
    .await?;
    let receipt =
        strategy.ok_or_else(|| StoreError::inconsistent("a strategy without a receipt"))?;
    Ok(LearningWrite::StrategyCreated {
        receipt: Box::new(receipt),
        new: true,
    })
}

/// Appends a procedure's registration (a strategy's, when `strategy` is
/// given) and inserts its rows.
async fn register<T: LedgerTx + ProcedureTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    proposal: Proposal,
    policy: &Policy,
    strategy: Option<(StrategyRequest, &Export)>,
) -> Result<(ProposalReceipt, Option<StrategyReceipt>), StoreError> {
    let ns = namespace.as_str();
    let index = tx
        .next_candidate(ctx.tenant, ns, &proposal.policy_id, &proposal.context_id)
        .await?;
    let receipt = ProposalReceipt {
        proposal_digest: proposal.digest(),
        proposal,
        state: ProcedureState::Candidate,
        candidate_index: index,
        actor: ctx.actor.clone(),
        recorded_at: ctx.now(),
    };
    let observations: Vec<ObservationRef> = strategy
        .as_ref()
        .map(|(r, _)| r.selection.events.clone())
        .unwrap_or_default();
    let strategy = strategy
        .map(|(request, exported)| StrategyReceipt::new(request, exported, receipt.clone()));
    let (kind, body) = match &strategy {
        Some(s) => (STRATEGY_CREATED, payload(s)?),
        None => (PROCEDURE_PROPOSED, payload(&receipt)?),
    };
    let new = NewEvent::new(
        namespace.clone(),
        procedure_stream(&receipt.proposal.id),
        kind,
        body,
    );
    let recorded = Recorded::of(ctx.append(tx, new).await?);
    let (row, head) = rows_of(ns, &receipt, strategy.as_ref(), &recorded, policy)?;
    tx.insert_procedure(ctx.tenant, &row, &head, &observations)
        .await?;
    Ok((receipt, strategy))
}

/// The rows a registration writes: the procedure's and its head's.
pub(crate) fn rows_of(
    namespace: &str,
    receipt: &ProposalReceipt,
    strategy: Option<&StrategyReceipt>,
    recorded: &Recorded,
    policy: &Policy,
) -> Result<(ProcedureRow, HeadRow), StoreError> {
    let p = &receipt.proposal;
    let text = canonical_text(receipt)?;
    let row = ProcedureRow {
        namespace: namespace.to_owned(),
        id: p.id.clone(),
        policy_id: p.policy_id.clone(),
        context_id: p.context_id.clone(),
        origin: match p.origin {
            Origin::Proposal => "proposal",
            Origin::Strategy => "strategy",
        }
        .to_owned(),
        proposal_digest: Digest::of_bytes(PROCEDURE_RECEIPT_KIND, text.as_bytes()).to_hex(),
        proposal: text,
        strategy: strategy.map(canonical_text).transpose()?,
        strategy_digest: strategy.map(|s| s.strategy_digest.to_hex()),
        receipt: ReceiptCols::of(recorded),
    };
    let record = ProcedureRecord::new(policy, receipt.candidate_index);
    let head = HeadRow {
        namespace: namespace.to_owned(),
        id: p.id.clone(),
        policy_id: p.policy_id.clone(),
        context_id: p.context_id.clone(),
        state: record.state.as_str().to_owned(),
        lower_bound: None,
        instruction_bytes: to_i64(p.instructions.len() as u64),
        withdrawn: 0,
        evaluations: 0,
        record: record_text(&record)?,
    };
    Ok((row, head))
}

/// The row of the `seq`-th submission.
pub(crate) fn evaluation_row_of(
    namespace: &str,
    submitted: &EvaluationSubmitted,
    seq: i64,
    recorded: &Recorded,
) -> Result<EvaluationRow, StoreError> {
    let text = canonical_text(submitted)?;
    Ok(EvaluationRow {
        namespace: namespace.to_owned(),
        procedure_id: submitted.procedure_id.clone(),
        case_id: submitted.evaluation.case_id.clone(),
        seq,
        evidence_ref: submitted.evaluation.evidence_ref.clone(),
        submitted_digest: Digest::of_bytes(PROCEDURE_EVALUATION_KIND, text.as_bytes()).to_hex(),
        submitted: text,
        receipt: ReceiptCols::of(recorded),
    })
}

/// A head moved on to `record` after its `seq`-th submission.
pub(crate) fn head_after(
    head: HeadRow,
    record: &ProcedureRecord,
    seq: i64,
) -> Result<HeadRow, StoreError> {
    Ok(HeadRow {
        state: record.state.as_str().to_owned(),
        lower_bound: record.qualified_lower_bound,
        evaluations: seq,
        record: record_text(record)?,
        ..head
    })
}

/// A record as a head stores it.
fn record_text(record: &ProcedureRecord) -> Result<String, StoreError> {
    serde_json::to_string(record).map_err(|e| StoreError::inconsistent(e.to_string()))
}

/// Submits an evaluation: only the policy's evaluator may; a case already
/// submitted is answered with its receipt (or refused if it differs);
/// otherwise admission decides, an accepted case moves the record, and the
/// submission is kept whatever its outcome.
pub(crate) async fn evaluate<T: LedgerTx + LearningTx + ProcedureTx>(
    tx: &mut T,
    ctx: &mut Ctx<'_>,
    namespace: &Namespace,
    procedure_id: &str,
    evaluation: Evaluation,
) -> Result<LearningWrite, StoreError> {
    evaluation.validate("/evaluation")?;
    let ns = namespace.as_str();
    let row = tx
        .procedure_row(ctx.tenant, ns, procedure_id)
        .await?
        .ok_or(StoreError::NotFound(Missing::Procedure))?;
    let (proposal, _) = proposal_of(&row)?;
    let p = &proposal.proposal;
    let policy = registered::<Policy, _>(tx, ctx.tenant, &p.policy_id, "/evaluation/policy_id")
        .await?
        .payload;
    if ctx.actor.subject != policy.parameters.evaluator_subject {
        return Err(Refusal::NotEvaluator.into());
    }
    let earlier = tx
        .evaluation_rows(
            ctx.tenant,
            ns,
            procedure_id,
            &evaluation.case_id,
            &evaluation.evidence_ref,
        )
        .await?;
    if let Some(same) = earlier.iter().find(|r| r.case_id == evaluation.case_id) {
        let stored = evaluation_of(same)?;
        if stored.evaluation == evaluation {
            return Ok(LearningWrite::Evaluated {
                submitted: Box::new(stored),
                new: false,
            });
        }
        return Err(Refusal::ExperienceIdConflict {
            what: "evaluation",
            id: evaluation.case_id,
        }
        .into());
    }
    let context =
        registered::<Context, _>(tx, ctx.tenant, &p.context_id, "/evaluation/context_id").await?;
    let head = tx
        .head_row(ctx.tenant, ns, procedure_id)
        .await?
        .ok_or_else(|| {
            StoreError::inconsistent(format!("procedure {procedure_id:?} has no head"))
        })?;
    let mut record: ProcedureRecord = serde_json::from_str(&head.record)
        .map_err(|e| StoreError::inconsistent(format!("procedure {procedure_id:?}: {e}")))?;
    let admission = admit(
        &evaluation,
        &Standing {
            policy_id: &p.policy_id,
            context_id: &p.context_id,
            baseline_revision: &context.payload.baseline_revision,
            open_phase: record.state.open_phase(),
            evidence_used: !earlier.is_empty(),
            sources: &p.source_refs,
        },
    );
    let decision = if admission.outcome == AdmissionOutcome::Accepted {
        record.count(&policy, &evaluation)
    } else {
        None
    };
    let submitted = EvaluationSubmitted {
        procedure_id: procedure_id.to_owned(),
        receipt: EvaluationReceipt {
            outcome: admission.outcome,
            reason: admission.reason,
            procedure: record.summary(procedure_id),
        },
        evaluation,
        decision,
    };
    let new = NewEvent::new(
        namespace.clone(),
        procedure_stream(procedure_id),
        EVALUATION_SUBMITTED,
        payload(&submitted)?,
    );
    let recorded = Recorded::of(ctx.append(tx, new).await?);
    let seq = head.evaluations + 1;
    tx.insert_evaluation(
        ctx.tenant,
        &evaluation_row_of(ns, &submitted, seq, &recorded)?,
    )
    .await?;
    tx.advance_head(ctx.tenant, &head_after(head, &record, seq)?)
        .await?;
    Ok(LearningWrite::Evaluated {
        submitted: Box::new(submitted),
        new: true,
    })
}
