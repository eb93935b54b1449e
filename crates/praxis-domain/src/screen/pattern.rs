//! Compiling the screening patterns, and matching helpers the rule
//! families share.

use std::ops::Range;

use regex::{Captures, Regex};

/// Compiles a screening pattern; a broken one is a bug caught by the first
/// test that touches its rule.
pub(super) fn regex(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("screening pattern {pattern:?}: {e}"))
}

/// Declares a pattern compiled on first use.
macro_rules! lazy_regex {
    ($(#[$doc:meta])* $name:ident, $pattern:expr) => {
        $(#[$doc])*
        static $name: ::std::sync::LazyLock<::regex::Regex> =
            ::std::sync::LazyLock::new(|| $crate::screen::pattern::regex($pattern));
    };
}
pub(super) use lazy_regex;

/// Byte ranges of the matched text where a rule fired.
pub(super) type Spans = Vec<Range<usize>>;

/// Every match of `re` (its whole span); none when its gate is closed.
pub(super) fn matches(re: Option<&Regex>, text: &str) -> Spans {
    re.into_iter()
        .flat_map(|re| re.find_iter(text))
        .map(|m| m.range())
        .collect()
}

/// The spans of the matches of `re` that `accept` takes, trying the next
/// match right after each rejected key (group 1) rather than after the
/// whole match: in `postgres: POSTGRES_PASSWORD=x` the first candidate's
/// value holds the real assignment. An accepted match is reported by the
/// span of its group `report` (or the whole match, when that group did not
/// take part).
pub(super) fn candidates(
    re: Option<&Regex>,
    text: &str,
    report: usize,
    accept: impl Fn(&Captures<'_>) -> bool,
) -> Spans {
    let mut out = Vec::new();
    let Some(re) = re else {
        return out;
    };
    let mut at = 0;
    while let Some(c) = re.captures_at(text, at) {
        let whole = c.get(0).map_or(at..text.len(), |m| m.range());
        if accept(&c) {
            out.push(c.get(report).map_or(whole.clone(), |m| m.range()));
            at = whole.end.max(at + 1);
        } else {
            at = c.get(1).map_or(text.len(), |m| m.end());
        }
        if at > text.len() {
            break;
        }
        while !text.is_char_boundary(at) {
            at += 1;
        }
    }
    out
}

/// The whole spans of the matches of `re` whose first participating group
/// `accept` takes: for tokens whose prefix belongs to the secret (`ghp_…`),
/// so that redacting the span removes all of it.
pub(super) fn tokens(re: Option<&Regex>, text: &str, accept: impl Fn(&str) -> bool) -> Spans {
    re.into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter(|c| {
            c.iter()
                .skip(1)
                .flatten()
                .next()
                .is_some_and(|m| accept(m.as_str()))
        })
        .filter_map(|c| c.get(0).map(|m| m.range()))
        .collect()
}

/// The spans of the first participating group of each match of `re`
/// (patterns with alternatives capture one group per alternative) that
/// `accept` takes.
pub(super) fn groups(re: Option<&Regex>, text: &str, accept: impl Fn(&str) -> bool) -> Spans {
    re.into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter_map(|c| c.iter().skip(1).flatten().next())
        .filter(|m| accept(m.as_str()))
        .map(|m| m.range())
        .collect()
}
