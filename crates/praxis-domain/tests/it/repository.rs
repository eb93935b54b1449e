//! Rules over a whole repository: unique ids, resolvable relations, exact
//! skill releases, layout and size, one mutation per rule.

use praxis_domain::records::Directory;
use praxis_domain::records::repository::{self, RecordFile, Report};
use praxis_testkit::records::sample_record;
use serde_json::{Value, json};

const SHA: &str = "d15ebefd3fa20411c1f2b1202191adcd9fdc0bb2b92761543587bf1bbf81bb4e";

fn registry(withdrawn: bool) -> Vec<u8> {
    let withdrawal = if withdrawn {
        json!({"withdrawn_at": "2026-11-01T00:00:00Z", "reason": "unsafe step"})
    } else {
        Value::Null
    };
    serde_json::to_vec(
        &json!({"skills": [{"name": "agent-debug-memory", "releases": [{
            "version": "1.0.0", "summary": "Consult shared memory before fixing.",
            "artifact": {"sha256": SHA, "size_bytes": 2456}, "withdrawal": withdrawal
        }]}]}),
    )
    .unwrap()
}

fn file(directory: Option<Directory>, record: &Value) -> RecordFile {
    let id = record["experience_id"].as_str().unwrap();
    let dir = directory.map_or("elsewhere", Directory::as_str);
    let bytes = serde_json::to_vec_pretty(record).unwrap();
    RecordFile {
        path: format!("experience_records/{dir}/{id}.json"),
        directory,
        file_bytes: bytes.len(),
        contents: Ok(bytes),
    }
}

fn candidate(slug: &str) -> Value {
    sample_record(slug)
}

fn check(files: Vec<RecordFile>, registry_bytes: Option<Vec<u8>>) -> Report {
    repository::check(files, registry_bytes.map(Ok))
}

fn rules(report: &Report) -> Vec<(String, String)> {
    report
        .findings
        .iter()
        .map(|l| (l.finding.rule.clone(), l.finding.pointer.clone()))
        .collect()
}

#[test]
fn a_consistent_repository_has_no_findings() {
    let first = candidate("first-case");
    let mut second = candidate("second-case");
    second["relations"]["related_experiences"] = json!(["exp-first-case-20261120"]);
    second["relations"]["related_skills"] =
        json!([{"name": "agent-debug-memory", "version": "1.0.0", "sha256": SHA}]);
    let report = check(
        vec![
            file(Some(Directory::Candidates), &first),
            file(Some(Directory::Candidates), &second),
        ],
        Some(registry(false)),
    );
    assert!(report.passed(), "{:?}", report.findings);
    assert!(report.flags.is_empty());
    assert_eq!(report.records.len(), 2);
}

#[test]
fn every_repository_rule_has_a_failing_mutation() {
    let base = candidate("first-case");
    let mut unknown_related = candidate("second-case");
    unknown_related["relations"]["related_experiences"] =
        json!(["exp-zq8vn3xr7tl2mk9pw4yb6cd1fh5js0aq-20261120"]);
    let mut unknown_superseded = candidate("third-case");
    unknown_superseded["relations"]["supersedes"] = json!(["exp-gone-case-20261120"]);
    let mut wrong_digest = candidate("fourth-case");
    wrong_digest["relations"]["related_skills"] =
        json!([{"name": "agent-debug-memory", "version": "1.0.0", "sha256": "0".repeat(64)}]);
    let mut wrong_version = candidate("fifth-case");
    wrong_version["relations"]["related_skills"] =
        json!([{"name": "agent-debug-memory", "version": "1.0.1", "sha256": SHA}]);
    let mut duplicate = base.clone();
    duplicate["lifecycle"]["status"] = json!("withdrawn");
    let report = check(
        vec![
            file(Some(Directory::Candidates), &base),
            file(Some(Directory::Candidates), &unknown_related),
            file(Some(Directory::Candidates), &unknown_superseded),
            file(Some(Directory::Candidates), &wrong_digest),
            file(Some(Directory::Candidates), &wrong_version),
            file(Some(Directory::Reviewed), &duplicate),
            file(None, &candidate("sixth-case")),
        ],
        Some(registry(false)),
    );
    let found = rules(&report);
    for expected in [
        (
            "repo.unknown_experience",
            "/relations/related_experiences/0",
        ),
        ("repo.unknown_experience", "/relations/supersedes/0"),
        ("repo.unknown_skill", "/relations/related_skills/0"),
        ("repo.duplicate_id", "/experience_id"),
        ("repo.layout", ""),
    ] {
        let hit = found
            .iter()
            .any(|(r, p)| r == expected.0 && p == expected.1);
        assert!(hit, "missing {expected:?} in {found:?}");
    }
    let unknown_skills = found
        .iter()
        .filter(|(r, _)| r == "repo.unknown_skill")
        .count();
    assert_eq!(
        unknown_skills, 2,
        "a wrong digest and a wrong version: {found:?}"
    );
    // A message names the rule, never the value it could not resolve.
    for located in &report.findings {
        assert!(
            !located
                .finding
                .message
                .contains("zq8vn3xr7tl2mk9pw4yb6cd1fh5js0aq"),
            "{located}"
        );
    }
    // Every finding is located in its file.
    let located = report
        .findings
        .iter()
        .find(|l| l.finding.rule == "repo.unknown_experience")
        .unwrap();
    assert_eq!(
        located.path,
        "experience_records/candidates/exp-second-case-20261120.json"
    );
}

#[test]
fn a_withdrawn_skill_release_flags_without_failing() {
    let mut record = candidate("first-case");
    record["relations"]["related_skills"] =
        json!([{"name": "agent-debug-memory", "version": "1.0.0", "sha256": SHA}]);
    let report = check(
        vec![file(Some(Directory::Candidates), &record)],
        Some(registry(true)),
    );
    assert!(report.passed(), "{:?}", report.findings);
    assert_eq!(report.flags.len(), 1);
    assert_eq!(report.flags[0].finding.rule, "repo.withdrawn_skill");
}

#[test]
fn registry_size_and_syntax_problems_are_findings() {
    let record = candidate("first-case");
    let missing = check(vec![file(Some(Directory::Candidates), &record)], None);
    assert_eq!(
        rules(&missing),
        [("repo.registry".to_owned(), String::new())]
    );
    let malformed = check(
        vec![file(Some(Directory::Candidates), &record)],
        Some(b"{\"skills\": [".to_vec()),
    );
    assert_eq!(malformed.findings[0].finding.rule, "json.malformed");
    assert_eq!(malformed.findings[0].path, repository::REGISTRY_PATH);
    let bad_release = check(
        vec![file(Some(Directory::Candidates), &record)],
        Some(br#"{"skills":[{"name":"x","releases":[{"version":"1","summary":"s","artifact":{"sha256":"nope"}}]}]}"#.to_vec()),
    );
    let found = rules(&bad_release);
    assert!(
        found.contains(&(
            "skill.version".into(),
            "/skills/0/releases/0/version".into()
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&("skill.sha256".into(), "/skills/0/releases/0/sha256".into())),
        "{found:?}"
    );

    let mut oversized = file(Some(Directory::Candidates), &record);
    oversized.file_bytes = 64 * 1024 + 1;
    let big = check(vec![oversized], Some(registry(false)));
    assert_eq!(rules(&big), [("gate.size".to_owned(), String::new())]);
    let mut broken = file(Some(Directory::Candidates), &record);
    broken.contents = Ok(b"{\"experience_id\": ".to_vec());
    let unparsed = check(vec![broken], Some(registry(false)));
    assert_eq!(unparsed.findings[0].finding.rule, "json.malformed");
}
