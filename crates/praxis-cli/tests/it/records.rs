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
        .arg(&exported)
        .output()
        .expect("python3 with the jsonschema package (CI installs it)");
    assert!(py.status.success(), "{}", describe(&py));
    assert_eq!(String::from_utf8_lossy(&py.stdout).trim(), "1");

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
