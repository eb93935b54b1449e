//! Shared helpers: running the `praxis` binary and managing `praxis serve`
//! processes, each behind a checking proxy (see [`crate::proxy`]).

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::proxy::Proxy;

/// The `praxis` binary Cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_praxis");

/// Longest a server may take to print its listening line.
const START_TIMEOUT: Duration = Duration::from_mins(1);

/// Longest a server may take to exit after SIGTERM.
const STOP_TIMEOUT: Duration = Duration::from_secs(30);

/// A `praxis` command isolated from any `PRAXIS_*` setting of the caller's
/// environment, logging only warnings and errors.
pub fn praxis() -> Command {
    let mut cmd = Command::new(BIN);
    for var in [
        "PRAXIS_DATA_DIR",
        "PRAXIS_STORE",
        "PRAXIS_LISTEN",
        "PRAXIS_CONFIG",
        "PRAXIS_TENANT",
        "PRAXIS_LOG_FORMAT",
        "PRAXIS_CLIENT_CONFIG",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("RUST_LOG", "warn").stdin(Stdio::null());
    cmd
}

/// Runs `praxis` with `args` to completion and returns its output.
pub fn run(args: &[&str]) -> Output {
    praxis()
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run praxis {args:?}: {e}"))
}

/// Runs `praxis` with `args` and panics with its output unless it exits 0.
pub fn run_ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "praxis {args:?} failed: {}",
        describe(&out)
    );
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// A process output rendered for assertion messages.
pub fn describe(out: &Output) -> String {
    format!(
        "{}\n--- stdout ---\n{}--- stderr ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The admin token `praxis serve` wrote to `DATA_DIR/admin-token`.
pub fn admin_token(data_dir: &Path) -> String {
    let path = data_dir.join("admin-token");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
        .trim()
        .to_owned()
}

/// Counts from the summary line of `praxis verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyCounts {
    /// Tenants checked.
    pub tenants: u64,
    /// Events checked.
    pub events: u64,
    /// Streams checked.
    pub streams: u64,
    /// Credentials checked.
    pub credentials: u64,
    /// Receipts checked.
    pub receipts: u64,
}

/// Parses `checked T tenants, E events in S streams, C credentials, R receipts`.
pub fn verify_counts(stdout: &str) -> VerifyCounts {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("checked "))
        .unwrap_or_else(|| panic!("no summary line in verify output:\n{stdout}"));
    let numbers: Vec<u64> = line
        .split_whitespace()
        .filter_map(|w| w.trim_end_matches(',').parse().ok())
        .collect();
    let [tenants, events, streams, credentials, receipts] = numbers[..] else {
        panic!("unexpected verify summary {line:?}");
    };
    VerifyCounts {
        tenants,
        events,
        streams,
        credentials,
        receipts,
    }
}

/// Runs `praxis verify` with `store_args`, requires exit 0 and a clean report,
/// and returns its counts.
pub fn verify_clean(store_args: &[&str]) -> VerifyCounts {
    let mut args = vec!["verify"];
    args.extend_from_slice(store_args);
    let out = run(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() == Some(0) && stdout.contains("ok: no problems found"),
        "praxis verify found problems: {}",
        describe(&out)
    );
    assert!(
        !stdout.lines().any(|l| l.starts_with("problem:")),
        "verify exited 0 but listed problems:\n{stdout}"
    );
    verify_counts(&stdout)
}

/// Collects a child's pipe on a thread so that the child never blocks on it.
fn drain(mut pipe: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock()
                .expect("pipe buffer")
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    text
}

/// Why a server did not come up: its exit status (if it exited) and output.
#[derive(Debug)]
pub struct StartFailure {
    /// Exit status, if the process ended on its own.
    pub status: Option<ExitStatus>,
    /// What it printed to stdout.
    pub stdout: String,
    /// What it printed to stderr.
    pub stderr: String,
}

/// Polls `child` until it exits or `grace` has passed; its status if it exited.
fn exit_within(child: &mut Child, grace: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + grace;
    loop {
        if let Some(status) = child.try_wait().expect("poll the server") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A running `praxis serve` process; killed (SIGKILL) if still running when
/// dropped. Its answers through [`Server::base`] are checked against the
/// document it serves, and the test fails when it stops or is dropped if any
/// did not match.
pub struct Server {
    child: Child,
    /// Base URL of the checking proxy in front of the server, for example
    /// `http://127.0.0.1:40124`; what tests and CLI commands talk to.
    pub base: String,
    /// The server's own base URL, for example `http://127.0.0.1:40123`, for
    /// the few tests a proxy would mislead (each says why it uses this).
    pub direct: String,
    /// Everything printed to stdout up to and including the listening line.
    pub banner: String,
    stderr: Arc<Mutex<String>>,
    proxy: Proxy,
}

impl Server {
    /// Starts `praxis serve ARGS --listen 127.0.0.1:0` and waits for its
    /// listening line; the kernel picks a free port and the line names it.
    pub fn try_start(args: &[&str]) -> Result<Server, StartFailure> {
        Server::try_start_logging(args, "warn")
    }

    /// As [`Server::try_start`], with `RUST_LOG` set to `filter`.
    pub fn try_start_logging(args: &[&str], filter: &str) -> Result<Server, StartFailure> {
        Server::try_start_env(args, filter, &[])
    }

    /// Starts a server that must come up, with `env` added to its
    /// environment (a failpoint, for one); panics with its output otherwise.
    pub fn start_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        Server::try_start_env(args, "warn", env)
            .unwrap_or_else(|f| panic!("praxis serve {args:?} did not start: {f:#?}"))
    }

    /// As [`Server::try_start_logging`], with `env` added to the server's
    /// environment.
    fn try_start_env(
        args: &[&str],
        filter: &str,
        env: &[(&str, &str)],
    ) -> Result<Server, StartFailure> {
        let mut child = praxis()
            .env("RUST_LOG", filter)
            .envs(env.iter().copied())
            .arg("serve")
            .args(args)
            .args(["--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot spawn praxis serve: {e}"));
        let stderr = drain(child.stderr.take().expect("piped stderr"));
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            // Keeps reading after the listening line so the server never sees EPIPE.
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + START_TIMEOUT;
        let mut banner = String::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    banner.push_str(&line);
                    banner.push('\n');
                    if let Some(rest) = line.strip_prefix("praxis listening on ") {
                        let direct = rest
                            .split_whitespace()
                            .next()
                            .expect("an address after 'listening on'")
                            .to_owned();
                        assert!(direct.starts_with("http://127.0.0.1:"), "{line}");
                        let proxy = Proxy::start(&direct);
                        return Ok(Server {
                            child,
                            base: proxy.base.clone(),
                            direct,
                            banner,
                            stderr,
                            proxy,
                        });
                    }
                }
                Err(e) => {
                    // Stdout closed: the process is exiting, so give it a
                    // moment to be reaped; on a timeout, kill it.
                    let grace = match e {
                        mpsc::RecvTimeoutError::Disconnected => Duration::from_secs(10),
                        mpsc::RecvTimeoutError::Timeout => Duration::ZERO,
                    };
                    let status = exit_within(&mut child, grace);
                    if status.is_none() {
                        let _ = child.kill();
                        let _ = child.wait();
                    }
                    // Give the stderr thread a moment to read the last bytes.
                    std::thread::sleep(Duration::from_millis(50));
                    let stderr = stderr.lock().expect("stderr buffer").clone();
                    return Err(StartFailure {
                        status,
                        stdout: banner,
                        stderr,
                    });
                }
            }
        }
    }

    /// Starts a server that must come up; panics with its output otherwise.
    pub fn start(args: &[&str]) -> Server {
        Server::try_start(args)
            .unwrap_or_else(|f| panic!("praxis serve {args:?} did not start: {f:#?}"))
    }

    /// What the server has printed to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().expect("stderr buffer").clone()
    }

    /// Sends SIGKILL and reaps the process. Panics if it had already exited
    /// on its own: the caller meant to kill a live server; and panics if any
    /// answer through the proxy did not match the document.
    pub fn kill(&mut self) -> ExitStatus {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!(
                "the server exited before it was killed ({status}); stderr:\n{}",
                self.stderr()
            );
        }
        self.child.kill().expect("SIGKILL the server");
        let status = self.child.wait().expect("reap the server");
        assert_eq!(
            status.signal(),
            Some(9),
            "the server was not ended by SIGKILL ({status}); stderr:\n{}",
            self.stderr()
        );
        self.proxy.assert_matched();
        status
    }

    /// Waits for a server that stops on its own (at a failpoint, for one)
    /// to exit, and returns its status. Panics if it is still running after
    /// [`STOP_TIMEOUT`], and if any answer through the proxy did not match
    /// the document.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let status = exit_within(&mut self.child, STOP_TIMEOUT).unwrap_or_else(|| {
            panic!(
                "the server is still running {STOP_TIMEOUT:?} later; stderr:\n{}",
                self.stderr()
            )
        });
        self.proxy.assert_matched();
        status
    }

    /// Sends SIGTERM and waits for a graceful exit; returns its status.
    /// Panics if any answer through the proxy did not match the document.
    pub fn terminate(&mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("run kill -TERM");
        assert!(sent.success(), "kill -TERM {pid} failed");
        let status = exit_within(&mut self.child, STOP_TIMEOUT).unwrap_or_else(|| {
            panic!("the server did not exit within {STOP_TIMEOUT:?} of SIGTERM")
        });
        self.proxy.assert_matched();
        status
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A multi-threaded tokio runtime for the async parts of a test.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime")
}
