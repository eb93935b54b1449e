//! `praxis mcp`: the MCP server on stdin and stdout, for desktop agent
//! hosts, proxying every tool call to a running server over HTTP with one
//! credential. Stdout carries only the protocol.

use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use praxis_mcp::{HttpBackend, PraxisMcp};

use crate::client_config::ConfiguredRemote;

/// Where the server is and whose credential the tools use.
#[derive(Args)]
pub struct McpArgs {
    #[command(flatten)]
    remote: ConfiguredRemote,
}

/// Serves MCP on stdio until the host closes it.
pub async fn run(args: McpArgs) -> anyhow::Result<()> {
    let (url, token) = args.remote.endpoint()?;
    let backend = HttpBackend::new(&url, &token).context("preparing the HTTP client")?;
    // The tools are described by the document of the API this binary
    // serves, so `praxis mcp` and `praxis serve` of one release agree.
    let mcp = PraxisMcp::new(&praxis_server::openapi::document(), Arc::new(backend))?;
    praxis_mcp::serve_stdio(mcp).await?;
    Ok(())
}
