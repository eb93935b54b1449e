//! A record's source: the stable identity its edits reconcile under, and
//! who may revise what a source already holds.
//!
//! A source belongs to the author of its first kept revision, keeps the id
//! that revision claimed, and may revise it only while it is a candidate:
//! review decides from there on.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::Lifecycle;
use super::view::View;
use crate::finding::Finding;
use crate::refusal::Refusal;

/// The stable identity of a record's source: edits from the same source
/// reconcile the same record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// A client-chosen key, scoped to the submitting subject.
    Key {
        /// The key.
        key: String,
    },
    /// A public issue the record was filed as.
    Issue {
        /// `owner/repo`.
        repository: String,
        /// Issue number.
        number: u64,
    },
    /// A record loaded from a published repository.
    Import {
        /// The record's id.
        experience_id: String,
    },
}

impl Source {
    /// The canonical text of the source identity.
    ///
    /// A key is scoped by the subject that used it, so two submitters
    /// cannot collide on (or hijack) each other's keys.
    pub fn key(&self, subject: &str) -> String {
        match self {
            // The subject's length makes the split unambiguous: subjects
            // may themselves contain ':'.
            Source::Key { key } => format!("key:{}:{subject}:{key}", subject.len()),
            Source::Issue { repository, number } => {
                format!("issue:{}#{number}", repository.to_ascii_lowercase())
            }
            Source::Import { experience_id } => format!("import:{experience_id}"),
        }
    }

    /// Checks the source's own fields.
    pub fn problems(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        match self {
            Source::Key { key } => {
                if key.is_empty() || key.len() > 200 || key.chars().any(char::is_control) {
                    out.push(Finding::new(
                        "/source/key",
                        "source.key",
                        "a source key is 1-200 bytes without control characters",
                    ));
                }
            }
            Source::Issue { repository, number } => {
                let ok = repository.split('/').count() == 2
                    && repository.split('/').all(|p| {
                        !p.is_empty()
                            && p.bytes()
                                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
                    });
                if !ok {
                    out.push(Finding::new(
                        "/source/repository",
                        "source.repository",
                        "a repository is owner/name",
                    ));
                }
                if *number == 0 {
                    out.push(Finding::new(
                        "/source/number",
                        "source.number",
                        "an issue number is at least 1",
                    ));
                }
            }
            Source::Import { .. } => {}
        }
        out
    }
}

/// What a source already holds, as the ownership rules see it: the kept
/// record's id, its author and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prior<'a> {
    /// The kept record's `experience_id`.
    pub experience_id: &'a str,
    /// Its `provenance.author_ref`, as [`View::author`] reads it.
    pub author: Option<&'a str>,
    /// Its lifecycle status.
    pub lifecycle: Lifecycle,
}

impl<'a> Prior<'a> {
    /// Reads a kept record's id, author and lifecycle from its document;
    /// `None` when the document lacks an id or a valid lifecycle status
    /// (a kept record never does).
    pub fn from_document(document: &'a Value) -> Option<Prior<'a>> {
        let view = View(document);
        Some(Prior {
            experience_id: view.id()?,
            author: view.author(),
            lifecycle: view.lifecycle_state()?,
        })
    }
}

/// Whether `author` may submit a document claiming `claimed_id` under a
/// source that already holds `prior` (`None`: the source holds nothing).
///
/// An issue reference names no author, so the source's first kept
/// revision decides whose it is; the id a source holds never changes; and
/// once reviewed, a record changes only by review, not by its source.
pub fn check_resubmission(
    prior: Option<&Prior<'_>>,
    author: &str,
    claimed_id: Option<&str>,
) -> Result<(), Refusal> {
    let Some(prior) = prior else {
        return Ok(());
    };
    let id = prior.experience_id;
    if prior.author != Some(author) {
        return Err(Refusal::SourceConflict(format!(
            "record {id} from this source belongs to another author"
        )));
    }
    if claimed_id != Some(id) {
        return Err(Refusal::SourceConflict(format!(
            "this source already holds record {id}; its id cannot change"
        )));
    }
    if prior.lifecycle != Lifecycle::Candidate {
        return Err(Refusal::InvalidTransition(format!(
            "record {id} is {}; only a candidate can be revised by its source",
            prior.lifecycle
        )));
    }
    Ok(())
}

/// Whether a source that holds nothing yet may claim an id: not when
/// another source already holds a record under it. `holder` is that
/// record's `experience_id`, when there is one.
pub fn check_new_source(holder: Option<&str>) -> Result<(), Refusal> {
    match holder {
        Some(other) => Err(Refusal::SourceConflict(format!(
            "record {other} belongs to another source"
        ))),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    #[test]
    fn source_keys_scope_client_keys_by_subject() {
        let key = Source::Key { key: "k".into() };
        assert_ne!(key.key("alice"), key.key("mallory"));
        let issue = Source::Issue {
            repository: "Owner/Repo".into(),
            number: 7,
        };
        assert_eq!(issue.key("anyone"), "issue:owner/repo#7");
        assert!(Source::Key { key: String::new() }.problems()[0].rule == "source.key");
        let bad = Source::Issue {
            repository: "no-slash".into(),
            number: 0,
        };
        assert_eq!(bad.problems().len(), 2);
    }

    fn prior(author: &'static str, lifecycle: Lifecycle) -> Prior<'static> {
        Prior {
            experience_id: "exp-1",
            author: Some(author),
            lifecycle,
        }
    }

    #[test]
    fn only_the_author_revises_a_candidate_under_its_id() {
        let candidate = prior("alice", Lifecycle::Candidate);
        assert_eq!(check_resubmission(None, "bob", Some("exp-9")), Ok(()));
        assert_eq!(check_resubmission(None, "bob", None), Ok(()));
        assert_eq!(
            check_resubmission(Some(&candidate), "alice", Some("exp-1")),
            Ok(())
        );
        assert_eq!(
            check_resubmission(Some(&candidate), "bob", Some("exp-1")),
            Err(Refusal::SourceConflict(
                "record exp-1 from this source belongs to another author".into()
            ))
        );
        for claimed in [Some("exp-2"), None] {
            assert_eq!(
                check_resubmission(Some(&candidate), "alice", claimed),
                Err(Refusal::SourceConflict(
                    "this source already holds record exp-1; its id cannot change".into()
                ))
            );
        }
        let anonymous = Prior {
            author: None,
            ..candidate
        };
        assert!(matches!(
            check_resubmission(Some(&anonymous), "alice", Some("exp-1")),
            Err(Refusal::SourceConflict(_))
        ));
    }

    #[test]
    fn a_reviewed_record_is_not_revised_by_its_source() {
        for lifecycle in [
            Lifecycle::Reviewed,
            Lifecycle::Superseded,
            Lifecycle::Withdrawn,
        ] {
            assert_eq!(
                check_resubmission(Some(&prior("alice", lifecycle)), "alice", Some("exp-1")),
                Err(Refusal::InvalidTransition(format!(
                    "record exp-1 is {}; only a candidate can be revised by its source",
                    lifecycle.as_str()
                )))
            );
        }
    }

    #[test]
    fn a_new_source_cannot_take_a_held_id() {
        assert_eq!(check_new_source(None), Ok(()));
        assert_eq!(
            check_new_source(Some("exp-1")),
            Err(Refusal::SourceConflict(
                "record exp-1 belongs to another source".into()
            ))
        );
    }

    #[test]
    fn priors_read_from_documents() {
        let doc = json!({
            "experience_id": "exp-1",
            "provenance": {"author_ref": "alice"},
            "lifecycle": {"status": "reviewed"},
        });
        assert_eq!(
            Prior::from_document(&doc),
            Some(Prior {
                experience_id: "exp-1",
                author: Some("alice"),
                lifecycle: Lifecycle::Reviewed,
            })
        );
        assert_eq!(Prior::from_document(&json!({"experience_id": "x"})), None);
    }

    proptest! {
        /// The rules are checked in order (author, id, lifecycle), and a
        /// submission passes exactly when none of them objects.
        #[test]
        fn the_first_broken_rule_is_reported(
            same_author in any::<bool>(),
            same_id in any::<bool>(),
            lifecycle in proptest::sample::select(Lifecycle::ALL.to_vec()),
        ) {
            let held = prior("alice", lifecycle);
            let author = if same_author { "alice" } else { "bob" };
            let claimed = if same_id { "exp-1" } else { "exp-2" };
            let result = check_resubmission(Some(&held), author, Some(claimed));
            let expected_ok = same_author && same_id && lifecycle == Lifecycle::Candidate;
            prop_assert_eq!(result.is_ok(), expected_ok);
            match result {
                Err(Refusal::SourceConflict(m)) => prop_assert!(!same_author || !same_id, "{}", m),
                Err(Refusal::InvalidTransition(_)) => {
                    prop_assert!(same_author && same_id && lifecycle != Lifecycle::Candidate);
                }
                Err(other) => prop_assert!(false, "unexpected {:?}", other),
                Ok(()) => {}
            }
        }
    }
}
