//! Compare-and-set: a change names the state of the target it was based
//! on, and is refused if the target has moved on since, so that two writers
//! cannot silently overwrite each other.
//!
//! Records name a revision number; memory and skills name the SHA-256 of
//! the content they read, since that content has no number of its own.

use crate::refusal::Refusal;

/// The state a caller expects the target to be in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expected {
    /// The target's revision number.
    Revision(u64),
    /// The hex SHA-256 of the target's current content.
    Sha256(String),
}

/// Refuses a change unless the target is in the `expected` state; no
/// expectation accepts any state.
///
/// Digests compare without regard to case: `AB…` and `ab…` name the same
/// bytes, and a caller who echoes a digest in uppercase has not lost a race.
pub fn compare_and_set(
    expected: Option<&Expected>,
    current_revision: u64,
    current_sha256: &str,
) -> Result<(), Refusal> {
    match expected {
        None => Ok(()),
        Some(Expected::Revision(n)) => check_revision(Some(*n), current_revision),
        Some(Expected::Sha256(digest)) if digest.eq_ignore_ascii_case(current_sha256) => Ok(()),
        Some(Expected::Sha256(digest)) => Err(Refusal::Sha256Conflict {
            expected: digest.clone(),
            current: current_sha256.to_owned(),
        }),
    }
}

/// Refuses a change unless the target is at the `expected` revision; no
/// expectation accepts any revision.
pub fn check_revision(expected: Option<u64>, current: u64) -> Result<(), Refusal> {
    match expected {
        Some(expected) if expected != current => {
            Err(Refusal::RevisionConflict { expected, current })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const DIGEST: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    #[test]
    fn revisions_must_match_when_named() {
        assert_eq!(check_revision(None, 7), Ok(()));
        assert_eq!(check_revision(Some(7), 7), Ok(()));
        assert_eq!(
            check_revision(Some(6), 7),
            Err(Refusal::RevisionConflict {
                expected: 6,
                current: 7
            })
        );
        assert_eq!(
            check_revision(Some(6), 7).unwrap_err().to_string(),
            "record is at revision 7, not 6"
        );
    }

    #[test]
    fn digests_must_match_when_named() {
        let ok = Expected::Sha256(DIGEST.into());
        assert_eq!(compare_and_set(Some(&ok), 3, DIGEST), Ok(()));
        let upper = Expected::Sha256(DIGEST.to_ascii_uppercase());
        assert_eq!(compare_and_set(Some(&upper), 3, DIGEST), Ok(()));
        let stale = Expected::Sha256("0".repeat(64));
        assert_eq!(
            compare_and_set(Some(&stale), 3, DIGEST),
            Err(Refusal::Sha256Conflict {
                expected: "0".repeat(64),
                current: DIGEST.into()
            })
        );
        assert_eq!(compare_and_set(None, 3, DIGEST), Ok(()));
    }

    proptest! {
        /// A revision expectation is decided by the number alone, exactly
        /// as `check_revision` decides it.
        #[test]
        fn revision_expectations_ignore_the_digest(
            expected in 0u64..4,
            current in 0u64..4,
            digest in "[0-9a-f]{0,8}",
        ) {
            let by_number = check_revision(Some(expected), current);
            prop_assert_eq!(
                compare_and_set(Some(&Expected::Revision(expected)), current, &digest),
                by_number.clone()
            );
            prop_assert_eq!(by_number.is_ok(), expected == current);
        }

        /// A digest expectation is decided by the digest alone, case aside.
        #[test]
        fn digest_expectations_ignore_the_number(
            expected in "[0-9a-fA-F]{1,4}",
            current in "[0-9a-f]{1,4}",
            revision in any::<u64>(),
        ) {
            let result = compare_and_set(Some(&Expected::Sha256(expected.clone())), revision, &current);
            prop_assert_eq!(result.is_ok(), expected.to_ascii_lowercase() == current);
        }
    }
}
