//! Session identifiers: labelled session ids and cookies, `sess_` files,
//! and agent session ids in resume commands and transcript paths.

use std::sync::LazyLock;

use regex::Regex;

use super::pattern::{any_candidate, any_group, lazy_regex, regex};
use super::value::{distinct_chars, has_digit, is_placeholder, key_words, random_like, word_like};

const UUID: &str = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

lazy_regex!(
    SESSION_ASSIGNMENT,
    r#"(?i)(?:^|[^A-Za-z0-9_.-])(?:\\?["'])?([A-Za-z0-9_.-]*(?:sess(?:ion)?(?:[_.-]?(?:id|token|key))?|sessid|connect\.sid))(?:\\?["'])?\s*(?::=|=|:)\s*(?:\\?["'])?([A-Za-z0-9%._+/=:-]+)"#
);
static SESSION_LABELLED_UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?i)\b(?:session(?:[ _-]?id)?(?:\s+(?:is|was))?|--session(?:-id)?|--resume|resume|claude\s+-r)\s*[:=#]?\s*["'`(\[]?{UUID}"#
    ))
});
static SESSION_TRANSCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\.claude/projects/[^\s/]+/{UUID}\.jsonl|\.codex/sessions/\S*rollout-\S*{UUID}"
    ))
});
lazy_regex!(SESSION_FILE, r"\bsess_([0-9A-Za-z]{16,})");

/// Session keys whose value is an identifier: the last words of the key.
const SESSION_KEY_SUFFIXES: &[&str] = &[
    "session",
    "sessionid",
    "sessid",
    "sessiontoken",
    "sessionkey",
    "connectsid",
];

pub(super) fn session_id(text: &str) -> bool {
    any_candidate(&SESSION_ASSIGNMENT, text, |c| {
        let joined = key_words(&c[1]).concat();
        let Some(suffix) = SESSION_KEY_SUFFIXES.iter().find(|s| joined.ends_with(*s)) else {
            return false;
        };
        let value = c[2].trim_end_matches([':', '.']);
        let min = if *suffix == "session" { 16 } else { 8 };
        value.len() >= min
            && !is_placeholder(value)
            && has_digit(value)
            && !word_like(value)
            && distinct_chars(value) >= 5
    }) || SESSION_LABELLED_UUID.is_match(text)
        || SESSION_TRANSCRIPT.is_match(text)
        || any_group(&SESSION_FILE, text, |b| random_like(b, 16) && has_digit(b))
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn sessions_need_a_label() {
        assert!(fires(
            "session 0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
            Rule::SessionId
        ));
        assert!(fires(
            "Cookie: PHPSESSID=k3l9m2n8b7v6c5x4z1",
            Rule::SessionId
        ));
        assert!(!fires(
            "trace 0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
            Rule::SessionId
        ));
        assert!(!fires("session_timeout=3600", Rule::SessionId));
    }
}
