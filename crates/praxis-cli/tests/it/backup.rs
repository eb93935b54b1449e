//! Backup, restore and online verification, with real `praxis serve`
//! processes writing while the commands run: `praxis backup` and
//! `praxis restore` on SQLite, the `pg_dump`/`pg_restore` recipe of
//! docs/operations.md on PostgreSQL, and `praxis verify` beside a server
//! that keeps writing, on both stores.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use praxis_api::{CONTRACT_VERSION, IDEMPOTENCY_KEY, IssueCredentialRequest, TokenResponse};
use praxis_testkit::{Backend, StoreLocation};
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE};

use crate::support::{Server, admin_token, describe, run, run_ok, runtime, verify_clean};

fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// One acknowledged credential issue: the key and body sent, the bytes of the 201.
#[derive(Clone)]
struct Ack {
    key: String,
    body: Vec<u8>,
    response: Vec<u8>,
    id: String,
}

/// Issues one credential under an Idempotency-Key; its status and body.
async fn issue(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    key: &str,
    body: &[u8],
) -> (StatusCode, Vec<u8>) {
    let response = http
        .post(format!("{base}/api/v1/credentials"))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .header(CONTENT_TYPE, "application/json")
        .header(IDEMPOTENCY_KEY, key)
        .body(body.to_vec())
        .send()
        .await
        .expect("the server answers");
    let status = response.status();
    (status, response.bytes().await.expect("a body").to_vec())
}

fn issue_body(subject: &str) -> Vec<u8> {
    serde_json::to_vec(&IssueCredentialRequest {
        contract_version: CONTRACT_VERSION,
        subject: subject.into(),
        capabilities: vec!["memory_read".into()],
        grants: vec![],
        expires_at: None,
    })
    .expect("request serializes")
}

/// Writers issuing credentials until told to stop; every 201 lands in `acks`
/// the moment it is received.
struct Writers {
    stop: Arc<AtomicBool>,
    acks: Arc<Mutex<Vec<Ack>>>,
    tasks: tokio::task::JoinSet<()>,
}

impl Writers {
    fn start(base: &str, token: &str, prefix: &str, n: usize) -> Writers {
        let stop = Arc::new(AtomicBool::new(false));
        let acks = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = tokio::task::JoinSet::new();
        let http = reqwest::Client::new();
        for w in 0..n {
            let (http, base, token) = (http.clone(), base.to_owned(), token.to_owned());
            let (stop, acks, prefix) = (stop.clone(), acks.clone(), format!("{prefix}-w{w}"));
            tasks.spawn(async move {
                for i in 0.. {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    // Keys are 16 characters at least.
                    let key = format!("backup-test-{prefix}-{i:05}");
                    let body = issue_body(&format!("agent-{key}"));
                    let (status, response) = issue(&http, &base, &token, &key, &body).await;
                    assert_eq!(
                        status,
                        StatusCode::CREATED,
                        "{}",
                        String::from_utf8_lossy(&response)
                    );
                    let issued: TokenResponse =
                        serde_json::from_slice(&response).expect("a token response");
                    acks.lock().expect("acks").push(Ack {
                        key,
                        body,
                        response,
                        id: issued.credential.id,
                    });
                }
            });
        }
        Writers { stop, acks, tasks }
    }

    fn acked(&self) -> Vec<Ack> {
        self.acks.lock().expect("acks").clone()
    }

    /// Waits for `n` acknowledged writes; a writer that failed fails the test.
    async fn wait_for(&mut self, n: usize) {
        while self.acks.lock().expect("acks").len() < n {
            if let Some(done) = self.tasks.try_join_next() {
                done.expect("a writer failed");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn stop(mut self) -> Vec<Ack> {
        self.stop.store(true, Ordering::SeqCst);
        while let Some(done) = self.tasks.join_next().await {
            done.expect("writer task");
        }
        self.acked()
    }
}

/// Runs `praxis ARGS` off the async runtime.
async fn run_async(args: Vec<String>) -> std::process::Output {
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&args)
    })
    .await
    .expect("praxis ran")
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| (*a).to_owned()).collect()
}

/// Every acknowledged write is in the store behind `base`: its credential
/// reads back, and a retry under its key replays its 201 byte for byte
/// (which needs the store's own seal key).
async fn assert_all_present(base: &str, token: &str, acks: &[Ack]) {
    let http = reqwest::Client::new();
    for ack in acks {
        let (status, response) = issue(&http, base, token, &ack.key, &ack.body).await;
        assert_eq!(status, StatusCode::CREATED, "replay of {}", ack.key);
        assert_eq!(
            response, ack.response,
            "replay of {} differs from its original answer",
            ack.key
        );
        let read = http
            .get(format!("{base}/api/v1/credentials/{}", ack.id))
            .header(AUTHORIZATION, format!("Bearer {token}"))
            .send()
            .await
            .expect("the server answers");
        assert_eq!(read.status(), StatusCode::OK, "credential {}", ack.id);
    }
}

/// Every credential of the admin's tenant, as the list endpoint pages them.
async fn list_all(base: &str, token: &str) -> Vec<serde_json::Value> {
    let http = reqwest::Client::new();
    let mut all = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let url = match &after {
            Some(a) => format!("{base}/api/v1/credentials?limit=200&after={a}"),
            None => format!("{base}/api/v1/credentials?limit=200"),
        };
        let page: serde_json::Value = http
            .get(url)
            .header(AUTHORIZATION, format!("Bearer {token}"))
            .send()
            .await
            .expect("the server answers")
            .json()
            .await
            .expect("a JSON page");
        all.extend(page["credentials"].as_array().expect("credentials").clone());
        match page["next_cursor"].as_str() {
            Some(c) => after = Some(c.to_owned()),
            None => return all,
        }
    }
}

/// A backup taken while writers keep writing holds every write acknowledged
/// before it began, restores into a store that verifies clean, and serves
/// those writes (replays included) from a server started on it.
#[test]
fn a_backup_under_writes_keeps_every_write_acknowledged_before_it() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let out = tmp.path().join("praxis.backup");
    let restored = tmp.path().join("restored");
    let server = Server::start(&["--data-dir", s(&data)]);
    let token = admin_token(&data);
    let rt = runtime();
    let (before, all) = rt.block_on(async {
        let mut writers = Writers::start(&server.base, &token, "b", 4);
        writers.wait_for(100).await;
        let before = writers.acked();
        let backup = run_async(args(&[
            "backup",
            "--data-dir",
            s(&data),
            "--out",
            s(&out),
            "--include-seal-key",
        ]))
        .await;
        assert_eq!(backup.status.code(), Some(0), "{}", describe(&backup));
        // The writers kept going during the backup.
        let during = writers.acked().len();
        let all = writers.stop().await;
        assert!(during > before.len(), "no write landed during the backup");
        (before, all)
    });
    drop(server);
    let mode = std::fs::metadata(&out).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the backup file is the owner's only");

    let restore = run_ok(&["restore", "--from", s(&out), "--data-dir", s(&restored)]);
    assert!(restore.contains("seal key: written"), "{restore}");
    let counts = verify_clean(&["--data-dir", s(&restored)]);
    assert!(
        counts.credentials > before.len() as u64 && counts.credentials <= all.len() as u64 + 1,
        "{} credentials restored; {} acknowledged before the backup, {} in all",
        counts.credentials,
        before.len(),
        all.len()
    );
    let server = Server::start(&["--data-dir", s(&restored)]);
    // The admin token stays with the original data directory.
    rt.block_on(assert_all_present(&server.base, &token, &before));
}

/// A round trip keeps every read identical, and verification's counts.
#[test]
fn a_restore_round_trip_keeps_reads_identical() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let out = tmp.path().join("b.praxis");
    let restored = tmp.path().join("restored");
    let mut server = Server::start(&["--data-dir", s(&data)]);
    let token = admin_token(&data);
    let rt = runtime();
    let (reads, acks) = rt.block_on(async {
        let mut writers = Writers::start(&server.base, &token, "r", 2);
        writers.wait_for(40).await;
        let acks = writers.stop().await;
        // A revocation too, so the list holds more than one status.
        let http = reqwest::Client::new();
        let revoked = http
            .post(format!(
                "{}/api/v1/credentials/{}/revoke",
                server.base, acks[0].id
            ))
            .header(AUTHORIZATION, format!("Bearer {token}"))
            .header(CONTENT_TYPE, "application/json")
            .body(format!("{{\"contract_version\":{CONTRACT_VERSION}}}"))
            .send()
            .await
            .unwrap();
        assert_eq!(revoked.status(), StatusCode::OK);
        (list_all(&server.base, &token).await, acks)
    });
    let original = verify_clean(&["--data-dir", s(&data)]);
    run_ok(&[
        "backup",
        "--data-dir",
        s(&data),
        "--out",
        s(&out),
        "--include-seal-key",
    ]);
    server.terminate();
    run_ok(&["restore", "--from", s(&out), "--data-dir", s(&restored)]);
    assert_eq!(verify_clean(&["--data-dir", s(&restored)]), original);
    let server = Server::start(&["--data-dir", s(&restored)]);
    rt.block_on(async {
        assert_eq!(list_all(&server.base, &token).await, reads);
        assert_all_present(&server.base, &token, &acks[1..]).await;
    });
}

/// The names a backup file's manifest holds.
fn manifest(file: &Path) -> Vec<(String, String)> {
    let conn = rusqlite::Connection::open(file).unwrap();
    let mut stmt = conn
        .prepare("SELECT name, value FROM praxis_backup ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Without --include-seal-key the key is nowhere in the file and restore
/// writes none (a server with a new key is then refused); with it, restore
/// writes the same key, mode 0600, and the store serves at once.
#[test]
fn the_seal_key_travels_only_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    drop(Server::start(&["--data-dir", s(&data)]));
    let key = std::fs::read_to_string(data.join("seal-key")).unwrap();
    let key = key.trim();

    let plain = tmp.path().join("plain.backup");
    let stdout = run_ok(&["backup", "--data-dir", s(&data), "--out", s(&plain)]);
    assert!(stdout.contains("not in the backup"), "{stdout}");
    assert!(
        !manifest(&plain).iter().any(|(n, _)| n == "seal_key"),
        "{:?}",
        manifest(&plain)
    );
    let bytes = std::fs::read(&plain).unwrap();
    assert!(
        !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
        "the key's hex is in a backup taken without --include-seal-key"
    );
    let bare = tmp.path().join("bare");
    let stdout = run_ok(&["restore", "--from", s(&plain), "--data-dir", s(&bare)]);
    assert!(stdout.contains("not in the backup"), "{stdout}");
    assert!(!bare.join("seal-key").exists());
    // A server would make up a new key, which the store refuses.
    let failure = match Server::try_start(&["--data-dir", s(&bare)]) {
        Ok(server) => panic!("served a restored store with a new key at {}", server.base),
        Err(f) => f,
    };
    assert!(failure.stderr.contains("seal key"), "{failure:#?}");

    let keyed = tmp.path().join("keyed.backup");
    run_ok(&[
        "backup",
        "--data-dir",
        s(&data),
        "--out",
        s(&keyed),
        "--include-seal-key",
    ]);
    assert!(
        manifest(&keyed).contains(&("seal_key".into(), key.to_owned())),
        "{:?}",
        manifest(&keyed).iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    let full = tmp.path().join("full");
    let stdout = run_ok(&["restore", "--from", s(&keyed), "--data-dir", s(&full)]);
    assert!(stdout.contains("seal key: written"), "{stdout}");
    let written = full.join("seal-key");
    assert_eq!(std::fs::read_to_string(&written).unwrap().trim(), key);
    let mode = std::fs::metadata(&written).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // The restored store keeps no trace of the key the backup carried, so
    // a backup of it taken without the flag cannot carry it either.
    let restored = std::fs::read(full.join("praxis.db")).unwrap();
    assert!(
        !restored.windows(key.len()).any(|w| w == key.as_bytes()),
        "the key's hex is left in the restored store's free pages"
    );
    let again = tmp.path().join("again.backup");
    run_ok(&["backup", "--data-dir", s(&full), "--out", s(&again)]);
    let bytes = std::fs::read(&again).unwrap();
    assert!(
        !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
        "the key's hex is in a backup of a restored store taken without --include-seal-key"
    );
    drop(Server::start(&["--data-dir", s(&full)]));

    // A seal key file holding another key is never overwritten, and the
    // refused restore leaves no store behind.
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::write(other.join("seal-key"), "cd".repeat(32)).unwrap();
    let out = run(&["restore", "--from", s(&keyed), "--data-dir", s(&other)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("another seal key"),
        "{}",
        describe(&out)
    );
    assert_eq!(
        std::fs::read_to_string(other.join("seal-key")).unwrap(),
        "cd".repeat(32)
    );
    assert!(!other.join("praxis.db").exists());
}

/// Refusals exit 1 and change nothing; a usage error stays 2.
#[test]
fn backup_and_restore_refuse_what_they_must() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let out = tmp.path().join("b.backup");
    let server = Server::start(&["--data-dir", s(&data)]);
    run_ok(&["backup", "--data-dir", s(&data), "--out", s(&out)]);
    let original = std::fs::read(&out).unwrap();

    let refused = |args: &[&str], says: &[&str]| {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            says.iter().any(|w| stderr.contains(w)),
            "{args:?} must say one of {says:?}: {}",
            describe(&out)
        );
    };
    // An existing out file, unless --force.
    refused(
        &["backup", "--data-dir", s(&data), "--out", s(&out)],
        &["already exists"],
    );
    assert_eq!(std::fs::read(&out).unwrap(), original);
    run_ok(&[
        "backup",
        "--data-dir",
        s(&data),
        "--out",
        s(&out),
        "--force",
    ]);
    // No store to back up.
    refused(
        &[
            "backup",
            "--data-dir",
            s(&tmp.path().join("none")),
            "--out",
            s(&tmp.path().join("x")),
        ],
        &["no Praxis store"],
    );
    assert!(!tmp.path().join("x").exists());
    // A data directory that holds a store, served or not.
    refused(
        &["restore", "--from", s(&out), "--data-dir", s(&data)],
        &["in use", "already holds a store"],
    );
    drop(server);
    refused(
        &["restore", "--from", s(&out), "--data-dir", s(&data)],
        &["already holds a store"],
    );
    // Files that are no Praxis backup: not SQLite, a store itself, damaged.
    let text = tmp.path().join("notes.txt");
    std::fs::write(
        &text,
        "not a database at all, but long enough to have a header\n".repeat(20),
    )
    .unwrap();
    let damaged = tmp.path().join("damaged.backup");
    let mut bytes = std::fs::read(&out).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle..middle + 8192].fill(0xA5);
    std::fs::write(&damaged, bytes).unwrap();
    for (from, says) in [
        (text.as_path(), &["not a SQLite database"][..]),
        (&data.join("praxis.db"), &["not a Praxis backup"][..]),
        (
            &damaged,
            &["damaged", "integrity_check", "does not verify"][..],
        ),
        (&tmp.path().join("missing"), &["no backup file"][..]),
    ] {
        let target = tmp.path().join("target");
        refused(
            &["restore", "--from", s(from), "--data-dir", s(&target)],
            says,
        );
        assert!(
            !target.exists(),
            "a refused restore left {} behind",
            target.display()
        );
    }
    // Usage errors are clap's: exit 2.
    let out = run(&["backup", "--data-dir", s(&data)]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
}

/// Runs `statement` on the store behind the server's back.
async fn tamper(backend: Backend, store: &str, statement: &str) {
    match backend {
        Backend::Sqlite => {
            let conn = rusqlite::Connection::open(Path::new(store).join("praxis.db")).unwrap();
            conn.busy_timeout(Duration::from_secs(10)).unwrap();
            conn.execute_batch(statement).unwrap();
        }
        Backend::Postgres => {
            let (client, conn) = tokio_postgres::connect(store, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            client.batch_execute(statement).await.unwrap();
        }
    }
}

/// Arguments naming a fresh store on `backend` to serve and to verify, and
/// what keeps them alive.
fn store_args(backend: Backend) -> (Vec<String>, Vec<String>, StoreLocation, tempfile::TempDir) {
    let location = StoreLocation::new(backend);
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().display().to_string();
    match backend {
        Backend::Sqlite => {
            let data = location.store.clone();
            (
                args(&["--data-dir", &data]),
                args(&["--data-dir", &data]),
                location,
                tmp,
            )
        }
        Backend::Postgres => {
            let url = location.store.clone();
            (
                args(&["--store", &url, "--data-dir", &dir]),
                args(&["--store", &url]),
                location,
                tmp,
            )
        }
    }
}

/// `praxis verify` runs clean on a read snapshot while a server keeps
/// writing to the same store, and still catches a tampered event.
#[test]
fn verify_runs_beside_a_writing_server_on_both_stores() {
    for backend in praxis_testkit::BACKENDS {
        let (serve, verify, location, tmp) = store_args(backend);
        let token_dir = match backend {
            Backend::Sqlite => Path::new(&location.store).to_owned(),
            Backend::Postgres => tmp.path().to_owned(),
        };
        let server = Server::start(&serve.iter().map(String::as_str).collect::<Vec<_>>());
        let token = admin_token(&token_dir);
        let rt = runtime();
        rt.block_on(async {
            let mut writers = Writers::start(&server.base, &token, "v", 4);
            writers.wait_for(50).await;
            let mut last = 0;
            for _ in 0..3 {
                let mut a = args(&["verify"]);
                a.extend(verify.iter().cloned());
                let out = run_async(a).await;
                let stdout = String::from_utf8_lossy(&out.stdout);
                assert!(
                    out.status.code() == Some(0) && stdout.contains("ok: no problems found"),
                    "{backend:?}: verify beside a writing server: {}",
                    describe(&out)
                );
                let counts = crate::support::verify_counts(&stdout);
                assert!(counts.events >= last, "{backend:?}: {counts:?}");
                last = counts.events;
            }
            let before = writers.acked().len();
            writers.wait_for(before + 10).await;
            writers.stop().await;
            assert!(last > 50, "{backend:?}: verify saw {last} events");
            // Tampered while the server still runs.
            tamper(
                backend,
                &location.store,
                "UPDATE events SET payload = '{\"x\":1}' WHERE position = 2",
            )
            .await;
            let mut a = args(&["verify"]);
            a.extend(verify.iter().cloned());
            let out = run_async(a).await;
            assert_eq!(
                out.status.code(),
                Some(1),
                "{backend:?}: {}",
                describe(&out)
            );
            assert!(
                String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .any(|l| l.starts_with("problem:") && l.contains("position 2")),
                "{backend:?}: {}",
                describe(&out)
            );
        });
        drop(server);
    }
}

/// Rows of a PostgreSQL table as text, in key order.
async fn pg_rows(url: &str, query: &str) -> Vec<String> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    client
        .query(query, &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect()
}

/// Runs a PostgreSQL client tool and requires it to succeed.
fn pg_tool(name: &str, args: &[&str]) {
    let out = std::process::Command::new(praxis_testkit::postgres_tool(name))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {name}: {e}"));
    assert!(out.status.success(), "{name} {args:?}: {}", describe(&out));
}

/// The recipe of docs/operations.md: `pg_dump --format=custom` of a store
/// that a server is serving, `pg_restore --single-transaction` into a fresh
/// database, which then verifies clean, holds the same events and receipts,
/// and serves the same reads (replays included) with the same seal key.
#[test]
fn a_pg_dump_restores_into_a_store_that_verifies_and_reads_the_same() {
    let source = praxis_testkit::postgres_url();
    let target = praxis_testkit::postgres_url();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("server");
    let server = Server::start(&["--store", &source, "--data-dir", s(&dir)]);
    let token = admin_token(&dir);
    let rt = runtime();
    let dump = tmp.path().join("praxis.dump");
    let (reads, acks) = rt.block_on(async {
        let mut writers = Writers::start(&server.base, &token, "pg", 2);
        writers.wait_for(40).await;
        // The dump runs while the writers keep writing: it is one snapshot.
        pg_tool(
            "pg_dump",
            &["--format=custom", "--file", s(&dump), "--dbname", &source],
        );
        let acks = writers.stop().await;
        (list_all(&server.base, &token).await, acks)
    });
    pg_tool(
        "pg_restore",
        &[
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--dbname",
            &target,
            s(&dump),
        ],
    );
    let restored = verify_clean(&["--store", &target]);
    let events = "SELECT concat_ws('|', tenant_id, position, stream, kind, payload, \
                  encode(digest, 'hex')) FROM events ORDER BY tenant_id, position";
    let receipts = "SELECT concat_ws('|', tenant_id, key, encode(receipt_digest, 'hex')) \
                    FROM receipts ORDER BY tenant_id, key";
    rt.block_on(async {
        let (from, to) = (
            pg_rows(&source, events).await,
            pg_rows(&target, events).await,
        );
        assert_eq!(to.len() as u64, restored.events);
        // The dump is a snapshot taken while writes went on: the restored
        // log is a prefix of the source's, event for event.
        assert!(
            to.len() > 40 && to.len() <= from.len(),
            "{} of {}",
            to.len(),
            from.len()
        );
        assert_eq!(to[..], from[..to.len()]);
        let (from, to) = (
            pg_rows(&source, receipts).await,
            pg_rows(&target, receipts).await,
        );
        assert!(to.iter().all(|r| from.contains(r)));
    });
    drop(server);
    // A server on the restored database with the first server's seal key.
    let second = tmp.path().join("second");
    std::fs::create_dir(&second).unwrap();
    std::fs::copy(dir.join("seal-key"), second.join("seal-key")).unwrap();
    let server = Server::start(&["--store", &target, "--data-dir", s(&second)]);
    rt.block_on(async {
        let now = list_all(&server.base, &token).await;
        assert!(
            now.len() as u64 == restored.credentials,
            "{} listed",
            now.len()
        );
        assert!(
            now.iter().all(|c| reads.contains(c)),
            "a restored credential reads differently"
        );
        let ids: Vec<&str> = now.iter().filter_map(|c| c["id"].as_str()).collect();
        let kept: Vec<Ack> = acks
            .into_iter()
            .filter(|a| ids.contains(&a.id.as_str()))
            .collect();
        assert!(
            kept.len() >= 40,
            "{} acknowledged writes in the dump",
            kept.len()
        );
        assert_all_present(&server.base, &token, &kept).await;
    });
}
