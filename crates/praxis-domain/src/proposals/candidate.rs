//! A proposal's candidate: what it says, when it applies, the evidence it
//! names and where it would go.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::source::SourceRef;
use crate::canonical::canonical_bytes;
use crate::finding::Finding;
use crate::memory::{MAX_SUMMARY_CHARS, MemoryKey, MemoryRevision};
use crate::screen;
use crate::skills::project::{check_skill_document, check_skill_name};

/// The schema every candidate names.
pub const SCHEMA: &str = "praxis.experience-proposal.v1";
/// Most sources a candidate names.
pub const MAX_SOURCES: usize = 8;
/// Most conditions a candidate lists.
pub const MAX_CONDITIONS: usize = 8;
/// Most characters of one condition.
pub const MAX_CONDITION_CHARS: usize = 512;
/// Most bytes of the content (4 KiB).
pub const MAX_CONTENT_BYTES: usize = 4 * 1024;
/// Most bytes of the candidate's canonical JSON.
pub const MAX_CANDIDATE_BYTES: usize = 7_500;

/// Where an approved candidate goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Destination {
    /// A memory item of the proposal's scope.
    Memory {
        /// The item's key.
        memory_key: MemoryKey,
        /// The item's revision as the proposer saw it; None: create-only.
        expected_revision: Option<MemoryRevision>,
    },
    /// A project skill file, `.agents/skills/<name>/SKILL.md`.
    Skill {
        /// The project's id, as the server's configuration maps it.
        project: String,
        /// The skill file's path under the project root.
        path: String,
        /// The file's SHA-256 as the proposer saw it; None: create-only.
        expected_sha256: Option<String>,
    },
}

impl Destination {
    /// The skill's name, for a skill destination whose path has the skill
    /// form.
    pub fn skill_name(&self) -> Option<&str> {
        match self {
            Destination::Skill { path, .. } => path
                .strip_prefix(".agents/skills/")
                .and_then(|rest| rest.strip_suffix("/SKILL.md"))
                .filter(|name| !name.contains('/')),
            Destination::Memory { .. } => None,
        }
    }
}

/// A candidate as proposed: data, never guidance, until it is approved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// One line: a memory item's summary, or what the skill is for.
    pub summary: String,
    /// The guidance itself; a skill's content begins with its frontmatter.
    pub content: String,
    /// When it applies, rendered after the content.
    pub conditions: Vec<String>,
    /// The evidence it rests on.
    pub sources: Vec<SourceRef>,
    /// Where it goes once approved.
    pub destination: Destination,
}

/// The exact text a candidate promotes: its content, then an
/// `Applies when:` section listing its conditions.
pub fn render(content: &str, conditions: &[String]) -> String {
    let mut out = content.trim_end().to_owned();
    if conditions.is_empty() {
        out.push('\n');
    } else {
        out.push_str("\n\nApplies when:\n");
        for c in conditions {
            out.push_str("- ");
            out.push_str(c);
            out.push('\n');
        }
    }
    out
}

impl Candidate {
    /// The exact text approval would write.
    pub fn rendered(&self) -> String {
        render(&self.content, &self.conditions)
    }

    /// Every rule the candidate breaks, each pointed at its field and
    /// never repeating its text: the schema, the bounds, the sources'
    /// form, the destination's form, a skill's frontmatter, and what
    /// screening finds in the summary, content and conditions.
    pub fn findings(&self) -> Vec<Finding> {
        let mut found = Vec::new();
        let mut push = |pointer: &str, rule: &str, message: String| {
            found.push(Finding::new(pointer, rule, message));
        };
        if self.schema != SCHEMA {
            push(
                "/schema",
                "proposal.schema",
                format!("the schema is {SCHEMA}"),
            );
        }
        if self.summary.trim().is_empty() || self.summary.chars().count() > MAX_SUMMARY_CHARS {
            push(
                "/summary",
                "proposal.summary_length",
                format!("a summary is 1-{MAX_SUMMARY_CHARS} characters and not blank"),
            );
        }
        if self.content.trim().is_empty() || self.content.len() > MAX_CONTENT_BYTES {
            push(
                "/content",
                "proposal.content_length",
                format!("content is 1-{MAX_CONTENT_BYTES} bytes and not blank"),
            );
        }
        if self.conditions.len() > MAX_CONDITIONS {
            push(
                "/conditions",
                "proposal.condition_count",
                format!("a candidate lists at most {MAX_CONDITIONS} conditions"),
            );
        }
        for (i, c) in self.conditions.iter().enumerate() {
            if c.trim().is_empty() || c.chars().count() > MAX_CONDITION_CHARS || c.contains('\n') {
                push(
                    &format!("/conditions/{i}"),
                    "proposal.condition_form",
                    format!("a condition is one line of 1-{MAX_CONDITION_CHARS} characters"),
                );
            }
        }
        let texts = std::iter::once(("/summary".to_owned(), &self.summary))
            .chain(std::iter::once(("/content".to_owned(), &self.content)))
            .chain(
                self.conditions
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (format!("/conditions/{i}"), c)),
            );
        for (pointer, text) in texts {
            if has_control(text) {
                push(
                    &pointer,
                    "proposal.control_character",
                    "text holds no control characters but newline and tab".into(),
                );
            }
        }
        if self.sources.len() > MAX_SOURCES {
            push(
                "/sources",
                "proposal.source_count",
                format!("a candidate names at most {MAX_SOURCES} sources"),
            );
        }
        for (i, s) in self.sources.iter().enumerate() {
            for f in s.findings() {
                found.push(Finding::new(
                    format!("/sources/{i}{}", f.pointer),
                    f.rule,
                    f.message,
                ));
            }
        }
        found.extend(self.destination_findings());
        let size = canonical_bytes(&serde_json::to_value(self).unwrap_or_default()).len();
        if size > MAX_CANDIDATE_BYTES {
            found.push(Finding::new(
                "",
                "proposal.candidate_size",
                format!("the encoded candidate is at most {MAX_CANDIDATE_BYTES} bytes"),
            ));
        }
        // The content becomes guidance an agent acts on: it is screened
        // like a command too.
        found.extend(screen::findings_with(
            &json!({
                "summary": self.summary,
                "content": self.content,
                "conditions": self.conditions,
            }),
            |path| path.first().is_some_and(|p| p == "content"),
        ));
        found
    }

    fn destination_findings(&self) -> Vec<Finding> {
        let mut found = Vec::new();
        if let Destination::Skill {
            project,
            path,
            expected_sha256,
        } = &self.destination
        {
            if project.is_empty() || project.len() > 64 || !project.chars().all(id_char) {
                found.push(Finding::new(
                    "/destination/project",
                    "proposal.project_form",
                    "a project id is 1-64 characters of [A-Za-z0-9._-]",
                ));
            }
            match self.destination.skill_name() {
                Some(name) if check_skill_name(name).is_empty() => {
                    for f in check_skill_document(name, &self.rendered()) {
                        found.push(Finding::new(f.pointer, f.rule, f.message));
                    }
                }
                _ => found.push(Finding::new(
                    "/destination/path",
                    "proposal.skill_path",
                    format!("a skill path is .agents/skills/<name>/SKILL.md; {path:?} is not one"),
                )),
            }
            if expected_sha256.as_deref().is_some_and(|h| !is_sha256(h)) {
                found.push(Finding::new(
                    "/destination/expected_sha256",
                    "proposal.sha256_form",
                    "a SHA-256 is 64 lowercase hex digits",
                ));
            }
        }
        found
    }
}

/// Whether `text` holds a control character other than newline and tab:
/// guidance ends up in memory and in files people read in a terminal.
pub(crate) fn has_control(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
}

fn id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// Whether `text` is 64 lowercase hex digits.
pub(crate) fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proposals::SourceKind;

    fn memory() -> Candidate {
        Candidate {
            schema: SCHEMA.into(),
            summary: "Check continuation fields".into(),
            content: "Follow the next cursor before answering.".into(),
            conditions: vec!["A read returns a next cursor.".into()],
            sources: vec![SourceRef {
                kind: SourceKind::File,
                r#ref: "billing:docs/paging.md".into(),
                sha256: "a".repeat(64),
            }],
            destination: Destination::Memory {
                memory_key: MemoryKey::parse("/k", "bounded-inspection").unwrap(),
                expected_revision: None,
            },
        }
    }

    fn skill() -> Candidate {
        Candidate {
            content: "---\nname: paging\ndescription: Follow cursors.\n---\nFollow the cursor."
                .into(),
            destination: Destination::Skill {
                project: "billing".into(),
                path: ".agents/skills/paging/SKILL.md".into(),
                expected_sha256: None,
            },
            ..memory()
        }
    }

    fn rules(c: &Candidate) -> Vec<(String, String)> {
        c.findings()
            .into_iter()
            .map(|f| (f.pointer, f.rule))
            .collect()
    }

    #[test]
    fn the_rendered_body_is_the_content_then_its_conditions() {
        assert_eq!(
            memory().rendered(),
            "Follow the next cursor before answering.\n\nApplies when:\n- A read returns a next cursor.\n"
        );
        assert_eq!(render("Just this.\n\n", &[]), "Just this.\n");
    }

    #[test]
    fn plain_candidates_pass_and_every_bound_names_its_field() {
        assert!(rules(&memory()).is_empty(), "{:?}", rules(&memory()));
        assert!(rules(&skill()).is_empty(), "{:?}", rules(&skill()));
        let mut c = memory();
        c.conditions = (0..=MAX_CONDITIONS).map(|i| format!("c{i}")).collect();
        assert!(rules(&c).contains(&("/conditions".into(), "proposal.condition_count".into())));
        let mut c = memory();
        c.content = "x".repeat(MAX_CONTENT_BYTES + 1);
        assert!(rules(&c).contains(&("/content".into(), "proposal.content_length".into())));
        let mut c = memory();
        c.sources = vec![c.sources[0].clone(); MAX_SOURCES + 1];
        assert!(rules(&c).contains(&("/sources".into(), "proposal.source_count".into())));
        let mut c = memory();
        c.content = "y".repeat(MAX_CONTENT_BYTES);
        c.conditions = vec!["z".repeat(MAX_CONDITION_CHARS); 8];
        assert!(rules(&c).contains(&(String::new(), "proposal.candidate_size".into())));
        let mut c = memory();
        c.schema = "other".into();
        assert_eq!(rules(&c), [("/schema".into(), "proposal.schema".into())]);
    }

    #[test]
    fn a_skill_needs_its_path_form_and_frontmatter_in_order() {
        let mut c = skill();
        c.destination = Destination::Skill {
            project: "billing".into(),
            path: ".agents/skills/../x/SKILL.md".into(),
            expected_sha256: None,
        };
        assert!(rules(&c).contains(&("/destination/path".into(), "proposal.skill_path".into())));
        let mut c = skill();
        c.content = "---\ndescription: d\nname: paging\n---\nbody".into();
        assert!(
            rules(&c)
                .iter()
                .any(|(p, r)| p == "/content" && r == "skill.frontmatter_order"),
            "{:?}",
            rules(&c)
        );
    }

    #[test]
    fn control_characters_are_refused_but_newlines_and_tabs_pass() {
        let mut c = memory();
        c.content = "line one\n\tline two".into();
        assert!(rules(&c).is_empty());
        c.content = "red \u{1b}[31m text".into();
        assert_eq!(
            rules(&c),
            [(
                "/content".to_owned(),
                "proposal.control_character".to_owned()
            )]
        );
    }

    #[test]
    fn screening_finds_secrets_in_content_and_conditions() {
        let mut c = memory();
        c.conditions = vec!["token ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf is set".into()];
        let found = c.findings();
        assert!(
            found.iter().any(|f| f.pointer.starts_with("/conditions")),
            "{found:?}"
        );
        assert!(found.iter().all(|f| !f.message.contains("ghp_")));
    }
}
