//! The OpenAPI 3.1 document, generated from the handlers and wire types.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
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
    modifiers(&BearerAuth)
)]
struct ApiDoc;

/// The OpenAPI document as pretty JSON.
pub fn document() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}
