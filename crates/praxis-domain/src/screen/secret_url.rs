//! Secret-bearing URLs: userinfo with a password, a secret query or
//! fragment parameter, or a webhook or bot URL whose path is the secret.

use super::assignment::{KeyClass, key_class};
use std::sync::LazyLock;

use super::gate::{Doors, Gates};
use super::pattern::{
    Found, contains_any_ignoring_case, contains_ignoring_case, groups, lazy_regex,
};
use super::value::{
    counts_up, dated, few_vowels, has_digit, has_letter, is_placeholder, is_uuid,
    longest_alnum_run, mixed_case, random_like, twilio_sid, word_like, wordy, written_out,
};

lazy_regex!(
    /// `scheme://user:password@host`. A password may hold a raw `#` or
    /// `@` (hand-written URLs seldom percent-encode them), the user only
    /// as a mail address's (`smtp://notify@example.org:…@mail…`) or as a
    /// template's variable (Ansible's `{{ git_user }}`); the host starts
    /// after the last `@`.
    URL_USERINFO,
    r#"(?i)\b[a-z][a-z0-9+._-]{1,20}\\?://((?:\{\{\s*[\w.]+\s*\}\}|[^\s/?#@"'<>:]*(?:@[a-z0-9-]+(?:\.[a-z0-9-]+)+)?)(?::[^\s/?"'<>]*)?)@[A-Za-z0-9\[]"#
);
lazy_regex!(
    /// A query parameter, also on the next line where a log wrapped the
    /// URL (after a shell's `\` too); CJK prose runs on after a URL with
    /// no space, its full-width comma read as ASCII.
    URL_PARAM,
    r#"[?&#;](?:\\?\r?\n[ \t]*)?([A-Za-z0-9_.-]+)=([!-~&&[^&#"'<>;,?`]]*)"#
);
lazy_regex!(
    /// A query parameter curl adds to the URL it fetches (`--url-query
    /// 'private_token=…'`).
    CURL_URL_QUERY,
    r#"--url-query[= ]["']?([A-Za-z0-9_.-]+)=([^\s"'&]+)"#
);
lazy_regex!(
    SECRET_PATH_URL,
    r"(?i)discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{20,})|api\.telegram\.org/bot(\d+:[A-Za-z0-9_-]{30,})|hooks\.zapier\.com/hooks/catch/\d+/([a-z0-9]{6,})|/hooks/([a-z0-9]{26})\b|webhook\.office\.com/webhookb2/([A-Za-z0-9@/-]{40,})|maker\.ifttt\.com/trigger/[^/\s]+/with/key/([A-Za-z0-9_-]{16,})|hook\.[a-z0-9]+\.make\.com/([a-z0-9]{24,})|conda\.anaconda\.org/t/([A-Za-z0-9_-]{20,})|/private-([0-9a-f]{32})(?:/[\w.-]*)?\.ics\b|loggly\.com/inputs/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|/inputs/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/tag/|nosnch\.in/([0-9a-f]{10})\b|/api/push/([A-Za-z0-9]{10,32})\?(?:status|msg|ping)=|\.bitrix24\.[a-z.]{2,6}/rest/\d+/([a-z0-9]{16})/|collection(?:-[a-z0-9]+)?\.(?:[a-z0-9]+\.)?sumologic\.com/receiver/v1/(?:http|otlp|prometheus|kinesis)/([A-Za-z0-9_=-]{40,})"
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
    /// `/api/hooks/release/builtin/<id>/<token>/`, a log intake's
    /// `/v1/ingest/<key>`, `hc-ping.com/<uuid>`,
    /// a status page's `/api/ping/<token>/success`, an automation's
    /// `/api/trigger/<token>`, an alert relay's `/in/<token>`, a chat bot
    /// API's `/bot/<token>/send`).
    HOOK_URL,
    r#"(?i)\bhttps?://[!-~&&[^"'<>?#]]*?(?:hook|incoming|/ingest/|hc-ping|cronitor|/integrations?/|/ping/|/triggers?/|/notify|/alerts?/|/in/|/bot/|relay[.-])[!-~&&[^"'<>?#,]]*"#
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
    /// A conda channel served with a token in its path (`https://conda.
    /// example.org/t/<token>/main`), as Anaconda's own servers and their
    /// self-hosted kin take it: read only in a text about conda (or mamba,
    /// pixi, prefix.dev).
    CONDA_TOKEN,
    r"(?i)\bhttps?://[^\s/]+/(?:[\w.-]+/){0,2}?t/([A-Za-z0-9_-]{16,64})/"
);
lazy_regex!(
    /// A private page's address whose path holds its key (a status page's
    /// `/private/<hex>/overview`): anyone with the link sees the page.
    PRIVATE_PATH,
    r#"(?i)\bhttps?://[^\s/]+/(?:[\w.-]+/)*private/([A-Za-z0-9_-]{24,})(?:[/?#\s"'`)]|$)"#
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
lazy_regex!(
    /// A URL's fragment, which the browser never sends: share services
    /// keep the key that decrypts a paste or a file there (Bitwarden
    /// Send's `#<id>/<key>`, PrivateBin's `?<id>#<key>`, MEGA's `#!…!…`).
    FRAGMENT_KEY,
    r#"(?i)\bhttps?://[^\s#"'<>`]+#!?([A-Za-z0-9_!/-]{20,})"#
);
lazy_regex!(
    /// An expiry among a URL's parameters: the URL is signed, and its
    /// other generated value is the signature or token
    /// (`?st=<token>&e=1767225600`).
    EXPIRY_PARAM,
    r"(?i)[?&](?:e|exp|expires?|expiry|expiration|valid_until|deadline)=\d{9,13}\b"
);
lazy_regex!(URL_HOST, r"(?i)://(?:[^\s/?#@]*@)?([a-z0-9.-]+)");

/// Words one of which every match of [`SECRET_PATH_URL`] holds, in any
/// ASCII case.
const SECRET_PATH_WORDS: &[&str] = &[
    "discord",
    "telegram.org/bot",
    "zapier.com",
    "/hooks/",
    "webhook.office.com",
    "ifttt.com",
    ".make.com/",
    "anaconda.org/t/",
    "/private-",
    "loggly.com",
    "/inputs/",
    "nosnch.in/",
    "/api/push/",
    ".bitrix24.",
    "sumologic.com/receiver/",
];

/// Words one of which every match of [`RPC_KEY`] holds.
const RPC_WORDS: &[&str] = &[
    "alchemy",
    "infura",
    "quiknode",
    "chainstack",
    "p2pify",
    "getblock",
    "ankr",
    "blastapi",
    "rpc",
    "/ws/v",
];

/// Words one of which every match of [`HOOK_URL`] holds, besides `http`.
const HOOK_WORDS: &[&str] = &[
    "hook",
    "incoming",
    "/ingest/",
    "hc-ping",
    "cronitor",
    "/integration",
    "/ping/",
    "/trigger",
    "/notify",
    "/alert",
    "/in/",
    "/bot/",
    "relay.",
    "relay-",
];

/// Hosts whose plain `key` parameter is an API key.
const KEY_HOSTS: &[&str] = &["googleapis.com", "google.com", "youtube.com", "gstatic.com"];

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
    /// A password named in another language, whose placeholders
    /// (`DEIN_PASSWORT`, `geheim`) the English ones do not cover: only a
    /// value with letters and digits, not in capitals alone.
    PasswordAbroad,
    /// `pw`: a chosen password's mix of cases or symbols, not a width
    /// (`1920x1080`) or an id in one case.
    ShortPassword,
    /// `hmac`, also an algorithm's name (`HmacSHA256`), and a session's
    /// key: only a long run of letters and digits with a digit, not words.
    Digest,
    /// `sid`, a session id (Salesforce's `frontdoor.jsp?sid=`) but
    /// elsewhere a number, a timestamp, a Windows SID or a Twilio message's
    /// id: only a long, generated, mixed-case value.
    Session,
    /// A drop service's `upload_key`, elsewhere the object's path or file
    /// name: only a generated, mixed-case value with no `/` or `.`.
    Upload,
    /// `login`, a user's name elsewhere: only SonarQube's token (40 hex
    /// digits, or `sqa_`, `sqp_`, `squ_` and 40 hex).
    Login,
}

fn param_kind(key: &str) -> Option<Param> {
    // The case is lost below: a camel-cased harmless word goes first
    // (OAI-PMH's `resumptionToken` pages through a list).
    if key_class(key).is_none() && key.to_ascii_lowercase().ends_with("token") {
        return None;
    }
    let key = key.to_ascii_lowercase();
    Some(match key.as_str() {
        // `psw`: SMS gateways' and routers' spelling.
        "password" | "passwd" | "pwd" | "pass" | "psw" => Param::Password,
        // The same in German, Dutch, Portuguese, Spanish and French.
        "passwort" | "kennwort" | "wachtwoord" | "senha" | "contrasena" | "motdepasse"
        | "mot_de_passe" => Param::PasswordAbroad,
        // `pw`, short and common as an abbreviation (a width, an id).
        "pw" => Param::ShortPassword,
        // A session's key in an API's query authenticates the call: a
        // generated value, not a name (`cache_v3`) or a date.
        // A package feed's shared access signature too.
        // A payment callback's signing key (`sign_key`), unlike its
        // `sign`, is the secret itself.
        // Cloudflare's signed URL carries its expiry and signature in
        // `verify` (elsewhere a flag, `verify=true`).
        // An API key named in French, Spanish, Portuguese, Italian or
        // German, where the docs' slots are written in those languages
        // too (`VOTRE_CLE_API`, `TuClaveApi`): a generated value only.
        "hmac" | "session_key" | "sessionkey" | "sas" | "sign_key" | "signkey" | "signing_key"
        | "signingkey" | "verify" | "cle_api" | "cle-api" | "cleapi" | "clave_api"
        | "clave-api" | "claveapi" | "chave_api" | "chave-api" | "chaveapi" | "chiave_api"
        | "chiave-api" | "chiaveapi" | "api_schluessel" | "api-schluessel" | "apischluessel" => {
            Param::Digest
        }
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
        | "license-key"
        | "authorization_key"
        | "authorizationkey"
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
        // A bearer token passed as a parameter, Artifactory's API key.
        | "bearer"
        | "x-jfrog-art-api"
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
        | "share_token"
        // A download link's key.
        | "download_key"
        | "download_token" => Param::Token,
        // `auth` is often a flag (`auth=false`), `stok` a word's end
        // (`?stok=in_stock`).
        "auth" | "stok" => Param::Auth,
        "sid" => Param::Session,
        "upload_key" | "uploadkey" => Param::Upload,
        "login" => Param::Login,
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
            None if keys::sender_key(other) => Param::Key,
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
        Param::PasswordAbroad => {
            value.len() >= 8
                && has_digit(value)
                && has_letter(value)
                && value.bytes().any(|b| b.is_ascii_lowercase())
        }
        Param::ShortPassword => {
            value.len() >= 8
                && has_digit(value)
                && has_letter(value)
                && (mixed_case(value)
                    || value.bytes().any(|b| b.is_ascii_punctuation() && b != b'%'))
                && !value.contains('%')
        }
        Param::Digest => {
            longest_alnum_run(value) >= 16 && has_digit(value) && has_letter(value) && !wordy(value)
        }
        Param::Session => {
            value.len() >= 20
                && mixed_case(value)
                && has_digit(value)
                && random_like(value, 20)
                && !twilio_sid(value)
        }
        Param::Upload => {
            value.len() >= 16
                && !value.contains(['/', '.'])
                && mixed_case(value)
                && has_digit(value)
                && random_like(value, 16)
        }
        Param::Login => {
            let hex = ["sqa_", "sqp_", "squ_"]
                .iter()
                .find_map(|p| value.strip_prefix(p))
                .unwrap_or(value);
            hex.len() == 40
                && hex.bytes().all(|b| b.is_ascii_hexdigit())
                && has_digit(hex)
                && has_letter(hex)
        }
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
                || (random_like(value, 20)
                    && has_digit(value)
                    && has_letter(value)
                    && !written_out(value))
        }
    }
}

/// Path segments after which a hex segment names a commit, a build, a run
/// or a delivery by its digest or id.
const NAMED_BY_DIGEST: &[&str] = &[
    "commit",
    "commits",
    "tree",
    "blob",
    "blobs",
    "raw",
    "compare",
    "deliveries",
    "build",
    "builds",
    "run",
    "runs",
    "job",
    "jobs",
    "pipelines",
    "sha",
    "sha256",
];

/// A path segment that can only be a generated secret: 24 or more letters
/// and digits in mixed case, or 32 or more hex digits, in one run.
fn generated_segment(segment: &str) -> bool {
    let hex = segment.len() >= 32 && segment.bytes().all(|b| b.is_ascii_hexdigit());
    // A generated run may hold `_` or `-` after a readable prefix
    // (`garage-2oE39TG49pPm_xXpkfEToluP`).
    let tail = segment.rsplit('-').next().unwrap_or(segment);
    // Long generated ids may hold `_` and `-` anywhere (Home Assistant's
    // webhook ids, a hook's `P35iPbgaZLFqaH-rCFFLeM_eIbQ9CD5B`).
    let long = segment.len() >= 32
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
    ((hex || mixed) && digit && has_letter(segment) && random_like(segment, 24) && !wordy(segment))
        || base36(segment)
}

/// A generated run in lower case and digits (`6n5d7e8kd3tdwgwe…`): 32 or
/// more, a sixth of them digits at least (random base-36 has 28% on
/// average, and a run of 32 falls under a fifth one time in eight; a
/// readable name has few; words between them run long, so [`wordy`]
/// cannot tell).
fn base36(segment: &str) -> bool {
    let digits = segment.bytes().filter(u8::is_ascii_digit).count();
    // Hex alone is a digest as often: [`generated_segment`] judges it.
    // Under a fifth of digits, a run is random only if it holds no date
    // (`nightlybuildfor20240115onubuntu2204`) and no stretch of letters
    // as long as words strung together make
    // (`projectalphabetagammadelta123456`): random base 36 runs to 15
    // letters in a row about one time in fifteen.
    let few_digits = digits * 5 < segment.len();
    let letters = segment
        .split(|c: char| c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    segment.bytes().any(|b| b > b'f')
        && segment.len() >= 32
        && segment
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && digits * 6 >= segment.len()
        && (segment.len() - digits) * 3 >= segment.len()
        && random_like(segment, 32)
        && !counts_up(segment)
        && !(few_digits && (letters >= 15 || dated(segment)))
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
        "/ingest/",
        "/bot/",
    ]
    .iter()
    .filter_map(|w| url.find(w).map(|i| i + w.len()))
    // An intake's key ends its path; a segment with more below it
    // (`/ingest/<id>/status`) names a job.
    .filter(|&at| {
        !url[..at].ends_with("/ingest/") || !url[at..].trim_end_matches('/').contains('/')
    })
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

/// Whether a conda channel's `/t/` segment is a token: generated (in mixed
/// case, or in one case and long), or Anaconda's two letters before a UUID
/// (a forum's topic slug under `/t/` is words).
fn conda_token(segment: &str) -> bool {
    let prefixed = segment.split_once('-').is_some_and(|(head, uuid)| {
        head.len() == 2 && is_uuid(uuid) && random_like(uuid, 36) && !counts_up(uuid)
    });
    // In one case, a token is long, unbroken (a slug breaks its words with
    // `-`) and short of vowels.
    let one_case = segment.len() >= 24 && !segment.contains(['-', '_']) && few_vowels(segment);
    let generated = has_digit(segment)
        && random_like(segment, 16)
        && ((mixed_case(segment) && !wordy(segment)) || one_case);
    prefixed || generated
}

/// Whether a secret-named property of a JDBC or Prisma `sqlserver://` URL
/// holds a literal: Prisma's braces (`password={…}`, its escape for
/// special characters) hold one; a call or a member (`env(DB_PASSWORD)`,
/// `process.env.DB_PASSWORD`) refers to one.
fn sqlserver_property(kind: Param, value: &str) -> bool {
    let braced = value.strip_prefix('{').and_then(|v| v.strip_suffix('}'));
    match braced {
        Some(inner) => !inner.starts_with('{') && secret_param(kind, inner, None),
        None => {
            !value.contains('(')
                && !value.starts_with("process.env")
                && secret_param(kind, value, None)
        }
    }
}

/// Whether the parameter `name=value` at byte `start` of `text` is a
/// link's credential that its name alone does not tell: a sign-in link's
/// one-time token ([`keys::SIGN_IN_PARAMS`] on a magic-link, verification, SSO
/// or ticket-consuming path; not an OAuth callback's grant), or the token
/// of a URL signed with an expiry (`?st=…&e=1767225600`).
fn link_param(text: &str, start: usize, name: &str, value: &str) -> bool {
    let from = token_start(&text[..start]);
    let end = text[start..]
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
        .map_or(text.len(), |i| start + i);
    let url = &text[from..end];
    if !url.contains("://") || !url.contains('?') {
        return false;
    }
    let name = name.to_ascii_lowercase();
    let path = url[..start - from].to_ascii_lowercase();
    let sign_in = keys::SIGN_IN_PARAMS.contains(&name.as_str())
        && !path.contains("oauth")
        && !path.contains("callback")
        && [
            "magic",
            "login",
            "signin",
            "sign-in",
            "sign_in",
            "verify",
            "sso",
            "consume",
            "passwordless",
        ]
        .iter()
        .any(|w| path.contains(w));
    // A CAS service ticket: `ST-<n>-<random>`.
    let ticket = value
        .strip_prefix("ST-")
        .and_then(|t| t.split_once('-'))
        .is_some_and(|(n, rest)| {
            n.bytes().all(|b| b.is_ascii_digit()) && longest_alnum_run(rest) >= 10
        });
    let signed = EXPIRY_PARAM.is_match(url)
        && !name.ends_with("id")
        && !name.starts_with("utm_")
        && !["v", "ver", "version", "rev", "cb", "etag", "ref", "hash"].contains(&name.as_str());
    // The words that spell a parameter out stand before its URL on the
    // URL's line, not in the URL itself or in another sentence.
    let line_start = text[..from].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..from];
    let sentence = before.rfind(". ").map_or(before, |i| &before[i + 2..]);
    (sign_in && (ticket || link_token(value, 20)))
        || ((signed || keys::spelled_out(sentence, &name)) && link_token(value, 16))
        || keys::wordpress_reset_key(url, &name, value)
}

/// Whether a link's parameter value is generated: letters and digits in
/// mixed case (or 32 hex digits and more), in a long run, no words.
fn link_token(value: &str, min: usize) -> bool {
    let hex = value.len() >= 32 && value.bytes().all(|b| b.is_ascii_hexdigit());
    has_digit(value)
        && has_letter(value)
        && (mixed_case(value) || hex)
        && longest_alnum_run(value) >= 12
        && random_like(value, min)
        && !wordy(value)
        && !counts_up(value)
}

/// The patterns that run only where a text holds what every match of
/// them holds, found in the one keyword pass over the text: asking for
/// each list in turn took a scan per word, about fifty per text.
pub(super) static GATES: LazyLock<Gates> = LazyLock::new(|| {
    Gates::with_also(
        vec![
            (&SECRET_PATH_URL, SECRET_PATH_WORDS),
            (&PRIVATE_PATH, &["/private/"]),
            (&RPC_KEY, RPC_WORDS),
            (&STREAM_KEY, &["rtmp"]),
            (&ORACLE_JDBC, &["jdbc:oracle:"]),
            (&PUSH_URL, &["/api/push/"]),
            (&HOOK_URL, HOOK_WORDS),
        ],
        vec![(&HOOK_URL, &["http"])],
    )
});

pub(super) fn secret_url<'s>(
    text: &str,
    doors: Doors,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let open = GATES.open(doors);
    let userinfo = (text.contains('@') && text.contains("://")).then_some(&*URL_USERINFO);
    let mut found = Found::new(stands);
    found.stage(|| {
        userinfo
            .into_iter()
            .flat_map(|re| re.captures_iter(text))
            // Prisma's `sqlserver://host:port;…;password=…` has no userinfo
            // (go-mssqldb's `sqlserver://user:pass@host` has): an `@` after a
            // `;` is a property's.
            .filter(|c| {
                !(c[0]
                    .get(..9)
                    .is_some_and(|s| s.eq_ignore_ascii_case("sqlserver"))
                    && c[1].contains(';'))
            })
            // A userinfo built of subexpressions (PowerShell's
            // `$($env:USER):$($env:PASS)`, a shell's `$(cat …)`) reads the
            // credential from elsewhere.
            .filter(|c| !c[1].starts_with("$("))
            .filter(|c| match c[1].split_once(':') {
                // `token:@host` (packagecloud's, a registry's): the user is
                // the token.
                Some((user, "")) => token_user(user),
                // A password that repeats its user (`guest:guest`) is a
                // product's documented default; a generated one repeated (a
                // Sentry DSN's `<key>:<key>@`) is still a secret.
                Some((user, password)) => {
                    !is_placeholder(password)
                        && (password != user || (random_like(password, 20) && has_digit(password)))
                }
                // A Sentry DSN's key is public: the client sends it. A mail
                // address as the user (`alerts%40example.com@smtp…`) is a name.
                None => {
                    random_like(&c[1], 20)
                        && has_digit(&c[1])
                        && !c[1].contains("%40")
                        && !sentry_dsn(text, c.get(1))
                }
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
    });
    found.stage(|| {
        open.captures(&SECRET_PATH_URL, text)
            .filter(|c| {
                c.iter()
                    .skip(1)
                    .flatten()
                    .next()
                    .is_none_or(|secret| !counting(secret.as_str()))
            })
            // The secret itself, so that a host named for an example
            // (`team%40acme.example`) makes no placeholder of it.
            .filter_map(|c| c.iter().skip(1).flatten().next().or(c.get(0)))
            .map(|m| m.range())
    });
    if text.contains("repo.anaconda.cloud/t/") {
        found.stage(|| ANACONDA_CLOUD.find_iter(text).map(|m| m.range()));
    }
    if text.contains('#') {
        for key in FRAGMENT_KEY.captures_iter(text).filter_map(|c| c.get(1)) {
            let mut at = key.start();
            for piece in key.as_str().split(['/', '!']) {
                if keys::fragment_key(piece) {
                    found.stage(|| std::iter::once(at..at + piece.len()));
                }
                at += piece.len() + 1;
            }
        }
    }
    found.stage(|| schemeless::schemeless(text));
    found.stage(|| groups(open.get(&PRIVATE_PATH), text, generated_segment));
    // A channel's token (`/t/<token>/`) only on a conda host: the words
    // are the condition, as `/t/` alone is any site's path.
    if contains_any_ignoring_case(text, &["conda", "mamba", "pixi", "prefix.dev"]) {
        found.stage(|| groups(Some(&CONDA_TOKEN), text, conda_token));
    }
    found.stage(|| {
        open.captures(&RPC_KEY, text)
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
            .map(|m| m.range())
    });
    found.stage(|| {
        open.captures(&STREAM_KEY, text)
            .filter(|c| stream_key(&c[0], &c[1]))
            .filter_map(|c| c.get(1))
            .map(|m| m.range())
    });
    // URLs whose password stands outside the userinfo form: Oracle's
    // before the host, an SQS broker's with no host at all.
    let oracle = open.get(&ORACLE_JDBC);
    let sqs = text.contains("sqs://").then_some(&*SQS_BROKER);
    for re in oracle.into_iter().chain(sqs) {
        found.stage(|| {
            re.captures_iter(text)
                .filter_map(|c| c.get(1))
                .filter(|m| !is_placeholder(m.as_str()) && !word_like(m.as_str()))
                .map(|m| m.range())
        });
    }
    let bytes = text.as_bytes();
    if memchr::memmem::find(bytes, b"hooks/").is_some()
        || memchr::memmem::find(bytes, b"deploy/").is_some()
        || memchr::memmem::find(bytes, b"-Signature=").is_some()
    {
        found.stage(|| DEPLOY_HOOK.find_iter(text).map(|m| m.range()));
    }
    found.stage(|| {
        open.captures(&PUSH_URL, text)
            .filter_map(|c| c.get(1))
            .filter(|m| {
                let token = m.as_str();
                has_digit(token) && has_letter(token) && mixed_case(token) && !word_like(token)
            })
            .map(|m| m.range())
    });
    for url in open.find(&HOOK_URL, text) {
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
            // After a commit's, a build's or a delivery's name, hex is that
            // thing's digest or id (`…/webhook-relay/tree/<sha>`).
            let digest = segment.bytes().all(|b| b.is_ascii_hexdigit())
                && NAMED_BY_DIGEST
                    .iter()
                    .any(|n| previous.eq_ignore_ascii_case(n));
            if past
                && !digest
                && (generated_segment(segment) || hook_id || ((hook || ping) && is_uuid(segment)))
            {
                found.stage(|| std::iter::once(at..at + segment.len()));
            }
            at += segment.len() + 1;
            previous = segment;
        }
    }
    found.stage(|| {
        URL_PARAM
            .captures_iter(text)
            .filter(|c| {
                let start = c.get(0).map_or(0, |m| m.start());
                let Some(kind) = param_kind(&c[1]) else {
                    return link_param(text, start, &c[1], &c[2]);
                };
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
                // So does Prisma's `sqlserver://` URL.
                let properties =
                    token.contains("jdbc:") || contains_ignoring_case(token, "sqlserver://");
                // A URL built by concatenation (`"https://…?ip=" + ip +
                // "&key=…"`): a string that starts with `&` continues a
                // query begun earlier on its line.
                let line = &text[text[..token_start].rfind('\n').map_or(0, |i| i + 1)..token_start];
                let continued = token == "&"
                    && line.ends_with(['"', '\''])
                    && line.contains("://")
                    && line.contains('?');
                if !token.contains(['?', '#']) && !properties && !path_token && !continued {
                    return false;
                }
                let host = URL_HOST
                    .captures(if continued { line } else { token })
                    .map(|h| h.get(1).map_or("", |m| m.as_str()));
                if properties && !token.contains(['?', '#']) {
                    return sqlserver_property(kind, &c[2]);
                }
                secret_param(kind, &c[2], host) || link_param(text, start, &c[1], &c[2])
            })
            .filter_map(|c| c.get(2))
            // Prisma's braces quote the value: the secret is inside them.
            .map(|m| {
                let braced = m.as_str().len() > 2
                    && m.as_str().starts_with('{')
                    && m.as_str().ends_with('}')
                    && contains_ignoring_case(&text[..m.start()], "sqlserver://");
                if braced {
                    m.start() + 1..m.end() - 1
                } else {
                    m.range()
                }
            })
    });
    if text.contains("--url-query") {
        found.stage(|| {
            CURL_URL_QUERY
                .captures_iter(text)
                .filter(|c| param_kind(&c[1]).is_some_and(|kind| secret_param(kind, &c[2], None)))
                .filter_map(|c| c.get(2))
                .map(|m| m.range())
        });
    }
    found.stage(|| paired::user_passwords(text));
    found
}

mod keys;
mod paired;
mod schemeless;

#[cfg(test)]
mod link_tests;
#[cfg(test)]
mod tests;
