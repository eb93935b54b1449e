//! Verification on a read snapshot (`verify_snapshot`) beside an engine that
//! keeps writing, on both backends, and its refusals.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use praxis_domain::ledger::Actor;
use praxis_store::{StoreError, Write};
use praxis_testkit::{BACKENDS, Backend, StoreLocation};

use crate::contract::{append, engine, tenant};
use crate::tamper::sql;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_snapshot_verifies_clean_while_the_engine_writes_and_catches_tampering() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let stop = Arc::new(AtomicBool::new(false));
        let writer = {
            let (engine, stop) = (engine.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = 0;
                while !stop.load(Ordering::SeqCst) {
                    engine
                        .execute(Write::new("t", Actor::system(), append("s", n)))
                        .await
                        .expect("a write");
                    n += 1;
                }
                n
            })
        };
        let mut last = 0;
        // Five snapshots at least, and on until one has seen the writer's
        // events: on a loaded machine the writer may start late.
        let mut rounds = 0;
        while rounds < 5 || (last <= 1 && rounds < 500) {
            let report = praxis_store::verify_snapshot(&loc.store).await.unwrap();
            assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
            assert!(report.events >= last, "{backend:?}");
            last = report.events;
            rounds += 1;
        }
        stop.store(true, Ordering::SeqCst);
        let written = writer.await.unwrap();
        assert!(
            written > 0 && last > 1,
            "{backend:?}: {written} writes, {last} events seen"
        );
        sql(
            backend,
            &loc.store,
            "UPDATE events SET payload = '{\"n\":99}' WHERE position = 2",
        )
        .await;
        let report = praxis_store::verify_snapshot(&loc.store).await.unwrap();
        assert!(
            report.problems.iter().any(|p| p.contains("position 2")),
            "{backend:?}: {:?}",
            report.problems
        );
    }
}

#[tokio::test]
async fn a_snapshot_refuses_a_place_without_a_store() {
    for backend in BACKENDS {
        let loc = StoreLocation::new(backend);
        let err = praxis_store::verify_snapshot(&loc.store).await.unwrap_err();
        assert!(
            matches!(err, StoreError::OperationRefused(_)),
            "{backend:?}: {err}"
        );
        if backend == Backend::Sqlite {
            // Nothing was created where there was no store.
            assert!(!std::path::Path::new(&loc.store).exists());
        }
    }
}
