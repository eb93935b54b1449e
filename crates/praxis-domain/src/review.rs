//! Who may review a record, before any decision is looked at.
//!
//! Automated approval is a namespace's decision, never a caller's: an
//! automated-policy review is refused unless the namespace turned it on.
//! And a person never reviews a record they authored.

use crate::records::lifecycle::ReviewMode;
use crate::refusal::Refusal;

/// Refuses a review that `reviewer` may not make in `mode` of a record by
/// `author` (its `provenance.author_ref`), in a namespace whose automated
/// approval is `automated_on`.
///
/// `automated_on` matters to automated-policy reviews only, so a caller may
/// skip looking it up for a human one.
pub fn may_review(
    mode: ReviewMode,
    reviewer: &str,
    author: Option<&str>,
    automated_on: bool,
) -> Result<(), Refusal> {
    match mode {
        ReviewMode::AutomatedPolicy if !automated_on => Err(Refusal::InvalidTransition(
            "automated-policy review is off in this namespace; a person reviews here".into(),
        )),
        ReviewMode::Human if author == Some(reviewer) => Err(Refusal::SelfReview),
        ReviewMode::AutomatedPolicy | ReviewMode::Human => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn automated_review_needs_the_namespace_setting() {
        assert_eq!(
            may_review(ReviewMode::AutomatedPolicy, "gate", Some("alice"), false),
            Err(Refusal::InvalidTransition(
                "automated-policy review is off in this namespace; a person reviews here".into()
            ))
        );
        assert_eq!(
            may_review(ReviewMode::AutomatedPolicy, "gate", Some("alice"), true),
            Ok(())
        );
    }

    #[test]
    fn nobody_reviews_their_own_record() {
        assert_eq!(
            may_review(ReviewMode::Human, "alice", Some("alice"), false),
            Err(Refusal::SelfReview)
        );
        assert_eq!(
            may_review(ReviewMode::Human, "bob", Some("alice"), false),
            Ok(())
        );
        assert_eq!(may_review(ReviewMode::Human, "bob", None, true), Ok(()));
    }

    proptest! {
        /// The whole table: a review is refused exactly when it is an
        /// automated one the namespace did not turn on, or a person's
        /// review of their own record.
        #[test]
        fn refused_exactly_by_the_two_rules(
            automated in any::<bool>(),
            reviewer in "[ab]",
            author in proptest::option::of("[ab]"),
            automated_on in any::<bool>(),
        ) {
            let mode = if automated { ReviewMode::AutomatedPolicy } else { ReviewMode::Human };
            let result = may_review(mode, &reviewer, author.as_deref(), automated_on);
            let expected = if automated && !automated_on {
                Err(Refusal::InvalidTransition(
                    "automated-policy review is off in this namespace; a person reviews here".into(),
                ))
            } else if !automated && author.as_deref() == Some(reviewer.as_str()) {
                Err(Refusal::SelfReview)
            } else {
                Ok(())
            };
            prop_assert_eq!(result, expected);
        }
    }
}
