//! A real server on loopback over a real store, for one test.
//!
//! Every answer the server gives is checked against the OpenAPI document it
//! serves (status, content type and body schema, see
//! [`praxis_testkit::contract`]); a test whose requests drew an answer the
//! document does not describe fails when its server is stopped or dropped,
//! naming each mismatch.

use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use praxis_api::{CONTRACT_VERSION, IssueCredentialRequest, Scope};
use praxis_client::Client;
use praxis_store::Engine;
use praxis_testkit::contract::{Answer, Contract};
use praxis_testkit::{Backend, StoreLocation};
use tokio::sync::oneshot;

/// The document `GET /openapi.json` serves.
static CONTRACT: LazyLock<Contract> = LazyLock::new(|| {
    Contract::new(
        serde_json::from_str(&praxis_server::openapi::document()).expect("the document is JSON"),
    )
});

/// Mismatches found in one server's answers.
type Found = Arc<Mutex<Vec<String>>>;

/// Fails the test, when dropped, if any answer did not match the document.
struct Mismatches(Found);

impl Drop for Mismatches {
    fn drop(&mut self) {
        let found = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        // A test already failing reports its own failure, not these.
        assert!(
            found.is_empty() || std::thread::panicking(),
            "{} answer(s) do not match the served OpenAPI document:\n\n{}",
            found.len(),
            found.join("\n\n")
        );
    }
}

/// Checks an answer against the document on its way out, recording a mismatch.
async fn check_answer(State(found): State<Found>, req: Request, next: Next) -> Response {
    let (method, path) = (req.method().to_string(), req.uri().path().to_owned());
    let (parts, body) = next.run(req).await.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .expect("the response body is readable");
    let answer = Answer {
        method: &method,
        path: &path,
        status: parts.status.as_u16(),
        content_type: parts
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
        body: &body,
    };
    if let Err(mismatch) = CONTRACT.check(&answer) {
        eprintln!("answer not in the OpenAPI document: {mismatch}");
        found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(mismatch);
    }
    Response::from_parts(parts, Body::from(body))
}

/// A running server and what a test needs to talk to it.
pub struct Server {
    pub base: String,
    pub admin: Client,
    pub admin_token: String,
    pub seal: praxis_server::seal::SealKey,
    pub anonymous: Client,
    pub engine: Arc<dyn Engine>,
    pub location: StoreLocation,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
    _mismatches: Mismatches,
}

impl Server {
    /// Starts a server over a fresh store with tenant `t1` and its admin.
    pub async fn start(backend: Backend) -> Server {
        let location = StoreLocation::new(backend);
        let engine = praxis_store::open(&location.store)
            .await
            .expect("open store");
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*engine, "t1", "admin")
            .await
            .expect("bootstrap");
        Server::serve(
            engine,
            location,
            token.render(),
            praxis_server::seal::SealKey::generate(),
        )
        .await
    }

    /// Starts a server as [`Server::start`] does, with `settings`.
    pub async fn start_with(backend: Backend, settings: praxis_server::Settings) -> Server {
        let location = StoreLocation::new(backend);
        let engine = praxis_store::open(&location.store)
            .await
            .expect("open store");
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*engine, "t1", "admin")
            .await
            .expect("bootstrap");
        let seal = praxis_server::seal::SealKey::generate();
        Server::serve_with(engine, location, token.render(), seal, settings).await
    }

    /// Serves an opened engine.
    pub async fn serve(
        engine: Arc<dyn Engine>,
        location: StoreLocation,
        admin_token: String,
        seal: praxis_server::seal::SealKey,
    ) -> Server {
        let settings = praxis_server::Settings::default();
        Server::serve_with(engine, location, admin_token, seal, settings).await
    }

    /// Serves an opened engine with `settings`.
    pub async fn serve_with(
        engine: Arc<dyn Engine>,
        location: StoreLocation,
        admin_token: String,
        seal: praxis_server::seal::SealKey,
        settings: praxis_server::Settings,
    ) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let found = Found::default();
        let state =
            praxis_server::AppState::new(engine.clone(), seal.clone()).with_settings(settings);
        let app = praxis_server::router(state).layer(axum::middleware::from_fn_with_state(
            found.clone(),
            check_answer,
        ));
        let task = tokio::spawn(praxis_server::serve_router(listener, app, async move {
            let _ = stopped.await;
        }));
        let task = tokio::spawn(async move {
            task.await.unwrap().unwrap();
        });
        let anonymous = Client::new(&base);
        Server {
            admin: anonymous.with_token(&admin_token),
            admin_token,
            seal,
            anonymous,
            base,
            engine,
            location,
            stop,
            task,
            _mismatches: Mismatches(found),
        }
    }

    /// Stops the server gracefully, closes the store and gives back its location.
    pub async fn stop(self) -> StoreLocation {
        let Server {
            stop,
            task,
            engine,
            location,
            ..
        } = self;
        let _ = stop.send(());
        task.await.unwrap();
        drop(engine);
        location
    }

    /// Issues a credential with the admin and returns a client using it.
    pub async fn client_with(&self, capabilities: &[&str], grants: Vec<Scope>) -> (Client, String) {
        let issued = self
            .admin
            .issue_credential(&issue_request("agent", capabilities, grants), None)
            .await
            .expect("issue");
        (
            self.anonymous.with_token(issued.token),
            issued.credential.id,
        )
    }
}

/// A credential request.
pub fn issue_request(
    subject: &str,
    capabilities: &[&str],
    grants: Vec<Scope>,
) -> IssueCredentialRequest {
    IssueCredentialRequest {
        contract_version: CONTRACT_VERSION,
        subject: subject.into(),
        capabilities: capabilities
            .iter()
            .map(std::string::ToString::to_string)
            .collect(),
        grants,
        expires_at: None,
    }
}

/// A raw request: (status, headers, body).
pub async fn raw(
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    headers: &[(&str, &str)],
    body: Option<Vec<u8>>,
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let mut req = reqwest::Client::new().request(method, url);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if let Some(b) = body {
        req = req.body(b);
    }
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.bytes().await.unwrap().to_vec())
}

/// Parses a problem document and returns (code, field).
pub fn problem(body: &[u8]) -> (String, Option<String>) {
    let p: praxis_api::Problem = serde_json::from_slice(body)
        .unwrap_or_else(|_| panic!("not a problem document: {}", String::from_utf8_lossy(body)));
    (p.code, p.field)
}

/// Issues a credential for `subject` and returns a client using it, with its id and token.
pub async fn client_as(
    server: &Server,
    subject: &str,
    capabilities: &[&str],
    grants: Vec<praxis_api::Scope>,
) -> (praxis_client::Client, String, String) {
    let issued = server
        .admin
        .issue_credential(&issue_request(subject, capabilities, grants), None)
        .await
        .expect("issue");
    (
        server.anonymous.with_token(&issued.token),
        issued.credential.id,
        issued.token,
    )
}

/// Number of events in tenant `t1`.
pub async fn event_count(server: &Server) -> usize {
    server
        .engine
        .ledger()
        .events("t1", 0, 100_000)
        .await
        .unwrap()
        .len()
}
