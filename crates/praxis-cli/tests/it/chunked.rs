//! `praxis attempts import` over HTTP of a store several times the
//! server's body limit: sent in chunks, every record arrives in order; a
//! second run answers them all unchanged; a chunk the server refuses is
//! shown plainly with the record numbered as in the whole file.

use praxis_testkit::Backend;
use serde_json::{Value, json};

use crate::desk::{Desk, scoped};
use crate::support::describe;

/// Records in the store: about 450 KB of JSON, seven times the limit.
const RECORDS: usize = 1500;

/// A store of `RECORDS` conclusive outcomes with distinct cases.
fn store(rationale: &str) -> Value {
    let records: Vec<Value> = (0..RECORDS)
        .map(|i| {
            json!({
                "sequence": i,
                "outcome": {
                    "case_id": format!("case-{i:05}"),
                    "subject": format!("host-{}", i % 7),
                    "action_id": "probe",
                    "hypothesis_id": "hyp-probe",
                    "verifier_rule_id": "rule-1",
                    "stage": "active",
                    "status": "false_positive",
                    "confidence": 900_000,
                    "rationale": rationale,
                    "evidence_ids": ["ev-1", "ev-2"],
                },
                "disposition": "verification_rejected",
            })
        })
        .collect();
    json!({ "next_sequence": RECORDS, "records": records })
}

#[test]
fn an_import_larger_than_the_body_limit_arrives_whole_in_chunks() {
    let d = Desk::start(Backend::Sqlite);
    d.issue(
        "importer",
        &["experience_evidence_admin", "experience_read"],
    );
    let original = store("the verifier rejected it after replaying the request twice");
    d.write("store.json", &original);
    let size = std::fs::metadata(d.work.join("store.json")).unwrap().len();
    assert!(
        size > 4 * praxis_server::BODY_LIMIT as u64,
        "the store is {size} bytes"
    );
    let import = scoped(&["attempts", "import"], &["store.json"]);

    let out = d.run("importer", &import);
    assert!(out.status.success(), "{}", describe(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.trim();
    let requests: usize = line
        .strip_prefix(&format!("imported {RECORDS} records (0 unchanged) in "))
        .and_then(|rest| rest.strip_suffix(" requests"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("unexpected summary: {}", describe(&out)));
    assert!(requests >= 5, "{line}");
    // The progress bar is drawn only on a terminal.
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("importing"),
        "{}",
        describe(&out)
    );

    // Every record arrived, in order: the export is the file itself.
    let exported = d.json("importer", &scoped(&["attempts", "export"], &[]));
    assert_eq!(exported, original);

    // Again, as JSON: nothing new.
    let answer = d.json("importer", &import);
    assert_eq!(
        (&answer["inserted"], &answer["unchanged"]),
        (&json!(0), &json!(RECORDS)),
        "{answer}"
    );

    // A late chunk conflicting with stored records is refused; the problem
    // names the record as numbered in the file.
    let mut changed = original.clone();
    changed["records"][1400]["outcome"]["rationale"] = json!("another reason");
    d.write("changed.json", &changed);
    let stderr = d.refused(
        "importer",
        &scoped(&["attempts", "import"], &["changed.json"]),
        409,
        "identity_conflict",
    );
    assert!(stderr.contains("/store/records/1400"), "{stderr}");
    assert!(stderr.contains("was refused"), "{stderr}");
    let exported = d.json("importer", &scoped(&["attempts", "export"], &[]));
    assert_eq!(exported, original, "nothing of the refused chunk was kept");
}
