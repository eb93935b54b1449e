//! Checks HTTP answers against an OpenAPI 3.1 document: that the status is
//! one the operation documents, that the content type is the documented
//! one, and that the body validates against the documented schema.
//!
//! The operation is found by method and path template (`/records/{id}`
//! matches `/records/x`; a template with more literal segments wins, so
//! `/records/intake` is not `/records/{id}`). A path no operation serves
//! may only be answered by the router's own 404 or 405, or a refusal every
//! route gives (413, 414, 431), each as a `Problem` document. OpenAPI 3.1 schemas are
//! JSON Schema 2020-12: each response schema is validated with the whole
//! document as its root, so its `$ref`s resolve as in the document, with
//! formats asserted and object schemas closed: a member the document does
//! not name is a mismatch, not silently allowed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use jsonschema::Validator;
use serde_json::{Value, json};

/// Statuses the server gives on any path, served or not, as problem
/// documents: the declared-length and request-head limits.
const ANY_PATH: [u16; 3] = [413, 414, 431];

/// Endpoints outside the REST contract: `/mcp` speaks JSON-RPC (MCP), whose
/// tools are described by `tools/list` and checked by the MCP tests.
const OUTSIDE: [&str; 1] = ["/mcp"];

/// One answer as the client received it.
#[derive(Clone, Copy, Debug)]
pub struct Answer<'a> {
    /// The request method (`GET`, `POST`, ...).
    pub method: &'a str,
    /// The request path as sent, without the query.
    pub path: &'a str,
    /// The response status.
    pub status: u16,
    /// The response `Content-Type`, if any.
    pub content_type: Option<&'a str>,
    /// The response body.
    pub body: &'a [u8],
}

/// An OpenAPI document, ready to check answers against.
pub struct Contract {
    document: Value,
    /// Compiled validators by the JSON pointer of their schema.
    validators: Mutex<HashMap<String, Arc<Validator>>>,
}

/// Where in the document an answer is described.
struct Described<'d> {
    /// `METHOD template`, for messages.
    operation: String,
    /// The documented response for the status.
    response: &'d Value,
    /// Its JSON pointer; `None` for the router's own answers.
    pointer: Option<String>,
}

impl Contract {
    /// A contract over an OpenAPI 3.1 document.
    pub fn new(mut document: Value) -> Contract {
        close_objects(&mut document);
        Contract {
            document,
            validators: Mutex::new(HashMap::new()),
        }
    }

    /// Checks one answer; the error names the operation, the status and
    /// what does not match the document.
    pub fn check(&self, answer: &Answer<'_>) -> Result<(), String> {
        if OUTSIDE.contains(&answer.path) {
            return Ok(());
        }
        let described = self.describe(answer)?;
        let context = || format!("{} answered {}", described.operation, answer.status);
        let content = described.response.get("content").and_then(Value::as_object);
        let Some(content) = content.filter(|c| !c.is_empty()) else {
            if answer.body.is_empty() {
                return Ok(());
            }
            return Err(format!(
                "{}: a {}-byte {} body, but the document gives this answer no content",
                context(),
                answer.body.len(),
                answer.content_type.unwrap_or("untyped"),
            ));
        };
        let received = answer.content_type.map(essence);
        let Some((media, declared)) = content
            .iter()
            .find(|(media, _)| Some(essence(media)) == received)
        else {
            return Err(format!(
                "{}: content type {:?}, but the document declares {:?}",
                context(),
                answer.content_type,
                content.keys().collect::<Vec<_>>(),
            ));
        };
        if declared.get("schema").is_none() || answer.method.eq_ignore_ascii_case("HEAD") {
            return Ok(());
        }
        if !is_json(media) {
            return std::str::from_utf8(answer.body)
                .map(|_| ())
                .map_err(|_| format!("{}: the {media} body is not UTF-8", context()));
        }
        let instance: Value = serde_json::from_slice(answer.body).map_err(|e| {
            format!(
                "{}: the {media} body is not JSON ({e}): {}",
                context(),
                excerpt(&String::from_utf8_lossy(answer.body)),
            )
        })?;
        let pointer = match &described.pointer {
            Some(at) => format!("{at}/content/{}/schema", escape(media)),
            None => PROBLEM.to_owned(),
        };
        let validator = self.validator(&pointer)?;
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .take(5)
            .map(|e| format!("at '{}': {}", e.instance_path(), excerpt(&e.to_string())))
            .collect();
        if errors.is_empty() {
            check_code(described.response, &instance).map_err(|e| format!("{}: {e}", context()))
        } else {
            Err(format!(
                "{}: the body does not match the schema at {pointer}:\n  {}\nbody: {}",
                context(),
                errors.join("\n  "),
                excerpt(&instance.to_string()),
            ))
        }
    }

    /// The documented response for an answer's operation and status.
    fn describe(&self, answer: &Answer<'_>) -> Result<Described<'_>, String> {
        let method = match answer.method.to_ascii_lowercase().as_str() {
            // Answered like a GET, without the body.
            "head" => "get".to_owned(),
            m => m.to_owned(),
        };
        let paths = self.document["paths"].as_object();
        let template = paths.and_then(|paths| {
            paths
                .keys()
                .filter(|t| matches_template(t, answer.path))
                .max_by_key(|t| t.split('/').filter(|s| !s.starts_with('{')).count())
        });
        let operation = template.and_then(|t| self.document["paths"][t].get(&method));
        let (Some(template), Some(operation)) = (template, operation) else {
            // The router's own answers, or the head limits: problem documents.
            let allowed = if template.is_some() { 405 } else { 404 };
            if answer.status != allowed && !ANY_PATH.contains(&answer.status) {
                return Err(format!(
                    "{} {} answered {}: no operation serves it, so only a {allowed} problem (or 413, 414, 431) may answer",
                    answer.method, answer.path, answer.status
                ));
            }
            return Ok(Described {
                operation: format!("{} {} (no operation)", answer.method, answer.path),
                response: &PROBLEM_RESPONSE,
                pointer: None,
            });
        };
        let status = answer.status.to_string();
        let responses = &operation["responses"];
        let key = if responses.get(&status).is_some() {
            status
        } else if responses.get("default").is_some() {
            "default".to_owned()
        } else {
            let documented: Vec<&String> = responses
                .as_object()
                .map(|r| r.keys().collect())
                .unwrap_or_default();
            return Err(format!(
                "{} {template} ({}) answered {}, which the document does not list (it lists {documented:?})",
                method.to_ascii_uppercase(),
                answer.path,
                answer.status,
            ));
        };
        Ok(Described {
            operation: format!("{} {template}", method.to_ascii_uppercase()),
            response: &responses[&key],
            pointer: Some(format!(
                "#/paths/{}/{method}/responses/{}",
                escape(template),
                escape(&key)
            )),
        })
    }

    /// The validator of the schema at `pointer`, compiled once.
    fn validator(&self, pointer: &str) -> Result<Arc<Validator>, String> {
        let mut cache = self.validators.lock().expect("validator cache");
        if let Some(v) = cache.get(pointer) {
            return Ok(v.clone());
        }
        let mut root = self.document.clone();
        root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        root["$ref"] = json!(fragment(pointer));
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&root)
            .map_err(|e| format!("the schema at {pointer} does not compile: {e}"))?;
        let validator = Arc::new(validator);
        cache.insert(pointer.to_owned(), validator.clone());
        Ok(validator)
    }
}

/// Closes every object schema that names its members (adds
/// `additionalProperties: false`), so a member the document does not name
/// is a mismatch too. Left open: schemas that compose others (`allOf`, or
/// `$ref` beside `properties`) and schemas composed into one (an `allOf`
/// member, or a component such a schema refers to), where closing one part
/// would refuse the members of another.
fn close_objects(document: &mut Value) {
    let mut composed = Vec::new();
    composed_refs(document, &mut composed);
    if let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        for (name, schema) in schemas {
            if composed.contains(&format!("#/components/schemas/{}", escape(name))) {
                close_within(schema);
            } else {
                close(schema);
            }
        }
    }
    if let Some(paths) = document.get_mut("paths") {
        close(paths);
    }
}

/// The `$ref`s that are composed with other members into one object.
fn composed_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let members = m.get("allOf").and_then(Value::as_array);
            let beside = m
                .contains_key("properties")
                .then(|| m.get("$ref"))
                .flatten();
            out.extend(
                members
                    .into_iter()
                    .flatten()
                    .filter_map(|member| member.get("$ref"))
                    .chain(beside)
                    .filter_map(Value::as_str)
                    .map(str::to_owned),
            );
            m.values().for_each(|x| composed_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| composed_refs(x, out)),
        _ => {}
    }
}

/// Closes `v` if it is an object schema that names its members, then
/// everything within it.
fn close(v: &mut Value) {
    if let Value::Object(m) = v {
        let composes = m.contains_key("allOf") || m.contains_key("$ref");
        if m.contains_key("properties") && !m.contains_key("additionalProperties") && !composes {
            m.insert("additionalProperties".into(), Value::Bool(false));
        }
    }
    close_within(v);
}

/// Closes what is within `v`, but not `v` itself; `allOf` members likewise.
fn close_within(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (key, x) in m.iter_mut() {
                if key == "allOf" {
                    x.as_array_mut()
                        .into_iter()
                        .flatten()
                        .for_each(close_within);
                } else {
                    close(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(close),
        _ => {}
    }
}

/// Checks a problem's `code` against the codes its answer lists in
/// `x-problem-codes`, when it lists them.
fn check_code(response: &Value, instance: &Value) -> Result<(), String> {
    let Some(codes) = response.get("x-problem-codes").and_then(Value::as_array) else {
        return Ok(());
    };
    let code = instance.get("code").unwrap_or(&Value::Null);
    if codes.contains(code) {
        Ok(())
    } else {
        Err(format!(
            "code {code} is not one the document lists for this answer ({})",
            codes
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

/// The problem schema, which the router's own answers must fit.
const PROBLEM: &str = "#/components/schemas/Problem";

/// How the router's own answers are described: a problem document.
static PROBLEM_RESPONSE: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || json!({ "content": { "application/problem+json": { "schema": { "$ref": PROBLEM } } } }),
);

/// Whether `path` is an instance of `template`: literal segments equal,
/// `{name}` segments any non-empty segment.
fn matches_template(template: &str, path: &str) -> bool {
    let (t, p): (Vec<&str>, Vec<&str>) = (template.split('/').collect(), path.split('/').collect());
    t.len() == p.len()
        && t.iter().zip(&p).all(|(t, p)| {
            if t.starts_with('{') && t.ends_with('}') {
                !p.is_empty()
            } else {
                t == p
            }
        })
}

/// A media type without parameters, lowercased.
fn essence(media: &str) -> String {
    media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a media type is JSON (`application/json` or any `+json`).
fn is_json(media: &str) -> bool {
    let media = essence(media);
    media == "application/json" || media.ends_with("+json")
}

/// A JSON pointer token for `s` (RFC 6901).
fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// A `#/json/pointer` as a URI fragment: bytes a fragment may not hold
/// (such as the braces of a path template) percent-encoded (RFC 6901 §6).
fn fragment(pointer: &str) -> String {
    let mut out = String::with_capacity(pointer.len());
    for b in pointer.bytes() {
        if b.is_ascii_alphanumeric() || b"#-._~!$&'()*+,;=:@/?".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// At most 500 characters of `s`, for messages.
fn excerpt(s: &str) -> String {
    const MAX: usize = 500;
    match s.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contract() -> Contract {
        Contract::new(json!({
            "openapi": "3.1.0",
            "paths": {
                "/things/{id}": { "get": { "responses": {
                    "200": { "description": "", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Thing" } } } },
                    "404": { "description": "", "x-problem-codes": ["not_found"], "content": { "application/problem+json": { "schema": { "$ref": "#/components/schemas/Problem" } } } }
                } } },
                "/things/special": { "get": { "responses": {
                    "204": { "description": "" }
                } } },
                "/composed": { "get": { "responses": {
                    "200": { "description": "", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Derived" } } } }
                } } },
                "/map": { "get": { "responses": {
                    "200": { "description": "", "content": { "application/json": { "schema": { "type": "object", "additionalProperties": { "type": "integer" } } } } }
                } } },
                "/text": { "get": { "responses": {
                    "200": { "description": "", "content": { "text/plain": { "schema": { "type": "string" } } } }
                } } }
            },
            "components": { "schemas": {
                "Thing": { "type": "object", "required": ["n"], "properties": { "n": { "type": "integer", "minimum": 0 } } },
                "Problem": { "type": "object", "required": ["code"], "properties": { "code": { "type": "string" } } },
                "Base": { "type": "object", "properties": { "a": { "type": "integer" } } },
                "Derived": { "allOf": [
                    { "$ref": "#/components/schemas/Base" },
                    { "type": "object", "properties": { "b": { "type": "integer" } } }
                ], "unevaluatedProperties": false }
            } }
        }))
    }

    fn check(
        method: &str,
        path: &str,
        status: u16,
        ct: Option<&str>,
        body: &str,
    ) -> Result<(), String> {
        contract().check(&Answer {
            method,
            path,
            status,
            content_type: ct,
            body: body.as_bytes(),
        })
    }

    #[test]
    fn documented_answers_pass() {
        let json = Some("application/json");
        check("GET", "/things/7", 200, json, r#"{"n":1}"#).unwrap();
        check(
            "GET",
            "/things/7",
            404,
            Some("application/problem+json"),
            r#"{"code":"not_found"}"#,
        )
        .unwrap();
        check("GET", "/things/special", 204, None, "").unwrap();
        check(
            "GET",
            "/text",
            200,
            Some("text/plain; version=0.0.4"),
            "a 1\n",
        )
        .unwrap();
        check("HEAD", "/things/7", 200, json, "").unwrap();
        check("GET", "/composed", 200, json, r#"{"a":1,"b":2}"#).unwrap();
        check("GET", "/map", 200, json, r#"{"x":1,"y":2}"#).unwrap();
        check(
            "GET",
            "/nowhere",
            404,
            Some("application/problem+json"),
            r#"{"code":"not_found"}"#,
        )
        .unwrap();
        check(
            "POST",
            "/text",
            405,
            Some("application/problem+json"),
            r#"{"code":"m"}"#,
        )
        .unwrap();
        check(
            "GET",
            "/nowhere",
            431,
            Some("application/problem+json"),
            r#"{"code":"h"}"#,
        )
        .unwrap();
    }

    #[test]
    fn every_kind_of_mismatch_is_named() {
        let json = Some("application/json");
        let cases = [
            (check("GET", "/things/7", 500, json, "{}"), "does not list"),
            (
                check("GET", "/things/7", 200, Some("text/html"), "{}"),
                "content type",
            ),
            (check("GET", "/things/7", 200, None, "{}"), "content type"),
            (
                check("GET", "/things/7", 200, json, r#"{"n":-1}"#),
                "at '/n'",
            ),
            (check("GET", "/things/7", 200, json, "{}"), "does not match"),
            (
                check("GET", "/things/7", 200, json, r#"{"n":1,"extra":0}"#),
                "extra",
            ),
            (
                check("GET", "/composed", 200, json, r#"{"a":1,"c":3}"#),
                "c",
            ),
            (check("GET", "/map", 200, json, r#"{"x":"1"}"#), "at '/x'"),
            (
                check(
                    "GET",
                    "/things/7",
                    404,
                    Some("application/problem+json"),
                    r#"{"code":"gone"}"#,
                ),
                "not one the document lists",
            ),
            (check("GET", "/things/7", 200, json, "nope"), "not JSON"),
            (
                check("GET", "/things/special", 204, json, "{}"),
                "no content",
            ),
            (
                check("GET", "/nowhere", 200, json, "{}"),
                "no operation serves it",
            ),
            (
                check("POST", "/text", 404, json, "{}"),
                "no operation serves it",
            ),
            (
                check(
                    "GET",
                    "/nowhere",
                    404,
                    Some("application/problem+json"),
                    "{}",
                ),
                "does not match",
            ),
        ];
        for (result, expected) in cases {
            let message = result.expect_err(expected);
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn templates_match_whole_segments_and_literals_win() {
        assert!(matches_template("/a/{id}/b", "/a/x/b"));
        assert!(!matches_template("/a/{id}/b", "/a//b"));
        assert!(!matches_template("/a/{id}", "/a/x/b"));
        assert!(!matches_template("/a/b", "/a/b/"));
        assert_eq!(escape("/a/{b}~"), "~1a~1{b}~0");
        assert_eq!(fragment("#/~1a~1{b}/c d%"), "#/~1a~1%7Bb%7D/c%20d%25");
    }
}
