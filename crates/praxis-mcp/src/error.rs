//! Errors of the MCP layer itself; what the REST API refuses comes back to
//! the client as the API's own problem document, not as one of these.

/// What can go wrong before or beside a REST call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The OpenAPI document lacks what a tool needs (a build fault).
    #[error("OpenAPI document: {0}")]
    Document(String),
    /// The server could not be reached or did not answer.
    #[error("the Praxis server did not answer: {0}")]
    Unreachable(String),
    /// An HTTP request to `/mcp` arrived without a credential to forward.
    #[error("no credential to call the REST API with")]
    NoCredential,
}
