//! `praxis records`: offline validation of a repository layout, and import
//! and export against a store, with the upstream fixtures and schema.

use std::path::{Path, PathBuf};
use std::process::Command;

use praxis_testkit::records::{interop_dir, sample_record};
use serde_json::{Value, json};

use crate::support::{describe, run, run_ok, verify_clean};

const FIXTURE: &str = "exp-codex-session-junction-migration-20260731.json";

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn fixtures() -> PathBuf {
    interop_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// A repository holding the upstream reviewed record and skill registry.
fn upstream_repository(root: &Path) {
    let reviewed = root.join("experience_records/reviewed");
    std::fs::create_dir_all(&reviewed).unwrap();
    std::fs::create_dir_all(root.join("shared_skills")).unwrap();
    std::fs::copy(fixtures().join(FIXTURE), reviewed.join(FIXTURE)).unwrap();
    std::fs::copy(
        fixtures().join("registry.json"),
        root.join("shared_skills/registry.json"),
    )
    .unwrap();
}

fn write_json(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

#[test]
fn validate_accepts_the_upstream_repository_and_reports_every_finding_otherwise() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    upstream_repository(&repo);
    let out = run_ok(&["records", "validate", s(&repo)]);
    assert_eq!(out.trim(), "1 record(s): no findings");

    // A candidate with several problems, one of them a credential.
    let mut bad = sample_record("root-ci");
    bad["attempts"][1]["sequence"] = json!(3);
    bad["summary"] = json!(
        "The runner printed ghp_Zq8vN3xR7tL2mK9pW4yB6cD1fH5jS0aQeUuI while starting the cluster as root."
    );
    bad["relations"]["related_experiences"] = json!(["exp-nowhere-20261101"]);
    let path = repo.join("experience_records/candidates/exp-root-ci-20261120.json");
    write_json(&path, &bad);
    let out = run(&["records", "validate", s(&repo)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let file = "experience_records/candidates/exp-root-ci-20261120.json";
    for expected in [
        format!("{file}: /attempts/1/sequence: gate.attempt_sequence: "),
        format!("{file}: /summary: screen.credential.github: "),
        format!("{file}: /relations/related_experiences/0: repo.unknown_experience: "),
    ] {
        assert!(
            stdout.contains(&expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    assert!(
        !stdout.contains("ghp_Zq8v") && !String::from_utf8_lossy(&out.stderr).contains("ghp_Zq8v"),
        "a finding never echoes the secret:\n{stdout}"
    );
    // With --json: the same findings as JSON, and still exit 1.
    let out = run(&["records", "validate", s(&repo), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"gate.attempt_sequence") && rules.contains(&"screen.credential.github"),
        "{report}"
    );
    assert!(!report.to_string().contains("ghp_Zq8v"), "{report}");
    // A record in the wrong directory for its status.
    std::fs::remove_file(&path).unwrap();
    let misplaced = repo.join("experience_records/candidates").join(FIXTURE);
    std::fs::rename(
        repo.join("experience_records/reviewed").join(FIXTURE),
        &misplaced,
    )
    .unwrap();
    let out = run(&["records", "validate", s(&repo)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(": /lifecycle/status: gate.directory: "),
        "{}",
        describe(&out)
    );
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    hex::encode(sha2::Sha256::digest(bytes))
}

#[test]
fn import_then_export_publishes_byte_stable_records_the_upstream_schema_accepts() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    upstream_repository(&repo);
    let data = tmp.path().join("data");
    run_ok(&[
        "admin",
        "create-tenant",
        "--data-dir",
        s(&data),
        "--tenant",
        "default",
    ]);
    let target = ["--data-dir", s(&data), "--project", "p", "--agent", "a"];
    let call = |head: &[&str], dir: &Path| {
        let mut argv: Vec<&str> = head.to_vec();
        argv.push(s(dir));
        argv.extend(target);
        run(&argv)
    };

    let out = call(&["records", "import"], &repo);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "1 record(s) imported, 0 already kept; 17 skill release(s) published, 0 withdrawn"
    );
    let again = call(&["records", "import"], &repo);
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).trim(),
        "0 record(s) imported, 1 already kept; 0 skill release(s) published, 0 withdrawn",
        "{}",
        describe(&again)
    );

    let published = tmp.path().join("published");
    let out = call(&["records", "export"], &published);
    assert!(out.status.success(), "{}", describe(&out));
    let exported = published.join("experience_records/reviewed").join(FIXTURE);
    let bytes = std::fs::read(&exported).unwrap();
    let original: Value =
        serde_json::from_slice(&std::fs::read(fixtures().join(FIXTURE)).unwrap()).unwrap();
    assert_eq!(
        bytes,
        serde_json_canonicalizer::to_vec(&original).unwrap(),
        "an export is the record's canonical JSON"
    );
    // A second export is byte-identical (and refuses to clobber without --replace).
    let refused = call(&["records", "export"], &published);
    assert!(!refused.status.success(), "{}", describe(&refused));
    let out = call(&["records", "export", "--replace"], &published);
    assert!(out.status.success(), "{}", describe(&out));
    assert_eq!(std::fs::read(&exported).unwrap(), bytes);
    assert_eq!(
        sha256_hex(&bytes),
        praxis_domain::records::lifecycle::document_sha256(&original)
    );

    // The published repository validates, here and with the upstream schema.
    let out = run_ok(&["records", "validate", s(&published)]);
    assert_eq!(out.trim(), "1 record(s): no findings");
    assert_eq!(upstream_schema_accepts(std::slice::from_ref(&exported)), 1);

    // An invalid repository imports nothing.
    let broken = tmp.path().join("broken");
    upstream_repository(&broken);
    let mut bad = sample_record("root-ci");
    bad["attempts"] = json!([]);
    write_json(
        &broken.join("experience_records/candidates/exp-root-ci-20261120.json"),
        &bad,
    );
    let out = call(&["records", "import"], &broken);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing was imported"));
    verify_clean(&["--data-dir", s(&data)]);
}

/// Runs the upstream JSON Schema (with Python's reference implementation)
/// over `files`; returns how many were checked.
fn upstream_schema_accepts(files: &[PathBuf]) -> usize {
    let script = "import json, sys, jsonschema\n\
        schema = json.load(open(sys.argv[1]))\n\
        v = jsonschema.Draft202012Validator(schema)\n\
        for path in sys.argv[2:]:\n\
        \x20   errors = list(v.iter_errors(json.load(open(path))))\n\
        \x20   assert not errors, (path, [e.message for e in errors])\n\
        print(len(sys.argv) - 2)\n";
    let py = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(fixtures().join("experience-record-v0.1.schema.json"))
        .args(files)
        .output()
        .expect("python3 with the jsonschema package (`scripts/test` sets it up)");
    assert!(py.status.success(), "{}", describe(&py));
    String::from_utf8_lossy(&py.stdout).trim().parse().unwrap()
}

/// Records Praxis itself wrote (server-stamped candidates, human and
/// automated reviews, changes requested, superseded and withdrawn ones)
/// export to files the upstream schema accepts and `validate` passes.
#[test]
fn every_record_praxis_writes_exports_valid_under_the_upstream_schema() {
    use praxis_domain::auth::{Scope, Visibility};
    use praxis_domain::ledger::Actor;
    use praxis_domain::records::lifecycle::{Decision, ReviewMode, Source};
    use praxis_store::records::{Review, Submission};
    use praxis_store::{Command as StoreCommand, RecordCommand, Write};

    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    run_ok(&[
        "admin",
        "create-tenant",
        "--data-dir",
        s(&data),
        "--tenant",
        "default",
    ]);
    let namespace = Scope {
        project_id: "p".into(),
        mission_id: None,
        agent_id: "a".into(),
        visibility: Visibility::Shared,
    }
    .namespace("admin");
    let rt = crate::support::runtime();
    rt.block_on(async {
        let engine = praxis_store::open(s(&data)).await.unwrap();
        let exec = |command: StoreCommand| {
            let engine = engine.clone();
            async move {
                let actor = Actor {
                    credential_id: "test".into(),
                    subject: "test".into(),
                };
                engine
                    .execute(Write::new("default", actor, command))
                    .await
                    .unwrap()
            }
        };
        let submit = |slug: &str, doc: Value| {
            StoreCommand::Records(RecordCommand::Submit(Box::new(Submission {
                namespace: namespace.clone(),
                source: Source::Key { key: slug.into() },
                author: "alice".into(),
                document: doc,
            })))
        };
        let review = |slug: &str, decision: Decision, notes: Option<&str>| {
            StoreCommand::Records(RecordCommand::Review(Box::new(Review {
                namespace: namespace.clone(),
                experience_id: format!("exp-{slug}-20261120"),
                decision,
                mode: ReviewMode::Human,
                reviewer: "bob".into(),
                notes: notes.map(str::to_owned),
                expected_revision: None,
            })))
        };
        for slug in ["pending-case", "changes-case", "old-case", "gone-case"] {
            exec(submit(slug, sample_record(slug))).await;
        }
        exec(review(
            "changes-case",
            Decision::RequestChanges,
            Some("Name the version."),
        ))
        .await;
        exec(review("old-case", Decision::Approve, None)).await;
        exec(review("gone-case", Decision::Approve, None)).await;
        let mut newer = sample_record("new-case");
        newer["relations"]["supersedes"] = json!(["exp-old-case-20261120"]);
        exec(submit("new-case", newer)).await;
        exec(review("new-case", Decision::Approve, None)).await;
        exec(StoreCommand::Records(RecordCommand::Withdraw {
            namespace: namespace.clone(),
            experience_id: "exp-gone-case-20261120".into(),
            reason: "the fix was unsafe on older runners".into(),
            expected_revision: None,
        }))
        .await;
        exec(StoreCommand::Records(RecordCommand::SetAutomatedApproval {
            namespace: namespace.clone(),
            on: true,
        }))
        .await;
        exec(submit("auto-case", sample_record("auto-case"))).await;
    });
    drop(rt);

    let published = tmp.path().join("published");
    run_ok(&[
        "records",
        "export",
        s(&published),
        "--candidates",
        "--data-dir",
        s(&data),
        "--project",
        "p",
        "--agent",
        "a",
    ]);
    let mut files = Vec::new();
    let mut statuses = std::collections::BTreeSet::new();
    for sub in ["candidates", "reviewed"] {
        for entry in std::fs::read_dir(published.join("experience_records").join(sub)).unwrap() {
            let path = entry.unwrap().path();
            let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            statuses.insert(format!(
                "{}/{}/{}",
                doc["lifecycle"]["status"].as_str().unwrap(),
                doc["review"]["status"].as_str().unwrap(),
                doc["review"]["mode"].as_str().unwrap_or("-")
            ));
            files.push(path);
        }
    }
    assert_eq!(
        statuses.into_iter().collect::<Vec<_>>(),
        [
            "candidate/changes-requested/human",
            "candidate/pending/-",
            "reviewed/approved/automated-policy",
            "reviewed/approved/human",
            "superseded/approved/human",
            "withdrawn/approved/human",
        ]
    );
    assert_eq!(upstream_schema_accepts(&files), 6);
    let out = run_ok(&["records", "validate", s(&published)]);
    assert_eq!(out.trim(), "6 record(s): no findings");
}

/// `records check` takes a record as it is submitted (no server-owned
/// fields), reports findings as `file: pointer: rule: message` with `/` for
/// the whole record, reads stdin for `-`, and exits 0, 1 or 2.
#[test]
fn check_validates_a_submission_as_intake_does() {
    use std::io::Write as _;
    let tmp = tempfile::tempdir().unwrap();
    let mut record = sample_record("root-ci");
    for owned in ["lifecycle", "review", "screening"] {
        record.as_object_mut().unwrap().remove(owned);
    }
    record["provenance"]
        .as_object_mut()
        .unwrap()
        .remove("author_ref");
    let good = tmp.path().join("good.json");
    write_json(&good, &record);
    let out = run_ok(&["records", "check", s(&good)]);
    assert_eq!(out, "", "no finding, nothing on stdout");

    let mut bad = record.clone();
    bad["resolution"]["steps"][0] =
        json!("export GITHUB_TOKEN=ghp_Zq8vN3xR7tL2mK9pW4yB6cD1fH5jS0aQeUuI");
    bad["attempts"][1]["sequence"] = json!(3);
    let bad_path = tmp.path().join("bad.json");
    write_json(&bad_path, &bad);
    let not_record = tmp.path().join("list.json");
    std::fs::write(&not_record, "[]").unwrap();
    let out = run(&["records", "check", s(&good), s(&bad_path), s(&not_record)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for expected in [
        format!(
            "{}: /attempts/1/sequence: gate.attempt_sequence: ",
            s(&bad_path)
        ),
        format!("{}: /resolution/steps/0: screen.", s(&bad_path)),
        format!(
            "{}: /: schema.type: a record is a JSON object",
            s(&not_record)
        ),
    ] {
        assert!(
            stdout.contains(&expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    assert!(!stdout.contains(s(&good)), "{stdout}");
    assert!(!stdout.contains("ghp_Zq8v"), "{stdout}");

    // --json: one report per file, the root pointer shown as `/`.
    let out = run(&["records", "check", s(&good), s(&not_record), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["passed"], false);
    assert_eq!(report["files"][0]["passed"], true);
    assert_eq!(
        report["files"][1]["findings"][0],
        json!({"pointer": "/", "rule": "schema.type", "message": "a record is a JSON object"})
    );

    // stdin.
    let mut child = crate::support::praxis()
        .args(["records", "check", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&serde_json::to_vec(&bad).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("-: "));

    // A file that cannot be read is an error, not a finding: exit 2.
    let out = run(&["records", "check", s(&tmp.path().join("missing.json"))]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
}

/// An empty skill registry is `{"skills": []}` (export writes it with
/// `schema_version` and `revision`); a registry without `skills`, like a
/// missing one, is a finding at its root, shown as `/`.
#[test]
fn validate_takes_the_empty_registry_and_shows_root_findings_as_a_slash() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    let mut record = sample_record("root-ci");
    record["relations"]["related_skills"] = json!([]);
    write_json(
        &repo.join("experience_records/candidates/exp-root-ci-20261120.json"),
        &record,
    );
    let out = run(&["records", "validate", s(&repo)]);
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("shared_skills/registry.json: /: repo.registry: "),
        "{}",
        describe(&out)
    );
    let out = run(&["records", "validate", s(&repo), "--json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["findings"][0]["pointer"], "/", "{report}");
    for empty in [
        json!({"skills": []}),
        json!({"schema_version": "1.0", "revision": 0, "skills": []}),
    ] {
        write_json(&repo.join("shared_skills/registry.json"), &empty);
        run_ok(&["records", "validate", s(&repo)]);
    }
    write_json(&repo.join("shared_skills/registry.json"), &json!({}));
    let out = run(&["records", "validate", s(&repo)]);
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("shared_skills/registry.json: /skills: skill.registry: "),
        "{}",
        describe(&out)
    );
}
