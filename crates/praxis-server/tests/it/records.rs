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

/// The whole life of a record: intake, an identical resubmission, a kept
/// rejection that never overwrites, an edit, a human request for changes,
/// approval, supersession by another record, and withdrawal.
#[tokio::test]
async fn a_record_goes_from_intake_through_review_to_supersession_and_withdrawal() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (alice, _, alice_token) = client_as(
            &server,
            "alice",
            &["record_submit", "experience_read"],
            vec![s.clone()],
        )
        .await;
        let (bob, _, _) = client_as(
            &server,
            "bob",
            &["record_review", "experience_read"],
            vec![s.clone()],
        )
        .await;
        let rid = id("root-ci");

        // Intake: 201, a candidate bound to its author, nothing reviewed.
        let body = serde_json::to_value(submission(&s, "k1", sample_record("root-ci"))).unwrap();
        let (status, _, bytes) =
            post_json(&server, "/api/v1/records", Some(&alice_token), &body).await;
        assert_eq!(
            status,
            201,
            "{backend:?}: {}",
            String::from_utf8_lossy(&bytes)
        );
        let first: RecordWriteResponse = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(first.write, WriteEffect::Changed);
        assert!(first.data_only && first.superseded.is_empty());
        assert_eq!(first.state.experience_id, rid);
        assert_eq!(first.state.revision, 1);
        assert_eq!(first.state.lifecycle, RecordLifecycle::Candidate);
        assert_eq!(first.state.review_status, ReviewStatus::Pending);
        assert_eq!(first.state.review_mode, None);
        assert_eq!(first.state.platform, Platform::Linux);
        assert_eq!(first.state.sha256, document_sha256(&first.record));
        assert_eq!(first.record["provenance"]["author_ref"], "alice");
        assert_eq!(first.record["screening"]["method"], GATE_ID);

        // The same document again: 200, unchanged.
        let (status, _, bytes) =
            post_json(&server, "/api/v1/records", Some(&alice_token), &body).await;
        assert_eq!(status, 200, "{backend:?}");
        let again: RecordWriteResponse = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            (again.write, again.state.revision),
            (WriteEffect::Unchanged, 1)
        );

        // A failing edit: 422 with every finding under /record, kept as a
        // rejection, and the last passing revision stays.
        let mut bad = sample_record("root-ci");
        bad["attempts"][1]["sequence"] = json!(5);
        bad["verification"]["checks"][0]["evidence_refs"] = json!(["ev-missing"]);
        let bad_body = serde_json::to_value(submission(&s, "k1", bad.clone())).unwrap();
        let (status, content_type, bytes) =
            post_json(&server, "/api/v1/records", Some(&alice_token), &bad_body).await;
        assert_eq!(
            (status, content_type.as_str()),
            (422, "application/problem+json")
        );
        let p: Problem = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(p.code, "record_rejected", "{backend:?}");
        let codes: Vec<&str> = p.errors.iter().map(|e| e.code.as_str()).collect();
        assert!(codes.contains(&"gate.attempt_sequence"), "{codes:?}");
        assert!(codes.contains(&"gate.evidence_ref"), "{codes:?}");
        assert!(
            p.errors
                .iter()
                .any(|e| e.field == "/record/attempts/1/sequence"),
            "{:?}",
            p.errors
        );
        assert!(p.errors.iter().all(|e| e.field.starts_with("/record")));
        assert_eq!(p.field.as_deref(), Some(p.errors[0].field.as_str()));
        let current = alice.record(&s, &rid).await.unwrap();
        assert_eq!(current.state.revision, 1, "a rejection never overwrites");
        assert_eq!(current.record, first.record);
        assert!(current.data_only);
        let history = alice.record_history(&s, &rid, None, 50).await.unwrap();
        assert_eq!(
            entries(&history.entries),
            [
                (1, "submitted".into(), "alice".into()),
                (2, "rejection".into(), "alice".into())
            ]
        );
        match &history.entries[1] {
            RecordHistoryEntry::Rejection {
                sha256, findings, ..
            } => {
                assert_eq!(sha256, &document_sha256(&bad));
                assert!(
                    findings.iter().any(|f| f.rule == "gate.attempt_sequence"
                        && f.pointer == "/attempts/1/sequence")
                );
            }
            other @ RecordHistoryEntry::Revision { .. } => panic!("{other:?}"),
        }

        // A passing edit is revision 2.
        let mut edited = sample_record("root-ci");
        edited["title"] = json!("Throwaway PostgreSQL cluster refused root on the CI runner");
        let second = kept(
            alice
                .submit_record(&submission(&s, "k1", edited.clone()))
                .await,
        );
        assert_eq!(second.state.revision, 2);

        // A request for changes needs notes, and the revision the reviewer saw.
        let p = refused(
            bob.review_record(&rid, &review(ReviewDecision::RequestChanges, None, None))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (422, "record_invalid", Some("/notes"))
        );
        let p = refused(
            bob.review_record(
                &rid,
                &review(
                    ReviewDecision::RequestChanges,
                    Some("Name the version."),
                    Some(1),
                ),
            )
            .await,
        );
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (409, "revision_conflict", Some("/expected_revision"))
        );
        let changes = bob
            .review_record(
                &rid,
                &review(
                    ReviewDecision::RequestChanges,
                    Some("Name the version."),
                    Some(2),
                ),
            )
            .await
            .unwrap();
        assert_eq!(changes.state.revision, 3);
        assert_eq!(changes.state.lifecycle, RecordLifecycle::Candidate);
        assert_eq!(changes.state.review_status, ReviewStatus::ChangesRequested);
        assert_eq!(changes.state.review_mode, Some(ReviewMode::Human));
        assert_eq!(changes.record["review"]["reviewer"], "bob");
        assert_eq!(changes.record["review"]["notes"], "Name the version.");

        // The source revises the candidate; then bob approves it.
        edited["summary"] = json!(
            "Integration tests that start their own PostgreSQL 16 cluster failed on a CI runner executing as root, because the server binary refuses to run with administrative privileges."
        );
        let fourth = kept(alice.submit_record(&submission(&s, "k1", edited)).await);
        assert_eq!(
            (fourth.state.revision, fourth.state.review_status),
            (4, ReviewStatus::Pending)
        );
        let approved = bob
            .review_record(&rid, &review(ReviewDecision::Approve, None, Some(4)))
            .await
            .unwrap();
        assert_eq!(approved.state.revision, 5);
        assert_eq!(approved.state.lifecycle, RecordLifecycle::Reviewed);
        assert_eq!(approved.state.review_status, ReviewStatus::Approved);
        assert_eq!(approved.state.review_mode, Some(ReviewMode::Human));
        assert_eq!(
            approved.state.verification_level,
            VerificationLevel::LocallyVerified,
            "review never changes the verification claim"
        );
        let p = refused(
            bob.review_record(&rid, &review(ReviewDecision::Approve, None, None))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (409, "invalid_transition"));
        let p = refused(
            alice
                .submit_record(&submission(&s, "k1", sample_record("root-ci")))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str()),
            (409, "invalid_transition"),
            "a reviewed record is no longer editable by its source"
        );
        // Another source cannot take the id over.
        let p = refused(
            alice
                .submit_record(&submission(&s, "k9", sample_record("root-ci")))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (409, "source_conflict", Some("/record/experience_id"))
        );

        // A newer record supersedes it once approved.
        let newer_id = id("root-ci-v2");
        let mut newer = sample_record("root-ci-v2");
        newer["relations"]["supersedes"] = json!([rid]);
        kept(alice.submit_record(&submission(&s, "k2", newer)).await);
        let approved = bob
            .review_record(&newer_id, &review(ReviewDecision::Approve, None, None))
            .await
            .unwrap();
        assert_eq!(approved.state.lifecycle, RecordLifecycle::Reviewed);
        assert_eq!(approved.superseded.len(), 1, "{backend:?}");
        let old = &approved.superseded[0];
        assert_eq!(old.state.experience_id, rid);
        assert_eq!(old.state.lifecycle, RecordLifecycle::Superseded);
        assert_eq!(old.state.superseded_by.as_deref(), Some(newer_id.as_str()));
        let current = alice.record(&s, &rid).await.unwrap();
        assert_eq!(
            (current.state.lifecycle, current.state.revision),
            (RecordLifecycle::Superseded, 6)
        );

        // Withdrawal: only of a reviewed record, with a reason, keeping identity.
        let p = refused(
            bob.withdraw_record(&rid, &withdrawal("obsolete", None))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (409, "invalid_transition"));
        let p = refused(
            bob.withdraw_record(&newer_id, &withdrawal("  ", None))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (422, "invalid_field", Some("/reason"))
        );
        let p = refused(
            bob.withdraw_record(&newer_id, &withdrawal("the fix was unsafe", Some(1)))
                .await,
        );
        assert_eq!(p.code, "revision_conflict");
        let withdrawn = bob
            .withdraw_record(&newer_id, &withdrawal("the fix was unsafe", Some(2)))
            .await
            .unwrap();
        assert_eq!(withdrawn.state.lifecycle, RecordLifecycle::Withdrawn);
        assert_eq!(
            withdrawn.state.withdrawal_reason.as_deref(),
            Some("the fix was unsafe")
        );
        let tombstone = alice.record(&s, &newer_id).await.unwrap();
        assert_eq!(tombstone.state.lifecycle, RecordLifecycle::Withdrawn);
        let history = alice.record_history(&s, &newer_id, None, 50).await.unwrap();
        assert_eq!(
            entries(&history.entries),
            [
                (1, "submitted".into(), "alice".into()),
                (2, "approved".into(), "bob".into()),
                (3, "withdrawn".into(), "bob".into())
            ]
        );
        match &history.entries[2] {
            RecordHistoryEntry::Revision { reason, record, .. } => {
                assert_eq!(reason.as_deref(), Some("the fix was unsafe"));
                assert_eq!(record["lifecycle"]["status"], "withdrawn");
            }
            other @ RecordHistoryEntry::Rejection { .. } => panic!("{other:?}"),
        }

        // The first record's whole history, by pages of three.
        let mut seen = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = alice
                .record_history(&s, &rid, after.as_deref(), 3)
                .await
                .unwrap();
            seen.extend(entries(&page.entries));
            match page.next_cursor {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        let changes: Vec<&str> = seen.iter().map(|(_, c, _)| c.as_str()).collect();
        assert_eq!(
            changes,
            [
                "submitted",
                "rejection",
                "submitted",
                "changes_requested",
                "submitted",
                "approved",
                "superseded"
            ],
            "{backend:?}"
        );
        let sequences: Vec<u64> = seen.iter().map(|(n, _, _)| *n).collect();
        assert_eq!(sequences, (1..=7).collect::<Vec<u64>>());
        assert_eq!(
            refused(
                alice
                    .record_history(&s, "exp-nothing-20261120", None, 50)
                    .await
            )
            .code,
            "record_not_found"
        );
    }
}

/// With automated approval on, a passing submission is approved by the
/// policy gate and says so; it is never presented as human review.
#[tokio::test]
async fn automated_approval_is_reported_as_automated_policy() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (admin, _, _) = client_as(&server, "ops", ALL, vec![s.clone()]).await;
        let (agent, _, _) = client_as(
            &server,
            "agent",
            &["record_submit", "experience_read", "record_review"],
            vec![s.clone()],
        )
        .await;
        let settings = |on: bool| RecordSettingsRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            automated_approval: on,
        };
        assert!(!agent.record_settings(&s).await.unwrap().automated_approval);
        let p = refused(agent.set_record_settings(&settings(true)).await);
        assert_eq!(
            (p.status, p.code.as_str()),
            (403, "missing_capability"),
            "{backend:?}"
        );
        assert!(
            admin
                .set_record_settings(&settings(true))
                .await
                .unwrap()
                .automated_approval
        );
        assert!(agent.record_settings(&s).await.unwrap().automated_approval);

        let done = kept(
            agent
                .submit_record(&submission(&s, "k1", sample_record("auto")))
                .await,
        );
        assert_eq!(done.state.revision, 2, "submission, then approval");
        assert_eq!(done.state.lifecycle, RecordLifecycle::Reviewed);
        assert_eq!(done.state.review_mode, Some(ReviewMode::AutomatedPolicy));
        assert_eq!(done.record["review"]["mode"], "automated-policy");
        assert_eq!(done.record["review"]["reviewer"], GATE_ID);
        assert_eq!(done.record["review"]["notes"], AUTOMATED_NOTES);
        assert_eq!(
            done.record["review"]["reviewed_at"],
            done.record["screening"]["screened_at"]
        );
        let history = agent
            .record_history(&s, &id("auto"), None, 50)
            .await
            .unwrap();
        assert_eq!(
            entries(&history.entries),
            [
                (1, "submitted".into(), "agent".into()),
                (2, "approved".into(), "agent".into())
            ]
        );

        // Off again, a candidate stays one; the automated policy never asks for changes.
        admin.set_record_settings(&settings(false)).await.unwrap();
        let done = kept(
            agent
                .submit_record(&submission(&s, "k2", sample_record("manual")))
                .await,
        );
        assert_eq!(done.state.lifecycle, RecordLifecycle::Candidate);
        let mut request = review(ReviewDecision::RequestChanges, Some("no"), None);
        request.mode = ReviewMode::AutomatedPolicy;
        let p = refused(agent.review_record(&id("manual"), &request).await);
        assert_eq!((p.status, p.code.as_str()), (409, "invalid_transition"));
    }
}

/// One call of every record and skill endpoint, with the capability it
/// needs (`None` for the schema, which any credential may read).
async fn every_endpoint(
    c: &Client,
    s: &Scope,
) -> Vec<(&'static str, Option<&'static str>, Result<(), ClientError>)> {
    let mut scoped_review = review(ReviewDecision::Approve, None, None);
    scoped_review.scope = s.clone();
    let mut scoped_withdrawal = withdrawal("obsolete", None);
    scoped_withdrawal.scope = s.clone();
    let mut scoped_publish = publish(release("1.0.0", 'a'));
    scoped_publish.scope = s.clone();
    let settings = RecordSettingsRequest {
        contract_version: CONTRACT_VERSION,
        scope: s.clone(),
        automated_approval: false,
    };
    let withdraw_skill = WithdrawSkillRequest {
        contract_version: CONTRACT_VERSION,
        scope: s.clone(),
        reason: "unsafe step".into(),
    };
    let rid = id("probe");
    vec![
        ("schema", None, c.record_schema().await.map(|_| ())),
        (
            "submit",
            Some("record_submit"),
            c.submit_record(&submission(s, "probe", sample_record("probe")))
                .await
                .map(|_| ()),
        ),
        (
            "read",
            Some("experience_read"),
            c.record(s, &rid).await.map(|_| ()),
        ),
        (
            "search",
            Some("experience_read"),
            c.search_records(s, &RecordSearch::default())
                .await
                .map(|_| ()),
        ),
        (
            "history",
            Some("experience_read"),
            c.record_history(s, &rid, None, 10).await.map(|_| ()),
        ),
        (
            "review",
            Some("record_review"),
            c.review_record(&rid, &scoped_review).await.map(|_| ()),
        ),
        (
            "withdraw",
            Some("record_review"),
            c.withdraw_record(&rid, &scoped_withdrawal)
                .await
                .map(|_| ()),
        ),
        (
            "set settings",
            Some("policy_admin"),
            c.set_record_settings(&settings).await.map(|_| ()),
        ),
        (
            "read settings",
            Some("experience_read"),
            c.record_settings(s).await.map(|_| ()),
        ),
        (
            "publish skill",
            Some("record_review"),
            c.publish_skill(&scoped_publish).await.map(|_| ()),
        ),
        (
            "skills",
            Some("experience_read"),
            c.skills(s).await.map(|_| ()),
        ),
        (
            "withdraw skill",
            Some("record_review"),
            c.withdraw_skill("ci-root-database-cluster", "1.0.0", &withdraw_skill)
                .await
                .map(|_| ()),
        ),
    ]
}

/// No token is 401, a missing capability or grant 403, a revoked credential
/// 401 at once, and another tenant or another subject's private scope sees
/// nothing (404 for a record).
#[tokio::test]
async fn record_endpoints_check_token_capability_grant_and_tenant() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (full, _, _) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        kept(
            full.submit_record(&submission(&s, "probe", sample_record("probe")))
                .await,
        );

        for (what, _, result) in every_endpoint(&server.anonymous, &s).await {
            let p = refused(result);
            assert_eq!(
                (p.status, p.code.as_str()),
                (401, "unauthenticated"),
                "{backend:?} {what}"
            );
        }

        // Each endpoint refuses a credential holding every capability but its
        // own; with its own, it gets past authorization.
        for needed in ALL {
            let others: Vec<&str> = ALL.iter().copied().filter(|c| c != needed).collect();
            // Another subject than the submitter, who may not review their own record.
            let (client, _, _) = client_as(&server, "prober", &others, vec![s.clone()]).await;
            for (what, cap, result) in every_endpoint(&client, &s).await {
                if cap == Some(*needed) {
                    let p = refused(result);
                    assert_eq!(
                        (p.status, p.code.as_str(), p.field.as_deref()),
                        (403, "missing_capability", None),
                        "{backend:?} {what} without {needed}"
                    );
                } else if let Err(e) = result {
                    let status = e.problem().map(|p| p.status);
                    assert!(
                        !matches!(status, Some(401 | 403)),
                        "{backend:?} {what} with {cap:?}: {e}"
                    );
                }
            }
        }

        // Every capability but no grant for the exact scope: 403 missing_grant.
        let near_misses = vec![
            Scope {
                mission_id: Some("m1".into()),
                ..s.clone()
            },
            Scope {
                visibility: Visibility::Private,
                ..s.clone()
            },
            Scope {
                project_id: "p2".into(),
                ..s.clone()
            },
        ];
        for grants in [vec![], near_misses] {
            let (client, _, _) = client_as(&server, "agent", ALL, grants.clone()).await;
            for (what, cap, result) in every_endpoint(&client, &s).await {
                if cap.is_none() {
                    result.unwrap_or_else(|e| panic!("{backend:?} {what}: {e}"));
                    continue;
                }
                let p = refused(result);
                assert_eq!(
                    (p.status, p.code.as_str(), p.field.as_deref()),
                    (403, "missing_grant", Some("/scope")),
                    "{backend:?} {what} with grants {grants:?}"
                );
            }
        }

        // A revoked credential is refused at once, everywhere.
        let (client, cid, _) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        client
            .record(&s, &id("probe"))
            .await
            .expect("usable before");
        server.admin.revoke_credential(&cid).await.unwrap();
        for (what, _, result) in every_endpoint(&client, &s).await {
            let p = refused(result);
            assert_eq!(
                (p.status, p.code.as_str()),
                (401, "credential_revoked"),
                "{backend:?} {what} after revocation"
            );
        }

        // Another tenant with the same scope sees nothing of t1.
        full.set_record_settings(&RecordSettingsRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            automated_approval: true,
        })
        .await
        .unwrap();
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin")
            .await
            .unwrap();
        let t2 = server
            .anonymous
            .with_token(token.render())
            .issue_credential(&issue_request("agent", ALL, vec![s.clone()]), None)
            .await
            .unwrap();
        let t2 = server.anonymous.with_token(&t2.token);
        let rid = id("probe");
        for (what, result) in [
            ("read", t2.record(&s, &rid).await.map(|_| ())),
            (
                "history",
                t2.record_history(&s, &rid, None, 10).await.map(|_| ()),
            ),
            (
                "review",
                t2.review_record(&rid, &review(ReviewDecision::Approve, None, None))
                    .await
                    .map(|_| ()),
            ),
        ] {
            let p = refused(result);
            assert_eq!(
                (p.status, p.code.as_str()),
                (404, "record_not_found"),
                "{backend:?} {what}"
            );
        }
        let page = t2
            .search_records(&s, &RecordSearch::default())
            .await
            .unwrap();
        assert!(page.records.is_empty(), "{backend:?}");
        assert!(!t2.record_settings(&s).await.unwrap().automated_approval);
        // The same source key and id are free in t2.
        let own = kept(
            t2.submit_record(&submission(&s, "probe", sample_record("probe")))
                .await,
        );
        assert_eq!(own.state.revision, 1);

        // A private scope's records are its subject's only.
        let private = Scope {
            visibility: Visibility::Private,
            ..s.clone()
        };
        let (carol, _, _) = client_as(&server, "carol", ALL, vec![private.clone()]).await;
        let (dave, _, _) = client_as(&server, "dave", ALL, vec![private.clone()]).await;
        kept(
            carol
                .submit_record(&submission(&private, "k", sample_record("mine")))
                .await,
        );
        carol.record(&private, &id("mine")).await.unwrap();
        assert_eq!(
            refused(dave.record(&private, &id("mine")).await).code,
            "record_not_found"
        );
    }
}

/// `provenance.author_ref` is the credential's subject, whatever the body
/// claims; key sources are scoped to their subject, issue sources are not.
#[tokio::test]
async fn the_author_is_the_credential_subject() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (carol, _, _) = client_as(&server, "carol", ALL, vec![s.clone()]).await;
        let (dave, _, _) = client_as(&server, "dave", ALL, vec![s.clone()]).await;
        let mut claimed = sample_record("authored");
        claimed["provenance"]["author_ref"] = json!("admin");
        let done = kept(
            carol
                .submit_record(&submission(&s, "k1", claimed.clone()))
                .await,
        );
        assert_eq!(
            done.record["provenance"]["author_ref"], "carol",
            "{backend:?}"
        );
        // Dave's "k1" is another source, so the id is not his to revise.
        let p = refused(dave.submit_record(&submission(&s, "k1", claimed)).await);
        assert_eq!((p.status, p.code.as_str()), (409, "source_conflict"));

        // An issue source belongs to whoever first filed it under a
        // github:<login> subject; it fills provenance.source_issue, and
        // nobody else can revise through it.
        let issue = |repository: &str| SubmitRecordRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            source: RecordSource::Issue(IssueRef {
                repository: repository.into(),
                number: 7,
            }),
            record: sample_record("filed"),
        };
        let p = refused(carol.submit_record(&issue("Praxis/Records")).await);
        assert_eq!(
            (p.status, p.code.as_str()),
            (422, "record_rejected"),
            "{backend:?}"
        );
        assert_eq!(p.errors[0].code, "gate.author_ref");
        let (erin, _, _) = client_as(&server, "github:erin", ALL, vec![s.clone()]).await;
        let (frank, _, _) = client_as(&server, "github:frank", ALL, vec![s.clone()]).await;
        let first = kept(erin.submit_record(&issue("Praxis/Records")).await);
        assert_eq!(first.record["provenance"]["author_ref"], "github:erin");
        assert_eq!(
            first.record["provenance"]["source_issue"]["url"],
            "https://github.com/Praxis/Records/issues/7"
        );
        let mut edit = issue("praxis/records");
        edit.record["title"] = json!("Throwaway cluster refused root on the CI runner");
        let p = refused(frank.submit_record(&edit).await);
        assert_eq!((p.status, p.code.as_str()), (409, "source_conflict"));

        // The author never reviews their own record, and nobody may claim an
        // automated-policy review in a namespace that has not turned it on.
        let own = refused(
            erin.review_record(&id("filed"), &review(ReviewDecision::Approve, None, None))
                .await,
        );
        assert_eq!((own.status, own.code.as_str()), (403, "self_review"));
        let mut automated = review(ReviewDecision::Approve, None, None);
        automated.mode = ReviewMode::AutomatedPolicy;
        let p = refused(frank.review_record(&id("filed"), &automated).await);
        assert_eq!((p.status, p.code.as_str()), (409, "invalid_transition"));
        let approved = frank
            .review_record(&id("filed"), &review(ReviewDecision::Approve, None, None))
            .await
            .unwrap();
        assert_eq!(approved.record["review"]["reviewer"], "github:frank");
        assert_eq!(approved.record["review"]["mode"], "human");
    }
}

/// Search filters by lifecycle, platform, verification level and text,
/// pages by cursor, and names a bad filter.
#[tokio::test]
async fn search_filters_and_pages() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let (reviewer, _, _) = client_as(&server, "reviewer", ALL, vec![s.clone()]).await;
        for (i, slug) in ["alpha", "bravo", "charlie", "delta"].iter().enumerate() {
            let mut doc = sample_record(slug);
            if i % 2 == 1 {
                doc["context"]["platform"] = json!("windows");
                doc["symptom"]["signals"] = json!(["The junction target volume was full"]);
            }
            kept(client.submit_record(&submission(&s, slug, doc)).await);
        }
        reviewer
            .review_record(&id("alpha"), &review(ReviewDecision::Approve, None, None))
            .await
            .unwrap();
        let ids = |search: RecordSearch| {
            let client = client.clone();
            let s = s.clone();
            async move {
                let page = client.search_records(&s, &search).await.unwrap();
                assert!(page.data_only);
                page.records
                    .into_iter()
                    .map(|r| {
                        assert_eq!(r.state.sha256, document_sha256(&r.record));
                        r.state.experience_id
                    })
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(
            ids(RecordSearch::default()).await,
            [id("alpha"), id("bravo"), id("charlie"), id("delta")],
            "{backend:?}"
        );
        let windows = RecordSearch {
            platform: Some(Platform::Windows),
            ..RecordSearch::default()
        };
        assert_eq!(ids(windows).await, [id("bravo"), id("delta")]);
        let reviewed = RecordSearch {
            lifecycle: Some(RecordLifecycle::Reviewed),
            ..RecordSearch::default()
        };
        assert_eq!(ids(reviewed).await, [id("alpha")]);
        let text = RecordSearch {
            q: Some("Junction VOLUME".into()),
            lifecycle: Some(RecordLifecycle::Candidate),
            ..RecordSearch::default()
        };
        assert_eq!(ids(text).await, [id("bravo"), id("delta")]);
        let level = RecordSearch {
            verification_level: Some(VerificationLevel::IndependentlyReproduced),
            ..RecordSearch::default()
        };
        assert!(ids(level).await.is_empty());
        let level = RecordSearch {
            verification_level: Some(VerificationLevel::LocallyVerified),
            ..RecordSearch::default()
        };
        assert_eq!(ids(level).await.len(), 4);

        // Pages of one, by cursor, until a short page.
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let page = client
                .search_records(
                    &s,
                    &RecordSearch {
                        after: after.clone(),
                        limit: Some(1),
                        ..RecordSearch::default()
                    },
                )
                .await
                .unwrap();
            seen.extend(page.records.into_iter().map(|r| r.state.experience_id));
            match page.next_cursor {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        assert_eq!(seen.len(), 4, "{backend:?}: {seen:?}");

        let long = "x".repeat(201);
        for (query, status, code, field) in [
            ("lifecycle=bogus", 422, "invalid_field", "lifecycle"),
            ("platform=Windows", 422, "invalid_field", "platform"),
            (
                "verification_level=verified",
                422,
                "invalid_field",
                "verification_level",
            ),
            (&format!("q={long}"), 422, "invalid_field", "q"),
            ("limit=0", 400, "invalid_query", "limit"),
            ("limit=201", 400, "invalid_query", "limit"),
        ] {
            let (got, body) = get_raw(
                &server,
                &format!("/api/v1/records?{SCOPE_QUERY}&{query}"),
                &token,
            )
            .await;
            assert_eq!(got, status, "{backend:?} {query}");
            assert_eq!(
                problem(&body),
                (code.to_owned(), Some(field.to_owned())),
                "{query}"
            );
        }
        let (got, body) = get_raw(
            &server,
            &format!("/api/v1/records?{SCOPE_QUERY}&color=red"),
            &token,
        )
        .await;
        assert_eq!((got, problem(&body).0.as_str()), (400, "invalid_query"));
    }
}

/// Releases are immutable, a record may relate only to an exact release,
/// and withdrawing a release flags the records relating to it.
#[tokio::test]
async fn skills_are_immutable_and_withdrawal_flags_relating_records() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let body = serde_json::to_value(publish(release("1.0.0", 'a'))).unwrap();
        let (status, _, bytes) = post_json(&server, "/api/v1/skills", Some(&token), &body).await;
        assert_eq!(
            status,
            201,
            "{backend:?}: {}",
            String::from_utf8_lossy(&bytes)
        );
        let (status, _, bytes) = post_json(&server, "/api/v1/skills", Some(&token), &body).await;
        assert_eq!(status, 200);
        let again: praxis_api::SkillResponse = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(again.write, WriteEffect::Unchanged);
        assert_eq!(again.skill.release, release("1.0.0", 'a'));
        let p = refused(client.publish_skill(&publish(release("1.0.0", 'b'))).await);
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (409, "skill_conflict", Some("/release/sha256"))
        );
        let mut malformed = release("1.0", 'a');
        malformed.name = "Bad Name".into();
        let p = refused(client.publish_skill(&publish(malformed)).await);
        assert_eq!((p.status, p.code.as_str()), (422, "record_invalid"));
        let fields: Vec<&str> = p.errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["/release/name", "/release/version"]);
        let secret = "ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U";
        let mut leaky = release("1.0.1", 'c');
        leaky.summary = format!("Run it with {secret} exported.");
        let (status, _, bytes) = post_json(
            &server,
            "/api/v1/skills",
            Some(&token),
            &serde_json::to_value(publish(leaky)).unwrap(),
        )
        .await;
        assert_eq!(status, 422);
        assert!(
            !String::from_utf8_lossy(&bytes).contains(secret),
            "a problem never repeats a secret"
        );
        let p: Problem = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            (p.errors[0].field.as_str(), p.errors[0].code.as_str()),
            ("/release/summary", "screen.credential.github")
        );

        // Relations name an exact release.
        let mut related = sample_record("skilled");
        related["relations"]["related_skills"] = json!([{
            "name": "ci-root-database-cluster", "version": "1.0.0", "sha256": "b".repeat(64)
        }]);
        let p = refused(
            client
                .submit_record(&submission(&s, "k1", related.clone()))
                .await,
        );
        assert_eq!(p.code, "record_rejected", "{backend:?}");
        assert_eq!(
            (p.errors[0].field.as_str(), p.errors[0].code.as_str()),
            ("/record/relations/related_skills/0", "repo.unknown_skill")
        );
        related["relations"]["related_skills"][0]["sha256"] = json!("a".repeat(64));
        let done = kept(client.submit_record(&submission(&s, "k1", related)).await);
        assert!(done.state.flags.is_empty());

        let registry = client.skills(&s).await.unwrap();
        assert_eq!(registry.skills.len(), 1);
        assert_eq!(registry.skills[0].withdrawal, None);
        let reason = WithdrawSkillRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            reason: "unsafe step".into(),
        };
        let p = refused(
            client
                .withdraw_skill("ci-root-database-cluster", "9.9.9", &reason)
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (404, "skill_not_found"));
        let withdrawn = client
            .withdraw_skill("ci-root-database-cluster", "1.0.0", &reason)
            .await
            .unwrap();
        assert_eq!(withdrawn.write, WriteEffect::Changed);
        assert_eq!(
            withdrawn
                .skill
                .withdrawal
                .as_ref()
                .map(|w| w.reason.as_str()),
            Some("unsafe step")
        );
        let twice = client
            .withdraw_skill("ci-root-database-cluster", "1.0.0", &reason)
            .await
            .unwrap();
        assert_eq!(twice.write, WriteEffect::Unchanged);
        let registry = client.skills(&s).await.unwrap();
        assert_eq!(registry.skills[0].release, release("1.0.0", 'a'), "kept");
        assert!(registry.skills[0].withdrawal.is_some());

        let flagged = client.record(&s, &id("skilled")).await.unwrap();
        assert_eq!(flagged.state.flags.len(), 1, "{backend:?}");
        assert_eq!(flagged.state.flags[0].rule, "repo.withdrawn_skill");
        assert_eq!(
            flagged.state.flags[0].pointer,
            "/relations/related_skills/0"
        );
        let page = client
            .search_records(&s, &RecordSearch::default())
            .await
            .unwrap();
        assert_eq!(page.records[0].state.flags, flagged.state.flags);
    }
}

/// The schema endpoint serves our v0.1 schema to any credential.
#[tokio::test]
async fn the_schema_endpoint_serves_our_schema() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (client, _, token) = client_as(&server, "reader", &["memory_read"], vec![]).await;
        let (status, headers, body) = raw(
            Method::GET,
            &format!("{}/api/v1/records/schema", server.base),
            Some(&token),
            &[],
            None,
        )
        .await;
        assert_eq!(status, 200, "{backend:?}");
        assert_eq!(headers["content-type"], "application/schema+json");
        let ours: Value =
            serde_json::from_str(praxis_domain::records::schema::SCHEMA_JSON).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), ours);
        assert_eq!(client.record_schema().await.unwrap(), ours);
    }
}

/// Bad input is refused with a problem naming the offending field, and the
/// record route takes bodies past 64 KiB but not past 160 KiB.
#[tokio::test]
async fn bad_input_names_the_offending_field() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        // Reviews come from another subject: a submitter never reviews their own record.
        let (_, _, reviewer) = client_as(&server, "reviewer", ALL, vec![s.clone()]).await;
        let valid = serde_json::to_value(submission(&s, "k1", sample_record("input"))).unwrap();
        let with = |pointer: &str, value: Value| {
            let mut body = valid.clone();
            *body.pointer_mut(pointer).unwrap() = value;
            body
        };
        let mut extra = valid.clone();
        extra["extra"] = json!(1);
        let mut missing = valid.clone();
        missing.as_object_mut().unwrap().remove("source");
        for (what, body, status, code, field) in [
            ("unknown field", extra, 400, "unknown_field", "/extra"),
            ("missing source", missing, 400, "missing_field", "/source"),
            (
                "empty key",
                with("/source", json!({"key": ""})),
                422,
                "invalid_field",
                "/source/key",
            ),
            (
                "bad issue",
                with(
                    "/source",
                    json!({"issue": {"repository": "noslash", "number": 0}}),
                ),
                422,
                "invalid_field",
                "/source/issue/repository",
            ),
            (
                "record not an object",
                with("/record", json!("text")),
                422,
                "record_rejected",
                "/record",
            ),
        ] {
            let (got, content_type, bytes) =
                post_json(&server, "/api/v1/records", Some(&token), &body).await;
            assert_eq!(
                got,
                status,
                "{backend:?} {what}: {}",
                String::from_utf8_lossy(&bytes)
            );
            assert_eq!(content_type, "application/problem+json");
            assert_eq!(
                problem(&bytes),
                (code.to_owned(), Some(field.to_owned())),
                "{what}"
            );
        }

        // Over 64 KiB is accepted on the record route, and screened.
        let big = with("/record/title", json!("x".repeat(100 * 1024)));
        let (got, _, bytes) = post_json(&server, "/api/v1/records", Some(&token), &big).await;
        assert_eq!(got, 422, "{backend:?}: {}", String::from_utf8_lossy(&bytes));
        let p: Problem = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(p.code, "record_rejected");
        assert!(
            p.errors.iter().any(|e| e.code == "gate.size"),
            "{:?}",
            p.errors
        );
        let huge = with("/record/title", json!("x".repeat(170 * 1024)));
        let (got, _, bytes) = post_json(&server, "/api/v1/records", Some(&token), &huge).await;
        assert_eq!(
            (got, problem(&bytes).0.as_str()),
            (413, "request_too_large")
        );

        // Other record routes keep the 64 KiB limit.
        kept(
            client
                .submit_record(&submission(&s, "k1", sample_record("input")))
                .await,
        );
        let mut long =
            serde_json::to_value(review(ReviewDecision::RequestChanges, Some("x"), None)).unwrap();
        long["notes"] = json!("x".repeat(70 * 1024));
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/review", id("input")),
            Some(&reviewer),
            &long,
        )
        .await;
        assert_eq!(
            (got, problem(&bytes).0.as_str()),
            (413, "request_too_large")
        );
        long["notes"] = json!("x".repeat(1001));
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/review", id("input")),
            Some(&reviewer),
            &long,
        )
        .await;
        assert_eq!(got, 422, "{}", String::from_utf8_lossy(&bytes));
        assert_eq!(
            problem(&bytes),
            ("record_invalid".to_owned(), Some("/notes".to_owned()))
        );
        long["notes"] = json!("Name the version.");
        long["decision"] = json!("maybe");
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/review", id("input")),
            Some(&reviewer),
            &long,
        )
        .await;
        assert_eq!(
            (got, problem(&bytes)),
            (
                400,
                ("invalid_field".to_owned(), Some("/decision".to_owned()))
            )
        );
        let reason = json!({
            "contract_version": 1,
            "scope": s,
            "reason": "see ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U"
        });
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/withdraw", id("input")),
            Some(&token),
            &reason,
        )
        .await;
        assert_eq!(
            (got, problem(&bytes)),
            (
                422,
                ("invalid_field".to_owned(), Some("/reason".to_owned()))
            )
        );
        let unchanged = client.record(&s, &id("input")).await.unwrap();
        assert_eq!(unchanged.state.revision, 1, "{backend:?}");
    }
}

/// A source whose only submission failed can still read its rejection, by
/// its key (the caller's own) or its issue, even though no record exists.
#[tokio::test]
async fn a_source_reads_its_intake_even_when_nothing_was_kept() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let (_, _, other) = client_as(&server, "other", ALL, vec![s.clone()]).await;
        let mut bad = sample_record("fresh");
        bad["attempts"][1]["sequence"] = json!(9);
        let p = refused(client.submit_record(&submission(&s, "fresh", bad)).await);
        assert_eq!(p.code, "record_rejected", "{backend:?}");
        let intake = |query: &str, token: String| {
            let url = format!(
                "{}/api/v1/records/intake?project_id=p1&agent_id=a1&visibility=shared&{query}",
                server.base
            );
            async move {
                let (status, _, body) =
                    raw(reqwest::Method::GET, &url, Some(&token), &[], None).await;
                (status, body)
            }
        };
        let (status, body) = intake("key=fresh", token.clone()).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let page: praxis_api::RecordHistoryResponse = serde_json::from_slice(&body).unwrap();
        assert_eq!(page.experience_id, id("fresh"));
        assert_eq!(page.entries.len(), 1);
        let entry = serde_json::to_value(&page.entries[0]).unwrap();
        assert!(
            entry.to_string().contains("gate.attempt_sequence"),
            "{entry}"
        );
        // Keys are per subject: another caller's "fresh" is another source.
        let (status, body) = intake("key=fresh", other).await;
        assert_eq!(status, 200);
        let page: praxis_api::RecordHistoryResponse = serde_json::from_slice(&body).unwrap();
        assert!(page.entries.is_empty());
        for bad_query in ["", "key=fresh&issue=o/r%231", "issue=o/r", "issue=o/r%230"] {
            let (status, body) = intake(bad_query, token.clone()).await;
            assert_eq!(
                status,
                400,
                "{bad_query}: {}",
                String::from_utf8_lossy(&body)
            );
            assert_eq!(problem(&body).0, "invalid_query");
        }
    }
}
