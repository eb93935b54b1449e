//! The policy gate: cross-field rules the schema cannot express.
//!
//! The gate reads a decoded record that may be malformed. A rule whose
//! fields are missing or of the wrong type is skipped, since the schema
//! already reports those; nothing here panics on bad input. Every finding
//! points at the offending value and carries a stable `gate.<name>` code.
//! Messages name fields, rules and other pointers, never the record's
//! values, because a record may hold text that must not be repeated.
//!
//! Decisions where the protocol leaves room:
//!
//! - Timestamps are strict RFC 3339 with seconds, an uppercase `T` and `Z`,
//!   at most nine fraction digits (the precision an instant is compared
//!   at) and no leap second.
//! - `experience_id` is at most 200 bytes (`gate.id_length`): Praxis keys
//!   records, list cursors and URLs by it, and the protocol sets no bound.
//! - The date suffix of `experience_id` is compared with the literal date
//!   text of `context.observed_at`, not with its UTC date, as the published
//!   validator does: an observation at `2026-07-31T23:30:00-02:00` belongs
//!   to `…-20260731`.
//! - Under `independently-reproduced`, the supporting passing
//!   `external-run` check must cite at least one evidence item, and every
//!   check (not only that one) may cite public evidence only: the level is
//!   a claim about the whole verification, and local or redacted evidence
//!   cannot support it.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use jiff::civil::{Date, DateTime, Time};
use jiff::tz::Offset;
use serde_json::Value;

use super::placement::Placement;
use super::protocol::MAX_RECORD_BYTES;
use crate::finding::Finding;

/// Policy-gate findings of `record`, read from `placement` when given.
pub fn findings(record: &Value, placement: Option<&Placement>) -> Vec<Finding> {
    let mut gate = Gate {
        record,
        evidence: evidence_index(record),
        out: Vec::new(),
    };
    gate.timestamps();
    gate.chronology();
    gate.attempts();
    gate.passing_check();
    gate.evidence_refs();
    gate.duplicate_ids();
    gate.duplicate_items();
    gate.independent_reproduction();
    gate.automated_review();
    gate.workflow_bindings();
    gate.source_issue();
    gate.public_issue_evidence();
    gate.id_date();
    gate.id_length();
    gate.self_relation();
    gate.redaction_pending();
    gate.placement(placement);
    gate.size(placement);
    gate.out
}

/// Longest `experience_id` Praxis keeps, in bytes.
pub const MAX_ID_BYTES: usize = 200;

/// Checks `text` as a strict RFC 3339 timestamp,
/// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, naming a real calendar date,
/// time of day and offset, and returns its instant. The error explains the
/// rule without repeating the text.
pub fn parse_timestamp(text: &str) -> Result<jiff::Timestamp, &'static str> {
    const SHAPE: &str = "must be an RFC 3339 timestamp YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM) \
                         with an uppercase T and Z and at most nine fraction digits";
    let b = text.as_bytes();
    let digits = |from: usize, len: usize| -> Option<i32> {
        let part = b.get(from..from + len)?;
        part.iter().try_fold(0i32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + i32::from(c - b'0'))
        })
    };
    let at = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(at(4, b'-') && at(7, b'-') && at(10, b'T') && at(13, b':') && at(16, b':')) {
        return Err(SHAPE);
    }
    let (Some(year), Some(month), Some(day), Some(hour), Some(minute), Some(second)) = (
        digits(0, 4),
        digits(5, 2),
        digits(8, 2),
        digits(11, 2),
        digits(14, 2),
        digits(17, 2),
    ) else {
        return Err(SHAPE);
    };
    let mut i = 19;
    let mut nanos = 0i32;
    if at(i, b'.') {
        let start = i + 1;
        let len = b[start..].iter().take_while(|c| c.is_ascii_digit()).count();
        if len == 0 || len > 9 {
            return Err(SHAPE);
        }
        nanos = digits(start, len).ok_or(SHAPE)? * 10i32.pow(9 - len as u32);
        i = start + len;
    }
    let offset_seconds = match b.get(i) {
        Some(b'Z') if b.len() == i + 1 => 0,
        Some(&sign @ (b'+' | b'-')) if b.len() == i + 6 && at(i + 3, b':') => {
            let (Some(hh), Some(mm)) = (digits(i + 1, 2), digits(i + 4, 2)) else {
                return Err(SHAPE);
            };
            if hh > 23 || mm > 59 {
                return Err("has an offset outside ±23:59");
            }
            let seconds = hh * 3600 + mm * 60;
            if sign == b'-' { -seconds } else { seconds }
        }
        _ => return Err(SHAPE),
    };
    // The ranges were checked as digits above, so the narrowing casts hold.
    let date = Date::new(year as i16, month as i8, day as i8)
        .map_err(|_| "names a calendar date that does not exist")?;
    let time = Time::new(hour as i8, minute as i8, second as i8, nanos)
        .map_err(|_| "names a time of day that does not exist")?;
    let offset = Offset::from_seconds(offset_seconds).map_err(|_| "has an offset out of range")?;
    offset
        .to_timestamp(DateTime::from_parts(date, time))
        .map_err(|_| "is outside the supported range of instants")
}

/// Date-time fields of a record, as pointers; `*` stands for each index of
/// the array before it.
const TIMESTAMP_FIELDS: &[&str] = &[
    "/lifecycle/created_at",
    "/lifecycle/updated_at",
    "/review/reviewed_at",
    "/screening/screened_at",
    "/context/observed_at",
    "/verification/checks/*/observed_at",
    "/evidence/*/captured_at",
    "/evidence/*/machine_verification/verified_at",
    "/provenance/captured_at",
];

/// String lists that must not repeat an item; per-item lists follow in
/// [`Gate::duplicate_items`].
const UNIQUE_LISTS: &[&str] = &[
    "/context/environment",
    "/context/constraints",
    "/symptom/signals",
    "/resolution/steps",
    "/applicability/applies_when",
    "/applicability/avoid_when",
    "/rollback/conditions",
    "/rollback/steps",
    "/screening/findings",
    "/provenance/source_evidence_refs",
    "/relations/related_experiences",
    "/relations/derived_skill_candidates",
    "/relations/supersedes",
    "/redaction/removed_categories",
];

/// A declared evidence item, as far as references to it matter.
#[derive(Clone, Copy)]
struct Declared<'a> {
    visibility: Option<&'a str>,
}

impl Declared<'_> {
    fn is_public(self) -> bool {
        self.visibility == Some("public")
    }
}

/// Declared evidence by id, first declaration winning; `None` when the
/// record has no evidence array, which turns off the reference rules.
fn evidence_index(record: &Value) -> Option<HashMap<&str, Declared<'_>>> {
    let items = record.pointer("/evidence")?.as_array()?;
    let mut index = HashMap::new();
    for item in items {
        if let Some(id) = item.get("evidence_id").and_then(Value::as_str) {
            index.entry(id).or_insert(Declared {
                visibility: item.get("visibility").and_then(Value::as_str),
            });
        }
    }
    Some(index)
}

struct Gate<'a> {
    record: &'a Value,
    evidence: Option<HashMap<&'a str, Declared<'a>>>,
    out: Vec<Finding>,
}

impl<'a> Gate<'a> {
    fn push(&mut self, pointer: impl Into<String>, rule: &str, message: impl Into<String>) {
        self.out.push(Finding::new(pointer, rule, message));
    }

    fn get(&self, pointer: &str) -> Option<&'a Value> {
        self.record.pointer(pointer)
    }

    fn str(&self, pointer: &str) -> Option<&'a str> {
        self.get(pointer).and_then(Value::as_str)
    }

    fn array(&self, pointer: &str) -> &'a [Value] {
        self.get(pointer)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The string items of the list at `pointer`, with their pointers.
    fn strings(&self, pointer: &str) -> Vec<(String, &'a str)> {
        self.array(pointer)
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((format!("{pointer}/{i}"), v.as_str()?)))
            .collect()
    }

    /// Pointers of every list of evidence references in the record.
    fn reference_lists(&self) -> Vec<String> {
        let mut lists: Vec<String> = (0..self.array("/attempts").len())
            .map(|i| format!("/attempts/{i}/evidence_refs"))
            .collect();
        lists.extend(
            (0..self.array("/verification/checks").len())
                .map(|i| format!("/verification/checks/{i}/evidence_refs")),
        );
        lists.push("/provenance/source_evidence_refs".to_owned());
        lists
    }

    /// The evidence a reference names, if it is declared.
    fn resolve(&self, reference: &str) -> Option<Declared<'a>> {
        self.evidence.as_ref()?.get(reference).copied()
    }

    /// Expands `*` segments of a field pattern into concrete pointers.
    fn expand(&self, pattern: &str) -> Vec<String> {
        match pattern.split_once("/*") {
            None => vec![pattern.to_owned()],
            Some((array, rest)) => (0..self.array(array).len())
                .flat_map(|i| self.expand(&format!("{array}/{i}{rest}")))
                .collect(),
        }
    }

    fn timestamps(&mut self) {
        for pattern in TIMESTAMP_FIELDS {
            for pointer in self.expand(pattern) {
                if let Some(Err(why)) = self.str(&pointer).map(parse_timestamp) {
                    self.push(pointer, "gate.timestamp", why);
                }
            }
        }
    }

    fn instant(&self, pointer: &str) -> Option<jiff::Timestamp> {
        self.str(pointer).and_then(|t| parse_timestamp(t).ok())
    }

    fn chronology(&mut self) {
        let Some(updated) = self.instant("/lifecycle/updated_at") else {
            return;
        };
        if self
            .instant("/lifecycle/created_at")
            .is_some_and(|created| updated < created)
        {
            self.push(
                "/lifecycle/updated_at",
                "gate.chronology",
                "lifecycle.updated_at must not be earlier than lifecycle.created_at",
            );
        }
        if self
            .instant("/review/reviewed_at")
            .is_some_and(|reviewed| updated < reviewed)
        {
            self.push(
                "/lifecycle/updated_at",
                "gate.chronology",
                "lifecycle.updated_at must not be earlier than review.reviewed_at",
            );
        }
    }

    fn attempts(&mut self) {
        let attempts = self.array("/attempts");
        for (i, attempt) in attempts.iter().enumerate() {
            match attempt.get("sequence").and_then(Value::as_u64) {
                Some(n) if n == i as u64 + 1 => {}
                Some(_) => {
                    self.push(
                        format!("/attempts/{i}/sequence"),
                        "gate.attempt_sequence",
                        format!(
                            "attempts must be numbered 1 to {} in order; this one must be {}",
                            attempts.len(),
                            i + 1
                        ),
                    );
                    break;
                }
                // Not a number: the schema reports it, and later numbers
                // cannot be judged against it.
                None => break,
            }
        }
        for (i, attempt) in attempts.iter().enumerate() {
            let failing = match attempt.get("result").and_then(Value::as_str) {
                Some("failed" | "partial") => true,
                Some("succeeded" | "skipped") => false,
                _ => continue,
            };
            match (failing, attempt.get("failure_mechanism").is_some()) {
                (true, false) => self.push(
                    format!("/attempts/{i}"),
                    "gate.failure_mechanism",
                    "a failed or partial attempt must state its failure_mechanism",
                ),
                (false, true) => self.push(
                    format!("/attempts/{i}/failure_mechanism"),
                    "gate.failure_mechanism",
                    "only a failed or partial attempt has a failure_mechanism",
                ),
                _ => {}
            }
        }
    }

    fn passing_check(&mut self) {
        let Some(checks) = self.get("/verification/checks").and_then(Value::as_array) else {
            return;
        };
        if !checks
            .iter()
            .any(|c| c.get("result").and_then(Value::as_str) == Some("pass"))
        {
            self.push(
                "/verification/checks",
                "gate.passing_check",
                "at least one verification check must pass",
            );
        }
    }

    fn evidence_refs(&mut self) {
        if self.evidence.is_none() {
            return;
        }
        for list in self.reference_lists() {
            for (pointer, reference) in self.strings(&list) {
                if self.resolve(reference).is_none() {
                    self.push(
                        pointer,
                        "gate.evidence_ref",
                        "evidence reference does not name a declared evidence_id",
                    );
                }
            }
        }
    }

    fn duplicate_ids(&mut self) {
        for (array, field) in [
            ("/evidence", "evidence_id"),
            ("/verification/checks", "check_id"),
        ] {
            let mut seen: HashMap<&str, usize> = HashMap::new();
            for (i, item) in self.array(array).iter().enumerate() {
                let Some(id) = item.get(field).and_then(Value::as_str) else {
                    continue;
                };
                match seen.entry(id) {
                    Entry::Occupied(first) => {
                        let message = format!("repeats the {field} of {array}/{}", first.get());
                        self.push(format!("{array}/{i}/{field}"), "gate.duplicate_id", message);
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(i);
                    }
                }
            }
        }
    }

    fn duplicate_items(&mut self) {
        let mut lists: Vec<String> = UNIQUE_LISTS.iter().map(|&p| p.to_owned()).collect();
        lists.extend(
            self.reference_lists()
                .into_iter()
                .filter(|p| p.starts_with("/attempts") || p.starts_with("/verification")),
        );
        for list in lists {
            let mut seen: HashMap<&str, String> = HashMap::new();
            for (pointer, item) in self.strings(&list) {
                if let Some(first) = seen.get(item) {
                    let message = format!("repeats the item at {first}");
                    self.push(pointer, "gate.duplicate_item", message);
                } else {
                    seen.insert(item, pointer);
                }
            }
        }
        let mut releases: HashMap<(&str, &str, &str), usize> = HashMap::new();
        for (i, skill) in self.array("/relations/related_skills").iter().enumerate() {
            let field = |name: &str| skill.get(name).and_then(Value::as_str);
            let (Some(name), Some(version), Some(sha256)) =
                (field("name"), field("version"), field("sha256"))
            else {
                continue;
            };
            if let Some(first) = releases.get(&(name, version, sha256)) {
                let message = format!(
                    "repeats the skill release (name, version, sha256) of /relations/related_skills/{first}"
                );
                self.push(
                    format!("/relations/related_skills/{i}"),
                    "gate.duplicate_item",
                    message,
                );
            } else {
                releases.insert((name, version, sha256), i);
            }
        }
    }

    fn independent_reproduction(&mut self) {
        if self.str("/verification/level") != Some("independently-reproduced") {
            return;
        }
        let Some(checks) = self.get("/verification/checks").and_then(Value::as_array) else {
            return;
        };
        let supported = checks.iter().any(|c| {
            c.get("method").and_then(Value::as_str) == Some("external-run")
                && c.get("result").and_then(Value::as_str) == Some("pass")
                && c.get("evidence_refs")
                    .and_then(Value::as_array)
                    .is_some_and(|refs| !refs.is_empty())
        });
        if !supported {
            self.push(
                "/verification/level",
                "gate.independent_reproduction",
                "an independently-reproduced level needs a passing external-run check \
                 that cites evidence",
            );
        }
        for i in 0..checks.len() {
            for (pointer, reference) in
                self.strings(&format!("/verification/checks/{i}/evidence_refs"))
            {
                if self.resolve(reference).is_some_and(|d| !d.is_public()) {
                    self.push(
                        pointer,
                        "gate.independent_reproduction",
                        "under an independently-reproduced level, checks may cite public \
                         evidence only",
                    );
                }
            }
        }
    }

    fn automated_review(&mut self) {
        if self.str("/review/mode") != Some("automated-policy") {
            return;
        }
        if let (Some(reviewer), Some(method)) =
            (self.str("/review/reviewer"), self.str("/screening/method"))
            && reviewer != method
        {
            self.push(
                "/review/reviewer",
                "gate.automated_review",
                "an automated-policy review must name the gate of screening.method",
            );
        }
        // The same text implies the same instant; different texts for one
        // instant are still refused, so the receipts match byte for byte.
        if let (Some(reviewed), Some(screened)) = (
            self.str("/review/reviewed_at"),
            self.str("/screening/screened_at"),
        ) && reviewed != screened
        {
            self.push(
                "/review/reviewed_at",
                "gate.automated_review",
                "an automated-policy review must carry the timestamp of \
                 screening.screened_at, written identically",
            );
        }
    }

    fn workflow_bindings(&mut self) {
        for (i, item) in self.array("/evidence").iter().enumerate() {
            if item.get("kind").and_then(Value::as_str) != Some("workflow-run") {
                continue;
            }
            let (Some(source), Some(receipt)) = (
                item.get("source").filter(|v| v.is_object()),
                item.get("machine_verification").filter(|v| v.is_object()),
            ) else {
                continue;
            };
            for (pointer, message) in workflow_binding(source, receipt) {
                self.push(
                    format!("/evidence/{i}/{pointer}"),
                    "gate.workflow_binding",
                    message,
                );
            }
        }
    }

    fn source_issue(&mut self) {
        let Some(issue) = self
            .get("/provenance/source_issue")
            .filter(|v| v.is_object())
        else {
            return;
        };
        if let (Some(repository), Some(number), Some(url)) = (
            issue.get("repository").and_then(Value::as_str),
            issue.get("issue_number").and_then(Value::as_u64),
            issue.get("url").and_then(Value::as_str),
        ) && url != format!("https://github.com/{repository}/issues/{number}")
        {
            self.push(
                "/provenance/source_issue/url",
                "gate.source_issue",
                "source_issue.url must be https://github.com/<repository>/issues/<issue_number> \
                 of the same source_issue",
            );
        }
        if let Some(author) = self.str("/provenance/author_ref")
            && !author.strip_prefix("github:").is_some_and(is_github_login)
        {
            self.push(
                "/provenance/author_ref",
                "gate.author_ref",
                "a record from a source issue must name its author as github:<login>, \
                 a login of 1 to 39 letters, digits or single inner hyphens",
            );
        }
    }

    fn public_issue_evidence(&mut self) {
        if self.str("/provenance/source_type") != Some("public-issue") {
            return;
        }
        for (pointer, reference) in self.strings("/provenance/source_evidence_refs") {
            if self.resolve(reference).is_some_and(|d| !d.is_public()) {
                self.push(
                    pointer,
                    "gate.public_issue_evidence",
                    "a public-issue record may cite public source evidence only",
                );
            }
        }
    }

    /// Praxis keys records, cursors and URLs by `experience_id`, so it
    /// bounds what the protocol leaves unbounded (every published id is far
    /// shorter).
    fn id_length(&mut self) {
        if let Some(id) = self.str("/experience_id")
            && id.len() > MAX_ID_BYTES
        {
            self.push(
                "/experience_id",
                "gate.id_length",
                "experience_id must be at most 200 bytes",
            );
        }
    }

    fn id_date(&mut self) {
        let (Some(id), Some(observed)) =
            (self.str("/experience_id"), self.str("/context/observed_at"))
        else {
            return;
        };
        let Some(suffix) = id
            .rsplit_once('-')
            .map(|(_, s)| s)
            .filter(|s| s.len() == 8 && s.bytes().all(|c| c.is_ascii_digit()))
        else {
            return;
        };
        if parse_timestamp(observed).is_err() {
            return;
        }
        let date: String = observed[..10].chars().filter(|&c| c != '-').collect();
        if suffix != date {
            self.push(
                "/experience_id",
                "gate.id_date",
                "the YYYYMMDD suffix of experience_id must be the date of context.observed_at",
            );
        }
    }

    fn self_relation(&mut self) {
        let Some(id) = self.str("/experience_id") else {
            return;
        };
        for list in ["/relations/related_experiences", "/relations/supersedes"] {
            for (pointer, other) in self.strings(list) {
                if other == id {
                    self.push(
                        pointer,
                        "gate.self_relation",
                        "a record may not relate to or supersede itself",
                    );
                }
            }
        }
    }

    fn redaction_pending(&mut self) {
        if self.str("/redaction/status") == Some("pending") {
            self.push(
                "/redaction/status",
                "gate.redaction_pending",
                "a kept record must have completed redaction (applied or not-required)",
            );
        }
    }

    fn placement(&mut self, placement: Option<&Placement>) {
        let Some(placement) = placement else {
            return;
        };
        if let Some(status) = self.str("/lifecycle/status")
            && !placement.directory.allows(status)
        {
            let message = format!(
                "lifecycle.status does not fit the {} directory",
                placement.directory.as_str()
            );
            self.push("/lifecycle/status", "gate.directory", message);
        }
        if let Some(id) = self.str("/experience_id")
            && id != placement.stem
        {
            self.push(
                "/experience_id",
                "gate.filename",
                "the file must be named <experience_id>.json",
            );
        }
    }

    fn size(&mut self, placement: Option<&Placement>) {
        let compact = compact_len(self.record);
        if compact > MAX_RECORD_BYTES {
            let message =
                format!("compact JSON is {compact} bytes; at most {MAX_RECORD_BYTES} are allowed");
            self.push("", "gate.size", message);
        }
        if let Some(p) = placement
            && p.file_bytes > MAX_RECORD_BYTES
        {
            let message = format!(
                "the stored file is {} bytes; at most {MAX_RECORD_BYTES} are allowed",
                p.file_bytes
            );
            self.push("", "gate.size", message);
        }
    }
}

/// Length of the compact JSON of `value`, counted without building it.
fn compact_len(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` to a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// Mismatches between a workflow-run source binding and its machine
/// receipt, as (pointer relative to the evidence item, message).
fn workflow_binding(source: &Value, receipt: &Value) -> Vec<(&'static str, &'static str)> {
    let s = |name: &str| source.get(name).and_then(Value::as_str);
    let r = |name: &str| receipt.get(name).and_then(Value::as_str);
    let mut out = Vec::new();

    let source_repo = s("repository_url").and_then(repository_url);
    let receipt_repo = r("source_repository").and_then(owner_repo);
    if let (Some(a), Some(b)) = (source_repo, receipt_repo)
        && !same_repo(a, b)
    {
        out.push((
            "machine_verification/source_repository",
            "machine_verification.source_repository must name the repository of source.repository_url",
        ));
    }
    if let (Some(a), Some(b)) = (s("commit_sha"), r("commit_sha"))
        && a != b
    {
        out.push((
            "machine_verification/commit_sha",
            "machine_verification.commit_sha must equal source.commit_sha",
        ));
    }
    let source_run = s("workflow_run_url");
    let receipt_run = r("workflow_run_url");
    if let (Some(a), Some(b)) = (source_run, receipt_run)
        && a.trim_end_matches('/') != b.trim_end_matches('/')
    {
        out.push((
            "machine_verification/workflow_run_url",
            "machine_verification.workflow_run_url must equal source.workflow_run_url",
        ));
    }
    if let (Some((_, run)), Some(id)) = (
        receipt_run.and_then(run_url),
        receipt.get("workflow_run_id").and_then(Value::as_u64),
    ) && run.parse::<u64>().ok() != Some(id)
    {
        out.push((
            "machine_verification/workflow_run_id",
            "machine_verification.workflow_run_id must be the run number in its workflow_run_url",
        ));
    }
    if let Some(bound) = source_repo.or(receipt_repo) {
        for (url, pointer) in [
            (source_run, "source/workflow_run_url"),
            (receipt_run, "machine_verification/workflow_run_url"),
        ] {
            if let Some((repo, _)) = url.and_then(run_url)
                && !same_repo(repo, bound)
            {
                out.push((
                    pointer,
                    "the workflow run must belong to the bound repository",
                ));
            }
        }
    }
    for (name, pointer, message) in [
        (
            "workflow_job_name",
            "machine_verification/workflow_job_name",
            "machine_verification.workflow_job_name must equal source.workflow_job_name",
        ),
        (
            "workflow_step_name",
            "machine_verification/workflow_step_name",
            "machine_verification.workflow_step_name must equal source.workflow_step_name",
        ),
    ] {
        if let (Some(a), Some(b)) = (s(name), r(name))
            && a != b
        {
            out.push((pointer, message));
        }
    }
    if let (Some(a), Some(b)) = (s("artifact_sha256"), r("artifact_sha256"))
        && a.strip_prefix("sha256:").unwrap_or(a) != b.strip_prefix("sha256:").unwrap_or(b)
    {
        out.push((
            "machine_verification/artifact_sha256",
            "machine_verification.artifact_sha256 must be the digest of source.artifact_sha256",
        ));
    }
    out
}

/// `(owner, repo)` of `owner/repo`.
fn owner_repo(text: &str) -> Option<(&str, &str)> {
    let (owner, repo) = text.split_once('/')?;
    (!owner.is_empty() && !repo.is_empty() && !repo.contains('/')).then_some((owner, repo))
}

/// `(owner, repo)` of `https://github.com/owner/repo`, trailing slash allowed.
fn repository_url(url: &str) -> Option<(&str, &str)> {
    let path = url.strip_prefix("https://github.com/")?;
    owner_repo(path.strip_suffix('/').unwrap_or(path))
}

/// `((owner, repo), run number)` of
/// `https://github.com/owner/repo/actions/runs/<n>`, trailing slash allowed.
fn run_url(url: &str) -> Option<((&str, &str), &str)> {
    let path = url.strip_prefix("https://github.com/")?;
    let path = path.strip_suffix('/').unwrap_or(path);
    let (repo, run) = path.split_once("/actions/runs/")?;
    let repo = owner_repo(repo)?;
    (!run.is_empty() && run.bytes().all(|c| c.is_ascii_digit())).then_some((repo, run))
}

/// GitHub owner and repository names are case-insensitive.
fn same_repo(a: (&str, &str), b: (&str, &str)) -> bool {
    a.0.eq_ignore_ascii_case(b.0) && a.1.eq_ignore_ascii_case(b.1)
}

/// A GitHub login: 1 to 39 ASCII letters, digits or hyphens, with no
/// hyphen first, last or next to another.
fn is_github_login(login: &str) -> bool {
    (1..=39).contains(&login.len())
        && login
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-')
        && !login.starts_with('-')
        && !login.ends_with('-')
        && !login.contains("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_timestamps() {
        for ok in [
            "2026-07-31T07:08:15Z",
            "2026-07-31T07:08:15.5Z",
            "2026-07-31T07:08:15.123456789+05:30",
            "2024-02-29T23:59:59-23:59",
            "0000-01-01T00:00:00Z",
        ] {
            assert!(parse_timestamp(ok).is_ok(), "{ok}");
        }
        for bad in [
            "2026-07-31t07:08:15Z",
            "2026-07-31T07:08:15z",
            "2026-07-31 07:08:15Z",
            "2026-07-31T07:08Z",
            "2026-07-31T07:08:15",
            "2026-07-31T07:08:15.Z",
            "2026-07-31T07:08:15.1234567891Z",
            "2026-02-30T00:00:00Z",
            "2025-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-07-31T24:00:00Z",
            "2026-07-31T23:60:00Z",
            "2026-07-31T23:59:60Z",
            "2026-07-31T07:08:15+24:00",
            "2026-07-31T07:08:15+05:60",
            "2026-07-31T07:08:15+0530",
            "2026-07-31T07:08:15Z ",
            "+2026-07-31T07:08:15Z",
            "２026-07-31T07:08:15Z",
            "",
        ] {
            assert!(parse_timestamp(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn ids_longer_than_praxis_keeps_are_refused() {
        let with_id = |id: String| serde_json::json!({ "experience_id": id });
        let at_limit = format!("exp-{}-20261120", "a".repeat(MAX_ID_BYTES - 13));
        assert_eq!(at_limit.len(), MAX_ID_BYTES);
        let rules = |record| -> Vec<String> {
            findings(&record, None)
                .into_iter()
                .map(|f| f.rule)
                .collect()
        };
        assert!(!rules(with_id(at_limit.clone())).contains(&"gate.id_length".into()));
        let over = at_limit.replacen("exp-", "exp-a", 1);
        assert!(rules(with_id(over)).contains(&"gate.id_length".into()));
    }

    #[test]
    fn offsets_are_compared_as_instants() {
        let a = parse_timestamp("2026-07-31T08:00:00+01:00").unwrap();
        let b = parse_timestamp("2026-07-31T07:00:00Z").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn github_names() {
        assert!(is_github_login("octo-cat"));
        assert!(is_github_login(&"a".repeat(39)));
        assert!(!is_github_login(&"a".repeat(40)));
        assert!(!is_github_login("-octo"));
        assert!(!is_github_login("octo-"));
        assert!(!is_github_login("oc--to"));
        assert!(!is_github_login("oc_to"));
        assert!(!is_github_login(""));
        assert_eq!(repository_url("https://github.com/O/R/"), Some(("O", "R")));
        assert_eq!(
            run_url("https://github.com/o/r/actions/runs/42/"),
            Some((("o", "r"), "42"))
        );
        assert_eq!(run_url("https://github.com/o/r/actions/runs/"), None);
        assert!(same_repo(("Octo", "Repo"), ("octo", "REPO")));
    }

    #[test]
    fn compact_length_matches_serialization() {
        let v = serde_json::json!({"a": [1, "two", {"b": null}]});
        assert_eq!(compact_len(&v), serde_json::to_vec(&v).unwrap().len());
    }
}
