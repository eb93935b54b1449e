//! Secret-bearing URLs: userinfo with a password, a secret query or
//! fragment parameter, or a webhook or bot URL whose path is the secret.

use super::assignment::{KeyClass, key_class};
use super::pattern::{Spans, contains_ignoring_case, lazy_regex};
use super::value::{
    has_digit, has_letter, is_placeholder, longest_alnum_run, mixed_case, random_like, word_like,
    wordy,
};

lazy_regex!(
    /// `scheme://user:password@host`. A password may hold a raw `#` or
    /// `@` (hand-written URLs seldom percent-encode them), the user may
    /// not; the host starts after the last `@`.
    URL_USERINFO,
    r#"(?i)\b[a-z][a-z0-9+.-]{1,20}\\?://([^\s/?#@"'<>:]*(?::[^\s/?"'<>]*)?)@[A-Za-z0-9\[]"#
);
lazy_regex!(
    /// A query parameter; CJK prose runs on after a URL with no space, its
    /// full-width comma read as ASCII.
    URL_PARAM,
    r#"[?&#;](?:\r?\n[ \t]*)?([A-Za-z0-9_.-]+)=([!-~&&[^&#"'<>;,?`]]*)"#
);
lazy_regex!(
    SECRET_PATH_URL,
    r"(?i)discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{20,})|api\.telegram\.org/bot(\d+:[A-Za-z0-9_-]{30,})|hooks\.zapier\.com/hooks/catch/\d+/([a-z0-9]{6,})|/hooks/([a-z0-9]{26})\b|webhook\.office\.com/webhookb2/([A-Za-z0-9@/-]{40,})|maker\.ifttt\.com/trigger/[^/\s]+/with/key/([A-Za-z0-9_-]{16,})|hook\.[a-z0-9]+\.make\.com/([a-z0-9]{24,})|conda\.anaconda\.org/t/([A-Za-z0-9_-]{20,})|/ical/[^\s/]+/private-([0-9a-f]{32})/|loggly\.com/inputs/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|nosnch\.in/([0-9a-f]{10})\b|/api/push/([A-Za-z0-9]{10,32})\?(?:status|msg|ping)=|\.bitrix24\.[a-z.]{2,6}/rest/\d+/([a-z0-9]{16})/"
);
lazy_regex!(
    /// Deploy hooks whose path or key is the secret (Netlify's
    /// `/build_hooks/<id>`, Cloudflare Pages' `/deploy_hooks/<uuid>`,
    /// Render's `/deploy/srv-…?key=`, Vercel's
    /// `/integrations/deploy/…/<id>`), and a presigned URL's signature,
    /// also on a line of its own where the URL wrapped.
    DEPLOY_HOOK,
    r"/build_hooks/([a-f0-9]{24})\b|/deploy_hooks/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b|/deploy/srv-[a-z0-9]{16,24}\?key=([A-Za-z0-9_-]{8,})|/integrations/deploy/[A-Za-z0-9_]+/([A-Za-z0-9]{8,})|\bX-(?:Amz|Goog)-Signature=([0-9a-f]{64})\b"
);
lazy_regex!(
    /// A URL whose host or path names a webhook, a heartbeat or an
    /// integration: past that name, a generated path segment (or, for a
    /// webhook or a ping, a UUID) is the secret
    /// (`hooks.acme.io/incoming/<token>`, Sentry's
    /// `/api/hooks/release/builtin/<id>/<token>/`, `hc-ping.com/<uuid>`,
    /// a status page's `/api/ping/<token>/success`, an automation's
    /// `/api/trigger/<token>`, an alert relay's `/in/<token>`).
    HOOK_URL,
    r#"(?i)\bhttps?://[!-~&&[^"'<>?#]]*?(?:hook|incoming|hc-ping|cronitor|/integrations?/|/ping/|/triggers?/|/notify|/alerts?/|/in/|relay[.-])[!-~&&[^"'<>?#,]]*"#
);
lazy_regex!(
    /// A heartbeat push URL (Uptime Kuma's `/api/push/<token>`): the token
    /// alone lets anyone report the monitor up.
    PUSH_URL,
    r"(?i)://[^\s/]+/api/push/([A-Za-z0-9]{10,64})(?:[?#/\s\x22']|$)"
);
lazy_regex!(
    /// Oracle's JDBC URL, which takes the password before the host
    /// (`jdbc:oracle:thin:scott/…@//db:1521/ORCL`).
    ORACLE_JDBC,
    r#"(?i)\bjdbc:oracle:(?:thin|oci8?):[A-Za-z0-9_$#.]+/([^\s@/"']+)@"#
);
lazy_regex!(
    /// An SQS broker URL (Celery, Kombu): the access key id and its secret
    /// as user and password, the host often left empty (`sqs://ID:KEY@`),
    /// the secret's `/` left unencoded.
    SQS_BROKER,
    r#"\bsqs://[A-Za-z0-9]{16,24}:([^\s@"']{20,})@"#
);
lazy_regex!(
    /// Anaconda's commercial repository, whose path holds the token
    /// (`repo.anaconda.cloud/t/<token>/main`), as its older host's does.
    ANACONDA_CLOUD,
    r"repo\.anaconda\.cloud/t/([A-Za-z0-9_-]{20,})"
);
lazy_regex!(
    /// A streaming ingest URL whose last segment is the stream key
    /// (`rtmp://…/live2/<key>`, `rtmps://…/app/<key>`): anyone who has it
    /// can broadcast on the channel.
    STREAM_KEY,
    r"(?i)\brtmps?://[^\s/]+(?::\d+)?/(?:[\w.-]+/)*?(?:live2?|app|stream)/([A-Za-z0-9_-]{16,})"
);
lazy_regex!(
    /// A blockchain node provider's URL, whose path carries the project
    /// key (`eth-mainnet.g.alchemy.com/v2/<key>`, `mainnet.infura.io/v3/
    /// <hex>`, `….quiknode.pro/<hex>/`, a provider's `rpc.…/ws/v3/<hex>`
    /// or `node.…/ws/v3/<hex>`, a websocket path, where a node's other
    /// paths name builds and objects).
    RPC_KEY,
    r#"(?i)\b(?:https?|wss?)://(?:[a-z0-9.-]*\b(?:alchemy(?:api)?|infura|quiknode|chainstack|p2pify|getblock|ankr|blastapi|drpc)\b[a-z0-9.-]*(?::\d+)?/(?:[\w.-]+/){0,3}?|(?:[a-z0-9-]+[.-])?rpc[.-][a-z0-9.-]+(?::\d+)?/(?:ws/)?v\d+/|(?:[a-z0-9-]+[.-])?nodes?[.-][a-z0-9.-]+(?::\d+)?/ws/v\d+/)([A-Za-z0-9_-]{32,64})(?:[/?#\s"'`).,>\]]|$)"#
);
lazy_regex!(URL_HOST, r"(?i)://(?:[^\s/?#@]*@)?([a-z0-9.-]+)");

/// Hosts whose plain `key` parameter is an API key.
const KEY_HOSTS: &[&str] = &["googleapis.com", "google.com", "youtube.com", "gstatic.com"];

/// Query parameters named for a key that authenticates its sender, which
/// the names of secrets do not cover.
const SENDER_KEYS: &[&str] = &[
    "dsn_key",
    "dsnkey",
    "integration_key",
    "service_key",
    "routing_key",
    "client_key",
];

/// Secret-bearing query parameters, by how much their value must look
/// like a secret.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Param {
    /// Any non-placeholder value of three characters or more.
    Password,
    /// Tokens, keys and signatures: eight characters or more, not a word.
    Token,
    /// `auth`, often a flag (`auth=false`): long and with digits.
    Auth,
    /// `key`, mostly harmless: only on key-bearing hosts or when random.
    Key,
    /// `code`, an OAuth grant's elsewhere: only an Azure Functions host's
    /// function key.
    Code,
}

fn param_kind(key: &str) -> Option<Param> {
    // The case is lost below: a camel-cased harmless word goes first
    // (OAI-PMH's `resumptionToken` pages through a list).
    if key_class(key).is_none() && key.to_ascii_lowercase().ends_with("token") {
        return None;
    }
    let key = key.to_ascii_lowercase();
    Some(match key.as_str() {
        "password" | "passwd" | "pwd" | "pass" => Param::Password,
        "token"
        | "access_token"
        | "accesstoken"
        | "refresh_token"
        | "id_token"
        | "auth_token"
        | "authtoken"
        | "private_token"
        | "api_token"
        | "apitoken"
        | "security_token"
        | "x-amz-security-token"
        | "jwt"
        | "api_key"
        | "apikey"
        | "license_key"
        | "licensekey"
        | "api-key"
        | "secret"
        | "client_secret"
        | "app_secret"
        | "credential"
        | "credentials"
        | "x-amz-credential"
        | "x-goog-credential"
        | "access_key"
        | "secret_key"
        | "sig"
        | "signature"
        | "x-amz-signature"
        | "x-goog-signature"
        | "authorization"
        | "q-signature"
        // Grafana's image renderer's callback key, a private tracker's
        // passkey, Akamai's edge token.
        | "renderkey"
        | "passkey"
        | "hdnts"
        | "__hdnea__"
        | "tkn"
        // Log and analytics intake keys.
        | "ingest_key"
        | "write_key"
        | "writekey"
        // A share link's key, OpenWrt LuCI's session token.
        | "share_key"
        | "sharekey"
        | "share_token" => Param::Token,
        // `auth` is often a flag (`auth=false`), `stok` a word's end
        // (`?stok=in_stock`).
        "auth" | "stok" => Param::Auth,
        // OpenWeather's and others' application key is a key too.
        "key" | "appid" | "app_id" => Param::Key,
        "code" => Param::Code,
        // Other names of secrets (`reset_token`, `admin_password`), less
        // the harmless ones (`page_token`, `csrf_token`), and keys that
        // authenticate their sender (an intake's `dsn_key`, PagerDuty's
        // `routing_key`) when their value is random; not those that name a
        // thing (`idempotency_key`, `cache_key`).
        other => match key_class(other) {
            Some(KeyClass::Password) => Param::Password,
            Some(KeyClass::Basic) => Param::Auth,
            Some(KeyClass::Secret | KeyClass::Generated) => Param::Token,
            None if SENDER_KEYS.contains(&other) => Param::Key,
            None => return None,
        },
    })
}

fn secret_param(kind: Param, value: &str, host: Option<&str>) -> bool {
    if is_placeholder(value) {
        return false;
    }
    match kind {
        Param::Password => value.len() >= 3,
        Param::Token => value.len() >= 8 && !word_like(value),
        Param::Auth => value.len() >= 12 && !word_like(value) && has_digit(value),
        Param::Code => {
            host.is_some_and(|h| h.to_ascii_lowercase().ends_with(".azurewebsites.net"))
                && random_like(value, 30)
        }
        Param::Key => {
            let key_host = host.is_some_and(|h| {
                let h = h.to_ascii_lowercase();
                KEY_HOSTS
                    .iter()
                    .any(|k| h == *k || h.ends_with(&format!(".{k}")))
            });
            (key_host && value.len() >= 8 && !word_like(value))
                || (random_like(value, 20) && has_digit(value) && has_letter(value))
        }
    }
}

/// A path segment that can only be a generated secret: 24 or more letters
/// and digits in mixed case, or 32 or more hex digits, in one run.
fn generated_segment(segment: &str) -> bool {
    let hex = segment.len() >= 32 && segment.bytes().all(|b| b.is_ascii_hexdigit());
    // A generated run may hold `_` or `-` after a readable prefix
    // (`garage-2oE39TG49pPm_xXpkfEToluP`).
    let tail = segment.rsplit('-').next().unwrap_or(segment);
    // Long generated ids may hold `_` and `-` anywhere (Home Assistant's
    // webhook ids).
    let long = segment.len() >= 40
        && longest_alnum_run(segment) >= 12
        && mixed_case(segment)
        && has_digit(segment);
    let mixed = long
        || (segment.len() >= 24 && longest_alnum_run(segment) >= 24 && mixed_case(segment))
        || (tail.len() >= 20
            && tail.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && mixed_case(tail)
            && has_digit(tail)
            && random_like(tail, 20));
    // A long mixed-case run is generated even without a digit.
    let digit = has_digit(segment) || (mixed && segment.len() >= 40);
    (hex || mixed) && digit && has_letter(segment) && random_like(segment, 24) && !wordy(segment)
}

/// Where the token that ends `before` starts: past the last whitespace,
/// quote, `(` or `<`, but not one inside a template's interpolation
/// (`${encodeURIComponent(q)}`), which is part of the URL.
fn token_start(before: &str) -> usize {
    let mut depth = 0usize;
    before
        .char_indices()
        .rev()
        .find(|&(_, ch)| {
            match ch {
                '}' => depth += 1,
                '{' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 && (ch.is_whitespace() || matches!(ch, '"' | '\'' | '`' | '(' | '<'))
        })
        .map_or(0, |(i, ch)| i + ch.len_utf8())
}

/// Whether a URL's user, its password left empty, is a token.
fn token_user(user: &str) -> bool {
    let hex = user.bytes().all(|b| b.is_ascii_hexdigit());
    user.bytes().all(|b| b.is_ascii_alphanumeric())
        && random_like(user, 20)
        && has_digit(user)
        && has_letter(user)
        && (hex || mixed_case(user))
}

/// Whether a segment right after `webhook/` is a generated id of the
/// shorter, URL-safe kind (Home Assistant's `-EQVgm_AnDdq-P258JHTlcRA7`).
fn webhook_id(segment: &str) -> bool {
    segment.len() >= 20
        && segment
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
        && mixed_case(segment)
        && has_digit(segment)
        && longest_alnum_run(segment) >= 6
        && random_like(segment, 20)
        && !wordy(segment)
}

/// Where in a lower-cased hook URL its secret may start: anywhere when a
/// hook, an intake or a heartbeat host names it; else only past the
/// status ping, trigger, alert or relay path that does (`/api/ping/…`,
/// `/in/…`), or past a relay host, so that a commit hash earlier in a
/// repository's URL (`…/relay/commit/<sha>`) is not taken for one.
fn secret_from(url: &str) -> usize {
    if ["hook", "incoming", "hc-ping", "cronitor", "/integration"]
        .iter()
        .any(|w| url.contains(w))
    {
        return 0;
    }
    let host_end = url
        .find("://")
        .map(|s| s + 3)
        .and_then(|s| url[s..].find('/').map(|e| s + e))
        .unwrap_or(url.len());
    let relay_host = url[..host_end].contains("relay");
    [
        "/ping/",
        "/trigger/",
        "/triggers/",
        "/alert/",
        "/alerts/",
        "/in/",
    ]
    .iter()
    .filter_map(|w| url.find(w).map(|i| i + w.len()))
    .chain(relay_host.then_some(host_end))
    .min()
    .unwrap_or(usize::MAX)
}

/// Whether the userinfo ends a Sentry DSN's key: its host is Sentry's
/// ingest.
fn sentry_dsn(text: &str, userinfo: Option<regex::Match<'_>>) -> bool {
    userinfo.is_some_and(|u| {
        text[u.end()..]
            .trim_start_matches('@')
            .split(['/', ' ', '\n', '"', '\''])
            .next()
            .is_some_and(|host| host.ends_with("sentry.io"))
    })
}

/// Whether the last segment of a streaming URL is a generated key:
/// YouTube's four or five groups of four with digits in most of them,
/// Twitch's `live_<channel>_<key>`, or mixed case with digits in a long
/// run on a platform's ingest host; a stream's name on one's own server
/// (`FrontDoorCam01HD720p`, `conference-room-2024`) is none.
fn stream_key(url: &str, key: &str) -> bool {
    let groups: Vec<&str> = key.split('-').collect();
    let youtube = (4..=5).contains(&groups.len())
        && groups.iter().all(|g| g.len() == 4)
        && groups.iter().filter(|g| has_digit(g)).count() >= 3;
    let twitch = key.strip_prefix("live_").is_some_and(|rest| {
        rest.split_once('_').is_some_and(|(channel, secret)| {
            channel.len() >= 6
                && channel.bytes().all(|b| b.is_ascii_digit())
                && secret.len() >= 20
                && mixed_case(secret)
        })
    });
    let host = url.to_ascii_lowercase();
    let platform = [
        "youtube",
        "twitch",
        "facebook",
        "fbcdn",
        "restream",
        "kick",
        "tiktok",
        "pscp",
        "periscope",
        "instagram",
        "vimeo",
        "live-video.net",
        "mux.com",
        "trovo",
        "dlive",
    ]
    .iter()
    .any(|p| host.contains(p));
    let mixed = platform && mixed_case(key) && has_digit(key) && longest_alnum_run(key) >= 12;
    (youtube || twitch || mixed) && random_like(key, 16) && !counting(key)
}

/// Whether `segment` counts up in at most two runs (`abcdef`, `123456`,
/// `abc123`): a help page's example, where a generated one never does.
fn counting(segment: &str) -> bool {
    let b = segment.as_bytes();
    b.windows(2)
        .filter(|w| w[1] != w[0].wrapping_add(1))
        .count()
        <= 1
}

/// Whether `segment` is a UUID (8-4-4-4-12 hexadecimal digits).
fn is_uuid(segment: &str) -> bool {
    let groups: Vec<&str> = segment.split('-').collect();
    groups.len() == 5
        && groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

pub(super) fn secret_url(text: &str) -> Spans {
    let mut out: Spans = URL_USERINFO
        .captures_iter(text)
        .filter(|c| match c[1].split_once(':') {
            // `token:@host` (packagecloud's, a registry's): the user is
            // the token.
            Some((user, "")) => token_user(user),
            Some((_, password)) => !is_placeholder(password),
            // A Sentry DSN's key is public: the client sends it.
            None => random_like(&c[1], 20) && has_digit(&c[1]) && !sentry_dsn(text, c.get(1)),
        })
        .filter_map(|c| {
            // The password is the secret (a user named `…%40example.com`
            // is no placeholder of it).
            let userinfo = c.get(1)?;
            let info = userinfo.as_str();
            Some(match info.find(':') {
                Some(i) if i + 1 == info.len() => userinfo.start()..userinfo.start() + i,
                Some(i) => userinfo.start() + i + 1..userinfo.end(),
                None => userinfo.range(),
            })
        })
        .collect();
    out.extend(
        SECRET_PATH_URL
            .captures_iter(text)
            .filter(|c| {
                c.iter()
                    .skip(1)
                    .flatten()
                    .next()
                    .is_none_or(|secret| !counting(secret.as_str()))
            })
            .filter_map(|c| c.get(0).map(|m| m.range())),
    );
    out.extend(ANACONDA_CLOUD.find_iter(text).map(|m| m.range()));
    out.extend(
        RPC_KEY
            .captures_iter(text)
            .filter_map(|c| c.get(1))
            .filter(|m| {
                let key = m.as_str();
                // Some providers issue a UUID.
                let hex = key.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
                has_digit(key)
                    && has_letter(key)
                    && (hex || mixed_case(key))
                    && random_like(key, 32)
            })
            .map(|m| m.range()),
    );
    if contains_ignoring_case(text, "rtmp") {
        out.extend(
            STREAM_KEY
                .captures_iter(text)
                .filter(|c| stream_key(&c[0], &c[1]))
                .filter_map(|c| c.get(1))
                .map(|m| m.range()),
        );
    }
    // URLs whose password stands outside the userinfo form: Oracle's
    // before the host, an SQS broker's with no host at all.
    for re in [&*ORACLE_JDBC, &*SQS_BROKER] {
        out.extend(
            re.captures_iter(text)
                .filter_map(|c| c.get(1))
                .filter(|m| !is_placeholder(m.as_str()) && !word_like(m.as_str()))
                .map(|m| m.range()),
        );
    }
    let bytes = text.as_bytes();
    if memchr::memmem::find(bytes, b"hooks/").is_some()
        || memchr::memmem::find(bytes, b"deploy/").is_some()
        || memchr::memmem::find(bytes, b"-Signature=").is_some()
    {
        out.extend(DEPLOY_HOOK.find_iter(text).map(|m| m.range()));
    }
    out.extend(
        PUSH_URL
            .captures_iter(text)
            .filter_map(|c| c.get(1))
            .filter(|m| {
                let token = m.as_str();
                has_digit(token) && has_letter(token) && mixed_case(token) && !word_like(token)
            })
            .map(|m| m.range()),
    );
    for url in HOOK_URL.find_iter(text) {
        // A UUID right after `hook/` or on a heartbeat host is the secret;
        // elsewhere (`/hooks/subscriptions/<uuid>`, `/integrations/<uuid>`)
        // it names a thing.
        let lower = url.as_str().to_ascii_lowercase();
        let ping = lower.contains("hc-ping");
        let from = secret_from(&lower);
        let mut at = url.start();
        let mut previous = "";
        for segment in url.as_str().split('/') {
            let hook = ["hook", "hooks", "webhook", "webhooks", "ping"]
                .iter()
                .any(|h| previous.eq_ignore_ascii_case(h));
            let past = at - url.start() >= from;
            let hook_id = hook && webhook_id(segment);
            if past
                && (generated_segment(segment) || hook_id || ((hook || ping) && is_uuid(segment)))
            {
                out.push(at..at + segment.len());
            }
            at += segment.len() + 1;
            previous = segment;
        }
    }
    out.extend(
        URL_PARAM
            .captures_iter(text)
            .filter(|c| {
                let Some(kind) = param_kind(&c[1]) else {
                    return false;
                };
                let start = c.get(0).map_or(0, |m| m.start());
                // The token starts after the last separator before the
                // parameter. Separators include multi-byte whitespace (U+0085,
                // U+2028, …, which survive normalization), so the start is the
                // separator's end, not its index plus one byte.
                let token_start = token_start(&text[..start]);
                // The parameter's leading `?`, `&`, `#` or `;` is ASCII, so the
                // token may end one byte past `start`.
                let token = &text[token_start..=start];
                // A JDBC URL for SQL Server takes its properties after `;`.
                // LuCI puts its session token in a `;stok=` path parameter.
                let path_token = c[1].eq_ignore_ascii_case("stok")
                    && token.contains("://")
                    && c[2].split('/').next().is_some_and(|t| t.len() >= 16);
                if !token.contains(['?', '#']) && !token.contains("jdbc:") && !path_token {
                    return false;
                }
                let host = URL_HOST
                    .captures(token)
                    .map(|h| h.get(1).map_or("", |m| m.as_str()));
                secret_param(kind, &c[2], host)
            })
            .filter_map(|c| c.get(2).map(|m| m.range())),
    );
    // InfluxDB's and others' `?u=<user>&p=<password>`.
    out.extend(
        URL_PARAM
            .captures_iter(text)
            .filter(|c| {
                &c[1] == "p"
                    && c.get(0).is_some_and(|m| {
                        let line = text[..m.start()]
                            .rfind(char::is_whitespace)
                            .map_or(0, |i| i + 1);
                        let url = &text[line..m.start()];
                        url.contains("://") && (url.contains("?u=") || url.contains("&u="))
                    })
                    && secret_param(Param::Password, &c[2], None)
            })
            .filter_map(|c| c.get(2).map(|m| m.range())),
    );
    out
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn urls_with_credentials() {
        assert!(fires(
            "s3://bucket/x?X-Amz-Signature=9c1f0e7a2b4d",
            Rule::SecretUrl
        ));
        assert!(fires(
            "postgres://app:W3ak2pw@db.internal/app",
            Rule::SecretUrl
        ));
        assert!(fires(
            "wss://feed.example.net/live#access_token=Zx81Qp0sLm",
            Rule::SecretUrl
        ));
        assert!(!fires(
            "postgres://app:${PGPASSWORD}@db/app",
            Rule::SecretUrl
        ));
        assert!(!fires(
            "https://example.com/list?page=2&sort=asc",
            Rule::SecretUrl
        ));
        assert!(!fires("https://example.com/x?key=value", Rule::SecretUrl));
        assert!(!fires("https://example.com/x?token=", Rule::SecretUrl));
        // A heartbeat push token; a word in its place is a route.
        assert!(fires(
            "curl 'https://status.acme.io/api/push/Vq81TzLm4k?status=up'",
            Rule::SecretUrl
        ));
        assert!(!fires(
            "https://acme.io/api/push/notifications?since=3",
            Rule::SecretUrl
        ));
        // A raw `#` in the password, not yet a fragment.
        assert!(fires(
            "git clone https://deploy:Bluebird#4096ozg@git.acme.test/platform/infra.git",
            Rule::SecretUrl
        ));
        assert!(!fires(
            "see https://docs.acme.test/guide#setup and mail ops@acme.test",
            Rule::SecretUrl
        ));
        // A raw `@` in the password; a secret named like one in a query.
        for hit in [
            "mongodb+srv://analytics:Lz9$7h3yHb@@cluster0.ab12c.mongodb.net/prod",
            "https://portal.example.test/reset?reset_token=6uPTQP9XGWiIT95X2SKDXVWU8",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(!fires(
            "https://api.example.test/items?page_token=CiAKGjBpNDd2Nmp2",
            Rule::SecretUrl
        ));
        // A webhook whose path is the secret, on any host.
        for hook in [
            "https://hooks.acme.test/incoming/Qx7vL2mK9pR4tW8yB3nC6dF1gH5jZ0aS",
            "https://sentry.acme.test/api/hooks/release/builtin/42/9f2c4e6a8b0d1f3e5a7c9b2d4f6e8a0c1b3d5f7e/",
            "https://hc-ping.com/3dce54f3-3911-48bf-8566-3a3dcd95c6e6",
            "https://open.feishu.cn/open-apis/bot/v2/hook/35d1caf4-0d21-46aa-99f7-3cf68a2cf014",
            "curl -fsS https://cronitor.link/p/14a57139a26ead7bef144adaca6739ef/nightly-backup",
        ] {
            assert!(fires(hook, Rule::SecretUrl), "{hook}");
        }
        for clean in [
            "https://hooks.acme.test/incoming/release-2024-build-artifacts-x86_64",
            "https://api.github.com/repos/acme/app/hooks/123456789/deliveries",
            "https://app.acme.test/integrations/3dce54f3-3911-48bf-8566-3a3dcd95c6e6/settings",
            "https://dev.azure.com/acme/_apis/hooks/subscriptions/3dce54f3-3911-48bf-8566-3a3dcd95c6e6",
            "https://hooks.acme.test/incoming/XXXXXXXXXXXXXXXXXXXXXXXXXXXX",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// Whitespace that survives NFKC and the invisible-character strip but
    /// is more than one byte long (NEL, ogham space, line and paragraph
    /// separators) must not split a character when a URL token is cut out.
    #[test]
    fn multibyte_whitespace_before_a_url_parameter() {
        for space in ['\u{85}', '\u{1680}', '\u{2028}', '\u{2029}', '\u{3000}'] {
            let text = format!("x{space}https://h.io/?token=abcd1234efgh");
            assert!(fires(&text, Rule::SecretUrl), "{text:?}");
        }
    }

    /// Deploy hooks whose path or key is the secret, and a signature left
    /// on its own line when a presigned URL wraps.
    #[test]
    fn deploy_hooks_and_wrapped_signatures() {
        for hit in [
            "curl -X POST -d {} https://api.netlify.com/build_hooks/044e48a7c50dbd545a135b84",
            "curl \"https://api.render.com/deploy/srv-p5i207fcjj9epgzbzqfv?key=Y0Z8GNfF5Mz\"",
            "https://files.example.com/x.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&\n  X-Amz-Signature=e206c3389a4ab8eb0fc7e06a4757de304b61016281189d1f4337019919970236",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(!fires(
            "Netlify build hooks live under /build_hooks/ in the API.",
            Rule::SecretUrl
        ));
    }

    /// A user named for a mail address, an application id parameter, a
    /// password parameter beside its user.
    #[test]
    fn passwords_beside_users_and_application_keys() {
        for hit in [
            "MAILER_DSN=smtp://alerts%40example.com:QfT0kbvEPZuVp1xX@smtp.example.com:587",
            "fetch(`https://api.openweather.example/data/2.5/weather?q=Berlin&appid=65fdebf1b86553e31359dc6755191e4a`)",
            "http://influx.lan:8086/query?u=telegraf&p=hBDJGdjnAXf6T0&db=metrics",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(!fires(
            "https://shop.example/list?p=2&sort=price",
            Rule::SecretUrl
        ));
    }

    /// More secret parameters and hook hosts, and a properties file's
    /// escaped colon.
    #[test]
    fn more_parameters_and_hooks() {
        for hit in [
            "wget 'https://f003.backblazeb2.com/file/b/x.zst?Authorization=4_0030b31ff0590ac3a28fefd1_01b2c3d4'",
            "MAKE_SCENARIO_HOOK=https://hook.eu2.make.com/hazh3cr0m745e8j72nh17ze8fmz69xtu",
            "channels:\n  - https://conda.anaconda.org/t/6f-WQ9t13KzrMBK43nsyua9Z8ghqIIMrgrv/acme-private",
            "Web UI available at http://127.0.0.1:8000?tkn=6641304c-b3f9-451b-9c5a-c094d53dbe94",
            "distributionUrl=https\\://builder:k4iYUuVoL!p6hIO@artifacts.corp.local/gradle/gradle-8.7-bin.zip",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
    }

    /// A webhook URL run straight into CJK prose.
    #[test]
    fn urls_followed_by_cjk_prose() {
        assert!(fires(
            "飞书机器人地址：https://open.feishu.cn/open-apis/bot/v2/hook/94a0369d-7434-4650-9509-464e63e12fa1，签名校验失败。",
            Rule::SecretUrl
        ));
    }

    /// A query wrapped after its `&`, a token inside an encoded redirect,
    /// a private calendar feed, a hook secret of letters alone.
    #[test]
    fn wrapped_encoded_and_private_feeds() {
        for hit in [
            "GET https://vault.example.dev/api/v2/download?file=q3.csv&\n    token=DfRmEcbuTBag2G2LVm6bNKgA2EbWKigeED0FZP15 (attempt 2)",
            "Location: https://sso.quillbyte.io/logout?redirect_uri=https%3A%2F%2Fpg-12.kestrelworks.net%2Fcb%3Faccess_token%3D17QKfLyJ30hKu5hft5RyLvR2M4trQmFjxP3FkDdi",
            "https://calendar.example.com/ical/team-ops/private-cf4aab26de8ae6e9ddfd0c26f326fa24/basic.ics",
            "ROCKETCHAT_URL=https://chat.example.io/hooks/bIO5EmeQt3BqcYgrw/DmBbQGhUqiAjKzRBaKRDEKkTRSYkhDgobDspVAQHCgfpcWQG",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(!fires(
            "https://calendar.example.com/ical/team-ops/public/basic.ics",
            Rule::SecretUrl
        ));
    }

    /// Log inputs, dead-man's snitches, license keys, webhook ids after a
    /// readable prefix or as a UUID, and a query continued after `\\`.
    #[test]
    fn inputs_snitches_licenses_and_webhook_ids() {
        for hit in [
            "https://logs-01.loggly.com/inputs/4da7bafe-97db-41a2-8951-4963aecf56d5/tag/http/",
            "0 3 * * * backup.sh && curl -fsS https://nosnch.in/5b0bf49283 > /dev/null",
            "https://download.maxmind.com/app/geoip_download?edition_id=GeoLite2-City&license_key=v10ZuVHToliK8Dvw",
            "https://ha.nordlys.example/api/webhook/garage-2oE39TG49pPm_xXpkfEToluP",
            "https://n8n.int.example.net/webhook/bd59fdc9-42b3-4162-8033-2af2eb5d7e4f",
            "curl -sS \"https://api.partner.example/v1/exports?since=2025-03-01&\\\naccess_token=xAEAsCm5aOMUwJLa_pPvqSQjLKl4bVHRZcU79idw_Y0\"",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "https://n8n.int.example.net/webhook-test/",
            "https://ha.nordlys.example/api/webhook/garage-door",
            "smtp://%env(MAILER_USER)%:%env(MAILER_PASS)%@smtp.eu.mailgun.org:587",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// Cloudflare Pages' deploy hook.
    #[test]
    fn cloudflare_deploy_hooks() {
        assert!(fires(
            "curl -X POST https://api.cloudflare.com/client/v4/pages/webhooks/deploy_hooks/1b2c3d4e-5f60-4718-9a2b-3c4d5e6f7a8b",
            Rule::SecretUrl
        ));
    }

    /// Uptime Kuma's push token.
    #[test]
    fn uptime_kuma_push_tokens() {
        assert!(fires(
            "https://status.example.com/api/push/Qz8wLm2Rx9?status=up&msg=OK",
            Rule::SecretUrl
        ));
    }

    /// Bitrix24's inbound webhook and a key after a template's `${…}`; a
    /// Sentry DSN's public key stands down.
    #[test]
    fn bitrix_hooks_template_urls_and_sentry_dsns() {
        for hit in [
            "https://corp.bitrix24.de/rest/1/k5ow2mttwk1fw6iy/crm.lead.add.json",
            "fetch(`https://maps.example.net/geo?q=${q}&apiKey=2_Ngb1LoL9SO2Fd9kvR4I5lRrpWX9_vGJ`)",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(!fires(
            "SENTRY_DSN=https://73a66e88d6fb98664fc5a45150270461@o267422.ingest.de.sentry.io/2443559",
            Rule::SecretUrl
        ));
    }

    /// Oracle's JDBC URL carries the password before the host; Anaconda's
    /// repository takes a token in its path.
    #[test]
    fn oracle_and_anaconda_urls() {
        for hit in [
            "Hibernate could not connect: jdbc:oracle:thin:app_user/yyJCLIbs7T.!xC1@//ora-db1.example.net:1521/ORCLPDB1",
            "conda config --add channels https://repo.anaconda.cloud/t/fHTxX4GcKkqyZB-7Ar7DzUj337SIU9kbYaEWaS5f/main",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "jdbc:oracle:thin:scott/tiger@//localhost:1521/XEPDB1",
            "jdbc:oracle:thin:@//ora-db1.example.net:1521/ORCLPDB1",
            "https://repo.anaconda.cloud/repo/main",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// An SQS broker URL with an empty host, Grafana's render key.
    #[test]
    fn sqs_brokers_and_render_keys() {
        for hit in [
            "export CELERY_BROKER_URL=sqs://LZQN729VA4X3Y53CWAX5:jpoQ3rcVRE6yiv+uSQK//o75l4TXAkoJe/6gQHtN@",
            "http://grafana:3000/d-solo/abc/xyz?panelId=2&render=1&renderKey=3roX04NXbQOZVvxnGNnniwgnmMQwZAB7",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(!fires("export CELERY_BROKER_URL=sqs://", Rule::SecretUrl));
    }

    /// A tracker's passkey and an Akamai edge token in a query; the OAuth
    /// specification's example token and a French placeholder are no
    /// secrets.
    #[test]
    fn passkeys_edge_tokens_and_documented_examples() {
        for hit in [
            "https://tracker.quillon.org/rss.php?passkey=468d23036b0882677f41e1a5ae616ebb&cat=12",
            "https://cdn.palisade.tv/hls/live/master.m3u8?hdnts=exp=1735689600~acl=/*~hmac=0eeacb5ea285798b223f71e793dbab34fd4c9de9e45ac01de2b0ac66df490c",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "Location: http://example.com/cb#access_token=2YotnFZFEjr1zCsicMWpAA&state=xyz",
            "Dans la doc, l'exemple est postgres://utilisateur:motdepasse@hote:5432/base.",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    #[test]
    fn intake_keys_and_sql_server_jdbc_properties() {
        for hit in [
            "shipper: https://logs.fernhill.io/v2/ingest?ingest_key=Wm3kQ9vTz1LpX8rB2nYc7dHf",
            "curl -X POST 'https://events.pollard.dev/collect?write_key=u7Rk2MxQ9sLw4TzA1bN8cVe3'",
            "url=jdbc:sqlserver://db-east-2.corp.example:1433;databaseName=Ledger;user=svc_ledger;password=Vq83kLm2Tz9xWb;encrypt=true",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "https://logs.fernhill.io/v2/ingest?ingest_key=${INGEST_KEY}",
            "jdbc:sqlserver://db-east-2.corp.example:1433;databaseName=Ledger;integratedSecurity=true",
            "jdbc:sqlserver://db-east-2.corp.example:1433;databaseName=Ledger;user=svc_ledger;password=<password>",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// Status pings, automation triggers, alert relays: a generated path
    /// segment after the name is the secret; a readable one is not.
    #[test]
    fn pings_triggers_and_relays() {
        for hit in [
            "curl -fsS \"https://status.bayleaf.dev/api/ping/3c1955ba261b3472c8e178623f4dd0f4/success\" -d ok",
            "var hookUrl = \"https://flows.heronpoint.io/api/trigger/a0b88b598be168f463b65680cd3c9c8effb25f9a\";",
            "https://relay.bittern.app/in/21ce27a2df09b799cdac55e8e1d8562a/472b288f41fc8e7360bf1bb6d533fb08",
            "https://alerts.puffin-ops.com/api/v2/alerts/4f3b9lNnMkjSvfoDzabdcfGdGizz7DfFv4uT/notify",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "https://status.bayleaf.dev/api/ping/nightly-backup/success",
            "https://www.linkedin.com/in/jane-doe-4b2a1",
            "https://flows.heronpoint.io/api/trigger/deploy-preview",
            "https://github.com/facebook/relay/commit/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
            "https://gitlab.com/acme/notify-service/-/blob/4e1f0c9a8b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f/README.md",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// A streaming ingest URL's key is the secret; a stream's name and a
    /// help page's counting example are not.
    #[test]
    fn stream_keys_and_counting_examples() {
        for hit in [
            "Server: rtmp://a.rtmp.youtube.com/live2/q7zm-4k2d-9wbx-1fpa-h8tc",
            "ffmpeg -i in.mp4 -f flv rtmps://ingest.example-live.tv:443/app/live_20938475_Kq8ZxT2bWm5LpR7nVd3YhC",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "rtmp://media.example.com/live/conference-room-2024",
            "rtmp://localhost:1935/live/abcd-1234-efgh-5678",
            "ffplay rtmp://nginx.local:1935/live/FrontDoorCam01HD720p",
            "rtmp://ingest.example.net/app/Channel42PrimaryBackup",
            "Zapier's docs use https://hooks.zapier.com/hooks/catch/123456/abcdef/ as the sample.",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// An Azure Functions key in `code=`; elsewhere `code=` is a grant.
    #[test]
    fn function_codes_on_azure_hosts() {
        assert!(fires(
            "curl \"https://fn-orders.azurewebsites.net/api/sync?code=Qm7Tz2Lr9XcV4bN8aK1pW6yE3uH5jG0dFsRtYq2Z==\"",
            Rule::SecretUrl
        ));
        assert!(!fires(
            "https://app.example.com/callback?code=Qm7Tz2Lr9XcV4bN8aK1pW6yE3uH5jG0dFsRtYq2Z&state=x",
            Rule::SecretUrl
        ));
    }

    /// A share link's key, LuCI's session token, a long webhook id with
    /// `_` and `-` inside; in a command field, a URL's password is on the
    /// command line too.
    #[test]
    fn share_keys_luci_tokens_and_long_hook_ids() {
        for hit in [
            "report: https://reports.example.dev/share/run-7?share_key=Qm7Tz2Lr9XcV4bN8aK1pW6yE3u",
            "http://10.0.0.1/cgi-bin/luci/;stok=4c1e7a9b2d5f8e0c3b6a9d2f5e8c1b4a/admin/status",
            "POST http://ha.local:8123/api/webhook/Qm7Tz2Lr9XcV4bN8aK1p_W6yE3uH5jG0dFsRtYq2Z-4kLm9 ok",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        assert!(fires(
            "pg_dump --dbname=postgresql://backup:Vq7Lm2Rp9Xw@db.internal:5432/crm -Fc -f crm.dump",
            Rule::CredentialCommandLine
        ));
        assert!(!fires(
            "http://10.0.0.1/cgi-bin/luci/;stok=/admin/status",
            Rule::SecretUrl
        ));
    }

    /// A node provider's project key in the path, a token as a URL's user
    /// with an empty password, a short URL-safe webhook id.
    #[test]
    fn node_provider_keys_token_users_and_webhook_ids() {
        for hit in [
            "RPC_URL=https://polygon-mainnet.g.alchemy.com/v2/Xq4Lm9Rz2Tw7Kp3Vb8Nc1Hd6Fs0Gj5Ya",
            "const ws = 'wss://mainnet.infura.io/ws/v3/9c1f2e3a4b5d6e7f8091a2b3c4d5e6f7'",
            "deb https://7e3a9c1f5b2d8e4c6a0f9b7e3d1c5a2e4b6d8f0a:@packagecloud.io/acme/tools/debian/ bookworm main",
            "curl -X POST http://ha.local:8123/api/webhook/Kp3-Vb8Nc1_Hd6Fs0Gj5Yq2",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "https://etherscan.io/tx/0x9c1f2e3a4b5d6e7f8091a2b3c4d5e6f79c1f2e3a4b5d6e7f8091a2b3c4d5e6f7",
            "https://rpc.example.org/v2/status",
            "deb https://deploy:@packagecloud.io/acme/tools/debian/ bookworm main",
            "http://ha.local:8123/api/webhook/doorbell-pressed",
            "POST https://n8n.example.com/webhook/GithubPushEventHandler2024",
            "curl https://node.example.com/api/v1/jobs/4f0e8c2b9a7d6e5f1a3b2c4d5e6f7a8b",
            "Trace: https://rpc-gateway.internal:8443/traces/4f0e8c2b9a7d6e5f1a3b2c4d5e6f7a8b",
            "postgres://postgres_replica_node_01:@10.0.0.5:5432/app",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// A query parameter after a template's interpolation, whose own
    /// parentheses are part of the URL; a `…_key` parameter with a random
    /// value; a node provider's key after `/ws/v3/`.
    #[test]
    fn interpolations_other_keys_and_node_hosts() {
        for hit in [
            "fetch(`https://api.mapforge.dev/geocode?q=${encodeURIComponent(addr)}&key=VdR2GhCKTE3o6iOthTp8o25mOyM2S2eHUE1OGza`)",
            "ALERT_URL=\"https://api.telemetrix.io/ingest?dsn_key=618ca251fe805932a22e4c12f51fb77ed8b658ab&env=prod\"",
            "ws_endpoint: wss://node.chainspur.io/ws/v3/15fd0ac2fb1d03a248e06c399dd7bd8a",
        ] {
            assert!(fires(hit, Rule::SecretUrl), "{hit}");
        }
        for clean in [
            "fetch(`https://api.mapforge.dev/geocode?q=${encodeURIComponent(addr)}&key=${MAP_KEY}`)",
            "https://docs.example.dev/search?sort_key=created_at&page=2",
            "wss://node.chainspur.io/ws/v3/status",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }

    /// From a review: parameters that name a thing (`idempotency_key`,
    /// `cache_key`), a node's non-websocket paths, `stok` as a word's end;
    /// PagerDuty's `routing_key`.
    #[test]
    fn named_things_node_paths_and_routing_keys() {
        assert!(fires(
            "https://events.pagerduty.com/v2/enqueue?routing_key=9b1c2e7f3a4d5e6f8a0b1c2d",
            Rule::SecretUrl
        ));
        for clean in [
            "POST https://api.payments.dev/v1/charges?idempotency_key=3f6c2a1e-8b4d-4f7a-9c2e-5d1b7a9e0c3f",
            "https://storage.example.dev/download?object_key=2024Q3Report8f2a9c71e4b5d",
            "GET /v1/objects?cache_key=sha1-4e1243bd22c66e76c2ba9eddc1f91394e57f9f83 200",
            "curl https://node-1.buildcache.internal/v1/4e1243bd22c66e76c2ba9eddc1f91394e57f9f83",
            "GET https://node.orders.internal/v2/3fa85f64-5717-4562-b3fc-2c963f66afa6 returned 404",
            "GET /api/items?stok=in_stock&page=2 200",
        ] {
            assert!(!fires(clean, Rule::SecretUrl), "{clean}");
        }
    }
}
