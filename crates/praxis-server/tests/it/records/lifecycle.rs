//! A record's life over HTTP: intake, review, supersession, withdrawal, settings and authorship.

use super::*;

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
