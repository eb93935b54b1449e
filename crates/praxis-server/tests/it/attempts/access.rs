//! Who may use the attempt endpoints: capability, exact grant, tenant and private scopes.

use super::*;

/// Every attempt endpoint needs a token, its capability and an exact scope grant.
#[tokio::test]
async fn attempt_endpoints_check_token_capability_and_exact_grant() {
    // One call of each endpoint, with the capability it needs.
    async fn every_endpoint(
        c: &Client,
        s: &Scope,
        observe: &ObserveRequest,
        assess: &AssessRequest,
        policy: &SetPolicyRequest,
        import: &ImportRequest,
    ) -> Vec<(&'static str, &'static str, Result<(), ClientError>)> {
        vec![
            (
                "observe",
                "experience_write",
                c.observe(observe).await.map(|_| ()),
            ),
            (
                "assess",
                "experience_read",
                c.assess(assess).await.map(|_| ()),
            ),
            (
                "set policy",
                "policy_admin",
                c.set_attempt_policy(policy).await.map(|_| ()),
            ),
            (
                "read policy",
                "experience_read",
                c.attempt_policy(s).await.map(|_| ()),
            ),
            (
                "history",
                "experience_read",
                c.attempt_history(s, "host-a", None, None, 10)
                    .await
                    .map(|_| ()),
            ),
            (
                "counts",
                "experience_read",
                c.attempt_counts(s, None, None).await.map(|_| ()),
            ),
            (
                "import",
                "experience_evidence_admin",
                c.import_attempts(import).await.map(|_| ()),
            ),
            (
                "export",
                "experience_read",
                c.export_attempts(s).await.map(|_| ()),
            ),
        ]
    }

    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let observe = observe_request(
            &s,
            outcome(
                "host-a",
                "probe",
                "c1",
                Stage::Active,
                OutcomeStatus::Success,
            ),
            None,
        );
        let assess = AssessRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            subject: "host-a".into(),
            actions: vec![CandidateAction::Id("probe".into())],
        };
        let policy = SetPolicyRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            consecutive_failure_limit: Some(Some(3)),
            streak_key: Some(Some(praxis_api::StreakKey::default())),
            reexplore: None,
        };
        let import = ImportRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            store: LegacyStore {
                next_sequence: 0,
                records: vec![],
            },
        };

        // No token: 401 everywhere.
        for (what, _, result) in
            every_endpoint(&server.anonymous, &s, &observe, &assess, &policy, &import).await
        {
            let p = refused(result);
            assert_eq!(
                (p.status, p.code.as_str()),
                (401, "unauthenticated"),
                "{backend:?} {what}"
            );
        }

        // Each endpoint refuses a credential holding every capability but its own.
        for needed in ALL {
            let others: Vec<&str> = ALL.iter().copied().filter(|c| c != needed).collect();
            let (client, _, _) = client_as(&server, "agent", &others, vec![s.clone()]).await;
            for (what, cap, result) in
                every_endpoint(&client, &s, &observe, &assess, &policy, &import).await
            {
                if cap == *needed {
                    let p = refused(result);
                    assert_eq!(
                        (p.status, p.code.as_str(), p.field.as_deref()),
                        (403, "missing_capability", None),
                        "{backend:?} {what} without {needed}"
                    );
                } else {
                    result.unwrap_or_else(|e| panic!("{backend:?} {what} with {cap}: {e}"));
                }
            }
        }

        // Every capability but no grant for the exact scope: 403 missing_grant.
        let near_misses = vec![
            scope_of(Some("m1"), Visibility::Shared),
            scope_of(None, Visibility::Private),
            Scope {
                project_id: "p2".into(),
                ..s.clone()
            },
            Scope {
                agent_id: "a2".into(),
                ..s.clone()
            },
        ];
        for grants in [vec![], near_misses] {
            let (client, _, _) = client_as(&server, "agent", ALL, grants.clone()).await;
            for (what, _, result) in
                every_endpoint(&client, &s, &observe, &assess, &policy, &import).await
            {
                let p = refused(result);
                assert_eq!(
                    (p.status, p.code.as_str(), p.field.as_deref()),
                    (403, "missing_grant", Some("/scope")),
                    "{backend:?} {what} with grants {grants:?}"
                );
            }
        }
        // A grant for the null mission does not cover a named mission either.
        let (client, _, _) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let in_mission = observe_request(
            &scope_of(Some("m1"), Visibility::Shared),
            outcome(
                "host-a",
                "probe",
                "c1",
                Stage::Active,
                OutcomeStatus::Success,
            ),
            None,
        );
        assert_eq!(
            refused(client.observe(&in_mission).await).code,
            "missing_grant"
        );

        // A revoked credential is refused at once.
        let (client, id, _) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        client
            .attempt_counts(&s, None, None)
            .await
            .expect("usable before revocation");
        server.admin.revoke_credential(&id).await.unwrap();
        for (what, _, result) in
            every_endpoint(&client, &s, &observe, &assess, &policy, &import).await
        {
            let p = refused(result);
            assert_eq!(
                (p.status, p.code.as_str()),
                (401, "credential_revoked"),
                "{backend:?} {what} after revocation"
            );
        }
    }
}

/// Another tenant's credential for the same scope sees nothing of tenant `t1`.
#[tokio::test]
async fn tenants_do_not_share_attempts() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (t1, _, _) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        for (i, status) in [OutcomeStatus::FalsePositive, OutcomeStatus::Success]
            .into_iter()
            .enumerate()
        {
            t1.observe(&observe_request(
                &s,
                outcome("host-a", "probe", &format!("c{i}"), Stage::Active, status),
                None,
            ))
            .await
            .unwrap();
        }
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin")
            .await
            .unwrap();
        let t2_admin = server.anonymous.with_token(token.render());
        let issued = t2_admin
            .issue_credential(&issue_request("agent", ALL, vec![s.clone()]), None)
            .await
            .unwrap();
        let t2 = server.anonymous.with_token(&issued.token);

        let history = t2
            .attempt_history(&s, "host-a", None, None, 100)
            .await
            .unwrap();
        assert!(history.records.is_empty(), "{backend:?}: {history:?}");
        assert_eq!(history.next_cursor, None);
        let counts = t2.attempt_counts(&s, None, None).await.unwrap();
        assert_eq!(counts.total, 0, "{backend:?}");
        assert!(counts.counts.values().all(|n| *n == 0), "{counts:?}");
        let counts = t2
            .attempt_counts(&s, Some("host-a"), Some("probe"))
            .await
            .unwrap();
        assert_eq!(counts.total, 0, "{backend:?}");
        let export = t2.export_attempts(&s).await.unwrap();
        assert_eq!((export.next_sequence, export.records.len()), (0, 0));
        let assessed = t2
            .assess(&AssessRequest {
                contract_version: CONTRACT_VERSION,
                scope: s.clone(),
                subject: "host-a".into(),
                actions: vec![CandidateAction::Id("probe".into())],
            })
            .await
            .unwrap();
        assert_eq!(
            assessed.assessments[0].recommendation,
            Recommendation::Explore
        );
        assert_eq!(assessed.assessments[0].completed_attempts, 0);

        // t2 may record the very same identity with other content: no conflict across tenants.
        let mut other = outcome(
            "host-a",
            "probe",
            "c0",
            Stage::Active,
            OutcomeStatus::Success,
        );
        other.rationale = "t2's own".into();
        let written = t2.observe(&observe_request(&s, other, None)).await.unwrap();
        assert_eq!(written.write, praxis_api::WriteKind::Inserted);
        // And t1 is untouched.
        assert_eq!(total(&t1, &s).await, 2, "{backend:?}");
        assert_eq!(total(&t2, &s).await, 1, "{backend:?}");
    }
}

/// Two subjects granted the same private scope each see only their own records.
#[tokio::test]
async fn private_scopes_are_private_to_each_subject() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let private = scope_of(None, Visibility::Private);
        let (alice, _, _) = client_as(&server, "alice", ALL, vec![private.clone()]).await;
        let (bob, _, _) = client_as(&server, "bob", ALL, vec![private.clone()]).await;
        let a = alice
            .observe(&observe_request(
                &private,
                outcome(
                    "host-a",
                    "probe",
                    "c1",
                    Stage::Active,
                    OutcomeStatus::FalsePositive,
                ),
                None,
            ))
            .await
            .unwrap();
        // Bob may use the same identity with other content: his namespace is his own.
        let mut bobs = outcome(
            "host-a",
            "probe",
            "c1",
            Stage::Active,
            OutcomeStatus::Success,
        );
        bobs.rationale = "bob's".into();
        let b = bob
            .observe(&observe_request(&private, bobs, None))
            .await
            .unwrap();
        assert_eq!(a.write, praxis_api::WriteKind::Inserted);
        assert_eq!(b.write, praxis_api::WriteKind::Inserted, "{backend:?}");

        let (carol, _, _) = client_as(&server, "carol", ALL, vec![private.clone()]).await;
        for (who, client, own) in [
            ("alice", &alice, Some(&a.record)),
            ("bob", &bob, Some(&b.record)),
            ("carol", &carol, None),
        ] {
            let history = client
                .attempt_history(&private, "host-a", None, None, 100)
                .await
                .unwrap();
            assert_eq!(
                history.records,
                own.into_iter().cloned().collect::<Vec<_>>(),
                "{backend:?} {who}"
            );
            assert_eq!(total(client, &private).await, own.iter().count() as u64);
        }
        // The shared scope of the same tuple is yet another namespace.
        let (shared, _, _) = client_as(&server, "alice", ALL, vec![scope()]).await;
        assert_eq!(total(&shared, &scope()).await, 0, "{backend:?}");
        // Assessments are private too.
        let req = AssessRequest {
            contract_version: CONTRACT_VERSION,
            scope: private.clone(),
            subject: "host-a".into(),
            actions: vec![CandidateAction::Id("probe".into())],
        };
        let of = |r: praxis_api::AssessResponse| r.assessments[0].last_disposition;
        assert_eq!(
            of(alice.assess(&req).await.unwrap()),
            Some(Disposition::VerificationRejected)
        );
        assert_eq!(
            of(bob.assess(&req).await.unwrap()),
            Some(Disposition::ConfirmedPositive)
        );
        assert_eq!(of(carol.assess(&req).await.unwrap()), None);
    }
}
