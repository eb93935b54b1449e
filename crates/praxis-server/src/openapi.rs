//! The OpenAPI 3.1 document, generated from the handlers and wire types.

use utoipa::openapi::path::Operation;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, OpenApi};

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("prx_<id>_<secret>")
                    .build(),
            ),
        );
    }
}

/// Adds the answers every operation of a kind can give, which the handlers
/// do not list one by one: the route limits' (every operation), the
/// extractors' and the store's (API operations). Generated from the
/// operations themselves, so a new endpoint gets them too.
struct CommonProblems;

impl Modify for CommonProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            for op in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                route_limits(op);
                if path.starts_with("/api/") {
                    common_problems(op);
                }
            }
        }
    }
}

/// The limits every route enforces before its handler runs: the declared
/// body length (`extract::limit_declared_length`) and the request head
/// (`crate::head`).
fn route_limits(op: &mut Operation) {
    for (status, description) in [
        (
            "413",
            "The body, or the `Content-Length` declared for it, is over the route's limit (`request_too_large`)".to_owned(),
        ),
        (
            "414",
            format!(
                "The request target is over {} bytes (`uri_too_long`)",
                crate::URI_LIMIT
            ),
        ),
        (
            "431",
            format!(
                "The header fields are over {} bytes or {} fields (`headers_too_large`)",
                crate::HEADERS_LIMIT,
                crate::HEADER_FIELDS_LIMIT
            ),
        ),
    ] {
        op.responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| problem(&description));
    }
}

fn common_problems(op: &mut Operation) {
    let authenticated = op.security.as_ref().is_some_and(|s| !s.is_empty());
    let has_body = op.request_body.is_some();
    let query_names: Vec<String> = op
        .parameters
        .iter()
        .flatten()
        .filter_map(|p| match p {
            RefOr::T(p) if p.parameter_in == utoipa::openapi::path::ParameterIn::Query => {
                Some(p.name.clone())
            }
            _ => None,
        })
        .collect();
    let has_query = !query_names.is_empty();
    let has_path = op.parameters.iter().flatten().any(
        |p| matches!(p, RefOr::T(p) if p.parameter_in == utoipa::openapi::path::ParameterIn::Path),
    );
    let mut add = |status: &str, description: &str| {
        op.responses
            .responses
            .entry(status.to_owned())
            .or_insert_with(|| problem(description));
    };
    if authenticated {
        add(
            "401",
            "No usable credential (`unauthenticated`, `invalid_credential`, `credential_revoked`, `credential_expired`, `malformed_token`)",
        );
    }
    if has_body {
        add(
            "400",
            "The body is not strict JSON or does not fit its type (`malformed_json`, `duplicate_key`, `number_out_of_range`, `invalid_body`, `unknown_field`, `missing_field`, `unsupported_contract_version`, `invalid_idempotency_key`); `field` names the offending member",
        );
        add(
            "415",
            "The body is not `application/json` (`unsupported_media_type`)",
        );
        add(
            "422",
            "A field breaks a rule (`invalid_field`); `field` names it",
        );
    } else if has_query {
        add(
            "400",
            "A query parameter is missing, unknown or malformed (`invalid_query`)",
        );
    }
    add(
        "500",
        "Stored data failed verification (`storage_inconsistency`), or the server failed unexpectedly (`internal_error`)",
    );
    add(
        "503",
        "The store could not complete the request (`storage_unavailable`)",
    );
    // Every path parameter is read by `request::path`.
    if has_path {
        also_400(
            op,
            "A path parameter is malformed (`invalid_path`)",
            "; or a path parameter is malformed (`invalid_path`)",
        );
    }
    // Every paged list checks its cursor the same way (`crate::cursor`).
    if query_names.iter().any(|n| n == "after") {
        also_400(
            op,
            "`after` is not a cursor of this list (`invalid_cursor`)",
            "; or `after` is not a `next_cursor` this list gave for this query (`invalid_cursor`, `field` is `after`)",
        );
    }
}

/// Documents one more cause of 400: `alone` when it is the only one, else
/// `more` appended to the description already there.
fn also_400(op: &mut Operation, alone: &str, more: &str) {
    match op.responses.responses.get_mut("400") {
        Some(RefOr::T(answer)) => answer.description.push_str(more),
        Some(RefOr::Ref(_)) => {}
        None => {
            op.responses
                .responses
                .insert("400".to_owned(), problem(alone));
        }
    }
}

fn problem(description: &str) -> RefOr<utoipa::openapi::Response> {
    RefOr::T(
        ResponseBuilder::new()
            .description(description)
            .content(
                "application/problem+json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .build(),
            )
            .build(),
    )
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Praxis", description = "The experience ledger for AI agents.", version = "1"),
    paths(
        crate::credentials::issue,
        crate::credentials::capabilities,
        crate::credentials::list,
        crate::credentials::read,
        crate::credentials::revoke,
        crate::credentials::rotate,
        crate::attempts::observe,
        crate::attempts::assess,
        crate::attempts::set_policy,
        crate::attempts::read_policy,
        crate::attempts::history,
        crate::attempts::counts,
        crate::attempts::import,
        crate::attempts::export,
        crate::records::record_schema,
        crate::records::submit,
        crate::records::read,
        crate::records::search,
        crate::records::history,
        crate::records::intake,
        crate::records::review,
        crate::records::withdraw,
        crate::records::set_settings,
        crate::records::read_settings,
        crate::skills::publish_skill,
        crate::skills::skills,
        crate::skills::withdraw_skill,
        crate::ops::healthz,
        crate::ops::readyz,
        crate::ops::metrics,
        crate::ops::openapi,
    ),
    modifiers(&BearerAuth, &CommonProblems)
)]
struct ApiDoc;

/// The OpenAPI document as pretty JSON.
pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}
