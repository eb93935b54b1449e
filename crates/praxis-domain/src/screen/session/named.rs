//! Session ids named by what serves them rather than by the word
//! "session": an agent's resume id, MongoDB's logical session.

use super::super::pattern::{Spans, contains_ignoring_case, groups, lazy_regex};
use super::super::value::{has_digit, has_letter};
use super::counting_run;

lazy_regex!(
    /// MongoDB's logical session id (`lsid: { id: UUID("…") }`).
    MONGO_LSID,
    r#"(?i)\blsid["']?\s*:\s*\{\s*["']?id["']?\s*:\s*(?:UUID\(\s*)?["']([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})["']"#
);

lazy_regex!(
    /// An agent's session named by what resumes it ("the resume id it
    /// printed was <uuid>"): a UUID or a ULID a few words on.
    RESUME_ID,
    r"(?i)\bresume[ _-]?id\b[^\n.;]{0,40}?\b([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?-i:[0-7][0-9A-HJKMNP-TV-Z]{25}))\b"
);

/// The ids in `text` named by what serves them.
pub(super) fn named_ids(text: &str) -> Spans {
    let mut out = Spans::new();
    let id = |v: &str| has_digit(v) && has_letter(v) && !counting_run(v);
    if contains_ignoring_case(text, "lsid") {
        out.extend(groups(Some(&MONGO_LSID), text, id));
    }
    if contains_ignoring_case(text, "resume") {
        out.extend(groups(Some(&RESUME_ID), text, id));
    }
    out
}
