//! `/mcp`: the MCP server over streamable HTTP.
//!
//! Every request to `/mcp` has its `Origin` checked (DNS rebinding) and its
//! bearer token authenticated exactly as a REST request's is, before the
//! MCP layer reads it. A tool call is then one request to the REST router,
//! in process, carrying the same `Authorization` header: capabilities,
//! grants, tenants, validation and idempotency are the REST API's own, so
//! MCP can grant nothing REST would refuse.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{FromRequestParts as _, Request, State};
use axum::http::{self as http, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use praxis_mcp::operation::{Method, RestCall};
use praxis_mcp::{Backend, PraxisMcp, RestAnswer};
use tower::ServiceExt as _;

mod origin;

pub use origin::McpSettings;

use crate::AppState;
use crate::error::ApiError;
use crate::extract::{Auth, Authenticated};

/// The REST router, called in process with the MCP request's credential.
struct RouterBackend {
    rest: Router,
}

#[async_trait::async_trait]
impl Backend for RouterBackend {
    async fn send(
        &self,
        call: RestCall,
        carrier: Option<&http::request::Parts>,
    ) -> Result<RestAnswer, praxis_mcp::Error> {
        let carrier = carrier.ok_or(praxis_mcp::Error::NoCredential)?;
        let credential = carrier
            .headers
            .get(header::AUTHORIZATION)
            .ok_or(praxis_mcp::Error::NoCredential)?;
        let mut request = axum::http::Request::builder()
            .uri(&call.path_and_query)
            .header(header::AUTHORIZATION, credential);
        if let Some(key) = &call.idempotency_key {
            request = request.header("idempotency-key", key);
        }
        // The guard authenticated this very request: the REST handler need
        // not read the credential again.
        if let Some(authenticated) = carrier.extensions.get::<Authenticated>()
            && let Some(extensions) = request.extensions_mut()
        {
            extensions.insert(authenticated.clone());
        }
        let request = match call.method {
            Method::Get => request.method("GET").body(Body::empty()),
            Method::Post => request
                .method("POST")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(call.body.unwrap_or_default())),
        }
        .map_err(|e| praxis_mcp::Error::Unreachable(e.to_string()))?;
        let response = self
            .rest
            .clone()
            .oneshot(request)
            .await
            .unwrap_or_else(|never| match never {});
        let status = response.status().as_u16();
        let body = axum::body::to_bytes(response.into_body(), praxis_mcp::backend::ANSWER_LIMIT)
            .await
            .map_err(|e| praxis_mcp::Error::Unreachable(e.to_string()))?;
        Ok(RestAnswer {
            status,
            body: body.to_vec(),
        })
    }
}

/// The `/mcp` route over the REST application `rest`, guarded by `state`'s
/// credentials and origin settings.
pub fn routes(rest: Router, state: AppState) -> Router<AppState> {
    let mcp = PraxisMcp::new(
        &crate::openapi::document(),
        Arc::new(RouterBackend { rest }),
    )
    .expect("every MCP tool names an operation of the OpenAPI document");
    let cors = state.settings.mcp.cors();
    Router::new()
        // No tool carries more than the largest REST body, a record's.
        .route_service(
            "/mcp",
            praxis_mcp::http_service(mcp, crate::RECORD_BODY_LIMIT),
        )
        .layer(axum::middleware::from_fn_with_state(state, guard))
        // Outside the guard: a preflight carries no credential.
        .layer(cors)
}

/// Refuses a foreign `Origin` (403) and an unusable credential (401) in the
/// REST API's problem format before the MCP layer sees the request.
async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if let Some(origin) = request.headers().get(header::ORIGIN)
        && !state.settings.mcp.allows(origin)
    {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "origin_not_allowed",
            "this Origin may not call /mcp; allow it with --mcp-allow-origin",
        )
        .at("Origin")
        .into_response();
    }
    let (mut parts, body) = request.into_parts();
    match Auth::from_request_parts(&mut parts, &state).await {
        Ok(Auth(principal)) => {
            parts.extensions.insert(Authenticated(principal));
        }
        Err(refused) => return refused.into_response(),
    }
    next.run(Request::from_parts(parts, body)).await
}
