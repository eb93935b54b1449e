//! Procedures over real HTTP on both stores: strategies bound to exact
//! observations, ordinary proposals, held-out evaluations to qualification
//! and suspension, selection with its baseline fallback, withdrawal that
//! makes a selected strategy ineligible, concurrency, restarts and who may
//! call each endpoint.

use praxis_api::examples::learning as ex;
use praxis_testkit::BACKENDS;
use serde_json::{Value, json};

use crate::learning::*;
use crate::support::{Server, issue_request};

mod access;

const STRATEGIES: &str = "/api/v1/learning/strategies";
const READ_STRATEGY: &str = "/api/v1/learning/strategies/read";
const INSPECT_STRATEGY: &str = "/api/v1/learning/strategies/inspect";
const PROPOSALS: &str = "/api/v1/learning/proposals";
const EVALUATIONS: &str = "/api/v1/learning/evaluations";
const READ_PROCEDURE: &str = "/api/v1/learning/procedures/read";
const SELECT: &str = "/api/v1/learning/select";

/// What the author of procedures holds.
const AUTHOR: &[&str] = &["procedure_propose", "experience_read", "memory_read"];

fn scoped(mut v: Value) -> Value {
    v["scope"] = serde_json::to_value(scope()).unwrap();
    v
}

/// The seed's strategy request, bound to `observations`.
fn strategy_body(id: &str, context_digest: &str, observations: &[Value]) -> Value {
    scoped(json!({"contract_version": 1, "strategy": {
        "id": id, "policy_id": "policy-v1", "context_id": "context-v1",
        "instructions": "Read the operation receipt before deciding whether to retry.",
        "preconditions": ["The operation provides a durable receipt lookup."],
        "counterexamples": ["A timeout alone does not establish that the operation failed."],
        "extractor": {"provider": "external-provider", "model": "external-extractor",
            "model_revision": "model-v1", "prompt_revision": "extraction-v1",
            "evidence_ref": "trace://development/receipt-recovery"},
        "selection": {"context_digest": context_digest, "accounting_unit": "tokens",
            "events": observations}}}))
}

fn proposal_body(id: &str) -> Value {
    scoped(json!({"contract_version": 1, "proposal": {
        "id": id, "policy_id": "policy-v1", "context_id": "context-v1",
        "instructions": "Check the receipt first.", "source_refs": ["trace://dev/notes"]}}))
}

fn evaluation_body(procedure: &str, case: u32, phase: &str, base: f64, cand: f64) -> Value {
    scoped(
        json!({"contract_version": 1, "procedure_id": procedure, "evaluation": {
        "case_id": format!("case-{case}"), "phase": phase, "policy_id": "policy-v1",
        "context_id": "context-v1", "baseline_revision": ex::register_context().context.baseline_revision,
        "evidence_ref": format!("eval://held-out/{case}"), "status": "complete",
        "baseline_utility": base, "candidate_utility": cand,
        "cost_units": 120, "latency_ms": 900}}),
    )
}

fn select_body(max: u64) -> Value {
    scoped(json!({"contract_version": 1, "policy_id": "policy-v1",
        "context_id": "context-v1", "max_instruction_bytes": max}))
}

fn read_strategy_body(id: &str) -> Value {
    scoped(json!({"contract_version": 1, "strategy_id": id}))
}

fn read_procedure_body(id: &str) -> Value {
    scoped(json!({"contract_version": 1, "procedure_id": id}))
}

/// A lab with an author and the policy's evaluator (`grader`).
struct Bench {
    lab: Lab,
    author: String,
    grader: String,
}

impl Bench {
    async fn start(backend: praxis_testkit::Backend) -> Bench {
        let lab = Lab::start(backend).await;
        let author = lab.token("author", AUTHOR, vec![scope()]).await;
        let grader = lab
            .token("grader", &["procedure_evaluate"], vec![scope()])
            .await;
        Bench {
            lab,
            author,
            grader,
        }
    }

    fn base(&self) -> &str {
        self.lab.base()
    }

    async fn as_author(&self, path: &str, body: &Value) -> Reply {
        post(self.base(), &self.author, path, body).await
    }

    async fn evaluate(&self, body: &Value) -> Value {
        post(self.base(), &self.grader, EVALUATIONS, body)
            .await
            .ok(200)["receipt"]
            .clone()
    }

    /// Records `dev-1` with one failed event (with evidence); returns the
    /// pinned observation.
    async fn observation(&self) -> Value {
        self.lab.record("dev-1").await;
        let e = self
            .lab
            .accept("dev-1", "e1", 1, "failed", Some(1200), None)
            .await;
        json!({"attempt_id": "dev-1", "event_id": "e1",
            "event_digest": e["event"]["event_digest"]})
    }

    /// Clearly better qualification cases until the procedure qualifies;
    /// returns the next case number.
    async fn qualify(&self, procedure: &str, from: u32) -> u32 {
        for i in from..from + 500 {
            let r = self
                .evaluate(&evaluation_body(procedure, i, "qualification", 0.2, 0.9))
                .await;
            assert_eq!(r["outcome"], "accepted", "{r}");
            if r["procedure"]["state"] == "qualified" {
                return i + 1;
            }
        }
        panic!("{procedure} never qualified");
    }

    async fn select(&self, max: u64) -> Value {
        self.as_author(SELECT, &select_body(max))
            .await
            .ok(200)
            .clone()
    }
}

#[tokio::test]
async fn a_strategy_goes_from_creation_to_qualification_selection_suspension_and_the_baseline() {
    for backend in BACKENDS {
        let b = Bench::start(backend).await;
        let digest = b.lab.context["context"]["digest"]
            .as_str()
            .unwrap()
            .to_owned();
        let o = b.observation().await;
        let id = "receipt-recovery-v1";

        // Created, then retried: the original receipt byte for byte.
        let body = strategy_body(id, &digest, std::slice::from_ref(&o));
        let created = b.as_author(STRATEGIES, &body).await;
        let receipt = created.ok(201)["receipt"].clone();
        assert_eq!(receipt["method_version"], "praxis.experience-strategy.v1");
        assert_eq!(receipt["proposal"]["state"], "candidate");
        assert_eq!(receipt["summary"]["failed"], 1);
        let doc: Value = serde_json::from_str(
            receipt["proposal"]["proposal"]["instructions"]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(doc["format"], "praxis.strategy-instructions.v1");
        let evidence = ex::report().event.evidence.unwrap();
        let sources = receipt["proposal"]["proposal"]["source_refs"]
            .as_array()
            .unwrap();
        assert!(
            sources.iter().any(|s| *s == json!(evidence.reference)),
            "{sources:?}"
        );
        let again = b.as_author(STRATEGIES, &body).await;
        again.ok(200);
        assert_eq!(again.body, created.body);
        // Changed content under the id; an invented observation.
        let mut changed = body.clone();
        changed["strategy"]["instructions"] = json!("Retry at once.");
        b.as_author(STRATEGIES, &changed).await.refused(
            409,
            "idempotency_conflict",
            Some("/strategy/id"),
        );
        let mut invented = o.clone();
        invented["event_digest"] = json!("c".repeat(64));
        b.as_author(STRATEGIES, &strategy_body("other", &digest, &[invented]))
            .await
            .refused(
                422,
                "invalid_observation",
                Some("/strategy/selection/events/0"),
            );

        // Only the grader evaluates; development evidence is refused by
        // string and by digest.
        post(
            b.base(),
            &b.author,
            EVALUATIONS,
            &evaluation_body(id, 1, "qualification", 0.2, 0.9),
        )
        .await
        .refused(403, "missing_capability", None);
        let imposter = b
            .lab
            .token("imposter", &["procedure_evaluate"], vec![scope()])
            .await;
        post(
            b.base(),
            &imposter,
            EVALUATIONS,
            &evaluation_body(id, 1, "qualification", 0.2, 0.9),
        )
        .await
        .refused(403, "not_evaluator", None);
        let mut by_string = evaluation_body(id, 1, "qualification", 0.2, 0.9);
        by_string["evaluation"]["evidence_ref"] = json!(evidence.reference);
        assert_eq!(
            b.evaluate(&by_string).await["reason"],
            "development_evidence"
        );
        let mut by_digest = evaluation_body(id, 2, "qualification", 0.2, 0.9);
        by_digest["evaluation"]["evidence_ref"] =
            json!(format!("s3://copy/{}", evidence.sha256.to_uppercase()));
        assert_eq!(
            b.evaluate(&by_digest).await["reason"],
            "development_evidence"
        );

        // Not qualified yet: the baseline.
        let baseline = b.select(100_000).await;
        assert_eq!(baseline["type"], "baseline");
        assert_eq!(baseline["reason"], "no_qualified_compatible_procedure");
        let inspected = b.as_author(INSPECT_STRATEGY, &read_strategy_body(id)).await;
        assert_eq!(inspected.ok(200)["reason"], "not_qualified");

        let next = b.qualify(id, 3).await;
        let chosen = b.select(100_000).await;
        assert_eq!(
            (chosen["type"].clone(), chosen["procedure_id"].clone()),
            (json!("procedure"), json!(id))
        );
        assert_eq!(
            chosen["instructions"],
            receipt["proposal"]["proposal"]["instructions"]
        );
        assert_eq!(b.select(10).await["type"], "baseline");
        let read = b.as_author(READ_PROCEDURE, &read_procedure_body(id)).await;
        let standing = read.ok(200)["procedure"].clone();
        assert_eq!(standing["state"], "qualified");
        assert_eq!(standing["decisions"][0]["reason"], "qualified");
        assert!(standing["lower_bound"].as_f64().unwrap() > 0.05);
        // The strategy read is still the original receipt.
        let r = b.as_author(READ_STRATEGY, &read_strategy_body(id)).await;
        assert_eq!(r.ok(200)["receipt"], receipt);

        // A restart changes nothing.
        let Lab {
            server,
            token,
            context,
        } = b.lab;
        let (admin, seal) = (server.admin_token.clone(), server.seal.clone());
        let location = server.stop().await;
        let engine = praxis_store::open(&location.store).await.unwrap();
        let server = Server::serve(engine, location, admin, seal).await;
        let b = Bench {
            lab: Lab {
                server,
                token,
                context,
            },
            ..b
        };
        assert_eq!(b.select(100_000).await["procedure_id"], id);
        let again = b.as_author(STRATEGIES, &body).await;
        assert_eq!(again.body, created.body);

        // The improvement collapses: monitoring suspends it, and selection
        // falls back to the baseline.
        let mut i = next;
        loop {
            let r = b
                .evaluate(&evaluation_body(id, i, "monitoring", 0.9, 0.1))
                .await;
            i += 1;
            if r["procedure"]["state"] == "suspended" {
                let last = r["procedure"]["decisions"]
                    .as_array()
                    .unwrap()
                    .last()
                    .unwrap()
                    .clone();
                assert_eq!(
                    (last["rule"].clone(), last["reason"].clone()),
                    (json!("anytime_drift_v1"), json!("drift_detected"))
                );
                break;
            }
            assert!(i - next < 200, "never suspended");
        }
        assert_eq!(b.select(100_000).await["type"], "baseline");
        let inspected = b.as_author(INSPECT_STRATEGY, &read_strategy_body(id)).await;
        assert_eq!(inspected.ok(200)["reason"], "suspended");
    }
}

#[tokio::test]
async fn withdrawal_makes_a_selected_strategy_ineligible_at_once() {
    for backend in BACKENDS {
        let b = Bench::start(backend).await;
        let digest = b.lab.context["context"]["digest"]
            .as_str()
            .unwrap()
            .to_owned();
        let o = b.observation().await;
        let id = "receipt-recovery-v1";
        b.as_author(
            STRATEGIES,
            &strategy_body(id, &digest, std::slice::from_ref(&o)),
        )
        .await
        .ok(201);
        b.qualify(id, 1).await;
        assert_eq!(b.select(100_000).await["procedure_id"], id);
        let withdraw = withdraw_body("w-1", "dev-1", "e1", o["event_digest"].as_str().unwrap());
        b.lab.post(WITHDRAW, &withdraw).await.ok(201);
        assert_eq!(b.select(100_000).await["type"], "baseline");
        let inspected = b.as_author(INSPECT_STRATEGY, &read_strategy_body(id)).await;
        let body = inspected.ok(200);
        assert_eq!(
            (body["eligible"].clone(), body["reason"].clone()),
            (json!(false), json!("evidence_withdrawn"))
        );
        assert_eq!(body["withdrawn_observations"], json!([o]));
        let read = b.as_author(READ_PROCEDURE, &read_procedure_body(id)).await;
        assert_eq!(read.ok(200)["evidence_withdrawn"], true);
        // An ordinary proposal is unaffected and may still be selected.
        b.as_author(PROPOSALS, &proposal_body("plain"))
            .await
            .ok(201);
        b.qualify("plain", 1000).await;
        assert_eq!(b.select(100_000).await["procedure_id"], "plain");
        let report = b.lab.server.engine.verify().await.unwrap();
        assert!(report.is_clean(), "{:?}", report.problems);
    }
}

#[tokio::test]
async fn eight_concurrent_identical_evaluations_count_once() {
    for backend in BACKENDS {
        let b = Bench::start(backend).await;
        b.as_author(PROPOSALS, &proposal_body("proc-1"))
            .await
            .ok(201);
        let body = evaluation_body("proc-1", 1, "qualification", 0.3, 0.8);
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let (base, token, body) = (b.base().to_owned(), b.grader.clone(), body.clone());
            tasks.push(tokio::spawn(async move {
                post(&base, &token, EVALUATIONS, &body).await
            }));
        }
        let mut bodies = Vec::new();
        for t in tasks {
            let r = t.await.unwrap();
            assert_eq!(r.status, 200, "{r:?}");
            bodies.push(r.body);
        }
        assert!(bodies.windows(2).all(|w| w[0] == w[1]));
        let read = b
            .as_author(READ_PROCEDURE, &read_procedure_body("proc-1"))
            .await;
        let body = read.ok(200);
        assert_eq!(
            (
                body["procedure"]["trials"].clone(),
                body["evaluations"].clone()
            ),
            (json!(1), json!(1))
        );
        // The case with other content is a conflict.
        let changed = evaluation_body("proc-1", 1, "qualification", 0.3, 0.9);
        post(b.base(), &b.grader, EVALUATIONS, &changed)
            .await
            .refused(409, "idempotency_conflict", Some("/evaluation/case_id"));
    }
}

/// Issues a credential of `subject` in tenant `t2`, holding `capabilities`.
async fn foreign_token(server: &Server, subject: &str, capabilities: &[&str]) -> String {
    let (_, token) = praxis_server::admin::bootstrap_tenant(&*server.engine, "t2", "admin")
        .await
        .unwrap();
    let t2_admin = server.anonymous.with_token(token.render());
    t2_admin
        .issue_credential(&issue_request(subject, capabilities, vec![scope()]), None)
        .await
        .unwrap()
        .token
}

#[tokio::test]
async fn an_altered_procedure_or_strategy_fails_closed() {
    for backend in BACKENDS {
        let b = Bench::start(backend).await;
        let digest = b.lab.context["context"]["digest"]
            .as_str()
            .unwrap()
            .to_owned();
        let o = b.observation().await;
        let id = "receipt-recovery-v1";
        b.as_author(STRATEGIES, &strategy_body(id, &digest, &[o]))
            .await
            .ok(201);
        b.evaluate(&evaluation_body(id, 1, "qualification", 0.2, 0.9))
            .await;
        let store = b.lab.server.location.store.clone();
        // A stored evaluation's utility, edited behind the server's back.
        sql(
            backend,
            &store,
            "UPDATE procedure_evaluations SET submitted = replace(submitted, '0.9', '0.99')",
        )
        .await;
        for (path, body) in [
            (READ_PROCEDURE, read_procedure_body(id)),
            (READ_STRATEGY, read_strategy_body(id)),
        ] {
            let r = b.as_author(path, &body).await;
            assert_eq!(
                (r.status, r.code()),
                (500, "storage_inconsistency"),
                "{path}"
            );
        }
        let report = b.lab.server.engine.verify().await.unwrap();
        assert!(
            report
                .problems
                .iter()
                .any(|p| p.contains("procedure evaluation")),
            "{backend:?}: {:?}",
            report.problems
        );
        // A strategy's bound observation, edited: its export no longer
        // holds.
        sql(
            backend,
            &store,
            "UPDATE procedure_evaluations SET submitted = replace(submitted, '0.99', '0.9')",
        )
        .await;
        b.as_author(READ_STRATEGY, &read_strategy_body(id))
            .await
            .ok(200);
        sql(
            backend,
            &store,
            "UPDATE procedures SET strategy = replace(strategy, '\"failed\":1', '\"failed\":2')",
        )
        .await;
        let r = b.as_author(READ_STRATEGY, &read_strategy_body(id)).await;
        assert_eq!((r.status, r.code()), (500, "storage_inconsistency"));
    }
}
