//! What a submitted record refers to in its namespace: related and
//! superseded records, and related skill releases. Intake resolves each
//! against what is kept (the writer inside its transaction, a dry run
//! against a read), so both name the same references and report an
//! unresolved one with the same finding.

use serde_json::Value;

use super::view::View;
use crate::finding::Finding;

/// One reference of a record that must resolve in its namespace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference<'a> {
    /// A kept record, by id (`relations.related_experiences` or
    /// `relations.supersedes`).
    Experience {
        /// Where the reference sits.
        pointer: String,
        /// The record id it names.
        id: &'a str,
    },
    /// An exact skill release (`relations.related_skills`).
    Skill {
        /// Where the reference sits.
        pointer: String,
        /// The release's name (empty when missing).
        name: &'a str,
        /// Its version (empty when missing).
        version: &'a str,
        /// Its SHA-256 (empty when missing).
        sha256: &'a str,
    },
}

impl Reference<'_> {
    /// The finding when nothing in the namespace answers the reference.
    /// It names the rule, never the value: an unresolved "id" may be
    /// anything, a pasted secret included.
    pub fn unresolved(&self) -> Finding {
        match self {
            Reference::Experience { pointer, .. } => Finding::new(
                pointer.clone(),
                "repo.unknown_experience",
                "no record of this namespace has this id",
            ),
            Reference::Skill { pointer, .. } => Finding::new(
                pointer.clone(),
                "repo.unknown_skill",
                "no skill release with this name, version and digest is published here",
            ),
        }
    }
}

/// Every reference of `doc`, in document order: related experiences,
/// superseded records, then related skills.
pub fn references(doc: &Value) -> Vec<Reference<'_>> {
    let mut out = Vec::new();
    let view = View(doc);
    for list in ["related_experiences", "supersedes"] {
        for (i, id) in view.relations(list).into_iter().enumerate() {
            out.push(Reference::Experience {
                pointer: format!("/relations/{list}/{i}"),
                id,
            });
        }
    }
    let skills = doc
        .pointer("/relations/related_skills")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, skill) in skills.iter().enumerate() {
        let field = |k: &str| skill.get(k).and_then(Value::as_str).unwrap_or_default();
        out.push(Reference::Skill {
            pointer: format!("/relations/related_skills/{i}"),
            name: field("name"),
            version: field("version"),
            sha256: field("sha256"),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn references_are_named_by_pointer_in_document_order() {
        let doc = json!({"relations": {
            "related_experiences": ["a"],
            "supersedes": ["b", "c"],
            "related_skills": [{"name": "s", "version": "1.0.0", "sha256": "ab"}, {}]
        }});
        let refs = references(&doc);
        let pointers: Vec<String> = refs.iter().map(|r| r.unresolved().pointer).collect();
        assert_eq!(
            pointers,
            [
                "/relations/related_experiences/0",
                "/relations/supersedes/0",
                "/relations/supersedes/1",
                "/relations/related_skills/0",
                "/relations/related_skills/1",
            ]
        );
        assert_eq!(
            refs[3],
            Reference::Skill {
                pointer: "/relations/related_skills/0".into(),
                name: "s",
                version: "1.0.0",
                sha256: "ab"
            }
        );
        // A skill missing its fields still has to resolve, and cannot.
        assert_eq!(refs[4].unresolved().rule, "repo.unknown_skill");
        assert!(references(&json!({})).is_empty());
    }
}
