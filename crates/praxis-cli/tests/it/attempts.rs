//! `praxis attempts …` run as a real process: over HTTP against `praxis
//! serve`, and offline on a store for imports and exports.

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::support::{Server, describe, praxis, run, run_ok, verify_clean};

/// The string form of a path, for command arguments.
fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

/// The grant of the exact scope project `p`, null mission, `agent`, shared.
fn grant(agent: &str) -> String {
    json!({
        "project_id": "p",
        "mission_id": null,
        "agent_id": agent,
        "visibility": "shared",
    })
    .to_string()
}

/// A `praxis` command that also ignores the caller's `PRAXIS_URL`,
/// `PRAXIS_TOKEN` and `PRAXIS_TOKEN_FILE`, so that only what a test passes counts.
fn isolated() -> Command {
    let mut cmd = praxis();
    for var in ["PRAXIS_URL", "PRAXIS_TOKEN", "PRAXIS_TOKEN_FILE"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs a command to completion.
fn output(mut cmd: Command) -> Output {
    cmd.output().expect("run praxis")
}

/// Requires a successful exit and returns stdout.
fn stdout_ok(out: Output, what: &str) -> String {
    assert!(out.status.success(), "{what} failed: {}", describe(&out));
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// Parses a command's whole stdout as one JSON value.
fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
}

/// Reads a JSON file.
fn read_json(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    json_of(&text)
}

/// Writes a JSON value to a file.
fn write_json(path: &Path, value: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// A conclusive false-positive outcome of `action` on `subject`.
fn rejected(case: &str, subject: &str, action: &str) -> Value {
    json!({
        "case_id": case,
        "subject": subject,
        "action_id": action,
        "hypothesis_id": format!("hyp-{action}"),
        "verifier_rule_id": "rule-1",
        "stage": "active",
        "status": "false_positive",
        "confidence": 900_000,
        "rationale": "the verifier rejected it",
        "evidence_ids": ["ev-1"],
    })
}

/// A server over a fresh data directory, with a credential for agents `a`
/// and `b` of project `p` issued offline before the server started.
struct Fixture {
    _tmp: tempfile::TempDir,
    data: std::path::PathBuf,
    work: std::path::PathBuf,
    server: Server,
    token: String,
    token_file: std::path::PathBuf,
}

impl Fixture {
    /// Creates tenant `default`, issues the credential, starts `praxis serve`.
    fn start() -> Fixture {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let work = tmp.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        let d = s(&data);
        run_ok(&[
            "admin",
            "create-tenant",
            "--data-dir",
            d,
            "--tenant",
            "default",
        ]);
        let (ga, gb) = (grant("a"), grant("b"));
        let out = run_ok(&[
            "admin",
            "issue",
            "--data-dir",
            d,
            "--tenant",
            "default",
            "--subject",
            "planner",
            "--capability",
            "experience_write",
            "--capability",
            "experience_read",
            "--capability",
            "policy_admin",
            "--capability",
            "experience_evidence_admin",
            "--grant",
            &ga,
            "--grant",
            &gb,
        ]);
        let token = out
            .lines()
            .rev()
            .find(|l| l.starts_with("prx_"))
            .unwrap_or_else(|| panic!("no token printed:\n{out}"))
            .to_owned();
        let token_file = work.join("token");
        std::fs::write(&token_file, format!("{token}\n")).unwrap();
        // Private, as the CLI demands of a token file.
        std::fs::set_permissions(&token_file, std::fs::Permissions::from_mode(0o600)).unwrap();
        let server = Server::start(&["--data-dir", d]);
        Fixture {
            _tmp: tmp,
            data,
            work,
            server,
            token,
            token_file,
        }
    }

    /// `praxis attempts SUB --url … --token-file … ARGS`.
    fn cmd(&self, sub: &str, args: &[&str]) -> Command {
        let mut cmd = isolated();
        cmd.args(["--json", "attempts", sub, "--url", &self.server.base])
            .arg("--token-file")
            .arg(&self.token_file)
            .args(args);
        cmd
    }

    /// Runs `praxis attempts SUB` with the token file.
    fn run(&self, sub: &str, args: &[&str]) -> Output {
        output(self.cmd(sub, args))
    }

    /// Runs `praxis attempts SUB` with the token file; must exit 0.
    fn ok(&self, sub: &str, args: &[&str]) -> String {
        stdout_ok(self.run(sub, args), &format!("attempts {sub} {args:?}"))
    }

    /// A path in the scratch directory.
    fn file(&self, name: &str) -> std::path::PathBuf {
        self.work.join(name)
    }
}

/// The agent `a` scope flags.
const SCOPE_A: [&str; 4] = ["--project", "p", "--agent", "a"];
/// The agent `b` scope flags.
const SCOPE_B: [&str; 4] = ["--project", "p", "--agent", "b"];

/// Concatenates flag lists.
fn with(scope: &[&str], rest: &[&str]) -> Vec<String> {
    scope.iter().chain(rest).map(|s| (*s).to_owned()).collect()
}

/// Borrowed view of owned arguments.
fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The count of `disposition` in a `counts` answer.
fn count_of(counts: &Value, disposition: &str) -> u64 {
    counts["counts"][disposition]
        .as_u64()
        .unwrap_or_else(|| panic!("no count of {disposition}: {counts}"))
}

/// Over HTTP: policy, observe, assess, counts, history, export, import (good and bad); offline exports then match.
#[test]
fn attempts_over_http_suppress_count_export_and_import() {
    let mut fx = Fixture::start();

    // Policy: set with --limit, then read back.
    let set = json_of(&fx.ok("policy", &refs(&with(&SCOPE_A, &["--limit", "2"]))));
    assert_eq!(set["consecutive_failure_limit"], 2, "{set}");
    assert_eq!(set["streak_key"], "action", "{set}");
    assert_eq!(set["reexplore"], Value::Null, "{set}");
    let shown = json_of(&fx.ok("policy", &SCOPE_A));
    assert_eq!(shown, set);

    // Two rejected cases of action A on subject S.
    let (c1, c2) = (fx.file("c1.json"), fx.file("c2.json"));
    write_json(&c1, &rejected("case-1", "S", "A"));
    write_json(&c2, &rejected("case-2", "S", "A"));
    let first = json_of(&fx.ok("observe", &refs(&with(&SCOPE_A, &[s(&c1)]))));
    assert_eq!(first["write"], "inserted", "{first}");
    assert_eq!(
        first["record"]["disposition"], "verification_rejected",
        "{first}"
    );
    assert_eq!(first["record"]["outcome"], rejected("case-1", "S", "A"));
    // The second one authenticates through PRAXIS_TOKEN instead of a file.
    let mut second = isolated();
    second
        .args(["attempts", "observe", "--json", "--url", &fx.server.base])
        .args(SCOPE_A)
        .arg(&c2)
        .env("PRAXIS_TOKEN", &fx.token);
    let second = json_of(&stdout_ok(output(second), "observe with PRAXIS_TOKEN"));
    assert_eq!(second["write"], "inserted", "{second}");
    assert_eq!(second["record"]["outcome"]["case_id"], "case-2");
    // Observing the same outcome again writes nothing.
    let again = json_of(&fx.ok("observe", &refs(&with(&SCOPE_A, &[s(&c1)]))));
    assert_eq!(again["write"], "unchanged", "{again}");
    assert_eq!(again["record"], first["record"]);

    // A is suppressed at the limit; B was never tried.
    let assess = json_of(&fx.ok(
        "assess",
        &refs(&with(
            &SCOPE_A,
            &["--subject", "S", "--action", "A", "--action", "B"],
        )),
    ));
    let list = assess["assessments"].as_array().expect("assessments");
    assert_eq!(list.len(), 2, "{assess}");
    assert_eq!(list[0]["action_id"], "A");
    assert_eq!(list[0]["recommendation"], "suppress", "{assess}");
    assert_eq!(list[0]["consecutive_failures"], 2, "{assess}");
    assert_eq!(list[0]["limit"], 2, "{assess}");
    assert_eq!(list[0]["last_disposition"], "verification_rejected");
    assert_eq!(list[1]["action_id"], "B");
    assert_eq!(list[1]["recommendation"], "explore", "{assess}");
    assert_eq!(list[1]["completed_attempts"], 0, "{assess}");

    // Counts list every disposition; only the two rejections are non-zero.
    let counts = json_of(&fx.ok("counts", &SCOPE_A));
    assert_eq!(count_of(&counts, "verification_rejected"), 2, "{counts}");
    assert_eq!(counts["total"], 2, "{counts}");
    assert_eq!(
        counts["counts"].as_object().unwrap().len(),
        9,
        "every disposition is listed: {counts}"
    );
    let by_pair = json_of(&fx.ok(
        "counts",
        &refs(&with(&SCOPE_A, &["--subject", "S", "--action", "B"])),
    ));
    assert_eq!(by_pair["total"], 0, "{by_pair}");

    // History: one JSON line per record, in sequence order.
    let history = fx.ok("history", &refs(&with(&SCOPE_A, &["--subject", "S"])));
    let lines: Vec<Value> = history.lines().map(json_of).collect();
    assert_eq!(lines.len(), 2, "{history}");
    assert_eq!(lines[0]["outcome"]["case_id"], "case-1");
    assert_eq!(lines[1]["outcome"]["case_id"], "case-2");
    assert!(lines[0]["sequence"].as_u64() < lines[1]["sequence"].as_u64());
    for line in &lines {
        assert_eq!(line["disposition"], "verification_rejected", "{line}");
        assert_eq!(line["digest"].as_str().map(str::len), Some(64), "{line}");
    }
    assert_eq!(lines[0], first["record"]);
    let none = fx.ok(
        "history",
        &refs(&with(&SCOPE_A, &["--subject", "S", "--action", "B"])),
    );
    assert_eq!(none, "", "no record of B");

    // Export: a legacy store, renumbered from 0, every disposition explicit.
    let exported = fx.file("export-a.json");
    let printed = fx.ok(
        "export",
        &refs(&with(&SCOPE_A, &["--output", s(&exported)])),
    );
    assert_eq!(printed, "", "--output writes nothing to stdout");
    let store = read_json(&exported);
    assert_eq!(
        store,
        json!({
            "next_sequence": 2,
            "records": [
                {
                    "sequence": 0,
                    "outcome": rejected("case-1", "S", "A"),
                    "disposition": "verification_rejected",
                },
                {
                    "sequence": 1,
                    "outcome": rejected("case-2", "S", "A"),
                    "disposition": "verification_rejected",
                },
            ],
        })
    );
    // Without --output the same store goes to stdout.
    assert_eq!(json_of(&fx.ok("export", &SCOPE_A)), store);

    // Import into agent b; a second import changes nothing.
    let out = json_of(&fx.ok("import", &refs(&with(&SCOPE_B, &[s(&exported)]))));
    assert_eq!(
        (&out["inserted"], &out["unchanged"]),
        (&json!(2), &json!(0)),
        "{out}"
    );
    let out = json_of(&fx.ok("import", &refs(&with(&SCOPE_B, &[s(&exported)]))));
    assert_eq!(
        (&out["inserted"], &out["unchanged"]),
        (&json!(0), &json!(2)),
        "{out}"
    );
    assert_eq!(json_of(&fx.ok("export", &SCOPE_B)), store);
    // Agent b has the default policy (limit 10), so A may continue there.
    let assess_b = json_of(&fx.ok(
        "assess",
        &refs(&with(&SCOPE_B, &["--subject", "S", "--action", "A"])),
    ));
    assert_eq!(
        assess_b["assessments"][0]["recommendation"], "continue",
        "{assess_b}"
    );
    assert_eq!(assess_b["assessments"][0]["limit"], 10, "{assess_b}");

    // A sequence gap is refused with the field's path; nothing is imported.
    let mut gap = store.clone();
    gap["records"][1]["sequence"] = json!(5);
    gap["records"][1]["outcome"]["case_id"] = json!("case-3");
    let gap_file = fx.file("gap.json");
    write_json(&gap_file, &gap);
    let refused = fx.run("import", &refs(&with(&SCOPE_B, &[s(&gap_file)])));
    assert!(!refused.status.success(), "{}", describe(&refused));
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("/store/records/1/sequence") && stderr.contains("sequence_mismatch"),
        "stderr must name the field: {}",
        describe(&refused)
    );
    assert!(refused.stdout.is_empty(), "{}", describe(&refused));
    let counts_b = json_of(&fx.ok("counts", &SCOPE_B));
    assert_eq!(counts_b["total"], 2, "a refused import wrote: {counts_b}");

    // A scope without a grant is refused.
    let denied = fx.run("counts", &["--project", "p", "--agent", "c"]);
    assert!(!denied.status.success(), "{}", describe(&denied));

    // Offline access is refused while the server holds the SQLite store.
    let busy = output({
        let mut cmd = isolated();
        cmd.args(["attempts", "export", "--offline", "--data-dir", s(&fx.data)])
            .args(SCOPE_A);
        cmd
    });
    assert!(!busy.status.success(), "{}", describe(&busy));
    assert!(
        String::from_utf8_lossy(&busy.stderr).contains("in use"),
        "{}",
        describe(&busy)
    );

    let status = fx.server.terminate();
    assert!(status.success(), "SIGTERM exit {status}");

    // Offline exports of both scopes equal the HTTP export.
    for scope in [SCOPE_A, SCOPE_B] {
        let args = with(
            &["attempts", "export", "--offline", "--data-dir", s(&fx.data)],
            &scope,
        );
        let offline = json_of(&run_ok(&refs(&args)));
        assert_eq!(offline, store, "{scope:?}");
    }
    let counts = verify_clean(&["--data-dir", s(&fx.data)]);
    assert_eq!((counts.tenants, counts.credentials), (1, 2), "{counts:?}");
}

/// A varied legacy store, already in export form (explicit dispositions,
/// canonical timestamps), so that an export must reproduce it exactly.
fn varied_store() -> Value {
    let mut passive_success = rejected("case-1", "host-1", "probe");
    passive_success["stage"] = json!("passive");
    passive_success["status"] = json!("success");
    passive_success["action_revision"] = json!("v1");
    passive_success["observed_at"] = json!("2026-01-02T03:04:05.123456Z");
    let transport = json!({
        "case_id": "case-2",
        "subject": "host-1",
        "action_id": "probe",
        "hypothesis_id": "hyp-probe",
        "verifier_rule_id": null,
        "stage": "active",
        "status": "unknown",
        "confidence": 0,
        "rationale": "the connection was reset",
        "evidence_ids": [],
    });
    let mut negative = rejected("case-3", "host-2", "login");
    negative["status"] = json!("confirmed_negative");
    negative["evidence_ids"] = json!(["ev-2", "ev-3"]);
    let mut blocked = rejected("case-4", "host-2", "login");
    blocked["status"] = json!("blocked");
    let records: Vec<Value> = [
        (passive_success, "confirmed_positive"),
        (transport, "transport_failure"),
        (rejected("case-1", "host-1", "probe"), "verification_rejected"),
        (negative, "confirmed_negative"),
        (blocked, "blocked_by_target"),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (outcome, disposition))| {
        json!({ "sequence": i, "outcome": outcome, "disposition": disposition })
    })
    .collect();
    json!({ "next_sequence": records.len(), "records": records })
}

/// Offline import then export reproduce the file exactly, bad files are refused, and the store verifies.
#[test]
fn offline_import_and_export_round_trip_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let d = s(&data);
    run_ok(&[
        "admin",
        "create-tenant",
        "--data-dir",
        d,
        "--tenant",
        "default",
    ]);
    let offline = |sub: &str, rest: &[&str]| -> Vec<String> {
        let base = [
            "attempts",
            sub,
            "--offline",
            "--data-dir",
            d,
            "--tenant",
            "default",
            "--project",
            "p",
            "--agent",
            "a",
        ];
        with(&base, rest)
    };

    let store = varied_store();
    let file = tmp.path().join("store.json");
    write_json(&file, &store);
    let out = run_ok(&refs(&offline("import", &[s(&file)])));
    assert_eq!(out.trim(), "imported 5 records (0 unchanged)", "{out}");

    let exported = tmp.path().join("export.json");
    let printed = run_ok(&refs(&offline("export", &["--output", s(&exported)])));
    assert_eq!(printed, "");
    assert_eq!(
        read_json(&exported),
        store,
        "the export differs from the import"
    );
    let stdout = run_ok(&refs(&offline("export", &[])));
    assert_eq!(json_of(&stdout), store);

    // Importing the export again changes nothing.
    let out = run_ok(&refs(&offline("import", &[s(&exported)])));
    assert_eq!(out.trim(), "imported 0 records (5 unchanged)", "{out}");

    // A sequence gap: refused, the problem's path on stderr, nothing written.
    let mut gap = store.clone();
    gap["records"][2]["sequence"] = json!(7);
    let gap_file = tmp.path().join("gap.json");
    write_json(&gap_file, &gap);
    let refused = run(&refs(&offline("import", &[s(&gap_file)])));
    assert_eq!(refused.status.code(), Some(1), "{}", describe(&refused));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("/records/2/sequence") && stderr.contains("sequence_mismatch"),
        "{}",
        describe(&refused)
    );

    // Another tenant does not exist: refused before anything is written.
    let missing = run(&[
        "attempts",
        "import",
        "--offline",
        "--data-dir",
        d,
        "--tenant",
        "nobody",
        "--project",
        "p",
        "--agent",
        "a",
        s(&file),
    ]);
    assert!(!missing.status.success(), "{}", describe(&missing));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("does not exist"),
        "{}",
        describe(&missing)
    );

    assert_eq!(json_of(&run_ok(&refs(&offline("export", &[])))), store);
    let counts = verify_clean(&["--data-dir", d]);
    assert_eq!(counts.tenants, 1, "{counts:?}");
}

/// `attempts policy` changes only the settings it names: `--limit` alone
/// keeps an earlier re-exploration and streak key; `--no-reexplore` and
/// `--by-action` put them back.
#[test]
fn a_policy_change_keeps_the_settings_it_does_not_name() {
    let fx = Fixture::start();
    let set = json_of(&fx.ok(
        "policy",
        &refs(&with(
            &SCOPE_A,
            &["--by-revision", "--reexplore-after-seconds", "3600"],
        )),
    ));
    assert_eq!(set["consecutive_failure_limit"], 10, "{set}");
    assert_eq!(set["streak_key"], "action_revision", "{set}");
    assert_eq!(set["reexplore"], json!({"after_seconds": 3600}), "{set}");

    let limited = json_of(&fx.ok("policy", &refs(&with(&SCOPE_A, &["--limit", "3"]))));
    assert_eq!(limited["consecutive_failure_limit"], 3, "{limited}");
    assert_eq!(limited["streak_key"], "action_revision", "{limited}");
    assert_eq!(
        limited["reexplore"],
        json!({"after_seconds": 3600}),
        "{limited}"
    );

    let merged = json_of(&fx.ok(
        "policy",
        &refs(&with(&SCOPE_A, &["--reexplore-after-observations", "5"])),
    ));
    assert_eq!(
        merged["reexplore"],
        json!({"after_seconds": 3600, "after_observations": 5}),
        "{merged}"
    );

    let off = json_of(&fx.ok(
        "policy",
        &refs(&with(&SCOPE_A, &["--no-reexplore", "--by-action"])),
    ));
    assert_eq!(off["consecutive_failure_limit"], 3, "{off}");
    assert_eq!(off["streak_key"], "action", "{off}");
    assert_eq!(off["reexplore"], Value::Null, "{off}");
    assert_eq!(json_of(&fx.ok("policy", &SCOPE_A)), off);
}
