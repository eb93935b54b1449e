//! Process-kill durability: SIGKILL the real server under concurrent writes,
//! restart it on the same store, and require that every acknowledged write
//! survived whole, that its sealed receipt replays byte for byte, and that
//! `praxis verify` finds nothing wrong.
//!
//! Defaults: 20 cycles on SQLite, 5 on PostgreSQL. `PRAXIS_KILL_CYCLES=N`
//! runs N cycles on both backends (a longer opt-in run); `PRAXIS_KILL_SEED`
//! replays the kill delays of an earlier run (the seed is printed).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use praxis_api::{
    CONTRACT_VERSION, Credential, CredentialStatus, IDEMPOTENCY_KEY, IssueCredentialRequest,
    TokenResponse,
};
use praxis_client::Client;
use praxis_testkit::{Backend, StoreLocation};
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE};

use crate::support::{Server, VerifyCounts, admin_token, runtime, verify_clean};

/// Concurrent writer tasks per cycle.
const WRITERS: usize = 8;
/// Range of the delay between starting the writers and the SIGKILL, in ms.
const KILL_DELAY_MS: (u64, u64) = (50, 400);

/// SplitMix64: a tiny seeded PRNG, so that a failing run can be replayed.
struct SplitMix64(u64);

impl SplitMix64 {
    /// The next 64 random bits.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `lo..hi`.
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo)
    }
}

/// Reads a positive integer from the environment, or `default` when unset.
/// A set but malformed value fails the test rather than being ignored.
fn env_count(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => panic!("{name}={v:?} is not a positive integer"),
        },
        Err(_) => default,
    }
}

/// The PRNG seed: `PRAXIS_KILL_SEED` if set, else the clock.
fn seed() -> u64 {
    match std::env::var("PRAXIS_KILL_SEED") {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("PRAXIS_KILL_SEED={v:?} is not a u64")),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock after 1970")
            .as_nanos() as u64,
    }
}

/// One acknowledged write, as the client saw it: what it sent and the exact
/// bytes of the 201 it received.
struct Ack {
    /// The Idempotency-Key sent.
    key: String,
    /// The request, typed.
    request: IssueCredentialRequest,
    /// The exact request body sent.
    body: Vec<u8>,
    /// The exact response body received.
    response: Vec<u8>,
    /// The response, parsed.
    issued: TokenResponse,
}

/// What one writer task did before the server died.
#[derive(Default)]
struct WriterReport {
    /// Requests sent (acknowledged or not).
    attempts: usize,
    /// Writes acknowledged with a 201.
    acks: Vec<Ack>,
    /// Anything other than a 201 or a transport error after the kill.
    failures: Vec<String>,
}

/// Where the store under test lives and how to name it to the binary.
struct Target {
    /// `praxis_testkit` location (keeps a SQLite temp dir alive).
    _location: StoreLocation,
    /// Directory that receives `admin-token` (and, on SQLite, the store).
    token_dir: PathBuf,
    /// Keeps a separate admin-token directory alive (PostgreSQL).
    _token_tmp: Option<tempfile::TempDir>,
    /// Arguments of `praxis serve` naming the store.
    serve_args: Vec<String>,
    /// Arguments of `praxis verify` naming the store.
    verify_args: Vec<String>,
}

impl Target {
    /// A fresh, empty store on `backend`.
    fn new(backend: Backend) -> Target {
        let location = StoreLocation::new(backend);
        match backend {
            Backend::Sqlite => {
                let dir = location.store.clone();
                Target {
                    token_dir: PathBuf::from(&dir),
                    _token_tmp: None,
                    serve_args: vec!["--data-dir".into(), dir.clone()],
                    verify_args: vec!["--data-dir".into(), dir],
                    _location: location,
                }
            }
            Backend::Postgres => {
                let tmp = tempfile::tempdir().expect("temp dir");
                let dir = tmp.path().display().to_string();
                let url = location.store.clone();
                Target {
                    token_dir: tmp.path().to_owned(),
                    _token_tmp: Some(tmp),
                    serve_args: vec!["--store".into(), url.clone(), "--data-dir".into(), dir],
                    verify_args: vec!["--store".into(), url],
                    _location: location,
                }
            }
        }
    }

    /// Starts `praxis serve` on this store.
    fn start(&self) -> Server {
        Server::start(&strs(&self.serve_args))
    }

    /// Runs `praxis verify` on this store and requires a clean report.
    ///
    /// On PostgreSQL it first waits until the killed server's sessions have
    /// ended: a COMMIT sent just before the SIGKILL is still carried out by
    /// its backend, and a verify racing it would count one write fewer than
    /// the restarted server then lists.
    fn verify(&self) -> VerifyCounts {
        if self.verify_args[0] == "--store" {
            runtime().block_on(wait_for_other_sessions_to_end(&self.verify_args[1]));
        }
        verify_clean(&strs(&self.verify_args))
    }

    /// Verifies the freshly bootstrapped store (stopping and restarting the
    /// server, since SQLite is locked while it runs) and returns its counts.
    fn verify_after_bootstrap(&self, server: &mut Server) -> VerifyCounts {
        server.kill();
        let counts = self.verify();
        assert_eq!(
            (counts.tenants, counts.credentials, counts.receipts),
            (1, 1, 0),
            "a bootstrapped store holds one tenant and its admin credential: {counts:?}"
        );
        *server = self.start();
        counts
    }
}

/// Borrows a list of owned arguments.
fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Sends `POST /api/v1/credentials` with exactly `body` and `key`; returns status and body bytes.
async fn post_issue(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    key: &str,
    body: &[u8],
) -> Result<(StatusCode, Vec<u8>), reqwest::Error> {
    let response = http
        .post(format!("{base}/api/v1/credentials"))
        .header(AUTHORIZATION, format!("Bearer {token}"))
        .header(CONTENT_TYPE, "application/json")
        .header(IDEMPOTENCY_KEY, key)
        .body(body.to_vec())
        .send()
        .await?;
    let status = response.status();
    let bytes = response.bytes().await?;
    Ok((status, bytes.to_vec()))
}

/// Issues credentials in a loop until the server dies, recording every 201.
async fn writer(
    http: reqwest::Client,
    base: String,
    admin: String,
    prefix: String,
    killed: Arc<AtomicBool>,
) -> WriterReport {
    let mut report = WriterReport::default();
    for n in 0.. {
        let key = format!("{prefix}-{n:06}");
        let request = IssueCredentialRequest {
            contract_version: CONTRACT_VERSION,
            subject: format!("agent-{prefix}-{n}"),
            capabilities: vec!["memory_read".into()],
            grants: vec![],
            expires_at: None,
        };
        let body = serde_json::to_vec(&request).expect("request serializes");
        report.attempts += 1;
        match post_issue(&http, &base, &admin, &key, &body).await {
            Ok((StatusCode::CREATED, response)) => {
                match serde_json::from_slice::<TokenResponse>(&response) {
                    Ok(issued) => report.acks.push(Ack {
                        key,
                        request,
                        body,
                        response,
                        issued,
                    }),
                    Err(e) => report.failures.push(format!(
                        "key {key}: 201 with an unreadable body ({e}): {}",
                        String::from_utf8_lossy(&response)
                    )),
                }
            }
            Ok((status, response)) => report.failures.push(format!(
                "key {key}: {status} while the server was up: {}",
                String::from_utf8_lossy(&response)
            )),
            Err(e) => {
                if !killed.load(Ordering::SeqCst) {
                    report
                        .failures
                        .push(format!("key {key}: transport error before the kill: {e}"));
                }
                break;
            }
        }
    }
    report
}

/// Runs the writers against `server`, SIGKILLs it after `delay`, and merges their reports.
async fn write_then_kill(
    server: &mut Server,
    admin: &str,
    prefix: &str,
    delay: Duration,
) -> WriterReport {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("http client");
    let killed = Arc::new(AtomicBool::new(false));
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..WRITERS {
        tasks.spawn(writer(
            http.clone(),
            // Straight to the server, not through the checking proxy: a writer
            // must see the SIGKILL as a failed connection, which the proxy
            // would turn into an answer of its own. The checks after each
            // restart go through the proxy.
            server.direct.clone(),
            admin.to_owned(),
            format!("{prefix}-w{w}"),
            killed.clone(),
        ));
    }
    tokio::time::sleep(delay).await;
    killed.store(true, Ordering::SeqCst);
    server.kill();
    let mut merged = WriterReport::default();
    while let Some(joined) = tasks.join_next().await {
        let r = joined.expect("writer task");
        merged.attempts += r.attempts;
        merged.acks.extend(r.acks);
        merged.failures.extend(r.failures);
    }
    merged
}

/// Every credential of the admin's tenant, through the paginated list endpoint.
async fn list_all(client: &Client) -> Vec<Credential> {
    let mut all = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = client
            .list_credentials(after.as_deref(), 500)
            .await
            .expect("list credentials");
        all.extend(page.credentials);
        match page.next_cursor {
            Some(c) => after = Some(c),
            None => return all,
        }
    }
}

/// Checks one acknowledged write against a restarted server; returns what is wrong.
async fn check_ack(
    client: &Client,
    http: &reqwest::Client,
    base: &str,
    admin: &str,
    ack: &Ack,
) -> Vec<String> {
    let mut problems = Vec::new();
    let id = &ack.issued.credential.id;
    let what = format!("credential {id} (key {})", ack.key);
    // The credential itself, through the typed client.
    match client.credential(id).await {
        Ok(found) => {
            let c = &found.credential;
            let original = &ack.issued.credential;
            if c.id != *id
                || c.subject != ack.request.subject
                || c.capabilities != ack.request.capabilities
                || !c.grants.is_empty()
                || c.status != CredentialStatus::Active
                || c.created_at != original.created_at
                || c.expires_at.is_some()
                || c.version != original.version
            {
                problems.push(format!(
                    "{what} changed: acknowledged {original:?}, now {c:?}"
                ));
            }
        }
        Err(e) => problems.push(format!("{what} was acknowledged but is gone: {e}")),
    }
    // The sealed receipt, replayed with the same key and body.
    match post_issue(http, base, admin, &ack.key, &ack.body).await {
        Ok((StatusCode::CREATED, bytes)) if bytes == ack.response => {}
        Ok((status, bytes)) => problems.push(format!(
            "{what}: replay answered {status} {:?}, acknowledged {:?}",
            String::from_utf8_lossy(&bytes),
            String::from_utf8_lossy(&ack.response)
        )),
        Err(e) => problems.push(format!("{what}: replay failed: {e}")),
    }
    // The token in the receipt still authenticates: 403 (no credential_admin), not 401.
    let probe = http
        .get(format!("{base}/api/v1/credentials"))
        .header(AUTHORIZATION, format!("Bearer {}", ack.issued.token))
        .send()
        .await;
    match probe.map(|r| r.status()) {
        Ok(StatusCode::FORBIDDEN) => {}
        Ok(status) => problems.push(format!(
            "{what}: its token answered {status}, expected 403 (authenticated, no credential_admin)"
        )),
        Err(e) => problems.push(format!("{what}: token probe failed: {e}")),
    }
    problems
}

/// Checks every write in `acks` against a running server with [`check_ack`],
/// spread over [`WRITERS`] tasks; panics listing what is wrong.
async fn check_acks(server: &Server, admin: &str, acks: Arc<Vec<Ack>>, context: &str) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("http client");
    let client = Client::new(server.base.clone()).with_token(admin);
    let mut tasks = tokio::task::JoinSet::new();
    for lane in 0..WRITERS {
        let (acks, http, client, base, admin) = (
            acks.clone(),
            http.clone(),
            client.clone(),
            server.base.clone(),
            admin.to_owned(),
        );
        tasks.spawn(async move {
            let mut problems = Vec::new();
            for ack in acks.iter().skip(lane).step_by(WRITERS) {
                problems.extend(check_ack(&client, &http, &base, &admin, ack).await);
            }
            problems
        });
    }
    let mut problems = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        problems.extend(joined.expect("check task"));
    }
    assert!(
        problems.is_empty(),
        "{context}: {} problems with acknowledged writes; first ones:\n{}\nserver stderr:\n{}",
        problems.len(),
        problems
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n"),
        server.stderr()
    );
}

/// Store-wide accounting after a restart: the listed credentials are exactly
/// what `verify` counted, include every acknowledged one, and number no more
/// than were ever attempted (plus the admin's).
async fn check_listing(
    server: &Server,
    admin: &str,
    acked: &HashSet<String>,
    attempts: usize,
    counts: VerifyCounts,
    context: &str,
) {
    let client = Client::new(server.base.clone()).with_token(admin);
    let listed = list_all(&client).await;
    let ids: HashSet<&str> = listed.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids.len(),
        listed.len(),
        "{context}: a credential listed twice"
    );
    assert_eq!(
        listed.len() as u64,
        counts.credentials,
        "{context}: the API lists another number of credentials than verify counted"
    );
    let missing: Vec<&String> = acked
        .iter()
        .filter(|id| !ids.contains(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{context}: {} acknowledged credentials are not listed, for example {:?}",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
    assert!(
        listed.len() <= attempts + 1,
        "{context}: {} credentials listed but only {attempts} issue requests were ever sent (+1 admin)",
        listed.len()
    );
}

/// Accounting of `praxis verify` counts after a crash: one tenant, every
/// issued credential one event and (except the admin's) one receipt, so no
/// write is half-applied; and at least every acknowledged credential.
fn check_counts(counts: VerifyCounts, acked: usize, attempts: usize, context: &str) {
    assert_eq!(counts.tenants, 1, "{context}: {counts:?}");
    assert_eq!(
        counts.receipts + 1,
        counts.credentials,
        "{context}: every credential but the admin's was issued with a key, so each needs exactly one receipt: {counts:?}"
    );
    assert_eq!(
        counts.events,
        counts.credentials + 1,
        "{context}: one tenant event plus one event per credential expected: {counts:?}"
    );
    assert!(
        counts.credentials as usize > acked,
        "{context}: {acked} acknowledged credentials but verify counted {counts:?}"
    );
    assert!(
        counts.credentials as usize <= attempts + 1,
        "{context}: more credentials than issue requests ever sent ({attempts}): {counts:?}"
    );
}

/// Waits (up to a minute) until no session but ours is connected to the
/// database at `url`.
async fn wait_for_other_sessions_to_end(url: &str) {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect to the store's database");
    tokio::spawn(conn);
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        let others: i64 = client
            .query_one(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND pid <> pg_backend_pid() \
                 AND backend_type = 'client backend'",
                &[],
            )
            .await
            .expect("pg_stat_activity")
            .get(0);
        if others == 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{others} session(s) of the killed server are still open after a minute"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The kill loop: `cycles` times, write concurrently, SIGKILL at a random
/// moment, verify the stopped store, restart, and check every acknowledged write.
fn kill_loop(backend: Backend, cycles: usize) {
    let started = Instant::now();
    let seed = seed();
    eprintln!("kill loop on {backend:?}: {cycles} cycles, PRAXIS_KILL_SEED={seed}");
    let mut rng = SplitMix64(seed);
    let rt = runtime();
    let target = Target::new(backend);

    let mut server = target.start();
    assert!(
        server.banner.contains("created tenant \"default\""),
        "first start must bootstrap the store:\n{}",
        server.banner
    );
    let admin = admin_token(&target.token_dir);
    assert!(
        server.banner.contains(&admin),
        "the printed token differs from admin-token"
    );

    let mut checked: Vec<Ack> = Vec::new();
    let mut acked_ids: HashSet<String> = HashSet::new();
    let mut attempts = 0usize;
    let mut per_cycle = Vec::with_capacity(cycles);
    let mut counts = target.verify_after_bootstrap(&mut server);
    for cycle in 0..cycles {
        let context = format!("{backend:?} cycle {cycle} (PRAXIS_KILL_SEED={seed})");
        // The server runs here, on a store the last cycle crashed (or fresh).
        rt.block_on(check_listing(
            &server, &admin, &acked_ids, attempts, counts, &context,
        ));

        let delay = Duration::from_millis(rng.range(KILL_DELAY_MS.0, KILL_DELAY_MS.1));
        let prefix = format!("kill-{seed:016x}-c{cycle:04}");
        let report = rt.block_on(write_then_kill(&mut server, &admin, &prefix, delay));
        assert!(
            report.failures.is_empty(),
            "{context}: writes failed while the server was up:\n{}\nserver stderr:\n{}",
            report.failures.join("\n"),
            server.stderr()
        );
        attempts += report.attempts;
        per_cycle.push((delay.as_millis(), report.acks.len(), report.attempts));
        for ack in &report.acks {
            assert!(
                acked_ids.insert(ack.issued.credential.id.clone()),
                "{context}: credential id {} acknowledged twice",
                ack.issued.credential.id
            );
            assert!(
                ack.issued
                    .token
                    .starts_with(&format!("prx_{}_", ack.issued.credential.id)),
                "{context}: token does not name its credential"
            );
        }

        // The server is dead: the crashed store must verify clean.
        counts = target.verify();
        check_counts(counts, acked_ids.len(), attempts, &context);

        server = target.start();
        assert!(
            !server.banner.contains("created tenant"),
            "{context}: a restart bootstrapped again:\n{}",
            server.banner
        );
        assert_eq!(
            admin_token(&target.token_dir),
            admin,
            "{context}: admin-token changed"
        );

        let acks = Arc::new(report.acks);
        rt.block_on(check_acks(&server, &admin, acks.clone(), &context));
        checked.extend(Arc::into_inner(acks).expect("every check task has finished"));
    }

    // After the last restart: the whole history once more, then replays must
    // not have created anything, and a graceful stop must leave a clean store.
    let context = format!("{backend:?} final (PRAXIS_KILL_SEED={seed})");
    let checked = Arc::new(checked);
    rt.block_on(check_acks(&server, &admin, checked.clone(), &context));
    rt.block_on(check_listing(
        &server, &admin, &acked_ids, attempts, counts, &context,
    ));
    let status = server.terminate();
    assert!(status.success(), "{context}: SIGTERM exit {status}");
    let after = target.verify();
    assert_eq!(
        after, counts,
        "{context}: replaying receipts changed the store"
    );

    let acked = checked.len();
    assert!(
        acked >= cycles,
        "{context}: only {acked} writes acknowledged in {cycles} cycles; the test did not exercise the server"
    );
    eprintln!(
        "kill loop on {backend:?}: {cycles} cycles, {acked} acknowledged of {attempts} sent, \
         {} credentials stored, {:.1?}; per cycle (delay ms, acked, sent): {per_cycle:?}",
        counts.credentials,
        started.elapsed()
    );
}

#[test]
fn acknowledged_writes_survive_sigkill_on_sqlite() {
    kill_loop(Backend::Sqlite, env_count("PRAXIS_KILL_CYCLES", 20));
}

#[test]
fn acknowledged_writes_survive_sigkill_on_postgres() {
    kill_loop(Backend::Postgres, env_count("PRAXIS_KILL_CYCLES", 5));
}
