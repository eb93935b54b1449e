//! Session ids named by what serves them rather than by the word
//! "session" alone: an agent's resume id, MongoDB's logical session, a
//! DynamoDB item's typed session key, Flask-Session's stored files.

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

lazy_regex!(
    /// A session key's value wrapped in DynamoDB's type (`"SessionId":
    /// {"S": "…"}`), in JSON escaped inside a string too.
    DYNAMO_SESSION,
    r#"(?i)\\?"(?:session[_-]?(?:id|key|token)|sid)\\?"\s*:\s*\{\s*\\?"(?-i:S)\\?"\s*:\s*\\?"([A-Za-z0-9_.:+/=-]{16,128})\\?""#
);

lazy_regex!(
    /// A listing of Flask-Session's file store (`ls flask_session/`): each
    /// file is named by a hash of a live session's id, which opens it.
    FLASK_SESSION_FILES,
    r"(?i)\bflask_session/?[ \t]*\r?\n((?:[ \t]*[0-9a-f]{32}[ \t]*(?:\r?\n|$))+)"
);
lazy_regex!(HEX_NAME, r"[0-9a-f]{32}");

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
    if text.contains("\"S") {
        out.extend(groups(Some(&DYNAMO_SESSION), text, id));
    }
    if contains_ignoring_case(text, "flask_session") {
        for run in FLASK_SESSION_FILES
            .captures_iter(text)
            .filter_map(|c| c.get(1))
        {
            out.extend(
                HEX_NAME
                    .find_iter(run.as_str())
                    .filter(|m| id(m.as_str()))
                    .map(|m| run.start() + m.start()..run.start() + m.end()),
            );
        }
    }
    out
}
