//! The registry of policies and contexts: digests of the canonical payload,
//! idempotent registration by any admin, immutability, reads, and the
//! validation of every parameter.

use std::collections::BTreeMap;

use praxis_domain::canonical::canonical_bytes;
use praxis_testkit::BACKENDS;
use serde_json::{Value, json};

use super::*;

/// `entry` without what the server adds to what was sent.
fn as_sent(entry: &Value) -> Value {
    let mut v = entry.clone();
    let o = v.as_object_mut().unwrap();
    for added in ["digest", "registered_by", "recorded_at"] {
        assert!(o.remove(added).is_some(), "{added} is missing: {entry}");
    }
    v
}

/// Registers under `kind` ("policy" or "context"), checks the 201 entry and
/// its digest, then an identical registration by another admin, a changed
/// one and the reads.
#[allow(clippy::too_many_arguments)]
async fn check_registration(
    server: &Server,
    kind: &str,
    path: &str,
    body: Value,
    changed: Value,
    domain_digest: String,
    first: &str,
    second: &str,
    reader: &str,
    neither: &str,
) {
    let base = &server.base;
    let before = learning_events(server).await;
    let created = post(base, first, path, &body).await;
    let entry = &created.ok(201)[kind];
    assert_eq!(created.json["contract_version"], 1);
    assert_eq!(
        as_sent(entry),
        body[kind],
        "the entry is the {kind} as sent"
    );
    // SHA-256 of the canonical payload, recomputed here and by the domain.
    let digest = sha256_hex(&canonical_bytes(&body[kind]));
    assert_eq!(entry["digest"], json!(digest));
    assert_eq!(digest, domain_digest);
    assert_eq!(entry["registered_by"], "admin-a");
    assert!(entry["recorded_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(learning_events(server).await, before + 1, "one event");

    // Identical content, by another admin, even spelled otherwise: the
    // original entry, byte for byte, and nothing appended.
    let again = post(base, second, path, &body).await;
    again.ok(200);
    assert_eq!(again.body, created.body);
    let respelled = serde_json::to_string_pretty(&body)
        .unwrap()
        .replace(": 0.01", ": 1e-2");
    let again = send(
        base,
        Some(second),
        Method::POST,
        path,
        Some(respelled.into_bytes()),
    )
    .await;
    again.ok(200);
    assert_eq!(again.body, created.body);
    assert_eq!(learning_events(server).await, before + 1);

    // Changed content under the id: refused, whoever asks.
    for token in [first, second] {
        post(base, token, path, &changed).await.refused(
            409,
            "registry_conflict",
            Some(&format!("/{kind}")),
        );
    }
    assert_eq!(learning_events(server).await, before + 1);

    // Reads: by an admin or a reader; the same bytes as the registration.
    let id = body[kind]["id"].as_str().unwrap();
    for token in [first, reader] {
        let read = get(base, token, &format!("{path}/{id}")).await;
        read.ok(200);
        assert_eq!(read.body, created.body, "the read is the registration");
    }
    get(base, neither, &format!("{path}/{id}"))
        .await
        .refused(403, "missing_capability", None);
    get(base, reader, &format!("{path}/not-registered"))
        .await
        .refused(404, &format!("{kind}_not_found"), None);
    // Registering takes policy_admin; reading does not give it.
    post(base, reader, path, &body)
        .await
        .refused(403, "missing_capability", None);
}

#[tokio::test]
async fn registrations_digest_the_canonical_payload_and_never_change() {
    for backend in BACKENDS {
        eprintln!("backend {backend:?}");
        let server = Server::start(backend).await;
        let (_, _, admin_a) = client_as(&server, "admin-a", &["policy_admin"], vec![]).await;
        let (_, _, admin_b) = client_as(&server, "admin-b", &["policy_admin"], vec![]).await;
        let (_, _, reader) = client_as(&server, "reader", &["experience_read"], vec![]).await;
        let others = [
            "experience_write",
            "experience_report",
            "experience_evidence_admin",
        ];
        let (_, _, neither) = client_as(&server, "writer", &others, vec![scope()]).await;

        let policy = policy_body();
        let mut changed = policy.clone();
        changed["policy"]["parameters"]["min_improvement"] = json!(0.06);
        let domain: praxis_domain::learning::Policy =
            serde_json::from_value(policy["policy"].clone()).unwrap();
        check_registration(
            &server,
            "policy",
            POLICIES,
            policy,
            changed,
            domain.digest().to_hex(),
            &admin_a,
            &admin_b,
            &reader,
            &neither,
        )
        .await;

        let context = context_body();
        let mut changed = context.clone();
        changed["context"]["tools"]["shell"] = json!("shell-1.5");
        let domain: praxis_domain::learning::Context =
            serde_json::from_value(context["context"].clone()).unwrap();
        check_registration(
            &server,
            "context",
            CONTEXTS,
            context,
            changed,
            domain.digest().to_hex(),
            &admin_a,
            &admin_b,
            &reader,
            &neither,
        )
        .await;
    }
}

/// A policy edited by `edit`, under its own id.
fn policy_with(id: &str, edit: impl FnOnce(&mut Value)) -> Value {
    let mut body = policy_body();
    body["policy"]["id"] = json!(id);
    edit(&mut body["policy"]);
    body
}

/// A context edited by `edit`, under its own id.
fn context_with(id: &str, edit: impl FnOnce(&mut Value)) -> Value {
    let mut body = context_body();
    body["context"]["id"] = json!(id);
    edit(&mut body["context"]);
    body
}

fn tools(n: usize) -> Value {
    let tools: BTreeMap<String, String> = (0..n)
        .map(|i| (format!("tool-{i:03}"), format!("rev-{i}")))
        .collect();
    json!(tools)
}

#[tokio::test]
async fn every_registry_parameter_is_validated() {
    const P: &str = "/policy/parameters";
    for backend in BACKENDS {
        eprintln!("backend {backend:?}");
        let server = Server::start(backend).await;
        let (_, _, admin) = client_as(&server, "admin-a", &["policy_admin"], vec![]).await;
        let base = &server.base;
        let before = learning_events(&server).await;

        let invalid_policies: Vec<(Value, String)> = vec![
            (
                policy_with("fixed-without-n", |p| {
                    p["algorithm"] = json!("fixed_hoeffding_v1");
                }),
                format!("{P}/qualification_trials"),
            ),
            (
                policy_with("fixed-n-1", |p| {
                    p["algorithm"] = json!("fixed_hoeffding_v1");
                    p["parameters"]["qualification_trials"] = json!(1);
                }),
                format!("{P}/qualification_trials"),
            ),
            (
                policy_with("fixed-n-over-cap", |p| {
                    p["algorithm"] = json!("fixed_hoeffding_v1");
                    p["parameters"]["qualification_trials"] = json!(1_000_001);
                }),
                format!("{P}/qualification_trials"),
            ),
            (
                policy_with("anytime-with-n", |p| {
                    p["parameters"]["qualification_trials"] = json!(100);
                }),
                format!("{P}/qualification_trials"),
            ),
            (
                policy_with("delta-half", |p| {
                    p["parameters"]["confidence_delta"] = json!(0.5);
                }),
                format!("{P}/confidence_delta"),
            ),
            (
                policy_with("delta-zero", |p| {
                    p["parameters"]["confidence_delta"] = json!(0.0);
                }),
                format!("{P}/confidence_delta"),
            ),
            (
                policy_with("improvement-over-one", |p| {
                    p["parameters"]["min_improvement"] = json!(1.5);
                }),
                format!("{P}/min_improvement"),
            ),
            (
                policy_with("utility-negative", |p| {
                    p["parameters"]["min_candidate_utility"] = json!(-0.1);
                }),
                format!("{P}/min_candidate_utility"),
            ),
            (
                policy_with("no-cost", |p| {
                    p["parameters"]["max_cost_units"] = json!(0);
                }),
                format!("{P}/max_cost_units"),
            ),
            (
                policy_with("one-trial", |p| {
                    p["parameters"]["max_trials"] = json!(1);
                }),
                format!("{P}/max_trials"),
            ),
            (
                policy_with("alarm-half", |p| {
                    p["parameters"]["monitoring"]["false_alarm_delta"] = json!(0.5);
                }),
                format!("{P}/monitoring/false_alarm_delta"),
            ),
            (
                policy_with("blank-evaluator", |p| {
                    p["parameters"]["evaluator_subject"] = json!(" ");
                }),
                format!("{P}/evaluator_subject"),
            ),
            (policy_with(&"x".repeat(513), |_| {}), "/policy/id".into()),
        ];
        for (body, field) in &invalid_policies {
            post(base, &admin, POLICIES, body)
                .await
                .refused(422, "invalid_field", Some(field));
        }
        let fixed = policy_with("fixed", |p| {
            p["algorithm"] = json!("fixed_hoeffding_v1");
            p["parameters"]["qualification_trials"] = json!(500);
        });
        post(base, &admin, POLICIES, &fixed).await.ok(201);

        let invalid_contexts: Vec<(Value, &str)> = vec![
            (
                context_with("too-many-tools", |c| c["tools"] = tools(129)),
                "/context/tools",
            ),
            (
                context_with("long-task", |c| c["task"] = json!("t".repeat(513))),
                "/context/task",
            ),
            (
                context_with("empty-dataset", |c| c["dataset_revision"] = json!("")),
                "/context/dataset_revision",
            ),
            (
                context_with("empty-tool-revision", |c| {
                    c["tools"] = json!({"shell": ""});
                }),
                "/context/tools/shell",
            ),
        ];
        for (body, field) in &invalid_contexts {
            post(base, &admin, CONTEXTS, body)
                .await
                .refused(422, "invalid_field", Some(field));
        }
        let most_tools = context_with("most-tools", |c| c["tools"] = tools(128));
        let longest = context_with("longest-task", |c| c["task"] = json!("t".repeat(512)));
        for body in [most_tools, longest] {
            post(base, &admin, CONTEXTS, &body).await.ok(201);
        }

        // Unknown members, anywhere: 400 naming the member.
        let mut unknown = policy_body();
        unknown["policy"]["parameters"]["surprise"] = json!(1);
        post(base, &admin, POLICIES, &unknown).await.refused(
            400,
            "unknown_field",
            Some("/policy/parameters/surprise"),
        );
        let mut unknown = policy_body();
        unknown["surprise"] = json!(1);
        post(base, &admin, POLICIES, &unknown).await.refused(
            400,
            "unknown_field",
            Some("/surprise"),
        );
        let mut unknown = context_body();
        unknown["context"]["extra"] = json!("x");
        post(base, &admin, CONTEXTS, &unknown).await.refused(
            400,
            "unknown_field",
            Some("/context/extra"),
        );

        // Only the three valid registrations were appended.
        assert_eq!(learning_events(&server).await, before + 3);
    }
}
