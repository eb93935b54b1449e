//! The v0.1 schema and the policy gate, one mutation per rule.
//!
//! Every case mutates the published reviewed record so that it breaks one
//! rule, expects a finding with that rule's code at the offending pointer,
//! and checks that our schema and the published one agree on whether the
//! mutated record is structurally valid.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use praxis_domain::records::{Directory, Finding, Placement, gate, schema, screen};
use proptest::prelude::*;
use serde_json::{Value, json};

mod gate_cases;
mod schema_cases;

use gate_cases::gate_cases;
use schema_cases::schema_cases;

const ID: &str = "exp-codex-session-junction-migration-20260731";
const FIXTURE: &str = "exp-codex-session-junction-migration-20260731.json";
const UPSTREAM_SCHEMA: &str = "experience-record-v0.1.schema.json";

/// The directory holding the published v0.1 schema and record.
fn interop_dir() -> PathBuf {
    praxis_testkit::records::interop_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
}

fn read_json(name: &str) -> Value {
    let path = interop_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

static RECORD: LazyLock<Value> = LazyLock::new(|| read_json(FIXTURE));

/// The published schema, compiled with the same (default) options as ours:
/// `format` is an annotation under Draft 2020-12.
static UPSTREAM: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    jsonschema::draft202012::new(&read_json(UPSTREAM_SCHEMA)).expect("upstream schema compiles")
});

fn fixture() -> Value {
    RECORD.clone()
}

/// Schema and gate findings (screening is tested on its own corpus).
fn structural_and_gate(record: &Value, placement: Option<&Placement>) -> Vec<Finding> {
    let mut found = schema::findings(record);
    found.extend(gate::findings(record, placement));
    found
}

/// Replaces (or adds, for a new key or one past the end of an array) the
/// value at `pointer`.
fn set(v: &mut Value, pointer: &str, new: Value) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer has a parent");
    match v.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.insert(key.to_owned(), new);
        }
        Some(Value::Array(items)) => {
            let i: usize = key.parse().expect("array index");
            if i == items.len() {
                items.push(new);
            } else {
                items[i] = new;
            }
        }
        _ => panic!("no container at {parent}"),
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').expect("pointer has a parent");
    match v.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.remove(key).expect("key present");
        }
        Some(Value::Array(items)) => {
            items.remove(key.parse().expect("array index"));
        }
        _ => panic!("no container at {parent}"),
    }
}

fn push(v: &mut Value, pointer: &str, new: Value) {
    v.pointer_mut(pointer)
        .and_then(Value::as_array_mut)
        .unwrap_or_else(|| panic!("no array at {pointer}"))
        .push(new);
}

const DIGEST: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";
const RUN_URL: &str = "https://github.com/praxis-example/junction-lab/actions/runs/123456789";

/// A fully bound, public workflow-run evidence item.
fn workflow_evidence() -> Value {
    json!({
        "evidence_id": "ev-ci-run",
        "kind": "workflow-run",
        "visibility": "public",
        "summary": "A public workflow run repeated the migration on a scratch volume.",
        "captured_at": "2026-07-31T07:00:00Z",
        "url": RUN_URL,
        "source": {
            "repository_url": "https://github.com/praxis-example/junction-lab",
            "commit_sha": COMMIT,
            "workflow_run_url": RUN_URL,
            "workflow_job_name": "reproduce",
            "workflow_step_name": "Run migration check",
            "artifact_sha256": DIGEST
        },
        "machine_verification": {
            "status": "workflow-verified",
            "verified_at": "2026-07-31T07:30:00Z",
            "source_repository": "praxis-example/junction-lab",
            "commit_sha": COMMIT,
            "workflow_run_id": 123_456_789,
            "workflow_run_url": RUN_URL,
            "workflow_job_name": "reproduce",
            "workflow_step_name": "Run migration check",
            "artifact_sha256": format!("sha256:{DIGEST}"),
            "claim_boundary": "Proves this workflow step ran at this commit, nothing more."
        }
    })
}

/// Adds [`workflow_evidence`] as `/evidence/2`.
fn with_workflow(v: &mut Value) {
    push(v, "/evidence", workflow_evidence());
}

/// A passing external-run check citing the workflow evidence.
fn external_check() -> Value {
    json!({
        "check_id": "check-ci-run",
        "method": "external-run",
        "result": "pass",
        "observed_at": "2026-07-31T07:00:00Z",
        "summary": "The public workflow run completed the migration check.",
        "evidence_refs": ["ev-ci-run"]
    })
}

/// An independently reproduced record whose only check is the public run.
fn independently_reproduced(v: &mut Value) {
    with_workflow(v);
    set(v, "/verification/level", json!("independently-reproduced"));
    set(v, "/verification/checks", json!([external_check()]));
}

fn with_source_issue(v: &mut Value) {
    set(
        v,
        "/provenance/source_issue",
        json!({
            "provider": "github",
            "repository": "praxis-example/experiences",
            "issue_number": 42,
            "url": "https://github.com/praxis-example/experiences/issues/42"
        }),
    );
    set(v, "/provenance/author_ref", json!("github:octo-cat"));
}

/// Makes the review a changes-requested decision on a withdrawn record, so
/// that review rules can be broken one at a time.
fn changes_requested(v: &mut Value) {
    set(v, "/lifecycle/status", json!("withdrawn"));
    set(v, "/review/status", json!("changes-requested"));
    set(v, "/review/mode", json!("human"));
    set(v, "/review/reviewer", json!("maintainer"));
}

fn long(n: usize) -> Value {
    json!("x".repeat(n))
}

/// A change to a record.
type Mutation = Box<dyn Fn(&mut Value)>;

struct Case {
    name: &'static str,
    mutate: Mutation,
    placement: Option<Placement>,
    rule: &'static str,
    pointer: &'static str,
}

fn case(
    name: &'static str,
    rule: &'static str,
    pointer: &'static str,
    mutate: impl Fn(&mut Value) + 'static,
) -> Case {
    Case {
        name,
        mutate: Box::new(mutate),
        placement: None,
        rule,
        pointer,
    }
}

impl Case {
    fn placed(mut self, directory: Directory, stem: &str, file_bytes: usize) -> Case {
        self.placement = Some(Placement {
            directory,
            stem: stem.to_owned(),
            file_bytes,
        });
        self
    }
}

fn run(case: &Case) -> (Value, Vec<Finding>) {
    let mut record = fixture();
    (case.mutate)(&mut record);
    let found = structural_and_gate(&record, case.placement.as_ref());
    (record, found)
}

fn report(found: &[Finding]) -> String {
    found.iter().fold(String::new(), |mut out, f| {
        use std::fmt::Write;
        let _ = write!(out, "\n  {f}");
        out
    })
}

#[test]
fn the_published_record_passes_schema_and_gate() {
    let record = fixture();
    assert_eq!(schema::findings(&record), vec![], "schema findings");
    assert!(schema::is_valid(&record));
    assert!(UPSTREAM.is_valid(&record));
    let placement = Placement {
        directory: Directory::Reviewed,
        stem: ID.to_owned(),
        file_bytes: 20_000,
    };
    assert_eq!(
        gate::findings(&record, Some(&placement)),
        vec![],
        "gate findings"
    );
}

/// The published record is clean text: screening, whose prompt-override
/// model is retrained whenever the corpus grows, must never flag it.
#[test]
fn the_published_record_passes_screening() {
    assert_eq!(screen::findings(&fixture()), vec![], "screening findings");
}

fn check_cases(cases: &[Case]) {
    let mut failures = Vec::new();
    for case in cases {
        let (record, found) = run(case);
        if !found
            .iter()
            .any(|f| f.rule == case.rule && f.pointer == case.pointer)
        {
            failures.push(format!(
                "{}: expected {} at {:?}, found:{}",
                case.name,
                case.rule,
                case.pointer,
                report(&found)
            ));
        }
        let ours = schema::is_valid(&record);
        let theirs = UPSTREAM.is_valid(&record);
        if ours != theirs {
            failures.push(format!(
                "{}: our schema says valid={ours}, the published one valid={theirs}",
                case.name
            ));
        }
        if case.rule.starts_with("schema.") && ours {
            failures.push(format!("{}: our schema accepted it", case.name));
        }
        if ours != found.iter().all(|f| !f.rule.starts_with("schema.")) {
            failures.push(format!("{}: is_valid disagrees with findings", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_schema_constraint_has_a_failing_mutation() {
    check_cases(&schema_cases());
}

#[test]
fn every_gate_rule_has_a_failing_mutation() {
    check_cases(&gate_cases());
}

#[test]
fn every_gate_rule_is_covered() {
    let covered: std::collections::BTreeSet<&str> = gate_cases().iter().map(|c| c.rule).collect();
    for rule in [
        "gate.timestamp",
        "gate.chronology",
        "gate.attempt_sequence",
        "gate.failure_mechanism",
        "gate.passing_check",
        "gate.evidence_ref",
        "gate.duplicate_id",
        "gate.duplicate_item",
        "gate.independent_reproduction",
        "gate.automated_review",
        "gate.workflow_binding",
        "gate.source_issue",
        "gate.author_ref",
        "gate.public_issue_evidence",
        "gate.id_date",
        "gate.id_length",
        "gate.self_relation",
        "gate.redaction_pending",
        "gate.directory",
        "gate.filename",
        "gate.size",
    ] {
        assert!(covered.contains(rule), "{rule} has no mutation");
    }
}

/// Variants the rules tolerate: each must pass the schema and the gate.
#[test]
fn tolerated_variants_pass() {
    let variants: Vec<(&str, Mutation)> = vec![
        ("bound workflow run", Box::new(with_workflow)),
        (
            "workflow binding modulo case, slashes and digest prefix",
            Box::new(|v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/source/repository_url",
                    json!("https://github.com/Praxis-Example/Junction-Lab/"),
                );
                set(
                    v,
                    "/evidence/2/source/workflow_run_url",
                    json!(format!("{RUN_URL}/")),
                );
                set(
                    v,
                    "/evidence/2/source/artifact_sha256",
                    json!(format!("sha256:{DIGEST}")),
                );
            }),
        ),
        (
            "workflow run without an artifact",
            Box::new(|v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/artifact_sha256",
                    Value::Null,
                );
            }),
        ),
        (
            "independently reproduced by a public run",
            Box::new(independently_reproduced),
        ),
        (
            "github issue intake",
            Box::new(|v| {
                with_source_issue(v);
                set(v, "/provenance/source_type", json!("public-issue"));
                with_workflow(v);
                set(v, "/provenance/source_evidence_refs", json!(["ev-ci-run"]));
            }),
        ),
        (
            "offsets compared as instants",
            Box::new(|v| {
                set(
                    v,
                    "/lifecycle/created_at",
                    json!("2026-07-31T09:49:50+02:00"),
                );
            }),
        ),
        (
            "id date is the literal observation date",
            Box::new(|v| {
                set(
                    v,
                    "/context/observed_at",
                    json!("2026-07-31T23:30:00-02:00"),
                );
            }),
        ),
        (
            "fractional seconds",
            Box::new(|v| {
                set(
                    v,
                    "/evidence/0/captured_at",
                    json!("2026-07-31T06:50:00.123456Z"),
                );
            }),
        ),
        (
            "related to another record",
            Box::new(|v| {
                push(
                    v,
                    "/relations/related_experiences",
                    json!("exp-other-case-20260101"),
                );
            }),
        ),
        (
            "no rollback, with notes",
            Box::new(|v| {
                set(v, "/rollback/available", json!(false));
                set(v, "/rollback/conditions", json!([]));
                set(v, "/rollback/steps", json!([]));
                set(
                    v,
                    "/rollback/notes",
                    json!("The source copy was deleted at finalization."),
                );
            }),
        ),
        (
            "pending candidate",
            Box::new(|v| {
                set(v, "/lifecycle/status", json!("candidate"));
                set(v, "/review", json!({"status": "pending"}));
            }),
        ),
    ];
    for (name, mutate) in variants {
        let mut record = fixture();
        mutate(&mut record);
        let found = structural_and_gate(&record, None);
        assert!(found.is_empty(), "{name}:{}", report(&found));
        assert!(
            UPSTREAM.is_valid(&record),
            "{name}: the published schema rejects it"
        );
    }
}

#[test]
fn several_problems_are_reported_at_once() {
    let mut record = fixture();
    set(&mut record, "/title", json!("short"));
    set(&mut record, "/attempts/1/sequence", json!(7));
    set(
        &mut record,
        "/experience_id",
        json!("exp-codex-session-junction-migration-20250731"),
    );
    set(&mut record, "/redaction/status", json!("pending"));
    set(
        &mut record,
        "/verification/checks/0/evidence_refs/0",
        json!("ev-nowhere"),
    );
    set(
        &mut record,
        "/review/reviewer",
        json!("github-experience-agent-v1"),
    );
    set(&mut record, "/extra", json!(true));
    set(
        &mut record,
        "/lifecycle/created_at",
        json!("2026-07-31T07:08:15"),
    );
    let found = structural_and_gate(&record, None);
    for (rule, pointer) in [
        ("schema.min_length", "/title"),
        ("schema.additional_properties", ""),
        ("gate.attempt_sequence", "/attempts/1/sequence"),
        ("gate.id_date", "/experience_id"),
        ("gate.redaction_pending", "/redaction/status"),
        (
            "gate.evidence_ref",
            "/verification/checks/0/evidence_refs/0",
        ),
        ("gate.automated_review", "/review/reviewer"),
        ("gate.timestamp", "/lifecycle/created_at"),
    ] {
        assert!(
            found.iter().any(|f| f.rule == rule && f.pointer == pointer),
            "missing {rule} at {pointer}:{}",
            report(&found)
        );
    }
}

#[test]
fn findings_never_echo_offending_values() {
    let secret = format!("ghp_{}", "Zq9".repeat(70));
    let mut record = fixture();
    set(&mut record, "/title", json!(secret));
    set(&mut record, "/experience_id", json!(secret));
    set(&mut record, "/review/reviewer", json!(secret));
    set(&mut record, "/context/platform", json!(secret));
    set(&mut record, "/lifecycle/created_at", json!(secret));
    set(&mut record, "/attempts/0/evidence_refs/0", json!(secret));
    set(
        &mut record,
        "/relations/related_experiences",
        json!([secret]),
    );
    set(&mut record, "/evidence/0/summary", json!(secret.repeat(10)));
    set(&mut record, &format!("/{secret}"), json!(secret));
    let found = structural_and_gate(&record, None);
    for rule in [
        "schema.max_length",
        "schema.pattern",
        "schema.enum",
        "gate.timestamp",
    ] {
        assert!(
            found.iter().any(|f| f.rule == rule),
            "no {rule}:{}",
            report(&found)
        );
    }
    for f in &found {
        assert!(!f.message.contains("Zq9Zq9"), "echoed in {f}");
        assert!(!f.pointer.contains("Zq9Zq9"), "echoed in {f}");
    }
}

#[test]
fn malformed_records_do_not_panic() {
    for record in [
        json!(null),
        json!("text"),
        json!([]),
        json!({}),
        json!({"attempts": "none", "evidence": {}, "verification": {"checks": 3}}),
        json!({"attempts": [null, {"sequence": -1}], "evidence": [1, {"evidence_id": 2}],
               "provenance": {"source_issue": {"repository": 1, "issue_number": "x"}},
               "review": {"mode": "automated-policy", "reviewer": 5}}),
    ] {
        let found = structural_and_gate(&record, None);
        assert!(!schema::is_valid(&record));
        assert!(found.iter().any(|f| f.rule.starts_with("schema.")));
    }
}

/// Every pointer of `value`, containers included.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(child, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

static POINTERS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut record = fixture();
    with_workflow(&mut record);
    with_source_issue(&mut record);
    let mut out = Vec::new();
    pointers(&record, String::new(), &mut out);
    out.retain(|p| !p.is_empty());
    out
});

/// Values that sit on the edges of the schema's rules.
fn edge_value() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        Just(Some(Value::Null)),
        any::<bool>().prop_map(|b| Some(json!(b))),
        prop_oneof![Just(-1i64), Just(0), Just(1), Just(2), Just(5)].prop_map(|n| Some(json!(n))),
        Just(Some(json!(1.5))),
        Just(Some(json!([]))),
        Just(Some(json!({}))),
        (0usize..12).prop_map(|n| Some(json!("a".repeat(n)))),
        Just(Some(json!("x".repeat(2001)))),
        prop::sample::select(vec![
            "approved",
            "pending",
            "changes-requested",
            "candidate",
            "reviewed",
            "superseded",
            "withdrawn",
            "human",
            "automated-policy",
            "failed",
            "partial",
            "succeeded",
            "external-run",
            "pass",
            "public",
            "local-only",
            "public-url",
            "workflow-run",
            "artifact-digest",
            "applied",
            "not-required",
            "independently-reproduced",
            "github-experience-agent-v1",
            "ev-ci-run",
            "ev-migration-receipt",
        ])
        .prop_map(|s| Some(json!(s))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random edits anywhere in a full record: our schema and the published
    /// one agree, and neither layer panics.
    #[test]
    fn schemas_agree_on_random_edits(
        edits in prop::collection::vec((any::<prop::sample::Index>(), edge_value()), 1..4)
    ) {
        let mut record = fixture();
        with_workflow(&mut record);
        with_source_issue(&mut record);
        for (index, value) in edits {
            let pointer = index.get(&POINTERS).as_str();
            if record.pointer(pointer).is_none() {
                continue;
            }
            match value {
                Some(v) => set(&mut record, pointer, v),
                None => remove(&mut record, pointer),
            }
        }
        prop_assert_eq!(schema::is_valid(&record), UPSTREAM.is_valid(&record));
        let found = structural_and_gate(&record, None);
        prop_assert_eq!(
            schema::is_valid(&record),
            found.iter().all(|f| !f.rule.starts_with("schema."))
        );
    }

    /// Every instant jiff prints parses back strictly to itself.
    #[test]
    fn printed_timestamps_round_trip(
        seconds in 0i64..253_402_300_799,
        nanos in 0i32..1_000_000_000,
    ) {
        let ts = jiff::Timestamp::new(seconds, nanos).unwrap();
        prop_assert_eq!(gate::parse_timestamp(&ts.to_string()), Ok(ts));
    }

    /// The same instant written with any valid offset parses to it, and
    /// the lowercase or spaced variants of that text never parse.
    #[test]
    fn offsets_and_separators(
        seconds in 86_400i64..253_402_128_000,
        offset_minutes in -(23i32 * 60 + 59)..=(23 * 60 + 59),
    ) {
        let ts = jiff::Timestamp::from_second(seconds).unwrap();
        let offset = jiff::tz::Offset::from_seconds(offset_minutes * 60).unwrap();
        let civil = offset.to_datetime(ts);
        let sign = if offset_minutes < 0 { '-' } else { '+' };
        let (h, m) = (offset_minutes.abs() / 60, offset_minutes.abs() % 60);
        let text = format!("{}{sign}{h:02}:{m:02}", civil.strftime("%Y-%m-%dT%H:%M:%S"));
        prop_assert_eq!(gate::parse_timestamp(&text), Ok(ts));
        prop_assert!(gate::parse_timestamp(&text.replace('T', "t")).is_err());
        prop_assert!(gate::parse_timestamp(&text.replace('T', " ")).is_err());
        prop_assert!(gate::parse_timestamp(&text[..text.len() - 6]).is_err());
    }
}
