//! What an engine decides ahead of its single writer, on the caller's
//! task, by concept: the writer is the one thing that cannot scale, so
//! whatever needs no lock is done before a write reaches it.
//!
//! Today that is one thing: an event report, decided from rows read
//! outside the writer's transaction (`learning::prepare` says why a
//! compare-and-set makes that safe). Like `apply`, this is where a concept
//! is registered for it.

use crate::command::{Command, Effect, Write, WriteOutcome};
use crate::engine::Submit;
use crate::error::StoreError;
use crate::learning::{Decision, LearningCommand, LearningWrite, ReportSnapshot, decide, head_of};

/// Applies a write: decides what can be decided ahead of the writer,
/// submits it, and remembers what the writer committed for the next write.
pub(crate) async fn execute<E: ReportSnapshot + Submit>(
    engine: &E,
    mut write: Write,
) -> Result<WriteOutcome, StoreError> {
    prepare(engine, &mut write).await;
    let Command::Learning(LearningCommand::Report {
        namespace,
        attempt_id,
        ..
    }) = &write.command
    else {
        return engine.submit(write).await;
    };
    let (tenant, namespace, attempt_id) = (
        write.tenant_id.clone(),
        namespace.as_str().to_owned(),
        attempt_id.clone(),
    );
    let next = write.prepared.as_ref().map(|p| p.next_head());
    let outcome = engine.submit(write).await;
    // Only a head this very write committed is remembered; after anything
    // else (a refusal, a retry, a write decided again in the writer) the
    // next report reads the attempt from the store.
    let committed = match (&outcome, next) {
        (Ok(WriteOutcome::Committed { applied, .. }), Some(next)) => match &applied.effect {
            Effect::Learning(LearningWrite::Reported {
                event, new: true, ..
            }) if next.last.as_ref() == Some(&event.event) => Some(next),
            _ => None,
        },
        _ => None,
    };
    match committed {
        Some(head) => engine.heads().put(&tenant, &namespace, head),
        None => engine.heads().forget(&tenant, &namespace, &attempt_id),
    }
    outcome
}

/// Decides a report ahead of the writer and attaches the result to the
/// write: on the attempt's head as the engine remembers it, or else as
/// read from the store. Anything but an acceptance (a refusal, a retry, a
/// missing row, a failed read) leaves the write as it is: the writer
/// decides it again and gives the authoritative answer.
async fn prepare<E: ReportSnapshot>(engine: &E, write: &mut Write) {
    let Command::Learning(LearningCommand::Report {
        namespace,
        attempt_id,
        event,
    }) = &write.command
    else {
        return;
    };
    let ns = namespace.as_str();
    let found = match engine.heads().get(&write.tenant_id, ns, attempt_id) {
        // A remembered head knows its latest event only: an older event
        // under the id is found by the writer (see `learning::prepare`).
        Some(head) => {
            if head
                .last
                .as_ref()
                .is_some_and(|last| last.event.event_id == event.event_id)
            {
                // The latest event is under this id: the writer answers the retry.
                return;
            }
            Ok((head, None))
        }
        None => match engine
            .report_snapshot(&write.tenant_id, ns, attempt_id, &event.event_id)
            .await
        {
            Ok((row, events)) => head_of(attempt_id, row, events, &event.event_id),
            Err(e) => Err(e),
        },
    };
    let Ok((head, prior)) = found else {
        return;
    };
    if let Ok(Decision::Accepted(prepared)) =
        decide(namespace, &write.actor.subject, head, prior, event)
    {
        write.prepared = Some(prepared);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use praxis_domain::learning::{AttemptRequest, ContentRef, ExperienceOutcome};
    use praxis_domain::ledger::Actor;
    use praxis_domain::{Refusal, auth::Namespace};
    use serde_json::json;

    use praxis_domain::learning::EventReport;

    use super::*;
    use crate::auth::AuthCommand;
    use crate::engine::{Engine, Submit};
    use crate::error::StoreError;
    use crate::learning::LearningWrite;

    const T: &str = "t";
    const REPORTER: &str = "agent-7";

    fn ns() -> Namespace {
        Namespace("ns-a".into())
    }

    fn write(subject: &str, command: impl Into<Command>) -> Write {
        let actor = Actor {
            credential_id: format!("cred-{subject}"),
            subject: subject.into(),
        };
        Write::new(T, actor, command.into())
    }

    fn report(event_id: &str, expected_revision: u64) -> Write {
        let event = EventReport {
            event_id: event_id.into(),
            expected_revision,
            outcome: ExperienceOutcome::Unknown,
            evidence: Some(ContentRef {
                reference: format!("trace://dev/1/{event_id}"),
                sha256: "b".repeat(64),
            }),
            cost_units: None,
            latency_ms: None,
        };
        write(
            REPORTER,
            LearningCommand::Report {
                namespace: ns(),
                attempt_id: "dev-1".into(),
                event,
            },
        )
    }

    /// A write decided ahead of the writer, as `execute` would.
    async fn prepared<E: ReportSnapshot>(engine: &E, mut w: Write) -> Write {
        prepare(engine, &mut w).await;
        assert!(w.prepared.is_some(), "the report was not prepared");
        w
    }

    fn reported(outcome: Result<crate::WriteOutcome, StoreError>) -> (String, u64, bool) {
        let applied = outcome.and_then(crate::WriteOutcome::applied).unwrap();
        match applied.learning() {
            Some(LearningWrite::Reported { event, new, .. }) => (
                event.event.event.event_id.clone(),
                event.event.revision,
                *new,
            ),
            other => panic!("a report answered {other:?}"),
        }
    }

    /// A tenant with context `context-v1` and attempt `dev-1`.
    async fn seed<E: Engine>(engine: &E) {
        let context = serde_json::from_value(json!({
            "id": "context-v1", "task": "t", "baseline_revision": "b",
            "model_provider": "p", "model_revision": "m", "tools": {},
            "environment_revision": "e", "evaluation_contract": "c",
            "dataset_revision": "d", "harness_revision": "h", "permissions_revision": "r"
        }))
        .unwrap();
        let attempt = AttemptRequest {
            id: "dev-1".into(),
            context_id: "context-v1".into(),
            reporter_subject: REPORTER.into(),
            accounting_unit: "tokens".into(),
            input: ContentRef {
                reference: "trace://dev/1".into(),
                sha256: "a".repeat(64),
            },
            parent: None,
        };
        let commands: [Command; 3] = [
            AuthCommand::CreateTenant.into(),
            LearningCommand::RegisterContext(context).into(),
            LearningCommand::Record {
                namespace: ns(),
                attempt,
            }
            .into(),
        ];
        for c in commands {
            engine.execute(write("admin", c)).await.unwrap();
        }
    }

    /// Decisions made ahead of the writer that went stale before it ran
    /// are decided again by the writer: a different event on the same
    /// revision is a conflict, an identical one is answered as a retry, and
    /// so is a decision on a remembered head the store has moved past.
    /// Nothing is written twice.
    pub(crate) async fn stale_decisions_are_decided_again<E>(engine: &E)
    where
        E: Engine + ReportSnapshot + Submit,
    {
        seed(engine).await;
        let a = prepared(engine, report("e1", 1)).await;
        let b = prepared(engine, report("e2", 1)).await;
        let retry = prepared(engine, report("e1", 1)).await;
        assert_eq!(reported(engine.submit(a).await), ("e1".into(), 2, true));
        match engine.submit(b).await {
            Err(StoreError::Refused(Refusal::RevisionConflict {
                expected: 1,
                current: 2,
            })) => {}
            other => panic!("a stale report answered {other:?}"),
        }
        assert_eq!(
            reported(engine.submit(retry).await),
            ("e1".into(), 2, false)
        );
        // A fresh decision on the new revision goes straight through.
        let c = prepared(engine, report("e3", 2)).await;
        assert_eq!(reported(engine.submit(c).await), ("e3".into(), 3, true));

        // Through `execute`, the committed head is remembered and the next
        // report is decided on it without a read.
        assert_eq!(
            reported(engine.execute(report("e4", 3)).await),
            ("e4".into(), 4, true)
        );
        let head = engine.heads().get(T, ns().as_str(), "dev-1").unwrap();
        assert_eq!(head.base.revision, 4);
        // An older event holds the id: the head cannot know, the writer can.
        match engine.execute(report("e1", 4)).await {
            Err(StoreError::Refused(Refusal::ExperienceIdConflict { what: "event", id })) => {
                assert_eq!(id, "e1");
            }
            other => panic!("a taken event id answered {other:?}"),
        }
        assert!(engine.heads().get(T, ns().as_str(), "dev-1").is_none());
        assert_eq!(
            reported(engine.execute(report("e5", 4)).await),
            ("e5".into(), 5, true)
        );
        // The store moves on behind the remembered head (another server).
        let e6 = prepared(engine, report("e6", 5)).await;
        assert_eq!(reported(engine.submit(e6).await), ("e6".into(), 6, true));
        match engine.execute(report("e7", 5)).await {
            Err(StoreError::Refused(Refusal::RevisionConflict {
                expected: 5,
                current: 6,
            })) => {}
            other => panic!("a report on an outdated head answered {other:?}"),
        }
        assert_eq!(
            reported(engine.execute(report("e7", 6)).await),
            ("e7".into(), 7, true)
        );
        let log = engine.learning().experience(T, &ns(), "dev-1").await;
        let ids: Vec<String> = log
            .unwrap()
            .unwrap()
            .events
            .iter()
            .map(|e| e.event.event.event_id.clone())
            .collect();
        assert_eq!(ids, ["e1", "e3", "e4", "e5", "e6", "e7"]);
        assert!(engine.verify().await.unwrap().problems.is_empty());
    }
}
