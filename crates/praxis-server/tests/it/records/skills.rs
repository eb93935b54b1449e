//! The skill registry over HTTP.

use super::*;

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
