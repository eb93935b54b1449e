//! The author's discard of a candidate over HTTP: who may discard, what may
//! be discarded, its replay, and what history and search show after it.

use praxis_api::DiscardRecordRequest;

use super::*;

fn discard(reason: &str, expected_revision: Option<u64>) -> DiscardRecordRequest {
    DiscardRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        reason: reason.into(),
        expected_revision,
    }
}

/// Ids of a search for records with `lifecycle` (all when `None`).
async fn found(client: &Client, lifecycle: Option<RecordLifecycle>) -> Vec<String> {
    let search = RecordSearch {
        lifecycle,
        ..RecordSearch::default()
    };
    client
        .search_records(&scope(), &search)
        .await
        .unwrap()
        .records
        .into_iter()
        .map(|r| r.state.experience_id)
        .collect()
}

/// Only the author discards, only a candidate, once per key; the record is
/// withdrawn, its history shows the discard, and it leaves the candidates.
#[tokio::test]
async fn the_author_discards_a_candidate_and_no_one_else_can() {
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
        // Bob may submit and review, but did not submit alice's records.
        let (bob, _, _) = client_as(
            &server,
            "bob",
            &["record_submit", "record_review", "experience_read"],
            vec![s.clone()],
        )
        .await;
        let (reader, _, _) =
            client_as(&server, "carol", &["experience_read"], vec![s.clone()]).await;
        let (draft, kept_one) = (id("draft"), id("kept"));
        kept(
            alice
                .submit_record(&submission(&s, "k1", sample_record("draft")))
                .await,
        );
        kept(
            alice
                .submit_record(&submission(&s, "k2", sample_record("kept")))
                .await,
        );
        assert_eq!(
            found(&bob, Some(RecordLifecycle::Candidate)).await,
            [draft.clone(), kept_one.clone()]
        );

        // Anyone else, even a reviewer, is refused and nothing changes.
        let p = refused(bob.discard_record(&draft, &discard("not mine", None)).await);
        assert_eq!(
            (p.status, p.code.as_str()),
            (403, "not_record_author"),
            "{backend:?}"
        );
        let p = refused(
            reader
                .discard_record(&draft, &discard("no right", None))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (403, "missing_capability"));
        let p = refused(alice.discard_record(&draft, &discard(" ", None)).await);
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (422, "invalid_field", Some("/reason"))
        );
        let p = refused(
            alice
                .discard_record(&draft, &discard("stale", Some(2)))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (409, "revision_conflict"));
        let p = refused(
            alice
                .discard_record(&id("nowhere"), &discard("gone", None))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (404, "record_not_found"));
        assert_eq!(
            alice.record(&s, &draft).await.unwrap().state.revision,
            1,
            "{backend:?}: a refused discard writes nothing"
        );

        // The author's discard, keyed, and its replay: one revision.
        let body = serde_json::to_value(discard("a duplicate of exp-kept", Some(1))).unwrap();
        let path = format!("{}/api/v1/records/{draft}/discard", server.base);
        let mut answers = Vec::new();
        for _ in 0..2 {
            let (status, headers, bytes) = raw(
                Method::POST,
                &path,
                Some(&alice_token),
                &[
                    ("content-type", "application/json"),
                    ("idempotency-key", "discard-draft-0001"),
                ],
                Some(serde_json::to_vec(&body).unwrap()),
            )
            .await;
            assert_eq!(
                status,
                200,
                "{backend:?}: {}",
                String::from_utf8_lossy(&bytes)
            );
            let replayed = headers
                .get("idempotent-replayed")
                .is_some_and(|v| v == "true");
            answers.push((bytes, replayed));
        }
        assert_eq!(answers[0].0, answers[1].0, "the replay is byte for byte");
        assert_eq!((answers[0].1, answers[1].1), (false, true));
        let discarded: RecordWriteResponse = serde_json::from_slice(&answers[0].0).unwrap();
        assert_eq!(discarded.write, WriteEffect::Changed);
        assert_eq!(
            (discarded.state.lifecycle, discarded.state.revision),
            (RecordLifecycle::Withdrawn, 2)
        );
        assert_eq!(discarded.state.review_status, ReviewStatus::Pending);
        assert_eq!(
            discarded.state.withdrawal_reason.as_deref(),
            Some("a duplicate of exp-kept")
        );
        assert_eq!(discarded.record["lifecycle"]["status"], "withdrawn");

        // History shows the discard by its author, with the reason.
        let history = reader.record_history(&s, &draft, None, 50).await.unwrap();
        assert_eq!(
            entries(&history.entries),
            [
                (1, "submitted".into(), "alice".into()),
                (2, "discarded".into(), "alice".into())
            ]
        );
        match &history.entries[1] {
            RecordHistoryEntry::Revision { reason, record, .. } => {
                assert_eq!(reason.as_deref(), Some("a duplicate of exp-kept"));
                assert_eq!(record["lifecycle"]["status"], "withdrawn");
            }
            other @ RecordHistoryEntry::Rejection { .. } => panic!("{other:?}"),
        }

        // It left the candidates (the review queue) and is found as withdrawn.
        assert_eq!(
            found(&bob, Some(RecordLifecycle::Candidate)).await,
            std::slice::from_ref(&kept_one)
        );
        assert_eq!(
            found(&bob, Some(RecordLifecycle::Withdrawn)).await,
            std::slice::from_ref(&draft)
        );
        // A discarded record is no longer a candidate: no review, no edit,
        // no second discard.
        let p = refused(
            bob.review_record(&draft, &review(ReviewDecision::Approve, None, None))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (409, "invalid_transition"));
        let p = refused(alice.discard_record(&draft, &discard("again", None)).await);
        assert_eq!((p.status, p.code.as_str()), (409, "record_not_candidate"));

        // Once approved, a record cannot be discarded, even by its author.
        bob.review_record(&kept_one, &review(ReviewDecision::Approve, None, None))
            .await
            .unwrap();
        let p = refused(
            alice
                .discard_record(&kept_one, &discard("too late", None))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str()),
            (409, "record_not_candidate"),
            "{backend:?}"
        );
        assert_eq!(
            alice.record(&s, &kept_one).await.unwrap().state.lifecycle,
            RecordLifecycle::Reviewed
        );
    }
}

/// A record of another tenant is not found; one outside the caller's grants
/// is refused as a read is.
#[tokio::test]
async fn a_discard_outside_the_tenant_or_grants_is_refused() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (alice, _, _) = client_as(
            &server,
            "alice",
            &["record_submit", "experience_read"],
            vec![s.clone()],
        )
        .await;
        let rid = id("draft");
        kept(
            alice
                .submit_record(&submission(&s, "k1", sample_record("draft")))
                .await,
        );

        // The same subject name and scope in another tenant finds nothing.
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin")
            .await
            .unwrap();
        let t2 = server
            .anonymous
            .with_token(token.render())
            .issue_credential(&issue_request("alice", ALL, vec![s.clone()]), None)
            .await
            .unwrap();
        let t2 = server.anonymous.with_token(&t2.token);
        let p = refused(t2.discard_record(&rid, &discard("not here", None)).await);
        assert_eq!(
            (p.status, p.code.as_str()),
            (404, "record_not_found"),
            "{backend:?}"
        );

        // The author without a grant for the scope is refused.
        let other = Scope {
            project_id: "p2".into(),
            ..s.clone()
        };
        let (ungranted, _, _) = client_as(&server, "alice", &["record_submit"], vec![other]).await;
        let p = refused(
            ungranted
                .discard_record(&rid, &discard("no grant", None))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (403, "missing_grant"));
        assert_eq!(
            alice.record(&s, &rid).await.unwrap().state.lifecycle,
            RecordLifecycle::Candidate,
            "{backend:?}"
        );
    }
}
