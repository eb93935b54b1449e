//! One client connection: HTTP/1.1 over TCP, watched for stalls.
//!
//! A [`Watch`] follows each connection through its phases, and the task
//! serving it closes the connection once a phase outlasts its limit:
//! - waiting for a request head: the header timeout, counted from the
//!   connection's start, or from the first byte of a later request;
//! - idle between requests on a kept-alive connection: the idle timeout;
//! - reading a request body: the body timeout, for the whole body.
//!
//! While a request is in a handler or its response is being sent (an MCP
//! event stream can last), no timeout runs. A stalled connection is dropped
//! without an answer: a client that stopped sending would not read one.

use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::ConnectInfo;
use http_body_util::BodyExt;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{Notify, watch};
use tokio::time::{Instant, Sleep};

use crate::listener::Limits;

/// Serves one accepted connection until it ends, stalls past a limit, or,
/// once `shutdown` turns true, has finished the request in flight.
pub(crate) async fn serve(
    stream: TcpStream,
    remote: SocketAddr,
    app: Router,
    limits: Limits,
    mut shutdown: watch::Receiver<bool>,
) {
    let watch = Arc::new(Watch::default());
    let io = TokioIo::new(Metered {
        io: stream,
        watch: watch.clone(),
    });
    let service = {
        let watch = watch.clone();
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
            let busy = Busy::begin(&watch);
            let watch = watch.clone();
            let mut req = req.map(|inner| {
                Body::new(DeadlineBody {
                    inner,
                    timeout: limits.body_timeout,
                    sleep: None,
                    watch,
                })
            });
            req.extensions_mut().insert(ConnectInfo(remote));
            let mut app = app.clone();
            async move {
                let response = tower::Service::call(&mut app, req).await?;
                // The connection stays busy until the response body is sent
                // or dropped: the guard lives in it.
                Ok::<_, std::convert::Infallible>(response.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _ = &busy;
                        frame
                    }))
                }))
            }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The watch enforces the head timeout; hyper's own needs a timer and
    // would also cut idle connections at the head timeout.
    builder.header_read_timeout(None);
    let conn = builder.serve_connection(io, service);
    tokio::pin!(conn);
    let mut draining = *shutdown.borrow();
    if draining {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        tokio::select! {
            biased;
            stall = watch.stalled(&limits) => {
                tracing::debug!(%remote, stall = stall.as_str(), "closing a stalled connection");
                return;
            }
            served = conn.as_mut() => {
                if let Err(e) = served {
                    tracing::debug!(%remote, error = %e, "connection ended with an error");
                }
                return;
            }
            _ = shutdown.changed(), if !draining => {
                draining = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Which limit a stalled connection outlasted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stall {
    Header,
    Idle,
    Body,
}

impl Stall {
    fn as_str(self) -> &'static str {
        match self {
            Stall::Header => "header timeout",
            Stall::Idle => "idle timeout",
            Stall::Body => "body timeout",
        }
    }
}

/// Where a connection is, as far as its timeouts care.
struct Phase {
    /// Requests in a handler or sending their response.
    busy: usize,
    /// When the connection started or last became idle.
    since: Instant,
    /// When the first byte of the next request head arrived, if one did.
    head_started: Option<Instant>,
    /// Whether a request was ever taken: before the first, waiting is a
    /// head wait, not keep-alive idleness.
    served: bool,
    /// A request body outlasted the body timeout.
    body_expired: bool,
}

/// A connection's phase, and a wake-up for its watcher on every change.
struct Watch {
    phase: Mutex<Phase>,
    changed: Notify,
}

impl Default for Watch {
    fn default() -> Self {
        Watch {
            phase: Mutex::new(Phase {
                busy: 0,
                since: Instant::now(),
                head_started: None,
                served: false,
                body_expired: false,
            }),
            changed: Notify::new(),
        }
    }
}

impl Watch {
    fn update(&self, f: impl FnOnce(&mut Phase)) {
        f(&mut self.phase.lock().unwrap_or_else(PoisonError::into_inner));
        // One watcher: a stored permit covers a change made while it is
        // not waiting.
        self.changed.notify_one();
    }

    /// Bytes arrived: while idle, they start a request head.
    fn read_some(&self) {
        let starts_head = {
            let phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
            phase.busy == 0 && phase.head_started.is_none()
        };
        if starts_head {
            self.update(|p| p.head_started = Some(Instant::now()));
        }
    }

    /// The deadline of the current phase, or `None` while busy.
    fn deadline(&self, limits: &Limits) -> Result<Option<(Instant, Stall)>, Stall> {
        let phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
        if phase.body_expired {
            return Err(Stall::Body);
        }
        Ok(if phase.busy > 0 {
            None
        } else if let Some(start) = phase.head_started {
            Some((start + limits.header_timeout, Stall::Header))
        } else if phase.served {
            Some((phase.since + limits.idle_timeout, Stall::Idle))
        } else {
            Some((phase.since + limits.header_timeout, Stall::Header))
        })
    }

    /// Resolves once the current phase outlasts its limit.
    async fn stalled(&self, limits: &Limits) -> Stall {
        loop {
            match self.deadline(limits) {
                Err(stall) => return stall,
                Ok(Some((at, stall))) if at <= Instant::now() => return stall,
                Ok(Some((at, _))) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {}
                        () = self.changed.notified() => {}
                    }
                }
                Ok(None) => self.changed.notified().await,
            }
        }
    }
}

/// Marks a connection busy from a request's head to the end of its response.
struct Busy(Arc<Watch>);

impl Busy {
    fn begin(watch: &Arc<Watch>) -> Busy {
        watch.update(|p| {
            p.busy += 1;
            p.served = true;
            p.head_started = None;
        });
        Busy(watch.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.update(|p| {
            p.busy -= 1;
            if p.busy == 0 {
                p.since = Instant::now();
            }
        });
    }
}

/// The TCP stream, reporting reads to the watch.
struct Metered {
    io: TcpStream,
    watch: Arc<Watch>,
}

impl AsyncRead for Metered {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            this.watch.read_some();
        }
        polled
    }
}

impl AsyncWrite for Metered {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// A request body that must arrive whole within the body timeout, counted
/// from the first time the handler waits for it. Past it, the connection
/// is closed and the body never resolves.
struct DeadlineBody {
    inner: Incoming,
    timeout: std::time::Duration,
    sleep: Option<Pin<Box<Sleep>>>,
    watch: Arc<Watch>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        if let Poll::Ready(frame) = Pin::new(&mut this.inner).poll_frame(cx) {
            return Poll::Ready(frame);
        }
        let timeout = this.timeout;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        if sleep.as_mut().poll(cx).is_ready() {
            this.watch.update(|p| p.body_expired = true);
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
