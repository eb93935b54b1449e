//! The learning authority's registry and who may use the learning
//! endpoints, over real HTTP on both stores; and the helpers the
//! experience tests (`crate::experiences`) share.
//!
//! Requests are the served examples (`praxis_api::examples::learning`),
//! edited field by field, and sent as raw JSON so that answers can be
//! compared byte for byte.

use praxis_api::examples::learning as ex;
use praxis_api::{Scope, Visibility};
use praxis_testkit::Backend;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use crate::support::{Server, client_as, raw};

mod access;
mod registry;

pub(crate) const POLICIES: &str = "/api/v1/learning/policies";
pub(crate) const CONTEXTS: &str = "/api/v1/learning/contexts";
pub(crate) const RECORD: &str = "/api/v1/experiences";
pub(crate) const REPORT: &str = "/api/v1/experiences/events";
pub(crate) const READ: &str = "/api/v1/experiences/read";
pub(crate) const READ_EVENT: &str = "/api/v1/experiences/events/read";
pub(crate) const HISTORY: &str = "/api/v1/experiences/history";
pub(crate) const LINEAGE: &str = "/api/v1/experiences/lineage";
pub(crate) const EXPORT: &str = "/api/v1/experiences/export";
pub(crate) const WITHDRAW: &str = "/api/v1/experiences/withdrawals";
pub(crate) const INSPECT: &str = "/api/v1/experiences/withdrawals/inspect";

/// Every capability a learning endpoint needs.
pub(crate) const ALL: &[&str] = &[
    "policy_admin",
    "experience_write",
    "experience_report",
    "experience_read",
    "experience_evidence_admin",
];

/// The example scope every test acts in.
pub(crate) fn scope() -> Scope {
    praxis_api::examples::scope()
}

/// The example scope made private.
pub(crate) fn private_scope() -> Scope {
    Scope {
        visibility: Visibility::Private,
        ..scope()
    }
}

/// An answer: status, body bytes, and the body as JSON (null when empty).
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
    pub json: Value,
}

impl Reply {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The problem's code, or "" for a success.
    pub(crate) fn code(&self) -> &str {
        self.json["code"].as_str().unwrap_or("")
    }

    /// Asserts the status and returns the body.
    #[track_caller]
    pub(crate) fn ok(&self, status: u16) -> &Value {
        assert_eq!(self.status, status, "{}", self.text());
        &self.json
    }

    /// Asserts a problem: status, code and field.
    #[track_caller]
    pub(crate) fn refused(&self, status: u16, code: &str, field: Option<&str>) {
        assert_eq!(
            (self.status, self.code(), self.json["field"].as_str()),
            (status, code, field),
            "{}",
            self.text()
        );
    }
}

/// Sends a request with an optional token and an optional body.
pub(crate) async fn send(
    base: &str,
    token: Option<&str>,
    method: Method,
    path: &str,
    body: Option<Vec<u8>>,
) -> Reply {
    let headers: &[(&str, &str)] = if body.is_some() {
        &[("content-type", "application/json")]
    } else {
        &[]
    };
    let (status, _, body) = raw(method, &format!("{base}{path}"), token, headers, body).await;
    let json = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).expect("answers are JSON")
    };
    Reply { status, body, json }
}

/// POSTs a JSON body.
pub(crate) async fn post(base: &str, token: &str, path: &str, body: &Value) -> Reply {
    let bytes = serde_json::to_vec(body).unwrap();
    send(base, Some(token), Method::POST, path, Some(bytes)).await
}

/// GETs a path.
pub(crate) async fn get(base: &str, token: &str, path: &str) -> Reply {
    send(base, Some(token), Method::GET, path, None).await
}

/// Hex SHA-256.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A value with `scope` set to the example scope.
fn scoped(mut v: Value) -> Value {
    v["scope"] = serde_json::to_value(scope()).unwrap();
    v
}

/// `POST /learning/policies`: the example policy.
pub(crate) fn policy_body() -> Value {
    serde_json::to_value(ex::register_policy()).unwrap()
}

/// `POST /learning/contexts`: the example context.
pub(crate) fn context_body() -> Value {
    serde_json::to_value(ex::register_context()).unwrap()
}

/// `POST /experiences`: the example attempt under `id`, reported by
/// [`ex::REPORTER`].
pub(crate) fn record_body(id: &str) -> Value {
    let mut r = serde_json::to_value(ex::record()).unwrap();
    r["experience"]["id"] = json!(id);
    r["experience"]["input"]["reference"] = json!(format!("trace://dev/{id}"));
    r
}

/// `POST /experiences`: a child of `parent`'s event `event`.
pub(crate) fn child_body(id: &str, parent: &str, event: &str) -> Value {
    let mut r = record_body(id);
    r["experience"]["parent"] = json!({"attempt_id": parent, "event_id": event});
    r
}

/// `POST /experiences/events`: the example event (with its evidence) with
/// these ids, revision, outcome and consumption.
pub(crate) fn event_body(
    attempt: &str,
    event: &str,
    expected: u64,
    outcome: &str,
    cost_units: Option<u64>,
    latency_ms: Option<u64>,
) -> Value {
    let mut r = serde_json::to_value(ex::report()).unwrap();
    r["attempt_id"] = json!(attempt);
    r["event"]["event_id"] = json!(event);
    r["event"]["expected_revision"] = json!(expected);
    r["event"]["outcome"] = json!(outcome);
    r["event"]["cost_units"] = json!(cost_units);
    r["event"]["latency_ms"] = json!(latency_ms);
    r
}

/// `POST /experiences/read` and `/lineage`.
pub(crate) fn read_body(attempt: &str) -> Value {
    scoped(json!({"contract_version": 1, "attempt_id": attempt}))
}

/// `POST /experiences/events/read`.
pub(crate) fn read_event_body(attempt: &str, event: &str) -> Value {
    scoped(json!({"contract_version": 1, "attempt_id": attempt, "event_id": event}))
}

/// `POST /experiences/history`.
pub(crate) fn history_body(attempt: &str, after: Option<&str>, limit: Option<u32>) -> Value {
    scoped(json!({"contract_version": 1, "attempt_id": attempt, "after": after, "limit": limit}))
}

/// `POST /experiences/export` of (attempt, event) pairs, in this order.
pub(crate) fn export_body(pairs: &[(&str, &str)]) -> Value {
    let events: Vec<Value> = pairs
        .iter()
        .map(|(a, e)| json!({"attempt_id": a, "event_id": e}))
        .collect();
    scoped(json!({"contract_version": 1, "events": events}))
}

/// `POST /experiences/withdrawals/inspect`.
pub(crate) fn inspect_body(attempt: &str, event: &str) -> Value {
    scoped(json!({"contract_version": 1,
        "observation": {"attempt_id": attempt, "event_id": event}}))
}

/// `POST /experiences/withdrawals`: the example reason.
pub(crate) fn withdraw_body(key: &str, attempt: &str, event: &str, digest: &str) -> Value {
    let mut r = serde_json::to_value(ex::withdraw()).unwrap();
    r["idempotency_key"] = json!(key);
    r["observation"] = json!({"attempt_id": attempt, "event_id": event, "event_digest": digest});
    r
}

/// A server with the example policy and context registered, and a
/// credential of [`ex::REPORTER`] with every capability in the example scope.
pub(crate) struct Lab {
    pub server: Server,
    pub token: String,
    /// The context's registration answer.
    pub context: Value,
}

impl Lab {
    pub(crate) async fn start(backend: Backend) -> Lab {
        eprintln!("backend {backend:?}");
        let server = Server::start(backend).await;
        let (_, _, token) = client_as(&server, ex::REPORTER, ALL, vec![scope()]).await;
        let base = server.base.clone();
        post(&base, &token, POLICIES, &policy_body()).await.ok(201);
        let context = post(&base, &token, CONTEXTS, &context_body()).await;
        let context = context.ok(201).clone();
        Lab {
            server,
            token,
            context,
        }
    }

    pub(crate) fn base(&self) -> &str {
        &self.server.base
    }

    /// A token of `subject` with `capabilities` and `grants`.
    pub(crate) async fn token(
        &self,
        subject: &str,
        capabilities: &[&str],
        grants: Vec<Scope>,
    ) -> String {
        client_as(&self.server, subject, capabilities, grants)
            .await
            .2
    }

    /// POSTs with the reporter's token.
    pub(crate) async fn post(&self, path: &str, body: &Value) -> Reply {
        post(self.base(), &self.token, path, body).await
    }

    /// Records the example attempt under `id`; returns the experience.
    pub(crate) async fn record(&self, id: &str) -> Value {
        self.post(RECORD, &record_body(id)).await.ok(201)["experience"].clone()
    }

    /// Reports an event as the reporter.
    pub(crate) async fn report(
        &self,
        attempt: &str,
        event: &str,
        expected: u64,
        outcome: &str,
        cost_units: Option<u64>,
        latency_ms: Option<u64>,
    ) -> Reply {
        let body = event_body(attempt, event, expected, outcome, cost_units, latency_ms);
        self.post(REPORT, &body).await
    }

    /// Reports an event that must be accepted; returns the answer.
    pub(crate) async fn accept(
        &self,
        attempt: &str,
        event: &str,
        expected: u64,
        outcome: &str,
        cost_units: Option<u64>,
        latency_ms: Option<u64>,
    ) -> Value {
        self.report(attempt, event, expected, outcome, cost_units, latency_ms)
            .await
            .ok(201)
            .clone()
    }

    /// Reads an experience that must exist.
    pub(crate) async fn read(&self, attempt: &str) -> Value {
        self.post(READ, &read_body(attempt)).await.ok(200)["experience"].clone()
    }
}

/// Learning events (registrations, experiences and withdrawals) in
/// tenant `t1`'s ledger; credentials issued along the way are not counted.
pub(crate) async fn learning_events(server: &Server) -> usize {
    let events = server
        .engine
        .ledger()
        .events("t1", 0, 100_000)
        .await
        .unwrap();
    events
        .iter()
        .filter(|e| e.kind.starts_with("learning.") || e.kind.starts_with("experience."))
        .count()
}

/// Runs a SQL batch directly on the store, behind the server's back.
pub(crate) async fn sql(backend: Backend, store: &str, statement: &str) {
    match backend {
        Backend::Sqlite => {
            let conn =
                rusqlite::Connection::open(std::path::Path::new(store).join("praxis.db")).unwrap();
            conn.execute_batch(statement).unwrap();
        }
        Backend::Postgres => {
            let (client, conn) = tokio_postgres::connect(store, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            client.batch_execute(statement).await.unwrap();
        }
    }
}
