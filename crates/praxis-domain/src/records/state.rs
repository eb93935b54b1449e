//! A record's lifecycle and review status as types, spelled on the wire and
//! in documents exactly as the v0.1 schema spells them.
//!
//! Documents keep these as text (the schema is the contract); code that
//! decides on them parses once and compares enums, so that a misspelled
//! status cannot silently compare unequal.

use std::fmt;

use serde::{Deserialize, Serialize};

/// `lifecycle.status`: where a record stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lifecycle {
    /// Submitted, not yet approved; its source may still revise it.
    Candidate,
    /// Approved by a reviewer or by the automated policy.
    Reviewed,
    /// Replaced by an approved record that names it in `supersedes`.
    Superseded,
    /// Withdrawn, with a reason; its identity and history stay.
    Withdrawn,
}

impl Lifecycle {
    /// Every status, in the order a record can move through them.
    pub const ALL: [Lifecycle; 4] = [
        Lifecycle::Candidate,
        Lifecycle::Reviewed,
        Lifecycle::Superseded,
        Lifecycle::Withdrawn,
    ];

    /// The schema's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Lifecycle::Candidate => "candidate",
            Lifecycle::Reviewed => "reviewed",
            Lifecycle::Superseded => "superseded",
            Lifecycle::Withdrawn => "withdrawn",
        }
    }

    /// Parses the schema's spelling (exactly; no other case or spacing).
    pub fn parse(s: &str) -> Option<Lifecycle> {
        Lifecycle::ALL.into_iter().find(|l| l.as_str() == s)
    }
}

impl fmt::Display for Lifecycle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `review.status`: what review decided, if anything yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReviewStatus {
    /// Not reviewed yet.
    Pending,
    /// Approved: the record is reviewed.
    Approved,
    /// A reviewer asked for changes: the record stays a candidate.
    ChangesRequested,
}

impl ReviewStatus {
    /// Every status, pending first.
    pub const ALL: [ReviewStatus; 3] = [
        ReviewStatus::Pending,
        ReviewStatus::Approved,
        ReviewStatus::ChangesRequested,
    ];

    /// The schema's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewStatus::Pending => "pending",
            ReviewStatus::Approved => "approved",
            ReviewStatus::ChangesRequested => "changes-requested",
        }
    }

    /// Parses the schema's spelling (exactly; no other case or spacing).
    pub fn parse(s: &str) -> Option<ReviewStatus> {
        ReviewStatus::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

impl fmt::Display for ReviewStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `context.platform`: where the episode happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Platform {
    /// Windows.
    Windows,
    /// macOS.
    Macos,
    /// Linux.
    Linux,
    /// More than one platform.
    CrossPlatform,
    /// Any other platform.
    Other,
}

impl Platform {
    /// Every platform the schema names.
    pub const ALL: [Platform; 5] = [
        Platform::Windows,
        Platform::Macos,
        Platform::Linux,
        Platform::CrossPlatform,
        Platform::Other,
    ];

    /// The schema's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Windows => "windows",
            Platform::Macos => "macos",
            Platform::Linux => "linux",
            Platform::CrossPlatform => "cross-platform",
            Platform::Other => "other",
        }
    }

    /// Parses the schema's spelling (exactly).
    pub fn parse(s: &str) -> Option<Platform> {
        Platform::ALL.into_iter().find(|p| p.as_str() == s)
    }
}

/// `verification.level`: how far the record's claim was verified.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum VerificationLevel {
    /// Seen by the author only.
    SelfObserved,
    /// Checked locally by a reproducible check.
    LocallyVerified,
    /// Reproduced by a passing external run.
    IndependentlyReproduced,
}

impl VerificationLevel {
    /// Every level, weakest first.
    pub const ALL: [VerificationLevel; 3] = [
        VerificationLevel::SelfObserved,
        VerificationLevel::LocallyVerified,
        VerificationLevel::IndependentlyReproduced,
    ];

    /// The schema's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            VerificationLevel::SelfObserved => "self-observed",
            VerificationLevel::LocallyVerified => "locally-verified",
            VerificationLevel::IndependentlyReproduced => "independently-reproduced",
        }
    }

    /// Parses the schema's spelling (exactly).
    pub fn parse(s: &str) -> Option<VerificationLevel> {
        VerificationLevel::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::{Value, json};

    use super::*;

    /// The spellings the schema enumerates, read from the schema itself so
    /// that the enums cannot drift from it.
    fn schema_enum(pointer: &str) -> Vec<String> {
        let schema: Value = serde_json::from_str(crate::records::schema::SCHEMA_JSON).unwrap();
        schema
            .pointer(pointer)
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("no enum at {pointer}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    }

    #[test]
    fn spellings_are_the_schemas() {
        let ours: Vec<&str> = Lifecycle::ALL.iter().map(|l| l.as_str()).collect();
        assert_eq!(
            schema_enum("/$defs/lifecycleState/properties/status/enum"),
            ours
        );
        let ours: Vec<&str> = ReviewStatus::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(
            schema_enum("/$defs/reviewDecision/properties/status/enum"),
            ours
        );
        let ours: Vec<&str> = Platform::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(
            schema_enum("/$defs/observationContext/properties/platform/enum"),
            ours
        );
        let ours: Vec<&str> = VerificationLevel::ALL.iter().map(|v| v.as_str()).collect();
        assert_eq!(
            schema_enum("/$defs/verificationClaim/properties/level/enum"),
            ours
        );
        for p in Platform::ALL {
            assert_eq!(serde_json::to_value(p).unwrap(), json!(p.as_str()));
            assert_eq!(Platform::parse(p.as_str()), Some(p));
        }
        for v in VerificationLevel::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), json!(v.as_str()));
            assert_eq!(VerificationLevel::parse(v.as_str()), Some(v));
        }
    }

    #[test]
    fn serde_and_display_use_the_same_spelling() {
        for l in Lifecycle::ALL {
            assert_eq!(serde_json::to_value(l).unwrap(), json!(l.as_str()));
            assert_eq!(
                serde_json::from_value::<Lifecycle>(json!(l.as_str())).unwrap(),
                l
            );
            assert_eq!(l.to_string(), l.as_str());
            assert_eq!(Lifecycle::parse(l.as_str()), Some(l));
        }
        for r in ReviewStatus::ALL {
            assert_eq!(serde_json::to_value(r).unwrap(), json!(r.as_str()));
            assert_eq!(
                serde_json::from_value::<ReviewStatus>(json!(r.as_str())).unwrap(),
                r
            );
            assert_eq!(r.to_string(), r.as_str());
            assert_eq!(ReviewStatus::parse(r.as_str()), Some(r));
        }
        assert_eq!(ReviewStatus::ChangesRequested.as_str(), "changes-requested");
        assert!(serde_json::from_value::<Lifecycle>(json!("Candidate")).is_err());
        assert!(serde_json::from_value::<ReviewStatus>(json!("changes_requested")).is_err());
    }

    proptest! {
        /// Parsing accepts exactly the spellings and gives them back.
        #[test]
        fn parsing_accepts_only_the_spellings(s in "\\PC{0,20}|candidate|reviewed|approved|changes-requested") {
            if let Some(l) = Lifecycle::parse(&s) {
                prop_assert_eq!(l.as_str(), s.as_str());
            }
            if let Some(r) = ReviewStatus::parse(&s) {
                prop_assert_eq!(r.as_str(), s.as_str());
            }
            let known = Lifecycle::ALL.iter().any(|l| l.as_str() == s)
                || ReviewStatus::ALL.iter().any(|r| r.as_str() == s);
            prop_assert_eq!(known, Lifecycle::parse(&s).is_some() || ReviewStatus::parse(&s).is_some());
        }
    }
}
