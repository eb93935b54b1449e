//! Every check of one record at once: schema, policy gate and screening.

use serde_json::Value;

use super::placement::Placement;
use super::{gate, schema, screen};
use crate::finding::Finding;

/// Every finding of the schema, the policy gate and the screening engine for
/// one decoded record, sorted and without repeats.
pub fn check(record: &Value, placement: Option<&Placement>) -> Vec<Finding> {
    let mut findings = schema::findings(record);
    findings.extend(gate::findings(record, placement));
    findings.extend(screen::findings(record));
    findings.sort();
    findings.dedup();
    findings
}

/// Parses record bytes strictly (no duplicate keys, exact numbers) and
/// checks them. Unparseable bytes give one finding at the root.
pub fn check_bytes(bytes: &[u8], placement: Option<&Placement>) -> (Option<Value>, Vec<Finding>) {
    match crate::canonical::parse_strict(bytes) {
        Ok(value) => {
            let findings = check(&value, placement);
            (Some(value), findings)
        }
        Err(e) => (
            None,
            vec![Finding::new(
                e.path().unwrap_or(""),
                "json.malformed",
                e.to_string(),
            )],
        ),
    }
}
