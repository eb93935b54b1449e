//! What a key's name says it holds: a password, a generated secret, a
//! basic-auth pair, or nothing secret at all.

use super::super::value::key_words;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::screen) enum KeyClass {
    /// Passwords can be short and made of words.
    Password,
    /// Secrets, tokens and API keys are long and not words.
    Secret,
    /// A base64 `user:password` (`.npmrc` `_auth`, Docker `auth`).
    Basic,
    /// A key whose name alone says little (`pat`, a bare `pass`), so its
    /// value counts only when it looks generated.
    Generated,
}

/// Key words whose tokens are not credentials: pagination cursors, CSRF
/// and cancellation tokens.
pub(super) const HARMLESS_TOKEN_WORDS: &[&str] = &[
    "page",
    "next",
    "prev",
    "previous",
    "continuation",
    "cursor",
    "sync",
    "csrf",
    "xsrf",
    "cancel",
    "cancellation",
    "resume",
    "resumption",
    "pagination",
    "lexer",
    "parser",
    "unexpected",
];

const SECRET_SUFFIXES: &[&str] = &[
    "secret",
    "secretkey",
    "secretkeybase",
    "apikey",
    "accesskey",
    "privatekey",
    "signingkey",
    "encryptionkey",
    "masterkey",
    "accountkey",
    "sharedaccesskey",
    "subscriptionkey",
    // WordPress's salts and Airflow's Fernet key.
    "authkey",
    "loggedinkey",
    "noncekey",
    "fernetkey",
    // A vendor's auth code (Paddle's `vendor_auth_code`).
    "authcode",
    "token",
    "credential",
    "credentials",
];

/// Words one of which every key [`key_class`] names holds: the gate of
/// patterns that go on to ask it.
pub(in crate::screen) const KEY_WORDS: &[&str] = &[
    "pass",
    "psk",
    "pwd",
    "auth",
    "secret",
    "token",
    "credential",
    "key",
    "pat=",
    "pat:",
    "pat ",
    "pat\"",
    "pat'",
    "pat`",
    "pat\\",
    "pat\t",
    "_pat",
    "-pat",
    "_pw",
    "-pw",
    "pw ",
    "pw=",
    "pw:",
    "pw\"",
    "pw'",
    "pw\t",
    // An LDAP bind's password (Dex's `bindPW`).
    "bindpw",
    "sonar",
    // Password in German, Spanish, Portuguese and Dutch.
    "kennwort",
    "contrase",
    "senha",
    "wachtwoord",
];

/// What a key named `key` holds, by its words: `None` when nothing
/// secret.
pub(in crate::screen) fn key_class(key: &str) -> Option<KeyClass> {
    let bare = key.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    if bare.eq_ignore_ascii_case("_auth") || bare.eq_ignore_ascii_case("auth") {
        return Some(KeyClass::Basic);
    }
    let mut words = key_words(bare);
    // A secret's hash (detect-secrets' `hashed_secret`, `password_hash`)
    // does not give the secret away.
    if words
        .iter()
        .any(|w| matches!(w.as_str(), "hashed" | "hash" | "digest"))
    {
        return None;
    }
    // A password named for what it opens (`password_for_wifi`,
    // `passwd_for_nas`) is a password; one named for its handling
    // (`password_for_user_file`, `password_for_admin_hint`) is not.
    if let Some(at) = words.iter().position(|w| w == "for")
        && at >= 1
        && words.len() == at + 2
        && matches!(
            words[at - 1].as_str(),
            "password" | "passwd" | "passphrase" | "pwd"
        )
        && !PASSWORD_ABOUT.contains(&words[at + 1].as_str())
    {
        words.truncate(at);
    }
    // A secret kept beside its successor or stand-in
    // (`VAULT_TOKEN_FALLBACK`, `STRIPE_KEY_LEGACY`, `DB_PASSWORD_V2`) is a
    // secret still.
    if words.len() > 1 && words.last().is_some_and(|w| key_qualifier(w)) {
        words.pop();
    }
    // A password base64-encoded (`SMTP_PASSWORD_B64`) is the password still.
    if words.len() > 1 && words.last().is_some_and(|w| w == "b64" || w == "base64") {
        words.pop();
    }
    // What a secret manager hands back (`SecretString`, `secret_value`) or
    // a secret named for what it opens (`secret_access`): only a generated
    // value counts, as such keys also hold a status or a name.
    if words.len() > 1
        && words[words.len() - 2] == "secret"
        && words
            .last()
            .is_some_and(|w| matches!(w.as_str(), "value" | "string" | "access" | "data"))
    {
        return Some(KeyClass::Generated);
    }
    // A personal access token (`--pat`, `AZURE_DEVOPS_PAT`); "Pat" is also
    // a name, so only a generated value counts.
    if words.last().is_some_and(|w| w == "pat") {
        return Some(KeyClass::Generated);
    }
    // PagerDuty's `routing_key` and `integration_key` (and the older
    // `service_key`) let anyone raise an incident; RabbitMQ's routing key
    // is a name (`orders.created`), so only a generated value counts.
    if ["routing", "integration", "service"]
        .iter()
        .any(|w| words.ends_with(&[(*w).to_owned(), "key".to_owned()]))
    {
        return Some(KeyClass::Generated);
    }
    // SonarQube's `sonar.login` takes a token (its successor is
    // `sonar.token`); it also takes a user name, so a generated value only.
    if words.ends_with(&["sonar".to_owned(), "login".to_owned()]) {
        return Some(KeyClass::Generated);
    }
    // A bare `pass:` (a YAML block's mail or proxy password) is also a
    // test tally (`pass: 12`), so it takes a secret-like value; a bare
    // `pwd` is also the working directory (`"$PWD":/workspace`), so only a
    // generated value counts.
    if words.len() == 1 && words[0] == "pwd" {
        return Some(KeyClass::Generated);
    }
    // A header or setting named for its auth (`X-Upstream-Auth`).
    if words.len() > 1 && words.last().is_some_and(|w| w == "auth") {
        return Some(KeyClass::Secret);
    }
    // `DB_PW`: a password by its short name, after a qualifier (an LDAP
    // bind's `bindpw` joins them).
    if (words.len() > 1 && words.last().is_some_and(|w| w == "pw"))
        || words
            .last()
            .is_some_and(|w| w.eq_ignore_ascii_case("bindpw"))
    {
        return Some(KeyClass::Password);
    }
    // A bare `pw` is also a page's width or a print writer, so it takes
    // a secret-like value, as a bare `pass` does.
    if words.len() == 1 && (words[0] == "pass" || words[0] == "pw") {
        return Some(KeyClass::Secret);
    }
    // A Wi-Fi pre-shared key, Redis's `requirepass`, SSSD's bind
    // `authtok`.
    if matches!(
        words.last().map(String::as_str),
        Some("psk" | "requirepass" | "authtok")
    ) {
        return Some(KeyClass::Password);
    }
    let joined: String = words.concat();
    if joined.ends_with("password")
        || ["passwort", "kennwort", "contraseña", "contrasena", "senha", "wachtwoord"]
            .iter()
            .any(|w| joined.ends_with(w))
        || joined.ends_with("passwd")
        || joined.ends_with("passphrase")
        || (words.len() > 1 && words.last().is_some_and(|w| w == "pwd" || w == "pass"))
        // keytool's `-storepass`, `-keypass`, `-srcstorepass`.
        || (joined.len() > 4
            && joined.ends_with("pass")
            && !["bypass", "compass", "trespass", "overpass", "underpass", "surpass", "askpass"]
                .iter()
                .any(|w| joined.ends_with(w)))
    {
        return Some(KeyClass::Password);
    }
    if SECRET_SUFFIXES.iter().any(|s| joined.ends_with(s))
        && !words
            .iter()
            .any(|w| HARMLESS_TOKEN_WORDS.contains(&w.as_str()))
    {
        return Some(KeyClass::Secret);
    }
    None
}

/// Words that, after "password for", name something about a password
/// rather than what it opens.
const PASSWORD_ABOUT: &[&str] = &[
    "file",
    "regex",
    "hint",
    "prompt",
    "label",
    "field",
    "policy",
    "env",
    "path",
    "url",
    "length",
    "reset",
    "rule",
    "rules",
    "check",
    "format",
    "validation",
    "pattern",
    "placeholder",
    "text",
];

/// Whether a key's last word tells which of several secrets of one kind
/// it holds (a generation, a role), not what it holds.
fn key_qualifier(word: &str) -> bool {
    matches!(
        word,
        "old"
            | "new"
            | "legacy"
            | "fallback"
            | "backup"
            | "previous"
            | "prev"
            | "current"
            | "primary"
            | "secondary"
            | "rotated"
    ) || (word.len() == 2 && word.starts_with('v') && word.as_bytes()[1].is_ascii_digit())
}

/// What a key ending in `key` names when it is no secret: a database's,
/// a cache's or a queue's key, a public key, a hotkey.
const HARMLESS_KEY_WORDS: &[&str] = &[
    "primary",
    "foreign",
    "sort",
    "partition",
    "hash",
    "range",
    "row",
    "cache",
    "idempotency",
    "dedup",
    "dedupe",
    "lock",
    "lookup",
    "routing",
    "message",
    "event",
    "group",
    "object",
    "s3",
    "public",
    "publishable",
    "site",
    "hot",
    "short",
    "sign",
    "translation",
    "i18n",
    "label",
    "map",
    "dict",
    "index",
    "unique",
    "composite",
    "natural",
    "join",
    "react",
    "data",
    // Application Insights' key names where telemetry goes; browsers send it.
    "instrumentation",
];

/// Whether a key the classes above leave out still names a secret: one
/// ending in `key` (`project_key`, Laravel's `APP_KEY`) that no harmless
/// word qualifies. Its value counts only when it is generated.
pub(super) fn generated_key(key: &str) -> bool {
    let bare = key.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    let mut words = key_words(bare);
    // A numbered key (`VAULT_UNSEAL_KEY_1`) is named by its words.
    if words
        .last()
        .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
    {
        words.pop();
    }
    // Vault AppRole's `secret_id` is its password; elsewhere a secret's
    // id is its name (`--secret-id prod/db`), which is not generated.
    matches!(words.as_slice(), [.., qualifier, last]
        if (last == "key" && !HARMLESS_KEY_WORDS.contains(&qualifier.as_str()))
            || (qualifier == "secret" && last == "id"))
}

/// Whether a key is named `key` and nothing else (an INI section's
/// `key=`, a YAML block's `key:`): it names a secret only by its value.
pub(super) fn bare_key(key: &str) -> bool {
    key_words(key.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'))) == ["key"]
}

#[cfg(test)]
mod tests {
    use super::{KeyClass, key_class};
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Held-out 64: a key named for its secret's generation or role, and a
    /// secret in an element whose `name` says what it is.
    #[test]
    fn qualified_keys_and_named_elements() {
        assert!(matches!(
            key_class("VAULT_TOKEN_FALLBACK"),
            Some(KeyClass::Secret)
        ));
        assert!(matches!(
            key_class("db_password_v2"),
            Some(KeyClass::Password)
        ));
        // A qualifier alone names nothing.
        assert!(key_class("FALLBACK").is_none());
        assert!(key_class("TOKEN_URL").is_none());
        for hit in [
            "export VAULT_TOKEN_FALLBACK=u5lB5FvnXt7uoVBhDqVpnWsZ4MppV2abbM5uvYIF",
            "STRIPE_WEBHOOK_TOKEN_LEGACY=MKswUbg0VsnA0B8oS9N67MmbSqSgOHDgy2ruBCxU",
            "<Property name=\"password\">M1P3VfNgu9Bkyokhs#FkA</Property>",
            "<entry key=\"api.token\">Pq7Lm2Xv9Rt4Kw8Zc3Nb6Hd1</entry>",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "export VAULT_TOKEN_FALLBACK=\"$VAULT_TOKEN\"",
            "API_KEY_OLD=<rotated, see vault>",
            "<Property name=\"password\">${DB_PASSWORD}</Property>",
            "<Property name=\"username\">svc-reporting</Property>",
            "<entry key=\"token.ttl\">3600</entry>",
            "<entry key=\"api.token\">%env.API_TOKEN%</entry>",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 88: a password named for what it opens.
    #[test]
    fn passwords_named_for_what_they_open() {
        assert!(matches!(
            key_class("password_for_wifi"),
            Some(KeyClass::Password)
        ));
        assert!(key_class("reset_password_for_user_url_template").is_none());
        assert!(key_class("retries_for_password_reset_page").is_none());
        assert!(key_class("password_for_user_file").is_none());
        assert!(key_class("password_for_hint").is_none());
        assert!(matches!(
            key_class("PASSWORD_FOR_WIFI"),
            Some(KeyClass::Password)
        ));
        assert!(fires(
            "password_for_wifi = \"Granite#6596falcon!\"  # guest SSID \"Lobby-5G\"",
            Rule::CredentialAssignment
        ));
        assert!(fires(
            "PASSWORD_FOR_WIFI=\"Granite#6596falcon!\"",
            Rule::CredentialAssignment
        ));
        for clean in [
            "password_for_wifi = os.environ[\"WIFI_PASSWORD\"]",
            "password_for_wifi = \"<ask the front desk>\"",
            "password_for_user_file = \"/run/secrets/db_pw.txt\"",
            "password_for_admin_hint = \"MaidenName1990\"",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 92: a bare `pw` given a literal, and an Objective-C string.
    #[test]
    fn bare_pw_and_objective_c_strings() {
        assert!(matches!(key_class("pw"), Some(KeyClass::Secret)));
        for hit in [
            "pw := \"Coba@7862TUN\"\ndb, err := sql.Open(\"mysql\", \"app:\"+pw+\"@tcp(db:3306)/app\")",
            "NSString *apiSecret = @\"t7vp5iounU2DUxDBPMZifdh1NZ3b01aaAJLE8hRIO0HYZ2cs\";",
            "\"pw\": \"h7#Kq2vLx9mP\"",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "pw := os.Getenv(\"DB_PASSWORD\")",
            "pw = PrintWriter(out)",
            "pw = 80",
            "https://example.com/product?pw=1920x1080&ph=1080",
            "\"pw\": \"1920x1080\"",
            "pw = \"en_US.UTF-8\"",
            "pw = \"DejaVuSans-Bold\"",
            "NSString *secretKey = @\"%@/secret.plist\";",
            "pw: \"<password>\"",
            "NSString *apiSecret = @\"<YOUR_API_SECRET>\";",
            "NSString *secretKey = [keychain stringForKey:@\"api\"];",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 98: a section's label whose value is a setting of its own
    /// (gsutil's boto option `Credentials:gs_service_key_file=sa.json`) is
    /// judged as that setting; a secret set inside it still fires, and a
    /// secret's own label with `=` in its value is no section.
    #[test]
    fn a_labels_value_that_is_a_setting() {
        for clean in [
            "gsutil -o \"Credentials:gs_service_key_file=sa.json\" ls gs://corvexa-ml-datasets/",
            "Credentials:gs_oauth2_refresh_token_file=token.txt",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
        for hit in [
            "gsutil -o \"Credentials:gs_oauth2_refresh_token=1//0gQx7Lm2Zt9Rw4Vb8Nc3Hd6Fs\" ls",
            "Credentials: Vq7LmZt2Rw9xKb4N=",
            "SECRET_KEY: q8_2w=7vXk9vR2mLw7TzKp4Q",
            "password: db_2024=Xk9vR2mLw7TzKp4Q",
            "api_key: key_id=Xk9vR2mLw7TzKp4QXk9vR2mL",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
    }
}
