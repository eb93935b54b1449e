//! The dry run of a submission (`POST /api/v1/records/check`): it answers
//! what a submission would meet, and writes nothing.

use praxis_api::RecordCheckResponse;

use super::*;
use crate::support::event_count;

/// A check's answer, sent raw with an `Idempotency-Key` that must not be
/// kept.
async fn check_raw(server: &Server, token: &str, body: &Value) -> RecordCheckResponse {
    let (status, headers, bytes) = raw(
        Method::POST,
        &format!("{}/api/v1/records/check", server.base),
        Some(token),
        &[
            ("content-type", "application/json"),
            ("idempotency-key", "check-then-submit-0001"),
        ],
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    assert!(headers.get("idempotent-replayed").is_none());
    serde_json::from_slice(&bytes).unwrap()
}

/// A passing check is followed by an accepted submission, a failing one by
/// a rejection with exactly its findings, and neither check writes: the
/// event count stays and its Idempotency-Key stays free.
#[tokio::test]
async fn check_answers_what_submit_then_does_and_writes_nothing() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (alice, _, token) = client_as(&server, "alice", ALL, vec![s.clone()]).await;

        let good = serde_json::to_value(submission(&s, "k1", sample_record("root-ci"))).unwrap();
        let before = event_count(&server).await;
        let answer = check_raw(&server, &token, &good).await;
        assert_eq!(
            answer,
            RecordCheckResponse {
                contract_version: 1,
                passed: true,
                findings: vec![]
            },
            "{backend:?}"
        );
        assert_eq!(event_count(&server).await, before, "{backend:?}");
        // The check's key was not kept: a submission under it is a new write.
        let (status, _, bytes) = raw(
            Method::POST,
            &format!("{}/api/v1/records", server.base),
            Some(&token),
            &[
                ("content-type", "application/json"),
                ("idempotency-key", "check-then-submit-0001"),
            ],
            Some(serde_json::to_vec(&good).unwrap()),
        )
        .await;
        assert_eq!(
            status,
            201,
            "{backend:?} {}",
            String::from_utf8_lossy(&bytes)
        );

        // A failing edit of the same source: the findings the submission
        // is then rejected with, pointer for pointer.
        let mut bad = sample_record("root-ci");
        bad["attempts"][1]["sequence"] = json!(5);
        bad["resolution"]["steps"][0] =
            json!("export GITHUB_TOKEN=ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf");
        bad["relations"]["related_experiences"] = json!(["exp-nowhere-20261120"]);
        bad.as_object_mut().unwrap().remove("title");
        let bad_body = serde_json::to_value(submission(&s, "k1", bad.clone())).unwrap();
        let before = event_count(&server).await;
        let answer = check_raw(&server, &token, &bad_body).await;
        assert!(!answer.passed, "{backend:?}");
        assert_eq!(event_count(&server).await, before, "{backend:?}");
        let rules: Vec<&str> = answer.findings.iter().map(|f| f.rule.as_str()).collect();
        for rule in ["gate.attempt_sequence", "repo.unknown_experience"] {
            assert!(rules.contains(&rule), "{backend:?} {rules:?}");
        }
        assert!(rules.iter().any(|r| r.starts_with("screen.")), "{rules:?}");
        assert!(rules.iter().any(|r| r.starts_with("schema.")), "{rules:?}");
        let text = serde_json::to_string(&answer).unwrap();
        assert!(
            !text.contains("ghp_0123456789"),
            "a finding echoes the secret"
        );
        let p = refused(alice.submit_record(&submission(&s, "k1", bad)).await);
        assert_eq!((p.status, p.code.as_str()), (422, "record_rejected"));
        let submitted: Vec<(String, String)> = p
            .errors
            .iter()
            .map(|e| (e.field.clone(), e.code.clone()))
            .collect();
        let checked: Vec<(String, String)> = answer
            .findings
            .iter()
            .map(|f| (format!("/record{}", f.pointer), f.rule.clone()))
            .collect();
        assert_eq!(checked, submitted, "{backend:?}");
        assert_eq!(event_count(&server).await, before + 1, "the rejection");

        // A related skill that is not published is found as submit finds it.
        let mut unknown_skill = sample_record("root-ci");
        unknown_skill["relations"]["related_skills"] = json!([{
            "name": "ci-root-database-cluster", "version": "9.9.9", "sha256": "c".repeat(64)
        }]);
        let answer = alice
            .check_record(&submission(&s, "k1", unknown_skill))
            .await
            .unwrap();
        assert_eq!(
            answer
                .findings
                .iter()
                .map(|f| (f.pointer.as_str(), f.rule.as_str()))
                .collect::<Vec<_>>(),
            [("/relations/related_skills/0", "repo.unknown_skill")],
            "{backend:?}"
        );
    }
}

/// What a submission would be refused with instead of a rejection, the
/// check is refused with too; a malformed request is a problem document;
/// another tenant's records are invisible to it.
#[tokio::test]
async fn check_refuses_as_submit_refuses() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (alice, _, token) = client_as(&server, "alice", ALL, vec![s.clone()]).await;
        kept(
            alice
                .submit_record(&submission(&s, "k1", sample_record("root-ci")))
                .await,
        );
        let before = event_count(&server).await;

        // The id is held by another source.
        let p = refused(
            alice
                .check_record(&submission(&s, "k2", sample_record("root-ci")))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (409, "source_conflict", Some("/record/experience_id")),
            "{backend:?}"
        );
        // The source holds another id.
        let p = refused(
            alice
                .check_record(&submission(&s, "k1", sample_record("other")))
                .await,
        );
        assert_eq!((p.status, p.code.as_str()), (409, "source_conflict"));
        // A malformed source, an unknown contract version, no record.
        let p = refused(
            alice
                .check_record(&submission(&s, "", sample_record("x")))
                .await,
        );
        assert_eq!(
            (p.status, p.code.as_str(), p.field.as_deref()),
            (422, "invalid_field", Some("/source/key"))
        );
        let mut body = serde_json::to_value(submission(&s, "k3", sample_record("x"))).unwrap();
        body["contract_version"] = json!(2);
        let (status, content_type, bytes) =
            post_json(&server, "/api/v1/records/check", Some(&token), &body).await;
        assert_eq!(
            (status, content_type.as_str(), problem(&bytes).0.as_str()),
            (
                400,
                "application/problem+json",
                "unsupported_contract_version"
            )
        );
        body["contract_version"] = json!(1);
        body.as_object_mut().unwrap().remove("record");
        let (status, _, bytes) =
            post_json(&server, "/api/v1/records/check", Some(&token), &body).await;
        assert_eq!((status, problem(&bytes).0.as_str()), (400, "missing_field"));
        assert_eq!(event_count(&server).await, before, "{backend:?}");

        // Another tenant sees nothing of t1: the id is free there.
        let (_, admin) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin")
            .await
            .unwrap();
        let t2 = server
            .anonymous
            .with_token(admin.render())
            .issue_credential(&issue_request("agent", ALL, vec![s.clone()]), None)
            .await
            .unwrap();
        let t2 = server.anonymous.with_token(&t2.token);
        let answer = t2
            .check_record(&submission(&s, "k2", sample_record("root-ci")))
            .await
            .unwrap();
        assert!(answer.passed, "{backend:?} {answer:?}");
    }
}
