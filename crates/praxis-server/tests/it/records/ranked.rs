//! Ranked search over HTTP: relevance first, pages by cursor without
//! duplicates or gaps, withdrawn records only on request, and hostile text
//! answered 200 (results or an empty page), never a 500.

use super::*;

/// Every page of a text search, by cursor, with `limit` per page.
async fn all_pages(client: &Client, s: &Scope, q: &str, limit: usize) -> Vec<String> {
    let (mut seen, mut after) = (Vec::new(), None);
    loop {
        let page = client
            .search_records(
                s,
                &RecordSearch {
                    q: Some(q.into()),
                    after: after.clone(),
                    limit: Some(limit),
                    ..RecordSearch::default()
                },
            )
            .await
            .unwrap();
        seen.extend(page.records.into_iter().map(|r| r.state.experience_id));
        match page.next_cursor {
            Some(next) => after = Some(next),
            None => break seen,
        }
    }
}

#[tokio::test]
async fn ranked_search_over_http() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let (reviewer, _, _) = client_as(&server, "reviewer", ALL, vec![s.clone()]).await;
        for (slug, n) in [
            ("one", 1),
            ("three", 3),
            ("two", 2),
            ("five", 5),
            ("four", 4),
        ] {
            let mut doc = sample_record(slug);
            let words = vec!["throttling"; n].join(" ");
            doc["symptom"]["signals"] = json!([format!("Upstream rate-limit {words} seen")]);
            kept(client.submit_record(&submission(&s, slug, doc)).await);
        }
        // `rate limit` finds "rate-limit"; `throttle` finds "throttling";
        // the record that says it most comes first.
        let whole = all_pages(&client, &s, "throttle rate-limit", 50).await;
        assert_eq!(
            whole,
            [id("five"), id("four"), id("three"), id("two"), id("one")],
            "{backend:?}"
        );
        for limit in [1, 2] {
            assert_eq!(
                all_pages(&client, &s, "throttle rate-limit", limit).await,
                whole,
                "{backend:?} limit {limit}"
            );
        }

        // Withdraw "five": gone by default, back on request.
        reviewer
            .review_record(&id("five"), &review(ReviewDecision::Approve, None, None))
            .await
            .unwrap();
        reviewer
            .withdraw_record(&id("five"), &withdrawal("obsolete", None))
            .await
            .unwrap();
        assert_eq!(all_pages(&client, &s, "throttling", 50).await.len(), 4);
        let with = client
            .search_records(
                &s,
                &RecordSearch {
                    q: Some("throttling".into()),
                    include_withdrawn: true,
                    ..RecordSearch::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(
            with.records[0].state.experience_id,
            id("five"),
            "{backend:?}"
        );
        assert_eq!(with.records.len(), 5);

        for q in [
            "%22",
            "%22throttling",
            "throttling%22%20OR%20%22x",
            "NEAR(throttling%20rate,%202)",
            "throttl*",
            "*",
            "-throttling",
            "body:throttling",
            "%27;%20DROP%20TABLE%20records;--",
            "a%20%26%20b%20%7C%20!c%20%3C-%3E%20d:*",
            "%E6%97%A5%E6%9C%AC%20caf%C3%A9",
            "%F0%9F%99%82",
            "(((",
        ] {
            let (status, body) = get_raw(
                &server,
                &format!("/api/v1/records?{SCOPE_QUERY}&q={q}"),
                &token,
            )
            .await;
            assert_eq!(
                status,
                200,
                "{backend:?} {q}: {}",
                String::from_utf8_lossy(&body)
            );
        }
    }
}
