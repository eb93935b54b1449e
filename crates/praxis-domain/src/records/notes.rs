//! Free text a person adds to a change (a withdrawal reason, a review
//! note): its length limit, and the screening it passes like record text,
//! since it is kept and shown for good.

use serde_json::json;

use crate::finding::Finding;
use crate::screen;

/// Longest withdrawal reason or review note.
pub const MAX_NOTE_CHARS: usize = 1000;

/// Every finding about a withdrawal reason: its length (1 to
/// [`MAX_NOTE_CHARS`] characters, not blank) and what screening finds in
/// it, all pointed at `/reason`. Empty when the reason may be kept; the
/// caller chooses how to answer otherwise.
pub fn check_reason(reason: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    if reason.trim().is_empty() || reason.chars().count() > MAX_NOTE_CHARS {
        findings.push(Finding::new(
            "/reason",
            "reason.length",
            format!("a reason is 1-{MAX_NOTE_CHARS} characters and not blank"),
        ));
    }
    findings.extend(screen::findings(&json!({ "reason": reason })));
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_bounded_and_not_blank() {
        assert!(check_reason("superseded by a safer procedure").is_empty());
        assert!(check_reason(&"é".repeat(MAX_NOTE_CHARS)).is_empty());
        for bad in [
            String::new(),
            " \n\t".into(),
            "x".repeat(MAX_NOTE_CHARS + 1),
        ] {
            let found = check_reason(&bad);
            assert_eq!(found.len(), 1, "{bad:?}");
            assert_eq!(found[0].pointer, "/reason");
            assert_eq!(found[0].rule, "reason.length");
            assert_eq!(
                found[0].message,
                "a reason is 1-1000 characters and not blank"
            );
        }
    }

    #[test]
    fn reasons_are_screened_like_record_text() {
        let found = check_reason("leaked ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U in a log");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "/reason");
        assert_eq!(found[0].rule, "screen.credential.github");
        let both = check_reason(&format!("{} /home/mara", "x".repeat(MAX_NOTE_CHARS)));
        let rules: Vec<&str> = both.iter().map(|f| f.rule.as_str()).collect();
        assert_eq!(rules, ["reason.length", "screen.home_path"]);
    }
}
