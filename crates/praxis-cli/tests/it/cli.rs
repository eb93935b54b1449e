//! Behaviour of the `praxis` binary: help, bootstrap, offline administration,
//! verification of a tampered store and the schema-version guard.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use praxis_api::CredentialStatus;
use praxis_client::Client;

use crate::support::{Server, admin_token, describe, praxis, run, run_ok, runtime, verify_clean};

/// The string form of a path, for command arguments.
fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

/// The last line of `stdout` that looks like a token, or a panic naming the output.
fn token_in(stdout: &str) -> String {
    stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("prx_"))
        .unwrap_or_else(|| panic!("no prx_ token printed:\n{stdout}"))
        .to_owned()
}

/// The `admin list` row of credential `id`, split on tabs.
fn list_row(data_dir: &str, tenant: &str, id: &str) -> Vec<String> {
    let out = run_ok(&["admin", "list", "--data-dir", data_dir, "--tenant", tenant]);
    out.lines()
        .find(|l| l.split('\t').next() == Some(id))
        .unwrap_or_else(|| panic!("credential {id} not listed:\n{out}"))
        .split('\t')
        .map(str::to_owned)
        .collect()
}

/// Runs a SQL batch directly on the SQLite store in `data_dir`.
fn sql(data_dir: &Path, statement: &str) {
    let conn = rusqlite::Connection::open(data_dir.join("praxis.db")).expect("open praxis.db");
    conn.execute_batch(statement).expect("SQL on praxis.db");
}

#[test]
fn help_lists_every_command() {
    let out = run(&["--help"]);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for command in ["serve", "admin", "verify", "bench"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.split_whitespace().next() == Some(command)),
            "`praxis --help` does not list {command}:\n{stdout}"
        );
    }
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    // Stdout is a pipe whose reader is gone before the first line is printed.
    let mut child = praxis()
        .args([
            "admin",
            "create-tenant",
            "--data-dir",
            s(&dir),
            "--tenant",
            "t",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn logs_written_to_a_file_carry_no_colour_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Server::try_start_logging(&["--data-dir", s(&tmp.path().join("data"))], "info")
        .unwrap_or_else(|f| panic!("praxis serve did not start: {f:#?}"));
    let logged = server.stderr();
    assert!(logged.contains("praxis listening"), "{logged}");
    assert!(!logged.contains('\u{1b}'), "{logged:?}");
}

#[test]
fn serve_bootstraps_an_empty_store_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let rt = runtime();

    let mut server = Server::start(&["--data-dir", s(&dir)]);
    assert!(
        server.banner.contains("created tenant \"default\""),
        "{}",
        server.banner
    );
    let token_path = dir.join("admin-token");
    let mode = std::fs::metadata(&token_path).unwrap().permissions().mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "admin-token mode is {:o}",
        mode & 0o777
    );
    let token = admin_token(&dir);
    assert!(token.starts_with("prx_"), "token {token:?}");
    assert!(
        server.banner.lines().any(|l| l == token),
        "the token is printed once on its own line:\n{}",
        server.banner
    );
    let listed = rt
        .block_on(
            Client::new(server.base.clone())
                .with_token(&token)
                .list_credentials(None, 100),
        )
        .expect("the admin token lists credentials");
    assert_eq!(listed.credentials.len(), 1);
    let admin_id = listed.credentials[0].id.clone();
    assert!(token.starts_with(&format!("prx_{admin_id}_")));
    assert_eq!(
        listed.credentials[0].capabilities,
        ["credential_admin", "policy_admin"]
    );
    server.kill();

    // A restart, even naming another tenant, bootstraps nothing.
    let mut server = Server::start(&["--data-dir", s(&dir), "--tenant", "other"]);
    assert!(
        !server.banner.contains("created tenant") && !server.banner.contains("prx_"),
        "restart bootstrapped again:\n{}",
        server.banner
    );
    assert_eq!(admin_token(&dir), token, "admin-token was rewritten");
    let listed = rt
        .block_on(
            Client::new(server.base.clone())
                .with_token(&token)
                .list_credentials(None, 100),
        )
        .expect("the admin token still works after a restart");
    let ids: Vec<&str> = listed.credentials.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, [admin_id.as_str()]);
    let status = server.terminate();
    assert!(status.success(), "SIGTERM exit {status}");

    let counts = verify_clean(&["--data-dir", s(&dir)]);
    assert_eq!((counts.tenants, counts.credentials), (1, 1), "{counts:?}");
}

#[test]
fn admin_creates_tenants_issues_and_revokes_offline() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = s(tmp.path());
    let rt = runtime();

    let out = run_ok(&[
        "admin",
        "create-tenant",
        "--data-dir",
        dir,
        "--tenant",
        "t2",
    ]);
    assert!(out.contains("tenant \"t2\" created"), "{out}");
    let t2_admin = token_in(&out);

    let again = run(&[
        "admin",
        "create-tenant",
        "--data-dir",
        dir,
        "--tenant",
        "t2",
    ]);
    assert!(!again.status.success(), "{}", describe(&again));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already exists"),
        "{}",
        describe(&again)
    );

    let out = run_ok(&[
        "admin",
        "issue",
        "--data-dir",
        dir,
        "--tenant",
        "t2",
        "--subject",
        "agent-1",
        "--capability",
        "memory_read",
    ]);
    let agent_token = token_in(&out);
    let agent_id = out
        .lines()
        .find_map(|l| l.strip_prefix("credential ")?.strip_suffix(" issued"))
        .unwrap_or_else(|| panic!("no 'credential ID issued' line:\n{out}"))
        .to_owned();
    assert!(
        agent_token.starts_with(&format!("prx_{agent_id}_")),
        "{out}"
    );
    let row = list_row(dir, "t2", &agent_id);
    assert_eq!(row[1..], ["agent-1", "Active", "memory_read"], "{row:?}");

    let out = run_ok(&[
        "admin",
        "revoke",
        "--data-dir",
        dir,
        "--tenant",
        "t2",
        "--credential",
        &agent_id,
    ]);
    assert!(
        out.contains(&format!("credential {agent_id} revoked")),
        "{out}"
    );
    let row = list_row(dir, "t2", &agent_id);
    assert_eq!(row[2], "Revoked", "{row:?}");

    // With --json, the offline commands answer JSON too.
    let listed = run_ok(&[
        "admin",
        "list",
        "--data-dir",
        dir,
        "--tenant",
        "t2",
        "--json",
    ]);
    let rows: Vec<serde_json::Value> = listed
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let agent = rows.iter().find(|r| r["id"] == agent_id.as_str()).unwrap();
    assert_eq!(
        (&agent["subject"], &agent["status"]),
        (&serde_json::json!("agent-1"), &serde_json::json!("revoked")),
        "{listed}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&run_ok(&["--json", "verify", "--data-dir", dir])).unwrap();
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(report["tenants"], 1, "{report}");

    // The store is not empty, so serve bootstraps nothing; the server sees
    // what the offline commands did.
    let mut server = Server::start(&["--data-dir", dir]);
    assert!(
        !server.banner.contains("created tenant"),
        "{}",
        server.banner
    );
    assert!(!tmp.path().join("admin-token").exists());

    // Offline administration is refused while the server holds the store.
    let busy = run(&["admin", "list", "--data-dir", dir, "--tenant", "t2"]);
    assert!(!busy.status.success(), "{}", describe(&busy));
    assert!(
        String::from_utf8_lossy(&busy.stderr).contains("in use"),
        "{}",
        describe(&busy)
    );

    let base = server.base.clone();
    let revoked = rt
        .block_on(
            Client::new(base.clone())
                .with_token(&agent_token)
                .list_credentials(None, 10),
        )
        .expect_err("a revoked token must not authenticate");
    assert_eq!(revoked.code(), Some("credential_revoked"), "{revoked}");
    let page = rt
        .block_on(
            Client::new(base)
                .with_token(&t2_admin)
                .list_credentials(None, 10),
        )
        .expect("the tenant's admin token works");
    assert_eq!(page.credentials.len(), 2);
    let agent = page
        .credentials
        .iter()
        .find(|c| c.id == agent_id)
        .expect("agent credential listed");
    assert_eq!(agent.status, CredentialStatus::Revoked);
    assert!(agent.revoked_at.is_some());
    server.kill();

    let counts = verify_clean(&["--data-dir", dir]);
    assert_eq!((counts.tenants, counts.credentials), (1, 2), "{counts:?}");
}

#[test]
fn verify_reports_a_tampered_event() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = s(tmp.path());
    run_ok(&["admin", "create-tenant", "--data-dir", dir, "--tenant", "t"]);
    verify_clean(&["--data-dir", dir]);

    sql(
        tmp.path(),
        "UPDATE events SET payload = '{\"x\":1}' WHERE position = 2",
    );
    let out = run(&["verify", "--data-dir", dir]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let problems: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("problem:"))
        .collect();
    assert!(!problems.is_empty(), "{}", describe(&out));
    assert!(
        problems.iter().any(|p| p.contains("position 2")),
        "no problem names the tampered position:\n{stdout}"
    );
    assert!(
        stdout.contains(&format!("{} problems found", problems.len())),
        "{stdout}"
    );
    assert!(!stdout.contains("ok: no problems found"), "{stdout}");
}

/// A second server with another seal key is refused before it listens: it
/// could open none of the sealed receipts, and a retry would act twice.
#[test]
fn a_server_with_another_seal_key_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    drop(Server::start(&["--data-dir", s(&dir)]));
    let other = tmp.path().join("other-seal-key");
    std::fs::write(&other, "ab".repeat(32)).unwrap();
    let failure = match Server::try_start(&["--data-dir", s(&dir), "--seal-key-file", s(&other)]) {
        Ok(server) => panic!("serve started with another seal key at {}", server.base),
        Err(f) => f,
    };
    assert!(failure.stderr.contains("seal key"), "{failure:#?}");
    assert!(!failure.stdout.contains("listening"), "{failure:#?}");
    // The store's own key still serves it.
    drop(Server::start(&["--data-dir", s(&dir)]));
}

#[test]
fn a_store_from_a_newer_schema_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = s(tmp.path());
    run_ok(&["admin", "create-tenant", "--data-dir", dir, "--tenant", "t"]);
    sql(tmp.path(), "PRAGMA user_version = 99");

    for args in [
        vec!["verify", "--data-dir", dir],
        vec!["admin", "list", "--data-dir", dir, "--tenant", "t"],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", describe(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("newer") && stderr.contains("99"),
            "{args:?} must name the newer schema: {}",
            describe(&out)
        );
    }

    let failure = match Server::try_start(&["--data-dir", dir]) {
        Ok(server) => panic!("serve started on a newer store at {}", server.base),
        Err(f) => f,
    };
    assert_eq!(
        failure.status.and_then(|s| s.code()),
        Some(1),
        "{failure:#?}"
    );
    assert!(failure.stderr.contains("newer"), "{failure:#?}");
    assert!(!failure.stdout.contains("listening"), "{failure:#?}");

    // Refusing left the store as it was.
    let conn = rusqlite::Connection::open(tmp.path().join("praxis.db")).unwrap();
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .unwrap();
    assert_eq!(version, 99);
}

/// A leftover, world-readable `admin-token` must not lend its mode to a new
/// secret (`OpenOptions::mode` applies only to files it creates).
#[test]
fn the_admin_token_is_private_even_over_an_existing_file() {
    let tmp = tempfile::tempdir().unwrap();
    let token_path = tmp.path().join("admin-token");
    std::fs::write(&token_path, "stale\n").unwrap();
    std::fs::set_permissions(&token_path, std::fs::Permissions::from_mode(0o644)).unwrap();

    let server = Server::start(&["--data-dir", s(tmp.path())]);
    assert!(
        server.banner.contains("created tenant"),
        "{}",
        server.banner
    );
    let token = admin_token(tmp.path());
    assert!(token.starts_with("prx_"), "{token:?}");
    let mode = std::fs::metadata(&token_path).unwrap().permissions().mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "a fresh admin secret was written into a file of mode {:o}",
        mode & 0o777
    );
}

/// Bootstrap is one atomic write, preceded by saving the token: a kill at any
/// moment of the first start leaves either an empty store (bootstrapped by
/// the restart) or a tenant whose token is already saved. Kills the first
/// start at spread-out moments.
#[test]
fn a_kill_during_bootstrap_never_leaves_the_store_without_an_admin_token() {
    let rt = runtime();
    for attempt in 0..100u64 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = s(tmp.path());
        let mut first = praxis()
            .args(["serve", "--data-dir", dir, "--listen", "127.0.0.1:0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn praxis serve");
        let delay = Duration::from_millis(attempt * 37 % 60);
        std::thread::sleep(delay);
        first.kill().expect("SIGKILL");
        first.wait().expect("reap");

        let server = Server::start(&["--data-dir", dir]);
        let token_path = tmp.path().join("admin-token");
        assert!(
            token_path.exists(),
            "attempt {attempt}: killed {delay:?} into the first start; the restart \
             bootstrapped nothing and there is no admin-token:\n{}",
            server.banner
        );
        rt.block_on(
            Client::new(server.base.clone())
                .with_token(admin_token(tmp.path()))
                .list_credentials(None, 10),
        )
        .unwrap_or_else(|e| panic!("attempt {attempt}: the admin token does not work: {e}"));
    }
}

/// Logs at the most verbose level never contain a token or its secret, even
/// for requests that present one in their Authorization header.
#[test]
fn secrets_never_reach_the_logs() {
    let tmp = tempfile::tempdir().unwrap();
    let mut server = Server::try_start_logging(&["--data-dir", s(tmp.path())], "trace")
        .unwrap_or_else(|f| panic!("did not start: {f:#?}"));
    let token = admin_token(tmp.path());
    let secret = token.rsplit('_').next().unwrap().to_owned();
    let rt = runtime();
    let admin = Client::new(server.base.clone()).with_token(&token);
    let issued = rt
        .block_on(admin.issue_credential(
            &praxis_api::IssueCredentialRequest {
                contract_version: 1,
                subject: "logged".into(),
                capabilities: vec!["memory_read".into()],
                grants: vec![],
                expires_at: None,
            },
            Some("log-check-key-0000000001"),
        ))
        .expect("issue");
    let other_secret = issued.token.rsplit('_').next().unwrap().to_owned();
    // A refused token is logged no more than an accepted one.
    let bad = Client::new(server.base.clone()).with_token(format!("{}x", issued.token));
    let _ = rt.block_on(bad.list_credentials(None, 1));
    assert_eq!(server.terminate().code(), Some(0));
    let logs = server.stderr();
    assert!(
        logs.contains("request"),
        "trace logging produced no request spans:\n{logs}"
    );
    for s in [&secret, &other_secret] {
        assert!(!logs.contains(s.as_str()), "a secret reached the logs");
    }
    assert!(!logs.contains("prx_"), "a token reached the logs");
}

/// `praxis serve`'s connection flags reach its listener: a client that
/// never sends a head is cut off at `--header-timeout`, and a connection
/// over `--max-connections` is refused with 503.
#[test]
fn serve_flags_set_the_connection_limits() {
    use std::io::Read as _;
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let mut server = Server::start(&[
        "--data-dir",
        s(&data),
        "--header-timeout",
        "0.5",
        "--max-connections",
        "2",
    ]);
    let addr = server.direct.trim_start_matches("http://").to_owned();
    // The test harness's proxy may hold a kept-alive connection of its own,
    // so which connection meets the cap is not fixed: four silent ones
    // give at least one of each.
    let since = std::time::Instant::now();
    let mut streams: Vec<_> = (0..4)
        .map(|_| {
            let stream = std::net::TcpStream::connect(&addr).unwrap();
            std::thread::sleep(Duration::from_millis(50));
            stream
        })
        .collect();
    let (mut cut, mut refused) = (0, 0);
    for stream in &mut streams {
        stream
            .set_read_timeout(Some(Duration::from_secs(3)))
            .unwrap();
        let mut answer = Vec::new();
        // Closed by the server: end of stream, before the read timeout.
        stream.read_to_end(&mut answer).unwrap();
        let answer = String::from_utf8_lossy(&answer);
        if answer.is_empty() {
            cut += 1;
        } else {
            assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
            assert!(answer.contains("too_many_connections"), "{answer}");
            refused += 1;
        }
    }
    let after = since.elapsed();
    assert!(cut >= 1 && refused >= 1, "{cut} cut off, {refused} refused");
    assert!(
        after >= Duration::from_millis(400) && after < Duration::from_millis(1500),
        "cut off after {after:?}"
    );
    assert!(server.terminate().success());
}
