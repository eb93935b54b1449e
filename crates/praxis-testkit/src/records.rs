//! Experience records for tests: a valid sample written here, and the
//! location of the upstream interoperability fixtures.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A complete, valid v0.1 candidate record with id `exp-<slug>-20261120`.
///
/// It passes the schema, the policy gate and screening as submitted; the
/// server-owned fields (lifecycle, review, screening, author) hold values a
/// submitter would send and the server overwrites.
pub fn sample_record(slug: &str) -> Value {
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

/// The directory of the Noosphere interoperability fixtures (the published
/// v0.1 schema, a reviewed record and a skill registry).
///
/// `PRAXIS_INTEROP_DIR` names it, or its parent holding `noosphere/`;
/// otherwise the ancestors of `start` are searched for
/// `shared/interop/noosphere`, beside or above the checkout, and last the
/// workspace's shared directory (`/work/shared`) of the development and CI
/// machines, for a clone placed elsewhere. Panics, naming where it looked,
/// when it cannot be found: an interoperability test never passes by
/// skipping.
pub fn interop_dir(start: &Path) -> PathBuf {
    let holds = |dir: &Path| dir.join("registry.json").is_file();
    if let Some(root) = std::env::var_os("PRAXIS_INTEROP_DIR") {
        let root = PathBuf::from(root);
        return [root.join("noosphere"), root.clone()]
            .into_iter()
            .find(|d| holds(d))
            .unwrap_or_else(|| {
                panic!(
                    "PRAXIS_INTEROP_DIR={} holds no noosphere fixtures",
                    root.display()
                )
            });
    }
    let mut looked = Vec::new();
    let beside = start.ancestors().flat_map(|ancestor| {
        [
            ancestor.join("shared/interop/noosphere"),
            ancestor.join("../shared/interop/noosphere"),
        ]
    });
    for candidate in beside.chain([PathBuf::from("/work/shared/interop/noosphere")]) {
        if holds(&candidate) {
            return candidate;
        }
        looked.push(candidate);
    }
    panic!(
        "the interoperability fixtures were not found; set PRAXIS_INTEROP_DIR. Looked in: {looked:?}"
    );
}
