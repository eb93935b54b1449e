//! What a memory item holds, and the rules it must pass before it is kept.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::key::MemoryKey;
use crate::finding::Finding;
use crate::screen;

/// Most characters a summary holds.
pub const MAX_SUMMARY_CHARS: usize = 512;
/// Most bytes a body holds (8 KiB).
pub const MAX_BODY_BYTES: usize = 8 * 1024;
/// Most tags an item holds.
pub const MAX_TAGS: usize = 8;

/// How prominently an item is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Priority {
    /// Offered first.
    High,
    /// The default.
    Normal,
    /// Offered last.
    Low,
}

/// An item's definition: everything but its key and revision. Two writes
/// with equal definitions are the same write (a no-op on an existing item).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryDefinition {
    /// One line that says what the item is about.
    pub summary: String,
    /// The item itself.
    pub body: String,
    /// Labels, kept as a sorted set.
    pub tags: BTreeSet<String>,
    /// How prominently it is offered.
    pub priority: Priority,
    /// Whether an agent loads it at start.
    pub bootstrap: bool,
}

impl MemoryDefinition {
    /// Every rule the definition breaks: the bounds (summary at most
    /// [`MAX_SUMMARY_CHARS`] characters and not blank, body at most
    /// [`MAX_BODY_BYTES`] bytes, at most [`MAX_TAGS`] tags, each a valid
    /// key) and what screening finds in the text (secrets, home paths,
    /// prompt overrides), each pointed at its field and never repeating
    /// the value. Empty when the item may be kept.
    pub fn findings(&self) -> Vec<Finding> {
        let mut found = Vec::new();
        if self.summary.trim().is_empty() || self.summary.chars().count() > MAX_SUMMARY_CHARS {
            found.push(Finding::new(
                "/summary",
                "memory.summary_length",
                format!("a summary is 1-{MAX_SUMMARY_CHARS} characters and not blank"),
            ));
        }
        if self.body.len() > MAX_BODY_BYTES {
            found.push(Finding::new(
                "/body",
                "memory.body_length",
                format!("a body is at most {MAX_BODY_BYTES} bytes"),
            ));
        }
        if self.tags.len() > MAX_TAGS {
            found.push(Finding::new(
                "/tags",
                "memory.tag_count",
                format!("an item has at most {MAX_TAGS} tags"),
            ));
        }
        for tag in &self.tags {
            if MemoryKey::parse("/tags", tag).is_err() {
                found.push(Finding::new(
                    "/tags",
                    "memory.tag_form",
                    "a tag is 1-96 characters of [A-Za-z0-9._-], neither . nor ..",
                ));
                break;
            }
        }
        for (pointer, text) in [("/summary", &self.summary), ("/body", &self.body)] {
            if text
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t')
            {
                found.push(Finding::new(
                    pointer,
                    "memory.control_character",
                    "text holds no control characters but newline and tab",
                ));
            }
        }
        let tags: Vec<&String> = self.tags.iter().collect();
        // The body is guidance an agent acts on: it is screened like a
        // command too.
        found.extend(screen::findings_with(
            &json!({
                "summary": self.summary,
                "body": self.body,
                "tags": tags,
            }),
            |path| path.first().is_some_and(|p| p == "body"),
        ));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item() -> MemoryDefinition {
        MemoryDefinition {
            summary: "Check bounded inspection results".into(),
            body: "Inspect continuation fields before treating a read as complete.".into(),
            tags: ["experience".to_owned(), "inspection".to_owned()].into(),
            priority: Priority::Normal,
            bootstrap: false,
        }
    }

    #[test]
    fn a_plain_item_passes_and_every_bound_names_its_field() {
        assert!(item().findings().is_empty());
        let rules = |edit: fn(&mut MemoryDefinition)| {
            let mut d = item();
            edit(&mut d);
            d.findings()
                .into_iter()
                .map(|f| (f.pointer, f.rule))
                .collect::<Vec<_>>()
        };
        let one = |p: &str, r: &str| vec![(p.to_owned(), r.to_owned())];
        assert_eq!(
            rules(|d| d.summary = " ".into()),
            one("/summary", "memory.summary_length")
        );
        assert_eq!(
            rules(|d| d.summary = "é".repeat(MAX_SUMMARY_CHARS + 1)),
            one("/summary", "memory.summary_length")
        );
        assert_eq!(
            rules(|d| d.body = "x".repeat(MAX_BODY_BYTES + 1)),
            one("/body", "memory.body_length")
        );
        assert_eq!(
            rules(|d| d.tags = (0..=MAX_TAGS).map(|i| format!("t{i}")).collect()),
            one("/tags", "memory.tag_count")
        );
        assert_eq!(
            rules(|d| d.tags = ["a b".to_owned()].into()),
            one("/tags", "memory.tag_form")
        );
        assert_eq!(
            rules(|d| d.body = "bell \u{7}".into()),
            one("/body", "memory.control_character")
        );
        assert!(rules(|d| d.body = "a\n\tb".into()).is_empty());
        // The summary may be exactly at its bound, counted in characters.
        assert!(rules(|d| d.summary = "é".repeat(MAX_SUMMARY_CHARS)).is_empty());
    }

    #[test]
    fn secrets_and_home_paths_are_found_without_repeating_them() {
        let mut d = item();
        d.body = "use token ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf from /home/alice/.ssh".into();
        let found = d.findings();
        assert!(found.iter().all(|f| f.pointer == "/body"), "{found:?}");
        assert!(found.len() >= 2, "{found:?}");
        assert!(
            found
                .iter()
                .all(|f| !f.message.contains("ghp_") && !f.message.contains("alice"))
        );
    }

    #[test]
    fn tags_are_a_sorted_set() {
        let d: MemoryDefinition = serde_json::from_value(json!({
            "summary": "s", "body": "b", "tags": ["z", "a", "z"],
            "priority": "high", "bootstrap": true
        }))
        .unwrap();
        assert_eq!(d.tags.iter().collect::<Vec<_>>(), ["a", "z"]);
        assert_eq!(serde_json::to_value(&d).unwrap()["tags"], json!(["a", "z"]));
    }
}
