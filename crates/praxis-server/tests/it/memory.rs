//! Agent memory over real HTTP on both stores: create-only, compare-and-set,
//! the no-op, A→B→A, deletes with history, search, screening, capacity,
//! and who may call each endpoint.

use praxis_testkit::BACKENDS;
use serde_json::{Value, json};

use crate::learning::{post, scope};
use crate::support::{Server, client_as, issue_request};

const SET: &str = "/api/v1/memory/set";
const GET: &str = "/api/v1/memory/get";
const SEARCH: &str = "/api/v1/memory/search";
const HISTORY: &str = "/api/v1/memory/history";
const DELETE: &str = "/api/v1/memory/delete";

fn scoped(mut v: Value) -> Value {
    v["contract_version"] = json!(1);
    v["scope"] = serde_json::to_value(scope()).unwrap();
    v
}

fn set_body(key: &str, body: &str, expected: Option<&str>) -> Value {
    scoped(json!({"key": key, "summary": "Runbook note", "body": body,
        "tags": ["paging", "experience", "paging"], "priority": "high", "bootstrap": true,
        "expected_revision": expected}))
}

fn key_body(key: &str) -> Value {
    scoped(json!({ "key": key }))
}

async fn writer(server: &Server) -> String {
    let grants = vec![scope()];
    client_as(server, "agent", &["memory_read", "memory_write"], grants)
        .await
        .2
}

#[tokio::test]
async fn items_are_written_by_compare_and_set_and_revisions_never_repeat() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let t = writer(&server).await;
        let b = &server.base;
        let created = post(b, &t, SET, &set_body("k", "first", None)).await;
        let memory = &created.ok(201)["memory"];
        assert_eq!(created.json["state_changed"], true);
        assert_eq!(memory["tags"], json!(["experience", "paging"]));
        let r1 = memory["revision"].as_str().unwrap().to_owned();
        assert!(r1.starts_with("mrev_"), "{r1}");
        // The identical create is a no-op.
        let again = post(b, &t, SET, &set_body("k", "first", None)).await;
        assert_eq!(again.ok(200)["state_changed"], false);
        assert_eq!(again.json["memory"]["revision"], r1.as_str());
        // Another definition, create-only: 409 with the current revision.
        let other = post(b, &t, SET, &set_body("k", "second", None)).await;
        other.refused(
            409,
            "expected_revision_required",
            Some("/expected_revision"),
        );
        assert_eq!(other.json["current_revision"], r1.as_str());
        let updated = post(b, &t, SET, &set_body("k", "second", Some(&r1))).await;
        let r2 = updated.ok(200)["memory"]["revision"]
            .as_str()
            .unwrap()
            .to_owned();
        let stale = post(b, &t, SET, &set_body("k", "first", Some(&r1))).await;
        stale.refused(409, "memory_changed", Some("/expected_revision"));
        assert_eq!(stale.json["current_revision"], r2.as_str());
        // A→B→A: back to the first content at a third revision.
        let back = post(b, &t, SET, &set_body("k", "first", Some(&r2))).await;
        let r3 = back.ok(200)["memory"]["revision"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(r3 != r1 && r3 != r2);
        // A revision for a missing key, or a malformed one.
        post(b, &t, SET, &set_body("nope", "x", Some(&r1)))
            .await
            .refused(404, "memory_not_found", Some("/key"));
        post(b, &t, SET, &set_body("k", "x", Some("mrev_nothex")))
            .await
            .refused(422, "invalid_field", Some("/expected_revision"));
        // Delete, then recreate: a fourth revision, history keeps it all.
        let deleted = post(
            b,
            &t,
            DELETE,
            &scoped(json!({"key": "k", "expected_revision": r3})),
        )
        .await;
        assert_eq!(deleted.ok(200)["change"]["kind"], "delete");
        post(b, &t, GET, &key_body("k"))
            .await
            .refused(404, "memory_not_found", Some("/key"));
        let recreated = post(b, &t, SET, &set_body("k", "first", None)).await;
        let r4 = recreated.ok(201)["memory"]["revision"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(![&r1, &r2, &r3].contains(&&r4));
        let history = post(b, &t, HISTORY, &key_body("k")).await;
        let kinds: Vec<&str> = history.ok(200)["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["kind"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["set", "set", "set", "delete", "set"]);
        let revisions: Vec<&str> = history.json["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["revision"].as_str().unwrap())
            .collect();
        assert_eq!(revisions, [&r1, &r2, &r3, &r3, &r4].map(String::as_str));
        let got = post(b, &t, GET, &key_body("k")).await;
        assert_eq!(got.ok(200)["memory"]["revision"], r4.as_str());
        assert_eq!(got.json["memory"]["priority"], "high");
        assert!(server.engine.verify().await.unwrap().is_clean());
    }
}

#[tokio::test]
async fn search_answers_summaries_and_the_fields_that_matched() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let t = writer(&server).await;
        let b = &server.base;
        for (key, body) in [
            ("cursor-check", "Follow the next cursor before answering."),
            ("pool-restart", "Drain the pool, then restart it."),
            ("paging-limits", "A page holds at most 100 results."),
        ] {
            post(b, &t, SET, &set_body(key, body, None)).await.ok(201);
        }
        let found = post(b, &t, SEARCH, &scoped(json!({"query": "Cursor"}))).await;
        let results = found.ok(200)["results"].as_array().unwrap().clone();
        assert_eq!(results.len(), 1);
        assert_eq!(results[0]["key"], "cursor-check");
        assert_eq!(results[0]["matched"], json!(["key", "body"]));
        assert!(results[0].get("body").is_none(), "search answers summaries");
        // Every word must be held; tags match too.
        let found = post(b, &t, SEARCH, &scoped(json!({"query": "paging page"}))).await;
        let keys: Vec<&str> = found.ok(200)["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["key"].as_str().unwrap())
            .collect();
        assert_eq!(keys, ["paging-limits"]);
        assert_eq!(
            found.json["results"][0]["matched"],
            json!(["key", "body", "tags"])
        );
        // Pages by key.
        let page = post(b, &t, SEARCH, &scoped(json!({"query": "", "limit": 2}))).await;
        assert_eq!(page.ok(200)["next"], "paging-limits");
        let rest = post(
            b,
            &t,
            SEARCH,
            &scoped(json!({"query": "", "after": "paging-limits"})),
        )
        .await;
        assert_eq!(rest.ok(200)["results"][0]["key"], "pool-restart");
        assert!(rest.json["next"].is_null());
        let long = "a b c d e f g h i";
        post(b, &t, SEARCH, &scoped(json!({ "query": long })))
            .await
            .refused(422, "invalid_field", Some("/query"));
    }
}

#[tokio::test]
async fn screening_names_the_rule_and_never_the_value() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let t = writer(&server).await;
        let b = &server.base;
        let secret = "ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf";
        let refused = post(b, &t, SET, &set_body("k", &format!("token {secret}"), None)).await;
        assert_eq!(refused.status, 422);
        assert_eq!(refused.code(), "memory_invalid");
        assert_eq!(refused.json["field"], "/body");
        assert!(!String::from_utf8_lossy(&refused.body).contains(secret));
        let home = post(b, &t, SET, &set_body("k", "see /home/alice/notes", None)).await;
        assert_eq!((home.status, home.code()), (422, "memory_invalid"));
        post(b, &t, GET, &key_body("k"))
            .await
            .refused(404, "memory_not_found", Some("/key"));
        let mut bad = set_body("../etc", "x", None);
        post(b, &t, SET, &bad)
            .await
            .refused(422, "invalid_field", Some("/key"));
        bad["key"] = json!("k");
        bad["summary"] = json!("s".repeat(513));
        let long = post(b, &t, SET, &bad).await;
        assert_eq!((long.status, long.code()), (422, "memory_invalid"));
        assert_eq!(long.json["field"], "/summary");
    }
}

#[tokio::test]
async fn capacity_fails_closed_with_507_and_nothing_is_evicted() {
    for backend in BACKENDS {
        let settings = praxis_server::Settings {
            memory: praxis_store::memory::MemoryLimits {
                per_scope: 2,
                per_tenant: 10,
            },
            ..praxis_server::Settings::default()
        };
        let server = Server::start_with(backend, settings).await;
        let t = writer(&server).await;
        let b = &server.base;
        for key in ["a", "b"] {
            post(b, &t, SET, &set_body(key, "x", None)).await.ok(201);
        }
        let full = post(b, &t, SET, &set_body("c", "x", None)).await;
        assert_eq!((full.status, full.code()), (507, "memory_full"));
        for key in ["a", "b"] {
            post(b, &t, GET, &key_body(key)).await.ok(200);
        }
        post(b, &t, GET, &key_body("c"))
            .await
            .refused(404, "memory_not_found", Some("/key"));
    }
}

#[tokio::test]
async fn each_endpoint_needs_its_capability_grant_and_tenant() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let t = writer(&server).await;
        let b = &server.base;
        let made = post(b, &t, SET, &set_body("k", "x", None)).await;
        let revision = made.ok(201)["memory"]["revision"].clone();
        let calls = [
            (SET, set_body("k", "x", None), "memory_write"),
            (GET, key_body("k"), "memory_read"),
            (SEARCH, scoped(json!({"query": "x"})), "memory_read"),
            (HISTORY, key_body("k"), "memory_read"),
            (
                DELETE,
                scoped(json!({"key": "k", "expected_revision": revision})),
                "memory_write",
            ),
        ];
        let everything = ["memory_read", "memory_write"];
        for (path, body, needs) in &calls {
            let others: Vec<&str> = everything.iter().copied().filter(|c| c != needs).collect();
            let (_, _, lacking) = client_as(&server, "agent", &others, vec![scope()]).await;
            let r = post(b, &lacking, path, body).await;
            assert_eq!((r.status, r.code()), (403, "missing_capability"), "{path}");
            let (_, _, ungranted) = client_as(&server, "agent", &everything, vec![]).await;
            let r = post(b, &ungranted, path, body).await;
            assert_eq!((r.status, r.code()), (403, "missing_grant"), "{path}");
        }
        // Another tenant's credential with the same scope sees nothing.
        let (_, admin2) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin")
            .await
            .unwrap();
        let foreign = server
            .anonymous
            .with_token(admin2.render())
            .issue_credential(&issue_request("agent", &everything, vec![scope()]), None)
            .await
            .unwrap()
            .token;
        post(b, &foreign, GET, &key_body("k"))
            .await
            .refused(404, "memory_not_found", Some("/key"));
        let r = post(b, &foreign, DELETE, &calls[4].1).await;
        r.refused(404, "memory_not_found", Some("/key"));
        post(b, &t, GET, &key_body("k")).await.ok(200);
    }
}
