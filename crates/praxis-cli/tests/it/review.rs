//! `praxis records …` over HTTP on each store, run as real processes: a
//! record submitted by one subject and reviewed by another, self-review
//! refused, search, history, intake, withdrawal with a reason, the author's
//! discard of a candidate, settings, the schema and the skill registry; text
//! by default, the API's JSON with `--json`; exit codes 0, 1 and 2.

use praxis_testkit::records::sample_record;
use praxis_testkit::{BACKENDS, Backend};
use serde_json::json;

use crate::desk::{Desk, scoped};
use crate::support::describe;

/// The sample record's id.
const ID: &str = "exp-cli-flow-20261120";

fn flow(backend: Backend) {
    let d = Desk::start(backend);
    d.issue(
        "alice",
        &["record_submit", "record_review", "experience_read"],
    );
    d.issue(
        "bob",
        &["record_submit", "record_review", "experience_read"],
    );
    d.write("record.json", &sample_record("cli-flow"));
    let submit = scoped(&["records", "submit", "record.json"], &["--key", "k1"]);

    // A dry run first: it passes and keeps nothing (the submission below
    // is still revision 1).
    let dry = d.ok(
        "alice",
        &scoped(
            &["records", "submit", "record.json"],
            &["--key", "k1", "--dry-run"],
        ),
    );
    assert_eq!(
        dry.trim(),
        "passed: a submission would be kept",
        "{backend:?}"
    );

    // Alice submits: a pending candidate, told in one line.
    let text = d.ok("alice", &submit);
    assert_eq!(
        text.trim(),
        format!("changed: {ID} revision 1: candidate, review pending"),
        "{backend:?}"
    );
    // The same document again, as JSON: unchanged.
    let again = d.json("alice", &submit);
    assert_eq!(again["write"], "unchanged", "{again}");
    assert_eq!(again["record"]["provenance"]["author_ref"], "alice");

    // A failing edit is refused with its findings, and kept as a rejection
    // (twice: `refused` runs it as text and as JSON).
    let mut bad = sample_record("cli-flow");
    bad["attempts"][1]["sequence"] = json!(5);
    d.write("bad.json", &bad);
    let out = d.run(
        "alice",
        &scoped(
            &["records", "submit", "bad.json"],
            &["--key", "k1", "--dry-run"],
        ),
    );
    assert_eq!(out.status.code(), Some(1), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("/attempts/1/sequence: gate.attempt_sequence: "),
        "{}",
        describe(&out)
    );
    let stderr = d.refused(
        "alice",
        &scoped(&["records", "submit", "bad.json"], &["--key", "k1"]),
        422,
        "record_rejected",
    );
    assert!(stderr.contains("gate.attempt_sequence"), "{stderr}");

    // Alice may not review her own record.
    let review = scoped(&["records", "review", ID], &["--approve"]);
    d.refused("alice", &review, 403, "self_review");
    // Requesting changes without notes is a usage error (exit 2, no request).
    let out = d.run(
        "bob",
        &scoped(&["records", "review", ID], &["--request-changes"]),
    );
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));

    // Bob approves it.
    let text = d.ok("bob", &review);
    assert_eq!(
        text.trim(),
        format!("changed: {ID} revision 2: reviewed, review approved (human)"),
        "{backend:?}"
    );

    // Search finds it, as text and as JSON.
    let text = d.ok("bob", &scoped(&["records", "search", "PostgreSQL"], &[]));
    assert!(
        text.starts_with(&format!("{ID}\trev 2\treviewed\tapproved\t")),
        "{text}"
    );
    let page = d.json("bob", &scoped(&["records", "search", "PostgreSQL"], &[]));
    assert_eq!(page["records"][0]["state"]["experience_id"], ID, "{page}");
    let page = d.json(
        "bob",
        &scoped(&["records", "search"], &["--lifecycle", "candidate"]),
    );
    assert_eq!(page["records"], json!([]), "{page}");
    let got = d.json("bob", &scoped(&["records", "get", ID], &[]));
    assert_eq!(got["state"]["lifecycle"], "reviewed", "{got}");

    // Bob withdraws it with a reason.
    let withdrawn = d.json(
        "bob",
        &scoped(
            &["records", "withdraw", ID],
            &["--reason", "the fix was unsafe", "--expected-revision", "2"],
        ),
    );
    assert_eq!(withdrawn["state"]["lifecycle"], "withdrawn", "{withdrawn}");
    assert_eq!(
        withdrawn["state"]["withdrawal_reason"], "the fix was unsafe",
        "{withdrawn}"
    );

    // The history holds every step, the rejection included.
    let history = d.json("alice", &scoped(&["records", "history", ID], &[]));
    let steps: Vec<String> = history["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let kind = e["kind"].as_str().unwrap();
            match e["change"].as_str() {
                Some(change) => format!("{kind}:{change}:{}", e["actor"].as_str().unwrap()),
                None => format!("{kind}:{}", e["actor"].as_str().unwrap()),
            }
        })
        .collect();
    assert_eq!(
        steps,
        [
            "revision:submitted:alice",
            "rejection:alice",
            "rejection:alice",
            "revision:approved:bob",
            "revision:withdrawn:bob"
        ],
        "{backend:?}: {history}"
    );
    let text = d.ok("alice", &scoped(&["records", "history", ID], &[]));
    assert!(
        text.contains("\trejected: 1 finding(s)\n  /attempts/1/sequence gate.attempt_sequence: ")
            && text.contains("\tbob\trevision 3\twithdrawn: the fix was unsafe"),
        "{text}"
    );

    // Alice's source's intake: every submission, kept or rejected, and the
    // record's later revisions.
    let intake = d.json("alice", &scoped(&["records", "intake"], &["--key", "k1"]));
    assert_eq!(intake["experience_id"], ID, "{intake}");
    let kinds: Vec<&str> = intake["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["revision", "rejection", "rejection", "revision", "revision"],
        "{intake}"
    );

    // A candidate is discarded by its author only: bob's attempt exits 1,
    // alice's exits 0 and leaves it withdrawn with a discard in its history.
    let draft = "exp-cli-draft-20261120";
    d.write("draft.json", &sample_record("cli-draft"));
    d.ok(
        "alice",
        &scoped(&["records", "submit", "draft.json"], &["--key", "k2"]),
    );
    let discard = scoped(&["records", "discard", draft], &["--reason", "a duplicate"]);
    d.refused("bob", &discard, 403, "not_record_author");
    let text = d.ok("alice", &discard);
    assert_eq!(
        text.trim(),
        format!("changed: {draft} revision 2: withdrawn, review pending; withdrawn: a duplicate"),
        "{backend:?}"
    );
    let history = d.json("bob", &scoped(&["records", "history", draft], &[]));
    assert_eq!(history["entries"][1]["change"], "discarded", "{history}");
    assert_eq!(history["entries"][1]["reason"], "a duplicate", "{history}");
    d.refused("alice", &discard, 409, "record_not_candidate");

    // Settings: readable by a reader, set only by a policy admin.
    let settings = d.json("bob", &scoped(&["records", "settings"], &[]));
    assert_eq!(settings["automated_approval"], false, "{settings}");
    d.refused(
        "bob",
        &scoped(&["records", "settings"], &["--automated-approval", "true"]),
        403,
        "missing_capability",
    );

    // The schema and the (empty) skill registry.
    let schema = d.json("bob", &["records", "schema"]);
    assert!(schema["properties"].is_object(), "{schema}");
    let skills = d.json("bob", &scoped(&["records", "skills", "list"], &[]));
    assert_eq!(skills["skills"], json!([]), "{skills}");
    assert_eq!(
        d.ok("bob", &scoped(&["records", "skills", "list"], &[]))
            .trim(),
        "no skills"
    );

    // A missing record: 404, exit 1.
    d.refused(
        "bob",
        &scoped(&["records", "get", "exp-nowhere-20261120"], &[]),
        404,
        "record_not_found",
    );
    // No scope at all: a usage error, before any request.
    let out = d.run("bob", &["records", "get", ID]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--project"),
        "{}",
        describe(&out)
    );
}

#[test]
fn records_are_reviewed_from_the_cli_on_sqlite() {
    flow(BACKENDS[0]);
}

#[test]
fn records_are_reviewed_from_the_cli_on_postgres() {
    flow(BACKENDS[1]);
}
