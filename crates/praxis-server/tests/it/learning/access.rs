//! Who may use the learning endpoints: a token, each endpoint's capability,
//! the exact scope grant, the tenant, the bound reporter, and a credential
//! still in force.

use praxis_testkit::BACKENDS;
use serde_json::{Value, json};

use super::*;
use crate::support::issue_request;

/// What an endpoint needs.
#[derive(Clone, Copy, Debug)]
enum Need {
    /// This capability.
    One(&'static str),
    /// Both capabilities.
    Both(&'static str, &'static str),
    /// Either capability.
    Either(&'static str, &'static str),
}

impl Need {
    /// Whether a credential holding `held` may call the endpoint.
    fn met_by(self, held: &[&str]) -> bool {
        match self {
            Need::One(c) => held.contains(&c),
            Need::Both(a, b) => held.contains(&a) && held.contains(&b),
            Need::Either(a, b) => held.contains(&a) || held.contains(&b),
        }
    }
}

/// One call of an endpoint.
struct Call {
    name: &'static str,
    method: Method,
    path: String,
    body: Option<Value>,
    need: Need,
    /// Whether it names a scope (so a grant is checked).
    scoped: bool,
}

impl Call {
    async fn send(&self, base: &str, token: Option<&str>) -> Reply {
        let body = self.body.as_ref().map(|b| serde_json::to_vec(b).unwrap());
        send(base, token, self.method.clone(), &self.path, body).await
    }
}

/// Sets up what every call names, as the reporter: the registry, `dev-1`
/// with its event `e1`, and `dev-2` whose `e1` is withdrawn under `w-1`.
/// Every call is then a read or an identical retry, so each succeeds for a
/// credential of the reporter that holds what it needs.
async fn setup(lab: &Lab) -> Vec<Call> {
    lab.record("dev-1").await;
    lab.post(REPORT, &serde_json::to_value(ex::report()).unwrap())
        .await
        .ok(201);
    lab.record("dev-2").await;
    let reported = lab
        .accept("dev-2", "e1", 1, "succeeded", Some(5), None)
        .await;
    let digest = reported["event"]["event_digest"].as_str().unwrap();
    let withdraw = withdraw_body("w-1", "dev-2", "e1", digest);
    lab.post(WITHDRAW, &withdraw).await.ok(201);

    let post = |name, path: &str, body: Value, need| Call {
        name,
        method: Method::POST,
        path: path.into(),
        body: Some(body),
        need,
        scoped: true,
    };
    let registry = |name, method, path: String, body: Option<Value>, need| Call {
        name,
        method,
        path,
        body,
        need,
        scoped: false,
    };
    let read = Need::One("experience_read");
    let either = Need::Either("policy_admin", "experience_read");
    vec![
        registry(
            "register policy",
            Method::POST,
            POLICIES.into(),
            Some(policy_body()),
            Need::One("policy_admin"),
        ),
        registry(
            "read policy",
            Method::GET,
            format!("{POLICIES}/{}", ex::POLICY),
            None,
            either,
        ),
        registry(
            "register context",
            Method::POST,
            CONTEXTS.into(),
            Some(context_body()),
            Need::One("policy_admin"),
        ),
        registry(
            "read context",
            Method::GET,
            format!("{CONTEXTS}/{}", ex::CONTEXT),
            None,
            either,
        ),
        post(
            "record",
            RECORD,
            record_body("dev-1"),
            Need::One("experience_write"),
        ),
        post(
            "report",
            REPORT,
            serde_json::to_value(ex::report()).unwrap(),
            Need::One("experience_report"),
        ),
        post("read", READ, read_body("dev-1"), read),
        post(
            "read event",
            READ_EVENT,
            read_event_body("dev-1", "e1"),
            read,
        ),
        post("history", HISTORY, history_body("dev-1", None, None), read),
        post("lineage", LINEAGE, read_body("dev-1"), read),
        post("export", EXPORT, export_body(&[("dev-1", "e1")]), read),
        post("inspect", INSPECT, inspect_body("dev-2", "e1"), read),
        post(
            "withdraw",
            WITHDRAW,
            withdraw,
            Need::Both("experience_evidence_admin", "experience_read"),
        ),
    ]
}

#[tokio::test]
async fn every_learning_endpoint_checks_token_capability_and_exact_grant() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        let calls = setup(&lab).await;
        let base = lab.base();
        let before = learning_events(&lab.server).await;

        // The reporter with every capability: every call succeeds.
        for call in &calls {
            let r = call.send(base, Some(&lab.token)).await;
            assert!(r.status == 200, "{}: {r:?}", call.name);
        }
        // No token: 401 everywhere.
        for call in &calls {
            let r = call.send(base, None).await;
            assert_eq!(
                (r.status, r.code()),
                (401, "unauthenticated"),
                "{}",
                call.name
            );
        }

        // Every capability but one, then every capability but both of
        // the registry's readers: exactly the calls that need it are 403.
        let mut lacking: Vec<Vec<&str>> = ALL.iter().map(|c| vec![*c]).collect();
        lacking.push(vec!["policy_admin", "experience_read"]);
        for missing in lacking {
            let held: Vec<&str> = ALL
                .iter()
                .copied()
                .filter(|c| !missing.contains(c))
                .collect();
            let token = lab.token(ex::REPORTER, &held, vec![scope()]).await;
            for call in &calls {
                let r = call.send(base, Some(&token)).await;
                if call.need.met_by(&held) {
                    assert_eq!(r.status, 200, "{} without {missing:?}: {r:?}", call.name);
                } else {
                    assert_eq!(
                        (r.status, r.code(), r.json["field"].as_str()),
                        (403, "missing_capability", None),
                        "{} without {missing:?}",
                        call.name
                    );
                }
            }
        }

        // Every capability but no grant of the exact scope: the scoped
        // calls are 403 missing_grant; the tenant-wide registry is not scoped.
        let s = scope();
        let near_misses = vec![
            private_scope(),
            Scope {
                mission_id: Some("m1".into()),
                ..s.clone()
            },
            Scope {
                project_id: "other-project".into(),
                ..s.clone()
            },
            Scope {
                agent_id: "other-agent".into(),
                ..s.clone()
            },
        ];
        for grants in [vec![], near_misses] {
            let token = lab.token(ex::REPORTER, ALL, grants.clone()).await;
            for call in &calls {
                let r = call.send(base, Some(&token)).await;
                if call.scoped {
                    r.refused(403, "missing_grant", Some("/scope"));
                } else {
                    assert_eq!(r.status, 200, "{} with {grants:?}: {r:?}", call.name);
                }
            }
        }

        // Another subject with every capability and the grant: not the
        // reporter (403), not the recorder of dev-1 (409), and not the
        // subject that made the withdrawal under its key (409); reads succeed.
        let stranger = lab.token("stranger", ALL, vec![s.clone()]).await;
        for call in &calls {
            let r = call.send(base, Some(&stranger)).await;
            match call.name {
                "report" => r.refused(403, "not_reporter", None),
                "record" => r.refused(409, "idempotency_conflict", Some("/experience/id")),
                "withdraw" => r.refused(409, "idempotency_conflict", Some("/idempotency_key")),
                _ => assert_eq!(r.status, 200, "{} by a stranger: {r:?}", call.name),
            }
        }

        // Nothing any of it did was written.
        assert_eq!(learning_events(&lab.server).await, before);
    }
}

#[tokio::test]
async fn a_foreign_tenant_sees_no_attempt_and_has_its_own_registry() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        let calls = setup(&lab).await;
        let base = lab.base();
        let t1_before: Vec<Reply> = {
            let mut v = Vec::new();
            for call in &calls {
                v.push(call.send(base, Some(&lab.token)).await);
            }
            v
        };
        let (_, token) = praxis_server::admin::bootstrap_tenant(&*lab.server.engine, "t2", "admin")
            .await
            .unwrap();
        let t2_admin = lab.server.anonymous.with_token(token.render());
        let issued = t2_admin
            .issue_credential(&issue_request(ex::REPORTER, ALL, vec![scope()]), None)
            .await
            .unwrap();
        let t2 = issued.token;

        // The same ids, in the same scope, from tenant t2: nothing is there;
        // and t2's registry is its own, where the same ids register anew.
        let (register, others): (Vec<&Call>, Vec<&Call>) =
            calls.iter().partition(|c| c.name.starts_with("register"));
        for call in others.into_iter().chain(register) {
            let r = call.send(base, Some(&t2)).await;
            let expected: (u16, &str, Option<&str>) = match call.name {
                "read policy" => (404, "policy_not_found", None),
                "read context" => (404, "context_not_found", None),
                "register policy" | "register context" => (201, "", None),
                "record" => (422, "unknown_reference", Some("/experience/context_id")),
                "export" => (404, "experience_not_found", Some("/events/0/attempt_id")),
                "inspect" => (404, "experience_not_found", Some("/observation/attempt_id")),
                "withdraw" => (404, "observation_not_found", Some("/observation")),
                _ => (404, "experience_not_found", Some("/attempt_id")),
            };
            assert_eq!(
                (r.status, r.code(), r.json["field"].as_str()),
                expected,
                "t2 {}: {r:?}",
                call.name
            );
        }
        // t2 may now record its own dev-1 under its own context, and
        // report on it: t1's attempt of that id is untouched.
        post(base, &t2, RECORD, &record_body("dev-1")).await.ok(201);
        let t2_report = serde_json::to_value(ex::report()).unwrap();
        post(base, &t2, REPORT, &t2_report).await.ok(201);
        let mut other = context_body();
        other["context"]["task"] = json!("t2's own task");
        post(base, &t2, CONTEXTS, &other)
            .await
            .refused(409, "registry_conflict", Some("/context"));
        for (call, before) in calls.iter().zip(&t1_before) {
            let r = call.send(base, Some(&lab.token)).await;
            assert_eq!(r.status, 200, "t1 {}", call.name);
            assert_eq!(r.body, before.body, "t1 {} changed", call.name);
        }
    }
}

#[tokio::test]
async fn a_revoked_credential_is_refused_at_once() {
    for backend in BACKENDS {
        let lab = Lab::start(backend).await;
        let calls = setup(&lab).await;
        let base = lab.base();
        let (_, id, token) = client_as(&lab.server, ex::REPORTER, ALL, vec![scope()]).await;
        for call in &calls {
            let r = call.send(base, Some(&token)).await;
            assert_eq!(r.status, 200, "{} before revocation: {r:?}", call.name);
        }
        lab.server.admin.revoke_credential(&id).await.unwrap();
        let before = learning_events(&lab.server).await;
        for call in &calls {
            let r = call.send(base, Some(&token)).await;
            assert_eq!(
                (r.status, r.code()),
                (401, "credential_revoked"),
                "{} after revocation",
                call.name
            );
        }
        assert_eq!(learning_events(&lab.server).await, before);
    }
}
