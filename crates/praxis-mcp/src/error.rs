//! Errors of the MCP layer itself; what the REST API refuses comes back to
//! the client as the API's own problem document, not as one of these.

/// What can go wrong before or beside a REST call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The OpenAPI document lacks what a tool needs (a build fault).
    #[error("OpenAPI document: {0}")]
    Document(String),
    /// The server could not be reached: the request was not sent.
    #[error("the Praxis server could not be reached: {0}")]
    Unreachable(String),
    /// The request was sent but its answer was lost: a write may have been
    /// applied. Calling again with the same `idempotency_key` replays its
    /// answer instead of writing twice.
    #[error(
        "the request was sent but its answer was lost ({reason}); it may have been applied: call again with the same idempotency_key"
    )]
    OutcomeUnknown {
        /// What went wrong.
        reason: String,
        /// The key the request carried, if it was a keyed write.
        idempotency_key: Option<String>,
    },
    /// An HTTP request to `/mcp` arrived without a credential to forward.
    #[error("no credential to call the REST API with")]
    NoCredential,
}
