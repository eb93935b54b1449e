//! Experience records and the skill registry over real HTTP: intake,
//! rejection, review, supersession, withdrawal, settings, search, history,
//! skills and the schema, with their authorization, on both stores.

use praxis_api::{
    CONTRACT_VERSION, IssueRef, Platform, Problem, PublishSkillRequest, RecordHistoryEntry,
    RecordLifecycle, RecordSettingsRequest, RecordSource, RecordWriteResponse, ReviewDecision,
    ReviewMode, ReviewRecordRequest, ReviewStatus, Scope, SkillRelease, SubmitRecordRequest,
    VerificationLevel, Visibility, WithdrawRecordRequest, WithdrawSkillRequest, WriteEffect,
};
use praxis_client::{Client, ClientError, RecordSearch, Submitted};
use praxis_domain::records::lifecycle::{AUTOMATED_NOTES, GATE_ID, document_sha256};
use praxis_testkit::BACKENDS;
use praxis_testkit::records::sample_record;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, client_as, issue_request, problem, raw};

mod access;
mod check;
mod discard;
mod lifecycle;
mod ranked;
mod search;
mod skills;

/// Every capability a record or skill endpoint needs.
const ALL: &[&str] = &[
    "record_submit",
    "record_review",
    "experience_read",
    "policy_admin",
];

/// The shared scope most tests act in.
fn scope() -> Scope {
    Scope {
        project_id: "p1".into(),
        mission_id: None,
        agent_id: "a1".into(),
        visibility: Visibility::Shared,
    }
}

/// The id of `sample_record(slug)`.
fn id(slug: &str) -> String {
    format!("exp-{slug}-20261120")
}

fn submission(scope: &Scope, key: &str, record: Value) -> SubmitRecordRequest {
    SubmitRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.clone(),
        source: RecordSource::Key(key.into()),
        record,
    }
}

fn review(
    decision: ReviewDecision,
    notes: Option<&str>,
    expected_revision: Option<u64>,
) -> ReviewRecordRequest {
    ReviewRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        decision,
        mode: ReviewMode::Human,
        notes: notes.map(str::to_owned),
        expected_revision,
    }
}

fn withdrawal(reason: &str, expected_revision: Option<u64>) -> WithdrawRecordRequest {
    WithdrawRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        reason: reason.into(),
        expected_revision,
    }
}

fn release(version: &str, sha: char) -> SkillRelease {
    SkillRelease {
        name: "ci-root-database-cluster".into(),
        version: version.into(),
        sha256: sha.to_string().repeat(64),
        size: 2048,
        summary: "Start a throwaway database cluster as an unprivileged user.".into(),
        provenance: json!({"kind": "maintainer-authored"}),
    }
}

fn publish(release: SkillRelease) -> PublishSkillRequest {
    PublishSkillRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        release,
    }
}

/// A kept submission's answer.
fn kept(submitted: Result<Submitted, ClientError>) -> RecordWriteResponse {
    match submitted {
        Ok(Submitted::Kept(r)) => r,
        other => panic!("expected a kept revision, got {other:?}"),
    }
}

/// The full problem document of a failed client call.
fn refused(result: Result<impl std::fmt::Debug, ClientError>) -> Problem {
    match result {
        Err(ClientError::Problem(p)) => p,
        other => panic!("expected a problem document, got {other:?}"),
    }
}

/// Sends a JSON body with a token; returns the status, content type and body.
async fn post_json(
    server: &Server,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> (u16, String, Vec<u8>) {
    let (status, headers, resp) = raw(
        Method::POST,
        &format!("{}{path}", server.base),
        token,
        &[("content-type", "application/json")],
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await;
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    (status, content_type, resp)
}

/// Sends a GET with a token; returns the status and body.
async fn get_raw(server: &Server, path_and_query: &str, token: &str) -> (u16, Vec<u8>) {
    let (status, _, resp) = raw(
        Method::GET,
        &format!("{}{path_and_query}", server.base),
        Some(token),
        &[],
        None,
    )
    .await;
    (status, resp)
}

/// The query string of the shared scope.
const SCOPE_QUERY: &str = "project_id=p1&agent_id=a1&visibility=shared";

/// Every history entry's (sequence, change or "rejection", actor).
fn entries(history: &[RecordHistoryEntry]) -> Vec<(u64, String, String)> {
    history
        .iter()
        .map(|e| match e {
            RecordHistoryEntry::Revision {
                sequence,
                change,
                actor,
                ..
            } => (
                *sequence,
                serde_json::to_value(change)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned(),
                actor.clone(),
            ),
            RecordHistoryEntry::Rejection {
                sequence, actor, ..
            } => (*sequence, "rejection".into(), actor.clone()),
        })
        .collect()
}
