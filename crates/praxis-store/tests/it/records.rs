//! Experience records' storage: intake, screening, review, lifecycle, the
//! skill registry, search and import, identically on both engines.

use praxis_domain::Refusal;
use praxis_store::RecordCommand;
use praxis_store::SkillCommand;
use std::sync::Arc;

use praxis_domain::auth::{Namespace, Scope, Visibility};
use praxis_domain::ledger::Actor;
use praxis_domain::records::KeptRecord;
use praxis_domain::records::lifecycle::{self, Decision, ReviewMode, Source};
use praxis_domain::records::state::{Lifecycle, Platform, VerificationLevel};
use praxis_domain::skills::SkillRelease;
use praxis_store::records::{RecordFilter, RecordWrite, Review, SearchAfter, Submission, flags};
use praxis_store::skills::{SkillWrite, registry_of};
use praxis_store::{Applied, Command, Engine, StoreError, Write, WriteOutcome};
use praxis_testkit::BACKENDS;
use praxis_testkit::records::sample_record;
use serde_json::{Value, json};

use crate::contract::{engine, tenant};

pub(crate) fn namespace(agent: &str) -> Namespace {
    Scope {
        project_id: "proj".into(),
        mission_id: None,
        agent_id: agent.into(),
        visibility: Visibility::Shared,
    }
    .namespace("alice")
}

fn actor(subject: &str) -> Actor {
    Actor {
        credential_id: format!("cred-{subject}"),
        subject: subject.into(),
    }
}

pub(crate) async fn run(engine: &Arc<dyn Engine>, command: Command) -> Result<Applied, StoreError> {
    match engine
        .execute(Write::new("t", actor("alice"), command))
        .await?
    {
        WriteOutcome::Committed { applied, .. } => Ok(*applied),
        WriteOutcome::Replayed { .. } => panic!("no idempotency key was given"),
    }
}

fn source(key: &str) -> Source {
    Source::Key { key: key.into() }
}

pub(crate) async fn submit(engine: &Arc<dyn Engine>, key: &str, document: Value) -> RecordWrite {
    let command = Command::Records(RecordCommand::Submit(Box::new(Submission {
        namespace: namespace("a"),
        source: source(key),
        author: "alice".into(),
        document,
    })));
    let applied = run(engine, command).await.expect("submission is kept");
    applied.into_records().remove(0)
}

pub(crate) async fn review(
    engine: &Arc<dyn Engine>,
    id: &str,
    decision: Decision,
    notes: Option<&str>,
    expected: Option<u64>,
) -> Result<Vec<KeptRecord>, StoreError> {
    let command = Command::Records(RecordCommand::Review(Box::new(Review {
        namespace: namespace("a"),
        experience_id: id.into(),
        decision,
        mode: ReviewMode::Human,
        reviewer: "bob".into(),
        notes: notes.map(str::to_owned),
        expected_revision: expected,
    })));
    let applied = run(engine, command).await?;
    match applied.into_records().remove(0) {
        RecordWrite::Revised(rows) => Ok(rows),
        other => panic!("a review revises: {other:?}"),
    }
}

pub(crate) fn revised(write: RecordWrite) -> KeptRecord {
    match write {
        RecordWrite::Revised(mut rows) => rows.remove(0),
        other => panic!("expected a new revision, got {other:?}"),
    }
}

pub(crate) fn id(slug: &str) -> String {
    format!("exp-{slug}-20261120")
}

#[tokio::test]
async fn a_passing_submission_becomes_a_candidate_bound_to_its_author() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let row = revised(submit(&engine, "k1", sample_record("root-ci")).await);
        assert_eq!(row.revision, 1, "{backend:?}");
        assert_eq!(row.lifecycle.as_str(), "candidate");
        assert_eq!(row.review_status.as_str(), "pending");
        assert_eq!(row.document["provenance"]["author_ref"], "alice");
        assert_eq!(row.document["screening"]["method"], lifecycle::GATE_ID);
        assert_eq!(row.sha256, lifecycle::document_sha256(&row.document));
        let stored = engine
            .records()
            .get("t", &namespace("a"), &id("root-ci"))
            .await
            .unwrap()
            .expect("kept");
        assert_eq!(stored, row);
        // Other namespaces never see it.
        assert!(
            engine
                .records()
                .get("t", &namespace("b"), &id("root-ci"))
                .await
                .unwrap()
                .is_none()
        );
    }
}

#[tokio::test]
async fn edits_from_the_same_source_reconcile_the_same_record() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        revised(submit(&engine, "k1", sample_record("root-ci")).await);
        // The same content again changes nothing.
        match submit(&engine, "k1", sample_record("root-ci")).await {
            RecordWrite::Unchanged(row) => assert_eq!(row.revision, 1),
            other => panic!("{backend:?}: {other:?}"),
        }
        let mut edited = sample_record("root-ci");
        edited["title"] = json!("Throwaway PostgreSQL cluster refused root on the CI runner");
        let row = revised(submit(&engine, "k1", edited).await);
        assert_eq!(row.revision, 2);
        // A source cannot switch to another id, and an id cannot be taken
        // over by another source.
        let moved = run(
            &engine,
            Command::Records(RecordCommand::Submit(Box::new(Submission {
                namespace: namespace("a"),
                source: source("k1"),
                author: "alice".into(),
                document: sample_record("other-case"),
            }))),
        )
        .await;
        assert!(
            matches!(moved, Err(StoreError::Refused(Refusal::SourceConflict(_)))),
            "{moved:?}"
        );
        let taken = run(
            &engine,
            Command::Records(RecordCommand::Submit(Box::new(Submission {
                namespace: namespace("a"),
                source: source("k2"),
                author: "alice".into(),
                document: sample_record("root-ci"),
            }))),
        )
        .await;
        assert!(
            matches!(taken, Err(StoreError::Refused(Refusal::SourceConflict(_)))),
            "{taken:?}"
        );
        let history = engine
            .records()
            .history("t", &namespace("a"), &id("root-ci"), 0, 100)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(history.len(), 2);
    }
}

#[tokio::test]
async fn a_failing_submission_is_kept_as_a_rejection_and_never_overwrites() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        revised(submit(&engine, "k1", sample_record("root-ci")).await);
        let mut bad = sample_record("root-ci");
        bad["attempts"][1]["sequence"] = json!(5);
        bad["verification"]["checks"][0]["evidence_refs"] = json!(["ev-missing"]);
        let findings = match submit(&engine, "k1", bad.clone()).await {
            RecordWrite::Rejected(findings) => findings,
            other => panic!("{backend:?}: {other:?}"),
        };
        let rules: Vec<&str> = findings.iter().map(|f| f.rule.as_str()).collect();
        assert!(rules.contains(&"gate.attempt_sequence"), "{rules:?}");
        assert!(rules.contains(&"gate.evidence_ref"), "{rules:?}");
        let kept = engine
            .records()
            .get("t", &namespace("a"), &id("root-ci"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(kept.revision, 1, "the last passing revision stays");
        let history = engine
            .records()
            .history("t", &namespace("a"), &id("root-ci"), 0, 100)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!(history[1].kind, lifecycle::REJECTED);
        let rejection: lifecycle::Rejection =
            serde_json::from_value(history[1].payload.clone()).unwrap();
        assert_eq!(rejection.sha256, lifecycle::document_sha256(&bad));
        assert_eq!(rejection.findings, findings);
        assert!(
            !history[1].payload.to_string().contains("Throwaway"),
            "a rejection keeps findings and a digest, never the text"
        );
    }
}

#[tokio::test]
async fn human_review_approves_or_requests_changes() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        revised(submit(&engine, "k1", sample_record("root-ci")).await);
        let stale = review(&engine, &id("root-ci"), Decision::Approve, None, Some(7)).await;
        assert!(
            matches!(
                stale,
                Err(StoreError::Refused(Refusal::RevisionConflict {
                    expected: 7,
                    current: 1
                }))
            ),
            "{backend:?}: {stale:?}"
        );
        let missing_notes = review(
            &engine,
            &id("root-ci"),
            Decision::RequestChanges,
            None,
            None,
        )
        .await;
        assert!(
            matches!(
                missing_notes,
                Err(StoreError::Refused(Refusal::RecordInvalid(_)))
            ),
            "{missing_notes:?}"
        );
        let rows = review(
            &engine,
            &id("root-ci"),
            Decision::RequestChanges,
            Some("Name the distribution version."),
            Some(1),
        )
        .await
        .unwrap();
        assert_eq!(rows[0].lifecycle.as_str(), "candidate");
        assert_eq!(rows[0].review_status.as_str(), "changes-requested");
        assert_eq!(rows[0].document["review"]["reviewer"], "bob");
        let rows = review(&engine, &id("root-ci"), Decision::Approve, None, Some(2))
            .await
            .unwrap();
        assert_eq!(rows[0].lifecycle.as_str(), "reviewed");
        assert_eq!(rows[0].review_mode.map(ReviewMode::as_str), Some("human"));
        assert_eq!(rows[0].revision, 3);
        // Verification level is the submitter's claim; review leaves it.
        assert_eq!(rows[0].verification_level.as_str(), "locally-verified");
        let again = review(&engine, &id("root-ci"), Decision::Approve, None, None).await;
        assert!(
            matches!(
                again,
                Err(StoreError::Refused(Refusal::InvalidTransition(_)))
            ),
            "{again:?}"
        );
        // A reviewed record is no longer editable by its source.
        let edit = run(
            &engine,
            Command::Records(RecordCommand::Submit(Box::new(Submission {
                namespace: namespace("a"),
                source: source("k1"),
                author: "alice".into(),
                document: sample_record("root-ci"),
            }))),
        )
        .await;
        assert!(
            matches!(
                edit,
                Err(StoreError::Refused(Refusal::InvalidTransition(_)))
            ),
            "{edit:?}"
        );
    }
}

#[tokio::test]
async fn automated_policy_approval_is_reported_as_automated() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        run(
            &engine,
            Command::Records(RecordCommand::SetAutomatedApproval {
                namespace: namespace("a"),
                on: true,
            }),
        )
        .await
        .unwrap();
        assert!(
            engine
                .records()
                .automated_approval("t", &namespace("a"))
                .await
                .unwrap()
        );
        let rows = match submit(&engine, "k1", sample_record("root-ci")).await {
            RecordWrite::Revised(rows) => rows,
            other => panic!("{backend:?}: {other:?}"),
        };
        let row = &rows[0];
        assert_eq!(row.revision, 2, "submission, then approval");
        assert_eq!(row.lifecycle.as_str(), "reviewed");
        assert_eq!(
            row.review_mode.map(ReviewMode::as_str),
            Some("automated-policy")
        );
        let doc = &row.document;
        assert_eq!(doc["review"]["reviewer"], lifecycle::GATE_ID);
        assert_eq!(
            doc["review"]["reviewed_at"],
            doc["screening"]["screened_at"]
        );
        assert_ne!(doc["review"]["mode"], "human");
    }
}

#[tokio::test]
async fn supersession_and_withdrawal_keep_identity_and_history() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        revised(submit(&engine, "old", sample_record("root-ci")).await);
        let mut newer = sample_record("root-ci-v2");
        newer["relations"]["supersedes"] = json!([id("root-ci")]);
        revised(submit(&engine, "new", newer).await);
        // The superseded record must be reviewed first.
        let early = review(&engine, &id("root-ci-v2"), Decision::Approve, None, None).await;
        assert!(
            matches!(
                early,
                Err(StoreError::Refused(Refusal::InvalidTransition(_)))
            ),
            "{backend:?}: {early:?}"
        );
        review(&engine, &id("root-ci"), Decision::Approve, None, None)
            .await
            .unwrap();
        let rows = review(&engine, &id("root-ci-v2"), Decision::Approve, None, None)
            .await
            .unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1].experience_id, id("root-ci"));
        assert_eq!(rows[1].lifecycle.as_str(), "superseded");
        assert_eq!(
            rows[1].superseded_by.as_deref(),
            Some(id("root-ci-v2").as_str())
        );
        let withdraw = |rid: String, reason: &str| {
            Command::Records(RecordCommand::Withdraw {
                namespace: namespace("a"),
                experience_id: rid,
                reason: reason.into(),
                expected_revision: None,
            })
        };
        let refused = run(&engine, withdraw(id("root-ci"), "obsolete")).await;
        assert!(
            matches!(
                refused,
                Err(StoreError::Refused(Refusal::InvalidTransition(_)))
            ),
            "{refused:?}"
        );
        let applied = run(&engine, withdraw(id("root-ci-v2"), "the fix was unsafe"))
            .await
            .unwrap();
        let row = match &applied.records()[0] {
            RecordWrite::Revised(rows) => rows[0].clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(row.lifecycle.as_str(), "withdrawn");
        assert_eq!(row.withdrawal_reason.as_deref(), Some("the fix was unsafe"));
        let tombstone = engine
            .records()
            .get("t", &namespace("a"), &id("root-ci-v2"))
            .await
            .unwrap()
            .expect("a withdrawn record keeps its identity");
        assert_eq!(tombstone.lifecycle.as_str(), "withdrawn");
        let history = engine
            .records()
            .history("t", &namespace("a"), &id("root-ci-v2"), 0, 100)
            .await
            .unwrap()
            .unwrap();
        let changes: Vec<String> = history
            .iter()
            .map(|e| e.payload["change"].as_str().unwrap_or_default().to_owned())
            .collect();
        assert_eq!(changes, ["submitted", "approved", "withdrawn"]);
    }
}

fn release(version: &str, sha: char) -> SkillRelease {
    SkillRelease {
        name: "ci-root-database-cluster".into(),
        version: version.into(),
        sha256: sha.to_string().repeat(64),
        size: 2048,
        summary: "Start a throwaway database cluster as an unprivileged user.".into(),
        provenance: json!({"kind": "maintainer-authored"}),
    }
}

#[tokio::test]
async fn skill_releases_are_immutable_and_withdrawal_flags_records() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let publish = |r: SkillRelease| {
            Command::Skills(SkillCommand::Publish {
                namespace: namespace("a"),
                release: r,
            })
        };
        let first = run(&engine, publish(release("1.0.0", 'a'))).await.unwrap();
        assert!(
            matches!(first.skill(), Some(SkillWrite::Changed(_))),
            "{backend:?}"
        );
        let again = run(&engine, publish(release("1.0.0", 'a'))).await.unwrap();
        assert!(matches!(again.skill(), Some(SkillWrite::Unchanged(_))));
        let changed = run(&engine, publish(release("1.0.0", 'b'))).await;
        assert!(
            matches!(changed, Err(StoreError::Refused(Refusal::SkillConflict(_)))),
            "{changed:?}"
        );

        let mut related = sample_record("root-ci");
        related["relations"]["related_skills"] = json!([{
            "name": "ci-root-database-cluster", "version": "1.0.0", "sha256": "b".repeat(64)
        }]);
        match submit(&engine, "k1", related.clone()).await {
            RecordWrite::Rejected(f) => assert_eq!(f[0].rule, "repo.unknown_skill"),
            other => panic!("{other:?}"),
        }
        related["relations"]["related_skills"][0]["sha256"] = json!("a".repeat(64));
        let row = revised(submit(&engine, "k1", related).await);
        let skills = engine.skills().list("t", &namespace("a")).await.unwrap();
        assert!(flags(&row, &registry_of(&skills)).is_empty());
        run(
            &engine,
            Command::Skills(SkillCommand::Withdraw {
                namespace: namespace("a"),
                name: "ci-root-database-cluster".into(),
                version: "1.0.0".into(),
                reason: "unsafe step".into(),
            }),
        )
        .await
        .unwrap();
        let skills = engine.skills().list("t", &namespace("a")).await.unwrap();
        assert_eq!(skills[0].withdrawal.as_ref().unwrap().reason, "unsafe step");
        let flagged = flags(&row, &registry_of(&skills));
        assert_eq!(flagged[0].rule, "repo.withdrawn_skill");
        // The release itself is still there, with its digest.
        assert_eq!(skills[0].release, release("1.0.0", 'a'));
    }
}

#[tokio::test]
async fn search_filters_by_fields_and_full_text_and_pages() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        for (i, slug) in ["alpha", "bravo", "charlie", "delta"].iter().enumerate() {
            let mut doc = sample_record(slug);
            if i % 2 == 1 {
                doc["context"]["platform"] = json!("windows");
                doc["symptom"]["signals"] = json!(["The junction target volume was full"]);
            }
            revised(submit(&engine, slug, doc).await);
        }
        review(&engine, &id("alpha"), Decision::Approve, None, None)
            .await
            .unwrap();
        let search = |filter: RecordFilter, after: &str, limit: usize| {
            let engine = engine.clone();
            let after = SearchAfter {
                score: None,
                experience_id: after.to_owned(),
            };
            async move {
                engine
                    .records()
                    .search("t", &namespace("a"), filter, &after, limit)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|h| h.record.experience_id)
                    .collect::<Vec<_>>()
            }
        };
        let all = search(RecordFilter::default(), "", 10).await;
        assert_eq!(
            all,
            [id("alpha"), id("bravo"), id("charlie"), id("delta")],
            "{backend:?}"
        );
        let page = search(RecordFilter::default(), &id("bravo"), 1).await;
        assert_eq!(page, [id("charlie")]);
        let windows = RecordFilter {
            platform: Some(Platform::Windows),
            ..RecordFilter::default()
        };
        assert_eq!(search(windows, "", 10).await, [id("bravo"), id("delta")]);
        let reviewed = RecordFilter {
            lifecycle: Some(Lifecycle::Reviewed),
            ..RecordFilter::default()
        };
        assert_eq!(search(reviewed, "", 10).await, [id("alpha")]);
        let text = RecordFilter {
            text: Some("Junction VOLUME".into()),
            ..RecordFilter::default()
        };
        assert_eq!(search(text, "", 10).await, [id("bravo"), id("delta")]);
        // FTS operators in user input are plain words.
        let hostile = RecordFilter {
            text: Some("\"junction OR NEAR(".into()),
            ..RecordFilter::default()
        };
        assert!(search(hostile, "", 10).await.is_empty());
        let level = RecordFilter {
            verification_level: Some(VerificationLevel::IndependentlyReproduced),
            ..RecordFilter::default()
        };
        assert!(search(level, "", 10).await.is_empty());
    }
}

#[tokio::test]
async fn import_loads_published_records_all_or_nothing() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let mut reviewed = sample_record("root-ci");
        reviewed["lifecycle"]["status"] = json!("reviewed");
        reviewed["lifecycle"]["updated_at"] = json!("2026-11-20T11:00:00Z");
        reviewed["review"] = json!({
            "status": "approved", "mode": "human", "reviewer": "bob",
            "reviewed_at": "2026-11-20T11:00:00Z"
        });
        let mut relating = sample_record("root-ci-follow-up");
        relating["relations"]["related_experiences"] = json!([id("root-ci")]);
        let import = |docs: Vec<Value>| {
            Command::Records(RecordCommand::Import {
                namespace: namespace("a"),
                documents: docs,
                skills: Vec::new(),
            })
        };
        let mut broken = sample_record("broken");
        broken["attempts"] = json!([]);
        let refused = run(&engine, import(vec![reviewed.clone(), broken])).await;
        assert!(
            matches!(refused, Err(StoreError::Refused(Refusal::RecordInvalid(_)))),
            "{backend:?}: {refused:?}"
        );
        assert!(
            engine
                .records()
                .get("t", &namespace("a"), &id("root-ci"))
                .await
                .unwrap()
                .is_none(),
            "nothing of a refused import is kept"
        );
        let applied = run(&engine, import(vec![relating.clone(), reviewed.clone()]))
            .await
            .unwrap();
        assert_eq!(applied.records().len(), 2);
        let kept = engine
            .records()
            .get("t", &namespace("a"), &id("root-ci"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(kept.document, reviewed, "imported as published");
        let again = run(&engine, import(vec![reviewed])).await.unwrap();
        assert!(matches!(again.records()[0], RecordWrite::Unchanged(_)));
    }
}

#[tokio::test]
async fn verify_rebuilds_record_projections_and_finds_tampering() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        run(
            &engine,
            Command::Skills(SkillCommand::Publish {
                namespace: namespace("a"),
                release: release("1.0.0", 'a'),
            }),
        )
        .await
        .unwrap();
        run(
            &engine,
            Command::Records(RecordCommand::SetAutomatedApproval {
                namespace: namespace("a"),
                on: true,
            }),
        )
        .await
        .unwrap();
        submit(&engine, "k1", sample_record("root-ci")).await;
        let clean = engine.verify().await.unwrap();
        assert!(clean.is_clean(), "{backend:?}: {:?}", clean.problems);
        crate::tamper::sql(
            backend,
            &loc.store,
            "UPDATE records SET lifecycle = 'withdrawn'; \
             UPDATE skill_releases SET withdrawal_reason = 'forged', withdrawn_at = 'x'",
        )
        .await;
        let report = engine.verify().await.unwrap();
        assert_eq!(
            report.problems.len(),
            2,
            "{backend:?}: {:?}",
            report.problems
        );
        assert!(
            report.problems[0].contains("differs from its revisions"),
            "{:?}",
            report.problems
        );
        assert!(
            report.problems[1].contains("skill release"),
            "{:?}",
            report.problems
        );
        // A changed document no longer matches its digest: reads fail closed.
        crate::tamper::sql(
            backend,
            &loc.store,
            "UPDATE records SET document = replace(document, 'Throwaway', 'Harmless')",
        )
        .await;
        let err = engine
            .records()
            .get("t", &namespace("a"), &id("root-ci"))
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Inconsistent(_)),
            "{backend:?}: {err}"
        );
        // Verification reports that row and goes on rather than stopping.
        let report = engine.verify().await.unwrap();
        assert!(
            report
                .problems
                .iter()
                .any(|p| p.contains("does not match its digest")),
            "{backend:?}: {:?}",
            report.problems
        );
    }
}

/// A trust column the protocol does not name fails closed on both engines:
/// reads are an inconsistency, and `verify` reports the row and goes on.
#[tokio::test]
async fn an_undecodable_trust_column_fails_closed_on_both_engines() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        submit(&engine, "k1", sample_record("root-ci")).await;
        submit(&engine, "k2", sample_record("other-case")).await;
        crate::tamper::sql(
            backend,
            &loc.store,
            &format!(
                "UPDATE records SET platform = 'amiga' WHERE experience_id = '{}'",
                id("root-ci")
            ),
        )
        .await;
        let err = engine
            .records()
            .get("t", &namespace("a"), &id("root-ci"))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, StoreError::Inconsistent(m) if m.contains("platform")),
            "{backend:?}: {err}"
        );
        let other = engine
            .records()
            .get("t", &namespace("a"), &id("other-case"))
            .await
            .unwrap();
        assert!(other.is_some(), "{backend:?}: the untouched record reads");
        let report = engine.verify().await.unwrap();
        assert_eq!(
            report.problems,
            [format!(
                "tenant \"t\": record in {:?}: storage inconsistency: record {} holds an invalid platform",
                namespace("a").as_str(),
                id("root-ci")
            )],
            "{backend:?}"
        );
    }
}

async fn submit_as(
    engine: &Arc<dyn Engine>,
    author: &str,
    source: Source,
    document: Value,
) -> Result<Applied, StoreError> {
    run(
        engine,
        Command::Records(RecordCommand::Submit(Box::new(Submission {
            namespace: namespace("a"),
            source,
            author: author.into(),
            document,
        }))),
    )
    .await
}

#[tokio::test]
async fn authority_over_a_record_stays_with_its_author_and_the_namespace() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        let issue = || Source::Issue {
            repository: "Acme/Runbooks".into(),
            number: 12,
        };
        // An issue source binds provenance.source_issue, and the protocol
        // wants a github:<login> author for issue intake.
        let applied = submit_as(&engine, "github:alice", issue(), sample_record("root-ci"))
            .await
            .unwrap();
        let row = revised(applied.into_records().into_iter().next().unwrap());
        assert_eq!(
            row.document["provenance"]["source_issue"],
            json!({"provider": "github", "repository": "Acme/Runbooks", "issue_number": 12,
                   "url": "https://github.com/Acme/Runbooks/issues/12"}),
            "{backend:?}"
        );
        // Nobody else can revise it through the same issue.
        let mut edit = sample_record("root-ci");
        edit["title"] = json!("A takeover attempt through the same issue number");
        let takeover = submit_as(&engine, "github:mallory", issue(), edit).await;
        assert!(
            matches!(
                takeover,
                Err(StoreError::Refused(Refusal::SourceConflict(_)))
            ),
            "{takeover:?}"
        );
        // A plain subject filing an issue gets the gate's author rule.
        match submit_as(
            &engine,
            "carol",
            Source::Issue {
                repository: "acme/x".into(),
                number: 1,
            },
            sample_record("other-case"),
        )
        .await
        .unwrap()
        .into_records()
        .remove(0)
        {
            RecordWrite::Rejected(f) => {
                assert!(f.iter().any(|f| f.rule == "gate.author_ref"), "{f:?}");
            }
            other => panic!("{other:?}"),
        }
        // Client keys are scoped by subject without ambiguity, even when a
        // subject contains ':'.
        let one = Source::Key { key: "b:c".into() }.key("a");
        let two = Source::Key { key: "c".into() }.key("a:b");
        assert_ne!(one, two);

        // The submitter never reviews their own record.
        let own = run(
            &engine,
            Command::Records(RecordCommand::Review(Box::new(Review {
                namespace: namespace("a"),
                experience_id: id("root-ci"),
                decision: Decision::Approve,
                mode: ReviewMode::Human,
                reviewer: "github:alice".into(),
                notes: None,
                expected_revision: None,
            }))),
        )
        .await;
        assert!(
            matches!(own, Err(StoreError::Refused(Refusal::SelfReview))),
            "{own:?}"
        );
        // Automated-policy review is the namespace's setting, not the caller's.
        let automated = run(
            &engine,
            Command::Records(RecordCommand::Review(Box::new(Review {
                namespace: namespace("a"),
                experience_id: id("root-ci"),
                decision: Decision::Approve,
                mode: ReviewMode::AutomatedPolicy,
                reviewer: "bob".into(),
                notes: None,
                expected_revision: None,
            }))),
        )
        .await;
        assert!(
            matches!(
                automated,
                Err(StoreError::Refused(Refusal::InvalidTransition(_)))
            ),
            "{automated:?}"
        );
    }
}

#[tokio::test]
async fn an_import_commits_its_skills_and_records_together_or_not_at_all() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        tenant(&*engine, "t").await;
        run(
            &engine,
            Command::Skills(SkillCommand::Publish {
                namespace: namespace("a"),
                release: release("1.0.0", 'a'),
            }),
        )
        .await
        .unwrap();
        let entry =
            |version: &str, sha: char, withdrawn: bool| praxis_domain::skills::RegistryEntry {
                release: release(version, sha),
                withdrawal: withdrawn.then(|| praxis_domain::skills::Withdrawal {
                    at: "2026-11-02T00:00:00Z".into(),
                    reason: "superseded by 1.1.0".into(),
                }),
            };
        let mut relating = sample_record("root-ci");
        relating["relations"]["related_skills"] = json!([{
            "name": "ci-root-database-cluster", "version": "1.1.0", "sha256": "c".repeat(64)
        }]);
        // A release that conflicts with the published one refuses everything.
        let conflicting = run(
            &engine,
            Command::Records(RecordCommand::Import {
                namespace: namespace("a"),
                documents: vec![relating.clone()],
                skills: vec![entry("1.0.0", 'b', false), entry("1.1.0", 'c', false)],
            }),
        )
        .await;
        assert!(
            matches!(
                conflicting,
                Err(StoreError::Refused(Refusal::SkillConflict(_)))
            ),
            "{backend:?}: {conflicting:?}"
        );
        assert_eq!(
            engine
                .skills()
                .list("t", &namespace("a"))
                .await
                .unwrap()
                .len(),
            1
        );
        assert!(
            engine
                .records()
                .get("t", &namespace("a"), &id("root-ci"))
                .await
                .unwrap()
                .is_none()
        );
        // Consistent: releases land first so the record's relation resolves,
        // and an imported withdrawal keeps its own time.
        run(
            &engine,
            Command::Records(RecordCommand::Import {
                namespace: namespace("a"),
                documents: vec![relating],
                skills: vec![entry("1.0.0", 'a', true), entry("1.1.0", 'c', false)],
            }),
        )
        .await
        .unwrap();
        let skills = engine.skills().list("t", &namespace("a")).await.unwrap();
        assert_eq!(skills.len(), 2);
        assert_eq!(
            skills[0].withdrawal.as_ref().unwrap().at,
            "2026-11-02T00:00:00Z"
        );
        assert!(
            engine
                .records()
                .get("t", &namespace("a"), &id("root-ci"))
                .await
                .unwrap()
                .is_some()
        );
        assert!(engine.verify().await.unwrap().is_clean());
    }
}
