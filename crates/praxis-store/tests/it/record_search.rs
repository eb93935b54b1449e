//! Ranked record search on both engines: relevance order, stemming and
//! hyphens, withdrawn records only on request, hostile text, and pages.

use std::sync::Arc;

use praxis_domain::records::lifecycle::Decision;
use praxis_store::records::{RecordFilter, SearchAfter, SearchHit};
use praxis_store::{Command, Engine, RecordCommand};
use praxis_testkit::BACKENDS;
use praxis_testkit::records::sample_record;
use serde_json::json;

use crate::contract::{engine, tenant};
use crate::records::{id, namespace, review, revised, run, submit};

/// Submits a candidate whose symptom signal is `text`.
async fn with_signal(engine: &Arc<dyn Engine>, slug: &str, text: &str) {
    let mut doc = sample_record(slug);
    doc["symptom"]["signals"] = json!([text]);
    revised(submit(engine, slug, doc).await);
}

async fn find(
    engine: &Arc<dyn Engine>,
    text: &str,
    include_withdrawn: bool,
    after: &SearchAfter,
    limit: usize,
) -> Vec<SearchHit> {
    let filter = RecordFilter {
        text: Some(text.into()),
        include_withdrawn,
        ..RecordFilter::default()
    };
    engine
        .records()
        .search("t", &namespace("a"), filter, after, limit)
        .await
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn ids(hits: &[SearchHit]) -> Vec<String> {
    hits.iter()
        .map(|h| h.record.experience_id.clone())
        .collect()
}

#[tokio::test]
async fn ranked_search_stems_splits_hyphens_and_orders_by_relevance() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        with_signal(
            &engine,
            "limits",
            "The gateway applies rate limiting to bursts",
        )
        .await;
        with_signal(&engine, "cold", "A wombat-tunnel of the resolver timed out").await;
        with_signal(&engine, "once", "One zebra crossing was seen near the gate").await;
        with_signal(
            &engine,
            "many",
            "zebra zebra zebra zebras everywhere, zebra again",
        )
        .await;
        let start = SearchAfter::default();

        // `rate-limit` finds "rate limiting": split at the hyphen, stemmed.
        assert_eq!(
            ids(&find(&engine, "rate-limit", false, &start, 10).await),
            [id("limits")],
            "{backend:?}"
        );
        // A hyphenated word in the text is found by its parts, and whole.
        for q in ["wombat", "tunnel", "wombat-tunnel", "WOMBAT tunnels"] {
            assert_eq!(
                ids(&find(&engine, q, false, &start, 10).await),
                [id("cold")],
                "{backend:?} {q}"
            );
        }
        // The record that says it more comes first.
        let hits = find(&engine, "zebra", false, &start, 10).await;
        assert_eq!(ids(&hits), [id("many"), id("once")], "{backend:?}");
        assert!(hits[0].score > hits[1].score, "{backend:?}: {hits:?}");
        // Every word must occur.
        assert!(
            find(&engine, "zebra resolver", false, &start, 10)
                .await
                .is_empty()
        );
    }
}

#[tokio::test]
async fn withdrawn_records_are_found_only_on_request() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        with_signal(&engine, "kept", "The walrus cache was cold").await;
        with_signal(&engine, "gone", "The walrus cache was stale").await;
        review(&engine, &id("gone"), Decision::Approve, None, None)
            .await
            .unwrap();
        run(
            &engine,
            Command::Records(RecordCommand::Withdraw {
                namespace: namespace("a"),
                experience_id: id("gone"),
                reason: "obsolete".into(),
                expected_revision: None,
            }),
        )
        .await
        .unwrap();
        let start = SearchAfter::default();
        assert_eq!(
            ids(&find(&engine, "walrus", false, &start, 10).await),
            [id("kept")]
        );
        let mut both = ids(&find(&engine, "walrus", true, &start, 10).await);
        both.sort();
        assert_eq!(both, [id("gone"), id("kept")], "{backend:?}");
        // Without text, the same rule.
        let all = |include_withdrawn| RecordFilter {
            include_withdrawn,
            ..RecordFilter::default()
        };
        let by_id = engine
            .records()
            .search("t", &namespace("a"), all(false), &start, 10)
            .await
            .unwrap();
        assert_eq!(ids(&by_id), [id("kept")], "{backend:?}");
        let by_id = engine
            .records()
            .search("t", &namespace("a"), all(true), &start, 10)
            .await
            .unwrap();
        assert_eq!(ids(&by_id), [id("gone"), id("kept")], "{backend:?}");
    }
}

#[tokio::test]
async fn hostile_text_is_words_or_nothing() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        with_signal(
            &engine,
            "near",
            "The junction volume was full near midnight",
        )
        .await;
        let start = SearchAfter::default();
        for q in [
            "\"",
            "\"junction",
            "junction\" OR \"x",
            "NEAR(junction volume, 2)",
            "junction*",
            "*",
            "-junction",
            "junction AND NOT volume",
            "body:junction",
            "^junction",
            "'; DROP TABLE records; --",
            "junction & | ! <-> :*",
            "\u{0}junction\u{7f}",
            "日本語 ümlaut café",
            "🙂",
            "(((",
        ] {
            let hits = find(&engine, q, false, &start, 10).await;
            assert!(hits.len() <= 1, "{backend:?} {q:?}");
        }
        // Operators are plain words: the query asks for `near` as a word.
        assert_eq!(
            ids(&find(&engine, "NEAR(junction volume)", false, &start, 10).await),
            [id("near")],
            "{backend:?}"
        );
        assert_eq!(
            ids(&find(&engine, "junction*", false, &start, 10).await),
            [id("near")]
        );
    }
}

#[tokio::test]
async fn ranked_pages_have_no_duplicates_or_gaps() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        // Record n says "quokka" n times; two say it equally often, so
        // ties are ordered by id.
        for (slug, n) in [
            ("q1", 1),
            ("q2", 2),
            ("q3", 3),
            ("q4", 4),
            ("q5", 5),
            ("q5b", 5),
            ("q6", 6),
        ] {
            let text = vec!["quokka"; n].join(" ");
            with_signal(&engine, slug, &format!("{text} seen")).await;
        }
        let whole = find(&engine, "quokka", false, &SearchAfter::default(), 50).await;
        assert_eq!(whole.len(), 7, "{backend:?}");
        assert_eq!(whole[0].record.experience_id, id("q6"), "{backend:?}");
        assert_eq!(whole[6].record.experience_id, id("q1"), "{backend:?}");
        for limit in [1, 2, 3] {
            let (mut paged, mut after) = (Vec::new(), SearchAfter::default());
            loop {
                let page = find(&engine, "quokka", false, &after, limit).await;
                paged.extend(ids(&page));
                match page.last() {
                    Some(last) if page.len() == limit => after = last.position(),
                    _ => break,
                }
            }
            assert_eq!(paged, ids(&whole), "{backend:?} limit {limit}");
        }
    }
}
