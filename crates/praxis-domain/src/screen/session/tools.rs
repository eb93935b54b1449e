//! Session ids in the places particular tools put them: Jupyter's kernel
//! connection file, Mosh's key, a session recorder's file, a resumed
//! conversation, Gemini CLI's chat file, a checkout session, a session
//! id passed as a format string's argument, an id a REPL answered or a
//! session cookie's value given in prose, and an `ssid` parameter.

use super::super::pattern::{Spans, contains_ignoring_case, groups, lazy_regex};
use super::super::value::{has_digit, is_placeholder, mixed_case, random_like};

const UUID: &str = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

lazy_regex!(
    /// Ids a tool names its session by: Jupyter's kernel connection file
    /// that a console attaches to (`--existing kernel-<uuid>.json`; the
    /// file left in a directory is no handle), Mosh's key (`MOSH_KEY=…`), a file of a
    /// session recorder named for its ULID or UUID
    /// (`session-recorder/01HB….cast`), a conversation resumed by its
    /// UUID, Gemini CLI's chat file, a checkout session after "session
    /// id" (`cs_live_…`), or a live one after "checkout session" (a test
    /// mode's `cs_test_…` is no customer's).
    TOOL_SESSION,
    &format!(
        r"--existing[ =]+(?:\S*/)?kernel-({UUID})\.json\b|\bMOSH_KEY=([A-Za-z0-9/+]{{22}})\b|(?i:session)[\w-]*/(?:[\w.-]+/){{0,2}}([0-7][0-9A-HJKMNP-TV-Z]{{25}}|{UUID})\.(?:cast|log|json|jsonl|txt|rec)\b|(?i:\b(?:resum(?:ed|ing|e)|continu(?:ed|ing|e))\s+(?:the\s+)?(?:conversation|chat|thread)\s+)({UUID})\b|\.gemini/tmp/[0-9a-f]{{64}}/chats/(session-[0-9T:-]{{10,25}}[0-9a-f]{{8}})\.json\b|(?i:\bsession\s+id\s*[:=]?\s*)(cs_(?:live|test)_[A-Za-z0-9]{{40,}})\b|(?i:\bcheckout\s+session\s*[:=]?\s*)(cs_live_[A-Za-z0-9]{{40,}})\b"
    )
);

lazy_regex!(
    /// A session id passed as the argument of a format string that labels
    /// it (`logger.info("sess=%s", "…")`).
    FORMAT_ARGUMENT,
    r#"(?i)\bsess(?:ion)?(?:[_-]?id)?\s*[=:]\s*%[sr]["']\s*,\s*["']([A-Za-z0-9_-]{20,})["']"#
);

lazy_regex!(
    /// A session id a REPL answered when asked for it (Laravel's tinker
    /// `Session::getId()` or `session()->getId()` then `=> "…"`, or `=
    /// "…"` as newer PsySH prints it, `session.get_id()` in a Python
    /// shell), or a session cookie's value given after "session cookie"
    /// (Flask's `<data>.<time>.<signature>`).
    ANSWERED,
    r#"(?i:\bsession(?:::|\.|->|\(\)->)get_?id\(\))[^\n]*\r?\n[ \t]*(?:=>|=|Out\[\d+\]:|<=)?[ \t]*["']([A-Za-z0-9,_-]{20,})["']|(?i:\bsession\s+cookie\s*(?:=|:|is)\s*)["']?([A-Za-z0-9_-]{16,}(?:\.[A-Za-z0-9_-]{4,}){1,2})"#
);

lazy_regex!(
    /// A web shop's `ssid` parameter (a session's), not a Wi-Fi network's
    /// name: its value is long and generated.
    SSID_PARAMETER,
    r"(?:^|[?&;\s])ssid=([A-Za-z0-9%._-]{24,})"
);

/// The session ids in `text` in the places particular tools put them.
pub(super) fn tool_ids(text: &str) -> Spans {
    let mut out = groups(Some(&TOOL_SESSION), text, |v| {
        !is_placeholder(v) && v.bytes().filter(|&b| b != b'0' && b != b'-').count() >= 8
    });
    if text.contains('%') {
        out.extend(groups(Some(&FORMAT_ARGUMENT), text, |v| {
            has_digit(v) && random_like(v, 20)
        }));
    }
    if contains_ignoring_case(text, "session") {
        out.extend(groups(Some(&ANSWERED), text, |v| {
            has_digit(v) && mixed_case(v) && random_like(v, 20)
        }));
    }
    if text.contains("ssid=") {
        out.extend(groups(Some(&SSID_PARAMETER), text, |v| {
            mixed_case(v) && has_digit(v) && random_like(v, 24)
        }));
    }
    out
}
