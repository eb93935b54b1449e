//! One mutation per policy-gate rule (and per variant of each).

use praxis_domain::records::{Directory, MAX_RECORD_BYTES};
use serde_json::{Value, json};

use super::{
    Case, DIGEST, ID, RECORD, case, independently_reproduced, push, remove, set, with_source_issue,
    with_workflow,
};

/// One mutation per policy-gate rule (and per variant of each).
pub(super) fn gate_cases() -> Vec<Case> {
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
                );
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
            "id longer than Praxis keeps",
            "gate.id_length",
            "/experience_id",
            |v| {
                let long = format!("exp-{}-20260731", "a".repeat(200));
                set(v, "/experience_id", json!(long));
            },
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
                );
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
                );
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
