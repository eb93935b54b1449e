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

use crate::support::{Server, client_as, issue_request, problem, raw};

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

/// Number of events in tenant `t1`.
async fn event_count(server: &Server) -> usize {
    server
        .engine
        .ledger()
        .events("t1", 0, 100_000)
        .await
        .unwrap()
        .len()
}

/// Total records of the namespace of `scope`, as `client` sees it.
async fn total(client: &Client, scope: &Scope) -> u64 {
    client
        .attempt_counts(scope, None, None)
        .await
        .unwrap()
        .total
}

/// Observe answers 201/200 with explicit dispositions and refuses bad outcomes without writing.
#[tokio::test]
async fn observe_records_once_and_refuses_bad_outcomes() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (client, _, token) = client_as(&server, "agent", ALL, vec![scope()]).await;
        let ok = outcome(
            "host-a",
            "probe",
            "c1",
            Stage::Active,
            OutcomeStatus::Success,
        );
        let body = serde_json::to_value(observe_request(&scope(), ok.clone(), None)).unwrap();

        let (status, first) = post_json(&server, "/api/v1/attempts", Some(&token), &body).await;
        assert_eq!(
            status,
            201,
            "{backend:?}: {}",
            String::from_utf8_lossy(&first)
        );
        let first: praxis_api::ObserveResponse = serde_json::from_slice(&first).unwrap();
        assert_eq!(first.write, praxis_api::WriteKind::Inserted);
        assert_eq!(first.record.outcome, ok);
        assert_eq!(first.record.disposition, Disposition::ConfirmedPositive);
        assert_eq!(first.record.digest.len(), 64, "{}", first.record.digest);
        assert!(
            first
                .record
                .digest
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{}",
            first.record.digest
        );
        // The disposition is explicit on the wire even though it was inferred.
        let wire: Value = serde_json::to_value(&first).unwrap();
        assert_eq!(wire["record"]["disposition"], "confirmed_positive");
        assert!(wire["record"]["sequence"].is_u64());

        let (status, again) = post_json(&server, "/api/v1/attempts", Some(&token), &body).await;
        assert_eq!(status, 200, "{backend:?}: identical retry");
        let again: praxis_api::ObserveResponse = serde_json::from_slice(&again).unwrap();
        assert_eq!(again.write, praxis_api::WriteKind::Unchanged);
        assert_eq!(again.record.sequence, first.record.sequence);
        assert_eq!(again.record.digest, first.record.digest);
        assert_eq!(again.record, first.record);

        let events = event_count(&server).await;
        let records = total(&client, &scope()).await;
        assert_eq!(records, 1);

        let mut other_rationale = ok.clone();
        other_rationale.rationale = "another reason".into();
        let mut unknown_field = serde_json::to_value(&body).unwrap();
        unknown_field["outcome"]["bogus"] = json!(1);
        let mut no_version = body.clone();
        no_version
            .as_object_mut()
            .unwrap()
            .remove("contract_version");
        let mut version_two = body.clone();
        version_two["contract_version"] = json!(2);
        let mut unknown_confident = outcome(
            "host-a",
            "probe",
            "c2",
            Stage::Active,
            OutcomeStatus::Unknown,
        );
        unknown_confident.confidence = 5;
        let passive_negative = outcome(
            "host-a",
            "probe",
            "c3",
            Stage::Passive,
            OutcomeStatus::ConfirmedNegative,
        );
        let as_body = |o: Outcome, d: Option<Disposition>| {
            serde_json::to_value(observe_request(&scope(), o, d)).unwrap()
        };
        // Every status but unknown names its rule, cites evidence and is confident.
        let broken = |status: OutcomeStatus, edit: fn(&mut Outcome)| {
            let mut o = outcome("host-a", "probe", "c4", Stage::Active, status);
            edit(&mut o);
            as_body(o, None)
        };
        let cases: Vec<(&str, Value, u16, &str, Option<&str>)> = vec![
            (
                "blocked without evidence",
                broken(OutcomeStatus::Blocked, |o| o.evidence_ids.clear()),
                422,
                "invalid_field",
                Some("/outcome/evidence_ids"),
            ),
            (
                "blocked without a rule",
                broken(OutcomeStatus::Blocked, |o| o.verifier_rule_id = None),
                422,
                "invalid_field",
                Some("/outcome/verifier_rule_id"),
            ),
            (
                "needs_review with zero confidence",
                broken(OutcomeStatus::NeedsReview, |o| o.confidence = 0),
                422,
                "invalid_field",
                Some("/outcome/confidence"),
            ),
            (
                "needs_review without evidence",
                broken(OutcomeStatus::NeedsReview, |o| o.evidence_ids.clear()),
                422,
                "invalid_field",
                Some("/outcome/evidence_ids"),
            ),
            (
                "a blank subject",
                broken(OutcomeStatus::Success, |o| o.subject = "  ".into()),
                422,
                "invalid_field",
                Some("/outcome/subject"),
            ),
            (
                "a blank evidence id",
                broken(OutcomeStatus::Success, |o| {
                    o.evidence_ids = vec!["\u{3000}".into()];
                }),
                422,
                "invalid_field",
                Some("/outcome/evidence_ids/0"),
            ),
            (
                "a blank rationale",
                broken(OutcomeStatus::Unknown, |o| o.rationale = " ".into()),
                422,
                "invalid_field",
                Some("/outcome/rationale"),
            ),
            (
                "a subject over the live limit",
                broken(OutcomeStatus::Success, |o| o.subject = "s".repeat(257)),
                422,
                "invalid_field",
                Some("/outcome/subject"),
            ),
            (
                "same identity, other rationale",
                as_body(other_rationale, None),
                409,
                "identity_conflict",
                Some("/outcome"),
            ),
            (
                "same identity, other disposition",
                as_body(
                    outcome(
                        "host-a",
                        "probe",
                        "c1",
                        Stage::Active,
                        OutcomeStatus::Unknown,
                    ),
                    Some(Disposition::TransportFailure),
                ),
                409,
                "identity_conflict",
                Some("/outcome"),
            ),
            (
                "transport_failure with success",
                as_body(
                    outcome(
                        "host-a",
                        "probe",
                        "c9",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    Some(Disposition::TransportFailure),
                ),
                422,
                "invalid_disposition",
                Some("/disposition"),
            ),
            (
                "unknown with confidence 5",
                as_body(unknown_confident, None),
                422,
                "invalid_field",
                Some("/outcome/confidence"),
            ),
            (
                "passive confirmed_negative",
                as_body(passive_negative, None),
                422,
                "invalid_field",
                Some("/outcome/stage"),
            ),
            (
                "unknown field in the outcome",
                unknown_field,
                400,
                "unknown_field",
                Some("/outcome/bogus"),
            ),
            (
                "missing contract_version",
                no_version,
                400,
                "missing_field",
                Some("/contract_version"),
            ),
            (
                "contract_version 2",
                version_two,
                400,
                "unsupported_contract_version",
                Some("/contract_version"),
            ),
        ];
        for (what, body, want_status, code, field) in cases {
            let (status, resp) = post_json(&server, "/api/v1/attempts", Some(&token), &body).await;
            assert_eq!(
                status,
                want_status,
                "{backend:?} {what}: {}",
                String::from_utf8_lossy(&resp)
            );
            assert_eq!(
                problem(&resp),
                (code.to_owned(), field.map(str::to_owned)),
                "{backend:?} {what}"
            );
        }
        assert_eq!(
            total(&client, &scope()).await,
            records,
            "{backend:?}: a refusal wrote"
        );
        assert_eq!(
            event_count(&server).await,
            events,
            "{backend:?}: a refusal wrote"
        );
        let history = client
            .attempt_history(&scope(), "host-a", None, None, 100)
            .await
            .unwrap();
        assert_eq!(history.records, vec![first.record.clone()]);
    }
}

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
            consecutive_failure_limit: 3,
            streak_key: praxis_api::StreakKey::default(),
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
                consecutive_failure_limit: 3,
                streak_key: praxis_api::StreakKey::default(),
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
        // A streak keyed per action reports no revision.
        assert_eq!(answer.assessments[2].action_revision, None);

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

/// History pages cover every record once in order; counts report per disposition.
#[tokio::test]
async fn history_pages_and_counts_over_http() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let plan: Vec<(&str, &str, OutcomeStatus, Option<Disposition>)> = vec![
            ("host-a", "probe", OutcomeStatus::FalsePositive, None),
            ("host-a", "scan", OutcomeStatus::Success, None),
            ("host-b", "probe", OutcomeStatus::Blocked, None),
            (
                "host-a",
                "probe",
                OutcomeStatus::Unknown,
                Some(Disposition::TransportFailure),
            ),
            (
                "host-a",
                "scan",
                OutcomeStatus::NeedsReview,
                Some(Disposition::NotApplicable),
            ),
            ("host-a", "probe", OutcomeStatus::Success, None),
            ("host-b", "scan", OutcomeStatus::FalsePositive, None),
        ];
        let mut written = Vec::new();
        for (i, (subject, action, status, disposition)) in plan.iter().enumerate() {
            let w = client
                .observe(&observe_request(
                    &s,
                    outcome(subject, action, &format!("c{i}"), Stage::Active, *status),
                    *disposition,
                ))
                .await
                .unwrap();
            written.push(w.record);
        }
        let of_a: Vec<_> = written
            .iter()
            .filter(|r| r.outcome.subject == "host-a")
            .cloned()
            .collect();
        assert_eq!(of_a.len(), 5);

        // Paging with limit 2 covers every record of the subject exactly once, ascending.
        let mut seen = Vec::new();
        let mut after: Option<String> = None;
        let mut pages = 0;
        loop {
            let page = client
                .attempt_history(&s, "host-a", None, after.as_deref(), 2)
                .await
                .unwrap();
            pages += 1;
            assert!(page.records.len() <= 2, "{backend:?}: page too long");
            seen.extend(page.records);
            match page.next_cursor {
                Some(c) => after = Some(c),
                None => break,
            }
            assert!(pages <= 10, "{backend:?}: paging does not end");
        }
        assert_eq!(seen, of_a, "{backend:?}");
        assert!(seen.windows(2).all(|w| w[0].sequence < w[1].sequence));
        let unique: BTreeSet<u64> = seen.iter().map(|r| r.sequence).collect();
        assert_eq!(unique.len(), seen.len());

        // The action filter.
        let probe = client
            .attempt_history(&s, "host-a", Some("probe"), None, 500)
            .await
            .unwrap();
        let want: Vec<_> = of_a
            .iter()
            .filter(|r| r.outcome.action_id == "probe")
            .cloned()
            .collect();
        assert_eq!(probe.records, want, "{backend:?}");
        assert_eq!(probe.records.len(), 3);
        assert_eq!(probe.next_cursor, None);
        let none = client
            .attempt_history(&s, "host-c", None, None, 500)
            .await
            .unwrap();
        assert!(none.records.is_empty());

        // Counts per disposition, every disposition listed, with the total.
        let counts = client.attempt_counts(&s, None, None).await.unwrap();
        assert_eq!(counts.total, 7, "{backend:?}");
        assert_eq!(counts.counts.len(), 9, "every disposition is listed");
        assert_eq!(counts.counts.values().sum::<u64>(), counts.total);
        let expect = [
            (Disposition::ConfirmedPositive, 2),
            (Disposition::VerificationRejected, 2),
            (Disposition::BlockedByTarget, 1),
            (Disposition::TransportFailure, 1),
            (Disposition::NotApplicable, 1),
            (Disposition::ConfirmedNegative, 0),
            (Disposition::BlockedByPolicy, 0),
            (Disposition::ExecutorFailure, 0),
            (Disposition::VerificationInconclusive, 0),
        ];
        for (d, n) in expect {
            assert_eq!(counts.counts[&d], n, "{backend:?} {d:?}");
        }
        let a = client
            .attempt_counts(&s, Some("host-a"), None)
            .await
            .unwrap();
        assert_eq!(a.total, 5);
        assert_eq!(a.counts[&Disposition::ConfirmedPositive], 2);
        let a_probe = client
            .attempt_counts(&s, Some("host-a"), Some("probe"))
            .await
            .unwrap();
        assert_eq!(a_probe.total, 3, "{backend:?}");
        assert_eq!(a_probe.counts[&Disposition::VerificationRejected], 1);
        assert_eq!(a_probe.counts[&Disposition::TransportFailure], 1);
        assert_eq!(a_probe.counts[&Disposition::ConfirmedPositive], 1);

        // Bad queries.
        let q = "project_id=p1&agent_id=a1&visibility=shared";
        let cases: Vec<(String, &str, Option<&str>)> = vec![
            (
                format!("/api/v1/attempts/history?{q}&subject=host-a&limit=0"),
                "invalid_query",
                Some("limit"),
            ),
            (
                format!("/api/v1/attempts/history?{q}&subject=host-a&limit=501"),
                "invalid_query",
                Some("limit"),
            ),
            (
                format!("/api/v1/attempts/history?{q}&subject=host-a&after=x"),
                "invalid_cursor",
                Some("after"),
            ),
            (
                format!("/api/v1/attempts/history?{q}"),
                "invalid_query",
                None,
            ),
            (
                format!("/api/v1/attempts/counts?{q}&action_id=probe"),
                "invalid_query",
                Some("action_id"),
            ),
            (
                format!("/api/v1/attempts/counts?{q}&bogus=1"),
                "invalid_query",
                None,
            ),
        ];
        for (url, code, field) in cases {
            let (status, resp) = get_raw(&server, &url, Some(&token)).await;
            assert_eq!(
                status,
                400,
                "{backend:?} {url}: {}",
                String::from_utf8_lossy(&resp)
            );
            assert_eq!(
                problem(&resp),
                (code.to_owned(), field.map(str::to_owned)),
                "{backend:?} {url}"
            );
        }
        let p = refused(client.attempt_counts(&s, None, Some("probe")).await);
        assert_eq!((p.status, p.code.as_str()), (400, "invalid_query"));
        assert_eq!(p.field.as_deref(), Some("action_id"));
    }
}

/// A legacy record with the given sequence, outcome and disposition.
fn legacy(sequence: u64, outcome: Outcome, disposition: Option<Disposition>) -> LegacyRecord {
    LegacyRecord {
        sequence,
        outcome,
        disposition,
    }
}

/// An import request into `scope`.
fn import_request(scope: &Scope, store: LegacyStore) -> ImportRequest {
    ImportRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope.clone(),
        store,
    }
}

/// Import infers missing dispositions, export round-trips exactly, bad stores write nothing.
#[tokio::test]
async fn import_and_export_round_trip_and_refuse_bad_stores() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let other = scope_of(Some("m2"), Visibility::Shared);
        let (client, _, token) =
            client_as(&server, "agent", ALL, vec![s.clone(), other.clone()]).await;

        let mut timed = outcome(
            "host-a",
            "probe",
            "c1",
            Stage::Active,
            OutcomeStatus::Success,
        );
        timed.observed_at = Some("2024-05-01T12:00:00Z".into());
        timed.action_revision = Some("v1".into());
        let records = vec![
            legacy(
                0,
                outcome(
                    "host-a",
                    "probe",
                    "c0",
                    Stage::Active,
                    OutcomeStatus::FalsePositive,
                ),
                None,
            ),
            legacy(1, timed, Some(Disposition::ConfirmedPositive)),
            legacy(
                2,
                outcome(
                    "host-b",
                    "scan",
                    "c0",
                    Stage::Passive,
                    OutcomeStatus::Unknown,
                ),
                Some(Disposition::ExecutorFailure),
            ),
            legacy(
                3,
                outcome(
                    "host-a",
                    "probe",
                    "c2",
                    Stage::Active,
                    OutcomeStatus::Blocked,
                ),
                None,
            ),
        ];
        let n = records.len() as u64;
        let store = LegacyStore {
            next_sequence: n,
            records,
        };
        let imported = client
            .import_attempts(&import_request(&s, store.clone()))
            .await
            .unwrap();
        assert_eq!(
            (imported.inserted, imported.unchanged),
            (n, 0),
            "{backend:?}"
        );

        let (status, exported) = get_raw(
            &server,
            "/api/v1/attempts/export?project_id=p1&agent_id=a1&visibility=shared",
            Some(&token),
        )
        .await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&exported));
        let exported: Value = serde_json::from_slice(&exported).unwrap();
        assert_eq!(exported["next_sequence"], json!(n), "{backend:?}");
        let rows = exported["records"].as_array().unwrap();
        assert_eq!(rows.len() as u64, n);
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row["sequence"], json!(i), "{backend:?}");
            assert!(
                row["disposition"].is_string(),
                "{backend:?}: record {i} {row}"
            );
        }
        assert_eq!(rows[0]["disposition"], "verification_rejected");
        assert_eq!(rows[2]["disposition"], "executor_failure");
        assert_eq!(rows[3]["disposition"], "blocked_by_target");
        let typed: LegacyStore = serde_json::from_value(exported.clone()).unwrap();
        assert_eq!(typed, client.export_attempts(&s).await.unwrap());
        for (got, sent) in typed.records.iter().zip(&store.records) {
            assert_eq!(got.outcome.case_id, sent.outcome.case_id);
            assert_eq!(got.outcome.subject, sent.outcome.subject);
        }

        // Importing the same store again changes nothing.
        let again = client
            .import_attempts(&import_request(&s, store.clone()))
            .await
            .unwrap();
        assert_eq!((again.inserted, again.unchanged), (0, n), "{backend:?}");

        // The export imported elsewhere exports to the identical JSON.
        let moved = client
            .import_attempts(&import_request(&other, typed))
            .await
            .unwrap();
        assert_eq!((moved.inserted, moved.unchanged), (n, 0));
        let (status, second) = get_raw(
            &server,
            "/api/v1/attempts/export?project_id=p1&mission_id=m2&agent_id=a1&visibility=shared",
            Some(&token),
        )
        .await;
        assert_eq!(status, 200);
        let second: Value = serde_json::from_slice(&second).unwrap();
        assert_eq!(
            second, exported,
            "{backend:?}: export → import → export differs"
        );

        let events = event_count(&server).await;
        let before = client.attempt_counts(&s, None, None).await.unwrap();

        // An invalid store: a sequence gap and a bad pair, both reported, nothing written.
        let bad = LegacyStore {
            next_sequence: 3,
            records: vec![
                legacy(
                    0,
                    outcome(
                        "host-c",
                        "probe",
                        "c0",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    None,
                ),
                legacy(
                    5,
                    outcome(
                        "host-c",
                        "probe",
                        "c1",
                        Stage::Active,
                        OutcomeStatus::FalsePositive,
                    ),
                    None,
                ),
                legacy(
                    2,
                    outcome(
                        "host-c",
                        "probe",
                        "c2",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    Some(Disposition::TransportFailure),
                ),
            ],
        };
        let p = refused(client.import_attempts(&import_request(&s, bad)).await);
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (422, "invalid_import", Some("/store")),
            "{backend:?}"
        );
        let items: Vec<(Option<u64>, &str, &str)> = p
            .errors
            .iter()
            .map(|e| (e.index, e.field.as_str(), e.code.as_str()))
            .collect();
        assert_eq!(
            items,
            vec![
                (Some(1), "/store/records/1/sequence", "sequence_mismatch"),
                (
                    Some(2),
                    "/store/records/2/disposition",
                    "invalid_disposition"
                ),
            ],
            "{backend:?}"
        );

        // A store whose records conflict with stored ones: 409 naming each, nothing written.
        let mut changed = outcome(
            "host-a",
            "probe",
            "c2",
            Stage::Active,
            OutcomeStatus::Blocked,
        );
        changed.rationale = "rewritten".into();
        let conflicting = LegacyStore {
            next_sequence: 3,
            records: vec![
                legacy(
                    0,
                    outcome(
                        "host-d",
                        "probe",
                        "c0",
                        Stage::Active,
                        OutcomeStatus::Success,
                    ),
                    None,
                ),
                legacy(
                    1,
                    outcome(
                        "host-a",
                        "probe",
                        "c0",
                        Stage::Active,
                        OutcomeStatus::FalsePositive,
                    ),
                    None,
                ),
                legacy(2, changed, None),
            ],
        };
        let p = refused(
            client
                .import_attempts(&import_request(&s, conflicting))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str()),
            (409, "identity_conflict"),
            "{backend:?}"
        );
        let items: Vec<(Option<u64>, &str, &str)> = p
            .errors
            .iter()
            .map(|e| (e.index, e.field.as_str(), e.code.as_str()))
            .collect();
        assert_eq!(
            items,
            vec![(Some(2), "/store/records/2", "identity_conflict")],
            "{backend:?}"
        );

        assert_eq!(
            event_count(&server).await,
            events,
            "{backend:?}: a refused import wrote"
        );
        assert_eq!(client.attempt_counts(&s, None, None).await.unwrap(), before);
        let d = client
            .attempt_history(&s, "host-d", None, None, 500)
            .await
            .unwrap();
        assert!(
            d.records.is_empty(),
            "{backend:?}: the rolled-back record is visible"
        );
        let c = client
            .attempt_history(&s, "host-c", None, None, 500)
            .await
            .unwrap();
        assert!(c.records.is_empty());

        // A bad observed_at names its record.
        let mut when = outcome(
            "host-e",
            "probe",
            "c0",
            Stage::Active,
            OutcomeStatus::Success,
        );
        when.observed_at = Some("yesterday".into());
        let body = serde_json::to_value(import_request(
            &s,
            LegacyStore {
                next_sequence: 1,
                records: vec![legacy(0, when, None)],
            },
        ))
        .unwrap();
        let (status, resp) =
            post_json(&server, "/api/v1/attempts/import", Some(&token), &body).await;
        assert_eq!(status, 422);
        assert_eq!(
            problem(&resp),
            (
                "invalid_field".to_owned(),
                Some("/store/records/0/outcome/observed_at".to_owned())
            )
        );
        assert_eq!(event_count(&server).await, events);

        // A store the original wrote, with a long subject, many evidence ids
        // and a control character, imports whole and can be read and assessed.
        let long_subject = format!("https://example.test/{}", "path/".repeat(196));
        let mut big = outcome(
            &long_subject,
            "probe",
            "case\u{1}one",
            Stage::Active,
            OutcomeStatus::NeedsReview,
        );
        big.evidence_ids = (0..100).map(|i| format!("evidence:{i}")).collect();
        big.rationale = "r".repeat(8192);
        let body = serde_json::to_value(import_request(
            &other,
            LegacyStore {
                next_sequence: 1,
                records: vec![legacy(0, big.clone(), None)],
            },
        ))
        .unwrap();
        let (status, resp) =
            post_json(&server, "/api/v1/attempts/import", Some(&token), &body).await;
        assert_eq!(
            status,
            200,
            "{backend:?}: {}",
            String::from_utf8_lossy(&resp)
        );
        let read = client
            .attempt_history(&other, &long_subject, None, None, 10)
            .await
            .unwrap();
        assert_eq!(read.records.len(), 1, "{backend:?}");
        assert_eq!(read.records[0].outcome, big, "{backend:?}");
        let answer = client
            .assess(&AssessRequest {
                contract_version: CONTRACT_VERSION,
                scope: other.clone(),
                subject: long_subject.clone(),
                actions: vec![CandidateAction::Id("probe".into())],
            })
            .await
            .unwrap();
        assert_eq!(answer.assessments[0].completed_attempts, 1, "{backend:?}");
        // The same outcome is still too large for a live write.
        big.case_id = "case-two".into();
        let (status, resp) = post_json(
            &server,
            "/api/v1/attempts",
            Some(&token),
            &serde_json::to_value(observe_request(&other, big, None)).unwrap(),
        )
        .await;
        assert_eq!(status, 422, "{backend:?}");
        assert_eq!(
            problem(&resp),
            (
                "invalid_field".to_owned(),
                Some("/outcome/subject".to_owned())
            )
        );
        let report = server.engine.verify().await.unwrap();
        assert!(report.is_clean(), "{backend:?}: {:?}", report.problems);
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
                consecutive_failure_limit: 1,
                streak_key: praxis_api::StreakKey::ActionRevision,
                reexplore: Some(praxis_api::Reexplore {
                    after_seconds: None,
                    after_observations: Some(2),
                }),
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
