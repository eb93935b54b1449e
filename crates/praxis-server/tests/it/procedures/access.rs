//! Who may call the procedure endpoints: each endpoint's capabilities, the
//! exact scope grant, the tenant, and a credential still in force.

use super::*;

/// One call, what it needs, and the answer a foreign tenant gets.
struct Call {
    name: &'static str,
    path: &'static str,
    body: Value,
    needs: &'static [&'static str],
    foreign: (u16, &'static str),
}

/// Sets up a qualified ordinary proposal and a strategy; every call is
/// then a read or an identical retry.
async fn setup(b: &Bench) -> Vec<Call> {
    let digest = b.lab.context["context"]["digest"]
        .as_str()
        .unwrap()
        .to_owned();
    let o = b.observation().await;
    let strategy = strategy_body("s-1", &digest, &[o]);
    b.as_author(STRATEGIES, &strategy).await.ok(201);
    b.as_author(PROPOSALS, &proposal_body("p-1")).await.ok(201);
    let evaluation = evaluation_body("p-1", 1, "qualification", 0.2, 0.9);
    b.evaluate(&evaluation).await;
    vec![
        Call {
            name: "create strategy",
            path: STRATEGIES,
            body: strategy,
            needs: &["procedure_propose", "experience_read"],
            foreign: (422, "unknown_reference"),
        },
        Call {
            name: "read strategy",
            path: READ_STRATEGY,
            body: read_strategy_body("s-1"),
            needs: &["memory_read", "experience_read"],
            foreign: (404, "strategy_not_found"),
        },
        Call {
            name: "inspect strategy",
            path: INSPECT_STRATEGY,
            body: read_strategy_body("s-1"),
            needs: &["memory_read", "experience_read"],
            foreign: (404, "strategy_not_found"),
        },
        Call {
            name: "propose",
            path: PROPOSALS,
            body: proposal_body("p-1"),
            needs: &["procedure_propose"],
            foreign: (422, "unknown_reference"),
        },
        Call {
            name: "evaluate",
            path: EVALUATIONS,
            body: evaluation,
            needs: &["procedure_evaluate"],
            foreign: (404, "procedure_not_found"),
        },
        Call {
            name: "read procedure",
            path: READ_PROCEDURE,
            body: read_procedure_body("p-1"),
            needs: &["memory_read"],
            foreign: (404, "procedure_not_found"),
        },
        Call {
            name: "select",
            path: SELECT,
            body: select_body(100_000),
            needs: &["memory_read"],
            foreign: (422, "unknown_reference"),
        },
    ]
}

#[tokio::test]
async fn every_capability_grant_tenant_and_revocation_is_enforced() {
    for backend in BACKENDS {
        let b = Bench::start(backend).await;
        let calls = setup(&b).await;
        let base = b.base().to_owned();
        let other_scope = praxis_api::Scope {
            agent_id: "another-agent".into(),
            ..scope()
        };
        for call in &calls {
            // The grader is the policy's evaluator; everything else is the
            // author's.
            let subject = if call.name == "evaluate" {
                "grader"
            } else {
                "author"
            };
            let full = b.lab.token(subject, call.needs, vec![scope()]).await;
            let r = post(&base, &full, call.path, &call.body).await;
            assert_eq!(r.status, 200, "{}: {r:?}", call.name);
            // Each capability it needs, missing: 403.
            for missing in call.needs {
                // A credential needs some capability: one no call here uses.
                let mut held: Vec<&str> = call
                    .needs
                    .iter()
                    .copied()
                    .filter(|c| c != missing)
                    .collect();
                held.push("experience_write");
                let token = b.lab.token(subject, &held, vec![scope()]).await;
                post(&base, &token, call.path, &call.body).await.refused(
                    403,
                    "missing_capability",
                    None,
                );
            }
            // The capabilities, in another scope only: 403.
            let elsewhere = b
                .lab
                .token(subject, call.needs, vec![other_scope.clone()])
                .await;
            let r = post(&base, &elsewhere, call.path, &call.body).await;
            assert_eq!(
                (r.status, r.code()),
                (403, "missing_grant"),
                "{}",
                call.name
            );
        }
        // Another tenant sees nothing of t1's.
        let t2 = foreign_token(
            &b.lab.server,
            "grader",
            &[
                "procedure_propose",
                "procedure_evaluate",
                "experience_read",
                "memory_read",
            ],
        )
        .await;
        for call in &calls {
            let r = post(&base, &t2, call.path, &call.body).await;
            assert_eq!(
                (r.status, r.code()),
                call.foreign,
                "t2 {}: {r:?}",
                call.name
            );
        }
        // A revoked credential is refused at once.
        let (_, id, token) = crate::support::client_as(
            &b.lab.server,
            "author",
            &["memory_read", "experience_read"],
            vec![scope()],
        )
        .await;
        post(&base, &token, READ_STRATEGY, &read_strategy_body("s-1"))
            .await
            .ok(200);
        b.lab.server.admin.revoke_credential(&id).await.unwrap();
        let r = post(&base, &token, READ_STRATEGY, &read_strategy_body("s-1")).await;
        assert_eq!((r.status, r.code()), (401, "credential_revoked"));
    }
}
