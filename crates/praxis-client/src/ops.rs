//! The server's operational endpoints: liveness, readiness, metrics and the
//! OpenAPI document. None needs a credential.

use praxis_api::Health;
use reqwest::Method;

use crate::{Client, ClientError, unexpected};

/// What `/readyz` answered: ready (200) or not (503), with the server's
/// reason either way.
#[derive(Clone, Debug, PartialEq)]
pub struct Readiness {
    /// Whether the store accepts durable writes.
    pub ready: bool,
    /// `ok`, or what is wrong, and the store kind.
    pub health: Health,
}

impl Client {
    /// `GET /healthz`: the process is alive.
    pub async fn health(&self) -> Result<Health, ClientError> {
        Self::send(self.request(Method::GET, "/healthz")).await
    }

    /// `GET /readyz`, reading a 503's body as the reason rather than as a
    /// failure of the call.
    pub async fn readiness(&self) -> Result<Readiness, ClientError> {
        let response = self.request(Method::GET, "/readyz").send().await?;
        let status = response.status();
        let bytes = response.bytes().await?;
        let ready = status.is_success();
        if !ready && status != reqwest::StatusCode::SERVICE_UNAVAILABLE {
            return Err(unexpected(status, &bytes));
        }
        let health = serde_json::from_slice(&bytes).map_err(|_| unexpected(status, &bytes))?;
        Ok(Readiness { ready, health })
    }

    /// `GET /metrics`: the Prometheus text exposition, as sent.
    pub async fn metrics(&self) -> Result<String, ClientError> {
        let response = self.request(Method::GET, "/metrics").send().await?;
        let status = response.status();
        let text = response.text().await?;
        if status.is_success() {
            Ok(text)
        } else {
            Err(unexpected(status, text.as_bytes()))
        }
    }

    /// `GET /openapi.json`: the API's OpenAPI 3.1 document.
    pub async fn openapi(&self) -> Result<serde_json::Value, ClientError> {
        Self::send(self.request(Method::GET, "/openapi.json")).await
    }
}
