//! The skill registry: immutable skill releases that experience records may
//! relate to.
//!
//! A release is identified by (name, version) and pinned by the SHA-256 of
//! its artifact. Once published, a version's digest never changes; a
//! release can only be withdrawn, which is recorded and never erases it.
//! A record relating to a release names all three of name, version and
//! digest, so a relation can never silently follow a changed artifact.
//!
//! [`project`] holds the rules of a project's own skill files, which share
//! the registry's name rule.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::finding::Finding;
use crate::screen;

pub mod project;

/// Longest release summary.
pub const MAX_SUMMARY_CHARS: usize = 1000;

/// One immutable skill release.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillRelease {
    /// Skill name: lowercase words joined by single hyphens.
    pub name: String,
    /// Semantic version `MAJOR.MINOR.PATCH`.
    pub version: String,
    /// Lowercase hex SHA-256 of the release artifact.
    pub sha256: String,
    /// Artifact size in bytes.
    pub size: u64,
    /// What the release is for.
    pub summary: String,
    /// Who published it and from where, as given at publication.
    pub provenance: Value,
}

/// Why and when a release was withdrawn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    /// When, as RFC 3339 text.
    pub at: String,
    /// Why.
    pub reason: String,
}

/// A release and its withdrawal, if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistryEntry {
    /// The release.
    pub release: SkillRelease,
    /// Set once the release is withdrawn.
    pub withdrawal: Option<Withdrawal>,
}

/// A release as a namespace's registry holds it: its entry and the
/// position of its publication in the tenant's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedSkill {
    /// The release.
    pub release: SkillRelease,
    /// Its withdrawal, if any.
    pub withdrawal: Option<Withdrawal>,
    /// Ledger position of its publication.
    pub position: u64,
}

/// Every release known to a repository, keyed by (name, version).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registry {
    entries: BTreeMap<(String, String), RegistryEntry>,
}

/// How a relation to a skill release resolves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// An exact, active release.
    Active,
    /// An exact release that has been withdrawn.
    Withdrawn,
    /// No release with that name, version and digest.
    Unknown,
}

fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Whether `name` is a valid skill name: 1-100 lowercase letters and
/// digits in hyphen-separated words, the rule [`SkillRelease::problems`]
/// applies, shared so a project's skill folders follow it too.
pub fn is_skill_name(name: &str) -> bool {
    is_slug(name) && name.len() <= 100
}

fn is_semver(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn is_sha256(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl SkillRelease {
    /// Every rule the release breaks, with pointers relative to `at`.
    pub fn problems(&self, at: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        if !is_slug(&self.name) || self.name.len() > 100 {
            out.push(Finding::new(
                format!("{at}/name"),
                "skill.name",
                "a skill name is 1-100 lowercase letters and digits in hyphen-separated words",
            ));
        }
        if !is_semver(&self.version) || self.version.len() > 64 {
            out.push(Finding::new(
                format!("{at}/version"),
                "skill.version",
                "a version is MAJOR.MINOR.PATCH in decimal digits",
            ));
        }
        if !is_sha256(&self.sha256) {
            out.push(Finding::new(
                format!("{at}/sha256"),
                "skill.sha256",
                "a release digest is 64 lowercase hex digits",
            ));
        }
        if self.summary.trim().is_empty() || self.summary.chars().count() > MAX_SUMMARY_CHARS {
            out.push(Finding::new(
                format!("{at}/summary"),
                "skill.summary",
                format!("a summary is 1-{MAX_SUMMARY_CHARS} characters"),
            ));
        }
        out
    }

    /// Every problem of a release about to be published, with pointers
    /// relative to `at`: its own rules ([`SkillRelease::problems`]) and
    /// what screening finds in its summary and provenance, which are
    /// published for good and so are screened like record text.
    pub fn publication_problems(&self, at: &str) -> Vec<Finding> {
        let mut out = self.problems(at);
        let published = json!({ "summary": self.summary, "provenance": self.provenance });
        out.extend(screen::findings(&published).into_iter().map(|mut f| {
            f.pointer = format!("{at}{}", f.pointer);
            f
        }));
        out
    }
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// Adds a release. The same (name, version) may be added again only
    /// with the identical release; any other content is refused, because a
    /// published version never changes.
    pub fn publish(&mut self, release: SkillRelease) -> Result<(), Finding> {
        let key = (release.name.clone(), release.version.clone());
        match self.entries.get(&key) {
            Some(existing) if existing.release == release => Ok(()),
            Some(_) => Err(Finding::new(
                "",
                "skill.immutable",
                format!(
                    "release {}@{} is already published with other content",
                    release.name, release.version
                ),
            )),
            None => {
                self.entries.insert(
                    key,
                    RegistryEntry {
                        release,
                        withdrawal: None,
                    },
                );
                Ok(())
            }
        }
    }

    /// Marks a release withdrawn; withdrawing twice keeps the first record.
    pub fn withdraw(&mut self, name: &str, version: &str, withdrawal: Withdrawal) -> bool {
        match self.entries.get_mut(&(name.to_owned(), version.to_owned())) {
            Some(entry) => {
                entry.withdrawal.get_or_insert(withdrawal);
                true
            }
            None => false,
        }
    }

    /// The entry for (name, version).
    pub fn get(&self, name: &str, version: &str) -> Option<&RegistryEntry> {
        self.entries.get(&(name.to_owned(), version.to_owned()))
    }

    /// How a relation naming (name, version, sha256) resolves.
    pub fn resolve(&self, name: &str, version: &str, sha256: &str) -> Resolution {
        match self.get(name, version) {
            Some(e) if e.release.sha256 == sha256 => match e.withdrawal {
                Some(_) => Resolution::Withdrawn,
                None => Resolution::Active,
            },
            _ => Resolution::Unknown,
        }
    }

    /// Every entry, by name then version.
    pub fn entries(&self) -> impl Iterator<Item = &RegistryEntry> {
        self.entries.values()
    }

    /// Reads a registry file in the protocol's layout
    /// (`{"skills":[{"name","releases":[{"version","summary","artifact":
    /// {"sha256","size_bytes"},"provenance","withdrawal"}]}]}`), reporting
    /// every malformed release rather than stopping at the first.
    pub fn from_protocol(doc: &Value) -> Result<Registry, Vec<Finding>> {
        let mut registry = Registry::new();
        let mut problems = Vec::new();
        let Some(skills) = doc.get("skills").and_then(Value::as_array) else {
            return Err(vec![Finding::new(
                "/skills",
                "skill.registry",
                "a registry holds a `skills` array",
            )]);
        };
        for (i, skill) in skills.iter().enumerate() {
            let Some(name) = skill.get("name").and_then(Value::as_str) else {
                problems.push(Finding::new(
                    format!("/skills/{i}/name"),
                    "skill.name",
                    "every skill has a name",
                ));
                continue;
            };
            let releases = skill
                .get("releases")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            for (j, r) in releases.iter().enumerate() {
                let at = format!("/skills/{i}/releases/{j}");
                let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
                let artifact = r.get("artifact");
                let release = SkillRelease {
                    name: name.to_owned(),
                    version: text(r.get("version")),
                    sha256: text(artifact.and_then(|a| a.get("sha256"))),
                    size: artifact
                        .and_then(|a| a.get("size_bytes"))
                        .and_then(Value::as_u64)
                        .unwrap_or(0),
                    summary: text(r.get("summary")),
                    provenance: r.get("provenance").cloned().unwrap_or(Value::Null),
                };
                let found = release.problems(&at);
                if !found.is_empty() {
                    problems.extend(found);
                    continue;
                }
                let (version, withdrawal) = (release.version.clone(), r.get("withdrawal"));
                if let Err(mut f) = registry.publish(release) {
                    f.pointer = at;
                    problems.push(f);
                    continue;
                }
                if let Some(w) = withdrawal.filter(|w| !w.is_null()) {
                    let withdrawal = Withdrawal {
                        at: text(w.get("withdrawn_at").or_else(|| w.get("at"))),
                        reason: text(w.get("reason")),
                    };
                    registry.withdraw(name, &version, withdrawal);
                }
            }
        }
        if problems.is_empty() {
            Ok(registry)
        } else {
            Err(problems)
        }
    }

    /// The registry in the protocol's layout, with skills and releases in a
    /// stable order so that the file is byte-stable once canonicalized.
    pub fn to_protocol(&self, revision: u64) -> Value {
        let mut skills: BTreeMap<&str, Vec<&RegistryEntry>> = BTreeMap::new();
        for e in self.entries.values() {
            skills.entry(&e.release.name).or_default().push(e);
        }
        let skills: Vec<Value> = skills
            .into_iter()
            .map(|(name, mut releases)| {
                releases.sort_by_key(|e| semver_key(&e.release.version));
                let latest = releases
                    .iter()
                    .rev()
                    .find(|e| e.withdrawal.is_none())
                    .map(|e| e.release.version.clone());
                let releases: Vec<Value> = releases
                    .iter()
                    .map(|e| {
                        json!({
                            "version": e.release.version,
                            "summary": e.release.summary,
                            "status": if e.withdrawal.is_some() { "withdrawn" } else { "active" },
                            "provenance": e.release.provenance,
                            "artifact": {
                                "sha256": e.release.sha256,
                                "size_bytes": e.release.size,
                            },
                            "withdrawal": e.withdrawal.as_ref().map(|w| json!({
                                "withdrawn_at": w.at,
                                "reason": w.reason,
                            })),
                        })
                    })
                    .collect();
                json!({ "name": name, "latest": latest, "releases": releases })
            })
            .collect();
        json!({ "schema_version": "1.0", "revision": revision, "skills": skills })
    }
}

/// Numeric ordering of `MAJOR.MINOR.PATCH` (valid versions only).
fn semver_key(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(version: &str, sha: char) -> SkillRelease {
        SkillRelease {
            name: "junction-migration".into(),
            version: version.into(),
            sha256: sha.to_string().repeat(64),
            size: 10,
            summary: "Moves a directory behind a junction.".into(),
            provenance: json!({"kind": "maintainer-authored"}),
        }
    }

    #[test]
    fn publication_screens_what_is_published() {
        let clean = release("1.0.0", 'a');
        assert!(clean.publication_problems("/release").is_empty());
        let mut leaky = release("1.0", 'z');
        leaky.summary = "Run from /home/mara/skills".into();
        leaky.provenance = json!({"kind": "maintainer-authored",
            "token": "ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U"});
        let found = leaky.publication_problems("/release");
        let got: Vec<(&str, &str)> = found
            .iter()
            .map(|f| (f.pointer.as_str(), f.rule.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("/release/version", "skill.version"),
                ("/release/sha256", "skill.sha256"),
                ("/release/provenance/token", "screen.credential.github"),
                ("/release/summary", "screen.home_path"),
            ]
        );
        // Exactly what the server screened before this method existed.
        let mut expected = leaky.problems("/release");
        expected.extend(screen::findings(&json!({ "release": {
            "summary": leaky.summary,
            "provenance": leaky.provenance,
        }})));
        assert_eq!(found, expected);
    }

    #[test]
    fn a_published_version_never_changes() {
        let mut r = Registry::new();
        r.publish(release("1.0.0", 'a')).unwrap();
        r.publish(release("1.0.0", 'a')).unwrap();
        let refused = r.publish(release("1.0.0", 'b')).unwrap_err();
        assert_eq!(refused.rule, "skill.immutable");
        assert_eq!(
            r.get("junction-migration", "1.0.0").unwrap().release.sha256,
            "a".repeat(64)
        );
    }

    #[test]
    fn resolution_needs_the_exact_digest_and_sees_withdrawal() {
        let mut r = Registry::new();
        r.publish(release("1.0.0", 'a')).unwrap();
        assert_eq!(
            r.resolve("junction-migration", "1.0.0", &"a".repeat(64)),
            Resolution::Active
        );
        assert_eq!(
            r.resolve("junction-migration", "1.0.0", &"b".repeat(64)),
            Resolution::Unknown
        );
        assert_eq!(
            r.resolve("junction-migration", "1.0.1", &"a".repeat(64)),
            Resolution::Unknown
        );
        let w = Withdrawal {
            at: "2026-11-29T00:00:00Z".into(),
            reason: "unsafe step".into(),
        };
        assert!(r.withdraw("junction-migration", "1.0.0", w));
        assert_eq!(
            r.resolve("junction-migration", "1.0.0", &"a".repeat(64)),
            Resolution::Withdrawn
        );
    }

    #[test]
    fn protocol_layout_round_trips() {
        let mut r = Registry::new();
        r.publish(release("1.0.10", 'a')).unwrap();
        r.publish(release("1.0.9", 'b')).unwrap();
        let w = Withdrawal {
            at: "2026-11-29T00:00:00Z".into(),
            reason: "superseded".into(),
        };
        r.withdraw("junction-migration", "1.0.10", w);
        let doc = r.to_protocol(3);
        assert_eq!(doc["skills"][0]["releases"][0]["version"], "1.0.9");
        assert_eq!(doc["skills"][0]["latest"], "1.0.9");
        assert_eq!(Registry::from_protocol(&doc).unwrap(), r);
    }

    #[test]
    fn malformed_releases_are_all_reported() {
        let doc = json!({"skills": [{"name": "Bad Name", "releases": [
            {"version": "1.0", "summary": "", "artifact": {"sha256": "xyz", "size_bytes": 1}}
        ]}]});
        let problems = Registry::from_protocol(&doc).unwrap_err();
        let rules: Vec<&str> = problems.iter().map(|f| f.rule.as_str()).collect();
        assert_eq!(
            rules,
            [
                "skill.name",
                "skill.version",
                "skill.sha256",
                "skill.summary"
            ]
        );
    }
}
