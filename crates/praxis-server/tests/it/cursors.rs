//! List cursors over real HTTP, on both stores: every paged list is walked
//! with the cursors it returns, and a cursor the list did not give out for
//! the same query is 400 `invalid_cursor` naming `after`.

use praxis_api::{CONTRACT_VERSION, RecordSource, Scope, SubmitRecordRequest, Visibility};
use praxis_client::Client;
use praxis_testkit::BACKENDS;
use praxis_testkit::records::sample_record;
use reqwest::Method;
use serde_json::{Value, json};

use crate::support::{Server, client_as, issue_request, problem, raw};

const SCOPE: &str = "project_id=p1&agent_id=a1&visibility=shared";

fn scope() -> Scope {
    Scope {
        project_id: "p1".into(),
        mission_id: None,
        agent_id: "a1".into(),
        visibility: Visibility::Shared,
    }
}

/// GETs `path_and_query` with `token`: the status and the body as JSON.
async fn get(server: &Server, token: &str, path_and_query: &str) -> (u16, Value) {
    let (status, headers, body) = raw(
        Method::GET,
        &format!("{}{path_and_query}", server.base),
        Some(token),
        &[],
        None,
    )
    .await;
    if status == 400 {
        assert_eq!(headers["content-type"], "application/problem+json");
    }
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|_| panic!("{path_and_query}: {}", String::from_utf8_lossy(&body)));
    (status, value)
}

/// Walks a list by pages of `limit` with the cursors it returns; the value
/// at pointer `key` of every item on every page, and the cursors given.
async fn walk(
    server: &Server,
    token: &str,
    path_and_query: &str,
    items: &str,
    key: &str,
    limit: usize,
) -> (Vec<Value>, Vec<String>) {
    let (mut seen, mut cursors) = (Vec::new(), Vec::new());
    loop {
        let after = cursors
            .last()
            .map(|c: &String| format!("&after={c}"))
            .unwrap_or_default();
        let url = format!("{path_and_query}&limit={limit}{after}");
        let (status, page) = get(server, token, &url).await;
        assert_eq!(status, 200, "{url}: {page}");
        let page_items = page[items].as_array().expect("a list of items");
        assert!(page_items.len() <= limit, "{url}: page too long");
        seen.extend(
            page_items
                .iter()
                .map(|i| i.pointer(key).cloned().unwrap_or_default()),
        );
        match page["next_cursor"].as_str() {
            Some(next) => cursors.push(next.to_owned()),
            None => break,
        }
        assert!(cursors.len() <= 20, "{url}: paging does not end");
    }
    (seen, cursors)
}

/// Asserts 400 `invalid_cursor` naming `after`.
async fn refused(server: &Server, token: &str, path_and_query: &str) {
    let (status, _, body) = raw(
        Method::GET,
        &format!("{}{path_and_query}", server.base),
        Some(token),
        &[],
        None,
    )
    .await;
    assert_eq!(
        (status, problem(&body)),
        (400, ("invalid_cursor".to_owned(), Some("after".to_owned()))),
        "{path_and_query}"
    );
}

/// The cursor with one character changed.
fn tampered(cursor: &str) -> String {
    let mut chars: Vec<char> = cursor.chars().collect();
    let i = chars.len() / 2;
    chars[i] = if chars[i] == 'A' { 'B' } else { 'A' };
    chars.into_iter().collect()
}

async fn submit(client: &Client, key: &str, record: Value) {
    let request = SubmitRecordRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        source: RecordSource::Key(key.into()),
        record,
    };
    client.submit_record(&request).await.expect("kept");
}

/// Fills every paged list: credentials, records (one with three
/// revisions) and a subject's attempts.
async fn fill(server: &Server, client: &Client, token: &str) {
    for i in 0..4 {
        server
            .admin
            .issue_credential(
                &issue_request(&format!("s{i}"), &["experience_read"], vec![]),
                None,
            )
            .await
            .unwrap();
    }
    for slug in ["alpha", "bravo", "charlie"] {
        submit(client, slug, sample_record(slug)).await;
    }
    for n in 1..=2 {
        let mut doc = sample_record("alpha");
        doc["summary"] = json!(format!(
            "Revision {n} of the alpha record, said again in other words for the test."
        ));
        submit(client, "alpha", doc).await;
    }
    for (i, subject) in ["host-a", "host-b", "host-a", "host-a"].iter().enumerate() {
        let (status, _, body) = raw(
            Method::POST,
            &format!("{}/api/v1/attempts", server.base),
            Some(token),
            &[("content-type", "application/json")],
            Some(
                serde_json::to_vec(&json!({
                    "contract_version": CONTRACT_VERSION,
                    "scope": scope(),
                    "outcome": {
                        "case_id": format!("c{i}"), "subject": subject, "action_id": "scan",
                        "hypothesis_id": "h1", "verifier_rule_id": null, "stage": "active",
                        "status": "unknown", "confidence": 0, "rationale": "because",
                        "evidence_ids": [], "action_revision": null, "observed_at": null
                    },
                    "disposition": null
                }))
                .unwrap(),
            ),
        )
        .await;
        assert_eq!(status, 201, "{}", String::from_utf8_lossy(&body));
    }
}

#[tokio::test]
async fn every_list_pages_by_its_own_cursors_and_refuses_any_other() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let caps = ["record_submit", "experience_read", "experience_write"];
        let (client, _, token) = client_as(&server, "agent", &caps, vec![scope()]).await;
        fill(&server, &client, &token).await;
        let admin = server.admin_token.clone();
        let alpha = "exp-alpha-20261120";

        // (path and query, items, key, limit, every key in order)
        let lists = [
            ("/api/v1/credentials?", "credentials", "/id", 2, None),
            (
                &*format!("/api/v1/records?{SCOPE}"),
                "records",
                "/state/experience_id",
                1,
                Some(vec![
                    json!("exp-alpha-20261120"),
                    json!("exp-bravo-20261120"),
                    json!("exp-charlie-20261120"),
                ]),
            ),
            (
                &*format!("/api/v1/records/{alpha}/history?{SCOPE}"),
                "entries",
                "/sequence",
                1,
                None,
            ),
            (
                &*format!("/api/v1/records/intake?{SCOPE}&key=alpha"),
                "entries",
                "/sequence",
                2,
                None,
            ),
            (
                &*format!("/api/v1/attempts/history?{SCOPE}&subject=host-a"),
                "records",
                "/sequence",
                1,
                None,
            ),
        ];
        let mut cursors = Vec::new();
        for (path, items, key, limit, expect) in &lists {
            let token = if items == &"credentials" {
                &admin
            } else {
                &token
            };
            let (all, _) = walk(&server, token, path, items, key, 200).await;
            let (paged, given) = walk(&server, token, path, items, key, *limit).await;
            assert_eq!(paged, all, "{backend:?} {path}");
            assert!(all.len() >= 3, "{backend:?} {path}: {all:?}");
            assert!(!given.is_empty(), "{backend:?} {path}");
            if let Some(expect) = expect {
                assert_eq!(&all, expect, "{backend:?} {path}");
            }
            cursors.push(given[0].clone());
        }
        assert_eq!(
            walk(
                &server,
                &token,
                &format!("/api/v1/attempts/history?{SCOPE}&subject=host-a"),
                "records",
                "/sequence",
                500
            )
            .await
            .0
            .len(),
            3,
            "{backend:?}"
        );

        for (i, (path, items, ..)) in lists.iter().enumerate() {
            let token = if items == &"credentials" {
                &admin
            } else {
                &token
            };
            let own = &cursors[i];
            for bad in [
                "zzz",
                "%00%ff",
                "",
                "1",
                "exp-alpha-20261120",
                &tampered(own),
            ] {
                refused(&server, token, &format!("{path}&after={bad}")).await;
            }
            // Every other list's cursor, even one over the same kind of position.
            for (j, other) in cursors.iter().enumerate() {
                if i != j {
                    refused(&server, token, &format!("{path}&after={other}")).await;
                }
            }
            // Its own cursor still works with another page size.
            let (status, _) = get(&server, token, &format!("{path}&after={own}&limit=7")).await;
            assert_eq!(status, 200, "{backend:?} {path}");
        }

        // A cursor of one query is refused on another query of the same list.
        let search = &cursors[1];
        refused(
            &server,
            &token,
            &format!("/api/v1/records?{SCOPE}&platform=linux&after={search}"),
        )
        .await;
        refused(
            &server,
            &token,
            &format!("/api/v1/records?{SCOPE}&q=alpha&after={search}"),
        )
        .await;
        let history = &cursors[4];
        refused(
            &server,
            &token,
            &format!("/api/v1/attempts/history?{SCOPE}&subject=host-b&after={history}"),
        )
        .await;
        refused(
            &server,
            &token,
            &format!(
                "/api/v1/attempts/history?{SCOPE}&subject=host-a&action_id=scan&after={history}"
            ),
        )
        .await;
        refused(
            &server,
            &token,
            &format!(
                "/api/v1/records/exp-bravo-20261120/history?{SCOPE}&after={}",
                cursors[2]
            ),
        )
        .await;
        refused(
            &server,
            &token,
            &format!(
                "/api/v1/records/intake?{SCOPE}&key=bravo&after={}",
                cursors[3]
            ),
        )
        .await;
        // Blank text is no text: `q=` pages like no `q`.
        let (status, _) = get(
            &server,
            &token,
            &format!("/api/v1/records?{SCOPE}&q=%20&after={search}"),
        )
        .await;
        assert_eq!(status, 200, "{backend:?}");
    }
}

/// Cursors hold across a restart with the same seal key, and not under another.
#[tokio::test]
async fn cursors_survive_a_restart_with_the_same_seal_key() {
    let server = Server::start(BACKENDS[0]).await;
    for i in 0..3 {
        server
            .admin
            .issue_credential(
                &issue_request(&format!("s{i}"), &["experience_read"], vec![]),
                None,
            )
            .await
            .unwrap();
    }
    let first = server.admin.list_credentials(None, 2).await.unwrap();
    let cursor = first.next_cursor.expect("a second page");
    let (token, seal) = (server.admin_token.clone(), server.seal.clone());
    let mut location = server.stop().await;
    let url = format!("/api/v1/credentials?limit=2&after={cursor}");
    for (seal, works) in [
        (seal, true),
        (praxis_server::seal::SealKey::generate(), false),
    ] {
        let engine = praxis_store::open(&location.store).await.unwrap();
        let again = Server::serve(engine, location, token.clone(), seal).await;
        if works {
            let (status, page) = get(&again, &token, &url).await;
            assert_eq!(status, 200, "{page}");
            let next = page["credentials"][0]["id"].as_str().unwrap();
            assert!(next > first.credentials[1].id.as_str(), "{page}");
        } else {
            refused(&again, &token, &url).await;
        }
        location = again.stop().await;
    }
}
