//! The labelled corpus the screening engine is measured against.
//!
//! One JSON object per line: `{"text": …, "rule": <rule code> | null,
//! "commands": bool}`. A case with a rule is a positive: that rule must fire
//! on the text. A case without one is a negative: no rule may fire. Every
//! secret in it is synthetic. `corpus/generate.py` writes the file.

use serde::Deserialize;

use super::rule::Rule;

/// The corpus file, one case per line.
pub const CORPUS: &str = include_str!("../../corpus/redaction.jsonl");

/// One labelled text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusCase {
    /// 1-based line in [`CORPUS`].
    pub line: usize,
    /// The text screened.
    pub text: String,
    /// The rule that must fire, or `None` when nothing may fire.
    pub rule: Option<Rule>,
    /// Whether the text sits in a command field.
    pub commands: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    text: String,
    rule: Option<String>,
    commands: bool,
}

/// Every case of [`CORPUS`].
///
/// # Panics
///
/// On a line that is not a well-formed case or names an unknown rule: the
/// corpus ships inside the crate, so a bad line is a build defect.
pub fn corpus() -> Vec<CorpusCase> {
    CORPUS
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let line = i + 1;
            let parsed: Line = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("redaction corpus line {line}: {e}"));
            let rule = parsed.rule.map(|code| {
                Rule::from_code(&code).unwrap_or_else(|| {
                    panic!("redaction corpus line {line}: unknown rule {code:?}")
                })
            });
            CorpusCase {
                line,
                text: parsed.text,
                rule,
                commands: parsed.commands,
            }
        })
        .collect()
}
