//! A typed client for the Praxis HTTP API.
//!
//! Every call returns the API's wire types, or a [`ClientError`] that carries
//! the server's RFC 9457 problem document when the server refused.

use praxis_api::{
    CONTRACT_VERSION, CredentialPage, CredentialResponse, EmptyRequest, Health, IDEMPOTENCY_KEY,
    IssueCredentialRequest, Problem, TokenResponse,
};
use reqwest::{Method, RequestBuilder, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// Why a call failed.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The request could not be sent or the response not read.
    #[error("transport: {0}")]
    Transport(#[from] reqwest::Error),
    /// The server refused with a problem document.
    #[error("{} {}: {}", .0.status, .0.code, .0.detail)]
    Problem(Problem),
    /// The server answered something that is not the expected document.
    #[error("unexpected response ({status}): {body}")]
    Unexpected {
        /// HTTP status.
        status: u16,
        /// Body text (truncated).
        body: String,
    },
}

impl ClientError {
    /// The problem's stable code, if the server sent one.
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientError::Problem(p) => Some(&p.code),
            _ => None,
        }
    }
}

/// A client bound to one server and, optionally, one credential token.
#[derive(Clone, Debug)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: Option<String>,
}

impl Client {
    /// A client for the server at `base` (for example `http://127.0.0.1:7878`).
    pub fn new(base: impl Into<String>) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: base.into().trim_end_matches('/').to_owned(),
            token: None,
        }
    }

    /// The same client authenticating with `token`.
    pub fn with_token(&self, token: impl Into<String>) -> Client {
        Client {
            token: Some(token.into()),
            ..self.clone()
        }
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let req = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
    }

    async fn send<T: DeserializeOwned>(req: RequestBuilder) -> Result<T, ClientError> {
        let response = req.send().await?;
        let status = response.status();
        let bytes = response.bytes().await?;
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|_| unexpected(status, &bytes));
        }
        match serde_json::from_slice::<Problem>(&bytes) {
            Ok(p) => Err(ClientError::Problem(p)),
            Err(_) => Err(unexpected(status, &bytes)),
        }
    }

    async fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
        idempotency_key: Option<&str>,
    ) -> Result<T, ClientError> {
        let mut req = self.request(Method::POST, path).json(body);
        if let Some(k) = idempotency_key {
            req = req.header(IDEMPOTENCY_KEY, k);
        }
        Self::send(req).await
    }

    /// `POST /api/v1/credentials`.
    pub async fn issue_credential(
        &self,
        request: &IssueCredentialRequest,
        idempotency_key: Option<&str>,
    ) -> Result<TokenResponse, ClientError> {
        self.post("/api/v1/credentials", request, idempotency_key)
            .await
    }

    /// `POST /api/v1/credentials/{id}/rotate`.
    pub async fn rotate_credential(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<TokenResponse, ClientError> {
        let body = EmptyRequest {
            contract_version: CONTRACT_VERSION,
        };
        self.post(
            &format!("/api/v1/credentials/{id}/rotate"),
            &body,
            idempotency_key,
        )
        .await
    }

    /// `POST /api/v1/credentials/{id}/revoke`.
    pub async fn revoke_credential(&self, id: &str) -> Result<CredentialResponse, ClientError> {
        let body = EmptyRequest {
            contract_version: CONTRACT_VERSION,
        };
        self.post(&format!("/api/v1/credentials/{id}/revoke"), &body, None)
            .await
    }

    /// `GET /api/v1/credentials/{id}`.
    pub async fn credential(&self, id: &str) -> Result<CredentialResponse, ClientError> {
        Self::send(self.request(Method::GET, &format!("/api/v1/credentials/{id}"))).await
    }

    /// `GET /api/v1/credentials`.
    pub async fn list_credentials(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<CredentialPage, ClientError> {
        let mut req = self
            .request(Method::GET, "/api/v1/credentials")
            .query(&[("limit", limit.to_string())]);
        if let Some(a) = after {
            req = req.query(&[("after", a)]);
        }
        Self::send(req).await
    }

    /// `GET /readyz`.
    pub async fn ready(&self) -> Result<Health, ClientError> {
        Self::send(self.request(Method::GET, "/readyz")).await
    }
}

fn unexpected(status: StatusCode, bytes: &[u8]) -> ClientError {
    let text = String::from_utf8_lossy(bytes);
    ClientError::Unexpected {
        status: status.as_u16(),
        body: text.chars().take(512).collect(),
    }
}
