//! The OpenAPI 3.1 document, generated from the handlers and wire types.

use praxis_api::CONTRACT_VERSION;
use praxis_domain::canonical::MAX_SAFE_INTEGER;
use utoipa::openapi::Required;
use utoipa::openapi::path::{Operation, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayItems, KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
use utoipa::{Modify, Number, OpenApi};

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
    // Handlers document their own causes of a status; these are the causes
    // every operation of the kind shares, added to whatever is there.
    if authenticated {
        mention(
            op,
            "401",
            "no usable credential (`unauthenticated`, `invalid_credential`, `credential_revoked`, `credential_expired`, `malformed_token`)",
        );
    }
    if has_body {
        mention(
            op,
            "400",
            "the body is not strict JSON or does not fit its type (`malformed_json`, `duplicate_key`, `number_out_of_range`, `invalid_body`, `unknown_field`, `missing_field`, `invalid_field`, `unsupported_contract_version`); `field` names the offending member",
        );
        mention(
            op,
            "415",
            "the body is not `application/json` (`unsupported_media_type`)",
        );
        mention(
            op,
            "422",
            "a field breaks a rule (`invalid_field`); `field` names it",
        );
    }
    if has_query {
        mention(
            op,
            "400",
            "a query parameter is missing, unknown or malformed (`invalid_query`)",
        );
    }
    mention(
        op,
        "500",
        "stored data failed verification (`storage_inconsistency`), or the server failed unexpectedly (`internal_error`)",
    );
    mention(
        op,
        "503",
        "the store could not complete the request (`storage_unavailable`)",
    );
    if has_path {
        mention(
            op,
            "400",
            "a path parameter is not valid UTF-8 (`invalid_path`)",
        );
    }
    // Every paged list checks its cursor the same way (`crate::cursor`).
    if query_names.iter().any(|n| n == "after") {
        mention(
            op,
            "400",
            "`after` is not a `next_cursor` this list gave for this query (`invalid_cursor`, `field` is `after`)",
        );
    }
}

/// States the scope id rule (`praxis_domain::auth::check_id`) on the scope
/// ids that queries carry as parameters, as `Scope` states it for bodies.
struct ScopeParameters;

impl Modify for ScopeParameters {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for op in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                let mut scoped = false;
                for parameter in op.parameters.iter_mut().flatten() {
                    if let RefOr::T(p) = parameter
                        && ["project_id", "mission_id", "agent_id"].contains(&p.name.as_str())
                    {
                        scoped = true;
                        let id = ObjectBuilder::new()
                            .schema_type(Type::String)
                            .min_length(Some(1))
                            .max_length(Some(praxis_domain::auth::MAX_ID_LEN))
                            .pattern(Some("^[!-~]+$"));
                        *p = ParameterBuilder::from(p.clone()).schema(Some(id)).build();
                    }
                }
                // The scope is checked as a whole, as a body's is.
                if scoped {
                    mention(
                        op,
                        "422",
                        "a scope id in the query breaks the id rule (`invalid_field`); `field` names it as `/scope/<name>`",
                    );
                }
            }
        }
    }
}

/// Documents `Idempotency-Key` on every write: every POST under `/api/`
/// except the read-only ones in [`READ_ONLY_POSTS`].
struct KeyedWrites;

/// POST operations that only read (their body is a query), by operation id.
const READ_ONLY_POSTS: &[&str] = &[
    "assess",
    "read_experience",
    "read_experience_event",
    "experience_history",
    "experience_lineage",
    "export_experiences",
    "inspect_withdrawal",
    "read_strategy",
    "inspect_strategy",
    "read_procedure",
    "select_procedure",
    "get_memory",
    "search_memory",
    "memory_history",
    "review_proposal",
    "describe_source",
    "check_record",
    "screen",
];

/// POST operations that write but take no `Idempotency-Key`: they are
/// idempotent by the proposal's state (a duplicate approval answers with
/// the saved receipt and writes nothing; a resolution holds once).
const STATE_IDEMPOTENT_POSTS: &[&str] = &["approve_proposal", "resolve_proposal"];

impl Modify for KeyedWrites {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            let Some(op) = item.post.as_mut() else {
                continue;
            };
            let read_only = op.operation_id.as_deref().is_some_and(|id| {
                READ_ONLY_POSTS.contains(&id) || STATE_IDEMPOTENT_POSTS.contains(&id)
            });
            if path.starts_with("/api/") && !read_only {
                keyed_write(op);
            }
        }
    }
}

fn keyed_write(op: &mut Operation) {
    let key = ParameterBuilder::new()
        .name("Idempotency-Key")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "16 to 255 visible ASCII characters (a UUID works), scoped to the tenant and the credential's subject. A retry with the same key and request gets the stored answer byte for byte, marked `Idempotent-Replayed: true`; the same key with another request is 409 `idempotency_conflict`; a malformed or repeated key is 400 `invalid_idempotency_key`. A refused write stores nothing under the key, except a record submission that fails screening: its rejection is kept, and its 422 is the stored answer",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(16))
                .max_length(Some(255))
                .pattern(Some("^[!-~]+$")),
        ))
        .build();
    op.parameters
        .get_or_insert_with(Vec::new)
        .push(RefOr::T(key));
    mention(
        op,
        "400",
        "the Idempotency-Key is malformed (`invalid_idempotency_key`)",
    );
    mention(
        op,
        "409",
        "the Idempotency-Key was used with another request (`idempotency_conflict`)",
    );
}

/// Adds `cause` to the problem answer `status`, creating it if absent.
fn mention(op: &mut Operation, status: &str, cause: &str) {
    if let Some(RefOr::T(response)) = op.responses.responses.get_mut(status) {
        if !response.description.contains(cause) {
            response.description = format!("{}; or {cause}", response.description);
        }
    } else {
        let mut text = cause.to_owned();
        text[..1].make_ascii_uppercase();
        op.responses
            .responses
            .insert(status.to_owned(), problem(&text));
    }
}

/// Shows every operation's example request: the body of each write or
/// query (`praxis_api::examples`) and a value for each parameter, so that
/// a reader or a generated client sees a request that works.
struct Examples;

impl Modify for Examples {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            for op in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                let id = op.operation_id.clone().unwrap_or_default();
                if let (Some(RefOr::T(body)), Some(example)) = (
                    op.request_body.as_mut(),
                    praxis_api::examples::request_body(&id),
                ) {
                    for content in body.content.values_mut() {
                        if let RefOr::T(content) = content {
                            content.example = Some(example.clone());
                        }
                    }
                }
                for parameter in op.parameters.iter_mut().flatten() {
                    if let RefOr::T(p) = parameter
                        && let Some(example) = praxis_api::examples::parameter(path, &p.name)
                    {
                        *p = ParameterBuilder::from(p.clone())
                            .example(Some(example))
                            .build();
                    }
                }
            }
        }
    }
}

/// Lists the codes each problem answer names (backticked snake_case words
/// that are not member or parameter names) in its `x-problem-codes`
/// extension, which the test harness holds every answer to. Runs after
/// every other modifier.
struct ProblemCodes;

impl Modify for ProblemCodes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        // Member names are backticked in descriptions too; they are not codes.
        let mut members: std::collections::BTreeSet<String> = openapi
            .components
            .iter()
            .flat_map(|c| c.schemas.values())
            .filter_map(|s| match s {
                RefOr::T(Schema::Object(o)) => Some(o.properties.keys().cloned()),
                _ => None,
            })
            .flatten()
            .collect();
        for item in openapi.paths.paths.values() {
            for op in [item.get.as_ref(), item.post.as_ref()]
                .into_iter()
                .flatten()
            {
                for p in op.parameters.iter().flatten() {
                    if let RefOr::T(p) = p {
                        members.insert(p.name.clone());
                    }
                }
            }
        }
        for item in openapi.paths.paths.values_mut() {
            for op in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                for response in op.responses.responses.values_mut() {
                    if let RefOr::T(response) = response {
                        enumerate_codes(response, &members);
                    }
                }
            }
        }
    }
}

/// The codes a description names.
fn codes_in(description: &str, members: &std::collections::BTreeSet<String>) -> Vec<String> {
    let mut codes: Vec<String> = description
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            t.starts_with(|c: char| c.is_ascii_lowercase())
                && t.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && !members.contains(*t)
        })
        .map(str::to_owned)
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

fn enumerate_codes(
    response: &mut utoipa::openapi::Response,
    members: &std::collections::BTreeSet<String>,
) {
    if !response.content.contains_key("application/problem+json") {
        return;
    }
    let codes = codes_in(&response.description, members);
    if codes.is_empty() {
        return;
    }
    // An extension rather than an enum in the schema, so that a generated
    // client keeps one `Problem` type instead of one per operation and status.
    response
        .extensions
        .get_or_insert_with(Default::default)
        .insert(PROBLEM_CODES.to_owned(), serde_json::json!(codes));
}

/// The response extension listing the `code` values a problem answer can carry.
pub const PROBLEM_CODES: &str = "x-problem-codes";

/// States two rules of the body extractor that the wire types alone do not:
/// `contract_version` is the one version this build speaks, and an integer
/// is exact, within ±(2^53 − 1), or the body is refused as
/// `number_out_of_range`. Answers keep to both, so every component gets them.
struct WireRules;

impl Modify for WireRules {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        if let Some(components) = openapi.components.as_mut() {
            for schema in components.schemas.values_mut() {
                wire_rules(schema);
            }
        }
    }
}

fn wire_rules(schema: &mut RefOr<Schema>) {
    let RefOr::T(schema) = schema else { return };
    match schema {
        Schema::Object(object) => {
            let wide = matches!(
                object.format,
                Some(SchemaFormat::KnownFormat(KnownFormat::Int64))
            );
            if wide {
                let max = usize::try_from(MAX_SAFE_INTEGER).expect("2^53 fits a 64-bit usize");
                let min = -isize::try_from(MAX_SAFE_INTEGER).expect("2^53 fits a 64-bit isize");
                object.maximum.get_or_insert(Number::UInt(max));
                object.minimum.get_or_insert(Number::Int(min));
            }
            for (name, property) in &mut object.properties {
                if let (true, RefOr::T(Schema::Object(version))) =
                    (name == "contract_version", &mut *property)
                {
                    let only = Number::UInt(CONTRACT_VERSION as usize);
                    version.minimum = Some(only.clone());
                    version.maximum = Some(only);
                }
                wire_rules(property);
            }
            if let Some(AdditionalProperties::RefOr(values)) =
                object.additional_properties.as_deref_mut()
            {
                wire_rules(values);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                wire_rules(items);
            }
        }
        Schema::OneOf(one) => one.items.iter_mut().for_each(wire_rules),
        Schema::AllOf(all) => all.items.iter_mut().for_each(wire_rules),
        Schema::AnyOf(any) => any.items.iter_mut().for_each(wire_rules),
        _ => {}
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
        crate::records::check,
        crate::records::read,
        crate::records::search,
        crate::records::history,
        crate::records::intake,
        crate::records::review,
        crate::records::withdraw,
        crate::records::discard,
        crate::records::set_settings,
        crate::records::read_settings,
        crate::screen::screen_text,
        crate::skills::publish_skill,
        crate::skills::skills,
        crate::skills::withdraw_skill,
        crate::learning::registry::register_policy,
        crate::learning::registry::read_policy,
        crate::learning::registry::register_context,
        crate::learning::registry::read_context,
        crate::learning::experiences::record,
        crate::learning::experiences::report,
        crate::learning::experiences::read,
        crate::learning::experiences::read_event,
        crate::learning::experiences::history,
        crate::learning::experiences::lineage,
        crate::learning::experiences::export,
        crate::learning::experiences::withdraw,
        crate::learning::experiences::inspect,
        crate::learning::procedures::create_strategy,
        crate::learning::procedures::read_strategy,
        crate::learning::procedures::inspect_strategy,
        crate::learning::procedures::propose,
        crate::learning::procedures::evaluate,
        crate::learning::procedures::read_procedure,
        crate::learning::procedures::select,
        crate::memory::set,
        crate::memory::get,
        crate::memory::search,
        crate::memory::history,
        crate::memory::delete,
        crate::projects::list,
        crate::projects::read,
        crate::proposals::propose,
        crate::proposals::list,
        crate::proposals::read,
        crate::proposals::withdraw,
        crate::proposals::settings,
        crate::proposals::describe_source,
        crate::proposals::promote::review,
        crate::proposals::promote::approve,
        crate::proposals::promote::resolve,
        crate::ops::healthz,
        crate::ops::readyz,
        crate::ops::metrics,
        crate::ops::openapi,
    ),
    modifiers(
        &BearerAuth,
        &CommonProblems,
        &WireRules,
        &ScopeParameters,
        &KeyedWrites,
        &Examples,
        &ProblemCodes
    )
)]
struct ApiDoc;

/// The OpenAPI document as pretty JSON.
pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_backticked_snake_case_and_not_member_names() {
        let members = ["expected_revision".to_owned(), "errors".to_owned()].into();
        assert_eq!(
            codes_in(
                "Gone (`not_found`); `errors` lists them; `expected_revision` is stale (`revision_conflict`, `not_found`); `repo.withdrawn_skill`; `Bad_code`; `write: unchanged`; (`unauthenticated`)",
                &members
            ),
            ["not_found", "revision_conflict", "unauthenticated"]
        );
    }
}
