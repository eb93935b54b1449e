//! Request plumbing every handler shares: the namespace a request acts in,
//! the write it makes, how it is executed, and its query, path and paging
//! parameters.

use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use praxis_domain::auth::{Capability, Namespace, Principal};
use praxis_domain::ledger::Actor;
use praxis_store::{Authority, Command, Write};
use serde::Deserialize;

use crate::admin::scope_from_wire;
use crate::error::ApiError;

/// Checks the capability and the exact grant; returns the namespace.
pub(crate) fn namespace_of(
    p: &Principal,
    capability: Capability,
    scope: praxis_api::Scope,
) -> Result<Namespace, ApiError> {
    let scope = scope_from_wire(scope);
    scope.validate("/scope")?;
    Ok(p.require_in(&[capability], &scope)?)
}

/// The actor a principal's writes are recorded under.
pub(crate) fn actor(p: &Principal) -> Actor {
    Actor {
        credential_id: p.credential_id.clone(),
        subject: p.subject.clone(),
    }
}

/// A write by the caller, re-checked against its credential when applied.
pub(crate) fn write_as(p: &Principal, capability: Capability, command: Command) -> Write {
    Write::new(&p.tenant_id, actor(p), command).authorized(Authority {
        credential_id: p.credential_id.clone(),
        secret_sha256: p.secret_sha256,
        capability,
    })
}

/// The query, or 400 `invalid_query` naming what is wrong with it.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(q)| q)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", e.body_text()))
}

/// The path parameters, or 400 `invalid_path`.
pub(crate) fn path<T>(p: Result<Path<T>, PathRejection>) -> Result<T, ApiError> {
    p.map(|Path(p)| p)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "invalid_path", e.body_text()))
}

/// A page size: `default` when none is asked for, else 1..=`max`.
pub(crate) fn page_limit(
    limit: Option<usize>,
    default: usize,
    max: usize,
) -> Result<usize, ApiError> {
    let limit = limit.unwrap_or(default);
    if (1..=max).contains(&limit) {
        Ok(limit)
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("limit must be 1..={max}"),
        )
        .at("limit"))
    }
}

/// A scope in a query string; an absent `mission_id` is the null mission.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ScopeQuery {
    /// Project id.
    project_id: String,
    /// Mission id; absent for the null mission.
    mission_id: Option<String>,
    /// Agent id.
    agent_id: String,
    /// `shared` or `private`.
    visibility: praxis_api::Visibility,
}

impl ScopeQuery {
    /// The scope it names.
    pub(crate) fn scope(self) -> praxis_api::Scope {
        wire_scope(
            self.project_id,
            self.mission_id,
            self.agent_id,
            self.visibility,
        )
    }
}

/// A wire scope from its query parameters.
pub(crate) fn wire_scope(
    project_id: String,
    mission_id: Option<String>,
    agent_id: String,
    visibility: praxis_api::Visibility,
) -> praxis_api::Scope {
    praxis_api::Scope {
        project_id,
        mission_id,
        agent_id,
        visibility,
    }
}

/// A free-text reason: 1-1000 characters, not blank, and passing the same
/// screening as record text, since it is kept in the ledger for good.
pub(crate) fn check_reason(reason: &str) -> Result<(), ApiError> {
    let findings = praxis_domain::records::notes::check_reason(reason);
    if findings.is_empty() {
        Ok(())
    } else {
        Err(ApiError::findings(
            "invalid_field",
            "the reason breaks a rule; nothing was written",
            "",
            findings,
        ))
    }
}
