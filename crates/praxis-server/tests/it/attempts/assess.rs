//! Assessment and policy over HTTP.

use super::*;

/// Assess answers each candidate in request order from the policy, and never writes.
#[tokio::test]
async fn assess_follows_the_policy_in_request_order_and_writes_nothing() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let set = client
            .set_attempt_policy(&SetPolicyRequest {
                contract_version: CONTRACT_VERSION,
                scope: s.clone(),
                consecutive_failure_limit: Some(Some(3)),
                streak_key: Some(Some(praxis_api::StreakKey::default())),
                reexplore: None,
            })
            .await
            .unwrap();
        assert_eq!(set.consecutive_failure_limit, 3);
        assert_eq!(client.attempt_policy(&s).await.unwrap(), set);

        for i in 0..3 {
            client
                .observe(&observe_request(
                    &s,
                    outcome(
                        "host-a",
                        "probe",
                        &format!("c{i}"),
                        Stage::Active,
                        OutcomeStatus::FalsePositive,
                    ),
                    None,
                ))
                .await
                .unwrap();
        }
        // An operational failure of another action is neutral: that action is still unexplored.
        client
            .observe(&observe_request(
                &s,
                outcome(
                    "host-a",
                    "scan",
                    "c0",
                    Stage::Passive,
                    OutcomeStatus::Unknown,
                ),
                Some(Disposition::TransportFailure),
            ))
            .await
            .unwrap();

        let actions = vec![
            CandidateAction::Id("untouched".into()),
            CandidateAction::Id("probe".into()),
            CandidateAction::Revision(CandidateRevision {
                action_id: "scan".into(),
                action_revision: Some("v2".into()),
            }),
            CandidateAction::Id("probe".into()),
            CandidateAction::Id("zeta".into()),
            CandidateAction::Id("alpha".into()),
        ];
        let request = AssessRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            subject: "host-a".into(),
            actions: actions.clone(),
        };
        let answer = client.assess(&request).await.unwrap();
        let got: Vec<(&str, Recommendation)> = answer
            .assessments
            .iter()
            .map(|a| (a.action_id.as_str(), a.recommendation))
            .collect();
        assert_eq!(
            got,
            vec![
                ("untouched", Recommendation::Explore),
                ("probe", Recommendation::Suppress),
                ("scan", Recommendation::Explore),
                ("probe", Recommendation::Suppress),
                ("zeta", Recommendation::Explore),
                ("alpha", Recommendation::Explore),
            ],
            "{backend:?}"
        );
        let probe = &answer.assessments[1];
        assert_eq!(
            (
                probe.consecutive_failures,
                probe.limit,
                probe.completed_attempts
            ),
            (3, 3, 3)
        );
        assert_eq!(
            probe.last_disposition,
            Some(Disposition::VerificationRejected)
        );
        // Each answer names its candidate's revision, as given, even when
        // the streak is keyed per action; a candidate without one has none.
        assert_eq!(answer.assessments[2].action_revision.as_deref(), Some("v2"));
        assert_eq!(answer.assessments[1].action_revision, None);

        // Nothing an assessment decides is written back.
        let before = event_count(&server).await;
        let counts_before = client.attempt_counts(&s, None, None).await.unwrap();
        for _ in 0..50 {
            assert_eq!(client.assess(&request).await.unwrap(), answer);
        }
        assert_eq!(
            event_count(&server).await,
            before,
            "{backend:?}: assess wrote"
        );
        assert_eq!(
            client.attempt_counts(&s, None, None).await.unwrap(),
            counts_before
        );

        // A success resets the streak.
        client
            .observe(&observe_request(
                &s,
                outcome(
                    "host-a",
                    "probe",
                    "c3",
                    Stage::Active,
                    OutcomeStatus::Success,
                ),
                None,
            ))
            .await
            .unwrap();
        let answer = client.assess(&request).await.unwrap();
        let probe = &answer.assessments[1];
        assert_eq!(
            probe.recommendation,
            Recommendation::Continue,
            "{backend:?}"
        );
        assert_eq!(
            (probe.consecutive_failures, probe.completed_attempts),
            (0, 4)
        );
        assert_eq!(probe.last_disposition, Some(Disposition::ConfirmedPositive));
        assert_eq!(
            answer.assessments[0].recommendation,
            Recommendation::Explore
        );

        // 0 or 257 candidates are refused; 256 are fine.
        let events = event_count(&server).await;
        for n in [0usize, 257] {
            let body = json!({
                "contract_version": 1,
                "scope": s,
                "subject": "host-a",
                "actions": (0..n).map(|i| format!("act-{i}")).collect::<Vec<_>>(),
            });
            let (status, resp) =
                post_json(&server, "/api/v1/attempts/assess", Some(&token), &body).await;
            assert_eq!(status, 422, "{backend:?} {n} candidates");
            assert_eq!(
                problem(&resp),
                ("invalid_field".to_owned(), Some("/actions".to_owned())),
                "{backend:?} {n} candidates"
            );
        }
        // A misspelled field of a candidate is refused, never dropped.
        let body = json!({
            "contract_version": 1,
            "scope": s,
            "subject": "host-a",
            "actions": [{"action_id": "probe", "revision": "v2"}],
        });
        let (status, resp) =
            post_json(&server, "/api/v1/attempts/assess", Some(&token), &body).await;
        assert_eq!(
            status / 100,
            4,
            "{backend:?}: {}",
            String::from_utf8_lossy(&resp)
        );
        assert_eq!(
            problem(&resp).1.as_deref(),
            Some("/actions/0"),
            "{backend:?}"
        );
        let many = AssessRequest {
            actions: (0..256)
                .map(|i| CandidateAction::Id(format!("act-{i}")))
                .collect(),
            ..request.clone()
        };
        let answer = client.assess(&many).await.unwrap();
        assert_eq!(answer.assessments.len(), 256);
        assert!(
            answer
                .assessments
                .iter()
                .enumerate()
                .all(|(i, a)| a.action_id == format!("act-{i}"))
        );
        assert_eq!(event_count(&server).await, events);
    }
}

/// The policy endpoint: defaults, validation, re-exploration and revision-keyed streaks.
#[tokio::test]
async fn policy_defaults_validation_reexplore_and_revision_keys() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let default = client.attempt_policy(&s).await.unwrap();
        assert_eq!(
            (
                default.consecutive_failure_limit,
                default.streak_key,
                default.reexplore
            ),
            (10, praxis_api::StreakKey::Action, None),
            "{backend:?}"
        );

        let events = event_count(&server).await;
        let bad: Vec<(Value, &str)> = vec![
            (
                json!({"contract_version": 1, "scope": s, "consecutive_failure_limit": 0}),
                "/consecutive_failure_limit",
            ),
            (
                json!({"contract_version": 1, "scope": s, "reexplore": {}}),
                "/reexplore",
            ),
            (
                json!({"contract_version": 1, "scope": s, "reexplore": {"after_seconds": 0}}),
                "/reexplore/after_seconds",
            ),
            (
                json!({"contract_version": 1, "scope": s, "reexplore": {"after_observations": 0}}),
                "/reexplore/after_observations",
            ),
        ];
        for (body, field) in bad {
            let (status, resp) =
                post_json(&server, "/api/v1/attempts/policy", Some(&token), &body).await;
            assert_eq!(status, 422, "{backend:?} {body}");
            assert_eq!(
                problem(&resp),
                ("invalid_field".to_owned(), Some(field.to_owned())),
                "{backend:?} {body}"
            );
        }
        assert_eq!(
            event_count(&server).await,
            events,
            "{backend:?}: a bad policy wrote"
        );
        assert_eq!(client.attempt_policy(&s).await.unwrap(), default);

        // Limit 1, re-explore after 2 more observations of the subject.
        let set = client
            .set_attempt_policy(&SetPolicyRequest {
                contract_version: CONTRACT_VERSION,
                scope: s.clone(),
                consecutive_failure_limit: Some(Some(1)),
                streak_key: Some(Some(praxis_api::StreakKey::ActionRevision)),
                reexplore: Some(Some(praxis_api::ReexploreUpdate {
                    after_seconds: None,
                    after_observations: Some(Some(2)),
                })),
            })
            .await
            .unwrap();
        assert_eq!(client.attempt_policy(&s).await.unwrap(), set);
        let mut v1 = outcome(
            "host-a",
            "probe",
            "c0",
            Stage::Active,
            OutcomeStatus::FalsePositive,
        );
        v1.action_revision = Some("v1".into());
        client
            .observe(&observe_request(&s, v1, None))
            .await
            .unwrap();
        let request = AssessRequest {
            contract_version: CONTRACT_VERSION,
            scope: s.clone(),
            subject: "host-a".into(),
            actions: vec![
                CandidateAction::Revision(CandidateRevision {
                    action_id: "probe".into(),
                    action_revision: Some("v1".into()),
                }),
                CandidateAction::Revision(CandidateRevision {
                    action_id: "probe".into(),
                    action_revision: Some("v2".into()),
                }),
            ],
        };
        let answer = client.assess(&request).await.unwrap();
        let got: Vec<(Option<&str>, Recommendation)> = answer
            .assessments
            .iter()
            .map(|a| (a.action_revision.as_deref(), a.recommendation))
            .collect();
        assert_eq!(
            got,
            vec![
                (Some("v1"), Recommendation::Suppress),
                (Some("v2"), Recommendation::Explore),
            ],
            "{backend:?}"
        );
        // Two later observations of the subject (of other actions) allow one more try.
        for i in 0..2 {
            client
                .observe(&observe_request(
                    &s,
                    outcome(
                        "host-a",
                        "scan",
                        &format!("s{i}"),
                        Stage::Passive,
                        OutcomeStatus::Unknown,
                    ),
                    None,
                ))
                .await
                .unwrap();
        }
        let answer = client.assess(&request).await.unwrap();
        assert_eq!(
            answer.assessments[0].recommendation,
            Recommendation::Explore,
            "{backend:?}: {}",
            answer.assessments[0].rationale
        );
        assert_eq!(answer.assessments[0].consecutive_failures, 1);
    }
}
