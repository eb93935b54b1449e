//! Review, approval and resolution.
//!
//! A memory promotion is one store transaction. A skill promotion is a
//! journal around a file write the store cannot hold in its transaction:
//!
//! 1. the approval and the attempt marker commit (the proposal is
//!    `promoting`);
//! 2. the file is written by compare-and-set on the hash approved;
//! 3. the receipt commits (`receipt_saved`), then the promotion note
//!    (`promoted`).
//!
//! A crash after 1 leaves a marker and no receipt: the outcome is unknown,
//! and the proposal says so until an operator resolves it against the
//! file. A crash after 3's receipt leaves the note missing: the next
//! approval completes it and writes nothing. `PRAXIS_FAILPOINT` stops the
//! process at either point, for the tests that prove it.

use std::sync::OnceLock;

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use praxis_api::{
    ApproveProposalRequest, CONTRACT_VERSION, ExperienceProposalResponse, PromotionResponse,
    ProposalReview, ResolveProposalRequest, ReviewedDestination, ReviewedSource,
    ScopedProposalRequest,
};
use praxis_domain::Refusal;
use praxis_domain::auth::{Capability, Namespace, Principal};
use praxis_domain::digest::Digest;
use praxis_domain::proposals::{
    Destination, Proposal, ProposalState, SourceKind, SourceStatus, destination_hash,
};
use praxis_store::proposals::{
    Approve, Finish, ProposalCommand, ProposalView, SkillFileState, destination_value,
};
use praxis_store::skills::project::ProjectError;
use praxis_store::{Command, StoreError};

use super::{checked_id, load, namespace_either, view_of};
use crate::AppState;
use crate::error::ApiError;
use crate::extract::{ApiJson, Auth};
use crate::projects::blocking;
use crate::request::{namespace_of, path, write_as};
use crate::wire::{self, proposals as wp};

/// Stops the process here when `PRAXIS_FAILPOINT` names this point: the
/// tests' way to kill a promotion between its journal's steps.
fn failpoint(name: &str) {
    static POINT: OnceLock<Option<String>> = OnceLock::new();
    if POINT
        .get_or_init(|| std::env::var("PRAXIS_FAILPOINT").ok())
        .as_deref()
        == Some(name)
    {
        tracing::warn!(failpoint = name, "stopping at the failpoint");
        std::process::abort();
    }
}

/// The current SHA-256 of a skill destination's file (None: absent).
async fn skill_current(
    state: &AppState,
    tenant: &str,
    project: &str,
    path: &str,
) -> Result<Option<String>, ApiError> {
    let name = skill_name(path)?;
    let (projects, project) = (state.settings.projects.of(tenant), project.to_owned());
    blocking(move || projects.get(&project)?.current_sha256(&name)).await
}

fn skill_name(path: &str) -> Result<String, ApiError> {
    Destination::Skill {
        project: String::new(),
        path: path.to_owned(),
        expected_sha256: None,
    }
    .skill_name()
    .map(str::to_owned)
    .ok_or_else(|| ProjectError::NotFound.into())
}

/// The status of every file source now; Praxis sources keep what the
/// store found.
async fn with_files(
    state: &AppState,
    tenant: &str,
    proposal: &Proposal,
    store: &[Option<SourceStatus>],
) -> Result<Vec<SourceStatus>, ApiError> {
    let mut out = Vec::with_capacity(store.len());
    for (source, found) in proposal.candidate.sources.iter().zip(store) {
        let status = match (source.kind, found) {
            (SourceKind::File, _) => {
                let (project, file) = source.file().unwrap_or_default();
                let (projects, project, file) = (
                    state.settings.projects.of(tenant),
                    project.to_owned(),
                    file.to_owned(),
                );
                let read =
                    tokio::task::spawn_blocking(move || projects.get(&project)?.read_file(&file))
                        .await
                        .map_err(|e| ProjectError::Io(e.to_string()))?;
                match read {
                    Ok((_, sha)) => SourceStatus::of(&source.sha256, Some(&sha)),
                    Err(ProjectError::Io(e)) => return Err(ProjectError::Io(e).into()),
                    Err(_) => SourceStatus::Missing,
                }
            }
            (_, Some(s)) => *s,
            (_, None) => SourceStatus::Missing,
        };
        out.push(status);
    }
    Ok(out)
}

/// Inspects the proposal in one store snapshot.
async fn inspect(
    state: &AppState,
    p: &Principal,
    ns: &Namespace,
    id: &str,
    capability: Capability,
) -> Result<ProposalView, ApiError> {
    let command = Command::Proposals(ProposalCommand::Inspect {
        namespace: ns.clone(),
        id: id.to_owned(),
    });
    let applied = state
        .engine
        .execute(write_as(p, capability, command))
        .await?
        .applied()?;
    Ok(view_of(&applied)?.clone())
}

/// The destination's current state: the memory item's live revision or
/// the skill file's hash.
async fn destination_now(
    state: &AppState,
    tenant: &str,
    view: &ProposalView,
) -> Result<Option<String>, ApiError> {
    match &view.proposal.candidate.destination {
        Destination::Memory { .. } => Ok(view
            .memory_current
            .clone()
            .flatten()
            .map(|r| r.as_str().to_owned())),
        Destination::Skill { project, path, .. } => {
            skill_current(state, tenant, project, path).await
        }
    }
}

fn expected_of(d: &Destination) -> Option<String> {
    match d {
        Destination::Memory {
            expected_revision, ..
        } => expected_revision.as_ref().map(|r| r.as_str().to_owned()),
        Destination::Skill {
            expected_sha256, ..
        } => expected_sha256.clone(),
    }
}

#[utoipa::path(
    post, path = "/api/v1/proposals/{id}/review", operation_id = "review_proposal", tag = "proposals",
    params(("id" = String, Path, description = "The proposal")),
    request_body = ScopedProposalRequest,
    responses(
        (status = 200, description = "The exact rendered body, the destination and its state, every source's live status, and the version and destination hashes to approve with", body = ProposalReview),
        (status = 403, description = "Missing proposal_create and proposal_approve (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such proposal in this scope (`proposal_not_found`), or its project is no longer configured (`project_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A link, or something other than a directory, on the way to a skill destination (`invalid_path`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn review(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    ApiJson { body, .. }: ApiJson<ScopedProposalRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let (ns, capability) = namespace_either(
        &p,
        Capability::ProposalApprove,
        Capability::ProposalCreate,
        body.scope,
    )?;
    checked_id(&id)?;
    let view = inspect(&state, &p, &ns, &id, capability).await?;
    let statuses = with_files(&state, &p.tenant_id, &view.proposal, &view.sources).await?;
    let current = destination_now(&state, &p.tenant_id, &view).await?;
    let candidate = &view.proposal.candidate;
    let carried = state.promotions.holds(&p.tenant_id, &ns, &id);
    let review = ProposalReview {
        contract_version: CONTRACT_VERSION,
        rendered: candidate.rendered(),
        destination: ReviewedDestination {
            destination: wp::destination_to_wire(&candidate.destination),
            as_expected: expected_of(&candidate.destination) == current,
            current: current.clone(),
        },
        sources: candidate
            .sources
            .iter()
            .zip(statuses)
            .map(|(s, status)| {
                let wire = wp::source_to_wire(s);
                ReviewedSource {
                    kind: wire.kind,
                    reference: wire.reference,
                    sha256: wire.sha256,
                    status: wp::status_to_wire(status),
                }
            })
            .collect(),
        version_hash: view.proposal.version_hash.clone(),
        destination_hash: destination_hash(
            &destination_value(&candidate.destination),
            current.as_deref(),
        ),
        proposal: wp::proposal_to_wire(&view.proposal, carried),
    };
    Ok(wire::json(StatusCode::OK, &review))
}

/// The receipt of a promoted proposal; `applied_now` when this request
/// applied the effect (not when it found it applied, or only completed
/// the note).
fn receipt_answer(view: &ProposalView, applied_now: bool) -> Result<Response, ApiError> {
    let receipt = view
        .proposal
        .receipt
        .as_ref()
        .ok_or_else(|| StoreError::inconsistent("a promoted proposal has no receipt"))?;
    Ok(wire::json(
        StatusCode::OK,
        &PromotionResponse {
            contract_version: CONTRACT_VERSION,
            receipt: wp::receipt_to_wire(receipt),
            applied_now,
        },
    ))
}

async fn run(
    state: &AppState,
    p: &Principal,
    command: ProposalCommand,
) -> Result<ProposalView, ApiError> {
    let write = write_as(p, Capability::ProposalApprove, Command::Proposals(command));
    let applied = state.engine.execute(write).await?.applied()?;
    state
        .metrics
        .domain
        .acknowledged(crate::metrics::Counted::Other, &applied);
    Ok(view_of(&applied)?.clone())
}

#[utoipa::path(
    post, path = "/api/v1/proposals/{id}/approve", operation_id = "approve_proposal", tag = "proposals",
    params(("id" = String, Path, description = "The proposal")),
    request_body = ApproveProposalRequest,
    responses(
        (status = 200, description = "Promoted, or already promoted (a duplicate approval answers with the saved receipt and writes nothing; one whose note was missing completes the note only)", body = PromotionResponse),
        (status = 403, description = "Missing proposal_approve (`missing_capability`), the scope grant (`missing_grant`), or the approver proposed it and the scope does not allow self-approval (`self_approval_refused`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such proposal in this scope (`proposal_not_found`), or its project is no longer configured (`project_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Nothing was applied: the version hash is not the proposal's (`version_mismatch`); a source changed or is gone (`source_changed`, `field` naming which); the destination is not as expected or reviewed (`destination_changed`); it is withdrawn (`proposal_not_open`); another approval is promoting it (`promotion_in_progress`); or an earlier promotion's outcome is unknown (`promotion_outcome_unresolved_do_not_retry`, naming the file and its possible hashes)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "The promoted memory item breaks a rule (`memory_invalid`), or a link is on the way to a skill destination (`invalid_path`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 507, description = "Memory is full (`memory_full`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn approve(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    ApiJson { body, .. }: ApiJson<ApproveProposalRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let ns = namespace_of(&p, Capability::ProposalApprove, body.scope)?;
    let proposal = load(&state, &p, &ns, &id).await?;
    let approval = Approve {
        namespace: ns.clone(),
        id: id.clone(),
        version_hash: body.version_hash,
        destination_hash: body.destination_hash,
        skill: None,
        limits: state.settings.memory,
    };
    let was_open = proposal.state == ProposalState::Open;
    let Destination::Skill { project, path, .. } = proposal.candidate.destination.clone() else {
        if was_open {
            check_files(&state, &p.tenant_id, &proposal).await?;
        }
        let view = run(&state, &p, ProposalCommand::Approve(Box::new(approval))).await?;
        return receipt_answer(&view, was_open && view.changed);
    };
    // One request of this server carries a skill promotion at a time.
    let Some(carrying) = state.promotions.take(&p.tenant_id, &ns, &id) else {
        return Err(Refusal::PromotionInProgress.into());
    };
    // The promotion runs in a task of its own, which holds the promotion
    // until its journal is written: a client that disconnects mid-write
    // cannot release it while the file write is still running.
    let skill = SkillPromotion {
        state,
        p,
        ns,
        id,
        project,
        path,
        approval,
        carrying,
    };
    tokio::spawn(skill.run())
        .await
        .map_err(|e| StoreError::inconsistent(format!("a promotion task failed: {e}")))?
}

/// One skill promotion, carried by this server from its approval to its
/// note.
struct SkillPromotion {
    state: AppState,
    p: Principal,
    ns: Namespace,
    id: String,
    project: String,
    path: String,
    approval: Approve,
    carrying: super::Carrying,
}

impl SkillPromotion {
    async fn run(mut self) -> Result<Response, ApiError> {
        let (state, p) = (&self.state, &self.p);
        // Read again now that it is held: another request may have ended
        // a promotion since the first read.
        let proposal = load(state, p, &self.ns, &self.id).await?;
        if proposal.state == ProposalState::Open {
            check_files(state, &p.tenant_id, &proposal).await?;
            let rendered = proposal.candidate.rendered();
            self.approval.skill = Some(SkillFileState {
                current_sha256: skill_current(state, &p.tenant_id, &self.project, &self.path)
                    .await?,
                new_sha256: Digest::sha256(rendered.as_bytes()).to_hex(),
            });
        }
        let approve = ProposalCommand::Approve(Box::new(self.approval.clone()));
        let view = run(state, p, approve).await?;
        if view.proposal.state != ProposalState::Promoting {
            // Already promoted, or its note just completed: nothing is written.
            return receipt_answer(&view, false);
        }
        failpoint("proposal-after-marker");
        let marker = view
            .proposal
            .marker
            .clone()
            .ok_or_else(|| StoreError::inconsistent("a promoting proposal has no marker"))?;
        let (projects, project, name, content) = (
            state.settings.projects.of(&p.tenant_id),
            self.project.clone(),
            skill_name(&self.path)?,
            view.proposal.candidate.rendered(),
        );
        let expected = marker.expected_sha256.clone();
        let written = tokio::task::spawn_blocking(move || {
            projects
                .get(&project)?
                .write_skill(&name, &content, expected.as_deref())
        })
        .await
        .map_err(|e| ProjectError::Io(e.to_string()))?;
        let outcome = match written {
            Ok(_) => Finish::Applied,
            // Anything but an IO failure is refused before the file is
            // touched: known not applied, and the proposal is open again.
            Err(e @ ProjectError::Io(_)) => {
                // It may or may not have landed: the marker stays, and the
                // outcome is for an operator to resolve.
                tracing::error!(proposal = %self.id, "skill write failed; outcome unknown");
                return Err(e.into());
            }
            Err(e) => {
                let finish = ProposalCommand::Finish {
                    namespace: self.ns.clone(),
                    id: self.id.clone(),
                    outcome: Finish::NotApplied {
                        reason: e.to_string(),
                    },
                };
                run(state, p, finish).await?;
                return Err(match e {
                    ProjectError::Exists { .. } | ProjectError::Changed { .. } => {
                        Refusal::DestinationChanged {
                            what: "the file changed before it was written".into(),
                        }
                        .into()
                    }
                    other => other.into(),
                });
            }
        };
        let finish = ProposalCommand::Finish {
            namespace: self.ns.clone(),
            id: self.id.clone(),
            outcome,
        };
        run(state, p, finish).await?;
        failpoint("proposal-after-receipt");
        let note = ProposalCommand::Note {
            namespace: self.ns.clone(),
            id: self.id.clone(),
        };
        let view = run(state, p, note).await?;
        drop(self.carrying);
        receipt_answer(&view, true)
    }
}

/// Refuses when a file source no longer hashes as pinned. Files are read
/// just before the store's transaction, which re-hashes every Praxis
/// source inside it.
async fn check_files(state: &AppState, tenant: &str, proposal: &Proposal) -> Result<(), ApiError> {
    let praxis: Vec<Option<SourceStatus>> = proposal
        .candidate
        .sources
        .iter()
        .map(|_| Some(SourceStatus::Fresh))
        .collect();
    let statuses = with_files(state, tenant, proposal, &praxis).await?;
    for (index, status) in statuses.into_iter().enumerate() {
        let status = match status {
            SourceStatus::Fresh => continue,
            SourceStatus::Changed => "changed",
            SourceStatus::Missing => "missing",
        };
        return Err(Refusal::SourceChanged { index, status }.into());
    }
    Ok(())
}

#[utoipa::path(
    post, path = "/api/v1/proposals/{id}/resolve", operation_id = "resolve_proposal", tag = "proposals",
    params(("id" = String, Path, description = "The proposal")),
    request_body = ResolveProposalRequest,
    responses(
        (status = 200, description = "Resolved: applied (the receipt and note are saved) or not applied (the proposal is open again)", body = ExperienceProposalResponse),
        (status = 403, description = "Missing proposal_approve (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such proposal in this scope (`proposal_not_found`), or its project is no longer configured (`project_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A link, or something other than a directory, on the way to the file (`invalid_path`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 409, description = "Its outcome is not unresolved (`proposal_not_open`), a request is promoting it now (`promotion_in_progress`), or the file contradicts the resolution (`resolution_contradicted`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn resolve(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    ApiJson { body, .. }: ApiJson<ResolveProposalRequest>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    let ns = namespace_of(&p, Capability::ProposalApprove, body.scope)?;
    let proposal = load(&state, &p, &ns, &id).await?;
    let Some(_carrying) = state.promotions.take(&p.tenant_id, &ns, &id) else {
        return Err(Refusal::PromotionInProgress.into());
    };
    let (Some(marker), ProposalState::Promoting) = (&proposal.marker, proposal.state) else {
        return Err(Refusal::ProposalNotOpen {
            state: proposal.state.as_str(),
        }
        .into());
    };
    let current = skill_current(&state, &p.tenant_id, &marker.project, &marker.path).await?;
    let outcome = if body.applied {
        if current.as_deref() != Some(marker.new_sha256.as_str()) {
            return Err(Refusal::ResolutionContradicted(
                "the file does not hold the promoted content".into(),
            )
            .into());
        }
        Finish::Applied
    } else {
        if current == Some(marker.new_sha256.clone()) && marker.expected_sha256 != current {
            return Err(Refusal::ResolutionContradicted(
                "the file holds the promoted content".into(),
            )
            .into());
        }
        if current != marker.expected_sha256 {
            return Err(Refusal::ResolutionContradicted(
                "the file is neither as it was nor as promoted".into(),
            )
            .into());
        }
        Finish::NotApplied {
            reason: "an operator resolved the promotion as not applied".into(),
        }
    };
    let applied = outcome == Finish::Applied;
    let finish = ProposalCommand::Finish {
        namespace: ns.clone(),
        id: id.clone(),
        outcome,
    };
    let mut view = run(&state, &p, finish).await?;
    if applied {
        view = run(&state, &p, ProposalCommand::Note { namespace: ns, id }).await?;
    }
    Ok(wire::json(
        StatusCode::OK,
        &ExperienceProposalResponse {
            contract_version: CONTRACT_VERSION,
            proposal: wp::proposal_to_wire(&view.proposal, false),
        },
    ))
}
