//! Where a tool's REST request goes: the server's own router, in process,
//! for `/mcp`; a running server over HTTP for the stdio proxy.

use std::time::Duration;

use crate::error::Error;
use crate::operation::{Method, RestCall};

/// Largest REST answer passed on: more than any page the API gives.
pub const ANSWER_LIMIT: usize = 16 * 1024 * 1024;

/// The REST API's answer to one call.
#[derive(Clone, Debug)]
pub struct RestAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub body: Vec<u8>,
}

/// Sends a tool's REST request with a credential.
#[async_trait::async_trait]
pub trait Backend: Send + Sync + 'static {
    /// Sends `call`. `carrier` is the head of the MCP HTTP request that
    /// carried the tool call (its credential, and what the server learned
    /// of it), when it came over HTTP; a backend with a credential of its
    /// own ignores it.
    async fn send(
        &self,
        call: RestCall,
        carrier: Option<&http::request::Parts>,
    ) -> Result<RestAnswer, Error>;
}

/// A running Praxis server, called over HTTP with one bearer token: what
/// `praxis mcp` proxies stdio to.
pub struct HttpBackend {
    client: reqwest::Client,
    base: String,
    authorization: String,
}

impl HttpBackend {
    /// A backend for the server at `base` (`http://host:port`) calling with `token`.
    pub fn new(base: &str, token: &str) -> Result<HttpBackend, Error> {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_mins(1))
            // A redirect would resend a POST as a GET, or elsewhere.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| Error::Unreachable(e.to_string()))?;
        Ok(HttpBackend {
            client,
            base: base.trim_end_matches('/').to_owned(),
            authorization: format!("Bearer {}", token.trim()),
        })
    }
}

#[async_trait::async_trait]
impl Backend for HttpBackend {
    async fn send(
        &self,
        call: RestCall,
        _: Option<&http::request::Parts>,
    ) -> Result<RestAnswer, Error> {
        let url = format!("{}{}", self.base, call.path_and_query);
        let request = match call.method {
            Method::Get => self.client.get(url),
            Method::Post => self
                .client
                .post(url)
                .header(http::header::CONTENT_TYPE, "application/json")
                .body(call.body.unwrap_or_default()),
        };
        // A keyed write always carries a key here: if its answer is lost on
        // the way back, the caller is told the key to call again with.
        let key = match (call.keyed, call.idempotency_key) {
            (true, None) => Some(format!("mcp-{}", uuid::Uuid::new_v4())),
            (_, key) => key,
        };
        let request = match &key {
            Some(key) => request.header("idempotency-key", key),
            None => request,
        };
        let lost = |e: reqwest::Error| {
            if e.is_connect() {
                Error::Unreachable(e.without_url().to_string())
            } else {
                Error::OutcomeUnknown {
                    reason: e.without_url().to_string(),
                    idempotency_key: key.clone(),
                }
            }
        };
        let mut answer = request
            .header(http::header::AUTHORIZATION, &self.authorization)
            .send()
            .await
            .map_err(lost)?;
        let status = answer.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = answer.chunk().await.map_err(lost)? {
            if body.len() + chunk.len() > ANSWER_LIMIT {
                return Err(Error::Unreachable(format!(
                    "the answer is over {ANSWER_LIMIT} bytes"
                )));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(RestAnswer { status, body })
    }
}
