//! One mutation per schema constraint family.

use serde_json::{Value, json};

use super::{
    Case, DIGEST, RECORD, case, changes_requested, independently_reproduced, long, push, remove,
    set, with_source_issue, with_workflow,
};

/// One mutation per schema constraint family.
pub(super) fn schema_cases() -> Vec<Case> {
    vec![
        case("missing top-level field", "schema.required", "", |v| {
            remove(v, "/summary");
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
            set(v, "/schema_version", json!("0.2"));
        }),
        case("record kind", "schema.const", "/record_kind", |v| {
            set(v, "/record_kind", json!("skill"));
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
            set(v, "/context/platform", json!("bsd"));
        }),
        case("attempt result", "schema.enum", "/attempts/0/result", |v| {
            set(v, "/attempts/0/result", json!("abandoned"));
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
            set(v, "/risks/0/severity", json!("critical"));
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
            *v = json!([]);
        }),
        case("experience id", "schema.pattern", "/experience_id", |v| {
            set(v, "/experience_id", json!("EXP-codex-20260731"));
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
                );
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
                );
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
                );
            },
        ),
        case("title too short", "schema.min_length", "/title", |v| {
            set(v, "/title", json!("short"));
        }),
        case("title too long", "schema.max_length", "/title", |v| {
            set(v, "/title", long(161));
        }),
        case("summary too short", "schema.min_length", "/summary", |v| {
            set(v, "/summary", long(19));
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
            set(v, "/attempts", json!([]));
        }),
        case(
            "no environment",
            "schema.min_items",
            "/context/environment",
            |v| set(v, "/context/environment", json!([])),
        ),
        case("no evidence", "schema.min_items", "/evidence", |v| {
            set(v, "/evidence", json!([]));
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
                );
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
                );
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
            remove(v, "/review/reviewed_at");
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
                );
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
