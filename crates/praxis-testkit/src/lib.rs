//! Test support shared by the integration tests of every crate.
//!
//! [`postgres_url`] gives each caller a fresh database on a throwaway
//! PostgreSQL cluster that this process starts on loopback with `initdb` and
//! `pg_ctl`. PostgreSQL refuses to run as root, so when the tests run as root
//! (as CI does) the cluster runs as the unprivileged `postgres` user, created
//! if needed. A watchdog stops the cluster when the test process exits.
//! Missing binaries are a loud failure, never a silent skip.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

pub mod contract;
pub mod records;

/// A running throwaway cluster.
pub struct Cluster {
    port: u16,
    bin: PathBuf,
    user: Option<&'static str>,
    data: PathBuf,
    options: String,
    dir: tempfile::TempDir,
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();
static NEXT_DB: AtomicUsize = AtomicUsize::new(0);

fn find_bin() -> PathBuf {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut candidates = on_path;
    if let Ok(entries) = std::fs::read_dir("/usr/lib/postgresql") {
        let mut versions: Vec<PathBuf> = entries.flatten().map(|e| e.path().join("bin")).collect();
        versions.sort();
        candidates.extend(versions.into_iter().rev());
    }
    candidates
        .into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
        .unwrap_or_else(|| {
            panic!("PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql; install postgresql")
        })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn run(cmd: &mut Command) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs a PostgreSQL binary, as the unprivileged user when we are root.
fn pg(bin: &Path, tool: &str, as_user: Option<&str>) -> Command {
    let exe = bin.join(tool);
    match as_user {
        Some(user) => {
            let mut c = Command::new("runuser");
            c.args(["-u", user, "--"]).arg(exe);
            c
        }
        None => Command::new(exe),
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn start() -> Cluster {
    let bin = find_bin();
    let user = is_root().then_some("postgres");
    if let Some(user) = user {
        let exists = Command::new("id")
            .arg(user)
            .output()
            .is_ok_and(|o| o.status.success());
        if !exists {
            run(Command::new("useradd").args(["--system", "--no-create-home", user]));
        }
    }
    let dir = tempfile::Builder::new()
        .prefix("praxis-pg-")
        .tempdir()
        .expect("temp dir");
    let data = dir.path().join("data");
    if let Some(user) = user {
        run(Command::new("chown")
            .arg(format!("{user}:"))
            .arg(dir.path()));
    }
    run(pg(&bin, "initdb", user)
        .args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
            "-D",
        ])
        .arg(&data));
    let port = free_port();
    let options = format!(
        "-k {} -p {port} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on -c synchronous_commit=on",
        dir.path().display()
    );
    let cluster = Cluster {
        port,
        bin,
        user,
        data,
        options,
        dir,
    };
    cluster.start_again();
    let (bin, data, dir) = (&cluster.bin, &cluster.data, &cluster.dir);
    // Stops the cluster once this test process is gone, however it ends.
    let stop = format!(
        "while [ -d /proc/{pid} ]; do sleep 1; done; {ctl} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
        pid = std::process::id(),
        ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        dir = dir.path().display(),
    );
    let mut watchdog = if let Some(u) = user {
        let mut c = Command::new("runuser");
        c.args(["-u", u, "--", "sh", "-c", &stop]);
        c
    } else {
        let mut c = Command::new("sh");
        c.args(["-c", &stop]);
        c
    };
    // Deliberately never waited for: it must outlive this process.
    #[allow(clippy::zombie_processes)]
    watchdog
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("cluster watchdog");
    cluster
}

impl Cluster {
    /// Starts the cluster (again); waits until it accepts connections.
    pub fn start_again(&self) {
        run(pg(&self.bin, "pg_ctl", self.user)
            .args(["-D"])
            .arg(&self.data)
            .args(["-o", &self.options, "-l"])
            .arg(self.dir.path().join("log"))
            .args(["-w", "start"]));
    }

    /// Stops the cluster at once, as a crash or an outage would.
    pub fn stop(&self) {
        run(pg(&self.bin, "pg_ctl", self.user)
            .args(["-D"])
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"]));
    }

    /// Runs one SQL statement as the superuser on database `postgres`.
    pub fn sql(&self, statement: &str) {
        let psql = Some(self.bin.join("psql"))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| "psql".into());
        run(Command::new(psql)
            // Whatever the cluster's defaults, this session may write.
            .env("PGOPTIONS", "-c default_transaction_read_only=off")
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args(["-U", "postgres", "-d", "postgres", "-q", "-c", statement]));
    }

    /// A URL of a fresh, empty database on this cluster.
    pub fn database_url(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            NEXT_DB.fetch_add(1, Ordering::SeqCst)
        );
        self.sql(&format!("CREATE DATABASE {name}"));
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Cluster {
    /// Stops the cluster before its directory goes (only a private cluster
    /// is ever dropped; the shared one lives as long as the process).
    fn drop(&mut self) {
        let _ = pg(&self.bin, "pg_ctl", self.user)
            .args(["-D"])
            .arg(&self.data)
            .args(["-m", "immediate", "-w", "stop"])
            .output();
    }
}

/// A throwaway cluster of the caller's own, for tests that stop, start or
/// reconfigure it; the shared one of [`postgres_url`] must stay up for
/// every other test of the process.
pub fn private_cluster() -> Cluster {
    start()
}

/// A URL of a fresh, empty database on the shared throwaway cluster.
pub fn postgres_url() -> String {
    CLUSTER.get_or_init(start).database_url()
}

/// The path of a PostgreSQL client tool (`pg_dump`, `pg_restore`, `psql`)
/// of the same installation as the throwaway cluster, which it starts if
/// it is not running yet.
pub fn postgres_tool(name: &str) -> PathBuf {
    let cluster = CLUSTER.get_or_init(start);
    // `initdb` on PATH may be a link into the installation's own bin
    // directory, which holds the client tools of the same version.
    let bin = std::fs::canonicalize(cluster.bin.join("initdb"))
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| cluster.bin.clone());
    let tool = bin.join(name);
    assert!(
        tool.is_file(),
        "{} not found beside initdb; install the PostgreSQL client tools",
        tool.display()
    );
    tool
}

/// Which stores a contract test runs against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An embedded SQLite data directory.
    Sqlite,
    /// A database on the throwaway PostgreSQL cluster.
    Postgres,
}

/// Both backends, for tests that must pass on each.
pub const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

/// A store location for a backend: a data directory or a database URL.
pub struct StoreLocation {
    /// What to pass as `--store` / to `praxis_store::open`.
    pub store: String,
    /// Keeps a SQLite directory alive for the test's duration.
    pub dir: Option<tempfile::TempDir>,
}

impl StoreLocation {
    /// A fresh store for `backend`.
    pub fn new(backend: Backend) -> StoreLocation {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::Builder::new()
                    .prefix("praxis-data-")
                    .tempdir()
                    .expect("temp dir");
                StoreLocation {
                    store: dir.path().join("data").display().to_string(),
                    dir: Some(dir),
                }
            }
            Backend::Postgres => StoreLocation {
                store: postgres_url(),
                dir: None,
            },
        }
    }
}
