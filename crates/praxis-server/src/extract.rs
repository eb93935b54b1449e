//! Request extraction: bounded strict JSON bodies and bearer authentication.

use axum::extract::{FromRequest, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use praxis_api::{CONTRACT_VERSION, IDEMPOTENCY_KEY};
use praxis_domain::auth::{Principal, Token, secret_matches};
use praxis_domain::canonical::{parse_strict, pointer};
use praxis_domain::credentials::CredentialStatus;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ApiError;
use crate::{AppState, BODY_LIMIT};

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "request_too_large",
        format!("the request body exceeds {limit} bytes"),
    )
}

/// Refuses a declared Content-Length over `limit` before any handler runs.
pub async fn limit_declared_length(
    State(limit): State<usize>,
    req: Request,
    next: Next,
) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return too_large(limit).into_response();
    }
    next.run(req).await
}

/// A JSON body of at most `LIMIT` bytes, parsed strictly and typed, with
/// its canonical value kept for digests.
pub struct ApiJson<T, const LIMIT: usize = BODY_LIMIT> {
    /// The typed request.
    pub body: T,
    /// The strictly parsed document (for request digests).
    pub value: Value,
}

impl<T: DeserializeOwned, S: Send + Sync, const LIMIT: usize> FromRequest<S> for ApiJson<T, LIMIT> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _: &S) -> Result<Self, ApiError> {
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if !is_json_media_type(content_type) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "request bodies must be application/json",
            ));
        }
        // Reads at most LIMIT bytes whatever the framing says.
        let bytes = axum::body::to_bytes(req.into_body(), LIMIT)
            .await
            .map_err(|_| too_large(LIMIT))?;
        let value = parse_strict(&bytes)?;
        check_contract_version(&value)?;
        let body = typed(&value)?;
        Ok(ApiJson { body, value })
    }
}

/// Whether a `Content-Type` names JSON: `application/json` in any case,
/// with no parameter but an optional `charset=utf-8` (RFC 8259 JSON is
/// UTF-8). A list of types, another subtype or another charset is not.
fn is_json_media_type(value: &str) -> bool {
    let mut parts = value.split(';');
    let essence = parts.next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
        && parts.all(|param| {
            let (name, value) = param.split_once('=').unwrap_or((param, ""));
            name.trim().eq_ignore_ascii_case("charset")
                && value.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
        })
}

fn check_contract_version(value: &Value) -> Result<(), ApiError> {
    let Some(obj) = value.as_object() else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_body",
            "the body must be a JSON object",
        ));
    };
    match obj.get("contract_version") {
        None => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "missing_field",
            "contract_version is required",
        )
        .at("/contract_version")),
        Some(v) if v.as_u64() == Some(u64::from(CONTRACT_VERSION)) => Ok(()),
        Some(_) => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "unsupported_contract_version",
            format!("this server speaks contract_version {CONTRACT_VERSION}"),
        )
        .at("/contract_version")),
    }
}

/// Deserializes a checked value into a wire type, naming the offending field on failure.
pub fn typed<T: DeserializeOwned>(value: &Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map_err(|err| {
        let mut segments: Vec<String> = err
            .path()
            .iter()
            .filter_map(|s| match s {
                serde_path_to_error::Segment::Seq { index } => Some(index.to_string()),
                serde_path_to_error::Segment::Map { key } => Some(key.clone()),
                serde_path_to_error::Segment::Enum { .. }
                | serde_path_to_error::Segment::Unknown => None,
            })
            .collect();
        let message = err.inner().to_string();
        // serde_path_to_error's path already ends at an unknown field, but
        // stops at the object that lacks a missing one.
        let (code, status) = if message.starts_with("unknown field `") {
            ("unknown_field", StatusCode::BAD_REQUEST)
        } else if let Some(name) = backticked(&message, "missing field `") {
            segments.push(name);
            ("missing_field", StatusCode::BAD_REQUEST)
        } else {
            ("invalid_field", StatusCode::BAD_REQUEST)
        };
        ApiError::new(status, code, message).at(pointer(&segments))
    })
}

fn backticked(message: &str, prefix: &str) -> Option<String> {
    let rest = message.strip_prefix(prefix)?;
    rest.split('`').next().map(str::to_owned)
}

/// The optional `Idempotency-Key` header, validated.
pub struct IdempotencyKey(pub Option<String>);

/// Shortest idempotency key accepted: it also keys the seal of secret-bearing receipts.
pub const MIN_IDEMPOTENCY_KEY: usize = 16;

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        let Some(raw) = parts.headers.get(IDEMPOTENCY_KEY) else {
            return Ok(IdempotencyKey(None));
        };
        let key = raw.to_str().unwrap_or("");
        // Two keys would make it ambiguous which request a retry repeats.
        let single = parts.headers.get_all(IDEMPOTENCY_KEY).iter().count() == 1;
        let ok = single
            && (MIN_IDEMPOTENCY_KEY..=255).contains(&key.len())
            && key.bytes().all(|b| b.is_ascii_graphic());
        if !ok {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_idempotency_key",
                "Idempotency-Key must be one header of 16 to 255 printable ASCII characters (a UUID works)",
            )
            .at("Idempotency-Key"));
        }
        Ok(IdempotencyKey(Some(key.to_owned())))
    }
}

/// The authenticated caller.
pub struct Auth(pub Principal);

/// A caller authenticated by this server earlier in the same request: a
/// tool call `/mcp` already authenticated, made in process. Only this
/// crate can make one, and request extensions never come off the wire.
#[derive(Clone)]
pub(crate) struct Authenticated(pub(crate) Principal);

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(Authenticated(principal)) = parts.extensions.get::<Authenticated>() {
            return Ok(Auth(principal.clone()));
        }
        let header = parts
            .headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or_else(|| {
                ApiError::unauthenticated("unauthenticated", "a bearer token is required")
            })?;
        let raw = header.strip_prefix("Bearer ").ok_or_else(|| {
            ApiError::unauthenticated("unauthenticated", "use Authorization: Bearer <token>")
        })?;
        let invalid = || ApiError::unauthenticated("invalid_credential", "the token is not valid");
        let token: Token = raw.trim().parse().map_err(|_| invalid())?;
        let credential = state
            .engine
            .credentials()
            .for_auth(&token.credential_id)
            .await?
            .ok_or_else(invalid)?;
        if !secret_matches(&token, &credential.secret_sha256) {
            return Err(invalid());
        }
        match credential.status(crate::admin::now()) {
            CredentialStatus::Active => {}
            CredentialStatus::Revoked => {
                return Err(ApiError::unauthenticated(
                    "credential_revoked",
                    "the credential is revoked",
                ));
            }
            CredentialStatus::Expired => {
                return Err(ApiError::unauthenticated(
                    "credential_expired",
                    "the credential has expired",
                ));
            }
        }
        Ok(Auth(Principal {
            tenant_id: credential.tenant_id,
            credential_id: credential.id,
            subject: credential.subject,
            capabilities: credential.capabilities,
            grants: credential.grants,
            secret_sha256: credential.secret_sha256,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::is_json_media_type;

    #[test]
    fn only_json_in_utf_8_is_json() {
        for ok in [
            "application/json",
            "APPLICATION/JSON",
            "application/json; charset=utf-8",
            "Application/Json;Charset=\"UTF-8\"",
        ] {
            assert!(is_json_media_type(ok), "{ok}");
        }
        for bad in [
            "",
            "application/jsonx",
            "application/json; charset=latin1",
            "application/json, text/plain",
            "application/json; boundary=x",
            "text/json",
            "application/json;",
        ] {
            assert!(!is_json_media_type(bad), "{bad}");
        }
    }
}
