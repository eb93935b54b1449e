//! A project's skill files: `.agents/skills/<name>/SKILL.md` under a project
//! root that the server's operator configured (never the API).
//!
//! This module holds the pure rules: what a skill name is, where its file
//! lives and what its document must look like. The store reads and writes
//! the files; a file's identity for compare-and-set is the plain SHA-256 of
//! its bytes ([`Digest::sha256`](crate::digest::Digest::sha256)).
//!
//! A document opens with YAML frontmatter between two `---` lines whose
//! first key is `name` (the skill's name) and whose second is
//! `description`, the order agents' skill loaders read them in.

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;
use yaml_rust2::{Yaml, YamlLoader};

use crate::finding::Finding;
use crate::skills::is_skill_name;

/// Largest skill document, in bytes.
pub const MAX_SKILL_BYTES: usize = 64 * 1024;
/// The folder under a project root that holds one folder per skill.
pub const SKILLS_DIR: &str = ".agents/skills";
/// The file inside a skill's folder.
pub const SKILL_FILE: &str = "SKILL.md";

/// Where the pointer of a finding about the document points.
const CONTENT: &str = "/content";

/// The path of a skill's file relative to its project root:
/// `.agents/skills/<name>/SKILL.md`.
pub fn skill_path(name: &str) -> String {
    format!("{SKILLS_DIR}/{name}/{SKILL_FILE}")
}

/// What is wrong with a skill name (empty when nothing): the registry's
/// rule, which also keeps a name one plain path component.
pub fn check_skill_name(name: &str) -> Vec<Finding> {
    if is_skill_name(name) {
        Vec::new()
    } else {
        vec![Finding::new(
            "/name",
            "skill.name",
            "a skill name is 1-100 lowercase letters and digits in hyphen-separated words",
        )]
    }
}

/// What is wrong with `content` as the document of the skill `name` (empty
/// when nothing). Every finding points at `/content` and none repeats the
/// content. The name itself is checked by [`check_skill_name`].
pub fn check_skill_document(name: &str, content: &str) -> Vec<Finding> {
    if content.len() > MAX_SKILL_BYTES {
        return vec![finding(
            "skill.content_length",
            format!("a skill document is at most {MAX_SKILL_BYTES} bytes"),
        )];
    }
    let Some(yaml) = frontmatter(content) else {
        return vec![finding(
            "skill.frontmatter_missing",
            "a skill document opens with a `---` line, then YAML frontmatter closed by a `---` line",
        )];
    };
    let keys = match mapping(yaml) {
        Ok(keys) => keys,
        Err(f) => return vec![f],
    };
    let position = |key: &str| keys.iter().position(|(k, _)| k.as_str() == Some(key));
    let (name_at, description_at) = (position("name"), position("description"));
    let mut out = Vec::new();
    if name_at.is_some()
        && description_at.is_some()
        && (name_at, description_at) != (Some(0), Some(1))
    {
        out.push(finding(
            "skill.frontmatter_order",
            "the frontmatter's first key is `name` and its second `description`",
        ));
    }
    if name_at.is_none_or(|at| keys[at].1.as_str() != Some(name)) {
        out.push(finding(
            "skill.name_mismatch",
            "the frontmatter's `name` is the skill's name, as a string (quote it if YAML would read it as another type)",
        ));
    }
    let described = description_at
        .and_then(|at| keys[at].1.as_str())
        .is_some_and(|d| !d.trim().is_empty());
    if !described {
        out.push(finding(
            "skill.description_missing",
            "the frontmatter's `description` is a non-empty string",
        ));
    }
    out
}

fn finding(rule: &str, message: impl Into<String>) -> Finding {
    Finding::new(CONTENT, rule, message)
}

/// The frontmatter's YAML text: what lies between an opening `---` line and
/// the next `---` line, or `None` when either is missing.
fn frontmatter(content: &str) -> Option<&str> {
    let rest = content
        .strip_prefix("---\n")
        .or_else(|| content.strip_prefix("---\r\n"))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        if bare.strip_suffix('\r').unwrap_or(bare) == "---" {
            return Some(&rest[..at]);
        }
        at += line.len();
    }
    None
}

/// The entries of the frontmatter's top-level mapping, in document order.
fn mapping(yaml: &str) -> Result<Vec<(Yaml, Yaml)>, Finding> {
    // Aliases are refused before loading: the loader copies the anchored
    // node for every alias, so a few kilobytes could grow without bound.
    let mut aliases = AliasCheck(false);
    Parser::new_from_str(yaml)
        .load(&mut aliases, true)
        .map_err(|e| yaml_error(e.marker()))?;
    if aliases.0 {
        return Err(finding(
            "skill.frontmatter_yaml",
            "the frontmatter uses no YAML aliases",
        ));
    }
    let docs = YamlLoader::load_from_str(yaml).map_err(|e| yaml_error(e.marker()))?;
    match docs.as_slice() {
        [Yaml::Hash(h)] => Ok(h.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        _ => Err(finding(
            "skill.frontmatter_yaml",
            "the frontmatter is a single YAML mapping",
        )),
    }
}

/// A finding for malformed YAML, placed by line and column of the document
/// (the frontmatter starts on its second line); the parser's own message
/// is left out because it may quote the text.
fn yaml_error(at: &Marker) -> Finding {
    finding(
        "skill.frontmatter_yaml",
        format!(
            "the frontmatter is not valid YAML (line {}, column {})",
            at.line() + 1,
            at.col()
        ),
    )
}

/// Notes whether a YAML stream holds an alias.
struct AliasCheck(bool);

impl MarkedEventReceiver for AliasCheck {
    fn on_event(&mut self, ev: Event, _mark: Marker) {
        if matches!(ev, Event::Alias(_)) {
            self.0 = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn rules(name: &str, content: &str) -> Vec<String> {
        check_skill_document(name, content)
            .into_iter()
            .map(|f| {
                assert_eq!(f.pointer, "/content");
                f.rule
            })
            .collect()
    }

    #[test]
    fn a_well_formed_document_passes() {
        let doc = "---\nname: junction-migration\ndescription: Moves a directory.\nlicense: MIT\n---\n# Steps\n";
        assert_eq!(rules("junction-migration", doc), Vec::<String>::new());
        let crlf = "---\r\nname: \"123\"\r\ndescription: 'Quoted'\r\n---\r\n";
        assert_eq!(rules("123", crlf), Vec::<String>::new());
        let no_body = "---\nname: a\ndescription: >\n  Folded\n  text\n---";
        assert_eq!(rules("a", no_body), Vec::<String>::new());
    }

    #[test]
    fn the_frontmatter_must_open_and_close() {
        for doc in [
            "",
            "name: a\n",
            "# a\n---\nname: a\n---\n",
            " ---\nname: a\ndescription: d\n---\n",
            "---\nname: a\ndescription: d\n",
            "---\nname: a\ndescription: d\n--- \n",
        ] {
            assert_eq!(rules("a", doc), ["skill.frontmatter_missing"], "{doc:?}");
        }
    }

    #[test]
    fn the_frontmatter_is_one_yaml_mapping_without_aliases() {
        for doc in [
            "---\n---\n",
            "---\n- name\n- description\n---\n",
            "---\njust text\n---\n",
            "---\nname: a\ndescription: [unclosed\n---\n",
            "---\nname: a\nname: a\ndescription: d\n---\n",
            "---\nname: &n a\ndescription: *n\n---\n",
            "---\nname: a\ndescription: d\n...\n--- \nx: y\n---\n",
        ] {
            assert_eq!(rules("a", doc), ["skill.frontmatter_yaml"], "{doc:?}");
        }
    }

    #[test]
    fn yaml_errors_are_placed_without_quoting_the_text() {
        let doc = "---\nname: a\ndescription: [ghp_secret\n---\n";
        let found = check_skill_document("a", doc);
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains("line "), "{}", found[0].message);
        assert!(!found[0].message.contains("ghp_secret"));
        let dup = "---\nname: a\nghp_secret: 1\nghp_secret: 2\ndescription: d\n---\n";
        let found = check_skill_document("a", dup);
        assert_eq!(found[0].rule, "skill.frontmatter_yaml");
        assert!(!found[0].message.contains("ghp_secret"));
    }

    #[test]
    fn name_then_description_in_that_order() {
        let swapped = "---\ndescription: d\nname: a\n---\n";
        assert_eq!(rules("a", swapped), ["skill.frontmatter_order"]);
        let late = "---\nname: a\nlicense: MIT\ndescription: d\n---\n";
        assert_eq!(rules("a", late), ["skill.frontmatter_order"]);
        let first_other = "---\nlicense: MIT\nname: a\ndescription: d\n---\n";
        assert_eq!(rules("a", first_other), ["skill.frontmatter_order"]);
    }

    #[test]
    fn the_name_is_the_skills_own_as_a_string() {
        assert_eq!(
            rules("a", "---\nname: b\ndescription: d\n---\n"),
            ["skill.name_mismatch"]
        );
        assert_eq!(
            rules("a", "---\ndescription: d\n---\n"),
            ["skill.name_mismatch"]
        );
        // YAML reads a bare 123 as a number, not the name "123".
        assert_eq!(
            rules("123", "---\nname: 123\ndescription: d\n---\n"),
            ["skill.name_mismatch"]
        );
        assert_eq!(
            rules("null", "---\nname: null\ndescription: d\n---\n"),
            ["skill.name_mismatch"]
        );
    }

    #[test]
    fn the_description_is_a_non_empty_string() {
        for doc in [
            "---\nname: a\n---\n",
            "---\nname: a\ndescription:\n---\n",
            "---\nname: a\ndescription: '  '\n---\n",
            "---\nname: a\ndescription: 12\n---\n",
            "---\nname: a\ndescription: [x]\n---\n",
        ] {
            assert_eq!(rules("a", doc), ["skill.description_missing"], "{doc:?}");
        }
    }

    #[test]
    fn documents_are_bounded() {
        let mut doc = "---\nname: a\ndescription: d\n---\n".to_owned();
        doc.push_str(&"x".repeat(MAX_SKILL_BYTES - doc.len()));
        assert_eq!(rules("a", &doc), Vec::<String>::new());
        doc.push('x');
        assert_eq!(rules("a", &doc), ["skill.content_length"]);
    }

    #[test]
    fn names_and_paths() {
        assert!(check_skill_name("junction-migration").is_empty());
        for bad in [
            "",
            "A",
            "a--b",
            "-a",
            "a-",
            "..",
            "a/b",
            "a.b",
            &"a".repeat(101),
        ] {
            let found = check_skill_name(bad);
            assert_eq!(found.len(), 1, "{bad:?}");
            assert_eq!(
                (found[0].pointer.as_str(), found[0].rule.as_str()),
                ("/name", "skill.name")
            );
        }
        assert_eq!(skill_path("a-b"), ".agents/skills/a-b/SKILL.md");
    }

    /// A valid name and a one-line description, both of which YAML reads
    /// as strings when written bare (a name such as `123` or `true` must be
    /// quoted, which `the_name_is_the_skills_own_as_a_string` checks).
    fn name_and_description() -> impl Strategy<Value = (String, String)> {
        let name = "[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}";
        let description = "[A-Za-z][A-Za-z0-9 ,.;()'/-]{0,60}[A-Za-z0-9.)]";
        (name, description).prop_filter("bare YAML strings", |(n, d)| {
            matches!(Yaml::from_str(n), Yaml::String(_))
                && matches!(Yaml::from_str(d), Yaml::String(_))
        })
    }

    proptest! {
        /// `name` then `description` passes; the two swapped never does.
        #[test]
        fn key_order_decides((n, d) in name_and_description(), body in "\\PC{0,40}") {
            let good = format!("---\nname: {n}\ndescription: {d}\n---\n{body}");
            prop_assert!(check_skill_name(&n).is_empty());
            prop_assert_eq!(check_skill_document(&n, &good), Vec::<Finding>::new());
            let swapped = format!("---\ndescription: {d}\nname: {n}\n---\n{body}");
            let rules: Vec<String> =
                check_skill_document(&n, &swapped).into_iter().map(|f| f.rule).collect();
            prop_assert_eq!(rules, ["skill.frontmatter_order"]);
        }

        /// Any one-line description passes once quoted (JSON's string form
        /// is a YAML double-quoted scalar).
        #[test]
        fn any_quoted_description_passes(d in "\\p{L}[\\p{L}\\p{N}\\p{P}\\p{S} ]{0,60}") {
            let quoted = serde_json::to_string(&d).unwrap();
            let doc = format!("---\nname: a\ndescription: {quoted}\n---\nbody");
            prop_assert_eq!(check_skill_document("a", &doc), Vec::<Finding>::new());
        }
    }
}
