//! Search, the schema endpoint, and bad input naming its field.

use super::*;

/// Search filters by lifecycle, platform, verification level and text,
/// pages by cursor, and names a bad filter.
#[tokio::test]
async fn search_filters_and_pages() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let (reviewer, _, _) = client_as(&server, "reviewer", ALL, vec![s.clone()]).await;
        for (i, slug) in ["alpha", "bravo", "charlie", "delta"].iter().enumerate() {
            let mut doc = sample_record(slug);
            if i % 2 == 1 {
                doc["context"]["platform"] = json!("windows");
                doc["symptom"]["signals"] = json!(["The junction target volume was full"]);
            }
            kept(client.submit_record(&submission(&s, slug, doc)).await);
        }
        reviewer
            .review_record(&id("alpha"), &review(ReviewDecision::Approve, None, None))
            .await
            .unwrap();
        let ids = |search: RecordSearch| {
            let client = client.clone();
            let s = s.clone();
            async move {
                let page = client.search_records(&s, &search).await.unwrap();
                assert!(page.data_only);
                page.records
                    .into_iter()
                    .map(|r| {
                        assert_eq!(r.state.sha256, document_sha256(&r.record));
                        r.state.experience_id
                    })
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(
            ids(RecordSearch::default()).await,
            [id("alpha"), id("bravo"), id("charlie"), id("delta")],
            "{backend:?}"
        );
        let windows = RecordSearch {
            platform: Some(Platform::Windows),
            ..RecordSearch::default()
        };
        assert_eq!(ids(windows).await, [id("bravo"), id("delta")]);
        let reviewed = RecordSearch {
            lifecycle: Some(RecordLifecycle::Reviewed),
            ..RecordSearch::default()
        };
        assert_eq!(ids(reviewed).await, [id("alpha")]);
        let text = RecordSearch {
            q: Some("Junction VOLUME".into()),
            lifecycle: Some(RecordLifecycle::Candidate),
            ..RecordSearch::default()
        };
        assert_eq!(ids(text).await, [id("bravo"), id("delta")]);
        let level = RecordSearch {
            verification_level: Some(VerificationLevel::IndependentlyReproduced),
            ..RecordSearch::default()
        };
        assert!(ids(level).await.is_empty());
        let level = RecordSearch {
            verification_level: Some(VerificationLevel::LocallyVerified),
            ..RecordSearch::default()
        };
        assert_eq!(ids(level).await.len(), 4);

        // Pages of one, by cursor, until a short page.
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let page = client
                .search_records(
                    &s,
                    &RecordSearch {
                        after: after.clone(),
                        limit: Some(1),
                        ..RecordSearch::default()
                    },
                )
                .await
                .unwrap();
            seen.extend(page.records.into_iter().map(|r| r.state.experience_id));
            match page.next_cursor {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        assert_eq!(seen.len(), 4, "{backend:?}: {seen:?}");

        let long = "x".repeat(201);
        for (query, status, code, field) in [
            ("lifecycle=bogus", 422, "invalid_field", "lifecycle"),
            ("platform=Windows", 422, "invalid_field", "platform"),
            (
                "verification_level=verified",
                422,
                "invalid_field",
                "verification_level",
            ),
            (&format!("q={long}"), 422, "invalid_field", "q"),
            ("limit=0", 400, "invalid_query", "limit"),
            ("limit=201", 400, "invalid_query", "limit"),
        ] {
            let (got, body) = get_raw(
                &server,
                &format!("/api/v1/records?{SCOPE_QUERY}&{query}"),
                &token,
            )
            .await;
            assert_eq!(got, status, "{backend:?} {query}");
            assert_eq!(
                problem(&body),
                (code.to_owned(), Some(field.to_owned())),
                "{query}"
            );
        }
        let (got, body) = get_raw(
            &server,
            &format!("/api/v1/records?{SCOPE_QUERY}&color=red"),
            &token,
        )
        .await;
        assert_eq!((got, problem(&body).0.as_str()), (400, "invalid_query"));
    }
}

/// The schema endpoint serves our v0.1 schema to any credential.
#[tokio::test]
async fn the_schema_endpoint_serves_our_schema() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let (client, _, token) = client_as(&server, "reader", &["memory_read"], vec![]).await;
        let (status, headers, body) = raw(
            Method::GET,
            &format!("{}/api/v1/records/schema", server.base),
            Some(&token),
            &[],
            None,
        )
        .await;
        assert_eq!(status, 200, "{backend:?}");
        assert_eq!(headers["content-type"], "application/schema+json");
        let ours: Value =
            serde_json::from_str(praxis_domain::records::schema::SCHEMA_JSON).unwrap();
        assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), ours);
        assert_eq!(client.record_schema().await.unwrap(), ours);
    }
}

/// Bad input is refused with a problem naming the offending field, and the
/// record route takes bodies past 64 KiB but not past 160 KiB.
#[tokio::test]
async fn bad_input_names_the_offending_field() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        // Reviews come from another subject: a submitter never reviews their own record.
        let (_, _, reviewer) = client_as(&server, "reviewer", ALL, vec![s.clone()]).await;
        let valid = serde_json::to_value(submission(&s, "k1", sample_record("input"))).unwrap();
        let with = |pointer: &str, value: Value| {
            let mut body = valid.clone();
            *body.pointer_mut(pointer).unwrap() = value;
            body
        };
        let mut extra = valid.clone();
        extra["extra"] = json!(1);
        let mut missing = valid.clone();
        missing.as_object_mut().unwrap().remove("source");
        for (what, body, status, code, field) in [
            ("unknown field", extra, 400, "unknown_field", "/extra"),
            ("missing source", missing, 400, "missing_field", "/source"),
            (
                "empty key",
                with("/source", json!({"key": ""})),
                422,
                "invalid_field",
                "/source/key",
            ),
            (
                "bad issue",
                with(
                    "/source",
                    json!({"issue": {"repository": "noslash", "number": 0}}),
                ),
                422,
                "invalid_field",
                "/source/issue/repository",
            ),
            (
                "record not an object",
                with("/record", json!("text")),
                422,
                "record_rejected",
                "/record",
            ),
        ] {
            let (got, content_type, bytes) =
                post_json(&server, "/api/v1/records", Some(&token), &body).await;
            assert_eq!(
                got,
                status,
                "{backend:?} {what}: {}",
                String::from_utf8_lossy(&bytes)
            );
            assert_eq!(content_type, "application/problem+json");
            assert_eq!(
                problem(&bytes),
                (code.to_owned(), Some(field.to_owned())),
                "{what}"
            );
        }

        // Over 64 KiB is accepted on the record route, and screened.
        let big = with("/record/title", json!("x".repeat(100 * 1024)));
        let (got, _, bytes) = post_json(&server, "/api/v1/records", Some(&token), &big).await;
        assert_eq!(got, 422, "{backend:?}: {}", String::from_utf8_lossy(&bytes));
        let p: Problem = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(p.code, "record_rejected");
        assert!(
            p.errors.iter().any(|e| e.code == "gate.size"),
            "{:?}",
            p.errors
        );
        let huge = with("/record/title", json!("x".repeat(170 * 1024)));
        let (got, _, bytes) = post_json(&server, "/api/v1/records", Some(&token), &huge).await;
        assert_eq!(
            (got, problem(&bytes).0.as_str()),
            (413, "request_too_large")
        );

        // Other record routes keep the 64 KiB limit.
        kept(
            client
                .submit_record(&submission(&s, "k1", sample_record("input")))
                .await,
        );
        let mut long =
            serde_json::to_value(review(ReviewDecision::RequestChanges, Some("x"), None)).unwrap();
        long["notes"] = json!("x".repeat(70 * 1024));
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/review", id("input")),
            Some(&reviewer),
            &long,
        )
        .await;
        assert_eq!(
            (got, problem(&bytes).0.as_str()),
            (413, "request_too_large")
        );
        long["notes"] = json!("x".repeat(1001));
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/review", id("input")),
            Some(&reviewer),
            &long,
        )
        .await;
        assert_eq!(got, 422, "{}", String::from_utf8_lossy(&bytes));
        assert_eq!(
            problem(&bytes),
            ("record_invalid".to_owned(), Some("/notes".to_owned()))
        );
        long["notes"] = json!("Name the version.");
        long["decision"] = json!("maybe");
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/review", id("input")),
            Some(&reviewer),
            &long,
        )
        .await;
        assert_eq!(
            (got, problem(&bytes)),
            (
                400,
                ("invalid_field".to_owned(), Some("/decision".to_owned()))
            )
        );
        let reason = json!({
            "contract_version": 1,
            "scope": s,
            "reason": "see ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U"
        });
        let (got, _, bytes) = post_json(
            &server,
            &format!("/api/v1/records/{}/withdraw", id("input")),
            Some(&token),
            &reason,
        )
        .await;
        assert_eq!(
            (got, problem(&bytes)),
            (
                422,
                ("invalid_field".to_owned(), Some("/reason".to_owned()))
            )
        );
        let unchanged = client.record(&s, &id("input")).await.unwrap();
        assert_eq!(unchanged.state.revision, 1, "{backend:?}");
    }
}
