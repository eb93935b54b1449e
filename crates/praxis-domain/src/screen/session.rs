//! Session identifiers: labelled session ids and cookies, `sess_` files,
//! and agent session ids in resume commands and transcript paths.

use std::sync::LazyLock;

use regex::Regex;

use super::pattern::{Spans, candidates, groups, lazy_regex, matches, regex};
use super::value::{distinct_chars, has_digit, is_placeholder, key_words, random_like, word_like};

const UUID: &str = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/// A UUID, a ULID-shaped id (26 Crockford base32 characters; the first is
/// not held to a valid timestamp, as hand-made ids often break it) or 32
/// hex digits.
const SESSION_SHAPES: &str = r"(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}|[0-9a-fA-F]{32})\b";

lazy_regex!(
    SESSION_ASSIGNMENT,
    r#"(?i)(?:^|[^A-Za-z0-9_.-])(?:\\?["'])?([A-Za-z0-9_.-]*(?:sess(?:ion)?(?:[_.-]?(?:id|token|key))?|sessid|connect\.sid))(?:\\?["']\]?)?\s*(?::=|=|:)\s*(?:\\?["'])?([A-Za-z0-9%._+/=:-]+)"#
);
static SESSION_LABELLED_UUID: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?i)\b(?:session(?:[ _-]?(?:id|ulid|uuid|key|token))?(?:\s+cookie)?(?:\s+(?:is|was|=|of))?|sid|--session(?:-id)?|--resume|resume|claude\s+(?:-r|--resume)|codex\s+resume|gemini\s+--resume)\s*[:=#]?\s*["'`(\[]?{SESSION_SHAPES}"#
    ))
});
static SESSION_TRANSCRIPT: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r"(?i)\.claude/projects/[^\s/]+/{UUID}\.jsonl|\.codex/sessions/\S*rollout-\S*{UUID}|\brollout-[0-9T:_.-]*{UUID}|\.gemini/tmp/\S*{UUID}"
    ))
});
lazy_regex!(SESSION_FILE, r"\bsess_([0-9A-Za-z]{16,})");
lazy_regex!(
    /// A session cookie given as a name and a value in separate fields: a
    /// Netscape cookie file's tab-separated row, a JSON or Go cookie
    /// (`"name": "PHPSESSID", "value": …`), a cookie jar call.
    COOKIE_PAIR,
    r#"(?i)\b(?:PHPSESSID|JSESSIONID|ASPSESSIONID[A-Z]{8}|ASP\.NET_SessionId|sessionid|session_id|sessid|connect\.sid|laravel_session|_session_id)["']?(?:\t|\s*,\s*["']?value["']?\s*[:=]\s*|["']\s*,\s*["']|\s*=\s*)["']?([A-Za-z0-9%._+/=:-]{16,})"#
);
lazy_regex!(
    /// A session store's key (`sess:<id>` in Redis, `memc.sess.key.<id>`),
    /// PHP's `session_id('…')`, an engine.io or express `sid`.
    SESSION_KEY,
    r#"(?i)\bsess(?:ion)?[:.](?:key\.)?([A-Za-z0-9_-]{20,})|\bsession_id\(\s*["']([^"'\s]{16,})["']|(?:["']sid["']\s*:\s*["']|\bsession\s+sid\s*=\s*)([A-Za-z0-9_-]{16,})|\bsession\s+(?:key|id)\s*[:=]?\s*([a-z0-9]{20,40})\b"#
);
static SESSION_CONTEXT: LazyLock<Regex> = LazyLock::new(|| {
    regex(&format!(
        r#"(?i)(?:セッション\s*ID|会话\s*ID|会話\s*ID|세션\s*ID|Sitzungs?-?ID|Sitzung|ID\s+de\s+(?:la\s+)?sesi[oó]n(?:\s+es)?|ID\s+de\s+session|Sessão|Sesja|Sesión)(?:\s*\([^)\n]{{0,24}}\))?\s*[:=]?\s*["'`]?{SESSION_SHAPES}|(?m:^\s*\[?session\]?:?[ \t]*\n\s*(?:session_?)?id\s*[:=]\s*["']?{SESSION_SHAPES})|\b(?:Http)?Session\s+(?:created|destroyed|invalidated|expired|started|resumed)\b[^\n]{{0,10}}?\bid\b\s*[=:]?\s*{SESSION_SHAPES}|["']session["']\s*:\s*\{{\s*["']id["']\s*:\s*["']{SESSION_SHAPES}|\bsession_meta["']?[^\n]{{0,40}}?["']id["']\s*:\s*["']{UUID}|\.claude/projects/[^\n]{{0,80}}?{UUID}\.jsonl\b|\bsession(?:[ _-]?id)?\s*[:=]\s*UUID\(\s*["']{UUID}|{UUID}\.jsonl\b[^\n]{{0,80}}\.claude/projects"#
    ))
});

/// Session keys whose value is an identifier: the last words of the key.
const SESSION_KEY_SUFFIXES: &[&str] = &[
    "session",
    "sessionid",
    "sessid",
    "sessiontoken",
    "sessionkey",
    "connectsid",
];

pub(super) fn session_id(text: &str) -> Spans {
    let mut out = candidates(Some(&SESSION_ASSIGNMENT), text, 2, |c| {
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
    });
    out.extend(matches(Some(&SESSION_LABELLED_UUID), text));
    out.extend(matches(Some(&SESSION_TRANSCRIPT), text));
    out.extend(matches(Some(&SESSION_CONTEXT), text));
    out.extend(groups(Some(&COOKIE_PAIR), text, |v| {
        // Classic ASP's cookie value is 24 capitals and no digit.
        let capitals = v.len() >= 20 && v.bytes().all(|b| b.is_ascii_uppercase());
        !is_placeholder(v) && (has_digit(v) || capitals) && !word_like(v) && distinct_chars(v) >= 8
    }));
    out.extend(groups(Some(&SESSION_KEY), text, |v| {
        // A Twilio resource SID (`AC…`, `SK…` and 32 hex) is no session.
        let twilio = v.len() == 34 && v.as_bytes()[2..].iter().all(u8::is_ascii_hexdigit);
        !twilio && !is_placeholder(v) && has_digit(v) && random_like(v, 16)
    }));
    out.extend(groups(Some(&SESSION_FILE), text, |b| {
        random_like(b, 16) && has_digit(b)
    }));
    out
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
        for hit in [
            "rollout-2025-06-02T10-11-12-0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55.jsonl",
            "session id 01JX3K7Q9M2V8R4T6W0Y5Z1B3C",
            "session: 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
            "Reproduced with session ULID 01HRG3BM2AVZ9NJKBRQDE8WB5Q; it expired",
            "the sessionid cookie was 2b3350109b5f2d6a4ebf9f5a98d8f6e4 before",
            "Session ULID: 8ZQ4X2M7N9P3R5T1V6W8Y0B2CD",
        ] {
            assert!(fires(hit, Rule::SessionId), "{hit}");
        }
        assert!(!fires(
            "commit 9f8e7d6c5b4a39281706f5e4d3c2b1a0 fixed it",
            Rule::SessionId
        ));
        for hit in [
            "shop.example.com\tFALSE\t/\tTRUE\t0\tPHPSESSID\tz6bk64gg6brv0iz2xrgesiw55t",
            "{\"name\": \"JSESSIONID\", \"value\": \"F9A715EE76194389988B9D0B8C712885\"}",
            "c := &http.Cookie{Name: \"session_id\", Value: \"af739f0d57fb1a518102ee924685cbaa\"}",
            "Cookie: ASPSESSIONIDQQTBRCAD=YCIYOAQFAYRVESSEIGKZQQOJ3",
            "redis-cli TTL sess:ppAYeRFNyAmrsloMFUwTVM4hLaw62bsh",
            "session_id('1ays5oyofdo7gjf9js8oun72as');",
            "0{\"sid\":\"RY5uh3SDQ75xWck7NGgJ\",\"upgrades\":[]}",
            "セッションID: 107ea711-ea3a-4329-acea-ae1ec876f037 のリクエスト",
            "Sitzung 5eda6b85-5b3f-45c4-ac49-78e8d56ecee0 wurde nicht wiederhergestellt",
            "ID de sesión: 01HZX3K5N8Q2R7T9V4W6Y8A0BC",
            "Sessão 01JHGP9VT85AQ6FQT5QYXK14YK encerrada; o agente perdeu o contexto.",
            "Sesja 01JB2XW0EQEX3JC4Q2NGRKXVJM (agent) wygasła w połowie zadania.",
            "Mi id de sesión es 87345d4227ff8bc8632d5ab73ecc2c46, por si sirve.",
            "Cookie: ASPSESSIONIDQQTBRCAD=YCIYOAQFAYRVESSEIGKZQQOJ",
            "self.client.cookies[\"sessionid\"] = \"kl4i15y1twsr05iz6sat0cnhrby9bgw9\"",
            "$_COOKIE['PHPSESSID'] = 'rdqmoef5js8gb9p7w7y7nmb7a5kkmujd';",
            "{\"session\": {\"id\": \"b6a719e7-39fb-4ce7-803c-b5cacb59311d\", \"user\": \"c.ortiz\"}}",
            "DEBUG django.contrib.sessions: loaded session key x5xkolwwkpdycbsfduvpfh9xel9t6i13",
            "Session started — id c8303571-a4b3-4f18-8ebb-319e3c84ee5e — model claude-sonnet",
            "cd ~/.claude/projects/-home-dev-app && less b9a2b3c3-259a-41c9-9531-180831da8877.jsonl",
            "session:\n  id: 6a17adc8-6ff6-4b26-9568-2b3409f2e079",
            "HttpSession created: id=72A660F317AE536A1C27D5757E264937",
            // A multi-byte character where a Twilio SID's hex would start.
            "session_id('aé1234567890123456789012345678901')",
            "db.sessions.find({ sessionId: UUID(\"51e5a194-064d-4829-87ce-13db433a02ed\") })",
        ] {
            assert!(fires(hit, Rule::SessionId), "{hit}");
        }
        for clean in [
            "{\"sid\": \"AC0123456789abcdef0123456789abcdef\"}",
            "{\"name\": \"JSESSIONID\", \"value\": \"<redacted>\"}",
            "sess:lock acquired",
        ] {
            assert!(!fires(clean, Rule::SessionId), "{clean}");
        }
    }
}
