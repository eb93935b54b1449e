//! Where a record sits in a published repository, which bounds its
//! lifecycle status.

use serde::{Deserialize, Serialize};

use super::state::Lifecycle;

/// The directory of a published repository a record sits in, which bounds
/// its lifecycle status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Directory {
    /// `experience_records/candidates/`: candidates, and withdrawn ones.
    Candidates,
    /// `experience_records/reviewed/`: reviewed, superseded or withdrawn.
    Reviewed,
}

impl Directory {
    /// The directory's name in a repository layout.
    pub fn as_str(self) -> &'static str {
        match self {
            Directory::Candidates => "candidates",
            Directory::Reviewed => "reviewed",
        }
    }

    /// Lifecycle statuses a record in this directory may have.
    pub fn allows(self, status: &str) -> bool {
        let status = Lifecycle::parse(status);
        match self {
            Directory::Candidates => {
                matches!(status, Some(Lifecycle::Candidate | Lifecycle::Withdrawn))
            }
            Directory::Reviewed => matches!(
                status,
                Some(Lifecycle::Reviewed | Lifecycle::Superseded | Lifecycle::Withdrawn)
            ),
        }
    }

    /// The directory a record with this lifecycle status is published in.
    /// A withdrawn record that was never approved (a candidate its author
    /// discarded) stays with the candidates: it was never reviewed.
    pub fn for_status(status: Lifecycle, approved: bool) -> Directory {
        match status {
            Lifecycle::Candidate => Directory::Candidates,
            Lifecycle::Withdrawn if !approved => Directory::Candidates,
            Lifecycle::Reviewed | Lifecycle::Superseded | Lifecycle::Withdrawn => {
                Directory::Reviewed
            }
        }
    }
}

/// Where a record was read from, when it was read from a repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The directory it sits in.
    pub directory: Directory,
    /// Its file name without the `.json` extension.
    pub stem: String,
    /// Its size in bytes as stored.
    pub file_bytes: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The directories' bounds as the published layout states them, over
    /// every spelling (and some that are none).
    #[test]
    fn directories_bound_the_lifecycle() {
        let cases = [
            ("candidate", true, false),
            ("reviewed", false, true),
            ("superseded", false, true),
            ("withdrawn", true, true),
            ("Candidate", false, false),
            ("", false, false),
        ];
        for (status, candidates, reviewed) in cases {
            assert_eq!(Directory::Candidates.allows(status), candidates, "{status}");
            assert_eq!(Directory::Reviewed.allows(status), reviewed, "{status}");
        }
        assert_eq!(
            Directory::for_status(Lifecycle::Candidate, false),
            Directory::Candidates
        );
        assert_eq!(
            Directory::for_status(Lifecycle::Withdrawn, false),
            Directory::Candidates
        );
        for status in [
            Lifecycle::Reviewed,
            Lifecycle::Superseded,
            Lifecycle::Withdrawn,
        ] {
            assert_eq!(Directory::for_status(status, true), Directory::Reviewed);
        }
    }
}
