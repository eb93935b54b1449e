//! The v0.1 schema and the policy gate, one mutation per rule.
//!
//! Every case mutates the published reviewed record so that it breaks one
//! rule, expects a finding with that rule's code at the offending pointer,
//! and checks that our schema and the published one agree on whether the
//! mutated record is structurally valid.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use praxis_domain::records::{Directory, Finding, MAX_RECORD_BYTES, Placement, gate, schema};
use proptest::prelude::*;
use serde_json::{Value, json};

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

/// One mutation per schema constraint family.
fn schema_cases() -> Vec<Case> {
    vec![
        case("missing top-level field", "schema.required", "", |v| {
            remove(v, "/summary")
        }),
        case(
            "missing nested field",
            "schema.required",
            "/lifecycle",
            |v| remove(v, "/lifecycle/created_at"),
        ),
        case(
            "missing check field",
            "schema.required",
            "/verification/checks/0",
            |v| remove(v, "/verification/checks/0/observed_at"),
        ),
        case(
            "unknown top-level field",
            "schema.additional_properties",
            "",
            |v| set(v, "/notes", json!("anything")),
        ),
        case(
            "unknown evidence field",
            "schema.additional_properties",
            "/evidence/0",
            |v| set(v, "/evidence/0/extra", json!(1)),
        ),
        case(
            "unknown relations field",
            "schema.additional_properties",
            "/relations",
            |v| set(v, "/relations/parents", json!([])),
        ),
        case("schema version", "schema.const", "/schema_version", |v| {
            set(v, "/schema_version", json!("0.2"))
        }),
        case("record kind", "schema.const", "/record_kind", |v| {
            set(v, "/record_kind", json!("skill"))
        }),
        case(
            "screening status",
            "schema.const",
            "/screening/status",
            |v| set(v, "/screening/status", json!("failed")),
        ),
        case(
            "lifecycle status",
            "schema.enum",
            "/lifecycle/status",
            |v| set(v, "/lifecycle/status", json!("draft")),
        ),
        case("platform", "schema.enum", "/context/platform", |v| {
            set(v, "/context/platform", json!("bsd"))
        }),
        case("attempt result", "schema.enum", "/attempts/0/result", |v| {
            set(v, "/attempts/0/result", json!("abandoned"))
        }),
        case(
            "check method",
            "schema.enum",
            "/verification/checks/0/method",
            |v| set(v, "/verification/checks/0/method", json!("vibes")),
        ),
        case(
            "evidence visibility",
            "schema.enum",
            "/evidence/0/visibility",
            |v| set(v, "/evidence/0/visibility", json!("secret")),
        ),
        case("risk severity", "schema.enum", "/risks/0/severity", |v| {
            set(v, "/risks/0/severity", json!("critical"))
        }),
        case(
            "screening method",
            "schema.enum",
            "/screening/method",
            |v| set(v, "/screening/method", json!("someone")),
        ),
        case(
            "redaction category",
            "schema.enum",
            "/redaction/removed_categories/0",
            |v| set(v, "/redaction/removed_categories/0", json!("emails")),
        ),
        case(
            "sequence type",
            "schema.type",
            "/attempts/0/sequence",
            |v| set(v, "/attempts/0/sequence", json!("1")),
        ),
        case(
            "rollback availability type",
            "schema.type",
            "/rollback/available",
            |v| set(v, "/rollback/available", json!("yes")),
        ),
        case("record is not an object", "schema.type", "", |v| {
            *v = json!([])
        }),
        case("experience id", "schema.pattern", "/experience_id", |v| {
            set(v, "/experience_id", json!("EXP-codex-20260731"))
        }),
        case(
            "evidence id",
            "schema.pattern",
            "/evidence/0/evidence_id",
            |v| set(v, "/evidence/0/evidence_id", json!("evidence-1")),
        ),
        case(
            "check id",
            "schema.pattern",
            "/verification/checks/0/check_id",
            |v| set(v, "/verification/checks/0/check_id", json!("check_1")),
        ),
        case(
            "evidence ref",
            "schema.pattern",
            "/attempts/0/evidence_refs/0",
            |v| set(v, "/attempts/0/evidence_refs/0", json!("ev-")),
        ),
        case(
            "derived skill slug",
            "schema.pattern",
            "/relations/derived_skill_candidates/0",
            |v| {
                set(
                    v,
                    "/relations/derived_skill_candidates/0",
                    json!("Not A Slug"),
                )
            },
        ),
        case(
            "evidence url scheme",
            "schema.pattern",
            "/evidence/0/url",
            |v| {
                set(v, "/evidence/0/kind", json!("public-url"));
                set(v, "/evidence/0/visibility", json!("public"));
                set(v, "/evidence/0/url", json!("http://example.com/x"));
            },
        ),
        case(
            "evidence digest",
            "schema.pattern",
            "/evidence/0/sha256",
            |v| {
                set(v, "/evidence/0/kind", json!("artifact-digest"));
                set(v, "/evidence/0/sha256", json!(DIGEST.to_uppercase()));
            },
        ),
        case(
            "skill version",
            "schema.pattern",
            "/relations/related_skills/0/version",
            |v| {
                push(
                    v,
                    "/relations/related_skills",
                    json!({"name": "junction-migration", "version": "1.0", "sha256": DIGEST}),
                )
            },
        ),
        case(
            "skill missing digest",
            "schema.required",
            "/relations/related_skills/0",
            |v| {
                push(
                    v,
                    "/relations/related_skills",
                    json!({"name": "junction-migration", "version": "1.0.0"}),
                )
            },
        ),
        case("title too short", "schema.min_length", "/title", |v| {
            set(v, "/title", json!("short"))
        }),
        case("title too long", "schema.max_length", "/title", |v| {
            set(v, "/title", long(161))
        }),
        case("summary too short", "schema.min_length", "/summary", |v| {
            set(v, "/summary", long(19))
        }),
        case(
            "mechanism too long",
            "schema.max_length",
            "/root_cause/mechanism",
            |v| set(v, "/root_cause/mechanism", long(2001)),
        ),
        case(
            "evidence summary too long",
            "schema.max_length",
            "/evidence/0/summary",
            |v| set(v, "/evidence/0/summary", long(2001)),
        ),
        case(
            "empty statement",
            "schema.min_length",
            "/context/environment/0",
            |v| set(v, "/context/environment/0", json!("")),
        ),
        case(
            "reviewer too long",
            "schema.max_length",
            "/review/reviewer",
            |v| {
                changes_requested(v);
                set(v, "/review/reviewer", long(101));
            },
        ),
        case(
            "screening finding too long",
            "schema.max_length",
            "/screening/findings/0",
            |v| push(v, "/screening/findings", long(501)),
        ),
        case("no attempts", "schema.min_items", "/attempts", |v| {
            set(v, "/attempts", json!([]))
        }),
        case(
            "no environment",
            "schema.min_items",
            "/context/environment",
            |v| set(v, "/context/environment", json!([])),
        ),
        case("no evidence", "schema.min_items", "/evidence", |v| {
            set(v, "/evidence", json!([]))
        }),
        case("too many risks", "schema.max_items", "/risks", |v| {
            let risk = v["risks"][0].clone();
            set(v, "/risks", Value::Array(vec![risk; 33]));
        }),
        case(
            "too many screening findings",
            "schema.max_items",
            "/screening/findings",
            |v| {
                let items = (0..33).map(|i| json!(format!("finding {i}"))).collect();
                set(v, "/screening/findings", Value::Array(items));
            },
        ),
        case(
            "zero sequence",
            "schema.minimum",
            "/attempts/0/sequence",
            |v| set(v, "/attempts/0/sequence", json!(0)),
        ),
        case(
            "repeated skill candidate",
            "schema.unique_items",
            "/relations/derived_skill_candidates",
            |v| {
                push(
                    v,
                    "/relations/derived_skill_candidates",
                    json!("codex-session-storage-junction-migration"),
                )
            },
        ),
        case(
            "repeated evidence ref",
            "schema.unique_items",
            "/attempts/3/evidence_refs",
            |v| {
                push(
                    v,
                    "/attempts/3/evidence_refs",
                    json!("ev-migration-receipt"),
                )
            },
        ),
        // Conditional rules.
        case(
            "reviewed needs approval",
            "schema.const",
            "/review/status",
            |v| set(v, "/review/status", json!("changes-requested")),
        ),
        case(
            "superseded needs approval",
            "schema.const",
            "/review/status",
            |v| {
                set(v, "/lifecycle/status", json!("superseded"));
                set(v, "/review/status", json!("pending"));
            },
        ),
        case(
            "candidate is not approved",
            "schema.enum",
            "/review/status",
            |v| set(v, "/lifecycle/status", json!("candidate")),
        ),
        case(
            "decision needs reviewer",
            "schema.required",
            "/review",
            |v| remove(v, "/review/reviewer"),
        ),
        case("decision needs mode", "schema.required", "/review", |v| {
            changes_requested(v);
            remove(v, "/review/mode");
        }),
        case("decision needs time", "schema.required", "/review", |v| {
            remove(v, "/review/reviewed_at")
        }),
        case(
            "pending review has no mode",
            "schema.false_schema",
            "/review/mode",
            |v| {
                set(v, "/lifecycle/status", json!("candidate"));
                set(v, "/review/status", json!("pending"));
                remove(v, "/review/reviewer");
                remove(v, "/review/reviewed_at");
            },
        ),
        case(
            "pending review has no reviewer",
            "schema.false_schema",
            "/review/reviewer",
            |v| {
                set(v, "/lifecycle/status", json!("candidate"));
                set(v, "/review/status", json!("pending"));
                remove(v, "/review/mode");
                remove(v, "/review/reviewed_at");
            },
        ),
        case(
            "pending review has no time",
            "schema.false_schema",
            "/review/reviewed_at",
            |v| {
                set(v, "/lifecycle/status", json!("candidate"));
                set(v, "/review/status", json!("pending"));
                remove(v, "/review/mode");
                remove(v, "/review/reviewer");
            },
        ),
        case(
            "automated review only approves",
            "schema.const",
            "/review/status",
            |v| {
                changes_requested(v);
                set(v, "/review/mode", json!("automated-policy"));
                set(v, "/review/reviewer", json!("repository-policy-gate-v1"));
            },
        ),
        case(
            "automated reviewer is a recognized gate",
            "schema.enum",
            "/review/reviewer",
            |v| set(v, "/review/reviewer", json!("a-helpful-bot")),
        ),
        case(
            "changes requested needs notes",
            "schema.required",
            "/review",
            |v| {
                changes_requested(v);
                remove(v, "/review/notes");
            },
        ),
        case(
            "partial attempt needs mechanism",
            "schema.required",
            "/attempts/2",
            |v| remove(v, "/attempts/2/failure_mechanism"),
        ),
        case(
            "failed attempt needs mechanism",
            "schema.required",
            "/attempts/0",
            |v| set(v, "/attempts/0/result", json!("failed")),
        ),
        case(
            "succeeded attempt has no mechanism",
            "schema.false_schema",
            "/attempts/1/failure_mechanism",
            |v| {
                set(
                    v,
                    "/attempts/1/failure_mechanism",
                    json!("It did not fail."),
                )
            },
        ),
        case(
            "independent level needs external run",
            "schema.contains",
            "/verification/checks",
            |v| set(v, "/verification/level", json!("independently-reproduced")),
        ),
        case(
            "independent level needs a passing run",
            "schema.contains",
            "/verification/checks",
            |v| {
                independently_reproduced(v);
                set(v, "/verification/checks/0/result", json!("partial"));
                push(
                    v,
                    "/verification/checks",
                    RECORD["verification"]["checks"][0].clone(),
                );
            },
        ),
        case(
            "rollback needs conditions",
            "schema.min_items",
            "/rollback/conditions",
            |v| set(v, "/rollback/conditions", json!([])),
        ),
        case(
            "rollback needs steps",
            "schema.min_items",
            "/rollback/steps",
            |v| set(v, "/rollback/steps", json!([])),
        ),
        case(
            "no rollback needs notes",
            "schema.required",
            "/rollback",
            |v| {
                set(v, "/rollback/available", json!(false));
                set(v, "/rollback/conditions", json!([]));
                set(v, "/rollback/steps", json!([]));
            },
        ),
        case(
            "no rollback has no conditions",
            "schema.max_items",
            "/rollback/conditions",
            |v| {
                set(v, "/rollback/available", json!(false));
                set(
                    v,
                    "/rollback/notes",
                    json!("The copy was deleted at finalization."),
                );
                set(v, "/rollback/steps", json!([]));
            },
        ),
        case(
            "no rollback has no steps",
            "schema.max_items",
            "/rollback/steps",
            |v| {
                set(v, "/rollback/available", json!(false));
                set(
                    v,
                    "/rollback/notes",
                    json!("The copy was deleted at finalization."),
                );
                set(v, "/rollback/conditions", json!([]));
            },
        ),
        case(
            "applied redaction names a category",
            "schema.min_items",
            "/redaction/removed_categories",
            |v| set(v, "/redaction/removed_categories", json!([])),
        ),
        case(
            "unneeded redaction names none",
            "schema.max_items",
            "/redaction/removed_categories",
            |v| set(v, "/redaction/status", json!("not-required")),
        ),
        case(
            "public url needs a url",
            "schema.required",
            "/evidence/0",
            |v| {
                set(v, "/evidence/0/kind", json!("public-url"));
                set(v, "/evidence/0/visibility", json!("public"));
            },
        ),
        case(
            "public url is public",
            "schema.const",
            "/evidence/0/visibility",
            |v| {
                set(v, "/evidence/0/kind", json!("public-url"));
                set(v, "/evidence/0/url", json!("https://example.com/receipt"));
            },
        ),
        case(
            "workflow run is public",
            "schema.const",
            "/evidence/2/visibility",
            |v| {
                with_workflow(v);
                set(v, "/evidence/2/visibility", json!("local-only"));
            },
        ),
        case(
            "workflow run needs a url",
            "schema.required",
            "/evidence/2",
            |v| {
                with_workflow(v);
                remove(v, "/evidence/2/url");
            },
        ),
        case(
            "workflow run needs its source",
            "schema.required",
            "/evidence/2",
            |v| {
                with_workflow(v);
                remove(v, "/evidence/2/source");
            },
        ),
        case(
            "workflow run needs its receipt",
            "schema.required",
            "/evidence/2",
            |v| {
                with_workflow(v);
                remove(v, "/evidence/2/machine_verification");
            },
        ),
        case(
            "only workflow runs have a source",
            "schema.false_schema",
            "/evidence/2/source",
            |v| {
                with_workflow(v);
                set(v, "/evidence/2/kind", json!("public-url"));
                remove(v, "/evidence/2/machine_verification");
            },
        ),
        case(
            "only workflow runs have a receipt",
            "schema.false_schema",
            "/evidence/2/machine_verification",
            |v| {
                with_workflow(v);
                set(v, "/evidence/2/kind", json!("public-url"));
                remove(v, "/evidence/2/source");
            },
        ),
        case(
            "artifact digest needs a digest",
            "schema.required",
            "/evidence/0",
            |v| set(v, "/evidence/0/kind", json!("artifact-digest")),
        ),
        case(
            "receipt digest is prefixed",
            "schema.pattern",
            "/evidence/2/machine_verification/artifact_sha256",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/artifact_sha256",
                    json!(DIGEST),
                );
            },
        ),
        case(
            "receipt digest is a string or null",
            "schema.type",
            "/evidence/2/machine_verification/artifact_sha256",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/artifact_sha256",
                    json!(7),
                );
            },
        ),
        case(
            "receipt digest is required",
            "schema.required",
            "/evidence/2/machine_verification",
            |v| {
                with_workflow(v);
                remove(v, "/evidence/2/machine_verification/artifact_sha256");
            },
        ),
        case(
            "receipt status",
            "schema.const",
            "/evidence/2/machine_verification/status",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/status",
                    json!("claimed"),
                );
            },
        ),
        case(
            "receipt run id",
            "schema.minimum",
            "/evidence/2/machine_verification/workflow_run_id",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/workflow_run_id",
                    json!(0),
                );
            },
        ),
        case(
            "receipt boundary too short",
            "schema.min_length",
            "/evidence/2/machine_verification/claim_boundary",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/claim_boundary",
                    json!("provenance"),
                );
            },
        ),
        case(
            "source repository url",
            "schema.pattern",
            "/evidence/2/source/repository_url",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/source/repository_url",
                    json!("https://gitlab.com/o/r"),
                );
            },
        ),
        case(
            "source commit",
            "schema.pattern",
            "/evidence/2/source/commit_sha",
            |v| {
                with_workflow(v);
                set(v, "/evidence/2/source/commit_sha", json!("abc123"));
            },
        ),
        case(
            "source run url",
            "schema.pattern",
            "/evidence/2/source/workflow_run_url",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/source/workflow_run_url",
                    json!("https://github.com/o/r/runs/1"),
                );
            },
        ),
        case(
            "source job name empty",
            "schema.min_length",
            "/evidence/2/source/workflow_job_name",
            |v| {
                with_workflow(v);
                set(v, "/evidence/2/source/workflow_job_name", json!(""));
            },
        ),
        case(
            "source step name too long",
            "schema.max_length",
            "/evidence/2/source/workflow_step_name",
            |v| {
                with_workflow(v);
                set(v, "/evidence/2/source/workflow_step_name", long(201));
            },
        ),
        case(
            "source artifact digest",
            "schema.pattern",
            "/evidence/2/source/artifact_sha256",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/source/artifact_sha256",
                    json!(format!("sha512:{DIGEST}")),
                );
            },
        ),
        case(
            "source issue provider",
            "schema.const",
            "/provenance/source_issue/provider",
            |v| {
                with_source_issue(v);
                set(v, "/provenance/source_issue/provider", json!("gitlab"));
            },
        ),
        case(
            "source issue number",
            "schema.minimum",
            "/provenance/source_issue/issue_number",
            |v| {
                with_source_issue(v);
                set(v, "/provenance/source_issue/issue_number", json!(0));
            },
        ),
        case(
            "source issue repository",
            "schema.pattern",
            "/provenance/source_issue/repository",
            |v| {
                with_source_issue(v);
                set(v, "/provenance/source_issue/repository", json!("no-slash"));
            },
        ),
        case(
            "source issue url",
            "schema.pattern",
            "/provenance/source_issue/url",
            |v| {
                with_source_issue(v);
                set(
                    v,
                    "/provenance/source_issue/url",
                    json!("https://github.com/o/r/pull/42"),
                );
            },
        ),
        case(
            "provenance source type",
            "schema.enum",
            "/provenance/source_type",
            |v| set(v, "/provenance/source_type", json!("rumour")),
        ),
        case(
            "related experience id",
            "schema.pattern",
            "/relations/related_experiences/0",
            |v| push(v, "/relations/related_experiences", json!("exp-other")),
        ),
    ]
}

/// One mutation per policy-gate rule (and per variant of each).
fn gate_cases() -> Vec<Case> {
    vec![
        case(
            "space instead of T",
            "gate.timestamp",
            "/lifecycle/created_at",
            |v| set(v, "/lifecycle/created_at", json!("2026-07-31 07:08:15Z")),
        ),
        case(
            "lowercase z",
            "gate.timestamp",
            "/lifecycle/updated_at",
            |v| set(v, "/lifecycle/updated_at", json!("2026-07-31T07:49:50z")),
        ),
        case(
            "no seconds",
            "gate.timestamp",
            "/context/observed_at",
            |v| set(v, "/context/observed_at", json!("2026-07-31T07:08Z")),
        ),
        case(
            "no offset",
            "gate.timestamp",
            "/provenance/captured_at",
            |v| set(v, "/provenance/captured_at", json!("2026-07-31T07:08:15")),
        ),
        case(
            "February 30",
            "gate.timestamp",
            "/evidence/1/captured_at",
            |v| set(v, "/evidence/1/captured_at", json!("2026-02-30T07:08:14Z")),
        ),
        case(
            "hour 24",
            "gate.timestamp",
            "/verification/checks/2/observed_at",
            |v| {
                set(
                    v,
                    "/verification/checks/2/observed_at",
                    json!("2026-07-31T24:00:00Z"),
                )
            },
        ),
        case(
            "offset out of range",
            "gate.timestamp",
            "/screening/screened_at",
            |v| {
                set(
                    v,
                    "/screening/screened_at",
                    json!("2026-07-31T07:49:50+24:00"),
                )
            },
        ),
        case(
            "review time not a date",
            "gate.timestamp",
            "/review/reviewed_at",
            |v| set(v, "/review/reviewed_at", json!("yesterday")),
        ),
        case(
            "receipt time",
            "gate.timestamp",
            "/evidence/2/machine_verification/verified_at",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/verified_at",
                    json!("2026-07-31T07:30:00.Z"),
                );
            },
        ),
        case(
            "updated before created",
            "gate.chronology",
            "/lifecycle/updated_at",
            |v| set(v, "/lifecycle/created_at", json!("2026-07-31T08:00:00Z")),
        ),
        case(
            "updated before reviewed",
            "gate.chronology",
            "/lifecycle/updated_at",
            |v| set(v, "/lifecycle/updated_at", json!("2026-07-31T07:30:00Z")),
        ),
        case(
            "updated before created, by offset",
            "gate.chronology",
            "/lifecycle/updated_at",
            |v| {
                set(
                    v,
                    "/lifecycle/updated_at",
                    json!("2026-07-31T08:00:00+01:00"),
                )
            },
        ),
        case(
            "sequence gap",
            "gate.attempt_sequence",
            "/attempts/2/sequence",
            |v| set(v, "/attempts/2/sequence", json!(5)),
        ),
        case(
            "sequence out of order",
            "gate.attempt_sequence",
            "/attempts/0/sequence",
            |v| {
                set(v, "/attempts/0/sequence", json!(2));
                set(v, "/attempts/1/sequence", json!(1));
            },
        ),
        case(
            "partial attempt without mechanism",
            "gate.failure_mechanism",
            "/attempts/2",
            |v| remove(v, "/attempts/2/failure_mechanism"),
        ),
        case(
            "skipped attempt with mechanism",
            "gate.failure_mechanism",
            "/attempts/0/failure_mechanism",
            |v| {
                set(
                    v,
                    "/attempts/0/failure_mechanism",
                    json!("It was never tried."),
                )
            },
        ),
        case(
            "no passing check",
            "gate.passing_check",
            "/verification/checks",
            |v| {
                for i in 0..3 {
                    set(
                        v,
                        &format!("/verification/checks/{i}/result"),
                        json!("partial"),
                    );
                }
            },
        ),
        case(
            "attempt cites unknown evidence",
            "gate.evidence_ref",
            "/attempts/3/evidence_refs/1",
            |v| set(v, "/attempts/3/evidence_refs/1", json!("ev-missing")),
        ),
        case(
            "check cites unknown evidence",
            "gate.evidence_ref",
            "/verification/checks/1/evidence_refs/0",
            |v| {
                set(
                    v,
                    "/verification/checks/1/evidence_refs/0",
                    json!("ev-missing"),
                )
            },
        ),
        case(
            "provenance cites unknown evidence",
            "gate.evidence_ref",
            "/provenance/source_evidence_refs/1",
            |v| set(v, "/provenance/source_evidence_refs/1", json!("ev-missing")),
        ),
        case(
            "repeated evidence id",
            "gate.duplicate_id",
            "/evidence/1/evidence_id",
            |v| set(v, "/evidence/1/evidence_id", json!("ev-migration-receipt")),
        ),
        case(
            "repeated check id",
            "gate.duplicate_id",
            "/verification/checks/2/check_id",
            |v| {
                set(
                    v,
                    "/verification/checks/2/check_id",
                    json!("check-initial-copy"),
                )
            },
        ),
        case(
            "repeated environment line",
            "gate.duplicate_item",
            "/context/environment/3",
            |v| {
                let first = v["context"]["environment"][0].clone();
                push(v, "/context/environment", first);
            },
        ),
        case(
            "repeated constraint",
            "gate.duplicate_item",
            "/context/constraints/4",
            |v| {
                let first = v["context"]["constraints"][1].clone();
                push(v, "/context/constraints", first);
            },
        ),
        case(
            "repeated signal",
            "gate.duplicate_item",
            "/symptom/signals/3",
            |v| {
                let first = v["symptom"]["signals"][0].clone();
                push(v, "/symptom/signals", first);
            },
        ),
        case(
            "repeated resolution step",
            "gate.duplicate_item",
            "/resolution/steps/6",
            |v| {
                let first = v["resolution"]["steps"][0].clone();
                push(v, "/resolution/steps", first);
            },
        ),
        case(
            "repeated applies-when",
            "gate.duplicate_item",
            "/applicability/applies_when/3",
            |v| {
                let first = v["applicability"]["applies_when"][0].clone();
                push(v, "/applicability/applies_when", first);
            },
        ),
        case(
            "repeated avoid-when",
            "gate.duplicate_item",
            "/applicability/avoid_when/4",
            |v| {
                let first = v["applicability"]["avoid_when"][0].clone();
                push(v, "/applicability/avoid_when", first);
            },
        ),
        case(
            "repeated rollback condition",
            "gate.duplicate_item",
            "/rollback/conditions/3",
            |v| {
                let first = v["rollback"]["conditions"][0].clone();
                push(v, "/rollback/conditions", first);
            },
        ),
        case(
            "repeated rollback step",
            "gate.duplicate_item",
            "/rollback/steps/3",
            |v| {
                let first = v["rollback"]["steps"][2].clone();
                push(v, "/rollback/steps", first);
            },
        ),
        case(
            "repeated screening finding",
            "gate.duplicate_item",
            "/screening/findings/1",
            |v| set(v, "/screening/findings", json!(["a note", "a note"])),
        ),
        case(
            "repeated attempt ref",
            "gate.duplicate_item",
            "/attempts/0/evidence_refs/1",
            |v| {
                push(
                    v,
                    "/attempts/0/evidence_refs",
                    json!("ev-migration-receipt"),
                )
            },
        ),
        case(
            "repeated check ref",
            "gate.duplicate_item",
            "/verification/checks/0/evidence_refs/1",
            |v| {
                push(
                    v,
                    "/verification/checks/0/evidence_refs",
                    json!("ev-migration-receipt"),
                )
            },
        ),
        case(
            "repeated provenance ref",
            "gate.duplicate_item",
            "/provenance/source_evidence_refs/2",
            |v| {
                push(
                    v,
                    "/provenance/source_evidence_refs",
                    json!("ev-migration-receipt"),
                )
            },
        ),
        case(
            "repeated related experience",
            "gate.duplicate_item",
            "/relations/related_experiences/1",
            |v| {
                set(
                    v,
                    "/relations/related_experiences",
                    json!(["exp-other-case-20260101", "exp-other-case-20260101"]),
                )
            },
        ),
        case(
            "repeated superseded record",
            "gate.duplicate_item",
            "/relations/supersedes/1",
            |v| {
                set(
                    v,
                    "/relations/supersedes",
                    json!(["exp-old-case-20260101", "exp-old-case-20260101"]),
                )
            },
        ),
        case(
            "repeated skill candidate",
            "gate.duplicate_item",
            "/relations/derived_skill_candidates/1",
            |v| {
                push(
                    v,
                    "/relations/derived_skill_candidates",
                    json!("codex-session-storage-junction-migration"),
                )
            },
        ),
        case(
            "repeated removed category",
            "gate.duplicate_item",
            "/redaction/removed_categories/5",
            |v| push(v, "/redaction/removed_categories", json!("secrets")),
        ),
        case(
            "repeated skill release",
            "gate.duplicate_item",
            "/relations/related_skills/1",
            |v| {
                let skill =
                    json!({"name": "junction-migration", "version": "1.0.0", "sha256": DIGEST});
                set(
                    v,
                    "/relations/related_skills",
                    json!([skill.clone(), skill]),
                );
            },
        ),
        case(
            "independent level without external run",
            "gate.independent_reproduction",
            "/verification/level",
            |v| set(v, "/verification/level", json!("independently-reproduced")),
        ),
        case(
            "external run citing nothing",
            "gate.independent_reproduction",
            "/verification/level",
            |v| {
                independently_reproduced(v);
                set(v, "/verification/checks/0/evidence_refs", json!([]));
            },
        ),
        case(
            "external run citing private evidence",
            "gate.independent_reproduction",
            "/verification/checks/0/evidence_refs/1",
            |v| {
                independently_reproduced(v);
                push(
                    v,
                    "/verification/checks/0/evidence_refs",
                    json!("ev-migration-receipt"),
                );
            },
        ),
        case(
            "other check citing local evidence",
            "gate.independent_reproduction",
            "/verification/checks/1/evidence_refs/0",
            |v| {
                independently_reproduced(v);
                push(
                    v,
                    "/verification/checks",
                    RECORD["verification"]["checks"][2].clone(),
                );
            },
        ),
        case(
            "automated reviewer is not the screener",
            "gate.automated_review",
            "/review/reviewer",
            |v| set(v, "/review/reviewer", json!("github-experience-agent-v1")),
        ),
        case(
            "automated review at another time",
            "gate.automated_review",
            "/review/reviewed_at",
            |v| set(v, "/review/reviewed_at", json!("2026-07-31T07:49:49Z")),
        ),
        case(
            "automated review time written differently",
            "gate.automated_review",
            "/review/reviewed_at",
            |v| set(v, "/review/reviewed_at", json!("2026-07-31T07:49:50+00:00")),
        ),
        case(
            "receipt names another repository",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/source_repository",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/source_repository",
                    json!("praxis-example/other-lab"),
                );
            },
        ),
        case(
            "receipt names another commit",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/commit_sha",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/commit_sha",
                    json!("f".repeat(40)),
                );
            },
        ),
        case(
            "receipt names another run",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/workflow_run_url",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/workflow_run_url",
                    json!("https://github.com/praxis-example/junction-lab/actions/runs/987654321"),
                );
            },
        ),
        case(
            "run id is not the run",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/workflow_run_id",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/workflow_run_id",
                    json!(123_456_780),
                );
            },
        ),
        case(
            "run of another repository",
            "gate.workflow_binding",
            "/evidence/2/source/workflow_run_url",
            |v| {
                with_workflow(v);
                let other = "https://github.com/someone/else/actions/runs/123456789";
                set(v, "/evidence/2/source/workflow_run_url", json!(other));
                set(
                    v,
                    "/evidence/2/machine_verification/workflow_run_url",
                    json!(other),
                );
            },
        ),
        case(
            "receipt names another job",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/workflow_job_name",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/workflow_job_name",
                    json!("build"),
                );
            },
        ),
        case(
            "receipt names another step",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/workflow_step_name",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/workflow_step_name",
                    json!("Upload"),
                );
            },
        ),
        case(
            "receipt names another artifact",
            "gate.workflow_binding",
            "/evidence/2/machine_verification/artifact_sha256",
            |v| {
                with_workflow(v);
                set(
                    v,
                    "/evidence/2/machine_verification/artifact_sha256",
                    json!(format!("sha256:{}", "0".repeat(64))),
                );
            },
        ),
        case(
            "source issue url of another issue",
            "gate.source_issue",
            "/provenance/source_issue/url",
            |v| {
                with_source_issue(v);
                set(
                    v,
                    "/provenance/source_issue/url",
                    json!("https://github.com/praxis-example/experiences/issues/43"),
                );
            },
        ),
        case(
            "source issue url of another repository",
            "gate.source_issue",
            "/provenance/source_issue/url",
            |v| {
                with_source_issue(v);
                set(
                    v,
                    "/provenance/source_issue/url",
                    json!("https://github.com/praxis-example/other/issues/42"),
                );
            },
        ),
        case(
            "issue author not a github ref",
            "gate.author_ref",
            "/provenance/author_ref",
            |v| {
                with_source_issue(v);
                set(
                    v,
                    "/provenance/author_ref",
                    json!("redacted-workspace-user"),
                );
            },
        ),
        case(
            "issue author login ends with hyphen",
            "gate.author_ref",
            "/provenance/author_ref",
            |v| {
                with_source_issue(v);
                set(v, "/provenance/author_ref", json!("github:octo-"));
            },
        ),
        case(
            "issue author login too long",
            "gate.author_ref",
            "/provenance/author_ref",
            |v| {
                with_source_issue(v);
                set(
                    v,
                    "/provenance/author_ref",
                    json!(format!("github:{}", "a".repeat(40))),
                );
            },
        ),
        case(
            "public issue citing private evidence",
            "gate.public_issue_evidence",
            "/provenance/source_evidence_refs/0",
            |v| set(v, "/provenance/source_type", json!("public-issue")),
        ),
        case(
            "public issue citing local evidence",
            "gate.public_issue_evidence",
            "/provenance/source_evidence_refs/1",
            |v| set(v, "/provenance/source_type", json!("public-issue")),
        ),
        case(
            "id date is not the observation date",
            "gate.id_date",
            "/experience_id",
            |v| {
                set(
                    v,
                    "/experience_id",
                    json!("exp-codex-session-junction-migration-20260730"),
                )
            },
        ),
        case(
            "observation moved to another day",
            "gate.id_date",
            "/experience_id",
            |v| {
                set(
                    v,
                    "/context/observed_at",
                    json!("2026-08-01T00:30:00+02:00"),
                )
            },
        ),
        case(
            "related to itself",
            "gate.self_relation",
            "/relations/related_experiences/0",
            |v| push(v, "/relations/related_experiences", json!(ID)),
        ),
        case(
            "supersedes itself",
            "gate.self_relation",
            "/relations/supersedes/0",
            |v| push(v, "/relations/supersedes", json!(ID)),
        ),
        case(
            "redaction pending",
            "gate.redaction_pending",
            "/redaction/status",
            |v| set(v, "/redaction/status", json!("pending")),
        ),
        case(
            "reviewed record among candidates",
            "gate.directory",
            "/lifecycle/status",
            |_| {},
        )
        .placed(Directory::Candidates, ID, 10_000),
        case(
            "candidate among reviewed",
            "gate.directory",
            "/lifecycle/status",
            |v| {
                set(v, "/lifecycle/status", json!("candidate"));
                set(v, "/review/status", json!("pending"));
                remove(v, "/review/mode");
                remove(v, "/review/reviewer");
                remove(v, "/review/reviewed_at");
            },
        )
        .placed(Directory::Reviewed, ID, 10_000),
        case(
            "file named after another id",
            "gate.filename",
            "/experience_id",
            |_| {},
        )
        .placed(Directory::Reviewed, "exp-something-else-20260731", 10_000),
        case("stored file too large", "gate.size", "", |_| {}).placed(
            Directory::Reviewed,
            ID,
            MAX_RECORD_BYTES + 1,
        ),
        case("record too large", "gate.size", "", |v| {
            let lines = (0..64)
                .map(|i| json!(format!("{i:04}{}", "y".repeat(996))))
                .collect();
            set(v, "/context/environment", Value::Array(lines));
        }),
    ]
}

fn run(case: &Case) -> (Value, Vec<Finding>) {
    let mut record = fixture();
    (case.mutate)(&mut record);
    let found = structural_and_gate(&record, case.placement.as_ref());
    (record, found)
}

fn report(found: &[Finding]) -> String {
    found.iter().map(|f| format!("\n  {f}")).collect()
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
                )
            }),
        ),
        (
            "id date is the literal observation date",
            Box::new(|v| {
                set(
                    v,
                    "/context/observed_at",
                    json!("2026-07-31T23:30:00-02:00"),
                )
            }),
        ),
        (
            "fractional seconds",
            Box::new(|v| {
                set(
                    v,
                    "/evidence/0/captured_at",
                    json!("2026-07-31T06:50:00.123456Z"),
                )
            }),
        ),
        (
            "related to another record",
            Box::new(|v| {
                push(
                    v,
                    "/relations/related_experiences",
                    json!("exp-other-case-20260101"),
                )
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
