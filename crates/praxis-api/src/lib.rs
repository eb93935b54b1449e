//! Praxis wire types: the JSON documents of the HTTP API, version 1.
//!
//! These are distinct from the domain types on purpose: the wire format is a
//! contract with clients and changes only with `contract_version`, while the
//! domain may change shape freely. Request types reject unknown fields.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The only contract version this build speaks.
pub const CONTRACT_VERSION: u32 = 1;

/// Media type of error responses (RFC 9457).
pub const PROBLEM_JSON: &str = "application/problem+json";

/// Header carrying a client's idempotency key.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";

/// An RFC 9457 problem document with a stable machine-readable `code`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    /// A URI naming the problem type (`urn:praxis:problem:<code>`).
    #[serde(rename = "type")]
    pub type_: String,
    /// Short human-readable summary of the problem type.
    pub title: String,
    /// HTTP status code.
    pub status: u16,
    /// Explanation specific to this occurrence.
    pub detail: String,
    /// Stable error code, for example `unknown_field` or `storage_inconsistency`.
    pub code: String,
    /// JSON pointer of the offending field, when one is to blame.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
}

/// Visibility of a scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Visible to every subject with the grant.
    Shared,
    /// Visible only to the writing subject.
    Private,
}

/// An exact scope tuple; a null mission is its own scope, not a wildcard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    /// Project id.
    pub project_id: String,
    /// Mission id, or null. Required even when null, since null is a scope of its own.
    #[serde(deserialize_with = "Option::deserialize")]
    pub mission_id: Option<String>,
    /// Agent id.
    pub agent_id: String,
    /// Shared or private.
    pub visibility: Visibility,
}

/// `POST /api/v1/credentials`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IssueCredentialRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// Subject the credential acts for.
    pub subject: String,
    /// Capability names.
    pub capabilities: Vec<String>,
    /// Exact scope grants.
    pub grants: Vec<Scope>,
    /// RFC 3339 expiry, or null for none (required, so that no expiry is a stated choice).
    #[serde(deserialize_with = "Option::deserialize")]
    pub expires_at: Option<String>,
}

/// A body with only the contract version (revoke, rotate).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EmptyRequest {
    /// Must be 1.
    pub contract_version: u32,
}

/// Whether a credential can authenticate now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CredentialStatus {
    /// Usable.
    Active,
    /// Revoked.
    Revoked,
    /// Expired.
    Expired,
}

/// A credential as the API shows it. The secret is never shown here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Credential {
    /// Credential id (the `<id>` of its token).
    pub id: String,
    /// Subject.
    pub subject: String,
    /// Capability names, sorted.
    pub capabilities: Vec<String>,
    /// Grants, sorted.
    pub grants: Vec<Scope>,
    /// Status at the time of the response.
    pub status: CredentialStatus,
    /// RFC 3339 issue time.
    pub created_at: String,
    /// RFC 3339 expiry, if any.
    pub expires_at: Option<String>,
    /// RFC 3339 revocation time, if revoked.
    pub revoked_at: Option<String>,
    /// RFC 3339 time of the last secret rotation, if any.
    pub rotated_at: Option<String>,
    /// Number of events in the credential's stream.
    pub version: u64,
}

/// Answer to issuing or rotating a credential: the only time a token is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TokenResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The credential.
    pub credential: Credential,
    /// `prx_<id>_<secret>`; store it, it is not shown again.
    pub token: String,
}

/// Answer carrying one credential.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CredentialResponse {
    /// Always 1.
    pub contract_version: u32,
    /// The credential.
    pub credential: Credential,
}

/// A page of credentials.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CredentialPage {
    /// Always 1.
    pub contract_version: u32,
    /// Credentials ordered by id.
    pub credentials: Vec<Credential>,
    /// Pass as `after` to read the next page; null at the end.
    pub next_cursor: Option<String>,
}

/// Answer of the health and readiness probes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok`, or what is wrong.
    pub status: String,
    /// Store kind: `sqlite` or `postgres`.
    pub store: String,
}
