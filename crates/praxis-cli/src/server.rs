//! `praxis server …`: a running server's operational endpoints, which need
//! no credential: liveness, readiness (exit 1 when not ready), the
//! Prometheus metrics and the OpenAPI document.

use std::process::ExitCode;

use clap::{Args, Subcommand};
use praxis_client::Client;

use crate::client_config::ClientConfig;
use crate::output::{client_error, emit};

/// Where the server is: `--url`, `PRAXIS_URL`, the client config's `url`,
/// or the default.
#[derive(Args)]
pub struct Url {
    /// Base URL of the Praxis server [default: the client config's url,
    /// else http://127.0.0.1:7878].
    #[arg(long, env = "PRAXIS_URL")]
    url: Option<String>,
    /// Client config file, for its `url` [default: as for other commands].
    #[arg(long, env = crate::client_config::CLIENT_CONFIG_ENV, value_name = "FILE")]
    client_config: Option<std::path::PathBuf>,
}

impl Url {
    fn client(&self) -> anyhow::Result<Client> {
        let url = match &self.url {
            Some(url) => url.clone(),
            None => ClientConfig::load(self.client_config.as_deref())?
                .url
                .unwrap_or_else(|| crate::attempts::DEFAULT_URL.to_owned()),
        };
        Ok(Client::new(url))
    }
}

/// `praxis server` subcommands.
#[derive(Subcommand)]
pub enum ServerCmd {
    /// Is the process alive (`/healthz`)?
    Health {
        #[command(flatten)]
        url: Url,
    },
    /// Does the store accept durable writes (`/readyz`)? Exits 1 when not,
    /// printing the server's reason.
    Ready {
        #[command(flatten)]
        url: Url,
    },
    /// Print the Prometheus text exposition (`/metrics`), as sent; with
    /// --json, as a JSON string.
    Metrics {
        #[command(flatten)]
        url: Url,
    },
    /// Print the OpenAPI 3.1 document the server serves.
    Openapi {
        #[command(flatten)]
        url: Url,
    },
}

/// Runs one subcommand.
pub async fn run(cmd: ServerCmd) -> anyhow::Result<ExitCode> {
    match cmd {
        ServerCmd::Health { url } => {
            let health = url.client()?.health().await.map_err(client_error)?;
            emit(&health, |h| format!("{} ({} store)", h.status, h.store))?;
        }
        ServerCmd::Ready { url } => {
            let readiness = url.client()?.readiness().await.map_err(client_error)?;
            emit(&readiness.health, |h| {
                format!("{} ({} store)", h.status, h.store)
            })?;
            if !readiness.ready {
                return Ok(ExitCode::FAILURE);
            }
        }
        ServerCmd::Metrics { url } => {
            let text = url.client()?.metrics().await.map_err(client_error)?;
            emit(&text, Clone::clone)?;
        }
        ServerCmd::Openapi { url } => {
            let document = url.client()?.openapi().await.map_err(client_error)?;
            emit(&document, |d| {
                serde_json::to_string_pretty(d).unwrap_or_default()
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
