//! Development experiences: attempts recorded in a namespace, the events
//! their reporter reports on them (compare-and-set on a revision), parent
//! lineage and withdrawal, verified on every read and by `verify`.

use std::fmt::Debug;
use std::sync::Arc;

use praxis_domain::Refusal;
use praxis_domain::auth::{Namespace, Scope, Visibility};
use praxis_domain::digest::Digest;
use praxis_domain::learning::{
    AttemptRequest, BoundParent, ContentRef, EVENT_REPORTED, EventReport, ExperienceOutcome,
    ExperienceState, MAX_LINEAGE, ObservationRef, ParentRef, RECORDED, WITHDRAWN, Withdrawal,
    experience_stream,
};
use praxis_domain::ledger::Event;
use praxis_store::learning::{
    Experience, ExperienceLog, LearningWrite, StoredEvent, StoredWithdrawal,
};
use praxis_store::{Engine, LearningCommand, Missing, StoreError};
use praxis_testkit::{BACKENDS, Backend, StoreLocation};
use serde_json::{Value, json};

use ExperienceOutcome::{Cancelled, Failed, Succeeded, Unknown};

use crate::contract::{engine, tenant};
use crate::learning::{actor, assert_clean, context, register as execute, register_context};
use crate::tamper::sql;

const T: &str = "t";
/// The subject every attempt here binds as its reporter.
const REPORTER: &str = "agent-7";

fn ns() -> Namespace {
    Namespace("ns-a".into())
}

fn request(id: &str) -> AttemptRequest {
    AttemptRequest {
        id: id.into(),
        context_id: "context-v1".into(),
        reporter_subject: REPORTER.into(),
        accounting_unit: "tokens".into(),
        input: ContentRef {
            reference: format!("trace://dev/{id}"),
            sha256: "a".repeat(64),
        },
        parent: None,
    }
}

fn child_of(id: &str, parent: &str, event_id: &str) -> AttemptRequest {
    AttemptRequest {
        parent: Some(ParentRef {
            attempt_id: parent.into(),
            event_id: event_id.into(),
        }),
        ..request(id)
    }
}

fn event(id: &str, expected: u64, outcome: ExperienceOutcome) -> EventReport {
    spent(id, expected, outcome, None, None)
}

fn spent(
    id: &str,
    expected: u64,
    outcome: ExperienceOutcome,
    cost_units: Option<u64>,
    latency_ms: Option<u64>,
) -> EventReport {
    EventReport {
        event_id: id.into(),
        expected_revision: expected,
        outcome,
        evidence: None,
        cost_units,
        latency_ms,
    }
}

fn withdrawal(key: &str, e: &StoredEvent) -> Withdrawal {
    Withdrawal {
        idempotency_key: key.into(),
        observation: ObservationRef {
            attempt_id: e.event.attempt_id.clone(),
            event_id: e.event.event.event_id.clone(),
            event_digest: e.event.event_digest,
        },
        reason: "the grader was misconfigured".into(),
    }
}

/// A fresh store with tenant `t` and `context-v1` registered; the last
/// member is the context's digest.
async fn store(backend: Backend) -> (Arc<dyn Engine>, StoreLocation, Digest) {
    let (engine, loc) = engine(backend).await;
    tenant(&*engine, T).await;
    let c = register_context(&*engine, T, "admin", context())
        .await
        .unwrap();
    (engine, loc, c.entry.digest)
}

async fn record_in(
    engine: &dyn Engine,
    namespace: &Namespace,
    subject: &str,
    attempt: AttemptRequest,
) -> Result<(Experience, bool), StoreError> {
    let command = LearningCommand::Record {
        namespace: namespace.clone(),
        attempt,
    };
    match execute(engine, T, subject, command).await? {
        LearningWrite::Recorded { experience, new } => Ok((*experience, new)),
        other => panic!("a record answered {other:?}"),
    }
}

async fn record(
    engine: &dyn Engine,
    subject: &str,
    attempt: AttemptRequest,
) -> Result<(Experience, bool), StoreError> {
    record_in(engine, &ns(), subject, attempt).await
}

async fn report(
    engine: &dyn Engine,
    subject: &str,
    attempt_id: &str,
    event: EventReport,
) -> Result<(StoredEvent, Experience, bool), StoreError> {
    let command = LearningCommand::Report {
        namespace: ns(),
        attempt_id: attempt_id.into(),
        event,
    };
    match execute(engine, T, subject, command).await? {
        LearningWrite::Reported {
            event,
            experience,
            new,
        } => Ok((*event, *experience, new)),
        other => panic!("a report answered {other:?}"),
    }
}

/// Reports `event` as the reporter; it must be accepted as new.
async fn accept(
    engine: &dyn Engine,
    attempt_id: &str,
    event: EventReport,
) -> (StoredEvent, Experience) {
    let (stored, experience, new) = report(engine, REPORTER, attempt_id, event).await.unwrap();
    assert!(new, "{attempt_id}: an accepted event is new");
    (stored, experience)
}

/// Reports `event` as the reporter; it must be refused.
async fn refuse(engine: &dyn Engine, attempt_id: &str, event: EventReport) -> Refusal {
    refusal(report(engine, REPORTER, attempt_id, event).await)
}

fn assert_inconsistent<V: Debug>(backend: Backend, result: &Result<V, StoreError>) {
    assert!(
        matches!(result, Err(StoreError::Inconsistent(_))),
        "{backend:?}: {result:?}"
    );
}

async fn withdraw(
    engine: &dyn Engine,
    subject: &str,
    withdrawal: Withdrawal,
) -> Result<(StoredWithdrawal, bool), StoreError> {
    let command = LearningCommand::Withdraw {
        namespace: ns(),
        withdrawal,
    };
    match execute(engine, T, subject, command).await? {
        LearningWrite::Withdrawn { withdrawal, new } => Ok((*withdrawal, new)),
        other => panic!("a withdrawal answered {other:?}"),
    }
}

async fn find(engine: &dyn Engine, namespace: &Namespace, id: &str) -> Option<ExperienceLog> {
    engine
        .learning()
        .experience(T, namespace, id)
        .await
        .unwrap()
}

/// Everything stored about an attempt of `ns-a`, which must exist.
async fn log(engine: &dyn Engine, id: &str) -> ExperienceLog {
    let found = find(engine, &ns(), id).await;
    found.unwrap_or_else(|| panic!("attempt {id} is not stored"))
}

async fn lineage(engine: &dyn Engine, id: &str) -> Option<Vec<Experience>> {
    engine.learning().lineage(T, &ns(), id).await.unwrap()
}

/// How many `experience.*` events the tenant's log holds.
async fn appended(engine: &dyn Engine) -> usize {
    experience_events(engine).await.len()
}

/// The tenant's `experience.*` ledger events.
async fn experience_events(engine: &dyn Engine) -> Vec<Event> {
    let events = engine.ledger().events(T, 0, 10_000).await.unwrap();
    events
        .into_iter()
        .filter(|e| e.kind.starts_with("experience."))
        .collect()
}

fn refusal<V: Debug>(result: Result<V, StoreError>) -> Refusal {
    match result {
        Err(StoreError::Refused(r)) => r,
        other => panic!("not a refusal: {other:?}"),
    }
}

fn missing<V: Debug>(result: Result<V, StoreError>) -> Missing {
    match result {
        Err(StoreError::NotFound(m)) => m,
        other => panic!("not a missing thing: {other:?}"),
    }
}

fn decreased(field: &'static str, observed: u64, reported: u64) -> Refusal {
    Refusal::ConsumptionDecreased {
        field,
        observed,
        reported,
    }
}

fn conflict(what: &'static str, id: &str) -> Refusal {
    Refusal::ExperienceIdConflict {
        what,
        id: id.into(),
    }
}

#[tokio::test]
async fn a_recording_is_one_event_in_the_attempts_stream_and_reads_back() {
    for backend in BACKENDS {
        let (engine, _loc, context_digest) = store(backend).await;
        let (e, new) = record(&*engine, "alice", request("dev-1")).await.unwrap();
        assert!(new, "{backend:?}");
        let events = experience_events(&*engine).await;
        assert_eq!(events.len(), 1, "{backend:?}");
        let ev = &events[0];
        assert_eq!(
            (ev.kind.as_str(), ev.stream.as_str(), &ev.namespace),
            (RECORDED, "experience/dev-1", &ns()),
            "{backend:?}"
        );
        assert_eq!(ev.stream, experience_stream("dev-1"));
        assert_eq!(ev.payload, json!(e.attempt), "{backend:?}");
        // The context's digest is bound; the request is kept as sent.
        assert_eq!(e.attempt.context_digest, context_digest, "{backend:?}");
        assert_eq!(e.attempt.reporter_subject, REPORTER);
        assert_eq!(e.attempt.parent, None);
        assert_eq!((e.state.revision, e.state.outcome, e.depth), (1, None, 1));
        assert_eq!(e.state.attempt_digest, e.attempt.digest());
        assert_eq!(e.state.last_event_digest, None);
        assert_eq!(
            (e.state.observed_cost_units, e.state.reported_cost_units),
            (None, None)
        );
        assert_eq!(e.recorded.actor, actor("alice"), "{backend:?}");
        assert_eq!(
            (
                e.recorded.position,
                e.recorded.receipt_digest,
                e.recorded.recorded_at
            ),
            (ev.position, ev.digest, ev.recorded_at),
            "{backend:?}"
        );
        let read = log(&*engine, "dev-1").await;
        assert_eq!(read.experience, e, "{backend:?}");
        assert!(read.events.is_empty() && read.withdrawals.is_empty());

        // An identical retry by the same subject is answered, not appended.
        let (again, new) = record(&*engine, "alice", request("dev-1")).await.unwrap();
        assert!(!new, "{backend:?}");
        assert_eq!(again, e, "{backend:?}");
        // Other content under the id, or the same content by another
        // subject, reuses the id.
        let mut changed = request("dev-1");
        changed.accounting_unit = "usd-cents".into();
        let err = refusal(record(&*engine, "alice", changed).await);
        assert_eq!(err, conflict("attempt", "dev-1"), "{backend:?}");
        let err = refusal(record(&*engine, "bob", request("dev-1")).await);
        assert_eq!(err, conflict("attempt", "dev-1"), "{backend:?}");
        // An unregistered context is missing; an invalid request is refused.
        let mut unknown = request("dev-2");
        unknown.context_id = "context-v9".into();
        let m = missing(record(&*engine, "alice", unknown).await);
        assert_eq!(m, Missing::Context, "{backend:?}");
        let mut invalid = request("dev-2");
        invalid.input.sha256 = "A".repeat(64);
        let err = refusal(record(&*engine, "alice", invalid).await);
        assert!(matches!(err, Refusal::Invalid(_)), "{backend:?}: {err}");
        assert_eq!(appended(&*engine).await, 1, "{backend:?}");
        assert_eq!(find(&*engine, &ns(), "dev-2").await, None, "{backend:?}");

        // Another namespace (here a scope's) has attempts of its own.
        let scope = Scope {
            project_id: "proj".into(),
            mission_id: None,
            agent_id: "agent".into(),
            visibility: Visibility::Shared,
        };
        let other = scope.namespace("bob");
        assert_eq!(find(&*engine, &other, "dev-1").await, None, "{backend:?}");
        let (theirs, new) = record_in(&*engine, &other, "bob", request("dev-1"))
            .await
            .unwrap();
        assert!(new, "{backend:?}");
        assert_eq!(theirs.recorded.actor, actor("bob"));
        let read = find(&*engine, &other, "dev-1").await.unwrap();
        assert_eq!(read.experience, theirs, "{backend:?}");
        assert_eq!(log(&*engine, "dev-1").await.experience, e, "{backend:?}");
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn reports_compare_and_set_on_the_revision() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        record(&*engine, "alice", request("dev-1")).await.unwrap();
        let (e1, after1, new) = report(&*engine, REPORTER, "dev-1", event("e1", 1, Unknown))
            .await
            .unwrap();
        assert!(new, "{backend:?}");
        assert_eq!((e1.event.revision, after1.state.revision), (2, 2));
        assert_eq!(after1.state.outcome, Some(Unknown));
        assert_eq!(e1.event.previous_event_digest, None);
        assert_eq!(e1.event.event_digest, e1.event.compute_digest());
        assert_eq!(e1.event.attempt_digest, after1.attempt.digest());
        assert_eq!(after1.state.last_event_digest, Some(e1.event.event_digest));
        assert_eq!(e1.recorded.actor, actor(REPORTER), "{backend:?}");
        // A stale or future revision is a conflict naming the current one.
        for expected in [1, 3] {
            let err = refuse(&*engine, "dev-1", event("e2", expected, Failed)).await;
            assert_eq!(
                err,
                Refusal::RevisionConflict {
                    expected,
                    current: 2
                },
                "{backend:?}"
            );
        }
        // Only the bound reporter reports, whoever recorded the attempt.
        for stranger in ["alice", "mallory"] {
            let err = refusal(report(&*engine, stranger, "dev-1", event("e2", 2, Failed)).await);
            assert_eq!(err, Refusal::NotReporter, "{backend:?}");
        }
        let m = missing(report(&*engine, REPORTER, "dev-9", event("e1", 1, Failed)).await);
        assert_eq!(m, Missing::Experience, "{backend:?}");
        let (e2, after2) = accept(&*engine, "dev-1", event("e2", 2, Failed)).await;
        assert_eq!(e2.event.previous_event_digest, Some(e1.event.event_digest));
        assert_eq!(
            (after2.state.revision, after2.state.outcome),
            (3, Some(Failed))
        );

        // Each accepted event is one ledger event in the attempt's stream.
        let events = experience_events(&*engine).await;
        let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [RECORDED, EVENT_REPORTED, EVENT_REPORTED],
            "{backend:?}"
        );
        for (ev, stored) in events[1..].iter().zip([&e1, &e2]) {
            assert_eq!(
                (ev.stream.as_str(), &ev.namespace),
                ("experience/dev-1", &ns())
            );
            assert_eq!(ev.payload, json!(stored.event), "{backend:?}");
            assert_eq!(ev.position, stored.recorded.position);
            assert_eq!(ev.digest, stored.recorded.receipt_digest);
        }
        let read = log(&*engine, "dev-1").await;
        assert_eq!(read.experience, after2, "{backend:?}");
        assert_eq!(read.events, [e1.clone(), e2.clone()], "{backend:?}");
        assert_eq!(read.event("e1"), Some(&e1));
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn an_outcome_is_unknown_until_terminal_and_then_only_repeated() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        for terminal in [Succeeded, Failed, Cancelled] {
            let id = format!("via-unknown-{}", terminal.as_str());
            record(&*engine, "alice", request(&id)).await.unwrap();
            // Unknown may follow nothing and unknown, and any outcome
            // may follow unknown.
            accept(&*engine, &id, event("e1", 1, Unknown)).await;
            accept(&*engine, &id, event("e2", 2, Unknown)).await;
            let (_, e) = accept(&*engine, &id, spent("e3", 3, terminal, Some(10), None)).await;
            assert_eq!(e.state.outcome, Some(terminal), "{backend:?}");
            for other in ExperienceOutcome::ALL
                .into_iter()
                .filter(|o| *o != terminal)
            {
                let err = refuse(&*engine, &id, event("e4", 4, other)).await;
                assert_eq!(
                    err,
                    Refusal::TerminalOutcome {
                        current: terminal.as_str(),
                        reported: other.as_str()
                    },
                    "{backend:?}"
                );
            }
            // The terminal outcome may be repeated with later accounting,
            // never with less.
            let err = refuse(&*engine, &id, spent("e4", 4, terminal, Some(9), None)).await;
            assert_eq!(err, decreased("cost_units", 10, 9), "{backend:?}");
            let (_, e) = accept(&*engine, &id, spent("e4", 4, terminal, Some(25), Some(3))).await;
            assert_eq!(
                (
                    e.state.revision,
                    e.state.outcome,
                    e.state.reported_cost_units
                ),
                (5, Some(terminal), Some(25)),
                "{backend:?}"
            );
            assert_eq!(log(&*engine, &id).await.experience, e, "{backend:?}");
            // A terminal outcome may also be the first event.
            let direct = format!("direct-{}", terminal.as_str());
            record(&*engine, "alice", request(&direct)).await.unwrap();
            let (_, e) = accept(&*engine, &direct, event("e1", 1, terminal)).await;
            assert_eq!((e.state.revision, e.state.outcome), (2, Some(terminal)));
            let err = refuse(&*engine, &direct, event("e2", 2, Unknown)).await;
            assert!(
                matches!(err, Refusal::TerminalOutcome { .. }),
                "{backend:?}"
            );
        }
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn consumption_is_unknown_or_never_decreasing_and_bounds_are_kept() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        record(&*engine, "alice", request("dev-1")).await.unwrap();
        let (_, e) = accept(
            &*engine,
            "dev-1",
            spent("e1", 1, Unknown, Some(100), Some(5)),
        )
        .await;
        assert_eq!(
            (e.state.observed_cost_units, e.state.observed_latency_ms),
            (Some(100), Some(5))
        );
        // A report that does not know the cost keeps the bound known.
        let (e2, e) = accept(&*engine, "dev-1", spent("e2", 2, Unknown, None, Some(7))).await;
        assert_eq!(e.state.reported_cost_units, None, "{backend:?}");
        assert_eq!(e.state.observed_cost_units, Some(100), "{backend:?}");
        assert_eq!(e.state.observed_latency_ms, Some(7), "{backend:?}");
        assert_eq!(
            (e2.event.observed_cost_units, e2.event.observed_latency_ms),
            (Some(100), Some(7))
        );
        let err = refuse(&*engine, "dev-1", spent("e3", 3, Failed, Some(99), None)).await;
        assert_eq!(err, decreased("cost_units", 100, 99), "{backend:?}");
        let err = refuse(
            &*engine,
            "dev-1",
            spent("e3", 3, Failed, Some(100), Some(6)),
        )
        .await;
        assert_eq!(err, decreased("latency_ms", 7, 6), "{backend:?}");
        // A refused event leaves nothing behind.
        assert_eq!(log(&*engine, "dev-1").await.experience, e, "{backend:?}");

        // Unknown is stored as null, never as zero, and zero is a known value.
        record(&*engine, "alice", request("dev-2")).await.unwrap();
        let (n1, e) = accept(&*engine, "dev-2", event("n1", 1, Unknown)).await;
        assert_eq!(
            (e.state.reported_cost_units, e.state.observed_cost_units),
            (None, None),
            "{backend:?}"
        );
        let (_, e) = accept(&*engine, "dev-2", spent("n2", 2, Unknown, Some(0), Some(0))).await;
        assert_eq!(
            (e.state.reported_cost_units, e.state.observed_cost_units),
            (Some(0), Some(0)),
            "{backend:?}"
        );
        let (_, e) = accept(&*engine, "dev-2", event("n3", 3, Succeeded)).await;
        assert_eq!(
            (e.state.reported_latency_ms, e.state.observed_latency_ms),
            (None, Some(0)),
            "{backend:?}"
        );
        let events = experience_events(&*engine).await;
        let first = events
            .iter()
            .find(|ev| ev.payload["event_digest"] == json!(n1.event.event_digest))
            .unwrap();
        assert_eq!(first.payload["event"]["cost_units"], Value::Null);
        assert_eq!(first.payload["observed_cost_units"], Value::Null);
        assert_eq!(log(&*engine, "dev-2").await.experience, e, "{backend:?}");
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn a_retried_event_is_answered_with_the_state_right_after_it() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        record(&*engine, "alice", request("dev-1")).await.unwrap();
        let first = spent("e1", 1, Unknown, Some(10), None);
        let (e1, after1) = accept(&*engine, "dev-1", first.clone()).await;
        let second = spent("e2", 2, Failed, Some(20), Some(4));
        let (e2, after2) = accept(&*engine, "dev-1", second.clone()).await;
        let count = appended(&*engine).await;
        // e1's expected revision is stale now; its retry is still answered,
        // with the experience as it stood right after e1.
        let (event, experience, new) = report(&*engine, REPORTER, "dev-1", first.clone())
            .await
            .unwrap();
        assert!(!new, "{backend:?}");
        assert_eq!(event, e1, "{backend:?}");
        assert_eq!(experience, after1, "{backend:?}");
        assert_eq!(experience.state.revision, 2);
        assert_ne!(experience, after2);
        let (event, experience, new) = report(&*engine, REPORTER, "dev-1", second).await.unwrap();
        assert_eq!(
            (event, experience, new),
            (e2, after2.clone(), false),
            "{backend:?}"
        );
        assert_eq!(appended(&*engine).await, count, "{backend:?}");
        // The id names one event: other content under it is a conflict,
        // even at the current revision.
        let mut other = first.clone();
        other.cost_units = Some(11);
        let err = refuse(&*engine, "dev-1", other).await;
        assert_eq!(err, conflict("event", "e1"), "{backend:?}");
        let mut other = first.clone();
        other.expected_revision = 3;
        let err = refuse(&*engine, "dev-1", other).await;
        assert_eq!(err, conflict("event", "e1"), "{backend:?}");
        // A stranger's identical retry is not the reporter's.
        let err = refusal(report(&*engine, "mallory", "dev-1", first).await);
        assert_eq!(err, Refusal::NotReporter, "{backend:?}");
        assert_eq!(appended(&*engine).await, count, "{backend:?}");
        assert_eq!(
            log(&*engine, "dev-1").await.experience,
            after2,
            "{backend:?}"
        );
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn of_eight_concurrent_events_on_one_revision_exactly_one_is_accepted() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        record(&*engine, "alice", request("dev-1")).await.unwrap();
        let tasks: Vec<_> = (0..8)
            .map(|i| {
                let engine = engine.clone();
                tokio::spawn(async move {
                    let e = spent(&format!("e{i}"), 1, Failed, Some(i), None);
                    report(&*engine, REPORTER, "dev-1", e).await
                })
            })
            .collect();
        let (mut accepted, mut conflicts) = (Vec::new(), 0);
        for t in tasks {
            match t.await.unwrap() {
                Ok((event, experience, new)) => {
                    assert!(new, "{backend:?}");
                    accepted.push((event, experience));
                }
                Err(StoreError::Refused(Refusal::RevisionConflict {
                    expected: 1,
                    current: 2,
                })) => conflicts += 1,
                Err(other) => panic!("{backend:?}: {other}"),
            }
        }
        assert_eq!((accepted.len(), conflicts), (1, 7), "{backend:?}");
        let (event, experience) = accepted.pop().unwrap();
        assert_eq!((event.event.revision, experience.state.revision), (2, 2));
        let read = log(&*engine, "dev-1").await;
        assert_eq!(read.experience, experience, "{backend:?}");
        assert_eq!(read.events, [event], "{backend:?}");
        assert_eq!(appended(&*engine).await, 2, "{backend:?}");

        // Concurrent identical recordings by one subject record it once.
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let engine = engine.clone();
                tokio::spawn(async move { record(&*engine, "alice", request("dev-2")).await })
            })
            .collect();
        let mut new = 0;
        for t in tasks {
            new += usize::from(t.await.unwrap().unwrap().1);
        }
        assert_eq!(new, 1, "{backend:?}");
        assert_eq!(appended(&*engine).await, 3, "{backend:?}");
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn a_child_binds_its_parent_observation_and_lineage_walks_to_the_root() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        record(&*engine, "alice", request("root")).await.unwrap();
        let (e1, _) = accept(&*engine, "root", event("e1", 1, Failed)).await;
        let (child, new) = record(&*engine, "alice", child_of("child", "root", "e1"))
            .await
            .unwrap();
        assert!(new, "{backend:?}");
        assert_eq!(
            child.attempt.parent,
            Some(BoundParent {
                attempt_id: "root".into(),
                event_id: "e1".into(),
                event_digest: e1.event.event_digest,
            }),
            "{backend:?}"
        );
        assert_eq!(child.depth, 2, "{backend:?}");
        let (again, new) = record(&*engine, "alice", child_of("child", "root", "e1"))
            .await
            .unwrap();
        assert_eq!((again, new), (child.clone(), false), "{backend:?}");
        // The parent must be a stored event of the namespace.
        for (attempt, event_id) in [("root", "e9"), ("ghost", "e1"), ("child", "e1")] {
            let m = missing(record(&*engine, "alice", child_of("orphan", attempt, event_id)).await);
            assert_eq!(m, Missing::Parent, "{backend:?}: {attempt}/{event_id}");
        }
        let elsewhere = Namespace("ns-b".into());
        let m =
            missing(record_in(&*engine, &elsewhere, "alice", child_of("c", "root", "e1")).await);
        assert_eq!(m, Missing::Parent, "{backend:?}");
        let err = refusal(record(&*engine, "alice", child_of("root", "root", "e1")).await);
        assert!(matches!(err, Refusal::Invalid(_)), "{backend:?}: {err}");

        let chain = lineage(&*engine, "child").await;
        let root = log(&*engine, "root").await.experience;
        assert_eq!(chain, Some(vec![child, root.clone()]), "{backend:?}");
        let chain = lineage(&*engine, "root").await;
        assert_eq!(chain, Some(vec![root]), "{backend:?}");
        assert_eq!(lineage(&*engine, "ghost").await, None, "{backend:?}");
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn a_lineage_holds_at_most_sixty_four_attempts() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        let id = |i: usize| format!("a{i:02}");
        for i in 0..MAX_LINEAGE {
            let attempt = match i {
                0 => request(&id(0)),
                _ => child_of(&id(i), &id(i - 1), "e"),
            };
            let (e, _) = record(&*engine, "alice", attempt).await.unwrap();
            assert_eq!(e.depth, i as u64 + 1, "{backend:?}");
            accept(&*engine, &id(i), event("e", 1, Failed)).await;
        }
        let last = id(MAX_LINEAGE - 1);
        let err = refusal(record(&*engine, "alice", child_of("too-deep", &last, "e")).await);
        assert_eq!(err, Refusal::LineageTooDeep { max: 64 }, "{backend:?}");
        assert_eq!(find(&*engine, &ns(), "too-deep").await, None, "{backend:?}");
        // A branch that stays within the bound is accepted.
        let (branch, _) = record(
            &*engine,
            "alice",
            child_of("branch", &id(MAX_LINEAGE - 2), "e"),
        )
        .await
        .unwrap();
        assert_eq!(branch.depth, 64, "{backend:?}");

        let chain = lineage(&*engine, &last).await.unwrap();
        let ids: Vec<String> = chain.iter().map(|e| e.attempt.id.clone()).collect();
        let expected: Vec<String> = (0..MAX_LINEAGE).rev().map(id).collect();
        assert_eq!(
            ids, expected,
            "{backend:?}: the attempt first, the root last"
        );
        let depths: Vec<u64> = chain.iter().map(|e| e.depth).collect();
        let expected: Vec<u64> = (1..=64).rev().collect();
        assert_eq!(depths, expected, "{backend:?}");
        assert_eq!(chain[0], log(&*engine, &last).await.experience);
        assert_eq!(chain[63].attempt.parent, None);
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn an_observation_is_withdrawn_once_and_its_history_kept() {
    for backend in BACKENDS {
        let (engine, _loc, _) = store(backend).await;
        record(&*engine, "alice", request("dev-1")).await.unwrap();
        let (e1, _) = accept(&*engine, "dev-1", event("e1", 1, Failed)).await;
        let (e2, current) = accept(&*engine, "dev-1", spent("e2", 2, Failed, Some(5), None)).await;
        let w1 = withdrawal("w-1", &e1);
        let (stored, new) = withdraw(&*engine, "auditor", w1.clone()).await.unwrap();
        assert!(new, "{backend:?}");
        assert_eq!(stored.withdrawal, w1);
        assert_eq!(stored.digest, w1.digest(), "{backend:?}");
        assert_eq!(stored.recorded.actor, actor("auditor"));
        let events = experience_events(&*engine).await;
        let ev = events.last().unwrap();
        assert_eq!(
            (ev.kind.as_str(), ev.stream.as_str(), &ev.namespace),
            (WITHDRAWN, "experience/dev-1", &ns()),
            "{backend:?}"
        );
        assert_eq!(ev.payload, json!(w1), "{backend:?}");
        assert_eq!(
            (ev.position, ev.digest),
            (stored.recorded.position, stored.recorded.receipt_digest)
        );
        // A retry under the key is answered with the original receipt.
        let (again, new) = withdraw(&*engine, "auditor", w1.clone()).await.unwrap();
        assert_eq!((again, new), (stored.clone(), false), "{backend:?}");
        // The observation is withdrawn once; a key names one withdrawal.
        let err = refusal(withdraw(&*engine, "auditor", withdrawal("w-2", &e1)).await);
        assert_eq!(
            err,
            Refusal::ExperienceAlreadyWithdrawn {
                attempt_id: "dev-1".into(),
                event_id: "e1".into()
            },
            "{backend:?}"
        );
        let mut reworded = w1.clone();
        reworded.reason = "another reason".into();
        let err = refusal(withdraw(&*engine, "auditor", reworded).await);
        assert_eq!(err, conflict("withdrawal", "w-1"), "{backend:?}");
        let err = refusal(withdraw(&*engine, "auditor", withdrawal("w-1", &e2)).await);
        assert_eq!(err, conflict("withdrawal", "w-1"), "{backend:?}");
        // A stale or invented digest withdraws nothing.
        let mut stale = withdrawal("w-3", &e2);
        stale.observation.event_digest = e1.event.event_digest;
        match refusal(withdraw(&*engine, "auditor", stale).await) {
            Refusal::Invalid(d) => assert_eq!(d.path(), Some("/observation/event_digest")),
            other => panic!("{backend:?}: {other}"),
        }
        for (attempt, event_id) in [("dev-1", "e9"), ("dev-9", "e1")] {
            let mut ghost = withdrawal("w-4", &e2);
            ghost.observation.attempt_id = attempt.into();
            ghost.observation.event_id = event_id.into();
            let m = missing(withdraw(&*engine, "auditor", ghost).await);
            assert_eq!(m, Missing::Observation, "{backend:?}");
        }
        let mut unreasoned = withdrawal("w-5", &e2);
        unreasoned.reason = " ".into();
        let err = refusal(withdraw(&*engine, "auditor", unreasoned).await);
        assert!(
            matches!(err, Refusal::ReasonInvalid(_)),
            "{backend:?}: {err}"
        );

        // The withdrawal is read beside an untouched history.
        let read = log(&*engine, "dev-1").await;
        assert_eq!(read.withdrawal_of("e1"), Some(&stored), "{backend:?}");
        assert_eq!(read.withdrawal_of("e2"), None);
        assert_eq!(read.withdrawals, [stored], "{backend:?}");
        assert_eq!(read.events, [e1, e2.clone()], "{backend:?}");
        assert_eq!(read.experience, current, "{backend:?}");
        let kinds: Vec<String> = experience_events(&*engine)
            .await
            .into_iter()
            .map(|e| e.kind)
            .collect();
        assert_eq!(kinds, [RECORDED, EVENT_REPORTED, EVENT_REPORTED, WITHDRAWN]);
        // Another observation of the attempt may still be withdrawn.
        let (_, new) = withdraw(&*engine, "auditor", withdrawal("w-2", &e2))
            .await
            .unwrap();
        assert!(new, "{backend:?}");
        assert_eq!(log(&*engine, "dev-1").await.withdrawals.len(), 2);
        assert_clean(&*engine).await;
    }
}

/// What `scenario` stored.
struct Scenario {
    root: ExperienceLog,
    child: ExperienceLog,
    lineage: Vec<Experience>,
}

/// Records a root with three events (the last `failed`), a child of its
/// first event, and withdraws the root's second event.
async fn scenario(engine: &dyn Engine) -> Scenario {
    record(engine, "alice", request("root")).await.unwrap();
    let reports = [
        spent("e1", 1, Unknown, Some(10), Some(100)),
        spent("e2", 2, Unknown, None, Some(150)),
        spent("e3", 3, Failed, Some(30), Some(200)),
    ];
    let mut stored = Vec::new();
    for r in reports {
        stored.push(accept(engine, "root", r).await.0);
    }
    record(engine, "bob", child_of("child", "root", "e1"))
        .await
        .unwrap();
    accept(engine, "child", event("c1", 1, Succeeded)).await;
    withdraw(engine, "auditor", withdrawal("w-1", &stored[1]))
        .await
        .unwrap();
    let chain = lineage(engine, "child").await;
    Scenario {
        root: log(engine, "root").await,
        child: log(engine, "child").await,
        lineage: chain.unwrap(),
    }
}

#[tokio::test]
async fn a_full_scenario_verifies_clean_and_survives_a_reopen() {
    for backend in BACKENDS {
        let (engine, loc, _) = store(backend).await;
        let s = scenario(&*engine).await;
        assert_eq!(s.root.events.len(), 3, "{backend:?}");
        assert_eq!(s.root.withdrawals.len(), 1, "{backend:?}");
        assert_eq!(
            s.lineage,
            [s.child.experience.clone(), s.root.experience.clone()]
        );
        let count = appended(&*engine).await;
        assert_eq!(count, 7, "{backend:?}");
        assert_clean(&*engine).await;
        drop(engine);

        let engine: Arc<dyn Engine> = praxis_store::open(&loc.store).await.unwrap();
        assert_eq!(log(&*engine, "root").await, s.root, "{backend:?}");
        assert_eq!(log(&*engine, "child").await, s.child, "{backend:?}");
        let chain = lineage(&*engine, "child").await;
        assert_eq!(chain, Some(s.lineage), "{backend:?}");
        // Retries are still answered from what was stored; a recording's
        // retry answers as the recording did, at revision 1.
        let (e, new) = record(&*engine, "alice", request("root")).await.unwrap();
        let recorded = Experience {
            state: ExperienceState::recorded(&e.attempt),
            ..s.root.experience.clone()
        };
        assert_eq!((e, new), (recorded, false), "{backend:?}");
        let e1 = s.root.events[0].clone();
        let (event, _, new) = report(&*engine, REPORTER, "root", e1.event.event.clone())
            .await
            .unwrap();
        assert_eq!((event, new), (e1, false), "{backend:?}");
        let w = s.root.withdrawals[0].clone();
        let (again, new) = withdraw(&*engine, "auditor", w.withdrawal.clone())
            .await
            .unwrap();
        assert_eq!((again, new), (w, false), "{backend:?}");
        // And the next event follows on.
        let (_, e) = accept(&*engine, "root", spent("e4", 4, Failed, Some(30), None)).await;
        assert_eq!(e.state.revision, 5, "{backend:?}");
        assert_eq!(appended(&*engine).await, count + 1);
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn altered_experience_rows_fail_reads_and_verification() {
    // Each alters one row of `root` (its last event is `failed`, its state
    // at revision 4): the read fails closed and verify names the table's row.
    let statements = [
        "UPDATE experience_events SET event = replace(event, '\"failed\"', '\"succeeded\"') \
         WHERE event_id = 'e3'",
        "UPDATE experience_events SET event = replace(event, '\"cost_units\":30', \
         '\"cost_units\":3') WHERE event_id = 'e3'",
        "UPDATE experience_events SET revision = revision + 10 WHERE event_id = 'e3'",
        "UPDATE experience_heads SET state = replace(state, '\"failed\"', '\"succeeded\"') \
         WHERE id = 'root'",
        "UPDATE experience_heads SET state = replace(state, '\"revision\":4', \
         '\"revision\":5') WHERE id = 'root'",
        "UPDATE experience_withdrawals SET withdrawal = replace(withdrawal, 'misconfigured', \
         'fine')",
    ];
    for backend in BACKENDS {
        for statement in statements {
            let (engine, loc, _) = store(backend).await;
            scenario(&*engine).await;
            sql(backend, &loc.store, statement).await;
            let read = engine.learning().experience(T, &ns(), "root").await;
            assert_inconsistent(backend, &read);
            // `experience_events` rows are reported as "experience event",
            // and a head as part of its attempt.
            let table = match statement.split(' ').nth(1).unwrap() {
                "experience_heads" => "experience_attempts",
                table => table,
            };
            let problem = format!("{} ", table.trim_end_matches('s').replace('_', " "));
            let problems = engine.verify().await.unwrap().problems;
            assert_eq!(problems.len(), 1, "{backend:?}: {statement}: {problems:?}");
            assert!(
                problems[0].contains(&problem) && problems[0].contains("differs from its events"),
                "{backend:?}: {statement}: {problems:?}"
            );
        }
    }
}

#[tokio::test]
async fn writes_trust_no_altered_row() {
    for backend in BACKENDS {
        let (engine, loc, _) = store(backend).await;
        let s = scenario(&*engine).await;
        sql(
            backend,
            &loc.store,
            "UPDATE experience_events SET event = replace(event, '\"failed\"', '\"succeeded\"') \
             WHERE event_id = 'e3'; \
             UPDATE experience_attempts SET attempt = replace(attempt, 'tokens', 'usd-cents') \
             WHERE id = 'child'",
        )
        .await;
        // A retry of the altered event, a report on the altered attempt,
        // a child of it and a withdrawal of the altered event fail closed.
        let e3 = s.root.events[2].clone();
        assert_inconsistent(
            backend,
            &report(&*engine, REPORTER, "root", e3.event.event.clone()).await,
        );
        assert_inconsistent(
            backend,
            &report(&*engine, REPORTER, "child", event("c2", 2, Succeeded)).await,
        );
        assert_inconsistent(backend, &record(&*engine, "alice", request("child")).await);
        assert_inconsistent(
            backend,
            &record(&*engine, "alice", child_of("grandchild", "child", "c1")).await,
        );
        assert_inconsistent(
            backend,
            &withdraw(&*engine, "auditor", withdrawal("w-9", &e3)).await,
        );
        assert_inconsistent(backend, &engine.learning().lineage(T, &ns(), "child").await);
        assert_eq!(appended(&*engine).await, 7, "{backend:?}");
        let problems = engine.verify().await.unwrap().problems;
        assert_eq!(problems.len(), 2, "{backend:?}: {problems:?}");
    }
}

#[tokio::test]
async fn a_report_never_builds_on_an_altered_state() {
    for backend in BACKENDS {
        let (engine, loc, _) = store(backend).await;
        scenario(&*engine).await;
        let before = appended(&*engine).await;
        // Only the projection's state is altered: a terminal outcome that
        // was never reported, which would let a new outcome through.
        sql(
            backend,
            &loc.store,
            "UPDATE experience_heads SET state = replace(state, '\"failed\"', '\"unknown\"') \
             WHERE id = 'root'",
        )
        .await;
        let next = engine.learning().experience(T, &ns(), "root").await;
        assert_inconsistent(backend, &next);
        assert_inconsistent(
            backend,
            &report(&*engine, REPORTER, "root", event("e9", 4, Succeeded)).await,
        );
        assert_eq!(appended(&*engine).await, before, "{backend:?}");
    }
}
