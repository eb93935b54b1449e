//! Session ids by their shape alone, in the same sentence as a word
//! naming a session and with nothing else named between them.

use super::super::pattern::{Spans, lazy_regex};
use super::super::value::{has_digit, has_letter, is_placeholder};
use super::{
    EMPTY_MD5, OTHER_THINGS, counting_run, names_no_other_id, sentence_rest, sum_word, words_of,
};

/// The ids near a word naming a session, the words between naming no
/// other thing; and an id said to be a session ("<ULID> is the session
/// that hung").
pub(super) fn nearby_ids(text: &str) -> Spans {
    let mut out: Spans = ID_IS_SESSION
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .filter(|v| {
            let v = v.as_str();
            has_digit(v)
                && has_letter(v)
                && !counting_run(v)
                && !v.eq_ignore_ascii_case(EMPTY_MD5)
                && !is_placeholder(v)
        })
        .map(|v| v.range())
        .collect();
    out.extend(
        nearby(text)
            .into_iter()
            .filter(|c| {
                let v = &c[2];
                let (start, end) = c.get(2).map_or((0, text.len()), |m| (m.start(), m.end()));
                // A colon right after the value opens what it labels (a
                // dump's contents): no words there qualify the value.
                let after = match &text[end..] {
                    rest if rest.starts_with(": ") || rest.starts_with(":\n") => "",
                    rest => rest,
                };
                // An id inside a link (`https://notion.so/Page-<hex>`) is
                // the linked page's.
                let token_start = text[..start]
                    .char_indices()
                    .rfind(|(_, c)| c.is_whitespace())
                    .map_or(0, |(i, c)| i + c.len_utf8());
                let token = &text[token_start..start];
                // A path's segment (`…/sid/<slug>`) is a name, not an id.
                !token.contains("://")
                    && !token.ends_with('/')
                    && nothing_else_named(&c[1], after.get(..60).unwrap_or(after))
                    && has_digit(v)
                    && has_letter(v)
                    && !counting_run(v)
                    && !v.eq_ignore_ascii_case(EMPTY_MD5)
                    && !v.ends_with("000000000000")
            })
            .filter_map(|c| c.get(2).map(|m| m.range())),
    );
    out
}

lazy_regex!(
    /// An id-shaped value (a UUID, 32 hex digits, a ULID) said to be a
    /// session: "… is the session that hung", "… was your session." (the
    /// session the head of its phrase: "the session's trace id" and "a
    /// session identifier" name other things).
    ID_IS_SESSION,
    r"(?i)\b([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?-i:[0-7][0-9A-HJKMNP-TV-Z]{25}))\s+(?:is|was)\s+(?:the|a|my|our|your|their)\s+(?:[a-z]+\s+)?session(?:\s+(?:that|which|who|where|we|you|they|i|in|on|for|from|of|with)\b|\s*[.,;:!?)]|\s*$)"
);

lazy_regex!(
    /// A UUID, 32 hex digits, a ULID or PHP's 26 letters and digits in
    /// the same sentence as a word naming a session ("the session id
    /// shown in the footer (…)", "lookup(:sessions,
    /// \"…\")", "FROM user_sessions WHERE sid = %s\", (\"…\",)"), within 80
    /// characters of it (as [`nearby`] holds it): the words between are
    /// captured for [`nothing_else_named`].
    SESSION_NEARBY,
    r"(?i)(?:\b|_)(?:sessions?(?:[ _-]?(?:id|token))?|sid)\b([^\n]*?)\b([0-9a-f]{64}|[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?-i:[0-7][0-9A-HJKMNP-TV-Z]{25})|(?-i:[0-9a-z]{26}))\b"
);

/// The matches of [`SESSION_NEARBY`] whose words between run to 80
/// characters or fewer. The pattern leaves that distance open, so that its
/// automaton stays small (a counted gap multiplies its states); a match
/// whose value stands farther away is searched again from the character
/// after its start, as a pattern that counted would go on.
fn nearby(text: &str) -> Vec<regex::Captures<'_>> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(c) = SESSION_NEARBY.captures_at(text, at) {
        let (start, end) = c.get(0).map_or((at, text.len()), |m| (m.start(), m.end()));
        if c.get(1)
            .is_some_and(|between| between.as_str().chars().count() <= 80)
        {
            at = end;
            out.push(nearest_label(text, c));
        } else {
            at = char_after(text, start);
        }
    }
    out
}

/// Where the character after the one at `at` starts.
fn char_after(text: &str, at: usize) -> usize {
    let mut next = at + 1;
    while !text.is_char_boundary(next) {
        next += 1;
    }
    next
}

/// The match of [`SESSION_NEARBY`] for the same value as `c` whose
/// session word stands nearest to it: a later word relabels the value
/// ("sessionToken for the kiosk user (session id) = <hex>").
fn nearest_label<'t>(text: &'t str, mut c: regex::Captures<'t>) -> regex::Captures<'t> {
    let value = c.get(2).map(|m| m.range());
    loop {
        let Some(start) = c.get(0).map(|m| m.start()) else {
            return c;
        };
        match SESSION_NEARBY.captures_at(text, char_after(text, start)) {
            Some(later) if later.get(2).map(|m| m.range()) == value => c = later,
            _ => return c,
        }
    }
}

/// Whether the words between a session's name and an id-shaped value, or
/// after the value to its sentence's end, leave the value to the session:
/// no sentence ends between them, and they name no other thing such a
/// value identifies or sums up (a request, a commit, a user, a file's
/// checksum), in the singular or the plural.
fn nothing_else_named(between: &str, after: &str) -> bool {
    let sentence_ends = [". ", "; ", "! ", "? "]
        .iter()
        .any(|end| between.contains(end));
    // The session's own object, whose first key is its id (Jupyter's
    // `session: {"id": "<uuid>", …}`).
    if OWN_ID.is_match(between) {
        return true;
    }
    // A bare "id" right before the value is the session's own (`$_SESSION
    // dump for id …`, `CREATE_SESSION ok id=…`), unless a noun before it
    // names another thing ("request id" stays).
    let between = match between
        .trim_end_matches([' ', '\t', '=', ':', '"', '\''])
        .strip_suffix("id")
        .map(str::trim_end)
    {
        Some(head)
            if head
                .rsplit(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .is_some_and(|w| ["ok", "for", "with", "its", "dump"].contains(&w)) =>
        {
            head
        }
        _ => between,
    };
    !sentence_ends
        && !words_of(&format!("{between} {}", sentence_rest(after)))
            .iter()
            .any(|w| {
                let one = w.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(w);
                sum_word(w) || OTHER_THINGS.contains(&one) || !names_no_other_id(one)
            })
}

lazy_regex!(
    /// The words between a session's name and the id of its own object:
    /// `: {"id": "`.
    OWN_ID,
    r#"^["']?\s*[:=]\s*[\[{]\s*["']?id["']?\s*:\s*["']?$"#
);
