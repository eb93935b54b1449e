//! The learning registry: policies and evaluation contexts, registered once
//! per id for the whole tenant.

use std::sync::Arc;

use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::learning::{CONTEXT_REGISTERED, Context, POLICY_REGISTERED, Policy};
use praxis_domain::ledger::{Actor, Event};
use praxis_store::learning::{LearningWrite, Registered};
use praxis_store::{Command, Engine, LearningCommand, StoreError, Write};
use praxis_testkit::BACKENDS;
use serde_json::json;

use crate::contract::{engine, execute_concurrently, tenant};
use crate::tamper::sql;

/// The example policy.
pub(crate) fn policy() -> Policy {
    serde_json::from_value(json!({
        "id": "policy-v1", "algorithm": "anytime_v1",
        "parameters": {"evaluator_subject": "grader", "confidence_delta": 0.01,
            "min_improvement": 0.05, "min_candidate_utility": 0.6,
            "max_cost_units": 10000, "max_latency_ms": 60000,
            "qualification_trials": null, "max_trials": 2000,
            "monitoring": {"rule": "anytime_drift_v1", "false_alarm_delta": 0.01},
            "evaluation_contract": "paired held-out tasks, utility in [0,1]"}
    }))
    .unwrap()
}

pub(crate) fn context() -> Context {
    serde_json::from_value(json!({
        "id": "context-v1", "task": "summarize tickets", "baseline_revision": "b-1",
        "model_provider": "local", "model_revision": "m-1",
        "tools": {"search": "s-3", "shell": "sh-1"},
        "environment_revision": "e-1", "evaluation_contract": "paired held-out tasks",
        "dataset_revision": "d-1", "harness_revision": "h-1", "permissions_revision": "p-1"
    }))
    .unwrap()
}

pub(crate) fn actor(subject: &str) -> Actor {
    Actor {
        credential_id: format!("cred-{subject}"),
        subject: subject.into(),
    }
}

pub(crate) async fn register(
    engine: &dyn Engine,
    tenant: &str,
    subject: &str,
    command: LearningCommand,
) -> Result<LearningWrite, StoreError> {
    let applied = engine
        .execute(Write::new(tenant, actor(subject), command.into()))
        .await?
        .applied()?;
    Ok(applied.learning().cloned().expect("a learning effect"))
}

async fn register_policy(
    engine: &dyn Engine,
    tenant: &str,
    subject: &str,
    policy: Policy,
) -> Result<Registered<Policy>, StoreError> {
    match register(
        engine,
        tenant,
        subject,
        LearningCommand::RegisterPolicy(policy),
    )
    .await?
    {
        LearningWrite::Policy(r) => Ok(r),
        _ => panic!("another write answered a policy"),
    }
}

pub(crate) async fn register_context(
    engine: &dyn Engine,
    tenant: &str,
    subject: &str,
    context: Context,
) -> Result<Registered<Context>, StoreError> {
    match register(
        engine,
        tenant,
        subject,
        LearningCommand::RegisterContext(context),
    )
    .await?
    {
        LearningWrite::Context(r) => Ok(r),
        _ => panic!("another write answered a context"),
    }
}

/// The tenant's `learning.*` events.
async fn learning_events(engine: &dyn Engine, tenant: &str) -> Vec<Event> {
    let events = engine.ledger().events(tenant, 0, 1_000).await.unwrap();
    events
        .into_iter()
        .filter(|e| e.kind.starts_with("learning."))
        .collect()
}

pub(crate) async fn assert_clean(engine: &dyn Engine) {
    let report = engine.verify().await.unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
}

#[tokio::test]
async fn a_registration_is_one_admin_event_and_reads_back() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let p = register_policy(&*engine, "t", "alice", policy())
            .await
            .unwrap();
        let c = register_context(&*engine, "t", "alice", context())
            .await
            .unwrap();
        assert!(p.new && c.new, "{backend:?}");
        let events = learning_events(&*engine, "t").await;
        assert_eq!(events.len(), 2, "{backend:?}");
        let (pe, ce) = (&events[0], &events[1]);
        assert_eq!(
            (pe.kind.as_str(), pe.stream.as_str(), &pe.namespace),
            (
                POLICY_REGISTERED,
                "learning-policy/policy-v1",
                &Namespace::admin()
            )
        );
        assert_eq!(
            (ce.kind.as_str(), ce.stream.as_str(), &ce.namespace),
            (
                CONTEXT_REGISTERED,
                "learning-context/context-v1",
                &Namespace::admin()
            )
        );
        assert_eq!(
            pe.payload,
            json!({"policy": policy(), "digest": policy().digest()})
        );
        // The entry is the payload as sent, its plain SHA-256, and the
        // registration event's subject, time and position.
        assert_eq!(p.entry.payload, policy());
        assert_eq!(p.entry.digest, policy().digest());
        assert_eq!(p.entry.registered_by, "alice");
        assert_eq!(p.entry.recorded_at, pe.recorded_at);
        assert_eq!(p.entry.position, pe.position);
        assert_eq!(c.entry.digest, context().digest());
        assert_eq!(c.entry.position, ce.position);
        let read = engine.learning().policy("t", "policy-v1").await.unwrap();
        assert_eq!(read, Some(p.entry), "{backend:?}");
        let read = engine.learning().context("t", "context-v1").await.unwrap();
        assert_eq!(read, Some(c.entry), "{backend:?}");
        // A policy and a context may share an id; an unknown id is absent.
        assert_eq!(
            engine.learning().policy("t", "context-v1").await.unwrap(),
            None
        );
        assert_eq!(engine.learning().context("t", "nope").await.unwrap(), None);
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn an_identical_registration_returns_the_original_entry_and_appends_nothing() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let first = register_policy(&*engine, "t", "alice", policy())
            .await
            .unwrap();
        let again = register_policy(&*engine, "t", "bob", policy())
            .await
            .unwrap();
        assert!(!again.new, "{backend:?}");
        assert_eq!(
            again.entry, first.entry,
            "{backend:?}: bob gets alice's entry"
        );
        let first = register_context(&*engine, "t", "alice", context())
            .await
            .unwrap();
        let again = register_context(&*engine, "t", "bob", context())
            .await
            .unwrap();
        assert!(!again.new, "{backend:?}");
        assert_eq!(again.entry, first.entry, "{backend:?}");
        assert_eq!(learning_events(&*engine, "t").await.len(), 2, "{backend:?}");
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn changed_content_under_an_id_is_a_conflict_and_invalid_content_is_refused() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        register_policy(&*engine, "t", "alice", policy())
            .await
            .unwrap();
        register_context(&*engine, "t", "alice", context())
            .await
            .unwrap();
        let mut changed = policy();
        changed.parameters.max_trials = 3000;
        let err = register_policy(&*engine, "t", "alice", changed)
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Refused(Refusal::RegistryConflict { what: "policy", id }) if id == "policy-v1"),
            "{backend:?}: {err}"
        );
        let mut changed = context();
        changed.tools.insert("browser".into(), "b-1".into());
        let err = register_context(&*engine, "t", "alice", changed)
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Refused(Refusal::RegistryConflict { what: "context", id }) if id == "context-v1"),
            "{backend:?}: {err}"
        );
        let mut invalid = policy();
        invalid.id = "other".into();
        invalid.parameters.confidence_delta = 0.5;
        let err = register_policy(&*engine, "t", "alice", invalid)
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Refused(Refusal::Invalid(_))),
            "{backend:?}: {err}"
        );
        assert_eq!(learning_events(&*engine, "t").await.len(), 2, "{backend:?}");
        assert_eq!(engine.learning().policy("t", "other").await.unwrap(), None);
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn concurrent_identical_registrations_append_one_event() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let policies = vec![Command::from(LearningCommand::RegisterPolicy(policy())); 8];
        assert_eq!(
            execute_concurrently(&engine, policies).await,
            8,
            "{backend:?}"
        );
        let contexts = vec![Command::from(LearningCommand::RegisterContext(context())); 8];
        assert_eq!(
            execute_concurrently(&engine, contexts).await,
            8,
            "{backend:?}"
        );
        let events = learning_events(&*engine, "t").await;
        let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [POLICY_REGISTERED, CONTEXT_REGISTERED],
            "{backend:?}"
        );
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn tenants_have_registries_of_their_own() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t1").await;
        tenant(&*engine, "t2").await;
        register_policy(&*engine, "t1", "alice", policy())
            .await
            .unwrap();
        register_context(&*engine, "t1", "alice", context())
            .await
            .unwrap();
        assert_eq!(
            engine.learning().policy("t2", "policy-v1").await.unwrap(),
            None
        );
        assert_eq!(
            engine.learning().context("t2", "context-v1").await.unwrap(),
            None
        );
        // The same id names other content in another tenant.
        let mut other = policy();
        other.parameters.max_trials = 3000;
        let registered = register_policy(&*engine, "t2", "carol", other.clone())
            .await
            .unwrap();
        assert!(registered.new, "{backend:?}");
        let t1 = engine.learning().policy("t1", "policy-v1").await.unwrap();
        let t2 = engine.learning().policy("t2", "policy-v1").await.unwrap();
        assert_eq!(t1.map(|e| e.payload), Some(policy()), "{backend:?}");
        assert_eq!(
            t2.map(|e| (e.payload, e.registered_by)),
            Some((other, "carol".into()))
        );
        assert_clean(&*engine).await;
    }
}

#[tokio::test]
async fn a_tampered_registry_row_fails_closed_and_is_reported() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        register_policy(&*engine, "t", "alice", policy())
            .await
            .unwrap();
        register_context(&*engine, "t", "alice", context())
            .await
            .unwrap();
        sql(
            backend,
            &loc.store,
            "UPDATE learning_registry SET payload = replace(payload, 'grader', 'mallory') \
             WHERE kind = 'policy'",
        )
        .await;
        let err = engine
            .learning()
            .policy("t", "policy-v1")
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Inconsistent(_)),
            "{backend:?}: {err}"
        );
        // A registration trusts no altered row either: it fails closed
        // rather than answer with it or call it a conflict.
        let err = register_policy(&*engine, "t", "alice", policy())
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Inconsistent(_)),
            "{backend:?}: {err}"
        );
        // A row altered where no digest reaches is found by verify alone.
        sql(
            backend,
            &loc.store,
            "UPDATE learning_registry SET registered_by = 'mallory' WHERE kind = 'context'",
        )
        .await;
        let report = engine.verify().await.unwrap();
        let text = report.problems.join("\n");
        assert_eq!(report.problems.len(), 2, "{backend:?}: {text}");
        assert!(
            text.contains("learning policy \"policy-v1\" differs from its events"),
            "{backend:?}: {text}"
        );
        assert!(
            text.contains("learning context \"context-v1\" differs from its events"),
            "{backend:?}: {text}"
        );
        sql(backend, &loc.store, "DELETE FROM learning_registry").await;
        let report = engine.verify().await.unwrap();
        let text = report.problems.join("\n");
        assert!(
            text.contains("learning policy \"policy-v1\" is missing from the projection"),
            "{backend:?}: {text}"
        );
        assert_eq!(report.problems.len(), 2, "{backend:?}: {text}");
    }
}

#[tokio::test]
async fn a_reopened_store_keeps_the_registry() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let p = register_policy(&*engine, "t", "alice", policy())
            .await
            .unwrap();
        let c = register_context(&*engine, "t", "alice", context())
            .await
            .unwrap();
        drop(engine);
        let engine: Arc<dyn Engine> = praxis_store::open(&loc.store).await.unwrap();
        let read = engine.learning().policy("t", "policy-v1").await.unwrap();
        assert_eq!(read, Some(p.entry.clone()), "{backend:?}");
        let read = engine.learning().context("t", "context-v1").await.unwrap();
        assert_eq!(read, Some(c.entry), "{backend:?}");
        let again = register_policy(&*engine, "t", "bob", policy())
            .await
            .unwrap();
        assert_eq!((again.new, again.entry), (false, p.entry), "{backend:?}");
        assert_eq!(learning_events(&*engine, "t").await.len(), 2, "{backend:?}");
        assert_clean(&*engine).await;
    }
}
