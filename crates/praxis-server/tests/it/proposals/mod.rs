//! Proposals over real HTTP on both stores: review, approval into memory
//! and into a project skill, every refusal that applies nothing, duplicate
//! and racing approvals, withdrawal, sources and who may call what.

use std::path::Path;
use std::sync::Arc;

use praxis_testkit::{BACKENDS, Backend};
use serde_json::{Value, json};

use crate::learning::{Reply, get, post, scope, sha256_hex};
use crate::support::{Server, client_as, event_count};

mod refusals;
mod skills;

const PROPOSALS: &str = "/api/v1/proposals";
const SOURCES: &str = "/api/v1/proposals/sources";
const SETTINGS: &str = "/api/v1/proposals/settings";
/// The query of the example scope.
const SCOPE_QUERY: &str = "project_id=billing-service&agent_id=triage-bot&visibility=shared";

fn scoped(mut v: Value) -> Value {
    v["contract_version"] = json!(1);
    v["scope"] = serde_json::to_value(scope()).unwrap();
    v
}

/// A memory candidate for `key`, expecting `expected`, citing `sources`.
fn memory_candidate(key: &str, expected: Option<&str>, sources: &[Value]) -> Value {
    json!({
        "schema": "praxis.experience-proposal.v1",
        "summary": "Follow continuation cursors",
        "content": "Follow the next cursor before answering.",
        "conditions": ["A read returns a next cursor.", "The caller asked for everything."],
        "sources": sources,
        "destination": {"kind": "memory", "memory_key": key, "expected_revision": expected}
    })
}

/// A skill candidate for `name`, expecting `expected`.
fn skill_candidate(name: &str, expected: Option<&str>, body: &str) -> Value {
    json!({
        "schema": "praxis.experience-proposal.v1",
        "summary": "Follow continuation cursors",
        "content": format!("---\nname: {name}\ndescription: Follow cursors to the end.\n---\n{body}"),
        "conditions": ["A read returns a next cursor."],
        "sources": [],
        "destination": {"kind": "skill", "project": "billing-service",
            "path": format!(".agents/skills/{name}/SKILL.md"), "expected_sha256": expected}
    })
}

/// A server with the example project mapped to a temporary directory, a
/// proposer and an approver.
struct Desk {
    server: Server,
    root: tempfile::TempDir,
    proposer: String,
    approver: String,
}

impl Desk {
    async fn start(backend: Backend) -> Desk {
        Desk::start_with(backend, praxis_server::DEFAULT_MAX_OPEN_PROPOSALS).await
    }

    async fn start_with(backend: Backend, max_open: u64) -> Desk {
        let root = tempfile::tempdir().unwrap();
        let projects = praxis_server::projects::Projects::new([(
            "t1".to_owned(),
            "billing-service".to_owned(),
            root.path().to_owned(),
        )])
        .unwrap();
        let settings = praxis_server::Settings {
            projects: Arc::new(projects),
            max_open_proposals: max_open,
            ..praxis_server::Settings::default()
        };
        let server = Server::start_with(backend, settings).await;
        let caps = [
            "proposal_create",
            "memory_read",
            "memory_write",
            "experience_write",
        ];
        let (_, _, proposer) = client_as(&server, "proposer", &caps, vec![scope()]).await;
        let caps = ["proposal_approve", "memory_read"];
        let (_, _, approver) = client_as(&server, "approver", &caps, vec![scope()]).await;
        Desk {
            server,
            root,
            proposer,
            approver,
        }
    }

    fn base(&self) -> &str {
        &self.server.base
    }

    async fn propose(&self, candidate: Value) -> Reply {
        let body = scoped(json!({ "candidate": candidate }));
        post(self.base(), &self.proposer, PROPOSALS, &body).await
    }

    /// Proposes and returns the new proposal's id.
    async fn proposed(&self, candidate: Value) -> String {
        let r = self.propose(candidate).await;
        r.ok(201)["proposal"]["id"].as_str().unwrap().to_owned()
    }

    async fn review(&self, id: &str) -> Value {
        let path = format!("{PROPOSALS}/{id}/review");
        post(self.base(), &self.approver, &path, &scoped(json!({})))
            .await
            .ok(200)
            .clone()
    }

    async fn approve_with(&self, token: &str, id: &str, version: &Value, dest: &Value) -> Reply {
        let path = format!("{PROPOSALS}/{id}/approve");
        let body = scoped(json!({"version_hash": version, "destination_hash": dest}));
        post(self.base(), token, &path, &body).await
    }

    /// Reviews, then approves with the hashes the review showed.
    async fn approve(&self, id: &str) -> Reply {
        let r = self.review(id).await;
        let token = self.approver.clone();
        self.approve_with(&token, id, &r["version_hash"], &r["destination_hash"])
            .await
    }

    async fn state(&self, id: &str) -> String {
        let path = format!("{PROPOSALS}/{id}?{SCOPE_QUERY}");
        let r = get(self.base(), &self.approver, &path).await;
        r.ok(200)["proposal"]["state"].as_str().unwrap().to_owned()
    }

    async fn memory(&self, key: &str) -> Reply {
        let body = scoped(json!({ "key": key }));
        post(self.base(), &self.proposer, "/api/v1/memory/get", &body).await
    }

    async fn set_memory(&self, key: &str, body: &str, expected: Option<&str>) -> String {
        let req = scoped(json!({"key": key, "summary": "s", "body": body,
            "expected_revision": expected}));
        let r = post(self.base(), &self.proposer, "/api/v1/memory/set", &req).await;
        assert!(r.status == 200 || r.status == 201, "{r:?}");
        r.json["memory"]["revision"].as_str().unwrap().to_owned()
    }

    async fn source(&self, kind: &str, reference: &str) -> Value {
        let body = scoped(json!({"kind": kind, "ref": reference}));
        post(self.base(), &self.proposer, SOURCES, &body)
            .await
            .ok(200)
            .clone()
    }

    fn file(&self, rel: &str) -> std::path::PathBuf {
        self.root.path().join(rel)
    }

    async fn clean(&self) {
        let report = self.server.engine.verify().await.unwrap();
        assert!(report.is_clean(), "{:?}", report.problems);
    }
}

fn write_file(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[tokio::test]
async fn a_reviewed_proposal_is_promoted_into_memory_once() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        write_file(&d.file("docs/paging.md"), "Cursors continue a read.\n");
        let file = d.source("file", "billing-service:docs/paging.md").await;
        assert_eq!(file["sha256"], sha256_hex(b"Cursors continue a read.\n"));
        let cited = d
            .set_memory("paging-notes", "Reads stop early.", None)
            .await;
        let item = d
            .source("memory_revision", &format!("paging-notes {cited}"))
            .await;
        assert!(
            item.get("body").is_none(),
            "a source never exports its body"
        );
        let id = d
            .proposed(memory_candidate("follow-cursors", None, &[file, item]))
            .await;
        assert_eq!(d.state(&id).await, "open");
        let review = d.review(&id).await;
        assert_eq!(
            review["rendered"],
            "Follow the next cursor before answering.\n\nApplies when:\n\
             - A read returns a next cursor.\n- The caller asked for everything.\n"
        );
        assert_eq!(review["sources"][0]["status"], "fresh");
        assert_eq!(review["sources"][1]["status"], "fresh");
        assert!(review["destination"]["current"].is_null());
        assert_eq!(review["destination"]["as_expected"], true);
        let before = event_count(&d.server).await;
        let approved = d.approve(&id).await;
        let receipt = approved.ok(200)["receipt"].clone();
        assert_eq!(approved.json["applied_now"], true);
        assert_eq!(receipt["proposal_id"], id.as_str());
        assert_eq!(receipt["version_hash"], review["version_hash"]);
        assert_eq!(receipt["approval"]["approver"], "approver");
        assert_eq!(receipt["promoted"]["kind"], "memory");
        // Approval, memory write, receipt and note: one transaction.
        assert_eq!(event_count(&d.server).await - before, 4);
        let memory = d.memory("follow-cursors").await;
        let item = &memory.ok(200)["memory"];
        assert_eq!(item["body"], review["rendered"]);
        assert_eq!(item["tags"], json!(["experience"]));
        assert_eq!(item["priority"], "normal");
        assert_eq!(item["revision"], receipt["promoted"]["revision"]);
        assert_eq!(d.state(&id).await, "promoted");
        // A duplicate approval answers with the saved receipt, writing nothing.
        let again = d
            .approve_with(
                &d.approver,
                &id,
                &review["version_hash"],
                &review["destination_hash"],
            )
            .await;
        assert_eq!(again.ok(200)["receipt"], receipt);
        assert_eq!(again.json["applied_now"], false);
        assert_eq!(event_count(&d.server).await - before, 4);
        d.clean().await;
    }
}

#[tokio::test]
async fn racing_approvals_have_exactly_one_effect() {
    for backend in BACKENDS {
        let d = Arc::new(Desk::start(backend).await);
        let id = d.proposed(memory_candidate("raced", None, &[])).await;
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
            r.ok(200);
            applied += usize::from(r.json["applied_now"] == true);
        }
        assert_eq!(applied, 1);
        assert_eq!(event_count(&d.server).await - before, 4);
        let history = post(
            d.base(),
            &d.proposer,
            "/api/v1/memory/history",
            &scoped(json!({"key": "raced"})),
        )
        .await;
        assert_eq!(history.ok(200)["changes"].as_array().unwrap().len(), 1);
        d.clean().await;
    }
}

#[tokio::test]
async fn proposals_are_listed_withdrawn_and_scoped() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let a = d.proposed(memory_candidate("a", None, &[])).await;
        let b = d.proposed(memory_candidate("b", None, &[])).await;
        let path = format!("{PROPOSALS}/{b}/withdraw");
        let body = scoped(json!({"reason": "Superseded by a narrower proposal."}));
        let w = post(d.base(), &d.proposer, &path, &body).await;
        assert_eq!(w.ok(200)["proposal"]["state"], "withdrawn");
        post(d.base(), &d.proposer, &path, &body)
            .await
            .refused(409, "proposal_not_open", None);
        let r = d.review(&b).await;
        d.approve_with(&d.approver, &b, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(409, "proposal_not_open", None);
        let open = get(
            d.base(),
            &d.approver,
            &format!("{PROPOSALS}?{SCOPE_QUERY}&state=open"),
        )
        .await;
        let ids: Vec<&str> = open.ok(200)["proposals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [a.as_str()]);
        let all = get(d.base(), &d.approver, &format!("{PROPOSALS}?{SCOPE_QUERY}")).await;
        assert_eq!(all.ok(200)["proposals"].as_array().unwrap().len(), 2);
        // Another tenant never sees them.
        let (_, admin2) = praxis_server::admin::bootstrap_tenant(&*d.server.engine, "t2", "admin")
            .await
            .unwrap();
        let foreign = d
            .server
            .anonymous
            .with_token(admin2.render())
            .issue_credential(
                &crate::support::issue_request(
                    "approver",
                    &["proposal_approve", "proposal_create"],
                    vec![scope()],
                ),
                None,
            )
            .await
            .unwrap()
            .token;
        get(
            d.base(),
            &foreign,
            &format!("{PROPOSALS}/{a}?{SCOPE_QUERY}"),
        )
        .await
        .refused(404, "proposal_not_found", None);
        let path = format!("{PROPOSALS}/{a}/review");
        post(d.base(), &foreign, &path, &scoped(json!({})))
            .await
            .refused(404, "proposal_not_found", None);
        d.clean().await;
    }
}

#[tokio::test]
async fn sources_of_every_kind_hash_their_documented_fields() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        // An attempt-ledger case.
        let mut observe = serde_json::to_value(praxis_api::examples::observe()).unwrap();
        observe["scope"] = serde_json::to_value(scope()).unwrap();
        post(d.base(), &d.proposer, "/api/v1/attempts", &observe)
            .await
            .ok(201);
        let attempt = d
            .source("attempt", "host-17 restart-service incident-4711")
            .await;
        assert_eq!(attempt["kind"], "attempt");
        assert_eq!(attempt["sha256"].as_str().unwrap().len(), 64);
        // The same object hashes the same until it changes.
        assert_eq!(
            d.source("attempt", "host-17 restart-service incident-4711")
                .await,
            attempt
        );
        let missing = post(
            d.base(),
            &d.proposer,
            SOURCES,
            &scoped(json!({"kind": "attempt", "ref": "host-17 restart-service nope"})),
        )
        .await;
        missing.refused(404, "source_not_found", Some("/ref"));
        // A memory revision stops being current once the item moves on.
        let r1 = d.set_memory("k", "one", None).await;
        let pinned = d.source("memory_revision", &format!("k {r1}")).await;
        let id = d
            .proposed(memory_candidate("dest", None, &[pinned, attempt]))
            .await;
        d.set_memory("k", "two", Some(&r1)).await;
        let review = d.review(&id).await;
        assert_eq!(review["sources"][0]["status"], "changed");
        assert_eq!(review["sources"][1]["status"], "fresh");
        // A malformed ref, a foreign project, a link on a file's way.
        post(
            d.base(),
            &d.proposer,
            SOURCES,
            &scoped(json!({"kind": "attempt", "ref": "x"})),
        )
        .await
        .refused(422, "invalid_field", Some("/ref"));
        let foreign = scoped(json!({"kind": "file", "ref": "other:docs/a.md"}));
        post(d.base(), &d.proposer, SOURCES, &foreign)
            .await
            .refused(422, "unknown_reference", Some("/ref"));
        std::os::unix::fs::symlink("/etc", d.file("etc")).unwrap();
        let linked = scoped(json!({"kind": "file", "ref": "billing-service:etc/hostname"}));
        let r = post(d.base(), &d.proposer, SOURCES, &linked).await;
        assert_eq!((r.status, r.code()), (422, "invalid_path"), "{r:?}");
        d.clean().await;
    }
}

#[tokio::test]
async fn self_approval_needs_the_scope_setting() {
    for backend in BACKENDS {
        let d = Desk::start(backend).await;
        let both = ["proposal_create", "proposal_approve", "policy_admin"];
        let (_, _, solo) = client_as(&d.server, "solo", &both, vec![scope()]).await;
        let body = scoped(json!({"candidate": memory_candidate("mine", None, &[])}));
        let made = post(d.base(), &solo, PROPOSALS, &body).await;
        let id = made.ok(201)["proposal"]["id"].as_str().unwrap().to_owned();
        let r = d.review(&id).await;
        d.approve_with(&solo, &id, &r["version_hash"], &r["destination_hash"])
            .await
            .refused(403, "self_approval_refused", None);
        assert_eq!(d.state(&id).await, "open");
        let on = scoped(json!({"self_approval": true}));
        let set = post(d.base(), &solo, SETTINGS, &on).await;
        assert_eq!(set.ok(200)["self_approval"], true);
        let approved = d
            .approve_with(&solo, &id, &r["version_hash"], &r["destination_hash"])
            .await;
        assert_eq!(approved.ok(200)["receipt"]["approval"]["approver"], "solo");
        d.clean().await;
    }
}
