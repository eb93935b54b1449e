//! `/readyz` tells the truth about the store: a full disk, free space under
//! the floor, an unreachable or read-only database. Disks are filled for
//! real on a small tmpfs (the test needs root to mount one and says so when
//! it cannot); PostgreSQL is stopped and restarted on a cluster of its own.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use praxis_api::Health;
use praxis_server::readiness::ReadinessSettings;
use praxis_store::Engine;
use praxis_store::readiness::ReadyCheck;
use praxis_testkit::StoreLocation;

use crate::support::{Server, event_count, issue_request, problem};

/// A tmpfs mounted on a temporary directory, unmounted when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size` (as `mount` reads it), or says why it cannot.
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs { dir }),
            Ok(o) => {
                eprintln!(
                    "SKIPPED: cannot mount a tmpfs (needs root): {}",
                    String::from_utf8_lossy(&o.stderr).trim()
                );
                None
            }
            Err(e) => {
                eprintln!("SKIPPED: cannot run mount: {e}");
                None
            }
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .output();
    }
}

/// Writes `path` until the file system has no byte left.
fn fill(path: &Path) {
    let mut file = std::fs::File::create(path).unwrap();
    for chunk in [1 << 20, 1 << 12, 1 << 9, 1] {
        let bytes = vec![7u8; chunk];
        while matches!(file.write(&bytes), Ok(n) if n > 0) {}
    }
}

/// `/readyz` of `server`: (status, body).
async fn readyz(server: &Server) -> (u16, Health) {
    let resp = reqwest::get(format!("{}/readyz", server.base))
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap())
}

/// Polls `/readyz` until it answers `status` (with `reason`), or fails after 15 s.
async fn await_ready(server: &Server, status: u16, reason: Option<&str>) -> Health {
    let start = Instant::now();
    loop {
        let (got, health) = readyz(server).await;
        if got == status && health.reason.as_deref() == reason {
            return health;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "/readyz stayed {got} {health:?}, wanted {status} {reason:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn readiness(min_free_bytes: u64) -> praxis_server::Settings {
    praxis_server::Settings {
        readiness: ReadinessSettings {
            check: ReadyCheck { min_free_bytes },
            cache_for: Duration::ZERO,
        },
        ..praxis_server::Settings::default()
    }
}

/// Serves `engine` with `settings`; the store's location is the caller's.
async fn serve(engine: &Arc<dyn Engine>, token: &str, settings: praxis_server::Settings) -> Server {
    let location = StoreLocation {
        store: String::new(),
        dir: None,
    };
    let seal = praxis_server::seal::SealKey::generate();
    Server::serve_with(engine.clone(), location, token.into(), seal, settings).await
}

/// Issues a credential: `Ok` when acknowledged, else the problem's status and code.
async fn issue(server: &Server) -> Result<(), (u16, String)> {
    let resp = reqwest::Client::new()
        .post(format!("{}/api/v1/credentials", server.base))
        .bearer_auth(&server.admin_token)
        .json(&issue_request("agent", &["memory_read"], vec![]))
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    if status == 201 {
        return Ok(());
    }
    let body = resp.bytes().await.unwrap();
    Err((status, problem(&body).0))
}

fn wal_size(data: &Path) -> u64 {
    std::fs::metadata(data.join("praxis.db-wal")).map_or(0, |m| m.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_full_disk_fails_readiness_and_the_wal_is_given_back() {
    let Some(fs) = Tmpfs::mount("24m") else {
        return;
    };
    let data: PathBuf = fs.path().join("data");
    let engine = praxis_store::open(data.to_str().unwrap()).await.unwrap();
    let (_, token) = praxis_server::admin::bootstrap_tenant(&*engine, "t1", "admin")
        .await
        .unwrap();
    let token = token.render();
    // The same store behind two servers: one with a free-space floor, one
    // relying on the probe's real write alone.
    let floored = serve(&engine, &token, readiness(4 << 20)).await;
    let write_only = serve(&engine, &token, readiness(0)).await;
    await_ready(&floored, 200, None).await;
    await_ready(&write_only, 200, None).await;

    // Some writes, so the WAL holds something to give back.
    let before = event_count(&floored).await;
    for _ in 0..50 {
        issue(&floored).await.unwrap();
    }
    let per_write = (event_count(&floored).await - before) / 50;
    let wal_before = wal_size(&data);
    assert!(wal_before > 0, "the WAL is empty after 50 writes");

    fill(&fs.path().join("filler-1"));
    let health = await_ready(&floored, 503, Some("low_disk_space")).await;
    assert_eq!(health.status, "not ready");
    assert!(health.detail.unwrap().contains("below the minimum"));

    // Writes go on until one finds no room: it is refused, nothing of it stays.
    let before = event_count(&floored).await;
    let mut acknowledged = 0;
    let refusal = loop {
        match issue(&floored).await {
            Ok(()) => acknowledged += 1,
            Err(refused) => break refused,
        }
        assert!(acknowledged < 5_000, "the full disk never refused a write");
    };
    assert_eq!(refusal, (503, "storage_unavailable".to_owned()));
    assert_eq!(
        event_count(&floored).await,
        before + acknowledged * per_write,
        "only acknowledged writes are stored"
    );

    // Space comes back: the writer truncates the WAL rather than keeping it.
    std::fs::remove_file(fs.path().join("filler-1")).unwrap();
    let start = Instant::now();
    while wal_size(&data) >= wal_before {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the WAL stayed at {} bytes (was {wal_before}) after space was freed",
            wal_size(&data)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "WAL {wal_before} -> {} bytes; {acknowledged} writes acknowledged on the full disk before a refusal",
        wal_size(&data)
    );

    // With the WAL given back (and nothing written since), a full disk
    // leaves the probe's own write no room: the write-only probe fails on
    // it. A WAL with frames to reuse could still take the probe's small
    // write, which is why the free-space floor exists.
    fill(&fs.path().join("filler-2"));
    let health = await_ready(&write_only, 503, Some("disk_full")).await;
    assert!(health.detail.unwrap().contains("full"));
    await_ready(&floored, 503, Some("low_disk_space")).await;

    std::fs::remove_file(fs.path().join("filler-2")).unwrap();
    await_ready(&write_only, 200, None).await;
    await_ready(&floored, 200, None).await;
    issue(&floored).await.unwrap();
    assert!(engine.verify().await.unwrap().is_clean());
    floored.stop().await;
    write_only.stop().await;
    drop(engine);
}

#[tokio::test]
async fn probes_are_cached_so_scraping_is_not_write_load() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let engine = praxis_store::open(data.to_str().unwrap()).await.unwrap();
    let (_, token) = praxis_server::admin::bootstrap_tenant(&*engine, "t1", "admin")
        .await
        .unwrap();
    let settings = praxis_server::Settings {
        readiness: ReadinessSettings {
            check: ReadyCheck { min_free_bytes: 0 },
            cache_for: Duration::from_hours(1),
        },
        ..praxis_server::Settings::default()
    };
    let server = serve(&engine, &token.render(), settings).await;
    let probed_at = || {
        let conn = rusqlite::Connection::open(data.join("praxis.db")).unwrap();
        conn.query_row(
            "SELECT probed_at FROM readiness WHERE name = 'probe'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap()
    };
    assert_eq!(readyz(&server).await.0, 200);
    let first = probed_at();
    for _ in 0..20 {
        assert_eq!(readyz(&server).await.0, 200);
    }
    assert_eq!(probed_at(), first, "a cached answer wrote nothing");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_and_read_only_fail_readiness_until_they_end() {
    let cluster = praxis_testkit::private_cluster();
    let url = cluster.database_url();
    let engine = praxis_store::open(&url).await.unwrap();
    let (_, token) = praxis_server::admin::bootstrap_tenant(&*engine, "t1", "admin")
        .await
        .unwrap();
    let server = serve(&engine, &token.render(), readiness(0)).await;
    await_ready(&server, 200, None).await;

    cluster.stop();
    let health = await_ready(&server, 503, Some("database_unreachable")).await;
    assert!(health.detail.is_some());
    assert_eq!(issue(&server).await.unwrap_err().0, 503);
    cluster.start_again();
    await_ready(&server, 200, None).await;
    issue(&server).await.unwrap();

    // Every transaction read-only, as on a hot standby or a database
    // switched read-only by its operator.
    cluster.sql("ALTER SYSTEM SET default_transaction_read_only = on");
    cluster.sql("SELECT pg_reload_conf()");
    await_ready(&server, 503, Some("read_only")).await;
    assert_eq!(issue(&server).await.unwrap_err().0, 503);
    cluster.sql("ALTER SYSTEM RESET default_transaction_read_only");
    cluster.sql("SELECT pg_reload_conf()");
    await_ready(&server, 200, None).await;
    issue(&server).await.unwrap();
    assert!(engine.verify().await.unwrap().is_clean());
    server.stop().await;
}
