//! Promotion into project skills: create-only, a guarded update, the
//! frontmatter order, and a file that changed after review.

use super::*;

#[tokio::test]
async fn skills_are_created_then_updated_by_compare_and_set() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let id = d
            .proposed(skill_candidate(
                "follow-cursors",
                None,
                "Follow the cursor.",
            ))
            .await;
        let r = d.review(&id).await;
        assert!(r["destination"]["current"].is_null());
        let approved = d.approve(&id).await;
        let receipt = approved.ok(200)["receipt"].clone();
        let path = d.file(".agents/skills/follow-cursors/SKILL.md");
        let written = std::fs::read(&path).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            r["rendered"].as_str().unwrap()
        );
        assert_eq!(receipt["promoted"]["sha256"], sha256_hex(&written));
        assert_eq!(d.state(&id).await, "promoted");
        // A duplicate approval writes nothing.
        let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
        let again = d
            .approve_with(&d.approver, &id, &r["version_hash"], &r["destination_hash"])
            .await;
        assert_eq!(again.ok(200)["receipt"], receipt);
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            modified
        );
        // The skill reads back through the API.
        let url = format!("/api/v1/projects/billing-service/skills/follow-cursors?{SCOPE_QUERY}");
        let skill = get(d.base(), &d.approver, &url).await;
        assert_eq!(skill.ok(200)["sha256"], receipt["promoted"]["sha256"]);
        // An update names the file's hash.
        let current = receipt["promoted"]["sha256"].as_str().unwrap();
        let update = d
            .proposed(skill_candidate(
                "follow-cursors",
                Some(current),
                "Follow it twice.",
            ))
            .await;
        d.approve(&update).await.ok(200);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("Follow it twice."), "{text}");
        // Create-only on an existing skill refuses, applying nothing.
        let stale = d
            .proposed(skill_candidate("follow-cursors", None, "Clobber."))
            .await;
        d.approve(&stale)
            .await
            .refused(409, "destination_changed", Some("/destination_hash"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        let list = get(
            d.base(),
            &d.approver,
            &format!("/api/v1/projects/billing-service/skills?{SCOPE_QUERY}"),
        )
        .await;
        assert_eq!(list.ok(200)["skills"].as_array().unwrap().len(), 1);
        d.clean().await;
    }
}

#[tokio::test]
async fn a_file_changed_between_review_and_approval_is_not_overwritten() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let id = d
            .proposed(skill_candidate("late", None, "Promoted text."))
            .await;
        let r = d.review(&id).await;
        let path = d.file(".agents/skills/late/SKILL.md");
        write_file(
            &path,
            "---\nname: late\ndescription: Hand written.\n---\nMine.\n",
        );
        d.approve_with(&d.approver, &id, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(409, "destination_changed", Some("/destination_hash"));
        assert!(std::fs::read_to_string(&path).unwrap().contains("Mine."));
        assert_eq!(d.state(&id).await, "open");
        d.clean().await;
    }
}

#[tokio::test]
async fn skill_frontmatter_must_name_the_skill_first() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let mut swapped = skill_candidate("order", None, "b");
        swapped["content"] = json!("---\ndescription: d\nname: order\n---\nbody");
        let r = d.propose(swapped).await;
        assert_eq!((r.status, r.code()), (422, "proposal_invalid"));
        let rules: Vec<&str> = r.json["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["code"].as_str().unwrap())
            .collect();
        assert!(rules.contains(&"skill.frontmatter_order"), "{rules:?}");
        let mut renamed = skill_candidate("order", None, "b");
        renamed["content"] = json!("---\nname: other\ndescription: d\n---\nbody");
        let r = d.propose(renamed).await;
        assert_eq!((r.status, r.code()), (422, "proposal_invalid"));
    }
}

#[tokio::test]
async fn no_link_on_the_way_to_a_skill_is_followed() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.file(".agents")).unwrap();
        std::os::unix::fs::symlink(outside.path(), d.file(".agents/skills")).unwrap();
        let id = d.proposed(skill_candidate("linked", None, "x")).await;
        let path = format!("{PROPOSALS}/{id}/review");
        let r = post(d.base(), &d.approver, &path, &scoped(json!({}))).await;
        assert_eq!((r.status, r.code()), (422, "invalid_path"), "{r:?}");
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        assert_eq!(d.state(&id).await, "open");
    }
}

#[tokio::test]
async fn racing_skill_approvals_write_the_file_once() {
    for backend in BACKENDS {
        let d = Arc::new(Desk::start(backend).await);
        let id = d.proposed(skill_candidate("raced", None, "Once.")).await;
        let review = d.review(&id).await;
        let before = event_count(&d.server).await;
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let (d, id, review) = (d.clone(), id.clone(), review.clone());
            tasks.push(tokio::spawn(async move {
                let token = d.approver.clone();
                d.approve_with(
                    &token,
                    &id,
                    &review["version_hash"],
                    &review["destination_hash"],
                )
                .await
            }));
        }
        let mut applied = 0;
        for t in tasks {
            let r = t.await.unwrap();
            match (r.status, r.code()) {
                (200, _) => applied += usize::from(r.json["applied_now"] == true),
                (409, "promotion_in_progress") => {}
                other => panic!("{other:?}: {r:?}"),
            }
        }
        assert_eq!(applied, 1);
        // Approval, marker, receipt and note.
        assert_eq!(event_count(&d.server).await - before, 4);
        assert_eq!(d.state(&id).await, "promoted");
        d.clean().await;
    }
}

#[tokio::test]
async fn another_tenant_never_reaches_the_project() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        write_file(&d.file("docs/a.md"), "secret notes\n");
        let (_, admin2) = praxis_server::admin::bootstrap_tenant(&*d.server.engine, "t2", "admin")
            .await
            .unwrap();
        let caps = ["proposal_create", "proposal_approve", "memory_read"];
        let foreign = d
            .server
            .anonymous
            .with_token(admin2.render())
            .issue_credential(
                &crate::support::issue_request("agent", &caps, vec![scope()]),
                None,
            )
            .await
            .unwrap()
            .token;
        let url = format!("/api/v1/projects/billing-service/skills?{SCOPE_QUERY}");
        get(d.base(), &foreign, &url)
            .await
            .refused(404, "project_not_found", None);
        let body = scoped(json!({"kind": "file", "ref": "billing-service:docs/a.md"}));
        post(d.base(), &foreign, SOURCES, &body).await.refused(
            422,
            "unknown_reference",
            Some("/ref"),
        );
        let candidate = skill_candidate("intruder", None, "x");
        let r = post(
            d.base(),
            &foreign,
            PROPOSALS,
            &scoped(json!({ "candidate": candidate })),
        )
        .await;
        r.refused(
            422,
            "unknown_reference",
            Some("/candidate/destination/project"),
        );
        assert!(!d.file(".agents/skills/intruder").exists());
    }
}
