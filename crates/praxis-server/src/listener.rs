//! The accept loop: connection limits, timeouts and graceful shutdown.
//!
//! Each accepted connection is served by its own task
//! ([`crate::connection`]) while a permit of the connection cap is held. A
//! connection over the cap is accepted, answered `503` with `Retry-After`
//! and closed at once, so a client learns it was refused instead of waiting
//! in the kernel's backlog. On shutdown the loop stops accepting, tells each
//! connection to finish its request in flight, and waits up to the drain
//! time before closing what remains.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

/// Connection timeouts and limits of the HTTP server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest wait for a whole request head: from the connection's start,
    /// or from the first byte of a later request.
    pub header_timeout: Duration,
    /// Longest wait for a whole request body, from when a handler first
    /// waits for it.
    pub body_timeout: Duration,
    /// Longest a kept-alive connection may sit idle between requests.
    pub idle_timeout: Duration,
    /// Most connections served at once; more are refused with 503.
    pub max_connections: usize,
    /// Longest shutdown waits for requests in flight before closing them.
    pub shutdown_grace: Duration,
}

/// Header timeout unless configured otherwise.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// Body timeout unless configured otherwise: a 160 KiB body at 6 KB/s.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
/// Keep-alive idle timeout unless configured otherwise.
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_mins(1);
/// Connection cap unless configured otherwise: under the common limit of
/// 1,024 open files, with room for the store's own.
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;
/// Shutdown drain time unless configured otherwise.
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
        }
    }
}

/// What a connection over the cap is told before it is closed.
const REFUSAL_BODY: &str = "{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,\
     \"code\":\"too_many_connections\",\"detail\":\"the server is at its connection limit; retry shortly\"}";

/// Longest a refused connection is given to take its 503.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(1);

/// Serves `app` on `listener` within `limits` until `shutdown` resolves,
/// then drains.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let (stop, stopping) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors or a connection reset before
                    // it was taken: the listener itself is fine.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        while connections.try_join_next().is_some() {}
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tracing::warn!(%remote, max = limits.max_connections, "connection refused: at the connection limit");
            tokio::spawn(refuse(stream));
            continue;
        };
        // Answers are written whole; Nagle's algorithm would only delay them.
        let _ = stream.set_nodelay(true);
        let (app, stopping) = (app.clone(), stopping.clone());
        connections.spawn(async move {
            crate::connection::serve(stream, remote, app, limits, stopping).await;
            drop(permit);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = tokio::time::timeout(limits.shutdown_grace, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            open = connections.len(),
            "shutdown drain time elapsed; closing the remaining connections"
        );
        connections.shutdown().await;
    }
    Ok(())
}

/// Answers a connection over the cap with 503 and closes it.
async fn refuse(mut stream: TcpStream) {
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/problem+json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{REFUSAL_BODY}",
        REFUSAL_BODY.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIMEOUT, async {
        if stream.write_all(answer.as_bytes()).await.is_ok() && stream.shutdown().await.is_ok() {
            // Reading what the client sent until it closes keeps the kernel
            // from resetting the connection before the answer is read.
            let mut sink = [0u8; 1024];
            while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {}
        }
    })
    .await;
}
