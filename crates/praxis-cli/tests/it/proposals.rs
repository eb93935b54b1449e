//! `praxis proposals …` run as a real process against `praxis serve
//! --project billing-service=DIR` on each store, each identity's server,
//! token file and scope pinned by a client config file: sources, a
//! proposal promoted into memory by an approver who is not its proposer,
//! the refusals met on the way, and a duplicate approval; then skill
//! promotions whose server is killed at a failpoint between the journal's
//! steps (`PRAXIS_FAILPOINT`), restarted without it, and resolved. After
//! each scenario `praxis verify` finds the stopped store clean.

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use praxis_testkit::{Backend, StoreLocation};
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use crate::support::{Server, describe, praxis, run_ok, verify_clean};

/// The project of every scope here, mapped to a temporary directory.
const PROJECT: &str = "billing-service";
/// The agent of every scope here.
const AGENT: &str = "triage-bot";

/// Who runs a command: each has a token file and a client config file.
#[derive(Clone, Copy)]
enum Who {
    /// proposal_create, memory_read, memory_write.
    Proposer,
    /// proposal_approve, memory_read.
    Approver,
    /// proposal_create, proposal_approve, policy_admin.
    Lead,
}

impl Who {
    fn name(self) -> &'static str {
        match self {
            Who::Proposer => "proposer",
            Who::Approver => "approver",
            Who::Lead => "lead",
        }
    }

    fn capabilities(self) -> &'static [&'static str] {
        match self {
            Who::Proposer => &["proposal_create", "memory_read", "memory_write"],
            Who::Approver => &["proposal_approve", "memory_read"],
            Who::Lead => &["proposal_create", "proposal_approve", "policy_admin"],
        }
    }
}

const EVERYONE: [Who; 3] = [Who::Proposer, Who::Approver, Who::Lead];

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

/// SHA-256 of `bytes`, lowercase hex.
fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A fresh store with tenant `default` and the three identities' tokens
/// issued offline, a project root, and `praxis serve` on them.
struct Desk {
    _location: StoreLocation,
    _tmp: tempfile::TempDir,
    /// Where the commands run: token files, config files, candidates.
    work: PathBuf,
    /// An empty `XDG_CONFIG_HOME`, so that no user's client config counts.
    xdg: PathBuf,
    /// The root of project `billing-service`.
    root: PathBuf,
    /// Arguments naming the store to `praxis verify`.
    store_args: Vec<String>,
    /// Arguments of `praxis serve`: the store, its data directory and the
    /// project root.
    serve_args: Vec<String>,
    server: Server,
}

impl Desk {
    /// A fresh desk whose server stops at `failpoint`, if one is named.
    fn start(backend: Backend, failpoint: Option<&str>) -> Desk {
        let location = StoreLocation::new(backend);
        let tmp = tempfile::tempdir().unwrap();
        let work = tmp.path().join("work");
        let xdg = tmp.path().join("xdg");
        let root = tmp.path().join("billing-service");
        for dir in [&work, &xdg, &root] {
            std::fs::create_dir_all(dir).unwrap();
        }
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
        for who in EVERYONE {
            let mut args = vec!["issue", "--tenant", "default", "--subject", who.name()];
            for c in who.capabilities() {
                args.extend(["--capability", c]);
            }
            args.extend(["--grant", &grant]);
            let token = admin(&args);
            let file = work.join(format!("{}-token", who.name()));
            write_mode(&file, &format!("{token}\n"), 0o600);
        }
        let mut serve_args = store_args.clone();
        if backend == Backend::Postgres {
            // The seal key's directory.
            serve_args.push("--data-dir".into());
            serve_args.push(tmp.path().join("data").display().to_string());
        }
        serve_args.push("--project".into());
        serve_args.push(format!("{PROJECT}={}", root.display()));
        let server = serve(&serve_args, failpoint);
        let desk = Desk {
            _location: location,
            _tmp: tmp,
            work,
            xdg,
            root,
            store_args,
            serve_args,
            server,
        };
        desk.write_configs();
        desk
    }

    /// Each identity's client config file: this server, its token file,
    /// the project and the agent.
    fn write_configs(&self) {
        for who in EVERYONE {
            let text = format!(
                "url = \"{}\"\ntoken_file = \"{n}-token\"\nproject = \"{PROJECT}\"\n\
                 agent = \"{AGENT}\"\n",
                self.server.base,
                n = who.name()
            );
            write_mode(
                &self.work.join(format!("{}.toml", who.name())),
                &text,
                0o600,
            );
        }
    }

    /// Starts the server again on the same store and project root, with
    /// `failpoint` if one is named; the previous one must have stopped.
    fn restart(&mut self, failpoint: Option<&str>) {
        self.server = serve(&self.serve_args, failpoint);
        self.write_configs();
    }

    /// Stops the server gracefully.
    fn stop(&mut self) {
        let status = self.server.terminate();
        assert!(status.success(), "SIGTERM exit {status}");
    }

    /// Waits for the server to abort at its failpoint.
    fn crashed(&mut self) {
        let status = self.server.wait_exit();
        assert_eq!(
            status.signal(),
            Some(6),
            "the server did not abort at its failpoint ({status}); stderr:\n{}",
            self.server.stderr()
        );
        assert!(
            self.server.stderr().contains("stopping at the failpoint"),
            "{}",
            self.server.stderr()
        );
    }

    /// `praxis verify` on the stopped store must be clean.
    fn verify(&self) {
        let args: Vec<&str> = self.store_args.iter().map(String::as_str).collect();
        verify_clean(&args);
    }

    /// `praxis ARGS` as `who`, in the work directory, with nothing from
    /// the caller's environment but `who`'s client config file.
    fn cmd(&self, who: Who, args: &[&str]) -> Command {
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
            .env("PRAXIS_CLIENT_CONFIG", format!("{}.toml", who.name()))
            .current_dir(&self.work)
            .arg("--json")
            .args(args);
        cmd
    }

    /// Runs `praxis proposals SUB REST` as `who`.
    fn run(&self, who: Who, sub: &str, rest: &[&str]) -> Output {
        let mut args = vec!["proposals", sub];
        args.extend_from_slice(rest);
        self.cmd(who, &args).output().expect("run praxis")
    }

    /// `praxis proposals SUB REST` as `who`; must exit 0 and print one
    /// JSON document.
    fn json(&self, who: Who, sub: &str, rest: &[&str]) -> Value {
        json_of(&self.run(who, sub, rest))
    }

    /// `praxis proposals SUB REST` as `who`; must be refused with `status`
    /// and `code`. Returns stderr.
    fn refused(&self, who: Who, sub: &str, rest: &[&str], status: u16, code: &str) -> String {
        refused(&self.run(who, sub, rest), status, code)
    }

    /// Writes `candidate` to the work directory and proposes it as the
    /// proposer; returns the new proposal's id.
    fn propose(&self, candidate: &Value) -> String {
        let file = self.work.join("candidate.json");
        std::fs::write(&file, candidate.to_string()).unwrap();
        let made = self.json(Who::Proposer, "propose", &["candidate.json"]);
        assert_eq!(made["proposal"]["state"], "open", "{made}");
        assert_eq!(made["proposal"]["proposer"], "proposer", "{made}");
        made["proposal"]["id"].as_str().unwrap().to_owned()
    }

    /// `review ID` as the approver: the review, and what stderr showed.
    fn review(&self, id: &str) -> (Value, String) {
        let out = self.run(Who::Approver, "review", &[id]);
        let review = json_of(&out);
        (review, String::from_utf8_lossy(&out.stderr).into_owned())
    }

    /// The `approve` arguments of a review.
    fn approve_args<'a>(id: &'a str, review: &'a Value) -> [&'a str; 5] {
        [
            id,
            "--version-hash",
            review["version_hash"].as_str().unwrap(),
            "--destination-hash",
            review["destination_hash"].as_str().unwrap(),
        ]
    }

    /// `approve` with the review's hashes as the approver; must succeed.
    fn approve(&self, id: &str, review: &Value) -> Value {
        self.json(Who::Approver, "approve", &Desk::approve_args(id, review))
    }

    /// `status ID` as the approver: the proposal.
    fn status(&self, id: &str) -> Value {
        self.json(Who::Approver, "status", &[id])["proposal"].clone()
    }

    /// A path under the project root.
    fn file(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
}

/// `praxis serve ARGS`, stopping at `failpoint` if one is named.
fn serve(args: &[String], failpoint: Option<&str>) -> Server {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match failpoint {
        Some(point) => Server::start_env(&args, &[("PRAXIS_FAILPOINT", point)]),
        None => Server::start(&args),
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

/// A memory candidate for `key` (create-only), citing `sources`.
fn memory_candidate(key: &str, sources: &[Value]) -> Value {
    json!({
        "schema": "praxis.experience-proposal.v1",
        "summary": "Follow continuation cursors",
        "content": "Follow the next cursor before answering.",
        "conditions": ["A read returns a next cursor.", "The caller asked for everything."],
        "sources": sources,
        "destination": {"kind": "memory", "memory_key": key, "expected_revision": null}
    })
}

/// A create-only skill candidate for `name`.
fn skill_candidate(name: &str, body: &str) -> Value {
    json!({
        "schema": "praxis.experience-proposal.v1",
        "summary": "Follow continuation cursors",
        "content": format!(
            "---\nname: {name}\ndescription: Follow cursors to the end.\n---\n{body}"
        ),
        "conditions": ["A read returns a next cursor."],
        "sources": [],
        "destination": {"kind": "skill", "project": PROJECT,
            "path": format!(".agents/skills/{name}/SKILL.md"), "expected_sha256": null}
    })
}

/// The ids of a list page.
fn ids(page: &Value) -> Vec<&str> {
    page["proposals"]
        .as_array()
        .unwrap_or_else(|| panic!("no proposals in {page}"))
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect()
}

/// Sources, a memory proposal reviewed and approved by someone other than
/// its proposer, the refusals on the way, a duplicate approval, the
/// scope's self-approval setting, listing and withdrawal.
fn memory_flow(d: &Desk) {
    // A file source: the ref is the scope's project and the path.
    let text = "Cursors continue a read.\n";
    std::fs::create_dir_all(d.file("docs")).unwrap();
    std::fs::write(d.file("docs/paging.md"), text).unwrap();
    let file = d.json(Who::Proposer, "source", &["--file", "docs/paging.md"]);
    assert_eq!(
        file,
        json!({"kind": "file", "ref": "billing-service:docs/paging.md",
            "sha256": sha256_hex(text.as_bytes())})
    );
    // A memory revision: exactly {kind, ref, sha256}, never the body.
    let set = json_of(
        &d.cmd(
            Who::Proposer,
            &[
                "memory",
                "set",
                "paging-notes",
                "--summary",
                "Paging",
                "--body",
                "Reads stop early.",
            ],
        )
        .output()
        .unwrap(),
    );
    let cited = set["memory"]["revision"].as_str().unwrap();
    let reference = format!("paging-notes {cited}");
    let item = d.json(
        Who::Proposer,
        "source",
        &["--object", "memory_revision", &reference],
    );
    let keys: Vec<&String> = item.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["kind", "ref", "sha256"], "{item}");
    assert_eq!(item["kind"], "memory_revision");
    assert_eq!(item["ref"], reference.as_str());
    // A ref of several parts is one argument; nothing observed is missing.
    let stderr = d.refused(
        Who::Proposer,
        "source",
        &["--object", "attempt", "host-17 restart-service case-1"],
        404,
        "source_not_found",
    );
    assert!(stderr.contains(" (field /ref)\n"), "{stderr}");

    // Propose, from a file; review as the approver.
    let id = d.propose(&memory_candidate("follow-cursors", &[file, item]));
    let (review, shown) = d.review(&id);
    let rendered = "Follow the next cursor before answering.\n\nApplies when:\n\
                    - A read returns a next cursor.\n- The caller asked for everything.\n";
    assert_eq!(review["rendered"], rendered);
    assert_eq!(review["sources"][0]["status"], "fresh");
    assert_eq!(review["sources"][1]["status"], "fresh");
    assert_eq!(review["destination"]["current"], Value::Null);
    assert_eq!(review["destination"]["as_expected"], true);
    assert!(shown.contains(rendered), "{shown}");
    assert!(
        shown.contains("fresh    memory_revision paging-notes"),
        "{shown}"
    );
    let approve_line = format!(
        "approve with: praxis proposals approve {id} --version-hash {} --destination-hash {}",
        review["version_hash"].as_str().unwrap(),
        review["destination_hash"].as_str().unwrap()
    );
    assert!(shown.contains(&approve_line), "{shown}");

    // The wrong version applies nothing and says to review again.
    let zeros = "0".repeat(64);
    let dest = review["destination_hash"].as_str().unwrap();
    let stderr = d.refused(
        Who::Approver,
        "approve",
        &[&id, "--version-hash", &zeros, "--destination-hash", dest],
        409,
        "version_mismatch",
    );
    assert!(
        stderr.contains(&format!("praxis proposals review {id}` again")),
        "{stderr}"
    );
    // The proposer may not approve at all.
    d.refused(
        Who::Proposer,
        "approve",
        &Desk::approve_args(&id, &review),
        403,
        "missing_capability",
    );

    // Approved by the approver: the receipt names the exact version.
    let approved = d.approve(&id, &review);
    assert_eq!(approved["applied_now"], true, "{approved}");
    let receipt = &approved["receipt"];
    assert_eq!(receipt["proposal_id"], id.as_str());
    assert_eq!(receipt["version_hash"], review["version_hash"]);
    assert_eq!(receipt["approval"]["approver"], "approver");
    assert_eq!(
        receipt["approval"]["destination_hash"],
        review["destination_hash"]
    );
    assert_eq!(receipt["promoted"]["kind"], "memory");
    let status = d.status(&id);
    assert_eq!(status["state"], "promoted");
    assert_eq!(&status["receipt"], receipt);
    // The item holds the rendered body.
    let got = json_of(
        &d.cmd(Who::Proposer, &["memory", "get", "follow-cursors"])
            .output()
            .unwrap(),
    );
    assert_eq!(got["memory"]["body"], rendered);
    assert_eq!(got["memory"]["tags"], json!(["experience"]));
    assert_eq!(got["memory"]["revision"], receipt["promoted"]["revision"]);
    // A duplicate approval prints the same receipt and writes nothing.
    let again = d.approve(&id, &review);
    assert_eq!(&again["receipt"], receipt);
    assert_eq!(again["applied_now"], false);

    // Self-approval: refused until the scope's setting allows it.
    std::fs::write(
        d.work.join("own.json"),
        memory_candidate("lead-notes", &[]).to_string(),
    )
    .unwrap();
    let own = d.json(Who::Lead, "propose", &["own.json"]);
    let own = own["proposal"]["id"].as_str().unwrap().to_owned();
    let (own_review, _) = d.review(&own);
    d.refused(
        Who::Lead,
        "approve",
        &Desk::approve_args(&own, &own_review),
        403,
        "self_approval_refused",
    );
    let on = d.json(Who::Lead, "settings", &["--self-approval", "true"]);
    assert_eq!(on["self_approval"], true);
    let mine = d.json(Who::Lead, "approve", &Desk::approve_args(&own, &own_review));
    assert_eq!(mine["receipt"]["approval"]["approver"], "lead");
    let off = d.json(Who::Lead, "settings", &["--self-approval", "false"]);
    assert_eq!(off["self_approval"], false);

    // A third proposal, from stdin, withdrawn.
    let out = d
        .cmd(Who::Proposer, &["proposals", "propose", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            let candidate = memory_candidate("dropped", &[]).to_string();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(candidate.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    let dropped = json_of(&out)["proposal"]["id"].as_str().unwrap().to_owned();
    let reason = ["--reason", "Superseded by a narrower proposal."];
    let withdrawn = d.json(Who::Proposer, "withdraw", &[&dropped, reason[0], reason[1]]);
    assert_eq!(withdrawn["proposal"]["state"], "withdrawn");
    assert_eq!(
        withdrawn["proposal"]["withdrawal"],
        "Superseded by a narrower proposal."
    );
    d.refused(
        Who::Proposer,
        "withdraw",
        &[&dropped, reason[0], reason[1]],
        409,
        "proposal_not_open",
    );

    // Lists: by state, and paged.
    let all = d.json(Who::Approver, "list", &[]);
    let mut expected = vec![id.as_str(), own.as_str(), dropped.as_str()];
    expected.sort_unstable();
    assert_eq!(ids(&all), expected);
    let promoted = d.json(Who::Approver, "list", &["--state", "promoted"]);
    assert_eq!(ids(&promoted).len(), 2);
    assert!(ids(&promoted).contains(&id.as_str()));
    let withdrawn = d.json(Who::Proposer, "list", &["--state", "withdrawn"]);
    assert_eq!(ids(&withdrawn), [dropped.as_str()]);
    let first = d.json(Who::Approver, "list", &["--limit", "1"]);
    assert_eq!(ids(&first), [expected[0]]);
    let next = first["next"].as_str().unwrap();
    let rest = d.json(Who::Approver, "list", &["--after", next]);
    assert_eq!(ids(&rest), expected[1..]);

    // No skill yet; an unknown proposal.
    let skills = d.json(Who::Approver, "skills", &[]);
    assert_eq!(skills["skills"], json!([]));
    let unknown = format!("prop_{}", "0".repeat(32));
    d.refused(
        Who::Approver,
        "status",
        &[&unknown],
        404,
        "proposal_not_found",
    );
}

fn memory_walk(backend: Backend) {
    let mut d = Desk::start(backend, None);
    memory_flow(&d);
    d.stop();
    d.verify();
}

#[test]
fn proposals_from_the_cli_on_sqlite() {
    memory_walk(Backend::Sqlite);
}

#[test]
fn proposals_from_the_cli_on_postgres() {
    memory_walk(Backend::Postgres);
}

/// Proposes a create-only skill `name`, reviews it, and approves it
/// straight at the server (not through the checking proxy, which would
/// answer for the dead server itself) with `PRAXIS_FAILPOINT` set: the
/// server aborts and the call fails with a transport error. The store is
/// then verified, stopped as it is. Returns the id and the review.
fn approve_into_a_crash(d: &mut Desk, name: &str, body: &str) -> (String, Value) {
    let id = d.propose(&skill_candidate(name, body));
    let (review, _) = d.review(&id);
    assert_eq!(review["destination"]["current"], Value::Null);
    let mut args = vec!["proposals", "approve"];
    args.extend(Desk::approve_args(&id, &review));
    args.extend(["--url", d.server.direct.as_str()]);
    let out = d.cmd(Who::Approver, &args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(stderr.starts_with("praxis: transport: "), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the outcome is unknown: run `praxis proposals status {id}`"
        )),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "{}", describe(&out));
    d.crashed();
    d.verify();
    (id, review)
}

/// What a file is: its bytes, inode and modification time.
fn identity(path: &Path) -> (Vec<u8>, u64, i64, i64) {
    let meta = std::fs::metadata(path).unwrap();
    (
        std::fs::read(path).unwrap(),
        meta.ino(),
        meta.mtime(),
        meta.mtime_nsec(),
    )
}

/// Asserts that the unresolved proposal `id` reads so, and that approving
/// it again is refused, naming the file and both hashes, and writes
/// nothing. Returns its marker.
fn unresolved(d: &Desk, id: &str, review: &Value, path: &Path) -> Value {
    let before = path.exists().then(|| identity(path));
    let out = d.run(Who::Approver, "status", &[id]);
    let status = json_of(&out)["proposal"].clone();
    assert_eq!(
        status["state"], "promotion_outcome_unresolved_do_not_retry",
        "{status}"
    );
    assert_eq!(status["receipt"], Value::Null);
    let marker = status["marker"].clone();
    let new = sha256_hex(review["rendered"].as_str().unwrap().as_bytes());
    assert_eq!(marker["new_sha256"], new.as_str(), "{marker}");
    assert_eq!(marker["expected_sha256"], Value::Null, "{marker}");
    let hint = String::from_utf8_lossy(&out.stderr);
    assert!(hint.contains("do not retry"), "{hint}");
    let stderr = d.refused(
        Who::Approver,
        "approve",
        &Desk::approve_args(id, review),
        409,
        "promotion_outcome_unresolved_do_not_retry",
    );
    let skill = marker["path"].as_str().unwrap();
    assert!(stderr.contains(&format!("{PROJECT}:{skill}")), "{stderr}");
    assert!(stderr.contains(&new), "{stderr}");
    assert!(stderr.contains("\ndo not retry"), "{stderr}");
    assert!(
        stderr.contains(&format!("praxis proposals resolve {id} --applied")),
        "{stderr}"
    );
    assert_eq!(path.exists().then(|| identity(path)), before);
    marker
}

/// A server killed between a skill promotion's marker and its receipt:
/// the outcome is reported unresolved and never retried; the file decides
/// each resolution. First nothing was written: `--applied` is
/// contradicted, `--not-applied` opens the proposal again, and a new
/// approval writes the file. Then the operator writes the promoted content
/// by hand: `--not-applied` is contradicted, and `--applied` promotes it.
fn unknown_outcomes(backend: Backend) {
    let mut d = Desk::start(backend, Some("proposal-after-marker"));

    // Nothing was written.
    let (id, review) = approve_into_a_crash(&mut d, "follow-cursors", "Follow the cursor.\n");
    let path = d.file(".agents/skills/follow-cursors/SKILL.md");
    assert!(!path.exists(), "the skill was written before the crash");
    d.restart(None);
    unresolved(&d, &id, &review, &path);
    assert!(!path.exists(), "a refused approval wrote the skill");
    let stderr = d.refused(
        Who::Approver,
        "resolve",
        &[&id, "--applied"],
        409,
        "resolution_contradicted",
    );
    assert!(
        stderr.contains("--not-applied the expected one"),
        "{stderr}"
    );
    let reopened = d.json(Who::Approver, "resolve", &[&id, "--not-applied"]);
    assert_eq!(reopened["proposal"]["state"], "open", "{reopened}");
    assert!(reopened["proposal"]["failure"].is_string(), "{reopened}");
    assert!(!path.exists());
    d.refused(
        Who::Approver,
        "resolve",
        &[&id, "--not-applied"],
        409,
        "proposal_not_open",
    );
    let (again, _) = d.review(&id);
    assert_eq!(again["destination_hash"], review["destination_hash"]);
    let approved = d.approve(&id, &again);
    assert_eq!(approved["applied_now"], true, "{approved}");
    let written = std::fs::read(&path).unwrap();
    assert_eq!(written, again["rendered"].as_str().unwrap().as_bytes());
    assert_eq!(
        approved["receipt"]["promoted"]["sha256"],
        sha256_hex(&written)
    );
    assert_eq!(d.status(&id)["state"], "promoted");
    let skill = d.json(Who::Approver, "skills", &["follow-cursors"]);
    assert_eq!(skill["content"], again["rendered"]);
    assert_eq!(skill["sha256"], sha256_hex(&written));
    d.stop();
    d.verify();

    // The operator wrote the promoted content by hand after the crash.
    d.restart(Some("proposal-after-marker"));
    let (id, review) = approve_into_a_crash(&mut d, "hand-written", "Written by hand.\n");
    let path = d.file(".agents/skills/hand-written/SKILL.md");
    assert!(!path.exists(), "the skill was written before the crash");
    d.restart(None);
    let marker = unresolved(&d, &id, &review, &path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, review["rendered"].as_str().unwrap()).unwrap();
    assert_eq!(
        sha256_hex(&std::fs::read(&path).unwrap()),
        marker["new_sha256"].as_str().unwrap()
    );
    let stderr = d.refused(
        Who::Approver,
        "resolve",
        &[&id, "--not-applied"],
        409,
        "resolution_contradicted",
    );
    assert!(stderr.contains("holds the promoted content"), "{stderr}");
    let written = identity(&path);
    let resolved = d.json(Who::Approver, "resolve", &[&id, "--applied"]);
    let proposal = &resolved["proposal"];
    assert_eq!(proposal["state"], "promoted", "{resolved}");
    assert_eq!(
        proposal["receipt"]["promoted"]["sha256"],
        marker["new_sha256"]
    );
    assert_eq!(d.status(&id)["state"], "promoted");
    // Approving it now answers with that receipt and writes nothing.
    let again = d.approve(&id, &review);
    assert_eq!(again["applied_now"], false);
    assert_eq!(again["receipt"], proposal["receipt"]);
    assert_eq!(identity(&path), written);
    d.stop();
    d.verify();
}

#[test]
fn a_promotion_killed_after_its_marker_is_resolved_not_retried_on_sqlite() {
    unknown_outcomes(Backend::Sqlite);
}

#[test]
fn a_promotion_killed_after_its_marker_is_resolved_not_retried_on_postgres() {
    unknown_outcomes(Backend::Postgres);
}

/// A server killed after a skill promotion's receipt and before its note:
/// the file is written, the proposal reads
/// `receipt_saved_promotion_note_missing`, and the next approval completes
/// the note with the saved receipt, without writing the file again.
fn missing_note(backend: Backend) {
    let mut d = Desk::start(backend, Some("proposal-after-receipt"));
    let (id, review) = approve_into_a_crash(&mut d, "follow-cursors", "Follow the cursor.\n");
    let path = d.file(".agents/skills/follow-cursors/SKILL.md");
    let written = identity(&path);
    assert_eq!(written.0, review["rendered"].as_str().unwrap().as_bytes());
    d.restart(None);
    let out = d.run(Who::Approver, "status", &[&id]);
    let status = json_of(&out)["proposal"].clone();
    assert_eq!(
        status["state"], "receipt_saved_promotion_note_missing",
        "{status}"
    );
    let hint = String::from_utf8_lossy(&out.stderr);
    assert!(
        hint.contains("completes it without writing again"),
        "{hint}"
    );
    let receipt = status["receipt"].clone();
    assert_eq!(receipt["promoted"]["sha256"], sha256_hex(&written.0));
    let completed = d.approve(&id, &review);
    assert_eq!(completed["receipt"], receipt);
    assert_eq!(
        completed["applied_now"], false,
        "completing the note applied nothing now: {completed}"
    );
    assert_eq!(identity(&path), written, "the file was written again");
    assert_eq!(d.status(&id)["state"], "promoted");
    let again = d.approve(&id, &review);
    assert_eq!(again["receipt"], receipt);
    assert_eq!(again["applied_now"], false);
    assert_eq!(identity(&path), written);
    let skills = d.json(Who::Approver, "skills", &[]);
    assert_eq!(skills["skills"][0]["name"], "follow-cursors");
    assert_eq!(skills["skills"][0]["sha256"], receipt["promoted"]["sha256"]);
    d.stop();
    d.verify();
}

#[test]
fn a_promotion_killed_before_its_note_completes_without_rewriting_on_sqlite() {
    missing_note(Backend::Sqlite);
}

#[test]
fn a_promotion_killed_before_its_note_completes_without_rewriting_on_postgres() {
    missing_note(Backend::Postgres);
}
