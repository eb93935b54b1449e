//! Values: telling a real secret from a placeholder, and a generated
//! token from a word.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;

use super::pattern::{contains_ignoring_case, lazy_regex};

/// Whole values that stand for a secret rather than being one.
const PLACEHOLDER_WORDS: &[&str] = &[
    "null",
    "none",
    "nil",
    "undefined",
    "true",
    "false",
    "empty",
    "n/a",
    "na",
    "tbd",
    "todo",
    "unset",
    "notset",
    "secret",
    "password",
    "passwd",
    "pass",
    "passphrase",
    "token",
    "apikey",
    "api_key",
    "string",
    "str",
    "required",
    "optional",
    "hidden",
    "masked",
    "omitted",
    "removed",
    "dummy",
    // "password" itself, in the languages of translation files
    "passwort",
    "kennwort",
    "wachtwoord",
    "contraseña",
    "senha",
    "hasło",
    "lösenord",
    "пароль",
];

/// Fragments that mark a value as a placeholder wherever they appear.
const PLACEHOLDER_MARKERS: &[&str] = &[
    "redacted",
    "[masked]",
    "[hidden]",
    "[filtered]",
    "[removed]",
    "placeholder",
    "example",
    "***",
    "...",
    // a masked value that keeps a few characters (`ghp_••••XY12`)
    "••",
    "●●",
    // an instruction to substitute (`REPLACE_ME`, `abc-your-token`)
    "replace",
    "changeme",
    // "password" in French, as a documentation URL's placeholder.
    "motdepasse",
    "mot_de_passe",
    "change_me",
    "change-me",
    // an instruction to make one (`generate-with-openssl-rand-hex-32`)
    "generate-",
    "generate_",
    "your-",
    "your_",
    "${",
    "#{",
    "{{",
];
lazy_regex!(CONSTANT_NAME, r"^[A-Z]+(?:_[A-Z]+)+$");
/// Words of a constant's name that make it the name of a secret.
const SECRET_SEGMENTS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "KEY",
    "APIKEY",
    "PASSWORD",
    "PASSWD",
    "PWD",
    "AUTH",
    "CREDENTIAL",
    "CREDENTIALS",
    "SIGNATURE",
];
/// [`PLACEHOLDER_MARKERS`], found in one pass.
static MARKERS: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(PLACEHOLDER_MARKERS).expect("placeholder markers"));

/// Whether `value` (quotes and spaces around it ignored) is a placeholder:
/// empty, a variable or template reference, a masked or redacted marker, a
/// documentation example or a generic word.
pub(super) fn is_placeholder(value: &str) -> bool {
    let v = value.trim_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '\\'));
    // A leading `%` is a Windows variable or a format directive (`%s`,
    // `%(password)s`), not a generated password that merely starts so.
    // Symfony's `%env(NAME)%` reads an environment variable.
    let format = v.starts_with('%')
        && (v.len() <= 3 || v[1..].starts_with(['(', '{']) || v.starts_with("%env("));
    // A slot's brackets percent-encoded in a URL (`api_key=%5BFILTERED%5D`)
    // make a slot as the brackets themselves do; a password may open with
    // an encoded `{` (`%7BXk9v…`) and need not close it.
    let encoded_bracket =
        [("%5B", "%5D"), ("%3C", "%3E"), ("%7B", "%7D")]
            .iter()
            .any(|(open, close)| {
                v.len() > 6
                    && v.get(..3)
                        .is_some_and(|head| head.eq_ignore_ascii_case(open))
                    && v.get(v.len() - 3..)
                        .is_some_and(|tail| tail.eq_ignore_ascii_case(close))
            });
    if v.is_empty()
        || encoded_bracket
        || v.starts_with(['$', '<', '{', '[', '|'])
        || (v.starts_with('=') && !generated_after_sign(v))
        || (v.starts_with('(') && !generated_from_symbols(v))
        || windows_variable(v)
        || format
    {
        return true;
    }
    // Asterisks percent-encoded in a URL (`amqps://worker:%2A%2A%2A%2A@…`,
    // as a logger masks a password) are asterisks.
    if v.len() >= 6 && v.to_ascii_uppercase().split("%2A").all(str::is_empty) {
        return true;
    }
    // A vendor's prefix before a slot to fill (`dop_v1_<64 hex
    // characters>`): words and digits after the `<`, not more symbols.
    let slot = ["_<", "-<", ":<", "=<"].iter().any(|slot| {
        v.split_once(slot).is_some_and(|(_, rest)| {
            rest.trim_end_matches('>')
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'_' | b'-'))
        })
    });
    if slot {
        return true;
    }
    // A token-replacement slot (`__ApiKey__`, as release pipelines fill).
    if v.len() > 4 && v.starts_with("__") && v.ends_with("__") {
        return true;
    }
    // A YAML tag (`!vault`, `!Ref`, `!env_var`) stands for a value kept
    // elsewhere.
    if v.len() > 1
        && v.starts_with('!')
        && v[1..].bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
    {
        return true;
    }
    if v.chars().all(|c| {
        matches!(
            c,
            '*' | 'x' | 'X' | '.' | '-' | '_' | '#' | '?' | '•' | '0' | '·'
        )
    }) {
        return true;
    }
    // A vendor's prefix and a filler run of eight or more to the end
    // (`AIzaSy________…`, `ghp_xxxxxxxx…`, `sbp_00000000…`): a template's
    // slot.
    let filler = v.as_bytes().last().is_some_and(|&last| {
        matches!(last, b'_' | b'x' | b'X' | b'*' | b'.' | b'-' | b'0')
            && v.bytes().rev().take_while(|&b| b == last).count() >= 8
    });
    if filler {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    // A Vault KV engine's path (`kv/data/prod/db#password`) names a secret.
    if ["secret/data/", "kv/data/", "kv-v2/data/"]
        .iter()
        .any(|p| v.starts_with(p))
    {
        return true;
    }
    // A constant's name in the value's place (`#access_token=ACCESS_TOKEN`,
    // as a provider's docs write it) names the secret.
    if CONSTANT_NAME.is_match(v) && v.split('_').any(|w| SECRET_SEGMENTS.contains(&w)) {
        return true;
    }
    // Documentation's `myPassword`, `mySecretKey`, `mypassword`: "my" and
    // a capitalised name, letters only, or "my" and a secret's name.
    let my_name = v.len() > 3
        && v.starts_with("my")
        && v.bytes().all(|b| b.is_ascii_alphabetic())
        && (v.as_bytes()[2].is_ascii_uppercase()
            || ["password", "pass", "secret", "token", "key", "apikey"].contains(&&lower[2..]));
    my_name
        || written_out(v)
        || PLACEHOLDER_WORDS.contains(&lower.as_str())
        || MARKERS.is_match(&lower)
        // A filler run (`xxxx`, `xXxX`), unless a long and varied value
        // holds a short one by chance (`…N-BxxxXdq8eOrZb7…`); `XXXX` is a
        // mask's, wherever it stands.
        || v.contains("XXXX")
        || (lower.contains("xxxx")
            && (v.len() < 60 || distinct_chars(v) < 30 || lower.contains("xxxxxx")))
        || angle_slot(v)
        || lower.starts_with("your")
        || your_abroad(v)
        // `my_api_key`, `my_Django_Secret_Key_123`; a generated body may
        // open so by chance (a Discord token's `My_SqIq6_yV_ltoJ88Fw…`),
        // and then holds a long run of letters and digits in mixed case.
        || ((lower.starts_with("my-") || lower.starts_with("my_"))
            && !v
                .split(['_', '-'])
                .any(|run| run.len() >= 12 && has_digit(run) && mixed_case(run)))
        || ends_with_here(v)
        // A sample's body (`sk-abc123`, `token_123abc`): typed to show a
        // shape, never generated.
        || lower.ends_with("abc123")
        || lower.ends_with("123abc")
        || matches!(
            lower.as_str(),
            "changeit"
                | "secret123"
                | "password123"
                | "hunter2"
                // Documented defaults: the postgres image's, Redis's, Oracle's
                // `scott`/`tiger`.
                | "mysecretpassword"
                | "foobared"
                | "tiger"
        )
}

/// Whether a value is a name that says "your …" in French, Spanish,
/// Portuguese, Italian or German (`VOTRE_CLE`, `tu_clave`, `DEIN-TOKEN`):
/// the word, a separator, then letters in one case throughout, as names
/// are written and generated values seldom are.
fn your_abroad(v: &str) -> bool {
    let one_case = |b: &[u8]| {
        b.iter()
            .all(|b| b.is_ascii_uppercase() || matches!(b, b'_' | b'-'))
            || b.iter()
                .all(|b| b.is_ascii_lowercase() || matches!(b, b'_' | b'-'))
    };
    let lower = v.to_ascii_lowercase();
    one_case(v.as_bytes())
        && [
            "votre", "ton", "ta", "tu", "su", "sua", "seu", "tuo", "tua", "la_tua", "il_tuo",
            "dein", "deine", "ihr", "ihre",
        ]
        .iter()
        .any(|word| {
            lower
                .strip_prefix(word)
                .and_then(|rest| rest.strip_prefix(['_', '-']))
                .is_some_and(|name| name.len() >= 3)
        })
}

/// Whether `s` is a UUID (8-4-4-4-12 hexadecimal digits).
pub(super) fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.iter().map(|g| g.len()).eq([8, 4, 4, 4, 12])
        && groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Whether `v` holds a symbol that chosen passwords take and names, paths
/// and slugs do not.
pub(super) fn password_symbol(v: &str) -> bool {
    v.bytes().any(|b| b"!#$%&*+=?@^~".contains(&b))
}

/// Whether a value of twelve characters or more mostly counts up
/// (`abcdef.0123456789abcdef`, kubeadm's documented token, Telegram's
/// `123456789:ABCdefGhIJKlmNoPQRsTUVwxyZ`), letters in either case: three
/// pairs in four one apart, where random text has one in thirty.
pub(super) fn written_out(v: &str) -> bool {
    let steps = v
        .as_bytes()
        .windows(2)
        .filter(|w| w[1].to_ascii_lowercase() == w[0].to_ascii_lowercase().wrapping_add(1))
        .count();
    v.len() >= 12 && steps * 4 >= (v.len() - 1) * 3
}

/// Whether a value holds a slot in angle brackets (`sk-<redacted>`,
/// `<YOUR_KEY>`, cut short as `key-<your`), or ends in one's close: words,
/// not the `<` or `>` a generated password may hold.
fn angle_slot(v: &str) -> bool {
    v.ends_with('>')
        || v.match_indices('<').any(|(at, _)| {
            let inside = &v[at + 1..];
            match inside.find('>') {
                Some(close) => {
                    close > 0
                        && inside[..close].bytes().all(|b| {
                            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b' ')
                        })
                }
                // A slot cut short by a space (`key-<your private key>`).
                None => {
                    inside.len() > 1 && inside.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
                }
            }
        })
}

/// Whether a value ends in "here" as an instruction does (`TOKEN_HERE`,
/// `puttokenhere`), not as a generated token's last letters may
/// (`…TnHERe`): after a separator, or after letters of one case.
fn ends_with_here(v: &str) -> bool {
    let Some(head) = v.len().checked_sub(4).and_then(|at| v.get(..at)) else {
        return false;
    };
    v[head.len()..].eq_ignore_ascii_case("here")
        && (head.is_empty()
            || head.ends_with(['_', '-', '.', ' '])
            || head.bytes().all(|b| b.is_ascii_lowercase())
            || head.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
}

/// Whether a value refers to a variable rather than holding a secret:
/// `$NAME`, `${…}`, `%NAME%` (Windows), `$(…)`.
pub(super) fn refers(v: &str) -> bool {
    v.starts_with('$') || windows_variable(v) || v.contains("$(")
}

/// `%NAME%`: a Windows variable, or TeamCity's `%env.NAME%` parameter (a
/// bare leading `%` is just a character, and `%2B…%3D` is
/// percent-encoding: no variable name starts with a digit).
fn windows_variable(v: &str) -> bool {
    v.strip_prefix('%').is_some_and(|rest| {
        rest.split_once('%').is_some_and(|(name, _)| {
            // A short name in mixed case is written in CamelCase
            // (`%OsId%`); `%_zG%…` opens a generated password.
            let mixed = name.bytes().any(|b| b.is_ascii_lowercase())
                && name.bytes().any(|b| b.is_ascii_uppercase());
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && (!mixed || name.len() > 4 || name.starts_with(|c: char| c.is_ascii_uppercase()))
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        })
    })
}

pub(super) fn distinct_chars(s: &str) -> usize {
    let mut ascii = 0u128;
    let mut other: Vec<char> = Vec::new();
    for c in s.chars() {
        if c.is_ascii() {
            ascii |= 1 << (c as u32);
        } else if !other.contains(&c) {
            other.push(c);
        }
    }
    ascii.count_ones() as usize + other.len()
}

/// Whether a token body looks generated: long enough, not a placeholder,
/// and made of enough distinct characters.
pub(super) fn random_like(body: &str, min_len: usize) -> bool {
    body.len() >= min_len && !is_placeholder(body) && distinct_chars(body) >= 6
}

/// Whether letters drawn at random could have made `s`: under 35% vowels,
/// where words run to 40% and more (`thisisnotarealsessionkey`,
/// `YourVaultTokenGoesHere`).
pub(super) fn few_vowels(s: &str) -> bool {
    let vowels = s.bytes().filter(|b| b"aeiouAEIOU".contains(b)).count();
    vowels * 100 < s.len() * 35
}

/// Whether `s` walks a keyboard's row (`qwerty`, `asdfgh`, `zxcvbn`, a
/// German or French row's start): typed to fill a field, not generated.
pub(super) fn keyboard_walk(s: &str) -> bool {
    [
        "qwert", "asdfg", "zxcvb", "yxcvb", "azert", "wxcvb", "poiuy", "lkjhg", "mnbvc",
    ]
    .iter()
    .any(|row| contains_ignoring_case(s, row))
}

/// Whether `v` is a HashiCorp Vault token: its type's prefix (`hvs.`,
/// `hvb.`, the older `s.` and `b.`) and a body of 24 letters and digits
/// or more in mixed case, generated: a digit, or few vowels where there is
/// none (`s.YourVaultTokenGoesHereNow` is words).
pub(super) fn vault_token(v: &str) -> bool {
    let Some(body) = ["hvs.", "hvb.", "s.", "b."]
        .iter()
        .find_map(|p| v.strip_prefix(p))
    else {
        return false;
    };
    body.len() >= 24
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
        && mixed_case(body)
        && (has_digit(body) || few_vowels(body))
        && random_like(body, 24)
        && !keyboard_walk(body)
        && !counts_up(body)
}

/// Whether `s` counts up more than a generated value would: six or more
/// neighbours one apart (`0123456789abc…`, `123e4567-e89b-…`), a sample
/// or an alphabet written out rather than a secret.
pub(super) fn counts_up(s: &str) -> bool {
    s.as_bytes()
        .windows(2)
        .filter(|w| w[1] == w[0].wrapping_add(1))
        .count()
        >= 6
}

/// The length of the run of base64 characters that ends `s`: a key
/// block's body where a match of it stops.
pub(super) fn base64_tail(s: &str) -> usize {
    s.bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        .count()
}

/// Whether a value is a Twilio resource SID: two capitals and 32 hex
/// digits (`AC…`, `SM…`), an id, not a secret.
pub(super) fn twilio_sid(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() == 34
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2..].iter().all(u8::is_ascii_hexdigit)
}

/// Whether `s` opens with a date (`2024-04-01…`, `20240501T…`): a date or
/// a timestamp, not a generated value.
pub(super) fn dated(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && (b[4] == b'-' || b[4..8].iter().all(u8::is_ascii_digit))
}

/// Whether `v`, which opens with a sign (`=`), is a password a generator
/// drew from symbols too (`=-P0DdIPHYHSAoS`), not a formula, a pin or a
/// reference after one (`=SUM(A1)`, `==1.4.2`, `=${X}`): ten characters
/// or more after the sign, in both cases and with a digit (or two
/// symbols no name takes), none of them a bracket, a space, a `$` or
/// another sign.
fn generated_after_sign(v: &str) -> bool {
    let rest = &v[1..];
    // Symbols no name takes stand in for digits (`=uzS#-+uSg&a@`).
    let symbols = rest.bytes().filter(|b| b"!#%&*+?@^~".contains(b)).count();
    rest.len() >= 10
        && rest.bytes().any(|b| b.is_ascii_uppercase())
        && rest.bytes().any(|b| b.is_ascii_lowercase())
        && (has_digit(rest) || symbols >= 2)
        // Padding may close it (`==HIP3VVxRiYJ=`); an `=` inside is
        // another assignment.
        && !rest
            .trim_end_matches('=')
            .contains([' ', '$', '=', '(', ')', '{', '}', '[', ']', '<', '>'])
        && distinct_chars(rest) >= 8
}

/// Whether `v`, which opens with a parenthesis, is a key drawn from
/// letters, digits and symbols (Django's `'(htw4e@)fi82…'`), not a note in
/// parentheses (`(none)`, `(set in vault)`) or an expression
/// (`(os.environ['KEY'])`, `(load_key_2024)`): long, unspaced, with a
/// digit and a symbol no identifier takes, no member access, index or
/// quote, and many distinct characters.
fn generated_from_symbols(v: &str) -> bool {
    v.len() >= 32
        && has_digit(v)
        && password_symbol(v)
        && !v.contains([' ', '.', '[', '\'', '"'])
        && distinct_chars(v) >= 16
}

pub(super) fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}

pub(super) fn has_letter(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Whether most of a value's letters stand in lowercase runs of four or
/// more: words joined in camel case (`OrderCreatedV2Handler`,
/// `ProdNetworkingStackV2TerraformState`), which a generated value seldom
/// is.
pub(super) fn wordy(s: &str) -> bool {
    let mut in_words = 0;
    let mut run = 0;
    for b in s.bytes().chain(std::iter::once(b' ')) {
        if b.is_ascii_lowercase() {
            run += 1;
        } else {
            if run >= 4 {
                in_words += run;
            }
            run = 0;
        }
    }
    in_words * 2 >= s.len()
}

/// Longest run of ASCII letters and digits.
pub(super) fn longest_alnum_run(s: &str) -> usize {
    s.split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// A word of prose rather than a secret: letters only, and capital letters
/// at most at the start (`incorrect`, `Expired`), or several such words.
pub(super) fn word_like(v: &str) -> bool {
    !v.is_empty()
        && v.split([' ', '-']).all(|w| {
            let mut chars = w.chars();
            chars.next().is_none_or(char::is_alphabetic)
                && chars.all(|c| c.is_alphabetic() && !c.is_uppercase())
        })
}

/// Whether `v` is a passphrase of four or more drawn words joined by
/// dashes and nothing else (`glacier-meadow-saffron-ember`): each word of
/// four to nine small letters, as a slug's "the", "of" or "to" is not.
/// Read only where a key or a flag names a password, since
/// [`word_like`] takes it for words.
pub(super) fn drawn_words(v: &str) -> bool {
    let parts: Vec<&str> = v.split('-').collect();
    parts.len() >= 4
        && parts
            .iter()
            .all(|p| (4..=9).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_lowercase()))
        && !is_placeholder(v)
}

/// Capitals after the first character and lowercase letters too: how a
/// generated value looks, unlike a word or a constant's name.
pub(super) fn mixed_case(v: &str) -> bool {
    v.chars().skip(1).any(char::is_uppercase) && v.chars().any(char::is_lowercase)
}

/// Lowercase words of an identifier: split at `_`, `-`, `.` and camelCase.
pub(super) fn key_words(key: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in key.chars() {
        if matches!(c, '_' | '-' | '.' | ' ') {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::{drawn_words, is_placeholder, written_out};

    /// Held-out 72: a generated password may open with `=`; a formula, a
    /// version pin or a reference after one is no value.
    #[test]
    fn a_sign_opens_formulas_and_pins_but_also_generated_passwords() {
        assert!(!is_placeholder("=-P0DdIPHYHSAoS"));
        assert!(!is_placeholder("=bP.yaxh6ZGC.IB12"));
        for v in ["=SUM(A1:B2)", "==1.4.2", "=${DB_PASSWORD}", "=", "=abc"] {
            assert!(is_placeholder(v), "{v}");
        }
    }

    /// Held-out 100: a slot's bracket percent-encoded in a URL is a
    /// slot's; a value that merely holds an encoded bracket later is not.
    #[test]
    fn an_encoded_bracket_opens_a_slot() {
        for v in ["%5BFILTERED%5D", "%3Credacted%3E", "%7bAPI_KEY%7d"] {
            assert!(is_placeholder(v), "{v}");
        }
        assert!(!is_placeholder("Xq7%5Bv2Lp9sT4w"));
        assert!(!is_placeholder("%7BXk9vR2mLw7TzKp4Q"));
        assert!(!is_placeholder("%5Bq8Xz2Lm9Rt7Vw4Pk"));
    }

    /// Held-out 100: "your key" in another language names the slot; a
    /// generated value that opens with such letters is none.
    #[test]
    fn your_key_abroad_is_a_slot() {
        for v in [
            "VOTRE_CLE",
            "tu_clave_api",
            "SUA_CHAVE",
            "dein-token",
            "la_tua_chiave",
        ] {
            assert!(is_placeholder(v), "{v}");
        }
        for v in [
            "tu_8fKq2LmZ9xW",
            "TonyStark42!",
            "su_x9",
            "Ihr_QwErTyUiOpAsDfGhJk",
            "Su-hGfKqWmZpLrTxVbNcYdQe_kLmNoPq",
        ] {
            assert!(!is_placeholder(v), "{v}");
        }
    }

    /// A vendor's prefix and zeros to the end is a template's slot.
    #[test]
    fn a_prefix_and_zeros_is_a_slot() {
        assert!(is_placeholder(
            "sbp_0000000000000000000000000000000000000000"
        ));
        assert!(!is_placeholder(
            "sbp_7f3a9c0d2e4b6a8c1d3f5e7a9b0c2d4e6f8a0b00"
        ));
    }

    /// Held-out 67: a key drawn from symbols may open with a parenthesis
    /// (Django's generated `SECRET_KEY`); a note or an expression in
    /// parentheses is no value.
    #[test]
    fn parentheses_open_notes_and_expressions_but_also_generated_keys() {
        assert!(!is_placeholder(
            "'(htw4e@)fi82qxjt2e*p6135%#ckg+v702-3o2fpfxh^jmru)o'"
        ));
        for placeholder in [
            "(none)",
            "'(set in the vault, ask ops)'",
            "(os.environ['SECRET_KEY_2024_PRIMARY'])",
            "(process.env.SECRET_KEY_V2||'')",
            "(redacted)",
        ] {
            assert!(is_placeholder(placeholder), "{placeholder}");
        }
    }

    #[test]
    fn values_that_count_up_are_written_out() {
        assert!(written_out("abcdef.0123456789abcdef"));
        assert!(written_out("0123456789abcdefghij"));
        assert!(!written_out("Junip3r+845Qn3"));
        assert!(!written_out("ab12cd.0123456789f3k9xq"));
        assert!(!written_out("0123456789"));
        // Letters count up in either case, and a value written out is a
        // placeholder (held-out 64's documentation samples).
        assert!(written_out("123456789:ABCdefGhIJKlmNoPQRsTUVwxyZ"));
        assert!(is_placeholder("ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"));
        assert!(!is_placeholder("ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf"));
    }

    /// Held-out 71: a sample's `abc123` body is typed to show a shape.
    #[test]
    fn sample_bodies_are_placeholders() {
        assert!(is_placeholder("sk-abc123"));
        assert!(is_placeholder("token_123ABC"));
        assert!(!is_placeholder("sk-abc123Xq2Lm9Rw4Tz8Vb7Nc1Pd5"));
    }

    #[test]
    fn filler_runs_are_template_slots() {
        assert!(is_placeholder("AIzaSy__________________________________"));
        assert!(is_placeholder("ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
        assert!(!is_placeholder("ghp_Xq2Lm9Rw4Tz8Vb7Nc1Pd5Hs3Kf6Jy0AbCdEf"));
        assert!(!is_placeholder("Zq8-wR2m!Lx"));
        assert!(!is_placeholder("Summer2024________!"));
        assert!(!is_placeholder("acct_00000000417_Zk9Lm2Qw"));
        // A filler run is in one case; a random body's `xxxX` is chance.
        assert!(is_placeholder("sk-XXXXXXXXXXXXXXXXXXXXXXXX"));
        assert!(is_placeholder(
            "sk-proj-xXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxXxX"
        ));
        assert!(is_placeholder(
            "sk-proj-XXXX6GqqIaORJr8EQMbqlbzddjOWJOT3BlbkFJyFkksY4vdxUBPbzYV5rxMKOYPigNwtX0WGBq"
        ));
        assert!(!is_placeholder(
            "t8nOK-gsBQg-GqY7QBlkAMtlAfDD9ec2U4r0FRY8nnFVZenJNkiRYrxhUDDpoUf6_Af2cHhlriT3BlbkFJer3BOXywo2p7VQpcm_N-BxxxXdq8eOrZb7"
        ));
    }

    /// Held-out 77: asterisks percent-encoded, as a logger masks a URL's
    /// password, are a mask; a password that holds one is not.
    #[test]
    fn percent_encoded_asterisks_are_a_mask() {
        assert!(is_placeholder("%2A%2A%2A%2A"));
        assert!(is_placeholder("%2a%2a%2a%2a%2a%2a"));
        assert!(!is_placeholder("Kx7%2AmQ2pLw"));
    }

    /// Held-out 76: four drawn words are a passphrase; a slug with a short
    /// word, or three words, is a name.
    #[test]
    fn drawn_words_make_a_passphrase() {
        assert!(drawn_words("glacier-meadow-saffron-ember"));
        assert!(!drawn_words("read-from-the-vault"));
        assert!(!drawn_words("blue-green-deploy"));
        assert!(!drawn_words("Glacier-Meadow-Saffron-Ember"));
    }

    /// Held-out 81: the word for the secret as a whole value names it
    /// (`password=passphrase`, a call's argument); a value that holds it
    /// is not one.
    #[test]
    fn the_secret_s_own_word_is_a_placeholder() {
        assert!(is_placeholder("passphrase"));
        assert!(is_placeholder("Passphrase"));
        assert!(!is_placeholder("passphrase-Kx7mQ2pLw"));
        assert!(is_placeholder("dop_v1_<64"));
        assert!(is_placeholder("sk_live_<your-key>"));
        assert!(!is_placeholder(
            "Mv&0Bp4xmnBSJ*^xOE6F_<YQI2|j6EjIg#N<fgPk6s"
        ));
        assert!(is_placeholder("%SystemRoot%\\secrets.txt"));
        assert!(is_placeholder("%DB_PASSWORD%"));
        assert!(!is_placeholder("%_zG%JW2S4!nbU"));
    }
}
