//! Resource URIs: which REST read a `praxis://` URI stands for.
//!
//! A record is named by its id, so its scope rides in the query, as the
//! REST read takes it. A memory key only names an item within a scope, so
//! the scope is part of the item's path. Every component is
//! percent-encoded, since ids may hold any printable ASCII.

use percent_encoding::{percent_decode_str, utf8_percent_encode};
use serde_json::{Map, Value, json};

use crate::operation::{ArgumentError, COMPONENT};

/// The Experience Record v0.1 JSON Schema the server validates against.
pub const RECORD_SCHEMA_URI: &str = "praxis://schemas/record";

/// One experience record, read in a scope (RFC 6570).
pub const RECORD_TEMPLATE: &str =
    "praxis://records/{id}{?project_id,mission_id,agent_id,visibility}";

/// One memory item of a scope (RFC 6570); a missing `mission_id` is the null mission.
pub const MEMORY_TEMPLATE: &str =
    "praxis://memory/{project_id}/{agent_id}/{visibility}/{key}{?mission_id}";

/// What a resource URI reads.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The record schema.
    RecordSchema,
    /// `records_get` with these arguments.
    Record(Map<String, Value>),
    /// `memory_get` with these arguments.
    Memory(Map<String, Value>),
}

/// The URI of a memory item.
pub fn memory_uri(scope: &Value, key: &str) -> String {
    let part = |name: &str| {
        utf8_percent_encode(scope[name].as_str().unwrap_or_default(), COMPONENT).to_string()
    };
    let mut uri = format!(
        "praxis://memory/{}/{}/{}/{}",
        part("project_id"),
        part("agent_id"),
        part("visibility"),
        utf8_percent_encode(key, COMPONENT)
    );
    if let Some(mission) = scope["mission_id"].as_str() {
        uri.push_str("?mission_id=");
        uri.extend(utf8_percent_encode(mission, COMPONENT));
    }
    uri
}

/// The URI of a record read in `scope`.
pub fn record_uri(scope: &Value, id: &str) -> String {
    let mut uri = format!("praxis://records/{}?", utf8_percent_encode(id, COMPONENT));
    let mut pairs = Vec::new();
    for name in ["project_id", "mission_id", "agent_id", "visibility"] {
        if let Some(value) = scope[name].as_str() {
            pairs.push(format!("{name}={}", utf8_percent_encode(value, COMPONENT)));
        }
    }
    uri.push_str(&pairs.join("&"));
    uri
}

/// Parses a `praxis://` URI.
pub fn parse(uri: &str) -> Result<Target, ArgumentError> {
    let invalid = |detail: &str| ArgumentError {
        field: "/uri".into(),
        detail: detail.into(),
    };
    if uri == RECORD_SCHEMA_URI {
        return Ok(Target::RecordSchema);
    }
    let rest = uri
        .strip_prefix("praxis://")
        .ok_or_else(|| invalid("is not a praxis:// URI"))?;
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let segments = path
        .split('/')
        .map(|s| decode(s).ok_or_else(|| invalid("holds an escape that is not UTF-8")))
        .collect::<Result<Vec<_>, _>>()?;
    let query = parse_query(query).ok_or_else(|| invalid("has a malformed or repeated query"))?;
    match segments.as_slice() {
        [kind, id] if kind == "records" && !id.is_empty() => {
            let mut scope = Map::new();
            for (name, value) in query {
                if !["project_id", "mission_id", "agent_id", "visibility"].contains(&name.as_str())
                {
                    return Err(invalid(&format!("has an unknown query parameter {name}")));
                }
                scope.insert(name, value.into());
            }
            scope.entry("mission_id").or_insert(Value::Null);
            Ok(Target::Record(
                json!({"id": id, "scope": scope})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ))
        }
        [kind, project, agent, visibility, key] if kind == "memory" => {
            let mut mission = Value::Null;
            for (name, value) in query {
                if name != "mission_id" {
                    return Err(invalid(&format!("has an unknown query parameter {name}")));
                }
                mission = value.into();
            }
            let scope = json!({
                "project_id": project, "mission_id": mission,
                "agent_id": agent, "visibility": visibility
            });
            Ok(Target::Memory(
                json!({"scope": scope, "key": key})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
            ))
        }
        _ => Err(invalid(
            "names no resource: use praxis://records/{id}?…, praxis://memory/{project_id}/{agent_id}/{visibility}/{key} or praxis://schemas/record",
        )),
    }
}

fn decode(text: &str) -> Option<String> {
    percent_decode_str(text)
        .decode_utf8()
        .ok()
        .map(std::borrow::Cow::into_owned)
}

/// The query's pairs, or `None` when one is malformed or repeated.
fn parse_query(query: &str) -> Option<Vec<(String, String)>> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=')?;
        let (name, value) = (decode(name)?, decode(value)?);
        if pairs.iter().any(|(n, _)| *n == name) {
            return None;
        }
        pairs.push((name, value));
    }
    Some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_round_trip_through_every_printable_id() {
        let scope = json!({"project_id": "p/1?", "mission_id": "m&2", "agent_id": "a%3", "visibility": "shared"});
        let uri = memory_uri(&scope, "deploy.notes/x");
        let Target::Memory(args) = parse(&uri).unwrap() else {
            panic!("{uri}")
        };
        assert_eq!(args["scope"], scope);
        assert_eq!(args["key"], "deploy.notes/x");
        let uri = record_uri(&scope, "exp-1/2");
        let Target::Record(args) = parse(&uri).unwrap() else {
            panic!("{uri}")
        };
        assert_eq!(args["scope"], scope);
        assert_eq!(args["id"], "exp-1/2");
        let no_mission = json!({"project_id": "p", "mission_id": null, "agent_id": "a", "visibility": "private"});
        let Target::Memory(args) = parse(&memory_uri(&no_mission, "k")).unwrap() else {
            panic!()
        };
        assert_eq!(args["scope"], no_mission);
    }

    #[test]
    fn other_uris_are_refused() {
        assert_eq!(parse(RECORD_SCHEMA_URI).unwrap(), Target::RecordSchema);
        for bad in [
            "file:///etc/passwd",
            "praxis://records/",
            "praxis://records/x?tenant=t",
            "praxis://records/x?project_id=a&project_id=b",
            "praxis://memory/p/a/shared",
            "praxis://memory/p/a/shared/k?agent_id=b",
            "praxis://memory/p/a/shared/%FF",
            "praxis://skills/x",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
