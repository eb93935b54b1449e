//! Connection timeouts and the connection cap, with stalled clients over
//! real TCP: each is cut off within its limit (plus a margin) while a
//! well-behaved client is still served.

use std::time::{Duration, Instant};

use praxis_server::listener::Limits;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// Slack allowed before a limit: timers and the client's clock differ.
const EARLY: Duration = Duration::from_millis(100);

/// Slack allowed past a limit before the server is late.
const MARGIN: Duration = Duration::from_millis(750);

const LIMITS: Limits = Limits {
    header_timeout: Duration::from_millis(600),
    body_timeout: Duration::from_millis(600),
    idle_timeout: Duration::from_millis(1200),
    max_connections: 8,
    shutdown_grace: Duration::from_secs(2),
};

/// A server over a fresh SQLite store within `limits`.
struct Limited {
    addr: std::net::SocketAddr,
    token: String,
    stop: oneshot::Sender<()>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    _dir: tempfile::TempDir,
}

async fn start(limits: Limits) -> Limited {
    let dir = tempfile::tempdir().unwrap();
    let engine = praxis_store::open(dir.path().join("data").to_str().unwrap())
        .await
        .unwrap();
    let (_, token) = praxis_server::admin::bootstrap_tenant(&*engine, "t1", "admin")
        .await
        .unwrap();
    let app = praxis_server::router(praxis_server::AppState::new(
        engine,
        praxis_server::seal::SealKey::generate(),
    ));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(praxis_server::serve_router_with(
        listener,
        app,
        limits,
        async move {
            let _ = stopped.await;
        },
    ));
    Limited {
        addr,
        token: token.render(),
        stop,
        task,
        _dir: dir,
    }
}

impl Limited {
    async fn connect(&self) -> TcpStream {
        TcpStream::connect(self.addr).await.unwrap()
    }

    /// A well-behaved client gets its answer.
    async fn served(&self) {
        let resp = reqwest::get(format!("http://{}/healthz", self.addr))
            .await
            .expect("a well-behaved client is served");
        assert_eq!(resp.status().as_u16(), 200);
    }

    async fn stop(self) {
        let _ = self.stop.send(());
        self.task.await.unwrap().unwrap();
    }
}

/// Reads until the server closes the connection; returns what it sent and
/// when it closed, measured from `since`. Fails if it stays open past `limit`.
async fn closed_within(
    stream: &mut TcpStream,
    since: Instant,
    limit: Duration,
) -> (Vec<u8>, Duration) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = since + limit + MARGIN;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(read) = tokio::time::timeout(left, stream.read(&mut buf)).await else {
            panic!(
                "the connection stayed open {:?} past a limit of {limit:?}",
                since.elapsed()
            );
        };
        match read {
            Ok(0) | Err(_) => return (got, since.elapsed()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
}

#[tokio::test]
async fn unfinished_headers_are_cut_off_at_the_header_timeout() {
    let server = start(LIMITS).await;
    let mut silent = server.connect().await;
    let mut partial = server.connect().await;
    let since = Instant::now();
    partial
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .unwrap();
    // Dripping bytes does not reset the clock.
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(150)).await;
        partial.write_all(b"a").await.unwrap();
    }
    server.served().await;
    let (sent, after) = closed_within(&mut partial, since, LIMITS.header_timeout).await;
    assert!(sent.is_empty(), "no answer to a stalled head");
    assert!(after + EARLY >= LIMITS.header_timeout, "cut at {after:?}");
    let (sent, _) = closed_within(&mut silent, since, LIMITS.header_timeout).await;
    assert!(sent.is_empty());
    server.served().await;
    server.stop().await;
}

#[tokio::test]
async fn an_unfinished_body_is_cut_off_at_the_body_timeout() {
    let server = start(LIMITS).await;
    let mut stalled = server.connect().await;
    let head = format!(
        "POST /api/v1/credentials HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 400\r\n\r\n{{\"subject\":",
        server.token
    );
    stalled.write_all(head.as_bytes()).await.unwrap();
    let since = Instant::now();
    server.served().await;
    let (sent, after) = closed_within(&mut stalled, since, LIMITS.body_timeout).await;
    assert!(
        sent.is_empty(),
        "no answer to a stalled body: {}",
        String::from_utf8_lossy(&sent)
    );
    assert!(after + EARLY >= LIMITS.body_timeout, "cut at {after:?}");
    server.served().await;
    server.stop().await;
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_at_the_idle_timeout() {
    let server = start(LIMITS).await;
    let mut idle = server.connect().await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 4096];
    let n = idle.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"));
    let since = Instant::now();
    // Idle past the header timeout, it is still open: idling is not a stalled head.
    tokio::time::sleep(LIMITS.header_timeout + Duration::from_millis(200)).await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let n = idle.read(&mut buf).await.unwrap();
    assert!(
        buf[..n].starts_with(b"HTTP/1.1 200"),
        "kept alive while under the idle timeout"
    );
    let since_second = Instant::now();
    let (_, after) = closed_within(&mut idle, since_second, LIMITS.idle_timeout).await;
    assert!(after + EARLY >= LIMITS.idle_timeout, "cut at {after:?}");
    assert!(since.elapsed() > LIMITS.idle_timeout);
    server.served().await;
    server.stop().await;
}

#[tokio::test]
async fn connections_over_the_cap_are_refused_until_one_frees() {
    let limits = Limits {
        max_connections: 3,
        ..LIMITS
    };
    let server = start(limits).await;
    let since = Instant::now();
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(server.connect().await);
    }
    // The accept loop takes connections in order: let it take the three.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut over = server.connect().await;
    let (answer, after) = closed_within(&mut over, Instant::now(), Duration::ZERO).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("too_many_connections"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("retry-after: 1"),
        "{answer}"
    );
    assert!(after < MARGIN);
    // The stalled three are cut at the header timeout, and service resumes.
    for stream in &mut held {
        closed_within(stream, since, limits.header_timeout).await;
    }
    server.served().await;
    server.stop().await;
}

#[tokio::test]
async fn shutdown_closes_idle_connections_and_stops_accepting() {
    let server = start(LIMITS).await;
    let mut idle = server.connect().await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 4096];
    let _ = idle.read(&mut buf).await.unwrap();
    let since = Instant::now();
    let addr = server.addr;
    server.stop().await;
    closed_within(&mut idle, since, Duration::ZERO).await;
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}
