//! Which query parameters named for a key carry a sender's credential:
//! the known names of intake and routing keys, and `<word>_key` for a word
//! that names no thing.

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
pub(super) fn names_a_thing(word: &str) -> bool {
    THING_KEYS.contains(&word)
}

/// Whether a parameter named `name` (in lower case) is a key that
/// authenticates its sender, judged then by its random value.
pub(super) fn sender_key(name: &str) -> bool {
    SENDER_KEYS.contains(&name) || vendor_key(name)
}
