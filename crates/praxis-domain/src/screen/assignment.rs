//! Generic credential assignments: a literal value given to a password,
//! secret, token or API key, in code, configuration or a command line.

use super::pattern::{any_candidate, any_group, lazy_regex};
use super::value::{
    distinct_chars, has_digit, is_placeholder, key_words, mixed_case, random_like, word_like,
};

lazy_regex!(
    ASSIGNMENT,
    r#"(?:^|[^A-Za-z0-9_.-])(?:\\?["'`])?(_?(?:[A-Za-z][A-Za-z0-9_.-]{0,60})?(?i:pass(?:word|wd|phrase)?|pwd|secret|token|key(?:[_-]?base)?|credentials?|auth))(?:\\?["'`])?([ \t]*)(:=|=>|=|:)([ \t]*)(\\"[^"\\\n]*\\"|"[^"\n]*"|'[^'\n]*'|`[^`\n]*`|[^\s"'`,;&)}\]]+)"#
);
lazy_regex!(FLAG, r"(?i)(?:^|\s)--?([a-z][a-z0-9_-]*)[ \t]+([^\s-]\S*)");
lazy_regex!(
    AUTHORIZATION,
    r#"(?i)\b(?:proxy-)?authorization\\?["']?\s*[:=]\s*\\?["']?(?:bearer|token|basic|digest|apikey|sso-key)\s+([^\s"'\\,;]+)"#
);
lazy_regex!(BEARER, r"\b[Bb]earer\s+([A-Za-z0-9._~+/-]{20,}=*)");
lazy_regex!(
    CURL_USER,
    r#"(?i)\bcurl\b[^\n|;]*?\s(?:-u|--user)(?:\s+|=)?['"]?[^\s:'"]+:([^\s'"@]+)"#
);
lazy_regex!(
    MYSQL_PASSWORD,
    r#"(?i)\bmysql(?:dump|admin|sh|import|slap)?\b[^\n|;]*?\s-p([^\s'"-][^\s'"]*|'[^']+'|"[^"]+")"#
);
lazy_regex!(DOTTED_IDENTIFIER, r"^[A-Za-z_]+(?:\.[A-Za-z_]+)+$");
lazy_regex!(
    KEY_VALUE_ATTRIBUTES,
    r#"(?i)\b(?:key|name)\s*=\s*["']([A-Za-z0-9_.:-]+)["']\s+value\s*=\s*["']([^"'\n]*)["']"#
);
lazy_regex!(
    GH_SECRET_BODY,
    r#"(?i)\bgh\s+secret\s+set\b[^\n|;]*?\s(?:--body|-b)(?:\s+|=)["']?([^\s"']+)"#
);
lazy_regex!(SPEC_VALUE, r"^[A-Za-z_]+=");
lazy_regex!(
    /// Passwords handed to a command on its command line or standard input.
    CLI_PASSWORD,
    r#"(?i)\becho\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s|]+))\s*\|\s*(?:sudo\s+(?:-\w+\s+)*-S\b|chpasswd\b|passwd\s+--stdin\b)|\bsudo\s+(?:-\w+\s+)*-S\b[^\n|;]*<<<\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\bssh-keygen\b[^\n|;]*?\s-N\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|-pass(?:in|out)?\s+pass:(\S+)|\bsshpass\s+-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\b7z\b[^\n|;]*\s-p([^\s'"]+)|\bzip\b[^\n|;]*\s-P\s+(\S+)|\bredis-cli\b[^\n|;]*?\s-a\s+(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))"#
);
lazy_regex!(CONSTANT_IDENTIFIER, r"^[A-Za-z]+(?:_[A-Za-z]+)+$");

#[derive(Clone, Copy, PartialEq, Eq)]
enum KeyClass {
    /// Passwords can be short and made of words.
    Password,
    /// Secrets, tokens and API keys are long and not words.
    Secret,
    /// A base64 `user:password` (`.npmrc` `_auth`, Docker `auth`).
    Basic,
}

/// Key words whose tokens are not credentials: pagination cursors, CSRF
/// and cancellation tokens.
const HARMLESS_TOKEN_WORDS: &[&str] = &[
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
    "token",
    "credential",
    "credentials",
];

fn key_class(key: &str) -> Option<KeyClass> {
    let bare = key.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    if bare.eq_ignore_ascii_case("_auth") || bare.eq_ignore_ascii_case("auth") {
        return Some(KeyClass::Basic);
    }
    let words = key_words(bare);
    let joined: String = words.concat();
    if joined.ends_with("password")
        || joined.ends_with("passwd")
        || joined.ends_with("passphrase")
        || (words.len() > 1 && words.last().is_some_and(|w| w == "pwd" || w == "pass"))
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

/// Type names and annotations that follow a key in schemas and code.
fn is_type_name(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "int" | "bool" | "boolean" | "number" | "bytes" | "secretstr" | "text" | "any" | "object"
    ) || lower.starts_with("optional[")
        || lower.starts_with("secret[")
}

/// Whether the value assigned to a key of `class` is a literal secret.
/// `quoted` values are literals for sure; unquoted ones may be code
/// (`os.environ[...]`, `config.token`, `DB_PASSWORD`) or prose after a colon.
fn literal_secret(class: KeyClass, raw: &str, quoted: bool, colon: bool) -> bool {
    let v = raw.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '\\'));
    if is_placeholder(v) || is_type_name(v) {
        return false;
    }
    if !quoted
        && (v.contains(['(', '['])
            || DOTTED_IDENTIFIER.is_match(v)
            || CONSTANT_IDENTIFIER.is_match(v))
    {
        return false;
    }
    match class {
        KeyClass::Password => v.chars().count() >= 4 && (quoted || !colon || !word_like(v)),
        KeyClass::Secret => {
            v.len() >= 8
                && !v.contains(char::is_whitespace)
                && !word_like(v)
                && (has_digit(v) || v.chars().any(|c| !c.is_alphanumeric()) || mixed_case(v))
        }
        KeyClass::Basic => {
            v.len() >= 16
                && v.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                && random_like(v, 16)
        }
    }
}

pub(super) fn assignment(text: &str) -> bool {
    any_candidate(&ASSIGNMENT, text, |c| {
        let Some(class) = key_class(&c[1]) else {
            return false;
        };
        let (before, separator, after, value) = (&c[2], &c[3], &c[4], &c[5]);
        // In a shell, `KEY= command` assigns the empty string.
        if separator == "=" && before.is_empty() && !after.is_empty() {
            return false;
        }
        let quoted = value.starts_with(['"', '\'', '`', '\\']);
        literal_secret(class, value, quoted, separator == ":")
    }) || FLAG.captures_iter(text).any(|c| {
        // `--secret id=npmrc,src=…` (Docker) names a secret, it does not hold one.
        !SPEC_VALUE.is_match(&c[2])
            && key_class(&c[1]).is_some_and(|class| {
                literal_secret(class, &c[2], c[2].starts_with(['"', '\'']), false)
            })
    }) || any_group(&CLI_PASSWORD, text, |v| v.len() >= 3 && !is_placeholder(v))
        || any_group(&AUTHORIZATION, text, |v| {
            v.len() >= 8 && !is_placeholder(v) && distinct_chars(v) >= 6 && !word_like(v)
        })
        || any_group(&BEARER, text, |v| {
            !is_placeholder(v) && has_digit(v) && distinct_chars(v) >= 8
        })
        || any_group(&CURL_USER, text, |v| v.len() >= 3 && !is_placeholder(v))
        || KEY_VALUE_ATTRIBUTES.captures_iter(text).any(|c| {
            key_class(&c[1]).is_some_and(|class| literal_secret(class, &c[2], true, false))
        })
        || any_group(&GH_SECRET_BODY, text, |v| {
            v.len() >= 8 && !is_placeholder(v)
        })
        || any_group(&MYSQL_PASSWORD, text, |v| {
            let v = v.trim_matches(['\'', '"']);
            v.len() >= 3 && !is_placeholder(v)
        })
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    #[test]
    fn assignments_distinguish_literals_from_references() {
        for hit in [
            "DB_PASSWORD=h4rd2guess",
            r#"{"password": "letmein"}"#,
            "client_secret: 9fK2mQ7xLp4Rt8Vz",
            "Authorization: Bearer 8f2Kq9Lm4Xz7Rt1Vb6Nw",
            "curl -u deploy:Tr0ub4dor https://ci.internal",
            "mysql -uroot -pS3cretRoot db",
            "--api-key 4c9a7e1f2b8d3c6a",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "password=${DB_PASSWORD}",
            "password: <redacted>",
            "token: ***",
            "api_key = os.environ[\"API_KEY\"]",
            "password: incorrect",
            "next_page_token=CiAKGjBpNDd2Nmp2",
            "max_tokens: 4096",
            "password = settings.DB_PASSWORD",
            "token: ${{ secrets.GITHUB_TOKEN }}",
            "Authorization: Bearer $TOKEN",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }
}
