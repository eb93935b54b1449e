//! Procedures: ordinary proposals and strategies registered as candidates,
//! held-out evaluations driving them to qualification and suspension,
//! selection, and withdrawal making a strategy ineligible, on both stores.

use std::sync::Arc;

use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::digest::Digest;
use praxis_domain::learning::{
    AdmissionReason, AttemptRequest, ContentRef, DecisionReason, Evaluation, EvaluationStatus,
    EvaluationSubmitted, EventReport, ExperienceOutcome, Extractor, ObservationRef, Phase,
    ProcedureState, ProposalReceipt, ProposalRequest, Selection, StrategyReceipt, StrategyRequest,
    Withdrawal,
};
use praxis_store::learning::LearningWrite;
use praxis_store::{Engine, LearningCommand, Missing, StoreError};
use praxis_testkit::{BACKENDS, Backend, StoreLocation};

use crate::contract::{engine, tenant};
use crate::learning::{assert_clean, context, policy, register as execute, register_context};
use crate::tamper::sql;

const T: &str = "t";
const GRADER: &str = "grader";

fn ns() -> Namespace {
    Namespace("ns-p".into())
}

/// A store with tenant `t`, the anytime policy (evaluator `grader`) and
/// `context-v1` registered; the last member is the context's digest.
async fn store(backend: Backend) -> (Arc<dyn Engine>, StoreLocation, Digest) {
    let (engine, loc) = engine(backend).await;
    tenant(&*engine, T).await;
    execute(
        &*engine,
        T,
        "admin",
        LearningCommand::RegisterPolicy(policy()),
    )
    .await
    .unwrap();
    let c = register_context(&*engine, T, "admin", context())
        .await
        .unwrap();
    (engine, loc, c.entry.digest)
}

fn proposal(id: &str) -> ProposalRequest {
    ProposalRequest {
        id: id.into(),
        policy_id: "policy-v1".into(),
        context_id: "context-v1".into(),
        instructions: "Read the operation receipt before retrying.".into(),
        source_refs: vec!["trace://dev/notes".into()],
        supersedes: None,
    }
}

async fn propose(
    engine: &dyn Engine,
    p: ProposalRequest,
) -> Result<(ProposalReceipt, bool), StoreError> {
    let command = LearningCommand::Propose {
        namespace: ns(),
        proposal: Box::new(p),
    };
    match execute(engine, T, "author", command).await? {
        LearningWrite::Proposed { receipt, new } => Ok((*receipt, new)),
        other => panic!("a proposal answered {other:?}"),
    }
}

fn case(i: u32, phase: Phase, baseline: f64, candidate: f64) -> Evaluation {
    Evaluation {
        case_id: format!("case-{i}"),
        phase,
        policy_id: "policy-v1".into(),
        context_id: "context-v1".into(),
        baseline_revision: "b-1".into(),
        evidence_ref: format!("eval://held-out/{i}"),
        status: EvaluationStatus::Complete,
        baseline_utility: Some(baseline),
        candidate_utility: Some(candidate),
        cost_units: Some(100),
        latency_ms: Some(2_000),
    }
}

async fn evaluate_as(
    engine: &dyn Engine,
    subject: &str,
    procedure_id: &str,
    evaluation: Evaluation,
) -> Result<(EvaluationSubmitted, bool), StoreError> {
    let command = LearningCommand::Evaluate {
        namespace: ns(),
        procedure_id: procedure_id.into(),
        evaluation: Box::new(evaluation),
    };
    match execute(engine, T, subject, command).await? {
        LearningWrite::Evaluated { submitted, new } => Ok((*submitted, new)),
        other => panic!("an evaluation answered {other:?}"),
    }
}

async fn evaluate(
    engine: &dyn Engine,
    procedure_id: &str,
    evaluation: Evaluation,
) -> EvaluationSubmitted {
    evaluate_as(engine, GRADER, procedure_id, evaluation)
        .await
        .unwrap()
        .0
}

/// Submits clearly better qualification cases from `from` until the
/// procedure decides; returns the next case number.
async fn qualify(engine: &dyn Engine, id: &str, from: u32) -> u32 {
    let mut i = from;
    loop {
        let s = evaluate(engine, id, case(i, Phase::Qualification, 0.2, 0.9)).await;
        i += 1;
        if s.receipt.procedure.state != ProcedureState::Candidate {
            assert_eq!(s.receipt.procedure.state, ProcedureState::Qualified);
            return i;
        }
        assert!(i - from < 500, "never qualified");
    }
}

async fn select(engine: &dyn Engine, max: u64) -> Option<String> {
    engine
        .procedures()
        .select(T, &ns(), "policy-v1", "context-v1", max)
        .await
        .unwrap()
        .map(|s| s.proposal.proposal.id)
}

#[tokio::test]
async fn a_proposal_qualifies_is_selected_and_is_suspended_by_drift() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        let e = &*engine;
        let (first, new) = propose(e, proposal("proc-1")).await.unwrap();
        assert!(new);
        assert_eq!(
            (first.state, first.candidate_index),
            (ProcedureState::Candidate, 1)
        );
        // An identical retry is the same receipt; other content is a conflict.
        assert_eq!(
            propose(e, proposal("proc-1")).await.unwrap(),
            (first.clone(), false)
        );
        let mut other = proposal("proc-1");
        other.instructions = "Retry at once.".into();
        let err = propose(e, other).await.unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Refused(Refusal::ExperienceIdConflict { .. })
            ),
            "{backend:?}: {err:?}"
        );
        // Only the policy's evaluator may submit.
        let err = evaluate_as(
            e,
            "author",
            "proc-1",
            case(0, Phase::Qualification, 0.2, 0.9),
        )
        .await
        .unwrap_err();
        assert!(
            matches!(err, StoreError::Refused(Refusal::NotEvaluator)),
            "{backend:?}: {err:?}"
        );
        // A monitoring case is refused while the procedure is a candidate.
        let s = evaluate(e, "proc-1", case(0, Phase::Monitoring, 0.2, 0.9)).await;
        assert_eq!(s.receipt.reason, AdmissionReason::PhaseNotOpen);
        assert_eq!(select(e, 10_000).await, None, "{backend:?}");

        let next = qualify(e, "proc-1", 1).await;
        let log = e
            .procedures()
            .procedure(T, &ns(), "proc-1")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(log.record.state, ProcedureState::Qualified);
        assert_eq!(log.record.decisions[0].reason, DecisionReason::Qualified);
        assert_eq!(
            log.record.decisions[0].case_id,
            format!("case-{}", next - 1)
        );
        assert_eq!(
            select(e, 10_000).await.as_deref(),
            Some("proc-1"),
            "{backend:?}"
        );
        // Instructions that do not fit are not selected.
        assert_eq!(select(e, 10).await, None, "{backend:?}");

        // The improvement collapses: monitoring suspends it.
        let mut i = next;
        loop {
            let s = evaluate(e, "proc-1", case(i, Phase::Monitoring, 0.9, 0.1)).await;
            i += 1;
            if s.receipt.procedure.state == ProcedureState::Suspended {
                let d = s.decision.unwrap();
                assert_eq!(d.reason, DecisionReason::DriftDetected);
                break;
            }
            assert!(i - next < 200, "{backend:?}: never suspended");
        }
        assert_eq!(select(e, 10_000).await, None, "{backend:?}");
        // A revision supersedes it and starts with zero trials.
        let mut revised = proposal("proc-2");
        revised.supersedes = Some("proc-1".into());
        let (r, _) = propose(e, revised).await.unwrap();
        assert_eq!(r.candidate_index, 2);
        let log = e
            .procedures()
            .procedure(T, &ns(), "proc-2")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(log.record.trials, 0);
        // Superseding a live procedure is refused.
        let mut again = proposal("proc-3");
        again.supersedes = Some("proc-2".into());
        let err = propose(e, again).await.unwrap_err();
        assert!(
            matches!(err, StoreError::Refused(Refusal::InvalidTransition(_))),
            "{backend:?}: {err:?}"
        );
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn identical_concurrent_evaluations_count_once() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        propose(&*engine, proposal("proc-1")).await.unwrap();
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let engine = engine.clone();
            tasks.push(tokio::spawn(async move {
                evaluate_as(
                    &*engine,
                    GRADER,
                    "proc-1",
                    case(1, Phase::Qualification, 0.3, 0.8),
                )
                .await
                .unwrap()
            }));
        }
        let mut new = 0;
        let mut receipts = Vec::new();
        for t in tasks {
            let (s, n) = t.await.unwrap();
            new += usize::from(n);
            receipts.push(s);
        }
        assert_eq!(new, 1, "{backend:?}");
        assert!(receipts.windows(2).all(|w| w[0] == w[1]), "{backend:?}");
        let log = engine
            .procedures()
            .procedure(T, &ns(), "proc-1")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (log.record.trials, log.evaluations.len()),
            (1, 1),
            "{backend:?}"
        );
        // The same case with other content is a conflict; the same evidence
        // under a new case is reused evidence.
        let err = evaluate_as(
            &*engine,
            GRADER,
            "proc-1",
            case(1, Phase::Qualification, 0.3, 0.9),
        )
        .await
        .unwrap_err();
        assert!(matches!(
            err,
            StoreError::Refused(Refusal::ExperienceIdConflict { .. })
        ));
        let mut reused = case(2, Phase::Qualification, 0.3, 0.8);
        reused.evidence_ref = "eval://held-out/1".into();
        let s = evaluate(&*engine, "proc-1", reused).await;
        assert_eq!(
            s.receipt.reason,
            AdmissionReason::EvidenceReused,
            "{backend:?}"
        );
        // Unknown consumption is never counted as zero.
        let mut unknown = case(3, Phase::Qualification, 0.3, 0.8);
        unknown.cost_units = None;
        let s = evaluate(&*engine, "proc-1", unknown).await;
        assert_eq!(s.receipt.reason, AdmissionReason::ConsumptionUnknown);
        assert_eq!(s.receipt.procedure.trials, 1);
    }
}

/// Records `dev-1` with one failed event carrying evidence; returns the
/// observation.
async fn observed(engine: &dyn Engine) -> ObservationRef {
    let attempt = AttemptRequest {
        id: "dev-1".into(),
        context_id: "context-v1".into(),
        reporter_subject: "agent-7".into(),
        accounting_unit: "tokens".into(),
        input: ContentRef {
            reference: "trace://dev/dev-1".into(),
            sha256: "a".repeat(64),
        },
        parent: None,
    };
    execute(
        engine,
        T,
        "agent-7",
        LearningCommand::Record {
            namespace: ns(),
            attempt,
        },
    )
    .await
    .unwrap();
    let event = EventReport {
        event_id: "e1".into(),
        expected_revision: 1,
        outcome: ExperienceOutcome::Failed,
        evidence: Some(ContentRef {
            reference: "trace://dev/dev-1/out".into(),
            sha256: "b".repeat(64),
        }),
        cost_units: Some(1_200),
        latency_ms: None,
    };
    let command = LearningCommand::Report {
        namespace: ns(),
        attempt_id: "dev-1".into(),
        event,
    };
    match execute(engine, T, "agent-7", command).await.unwrap() {
        LearningWrite::Reported { event, .. } => ObservationRef {
            attempt_id: "dev-1".into(),
            event_id: "e1".into(),
            event_digest: event.event.event_digest,
        },
        other => panic!("{other:?}"),
    }
}

fn strategy(context_digest: Digest, events: Vec<ObservationRef>) -> StrategyRequest {
    StrategyRequest {
        id: "receipt-recovery-v1".into(),
        policy_id: "policy-v1".into(),
        context_id: "context-v1".into(),
        instructions: "Read the operation receipt before deciding whether to retry.".into(),
        preconditions: vec!["The operation provides a durable receipt lookup.".into()],
        counterexamples: vec!["A timeout alone does not establish failure.".into()],
        extractor: Extractor {
            provider: "external-provider".into(),
            model: "external-extractor".into(),
            model_revision: "model-v1".into(),
            prompt_revision: "extraction-v1".into(),
            evidence_ref: "trace://development/receipt-recovery".into(),
        },
        selection: Selection {
            context_digest,
            accounting_unit: "tokens".into(),
            events,
        },
    }
}

async fn create(
    engine: &dyn Engine,
    s: StrategyRequest,
) -> Result<(StrategyReceipt, bool), StoreError> {
    let command = LearningCommand::CreateStrategy {
        namespace: ns(),
        strategy: Box::new(s),
    };
    match execute(engine, T, "author", command).await? {
        LearningWrite::StrategyCreated { receipt, new } => Ok((*receipt, new)),
        other => panic!("a strategy answered {other:?}"),
    }
}

#[tokio::test]
async fn a_strategy_binds_its_evidence_refuses_it_as_held_out_and_leaves_on_withdrawal() {
    for backend in BACKENDS {
        let (engine, _loc, digest) = store(backend).await;
        let e = &*engine;
        let o = observed(e).await;
        // An invented digest writes nothing.
        let mut invented = o.clone();
        invented.event_digest = Digest::sha256(b"invented");
        let err = create(e, strategy(digest, vec![invented]))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Refused(Refusal::InvalidObservation { pointer, .. })
                if pointer == "/strategy/selection/events/0"),
            "{backend:?}: {err:?}"
        );
        assert!(
            e.procedures()
                .strategy(T, &ns(), "receipt-recovery-v1")
                .await
                .unwrap()
                .is_none()
        );

        let (receipt, new) = create(e, strategy(digest, vec![o.clone()])).await.unwrap();
        assert!(new);
        assert_eq!(receipt.summary.failed, 1);
        let (again, new) = create(e, strategy(digest, vec![o.clone()])).await.unwrap();
        assert!(!new);
        assert_eq!(
            serde_json::to_string(&again).unwrap(),
            serde_json::to_string(&receipt).unwrap()
        );
        let mut changed = strategy(digest, vec![o.clone()]);
        changed.instructions = "Retry.".into();
        assert!(create(e, changed).await.is_err());
        // An ordinary procedure's id cannot become a strategy.
        let mut ordinary = proposal("plain");
        ordinary.source_refs = vec!["x".into()];
        propose(e, ordinary).await.unwrap();
        let mut named = strategy(digest, vec![o.clone()]);
        named.id = "plain".into();
        assert!(create(e, named).await.is_err());

        // Development evidence is refused, by string and by digest.
        let id = "receipt-recovery-v1";
        let mut by_string = case(1, Phase::Qualification, 0.2, 0.9);
        by_string.evidence_ref = "trace://dev/dev-1/out".into();
        let s = evaluate(e, id, by_string).await;
        assert_eq!(
            s.receipt.reason,
            AdmissionReason::DevelopmentEvidence,
            "{backend:?}"
        );
        let mut by_digest = case(2, Phase::Qualification, 0.2, 0.9);
        by_digest.evidence_ref = format!("s3://renamed/{}", "B".repeat(64));
        let s = evaluate(e, id, by_digest).await;
        assert_eq!(
            s.receipt.reason,
            AdmissionReason::DevelopmentEvidence,
            "{backend:?}"
        );

        qualify(e, id, 3).await;
        assert_eq!(select(e, 100_000).await.as_deref(), Some(id), "{backend:?}");
        let log = e
            .procedures()
            .strategy(T, &ns(), id)
            .await
            .unwrap()
            .unwrap();
        assert!(log.withdrawn.is_empty());
        assert_eq!(log.receipt, receipt);

        let withdrawal = Withdrawal {
            idempotency_key: "w-1".into(),
            observation: o.clone(),
            reason: "the grader was misconfigured".into(),
        };
        execute(
            e,
            T,
            "admin",
            LearningCommand::Withdraw {
                namespace: ns(),
                withdrawal,
            },
        )
        .await
        .unwrap();
        assert_eq!(select(e, 100_000).await, None, "{backend:?}");
        let log = e
            .procedures()
            .strategy(T, &ns(), id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(log.withdrawn, vec![o.clone()]);
        assert!(log.procedure.withdrawn);
        // The withdrawn observation cannot bind a new strategy.
        let mut late = strategy(digest, vec![o]);
        late.id = "late".into();
        assert!(matches!(
            create(e, late).await.unwrap_err(),
            StoreError::Refused(Refusal::InvalidObservation { .. })
        ));
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn an_unknown_procedure_is_not_found_and_an_altered_head_fails_closed() {
    for backend in BACKENDS {
        let (engine, loc, _) = store(backend).await;
        let e = &*engine;
        let err = evaluate_as(e, GRADER, "nope", case(1, Phase::Qualification, 0.1, 0.2))
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::NotFound(Missing::Procedure)),
            "{err:?}"
        );
        propose(e, proposal("proc-1")).await.unwrap();
        evaluate(e, "proc-1", case(1, Phase::Qualification, 0.1, 0.9)).await;
        sql(
            backend,
            &loc.store,
            "UPDATE procedure_heads SET record = replace(record, '\"trials\":1', '\"trials\":7')",
        )
        .await;
        let err = e
            .procedures()
            .procedure(T, &ns(), "proc-1")
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Inconsistent(_)),
            "{backend:?}: {err:?}"
        );
        let report = e.verify().await.unwrap();
        assert!(
            report.problems.iter().any(|p| p.contains("procedure head")),
            "{backend:?}: {:?}",
            report.problems
        );
        sql(
            backend,
            &loc.store,
            "UPDATE procedure_evaluations SET submitted = replace(submitted, '0.9', '0.95')",
        )
        .await;
        let err = e
            .procedures()
            .procedure(T, &ns(), "proc-1")
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Inconsistent(_)),
            "{backend:?}: {err:?}"
        );
    }
}
