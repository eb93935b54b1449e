//! The attempt ledger over real HTTP: observe, assess, policy, history,
//! counts, import and export, with their authorization, on both stores.

use std::collections::BTreeSet;

use praxis_api::{
    AssessRequest, CONTRACT_VERSION, CandidateAction, CandidateRevision, Disposition,
    ImportRequest, LegacyRecord, LegacyStore, ObserveRequest, Outcome, OutcomeStatus, Problem,
    Recommendation, Scope, SetPolicyRequest, Stage, Visibility,
};
use praxis_client::{Client, ClientError};
use praxis_testkit::BACKENDS;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, client_as, event_count, issue_request, problem, raw};

mod access;
mod assess;
mod history;
mod legacy;
mod observe;
mod policy;

/// Every capability an attempt endpoint needs.
const ALL: &[&str] = &[
    "experience_write",
    "experience_read",
    "policy_admin",
    "experience_evidence_admin",
];

/// The shared scope most tests act in.
fn scope() -> Scope {
    scope_of(None, Visibility::Shared)
}

/// A scope of project `p1` and agent `a1`.
fn scope_of(mission: Option<&str>, visibility: Visibility) -> Scope {
    Scope {
        project_id: "p1".into(),
        mission_id: mission.map(str::to_owned),
        agent_id: "a1".into(),
        visibility,
    }
}

/// A valid outcome; every status but unknown gets a rule, evidence and
/// confidence, as the outcome contract requires.
fn outcome(
    subject: &str,
    action: &str,
    case: &str,
    stage: Stage,
    status: OutcomeStatus,
) -> Outcome {
    let evidenced = status != OutcomeStatus::Unknown;
    Outcome {
        case_id: case.into(),
        subject: subject.into(),
        action_id: action.into(),
        hypothesis_id: "h1".into(),
        verifier_rule_id: evidenced.then(|| "rule-1".into()),
        stage,
        status,
        confidence: if evidenced { 900_000 } else { 0 },
        rationale: "because".into(),
        evidence_ids: if evidenced {
            vec!["ev-1".into()]
        } else {
            vec![]
        },
        action_revision: None,
        observed_at: None,
    }
}

/// An observation request in `scope`.
fn observe_request(
    scope: &Scope,
    outcome: Outcome,
    disposition: Option<Disposition>,
) -> ObserveRequest {
    ObserveRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.clone(),
        outcome,
        disposition,
    }
}

/// Sends a JSON body (any value) with a token; returns the status and body.
async fn post_json(
    server: &Server,
    path: &str,
    token: Option<&str>,
    body: &Value,
) -> (u16, Vec<u8>) {
    let (status, _, resp) = raw(
        Method::POST,
        &format!("{}{path}", server.base),
        token,
        &[("content-type", "application/json")],
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await;
    (status, resp)
}

/// Sends a GET with a token; returns the status and body.
async fn get_raw(server: &Server, path_and_query: &str, token: Option<&str>) -> (u16, Vec<u8>) {
    let (status, _, resp) = raw(
        Method::GET,
        &format!("{}{path_and_query}", server.base),
        token,
        &[],
        None,
    )
    .await;
    (status, resp)
}

/// The full problem document of a failed client call.
fn refused(result: Result<impl std::fmt::Debug, ClientError>) -> Problem {
    match result {
        Err(ClientError::Problem(p)) => p,
        other => panic!("expected a problem document, got {other:?}"),
    }
}

/// Total records of the namespace of `scope`, as `client` sees it.
async fn total(client: &Client, scope: &Scope) -> u64 {
    client
        .attempt_counts(scope, None, None)
        .await
        .unwrap()
        .total
}
