//! `praxis learning …` and `praxis experiences …` run as real processes
//! against `praxis serve` on each store, through the checking proxy: the
//! README's worked example command for command, with its refusals.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use praxis_api::examples::learning as ex;
use praxis_testkit::{Backend, StoreLocation};
use serde_json::{Value, json};

use crate::support::{Server, describe, praxis, run_ok, verify_clean};

/// The example scope's flags.
const SCOPE: [&str; 4] = ["--project", "billing-service", "--agent", "triage-bot"];

/// The example attempt's input digest.
const INPUT_SHA256: &str = "5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b5f2b";
/// The example event's evidence digest.
const EVIDENCE_SHA256: &str = "9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d9c1d";
/// The child attempt's input digest.
const CHILD_SHA256: &str = "7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e7a3e";
/// Why the example observation is withdrawn.
const REASON: &str = "The trace was captured against the wrong dataset revision.";

/// A fresh store with tenant `default`, its admin credential and one for
/// `triage-bot`, both issued offline, and `praxis serve` on it.
struct Fixture {
    _location: StoreLocation,
    _tmp: tempfile::TempDir,
    /// Where the commands run: token files and request files.
    work: PathBuf,
    /// Arguments naming the store to `praxis admin` and `praxis verify`.
    store_args: Vec<String>,
    server: Server,
}

impl Fixture {
    fn start(backend: Backend) -> Fixture {
        let location = StoreLocation::new(backend);
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
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
        let admin_token = admin(&["create-tenant", "--tenant", "default"]);
        let grant = json!({
            "project_id": "billing-service",
            "mission_id": null,
            "agent_id": "triage-bot",
            "visibility": "shared",
        })
        .to_string();
        let bot_token = admin(&[
            "issue",
            "--tenant",
            "default",
            "--subject",
            "triage-bot",
            "--capability",
            "experience_write",
            "--capability",
            "experience_report",
            "--capability",
            "experience_read",
            "--capability",
            "experience_evidence_admin",
            "--grant",
            &grant,
        ]);
        let issue = |subject: &str, capabilities: &[&str]| {
            let mut args = vec!["issue", "--tenant", "default", "--subject", subject];
            for c in capabilities {
                args.extend(["--capability", c]);
            }
            args.extend(["--grant", &grant]);
            admin(&args)
        };
        let author_token = issue(
            "author",
            &["procedure_propose", "experience_read", "memory_read"],
        );
        let grader_token = issue(
            praxis_api::examples::procedures::EVALUATOR,
            &["procedure_evaluate"],
        );
        for (name, token) in [
            ("admin-token", admin_token),
            ("bot-token", bot_token),
            ("author-token", author_token),
            ("grader-token", grader_token),
        ] {
            // Private, as the CLI demands of a token file.
            let path = work.join(name);
            std::fs::write(&path, token + "\n").unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let mut serve_args = store_args.clone();
        if backend == Backend::Postgres {
            // The seal key's directory.
            serve_args.push("--data-dir".into());
            serve_args.push(tmp.path().join("data").display().to_string());
        }
        let serve_args: Vec<&str> = serve_args.iter().map(String::as_str).collect();
        let server = Server::start(&serve_args);
        Fixture {
            _location: location,
            _tmp: tmp,
            work,
            store_args,
            server,
        }
    }

    /// `praxis ARGS` in the work directory, with `PRAXIS_URL` naming the
    /// server and `PRAXIS_TOKEN_FILE` the token file `token` there.
    fn cmd(&self, token: &str, args: &[&str]) -> Command {
        let mut cmd = praxis();
        cmd.env_remove("PRAXIS_TOKEN")
            .env("PRAXIS_URL", &self.server.base)
            .env("PRAXIS_TOKEN_FILE", token)
            .current_dir(&self.work)
            .arg("--json")
            .args(args);
        cmd
    }

    /// Runs `praxis ARGS` as `token`.
    fn run(&self, token: &str, args: &[&str]) -> Output {
        self.cmd(token, args).output().expect("run praxis")
    }

    /// Runs `praxis ARGS` as `token`; it must exit 0. Returns stdout.
    fn ok(&self, token: &str, args: &[&str]) -> String {
        let out = self.run(token, args);
        assert!(out.status.success(), "praxis {args:?}: {}", describe(&out));
        String::from_utf8(out.stdout).expect("stdout is UTF-8")
    }

    /// As [`Fixture::ok`], with stdout parsed as one JSON document.
    fn json(&self, token: &str, args: &[&str]) -> Value {
        let stdout = self.ok(token, args);
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}"))
    }

    /// Runs `praxis ARGS` as `token`; it must exit 1 naming `status` and
    /// `code` of the server's problem on stderr, and print the problem
    /// document on stdout (these runs pass `--json`).
    fn refused(&self, token: &str, args: &[&str], status: u16, code: &str) -> String {
        let out = self.run(token, args);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(
            out.status.code(),
            Some(1),
            "praxis {args:?}: {}",
            describe(&out)
        );
        assert!(
            stderr.starts_with(&format!("praxis: {status} {code}: ")),
            "praxis {args:?} did not name {status} {code}: {}",
            describe(&out)
        );
        let problem: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("stdout is not the problem ({e}): {}", describe(&out)));
        assert_eq!(problem["code"], code, "{}", describe(&out));
        stderr
    }

    /// Writes a JSON file into the work directory.
    fn write(&self, name: &str, value: &impl serde::Serialize) {
        let text = serde_json::to_string_pretty(value).unwrap();
        std::fs::write(self.work.join(name), text).unwrap();
    }
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

/// The scope flags followed by `rest`.
fn scoped<'a>(sub: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["experiences", sub];
    args.extend_from_slice(&SCOPE);
    args.extend_from_slice(rest);
    args
}

/// Registers, shows and re-registers the example policy and context as the
/// admin; a changed policy under the same id is refused.
fn registry(f: &Fixture) {
    let admin = "admin-token";
    f.write("policy.json", &ex::register_policy().policy);
    f.write("context.json", &ex::register_context().context);

    let registered = f.ok(admin, &["learning", "policy", "register", "policy.json"]);
    let policy: Value = serde_json::from_str(&registered).unwrap();
    assert_eq!(policy["policy"]["id"], ex::POLICY);
    assert_eq!(policy["policy"]["algorithm"], "anytime_v1");
    assert_eq!(policy["policy"]["registered_by"], "admin");
    assert_eq!(policy["policy"]["digest"].as_str().unwrap().len(), 64);
    // Again: the original entry (digest, registrant, time); shown the same.
    let again = f.ok(admin, &["learning", "policy", "register", "policy.json"]);
    assert_eq!(again, registered);
    let shown = f.ok(admin, &["learning", "policy", "show", "policy-v1"]);
    assert_eq!(shown, registered);

    // The context from stdin.
    let out = f
        .cmd(admin, &["learning", "context", "register", "-"])
        .stdin(Stdio::from(
            std::fs::File::open(f.work.join("context.json")).unwrap(),
        ))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    let context: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(context["context"]["id"], ex::CONTEXT);
    assert_eq!(context["context"]["tools"]["search"], "search-2.1");
    // Readable with experience_read too.
    let shown = f.json("bot-token", &["learning", "context", "show", "context-v1"]);
    assert_eq!(shown, context);

    // Other content under the id is refused, and nothing changes.
    let mut changed = ex::register_policy().policy;
    changed.parameters.min_improvement = 0.1;
    f.write("policy-changed.json", &changed);
    f.refused(
        admin,
        &["learning", "policy", "register", "policy-changed.json"],
        409,
        "registry_conflict",
    );
    // An id is one path segment, whatever it holds.
    f.refused(
        admin,
        &["learning", "policy", "show", "policy/v2 ?#%"],
        404,
        "policy_not_found",
    );
    let shown = f.ok(admin, &["learning", "policy", "show", "policy-v1"]);
    assert_eq!(shown, registered);
}

/// The worked example: record, report, read, history, a child and its
/// lineage, export, withdraw and inspect, with their refusals.
fn experiences(f: &Fixture) {
    let bot = "bot-token";
    let record = scoped(
        "record",
        &[
            "--id",
            "dev-1",
            "--context",
            "context-v1",
            "--reporter",
            "triage-bot",
            "--unit",
            "tokens",
            "--input-ref",
            "trace://dev/1",
            "--input-sha256",
            INPUT_SHA256,
        ],
    );
    let recorded = f.ok(bot, &record);
    let experience: Value = serde_json::from_str(&recorded).unwrap();
    let e = &experience["experience"];
    assert_eq!(
        (e["id"].as_str(), e["revision"].as_u64()),
        (Some("dev-1"), Some(1))
    );
    assert_eq!(e["outcome"], Value::Null);
    assert_eq!(e["reported_cost_units"], Value::Null);
    assert_eq!(e["input"]["sha256"], INPUT_SHA256);
    assert_eq!(f.ok(bot, &record), recorded, "a retry answers the original");

    let reported = f.json(
        bot,
        &scoped(
            "report",
            &[
                "--attempt",
                "dev-1",
                "--event",
                "e1",
                "--expected-revision",
                "1",
                "--outcome",
                "failed",
                "--cost-units",
                "1200",
                "--evidence-ref",
                "trace://dev/1/out",
                "--evidence-sha256",
                EVIDENCE_SHA256,
            ],
        ),
    );
    assert_eq!(reported["event"]["revision"], 2);
    assert_eq!(reported["event"]["latency_ms"], Value::Null);
    // The same content as the served example, so the same digest.
    assert_eq!(reported["event"]["event_digest"], ex::EVENT_DIGEST);
    assert_eq!(reported["experience"]["outcome"], "failed");

    // Another event on revision 1 is stale.
    let stderr = f.refused(
        bot,
        &scoped(
            "report",
            &[
                "--attempt",
                "dev-1",
                "--event",
                "e2",
                "--expected-revision",
                "1",
                "--outcome",
                "failed",
            ],
        ),
        409,
        "revision_conflict",
    );
    assert!(stderr.contains("revision 2"), "{stderr}");

    let read = f.json(bot, &scoped("read", &["--attempt", "dev-1"]));
    let e = &read["experience"];
    assert_eq!(e["revision"], 2);
    assert_eq!(e["reported_cost_units"], 1200);
    assert_eq!(e["observed_latency_ms"], Value::Null);
    assert_eq!(e["last_event_digest"], ex::EVENT_DIGEST);
    let event = f.json(
        bot,
        &scoped("read", &["--attempt", "dev-1", "--event", "e1"]),
    );
    assert_eq!(event["event"], reported["event"]);
    assert_eq!(event["withdrawal"], Value::Null);

    let history = f.ok(bot, &scoped("history", &["--attempt", "dev-1"]));
    let lines: Vec<Value> = history
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines, vec![reported["event"].clone()], "{history}");

    // A correction names its parent; the server binds the parent's digest.
    let child = f.json(
        bot,
        &scoped(
            "record",
            &[
                "--id",
                "dev-2",
                "--context",
                "context-v1",
                "--reporter",
                "triage-bot",
                "--unit",
                "tokens",
                "--input-ref",
                "trace://dev/2",
                "--input-sha256",
                CHILD_SHA256,
                "--parent-attempt",
                "dev-1",
                "--parent-event",
                "e1",
            ],
        ),
    );
    assert_eq!(
        child["experience"]["parent"]["event_digest"],
        ex::EVENT_DIGEST
    );
    f.ok(
        bot,
        &scoped(
            "report",
            &[
                "--attempt",
                "dev-2",
                "--event",
                "e1",
                "--expected-revision",
                "1",
                "--outcome",
                "succeeded",
                "--cost-units",
                "900",
                "--latency-ms",
                "42000",
            ],
        ),
    );
    let lineage = f.json(bot, &scoped("lineage", &["--attempt", "dev-2"]));
    let ids: Vec<&str> = lineage["lineage"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["dev-2", "dev-1"], "{lineage}");
    assert_eq!(lineage["lineage"][0]["depth"], 2);

    let export = f.json(
        bot,
        &scoped("export", &["--event", "dev-2/e1", "--event", "dev-1/e1"]),
    );
    assert_eq!(export["method_version"], "praxis.experience-export.v1");
    let sorted: Vec<&str> = export["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["attempt_id"].as_str().unwrap())
        .collect();
    assert_eq!(sorted, ["dev-1", "dev-2"]);
    let summary = &export["summary"];
    assert_eq!(
        (
            &summary["attempts"],
            &summary["failed"],
            &summary["succeeded"]
        ),
        (&json!(2), &json!(1), &json!(1))
    );
    assert_eq!(
        summary["cost_units"],
        json!({"known_reports": 2, "unknown_reports": 0,
               "reported_total": "2100", "observed_lower_bound": "2100"})
    );
    assert_eq!(
        summary["latency_ms"],
        json!({"known_reports": 1, "unknown_reports": 1,
               "reported_total": null, "observed_lower_bound": "42000"})
    );
    assert_eq!(export["export_digest"].as_str().unwrap().len(), 64);

    let withdraw = |key| {
        scoped(
            "withdraw",
            &[
                "--key",
                key,
                "--attempt",
                "dev-1",
                "--event",
                "e1",
                "--digest",
                ex::EVENT_DIGEST,
                "--reason",
                REASON,
            ],
        )
    };
    let withdrawn = f.ok(bot, &withdraw("w-1"));
    let receipt: Value = serde_json::from_str(&withdrawn).unwrap();
    assert_eq!(receipt["withdrawal"]["observation"]["event_id"], "e1");
    assert_eq!(receipt["withdrawal"]["reason"], REASON);
    let retried = f.ok(bot, &withdraw("w-1"));
    assert_eq!(retried, withdrawn, "a retry answers the original receipt");
    f.refused(bot, &withdraw("w-2"), 409, "experience_already_withdrawn");

    let inspected = f.json(
        bot,
        &scoped("inspect", &["--attempt", "dev-1", "--event", "e1"]),
    );
    assert_eq!(inspected["withdrawn"], true);
    assert_eq!(inspected["withdrawal"], receipt["withdrawal"]);
    let kept = f.ok(bot, &scoped("history", &["--attempt", "dev-1"]));
    assert_eq!(kept, history, "withdrawal keeps history intact");
    f.refused(
        bot,
        &scoped("export", &["--event", "dev-1/e1"]),
        409,
        "observation_withdrawn",
    );
}

/// The learning flags of a procedure command: `learning SUB SCOPE… REST…`.
fn learning<'a>(sub: &[&'a str], rest: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["learning"];
    args.extend_from_slice(sub);
    args.extend_from_slice(&SCOPE);
    args.extend_from_slice(rest);
    args
}

/// Procedures from the CLI: a strategy on a fresh observation (created,
/// retried, read, inspected), one refused on the withdrawn one, an
/// ordinary proposal evaluated by the grader to qualification, selected,
/// and read.
fn procedures(f: &Fixture) {
    use praxis_api::examples::procedures as px;
    let bot = "bot-token";
    let record = scoped(
        "record",
        &[
            "--id",
            "dev-9",
            "--context",
            "context-v1",
            "--reporter",
            "triage-bot",
            "--unit",
            "tokens",
            "--input-ref",
            "trace://dev/9",
            "--input-sha256",
            INPUT_SHA256,
        ],
    );
    f.ok(bot, &record);
    let event = f.json(
        bot,
        &scoped(
            "report",
            &[
                "--attempt",
                "dev-9",
                "--event",
                "e1",
                "--expected-revision",
                "1",
                "--outcome",
                "succeeded",
            ],
        ),
    );
    let mut strategy = px::create_strategy().strategy;
    strategy.selection.events[0].attempt_id = "dev-9".into();
    event["event"]["event_digest"]
        .as_str()
        .unwrap()
        .clone_into(&mut strategy.selection.events[0].event_digest);
    f.write("strategy.json", &strategy);
    let author = "author-token";
    let created = f.ok(
        author,
        &learning(&["strategy", "create"], &["strategy.json"]),
    );
    let receipt: Value = serde_json::from_str(&created).unwrap();
    assert_eq!(receipt["receipt"]["proposal"]["state"], "candidate");
    assert_eq!(
        f.ok(
            author,
            &learning(&["strategy", "create"], &["strategy.json"])
        ),
        created
    );
    let read = f.json(author, &learning(&["strategy", "read"], &[px::STRATEGY]));
    assert_eq!(read, receipt);
    let inspected = f.json(author, &learning(&["strategy", "inspect"], &[px::STRATEGY]));
    assert_eq!(inspected["reason"], "not_qualified");
    // The example observation was withdrawn by the walk above.
    let mut late = px::create_strategy().strategy;
    late.id = "late".into();
    f.write("late.json", &late);
    f.refused(
        author,
        &learning(&["strategy", "create"], &["late.json"]),
        422,
        "invalid_observation",
    );

    f.write("proposal.json", &px::propose().proposal);
    f.json(author, &learning(&["propose"], &["proposal.json"]));
    let grader = "grader-token";
    let mut qualified = false;
    for i in 0..300 {
        let mut e = px::evaluate().evaluation;
        e.case_id = format!("case-{i}");
        e.evidence_ref = format!("eval://held-out/{i}");
        e.baseline_utility = Some(0.2);
        e.candidate_utility = Some(0.9);
        f.write("evaluation.json", &e);
        let answer = f.json(
            grader,
            &learning(
                &["evaluate"],
                &["--procedure", px::PROPOSAL, "evaluation.json"],
            ),
        );
        assert_eq!(answer["receipt"]["outcome"], "accepted");
        if answer["receipt"]["procedure"]["state"] == "qualified" {
            qualified = true;
            break;
        }
    }
    assert!(qualified, "the proposal never qualified");
    // The author is not the evaluator.
    f.refused(
        author,
        &learning(
            &["evaluate"],
            &["--procedure", px::PROPOSAL, "evaluation.json"],
        ),
        403,
        "missing_capability",
    );
    let selected = f.json(
        author,
        &learning(
            &["select"],
            &["--policy", "policy-v1", "--context", "context-v1"],
        ),
    );
    assert_eq!(selected["procedure_id"], px::PROPOSAL);
    let procedure = f.json(author, &learning(&["procedure"], &[px::PROPOSAL]));
    assert_eq!(procedure["procedure"]["state"], "qualified");
}

/// The whole walk on one store, then `praxis verify` on it.
fn walk(backend: Backend) {
    let mut f = Fixture::start(backend);
    registry(&f);
    experiences(&f);
    procedures(&f);
    let status = f.server.terminate();
    assert!(status.success(), "SIGTERM exit {status}");
    let args: Vec<&str> = f.store_args.iter().map(String::as_str).collect();
    verify_clean(&args);
}

#[test]
fn learning_and_experiences_from_the_cli_on_sqlite() {
    walk(Backend::Sqlite);
}

#[test]
fn learning_and_experiences_from_the_cli_on_postgres() {
    walk(Backend::Postgres);
}

/// `--event` takes ATTEMPT/EVENT; anything else is a usage error before
/// any request.
#[test]
fn export_needs_attempt_slash_event() {
    let out = praxis()
        .args(["experiences", "export", "--url", "http://127.0.0.1:9"])
        .args(["--token", "prx_x", "--event", "dev-1"])
        .args(SCOPE)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not ATTEMPT/EVENT"),
        "{}",
        describe(&out)
    );
}
