//! Which query parameters named for a key carry a sender's credential:
//! the known names of intake and routing keys, `<word>_key` for a word
//! that names no thing, a short name the text spells out ("a viewer key"
//! for `vk=`) and WordPress's reset key; which carry a sign-in link's
//! one-time credential; and which pieces of a URL's fragment are keys.

use super::super::value::{
    counts_up, has_digit, longest_alnum_run, mixed_case, random_like, wordy,
};

/// Parameters that carry a sign-in link's one-time credential (a magic
/// link's `mt=`, an emailed code, a CAS service ticket).
pub(super) const SIGN_IN_PARAMS: &[&str] = &[
    "mt", "code", "ticket", "t", "k", "lt", "otp", "magic", "link",
];

/// Query parameters named for a key that authenticates its sender, which
/// the names of secrets do not cover.
const SENDER_KEYS: &[&str] = &[
    "dsn_key",
    "dsnkey",
    "integration_key",
    "service_key",
    "routing_key",
    "client_key",
    "autologin_key",
    "login_key",
];

/// What a `<word>_key` parameter may be named for and still not be a
/// credential: a key that sorts, dedupes or finds a thing, or one that is
/// public by design (reCAPTCHA's `site_key`, a publishable key).
const THING_KEYS: &[&str] = &[
    "cache",
    "correlation",
    "upload",
    "idempotency",
    "idem",
    "dedup",
    "dedupe",
    "partition",
    "sort",
    "primary",
    "foreign",
    "object",
    "row",
    "item",
    "record",
    "range",
    "hash",
    "shard",
    "lookup",
    "map",
    "group",
    "order",
    "message",
    "event",
    "request",
    "trace",
    "file",
    "asset",
    "image",
    "s3",
    "blob",
    "entity",
    "index",
    "version",
    "checksum",
    "content",
    "state",
    "lock",
    "page",
    "cursor",
    "resume",
    "public",
    "pub",
    "site",
    "publishable",
    "sitekey",
    "issue",
    "project",
    "user",
    "customer",
    "account",
    "product",
    "report",
    "query",
    "sku",
    "task",
    "job",
    "run",
    "build",
    "layout",
    "theme",
    "locale",
    "lang",
    "language",
    "region",
    "zone",
    "country",
    "tab",
    "menu",
    "widget",
    "field",
    "column",
    "table",
    "list",
    "form",
    "media",
    "video",
    "track",
    "doc",
    "note",
    "post",
    "comment",
    "thread",
    "topic",
    "channel",
    "room",
    "board",
    "card",
    "node",
];

/// Whether `name` is `<word>_key` for a word that names no thing: a
/// sender's key to an intake (`bugtrail_key`, `sentry_key`), judged by
/// its random value like the keys of [`SENDER_KEYS`].
fn vendor_key(name: &str) -> bool {
    name.strip_suffix("_key").is_some_and(|word| {
        word.len() >= 3
            && word.bytes().all(|b| b.is_ascii_lowercase())
            && !THING_KEYS.contains(&word)
    })
}

/// Whether `word` (in lower case) names a thing a key sorts or finds, or
/// a key public by design (`public`, `site`), not a credential.
fn names_a_thing(word: &str) -> bool {
    THING_KEYS.contains(&word)
}

/// Whether a parameter named `name` (in lower case) is a key that
/// authenticates its sender, judged then by its random value.
pub(super) fn sender_key(name: &str) -> bool {
    SENDER_KEYS.contains(&name) || vendor_key(name)
}

/// Whether `text` spells out a short parameter's name as the initials of
/// a phrase that names a credential ("a viewer key" for `vk=`, "the
/// access token" for `at=`).
pub(super) fn spelled_out(text: &str, name: &str) -> bool {
    if !(2..=4).contains(&name.len()) || !name.bytes().all(|b| b.is_ascii_lowercase()) {
        return false;
    }
    // Articles spell nothing ("a key" is no `ak=`).
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty() && !["a", "an", "the"].contains(&w.to_ascii_lowercase().as_str()))
        .collect();
    words.windows(name.len()).any(|phrase| {
        let last = phrase[phrase.len() - 1];
        ["key", "token", "secret", "password"]
            .iter()
            .any(|w| last.eq_ignore_ascii_case(w))
            && phrase
                .iter()
                .zip(name.bytes())
                .all(|(word, b)| word.as_bytes()[0].eq_ignore_ascii_case(&b))
            // A public key (`pk=`) or a cache key names no credential, nor
            // does a paging token (`nt=` for a "next token").
            && !phrase[..phrase.len() - 1].iter().any(|w| {
                let w = w.to_ascii_lowercase();
                names_a_thing(&w)
                    || ["next", "continuation", "sync", "delta", "skip", "paging", "pagination"]
                        .contains(&w.as_str())
            })
    })
}

/// Whether a piece of a URL's fragment is a key: 20 or more characters,
/// letters and digits in mixed case, random.
pub(super) fn fragment_key(piece: &str) -> bool {
    piece.len() >= 20
        && has_digit(piece)
        && mixed_case(piece)
        && longest_alnum_run(piece) >= 10
        && random_like(piece, 20)
        && !wordy(piece)
        && !counts_up(piece)
}

/// Whether `name=value` of `url` is WordPress's password-reset key
/// (`wp-login.php?action=rp&key=…&login=…`): twenty letters and digits,
/// often with no digit at all, which the checks of other links' tokens
/// want.
pub(super) fn wordpress_reset_key(url: &str, name: &str, value: &str) -> bool {
    let url = url.to_ascii_lowercase();
    name == "key"
        && url.contains("wp-login.php")
        && (url.contains("action=rp") || url.contains("action=resetpass"))
        && value.len() >= 16
        && value.bytes().all(|b| b.is_ascii_alphanumeric())
        && mixed_case(value)
        && random_like(value, 16)
}
