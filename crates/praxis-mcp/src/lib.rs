//! Praxis as a Model Context Protocol server.
//!
//! [`PraxisMcp`] offers the tools of [`catalog::TOOLS`] and the resources of
//! [`resources`]. Each tool call and resource read is exactly one request to
//! the REST API, built from the OpenAPI document the server serves and sent
//! with the caller's own credential through a [`Backend`]: in process for
//! `praxis serve`'s `/mcp` endpoint, over HTTP for `praxis mcp`'s stdio
//! proxy. The MCP layer therefore holds no authority of its own, and a
//! refusal is the REST API's problem document, returned as a tool error.

pub mod backend;
pub mod catalog;
pub mod error;
mod handler;
pub mod operation;
pub mod resources;

use std::sync::Arc;

use rmcp::ServiceExt as _;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

pub use backend::{Backend, HttpBackend, RestAnswer};
pub use error::Error;
pub use handler::PraxisMcp;

/// The streamable HTTP service for `mcp`: stateless, every POST answered
/// with one JSON body of at most `max_body` bytes read, no sessions to keep
/// or to lose on a restart. Host and Origin checks are left to the caller,
/// which answers them in the REST API's own problem format.
pub fn http_service(
    mcp: PraxisMcp,
    max_body: usize,
) -> StreamableHttpService<PraxisMcp, NeverSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_max_request_body_bytes(max_body)
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .disable_allowed_hosts()
        .disable_allowed_origins();
    StreamableHttpService::new(
        move || Ok(mcp.clone()),
        Arc::new(NeverSessionManager::default()),
        config,
    )
}

/// Serves `mcp` on this process's stdin and stdout until the client closes them.
pub async fn serve_stdio(mcp: PraxisMcp) -> Result<(), Error> {
    let running = mcp
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| Error::Unreachable(format!("the MCP session did not start: {e}")))?;
    running
        .waiting()
        .await
        .map_err(|e| Error::Unreachable(format!("the MCP session ended abnormally: {e}")))?;
    Ok(())
}
