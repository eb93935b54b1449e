//! A checking reverse proxy on loopback, between the tests (and the CLI
//! commands they run) and a `praxis serve` process.
//!
//! It forwards each request as received (method, path and query, headers,
//! body) to the server, checks the answer against the OpenAPI document the
//! server itself serves at `GET /openapi.json` (see
//! [`praxis_testkit::contract`]), and returns the answer unchanged. A test
//! whose requests drew an answer the document does not describe fails when
//! its server is stopped or dropped, naming each mismatch.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, StatusCode, header};
use axum::response::{IntoResponse, Response};
use praxis_testkit::contract::{Answer, Contract};
use tokio::sync::oneshot;

/// Contracts by the text of the document they were built from: every server
/// of a test run serves the same document, and compiling its schemas anew
/// for each of the many servers a run starts would be wasted time.
static CONTRACTS: LazyLock<Mutex<HashMap<String, Arc<Contract>>>> = LazyLock::new(Mutex::default);

/// Headers that describe one connection rather than the message (RFC 9110
/// §7.6.1), so each hop sets its own; everything else is passed on.
const HOP_BY_HOP: [HeaderName; 7] = [
    header::CONNECTION,
    HeaderName::from_static("keep-alive"),
    header::PROXY_AUTHENTICATE,
    header::PROXY_AUTHORIZATION,
    header::TE,
    header::TRAILER,
    header::TRANSFER_ENCODING,
];

/// Mismatches found in one proxy's answers.
type Found = Arc<Mutex<Vec<String>>>;

/// What the forwarding handler shares.
struct Upstream {
    /// The server's own base URL.
    base: String,
    /// The client that forwards; it follows no redirect, so a 3xx reaches
    /// the caller (and the checker) as the server gave it.
    http: reqwest::Client,
    /// The served document.
    contract: Arc<Contract>,
    /// Where mismatches are recorded.
    found: Found,
}

/// A running checking proxy; stops when dropped, and then fails the test if
/// any answer did not match the document.
pub struct Proxy {
    /// Base URL of the proxy, for example `http://127.0.0.1:40124`.
    pub base: String,
    found: Found,
    stop: Option<oneshot::Sender<()>>,
    /// Its own runtime, because the tests that own servers are synchronous.
    runtime: Option<tokio::runtime::Runtime>,
}

impl Proxy {
    /// Starts a proxy in front of the server at `upstream`, checking against
    /// the document that server serves.
    pub fn start(upstream: &str) -> Proxy {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("the proxy's runtime");
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("the proxy's HTTP client");
        let found = Found::default();
        let (base, stop) = runtime.block_on(async {
            let contract = served_contract(&http, upstream).await;
            let upstream = Arc::new(Upstream {
                base: upstream.to_owned(),
                http,
                contract,
                found: found.clone(),
            });
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind the proxy");
            let base = format!("http://{}", listener.local_addr().expect("proxy address"));
            let app = axum::Router::new().fallback(forward).with_state(upstream);
            let (stop, stopped) = oneshot::channel::<()>();
            tokio::spawn(async move {
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await
                    .expect("the proxy serves");
            });
            (base, stop)
        });
        Proxy {
            base,
            found,
            stop: Some(stop),
            runtime: Some(runtime),
        }
    }

    /// Panics, naming each mismatch, if any answer so far did not match the
    /// document; those mismatches are then reported only once.
    pub fn assert_matched(&self) {
        let found = std::mem::take(&mut *self.found.lock().unwrap_or_else(PoisonError::into_inner));
        assert!(
            found.is_empty(),
            "{} answer(s) through the checking proxy do not match the served OpenAPI document:\n\n{}",
            found.len(),
            found.join("\n\n")
        );
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Every answer was checked before the client received it, so nothing
        // is lost by not waiting; and waiting would panic if the proxy were
        // dropped inside another runtime's task.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        // A test already failing reports its own failure, not these.
        if !std::thread::panicking() {
            self.assert_matched();
        }
    }
}

/// The contract of the document the server at `upstream` serves.
async fn served_contract(http: &reqwest::Client, upstream: &str) -> Arc<Contract> {
    let url = format!("{upstream}/openapi.json");
    let answer = http
        .get(&url)
        .send()
        .await
        .and_then(reqwest::Response::error_for_status)
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let text = answer
        .text()
        .await
        .unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let mut contracts = CONTRACTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(contract) = contracts.get(&text) {
        return contract.clone();
    }
    let document = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("GET {url} is not a JSON document: {e}"));
    let contract = Arc::new(Contract::new(document));
    contracts.insert(text, contract.clone());
    contract
}

/// Forwards one request, checks the answer and returns it unchanged.
async fn forward(State(upstream): State<Arc<Upstream>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let target = parts.uri.path_and_query().map_or("/", |pq| pq.as_str());
    let what = format!("{} {target}", parts.method);
    // The server answers any size it is sent (or refuses it), so the proxy
    // sets no limit of its own.
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(e) => return upstream.refuse(&format!("{what}: reading the request body: {e}")),
    };
    let url = match reqwest::Url::parse(&format!("{}{target}", upstream.base)) {
        Ok(url) => url,
        Err(e) => return upstream.refuse(&format!("{what}: not a forwardable target: {e}")),
    };
    // URL parsing normalises some targets (dot segments, for one); such a
    // request would not reach the server as sent, so it is refused.
    let sent = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    if sent != target {
        return upstream.refuse(&format!("{what}: would be forwarded as {sent}"));
    }
    // The forwarding client adds `Accept: */*` to a request without one.
    if !parts.headers.contains_key(header::ACCEPT) {
        return upstream.refuse(&format!(
            "{what}: it has no Accept header, and would be forwarded with one"
        ));
    }
    let answer = upstream
        .http
        .request(parts.method.clone(), url)
        .headers(end_to_end(&parts.headers))
        .body(body)
        .send()
        .await;
    let answer = match answer {
        Ok(answer) => answer,
        Err(e) => return upstream.refuse(&format!("{what}: the server gave no answer: {e}")),
    };
    let status = answer.status();
    let headers = end_to_end(answer.headers());
    let body: Bytes = match answer.bytes().await {
        Ok(body) => body,
        Err(e) => return upstream.refuse(&format!("{what}: reading the answer's body: {e}")),
    };
    let checked = upstream.contract.check(&Answer {
        method: parts.method.as_str(),
        path: parts.uri.path(),
        status: status.as_u16(),
        content_type: headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
        body: &body,
    });
    if let Err(mismatch) = checked {
        upstream.record(mismatch);
    }
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}

impl Upstream {
    /// Records a mismatch, and says so at once on stderr so that it shows
    /// next to whatever the test printed when it occurred.
    fn record(&self, mismatch: String) {
        eprintln!("answer not in the OpenAPI document: {mismatch}");
        self.found
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(mismatch);
    }

    /// Records a request the proxy could not pass on faithfully and answers
    /// it with a 502: the test must not take the proxy's answer for the
    /// server's.
    fn refuse(&self, why: &str) -> Response {
        self.record(format!("the checking proxy could not forward {why}"));
        (StatusCode::BAD_GATEWAY, why.to_owned()).into_response()
    }
}

/// `headers` without the hop-by-hop ones.
fn end_to_end(headers: &HeaderMap) -> HeaderMap {
    let mut kept = headers.clone();
    for name in &HOP_BY_HOP {
        kept.remove(name);
    }
    kept
}

/// The proxy itself, against an upstream that echoes what it received.
#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;
    use serde_json::{Value, json};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    /// The echo upstream's document: `GET` and `POST /echo/{id}` answer
    /// 200 with an `Echo`; nothing else is described.
    fn document() -> Value {
        let echoed = json!({ "200": { "description": "", "content": { "application/json": {
            "schema": { "$ref": "#/components/schemas/Echo" }
        } } } });
        json!({
            "openapi": "3.1.0",
            "info": { "title": "echo", "version": "1" },
            "paths": { "/echo/{id}": {
                "get": { "responses": echoed },
                "post": { "responses": echoed }
            } },
            "components": { "schemas": {
                "Echo": {
                    "type": "object",
                    "required": ["method", "target", "headers", "body"],
                    "properties": {
                        "method": { "type": "string" },
                        "target": { "type": "string" },
                        "headers": { "type": "array" },
                        "body": { "type": "string" }
                    }
                },
                "Problem": { "type": "object" }
            } }
        })
    }

    /// Echoes the request as JSON, in the order received, but for `Host`
    /// and `Connection`, which concern the hop rather than the request;
    /// `/echo/teapot` answers 418 instead, which the document does not list.
    async fn echo(request: Request) -> Response {
        let (parts, body) = request.into_parts();
        if parts.uri.path() == "/openapi.json" {
            return axum::Json(document()).into_response();
        }
        if parts.uri.path() == "/echo/teapot" {
            return StatusCode::IM_A_TEAPOT.into_response();
        }
        let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
        let headers: Vec<(&str, String)> = parts
            .headers
            .iter()
            .filter(|(k, _)| ![header::HOST, header::CONNECTION].contains(k))
            .map(|(k, v)| {
                (
                    k.as_str(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let echoed = json!({
            "method": parts.method.as_str(),
            "target": parts.uri.path_and_query().map_or("/", |pq| pq.as_str()),
            "headers": headers,
            "body": hex::encode(&body),
        });
        let mut answer = axum::Json(echoed).into_response();
        answer
            .headers_mut()
            .insert("x-echo", HeaderValue::from_static("yes"));
        answer
    }

    /// A runtime serving the echo upstream, and its base URL.
    fn upstream() -> (tokio::runtime::Runtime, String) {
        let runtime = crate::support::runtime();
        let base = runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let base = format!("http://{}", listener.local_addr().unwrap());
            tokio::spawn(async move {
                axum::serve(listener, axum::Router::new().fallback(echo))
                    .await
                    .unwrap();
            });
            base
        });
        (runtime, base)
    }

    /// An answer as read off the wire: status, headers in order, body.
    type Raw = (u16, Vec<(String, String)>, Vec<u8>);

    /// Sends `head` (a request line and header lines, without the blank
    /// line) and `body` as exactly those bytes, on a connection of its own.
    async fn exchange(base: &str, head: &str, body: &[u8]) -> Raw {
        let address = base.strip_prefix("http://").unwrap();
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!("{head}Host: {address}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.unwrap();
        stream.write_all(body).await.unwrap();
        let mut received = Vec::new();
        stream.read_to_end(&mut received).await.unwrap();
        let end = received
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a whole answer head");
        let text = String::from_utf8(received[..end].to_vec()).unwrap();
        let mut lines = text.split("\r\n");
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .map(|l| {
                let (k, v) = l.split_once(':').unwrap();
                (k.to_ascii_lowercase(), v.trim().to_owned())
            })
            .collect();
        (status, headers, received[end + 4..].to_vec())
    }

    /// The mismatches `proxy` reported, taken from it.
    fn reported(proxy: &Proxy) -> String {
        let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            proxy.assert_matched();
        }))
        .expect_err("the proxy reports its mismatches");
        failed
            .downcast_ref::<String>()
            .expect("a formatted message")
            .clone()
    }

    #[test]
    fn requests_and_answers_pass_through_unchanged() {
        let (runtime, base) = upstream();
        let proxy = Proxy::start(&base);
        let bytes: Vec<u8> = (0..=255).collect();
        let accept = "Accept: application/json\r\n";
        let cases: [(String, &[u8]); 4] = [
            (
                format!(
                    "GET /echo/1?b=2&a=1&a=%20x HTTP/1.1\r\n{accept}X-Many: a\r\n\
                     Authorization: Bearer prx_secret\r\nX-Many: b\r\n"
                ),
                b"",
            ),
            (
                format!(
                    "POST /echo/2 HTTP/1.1\r\nContent-Type: application/octet-stream\r\n\
                     {accept}Content-Length: 256\r\n"
                ),
                &bytes,
            ),
            (
                format!("POST /echo/3 HTTP/1.1\r\n{accept}Content-Length: 0\r\n"),
                b"",
            ),
            (format!("HEAD /echo/4 HTTP/1.1\r\n{accept}"), b""),
        ];
        for (head, body) in cases {
            let [direct, proxied] = [&base, &proxy.base].map(|at| {
                let (status, mut headers, body) = runtime.block_on(exchange(at, &head, body));
                // Each hop dates its own answer.
                headers.retain(|(k, _)| k != "date");
                (status, headers, body)
            });
            assert_eq!(
                proxied,
                direct,
                "{head}: {}",
                String::from_utf8_lossy(&proxied.2)
            );
            assert!(
                direct.1.contains(&("x-echo".into(), "yes".into())),
                "{head}"
            );
        }
        proxy.assert_matched();
    }

    #[test]
    fn every_mismatch_is_recorded_and_named() {
        let (runtime, base) = upstream();
        let proxy = Proxy::start(&base);
        let post = |path: &str, accept: &str| {
            let head = format!("POST {path} HTTP/1.1\r\n{accept}Content-Length: 0\r\n");
            runtime.block_on(exchange(&proxy.base, &head, b"")).0
        };
        let accept = "Accept: */*\r\n";
        // Undescribed answers still reach the caller as the server gave them.
        assert_eq!(post("/echo/teapot", accept), 418);
        assert_eq!(post("/elsewhere", accept), 200);
        // What the proxy cannot pass on as sent, it refuses.
        assert_eq!(post("/echo/../echo/1", accept), 502);
        assert_eq!(post("/echo/1", ""), 502);
        let message = reported(&proxy);
        assert!(message.starts_with("4 answer(s)"), "{message}");
        for expected in [
            "POST /echo/{id} (/echo/teapot) answered 418, which the document does not list",
            "POST /elsewhere answered 200: no operation serves it",
            "could not forward POST /echo/../echo/1: would be forwarded as /echo/1",
            "could not forward POST /echo/1: it has no Accept header",
        ] {
            assert!(
                message.contains(expected),
                "{expected:?} not in:\n{message}"
            );
        }
        // A server that is gone is not answered for by the proxy unnoticed.
        drop(runtime);
        let head = format!("POST /echo/1 HTTP/1.1\r\n{accept}Content-Length: 0\r\n");
        let gone = crate::support::runtime().block_on(exchange(&proxy.base, &head, b""));
        assert_eq!(gone.0, 502);
        let message = reported(&proxy);
        assert!(
            message.contains("could not forward POST /echo/1: the server gave no answer"),
            "{message}"
        );
    }
}
