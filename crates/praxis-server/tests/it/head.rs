//! Oversized and malformed request heads over raw TCP: problem+json up to
//! hyper's own limits, and what hyper answers by itself past them.

use std::time::Duration;

use praxis_server::{HEADER_FIELDS_LIMIT, HEADERS_LIMIT, URI_LIMIT};
use praxis_testkit::Backend;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{Server, problem};

/// An answer read off the wire: status, lowercased head and body.
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

/// Sends `request` as is and reads the answer until the server closes (every
/// request here says `connection: close`, and hyper closes after a parse error).
async fn send(server: &Server, request: &[u8]) -> Answer {
    let addr = server.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    // The server may answer and close before it has read everything.
    let _ = stream.write_all(request).await;
    let mut bytes = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut bytes)).await;
    let split = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head: {}", String::from_utf8_lossy(&bytes)));
    let head = String::from_utf8_lossy(&bytes[..split]).to_ascii_lowercase();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status: {head}"));
    Answer {
        status,
        head,
        body: bytes[split + 4..].to_vec(),
    }
}

/// A GET of `target` with extra header lines (each ending in CRLF).
fn get(target: &str, headers: &str) -> Vec<u8> {
    format!("GET {target} HTTP/1.1\r\nhost: x\r\n{headers}connection: close\r\n\r\n").into_bytes()
}

fn assert_problem(answer: &Answer, status: u16, code: &str) {
    assert_eq!(answer.status, status, "{}", answer.head);
    assert!(
        answer
            .head
            .contains("content-type: application/problem+json"),
        "{}",
        answer.head
    );
    assert!(answer.head.contains("x-request-id: "), "{}", answer.head);
    assert_eq!(problem(&answer.body).0, code);
}

/// hyper's own answer: the bare status, no body, and the connection closed.
fn assert_bare(answer: &Answer, status: u16) {
    assert_eq!(answer.status, status, "{}", answer.head);
    assert!(answer.body.is_empty(), "{:?}", answer.body);
    assert!(!answer.head.contains("content-type"), "{}", answer.head);
}

#[tokio::test]
async fn long_targets_are_414_problems_up_to_hypers_own_limit() {
    let server = Server::start(Backend::Sqlite).await;
    let at_limit = format!("/healthz?x={}", "a".repeat(URI_LIMIT - "/healthz?x=".len()));
    assert_eq!(send(&server, &get(&at_limit, "")).await.status, 200);
    for target in [
        format!("{at_limit}a"),
        format!("/api/v1/records?q={}", "a".repeat(40 * 1024)),
    ] {
        assert_problem(&send(&server, &get(&target, "")).await, 414, "uri_too_long");
    }
    // Absolute form counts the scheme and authority too.
    let absolute = format!("http://x{}", &at_limit);
    assert_problem(
        &send(&server, &get(&absolute, "")).await,
        414,
        "uri_too_long",
    );
    // Past 65,534 bytes hyper answers before the application sees the request.
    let huge = format!("/healthz?x={}", "a".repeat(70 * 1024));
    assert_bare(&send(&server, &get(&huge, "")).await, 414);
}

#[tokio::test]
async fn large_header_blocks_are_431_problems_up_to_hypers_own_limits() {
    let server = Server::start(Backend::Sqlite).await;
    // `host` and `connection` take their share of both limits.
    let (host, connection) = ("host: x\r\n".len(), "connection: close\r\n".len());
    let room = HEADERS_LIMIT - host - connection - "x-pad: \r\n".len();
    let fits = format!("x-pad: {}\r\n", "a".repeat(room));
    assert_eq!(send(&server, &get("/healthz", &fits)).await.status, 200);
    let over = format!("x-pad: {}\r\n", "a".repeat(room + 1));
    assert_problem(
        &send(&server, &get("/healthz", &over)).await,
        431,
        "headers_too_large",
    );
    // Too many fields, each small.
    let fields = |n: usize| "x-f: v\r\n".repeat(n);
    let most = fields(HEADER_FIELDS_LIMIT - 2);
    assert_eq!(send(&server, &get("/healthz", &most)).await.status, 200);
    let many = fields(HEADER_FIELDS_LIMIT - 1);
    assert_problem(
        &send(&server, &get("/healthz", &many)).await,
        431,
        "headers_too_large",
    );
    // On an API route, before authentication.
    assert_problem(
        &send(&server, &get("/api/v1/credentials", &over)).await,
        431,
        "headers_too_large",
    );
    // Past 100 fields, or a head past about 400 KiB, hyper answers itself.
    assert_bare(&send(&server, &get("/healthz", &fields(101))).await, 431);
    let huge = format!("x-pad: {}\r\n", "a".repeat(500 * 1024));
    assert_bare(&send(&server, &get("/healthz", &huge)).await, 431);
}

/// A malformed head never reaches the application: hyper answers a bare
/// 400 and closes, so no problem document can be given there.
#[tokio::test]
async fn malformed_heads_are_refused_by_hyper_itself() {
    let server = Server::start(Backend::Sqlite).await;
    let post = |length: &str| {
        format!(
            "POST /api/v1/credentials HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n\
             content-length: {length}\r\nconnection: close\r\n\r\n{{}}"
        )
        .into_bytes()
    };
    for length in ["-1", "-0", "1e3", "0x10", "18446744073709551616"] {
        assert_bare(&send(&server, &post(length)).await, 400);
    }
    for line in [
        "x-ctl: a\u{1}b\r\n",
        "x-nul: a\0b\r\n",
        "x-del: a\u{7f}b\r\n",
        "x\u{1}: v\r\n",
        "bad name: v\r\n",
    ] {
        assert_bare(&send(&server, &get("/healthz", line)).await, 400);
    }
    assert_bare(&send(&server, &get("/health\u{1}z", "")).await, 400);
    // The server is still serving.
    assert_eq!(send(&server, &get("/healthz", "")).await.status, 200);
}

/// Every route refuses a declared body over the largest limit, even one that takes no body.
#[tokio::test]
async fn a_declared_body_over_every_limit_is_413_on_any_route() {
    let server = Server::start(Backend::Sqlite).await;
    let length = format!("content-length: {}\r\n", 200 * 1024);
    for target in ["/healthz", "/api/v1/credentials", "/nowhere"] {
        assert_problem(
            &send(&server, &get(target, &length)).await,
            413,
            "request_too_large",
        );
    }
}
