//! Rules over a whole repository of records and its skill registry.
//!
//! A repository is laid out as `experience_records/{candidates,reviewed}/
//! <experience_id>.json` plus `shared_skills/registry.json`. Beyond each
//! record's own checks, a repository must hold each id once, every related
//! experience and superseded record must resolve inside it, and every
//! related skill must name an exact release of the registry. This module is
//! pure: the caller reads the files and hands over their bytes.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::check::check_bytes;
use super::placement::{Directory, Placement};
use super::protocol::MAX_RECORD_BYTES;
use crate::finding::Finding;
use crate::skills::{Registry, Resolution};

/// Path of the records tree inside a repository.
pub const RECORDS_DIR: &str = "experience_records";

/// Path of the skill registry inside a repository.
pub const REGISTRY_PATH: &str = "shared_skills/registry.json";

/// One file found under the records tree.
#[derive(Clone, Debug)]
pub struct RecordFile {
    /// Path relative to the repository root, `/`-separated.
    pub path: String,
    /// The directory it sits in, if it is one of the two record directories.
    pub directory: Option<Directory>,
    /// Its contents, or why they could not be read.
    pub contents: Result<Vec<u8>, String>,
    /// Its size on disk.
    pub file_bytes: usize,
}

/// A finding located in one file of the repository.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Located {
    /// Path relative to the repository root.
    pub path: String,
    /// The finding.
    pub finding: Finding,
}

impl std::fmt::Display for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.finding)
    }
}

/// The outcome of checking a repository.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every rule broken, by path.
    pub findings: Vec<Located>,
    /// Records that are valid but deserve attention: relations to
    /// withdrawn skill releases.
    pub flags: Vec<Located>,
    /// Every record that parsed, by path, whether or not it passed.
    pub records: Vec<(String, Value)>,
}

impl Report {
    /// True when no rule is broken.
    pub fn passed(&self) -> bool {
        self.findings.is_empty()
    }
}

fn at(path: &str, finding: Finding) -> Located {
    Located {
        path: path.to_owned(),
        finding,
    }
}

fn stem(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".json").unwrap_or(name).to_owned()
}

/// Checks every record file and the registry bytes (`None` when the
/// registry file is missing) as one repository.
pub fn check(files: Vec<RecordFile>, registry: Option<Result<Vec<u8>, String>>) -> Report {
    let mut report = Report::default();
    let registry = load_registry(registry, &mut report);
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    for file in files {
        let Some(directory) = file.directory else {
            report.findings.push(at(
                &file.path,
                Finding::new(
                    "",
                    "repo.layout",
                    "a record sits directly under experience_records/candidates/ or experience_records/reviewed/",
                ),
            ));
            continue;
        };
        let bytes = match file.contents {
            Ok(b) => b,
            Err(why) => {
                report
                    .findings
                    .push(at(&file.path, Finding::new("", "repo.unreadable", why)));
                continue;
            }
        };
        if file.file_bytes > MAX_RECORD_BYTES {
            report.findings.push(at(
                &file.path,
                Finding::new(
                    "",
                    "gate.size",
                    format!("a record file holds at most {MAX_RECORD_BYTES} bytes"),
                ),
            ));
            continue;
        }
        let placement = Placement {
            directory,
            stem: stem(&file.path),
            file_bytes: file.file_bytes,
        };
        let (value, findings) = check_bytes(&bytes, Some(&placement));
        report
            .findings
            .extend(findings.into_iter().map(|f| at(&file.path, f)));
        let Some(value) = value else { continue };
        if let Some(id) = value.get("experience_id").and_then(Value::as_str) {
            if let Some(first) = ids.get(id) {
                report.findings.push(at(
                    &file.path,
                    Finding::new(
                        "/experience_id",
                        "repo.duplicate_id",
                        format!("the id is already used by {first}"),
                    ),
                ));
            } else {
                ids.insert(id.to_owned(), file.path.clone());
            }
        }
        report.records.push((file.path, value));
    }
    let known: BTreeSet<&str> = ids.keys().map(String::as_str).collect();
    let (mut findings, mut flags) = (Vec::new(), Vec::new());
    for (path, record) in &report.records {
        let relations = record.get("relations");
        for list in ["related_experiences", "supersedes"] {
            let items = relations
                .and_then(|r| r.get(list))
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            for (i, id) in items.iter().enumerate() {
                // Messages name the rule, never the value: an unresolved
                // "id" may be anything, a pasted secret included.
                if id.as_str().is_some_and(|id| !known.contains(id)) {
                    findings.push(at(
                        path,
                        Finding::new(
                            format!("/relations/{list}/{i}"),
                            "repo.unknown_experience",
                            "no record of this repository has this id",
                        ),
                    ));
                }
            }
        }
        if let Some(registry) = &registry {
            check_skills(path, record, registry, &mut findings, &mut flags);
        }
    }
    report.findings.extend(findings);
    report.flags.extend(flags);
    report.findings.sort();
    report.flags.sort();
    report
}

fn load_registry(
    registry: Option<Result<Vec<u8>, String>>,
    report: &mut Report,
) -> Option<Registry> {
    let bytes = match registry {
        None => {
            report.findings.push(at(
                REGISTRY_PATH,
                Finding::new("", "repo.registry", "the skill registry is missing"),
            ));
            return None;
        }
        Some(Err(why)) => {
            report
                .findings
                .push(at(REGISTRY_PATH, Finding::new("", "repo.unreadable", why)));
            return None;
        }
        Some(Ok(bytes)) => bytes,
    };
    let doc = match crate::canonical::parse_strict(&bytes) {
        Ok(doc) => doc,
        Err(e) => {
            report.findings.push(at(
                REGISTRY_PATH,
                Finding::new(e.path().unwrap_or(""), "json.malformed", e.to_string()),
            ));
            return None;
        }
    };
    match Registry::from_protocol(&doc) {
        Ok(registry) => Some(registry),
        Err(problems) => {
            report
                .findings
                .extend(problems.into_iter().map(|f| at(REGISTRY_PATH, f)));
            None
        }
    }
}

fn check_skills(
    path: &str,
    record: &Value,
    registry: &Registry,
    findings: &mut Vec<Located>,
    flags: &mut Vec<Located>,
) {
    let (unknown, withdrawn) = skill_findings(record, registry);
    findings.extend(unknown.into_iter().map(|f| at(path, f)));
    flags.extend(withdrawn.into_iter().map(|f| at(path, f)));
}

/// How a record's related skills resolve in `registry`: findings for
/// releases that are not there exactly (name, version and digest), and
/// flags for releases that have been withdrawn.
pub fn skill_findings(record: &Value, registry: &Registry) -> (Vec<Finding>, Vec<Finding>) {
    let (mut unknown, mut withdrawn) = (Vec::new(), Vec::new());
    let skills = record
        .pointer("/relations/related_skills")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, skill) in skills.iter().enumerate() {
        let field = |k: &str| skill.get(k).and_then(Value::as_str);
        let (Some(name), Some(version), Some(sha)) =
            (field("name"), field("version"), field("sha256"))
        else {
            continue;
        };
        let pointer = format!("/relations/related_skills/{i}");
        match registry.resolve(name, version, sha) {
            Resolution::Active => {}
            Resolution::Withdrawn => withdrawn.push(Finding::new(
                pointer,
                "repo.withdrawn_skill",
                "the related skill release has been withdrawn",
            )),
            Resolution::Unknown => unknown.push(Finding::new(
                pointer,
                "repo.unknown_skill",
                format!("no release with this name, version and digest is in {REGISTRY_PATH}"),
            )),
        }
    }
    (unknown, withdrawn)
}
