//! Compiling the screening patterns, and matching helpers the rule
//! families share.

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

/// Whether `accept` holds for some match of `re`, trying the next match
/// right after each rejected key (group 1) rather than after the whole
/// match: in `postgres: POSTGRES_PASSWORD=x` the first candidate's value
/// holds the real assignment.
pub(super) fn any_candidate(
    re: &Regex,
    text: &str,
    accept: impl Fn(&Captures<'_>) -> bool,
) -> bool {
    let mut at = 0;
    while let Some(c) = re.captures_at(text, at) {
        if accept(&c) {
            return true;
        }
        at = c.get(1).map_or(text.len(), |m| m.end());
    }
    false
}

/// Whether `accept` holds for the first participating group of some match
/// of `re` (patterns with alternatives capture one group per alternative).
pub(super) fn any_group(re: &Regex, text: &str, accept: impl Fn(&str) -> bool) -> bool {
    re.captures_iter(text).any(|c| {
        c.iter()
            .skip(1)
            .flatten()
            .next()
            .is_some_and(|m| accept(m.as_str()))
    })
}
