//! Full-text search over memory items: the one tokenizer both engines
//! index with, and the rule of what a query matches.
//!
//! Terms are runs of alphanumeric characters, lowercased. An item's terms
//! come from its key, summary, body and tags; a query matches an item that
//! holds every one of the query's terms, in any of those fields. The
//! engines keep the terms in an ordinary table, so the same words match on
//! SQLite and PostgreSQL, with no parser of either in between.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::item::MemoryDefinition;
use super::key::MemoryKey;
use crate::error::DomainError;

/// Longest term kept; longer runs (hashes, encoded blobs) are not indexed.
pub const MAX_TERM_CHARS: usize = 64;
/// Most terms a query holds.
pub const MAX_QUERY_TERMS: usize = 8;
/// Longest query text.
pub const MAX_QUERY_CHARS: usize = 512;

/// A field a query can match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    /// The key.
    Key,
    /// The summary.
    Summary,
    /// The body.
    Body,
    /// The tags.
    Tags,
}

/// The terms of `text`, in order of first appearance, each once.
pub fn terms(text: &str) -> Vec<String> {
    let mut seen = BTreeSet::new();
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|run| !run.is_empty() && run.chars().count() <= MAX_TERM_CHARS)
        .map(str::to_lowercase)
        .filter(|t| seen.insert(t.clone()))
        .collect()
}

/// Every term an item is found by.
pub fn item_terms(key: &MemoryKey, definition: &MemoryDefinition) -> BTreeSet<String> {
    let mut all: BTreeSet<String> = terms(key.as_str()).into_iter().collect();
    all.extend(terms(&definition.summary));
    all.extend(terms(&definition.body));
    for tag in &definition.tags {
        all.extend(terms(tag));
    }
    all
}

/// The terms of a query; the refusal points at `path`. An empty query
/// (no terms) matches every item.
pub fn query_terms(path: &str, query: &str) -> Result<Vec<String>, DomainError> {
    if query.chars().count() > MAX_QUERY_CHARS {
        return Err(DomainError::invalid(
            path,
            format!("a query is at most {MAX_QUERY_CHARS} characters"),
        ));
    }
    let found = terms(query);
    if found.len() > MAX_QUERY_TERMS {
        return Err(DomainError::invalid(
            path,
            format!("a query holds at most {MAX_QUERY_TERMS} words"),
        ));
    }
    Ok(found)
}

/// The fields of an item that hold at least one of `query` terms, in
/// field order (empty for an empty query).
pub fn matched_fields(
    key: &MemoryKey,
    definition: &MemoryDefinition,
    query: &[String],
) -> Vec<Field> {
    let holds = |text: &str| {
        let found = terms(text);
        query.iter().any(|q| found.contains(q))
    };
    let mut fields = Vec::new();
    if holds(key.as_str()) {
        fields.push(Field::Key);
    }
    if holds(&definition.summary) {
        fields.push(Field::Summary);
    }
    if holds(&definition.body) {
        fields.push(Field::Body);
    }
    if definition.tags.iter().any(|t| holds(t)) {
        fields.push(Field::Tags);
    }
    fields
}

/// Whether an item holds every term of `query`.
pub fn matches(key: &MemoryKey, definition: &MemoryDefinition, query: &[String]) -> bool {
    let all = item_terms(key, definition);
    query.iter().all(|q| all.contains(q))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::memory::Priority;

    fn item(summary: &str, body: &str, tags: &[&str]) -> MemoryDefinition {
        MemoryDefinition {
            summary: summary.into(),
            body: body.into(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            priority: Priority::Normal,
            bootstrap: false,
        }
    }

    #[test]
    fn terms_are_lowercased_alphanumeric_runs_kept_once() {
        assert_eq!(
            terms("Bounded-inspection: read THE cursor, then the Cursor"),
            ["bounded", "inspection", "read", "the", "cursor", "then"]
        );
        assert_eq!(terms("Ünïcode straße"), ["ünïcode", "straße"]);
        assert!(terms(&"a".repeat(MAX_TERM_CHARS + 1)).is_empty());
        assert_eq!(terms(" -- "), Vec::<String>::new());
    }

    #[test]
    fn a_query_needs_every_term_and_names_the_fields_that_hold_one() {
        let key = MemoryKey::parse("/key", "bounded-inspection").unwrap();
        let d = item(
            "Check continuation",
            "Read the cursor before you stop",
            &["paging"],
        );
        let q = query_terms("/query", "Cursor paging").unwrap();
        assert!(matches(&key, &d, &q));
        assert_eq!(matched_fields(&key, &d, &q), [Field::Body, Field::Tags]);
        let q = query_terms("/query", "bounded cursor missing").unwrap();
        assert!(!matches(&key, &d, &q));
        assert!(matches(&key, &d, &[]));
        assert!(matched_fields(&key, &d, &[]).is_empty());
    }

    #[test]
    fn queries_are_bounded() {
        assert!(query_terms("/query", "a b c d e f g h").is_ok());
        let e = query_terms("/query", "a b c d e f g h i").unwrap_err();
        assert_eq!(e.path(), Some("/query"));
        assert!(query_terms("/query", &"x".repeat(MAX_QUERY_CHARS + 1)).is_err());
    }

    proptest! {
        /// Any term taken from an item's text finds the item, and the
        /// fields named are exactly those whose text holds it.
        #[test]
        fn every_indexed_term_finds_its_item(
            summary in "[A-Za-z0-9 ]{1,40}",
            body in "[A-Za-z0-9 .,-]{0,80}",
            pick in any::<prop::sample::Index>(),
        ) {
            let key = MemoryKey::parse("/key", "k").unwrap();
            let d = item(&summary, &body, &[]);
            let all: Vec<String> = item_terms(&key, &d).into_iter().collect();
            let term = all[pick.index(all.len())].clone();
            let q = vec![term.clone()];
            prop_assert!(matches(&key, &d, &q));
            let fields = matched_fields(&key, &d, &q);
            prop_assert_eq!(fields.contains(&Field::Summary), terms(&summary).contains(&term));
            prop_assert_eq!(fields.contains(&Field::Body), terms(&body).contains(&term));
            prop_assert!(!fields.is_empty());
        }
    }
}
