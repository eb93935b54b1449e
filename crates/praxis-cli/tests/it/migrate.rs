//! `praxis migrate`: a store full of every kind of state goes SQLite →
//! PostgreSQL → SQLite and every read answers the same on each; a killed
//! migration resumes to an identical copy; a non-empty target is refused;
//! and offline commands leave nothing behind in an empty directory.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use praxis_api::examples;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, admin_token, describe, praxis, run, runtime, verify_clean};

/// Every capability a scoped example needs.
const WRITER: &[&str] = &[
    "policy_admin",
    "experience_write",
    "experience_report",
    "experience_read",
    "experience_evidence_admin",
    "record_submit",
    "record_review",
    "procedure_propose",
    "memory_read",
    "memory_write",
    "proposal_create",
];

/// Examples that need what this test does not set up: a promotion whose
/// outcome is unknown, and a second proposal.
const SKIPPED: &[&str] = &["resolve_proposal", "withdraw_proposal"];

/// One HTTP call: status and body.
async fn call(
    base: &str,
    method: Method,
    path: &str,
    token: &str,
    body: Option<&Value>,
    key: Option<&str>,
) -> (u16, String) {
    let mut req = reqwest::Client::new()
        .request(method, format!("{base}{path}"))
        .bearer_auth(token);
    if let Some(body) = body {
        req = req.json(body);
    }
    if let Some(key) = key {
        req = req.header("Idempotency-Key", key);
    }
    let answer = req.send().await.expect("request");
    (answer.status().as_u16(), answer.text().await.expect("body"))
}

/// The credentials and keyed write a populated store holds.
struct Populated {
    admin: String,
    writer: String,
    reviewer: String,
    revoked: String,
    rotated_old: String,
    rotated_new: String,
    doc: Value,
    ids: BTreeMap<&'static str, String>,
    keyed: (Value, String, u16, String),
}

fn example(doc: &Value, id: &str) -> (Method, String, Value) {
    let (method, path, op) = operation(doc, id);
    let body = op["requestBody"]["content"]["application/json"]["example"].clone();
    (method, path, body)
}

fn operation(doc: &Value, id: &str) -> (Method, String, Value) {
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if op["operationId"] == id {
                return (
                    method.to_uppercase().parse().unwrap(),
                    path.clone(),
                    op.clone(),
                );
            }
        }
    }
    panic!("no operation {id}");
}

/// An operation's path with its parameters' examples, `ids` overriding
/// what only exists once created.
fn filled(path: &str, op: &Value, ids: &BTreeMap<&str, String>) -> String {
    let mut path = path.to_owned();
    let mut query = Vec::new();
    for p in op["parameters"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap();
        let Some(example) = p.get("example") else {
            continue;
        };
        let text = match example {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let text = ids
            .iter()
            .find(|(prefix, _)| path.starts_with(**prefix))
            .filter(|_| p["in"] == "path")
            .map_or(text, |(_, id)| id.clone());
        match p["in"].as_str().unwrap() {
            "path" => path = path.replace(&format!("{{{name}}}"), &text),
            "query" => query.push(format!("{name}={}", text.replace(' ', "+"))),
            _ => {}
        }
    }
    if query.is_empty() {
        path
    } else {
        format!("{path}?{}", query.join("&"))
    }
}

async fn issue(base: &str, admin: &str, subject: &str, caps: &[&str]) -> Value {
    let body = json!({"capabilities": caps, "contract_version": 1,
        "expires_at": null, "grants": [examples::scope()], "subject": subject});
    let (status, text) = call(
        base,
        Method::POST,
        "/api/v1/credentials",
        admin,
        Some(&body),
        None,
    )
    .await;
    assert_eq!(status, 201, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// Writes every example in order, then a suppression, a rejection, a
/// rotated credential and a keyed write, on a live server.
async fn populate(base: &str, admin: &str) -> Populated {
    let doc: Value = reqwest::get(format!("{base}/openapi.json"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let writer = issue(base, admin, examples::learning::REPORTER, WRITER).await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let reviewer = issue(
        base,
        admin,
        "reviewer",
        &["record_review", "proposal_approve"],
    )
    .await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let evaluator = issue(
        base,
        admin,
        examples::procedures::EVALUATOR,
        &["procedure_evaluate"],
    )
    .await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut ids: BTreeMap<&'static str, String> = BTreeMap::new();
    let mut review = Value::Null;
    let mut revoked = String::new();
    for id in examples::ORDER.iter().filter(|id| !SKIPPED.contains(id)) {
        let (method, path, op) = operation(&doc, id);
        let mut body = op["requestBody"]["content"]["application/json"]["example"].clone();
        let path = filled(&path, &op, &ids);
        if *id == "approve_proposal" {
            body["version_hash"] = review["version_hash"].clone();
            body["destination_hash"] = review["destination_hash"].clone();
        }
        if *id == "discard_record" {
            // The example record is reviewed by now: its author discards a
            // fresh candidate of their own, which the copy must carry too.
            let (_, submit_path, submit) = operation(&doc, "submit");
            let mut draft = submit["requestBody"]["content"]["application/json"]["example"].clone();
            draft["source"] = json!({"key": examples::DISCARD_SOURCE_KEY});
            draft["record"] = examples::record(examples::DISCARD_SLUG);
            let (status, text) = call(
                base,
                Method::POST,
                &submit_path,
                &writer,
                Some(&draft),
                None,
            )
            .await;
            assert_eq!(status, 201, "{text}");
        }
        let token = if path.starts_with("/api/v1/credentials") {
            admin
        } else if ["/review", "/withdraw", "/approve"]
            .iter()
            .any(|e| path.ends_with(e))
        {
            &reviewer
        } else if path.ends_with("/learning/evaluations") {
            &evaluator
        } else {
            &writer
        };
        let (status, text) = call(base, method, &path, token, Some(&body), None).await;
        assert!((200..300).contains(&status), "{id}: {status} {text}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        match *id {
            "issue" => {
                ids.insert(
                    "/api/v1/credentials",
                    answer["credential"]["id"].as_str().unwrap().to_owned(),
                );
                revoked = answer["token"].as_str().unwrap().to_owned();
            }
            "rotate" => revoked = answer["token"].as_str().unwrap().to_owned(),
            "create_proposal" => {
                ids.insert(
                    "/api/v1/proposals/",
                    answer["proposal"]["id"].as_str().unwrap().to_owned(),
                );
            }
            "review_proposal" => review = answer,
            _ => {}
        }
    }
    // Two more verified negatives: the action is now suppressed.
    let (_, path, observe) = example(&doc, "observe");
    for case in ["incident-4801", "incident-4802"] {
        let mut body = observe.clone();
        body["outcome"]["case_id"] = json!(case);
        let (status, text) = call(base, Method::POST, &path, &writer, Some(&body), None).await;
        assert!((200..300).contains(&status), "{text}");
    }
    // A submission carrying a secret is kept as a rejection.
    let (_, path, submit) = example(&doc, "submit");
    let mut secret = submit.clone();
    secret["source"] = json!({"key": "leaky"});
    secret["record"]["title"] = json!("token ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf leaked");
    let (status, text) = call(base, Method::POST, &path, &writer, Some(&secret), None).await;
    assert!(status >= 400 || text.contains("reject"), "{status} {text}");
    // A credential that is rotated but not revoked.
    let other = issue(base, admin, "rotated", &["experience_read"]).await;
    let other_id = other["credential"]["id"].as_str().unwrap();
    let (status, text) = call(
        base,
        Method::POST,
        &format!("/api/v1/credentials/{other_id}/rotate"),
        admin,
        Some(&json!({"contract_version": 1})),
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let rotated_new = serde_json::from_str::<Value>(&text).unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    // A keyed write whose answer a retry must replay.
    let mut keyed = observe.clone();
    keyed["outcome"]["case_id"] = json!("incident-keyed");
    let (status, text) = call(
        base,
        Method::POST,
        "/api/v1/attempts",
        &writer,
        Some(&keyed),
        Some("migrate-keyed-0001"),
    )
    .await;
    assert!((200..300).contains(&status), "{text}");
    Populated {
        admin: admin.to_owned(),
        writer,
        reviewer,
        revoked,
        rotated_old: other["token"].as_str().unwrap().to_owned(),
        rotated_new,
        doc,
        ids,
        keyed: (keyed, "migrate-keyed-0001".into(), status, text),
    }
}

/// Every read this test compares across stores, by name.
async fn reads(base: &str, p: &Populated) -> BTreeMap<String, (u16, String)> {
    let scope = serde_json::to_value(examples::scope()).unwrap();
    let mut out = BTreeMap::new();
    for (path, item) in p.doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("get") else { continue };
        if !path.starts_with("/api/v1/") || path.starts_with("/api/v1/credentials") {
            continue;
        }
        let url = filled(path, op, &p.ids);
        out.insert(
            url.clone(),
            call(base, Method::GET, &url, &p.writer, None, None).await,
        );
    }
    out.insert(
        "credentials".into(),
        call(
            base,
            Method::GET,
            "/api/v1/credentials",
            &p.admin,
            None,
            None,
        )
        .await,
    );
    let posts = [
        (
            "assess",
            "/api/v1/attempts/assess",
            json!({"actions": ["restart-service", "drain-and-replace"], "contract_version": 1, "scope": scope, "subject": "host-17"}),
        ),
        (
            "memory",
            "/api/v1/memory/history",
            json!({"after": null, "contract_version": 1, "key": "bounded-inspection", "limit": 50, "scope": scope}),
        ),
        (
            "experience",
            "/api/v1/experiences/history",
            json!({"contract_version": 1, "scope": scope, "attempt_id": "dev-1"}),
        ),
    ];
    for (name, path, body) in posts {
        out.insert(
            name.to_owned(),
            call(base, Method::POST, path, &p.writer, Some(&body), None).await,
        );
    }
    out
}

/// Serves `store` with the original seal key and checks every read, the
/// credentials and the keyed retry.
fn check_served(
    rt: &tokio::runtime::Runtime,
    store_args: &[&str],
    seal: &Path,
    p: &Populated,
    before: &BTreeMap<String, (u16, String)>,
) {
    let mut args = store_args.to_vec();
    let seal = seal.display().to_string();
    args.extend(["--seal-key-file", &seal, "--tenant", "t1"]);
    let mut server = Server::start(&args);
    rt.block_on(served(&server.base, p, before, store_args));
    server.terminate();
}

async fn served(
    base: &str,
    p: &Populated,
    before: &BTreeMap<String, (u16, String)>,
    store_args: &[&str],
) {
    let after = reads(base, p).await;
    for (name, answer) in before {
        assert_eq!(
            Some(answer),
            after.get(name),
            "{name} differs after migration to {store_args:?}"
        );
    }
    let who = |t: &str| {
        let (base, t) = (base.to_owned(), t.to_owned());
        async move {
            call(&base, Method::GET, "/api/v1/capabilities", &t, None, None)
                .await
                .0
        }
    };
    assert_eq!(who(&p.reviewer).await, 200);
    assert_eq!(who(&p.rotated_new).await, 200);
    assert_eq!(who(&p.revoked).await, 401, "a revoked credential must fail");
    assert_eq!(
        who(&p.rotated_old).await,
        401,
        "a rotated-out token must fail"
    );
    let (body, key, status, text) = &p.keyed;
    let replay = call(
        base,
        Method::POST,
        "/api/v1/attempts",
        &p.writer,
        Some(body),
        Some(key),
    )
    .await;
    assert_eq!(
        (&replay.0, &replay.1),
        (status, text),
        "the keyed retry must replay its answer"
    );
}

fn migrate(from: &str, to: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["migrate", "--from", from, "--to", to];
    args.extend(extra);
    run(&args)
}

#[test]
fn a_round_trip_through_postgres_keeps_every_read() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let a_str = a.display().to_string();
    let rt = runtime();
    let mut server = Server::start(&["--data-dir", &a_str, "--tenant", "t1"]);
    let admin = admin_token(&a);
    let populated = rt.block_on(populate(&server.base, &admin));
    let before = rt.block_on(reads(&server.base, &populated));
    assert!(
        before["assess"].1.contains("suppress"),
        "{}",
        before["assess"].1
    );
    for (read, (status, text)) in &before {
        assert!(
            *status == 200 || read.starts_with("/api/v1/projects"),
            "{read}: {status} {text}"
        );
    }
    let history = before
        .iter()
        .find(|(k, _)| k.contains("/history") && k.contains("/records/"))
        .expect("a record history read");
    assert!(
        history.1.1.matches("\"revision\"").count() >= 3,
        "{}",
        history.1.1
    );
    server.terminate();
    // A second tenant, written offline.
    let out = run(&[
        "admin",
        "create-tenant",
        "--data-dir",
        &a_str,
        "--tenant",
        "t2",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let source = verify_clean(&["--data-dir", &a_str]);

    let pg = praxis_testkit::postgres_url();
    let out = migrate(&a_str, &pg, &["--batch", "7"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(verify_clean(&["--store", &pg]), source);
    let seal = a.join("seal-key");
    check_served(&rt, &["--store", &pg], &seal, &populated, &before);

    let b = tmp.path().join("b");
    let b_str = b.display().to_string();
    let out = migrate(&pg, &b_str, &[]);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(verify_clean(&["--data-dir", &b_str]), source);
    check_served(&rt, &["--data-dir", &b_str], &seal, &populated, &before);

    // A finished migration, and a store that is simply not empty, are refused.
    let again = migrate(&a_str, &pg, &[]);
    assert_eq!(again.status.code(), Some(1), "{}", describe(&again));
    assert!(String::from_utf8_lossy(&again.stderr).contains("finished migration"));
    let full = migrate(&b_str, &a_str, &[]);
    assert_eq!(full.status.code(), Some(1), "{}", describe(&full));
    assert!(
        String::from_utf8_lossy(&full.stderr).contains("not empty"),
        "{}",
        describe(&full)
    );
    let usage = run(&["migrate", "--from", &a_str]);
    assert_eq!(usage.status.code(), Some(2), "{}", describe(&usage));
}

/// A legacy store of `n` attempts for an offline import.
fn legacy_store(n: usize) -> Value {
    let records: Vec<Value> = (0..n)
        .map(|i| {
            json!({"outcome": {"action_id": format!("action-{}", i % 50), "action_revision": "r1",
                "case_id": format!("case-{i}"), "confidence": 950_000, "evidence_ids": ["e"],
                "hypothesis_id": "h", "observed_at": "2026-11-30T10:00:00Z", "rationale": "r",
                "stage": "active", "status": "confirmed_negative", "subject": format!("host-{}", i % 97),
                "verifier_rule_id": "v"}, "sequence": i})
        })
        .collect();
    json!({"next_sequence": n, "records": records})
}

/// Events in a PostgreSQL target, or 0 before its schema exists.
async fn pg_events(url: &str) -> i64 {
    let Ok((client, conn)) = tokio_postgres::connect(url, tokio_postgres::NoTls).await else {
        return 0;
    };
    tokio::spawn(conn);
    match client.query_one("SELECT count(*) FROM events", &[]).await {
        Ok(row) => row.get(0),
        Err(_) => 0,
    }
}

#[test]
fn a_killed_migration_resumes_to_an_identical_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let a_str = a.display().to_string();
    let out = run(&[
        "admin",
        "create-tenant",
        "--data-dir",
        &a_str,
        "--tenant",
        "default",
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let file = tmp.path().join("legacy.json");
    std::fs::write(&file, legacy_store(20_000).to_string()).unwrap();
    let file_str = file.display().to_string();
    let out = run(&[
        "attempts",
        "import",
        "--offline",
        "--data-dir",
        &a_str,
        "--project",
        "p",
        "--agent",
        "g",
        &file_str,
    ]);
    assert!(out.status.success(), "{}", describe(&out));
    let source = verify_clean(&["--data-dir", &a_str]);
    let rt = runtime();

    let pg = praxis_testkit::postgres_url();
    let mut child = praxis()
        .args(["migrate", "--from", &a_str, "--to", &pg, "--batch", "50"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_mins(1);
    let copied = loop {
        let n = rt.block_on(pg_events(&pg));
        if n > 0 || Instant::now() > deadline {
            break n;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = rt.block_on(pg_events(&pg));
    assert!(
        copied > 0 && at_kill < 20_001,
        "killed at {at_kill} events: not mid-copy"
    );
    // The target is not served while its migration is unfinished.
    let refused = Server::try_start(&[
        "--store",
        &pg,
        "--seal-key-file",
        &a.join("seal-key").display().to_string(),
    ]);
    assert!(refused.is_err(), "a half-migrated store must not be served");

    let out = migrate(&a_str, &pg, &["--batch", "50"]);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("resumed"), "{stdout}");
    assert_eq!(verify_clean(&["--store", &pg]), source);

    // And back, from PostgreSQL into SQLite, killed and resumed the same way.
    let b = tmp.path().join("b");
    let b_str = b.display().to_string();
    let mut child = praxis()
        .args(["migrate", "--from", &pg, "--to", &b_str, "--batch", "50"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let wal = b.join("praxis.db-wal");
    let deadline = Instant::now() + Duration::from_mins(1);
    while std::fs::metadata(&wal).map_or(0, |m| m.len()) < 1_000_000 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let out = migrate(&pg, &b_str, &["--batch", "50"]);
    assert!(out.status.success(), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("resumed"));
    assert_eq!(verify_clean(&["--data-dir", &b_str]), source);
}

#[test]
fn offline_commands_leave_no_store_in_an_empty_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let empty_str = empty.display().to_string();
    let file = tmp.path().join("legacy.json");
    std::fs::write(&file, legacy_store(3).to_string()).unwrap();
    let file_str = file.display().to_string();
    let commands: [&[&str]; 4] = [
        &[
            "attempts",
            "import",
            "--offline",
            "--data-dir",
            &empty_str,
            "--project",
            "p",
            "--agent",
            "g",
            &file_str,
        ],
        &["verify", "--data-dir", &empty_str],
        &["admin", "list", "--data-dir", &empty_str, "--tenant", "t"],
        &[
            "migrate",
            "--from",
            &tmp.path().join("missing").display().to_string(),
            "--to",
            &empty_str,
        ],
    ];
    for args in commands {
        let out = run(args);
        assert!(!out.status.success(), "{args:?}: {}", describe(&out));
        assert!(
            !empty.join("praxis.db").exists(),
            "{args:?} left a praxis.db behind"
        );
    }
    let fresh = tmp.path().join("fresh");
    let out = run(&[
        "migrate",
        "--from",
        &tmp.path().join("missing").display().to_string(),
        "--to",
        &fresh.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        !fresh.exists(),
        "a failed migration left its target directory behind"
    );
}
