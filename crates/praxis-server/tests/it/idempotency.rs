//! Idempotent retries over HTTP: byte-identical receipts, conflicts, restarts and races.

use praxis_testkit::BACKENDS;
use reqwest::Method;

use crate::support::{Server, issue_request, problem, raw};

const KEY: &str = "c1a5e2b0-0000-4000-8000-000000000001";

async fn issue_raw(server: &Server, key: &str, subject: &str) -> (u16, Vec<u8>) {
    let body = serde_json::to_vec(&issue_request(subject, &["memory_read"], vec![])).unwrap();
    let (status, _, resp) = raw(
        Method::POST,
        &format!("{}/api/v1/credentials", server.base),
        Some(&server.admin_token),
        &[
            ("content-type", "application/json"),
            ("idempotency-key", key),
        ],
        Some(body),
    )
    .await;
    (status, resp)
}

#[tokio::test]
async fn retries_return_the_original_receipt_byte_for_byte_even_after_restart() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (status, first) = issue_raw(&server, KEY, "bot").await;
        assert_eq!(status, 201, "{}", String::from_utf8_lossy(&first));
        let (status, again) = issue_raw(&server, KEY, "bot").await;
        assert_eq!(status, 201);
        assert_eq!(again, first, "{backend:?}: replay differs");
        let issued: praxis_api::TokenResponse = serde_json::from_slice(&first).unwrap();
        // The replayed token is the real one: it authenticates.
        server
            .anonymous
            .with_token(&issued.token)
            .list_credentials(None, 1)
            .await
            .expect_err("memory_read cannot list credentials, but must authenticate");

        let (status, conflict) = issue_raw(&server, KEY, "someone-else").await;
        assert_eq!(
            (status, problem(&conflict).0.as_str()),
            (409, "idempotency_conflict")
        );

        let (token, seal) = (server.admin_token.clone(), server.seal.clone());
        let location = server.stop().await;
        let engine = praxis_store::open(&location.store).await.unwrap();
        let server = Server::serve(engine, location, token, seal).await;
        let (status, after_restart) = issue_raw(&server, KEY, "bot").await;
        assert_eq!(status, 201);
        assert_eq!(
            after_restart, first,
            "{backend:?}: replay after restart differs"
        );
        let page = server.admin.list_credentials(None, 500).await.unwrap();
        assert_eq!(
            page.credentials.len(),
            2,
            "{backend:?}: admin + exactly one issued"
        );

        // The stored receipt is sealed: the token never sits in the store in clear.
        let secret = issued.token.rsplit('_').next().unwrap().to_owned();
        let events = server.engine.ledger().events("t1", 0, 100).await.unwrap();
        assert!(events.iter().all(|e| !e.canonical.contains(&secret)));
    }
}

#[tokio::test]
async fn sixteen_concurrent_identical_requests_make_one_credential() {
    for backend in BACKENDS {
        let server = std::sync::Arc::new(Server::start(backend).await);
        let mut tasks = Vec::new();
        for _ in 0..16 {
            let server = server.clone();
            tasks.push(tokio::spawn(async move {
                issue_raw(&server, KEY, "racer").await
            }));
        }
        let mut bodies = Vec::new();
        for t in tasks {
            let (status, body) = t.await.unwrap();
            assert_eq!(status, 201, "{backend:?}");
            bodies.push(body);
        }
        assert!(
            bodies.iter().all(|b| b == &bodies[0]),
            "{backend:?}: receipts differ"
        );
        let events = server.engine.ledger().events("t1", 0, 1000).await.unwrap();
        let issued = events
            .iter()
            .filter(|e| e.kind == "credential.issued")
            .count();
        assert_eq!(issued, 2, "{backend:?}: admin + exactly one");
    }
}

#[tokio::test]
async fn short_idempotency_keys_are_refused() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let (status, body) = issue_raw(&server, "short", "x").await;
    assert_eq!(
        (status, problem(&body).0.as_str()),
        (400, "invalid_idempotency_key")
    );
}
