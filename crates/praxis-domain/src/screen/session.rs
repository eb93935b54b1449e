//! Session identifiers: labelled session ids and cookies, `sess_` files,
//! and agent session ids in resume commands and transcript paths.

use std::sync::LazyLock;

use regex::Regex;

use super::normalize::normalize;
use super::pattern::{
    Found, Spans, candidates, contains_ignoring_case, groups, lazy_regex, matches, regex,
};
use super::sql;
use super::table;
use super::value::{
    counts_up, dated, distinct_chars, few_vowels, has_digit, has_letter, is_placeholder, key_words,
    keyboard_walk, longest_alnum_run, mixed_case, random_like, twilio_sid, word_like, wordy,
    written_out,
};

const UUID: &str = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/// A UUID, a ULID-shaped id (26 Crockford base32 characters; the first is
/// not held to a valid timestamp, as hand-made ids often break it), 32 or
/// 40 hex digits, PHP's and Django's 26 or 32 lowercase letters and
/// digits, ASP.NET's 24, ZooKeeper's 64-bit `0x…`, or 128 bits as `0x…`.
const SESSION_SHAPES: &str = r"(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}|[0-9a-fA-F]{40}|[0-9a-fA-F]{32}|[0-9a-z]{26}|[0-9a-z]{32}|[0-9a-z]{24}|0x[0-9a-fA-F]{32}|0x[0-9a-fA-F]{12,16})\b";

/// A value that is a UUID and nothing more.
static UUID_ONLY: LazyLock<Regex> = LazyLock::new(|| regex(&format!("^{UUID}$")));
lazy_regex!(
    /// A session id assigned to a name for one, quoted or in braces as
    /// Windows writes a GUID (`session_guid={60B8…}`), or to a session's
    /// `id` entry (Ruby's `session[:id] => "…"`); Roundcube's `_sid` too.
    SESSION_ASSIGNMENT,
    r#"(?i)(?:^|[^A-Za-z0-9_.-])(?:\\?["'])?([A-Za-z0-9_.-]*(?:sess(?:ion)?(?:[_.$-]?(?:id|token|key))?|sessid|connect\.sid)[A-Za-z0-9_.-]*|[A-Za-z0-9_.-]*[A-Za-z0-9][_-]sid|sails\.sid|_?sid|frontend|mysapsso2)(?:\\?["'])?\]?(?:\(\))?(?:\[\s*:?["']?(?:id|sid|session_id)["']?\s*\])?\s*(?::=|=>|=|:|<-)\s*(?:\\?["']|\{)?([A-Za-z0-9%._+/=:!*-]+)"#
);
static SESSION_LABELLED_UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?i)\b(?:(?:http)?session(?:[ _-]?(?:id|ulid|uuid|key|token|handle|\d\d-hex))?(?:\s+cookie)?(?:\s*\((?:ULID|UUID|hex|id)\))?(?:\s+(?:used|seen|captured|taken)\s+(?:for|in|from)\s+(?:the\s+)?\w+)?(?:\s+(?:is|was|=|of|data\s+(?:for|of))|,?\s+(?:which|that|it)\s+(?:is|was)|\s+with\s+(?:the\s+)?id|\s*\(\s*id|\s+(?:that|which)\s+[^\n.;]{{1,60}}?\s+(?:is|was))?|sess\s+id|sid|agent\s+transcript|--session(?:-id)?|--resume|resume|resuming\s+(?:conversation|session|thread)|claude\s+(?:-r|--resume)|codex\s+(?:exec\s+)?resume(?:\s+--?[a-z][\w-]*(?:[ =][^\s-]\S*)?)*|gemini\s+--resume|threads\s+continue\s+T-)(?:\s+(?:war|ist|lautet|lautete|est|era|es|é|är|var|był|była))?\s*(?:[=-]{{1,2}}>|→|[:=#|])?\s*["'`(\[]?{SESSION_SHAPES}|\bsession[ _-]?(?:id|ulid|uuid)\s+for(?:\s+[\w-]+){{1,3}}?\s*:\s*["'`(\[]?{SESSION_SHAPES}|/(?:sessions?|session[_-]store)/{SESSION_SHAPES}|storage/framework/sessions(?:/|/?[ \t]*\r?\n[ \t]*)[A-Za-z0-9]{{40}}\b"#
    ))
});
static SESSION_TRANSCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"\bssh\s+(?:ro-)?[A-Za-z0-9]{{20,30}}@[a-z0-9]+\.tmate\.io\b|\btsh\s+(?:play|join)\s+(?:--?[a-z][\w-]*(?:[ =]\S+)?\s+)*{UUID}|\bMOSH\s+CONNECT\s+\d+\s+[A-Za-z0-9/+]{{22}}\b|\bssh\s+(?:-[A-Za-z]\s*\S+\s+)*[A-Za-z]*[0-9][A-Za-z0-9]*(?::[A-Za-z0-9+/=_-]{{8,}})?@(?:[a-z0-9-]+\.)*upterm\.dev\b|(?i)\.claude[/\\]projects[/\\][^\s/\\]+[/\\]{UUID}\.jsonl|\.codex/sessions/\S*rollout-\S*{UUID}|\brollout-[0-9T:_.-]*{UUID}|\bsession-{UUID}\.jsonl?\b|\.gemini/tmp/\S*{UUID}|\bchatSessions/{UUID}\.json|(?i:transcript_path)[\x22']?\s*[:=]\s*[\x22']?\S*{UUID}\.jsonl|\.claude/projects/\S*[ \t]*\r?\n\s*{UUID}\.jsonl|\b00D[A-Za-z0-9]{{12}}![A-Za-z0-9._]{{80,}}"
    ))
});
lazy_regex!(
    /// An agent's resume command given as an argument list
    /// (`["codex", "resume", "<uuid>"]`, `spawn("claude", ["--print",
    /// "--resume", "<uuid>"])`): a few arguments may come before the
    /// resume flag, options between it and the id.
    RESUME_ARGUMENTS,
    &format!(
        r#"\b(?:claude|codex|gemini)["']\s*,\s*\[?\s*(?:["'][^"'\n]{{1,40}}["']\s*,\s*){{0,4}}?["'](?:resume|--resume|-r)["']\s*,\s*(?:["']--?[a-z][\w-]*["']\s*,\s*)*["']({UUID})["']"#
    )
);
lazy_regex!(
    /// A session file or a store's key named for its id: PHP's `sess_…`,
    /// Flask-Session's `flask_session/<hex>`, a `sessions/` directory's
    /// entries, memcached's `session_<hex>`, a log or file named for its
    /// session's UUID or ULID (`session-01JPCH….log`); an agent's `ses_…`
    /// id (opencode's); a session named by its kind's prefix and 32 hex
    /// digits (`chat session cs_…`).
    SESSION_FILE,
    r"\bsess[_-]([0-9A-Za-z]{16,})|\bses_([0-9A-Za-z]{20,32})\b|\bsession\s+[a-z]{2,4}_([0-9a-f]{32})\b|\b(?:flask_session|sessions)/([0-9a-f]{32,40})\b|\b(?:ci_)?session_?([0-9a-f]{32,64})\b|\bsession[_-]([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25})\b"
);
lazy_regex!(
    /// A session cookie that express-session (and cookie-parser) signed:
    /// `s:<id>.<HMAC-SHA256 in unpadded base64>`, percent-encoded or not.
    /// Only the session family's words open it, so the shape runs where a
    /// text speaks of sessions.
    SIGNED_SESSION_COOKIE,
    r"(?:^|[^A-Za-z0-9%])s(?::|%3[Aa])([A-Za-z0-9_-]{24,64})\.[A-Za-z0-9+/_-]{43}(?:[^A-Za-z0-9+/_=-]|$)"
);
lazy_regex!(
    /// A session cookie as PHP's `var_dump` and `print_r` show an array's
    /// entry (`["PHPSESSID"]=> string(26) "…"`, `[PHPSESSID] => …`).
    SESSION_DUMP,
    r#"(?i)\[\s*"?(?:phpsessid|[a-z0-9_.-]*sess(?:ion)?(?:[_.-]?(?:id|key|token))?|sid)"?\s*\]\s*=>\s*(?:string\(\d+\)\s*)?"?([A-Za-z0-9,-]{16,})"#
);
lazy_regex!(
    /// session-file-store's file, `sessions/<id>.json` (also as a listing
    /// of the folder shows it, "ls sessions/ showed <id>.json", where the
    /// name is the store's 32 characters), or a
    /// session in an API's route (Okta's `/api/v1/sessions/<id>`), its id
    /// generated in mixed case (a descriptive name,
    /// `sessions/login_flow_v2.json`, is made of words).
    SESSION_STORE_FILE,
    r"\bsessions/([0-9A-Za-z_-]{24,64})\.json\b|\bsessions[/\\]?[^\n/\\]{0,60}?\s([0-9A-Za-z_-]{32})\.json\b|/api/v\d+/sessions/([0-9A-Za-z_-]{20,64})(?:$|[\s/?#\x22'`).,;])"
);
lazy_regex!(
    /// ColdFusion's numeric `CFTOKEN`, a Phoenix session cookie, whose
    /// signed value starts with the base64 of its algorithm's name
    /// (`SFMyNTY` is `HS256`), and a cookie sealed by hapi's iron
    /// (`Fe26.2**…`).
    SESSION_SHORT,
    r"(?i)\bCFTOKEN\s*[=:]\s*([0-9]{8,})\b|=\s*(SFMyNTY\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})|\b(Fe26\.2\*\*[0-9a-f]{64}\*[A-Za-z0-9_-]{16,})"
);
lazy_regex!(
    /// ASP.NET's sign-in cookies, each a session's bearer: Forms
    /// authentication's `.ASPXAUTH` ticket, OWIN's and ASP.NET Core
    /// Identity's cookies, whole or in chunks (`.AspNetCore.CookiesC1`).
    ASPNET_AUTH_COOKIE,
    r#"(?i)\.(?:ASPXAUTH|ASPXFORMSAUTH|AspNet\.ApplicationCookie|AspNetCore\.(?:Cookies|Identity\.Application))(?:C\d{1,2})?\s*[=:]\s*["']?([A-Za-z0-9_-]{40,})"#
);
lazy_regex!(
    /// A structured log's template naming a session id and the literal
    /// given for it (`LogWarning("Session {SessionId} expired", "70e8…")`).
    LOG_TEMPLATE_ARGUMENT,
    r#"(?i)\{\s*(?:session_?id|sid)\s*\}[^"\n]*"\s*,\s*["']([A-Za-z0-9_-]{16,})["']"#
);
lazy_regex!(
    /// A Claude Code transcript's path without its config directory
    /// (`projects/-var-www-shop/<uuid>.jsonl`): the project's folder is its
    /// path with `/` turned to `-`, so it starts with one (or with a
    /// drive's letter and `--` on Windows); a subagent's transcript sits in
    /// a folder named for the session. Read only where the text names
    /// Claude.
    CLAUDE_PROJECT_PATH,
    &format!(r"(?:^|[\s\x22'`(=:/\\])projects[/\\](?:-|[A-Za-z]--)[A-Za-z0-9._-]+[/\\]({UUID})(?:\.jsonl\b|[/\\]subagents[/\\])")
);
lazy_regex!(
    /// A session cookie's lookup that failed and printed the id it looked
    /// for (`cookies["sid"]` or `cookies.get("sid")` … `KeyError: '1b55…'`,
    /// on its line or one of the next four).
    COOKIE_LOOKUP_MISS,
    r#"(?i)\bcookies\s*(?:\[\s*["'](?:sid|[\w.-]*sess[\w.-]*)["']\s*\]|\.get\(\s*["'](?:sid|[\w.-]*sess[\w.-]*)["'])(?:[^\n]*\n){0,4}?[^\n]*?\bKeyError:\s*["']([0-9A-Za-z_-]{20,})["']"#
);
lazy_regex!(
    /// A session id after its label and a space (or "is" or "was") or as a
    /// flag's value (`PHPSESSID ddg3…`, `--session ses_…`), as the value of an element
    /// named for it (`<SessionId>…</SessionId>`), paired with its name
    /// in a call (`("x-session-id", "…")`, `log("session", "…")`),
    /// what a lookup by its name returned (`Get(r, "sid") returned …`), or
    /// after a label with an aside (`Session ID (support): …`), or in
    /// brackets after the word, as Laravel logs it (`Session [<40 letters
    /// and digits>] regenerated`), or before a colon that opens the
    /// session's message, as Wt logs it (`Wt session <id>: Error …`), or
    /// what a session's getter printed (`HttpSession.getId() → …`).
    SESSION_NAMED,
    r#"(?i)\bsession[ _-]?id\s*\([^)\n]{1,24}\)\s*:\s*["']?([A-Za-z0-9_-]{20,})|\b(?:PHPSESSID|JSESSIONID|ASP\.NET_SessionId|sessionid|session_id|sessid|sess[\s.-]+id|sid|[a-z]+_SESSION|AuthSession|session_?token|session\s+cookie)(?:\s+cookie)?(?:\s+value)?(?:\s+(?:is|was)(?:\s+now)?)?(?:\s*:?\s+|\s+cookie\s*=\s*)\(?["'`]?([A-Za-z0-9_-]{20,})|\bsession\s*\[\s*([A-Za-z0-9]{32,64})\s*\]|\bsession[ \t]+([A-Za-z0-9_-]{16,64}):[ \t]|--session(?:-id)?(?:\s+|=)["']?([A-Za-z0-9_.-]{16,})|<[\w:]*session[-_]?(?:id|token|key|index)>\s*([A-Za-z0-9._+/=!^-]{16,})\s*</|["'](?:[\w.-]*session(?:[_-]?id)?|[\w.-]*sessid|sid)(?:\s*[:=])?\s*["']\s*,\s*["']([A-Za-z0-9._+/=-]{16,})["']|["'](?:[\w.-]*session(?:[_-]?id)?|[\w.-]*sessid|sid)["']\s*\)\s+(?:returned|returns|gave|=>|->)\s+["']?([A-Za-z0-9_+/-]{20,})|\b(?:(?:http)?session|getsession\(\w*\))\.getId\(\)\s*(?:→|[=-]>|=|:|returned|returns)\s*["']?([A-Za-z0-9_-]{20,})"#
);
lazy_regex!(
    /// A session numbered rather than named (Oracle APEX's `session
    /// 7542981958651226`, `session id: 4410…`, the third field of an APEX
    /// URL's `f?p=app:page:session`): thirteen digits or more after the
    /// word, twelve or more in the URL.
    SESSION_NUMBER,
    r"(?i)\bsession(?:[ _-]?id)?(?:\s+(?:is|was|number|no\.?))?\s*[:=#]?\s*([0-9]{13,20})\b|\bf\?p=[\w$]+:[\w$]+:([0-9]{12,20})\b"
);

/// Whether a number starts with a date of this century or the last
/// (`20241205…`).
fn calendar_date(v: &str) -> bool {
    let b = v.as_bytes();
    (v.starts_with("19") || v.starts_with("20"))
        && matches!((b[4], b[5]), (b'0', b'1'..=b'9') | (b'1', b'0'..=b'2'))
}

/// Whether a number is a time since the Unix epoch in milli-, micro- or
/// nanoseconds, of the years 2017 to 2033 (`1733412345678`): a session's
/// start, not its id.
fn epoch_time(v: &str) -> bool {
    matches!(v.len(), 13 | 16 | 19)
        && v.starts_with('1')
        && (b'5'..=b'9').contains(&v.as_bytes()[1])
}

lazy_regex!(
    /// A session cookie given as a name and a value in separate fields: a
    /// Netscape cookie file's tab-separated row, a JSON or Go cookie
    /// (`"name": "PHPSESSID", "value": …`), a cookie jar call, a name and
    /// value quoted as code in prose (`` `PHPSESSID` = … ``), a cookie
    /// named after "session cookie" (`` session cookie `sid` = … ``).
    COOKIE_PAIR,
    r#"(?i)\b(?:PHPSESSID|JSESSIONID|ASPSESSIONID[A-Z]{8}|ASP\.NET_SessionId|sessionid|session_id|sessid|connect\.sid|sails\.sid|laravel_session|_session_id|[\w-]*[_-]session|session|session[_-]?token|_oauth2_proxy|security_authentication|SVPNCOOKIE|mojolicious|DSID|MRHSession|CAKEPHP|SESSDATA|phpMyAdmin|i_like_gitea|CFTOKEN|symfony|koa\.sess|wordpress_(?:logged_in|sec)_[0-9a-f]{32}|session\s+cookie\s+["'`][A-Za-z][\w.-]{0,30})["'`]?(?:\t|\s*,\s*["']?value["']?\s*[:=]\s*|["']\s*,\s*["']|\s*=\s*|\s+value\s*[:=]\s*|\s*\r?\n\s*Value:\s*)["'`]?([A-Za-z0-9%._+/=:-]{16,})"#
);
lazy_regex!(
    /// A session cookie named in quotes, then its value in words (Flask's
    /// `session cookie 'session' value <payload>.<stamp>.<signature>`,
    /// "… with value …", "… value is …").
    QUOTED_COOKIE_VALUE,
    r#"(?i)\bsession\s+cookie\s+["'`][A-Za-z][\w.-]{0,30}["'`]\s+(?:(?:with|has)\s+)?value(?:\s+(?:is|was))?\s*:?\s+["'`]?([\w%.+/=:-]{16,})"#
);
lazy_regex!(
    /// A session store's key (`sess:<id>` in Redis, `memc.sess.key.<id>`),
    /// PHP's `session_id('…')` (and what `var_dump` shows of
    /// `session_id()`), an engine.io or express `sid`, ASP.NET's
    /// cookieless `(S(…))` in a URL, a document of a MongoDB session store
    /// (`db.sessions.deleteOne({_id: …})`) or an SQL one (`FROM sessions
    /// WHERE id='…'`), Django's session model looked up by its key, a
    /// sessions space's lookup (`box.space.sessions:get{'…'}`), an
    /// express-session store's entry keyed by its id (`{"<id>": {"cookie":
    /// …}}`).
    SESSION_KEY,
    r#"(?i)\bsessions?[:.](?:get|select|delete|find|fetch)\s*[({]\s*\{?\s*["']([A-Za-z0-9_-]{20,})["']|\bsess(?:ion)?[:.](?:key\.)?([A-Za-z0-9_-]{20,})|\bsession_id\(\s*["']([^"'\s]{16,})["']|\bsession_id\(\)[\s\S]{0,80}?\bstring\(\d+\)\s*"([A-Za-z0-9,-]{20,64})"|\bsession_id\(\)\)?;?[ \t]*\r?\n[ \t]*["']?([A-Za-z0-9,-]{22,64})["']?(?:\s|$)|(?:["']sid["']\s*:\s*["']|\bsession\s+sid\s*=\s*)([A-Za-z0-9_-]{16,})|\bsession\s+(?:key|id)\s*[:=]?\s*([a-z0-9]{20,40})\b|\bsession\s+(?:with\s+)?(?:key|id)\s*[:=]?\s*["']?([A-Za-z0-9_-]{24,64})\b|\bsession\s+id\b[^\n.:=]{1,30}?\s(?:is|was):?\s+([a-z0-9]{20,40})\b|\(S\(([a-z0-9]{24})\)\)|\bsessions\.\w+\(\s*\{\s*["']?_id["']?\s*:\s*["']([A-Za-z0-9_-]{20,})["']|\b(?:(?:web|user|django|http|auth|php|app|login)_)?sessions\s+WHERE\s+(?:session_)?id\s*=\s*'([A-Za-z0-9_-]{20,})'|django\.contrib\.sessions\.cache([a-z0-9]{32})|\bSession\.objects\.(?:get|filter)\(\s*(?:pk|session_key)\s*=\s*["']([a-z0-9]{32})["']|"([A-Za-z0-9_-]{32})"\s*:\s*"?\{\\?"cookie\\?"\s*:\s*\{[^{}\n]*?\\?"(?:originalMaxAge|expires|httpOnly|path)\\?"\s*:"#
);
lazy_regex!(
    /// 32 hex digits or a UUID after a colon that ends a clause naming a
    /// session id or token ("the session id, so I sent them: …", "the SID
    /// of the stuck session, I grabbed it: …"): the clause is captured for
    /// [`names_no_other_id`].
    SESSION_CLAUSE,
    r#"(?i)(?:\bsession[ _-]?(?:id|token)\b|\bsid\s+of\s+(?:the\s+|my\s+|our\s+|your\s+)?(?:\w+\s+)?session\b)([^\n.:=]{0,60}?):\s*["']?([0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b"#
);

/// Whether a clause between a session's id and a colon names no other id
/// the value could be ("… not the same as the correlation id: …", "… new
/// build id: …").
fn names_no_other_id(clause: &str) -> bool {
    !key_words(&clause.replace(' ', "_")).iter().any(|w| {
        matches!(
            w.as_str(),
            "id" | "key"
                | "token"
                | "build"
                | "release"
                | "version"
                | "correlation"
                | "request"
                | "trace"
                | "commit"
        )
    })
}

lazy_regex!(
    /// A session store's log of what it did with one (`saved session
    /// 7KJK… to store`, `Session 7KJK… destroyed`, `session saved: 7KJK…`,
    /// express-session's debug `saving 7KJK…`, a cache command on a key
    /// named for sessions, `get app_sess_<hex>`): judged by
    /// [`store_log_id`].
    SESSION_STORE_LOG,
    r#"(?i)\b(?:sav|load|destroy|regenerat|touch|restor|stor|fetch|delet|creat)(?:ed|ing)\s+sessions?\s+["']?([A-Za-z0-9_-]{24,64})\b|\bsession\s+["']?([A-Za-z0-9_-]{24,64})["']?\s+(?:saved|loaded|destroyed|regenerated|touched|restored|stored|fetched|deleted|created|expired)\b|\bsession\s+(?:saved|loaded|destroyed|regenerated|restored|stored|created|deleted)\s*:\s*["']?([A-Za-z0-9_-]{24,64})\b|\bexpress-session\s+(?:saving|touching|destroying|regenerating|loading)\s+([A-Za-z0-9_-]{24,64})\b|\b(?:get|set|delete|add|touch|gets)\s+[A-Za-z0-9]+[_:]sess(?:ion)?[_:]([0-9a-f]{32,64})\b"#
);

lazy_regex!(
    /// A log line of a session's id changed for a new one (Laravel's
    /// `Session regenerated old=… new=…`): both ids are given.
    SESSION_REGENERATED,
    r"(?i)\bsession\s+(?:id\s+)?regenerated\b[^\n]*"
);
lazy_regex!(
    /// An id's old or new value in such a line.
    OLD_OR_NEW,
    r"(?i)\b(?:old|new|from|to)(?:_?id)?\s*[=:]\s*[\x22']?([A-Za-z0-9_-]{24,64})\b"
);

/// The old and new ids of each line that logs a session regenerated.
fn regenerated_ids(text: &str) -> Spans {
    if !contains_ignoring_case(text, "regenerated") {
        return Vec::new();
    }
    SESSION_REGENERATED
        .find_iter(text)
        .flat_map(|line| {
            groups(Some(&OLD_OR_NEW), line.as_str(), store_log_id)
                .into_iter()
                .map(move |span| line.start() + span.start..line.start() + span.end)
        })
        .collect()
}

/// Whether an id in a store's log is generated: digits and letters in
/// mixed case (or 32 hex digits and more), no words, no counting, and no
/// payment vendor's object (Stripe's Checkout Session `cs_test_…`).
fn store_log_id(v: &str) -> bool {
    let hex = v.len() >= 32 && v.bytes().all(|b| b.is_ascii_hexdigit());
    let vendor_object = v.starts_with("cs_") || v.contains("_test_") || v.contains("_live_");
    !vendor_object
        && has_digit(v)
        && has_letter(v)
        && (mixed_case(v) || hex)
        && random_like(v, 24)
        && !wordy(v)
        && !counts_up(v)
}

lazy_regex!(
    /// A session manager's listing of the ids it holds (Tomcat manager's
    /// `sessions … -> <32 hex>`, on the same line or the next, or ids
    /// alone on their lines under `sessions:`), and a JSON list of
    /// sessions, of ids (`"activeSessions": ["…"]`) or of objects whose
    /// first field is the `id`: judged by [`listed_id`].
    SESSION_LISTING,
    r#"(?im)\bsessions\b[^\n]{0,40}?(?:->|=>|→)[ \t]*(?:\r?\n[ \t]*)?([0-9a-f]{32})\b|\bsessions[ \t]*:[ \t]*(?:\r?\n[ \t]*)?([0-9a-f]{32})[ \t]*$|sessions["']?\s*:\s*\[\s*\{\s*["']id["']\s*:\s*["']([0-9a-z-]{26,36})["']|sessions["']?\s*:\s*\[\s*["']([0-9a-z_-]{26,64})["']"#
);

lazy_regex!(
    /// A session id labelled in German, French, Spanish, Italian or
    /// Portuguese with whose it is (`Session-ID der Anfrage:`, `Session ID
    /// du client :`), its value any generated run (base64url too): judged
    /// by [`store_log_id`]'s kin, [`labelled_abroad`].
    SESSION_ABROAD,
    r#"(?i)\bSession[- ]?ID\s+(?:du|de\s+la|de|des|der|del|della|do|da|in\s+der|im|dans\s+(?:le|la))\s+[\w-]+[^\n:=]{0,30}?[:=]\s*["'`(]?([A-Za-z0-9_-]{20,})"#
);

/// Whether a value under a label in another language is generated:
/// letters and digits in mixed case (or hex), random, no words.
fn labelled_abroad(v: &str) -> bool {
    let hex = v.bytes().all(|b| b.is_ascii_hexdigit());
    has_digit(v)
        && has_letter(v)
        && (mixed_case(v) || hex)
        && random_like(v, 20)
        && !wordy(v)
        && !counts_up(v)
}

/// The MD5 of nothing, which a listing's example or a fixture shows.
const EMPTY_MD5: &str = "d41d8cd98f00b204e9800998ecf8427e";

/// Whether 32 hex digits in a session listing are an id: generated, not
/// filler (`FFFF…`, `DEADBEEF…`), counting (`0123…`) or the empty MD5.
fn listed_id(v: &str) -> bool {
    distinct_chars(v) >= 8 && !counts_up(v) && !v.eq_ignore_ascii_case(EMPTY_MD5)
}

static SESSION_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?i)(?:セッション\s*ID|会话\s*ID|会話\s*ID|세션\s*ID|Session-ID\s+(?:du|de\s+la|de|des|der|del|della|do|da)\s+[\w-]+|Sitzungs?-?ID|Sitzung(?:\s+mit\s+der\s+ID)?|sessie-?ID|ID\s+(?:di|della)\s+sessione|ID\s+da\s+sess[ãa]o|ID\s+de\s+(?:la\s+)?sesi[oó]n(?:\s+es)?|ID\s+de\s+session|identifiant\s+de\s+(?:la\s+)?session|Sessão|Sesja|Sesi[oó]n|Identyfikator\s+sesji|Oturum\s+kimli(?:ğ|g)i|mã\s+phiên(?:\s+đăng\s+nhập)?)(?:\s*\([^)\n]{{0,24}}\))?(?:[^\n:=]{{1,30}}?[:=]|(?:\s+\S+){{0,2}}?\s+ID\s*[:=]?|(?:\s+\S+){{0,8}}?\s+(?:era|é|foi|fue|war|ist|était|est|es|là)\s+|\s*(?:[:=]|是|为|為|は|는|은)?)\s*["'`(]?{SESSION_SHAPES}|(?m:^\s*\[?[\w-]*sessions?\]?:?[ \t]*\n\s*(?:-[ \t]+)?(?:session_?)?id\s*[:=]\s*["']?{SESSION_SHAPES})|\bsessions?\][ \t]*(?:[\w.-]+=[^\s=]+[ \t]+){{0,3}}(?:session_?)?id\s*[:=]\s*["']?{SESSION_SHAPES}|\b(?:Http)?Session\s+(?:created|destroyed|invalidated|expired|started|resumed)\b(?:[^\n]{{0,10}}?|[^\n]{{0,60}}?(?:[;,.(]\s*|\bwith\s+))\bid\b\s*[=:]?\s*{SESSION_SHAPES}|["']session["']\s*:\s*\{{\s*["']id["']\s*:\s*["']{SESSION_SHAPES}|\bsession_meta["']?[^\n]{{0,40}}?["']id["']\s*:\s*["']{UUID}|\.claude/projects/[^\n]{{0,80}}?{UUID}\.jsonl\b|\bsession(?:[ _-]?id)?\s*[:=]\s*UUID\(\s*["']{UUID}|{UUID}\.jsonl\b[^\n]{{0,80}}\.claude/projects|\b(?:Active|User|Http|Login|Auth|Web|Browser|Client|Chat|Agent|Oidc|Sso)?Session\s?[{{(\[][^}})\]\n]{{0,80}}?\b(?:session_?)?[iI]d\s*[=:]\s*["']?{SESSION_SHAPES}|\bWP_Session_Tokens\b[\s\S]{{0,160}}?\\?["'][0-9a-f]{{64}}\\?["']|\bsession_tokens\b[^\n]{{0,40}}?s:64:"[0-9a-f]{{64}}"|\b\w*sessions?\s+(?:row|record|entry|document)[:,]?\s+(?:[\w.-]+=\S+\s+){{0,4}}?(?:session_?)?id\s*[=:]\s*["']?{SESSION_SHAPES}"#
    ))
});

/// Session keys whose value is an identifier: the last words of the key.
const SESSION_KEY_SUFFIXES: &[&str] = &[
    "session",
    "sessionid",
    "sessionguid",
    "sessionuuid",
    "sessionulid",
    "sessid",
    "sessiontoken",
    "sessionkey",
    "connectsid",
    "sessioncookie",
    "sessionhash",
    "sessionstore",
    "sessionindex",
    // OpenID Connect's `session_state`, which names the login session.
    "sessionstate",
    // Telethon's and Pyrogram's string session: the account's login.
    "sessionstring",
];

/// Whether a value is a Twilio resource SID (two capitals and 32 hex
/// digits) or a Windows security identifier (`S-1-5-…`): named "SID", and
/// no session.
fn resource_sid(v: &str) -> bool {
    twilio_sid(v) || v.starts_with("S-1-")
}

/// The session suffix a key ends in, allowing for what only tells one
/// deployment's cookie from another's: `SAP_SESSIONID_PRD_100`,
/// `JSESSIONID.7adf92d4`, Drupal's `SESS` and 32 hex digits; also the bare
/// cookie names `sid` and Magento's `frontend`, and a log's `sess`.
fn session_key(key: &str) -> Option<&'static str> {
    // Trailing codes of digits, or of capitals and digits (SAP's
    // `SAPSESSIONID_N0C_270`), qualify the name, whatever its words.
    let mut key = key;
    while let Some((head, tail)) = key.rsplit_once(['_', '-', '.']) {
        let code = (1..=4).contains(&tail.len())
            && tail.bytes().any(|b| b.is_ascii_digit())
            && tail
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
        if head.is_empty() || !code {
            break;
        }
        key = head;
    }
    let words = key_words(key);
    // A qualifier is a number, a hex id, or a short code in capitals
    // (`PRD`), as the key spells it.
    let qualifier = |w: &String| {
        let spelled = key
            .split(['_', '-', '.'])
            .find(|s| s.eq_ignore_ascii_case(w))
            .unwrap_or("");
        let hex = w.bytes().all(|b| b.is_ascii_hexdigit()) && w.bytes().any(|b| b.is_ascii_digit());
        let code = spelled.len() <= 4 && spelled.bytes().all(|b| b.is_ascii_uppercase());
        hex || (!spelled.is_empty() && code)
    };
    let drupal = |w: &String| {
        w.strip_prefix("sess")
            .or_else(|| w.strip_prefix("ssess"))
            .is_some_and(|h| h.len() == 32 && h.bytes().all(|b| b.is_ascii_hexdigit()))
    };
    match words.as_slice() {
        // SAP's logon ticket cookie, `MYSAPSSO2`.
        [only] if only == "sid" || only == "frontend" || only == "sess" || only == "mysapsso2" => {
            return Some("session");
        }
        // A site's own prefix before `sid` (`phpbb3_k2m9x_sid`).
        [.., last] if last == "sid" => return Some("sessionid"),
        // Rancher's `R_SESS`: the word alone, not a longer one ending so.
        [_, .., last] if last == "sess" => return Some("session"),
        [only] if drupal(only) => return Some("session"),
        _ => {}
    }
    (1..=words.len())
        .rev()
        .take_while(|&end| end == words.len() || words[end..].iter().all(qualifier))
        .find_map(|end| {
            let joined = words[..end].concat();
            SESSION_KEY_SUFFIXES
                .iter()
                .copied()
                .find(|s| joined.ends_with(s))
        })
}

/// Any key of a `[session]` or `[sessions]` table whose value has a
/// session id's shape (`last = "…"`, `current = "…"`).
static SESSION_SECTION: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?im)^\s*\[sessions?\][ \t]*\n(?:[^\n\[]*\n){{0,4}}?\s*[\w.-]+\s*=\s*["']?({SESSION_SHAPES})"#
    ))
});

lazy_regex!(
    /// A session label after the id it names, in a comment or an aside
    /// (`… # session id from the report`).
    LABEL_AFTER,
    r"(?i)(?:#|//|\(|—|\s-)\s*(?:the\s+)?(?:[\w-]+\s+)?(?:session(?:[ _-]?id)?|JSESSIONID|PHPSESSID)\b"
);
static ID_BEFORE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?:({SESSION_SHAPES})|\b([A-Za-z0-9]{{32,64}})\b)[^\n]{{0,48}}?$"
    ))
});

/// Ids labelled after them: each label found first (a literal the
/// pattern engine skips to), then the id looked for just before it, so
/// that a long text is not scanned for every id-shaped run.
fn labelled_after(text: &str) -> Spans {
    LABEL_AFTER
        .find_iter(text)
        .filter(|label| {
            // "(no session involved)" says there is none.
            let words = label.as_str().to_ascii_lowercase();
            !["no ", "not ", "non-", "without "]
                .iter()
                .any(|n| words.contains(n))
        })
        .filter_map(|label| {
            let from = text.floor_char_boundary(label.start().saturating_sub(96));
            ID_BEFORE_LABEL
                .captures(&text[from..label.start()])
                .filter(|c| {
                    c.get(1).is_some() || c.get(2).is_some_and(|m| framework_id(m.as_str()))
                })
                .and_then(|c| c.get(0))
                .map(|id| from + id.start()..label.end())
        })
        .collect()
}

/// Whether `run`, the letters and digits before a session label that fit
/// none of the session shapes, is a framework's id in mixed case
/// (Laravel's 40): random rather than a long identifier's name (camel-cased
/// words, long runs of letters) or an alphabet.
fn framework_id(run: &str) -> bool {
    let letters = run
        .split(|c: char| c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    // An alphabet written out (`0123456789ABC…`) climbs byte by byte.
    let climbing = run
        .as_bytes()
        .windows(2)
        .filter(|w| w[1] == w[0] + 1)
        .count();
    has_digit(run)
        && mixed_case(run)
        && random_like(run, 32)
        && !wordy(run)
        && letters < 16
        && climbing < 8
        // An IPFS content id (`Qm…`, 46 long) names a file.
        && !(run.len() == 46 && run.starts_with("Qm"))
}

/// A session id labelled in Russian or Ukrainian ("ID сессии …",
/// "ідентифікатор сесії …"): compiled from its normalized form, as the
/// text is matched with lookalike Cyrillic letters folded.
static SESSION_CYRILLIC: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        normalize(&format!(
            r#"(?i)(?:ID|идентификатор|ідентифікатор)\s+(?:сесси[ияюей]|сесі[їяю])\s*[:=]?\s*["'`]?{SESSION_SHAPES}"#
        ))
        .as_str(),
    )
});

/// Whether a cookie's value is a docs' example: its id (a signed
/// cookie's, `s:<id>.<signature>`, judged by itself) a sentence in camel
/// case or a counting sample.
fn docs_example(value: &str) -> bool {
    let id = value
        .strip_prefix("s:")
        .or_else(|| value.strip_prefix("s%3A"))
        .map_or(value, |signed| signed.split('.').next().unwrap_or(signed));
    (mixed_case(id) && wordy(id)) || written_out(id)
}

/// Whether `raw`, the value of a key named for a session (`suffix` as
/// [`session_key`] gives it), is an id.
fn session_value(suffix: &str, raw: &str) -> bool {
    let value = raw.trim_end_matches([':', '.']);
    let min = if suffix == "session" { 16 } else { 8 };
    // Some frameworks' ids are letters alone: long, mixed case, random.
    let letters = value.len() >= 20 && mixed_case(value) && random_like(value, 20);
    // A class's name in camel case (`sqlalchemy.orm.exc.DetachedInstanceError`,
    // `Http2ServerSession`, `requests_oauthlib.OAuth2Session`) is none.
    let class = (mixed_case(value) && wordy(value))
        || value.rsplit('.').next().is_some_and(|last| {
            ["Session", "Error", "Exception"]
                .iter()
                .any(|w| last.ends_with(w))
        });
    // A setting's name read from elsewhere
    // (`settings.TELEGRAM_SESSION_STRING`) is a reference.
    let reference = value.contains('.')
        && value.rsplit('.').next().is_some_and(|last| {
            last.len() > 3 && last.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        });
    // An `=` inside is a setting's (`metadata.order_id=5521`), not an id's.
    !class
        && !docs_example(value)
        && !reference
        && value.len() >= min
        && !value.trim_end_matches('=').contains('=')
        && !is_placeholder(value)
        && (has_digit(value) || letters)
        && !word_like(value)
        && distinct_chars(value) >= 5
        && !resource_sid(value)
}

/// Ids in a table's column named for a session (psql's output, a Markdown
/// table, Tomcat manager's listing aligned with spaces) or a Key/Value
/// row named for one (`| PHPSESSID | … |`): numbers (epoch-stamped
/// analytics ids), dotted names and dated labels are none.
fn table_column(text: &str) -> Spans {
    let words = ["sess", "sid"];
    table::cells(text, &words, session_key)
        .into_iter()
        .chain(table::pairs(text, &words, session_key))
        .filter(|cell| {
            let value = cell.value;
            // A dated label (`sess-2024-05-01-a`, `chrome-2024-05-01`) is
            // a recording's or a run's name.
            let slug = value
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_'))
                && value.contains(['-', '_'])
                && longest_alnum_run(value) < 16;
            value.len() >= 16
                && !value.contains('.')
                && (!slug || UUID_ONLY.is_match(value))
                && !dated(value)
                && has_letter(value)
                && has_digit(value)
                && session_value(cell.tag, value)
                && !counts_up(value)
        })
        .map(|cell| cell.span)
        .collect()
}

/// Whether byte `at` of `text` stands after a cookie header's name on its
/// line (`Cookie:`, `Set-Cookie:`, also inside `curl -H '…'`).
fn cookie_header(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    contains_ignoring_case(&text[start..at], "cookie:")
}

/// What of `rest` stays in its sentence: up to a full stop, a semicolon,
/// the line's end, a dash that opens an aside, or the end of a quoted
/// value in a list of fields (`",`: the next key names another field, not
/// this value).
fn sentence_rest(rest: &str) -> &str {
    ["\n", ". ", "; ", " \u{2014} ", " \u{2013} ", "\",", "',"]
        .iter()
        .filter_map(|end| rest.find(end))
        .min()
        .map_or(rest, |end| &rest[..end])
}

/// The words of `text` in lower case, split at anything but ASCII letters
/// and digits, and between the words of a name in camel case.
fn words_of(text: &str) -> Vec<String> {
    let joined: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    key_words(&joined)
        .into_iter()
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// Whether a word names a checksum (`md5`, `md5sum`, `sha256`, `crc32`,
/// `hashes`, `digest`), not a word that merely opens alike (`shared`).
fn sum_word(w: &str) -> bool {
    let numbered = |prefix: &str| {
        w.strip_prefix(prefix)
            .is_some_and(|rest| rest.bytes().all(|b| b.is_ascii_digit()) || rest == "sum")
    };
    ["sha", "md5", "crc"].iter().any(|p| numbered(p))
        || ["hash", "checksum", "digest"]
            .iter()
            .any(|p| w.starts_with(p))
}

/// Whether the id that ends a labelled match is filler rather than an id
/// (a counting run, the empty MD5, one digit repeated, hex without a
/// letter or a digit), or the sentence goes on to call it a checksum
/// ("session 5d8c… (md5)").
fn filler_or_sum(text: &str, span: &std::ops::Range<usize>) -> bool {
    let matched = &text[span.clone()];
    let id = matched
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .next()
        .unwrap_or(matched);
    let hex = id.replace('-', "");
    let filler = counting_run(&hex)
        || hex.eq_ignore_ascii_case(EMPTY_MD5)
        || distinct_chars(&hex) < 4
        || (hex.len() >= 32
            && hex.bytes().all(|b| b.is_ascii_hexdigit())
            && (!has_digit(&hex) || !has_letter(&hex)));
    let sum = words_of(sentence_rest(&text[span.end..]))
        .iter()
        .any(|w| sum_word(w));
    filler || sum
}

/// Whether an id-shaped run counts up in one stretch of six or more
/// (`0123456789abcdef…`): a sample written out. Random hex has a neighbour
/// one apart every sixteenth step, so only an unbroken stretch tells.
fn counting_run(s: &str) -> bool {
    let mut run = 0;
    s.as_bytes().windows(2).any(|w| {
        run = if w[1] == w[0].wrapping_add(1) {
            run + 1
        } else {
            0
        };
        run >= 5
    })
}

/// Things other than a session that a UUID or 32 hex digits identify,
/// named near a session in a sentence ("the pairing session's customer
/// <uuid>", "session runs: <hex>").
const OTHER_THINGS: &[&str] = &[
    "user",
    "account",
    "tenant",
    "org",
    "organization",
    "project",
    "device",
    "span",
    "message",
    "order",
    "job",
    "run",
    "task",
    "event",
    "transaction",
    "instance",
    "container",
    "image",
    "etag",
    "fingerprint",
    "nonce",
    "salt",
    "kernel",
    "subscription",
    "customer",
    "ticket",
    "attachment",
    "client",
    "item",
    "object",
    "dataset",
    "invoice",
    "resource",
    "group",
    "app",
    "payment",
    "workspace",
    "layer",
    "cache",
    "issue",
    "blob",
    "page",
    "file",
    "link",
    "url",
    "avatar",
    "gist",
    "notebook",
    "document",
    "doc",
    "record",
    "node",
    "pod",
    "repo",
    "repository",
    "branch",
    "pipeline",
    "workflow",
    "deployment",
    "artifact",
    "asset",
    "package",
    "model",
    "experiment",
    "trial",
    "license",
];

pub(super) fn session_id<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let mut found = Found::new(stands);
    found.stage(|| {
        candidates(Some(&SESSION_ASSIGNMENT), text, 2, |c| {
            // ASP.NET's id is 24 of `a`–`z` and `0`–`5`, digits or none: few
            // vowels, as words have many.
            let aspnet = c[1].eq_ignore_ascii_case("ASP.NET_SessionId")
                && c[2].len() == 24
                && c[2]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || (b'0'..=b'5').contains(&b))
                && few_vowels(&c[2])
                && !keyboard_walk(&c[2])
                && !counts_up(&c[2])
                && distinct_chars(&c[2]) >= 10;
            if aspnet {
                return true;
            }
            // In braces only a GUID is a value (`{60B8…}`); anything else is a
            // template's interpolation (`{uuid.uuid4()}`).
            let braced = c.get(2).is_some_and(|v| text[..v.start()].ends_with('{'));
            // R reads a member with `$` (Shiny's `session$token`). In a cookie
            // header, any cookie named for a session is one
            // (`AUTH_SESSION_ID_LEGACY`).
            // The 1Password CLI keeps its session token in
            // `OP_SESSION_<account>`.
            if c[1].to_ascii_uppercase().starts_with("OP_SESSION_") {
                return random_like(&c[2], 32) && has_digit(&c[2]);
            }
            if let Some(suffix) = session_key(&c[1].replace('$', ".")) {
                return session_value(suffix, &c[2]) && (!braced || UUID_ONLY.is_match(&c[2]));
            }
            // Its value must be generated (a UUID, perhaps with a node's
            // suffix): a time, a date or a flag's words
            // (`session_started_at=2024-…`, `session_flag=dark_mode_v2`) are
            // none.
            // Keycloak's legacy cookies are named for it alone.
            let keycloak = ["AUTH_SESSION_ID_LEGACY", "KEYCLOAK_SESSION_LEGACY"]
                .iter()
                .any(|name| c[1].eq_ignore_ascii_case(name));
            let header = keycloak || c.get(1).is_some_and(|key| cookie_header(text, key.start()));
            let v = &c[2];
            let uuid = v.get(..36).is_some_and(|head| UUID_ONLY.is_match(head));
            // An encoded space or comma is text's (`Wed%2C%2001%20May…`).
            let text_encoded = v.contains("%20") || v.contains("%2C");
            header
                && !text_encoded
                && contains_ignoring_case(&c[1], "sess")
                && session_value("session", v)
                && (uuid || store_log_id(v.trim_end_matches(['.', ':'])))
        })
    });
    // A column of an `INSERT` named for a session (`django_session`'s
    // `session_key`), or the id of a row in a sessions table, and its
    // value.
    found.stage(|| {
        sql::inserted(text)
            .into_iter()
            .filter(|i| {
                // A row's key is its id, or its first value where the
                // statement names no columns (`django_session`'s key).
                let key_column = ["id", "sid", "key", "token"]
                    .iter()
                    .any(|c| i.column.eq_ignore_ascii_case(c))
                    || (i.column.is_empty() && i.position == 0);
                let row_id = key_column
                    && session_key(i.table.trim_end_matches(['s', 'S'])) == Some("session");
                let value = &text[i.value.clone()];
                if row_id {
                    // A row's id names a talk or a training run as often:
                    // only a generated one is a session's (lowercase runs
                    // with few vowels are drawn, not words).
                    let generated = has_letter(value)
                        && longest_alnum_run(value) >= 16
                        && (!wordy(value) || few_vowels(value));
                    return session_value("session", value)
                        && (generated || UUID_ONLY.is_match(value))
                        && !counts_up(value);
                }
                session_key(i.column).is_some_and(|suffix| session_value(suffix, value))
            })
            .map(|i| i.value)
    });
    found.stage(|| {
        groups(Some(&SESSION_NAMED), text, |v| {
            // Words in camel case (`ErrSessionNotFound2`) are a name.
            let camel_words = mixed_case(v) && wordy(v);
            !is_placeholder(v)
                && !camel_words
                && has_digit(v)
                && random_like(v, 16)
                && !word_like(v)
                && !resource_sid(v)
                && !written_out(v)
        })
    });
    // The nil UUID (`00000000-…-000000000000`) is a fixture's placeholder.
    let nil = |span: &std::ops::Range<usize>| text[..span.end].ends_with("000000000000");
    found.stage(|| {
        matches(Some(&SESSION_LABELLED_UUID), text)
            .into_iter()
            .filter(|s| !nil(s) && !filler_or_sum(text, s))
    });
    found.stage(|| matches(Some(&SESSION_TRANSCRIPT), text));
    // A documentation's sample UUID counts up (`123e4567-e89b-…`).
    found.stage(|| {
        groups(Some(&RESUME_ARGUMENTS), text, |id| {
            !counts_up(id) && !id.ends_with("000000000000")
        })
    });
    if contains_ignoring_case(text, "claude") {
        found.stage(|| groups(Some(&CLAUDE_PROJECT_PATH), text, |_| true));
    }
    found.stage(|| {
        groups(Some(&ASPNET_AUTH_COOKIE), text, |v| {
            // A ticket runs to hundreds of hex digits: chance gives it a run
            // that counts up, so only the variety of its characters is judged.
            has_digit(v) && random_like(v, 40) && distinct_chars(v) >= 10
        })
    });
    found.stage(|| {
        groups(Some(&LOG_TEMPLATE_ARGUMENT), text, |v| {
            has_digit(v) && random_like(v, 16) && !counts_up(v)
        })
    });
    found.stage(|| {
        groups(Some(&COOKIE_LOOKUP_MISS), text, |v| {
            has_digit(v) && random_like(v, 20) && !word_like(v)
        })
    });
    found.stage(|| {
        matches(Some(&SESSION_CONTEXT), text)
            .into_iter()
            .filter(|s| !nil(s))
    });
    if !text.is_ascii() {
        found.stage(|| matches(Some(&SESSION_CYRILLIC), text));
    }
    found.stage(|| groups(Some(&SESSION_SECTION), text, |_| true));
    found.stage(|| labelled_after(text));
    found.stage(|| table_column(text));
    found.stage(|| {
        groups(Some(&COOKIE_PAIR), text, |v| {
            // Classic ASP's cookie value is 24 capitals and no digit.
            let capitals = v.len() >= 20 && v.bytes().all(|b| b.is_ascii_uppercase());
            !is_placeholder(v)
                && (has_digit(v) || capitals)
                && !word_like(v)
                && distinct_chars(v) >= 8
                && !docs_example(v)
        })
    });
    // Words may follow "value" (`value base64url-encoded, signed …`): only
    // a generated value counts.
    found.stage(|| {
        groups(Some(&QUOTED_COOKIE_VALUE), text, |v| {
            !is_placeholder(v)
                && has_digit(v)
                && mixed_case(v)
                && longest_alnum_run(v) >= 16
                && !wordy(v)
                && random_like(v, 16)
        })
    });
    found.stage(|| {
        groups(Some(&SESSION_KEY), text, |v| {
            // A Twilio resource SID (`AC…`, `SK…` and 32 hex) is no session.
            let twilio = v.len() == 34 && v.as_bytes()[2..].iter().all(u8::is_ascii_hexdigit);
            // engine.io's base64url `sid` may hold no digit by chance.
            let generated = has_digit(v) || (mixed_case(v) && few_vowels(v));
            !twilio && !is_placeholder(v) && generated && random_like(v, 16) && !counts_up(v)
        })
    });
    // Both of its shapes need twelve digits in a row.
    found.stage(|| {
        let digit_run = text
            .as_bytes()
            .split(|b| !b.is_ascii_digit())
            .any(|run| run.len() >= 12);
        let number = Some(&*SESSION_NUMBER).filter(|_| digit_run);
        groups(number, text, |v| {
            !calendar_date(v) && !counts_up(v) && !epoch_time(v)
        })
    });
    found.stage(|| groups(Some(&SESSION_STORE_LOG), text, store_log_id));
    found.stage(|| regenerated_ids(text));
    found.stage(|| {
        SESSION_CLAUSE
            .captures_iter(text)
            .filter(|c| names_no_other_id(&c[1]) && has_digit(&c[2]) && !counts_up(&c[2]))
            .filter_map(|c| c.get(2).map(|m| m.range()))
    });
    found.stage(|| nearby::nearby_ids(text));
    found.stage(|| groups(Some(&SESSION_LISTING), text, listed_id));
    found.stage(|| groups(Some(&SESSION_ABROAD), text, labelled_abroad));
    found.stage(|| cookies::cookie_ids(text));
    found.stage(|| named::named_ids(text));
    found.stage(|| tools::tool_ids(text));
    found.stage(|| groups(Some(&SESSION_SHORT), text, |v| distinct_chars(v) >= 4));
    let id = |b: &str| random_like(b, 16) && has_digit(b);
    found.stage(|| groups(Some(&SESSION_FILE), text, id));
    found.stage(|| groups(Some(&SESSION_DUMP), text, id));
    found.stage(|| {
        groups(Some(&SESSION_STORE_FILE), text, |b| {
            random_like(b, 20) && has_digit(b) && mixed_case(b) && !wordy(b)
        })
    });
    found.stage(|| {
        groups(Some(&SIGNED_SESSION_COOKIE), text, |id| {
            random_like(id, 24) && mixed_case(id) && !docs_example(id)
        })
    });
    found
}

mod cookies;
mod named;
mod nearby;
#[cfg(test)]
mod row_tests;
#[cfg(test)]
mod tests;
mod tools;
