//! A read-only view of a record document's trust fields.
//!
//! A stored document may be read before it is checked, so every accessor
//! answers `None` (or nothing) for a missing or mistyped field rather than
//! failing.

use serde_json::Value;

use super::state::{Lifecycle, ReviewStatus};

/// A read-only view of a record document's trust fields. What it reads
/// borrows from the document, not from the view, so a view can be made
/// on the spot.
pub struct View<'a>(pub &'a Value);

impl<'a> View<'a> {
    fn text(&self, pointer: &str) -> Option<&'a str> {
        self.0.pointer(pointer).and_then(Value::as_str)
    }
    /// `experience_id`.
    pub fn id(&self) -> Option<&'a str> {
        self.text("/experience_id")
    }
    /// `lifecycle.status`.
    pub fn lifecycle(&self) -> Option<&'a str> {
        self.text("/lifecycle/status")
    }
    /// `lifecycle.status`, parsed; `None` when missing or not a status.
    pub fn lifecycle_state(&self) -> Option<Lifecycle> {
        self.lifecycle().and_then(Lifecycle::parse)
    }
    /// `review.status`.
    pub fn review_status(&self) -> Option<&'a str> {
        self.text("/review/status")
    }
    /// `review.status`, parsed; `None` when missing or not a status.
    pub fn review_state(&self) -> Option<ReviewStatus> {
        self.review_status().and_then(ReviewStatus::parse)
    }
    /// `review.mode`.
    pub fn review_mode(&self) -> Option<&'a str> {
        self.text("/review/mode")
    }
    /// `verification.level`.
    pub fn verification_level(&self) -> Option<&'a str> {
        self.text("/verification/level")
    }
    /// `context.platform`.
    pub fn platform(&self) -> Option<&'a str> {
        self.text("/context/platform")
    }
    /// `lifecycle.created_at`.
    pub fn created_at(&self) -> Option<&'a str> {
        self.text("/lifecycle/created_at")
    }
    /// `provenance.author_ref`.
    pub fn author(&self) -> Option<&'a str> {
        self.text("/provenance/author_ref")
    }
    /// `title`.
    pub fn title(&self) -> Option<&'a str> {
        self.text("/title")
    }
    /// Every related and superseded record id.
    pub fn relations(&self, list: &str) -> Vec<&'a str> {
        self.0
            .pointer(&format!("/relations/{list}"))
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }
    /// Every string of the record, joined, for full-text search.
    pub fn search_text(&self) -> String {
        let mut out = String::new();
        collect_text(self.0, &mut out);
        out
    }
}

fn collect_text(value: &Value, out: &mut String) {
    match value {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| collect_text(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_text(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn states_parse_what_the_text_accessors_read() {
        let doc = json!({
            "lifecycle": {"status": "superseded"},
            "review": {"status": "changes-requested"},
        });
        let view = View(&doc);
        assert_eq!(view.lifecycle(), Some("superseded"));
        assert_eq!(view.lifecycle_state(), Some(Lifecycle::Superseded));
        assert_eq!(view.review_status(), Some("changes-requested"));
        assert_eq!(view.review_state(), Some(ReviewStatus::ChangesRequested));
        let odd = json!({"lifecycle": {"status": "archived"}, "review": {"status": 3}});
        assert_eq!(View(&odd).lifecycle_state(), None);
        assert_eq!(View(&odd).review_state(), None);
        assert_eq!(View(&json!(null)).lifecycle_state(), None);
    }
}
