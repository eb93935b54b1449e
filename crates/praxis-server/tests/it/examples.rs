//! Every operation's example request in the served OpenAPI document is
//! complete, fits its schema, and works: sent in `examples::ORDER` to a
//! live server, every write example and then every query built from the
//! parameter examples succeeds, on both stores.

use praxis_api::examples;
use praxis_testkit::BACKENDS;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, client_as, raw};

/// Every capability a scoped example needs.
const WRITER: &[&str] = &[
    "policy_admin",
    "experience_write",
    "experience_report",
    "experience_read",
    "experience_evidence_admin",
    "record_submit",
    "record_review",
    "procedure_propose",
    "memory_read",
    "memory_write",
];

/// One operation of the document.
struct Operation {
    method: Method,
    path: String,
    op: Value,
}

fn operations(doc: &Value) -> Vec<Operation> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let method = match method.as_str() {
                "get" => Method::GET,
                "post" => Method::POST,
                other => panic!("{other} {path} is not expected"),
            };
            ops.push(Operation {
                method,
                path: path.clone(),
                op: op.clone(),
            });
        }
    }
    ops
}

/// Validates `instance` against the schema at `pointer` in the document.
fn check_schema(doc: &Value, pointer: &str, instance: &Value) -> Result<(), String> {
    let mut root = doc.clone();
    root["$ref"] = json!(format!("#{pointer}"));
    let validator = jsonschema::validator_for(&root).map_err(|e| e.to_string())?;
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

/// JSON pointer escaping of one token.
fn escape(token: &str) -> String {
    // `{` and `}` of path templates are not allowed bare in a URI fragment.
    token
        .replace('~', "~0")
        .replace('/', "~1")
        .replace('{', "%7B")
        .replace('}', "%7D")
}

/// What is missing or wrong in the document's examples.
fn example_problems(doc: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    for Operation { method, path, op } in operations(doc) {
        let name = format!("{method} {path}");
        if let Some(content) = op["requestBody"]["content"].as_object() {
            for (media, body) in content {
                match body.get("example") {
                    None => problems.push(format!("{name}: no example body")),
                    Some(example) => {
                        let pointer = format!(
                            "/paths/{}/{}/requestBody/content/{}/schema",
                            escape(&path),
                            method.as_str().to_lowercase(),
                            escape(media)
                        );
                        if let Err(e) = check_schema(doc, &pointer, example) {
                            problems.push(format!("{name}: example does not fit: {e}"));
                        }
                    }
                }
            }
        }
        for p in op["parameters"].as_array().into_iter().flatten() {
            let required = p["required"].as_bool().unwrap_or(false);
            if required && p.get("example").is_none() && p["in"] != "header" {
                problems.push(format!("{name}: parameter {} has no example", p["name"]));
            }
        }
    }
    problems
}

#[tokio::test]
async fn every_example_request_is_complete_and_fits_its_schema() {
    let server = Server::start(praxis_testkit::Backend::Sqlite).await;
    let doc = document(&server).await;
    let problems = example_problems(&doc);
    assert!(problems.is_empty(), "{problems:#?}");
    // The check bites: a body of the wrong shape does not fit.
    let issue = "/paths/~1api~1v1~1credentials/post/requestBody/content/application~1json/schema";
    let wrong = json!({"contract_version": 1, "subject": "x", "capabilities": ["no_such_capability"], "grants": [], "expires_at": null});
    assert!(check_schema(&doc, issue, &wrong).is_err());
}

async fn document(server: &Server) -> Value {
    reqwest::get(format!("{}/openapi.json", server.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The URL of an operation: path parameters from their examples (or from
/// `ids`, for what only exists once created), query parameters that have
/// an example.
fn url(server: &Server, op: &Operation, credential_id: &str) -> String {
    let mut path = op.path.clone();
    let mut query = Vec::new();
    for p in op.op["parameters"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap();
        let Some(example) = p.get("example") else {
            continue;
        };
        let text = match example {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match p["in"].as_str().unwrap() {
            "path" if op.path.starts_with("/api/v1/credentials") => {
                path = path.replace(&format!("{{{name}}}"), credential_id);
            }
            "path" => path = path.replace(&format!("{{{name}}}"), &text),
            "query" => query.push((name.to_owned(), text)),
            _ => {}
        }
    }
    let mut url = reqwest::Url::parse(&format!("{}{path}", server.base)).unwrap();
    for (k, v) in query {
        url.query_pairs_mut().append_pair(&k, &v);
    }
    url.to_string()
}

#[tokio::test]
async fn every_example_request_succeeds_against_a_live_server() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let doc = document(&server).await;
        let ops = operations(&doc);
        let (_, _, writer) = client_as(
            &server,
            examples::learning::REPORTER,
            WRITER,
            vec![examples::scope()],
        )
        .await;
        let (_, _, reviewer) = client_as(
            &server,
            "reviewer",
            &["record_review"],
            vec![examples::scope()],
        )
        .await;
        // The policy names its own evaluator, who alone may evaluate.
        let (_, _, evaluator) = client_as(
            &server,
            examples::procedures::EVALUATOR,
            &["procedure_evaluate"],
            vec![examples::scope()],
        )
        .await;
        let by_id = |id: &str| {
            ops.iter()
                .find(|o| o.op["operationId"] == id)
                .unwrap_or_else(|| panic!("no operation {id}"))
        };
        let token_for = |op: &Operation| {
            if op.path.starts_with("/api/v1/credentials") {
                server.admin_token.clone()
            } else if op.path.ends_with("/review") || op.path.ends_with("/withdraw") {
                reviewer.clone()
            } else if op.path.ends_with("/learning/evaluations") {
                evaluator.clone()
            } else {
                writer.clone()
            }
        };
        let mut posts: Vec<&str> = ops
            .iter()
            .filter(|o| o.method == Method::POST)
            .map(|o| o.op["operationId"].as_str().unwrap())
            .collect();
        let mut ordered = examples::ORDER.to_vec();
        posts.sort_unstable();
        ordered.sort_unstable();
        assert_eq!(posts, ordered, "examples::ORDER names every POST operation");
        let mut credential_id = String::new();
        for id in examples::ORDER {
            let op = by_id(id);
            let body = op.op["requestBody"]["content"]["application/json"]["example"].clone();
            let (status, _, answer) = raw(
                Method::POST,
                &url(&server, op, &credential_id),
                Some(&token_for(op)),
                &[("content-type", "application/json")],
                Some(serde_json::to_vec(&body).unwrap()),
            )
            .await;
            assert!(
                (200..300).contains(&status),
                "{backend:?} {id}: {status} {}",
                String::from_utf8_lossy(&answer)
            );
            if *id == "issue" {
                let issued: praxis_api::TokenResponse = serde_json::from_slice(&answer).unwrap();
                credential_id = issued.credential.id;
            }
        }
        for op in ops.iter().filter(|o| o.method == Method::GET) {
            let (status, _, answer) = raw(
                Method::GET,
                &url(&server, op, &credential_id),
                Some(&token_for(op)),
                &[],
                None,
            )
            .await;
            assert!(
                (200..300).contains(&status),
                "{backend:?} GET {}: {status} {}",
                op.path,
                String::from_utf8_lossy(&answer)
            );
        }
    }
}

/// The README's example requests are the served ones.
#[test]
fn the_readme_shows_every_example_as_served() {
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"),
    )
    .unwrap();
    for id in examples::ORDER {
        let marker = format!("<!-- example: {id} -->");
        let at = readme
            .find(&marker)
            .unwrap_or_else(|| panic!("README.md shows no example of {id}"));
        let block = readme[at..]
            .split("```json\n")
            .nth(1)
            .and_then(|rest| rest.split("\n```").next())
            .unwrap();
        let shown: Value = serde_json::from_str(block).unwrap();
        let mut served = examples::request_body(id).unwrap();
        if *id == "submit" {
            served["record"] = json!("<a v0.1 record: praxis_api::examples::record>");
        }
        assert_eq!(shown, served, "README.md's example of {id} is stale");
    }
}
