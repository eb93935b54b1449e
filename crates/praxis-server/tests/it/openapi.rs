//! The served OpenAPI document equals the committed copy.

use praxis_testkit::Backend;
use reqwest::Method;

use crate::support::{Server, raw};

/// Path of the committed OpenAPI document.
fn committed() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi.json")
}

/// The document a running server serves, without a credential.
async fn served_document() -> Vec<u8> {
    let server = Server::start(Backend::Sqlite).await;
    let (status, _, body) = raw(
        Method::GET,
        &format!("{}/openapi.json", server.base),
        None,
        &[],
        None,
    )
    .await;
    assert_eq!(status, 200);
    body
}

#[tokio::test]
async fn served_document_matches_the_committed_copy() {
    let served = String::from_utf8(served_document().await).unwrap();
    if std::env::var_os("PRAXIS_UPDATE_OPENAPI").is_some() {
        std::fs::write(committed(), &served).unwrap();
    }
    let on_disk = std::fs::read_to_string(committed()).expect("openapi.json is committed");
    assert_eq!(
        served, on_disk,
        "the API changed: review it, then run PRAXIS_UPDATE_OPENAPI=1 cargo test -p praxis-server openapi"
    );
    let doc: serde_json::Value = serde_json::from_str(&served).unwrap();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3.1"));
    for path in [
        "/api/v1/credentials",
        "/api/v1/credentials/{id}/revoke",
        "/api/v1/records",
        "/api/v1/records/{id}/review",
        "/api/v1/skills",
        "/healthz",
        "/metrics",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} missing");
    }
}

/// The served document is a valid OpenAPI 3.1 document, as a validator that
/// nobody here wrote reads it (`openapi-spec-validator`, set up by
/// `scripts/test`).
#[tokio::test]
async fn served_document_passes_an_independent_validator() {
    let body = served_document().await;
    let mut child = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, sys\n\
             from openapi_spec_validator import validate\n\
             validate(json.load(sys.stdin))",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 with openapi-spec-validator (`scripts/test` sets it up)");
    std::io::Write::write_all(&mut child.stdin.take().expect("piped stdin"), &body).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the OpenAPI document is invalid:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An operation with a path parameter documents the 400 `invalid_path`
/// that the shared path extractor answers for a segment that is not UTF-8.
#[tokio::test]
async fn operations_with_path_parameters_document_invalid_path() {
    let doc: serde_json::Value = serde_json::from_slice(&served_document().await).unwrap();
    let paths = doc["paths"].as_object().unwrap();
    for (path, item) in paths.iter().filter(|(p, _)| p.contains('{')) {
        for (method, op) in item.as_object().unwrap() {
            let description = op["responses"]["400"]["description"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path} documents no 400"));
            assert!(
                description.contains("invalid_path"),
                "{method} {path}: {description}"
            );
        }
    }
}
