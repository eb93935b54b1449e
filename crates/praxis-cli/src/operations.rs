//! Which command calls each operation of the HTTP API: the table that keeps
//! the CLI covering every endpoint. A test reads the served OpenAPI
//! document (crates/praxis-server/openapi.json) and fails for an operation
//! without a command here, or an entry whose operation no longer exists;
//! and every command here must answer `--help`.
//!
//! A new endpoint gets its command and one line here.

/// `(operationId, command path after "praxis")`, in the document's order.
pub const OPERATIONS: &[(&str, &[&str])] = &[
    ("observe", &["attempts", "observe"]),
    ("assess", &["attempts", "assess"]),
    ("counts", &["attempts", "counts"]),
    ("export", &["attempts", "export"]),
    ("attempt_history", &["attempts", "history"]),
    ("import", &["attempts", "import"]),
    ("read_policy", &["attempts", "policy"]),
    ("set_policy", &["attempts", "policy"]),
    ("capabilities", &["credentials", "capabilities"]),
    ("list", &["credentials", "list"]),
    ("issue", &["credentials", "issue"]),
    ("read_credential", &["credentials", "show"]),
    ("revoke", &["credentials", "revoke"]),
    ("rotate", &["credentials", "rotate"]),
    ("record_experience", &["experiences", "record"]),
    ("report_experience_event", &["experiences", "report"]),
    ("read_experience_event", &["experiences", "read"]),
    ("export_experiences", &["experiences", "export"]),
    ("experience_history", &["experiences", "history"]),
    ("experience_lineage", &["experiences", "lineage"]),
    ("read_experience", &["experiences", "read"]),
    ("withdraw_observation", &["experiences", "withdraw"]),
    ("inspect_withdrawal", &["experiences", "inspect"]),
    (
        "register_learning_context",
        &["learning", "context", "register"],
    ),
    ("read_learning_context", &["learning", "context", "show"]),
    ("submit_evaluation", &["learning", "evaluate"]),
    (
        "register_learning_policy",
        &["learning", "policy", "register"],
    ),
    ("read_learning_policy", &["learning", "policy", "show"]),
    ("read_procedure", &["learning", "procedure"]),
    ("propose_procedure", &["learning", "propose"]),
    ("select_procedure", &["learning", "select"]),
    ("create_strategy", &["learning", "strategy", "create"]),
    ("inspect_strategy", &["learning", "strategy", "inspect"]),
    ("read_strategy", &["learning", "strategy", "read"]),
    ("delete_memory", &["memory", "delete"]),
    ("get_memory", &["memory", "get"]),
    ("memory_history", &["memory", "history"]),
    ("search_memory", &["memory", "search"]),
    ("set_memory", &["memory", "set"]),
    ("project_skills", &["proposals", "skills"]),
    ("project_skill", &["proposals", "skills"]),
    ("list_proposals", &["proposals", "list"]),
    ("create_proposal", &["proposals", "propose"]),
    ("proposal_settings", &["proposals", "settings"]),
    ("describe_source", &["proposals", "source"]),
    ("read_proposal", &["proposals", "status"]),
    ("approve_proposal", &["proposals", "approve"]),
    ("resolve_proposal", &["proposals", "resolve"]),
    ("review_proposal", &["proposals", "review"]),
    ("withdraw_proposal", &["proposals", "withdraw"]),
    ("search", &["records", "search"]),
    ("submit", &["records", "submit"]),
    // `records submit --dry-run`.
    ("check_record", &["records", "submit"]),
    ("intake", &["records", "intake"]),
    ("record_schema", &["records", "schema"]),
    ("read_settings", &["records", "settings"]),
    ("set_settings", &["records", "settings"]),
    ("read_record", &["records", "get"]),
    ("record_history", &["records", "history"]),
    ("review", &["records", "review"]),
    ("withdraw", &["records", "withdraw"]),
    ("discard_record", &["records", "discard"]),
    // `screen --remote`.
    ("screen", &["screen"]),
    ("skills", &["records", "skills", "list"]),
    ("publish_skill", &["records", "skills", "publish"]),
    ("withdraw_skill", &["records", "skills", "withdraw"]),
    ("healthz", &["server", "health"]),
    ("metrics", &["server", "metrics"]),
    ("openapi", &["server", "openapi"]),
    ("readyz", &["server", "ready"]),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use clap::Parser as _;

    use super::OPERATIONS;
    use crate::Cli;

    /// Every operationId of the served OpenAPI document.
    fn documented() -> BTreeSet<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../praxis-server/openapi.json");
        let text = std::fs::read_to_string(path).expect("reading the OpenAPI document");
        let document: serde_json::Value = serde_json::from_str(&text).expect("OpenAPI JSON");
        let mut ids = BTreeSet::new();
        for item in document["paths"].as_object().expect("paths").values() {
            for operation in item.as_object().expect("path item").values() {
                if let Some(id) = operation["operationId"].as_str() {
                    ids.insert(id.to_owned());
                }
            }
        }
        ids
    }

    #[test]
    fn every_operation_has_a_command_and_every_entry_an_operation() {
        let documented = documented();
        assert!(documented.len() > 50, "too few operations: {documented:?}");
        let tabled: BTreeSet<String> = OPERATIONS.iter().map(|(id, _)| (*id).to_owned()).collect();
        assert_eq!(
            tabled.len(),
            OPERATIONS.len(),
            "an operation is listed twice"
        );
        let missing: Vec<_> = documented.difference(&tabled).collect();
        let stale: Vec<_> = tabled.difference(&documented).collect();
        assert!(
            missing.is_empty() && stale.is_empty(),
            "operations without a CLI command: {missing:?}; table entries no longer in the \
             OpenAPI document: {stale:?}"
        );
    }

    #[test]
    fn every_command_in_the_table_answers_help() {
        for (id, path) in OPERATIONS {
            let mut args = vec!["praxis"];
            args.extend_from_slice(path);
            args.push("--help");
            match Cli::try_parse_from(&args) {
                Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {
                    let help = e.to_string();
                    assert!(
                        help.contains("--json"),
                        "{id}: {args:?} lacks --json:\n{help}"
                    );
                }
                Err(e) => panic!("{id}: {args:?} is not a command: {e}"),
                Ok(_) => panic!("{id}: {args:?} ran instead of printing help"),
            }
        }
    }
}
