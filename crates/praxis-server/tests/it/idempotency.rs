//! `Idempotency-Key` over HTTP on every write endpoint: byte-identical
//! replays, conflicts, key syntax, scoping to (tenant, subject), restarts,
//! and races of 16 identical keyed requests that must have exactly one
//! effect, on both stores.

use std::sync::Arc;

use praxis_testkit::BACKENDS;
use praxis_testkit::records::sample_record;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, client_as, event_count, issue_request, problem, raw};

const KEY: &str = "c1a5e2b0-0000-4000-8000-000000000001";

/// Every capability, for a caller that can use every write endpoint.
const ALL: &[&str] = &[
    "credential_admin",
    "policy_admin",
    "experience_write",
    "experience_report",
    "experience_read",
    "experience_evidence_admin",
    "record_submit",
    "record_review",
    "procedure_propose",
    "memory_read",
    "memory_write",
    "proposal_create",
    "proposal_approve",
];

/// The scope the writes act in.
fn scope() -> Value {
    json!({"project_id": "p1", "mission_id": null, "agent_id": "a1", "visibility": "shared"})
}

fn scope_wire() -> praxis_api::Scope {
    serde_json::from_value(scope()).unwrap()
}

/// An answer: status, whether it says it was replayed, body.
#[derive(Debug)]
struct Answer {
    status: u16,
    replayed: bool,
    body: Vec<u8>,
}

async fn post(server: &Server, token: &str, path: &str, key: Option<&str>, body: &Value) -> Answer {
    let mut headers = vec![("content-type", "application/json")];
    if let Some(key) = key {
        headers.push(("idempotency-key", key));
    }
    let (status, h, body) = raw(
        Method::POST,
        &format!("{}{path}", server.base),
        Some(token),
        &headers,
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await;
    let replayed = h
        .get(praxis_api::IDEMPOTENT_REPLAYED)
        .is_some_and(|v| v == "true");
    Answer {
        status,
        replayed,
        body,
    }
}

/// Sends `body` unkeyed and insists it succeeds: the setup of a case.
async fn setup(server: &Server, token: &str, path: &str, body: &Value) -> Value {
    let a = post(server, token, path, None, body).await;
    assert!(
        (200..300).contains(&a.status),
        "setup {path}: {} {}",
        a.status,
        String::from_utf8_lossy(&a.body)
    );
    serde_json::from_slice(&a.body).unwrap()
}

/// One write endpoint under test: where to send what, and how many events
/// one application of it appends.
struct Case {
    /// Who sends it.
    token: String,
    path: String,
    body: Value,
    events: usize,
}

fn versioned(mut body: Value) -> Value {
    body["contract_version"] = json!(1);
    body
}

fn outcome(case: &str) -> Value {
    json!({
        "case_id": case, "subject": "host-1", "action_id": "restart",
        "hypothesis_id": "h1", "verifier_rule_id": "rule-1", "stage": "active",
        "status": "confirmed_negative", "confidence": 900_000, "rationale": "because",
        "evidence_ids": ["ev-1"]
    })
}

fn release(name: &str) -> Value {
    json!({
        "name": name, "version": "1.0.0", "sha256": "a".repeat(64), "size": 2048,
        "summary": "Start a throwaway database cluster as an unprivileged user.",
        "provenance": {"kind": "maintainer-authored"}
    })
}

/// Builds every write endpoint's case, with whatever it needs set up first.
async fn cases(server: &Server, token: &str, reviewer: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/credentials".into(),
        body: serde_json::to_value(issue_request("racer", &["memory_read"], vec![])).unwrap(),
        events: 1,
    });
    for action in ["rotate", "revoke"] {
        let issued = setup(
            server,
            token,
            "/api/v1/credentials",
            &serde_json::to_value(issue_request(action, &["memory_read"], vec![])).unwrap(),
        )
        .await;
        cases.push(Case {
            token: token.to_owned(),
            path: format!(
                "/api/v1/credentials/{}/{action}",
                issued["credential"]["id"].as_str().unwrap()
            ),
            body: versioned(json!({})),
            events: 1,
        });
    }
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/attempts".into(),
        body: versioned(json!({"scope": scope(), "outcome": outcome("c-observe")})),
        events: 1,
    });
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/attempts/policy".into(),
        body: versioned(json!({"scope": scope(), "consecutive_failure_limit": 3})),
        events: 1,
    });
    let records: Vec<Value> = (0..3)
        .map(|i| json!({"sequence": i, "outcome": outcome(&format!("c-import-{i}"))}))
        .collect();
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/attempts/import".into(),
        body: versioned(
            json!({"scope": scope(), "store": {"next_sequence": 3, "records": records}}),
        ),
        events: 3,
    });
    let submit = |slug: &str| {
        versioned(
            json!({"scope": scope(), "source": {"key": format!("src-{slug}")}, "record": sample_record(slug)}),
        )
    };
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/records".into(),
        body: submit("race-submit"),
        events: 1,
    });
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/records/settings".into(),
        body: versioned(json!({"scope": scope(), "automated_approval": false})),
        events: 1,
    });
    let approve = versioned(json!({"scope": scope(), "decision": "approve", "mode": "human"}));
    for slug in ["race-review", "race-withdraw", "race-discard"] {
        setup(server, token, "/api/v1/records", &submit(slug)).await;
    }
    cases.push(Case {
        token: reviewer.to_owned(),
        path: format!("/api/v1/records/exp-{}-20261120/review", "race-review"),
        body: approve.clone(),
        events: 1,
    });
    let rid = "exp-race-withdraw-20261120";
    setup(
        server,
        reviewer,
        &format!("/api/v1/records/{rid}/review"),
        &approve,
    )
    .await;
    cases.push(Case {
        token: token.to_owned(),
        path: format!("/api/v1/records/{rid}/withdraw"),
        body: versioned(json!({"scope": scope(), "reason": "superseded by a better fix"})),
        events: 1,
    });
    // The author (the submitting token) discards its own candidate.
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/records/exp-race-discard-20261120/discard".into(),
        body: versioned(json!({"scope": scope(), "reason": "a duplicate of another record"})),
        events: 1,
    });
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/skills".into(),
        body: versioned(json!({"scope": scope(), "release": release("race-publish")})),
        events: 1,
    });
    setup(
        server,
        token,
        "/api/v1/skills",
        &versioned(json!({"scope": scope(), "release": release("race-withdraw")})),
    )
    .await;
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/skills/race-withdraw/1.0.0/withdraw".into(),
        body: versioned(json!({"scope": scope(), "reason": "the procedure is unsafe"})),
        events: 1,
    });
    learning_cases(server, token, &mut cases).await;
    memory_cases(server, token, &mut cases).await;
    proposal_cases(server, token, &mut cases).await;
    cases
}

/// Proposals' keyed writes: a proposal, a withdrawal of a set-up one, and
/// the scope's setting.
async fn proposal_cases(server: &Server, token: &str, cases: &mut Vec<Case>) {
    use praxis_api::examples::guidance as gx;
    let mut create = serde_json::to_value(gx::create()).unwrap();
    create["scope"] = json!(scope());
    let case = |path: String, body: Value| Case {
        token: token.to_owned(),
        path,
        body,
        events: 1,
    };
    cases.push(case("/api/v1/proposals".into(), create.clone()));
    let made = setup(server, token, "/api/v1/proposals", &create).await;
    let id = made["proposal"]["id"].as_str().unwrap();
    let mut withdraw = serde_json::to_value(gx::withdraw()).unwrap();
    withdraw["scope"] = json!(scope());
    cases.push(case(format!("/api/v1/proposals/{id}/withdraw"), withdraw));
    let mut settings = serde_json::to_value(gx::settings()).unwrap();
    settings["scope"] = json!(scope());
    settings["self_approval"] = json!(true);
    cases.push(case("/api/v1/proposals/settings".into(), settings));
}

/// Memory's keyed writes: a create, and a delete of a set-up item.
async fn memory_cases(server: &Server, token: &str, cases: &mut Vec<Case>) {
    use praxis_api::examples::memory as mx;
    let set = |key: &str| {
        let mut body = serde_json::to_value(mx::set()).unwrap();
        body["scope"] = json!(scope());
        body["key"] = json!(key);
        body
    };
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/memory/set".into(),
        body: set("race-set"),
        events: 1,
    });
    let made = setup(server, token, "/api/v1/memory/set", &set("race-delete")).await;
    let mut delete = serde_json::to_value(mx::delete()).unwrap();
    delete["scope"] = json!(scope());
    delete["key"] = json!("race-delete");
    delete["expected_revision"] = made["memory"]["revision"].clone();
    cases.push(Case {
        token: token.to_owned(),
        path: "/api/v1/memory/delete".into(),
        body: delete,
        events: 1,
    });
}

/// The learning authority's keyed writes: registrations, an attempt, an
/// event on a set-up attempt, and a withdrawal of a set-up observation.
async fn learning_cases(server: &Server, token: &str, cases: &mut Vec<Case>) {
    use praxis_api::examples::learning as ex;
    let case = |path: &str, body: Value| Case {
        token: token.to_owned(),
        path: path.into(),
        body,
        events: 1,
    };
    cases.push(case(
        "/api/v1/learning/policies",
        serde_json::to_value(ex::register_policy()).unwrap(),
    ));
    let context = serde_json::to_value(ex::register_context()).unwrap();
    setup(server, token, "/api/v1/learning/contexts", &context).await;
    let mut other = context.clone();
    other["context"]["id"] = json!("race-context");
    cases.push(case("/api/v1/learning/contexts", other));
    let record = |id: &str| {
        let mut r = serde_json::to_value(ex::record()).unwrap();
        r["scope"] = json!(scope());
        r["experience"]["id"] = json!(id);
        r["experience"]["reporter_subject"] = json!("writer");
        r
    };
    cases.push(case("/api/v1/experiences", record("race-record")));
    for id in ["race-report", "race-withdraw"] {
        setup(server, token, "/api/v1/experiences", &record(id)).await;
    }
    let report = |id: &str| {
        let mut r = serde_json::to_value(ex::report()).unwrap();
        r["scope"] = json!(scope());
        r["attempt_id"] = json!(id);
        r
    };
    cases.push(case("/api/v1/experiences/events", report("race-report")));
    let reported = setup(
        server,
        token,
        "/api/v1/experiences/events",
        &report("race-withdraw"),
    )
    .await;
    let mut withdraw = serde_json::to_value(ex::withdraw()).unwrap();
    withdraw["scope"] = json!(scope());
    withdraw["observation"]["attempt_id"] = json!("race-withdraw");
    withdraw["observation"]["event_digest"] = reported["event"]["event_digest"].clone();
    cases.push(case("/api/v1/experiences/withdrawals", withdraw));
    procedure_cases(server, token, cases, &record, &report).await;
}

/// Procedures' keyed writes: a strategy bound to a set-up observation, an
/// ordinary proposal, and an evaluation of that proposal by the policy's
/// evaluator.
async fn procedure_cases(
    server: &Server,
    token: &str,
    cases: &mut Vec<Case>,
    record: &dyn Fn(&str) -> Value,
    report: &dyn Fn(&str) -> Value,
) {
    use praxis_api::examples::procedures as px;
    setup(
        server,
        token,
        "/api/v1/experiences",
        &record("race-strategy"),
    )
    .await;
    let reported = setup(
        server,
        token,
        "/api/v1/experiences/events",
        &report("race-strategy"),
    )
    .await;
    let mut strategy = serde_json::to_value(px::create_strategy()).unwrap();
    strategy["scope"] = json!(scope());
    strategy["strategy"]["id"] = json!("race-strategy");
    strategy["strategy"]["selection"]["events"] = json!([{
        "attempt_id": "race-strategy", "event_id": reported["event"]["event_id"],
        "event_digest": reported["event"]["event_digest"]}]);
    let case = |token: &str, path: &str, body: Value| Case {
        token: token.to_owned(),
        path: path.into(),
        body,
        events: 1,
    };
    cases.push(case(token, "/api/v1/learning/strategies", strategy));
    let proposal = |id: &str| {
        let mut p = serde_json::to_value(px::propose()).unwrap();
        p["scope"] = json!(scope());
        p["proposal"]["id"] = json!(id);
        p
    };
    // The policy is registered by its own case, which runs first; so is
    // the proposal the evaluation names.
    cases.push(case(
        token,
        "/api/v1/learning/proposals",
        proposal("race-propose"),
    ));
    let (_, _, grader) = client_as(
        server,
        px::EVALUATOR,
        &["procedure_evaluate"],
        vec![serde_json::from_value(scope()).unwrap()],
    )
    .await;
    let mut evaluation = serde_json::to_value(px::evaluate()).unwrap();
    evaluation["scope"] = json!(scope());
    evaluation["procedure_id"] = json!("race-propose");
    cases.push(case(&grader, "/api/v1/learning/evaluations", evaluation));
}

/// Every POST operation of the served document that writes, so that a new
/// write endpoint without a race case fails this test.
async fn documented_writes(server: &Server) -> Vec<String> {
    let doc: Value = reqwest::get(format!("{}/openapi.json", server.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let mut writes = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let keyed = op["parameters"]
            .as_array()
            .is_some_and(|ps| ps.iter().any(|p| p["name"] == "Idempotency-Key"));
        if keyed {
            writes.push(path.clone());
        }
    }
    writes.sort();
    writes
}

/// The template a concrete path was made from (`{id}` style).
fn template_of(path: &str, templates: &[String]) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    templates
        .iter()
        .find(|t| {
            let ts: Vec<&str> = t.split('/').collect();
            ts.len() == parts.len()
                && ts
                    .iter()
                    .zip(&parts)
                    .all(|(t, p)| t.starts_with('{') || t == p)
        })
        .cloned()
}

#[tokio::test]
async fn sixteen_identical_keyed_requests_have_one_effect_on_every_write_endpoint() {
    for backend in BACKENDS {
        let server = Arc::new(Server::start(backend).await);
        let (_, _, token) = client_as(&server, "writer", ALL, vec![scope_wire()]).await;
        let (_, _, reviewer) = client_as(&server, "reviewer", ALL, vec![scope_wire()]).await;
        let cases = cases(&server, &token, &reviewer).await;
        let writes = documented_writes(&server).await;
        let mut covered: Vec<String> = cases
            .iter()
            .map(|c| template_of(&c.path, &writes).unwrap_or_else(|| c.path.clone()))
            .collect();
        covered.sort();
        covered.dedup();
        assert_eq!(
            covered, writes,
            "every keyed write endpoint has a race case"
        );

        for (i, case) in cases.iter().enumerate() {
            let key = format!("race-key-{i:04}-0000000000");
            let before = event_count(&server).await;
            let mut tasks = Vec::new();
            for _ in 0..16 {
                let (server, token, key) = (server.clone(), case.token.clone(), key.clone());
                let (path, body) = (case.path.clone(), case.body.clone());
                tasks.push(tokio::spawn(async move {
                    post(&server, &token, &path, Some(&key), &body).await
                }));
            }
            let mut answers = Vec::new();
            for t in tasks {
                answers.push(t.await.unwrap());
            }
            let first = &answers[0];
            assert!(
                (200..300).contains(&first.status),
                "{backend:?} {}: {} {}",
                case.path,
                first.status,
                String::from_utf8_lossy(&first.body)
            );
            for a in &answers {
                assert_eq!(
                    (a.status, &a.body),
                    (first.status, &first.body),
                    "{backend:?} {}: answers differ",
                    case.path
                );
            }
            let fresh = answers.iter().filter(|a| !a.replayed).count();
            assert_eq!(fresh, 1, "{backend:?} {}: one original", case.path);
            assert_eq!(
                event_count(&server).await - before,
                case.events,
                "{backend:?} {}: exactly one effect",
                case.path
            );
        }
        assert!(server.engine.verify().await.unwrap().is_clean());
    }
}

#[tokio::test]
async fn replays_are_byte_identical_and_another_request_under_the_key_is_409() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (_, _, alice) = client_as(&server, "alice", ALL, vec![scope_wire()]).await;
        let policy =
            |limit: u32| versioned(json!({"scope": scope(), "consecutive_failure_limit": limit}));
        let path = "/api/v1/attempts/policy";
        let first = post(&server, &alice, path, Some(KEY), &policy(3)).await;
        assert_eq!((first.status, first.replayed), (200, false));
        let events = event_count(&server).await;

        // The same request, even re-serialized, replays the stored bytes.
        let again = post(&server, &alice, path, Some(KEY), &policy(3)).await;
        assert_eq!((again.status, again.replayed), (200, true));
        assert_eq!(again.body, first.body);
        assert_eq!(event_count(&server).await, events, "nothing applied twice");

        // Another body, or another endpoint, under the same key: 409.
        for (p, body) in [
            (path, policy(4)),
            (
                "/api/v1/records/settings",
                versioned(json!({"scope": scope(), "automated_approval": true})),
            ),
        ] {
            let conflict = post(&server, &alice, p, Some(KEY), &body).await;
            assert_eq!(
                (conflict.status, problem(&conflict.body).0.as_str()),
                (409, "idempotency_conflict"),
                "{backend:?} {p}"
            );
        }
        assert_eq!(event_count(&server).await, events);

        // Without a key the write is applied again, as asked.
        let unkeyed = post(&server, &alice, path, None, &policy(3)).await;
        assert_eq!((unkeyed.status, unkeyed.replayed), (200, false));
        assert_eq!(event_count(&server).await, events + 1);

        // Keys belong to the subject: bob's use of alice's key is his own.
        let (_, _, bob) = client_as(&server, "bob", ALL, vec![scope_wire()]).await;
        let bobs = post(&server, &bob, path, Some(KEY), &policy(5)).await;
        assert_eq!((bobs.status, bobs.replayed), (200, false), "{backend:?}");
        // ... and so do a subject's other credentials.
        let (_, _, alice2) = client_as(&server, "alice", ALL, vec![scope_wire()]).await;
        let replay = post(&server, &alice2, path, Some(KEY), &policy(3)).await;
        assert_eq!((replay.replayed, &replay.body), (true, &first.body));
    }
}

#[tokio::test]
async fn a_kept_rejection_is_replayed_not_kept_twice() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (_, _, token) = client_as(&server, "alice", ALL, vec![scope_wire()]).await;
        let mut record = sample_record("rejected");
        record["attempts"][1]["sequence"] = json!(5);
        let body =
            versioned(json!({"scope": scope(), "source": {"key": "src-r"}, "record": record}));
        let first = post(&server, &token, "/api/v1/records", Some(KEY), &body).await;
        assert_eq!(
            (first.status, problem(&first.body).0.as_str()),
            (422, "record_rejected"),
            "{backend:?}"
        );
        let events = event_count(&server).await;
        let again = post(&server, &token, "/api/v1/records", Some(KEY), &body).await;
        assert_eq!((again.status, again.replayed), (422, true));
        assert_eq!(again.body, first.body);
        assert_eq!(event_count(&server).await, events, "one rejection kept");
    }
}

/// A write the store refuses inside its transaction (a stale revision)
/// rolls its receipt back with it: the key stays unused, on both stores.
#[tokio::test]
async fn a_write_the_store_refuses_keeps_no_receipt() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (_, _, author) = client_as(&server, "alice", ALL, vec![scope_wire()]).await;
        let (_, _, reviewer) = client_as(&server, "bob", ALL, vec![scope_wire()]).await;
        let submit = versioned(
            json!({"scope": scope(), "source": {"key": "src-stale"}, "record": sample_record("stale")}),
        );
        assert_eq!(
            post(&server, &author, "/api/v1/records", None, &submit)
                .await
                .status,
            201
        );
        let path = "/api/v1/records/exp-stale-20261120/review";
        let review = |revision: u64| {
            versioned(
                json!({"scope": scope(), "decision": "approve", "mode": "human", "expected_revision": revision}),
            )
        };
        let stale = post(&server, &reviewer, path, Some(KEY), &review(7)).await;
        assert_eq!(
            (stale.status, problem(&stale.body).0.as_str()),
            (409, "revision_conflict"),
            "{backend:?}"
        );
        // The refusal came from the store and left the key unused.
        let applied = post(&server, &reviewer, path, Some(KEY), &review(1)).await;
        assert_eq!(
            (applied.status, applied.replayed),
            (200, false),
            "{backend:?}"
        );
        let again = post(&server, &reviewer, path, Some(KEY), &review(1)).await;
        assert_eq!((again.replayed, &again.body), (true, &applied.body));
    }
}

#[tokio::test]
async fn keys_are_16_to_255_visible_ascii_characters() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let (_, _, token) = client_as(&server, "alice", ALL, vec![scope_wire()]).await;
    let path = "/api/v1/attempts/policy";
    let body = versioned(json!({"scope": scope(), "consecutive_failure_limit": 3}));
    let long = "k".repeat(256);
    let bad: [&[u8]; 6] = [
        b"k",
        b"fifteen-chars-x",
        long.as_bytes(),
        b"sixteen chars no",
        "ключ-ключ-ключ-ключ".as_bytes(),
        b"tab\tinside-a-key-",
    ];
    for key in bad {
        let (status, answer) = post_with_raw_key(&server, &token, path, key, &body).await;
        assert_eq!(
            (status, problem(&answer)),
            (
                400,
                (
                    "invalid_idempotency_key".into(),
                    Some("Idempotency-Key".into())
                )
            ),
            "{:?}",
            String::from_utf8_lossy(key)
        );
    }
    // Two keys on one request are refused, even two equal ones.
    let twice = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .bearer_auth(&token)
        .header("content-type", "application/json")
        .header("idempotency-key", KEY)
        .header("idempotency-key", KEY)
        .body(serde_json::to_vec(&body).unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(twice.status(), 400);
    let answer = twice.bytes().await.unwrap();
    assert_eq!(problem(&answer).0, "invalid_idempotency_key");
    for key in ["sixteen-chars-ok", &"k".repeat(255), "!~#$%&'*+-.^_`|x"] {
        let a = post(&server, &token, path, Some(key), &body).await;
        assert_eq!(a.status, 200, "{key:?}");
    }
}

/// Sends a key as raw header bytes (reqwest refuses non-ASCII `&str` values).
async fn post_with_raw_key(
    server: &Server,
    token: &str,
    path: &str,
    key: &[u8],
    body: &Value,
) -> (u16, Vec<u8>) {
    let resp = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .bearer_auth(token)
        .header("content-type", "application/json")
        .header(
            "idempotency-key",
            reqwest::header::HeaderValue::from_bytes(key).unwrap(),
        )
        .body(serde_json::to_vec(body).unwrap())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.bytes().await.unwrap().to_vec())
}

async fn issue_raw(server: &Server, key: &str, subject: &str) -> (u16, Vec<u8>) {
    let body = serde_json::to_value(issue_request(subject, &["memory_read"], vec![])).unwrap();
    let a = post(
        server,
        &server.admin_token,
        "/api/v1/credentials",
        Some(key),
        &body,
    )
    .await;
    (a.status, a.body)
}

#[tokio::test]
async fn issued_tokens_replay_sealed_even_after_restart() {
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

        // The stored receipt is sealed: the token never sits in the store in
        // clear, neither in an event nor in any byte of the SQLite files.
        let secret = issued.token.rsplit('_').next().unwrap().to_owned();
        let events = server.engine.ledger().events("t1", 0, 100).await.unwrap();
        assert!(events.iter().all(|e| !e.canonical.contains(&secret)));
        if let Some(dir) = &server.location.dir {
            let mut pending = vec![dir.path().to_path_buf()];
            let mut files = 0;
            while let Some(path) = pending.pop() {
                if path.is_dir() {
                    pending.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                    continue;
                }
                files += 1;
                let bytes = std::fs::read(&path).unwrap();
                assert!(
                    !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                    "the token's secret is stored in clear in {path:?}"
                );
            }
            assert!(files > 0, "the store's files were read");
        }
    }
}

#[tokio::test]
async fn the_typed_client_sends_its_key_on_every_write() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let (client, _, _) = client_as(&server, "alice", ALL, vec![scope_wire()]).await;
    let request: praxis_api::SetPolicyRequest = serde_json::from_value(versioned(
        json!({"scope": scope(), "consecutive_failure_limit": 3}),
    ))
    .unwrap();
    let keyed = client.with_idempotency_key(KEY);
    keyed.set_attempt_policy(&request).await.unwrap();
    let events = event_count(&server).await;
    keyed.set_attempt_policy(&request).await.unwrap();
    assert_eq!(event_count(&server).await, events, "the retry was replayed");
    let other: praxis_api::SetPolicyRequest = serde_json::from_value(versioned(
        json!({"scope": scope(), "consecutive_failure_limit": 4}),
    ))
    .unwrap();
    match keyed.set_attempt_policy(&other).await {
        Err(praxis_client::ClientError::Problem(p)) => {
            assert_eq!((p.status, p.code.as_str()), (409, "idempotency_conflict"));
        }
        other => panic!("expected 409, got {other:?}"),
    }
    assert!(
        !format!("{keyed:?}").contains("prx_"),
        "Debug hides the token"
    );
}
