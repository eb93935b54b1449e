//! Session ids named by what serves them rather than by the word
//! "session" alone: an agent's resume id, MongoDB's logical session, a
//! DynamoDB item's typed session key, Flask-Session's stored files, a
//! row of a `sessions` table, a manager's listing, a framework's log of
//! a regenerated id or its handler's call, an AWS Systems Manager session,
//! an id printed by code that reads it.

use super::super::pattern::{Spans, contains_ignoring_case, groups, lazy_regex};
use super::super::value::{has_digit, has_letter, random_like};
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

lazy_regex!(
    /// A row of a table of sessions picked by its id: SQL on a table that
    /// holds logins' sessions (`UPDATE sessions … WHERE id = '…'`, `DELETE
    /// FROM django_session WHERE session_key = '…'`; a `training_sessions`
    /// table holds no logins) or the row described ("sessions table row:
    /// id=…").
    SESSION_ROW,
    r#"(?i)\b(?:from|update|into|join)\s+[`"]?(?:\w+\.)?(?:(?:django|user|users|auth|web|login|http|php|app)_)?sessions?[`"]?\s[^;\n]{0,160}?\b(?:session_)?(?:id|key)\s*=\s*'([A-Za-z0-9_-]{20,128})'|\bsessions?\s+table\s+row[:,]?\s+(?:[\w.-]+=\S+\s+){0,4}?(?:session_)?id\s*[=:]\s*["']?([A-Za-z0-9_-]{20,128})"#
);

lazy_regex!(
    /// A session's id in a manager's listing (Tomcat's "Sessions: ID
    /// <32 hex digits>"), a node's route perhaps after it; or the first
    /// row of a table of sessions under a title line, whose header opens
    /// with `ID` ("Active sessions:", "ID  USER  STARTED", then the rows).
    LISTED_ID,
    r"\b(?i:sessions?)\s*:\s*(?i:ID)\s*[:=]?\s*([0-9A-F]{32})(?:\.[\w-]+)?\b|\b(?i:sessions?)[ \t]*:?[ \t]*\r?\n[ \t]*(?i:(?:session[ _-]?)?id)[ \t][^\n]*\r?\n[ \t]*([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})[ \t]"
);

lazy_regex!(
    /// An AWS Systems Manager session's id after the word: its user's
    /// name and 17 hex digits (`ssm-user session ops-a4decfa90adbd4ced`,
    /// `--session-id ops-…`), as an instance's `i-…` is not.
    SSM_SESSION,
    r"(?i:\bsession(?:[ _-]?id)?)[\s:=]+((?:[A-Za-z0-9_.@+=]+-)*[A-Za-z0-9_.@+=]{2,}-[0-9a-f]{17})\b"
);

lazy_regex!(
    /// A session read, destroyed or resumed by its id through a
    /// framework's handler (Laravel's `session()->getHandler()->read('…')`,
    /// `Session::setId('…')`).
    HANDLER_CALL,
    r#"\bsession\(\)->getHandler\(\)->(?:read|destroy)\(\s*['"]([A-Za-z0-9]{32,64})['"]|\b(?:Session::|session\(\)->)setId\(\s*['"]([A-Za-z0-9]{32,64})['"]"#
);

lazy_regex!(
    /// The old and new ids of a session its framework regenerated, as
    /// Laravel logs them (`Session regenerated {"old":"…","new":"…"}`).
    REGENERATED,
    r#"(?i)\bsession\b[^\n]{0,40}?\bregenerated\b[^\n]{0,40}?["']?old["']?\s*[:=]\s*["']?([A-Za-z0-9_-]{20,128})["']?[^\n]{0,12}?["']?new["']?\s*[:=]\s*["']?([A-Za-z0-9_-]{20,128})"#
);

lazy_regex!(
    /// A session's id printed by code that reads it, the output in a
    /// comment after the call (`console.log(req.sessionID) // prints …`).
    PRINTED_ID,
    r#"(?i)\bsession[_-]?id\b[^\n]{0,40}?\s(?://|#)\s*(?:prints|printed|logs|logged|shows|showed|outputs|gives|gave|returns|returned|->|=>)\s*:?\s*["'`]?([A-Za-z0-9_-]{20,128})"#
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
    if text.contains("\"S") {
        out.extend(groups(Some(&DYNAMO_SESSION), text, id));
    }
    if contains_ignoring_case(text, "session") {
        out.extend(groups(Some(&SESSION_ROW), text, |v| {
            id(v) && random_like(v, 20)
        }));
        out.extend(groups(Some(&LISTED_ID), text, id));
        out.extend(groups(Some(&PRINTED_ID), text, |v| {
            id(v) && random_like(v, 20)
        }));
        out.extend(groups(Some(&HANDLER_CALL), text, |v| {
            id(v) && random_like(v, 32)
        }));
        if contains_ignoring_case(text, "ssm") {
            out.extend(groups(Some(&SSM_SESSION), text, |v| {
                let hex = &v[v.len() - 17..];
                has_digit(hex) && has_letter(hex) && !counting_run(hex)
            }));
        }
        if contains_ignoring_case(text, "regenerated") {
            out.extend(groups(Some(&REGENERATED), text, |v| {
                id(v) && random_like(v, 20)
            }));
        }
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
