//! REST operations as the OpenAPI document describes them: a tool's input
//! and output schemas, and how its arguments split into the path, the query
//! and the body of the one REST request it makes.
//!
//! Everything here is read from the document the server itself serves, so a
//! tool can never accept an argument its REST counterpart would not, nor
//! drift from it when the API grows.

use std::collections::BTreeMap;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value, json};

use crate::error::Error;

/// Bytes escaped in a path segment or a query component: all but RFC 3986's
/// unreserved characters, so an id holding `/`, `?` or `%` stays one value.
pub(crate) const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The query parameters of a scope, which a tool takes as one `scope` object
/// exactly as the POST bodies do.
const SCOPE_PARAMS: [&str; 4] = ["project_id", "mission_id", "agent_id", "visibility"];

/// The one member of every request body that a tool does not take: the
/// contract version is the server's to state.
const CONTRACT_VERSION: &str = "contract_version";

/// The argument a keyed write takes for its `Idempotency-Key` header.
const IDEMPOTENCY_KEY: &str = "idempotency_key";

/// How an operation is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// A read with its arguments in the path and the query.
    Get,
    /// A JSON body.
    Post,
}

/// One REST request, ready to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestCall {
    /// `GET` or `POST`.
    pub method: Method,
    /// The path under the server's root with its query, escaped.
    pub path_and_query: String,
    /// The JSON body of a `POST`.
    pub body: Option<Vec<u8>>,
    /// The `Idempotency-Key` header of a keyed write.
    pub idempotency_key: Option<String>,
    /// Whether the operation takes an `Idempotency-Key` at all.
    pub keyed: bool,
}

/// Arguments a tool was given that do not fit its operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgumentError {
    /// The argument, as a JSON pointer into the arguments.
    pub field: String,
    /// What is wrong with it.
    pub detail: String,
}

impl ArgumentError {
    fn new(field: impl Into<String>, detail: impl Into<String>) -> ArgumentError {
        ArgumentError {
            field: field.into(),
            detail: detail.into(),
        }
    }
}

/// One operation of the REST API and the tool shape derived from it.
#[derive(Clone, Debug)]
pub struct Operation {
    /// The OpenAPI `operationId`.
    pub id: String,
    /// `GET` or `POST`.
    pub method: Method,
    path: String,
    path_params: Vec<String>,
    query_params: Vec<String>,
    scoped_query: bool,
    body: bool,
    keyed: bool,
    /// The JSON Schema of the tool's arguments.
    pub input_schema: Map<String, Value>,
    /// The JSON Schema of a successful answer, when it is an object.
    pub output_schema: Option<Map<String, Value>>,
}

impl Operation {
    /// Reads the operation `id` from the OpenAPI document `doc`.
    pub fn from_document(doc: &Value, id: &str) -> Result<Operation, Error> {
        let bad = |why: &str| Error::Document(format!("operation {id}: {why}"));
        let (path, method, op) = find(doc, id).ok_or_else(|| bad("not in the document"))?;
        let schemas = doc
            .pointer("/components/schemas")
            .and_then(Value::as_object)
            .ok_or_else(|| bad("the document has no component schemas"))?;
        let mut defs = BTreeMap::new();
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut path_params = Vec::new();
        let mut query_params = Vec::new();
        let mut scope_seen = Vec::new();
        let mut keyed = false;
        for param in op
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = param["name"]
                .as_str()
                .ok_or_else(|| bad("a nameless parameter"))?;
            let place = param["in"].as_str().unwrap_or_default();
            if place == "query" && SCOPE_PARAMS.contains(&name) {
                scope_seen.push(name);
                continue;
            }
            if place == "header" && name.eq_ignore_ascii_case("Idempotency-Key") {
                keyed = true;
                continue;
            }
            if place != "path" && place != "query" {
                continue;
            }
            let mut schema = param.get("schema").cloned().unwrap_or_else(|| json!({}));
            if let (Some(object), Some(description)) =
                (schema.as_object_mut(), param.get("description"))
            {
                object.insert("description".into(), description.clone());
            }
            properties.insert(name.to_owned(), rewrite(&schema, schemas, &mut defs)?);
            if param["required"].as_bool().unwrap_or(place == "path") {
                required.push(name.to_owned());
            }
            if place == "path" {
                path_params.push(name.to_owned());
            } else {
                query_params.push(name.to_owned());
            }
        }
        let scoped_query = !scope_seen.is_empty();
        if scoped_query {
            if scope_seen.len() != SCOPE_PARAMS.len() {
                return Err(bad("some but not all of the scope's query parameters"));
            }
            let scope = json!({
                "$ref": "#/components/schemas/Scope",
                "description": "The exact scope to read in: project, mission (null for none), agent and visibility."
            });
            properties.insert("scope".into(), rewrite(&scope, schemas, &mut defs)?);
            required.push("scope".into());
        }
        let body_ref = op.pointer("/requestBody/content/application~1json/schema");
        if let Some(body_ref) = body_ref {
            let body = resolve(body_ref, schemas).ok_or_else(|| bad("unresolved body schema"))?;
            let members = body
                .get("properties")
                .and_then(Value::as_object)
                .ok_or_else(|| bad("the body is not an object with properties"))?;
            for (name, schema) in members {
                if name == CONTRACT_VERSION {
                    continue;
                }
                if properties.contains_key(name) {
                    return Err(bad(&format!("body member {name} is also a parameter")));
                }
                properties.insert(name.clone(), rewrite(schema, schemas, &mut defs)?);
            }
            for name in body
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if name != CONTRACT_VERSION {
                    required.push(name.to_owned());
                }
            }
        }
        if keyed {
            if properties.contains_key(IDEMPOTENCY_KEY) {
                return Err(bad("the body has a member named idempotency_key"));
            }
            let key = json!({
                "type": "string", "minLength": 16, "maxLength": 255, "pattern": "^[!-~]+$",
                "description": "Optional. Any unique string of 16 to 255 visible ASCII characters (a UUID works): a retry of this call with the same key and arguments replays the first answer instead of writing twice."
            });
            properties.insert(IDEMPOTENCY_KEY.into(), key);
        }
        let mut input = Map::new();
        input.insert("type".into(), "object".into());
        input.insert("properties".into(), Value::Object(properties));
        input.insert("required".into(), json!(required));
        input.insert("additionalProperties".into(), false.into());
        let output_schema = output(&op, schemas)?;
        if !defs.is_empty() {
            input.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
        }
        Ok(Operation {
            id: id.to_owned(),
            method,
            path_params: path_params.clone(),
            query_params,
            scoped_query,
            body: body_ref.is_some(),
            keyed,
            path,
            input_schema: input,
            output_schema,
        })
    }

    /// The REST request for a tool's `arguments`: path parameters escaped
    /// into the path, the scope and the other query parameters into the
    /// query, and every other argument into the body with the contract
    /// version. Members the body does not know are left for the server to
    /// refuse, so the refusal is the REST API's own.
    pub fn request(&self, mut args: Map<String, Value>) -> Result<RestCall, ArgumentError> {
        let mut path = self.path.clone();
        for name in &self.path_params {
            let value = args
                .remove(name)
                .ok_or_else(|| ArgumentError::new(format!("/{name}"), "is required"))?;
            let text = scalar(&value)
                .ok_or_else(|| ArgumentError::new(format!("/{name}"), "must be a string"))?;
            // URL parsers fold `.` and `..` segments away, escaped or not.
            if text.is_empty() || text == "." || text == ".." {
                return Err(ArgumentError::new(
                    format!("/{name}"),
                    "must not be empty, `.` or `..`",
                ));
            }
            let escaped = utf8_percent_encode(&text, COMPONENT).to_string();
            path = path.replace(&format!("{{{name}}}"), &escaped);
        }
        let idempotency_key = if self.keyed {
            match args.remove(IDEMPOTENCY_KEY) {
                None | Some(Value::Null) => None,
                Some(Value::String(key)) => Some(key),
                Some(_) => {
                    return Err(ArgumentError::new("/idempotency_key", "must be a string"));
                }
            }
        } else {
            None
        };
        let mut query = Vec::new();
        if self.scoped_query {
            let scope = args
                .remove("scope")
                .ok_or_else(|| ArgumentError::new("/scope", "is required"))?;
            query.extend(scope_query(&scope)?);
        }
        for name in &self.query_params {
            match args.remove(name) {
                None | Some(Value::Null) => {}
                Some(value) => {
                    let text = scalar(&value).ok_or_else(|| {
                        ArgumentError::new(
                            format!("/{name}"),
                            "must be a string, number or boolean",
                        )
                    })?;
                    query.push((name.clone(), text));
                }
            }
        }
        let body = if self.body {
            if args.contains_key(CONTRACT_VERSION) {
                return Err(ArgumentError::new(
                    "/contract_version",
                    "is not an argument: the tool states the contract version",
                ));
            }
            args.insert(CONTRACT_VERSION.into(), 1.into());
            Some(serde_json::to_vec(&Value::Object(args)).expect("JSON serializes"))
        } else {
            if let Some(name) = args.keys().next() {
                return Err(ArgumentError::new(
                    format!("/{name}"),
                    "is not an argument of this tool",
                ));
            }
            None
        };
        if !query.is_empty() {
            let pairs: Vec<String> = query
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}={}",
                        utf8_percent_encode(k, COMPONENT),
                        utf8_percent_encode(v, COMPONENT)
                    )
                })
                .collect();
            path = format!("{path}?{}", pairs.join("&"));
        }
        Ok(RestCall {
            method: self.method,
            path_and_query: path,
            body,
            idempotency_key,
            keyed: self.keyed,
        })
    }
}

/// The query pairs of a `scope` argument; a null mission is left out, which
/// is how the REST API spells the null mission in a query.
fn scope_query(scope: &Value) -> Result<Vec<(String, String)>, ArgumentError> {
    let object = scope
        .as_object()
        .ok_or_else(|| ArgumentError::new("/scope", "must be an object"))?;
    if let Some(unknown) = object.keys().find(|k| !SCOPE_PARAMS.contains(&k.as_str())) {
        return Err(ArgumentError::new(
            format!("/scope/{unknown}"),
            "is not a member of a scope",
        ));
    }
    let mut pairs = Vec::new();
    for name in SCOPE_PARAMS {
        match object.get(name) {
            Some(Value::String(text)) => pairs.push((name.to_owned(), text.clone())),
            Some(Value::Null) | None if name == "mission_id" => {}
            None => {
                return Err(ArgumentError::new(format!("/scope/{name}"), "is required"));
            }
            Some(_) => {
                return Err(ArgumentError::new(
                    format!("/scope/{name}"),
                    "must be a string",
                ));
            }
        }
    }
    Ok(pairs)
}

/// A scalar argument as the text a path or query carries.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The path, method and operation object of `id`.
fn find(doc: &Value, id: &str) -> Option<(String, Method, Value)> {
    for (path, item) in doc.get("paths")?.as_object()? {
        for (method, op) in item.as_object()? {
            if op.get("operationId").and_then(Value::as_str) == Some(id) {
                let method = match method.as_str() {
                    "get" => Method::Get,
                    "post" => Method::Post,
                    _ => return None,
                };
                return Some((path.clone(), method, op.clone()));
            }
        }
    }
    None
}

/// The component a `$ref` names, or the schema itself.
fn resolve<'a>(schema: &'a Value, schemas: &'a Map<String, Value>) -> Option<&'a Value> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => schemas.get(reference.strip_prefix("#/components/schemas/")?),
        None => Some(schema),
    }
}

/// `schema` with its component references pointing into `$defs`, every
/// component it reaches (transitively) copied into `defs`.
fn rewrite(
    schema: &Value,
    schemas: &Map<String, Value>,
    defs: &mut BTreeMap<String, Value>,
) -> Result<Value, Error> {
    Ok(match schema {
        Value::Object(object) => {
            let mut out = Map::new();
            for (key, value) in object {
                if key == "$ref"
                    && let Some(name) = value
                        .as_str()
                        .and_then(|r| r.strip_prefix("#/components/schemas/"))
                {
                    if !defs.contains_key(name) {
                        let component = schemas.get(name).ok_or_else(|| {
                            Error::Document(format!("unresolved schema reference {name}"))
                        })?;
                        // Reserved first, so a self-reference terminates.
                        defs.insert(name.to_owned(), Value::Null);
                        let copy = rewrite(component, schemas, defs)?;
                        defs.insert(name.to_owned(), copy);
                    }
                    out.insert(key.clone(), format!("#/$defs/{name}").into());
                } else {
                    out.insert(key.clone(), rewrite(value, schemas, defs)?);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| rewrite(item, schemas, defs))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    })
}

/// The output schema: the success answer's object schema with its own
/// `$defs`, or `None` when the answer is not a JSON object.
fn output(op: &Value, schemas: &Map<String, Value>) -> Result<Option<Map<String, Value>>, Error> {
    let Some(responses) = op.get("responses").and_then(Value::as_object) else {
        return Ok(None);
    };
    let Some(schema) = ["200", "201"].iter().find_map(|status| {
        responses
            .get(*status)?
            .pointer("/content/application~1json/schema")
    }) else {
        return Ok(None);
    };
    let Some(root) = resolve(schema, schemas) else {
        return Ok(None);
    };
    let is_object = |schema: &Value| {
        resolve(schema, schemas)
            .and_then(|s| s.get("type"))
            .and_then(Value::as_str)
            == Some("object")
    };
    // MCP wants an object at the root; a union of objects is one.
    let union_of_objects = ["oneOf", "anyOf"].iter().any(|key| {
        root.get(*key)
            .and_then(Value::as_array)
            .is_some_and(|variants| variants.iter().all(is_object))
    });
    if !is_object(root) && !union_of_objects {
        return Ok(None);
    }
    let mut defs = BTreeMap::new();
    let Value::Object(mut out) = rewrite(root, schemas, &mut defs)? else {
        return Ok(None);
    };
    out.insert("type".into(), "object".into());
    if !defs.is_empty() {
        out.insert("$defs".into(), Value::Object(defs.into_iter().collect()));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document() -> Value {
        json!({
            "paths": {
                "/api/v1/things/{id}": {"get": {
                    "operationId": "read_thing",
                    "parameters": [
                        {"name": "id", "in": "path", "required": true, "schema": {"type": "string"}},
                        {"name": "project_id", "in": "query", "required": true, "schema": {"type": "string"}},
                        {"name": "mission_id", "in": "query", "schema": {"type": "string"}},
                        {"name": "agent_id", "in": "query", "required": true, "schema": {"type": "string"}},
                        {"name": "visibility", "in": "query", "required": true, "schema": {"$ref": "#/components/schemas/Visibility"}},
                        {"name": "limit", "in": "query", "description": "Page size.", "schema": {"type": "integer"}}
                    ],
                    "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}
                }},
                "/api/v1/things": {"post": {
                    "operationId": "make_thing",
                    "parameters": [{"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}],
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/MakeThing"}}}},
                    "responses": {"201": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}
                }}
            },
            "components": {"schemas": {
                "Visibility": {"type": "string", "enum": ["shared", "private"]},
                "Scope": {"type": "object", "properties": {"visibility": {"$ref": "#/components/schemas/Visibility"}}},
                "Thing": {"type": "object", "properties": {"parent": {"$ref": "#/components/schemas/Thing"}}},
                "MakeThing": {"type": "object", "required": ["contract_version", "name"], "properties": {
                    "contract_version": {"type": "integer"}, "name": {"type": "string"},
                    "scope": {"$ref": "#/components/schemas/Scope"}
                }}
            }}
        })
    }

    #[test]
    fn a_get_takes_its_scope_as_one_object_and_escapes_every_value() {
        let op = Operation::from_document(&document(), "read_thing").unwrap();
        assert_eq!(op.input_schema["required"], json!(["id", "scope"]));
        assert_eq!(
            op.input_schema["properties"]["scope"]["$ref"],
            "#/$defs/Scope"
        );
        assert!(op.input_schema["$defs"]["Visibility"].is_object());
        assert_eq!(
            op.input_schema["properties"]["limit"]["description"],
            "Page size."
        );
        let args = json!({
            "id": "a/b?c",
            "scope": {"project_id": "p 1", "mission_id": null, "agent_id": "x&y", "visibility": "shared"},
            "limit": 5
        });
        let call = op.request(args.as_object().unwrap().clone()).unwrap();
        assert_eq!(call.method, Method::Get);
        assert_eq!(
            call.path_and_query,
            "/api/v1/things/a%2Fb%3Fc?project_id=p%201&agent_id=x%26y&visibility=shared&limit=5"
        );
        assert_eq!(call.body, None);
    }

    #[test]
    fn a_get_refuses_what_it_cannot_carry() {
        let op = Operation::from_document(&document(), "read_thing").unwrap();
        let scope =
            json!({"project_id": "p", "mission_id": "m", "agent_id": "a", "visibility": "shared"});
        let cases = [
            (json!({"scope": scope}), "/id"),
            (json!({"id": "t"}), "/scope"),
            (json!({"id": "t", "scope": scope, "extra": 1}), "/extra"),
            (json!({"id": {"x": 1}, "scope": scope}), "/id"),
            (
                json!({"id": "t", "scope": {"project_id": "p", "agent_id": "a", "visibility": "shared", "tenant": "t"}}),
                "/scope/tenant",
            ),
            (
                json!({"id": "t", "scope": {"project_id": "p", "visibility": "shared"}}),
                "/scope/agent_id",
            ),
            (json!({"id": "t", "scope": scope, "limit": [1]}), "/limit"),
            (json!({"id": "..", "scope": scope}), "/id"),
            (json!({"id": ".", "scope": scope}), "/id"),
            (json!({"id": "", "scope": scope}), "/id"),
        ];
        for (args, field) in cases {
            let err = op.request(args.as_object().unwrap().clone()).unwrap_err();
            assert_eq!(err.field, field, "{args}");
        }
        let call = op
            .request(
                json!({"id": "t", "scope": scope})
                    .as_object()
                    .unwrap()
                    .clone(),
            )
            .unwrap();
        assert!(call.path_and_query.contains("mission_id=m"));
    }

    #[test]
    fn a_post_takes_its_body_without_the_contract_version() {
        let op = Operation::from_document(&document(), "make_thing").unwrap();
        assert_eq!(op.input_schema["required"], json!(["name"]));
        assert!(
            op.input_schema["properties"]
                .get("contract_version")
                .is_none()
        );
        assert_eq!(op.input_schema["additionalProperties"], false);
        let call = op
            .request(json!({"name": "n"}).as_object().unwrap().clone())
            .unwrap();
        let body: Value = serde_json::from_slice(&call.body.unwrap()).unwrap();
        assert_eq!(body, json!({"name": "n", "contract_version": 1}));
        assert_eq!(call.idempotency_key, None);
        let keyed = json!({"name": "n", "idempotency_key": "key-0123456789abcdef"});
        let call = op.request(keyed.as_object().unwrap().clone()).unwrap();
        assert_eq!(
            call.idempotency_key.as_deref(),
            Some("key-0123456789abcdef")
        );
        let body: Value = serde_json::from_slice(&call.body.unwrap()).unwrap();
        assert!(body.get("idempotency_key").is_none());
        let versioned = json!({"name": "n", "contract_version": 2});
        let err = op
            .request(versioned.as_object().unwrap().clone())
            .unwrap_err();
        assert_eq!(err.field, "/contract_version");
        // A recursive answer schema terminates and keeps its object root.
        let output = op.output_schema.unwrap();
        assert_eq!(output["type"], "object");
        assert_eq!(
            output["$defs"]["Thing"]["properties"]["parent"]["$ref"],
            "#/$defs/Thing"
        );
    }

    #[test]
    fn unknown_operations_and_references_are_document_errors() {
        assert!(Operation::from_document(&document(), "nothing").is_err());
        let mut doc = document();
        doc["components"]["schemas"]
            .as_object_mut()
            .unwrap()
            .remove("Visibility");
        assert!(Operation::from_document(&doc, "read_thing").is_err());
    }
}
