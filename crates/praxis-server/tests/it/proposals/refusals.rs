//! Every refusal of a proposal or an approval applies nothing.

use super::*;

#[tokio::test]
async fn approvals_that_do_not_match_what_was_reviewed_apply_nothing() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        write_file(&d.file("docs/a.md"), "first\n");
        let file = d.source("file", "billing-service:docs/a.md").await;
        let id = d.proposed(memory_candidate("target", None, &[file])).await;
        let r = d.review(&id).await;
        let before = event_count(&d.server).await;
        let zero = json!("0".repeat(64));
        d.approve_with(&d.approver, &id, &zero, &r["destination_hash"])
            .await
            .refused(409, "version_mismatch", Some("/version_hash"));
        d.approve_with(&d.approver, &id, &r["version_hash"], &zero)
            .await
            .refused(409, "destination_changed", Some("/destination_hash"));
        // Without the capability, or as the proposer.
        d.approve_with(&d.proposer, &id, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(403, "missing_capability", None);
        // A file source changed after review.
        write_file(&d.file("docs/a.md"), "second\n");
        d.approve_with(&d.approver, &id, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(409, "source_changed", Some("/candidate/sources/0"));
        std::fs::remove_file(d.file("docs/a.md")).unwrap();
        let gone = d
            .approve_with(&d.approver, &id, &r["version_hash"], &r["destination_hash"])
            .await;
        gone.refused(409, "source_changed", Some("/candidate/sources/0"));
        assert!(gone.json["detail"].as_str().unwrap().contains("missing"));
        write_file(&d.file("docs/a.md"), "first\n");
        // The destination appeared after review: create-only no longer holds.
        d.set_memory("target", "someone else's", None).await;
        d.approve_with(&d.approver, &id, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(409, "destination_changed", Some("/destination_hash"));
        assert_eq!(
            event_count(&d.server).await - before,
            1,
            "only the memory set"
        );
        assert_eq!(d.state(&id).await, "open");
        assert_eq!(
            d.memory("target").await.ok(200)["memory"]["body"],
            "someone else's"
        );
        d.clean().await;
    }
}

#[tokio::test]
async fn a_praxis_source_changed_after_review_refuses_in_the_same_transaction() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let r1 = d.set_memory("cited", "v1", None).await;
        let pinned = d.source("memory_revision", &format!("cited {r1}")).await;
        let id = d.proposed(memory_candidate("dest", None, &[pinned])).await;
        let r = d.review(&id).await;
        assert_eq!(r["sources"][0]["status"], "fresh");
        d.set_memory("cited", "v2", Some(&r1)).await;
        d.approve_with(&d.approver, &id, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(409, "source_changed", Some("/candidate/sources/0"));
        d.memory("dest")
            .await
            .refused(404, "memory_not_found", Some("/key"));
        d.clean().await;
    }
}

#[tokio::test]
async fn candidates_are_bounded_screened_and_capped() {
    for backend in BACKENDS {
        let d = Desk::start_with(backend, 1).await;
        let mut big = memory_candidate("k", None, &[]);
        big["content"] = json!("x".repeat(4097));
        let r = d.propose(big).await;
        assert_eq!((r.status, r.code()), (422, "proposal_invalid"), "{r:?}");
        assert_eq!(r.json["field"], "/candidate/content");
        let mut secret = memory_candidate("k", None, &[]);
        secret["conditions"] = json!(["token ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf is set"]);
        let r = d.propose(secret).await;
        assert_eq!((r.status, r.code()), (422, "proposal_invalid"));
        assert!(!String::from_utf8_lossy(&r.body).contains("ghp_"));
        let mut many = memory_candidate("k", None, &[]);
        many["conditions"] = json!((0..9).map(|i| format!("c{i}")).collect::<Vec<_>>());
        let r = d.propose(many).await;
        assert_eq!(r.json["field"], "/candidate/conditions");
        let r = d.propose(skill_candidate("x", None, "b")).await;
        assert_eq!((r.status, r.code()), (201, ""), "{r:?}");
        // The cap counts open proposals only, and fails closed.
        let r = d.propose(memory_candidate("k", None, &[])).await;
        assert_eq!((r.status, r.code()), (507, "proposals_full"));
        // A project that is not the scope's.
        let mut other = skill_candidate("y", None, "b");
        other["destination"]["project"] = json!("other");
        let r = d.propose(other).await;
        r.refused(
            422,
            "unknown_reference",
            Some("/candidate/destination/project"),
        );
        let mut traversal = skill_candidate("y", None, "b");
        traversal["destination"]["path"] = json!(".agents/skills/../../etc/SKILL.md");
        let r = d.propose(traversal).await;
        assert_eq!((r.status, r.code()), (422, "proposal_invalid"));
        assert_eq!(r.json["field"], "/candidate/destination/path");
        d.clean().await;
    }
}
