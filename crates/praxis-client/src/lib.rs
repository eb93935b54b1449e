//! A typed client for the Praxis HTTP API.
//!
//! Every call returns the API's wire types, or a [`ClientError`] that carries
//! the server's RFC 9457 problem document when the server refused.
//!
//! Paged calls take the previous page's `next_cursor` as `after`. Cursors are
//! opaque: pass one back unchanged to the same call with the same query; the
//! server refuses any other with 400 `invalid_cursor`.
//!
//! The learning authority's calls (registry, development experiences) are
//! in [`learning`]; procedures (strategies, proposals, evaluations,
//! selection) in [`procedures`]; agent memory in [`memory`]; experience
//! proposals and project skills in [`proposals`]; the operational
//! endpoints (health, readiness, metrics, the OpenAPI document) in [`ops`].

pub mod learning;
pub mod memory;
pub mod ops;
pub mod procedures;
pub mod proposals;
pub mod screen;

use praxis_api::{
    AssessRequest, AssessResponse, CONTRACT_VERSION, CountsResponse, CredentialPage,
    CredentialResponse, CurrentRevision, DiscardRecordRequest, EmptyRequest, Health,
    HistoryResponse, IDEMPOTENCY_KEY, ImportRequest, ImportResponse, IssueCredentialRequest,
    LegacyStore, ObserveRequest, ObserveResponse, Platform, PolicyResponse, Problem,
    PublishSkillRequest, RecordCheckResponse, RecordHistoryResponse, RecordLifecycle, RecordPage,
    RecordResponse, RecordSettingsRequest, RecordSettingsResponse, RecordWriteResponse,
    ReviewRecordRequest, Scope, SetPolicyRequest, SkillResponse, SkillsResponse,
    SubmitRecordRequest, TokenResponse, VerificationLevel, Visibility, WithdrawRecordRequest,
    WithdrawSkillRequest, WriteEffect,
};
use reqwest::{Method, RequestBuilder, StatusCode};
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// Why a call failed.
#[derive(Debug, Error)]
pub enum ClientError {
    /// The request could not be sent or the response not read.
    #[error("transport: {0}")]
    Transport(#[from] reqwest::Error),
    /// The server refused with a problem document.
    #[error("{} {}: {}", .0.status, .0.code, .0.detail)]
    Problem(Problem),
    /// The server answered something that is not the expected document.
    #[error("unexpected response ({status}): {body}")]
    Unexpected {
        /// HTTP status.
        status: u16,
        /// Body text (truncated).
        body: String,
    },
}

impl ClientError {
    /// The problem's stable code, if the server sent one.
    pub fn code(&self) -> Option<&str> {
        self.problem().map(|p| p.code.as_str())
    }

    /// The server's problem document, with every listed problem in
    /// `errors` (a rejected record's findings, for example).
    pub fn problem(&self) -> Option<&Problem> {
        match self {
            ClientError::Problem(p) => Some(p),
            _ => None,
        }
    }

    /// The current revision a compare-and-set refusal carries (409
    /// `revision_conflict`, `memory_changed`, `expected_revision_required`):
    /// what to expect when retrying.
    pub fn current_revision(&self) -> Option<&CurrentRevision> {
        self.problem()?.current_revision.as_ref()
    }
}

/// What a record submission kept. A submission that fails screening is a
/// [`ClientError::Problem`] with code `record_rejected` and every finding
/// in `errors`; the server keeps that rejection in the record's history.
#[derive(Clone, Debug, PartialEq)]
pub enum Submitted {
    /// A new revision was kept.
    Kept(RecordWriteResponse),
    /// The identical document was already the current revision.
    Unchanged(RecordWriteResponse),
}

impl Submitted {
    /// The answer, whichever it was.
    pub fn response(&self) -> &RecordWriteResponse {
        match self {
            Submitted::Kept(r) | Submitted::Unchanged(r) => r,
        }
    }
}

/// Filters and paging of a record search; every filter set must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordSearch {
    /// Only records with this lifecycle status.
    pub lifecycle: Option<RecordLifecycle>,
    /// Only records of this platform.
    pub platform: Option<Platform>,
    /// Only records with this verification level.
    pub verification_level: Option<VerificationLevel>,
    /// Words that must all occur in the record's text; the most relevant
    /// records come first.
    pub q: Option<String>,
    /// Find withdrawn records too.
    pub include_withdrawn: bool,
    /// The previous page's `next_cursor`.
    pub after: Option<String>,
    /// Page size (the server's default when absent).
    pub limit: Option<usize>,
}

/// The source whose intake history to read: a client key (the caller's
/// own) or a public issue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntakeSource {
    /// A key the caller submitted under.
    Key(String),
    /// An issue as `owner/repo#number`.
    Issue(String),
}

/// A client bound to one server and, optionally, one credential token.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: Option<String>,
    idempotency_key: Option<String>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The token is a secret: it never reaches a log through Debug.
        f.debug_struct("Client")
            .field("base", &self.base)
            .field("token", &self.token.as_ref().map(|_| "<secret>"))
            .field("idempotency_key", &self.idempotency_key)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client for the server at `base` (for example `http://127.0.0.1:7878`).
    pub fn new(base: impl Into<String>) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: base.into().trim_end_matches('/').to_owned(),
            token: None,
            idempotency_key: None,
        }
    }

    /// The same client sending `key` as the `Idempotency-Key` of its writes
    /// (16 to 255 visible ASCII characters). Retrying a write through it
    /// replays the first answer; use one such client per logical write.
    #[must_use]
    pub fn with_idempotency_key(&self, key: impl Into<String>) -> Client {
        Client {
            idempotency_key: Some(key.into()),
            ..self.clone()
        }
    }

    /// The same client authenticating with `token`.
    #[must_use]
    pub fn with_token(&self, token: impl Into<String>) -> Client {
        Client {
            token: Some(token.into()),
            ..self.clone()
        }
    }

    fn request(&self, method: Method, path: &str) -> RequestBuilder {
        let req = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
    }

    async fn send<T: DeserializeOwned>(req: RequestBuilder) -> Result<T, ClientError> {
        let response = req.send().await?;
        let status = response.status();
        let bytes = response.bytes().await?;
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|_| unexpected(status, &bytes));
        }
        match serde_json::from_slice::<Problem>(&bytes) {
            Ok(p) => Err(ClientError::Problem(p)),
            Err(_) => Err(unexpected(status, &bytes)),
        }
    }

    async fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
        idempotency_key: Option<&str>,
    ) -> Result<T, ClientError> {
        let mut req = self.request(Method::POST, path).json(body);
        if let Some(k) = idempotency_key.or(self.idempotency_key.as_deref()) {
            req = req.header(IDEMPOTENCY_KEY, k);
        }
        Self::send(req).await
    }

    /// POSTs a read (a body carrying a scope): it writes nothing, so it
    /// sends no `Idempotency-Key`.
    async fn read<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ClientError> {
        Self::send(self.request(Method::POST, path).json(body)).await
    }

    /// POSTs a write that is idempotent by the state it acts on (a
    /// proposal's approve and resolve): it sends no `Idempotency-Key`.
    async fn unkeyed<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, ClientError> {
        Self::send(self.request(Method::POST, path).json(body)).await
    }

    /// `POST /api/v1/credentials`.
    pub async fn issue_credential(
        &self,
        request: &IssueCredentialRequest,
        idempotency_key: Option<&str>,
    ) -> Result<TokenResponse, ClientError> {
        self.post("/api/v1/credentials", request, idempotency_key)
            .await
    }

    /// `POST /api/v1/credentials/{id}/rotate`.
    pub async fn rotate_credential(
        &self,
        id: &str,
        idempotency_key: Option<&str>,
    ) -> Result<TokenResponse, ClientError> {
        let body = EmptyRequest {
            contract_version: CONTRACT_VERSION,
        };
        self.post(
            &format!("/api/v1/credentials/{}/rotate", path_segment(id)),
            &body,
            idempotency_key,
        )
        .await
    }

    /// `POST /api/v1/credentials/{id}/revoke`.
    pub async fn revoke_credential(&self, id: &str) -> Result<CredentialResponse, ClientError> {
        let body = EmptyRequest {
            contract_version: CONTRACT_VERSION,
        };
        self.post(
            &format!("/api/v1/credentials/{}/revoke", path_segment(id)),
            &body,
            None,
        )
        .await
    }

    /// `GET /api/v1/credentials/{id}`.
    pub async fn credential(&self, id: &str) -> Result<CredentialResponse, ClientError> {
        Self::send(self.request(
            Method::GET,
            &format!("/api/v1/credentials/{}", path_segment(id)),
        ))
        .await
    }

    /// `GET /api/v1/capabilities`: every capability, and which the caller holds.
    pub async fn capabilities(&self) -> Result<praxis_api::CapabilitiesResponse, ClientError> {
        Self::send(self.request(Method::GET, "/api/v1/capabilities")).await
    }

    /// `GET /api/v1/credentials`: a page of the tenant's credentials.
    pub async fn list_credentials(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> Result<CredentialPage, ClientError> {
        let mut req = self
            .request(Method::GET, "/api/v1/credentials")
            .query(&[("limit", limit.to_string())]);
        if let Some(a) = after {
            req = req.query(&[("after", a)]);
        }
        Self::send(req).await
    }

    /// `POST /api/v1/attempts`: records an outcome (201 inserted, 200 unchanged).
    pub async fn observe(&self, request: &ObserveRequest) -> Result<ObserveResponse, ClientError> {
        self.post("/api/v1/attempts", request, None).await
    }

    /// `POST /api/v1/attempts/assess`.
    pub async fn assess(&self, request: &AssessRequest) -> Result<AssessResponse, ClientError> {
        self.post("/api/v1/attempts/assess", request, None).await
    }

    /// `POST /api/v1/attempts/policy`.
    pub async fn set_attempt_policy(
        &self,
        request: &SetPolicyRequest,
    ) -> Result<PolicyResponse, ClientError> {
        self.post("/api/v1/attempts/policy", request, None).await
    }

    /// `GET /api/v1/attempts/policy`.
    pub async fn attempt_policy(&self, scope: &Scope) -> Result<PolicyResponse, ClientError> {
        Self::send(
            self.request(Method::GET, "/api/v1/attempts/policy")
                .query(&scope_query(scope)),
        )
        .await
    }

    /// `GET /api/v1/attempts/history` of a subject, or of a subject and action.
    pub async fn attempt_history(
        &self,
        scope: &Scope,
        subject: &str,
        action_id: Option<&str>,
        after: Option<&str>,
        limit: usize,
    ) -> Result<HistoryResponse, ClientError> {
        let mut query = scope_query(scope);
        query.push(("subject", subject.to_owned()));
        query.push(("limit", limit.to_string()));
        if let Some(a) = action_id {
            query.push(("action_id", a.to_owned()));
        }
        if let Some(a) = after {
            query.push(("after", a.to_owned()));
        }
        Self::send(
            self.request(Method::GET, "/api/v1/attempts/history")
                .query(&query),
        )
        .await
    }

    /// `GET /api/v1/attempts/counts`.
    pub async fn attempt_counts(
        &self,
        scope: &Scope,
        subject: Option<&str>,
        action_id: Option<&str>,
    ) -> Result<CountsResponse, ClientError> {
        let mut query = scope_query(scope);
        if let Some(s) = subject {
            query.push(("subject", s.to_owned()));
        }
        if let Some(a) = action_id {
            query.push(("action_id", a.to_owned()));
        }
        Self::send(
            self.request(Method::GET, "/api/v1/attempts/counts")
                .query(&query),
        )
        .await
    }

    /// `POST /api/v1/attempts/import`.
    pub async fn import_attempts(
        &self,
        request: &ImportRequest,
    ) -> Result<ImportResponse, ClientError> {
        self.post("/api/v1/attempts/import", request, None).await
    }

    /// `GET /api/v1/attempts/export`.
    pub async fn export_attempts(&self, scope: &Scope) -> Result<LegacyStore, ClientError> {
        Self::send(
            self.request(Method::GET, "/api/v1/attempts/export")
                .query(&scope_query(scope)),
        )
        .await
    }

    /// `GET /api/v1/records/schema`: the v0.1 record JSON Schema.
    pub async fn record_schema(&self) -> Result<serde_json::Value, ClientError> {
        Self::send(self.request(Method::GET, "/api/v1/records/schema")).await
    }

    /// `POST /api/v1/records`: submits a record (a new revision, or
    /// unchanged); a record failing screening is refused with its findings.
    pub async fn submit_record(
        &self,
        request: &SubmitRecordRequest,
    ) -> Result<Submitted, ClientError> {
        let response: RecordWriteResponse = self.post("/api/v1/records", request, None).await?;
        Ok(match response.write {
            WriteEffect::Changed => Submitted::Kept(response),
            WriteEffect::Unchanged => Submitted::Unchanged(response),
        })
    }

    /// `POST /api/v1/records/check`: what a submission of `request` would
    /// meet now (`passed`, or every finding it would be rejected with),
    /// with the same authorization as a submission. Nothing is written, so
    /// it sends no `Idempotency-Key`.
    pub async fn check_record(
        &self,
        request: &SubmitRecordRequest,
    ) -> Result<RecordCheckResponse, ClientError> {
        self.read("/api/v1/records/check", request).await
    }

    /// `GET /api/v1/records/{id}`.
    pub async fn record(&self, scope: &Scope, id: &str) -> Result<RecordResponse, ClientError> {
        Self::send(
            self.request(
                Method::GET,
                &format!("/api/v1/records/{}", path_segment(id)),
            )
            .query(&scope_query(scope)),
        )
        .await
    }

    /// `GET /api/v1/records`: one page of kept records matching `search`.
    pub async fn search_records(
        &self,
        scope: &Scope,
        search: &RecordSearch,
    ) -> Result<RecordPage, ClientError> {
        let mut query = scope_query(scope);
        let filters = [
            ("lifecycle", search.lifecycle.map(|l| l.as_str().to_owned())),
            ("platform", search.platform.map(|p| p.as_str().to_owned())),
            (
                "verification_level",
                search.verification_level.map(|v| v.as_str().to_owned()),
            ),
            ("q", search.q.clone()),
            (
                "include_withdrawn",
                search.include_withdrawn.then(|| "true".to_owned()),
            ),
            ("after", search.after.clone()),
            ("limit", search.limit.map(|l| l.to_string())),
        ];
        query.extend(filters.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        Self::send(self.request(Method::GET, "/api/v1/records").query(&query)).await
    }

    /// `GET /api/v1/records/{id}/history`: revisions and rejections in order.
    pub async fn record_history(
        &self,
        scope: &Scope,
        id: &str,
        after: Option<&str>,
        limit: usize,
    ) -> Result<RecordHistoryResponse, ClientError> {
        let mut query = scope_query(scope);
        query.push(("limit", limit.to_string()));
        if let Some(a) = after {
            query.push(("after", a.to_owned()));
        }
        Self::send(
            self.request(
                Method::GET,
                &format!("/api/v1/records/{}/history", path_segment(id)),
            )
            .query(&query),
        )
        .await
    }

    /// `GET /api/v1/records/intake`: every submission of one source, kept
    /// or rejected, in order.
    pub async fn record_intake(
        &self,
        scope: &Scope,
        source: &IntakeSource,
        after: Option<&str>,
        limit: Option<usize>,
    ) -> Result<RecordHistoryResponse, ClientError> {
        let mut query = scope_query(scope);
        match source {
            IntakeSource::Key(key) => query.push(("key", key.clone())),
            IntakeSource::Issue(issue) => query.push(("issue", issue.clone())),
        }
        if let Some(a) = after {
            query.push(("after", a.to_owned()));
        }
        if let Some(l) = limit {
            query.push(("limit", l.to_string()));
        }
        Self::send(
            self.request(Method::GET, "/api/v1/records/intake")
                .query(&query),
        )
        .await
    }

    /// `POST /api/v1/records/{id}/review`.
    pub async fn review_record(
        &self,
        id: &str,
        request: &ReviewRecordRequest,
    ) -> Result<RecordWriteResponse, ClientError> {
        self.post(
            &format!("/api/v1/records/{}/review", path_segment(id)),
            request,
            None,
        )
        .await
    }

    /// `POST /api/v1/records/{id}/withdraw`.
    pub async fn withdraw_record(
        &self,
        id: &str,
        request: &WithdrawRecordRequest,
    ) -> Result<RecordWriteResponse, ClientError> {
        self.post(
            &format!("/api/v1/records/{}/withdraw", path_segment(id)),
            request,
            None,
        )
        .await
    }

    /// `POST /api/v1/records/{id}/discard`.
    pub async fn discard_record(
        &self,
        id: &str,
        request: &DiscardRecordRequest,
    ) -> Result<RecordWriteResponse, ClientError> {
        self.post(
            &format!("/api/v1/records/{}/discard", path_segment(id)),
            request,
            None,
        )
        .await
    }

    /// `POST /api/v1/records/settings`.
    pub async fn set_record_settings(
        &self,
        request: &RecordSettingsRequest,
    ) -> Result<RecordSettingsResponse, ClientError> {
        self.post("/api/v1/records/settings", request, None).await
    }

    /// `GET /api/v1/records/settings`.
    pub async fn record_settings(
        &self,
        scope: &Scope,
    ) -> Result<RecordSettingsResponse, ClientError> {
        Self::send(
            self.request(Method::GET, "/api/v1/records/settings")
                .query(&scope_query(scope)),
        )
        .await
    }

    /// `POST /api/v1/skills`: publishes a release (or finds it published).
    pub async fn publish_skill(
        &self,
        request: &PublishSkillRequest,
    ) -> Result<SkillResponse, ClientError> {
        self.post("/api/v1/skills", request, None).await
    }

    /// `GET /api/v1/skills`: the namespace's registry.
    pub async fn skills(&self, scope: &Scope) -> Result<SkillsResponse, ClientError> {
        Self::send(
            self.request(Method::GET, "/api/v1/skills")
                .query(&scope_query(scope)),
        )
        .await
    }

    /// `POST /api/v1/skills/{name}/{version}/withdraw`.
    pub async fn withdraw_skill(
        &self,
        name: &str,
        version: &str,
        request: &WithdrawSkillRequest,
    ) -> Result<SkillResponse, ClientError> {
        self.post(
            &format!(
                "/api/v1/skills/{}/{}/withdraw",
                path_segment(name),
                path_segment(version)
            ),
            request,
            None,
        )
        .await
    }

    /// `GET /readyz`.
    pub async fn ready(&self) -> Result<Health, ClientError> {
        Self::send(self.request(Method::GET, "/readyz")).await
    }
}

/// A scope as query parameters; the null mission is left out.
fn scope_query(scope: &Scope) -> Vec<(&'static str, String)> {
    let mut q = vec![
        ("project_id", scope.project_id.clone()),
        ("agent_id", scope.agent_id.clone()),
        (
            "visibility",
            match scope.visibility {
                Visibility::Shared => "shared",
                Visibility::Private => "private",
            }
            .to_owned(),
        ),
    ];
    if let Some(m) = &scope.mission_id {
        q.push(("mission_id", m.clone()));
    }
    q
}

/// `id` as one URL path segment: every byte but RFC 3986's unreserved
/// characters percent-encoded, so that an id holding `/`, `?`, `#` or `%`
/// still names itself.
fn path_segment(id: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            write!(out, "%{b:02X}").expect("writing to a String cannot fail");
        }
    }
    out
}

fn unexpected(status: StatusCode, bytes: &[u8]) -> ClientError {
    let text = String::from_utf8_lossy(bytes);
    ClientError::Unexpected {
        status: status.as_u16(),
        body: text.chars().take(512).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::path_segment;

    #[test]
    fn path_segments_keep_unreserved_characters_and_encode_the_rest() {
        assert_eq!(path_segment("policy-v1.2_x~"), "policy-v1.2_x~");
        assert_eq!(path_segment("a/b?c#d%e f"), "a%2Fb%3Fc%23d%25e%20f");
        assert_eq!(path_segment("é"), "%C3%A9");
    }
}
