//! HTTP behaviour: strict bodies, limits, problem documents, headers and probes.

use std::time::Duration;

use praxis_testkit::Backend;
use reqwest::Method;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{Server, problem, raw};

async fn post_credentials(
    server: &Server,
    body: &[u8],
) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    raw(
        Method::POST,
        &format!("{}/api/v1/credentials", server.base),
        Some(&server.admin_token),
        &[("content-type", "application/json")],
        Some(body.to_vec()),
    )
    .await
}

#[tokio::test]
async fn malformed_bodies_get_a_code_and_the_offending_field() {
    let server = Server::start(Backend::Sqlite).await;
    let ok = r#""subject":"s","capabilities":["memory_read"],"expires_at":null"#;
    let cases: Vec<(String, u16, &str, Option<&str>)> = vec![
        (format!(r#"{{"contract_version":1,{ok},"grants":[],"extra":1}}"#), 400, "unknown_field", Some("/extra")),
        (
            format!(
                r#"{{"contract_version":1,{ok},"grants":[{{"project_id":"p","mission_id":null,"agent_id":"a","visibility":"shared","x":0}}]}}"#
            ),
            400,
            "unknown_field",
            Some("/grants/0/x"),
        ),
        (format!(r#"{{{ok},"grants":[]}}"#), 400, "missing_field", Some("/contract_version")),
        (format!(r#"{{"contract_version":2,{ok},"grants":[]}}"#), 400, "unsupported_contract_version", Some("/contract_version")),
        (format!(r#"{{"contract_version":1,{ok},"grants":[],"grants":[]}}"#), 400, "duplicate_key", Some("/grants")),
        (
            format!(r#"{{"contract_version":1,{ok},"grants":[],"n":9007199254740993}}"#),
            400,
            "number_out_of_range",
            Some("/n"),
        ),
        (r#"{"contract_version":1,"capabilities":["memory_read"],"grants":[],"expires_at":null}"#.into(), 400, "missing_field", Some("/subject")),
        (r#"{"contract_version":1,"subject":"s","capabilities":["memory_read"],"grants":[]}"#.into(), 400, "missing_field", Some("/expires_at")),
        (
            r#"{"contract_version":1,"subject":"s","capabilities":["memory_read"],"grants":[{"project_id":"p","agent_id":"a","visibility":"shared"}],"expires_at":null}"#.into(),
            400,
            "missing_field",
            Some("/grants/0/mission_id"),
        ),
        (r#"{"contract_version":1,"subject":"s","capabilities":["root"],"grants":[],"expires_at":null}"#.into(), 422, "invalid_field", Some("/capabilities/0")),
        (r#"{"contract_version":1,"subject":"","capabilities":["memory_read"],"grants":[],"expires_at":null}"#.into(), 422, "invalid_field", Some("/subject")),
        (r#"{"contract_version":1,"subject":"s","capabilities":["memory_read"],"grants":[],"expires_at":"tomorrow"}"#.into(), 400, "invalid_field", Some("/expires_at")),
        (r#"{"contract_version":1,"subject":"\ud800","capabilities":[],"grants":[],"expires_at":null}"#.into(), 400, "malformed_json", None),
        ("[1,2]".into(), 400, "invalid_body", None),
        ("{".into(), 400, "malformed_json", None),
    ];
    for (body, status, code, field) in cases {
        let (got, headers, resp) = post_credentials(&server, body.as_bytes()).await;
        assert_eq!(got, status, "{body}: {}", String::from_utf8_lossy(&resp));
        assert_eq!(
            problem(&resp),
            (code.to_owned(), field.map(str::to_owned)),
            "{body}"
        );
        assert_eq!(headers["content-type"], "application/problem+json");
    }
    // Nothing was written by any refused request: only the bootstrap admin exists.
    let page = server.admin.list_credentials(None, 500).await.unwrap();
    assert_eq!(page.credentials.len(), 1);
}

#[tokio::test]
async fn bodies_over_64_kib_are_413_with_or_without_a_declared_length() {
    let server = Server::start(Backend::Sqlite).await;
    let big = format!(
        r#"{{"contract_version":1,"subject":"{}","capabilities":["memory_read"],"grants":[],"expires_at":null}}"#,
        "a".repeat(70 * 1024)
    );
    let (status, _, body) = post_credentials(&server, big.as_bytes()).await;
    assert_eq!(
        (status, problem(&body).0.as_str()),
        (413, "request_too_large")
    );

    // Chunked, with no Content-Length: refused once the limit is crossed.
    let addr = server.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/v1/credentials HTTP/1.1\r\nhost: {addr}\r\nauthorization: Bearer {}\r\n\
         content-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
        server.admin_token
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b' '; 16 * 1024];
    for _ in 0..6 {
        let frame = [
            format!("{:x}\r\n", chunk.len()).into_bytes(),
            chunk.clone(),
            b"\r\n".to_vec(),
        ]
        .concat();
        if stream.write_all(&frame).await.is_err() {
            break;
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(text.contains("request_too_large"), "{text}");
}

#[tokio::test]
async fn bodies_must_be_json() {
    let server = Server::start(Backend::Sqlite).await;
    let (status, _, body) = raw(
        Method::POST,
        &format!("{}/api/v1/credentials", server.base),
        Some(&server.admin_token),
        &[("content-type", "text/plain")],
        Some(b"{}".to_vec()),
    )
    .await;
    assert_eq!(
        (status, problem(&body).0.as_str()),
        (415, "unsupported_media_type")
    );
}

#[tokio::test]
async fn media_types_are_parsed_not_prefix_matched() {
    let server = Server::start(Backend::Sqlite).await;
    let body = br#"{"contract_version":1,"subject":"s","capabilities":["memory_read"],"grants":[],"expires_at":null}"#;
    for (content_type, expected) in [
        ("APPLICATION/JSON", 201),
        ("application/json; charset=UTF-8", 201),
        ("application/jsonx", 415),
        ("application/json; charset=latin1", 415),
        ("application/json, text/plain", 415),
    ] {
        let (status, _, answer) = raw(
            Method::POST,
            &format!("{}/api/v1/credentials", server.base),
            Some(&server.admin_token),
            &[("content-type", content_type)],
            Some(body.to_vec()),
        )
        .await;
        assert_eq!(status, expected, "{content_type}");
        if expected == 415 {
            assert_eq!(
                problem(&answer).0,
                "unsupported_media_type",
                "{content_type}"
            );
        }
    }
}

#[tokio::test]
async fn the_routers_own_answers_are_problem_documents() {
    let server = Server::start(Backend::Sqlite).await;
    let (status, headers, body) = raw(
        Method::GET,
        &format!("{}/api/v1/no-such-route", server.base),
        Some(&server.admin_token),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(headers["content-type"], "application/problem+json");
    assert_eq!(problem(&body), ("not_found".to_owned(), None));
    let (status, headers, body) = raw(
        Method::DELETE,
        &format!("{}/api/v1/credentials", server.base),
        Some(&server.admin_token),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 405);
    assert_eq!(headers["content-type"], "application/problem+json");
    assert_eq!(problem(&body), ("method_not_allowed".to_owned(), None));
    // A path segment that is not UTF-8 is a problem document, not text.
    let (status, headers, body) = raw(
        Method::GET,
        &format!("{}/api/v1/credentials/%FF", server.base),
        Some(&server.admin_token),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(headers["content-type"], "application/problem+json");
    assert_eq!(problem(&body).0, "invalid_path");
}

#[tokio::test]
async fn api_responses_are_not_cached_and_carry_a_request_id() {
    let server = Server::start(Backend::Sqlite).await;
    let url = format!("{}/api/v1/credentials", server.base);
    let (status, headers, _) = raw(Method::GET, &url, Some(&server.admin_token), &[], None).await;
    assert_eq!(status, 200);
    assert_eq!(headers["cache-control"], "no-store");
    assert!(!headers["x-request-id"].is_empty());
    let (_, headers, _) = raw(
        Method::GET,
        &url,
        None,
        &[("x-request-id", "abc-123")],
        None,
    )
    .await;
    assert_eq!(
        headers["x-request-id"], "abc-123",
        "a caller's request id is echoed"
    );
    assert_eq!(headers["cache-control"], "no-store", "errors too");
}

#[tokio::test]
async fn probes_and_metrics_are_public() {
    for backend in praxis_testkit::BACKENDS {
        let server = Server::start(backend).await;
        for path in ["/healthz", "/readyz"] {
            let (status, _, body) = raw(
                Method::GET,
                &format!("{}{path}", server.base),
                None,
                &[],
                None,
            )
            .await;
            assert_eq!(status, 200, "{path}");
            let health: praxis_api::Health = serde_json::from_slice(&body).unwrap();
            assert_eq!(health.status, "ok");
        }
        server.admin.list_credentials(None, 5).await.unwrap();
        server
            .admin
            .issue_credential(
                &crate::support::issue_request("m", &["memory_read"], vec![]),
                None,
            )
            .await
            .unwrap();
        let (status, _, body) = raw(
            Method::GET,
            &format!("{}/metrics", server.base),
            None,
            &[],
            None,
        )
        .await;
        assert_eq!(status, 200);
        let text = String::from_utf8(body).unwrap();
        assert!(
            text.contains(r#"praxis_http_requests_total{method="GET",route="/api/v1/credentials",status_class="2xx"} 1"#),
            "{text}"
        );
        assert!(text.contains("praxis_http_request_duration_seconds_bucket"));
        assert!(text.contains("praxis_commit_batch_size_count"));
        assert!(text.contains("praxis_commit_duration_seconds_sum"));
        assert!(!text.contains("prx_"), "no secrets in metrics");
    }
}

#[tokio::test]
async fn a_panicking_handler_answers_500_problem_json() {
    // The same layer the application router uses, around a handler that panics.
    let app = axum::Router::new()
        .route(
            "/boom",
            axum::routing::get(|| async {
                let empty: Vec<u8> = Vec::new();
                // Indexing past the end panics, as a bug in a handler would.
                empty[usize::from(empty.is_empty())].to_string()
            }),
        )
        .layer(praxis_server::error::catch_panics());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let (status, headers, body) = raw(Method::GET, &format!("{base}/boom"), None, &[], None).await;
    assert_eq!(status, 500);
    assert_eq!(headers["content-type"], "application/problem+json");
    assert_eq!(problem(&body), ("internal_error".to_owned(), None));
}

/// A scope id that breaks the id rule in a query is the documented 422 (the
/// checking layer fails this test if it is not documented), naming the id.
#[tokio::test]
async fn a_bad_scope_id_in_a_query_is_a_documented_422() {
    let server = Server::start(Backend::Sqlite).await;
    let (status, _, body) = raw(
        Method::GET,
        &format!(
            "{}/api/v1/attempts/policy?project_id=a%20b&agent_id=a1&visibility=shared",
            server.base
        ),
        Some(&server.admin_token),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        problem(&body),
        ("invalid_field".into(), Some("/scope/project_id".into()))
    );
}
