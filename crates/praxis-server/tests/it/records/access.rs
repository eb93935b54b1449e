//! Who may use the record endpoints: capability, grant and tenant.

use super::*;

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
            "check",
            Some("record_submit"),
            c.check_record(&submission(s, "probe", sample_record("probe")))
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
