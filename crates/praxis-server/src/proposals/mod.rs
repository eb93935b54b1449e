//! Experience proposals: propose (`proposal_create`), review
//! (`proposal_create` or `proposal_approve`), approve and resolve
//! (`proposal_approve`), withdraw, list and read; the source objects a
//! candidate cites; and the scope's self-approval setting (`policy_admin`).
//!
//! A proposal is stored as data, never as guidance. Approval promotes it:
//! into memory in one transaction, or into a project skill through the
//! journal in `promote`.

pub(crate) mod promote;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use praxis_api::{
    CONTRACT_VERSION, CreateExperienceProposalRequest, DescribeSourceRequest,
    ExperienceProposalResponse, ExperienceProposalsResponse, ProposalSettingsRequest,
    ProposalSettingsResponse, WithdrawProposalRequest,
};
use praxis_domain::Refusal;
use praxis_domain::auth::{Capability, Namespace, Principal};
use praxis_domain::error::DomainError;
use praxis_domain::proposals::{Candidate, Destination, Proposal, ProposalState, SourceKind};
use praxis_store::proposals::{ProposalCommand, ProposalView, ProposalWrite};
use praxis_store::{Command, Missing, StoreError};
use serde::Deserialize;

use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth, IdempotencyKey};
use crate::idempotency::{Answer, Render, Retry, answer};
use crate::projects::blocking;
use crate::request::{check_reason, namespace_of, path, query, write_as};
use crate::wire::{self, proposals as wp};

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/proposals", post(propose).get(list))
        .route("/proposals/sources", post(describe_source))
        .route("/proposals/settings", post(settings))
        .route("/proposals/{id}", get(read))
        .route("/proposals/{id}/review", post(promote::review))
        .route("/proposals/{id}/approve", post(promote::approve))
        .route("/proposals/{id}/resolve", post(promote::resolve))
        .route("/proposals/{id}/withdraw", post(withdraw))
}

/// The skill promotions this server is carrying now, by tenant, namespace
/// and proposal: a promoting proposal outside it has an unknown outcome.
#[derive(Clone, Default)]
pub(crate) struct InFlight(Arc<Mutex<HashSet<(String, String, String)>>>);

/// A promotion held in [`InFlight`] until dropped.
pub(crate) struct Carrying {
    set: InFlight,
    key: (String, String, String),
}

impl InFlight {
    /// Takes the proposal for this request, unless another request has it.
    pub(crate) fn take(&self, tenant: &str, ns: &Namespace, id: &str) -> Option<Carrying> {
        let key = (tenant.to_owned(), ns.0.clone(), id.to_owned());
        let mut set = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        set.insert(key.clone()).then(|| Carrying {
            set: self.clone(),
            key,
        })
    }

    /// Whether a request of this server is promoting the proposal now.
    pub(crate) fn holds(&self, tenant: &str, ns: &Namespace, id: &str) -> bool {
        let key = (tenant.to_owned(), ns.0.clone(), id.to_owned());
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&key)
    }
}

impl Drop for Carrying {
    fn drop(&mut self) {
        self.set
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.key);
    }
}

/// The namespace, if the principal holds `first` or else `second` in the scope.
pub(crate) fn namespace_either(
    p: &Principal,
    first: Capability,
    second: Capability,
    scope: praxis_api::Scope,
) -> Result<(Namespace, Capability), ApiError> {
    match namespace_of(p, first, scope.clone()) {
        Ok(ns) => Ok((ns, first)),
        Err(e) => namespace_of(p, second, scope)
            .map(|ns| (ns, second))
            .map_err(|_| e),
    }
}

fn unexpected() -> StoreError {
    StoreError::inconsistent("a proposal command answered with another effect")
}

/// The view a proposal command answered with.
pub(crate) fn view_of(applied: &praxis_store::Applied) -> Result<&ProposalView, StoreError> {
    match applied.proposals() {
        Some(ProposalWrite::Proposal(v)) => Ok(v),
        _ => Err(unexpected()),
    }
}

/// A proposal's id, checked.
pub(crate) fn checked_id(id: &str) -> Result<(), ApiError> {
    let ok = id.len() == 37
        && id.starts_with("prop_")
        && id[5..]
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if ok {
        Ok(())
    } else {
        Err(StoreError::NotFound(Missing::Proposal).into())
    }
}

/// Loads a proposal of the namespace, or 404.
pub(crate) async fn load(
    state: &AppState,
    p: &Principal,
    ns: &Namespace,
    id: &str,
) -> Result<Proposal, ApiError> {
    checked_id(id)?;
    state
        .engine
        .proposals()
        .get(&p.tenant_id, ns, id)
        .await?
        .ok_or_else(|| StoreError::NotFound(Missing::Proposal).into())
}

/// Refuses a candidate whose project references are not the scope's
/// project or not configured: a grant for one project never writes or
/// reads another's files.
fn check_projects(
    state: &AppState,
    tenant: &str,
    scope_project: &str,
    candidate: &Candidate,
) -> Result<(), ApiError> {
    let refuse = |pointer: String| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown_reference",
            "the project is not the scope's, or is not configured on this server",
        )
        .at(pointer)
    };
    let known = |project: &str| {
        project == scope_project && state.settings.projects.of(tenant).get(project).is_ok()
    };
    if let Destination::Skill { project, .. } = &candidate.destination
        && !known(project)
    {
        return Err(refuse("/candidate/destination/project".into()));
    }
    for (i, s) in candidate.sources.iter().enumerate() {
        if s.kind == SourceKind::File && !s.file().is_some_and(|(project, _)| known(project)) {
            return Err(refuse(format!("/candidate/sources/{i}/ref")));
        }
    }
    Ok(())
}

#[utoipa::path(
    post, path = "/api/v1/proposals", operation_id = "create_proposal", tag = "proposals",
    request_body = CreateExperienceProposalRequest,
    responses(
        (status = 201, description = "Stored as an open proposal: data, never guidance", body = ExperienceProposalResponse),
        (status = 403, description = "Missing proposal_create (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (`invalid_field`), the candidate breaks a bound, a form or screening (`proposal_invalid`, every finding listed), or it names a project that is not the scope's or not configured (`unknown_reference`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 507, description = "The scope holds its limit of open proposals (`proposals_full`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn propose(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<CreateExperienceProposalRequest>,
) -> Result<Response, ApiError> {
    let scope_project = body.scope.project_id.clone();
    let namespace = namespace_of(&p, Capability::ProposalCreate, body.scope)?;
    let candidate = wp::candidate_from_wire(body.candidate)?;
    let findings = candidate.findings();
    if !findings.is_empty() {
        return Err(Refusal::ProposalInvalid(findings).into());
    }
    check_projects(&state, &p.tenant_id, &scope_project, &candidate)?;
    let id = format!("prop_{}", uuid::Uuid::now_v7().simple());
    let command = Command::Proposals(ProposalCommand::Propose {
        namespace,
        id,
        candidate: Box::new(candidate),
        max_open: state.settings.max_open_proposals,
    });
    let render: Render = Arc::new(|applied| {
        let view = view_of(applied)?;
        Ok(Answer::json(
            StatusCode::CREATED,
            &ExperienceProposalResponse {
                contract_version: CONTRACT_VERSION,
                proposal: wp::proposal_to_wire(&view.proposal, false),
            },
        ))
    });
    let write = write_as(&p, Capability::ProposalCreate, command);
    let retry = Retry::new("proposals.create", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

/// The query of a proposal list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
    /// Only proposals in this state: open, promoting, receipt_saved,
    /// promoted or withdrawn (a promoting proposal no request is carrying
    /// is listed as `promotion_outcome_unresolved_do_not_retry`).
    state: Option<String>,
    /// Proposals after this id.
    after: Option<String>,
    /// 1 to 100; defaults to 50.
    limit: Option<usize>,
}

#[utoipa::path(
    get, path = "/api/v1/proposals", operation_id = "list_proposals", tag = "proposals",
    params(ListQuery),
    responses(
        (status = 200, description = "The scope's proposals by id, in one state or all", body = ExperienceProposalsResponse),
        (status = 403, description = "Missing proposal_create and proposal_approve (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    Auth(p): Auth,
    q: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let scope = crate::request::wire_scope(q.project_id, q.mission_id, q.agent_id, q.visibility);
    let (ns, _) = namespace_either(
        &p,
        Capability::ProposalApprove,
        Capability::ProposalCreate,
        scope,
    )?;
    let wanted = q
        .state
        .as_deref()
        .map(|s| {
            ProposalState::parse(s).ok_or_else(|| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "invalid_query",
                    "state is open, promoting, receipt_saved, promoted or withdrawn",
                )
                .at("state")
            })
        })
        .transpose()?;
    let limit = crate::request::page_limit(q.limit, 50, 100)?;
    let after = q.after.unwrap_or_default();
    let found = state
        .engine
        .proposals()
        .list(&p.tenant_id, &ns, wanted, &after, limit)
        .await?;
    let next = (found.len() == limit)
        .then(|| found.last().map(|p| p.id.clone()))
        .flatten();
    let proposals = found
        .iter()
        .map(|x| {
            let carried = state.promotions.holds(&p.tenant_id, &ns, &x.id);
            wp::proposal_to_wire(x, carried)
        })
        .collect();
    Ok(wire::json(
        StatusCode::OK,
        &ExperienceProposalsResponse {
            contract_version: CONTRACT_VERSION,
            proposals,
            next,
        },
    ))
}

#[utoipa::path(
    get, path = "/api/v1/proposals/{id}", operation_id = "read_proposal", tag = "proposals",
    params(("id" = String, Path, description = "The proposal"), crate::request::ScopeQuery),
    responses(
        (status = 200, description = "The proposal, its state, approval, marker and receipt", body = ExperienceProposalResponse),
        (status = 403, description = "Missing proposal_create and proposal_approve (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such proposal in this scope (`proposal_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<crate::request::ScopeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let (ns, _) = namespace_either(
        &p,
        Capability::ProposalApprove,
        Capability::ProposalCreate,
        query(q)?.scope(),
    )?;
    let proposal = load(&state, &p, &ns, &id).await?;
    let carried = state.promotions.holds(&p.tenant_id, &ns, &id);
    Ok(wire::json(
        StatusCode::OK,
        &ExperienceProposalResponse {
            contract_version: CONTRACT_VERSION,
            proposal: wp::proposal_to_wire(&proposal, carried),
        },
    ))
}

#[utoipa::path(
    post, path = "/api/v1/proposals/{id}/withdraw", operation_id = "withdraw_proposal", tag = "proposals",
    params(("id" = String, Path, description = "The proposal")),
    request_body = WithdrawProposalRequest,
    responses(
        (status = 200, description = "Withdrawn; it never promotes, and its history stays", body = ExperienceProposalResponse),
        (status = 403, description = "Missing proposal_create and proposal_approve (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such proposal in this scope (`proposal_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "It is not open (`proposal_not_open`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    id: Result<Path<String>, PathRejection>,
    ApiJson { body, value }: ApiJson<WithdrawProposalRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let (ns, capability) = namespace_either(
        &p,
        Capability::ProposalApprove,
        Capability::ProposalCreate,
        body.scope,
    )?;
    checked_id(&id)?;
    check_reason(&body.reason)?;
    let command = Command::Proposals(ProposalCommand::Withdraw {
        namespace: ns,
        id,
        reason: body.reason,
    });
    let render: Render = Arc::new(|applied| {
        let view = view_of(applied)?;
        Ok(Answer::json(
            StatusCode::OK,
            &ExperienceProposalResponse {
                contract_version: CONTRACT_VERSION,
                proposal: wp::proposal_to_wire(&view.proposal, false),
            },
        ))
    });
    let write = write_as(&p, capability, command);
    let retry = Retry::new("proposals.withdraw", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/proposals/settings", operation_id = "proposal_settings", tag = "proposals",
    request_body = ProposalSettingsRequest,
    responses(
        (status = 200, description = "The scope's setting as it stands", body = ProposalSettingsResponse),
        (status = 403, description = "Missing policy_admin (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn settings(
    State(state): State<AppState>,
    Auth(p): Auth,
    IdempotencyKey(key): IdempotencyKey,
    ApiJson { body, value }: ApiJson<ProposalSettingsRequest>,
) -> Result<Response, ApiError> {
    let namespace = namespace_of(&p, Capability::PolicyAdmin, body.scope)?;
    let command = Command::Proposals(ProposalCommand::Settings {
        namespace,
        self_approval: body.self_approval,
    });
    let render: Render = Arc::new(|applied| match applied.proposals() {
        Some(ProposalWrite::Settings(self_approval)) => Ok(Answer::json(
            StatusCode::OK,
            &ProposalSettingsResponse {
                contract_version: CONTRACT_VERSION,
                self_approval: *self_approval,
            },
        )),
        _ => Err(unexpected()),
    });
    let write = write_as(&p, Capability::PolicyAdmin, command);
    let retry = Retry::new("proposals.settings", key, value);
    Ok(answer(&state, &p, retry, write, render).await?)
}

#[utoipa::path(
    post, path = "/api/v1/proposals/sources", operation_id = "describe_source", tag = "proposals",
    request_body = DescribeSourceRequest,
    responses(
        (status = 200, description = "The source object `{kind, ref, sha256}`, hashed now; never its body", body = praxis_api::Source),
        (status = 403, description = "Missing proposal_create (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such object in this scope, or not current (`source_not_found`); no such file (`file_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The ref does not have its kind's form or names another project (`invalid_field`, `unknown_reference`), or a link is on the file's way (`invalid_path`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn describe_source(
    State(state): State<AppState>,
    Auth(p): Auth,
    ApiJson { body, .. }: ApiJson<DescribeSourceRequest>,
) -> Result<Response, ApiError> {
    let scope_project = body.scope.project_id.clone();
    let namespace = namespace_of(&p, Capability::ProposalCreate, body.scope)?;
    let source = praxis_domain::proposals::SourceRef {
        kind: wp::kind_from_wire(body.kind),
        r#ref: body.reference,
        sha256: "0".repeat(64),
    };
    if let Some(f) = source.findings().into_iter().find(|f| f.pointer == "/ref") {
        return Err(DomainError::invalid("/ref", f.message).into());
    }
    let sha256 = if source.kind == SourceKind::File {
        let (project, file) = source.file().unwrap_or_default();
        let projects = state.settings.projects.of(&p.tenant_id);
        if project != scope_project || projects.get(project).is_err() {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "unknown_reference",
                "the project is not the scope's, or is not configured on this server",
            )
            .at("/ref"));
        }
        let (project, file) = (project.to_owned(), file.to_owned());
        blocking(move || projects.get(&project)?.read_file(&file))
            .await?
            .1
    } else {
        let command = Command::Proposals(ProposalCommand::Describe {
            namespace,
            source: source.clone(),
        });
        let write = write_as(&p, Capability::ProposalCreate, command);
        let applied = state.engine.execute(write).await?.applied()?;
        match applied.proposals() {
            Some(ProposalWrite::Source(Some(sha))) => sha.clone(),
            Some(ProposalWrite::Source(None)) => {
                return Err(ApiError::new(
                    StatusCode::NOT_FOUND,
                    "source_not_found",
                    "no such object in this scope, or it is not at the named revision",
                )
                .at("/ref"));
            }
            _ => return Err(unexpected().into()),
        }
    };
    Ok(wire::json(
        StatusCode::OK,
        &praxis_api::Source {
            sha256,
            ..wp::source_to_wire(&source)
        },
    ))
}
