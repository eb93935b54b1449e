//! The OpenAPI 3.1 document, generated from the handlers and wire types.

use praxis_api::CONTRACT_VERSION;
use praxis_domain::canonical::MAX_SAFE_INTEGER;
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::{AdditionalProperties, ArrayItems, KnownFormat, SchemaFormat};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder, Schema};
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
/// do not list one by one: the extractors' and the store's. Generated from
/// the operations themselves, so a new endpoint gets them too.
struct CommonProblems;

impl Modify for CommonProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, item) in &mut openapi.paths.paths {
            if !path.starts_with("/api/") {
                continue;
            }
            for op in [item.get.as_mut(), item.post.as_mut()]
                .into_iter()
                .flatten()
            {
                common_problems(op);
            }
        }
    }
}

/// The 400 answer of the shared path extractor.
const INVALID_PATH: &str = "A path parameter is not UTF-8 (`invalid_path`)";

fn common_problems(op: &mut Operation) {
    let authenticated = op.security.as_ref().is_some_and(|s| !s.is_empty());
    let has_body = op.request_body.is_some();
    let has_parameter = |place: ParameterIn| {
        op.parameters.as_ref().is_some_and(|ps| {
            ps.iter()
                .any(|p| matches!(p, RefOr::T(p) if p.parameter_in == place))
        })
    };
    let has_query = has_parameter(ParameterIn::Query);
    // The shared path extractor refuses a segment that is not UTF-8.
    let has_path = has_parameter(ParameterIn::Path);
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
    let mut bad_request = Vec::new();
    if has_body {
        bad_request.push("The body is not strict JSON or does not fit its type (`malformed_json`, `duplicate_key`, `number_out_of_range`, `invalid_body`, `unknown_field`, `missing_field`, `unsupported_contract_version`, `invalid_idempotency_key`); `field` names the offending member");
    } else if has_query {
        bad_request.push("A query parameter is missing, unknown or malformed (`invalid_query`)");
    }
    if has_path {
        bad_request.push(INVALID_PATH);
    }
    if !bad_request.is_empty() {
        add("400", &bad_request.join(". "));
    }
    if has_body {
        add(
            "413",
            "The body is over the route's limit (`request_too_large`)",
        );
        add(
            "415",
            "The body is not `application/json` (`unsupported_media_type`)",
        );
        add(
            "422",
            "A field breaks a rule (`invalid_field`); `field` names it",
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
    // A handler that words its own 400 still has the path extractor's.
    if let Some(RefOr::T(response)) = op.responses.responses.get_mut("400")
        && has_path
        && !response.description.contains(INVALID_PATH)
    {
        response.description = format!("{}. {INVALID_PATH}", response.description);
    }
}

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
    modifiers(&BearerAuth, &CommonProblems, &WireRules)
)]
struct ApiDoc;

/// The OpenAPI document as pretty JSON.
pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}
