//! Experience proposals: candidates stored as data, reviewed against their
//! live sources and destination, approved into agent memory or a project
//! skill, resolved when a skill promotion's outcome is unknown, and
//! withdrawn; the source objects a candidate cites; the scope's
//! self-approval setting; and project skill reads.
//!
//! Create, withdraw and the setting send the client's `Idempotency-Key`
//! (see [`Client::with_idempotency_key`]). Review and the source
//! description only read, and approve and resolve are idempotent by the
//! proposal's state, so those send none. A refusal is a
//! [`ClientError::Problem`]: 409 `version_mismatch`, `source_changed` (its
//! `field` naming the source), `destination_changed`,
//! `proposal_not_open`, `promotion_in_progress`,
//! `promotion_outcome_unresolved_do_not_retry` (inspect the file its
//! detail names, then resolve; never retry) or `resolution_contradicted`;
//! 403 `self_approval_refused`; 422 `proposal_invalid` with every finding
//! in `errors`; 507 `proposals_full`.

use praxis_api::{
    ApproveProposalRequest, CreateExperienceProposalRequest, DescribeSourceRequest,
    ExperienceProposalResponse, ExperienceProposalsResponse, ProjectSkill, ProjectSkillsResponse,
    PromotionResponse, ProposalReview, ProposalSettingsRequest, ProposalSettingsResponse,
    ResolveProposalRequest, Scope, ScopedProposalRequest, Source, WithdrawProposalRequest,
};
use reqwest::Method;

use crate::{Client, ClientError, path_segment, scope_query};

/// Filters and paging of a proposal list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProposalList {
    /// Only proposals in this stored state: `open`, `promoting` (an
    /// unresolved promotion among them), `receipt_saved`, `promoted` or
    /// `withdrawn`.
    pub state: Option<String>,
    /// Proposals after this id (the previous page's `next`).
    pub after: Option<String>,
    /// Page size, 1 to 100 (the server's default, 50, when absent).
    pub limit: Option<usize>,
}

impl Client {
    /// `POST /api/v1/proposals`: stores the candidate as an open proposal
    /// (proposal_create); it is data, never guidance, until approved.
    pub async fn create_proposal(
        &self,
        request: &CreateExperienceProposalRequest,
    ) -> Result<ExperienceProposalResponse, ClientError> {
        self.post("/api/v1/proposals", request, None).await
    }

    /// `GET /api/v1/proposals`: one page of the scope's proposals by id
    /// (proposal_create or proposal_approve). Pass the page's `next` as
    /// the next request's `after`.
    pub async fn list_proposals(
        &self,
        scope: &Scope,
        list: &ProposalList,
    ) -> Result<ExperienceProposalsResponse, ClientError> {
        let mut query = scope_query(scope);
        let filters = [
            ("state", list.state.clone()),
            ("after", list.after.clone()),
            ("limit", list.limit.map(|l| l.to_string())),
        ];
        query.extend(filters.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))));
        Self::send(self.request(Method::GET, "/api/v1/proposals").query(&query)).await
    }

    /// `GET /api/v1/proposals/{id}`: the proposal, its state, approval,
    /// marker and receipt (proposal_create or proposal_approve).
    pub async fn read_proposal(
        &self,
        scope: &Scope,
        id: &str,
    ) -> Result<ExperienceProposalResponse, ClientError> {
        let path = format!("/api/v1/proposals/{}", path_segment(id));
        Self::send(self.request(Method::GET, &path).query(&scope_query(scope))).await
    }

    /// `POST /api/v1/proposals/{id}/review`: the exact rendered body, the
    /// destination and its state now, every source's live status, and the
    /// version and destination hashes to approve with (proposal_create or
    /// proposal_approve).
    pub async fn review_proposal(
        &self,
        id: &str,
        request: &ScopedProposalRequest,
    ) -> Result<ProposalReview, ClientError> {
        let path = format!("/api/v1/proposals/{}/review", path_segment(id));
        self.read(&path, request).await
    }

    /// `POST /api/v1/proposals/{id}/approve`: promotes the reviewed version
    /// against the reviewed destination state (proposal_approve). A
    /// promoted proposal answers with its saved receipt and
    /// `applied_now: false`.
    pub async fn approve_proposal(
        &self,
        id: &str,
        request: &ApproveProposalRequest,
    ) -> Result<PromotionResponse, ClientError> {
        let path = format!("/api/v1/proposals/{}/approve", path_segment(id));
        self.unkeyed(&path, request).await
    }

    /// `POST /api/v1/proposals/{id}/resolve`: an operator's resolution of a
    /// skill promotion whose outcome is unknown, checked against the file
    /// (proposal_approve): applied saves the receipt and note, not applied
    /// opens the proposal again.
    pub async fn resolve_proposal(
        &self,
        id: &str,
        request: &ResolveProposalRequest,
    ) -> Result<ExperienceProposalResponse, ClientError> {
        let path = format!("/api/v1/proposals/{}/resolve", path_segment(id));
        self.unkeyed(&path, request).await
    }

    /// `POST /api/v1/proposals/{id}/withdraw`: ends an open proposal; its
    /// history stays (proposal_create or proposal_approve).
    pub async fn withdraw_proposal(
        &self,
        id: &str,
        request: &WithdrawProposalRequest,
    ) -> Result<ExperienceProposalResponse, ClientError> {
        let path = format!("/api/v1/proposals/{}/withdraw", path_segment(id));
        self.post(&path, request, None).await
    }

    /// `POST /api/v1/proposals/sources`: one source object `{kind, ref,
    /// sha256}`, hashed now, never its body (proposal_create).
    pub async fn describe_source(
        &self,
        request: &DescribeSourceRequest,
    ) -> Result<Source, ClientError> {
        self.read("/api/v1/proposals/sources", request).await
    }

    /// `POST /api/v1/proposals/settings`: whether a proposer may approve
    /// their own proposals in the scope (policy_admin).
    pub async fn proposal_settings(
        &self,
        request: &ProposalSettingsRequest,
    ) -> Result<ProposalSettingsResponse, ClientError> {
        self.post("/api/v1/proposals/settings", request, None).await
    }

    /// `GET /api/v1/projects/{project}/skills`: every skill file of the
    /// project, by name (memory_read in a scope of that project).
    pub async fn project_skills(
        &self,
        project: &str,
        scope: &Scope,
    ) -> Result<ProjectSkillsResponse, ClientError> {
        let path = format!("/api/v1/projects/{}/skills", path_segment(project));
        Self::send(self.request(Method::GET, &path).query(&scope_query(scope))).await
    }

    /// `GET /api/v1/projects/{project}/skills/{name}`: one skill file,
    /// whole, with its SHA-256 (memory_read in a scope of that project).
    pub async fn project_skill(
        &self,
        project: &str,
        name: &str,
        scope: &Scope,
    ) -> Result<ProjectSkill, ClientError> {
        let path = format!(
            "/api/v1/projects/{}/skills/{}",
            path_segment(project),
            path_segment(name)
        );
        Self::send(self.request(Method::GET, &path).query(&scope_query(scope))).await
    }
}
