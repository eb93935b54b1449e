//! Example requests, one per write and query, as typed values of the wire
//! types. The OpenAPI document shows them as each operation's example, a
//! test sends every one of them to a live server in [`ORDER`], and tests
//! build on them, so an example that the server would refuse fails CI.

use serde_json::{Value, json};

pub mod guidance;
pub mod learning;
pub mod memory;
pub mod procedures;

use crate::records::{
    DiscardRecordRequest, PublishSkillRequest, RecordSettingsRequest, RecordSource, ReviewDecision,
    ReviewMode, ReviewRecordRequest, SkillRelease, SubmitRecordRequest, WithdrawRecordRequest,
    WithdrawSkillRequest,
};
use crate::{
    AssessRequest, CONTRACT_VERSION, CandidateAction, CandidateRevision, Disposition, EmptyRequest,
    ImportRequest, IssueCredentialRequest, LegacyRecord, LegacyStore, ObserveRequest, Outcome,
    OutcomeStatus, ReexploreUpdate, Scope, ScreenRequest, ScreenScope, SetPolicyRequest, Stage,
    StreakKey, Visibility,
};

/// The scope every example acts in.
pub fn scope() -> Scope {
    Scope {
        project_id: "billing-service".into(),
        mission_id: None,
        agent_id: "triage-bot".into(),
        visibility: Visibility::Shared,
    }
}

/// The subject the attempt examples act on.
pub const SUBJECT: &str = "host-17";
/// The action the attempt examples try.
pub const ACTION: &str = "restart-service";
/// The slug of the example record (`exp-root-ci-20261120`).
pub const RECORD_SLUG: &str = "root-ci";
/// The source key the example record is submitted from.
pub const SOURCE_KEY: &str = "ci-incident-2026-11-20";
/// The slug of the example candidate its author discards
/// (`exp-root-ci-draft-20261120`).
pub const DISCARD_SLUG: &str = "root-ci-draft";
/// The source key the discarded example candidate is submitted from.
pub const DISCARD_SOURCE_KEY: &str = "ci-incident-2026-11-20-draft";
/// The name of the example skill release.
pub const SKILL: &str = "ci-root-database-cluster";
/// The version of the example skill release.
pub const SKILL_VERSION: &str = "1.0.0";

/// The operations, by OpenAPI operation id, in an order in which their
/// examples succeed one after another on a fresh namespace: what a write
/// example names (a credential, a record, a release) exists by the time it
/// is named, and the reviewer is not the submitter.
pub const ORDER: &[&str] = &[
    "issue",
    "rotate",
    "revoke",
    "set_policy",
    "observe",
    "assess",
    "import",
    "set_settings",
    "screen",
    "check_record",
    "submit",
    "review",
    "publish_skill",
    "withdraw",
    "discard_record",
    "withdraw_skill",
    "register_learning_policy",
    "register_learning_context",
    "record_experience",
    "report_experience_event",
    "read_experience",
    "read_experience_event",
    "experience_history",
    "experience_lineage",
    "export_experiences",
    "inspect_withdrawal",
    "create_strategy",
    "read_strategy",
    "inspect_strategy",
    "propose_procedure",
    "submit_evaluation",
    "read_procedure",
    "select_procedure",
    "withdraw_observation",
    "set_memory",
    "get_memory",
    "search_memory",
    "memory_history",
    "delete_memory",
    "proposal_settings",
    "describe_source",
    "create_proposal",
    "review_proposal",
    "approve_proposal",
    "resolve_proposal",
    "withdraw_proposal",
];

/// `POST /api/v1/credentials`: an agent that records and reads attempts.
pub fn issue_credential() -> IssueCredentialRequest {
    IssueCredentialRequest {
        contract_version: CONTRACT_VERSION,
        subject: "triage-bot".into(),
        capabilities: vec!["experience_read".into(), "experience_write".into()],
        grants: vec![scope()],
        expires_at: Some("2027-06-30T00:00:00Z".into()),
    }
}

/// `POST /api/v1/screen`: a resolution step, screened before it is
/// written into a record (it names a home directory).
pub fn screen() -> ScreenRequest {
    ScreenRequest {
        contract_version: CONTRACT_VERSION,
        scope: ScreenScope::RecordSubmit {
            pointer: Some("/resolution/steps/0".into()),
        },
        text: "Point the cache at /home/alice/.cache/ci and rerun the job.".into(),
    }
}

/// `POST /api/v1/credentials/{id}/rotate` and `/revoke`.
pub fn empty() -> EmptyRequest {
    EmptyRequest {
        contract_version: CONTRACT_VERSION,
    }
}

/// A verified negative of [`ACTION`] on [`SUBJECT`].
pub fn outcome(case_id: &str) -> Outcome {
    Outcome {
        case_id: case_id.into(),
        subject: SUBJECT.into(),
        action_id: ACTION.into(),
        hypothesis_id: "stale-connection-pool".into(),
        verifier_rule_id: Some("health-check-200".into()),
        stage: Stage::Active,
        status: OutcomeStatus::ConfirmedNegative,
        confidence: 950_000,
        rationale: "the health check still failed after the restart".into(),
        evidence_ids: vec!["probe-2026-11-30T10:00Z".into()],
        action_revision: Some("runbook-v3".into()),
        observed_at: Some("2026-11-30T10:00:00Z".into()),
    }
}

/// `POST /api/v1/attempts`.
pub fn observe() -> ObserveRequest {
    ObserveRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        outcome: outcome("incident-4711"),
        disposition: Some(Disposition::ConfirmedNegative),
    }
}

/// `POST /api/v1/attempts/assess`: one action by id, one at a revision.
pub fn assess() -> AssessRequest {
    AssessRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        subject: SUBJECT.into(),
        actions: vec![
            CandidateAction::Id(ACTION.into()),
            CandidateAction::Revision(CandidateRevision {
                action_id: "drain-and-replace".into(),
                action_revision: Some("runbook-v1".into()),
            }),
        ],
    }
}

/// `POST /api/v1/attempts/policy`.
pub fn set_policy() -> SetPolicyRequest {
    SetPolicyRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        consecutive_failure_limit: Some(Some(2)),
        streak_key: Some(Some(StreakKey::Action)),
        reexplore: Some(Some(ReexploreUpdate {
            after_seconds: Some(Some(86_400)),
            after_observations: None,
        })),
    }
}

/// `POST /api/v1/attempts/import`: a legacy store of two records.
pub fn import() -> ImportRequest {
    let mut success = outcome("incident-4690");
    success.status = OutcomeStatus::Success;
    ImportRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        store: LegacyStore {
            next_sequence: 2,
            records: vec![
                LegacyRecord {
                    sequence: 0,
                    outcome: outcome("incident-4689"),
                    disposition: None,
                },
                LegacyRecord {
                    sequence: 1,
                    outcome: success,
                    disposition: Some(Disposition::ConfirmedPositive),
                },
            ],
        },
    }
}

/// `POST /api/v1/records/settings`: reviews stay with people.
pub fn record_settings() -> RecordSettingsRequest {
    RecordSettingsRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        automated_approval: false,
    }
}

/// `POST /api/v1/records`: [`record`]`(`[`RECORD_SLUG`]`)` from its source.
pub fn submit_record() -> SubmitRecordRequest {
    SubmitRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        source: RecordSource::Key(SOURCE_KEY.into()),
        record: record(RECORD_SLUG),
    }
}

/// `POST /api/v1/records/{id}/review`: a person approves revision 1.
pub fn review_record() -> ReviewRecordRequest {
    ReviewRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        decision: ReviewDecision::Approve,
        mode: ReviewMode::Human,
        notes: Some("Reproduced on the root runner; the fix is the documented one.".into()),
        expected_revision: Some(1),
    }
}

/// `POST /api/v1/records/{id}/withdraw`.
pub fn withdraw_record() -> WithdrawRecordRequest {
    WithdrawRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        reason: "The runner image now defaults to an unprivileged user.".into(),
        expected_revision: None,
    }
}

/// `POST /api/v1/records/{id}/discard`: the author drops revision 1 of
/// [`record`]`(`[`DISCARD_SLUG`]`)`, submitted from [`DISCARD_SOURCE_KEY`].
pub fn discard_record() -> DiscardRecordRequest {
    DiscardRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        reason: "A duplicate of the root CI runner record.".into(),
        expected_revision: Some(1),
    }
}

/// `POST /api/v1/skills`.
pub fn publish_skill() -> PublishSkillRequest {
    PublishSkillRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        release: SkillRelease {
            name: SKILL.into(),
            version: SKILL_VERSION.into(),
            sha256: "9f2c4e1a7b3d5f60".repeat(4),
            size: 2048,
            summary: "Start a throwaway database cluster as an unprivileged user.".into(),
            provenance: json!({"kind": "maintainer-authored"}),
        },
    }
}

/// `POST /api/v1/skills/{name}/{version}/withdraw`.
pub fn withdraw_skill() -> WithdrawSkillRequest {
    WithdrawSkillRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        reason: "Superseded by the packaged fixture in the test kit.".into(),
    }
}

/// The example body of a write or query operation, by operation id.
pub fn request_body(operation_id: &str) -> Option<Value> {
    let value = |v: Result<Value, serde_json::Error>| v.expect("examples serialize");
    Some(match operation_id {
        "issue" => value(serde_json::to_value(issue_credential())),
        "rotate" | "revoke" => value(serde_json::to_value(empty())),
        "observe" => value(serde_json::to_value(observe())),
        "assess" => value(serde_json::to_value(assess())),
        "set_policy" => value(serde_json::to_value(set_policy())),
        "import" => value(serde_json::to_value(import())),
        "set_settings" => value(serde_json::to_value(record_settings())),
        // A dry run takes exactly what a submission takes.
        "submit" | "check_record" => value(serde_json::to_value(submit_record())),
        "review" => value(serde_json::to_value(review_record())),
        "screen" => value(serde_json::to_value(screen())),
        "withdraw" => value(serde_json::to_value(withdraw_record())),
        "discard_record" => value(serde_json::to_value(discard_record())),
        "publish_skill" => value(serde_json::to_value(publish_skill())),
        "withdraw_skill" => value(serde_json::to_value(withdraw_skill())),
        "register_learning_policy" => value(serde_json::to_value(learning::register_policy())),
        "register_learning_context" => value(serde_json::to_value(learning::register_context())),
        "record_experience" => value(serde_json::to_value(learning::record())),
        "report_experience_event" => value(serde_json::to_value(learning::report())),
        "read_experience" | "experience_lineage" => value(serde_json::to_value(learning::read())),
        "read_experience_event" => value(serde_json::to_value(learning::read_event())),
        "experience_history" => value(serde_json::to_value(learning::history())),
        "export_experiences" => value(serde_json::to_value(learning::export())),
        "inspect_withdrawal" => value(serde_json::to_value(learning::inspect())),
        "withdraw_observation" => value(serde_json::to_value(learning::withdraw())),
        "create_strategy" => value(serde_json::to_value(procedures::create_strategy())),
        "read_strategy" | "inspect_strategy" => {
            value(serde_json::to_value(procedures::read_strategy()))
        }
        "propose_procedure" => value(serde_json::to_value(procedures::propose())),
        "submit_evaluation" => value(serde_json::to_value(procedures::evaluate())),
        "read_procedure" => value(serde_json::to_value(procedures::read_procedure())),
        "select_procedure" => value(serde_json::to_value(procedures::select())),
        "set_memory" => value(serde_json::to_value(memory::set())),
        "get_memory" => value(serde_json::to_value(memory::get())),
        "search_memory" => value(serde_json::to_value(memory::search())),
        "memory_history" => value(serde_json::to_value(memory::history())),
        "delete_memory" => value(serde_json::to_value(memory::delete())),
        "proposal_settings" => value(serde_json::to_value(guidance::settings())),
        "describe_source" => value(serde_json::to_value(guidance::describe_source())),
        "create_proposal" => value(serde_json::to_value(guidance::create())),
        "review_proposal" => value(serde_json::to_value(guidance::review())),
        "approve_proposal" => value(serde_json::to_value(guidance::approve())),
        "resolve_proposal" => value(serde_json::to_value(guidance::resolve())),
        "withdraw_proposal" => value(serde_json::to_value(guidance::withdraw())),
        _ => return None,
    })
}

/// The example value of a path or query parameter, by the operation's path
/// and the parameter's name.
pub fn parameter(path: &str, name: &str) -> Option<Value> {
    let scope = scope();
    Some(match name {
        "id" if path.starts_with("/api/v1/credentials") => {
            json!("0193a7c2e4b87d51a2f4c6e8b0d2f4a6")
        }
        "id" if path.starts_with("/api/v1/learning/policies") => json!(learning::POLICY),
        "id" if path.starts_with("/api/v1/learning/contexts") => json!(learning::CONTEXT),
        "id" if path.starts_with("/api/v1/proposals") => json!(guidance::PROPOSAL_ID),
        "id" if path.starts_with("/api/v1/projects") => json!(scope.project_id),
        "project_id" => json!(scope.project_id),
        "agent_id" => json!(scope.agent_id),
        "visibility" => json!("shared"),
        "subject" => json!(SUBJECT),
        "action_id" => json!(ACTION),
        "id" if path.ends_with("/discard") => json!(format!("exp-{DISCARD_SLUG}-20261120")),
        "id" => json!(format!("exp-{RECORD_SLUG}-20261120")),
        "name" => json!(SKILL),
        "version" => json!(SKILL_VERSION),
        "limit" => json!(20),
        "q" => json!("postgresql root"),
        "key" => json!(SOURCE_KEY),
        _ => return None,
    })
}

/// A complete, valid v0.1 candidate record with id `exp-<slug>-20261120`.
///
/// It passes the schema, the policy gate and screening as submitted; the
/// server-owned fields (lifecycle, review, screening, author) hold values a
/// submitter would send and the server overwrites.
pub fn record(slug: &str) -> Value {
    json!({
        "schema_version": "0.1",
        "record_kind": "experience",
        "experience_id": format!("exp-{slug}-20261120"),
        "title": "Throwaway PostgreSQL cluster refused to start under a root CI runner",
        "summary": "Integration tests that start their own PostgreSQL cluster failed on a CI runner executing as root, because the server binary refuses to run with administrative privileges.",
        "lifecycle": {
            "status": "candidate",
            "created_at": "2026-11-20T10:15:00Z",
            "updated_at": "2026-11-20T10:15:00Z"
        },
        "review": { "status": "pending" },
        "screening": {
            "status": "passed",
            "method": "repository-policy-gate-v1",
            "screened_at": "2026-11-20T10:15:00Z",
            "findings": []
        },
        "context": {
            "platform": "linux",
            "environment": [
                "Debian container image running the test suite as uid 0",
                "PostgreSQL server binaries from the distribution packages"
            ],
            "constraints": [
                "The tests must start and stop their own cluster on loopback",
                "The runner image cannot be changed to a non-root default user"
            ],
            "observed_at": "2026-11-20T09:40:00Z"
        },
        "symptom": {
            "summary": "The cluster start step exited at once and every storage test failed to connect.",
            "impact": "All PostgreSQL-backed tests failed, so no change could land until the runner was fixed.",
            "signals": [
                "The server log said it cannot be run as root",
                "Connections to the loopback port were refused"
            ]
        },
        "attempts": [
            {
                "sequence": 1,
                "action": "Start the cluster with the same command as on a developer machine.",
                "rationale": "The command worked locally for a non-root developer account.",
                "result": "failed",
                "observation": "The server exited during start-up with a privilege error.",
                "failure_mechanism": "The server refuses to run when the effective user is root, to limit what a compromised server could do.",
                "evidence_refs": ["ev-ci-log"]
            },
            {
                "sequence": 2,
                "action": "Create an unprivileged system user and run initdb and pg_ctl as that user.",
                "rationale": "The server only needs its data directory and a loopback port, both of which an unprivileged user can own.",
                "result": "succeeded",
                "observation": "The cluster started and the storage tests connected over loopback.",
                "evidence_refs": ["ev-ci-log", "ev-rerun"]
            }
        ],
        "root_cause": {
            "summary": "The CI runner executes jobs as root and the database server refuses root.",
            "mechanism": "The server checks its effective user id at start-up and exits when it is zero; the test harness started it as the runner's user without dropping privileges."
        },
        "resolution": {
            "summary": "Run the throwaway cluster as a dedicated unprivileged user created by the harness.",
            "steps": [
                "Create the unprivileged user if it does not exist.",
                "Give that user ownership of a fresh temporary data directory.",
                "Run initdb and pg_ctl as that user, listening on loopback only."
            ]
        },
        "verification": {
            "level": "locally-verified",
            "summary": "The full storage test suite passed on the root runner after the change.",
            "checks": [
                {
                    "check_id": "check-suite-rerun",
                    "method": "command",
                    "result": "pass",
                    "observed_at": "2026-11-20T10:05:00Z",
                    "summary": "The storage integration tests passed on both backends on the same runner.",
                    "evidence_refs": ["ev-rerun"]
                }
            ]
        },
        "applicability": {
            "applies_when": ["Tests start their own PostgreSQL cluster on a runner that executes as root"],
            "avoid_when": ["The database is provided as an external service the tests do not start"]
        },
        "risks": [
            {
                "severity": "low",
                "description": "A leftover system user remains on long-lived runners.",
                "mitigation": "Reuse the same user name so that repeated runs do not create more users."
            }
        ],
        "rollback": {
            "available": true,
            "conditions": ["The runner can again execute jobs as a non-root user"],
            "steps": ["Start the cluster as the job's own user and remove the dedicated user."]
        },
        "evidence": [
            {
                "evidence_id": "ev-ci-log",
                "kind": "command-receipt",
                "visibility": "private-redacted",
                "summary": "The failing job's server log excerpt with host names removed.",
                "captured_at": "2026-11-20T09:41:00Z"
            },
            {
                "evidence_id": "ev-rerun",
                "kind": "command-receipt",
                "visibility": "private-redacted",
                "summary": "The passing rerun's test summary for both storage backends.",
                "captured_at": "2026-11-20T10:05:00Z"
            }
        ],
        "relations": {
            "related_experiences": [],
            "related_skills": [],
            "derived_skill_candidates": ["ci-root-database-cluster"],
            "supersedes": []
        },
        "provenance": {
            "source_type": "maintainer-observation",
            "author_ref": "someone-else",
            "captured_at": "2026-11-20T10:10:00Z",
            "source_evidence_refs": ["ev-ci-log"]
        },
        "redaction": {
            "status": "applied",
            "removed_categories": ["personal-identifiers"],
            "notes": "Host names and the runner's account name were removed from the log excerpt."
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_in_the_order_has_an_example_that_reads_back() {
        for id in ORDER {
            let body = request_body(id).unwrap_or_else(|| panic!("{id} has no example"));
            assert_eq!(body["contract_version"], CONTRACT_VERSION, "{id}");
        }
        let back: SubmitRecordRequest =
            serde_json::from_value(request_body("submit").unwrap()).unwrap();
        assert_eq!(back, submit_record());
        assert_eq!(record("x")["experience_id"], "exp-x-20261120");
    }
}
