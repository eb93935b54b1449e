//! Screening a text before it is written (`POST /api/v1/screen`): the
//! findings name the rule, the span and the remedy, never the value.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What the text is about to become, which decides how it is screened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ScreenScope {
    /// A string of an experience record. A command field
    /// (`/resolution/steps/*`, `/rollback/steps/*`, `/attempts/*/action`)
    /// is also screened for unsafe commands; any other pointer, or none, is
    /// screened as prose.
    RecordSubmit {
        /// JSON pointer of the field in the record, e.g. `/resolution/steps/0`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pointer: Option<String>,
    },
    /// An agent memory item. Memory holds guidance agents act on, so it is
    /// screened as a command field.
    MemoryWrite,
}

/// `POST /api/v1/screen`: one text to screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenRequest {
    /// Must be 1.
    pub contract_version: u32,
    /// What the text is for.
    pub scope: ScreenScope,
    /// The text, at most 64 KiB of UTF-8 (a record's own bound).
    pub text: String,
}

/// One finding of a screen: which rule fired where, and what to do. It
/// never repeats the text it found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScreenFinding {
    /// Stable rule code, for example `screen.credential.github`.
    pub rule: String,
    /// Offset of the first character found, in Unicode code points of the
    /// text as sent.
    pub start: u64,
    /// Offset just past the last character found (exclusive), in code points.
    pub end: u64,
    /// What to write instead.
    pub remedy: String,
}

/// Answer to a screen: every finding, in the text's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ScreenResponse {
    /// Always 1.
    pub contract_version: u32,
    /// Every finding; empty when the text passed.
    pub findings: Vec<ScreenFinding>,
}
