//! The storage contract: what both engines must do identically.

use praxis_store::AuthCommand;
use praxis_store::Missing;
use std::sync::Arc;

use praxis_domain::auth::Namespace;
use praxis_domain::credentials::IssueRequest;
use praxis_domain::digest::Digest;
use praxis_domain::ledger::{Actor, NewEvent};
use praxis_domain::time::Timestamp;
use praxis_store::{Command, Engine, Idempotency, StoreError, Write, WriteOutcome};
use praxis_testkit::{BACKENDS, Backend, StoreLocation};
use serde_json::json;

pub async fn engine(backend: Backend) -> (Arc<dyn Engine>, StoreLocation) {
    let loc = StoreLocation::new(backend);
    let engine = praxis_store::open(&loc.store).await.expect("open store");
    (engine, loc)
}

pub async fn tenant(engine: &dyn Engine, id: &str) {
    engine
        .execute(Write::new(
            id,
            Actor::system(),
            Command::Auth(AuthCommand::CreateTenant),
        ))
        .await
        .expect("create tenant");
}

fn issue(id: &str) -> Command {
    Command::Auth(AuthCommand::IssueCredential {
        credential_id: id.into(),
        request: IssueRequest::new(
            "alice".into(),
            vec!["memory_read".into()],
            vec![],
            None,
            Timestamp::from_micros(0),
        )
        .unwrap(),
        secret_sha256: Digest::sha256(id.as_bytes()),
    })
}

/// Runs every command concurrently as its own write; returns how many succeeded.
pub async fn execute_concurrently(engine: &Arc<dyn Engine>, commands: Vec<Command>) -> usize {
    let tasks: Vec<_> = commands
        .into_iter()
        .map(|cmd| {
            let engine = engine.clone();
            tokio::spawn(async move {
                engine
                    .execute(Write::new("t", Actor::system(), cmd))
                    .await
                    .is_ok()
            })
        })
        .collect();
    let mut ok = 0;
    for t in tasks {
        ok += usize::from(t.await.unwrap());
    }
    ok
}

pub fn append(stream: &str, n: u64) -> Command {
    Command::Append(vec![NewEvent::new(
        Namespace::admin(),
        stream,
        "test.appended",
        json!({ "n": n }),
    )])
}

#[tokio::test]
async fn credential_lifecycle_is_a_chain_of_events() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t1").await;
        engine
            .execute(Write::new("t1", Actor::system(), issue("c1")))
            .await
            .unwrap();
        let rotate = Command::Auth(AuthCommand::RotateCredential {
            credential_id: "c1".into(),
            secret_sha256: Digest::sha256(b"new"),
        });
        engine
            .execute(Write::new("t1", Actor::system(), rotate))
            .await
            .unwrap();
        let revoke = Command::Auth(AuthCommand::RevokeCredential {
            credential_id: "c1".into(),
        });
        engine
            .execute(Write::new("t1", Actor::system(), revoke.clone()))
            .await
            .unwrap();
        // Revoking again appends nothing.
        let again = engine
            .execute(Write::new("t1", Actor::system(), revoke))
            .await
            .unwrap();
        let WriteOutcome::Committed { applied, .. } = again else {
            panic!("not committed")
        };
        assert!(applied.events.is_empty(), "{backend:?}");

        let c = engine.credentials().get("t1", "c1").await.unwrap().unwrap();
        assert_eq!(c.secret_sha256, Digest::sha256(b"new"));
        assert!(c.revoked_at.is_some());
        assert_eq!(c.version, 3);
        assert!(
            engine
                .credentials()
                .get("t2", "c1")
                .await
                .unwrap()
                .is_none(),
            "tenants are isolated"
        );

        let events = engine.ledger().events("t1", 0, 100).await.unwrap();
        let positions: Vec<u64> = events.iter().map(|e| e.position).collect();
        assert_eq!(positions, vec![1, 2, 3, 4], "{backend:?}");
        let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "tenant.created",
                "credential.issued",
                "credential.rotated",
                "credential.revoked"
            ]
        );
        assert_eq!(events[2].prev_digest, Some(events[1].digest));
        assert_eq!(events[1].prev_digest, None, "first event of its stream");

        let report = engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
        assert_eq!(
            (report.tenants, report.events, report.credentials),
            (1, 4, 1)
        );
    }
}

#[tokio::test]
async fn commands_on_missing_things_fail_cleanly() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let err = engine
            .execute(Write::new("nope", Actor::system(), append("s", 1)))
            .await;
        assert!(
            matches!(err, Err(StoreError::NotFound(Missing::Tenant))),
            "{backend:?}"
        );
        tenant(&*engine, "t").await;
        let err = engine
            .execute(Write::new(
                "t",
                Actor::system(),
                Command::Auth(AuthCommand::CreateTenant),
            ))
            .await;
        assert!(matches!(err, Err(StoreError::TenantExists)), "{backend:?}");
        let revoke = Command::Auth(AuthCommand::RevokeCredential {
            credential_id: "ghost".into(),
        });
        let err = engine
            .execute(Write::new("t", Actor::system(), revoke))
            .await;
        assert!(
            matches!(err, Err(StoreError::NotFound(Missing::Credential))),
            "{backend:?}"
        );
        assert!(engine.verify().await.unwrap().is_clean());
    }
}

fn idempotent(cmd: Command, key: &str, request: &str) -> Write {
    let body = request.to_owned();
    Write::new("t", Actor::system(), cmd).idempotent(
        Idempotency {
            key: key.into(),
            request_digest: Digest::sha256(request.as_bytes()),
        },
        Arc::new(move |applied| Ok(format!("{body}:{}", applied.events[0].position).into_bytes())),
    )
}

#[tokio::test]
async fn idempotent_retries_replay_the_stored_receipt_even_after_reopen() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let first = engine
            .execute(idempotent(append("s", 1), "k1", "a"))
            .await
            .unwrap();
        let WriteOutcome::Committed {
            receipt: Some(receipt),
            ..
        } = first
        else {
            panic!()
        };
        assert_eq!(receipt, b"a:2");
        let conflict = engine.execute(idempotent(append("s", 1), "k1", "b")).await;
        assert!(
            matches!(conflict, Err(StoreError::IdempotencyConflict)),
            "{backend:?}"
        );
        drop(engine);
        let engine = praxis_store::open(&loc.store).await.unwrap();
        match engine
            .execute(idempotent(append("s", 1), "k1", "a"))
            .await
            .unwrap()
        {
            WriteOutcome::Replayed { receipt: again } => assert_eq!(again, receipt),
            other @ WriteOutcome::Committed { .. } => {
                panic!("{backend:?}: expected replay, got {other:?}")
            }
        }
        assert_eq!(
            engine.ledger().events("t", 0, 10).await.unwrap().len(),
            2,
            "one event only"
        );
    }
}

/// The first seal key a store is served with is the only one it accepts.
#[tokio::test]
async fn a_store_binds_to_the_first_seal_key_it_is_served_with() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        engine.bind_seal_key("fingerprint-a").await.unwrap();
        engine.bind_seal_key("fingerprint-a").await.unwrap();
        let refused = engine.bind_seal_key("fingerprint-b").await;
        assert!(
            matches!(&refused, Err(StoreError::SealKeyMismatch { recorded }) if recorded == "fingerprint-a"),
            "{backend:?}: {refused:?}"
        );
        // It holds for another engine over the same store, as for a second server.
        drop(engine);
        let again = praxis_store::open(&loc.store).await.unwrap();
        assert!(
            matches!(
                again.bind_seal_key("fingerprint-b").await,
                Err(StoreError::SealKeyMismatch { .. })
            ),
            "{backend:?}"
        );
        again.bind_seal_key("fingerprint-a").await.unwrap();
    }
}

#[tokio::test]
async fn concurrent_identical_requests_write_exactly_one_event() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let engine = engine.clone();
            tasks.push(tokio::spawn(async move {
                match engine
                    .execute(idempotent(append("s", 7), "same", "req"))
                    .await
                    .unwrap()
                {
                    WriteOutcome::Committed { receipt, .. } => receipt.unwrap(),
                    WriteOutcome::Replayed { receipt } => receipt,
                }
            }));
        }
        let mut receipts = Vec::new();
        for t in tasks {
            receipts.push(t.await.unwrap());
        }
        assert!(receipts.iter().all(|r| r == &receipts[0]), "{backend:?}");
        assert_eq!(
            engine.ledger().events("t", 1, 100).await.unwrap().len(),
            1,
            "{backend:?}"
        );
    }
}

#[tokio::test]
async fn a_failing_write_rolls_back_alone_within_a_batch() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let commands = (0..64u64)
            .map(|i| {
                if i % 4 == 0 {
                    Command::Auth(AuthCommand::RevokeCredential {
                        credential_id: format!("ghost{i}"),
                    })
                } else {
                    append(&format!("s{}", i % 3), i)
                }
            })
            .collect();
        let ok = execute_concurrently(&engine, commands).await;
        assert_eq!(ok, 48, "{backend:?}");
        let events = engine.ledger().events("t", 0, 1000).await.unwrap();
        assert_eq!(events.len(), 49, "{backend:?}");
        assert!(
            events
                .iter()
                .enumerate()
                .all(|(i, e)| e.position == i as u64 + 1)
        );
        let report = engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
    }
}

#[tokio::test]
async fn a_reader_following_the_feed_never_sees_gaps_or_reordering() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let total = 400u64;
        let mut writers = Vec::new();
        for w in 0..8u64 {
            let engine = engine.clone();
            writers.push(tokio::spawn(async move {
                for i in 0..total / 8 {
                    engine
                        .execute(Write::new(
                            "t",
                            Actor::system(),
                            append(&format!("w{w}"), i),
                        ))
                        .await
                        .unwrap();
                }
            }));
        }
        let mut seen = Vec::new();
        let mut last = 0;
        while last < total + 1 {
            for e in engine.ledger().events("t", last, 50).await.unwrap() {
                assert_eq!(
                    e.position,
                    last + 1,
                    "{backend:?}: gap or reorder in the feed"
                );
                last = e.position;
                seen.push(e.position);
            }
            tokio::task::yield_now().await;
        }
        for w in writers {
            w.await.unwrap();
        }
        assert_eq!(seen.len() as u64, total + 1);
    }
}

#[tokio::test]
async fn readiness_probes_the_writer() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let floor = |min_free_bytes| praxis_store::readiness::ReadyCheck { min_free_bytes };
        engine.ready(floor(0)).await.unwrap();
        // Only SQLite sees its disk; a PostgreSQL client relies on the probe write.
        let unreachable_floor = engine.ready(floor(u64::MAX)).await;
        if backend == Backend::Sqlite {
            assert_eq!(
                unreachable_floor.unwrap_err().reason,
                praxis_store::readiness::Unready::LowDiskSpace
            );
        } else {
            unreachable_floor.unwrap();
        }
        assert_eq!(
            engine.kind(),
            if backend == Backend::Sqlite {
                "sqlite"
            } else {
                "postgres"
            }
        );
    }
}

#[tokio::test]
async fn two_engines_on_one_postgres_database_keep_one_chain() {
    // A second process appending to the same stream must invalidate the
    // first writer's cached stream head, or the chain would fork.
    let loc = StoreLocation::new(Backend::Postgres);
    let a = praxis_store::open(&loc.store).await.unwrap();
    let b = praxis_store::open(&loc.store).await.unwrap();
    tenant(&*a, "t").await;
    for i in 0..20 {
        let engine = if i % 3 == 0 { &b } else { &a };
        engine
            .execute(Write::new("t", Actor::system(), append("shared", i)))
            .await
            .unwrap();
    }
    let report = a.verify().await.unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
    let events = a.ledger().events("t", 1, 100).await.unwrap();
    let seqs: Vec<u64> = events.iter().map(|e| e.stream_seq).collect();
    assert_eq!(seqs, (1..=20).collect::<Vec<u64>>());
}

#[tokio::test]
async fn a_write_is_refused_once_its_credential_no_longer_holds() {
    use praxis_domain::auth::Capability;
    use praxis_store::Authority;
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        engine
            .execute(Write::new("t", Actor::system(), issue("c1")))
            .await
            .unwrap();
        let authority = |secret: &[u8], capability| Authority {
            credential_id: "c1".into(),
            secret_sha256: Digest::sha256(secret),
            capability,
        };
        let as_c1 = |a: Authority| Write::new("t", Actor::system(), append("s", 1)).authorized(a);
        // `issue` gives c1 memory_read with secret sha256("c1").
        engine
            .execute(as_c1(authority(b"c1", Capability::MemoryRead)))
            .await
            .expect("authority holds");
        for (secret, cap) in [
            (&b"c1"[..], Capability::CredentialAdmin),
            (&b"other"[..], Capability::MemoryRead),
        ] {
            let err = engine
                .execute(as_c1(authority(secret, cap)))
                .await
                .unwrap_err();
            assert!(
                matches!(err, StoreError::AuthorityEnded),
                "{backend:?}: {err}"
            );
        }
        let revoke = Command::Auth(AuthCommand::RevokeCredential {
            credential_id: "c1".into(),
        });
        // Queued together: the revocation lands first, so the write behind it must fail.
        let (revoked, late) = tokio::join!(
            engine.execute(Write::new("t", Actor::system(), revoke)),
            async {
                tokio::task::yield_now().await;
                engine
                    .execute(as_c1(authority(b"c1", Capability::MemoryRead)))
                    .await
            }
        );
        revoked.unwrap();
        assert!(
            matches!(late, Err(StoreError::AuthorityEnded)),
            "{backend:?}"
        );
        let events = engine.ledger().events("t", 0, 100).await.unwrap();
        assert_eq!(
            events.len(),
            4,
            "{backend:?}: tenant, issue, one append, revoke"
        );
    }
}

#[tokio::test]
async fn two_processes_creating_one_tenant_get_one_tenant_and_one_conflict() {
    let loc = StoreLocation::new(Backend::Postgres);
    let a = praxis_store::open(&loc.store).await.unwrap();
    let b = praxis_store::open(&loc.store).await.unwrap();
    let (ra, rb) = tokio::join!(
        a.execute(Write::new(
            "t",
            Actor::system(),
            Command::Auth(AuthCommand::CreateTenant)
        )),
        b.execute(Write::new(
            "t",
            Actor::system(),
            Command::Auth(AuthCommand::CreateTenant)
        )),
    );
    let outcomes = [ra.is_ok(), rb.is_ok()];
    assert_eq!(
        outcomes.iter().filter(|ok| **ok).count(),
        1,
        "{ra:?} {rb:?}"
    );
    let loser = if ra.is_ok() { rb } else { ra };
    assert!(matches!(loser, Err(StoreError::TenantExists)), "{loser:?}");
    assert!(a.verify().await.unwrap().is_clean());
}
