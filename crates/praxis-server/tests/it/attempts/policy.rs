//! Policy changes name only the fields they change: a field left out keeps
//! its value, `null` resets it, and the event records the whole policy.

use super::*;

/// Sends a policy change with an optional idempotency key.
async fn change(server: &Server, token: &str, key: Option<&str>, body: &Value) -> (u16, Value) {
    let mut headers = vec![("content-type", "application/json")];
    if let Some(k) = key {
        headers.push(("idempotency-key", k));
    }
    let (status, _, resp) = raw(
        Method::POST,
        &format!("{}/api/v1/attempts/policy", server.base),
        Some(token),
        &headers,
        Some(serde_json::to_vec(body).unwrap()),
    )
    .await;
    (status, serde_json::from_slice(&resp).unwrap())
}

/// The payload of the tenant's last event.
async fn last_payload(server: &Server) -> (String, Value) {
    let events = server
        .engine
        .ledger()
        .events("t1", 0, 100_000)
        .await
        .unwrap();
    let last = events.last().unwrap();
    (last.kind.clone(), last.payload.clone())
}

/// The policy part of an answer.
fn policy_of(answer: &Value) -> Value {
    json!({
        "consecutive_failure_limit": answer["consecutive_failure_limit"],
        "streak_key": answer["streak_key"],
        "reexplore": answer["reexplore"],
    })
}

#[tokio::test]
async fn a_change_keeps_the_fields_it_leaves_out() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (client, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let with = |fields: Value| {
            let mut body = json!({"contract_version": 1, "scope": s});
            body.as_object_mut()
                .unwrap()
                .extend(fields.as_object().unwrap().clone());
            body
        };

        let (status, first) = change(
            &server,
            &token,
            None,
            &with(json!({"streak_key": "action_revision", "reexplore": {"after_seconds": 3600}})),
        )
        .await;
        assert_eq!(status, 200, "{backend:?} {first}");
        assert_eq!(
            policy_of(&first),
            json!({"consecutive_failure_limit": 10, "streak_key": "action_revision",
                   "reexplore": {"after_seconds": 3600}}),
            "{backend:?}: left out on the first change means the default"
        );

        // Only the limit: the re-exploration and the streak key stay.
        let (status, second) = change(
            &server,
            &token,
            None,
            &with(json!({"consecutive_failure_limit": 2})),
        )
        .await;
        assert_eq!(status, 200, "{backend:?} {second}");
        let expected = json!({"consecutive_failure_limit": 2, "streak_key": "action_revision",
                              "reexplore": {"after_seconds": 3600}});
        assert_eq!(policy_of(&second), expected, "{backend:?}");
        let shown = serde_json::to_value(client.attempt_policy(&s).await.unwrap()).unwrap();
        assert_eq!(policy_of(&shown), expected, "{backend:?}");
        // The event records the whole policy in force, not the change.
        let (kind, payload) = last_payload(&server).await;
        assert_eq!(kind, "attempt.policy_set");
        assert_eq!(
            payload,
            json!({"consecutive_failure_limit": 2, "streak_key": "action_revision",
                   "reexplore": {"after_seconds": 3600, "after_observations": null}}),
            "{backend:?}"
        );

        // Re-exploration merges member by member; null removes a member.
        let (_, third) = change(
            &server,
            &token,
            None,
            &with(json!({"reexplore": {"after_observations": 5}})),
        )
        .await;
        assert_eq!(
            third["reexplore"],
            json!({"after_seconds": 3600, "after_observations": 5}),
            "{backend:?}"
        );
        let (_, fourth) = change(
            &server,
            &token,
            None,
            &with(json!({"reexplore": {"after_seconds": null}})),
        )
        .await;
        assert_eq!(
            fourth["reexplore"],
            json!({"after_observations": 5}),
            "{backend:?}"
        );
        // Removing the last member is refused: null turns it off explicitly.
        let events = event_count(&server).await;
        let (status, refused) = change(
            &server,
            &token,
            None,
            &with(json!({"reexplore": {"after_observations": null}})),
        )
        .await;
        assert_eq!(
            (status, refused["code"].as_str(), refused["field"].as_str()),
            (422, Some("invalid_field"), Some("/reexplore")),
            "{backend:?}"
        );
        assert_eq!(
            event_count(&server).await,
            events,
            "{backend:?}: nothing written"
        );

        // null resets each field to its default.
        let (_, reset) = change(
            &server,
            &token,
            None,
            &with(json!({"streak_key": null, "reexplore": null})),
        )
        .await;
        assert_eq!(
            policy_of(&reset),
            json!({"consecutive_failure_limit": 2, "streak_key": "action", "reexplore": null}),
            "{backend:?}"
        );
        let (_, reset) = change(
            &server,
            &token,
            None,
            &with(json!({"consecutive_failure_limit": null})),
        )
        .await;
        assert_eq!(reset["consecutive_failure_limit"], 10, "{backend:?}");
        // An empty change writes the policy as it is, as a new event.
        let (status, same) = change(&server, &token, None, &with(json!({}))).await;
        assert_eq!((status, policy_of(&same)), (200, policy_of(&reset)));
        let report = server.engine.verify().await.unwrap();
        assert!(
            report.problems.is_empty(),
            "{backend:?}: {:?}",
            report.problems
        );
        server.stop().await;
    }
}

#[tokio::test]
async fn a_keyed_change_replays_and_a_different_body_conflicts() {
    for backend in BACKENDS {
        let server = Server::start(backend).await;
        let s = scope();
        let (_, _, token) = client_as(&server, "agent", ALL, vec![s.clone()]).await;
        let body = json!({"contract_version": 1, "scope": s, "consecutive_failure_limit": 3});
        let (status, first) = change(&server, &token, Some("policy-change-key-0001"), &body).await;
        assert_eq!(status, 200, "{backend:?}");
        let events = event_count(&server).await;

        // Meanwhile another change moves the policy on.
        let other = json!({"contract_version": 1, "scope": s,
                           "reexplore": {"after_observations": 4}});
        let (status, moved) = change(&server, &token, None, &other).await;
        assert_eq!(status, 200);
        assert_eq!(moved["consecutive_failure_limit"], 3);

        // The retry is answered from its receipt: the answer it first got,
        // and no new event, although the policy has moved on.
        let (status, replayed) =
            change(&server, &token, Some("policy-change-key-0001"), &body).await;
        assert_eq!((status, &replayed), (200, &first), "{backend:?}");
        assert_eq!(event_count(&server).await, events + 1, "{backend:?}");

        // The same key with another body is a conflict, and writes nothing.
        let changed = json!({"contract_version": 1, "scope": s, "consecutive_failure_limit": 4});
        let (status, conflict) =
            change(&server, &token, Some("policy-change-key-0001"), &changed).await;
        assert_eq!(
            (status, conflict["code"].as_str()),
            (409, Some("idempotency_conflict")),
            "{backend:?}"
        );
        // An absent field and an explicit null are different changes.
        let nulled = json!({"contract_version": 1, "scope": s, "consecutive_failure_limit": 3,
                            "reexplore": null});
        let (status, _) = change(&server, &token, Some("policy-change-key-0001"), &nulled).await;
        assert_eq!(status, 409, "{backend:?}");
        assert_eq!(event_count(&server).await, events + 1, "{backend:?}");
        server.stop().await;
    }
}
