//! Project skill files (`memory_read`): the skills under a project root
//! the server's configuration maps (`--project ID=DIR`), never the API.
//!
//! A credential reads a project's files through a grant for a scope of
//! that project: the scope's `project_id` must be the path's project, so
//! a grant for one project never reaches another's files.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use praxis_api::{CONTRACT_VERSION, ProjectSkill, ProjectSkillsResponse};
use praxis_domain::auth::{Capability, Principal};
use praxis_store::skills::project::{ProjectError, ProjectRoots, SkillFile};

use crate::AppState;
use crate::error::ApiError;
use crate::extract::Auth;
use crate::request::{ScopeQuery, namespace_of, path, query};
use crate::wire;

/// The configured project roots, by tenant: a tenant reaches only the
/// projects configured for it, so two tenants never share files.
#[derive(Debug, Default)]
pub struct Projects {
    by_tenant: BTreeMap<String, Arc<ProjectRoots>>,
    none: Arc<ProjectRoots>,
}

impl Projects {
    /// The roots of `(tenant, project id, directory)` triples.
    pub fn new(
        roots: impl IntoIterator<Item = (String, String, PathBuf)>,
    ) -> Result<Projects, ProjectError> {
        let mut grouped: BTreeMap<String, Vec<(String, PathBuf)>> = BTreeMap::new();
        for (tenant, id, dir) in roots {
            grouped.entry(tenant).or_default().push((id, dir));
        }
        let mut by_tenant = BTreeMap::new();
        for (tenant, roots) in grouped {
            by_tenant.insert(tenant, Arc::new(ProjectRoots::new(roots)?));
        }
        Ok(Projects {
            by_tenant,
            none: Arc::default(),
        })
    }

    /// The roots a tenant may reach (none when it has no project).
    pub fn of(&self, tenant: &str) -> Arc<ProjectRoots> {
        self.by_tenant
            .get(tenant)
            .cloned()
            .unwrap_or_else(|| self.none.clone())
    }
}

pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/projects/{id}/skills", get(list))
        .route("/projects/{id}/skills/{name}", get(read))
}

/// Checks the capability and a grant for a scope of `project`.
pub(crate) fn project_access(
    p: &Principal,
    capability: Capability,
    scope: praxis_api::Scope,
    project: &str,
) -> Result<(), ApiError> {
    if scope.project_id != project {
        return Err(ProjectError::UnknownProject(project.to_owned()).into());
    }
    namespace_of(p, capability, scope)?;
    Ok(())
}

/// A skill file on the wire.
pub(crate) fn skill_to_wire(f: SkillFile) -> ProjectSkill {
    ProjectSkill {
        name: f.name,
        path: f.path,
        content: f.content,
        sha256: f.sha256,
    }
}

/// Runs blocking file work on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ProjectError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ProjectError::Io(e.to_string()))?
        .map_err(ApiError::from)
}

#[utoipa::path(
    get, path = "/api/v1/projects/{id}/skills", operation_id = "project_skills", tag = "projects",
    params(("id" = String, Path, description = "The project id, as the server's configuration maps it"), ScopeQuery),
    responses(
        (status = 200, description = "Every skill file of the project, by name", body = ProjectSkillsResponse),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such project is configured, or the scope is another project's (`project_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "A link or a non-directory where `.agents/skills` should be (`invalid_path`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn list(
    State(state): State<AppState>,
    Auth(p): Auth,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<ScopeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let id = path(id)?;
    project_access(&p, Capability::MemoryRead, query(q)?.scope(), &id)?;
    let projects = state.settings.projects.of(&p.tenant_id);
    let skills = blocking(move || projects.get(&id)?.list_skills()).await?;
    Ok(wire::json(
        StatusCode::OK,
        &ProjectSkillsResponse {
            contract_version: CONTRACT_VERSION,
            skills: skills.into_iter().map(skill_to_wire).collect(),
        },
    ))
}

#[utoipa::path(
    get, path = "/api/v1/projects/{id}/skills/{name}", operation_id = "project_skill", tag = "projects",
    params(
        ("id" = String, Path, description = "The project id"),
        ("name" = String, Path, description = "The skill's name"),
        ScopeQuery,
    ),
    responses(
        (status = 200, description = "The skill file, whole, with its SHA-256", body = ProjectSkill),
        (status = 403, description = "Missing memory_read (`missing_capability`) or the scope grant (`missing_grant`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such project (`project_not_found`) or skill file (`file_not_found`)", body = praxis_api::Problem, content_type = "application/problem+json"),
        (status = 422, description = "Not a skill name, or a link on the way (`invalid_path`)", body = praxis_api::Problem, content_type = "application/problem+json"),
    ),
    security(("bearer" = []))
)]
pub(crate) async fn read(
    State(state): State<AppState>,
    Auth(p): Auth,
    params: Result<Path<(String, String)>, PathRejection>,
    q: Result<Query<ScopeQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let (id, name) = path(params)?;
    project_access(&p, Capability::MemoryRead, query(q)?.scope(), &id)?;
    let projects = state.settings.projects.of(&p.tenant_id);
    let skill = blocking(move || projects.get(&id)?.read_skill(&name)).await?;
    Ok(wire::json(StatusCode::OK, &skill_to_wire(skill)))
}
