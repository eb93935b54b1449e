//! The API error type: one status and stable code per failure, as RFC 9457 problem+json.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use praxis_api::{PROBLEM_JSON, Problem};
use praxis_domain::auth::Denied;
use praxis_domain::{DomainError, Refusal};
use praxis_store::{Missing, StoreError};
use thiserror::Error;

/// A failed request.
#[derive(Debug, Error)]
#[error("{code}: {detail}")]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Stable machine-readable code.
    pub code: &'static str,
    /// Human-readable explanation.
    pub detail: String,
    /// JSON pointer of the offending field.
    pub field: Option<String>,
    /// Every problem, when several are reported at once.
    pub errors: Vec<praxis_api::ProblemItem>,
    /// The current revision, when a compare-and-set found another.
    pub current_revision: Option<praxis_api::CurrentRevision>,
}

impl ApiError {
    /// A new error.
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            detail: detail.into(),
            field: None,
            errors: Vec::new(),
            current_revision: None,
        }
    }

    /// Points a `revision_conflict` at the request's `field`; any other
    /// error is left as it is.
    #[must_use]
    pub fn revision_at(self, field: &str) -> Self {
        if self.code == "revision_conflict" && self.current_revision.is_some() {
            self.at(field)
        } else {
            self
        }
    }

    /// Lists every problem.
    #[must_use]
    pub fn with_errors(mut self, errors: Vec<praxis_api::ProblemItem>) -> Self {
        self.errors = errors;
        self
    }

    /// Names the offending field.
    #[must_use]
    pub fn at(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }

    /// 401: no usable credential.
    pub fn unauthenticated(code: &'static str, detail: &str) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, code, detail)
    }

    /// 422 listing every finding about a record (or a release), each with
    /// the JSON pointer of the request field it is about (`at` followed by
    /// the finding's pointer) and its rule as the code. Findings never
    /// repeat the offending text, so the problem is safe to show and log.
    pub fn findings(
        code: &'static str,
        detail: impl Into<String>,
        at: &str,
        findings: Vec<praxis_domain::records::Finding>,
    ) -> Self {
        let errors: Vec<praxis_api::ProblemItem> = findings
            .into_iter()
            .map(|f| praxis_api::ProblemItem {
                index: None,
                field: format!("{at}{}", f.pointer),
                code: f.rule,
                detail: f.message,
            })
            .collect();
        let field = errors
            .first()
            .map_or_else(|| at.to_owned(), |e| e.field.clone());
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, detail)
            .at(field)
            .with_errors(errors)
    }

    /// 404: absent, or in another tenant, or another subject's private record.
    pub fn not_found(what: &str) -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("{what} not found"),
        )
    }
}

impl From<Denied> for ApiError {
    fn from(d: Denied) -> Self {
        match d {
            Denied::MissingCapability(c) => ApiError::new(
                StatusCode::FORBIDDEN,
                "missing_capability",
                format!("the credential lacks the {c} capability"),
            ),
            Denied::MissingGrant => ApiError::new(
                StatusCode::FORBIDDEN,
                "missing_grant",
                "the credential has no grant for this exact scope",
            )
            .at("/scope"),
        }
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        let code = match &e {
            DomainError::MalformedJson { .. } => "malformed_json",
            DomainError::DuplicateKey { .. } => "duplicate_key",
            DomainError::NumberOutOfRange { .. } => "number_out_of_range",
            DomainError::InvalidField { .. } => "invalid_field",
            DomainError::MalformedToken => "malformed_token",
        };
        let status = match &e {
            DomainError::InvalidField { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            DomainError::MalformedToken => StatusCode::UNAUTHORIZED,
            _ => StatusCode::BAD_REQUEST,
        };
        let field = e.path().map(str::to_owned);
        ApiError {
            status,
            code,
            detail: e.to_string(),
            field,
            errors: Vec::new(),
            current_revision: None,
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        // Every variant is named: a new one fails to compile until it is mapped.
        match e {
            StoreError::Refused(refusal) => refusal.into(),
            StoreError::NotFound(missing) => missing.into(),
            StoreError::TenantExists => {
                ApiError::new(StatusCode::CONFLICT, "tenant_exists", "tenant exists")
            }
            StoreError::IdempotencyConflict => ApiError::new(
                StatusCode::CONFLICT,
                "idempotency_conflict",
                "this idempotency key was used with a different request",
            ),
            StoreError::AuthorityEnded => ApiError::unauthenticated(
                "credential_revoked",
                "the credential was revoked, rotated or expired before the write was applied",
            ),
            // Refused at start (`praxis serve`); a request never meets it.
            e @ StoreError::SealKeyMismatch { .. } => {
                tracing::error!(error = %e, "seal key mismatch");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "seal_key_mismatch",
                    "the server's seal key is not the store's",
                )
            }
            StoreError::Inconsistent(m) => {
                tracing::error!(problem = %m, "storage inconsistency");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "storage_inconsistency",
                    "stored data failed verification; the request was refused",
                )
            }
            e @ (StoreError::Backend(_)
            | StoreError::SchemaTooNew { .. }
            | StoreError::Open(_)
            | StoreError::Migration(_)
            | StoreError::WriterStopped
            | StoreError::Panicked
            | StoreError::NotCommitted(_)
            | StoreError::OperationRefused(_)
            | StoreError::Io(_)) => {
                tracing::error!(error = %e, "store failure");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "storage_unavailable",
                    "the store could not complete the request",
                )
            }
        }
    }
}

/// 409 carrying the item's current revision, pointed at `/expected_revision`.
fn memory_conflict(refusal: &Refusal, code: &'static str) -> ApiError {
    let current = match refusal {
        Refusal::MemoryRevisionRequired { current } | Refusal::MemoryChanged { current } => {
            Some(praxis_api::CurrentRevision::Text(current.clone()))
        }
        _ => None,
    };
    ApiError {
        current_revision: current,
        ..ApiError::new(StatusCode::CONFLICT, code, refusal.to_string()).at("/expected_revision")
    }
}

impl From<praxis_store::skills::project::ProjectError> for ApiError {
    fn from(e: praxis_store::skills::project::ProjectError) -> Self {
        use praxis_store::skills::project::ProjectError as P;
        let detail = e.to_string();
        match e {
            P::UnknownProject(_) => {
                ApiError::new(StatusCode::NOT_FOUND, "project_not_found", detail)
            }
            P::InvalidPath { .. } | P::Symlink { .. } | P::NotText { .. } | P::TooLarge => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_path", detail)
            }
            P::NotFound => ApiError::new(StatusCode::NOT_FOUND, "file_not_found", detail),
            P::Exists { .. } | P::Changed { .. } => {
                ApiError::new(StatusCode::CONFLICT, "destination_changed", detail)
                    .at("/destination_hash")
            }
            P::Invalid(findings) => ApiError::findings(
                "proposal_invalid",
                "the skill document breaks a rule; nothing was written",
                "/candidate",
                findings,
            ),
            P::Config(_) | P::Io(_) => {
                tracing::error!(error = %detail, "project file");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "project_io",
                    "a project file could not be read or written",
                )
            }
        }
    }
}

impl From<Missing> for ApiError {
    fn from(missing: Missing) -> Self {
        match missing {
            // A tenant is never named by a request: only a credential can miss it.
            Missing::Tenant | Missing::Credential => ApiError::not_found("credential"),
            Missing::Record => ApiError::new(
                StatusCode::NOT_FOUND,
                "record_not_found",
                "no such record in this scope",
            ),
            Missing::SkillRelease => ApiError::new(
                StatusCode::NOT_FOUND,
                "skill_not_found",
                "no such skill release in this scope",
            ),
            Missing::Context => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_reference",
                "no context is registered under context_id",
            )
            .at("/experience/context_id"),
            Missing::Parent => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_reference",
                "the parent names no event of this scope",
            )
            .at("/experience/parent"),
            Missing::Experience => ApiError::new(
                StatusCode::NOT_FOUND,
                "experience_not_found",
                "no such attempt in this scope",
            )
            .at("/attempt_id"),
            Missing::Observation => ApiError::new(
                StatusCode::NOT_FOUND,
                "observation_not_found",
                "no such event of this attempt in this scope",
            )
            .at("/observation"),
            Missing::Registered { what, pointer } => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_reference",
                format!("no {what} is registered under this id"),
            )
            .at(pointer),
            Missing::Procedure => ApiError::new(
                StatusCode::NOT_FOUND,
                "procedure_not_found",
                "no such procedure in this scope",
            )
            .at("/procedure_id"),
            Missing::Strategy => ApiError::new(
                StatusCode::NOT_FOUND,
                "strategy_not_found",
                "no such strategy in this scope",
            )
            .at("/strategy_id"),
            Missing::Proposal => ApiError::new(
                StatusCode::NOT_FOUND,
                "proposal_not_found",
                "no such proposal in this scope",
            ),
            Missing::Memory => ApiError::new(
                StatusCode::NOT_FOUND,
                "memory_not_found",
                "no live item under this key in this scope",
            )
            .at("/key"),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Invalid(d) => d.into(),
            e @ Refusal::InvalidDisposition { .. } => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid_disposition", e.to_string())
                    .at("/disposition")
            }
            Refusal::IdentityConflict => ApiError::new(
                StatusCode::CONFLICT,
                "identity_conflict",
                "a different record exists under this identity (namespace, subject, action, case, stage); a disposition is never silently reclassified",
            )
            .at("/outcome"),
            Refusal::AttemptsRejected(problems) => ApiError::new(
                StatusCode::CONFLICT,
                "identity_conflict",
                format!("{} records conflict with stored ones; nothing was imported", problems.len()),
            )
            .with_errors(
                problems
                    .into_iter()
                    .map(|p| praxis_api::ProblemItem {
                        index: Some(p.index as u64),
                        field: format!("/store/records/{}", p.index),
                        code: p.code.to_owned(),
                        detail: p.message,
                    })
                    .collect(),
            ),
            Refusal::ImportInvalid(problems) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_import",
                format!("the store has {} problems; nothing was imported", problems.len()),
            )
            .at("/store")
            .with_errors(
                problems
                    .into_iter()
                    .map(|p| praxis_api::ProblemItem {
                        index: p.index.map(|i| i as u64),
                        field: format!("/store{}", p.path),
                        code: p.code.to_owned(),
                        detail: p.message,
                    })
                    .collect(),
            ),
            Refusal::RecordInvalid(findings) => ApiError::findings(
                "record_invalid",
                format!("the record breaks {} rule(s); nothing was written", findings.len()),
                "/record",
                findings,
            ),
            Refusal::InvalidTransition(m) => {
                ApiError::new(StatusCode::CONFLICT, "invalid_transition", m)
            }
            Refusal::SourceConflict(m) => {
                ApiError::new(StatusCode::CONFLICT, "source_conflict", m)
            }
            Refusal::SelfReview => ApiError::new(
                StatusCode::FORBIDDEN,
                "self_review",
                "a submitter cannot review their own record",
            ),
            Refusal::NotRecordAuthor => ApiError::new(
                StatusCode::FORBIDDEN,
                "not_record_author",
                "only the subject that submitted a candidate can discard it",
            ),
            Refusal::RecordNotCandidate(m) => {
                ApiError::new(StatusCode::CONFLICT, "record_not_candidate", m)
            }
            e @ Refusal::RevisionConflict { current, .. } => ApiError {
                current_revision: Some(praxis_api::CurrentRevision::Number(current)),
                ..ApiError::new(StatusCode::CONFLICT, "revision_conflict", e.to_string())
                    .at("/expected_revision")
            },
            e @ Refusal::Sha256Conflict { .. } => {
                ApiError::new(StatusCode::CONFLICT, "revision_conflict", e.to_string())
                    .at("/expected_sha256")
            }
            Refusal::SkillConflict(m) => {
                ApiError::new(StatusCode::CONFLICT, "skill_conflict", m).at("/release/sha256")
            }
            Refusal::CredentialRevoked => ApiError::new(
                StatusCode::CONFLICT,
                "credential_revoked",
                "the credential is revoked",
            ),
            e @ Refusal::RegistryConflict { what, .. } => {
                ApiError::new(StatusCode::CONFLICT, "registry_conflict", e.to_string())
                    .at(format!("/{what}"))
            }
            // The id acts as the write's idempotency key, so its reuse with
            // other content is the same conflict as a reused Idempotency-Key.
            e @ Refusal::ExperienceIdConflict { what, .. } => {
                let field = match what {
                    "event" => "/event/event_id",
                    "withdrawal" => "/idempotency_key",
                    "strategy" => "/strategy/id",
                    "procedure" => "/proposal/id",
                    "evaluation" => "/evaluation/case_id",
                    _ => "/experience/id",
                };
                ApiError::new(StatusCode::CONFLICT, "idempotency_conflict", e.to_string()).at(field)
            }
            e @ Refusal::TerminalOutcome { .. } => {
                ApiError::new(StatusCode::CONFLICT, "terminal_outcome", e.to_string())
                    .at("/event/outcome")
            }
            e @ Refusal::NotReporter => {
                ApiError::new(StatusCode::FORBIDDEN, "not_reporter", e.to_string())
            }
            e @ Refusal::ConsumptionDecreased { field, .. } => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "consumption_decreased",
                e.to_string(),
            )
            .at(format!("/event/{field}")),
            e @ Refusal::ExperienceAlreadyWithdrawn { .. } => ApiError::new(
                StatusCode::CONFLICT,
                "experience_already_withdrawn",
                e.to_string(),
            )
            .at("/observation"),
            e @ Refusal::LineageTooDeep { .. } => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "lineage_too_deep",
                e.to_string(),
            )
            .at("/experience/parent"),
            e @ Refusal::NotEvaluator => {
                ApiError::new(StatusCode::FORBIDDEN, "not_evaluator", e.to_string())
            }
            Refusal::InvalidObservation { pointer, message } => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_observation",
                format!("invalid observation {message}"),
            )
            .at(pointer),
            Refusal::MemoryInvalid(findings) => ApiError::findings(
                "memory_invalid",
                format!("the item breaks {} rule(s); nothing was written", findings.len()),
                "",
                findings,
            ),
            e @ Refusal::MemoryRevisionRequired { .. } => {
                memory_conflict(&e, "expected_revision_required")
            }
            e @ Refusal::MemoryChanged { .. } => memory_conflict(&e, "memory_changed"),
            e @ Refusal::MemoryFull { .. } => {
                ApiError::new(StatusCode::INSUFFICIENT_STORAGE, "memory_full", e.to_string())
            }
            Refusal::ProposalInvalid(findings) => ApiError::findings(
                "proposal_invalid",
                format!("the candidate breaks {} rule(s); nothing was written", findings.len()),
                "/candidate",
                findings,
            ),
            e @ Refusal::ProposalsFull { .. } => {
                ApiError::new(StatusCode::INSUFFICIENT_STORAGE, "proposals_full", e.to_string())
            }
            e @ Refusal::ProposalNotOpen { .. } => {
                ApiError::new(StatusCode::CONFLICT, "proposal_not_open", e.to_string())
            }
            e @ Refusal::VersionMismatch => {
                ApiError::new(StatusCode::CONFLICT, "version_mismatch", e.to_string())
                    .at("/version_hash")
            }
            e @ Refusal::SourceChanged { index, .. } => {
                ApiError::new(StatusCode::CONFLICT, "source_changed", e.to_string())
                    .at(format!("/candidate/sources/{index}"))
            }
            e @ Refusal::DestinationChanged { .. } => {
                ApiError::new(StatusCode::CONFLICT, "destination_changed", e.to_string())
                    .at("/destination_hash")
            }
            e @ Refusal::SelfApproval => {
                ApiError::new(StatusCode::FORBIDDEN, "self_approval_refused", e.to_string())
            }
            e @ Refusal::PromotionUnresolved { .. } => ApiError::new(
                StatusCode::CONFLICT,
                "promotion_outcome_unresolved_do_not_retry",
                e.to_string(),
            ),
            e @ Refusal::PromotionInProgress => {
                ApiError::new(StatusCode::CONFLICT, "promotion_in_progress", e.to_string())
            }
            e @ Refusal::ResolutionContradicted(_) => {
                ApiError::new(StatusCode::CONFLICT, "resolution_contradicted", e.to_string())
                    .at("/applied")
            }
            Refusal::ReasonInvalid(findings) => ApiError::findings(
                "invalid_field",
                "the reason breaks a rule; nothing was written",
                "",
                findings,
            ),
        }
    }
}

impl ApiError {
    /// The problem+json body.
    pub fn problem_body(&self) -> Vec<u8> {
        let problem = Problem {
            type_: format!("urn:praxis:problem:{}", self.code),
            title: self.status.canonical_reason().unwrap_or("Error").to_owned(),
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code.to_owned(),
            field: self.field.clone(),
            errors: self.errors.clone(),
            current_revision: self.current_revision.clone(),
        };
        serde_json::to_vec(&problem).expect("problems serialize")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = self.problem_body();
        let mut response = (
            self.status,
            [
                (header::CONTENT_TYPE, PROBLEM_JSON),
                (header::CACHE_CONTROL, "no-store"),
            ],
            body,
        )
            .into_response();
        // For the metrics layer, which counts refusals by code.
        response
            .extensions_mut()
            .insert(crate::metrics::ProblemCode(self.code.into()));
        response
    }
}

/// A layer that answers a panicking handler with 500 `internal_error`
/// problem+json instead of dropping the connection. The panic's message is
/// not logged: it may hold request data.
pub fn catch_panics() -> tower_http::catch_panic::CatchPanicLayer<fn(PanicPayload) -> Response> {
    tower_http::catch_panic::CatchPanicLayer::custom(panic_response as fn(PanicPayload) -> Response)
}

/// What a panic carries.
pub type PanicPayload = Box<dyn std::any::Any + Send + 'static>;

fn panic_response(_: PanicPayload) -> Response {
    tracing::error!("a request handler panicked; answered 500");
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal_error",
        "the server failed unexpectedly while answering; read the state back before retrying a write",
    )
    .into_response()
}

/// 404 `not_found` for a path no route serves.
pub(crate) async fn no_route() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such route")
}

/// 405 `method_not_allowed` for a route that exists under other methods.
pub(crate) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take this method",
    )
}
