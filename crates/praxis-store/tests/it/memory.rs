//! Agent memory on both stores: create-only, compare-and-set, the no-op,
//! revisions that never repeat, deletes that keep history, search,
//! capacity that fails closed, and verification of every projection.

use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Actor;
use praxis_domain::memory::{ChangeKind, MemoryDefinition, MemoryKey, MemoryRevision, Priority};
use praxis_store::memory::{MemoryCommand, MemoryLimits, MemoryWrite};
use praxis_store::{Command, Engine, Missing, StoreError, Write};
use praxis_testkit::BACKENDS;

use crate::contract::{engine, tenant};
use crate::learning::assert_clean;
use crate::tamper::sql;

const T: &str = "t";

fn ns() -> Namespace {
    Namespace("ns-m".into())
}

fn key(k: &str) -> MemoryKey {
    MemoryKey::parse("/key", k).unwrap()
}

fn def(summary: &str, body: &str) -> MemoryDefinition {
    MemoryDefinition {
        summary: summary.into(),
        body: body.into(),
        tags: ["experience".to_owned()].into(),
        priority: Priority::Normal,
        bootstrap: false,
    }
}

async fn run(engine: &dyn Engine, command: MemoryCommand) -> Result<MemoryWrite, StoreError> {
    let write = Write::new(T, Actor::system(), Command::Memory(command));
    let applied = engine.execute(write).await?.applied()?;
    Ok(applied.memory().cloned().expect("a memory effect"))
}

async fn set(
    engine: &dyn Engine,
    k: &str,
    d: MemoryDefinition,
    expected: Option<&MemoryRevision>,
) -> Result<MemoryWrite, StoreError> {
    set_in(engine, ns(), k, d, expected, MemoryLimits::default()).await
}

async fn set_in(
    engine: &dyn Engine,
    namespace: Namespace,
    k: &str,
    d: MemoryDefinition,
    expected: Option<&MemoryRevision>,
    limits: MemoryLimits,
) -> Result<MemoryWrite, StoreError> {
    run(
        engine,
        MemoryCommand::Set {
            namespace,
            key: key(k),
            definition: d,
            expected: expected.cloned(),
            limits,
        },
    )
    .await
}

fn revision(w: &MemoryWrite) -> MemoryRevision {
    match w {
        MemoryWrite::Set { item, .. } => item.revision.clone(),
        MemoryWrite::Deleted(c) => c.revision.clone(),
    }
}

async fn delete(
    engine: &dyn Engine,
    k: &str,
    expected: &MemoryRevision,
) -> Result<MemoryWrite, StoreError> {
    run(
        engine,
        MemoryCommand::Delete {
            namespace: ns(),
            key: key(k),
            expected: expected.clone(),
        },
    )
    .await
}

#[tokio::test]
async fn create_compare_and_set_and_the_no_op() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        let a = def("Check the cursor", "Read the continuation cursor.");
        let first = set(e, "paging", a.clone(), None).await.unwrap();
        let MemoryWrite::Set { item, changed } = &first else {
            panic!("{first:?}")
        };
        assert!(changed);
        let r1 = item.revision.clone();
        // The identical create is a no-op at the same revision.
        let again = set(e, "paging", a.clone(), None).await.unwrap();
        assert_eq!(
            again,
            MemoryWrite::Set {
                item: item.clone(),
                changed: false
            }
        );
        // Create-only with another definition needs the revision.
        let b = def("Check the cursor", "Read the cursor, then stop.");
        let err = set(e, "paging", b.clone(), None).await.unwrap_err();
        assert!(
            matches!(&err, StoreError::Refused(Refusal::MemoryRevisionRequired { current }) if *current == r1.as_str()),
            "{err:?}"
        );
        let second = set(e, "paging", b.clone(), Some(&r1)).await.unwrap();
        let r2 = revision(&second);
        assert_ne!(r1, r2);
        // A stale revision is refused, naming the current one.
        let err = set(e, "paging", a.clone(), Some(&r1)).await.unwrap_err();
        assert!(
            matches!(&err, StoreError::Refused(Refusal::MemoryChanged { current }) if *current == r2.as_str()),
            "{err:?}"
        );
        // A revision for a missing key is not found.
        let err = set(e, "other", a.clone(), Some(&r1)).await.unwrap_err();
        assert!(
            matches!(err, StoreError::NotFound(Missing::Memory)),
            "{err:?}"
        );
        let got = e
            .memory()
            .get(T, &ns(), &key("paging"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((got.definition, got.revision), (b, r2));
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn a_to_b_to_a_and_recreate_get_new_revisions() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        let (a, b) = (def("A", "first"), def("B", "second"));
        let mut seen = vec![revision(&set(e, "k", a.clone(), None).await.unwrap())];
        for d in [b.clone(), a.clone()] {
            let w = set(e, "k", d, seen.last()).await.unwrap();
            seen.push(revision(&w));
        }
        let deleted = delete(e, "k", seen.last().unwrap()).await.unwrap();
        let MemoryWrite::Deleted(change) = &deleted else {
            panic!("{deleted:?}")
        };
        assert_eq!(change.kind, ChangeKind::Delete);
        assert!(e.memory().get(T, &ns(), &key("k")).await.unwrap().is_none());
        // A delete of a deleted item, or at a stale revision, is refused.
        let err = delete(e, "k", seen.last().unwrap()).await.unwrap_err();
        assert!(
            matches!(err, StoreError::NotFound(Missing::Memory)),
            "{err:?}"
        );
        // Recreated with the very first content: a revision never seen.
        seen.push(revision(&set(e, "k", a.clone(), None).await.unwrap()));
        let unique: std::collections::HashSet<_> = seen.iter().collect();
        assert_eq!(unique.len(), seen.len(), "{seen:?}");
        let history = e
            .memory()
            .history(T, &ns(), &key("k"), 0, 100)
            .await
            .unwrap();
        let kinds: Vec<_> = history.iter().map(|c| c.kind).collect();
        let (set, del) = (ChangeKind::Set, ChangeKind::Delete);
        assert_eq!(kinds, [set, set, set, del, set]);
        assert_eq!(history[4].definition.as_ref(), Some(&a));
        // Paging by position.
        let page = e
            .memory()
            .history(T, &ns(), &key("k"), history[1].position, 2)
            .await
            .unwrap();
        assert_eq!(page, history[2..4]);
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn search_needs_every_word_and_pages_by_key() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        for (k, body) in [
            ("alpha", "restart the pool after draining"),
            ("beta", "drain the pool, then restart"),
            ("gamma", "never restart during a migration"),
        ] {
            set(e, k, def("Runbook note", body), None).await.unwrap();
        }
        let keys = |items: Vec<praxis_domain::memory::MemoryItem>| {
            items
                .into_iter()
                .map(|i| i.key.as_str().to_owned())
                .collect::<Vec<_>>()
        };
        let m = e.memory();
        let terms = |q: &str| praxis_domain::memory::search::query_terms("/q", q).unwrap();
        assert_eq!(
            keys(
                m.search(T, &ns(), &terms("Restart POOL"), None, 10)
                    .await
                    .unwrap()
            ),
            ["alpha", "beta"]
        );
        assert_eq!(
            keys(
                m.search(T, &ns(), &terms("restart"), Some(&key("alpha")), 1)
                    .await
                    .unwrap()
            ),
            ["beta"]
        );
        assert_eq!(
            keys(m.search(T, &ns(), &terms("gamma"), None, 10).await.unwrap()),
            ["gamma"]
        );
        assert!(
            m.search(T, &ns(), &terms("absent words"), None, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            keys(m.search(T, &ns(), &[], None, 10).await.unwrap()),
            ["alpha", "beta", "gamma"]
        );
        // Another namespace sees nothing; an update moves the terms.
        let other = Namespace("ns-other".into());
        assert!(
            m.search(T, &other, &terms("restart"), None, 10)
                .await
                .unwrap()
                .is_empty()
        );
        let r = m
            .get(T, &ns(), &key("gamma"))
            .await
            .unwrap()
            .unwrap()
            .revision;
        set(
            e,
            "gamma",
            def("Runbook note", "wait for the migration"),
            Some(&r),
        )
        .await
        .unwrap();
        assert_eq!(
            keys(
                m.search(T, &ns(), &terms("restart"), None, 10)
                    .await
                    .unwrap()
            ),
            ["alpha", "beta"]
        );
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn capacity_fails_closed_and_a_delete_makes_room() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        let limits = MemoryLimits {
            per_scope: 2,
            per_tenant: 3,
        };
        let mut revisions = Vec::new();
        for k in ["a", "b"] {
            let w = set_in(e, ns(), k, def(k, "x"), None, limits).await.unwrap();
            revisions.push(revision(&w));
        }
        let err = set_in(e, ns(), "c", def("c", "x"), None, limits)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Refused(Refusal::MemoryFull {
                    limit: "scope",
                    max: 2
                })
            ),
            "{err:?}"
        );
        // Updates still pass at the limit; nothing was evicted.
        set_in(e, ns(), "a", def("a", "y"), Some(&revisions[0]), limits)
            .await
            .unwrap();
        assert!(e.memory().get(T, &ns(), &key("b")).await.unwrap().is_some());
        let other = Namespace("ns-other".into());
        set_in(e, other.clone(), "c", def("c", "x"), None, limits)
            .await
            .unwrap();
        let err = set_in(e, other, "d", def("d", "x"), None, limits)
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Refused(Refusal::MemoryFull {
                    limit: "tenant",
                    max: 3
                })
            ),
            "{err:?}"
        );
        delete(e, "b", &revisions[1]).await.unwrap();
        set_in(e, ns(), "c", def("c", "x"), None, limits)
            .await
            .unwrap();
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn screening_refuses_and_writes_nothing() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        let d = def("Token", "use ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf here");
        let err = set(e, "secret", d, None).await.unwrap_err();
        let StoreError::Refused(Refusal::MemoryInvalid(findings)) = err else {
            panic!("{err:?}")
        };
        assert!(
            findings
                .iter()
                .all(|f| f.pointer == "/body" && !f.message.contains("ghp_"))
        );
        assert!(
            e.memory()
                .get(T, &ns(), &key("secret"))
                .await
                .unwrap()
                .is_none()
        );
        assert!(
            e.memory()
                .history(T, &ns(), &key("secret"), 0, 10)
                .await
                .unwrap()
                .is_empty()
        );
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn verification_finds_an_edited_projection() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        set(e, "k", def("s", "hidden words"), None).await.unwrap();
        assert_clean(e).await;
        for (edit, finds) in [
            (
                "UPDATE memory_items SET body = 'edited'",
                "differs from its events",
            ),
            (
                "DELETE FROM memory_terms WHERE term = 'hidden'",
                "search terms",
            ),
            ("UPDATE memory_usage SET live_items = 5", "memory count"),
            ("DELETE FROM memory_history", "history differs"),
        ] {
            let (engine, loc2) = crate::contract::engine(backend).await;
            let e2 = &*engine;
            tenant(e2, T).await;
            set(e2, "k", def("s", "hidden words"), None).await.unwrap();
            sql(backend, &loc2.store, edit).await;
            let report = e2.verify().await.unwrap();
            assert!(
                report.problems.iter().any(|p| p.contains(finds)),
                "{edit}: {:?}",
                report.problems
            );
        }
        drop(loc);
    }
}
