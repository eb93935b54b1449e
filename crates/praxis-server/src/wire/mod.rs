//! Conversions between wire types and domain types, one file per concept.
//!
//! The two are kept apart on purpose (the wire is a versioned contract), so
//! every conversion is spelled out, field by field.

pub(crate) mod attempts;
pub(crate) mod learning;
pub(crate) mod memory;
pub(crate) mod procedures;
pub(crate) mod proposals;
pub(crate) mod records;
pub(crate) mod skills;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// A JSON answer.
pub(crate) fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    let bytes = serde_json::to_vec(body).expect("responses serialize");
    (status, [(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}
