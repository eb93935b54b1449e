//! `/metrics` over real HTTP on both stores: exact counters after a known
//! sequence of requests, route templates as labels, histograms that are
//! cumulative and agree with their count, text that parses, and a Grafana
//! dashboard whose every query names a metric the server exposes.

use std::collections::{BTreeMap, BTreeSet};

use praxis_api::{
    AssessRequest, CONTRACT_VERSION, CandidateAction, ObserveRequest, Outcome, OutcomeStatus,
    RecordSource, Stage, SubmitRecordRequest,
};
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, raw};

mod counters;
mod dashboard;
mod exposition;

use exposition::Exposition;

/// The example scope every request here acts in, as a query string.
const SCOPE_QUERY: &str = "project_id=billing-service&agent_id=triage-bot&visibility=shared";

/// Scrapes `/metrics` and parses it, failing on anything malformed.
async fn scrape(server: &Server) -> Exposition {
    let (status, headers, body) = raw(
        Method::GET,
        &format!("{}/metrics", server.base),
        None,
        &[],
        None,
    )
    .await;
    assert_eq!(status, 200);
    let media = headers["content-type"].to_str().unwrap();
    assert!(media.starts_with("text/plain; version=0.0.4"), "{media}");
    let text = String::from_utf8(body).expect("the exposition is UTF-8");
    Exposition::parse(&text).unwrap_or_else(|e| panic!("{e}\n\n{text}"))
}

/// An answer: status, whether it was replayed, and its JSON body.
struct Reply {
    status: u16,
    replayed: bool,
    json: Value,
}

/// Sends `body` (JSON) or nothing, with `token` and an optional key.
async fn call(
    server: &Server,
    method: Method,
    path: &str,
    token: &str,
    key: Option<&str>,
    body: Option<&Value>,
) -> Reply {
    let mut headers = vec![("content-type", "application/json")];
    if let Some(k) = key {
        headers.push(("idempotency-key", k));
    }
    let (status, headers, bytes) = raw(
        method,
        &format!("{}{path}", server.base),
        Some(token),
        &headers,
        body.map(|b| serde_json::to_vec(b).unwrap()),
    )
    .await;
    Reply {
        status,
        replayed: headers.contains_key("idempotent-replayed"),
        json: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

/// A body in the example scope.
fn scoped(mut v: Value) -> Value {
    v["contract_version"] = json!(1);
    v["scope"] = serde_json::to_value(crate::learning::scope()).unwrap();
    v
}

/// An observation of `action` on `subject` in case `case` with `status`.
fn observation(subject: &str, action: &str, case: &str, status: OutcomeStatus) -> Value {
    serde_json::to_value(ObserveRequest {
        contract_version: CONTRACT_VERSION,
        scope: crate::learning::scope(),
        outcome: Outcome {
            case_id: case.into(),
            subject: subject.into(),
            action_id: action.into(),
            hypothesis_id: "h1".into(),
            verifier_rule_id: Some("rule-1".into()),
            stage: Stage::Active,
            status,
            confidence: 900_000,
            rationale: "because".into(),
            evidence_ids: vec!["ev-1".into()],
            action_revision: None,
            observed_at: None,
        },
        disposition: None,
    })
    .unwrap()
}

/// A memory proposal for `key`, citing nothing.
fn proposal(key: &str) -> Value {
    scoped(json!({"candidate": {
        "schema": "praxis.experience-proposal.v1",
        "summary": "Follow continuation cursors",
        "content": "Follow the next cursor before answering.",
        "conditions": ["A read returns a next cursor."],
        "sources": [],
        "destination": {"kind": "memory", "memory_key": key, "expected_revision": null}
    }}))
}

/// What [`traffic`] expects to see counted.
struct Expected {
    /// The ids the requests carried in their paths: none may show up in a label.
    ids: Vec<String>,
    /// Findings of the rejected submission, by rule.
    findings: BTreeMap<String, u64>,
}

/// Drives a known sequence of requests through every counted area,
/// asserting each answer so that the counts below follow from them.
async fn traffic(server: &Server) -> Expected {
    let caps = [
        "experience_write",
        "experience_read",
        "policy_admin",
        "record_submit",
        "proposal_create",
    ];
    let (_, _, token) =
        crate::support::client_as(server, "agent", &caps, vec![crate::learning::scope()]).await;
    let t = token.as_str();
    let post = |path: &'static str, key: Option<&'static str>, body: Value| {
        let server = &server;
        async move { call(server, Method::POST, path, t, key, Some(&body)).await }
    };

    // Attempts: a limit of 2, then two rejections of `probe` and a success of `other`.
    let policy = scoped(json!({"consecutive_failure_limit": 2}));
    assert_eq!(
        post("/api/v1/attempts/policy", None, policy).await.status,
        200
    );
    let first = observation("host-a", "probe", "c1", OutcomeStatus::FalsePositive);
    let r = post(
        "/api/v1/attempts",
        Some("metrics-observe-0001"),
        first.clone(),
    )
    .await;
    assert_eq!((r.status, r.replayed), (201, false));
    let r = post(
        "/api/v1/attempts",
        Some("metrics-observe-0001"),
        first.clone(),
    )
    .await;
    assert_eq!((r.status, r.replayed), (201, true), "a replay");
    let r = post("/api/v1/attempts", None, first).await;
    assert_eq!(
        (r.status, r.json["write"].as_str()),
        (200, Some("unchanged"))
    );
    let second = observation("host-a", "probe", "c2", OutcomeStatus::FalsePositive);
    assert_eq!(post("/api/v1/attempts", None, second).await.status, 201);
    let success = observation("host-a", "other", "c3", OutcomeStatus::Success);
    assert_eq!(post("/api/v1/attempts", None, success).await.status, 201);
    // Refused and failed writes count nothing but their problem.
    let mut elsewhere = observation("host-a", "probe", "c4", OutcomeStatus::FalsePositive);
    elsewhere["scope"]["project_id"] = json!("another-project");
    let r = post("/api/v1/attempts", None, elsewhere).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (403, Some("missing_grant"))
    );
    let mut misfit = observation("host-a", "probe", "c5", OutcomeStatus::FalsePositive);
    misfit["disposition"] = json!("blocked_by_policy");
    let r = post("/api/v1/attempts", None, misfit).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (422, Some("invalid_disposition"))
    );
    let assess = serde_json::to_value(AssessRequest {
        contract_version: CONTRACT_VERSION,
        scope: crate::learning::scope(),
        subject: "host-a".into(),
        actions: ["probe", "other", "fresh"]
            .map(|a| CandidateAction::Id(a.into()))
            .to_vec(),
    })
    .unwrap();
    let r = post("/api/v1/attempts/assess", None, assess).await;
    let recommendations: Vec<&str> = r.json["assessments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["recommendation"].as_str().unwrap())
        .collect();
    assert_eq!(recommendations, ["suppress", "continue", "explore"]);

    // Records: one passes, the same again is unchanged, a broken edit is rejected.
    let record = praxis_testkit::records::sample_record("metrics");
    let id = record["experience_id"].as_str().unwrap().to_owned();
    let submit = |record: &Value| {
        serde_json::to_value(SubmitRecordRequest {
            contract_version: CONTRACT_VERSION,
            scope: crate::learning::scope(),
            source: RecordSource::Key("k1".into()),
            record: record.clone(),
        })
        .unwrap()
    };
    assert_eq!(
        post("/api/v1/records", None, submit(&record)).await.status,
        201
    );
    let r = post("/api/v1/records", None, submit(&record)).await;
    assert_eq!(
        (r.status, r.json["write"].as_str()),
        (200, Some("unchanged"))
    );
    let mut bad = record.clone();
    bad["attempts"][1]["sequence"] = json!(5);
    bad["verification"]["checks"][0]["evidence_refs"] = json!(["ev-missing"]);
    let r = post("/api/v1/records", None, submit(&bad)).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (422, Some("record_rejected"))
    );
    let mut findings = BTreeMap::new();
    for e in r.json["errors"].as_array().unwrap() {
        *findings
            .entry(e["code"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    assert!(!findings.is_empty());
    let read = format!("/api/v1/records/{id}?{SCOPE_QUERY}");
    assert_eq!(
        call(server, Method::GET, &read, t, None, None).await.status,
        200
    );
    let missing = format!("/api/v1/records/exp-nothing-here-20261120?{SCOPE_QUERY}");
    let r = call(server, Method::GET, &missing, t, None, None).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (404, Some("record_not_found"))
    );
    let nowhere = "/api/v1/no-such-route/secret-id-123";
    assert_eq!(
        call(server, Method::GET, nowhere, t, None, None)
            .await
            .status,
        404
    );

    // Proposals: two created, one withdrawn (twice: the second is refused),
    // the other reviewed and approved into memory.
    let a = post("/api/v1/proposals", None, proposal("metrics-a")).await;
    assert_eq!(a.status, 201);
    let a = a.json["proposal"]["id"].as_str().unwrap().to_owned();
    let b = post("/api/v1/proposals", None, proposal("metrics-b")).await;
    assert_eq!(b.status, 201);
    let b = b.json["proposal"]["id"].as_str().unwrap().to_owned();
    let withdraw = format!("/api/v1/proposals/{b}/withdraw");
    let body = scoped(json!({"reason": "Superseded by a narrower proposal."}));
    let r = call(server, Method::POST, &withdraw, t, None, Some(&body)).await;
    assert_eq!(r.status, 200);
    let r = call(server, Method::POST, &withdraw, t, None, Some(&body)).await;
    assert_eq!(
        (r.status, r.json["code"].as_str()),
        (409, Some("proposal_not_open"))
    );
    let review = format!("/api/v1/proposals/{a}/review");
    let r = call(
        server,
        Method::POST,
        &review,
        t,
        None,
        Some(&scoped(json!({}))),
    )
    .await;
    assert_eq!(r.status, 200);
    let hashes = scoped(json!({
        "version_hash": r.json["version_hash"],
        "destination_hash": r.json["destination_hash"],
    }));
    // Another subject approves: a proposer may not approve their own.
    let caps = ["proposal_approve", "memory_read"];
    let scopes = vec![crate::learning::scope()];
    let (_, _, approver) = crate::support::client_as(server, "approver", &caps, scopes).await;
    let approve = format!("/api/v1/proposals/{a}/approve");
    let r = call(
        server,
        Method::POST,
        &approve,
        &approver,
        None,
        Some(&hashes),
    )
    .await;
    assert_eq!(
        (r.status, r.json["applied_now"].as_bool()),
        (200, Some(true))
    );

    Expected {
        ids: vec![id, a, b, "secret-id-123".into(), "exp-nothing-here".into()],
        findings,
    }
}

/// Every label value of every sample.
fn label_values(e: &Exposition) -> BTreeSet<&str> {
    e.samples
        .iter()
        .flat_map(|s| s.labels.values().map(String::as_str))
        .collect()
}
