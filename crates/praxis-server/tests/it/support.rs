//! A real server on loopback over a real store, for one test.

use std::sync::Arc;

use praxis_api::{CONTRACT_VERSION, IssueCredentialRequest, Scope};
use praxis_client::Client;
use praxis_store::Engine;
use praxis_testkit::{Backend, StoreLocation};
use tokio::sync::oneshot;

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

    /// Serves an opened engine.
    pub async fn serve(
        engine: Arc<dyn Engine>,
        location: StoreLocation,
        admin_token: String,
        seal: praxis_server::seal::SealKey,
    ) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(praxis_server::serve(
            listener,
            engine.clone(),
            seal.clone(),
            async move {
                let _ = stopped.await;
            },
        ));
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
