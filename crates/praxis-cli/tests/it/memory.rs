//! `praxis memory …` run as a real process against `praxis serve` on each
//! store, through the checking proxy: create-only and compare-and-set with
//! the current revision printed on a conflict, get, search and history
//! pages, deletes; the typed client's memory calls; and the client config
//! file with the permissions Praxis demands of it and of token files.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use praxis_api::{CONTRACT_VERSION, MemoryPriority, Scope, SetMemoryRequest, Visibility};
use praxis_client::Client;
use praxis_testkit::{Backend, StoreLocation};
use serde_json::{Value, json};

use crate::support::{Server, describe, praxis, run_ok, runtime, verify_clean};

/// The project of every scope here.
const PROJECT: &str = "billing-service";
/// The agent of every scope here.
const AGENT: &str = "triage-bot";
/// The scope flags.
const SCOPE: [&str; 4] = ["--project", PROJECT, "--agent", AGENT];

/// Writes `text` to `path` with `mode`.
fn write_mode(path: &Path, text: &str, mode: u32) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The token an `admin` command printed on its last `prx_` line.
fn last_token(stdout: &str) -> String {
    stdout
        .lines()
        .rev()
        .find(|l| l.starts_with("prx_"))
        .unwrap_or_else(|| panic!("no token printed:\n{stdout}"))
        .to_owned()
}

/// A fresh store with tenant `default` and a `memory_read`/`memory_write`
/// credential for `triage-bot` issued offline, and `praxis serve` on it.
struct Fixture {
    _location: StoreLocation,
    _tmp: tempfile::TempDir,
    /// Where the commands run: token files, body files, config files.
    work: PathBuf,
    /// An empty `XDG_CONFIG_HOME`, so that no user's client config counts.
    xdg: PathBuf,
    /// Arguments naming the store to `praxis verify`.
    store_args: Vec<String>,
    /// The bot's token.
    token: String,
    server: Server,
}

impl Fixture {
    fn start(backend: Backend, serve_extra: &[&str]) -> Fixture {
        let location = StoreLocation::new(backend);
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        let xdg = tmp.path().join("xdg");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::create_dir_all(&xdg).unwrap();
        let store_args: Vec<String> = match backend {
            Backend::Sqlite => vec!["--data-dir".into(), location.store.clone()],
            Backend::Postgres => vec!["--store".into(), location.store.clone()],
        };
        let admin = |args: &[&str]| {
            let mut all: Vec<&str> = vec!["admin"];
            all.extend_from_slice(args);
            all.extend(store_args.iter().map(String::as_str));
            last_token(&run_ok(&all))
        };
        admin(&["create-tenant", "--tenant", "default"]);
        let grant = json!({
            "project_id": PROJECT,
            "mission_id": null,
            "agent_id": AGENT,
            "visibility": "shared",
        })
        .to_string();
        let token = admin(&[
            "issue",
            "--tenant",
            "default",
            "--subject",
            AGENT,
            "--capability",
            "memory_read",
            "--capability",
            "memory_write",
            "--grant",
            &grant,
        ]);
        write_mode(&work.join("bot-token"), &format!("{token}\n"), 0o600);
        let mut serve_args = store_args.clone();
        if backend == Backend::Postgres {
            // The seal key's directory.
            serve_args.push("--data-dir".into());
            serve_args.push(tmp.path().join("data").display().to_string());
        }
        let mut serve_args: Vec<&str> = serve_args.iter().map(String::as_str).collect();
        serve_args.extend_from_slice(serve_extra);
        let server = Server::start(&serve_args);
        Fixture {
            _location: location,
            _tmp: tmp,
            work,
            xdg,
            store_args,
            token,
            server,
        }
    }

    /// `praxis ARGS` in the work directory with nothing from the caller's
    /// environment: no `PRAXIS_URL`, token or client config, and an empty
    /// `XDG_CONFIG_HOME`.
    fn bare(&self, args: &[&str]) -> Command {
        let mut cmd = praxis();
        for var in [
            "PRAXIS_URL",
            "PRAXIS_TOKEN",
            "PRAXIS_TOKEN_FILE",
            "PRAXIS_CLIENT_CONFIG",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("XDG_CONFIG_HOME", &self.xdg)
            .current_dir(&self.work)
            .arg("--json")
            .args(args);
        cmd
    }

    /// `praxis ARGS` with `PRAXIS_URL` naming the server and
    /// `PRAXIS_TOKEN_FILE` the bot's token file.
    fn cmd(&self, args: &[&str]) -> Command {
        let mut cmd = self.bare(args);
        cmd.env("PRAXIS_URL", &self.server.base)
            .env("PRAXIS_TOKEN_FILE", "bot-token");
        cmd
    }

    /// Runs `praxis ARGS` as the bot.
    fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().expect("run praxis")
    }

    /// `praxis memory SUB` with the scope flags, then `rest`.
    fn memory_args<'a>(sub: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["memory", sub];
        args.extend_from_slice(&SCOPE);
        args.extend_from_slice(rest);
        args
    }

    /// `praxis memory SUB SCOPE REST` as the bot; must exit 0 and print
    /// one JSON document.
    fn json(&self, sub: &str, rest: &[&str]) -> Value {
        json_of(&self.run(&Fixture::memory_args(sub, rest)))
    }

    /// `praxis memory SUB SCOPE REST` as the bot; must be refused with
    /// `status` and `code`. Returns stderr.
    fn refused(&self, sub: &str, rest: &[&str], status: u16, code: &str) -> String {
        refused(&self.run(&Fixture::memory_args(sub, rest)), status, code)
    }

    /// A path in the work directory.
    fn file(&self, name: &str) -> PathBuf {
        self.work.join(name)
    }
}

/// A successful run's stdout as one JSON document.
fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", describe(out));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not one JSON document ({e}): {}", describe(out)))
}

/// A run that exited 1 with `praxis: STATUS CODE: …` first on stderr and
/// (these runs pass `--json`) the problem document on stdout; returns
/// stderr.
fn refused(out: &Output, status: u16, code: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{}", describe(out));
    assert!(
        stderr.starts_with(&format!("praxis: {status} {code}: ")),
        "not refused with {status} {code}: {}",
        describe(out)
    );
    let problem: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not the problem ({e}): {}", describe(out)));
    assert_eq!(
        (&problem["status"], &problem["code"]),
        (&json!(status), &json!(code))
    );
    stderr
}

/// A run that exited `exit` (1 a failure, 2 a usage error) before any
/// answer, saying `needle` on stderr.
fn failed(out: &Output, exit: i32, needle: &str) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(exit), "{}", describe(out));
    assert!(stderr.contains(needle), "no {needle:?}: {}", describe(out));
    assert!(out.stdout.is_empty(), "{}", describe(out));
    stderr
}

/// The `mrev_…` revision of a set's or get's answer.
fn revision(answer: &Value) -> String {
    let revision = answer["memory"]["revision"]
        .as_str()
        .unwrap_or_else(|| panic!("no revision in {answer}"))
        .to_owned();
    assert!(revision.starts_with("mrev_"), "{revision}");
    revision
}

/// Asserts that a conflict's stderr names `current` to retry with.
fn names_current(stderr: &str, current: &str) {
    assert!(
        stderr
            .lines()
            .any(|l| l == format!("current_revision: {current}")),
        "no current_revision line for {current}:\n{stderr}"
    );
    assert!(
        stderr.contains(&format!("--expected-revision {current}")),
        "{stderr}"
    );
}

/// Set, get, search, history and delete through the binary, with every
/// refusal a user meets on the way.
fn items(f: &Fixture) {
    // Create-only.
    let created = f.json(
        "set",
        &[
            "deploy.notes",
            "--summary",
            "How billing deploys",
            "--body",
            "Deploy with the blue green switch; rollback takes five minutes.",
            "--tag",
            "runbook",
            "--tag",
            "deploy",
        ],
    );
    assert_eq!(created["state_changed"], true, "{created}");
    let memory = &created["memory"];
    assert_eq!(memory["key"], "deploy.notes");
    assert_eq!(memory["tags"], json!(["deploy", "runbook"]));
    assert_eq!(memory["priority"], "normal");
    assert_eq!(memory["bootstrap"], false);
    let r1 = revision(&created);

    // The identical create is a no-op at the same revision.
    let again = f.json(
        "set",
        &[
            "deploy.notes",
            "--summary",
            "How billing deploys",
            "--body",
            "Deploy with the blue green switch; rollback takes five minutes.",
            "--tag",
            "deploy",
            "--tag",
            "runbook",
        ],
    );
    assert_eq!(again["state_changed"], false);
    assert_eq!(revision(&again), r1);

    // Another definition, create-only: the code and the revision to retry with.
    let stderr = f.refused(
        "set",
        &["deploy.notes", "--summary", "Changed", "--body", "new text"],
        409,
        "expected_revision_required",
    );
    names_current(&stderr, &r1);

    // Retried with it, the body from a file: a new revision.
    std::fs::write(
        f.file("body.txt"),
        "Deploy with the canary first.\nRollback takes two minutes.\n",
    )
    .unwrap();
    let updated = f.json(
        "set",
        &[
            "deploy.notes",
            "--summary",
            "How billing deploys now",
            "--body-file",
            "body.txt",
            "--tag",
            "runbook",
            "--priority",
            "high",
            "--expected-revision",
            &r1,
        ],
    );
    assert_eq!(updated["state_changed"], true);
    assert_eq!(
        updated["memory"]["body"],
        "Deploy with the canary first.\nRollback takes two minutes.\n"
    );
    assert_eq!(updated["memory"]["priority"], "high");
    let r2 = revision(&updated);
    assert_ne!(r1, r2);

    // The stale revision: memory_changed, naming the current one.
    let stderr = f.refused(
        "set",
        &[
            "deploy.notes",
            "--summary",
            "Stale",
            "--body",
            "x",
            "--expected-revision",
            &r1,
        ],
        409,
        "memory_changed",
    );
    names_current(&stderr, &r2);

    // A second item, its body from stdin.
    let out = f
        .cmd(&Fixture::memory_args(
            "set",
            &[
                "pool.restart",
                "--summary",
                "Restarting the connection pool",
                "--body",
                "-",
                "--tag",
                "runbook",
                "--bootstrap",
                "--priority",
                "low",
            ],
        ))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"Drain, restart, then check the rollback queue.")?;
            child.wait_with_output()
        })
        .unwrap();
    let pool = json_of(&out);
    assert_eq!(
        pool["memory"]["body"],
        "Drain, restart, then check the rollback queue."
    );
    assert_eq!(pool["memory"]["bootstrap"], true);
    assert_eq!(pool["memory"]["priority"], "low");

    // Get answers the item as the last set left it.
    let got = f.json("get", &["deploy.notes"]);
    assert_eq!(got["memory"], updated["memory"]);
    f.refused("get", &["no.such.key"], 404, "memory_not_found");

    // Search: every word must occur; results by key, with their summaries.
    let found = f.json("search", &["rollback runbook"]);
    let keys: Vec<&str> = found["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["deploy.notes", "pool.restart"], "{found}");
    assert_eq!(found["results"][0]["matched"], json!(["body", "tags"]));
    assert_eq!(found["results"][0].get("body"), None, "{found}");
    assert_eq!(found["next"], Value::Null);
    let canary = f.json("search", &["canary"]);
    assert_eq!(canary["results"].as_array().unwrap().len(), 1);
    // Pages: the first holds one item and names the next.
    let first = f.json("search", &["--limit", "1"]);
    assert_eq!(first["results"][0]["key"], "deploy.notes");
    assert_eq!(first["next"], "deploy.notes");
    let rest = f.json("search", &["", "--after", "deploy.notes", "--limit", "1"]);
    assert_eq!(rest["results"][0]["key"], "pool.restart");
    f.refused("search", &["x", "--limit", "0"], 422, "invalid_field");

    // History, paged.
    let history = f.json("history", &["deploy.notes"]);
    let changes = history["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{history}");
    assert_eq!(changes[0]["revision"], r1.as_str());
    assert_eq!(changes[1]["revision"], r2.as_str());
    assert_eq!(history["next"], Value::Null);
    let page = f.json("history", &["deploy.notes", "--limit", "1"]);
    assert_eq!(page["changes"][0], changes[0]);
    let after = page["next"].as_u64().expect("a next position").to_string();
    let page = f.json("history", &["deploy.notes", "--after", &after]);
    assert_eq!(page["changes"], json!([changes[1]]));

    // Delete: at the current revision only; the history keeps it all.
    let stderr = f.refused(
        "delete",
        &["deploy.notes", "--expected-revision", &r1],
        409,
        "memory_changed",
    );
    names_current(&stderr, &r2);
    let deleted = f.json("delete", &["deploy.notes", "--expected-revision", &r2]);
    assert_eq!(deleted["key"], "deploy.notes");
    assert_eq!(deleted["change"]["kind"], "delete");
    assert_eq!(deleted["change"]["revision"], r2.as_str());
    f.refused("get", &["deploy.notes"], 404, "memory_not_found");
    f.refused(
        "delete",
        &["deploy.notes", "--expected-revision", &r2],
        404,
        "memory_not_found",
    );
    let history = f.json("history", &["deploy.notes"]);
    let kinds: Vec<&str> = history["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["set", "set", "delete"]);

    // Screening names the rule and the field, never the value.
    let secret = "ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf";
    let body = format!("token {secret}");
    let stderr = f.refused(
        "set",
        &["leak", "--summary", "s", "--body", &body],
        422,
        "memory_invalid",
    );
    assert!(stderr.contains("\n  /body "), "{stderr}");
    assert!(!stderr.contains(secret), "{stderr}");
    f.refused(
        "set",
        &["../etc", "--summary", "s", "--body", "b"],
        422,
        "invalid_field",
    );

    // A scope the credential holds no grant for.
    let out = f.run(&[
        "memory",
        "get",
        "pool.restart",
        "--project",
        "other",
        "--agent",
        AGENT,
    ]);
    refused(&out, 403, "missing_grant");
}

/// The typed client: a retried write with one idempotency key replays the
/// first answer, and a conflict carries the current revision.
fn typed_client(f: &Fixture) {
    let scope = Scope {
        project_id: PROJECT.into(),
        mission_id: None,
        agent_id: AGENT.into(),
        visibility: Visibility::Shared,
    };
    let client = Client::new(&f.server.base).with_token(&f.token);
    let set = |summary: &str, expected: Option<String>| SetMemoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.clone(),
        key: "client.note".into(),
        summary: summary.into(),
        body: "written by the typed client".into(),
        tags: vec![],
        priority: MemoryPriority::Normal,
        bootstrap: false,
        expected_revision: expected,
    };
    runtime().block_on(async {
        let created = client.set_memory(&set("first", None)).await.unwrap();
        let r1 = created.memory.revision.clone();
        let conflict = client.set_memory(&set("second", None)).await.unwrap_err();
        assert_eq!(conflict.code(), Some("expected_revision_required"));
        assert_eq!(
            conflict.current_revision(),
            Some(&praxis_api::CurrentRevision::Text(r1.clone()))
        );
        let once = client.with_idempotency_key("client-note-update-0001");
        let updated = once
            .set_memory(&set("second", Some(r1.clone())))
            .await
            .unwrap();
        // The same write again: the first answer, not a stale revision.
        let replayed = once
            .set_memory(&set("second", Some(r1.clone())))
            .await
            .unwrap();
        assert_eq!(replayed, updated);
        let got = client
            .get_memory(&praxis_api::GetMemoryRequest {
                contract_version: CONTRACT_VERSION,
                scope: scope.clone(),
                key: "client.note".into(),
            })
            .await
            .unwrap();
        assert_eq!(got.memory, updated.memory);
        let found = client
            .search_memory(&praxis_api::SearchMemoryRequest {
                contract_version: CONTRACT_VERSION,
                scope: scope.clone(),
                query: "typed client".into(),
                after: None,
                limit: None,
            })
            .await
            .unwrap();
        assert_eq!(found.results.len(), 1);
        let history = client
            .memory_history(&praxis_api::MemoryHistoryRequest {
                contract_version: CONTRACT_VERSION,
                scope: scope.clone(),
                key: "client.note".into(),
                after: None,
                limit: None,
            })
            .await
            .unwrap();
        assert_eq!(history.changes.len(), 2);
        let delete = praxis_api::DeleteMemoryRequest {
            contract_version: CONTRACT_VERSION,
            scope: scope.clone(),
            key: "client.note".into(),
            expected_revision: r1,
        };
        let stale = client.delete_memory(&delete).await.unwrap_err();
        assert_eq!(stale.code(), Some("memory_changed"));
        let deleted = client
            .delete_memory(&praxis_api::DeleteMemoryRequest {
                expected_revision: updated.memory.revision.clone(),
                ..delete
            })
            .await
            .unwrap();
        assert_eq!(deleted.change.revision, updated.memory.revision);
    });
}

/// The whole walk on one store, then `praxis verify` on it.
fn walk(backend: Backend) {
    let mut f = Fixture::start(backend, &[]);
    items(&f);
    typed_client(&f);
    let status = f.server.terminate();
    assert!(status.success(), "SIGTERM exit {status}");
    let args: Vec<&str> = f.store_args.iter().map(String::as_str).collect();
    verify_clean(&args);
}

#[test]
fn memory_from_the_cli_on_sqlite() {
    walk(Backend::Sqlite);
}

#[test]
fn memory_from_the_cli_on_postgres() {
    walk(Backend::Postgres);
}

/// Token files that group or others may access are refused by every remote
/// command, naming the file and the fix; a 0600 one is accepted.
#[test]
fn token_files_others_can_read_are_refused() {
    let f = Fixture::start(Backend::Sqlite, &[]);
    let token = format!("{}\n", f.token);
    for mode in [0o644, 0o640, 0o604] {
        write_mode(&f.file("open-token"), &token, mode);
        let path = f.file("open-token").display().to_string();
        for args in [
            Fixture::memory_args("search", &["--token-file", &path]),
            vec!["learning", "policy", "show", "p", "--token-file", &path],
            vec![
                "attempts",
                "counts",
                "--project",
                PROJECT,
                "--agent",
                AGENT,
                "--token-file",
                &path,
            ],
        ] {
            let stderr = failed(&f.run(&args), 1, "chmod 600");
            assert!(
                stderr.starts_with(&format!("praxis: refusing the token file {path}")),
                "{mode:o} {args:?}: {stderr}"
            );
            assert!(!stderr.contains(&f.token), "{stderr}");
        }
    }
    write_mode(&f.file("open-token"), &token, 0o600);
    let path = f.file("open-token").display().to_string();
    let found = f.json("search", &["--token-file", &path]);
    assert_eq!(found["results"], json!([]));
}

/// A client config file supplies the server, the token file and the scope;
/// flags and environment override it; a config file others may write, and
/// a token file it names that others may read, are refused; the default
/// location is read when it exists.
#[test]
fn a_client_config_supplies_url_project_and_token_file() {
    let mut f = Fixture::start(Backend::Sqlite, &["--memory-max-per-scope", "1"]);
    let config = f.file("client.toml");
    let text = format!(
        "url = \"{}\"\ntoken_file = \"bot-token\"\nproject = \"{PROJECT}\"\nagent = \"{AGENT}\"\n",
        f.server.base
    );
    write_mode(&config, &text, 0o644);
    let path = config.display().to_string();

    // Everything from the file: no URL, token, or scope flag.
    let created = json_of(
        &f.bare(&[
            "memory",
            "set",
            "from.config",
            "--client-config",
            &path,
            "--summary",
            "Set through the client config",
            "--body",
            "b",
        ])
        .output()
        .unwrap(),
    );
    assert_eq!(created["state_changed"], true);
    let got = json_of(
        &f.bare(&["memory", "get", "from.config"])
            .env("PRAXIS_CLIENT_CONFIG", &config)
            .output()
            .unwrap(),
    );
    assert_eq!(got["memory"], created["memory"]);

    // The scope is capped at one item: a second create is memory_full.
    let out = f
        .bare(&["memory", "set", "second", "--summary", "s", "--body", "b"])
        .env("PRAXIS_CLIENT_CONFIG", &config)
        .output()
        .unwrap();
    refused(&out, 507, "memory_full");

    // Flags override the file: another project is another scope.
    let out = f
        .bare(&["memory", "get", "from.config", "--project", "other"])
        .env("PRAXIS_CLIENT_CONFIG", &config)
        .output()
        .unwrap();
    refused(&out, 403, "missing_grant");
    // ... and the environment overrides it too: a URL nothing listens on.
    let out = f
        .bare(&["memory", "get", "from.config"])
        .env("PRAXIS_CLIENT_CONFIG", &config)
        .env("PRAXIS_URL", "http://127.0.0.1:9")
        .output()
        .unwrap();
    failed(&out, 1, "transport");

    // The default location, found through XDG_CONFIG_HOME.
    std::fs::create_dir_all(f.xdg.join("praxis")).unwrap();
    let default = f.xdg.join("praxis/client.toml");
    let absolute = format!(
        "url = \"{}\"\ntoken_file = \"{}\"\nproject = \"{PROJECT}\"\nagent = \"{AGENT}\"\n",
        f.server.base,
        f.file("bot-token").display()
    );
    write_mode(&default, &absolute, 0o600);
    let found = json_of(&f.bare(&["memory", "search"]).output().unwrap());
    assert_eq!(found["results"][0]["key"], "from.config");

    // No project from anywhere: said before any request.
    std::fs::remove_file(&default).unwrap();
    let out = f
        .bare(&["memory", "search", "--url", &f.server.base])
        .args(["--token-file", "bot-token", "--agent", AGENT])
        .output()
        .unwrap();
    failed(&out, 2, "give the project with --project");

    // Unknown keys are refused.
    write_mode(
        &f.file("bad.toml"),
        "url = \"x\"\ntoken = \"prx_\"\n",
        0o600,
    );
    let out = f
        .bare(&["memory", "search", "--client-config", "bad.toml"])
        .output()
        .unwrap();
    failed(&out, 1, "unknown field `token`");

    // A config file group or others may write is refused.
    for mode in [0o666, 0o664, 0o646] {
        std::fs::set_permissions(&config, std::fs::Permissions::from_mode(mode)).unwrap();
        let out = f
            .bare(&["memory", "search", "--client-config", &path])
            .output()
            .unwrap();
        let stderr = failed(&out, 1, "chmod 600");
        assert!(
            stderr.starts_with(&format!("praxis: refusing the client config {path}")),
            "{stderr}"
        );
    }
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();

    // The token file it names, readable by others, is refused; made
    // private, it is accepted.
    let token_file = f.file("bot-token");
    std::fs::set_permissions(&token_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = f
        .bare(&["memory", "search", "--client-config", &path])
        .output()
        .unwrap();
    let stderr = failed(&out, 1, "chmod 600");
    assert!(
        stderr.contains(&token_file.display().to_string()),
        "{stderr}"
    );
    std::fs::set_permissions(&token_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let found = json_of(
        &f.bare(&["memory", "search", "--client-config", &path])
            .output()
            .unwrap(),
    );
    assert_eq!(found["results"][0]["key"], "from.config");

    let status = f.server.terminate();
    assert!(status.success(), "SIGTERM exit {status}");
}
