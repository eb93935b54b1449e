//! Session cookies read where the text speaks of cookies: Google's, a
//! row copied from a browser's developer tools, and Django's session key
//! where the text names its `sessionid` cookie; a server's own session
//! cookie named a few words before its value, Laravel's remember-me
//! cookie, cookies named for a session in a header or a cookie string,
//! and in a browser driver's saved cookie list; a Proxmox ticket.

use super::super::pattern::{
    Spans, contains_any_ignoring_case, contains_ignoring_case, find_ignoring_case, groups,
    lazy_regex,
};
use super::super::value::{
    counts_up, distinct_chars, few_vowels, has_digit, mixed_case, random_like, twilio_sid, wordy,
};

lazy_regex!(
    /// Google's session cookies (`SID`, `HSID`, `SSID`, `APISID`,
    /// `SAPISID`, `__Secure-1PSID`, …), read only where the text speaks of
    /// cookies or Google: a Wi-Fi network's `SSID` is a name.
    GOOGLE_COOKIE,
    r#"\b(?:__Secure-[13]P)?(?:SID|HSID|SSID|APISID|SAPISID|PSID|PSIDTS|PSIDCC)\s*[:=]\s*["']?([A-Za-z0-9_.-]{20,})"#
);

lazy_regex!(
    /// A cookie's row copied from a browser's developer tools: its name
    /// (one naming a session), its value, its domain, in columns apart.
    COOKIE_TABLE_ROW,
    r"(?im)^[ \t]*(?:[A-Za-z0-9_.-]*sess(?:ion)?[A-Za-z0-9_.-]*|sid|connect\.sid)(?:[ \t]{2,}|\t)([A-Za-z0-9%._~+/=-]{20,})(?:[ \t]{2,}|\t)\.?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:[ \t]|$)"
);

lazy_regex!(
    /// A value of Django's session key shape (32 small letters and
    /// digits) standing alone, read only where the text names Django's
    /// `sessionid` cookie, its `django_session` table or a session's
    /// `session_key`: a log column under
    /// a format that prints it, a query's rows (`sqlite3`'s columns apart
    /// by `|`).
    DJANGO_SESSION_KEY,
    r#"(?:^|[\s"'=:,;(\[|])([a-z0-9]{32})(?:$|[\s"',;)\]|])"#
);

lazy_regex!(
    /// A session cookie whose name is the server's own (`PHPSESSID`,
    /// `JSESSIONID`, `ASP.NET_SessionId`, `laravel_session`), its value
    /// after a few words and a colon on the same line ("PHPSESSID antes
    /// del fallo: …"), or after "set to" or "value" ("JSESSIONID cookie
    /// set to …", "rotated; old value …").
    SERVER_COOKIE_LATER,
    r#"\b(?:PHPSESSID|JSESSIONID|ASP\.NET_SessionId|laravel_session)\b[^\n:=]{1,48}?(?::|[ \t](?:set\s+to|(?:old\s+|new\s+)?value))[ \t]*["'`]?([A-Za-z0-9_,-]{20,})"#
);

lazy_regex!(
    /// Laravel's remember-me cookie (`remember_web_<sha1>=…`): it logs its
    /// holder in as a session would.
    REMEMBER_COOKIE,
    r"\bremember_[a-z]+_[0-9a-f]{40}=([A-Za-z0-9%._~+/|-]{20,})"
);

lazy_regex!(
    /// A Proxmox ticket (VE's `PVEAuthCookie`, Mail Gateway's and Backup
    /// Server's, a console's `PVEVNC` and a quarantine's `PMGQUAR`):
    /// product, user and realm, the hex time it was issued, `::`, then its
    /// signature, in group 1; plain or URL-encoded.
    PROXMOX_TICKET,
    r"\b(?:PVE|PMG|PBS)(?:VNC|QUAR)?(?::|%3A)(?:[\w.-]+(?:@|%40)[\w.-]+(?::|%3A))?[0-9A-F]{8}(?:::|%3A%3A)([A-Za-z0-9+/%]{40,}={0,2})"
);

lazy_regex!(
    /// A cookie's name and value, as a cookie string or header lists them.
    COOKIE_ITEM,
    r"(?:^|[\s;:,(])([A-Za-z_][\w.-]{0,63})=([A-Za-z0-9%._~+/=-]{20,})"
);

lazy_regex!(
    /// A cookie as a browser driver saves it (Playwright's
    /// `storageState.json`, Puppeteer's and Selenium's cookie lists): its
    /// name in group 1, its value in group 2.
    COOKIE_OBJECT,
    r#""name"\s*:\s*"([^"\n]{1,64})"\s*,\s*"value"\s*:\s*"([A-Za-z0-9%._~+/=-]{20,})""#
);

/// Whether a cookie's name says it holds a session: it ends in `sid`,
/// `ses`, `sess`, `session` or `sessid` (`TWIKISID`, `unifises`), or is a
/// shop's own cookie named by a hash (`PrestaShop-<32 hex>`).
fn session_cookie_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["sid", "ses", "sess", "session", "sessid"]
        .iter()
        .any(|end| lower.len() > end.len() && lower.ends_with(end))
        || hashed_name(name)
}

/// Whether a cookie's name is a shop's own, a name and a hash
/// (`PrestaShop-<32 hex>`).
fn hashed_name(name: &str) -> bool {
    name.rsplit_once('-').is_some_and(|(head, hash)| {
        head.starts_with(|c: char| c.is_ascii_alphabetic())
            && head.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && hash.len() == 32
            && hash.bytes().all(|b| b.is_ascii_hexdigit())
    })
}

/// Whether a cookie is PrestaShop's, named by a hash: a shape so
/// particular that it needs no header around it.
fn prestashop_cookie(name: &str) -> bool {
    name.get(..11)
        .is_some_and(|head| head.eq_ignore_ascii_case("prestashop-"))
        && hashed_name(name)
}

/// Whether a cookie's value is generated: digits and letters, random, in
/// mixed case or with few vowels (hex, PHP's small letters).
fn generated_cookie(v: &str) -> bool {
    has_digit(v) && random_like(v, 20) && (mixed_case(v) || few_vowels(v)) && !wordy(v)
}

/// The values of cookies named for a session in a cookie header or a
/// cookie string (`a=…; b=…`), of PrestaShop's cookie named by a hash
/// anywhere, and of any cookie on a line that a
/// sentence calls a session cookie ("Session cookie from the admin page:
/// `VW_ADMIN=…`").
fn listed_session_cookies(text: &str) -> Spans {
    let mut out = Spans::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let header = contains_ignoring_case(line, "cookie:");
        // Only a pair after the words is the one they call a session
        // cookie ("`_ga=…` is not a session cookie" is not).
        let said = find_ignoring_case(line, "session cookie").next();
        let listed = line.contains("; ");
        let shop = contains_ignoring_case(line, "prestashop-");
        if !(header || said.is_some() || listed || shop) {
            continue;
        }
        for c in COOKIE_ITEM.captures_iter(line) {
            let (Some(name), Some(value)) = (c.get(1), c.get(2)) else {
                continue;
            };
            let named = ((header || listed) && session_cookie_name(name.as_str()))
                || prestashop_cookie(name.as_str());
            let after_words = said.is_some_and(|at| at < name.start());
            // A sentence's full stop is not the value's.
            let v = value.as_str().trim_end_matches('.');
            // A Twilio resource's SID (`MessageSid=SM…`) names no session.
            if (named || after_words) && generated_cookie(v) && !twilio_sid(v) {
                out.push(start + value.start()..start + value.start() + v.len());
            }
        }
    }
    out
}

/// The session cookies' values in `text`.
pub(super) fn cookie_ids(text: &str) -> Spans {
    let mut out = Spans::new();
    if ["cookie", "google", "devtools"]
        .iter()
        .any(|w| contains_ignoring_case(text, w))
    {
        out.extend(groups(Some(&GOOGLE_COOKIE), text, |v| {
            has_digit(v) && mixed_case(v) && random_like(v, 20) && !wordy(v)
        }));
        out.extend(groups(Some(&COOKIE_TABLE_ROW), text, |v| {
            has_digit(v) && random_like(v, 20) && (mixed_case(v) || few_vowels(v))
        }));
    }
    // `PHPSESSID`, `JSESSIONID`, `ASP.NET_SessionId`, `laravel_session`:
    // the pattern's own names.
    if ["SESSID", "SESSIONID", "SessionId", "laravel_session"]
        .iter()
        .any(|name| text.contains(name))
    {
        // PHP's ids are small letters and digits, where a run of letters
        // reads as a word by chance: few vowels tell them apart.
        out.extend(groups(Some(&SERVER_COOKIE_LATER), text, |v| {
            has_digit(v) && random_like(v, 20) && (few_vowels(v) || !wordy(v))
        }));
    }
    if text.contains('=') {
        out.extend(listed_session_cookies(text));
    }
    if text.contains("\"value\"") {
        out.extend(COOKIE_OBJECT.captures_iter(text).filter_map(|c| {
            let name = c[1].to_ascii_lowercase();
            let named = session_cookie_name(&name)
                || ["sid", "session", "sessionid", "sess"].contains(&name.as_str());
            let value = c.get(2)?;
            (named && generated_cookie(value.as_str()) && !twilio_sid(value.as_str()))
                .then(|| value.range())
        }));
    }
    if text.contains("remember_") {
        out.extend(groups(Some(&REMEMBER_COOKIE), text, |v| {
            has_digit(v) && random_like(v, 20)
        }));
    }
    if ["PVE", "PMG", "PBS"].iter().any(|p| text.contains(p)) {
        out.extend(groups(Some(&PROXMOX_TICKET), text, |v| {
            has_digit(v) && random_like(v, 40)
        }));
    }
    let django = contains_any_ignoring_case(text, &["sessionid", "django_session"]);
    if django || contains_ignoring_case(text, "session_key") {
        // Beyond hex (a checksum's letters stop at `f`), with digits.
        let keys = groups(Some(&DJANGO_SESSION_KEY), text, |v| {
            v.bytes().any(|b| b > b'f' && b.is_ascii_lowercase())
                && v.bytes().filter(u8::is_ascii_digit).count() >= 4
                && random_like(v, 32)
                && few_vowels(v)
        });
        // `session_key` names only what follows it on its line with
        // nothing but marks between (`session_key)  # …`, `session_key=…`),
        // drawn (not a pattern repeated or counted up).
        out.extend(keys.into_iter().filter(|span| {
            let before = &text[..span.start];
            let v = &text[span.clone()];
            django
                || (find_ignoring_case(before, "session_key")
                    .last()
                    .is_some_and(|at| {
                        !before[at + "session_key".len()..]
                            .bytes()
                            .any(|b| b.is_ascii_alphanumeric() || b == b'\n')
                    })
                    && distinct_chars(v) >= 10
                    && !counts_up(v))
        }));
    }
    out
}
