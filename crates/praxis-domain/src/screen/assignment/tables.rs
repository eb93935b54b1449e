//! Credentials in a table's column named for them: a runbook's Markdown
//! table of systems, logins and passwords, psql's output of a tokens
//! table, a CSV export, a listing aligned with spaces, and the rows of a
//! Key/Value table.

use std::sync::LazyLock;

use super::super::normalize::leak_normalized;
use super::super::pattern::{Spans, contains_ignoring_case};
use super::super::table::{self, Cell};
use super::super::value::{
    dated, has_digit, key_words, longest_alnum_run, mixed_case, password_symbol,
};
use super::{KeyClass, key_class, literal_secret};

/// Words a header naming a credential holds, one of which opens the read;
/// matched in their normalized form, as the text is (and in each case
/// where the letters are not ASCII, as the match ignores ASCII case only).
static HEADER_WORDS: LazyLock<&'static [&'static str]> =
    LazyLock::new(|| leak_normalized(HEADER_WORD_LIST));

/// [`HEADER_WORDS`] as written.
const HEADER_WORD_LIST: &[&str] = &[
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "kennwort",
    "contrase",
    "senha",
    "mot_de",
    "пароль",
    "Пароль",
    "ПАРОЛЬ",
    "パスワード",
    "密码",
    "hasło",
    "lösenord",
    "wachtwoord",
];

/// Column names for a password in other languages (spaces as `_`),
/// normalized as the text is (lookalike Cyrillic letters folded).
static PASSWORD_NAMES: LazyLock<&'static [&'static str]> =
    LazyLock::new(|| leak_normalized(PASSWORD_NAME_LIST));

/// [`PASSWORD_NAMES`] as written.
const PASSWORD_NAME_LIST: &[&str] = &[
    "kennwort",
    "contraseña",
    "contrasena",
    "senha",
    "mot_de_passe",
    "пароль",
    "パスワード",
    "密码",
    "hasło",
    "lösenord",
    "wachtwoord",
    "pwd",
];

/// Words that make a column's values examples, rules or dates about
/// passwords rather than passwords: "Common password", "Password age",
/// "Password policy".
const ABOUT_WORDS: &[&str] = &[
    "common", "example", "sample", "weak", "leaked", "breached", "banned", "test", "policy",
    "length", "strength", "hint", "rule", "age", "last", "expiry", "expires", "changed", "rotated",
    "rotation", "reset", "name", "ref", "id", "type", "count",
];

/// Other columns whose presence makes a table one about passwords (a
/// tally, a test's expectations): `| password | count |`.
const TALLY_COLUMNS: &[&str] = &[
    "count",
    "occurrences",
    "frequency",
    "expected",
    "valid",
    "result",
    "why",
    "reason",
    "strength",
    "score",
    "rank",
    "hits",
    "entropy",
    "crack",
    "cracked",
    "erwartet",
    "ergebnis",
    "resultado",
    "esperado",
    "résultat",
    "attendu",
    "atteso",
    "esito",
    "verwacht",
    "resultaat",
];

/// The class of a column named for a credential, in English or another
/// language; none for a column about them.
fn column_class(name: &str) -> Option<KeyClass> {
    // A path names a secret kept in a store (`prod/db/password`).
    if name.contains('/') {
        return None;
    }
    let lower = name.to_lowercase();
    if PASSWORD_NAMES.iter().any(|n| n.to_lowercase() == lower) {
        return Some(KeyClass::Password);
    }
    let words = key_words(name);
    if words.iter().any(|w| ABOUT_WORDS.contains(&w.as_str())) {
        return None;
    }
    key_class(name)
}

/// The credentials in columns named for them, and in Key/Value rows.
pub(super) fn table_credentials(text: &str) -> Spans {
    let split = [b'|', b',', b';', b'\t'];
    if !text.bytes().any(|b| split.contains(&b)) && !text.contains("  ") {
        return Vec::new();
    }
    table::cells(text, &HEADER_WORDS, column_class)
        .into_iter()
        .filter(|cell| !tally(cell.header))
        .chain(table::pairs(text, &HEADER_WORDS, column_class))
        .filter(credential)
        .map(|cell| cell.span)
        .collect()
}

/// Whether a header names a column that counts or judges its passwords.
fn tally(header: &str) -> bool {
    key_words(&header.replace(['|', ',', ';', '\t', ' '], "_"))
        .iter()
        .any(|w| TALLY_COLUMNS.contains(&w.as_str()))
}

/// Whether a cell holds a credential: one word (a table's cells are
/// unquoted, so a word alone is a note), no path, no date, no number, no
/// lowercase slug (`api-token-v2`, `web-tls-2024` name secrets kept
/// elsewhere), a password with a digit or a symbol (`n/a`, `rotated`, `in
/// vault` are notes), and a literal as an assignment's value would be.
fn credential(cell: &Cell<'_, KeyClass>) -> bool {
    let v = cell.value;
    // A `/` stands in a generated value (base64) but also in a path or a
    // store's name (`prod/api-AbC123`): only where no part is a word.
    let path = v.contains('/')
        && (v.starts_with(['/', '.'])
            || v.contains("//")
            || v.split('/')
                .any(|part| part.len() >= 3 && part.bytes().all(|b| b.is_ascii_lowercase()))
            || !mixed_case(v)
            || !has_digit(v));
    let number = v
        .trim_start_matches('-')
        .bytes()
        .all(|b| b.is_ascii_digit());
    let slug = v
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'))
        && v.contains(['-', '_', '.'])
        && longest_alnum_run(v) < 16;
    let chosen = cell.tag != KeyClass::Password || has_digit(v) || password_symbol(v);
    !v.contains(char::is_whitespace)
        && !path
        && !dated(v)
        && !number
        && !slug
        && !contains_ignoring_case(v, "example")
        && chosen
        && literal_secret(cell.tag, v, false, true)
}

#[cfg(test)]
mod tests {
    use super::super::flagged;

    #[test]
    fn passwords_and_tokens_in_their_columns() {
        for hit in [
            "| System | Login | Password |\n|---|---|---|\n| Staging pfSense | admin | Otter5437-gecko |",
            "Host      User    Password\n--------  ------  --------\nnas01     admin   Kx8#pq2Lm4\n",
            " name | api_token\n------+----------------------------------\n ci   | 9f8a7c6b5d4e3f2a1b0c9d8e7f6a5b4c\n(1 row)",
            "User name,Password\nalice,Xk9#mPq2vLr\nbob,Zq8Ixx9Hp0Tgd",
            "url,username,password\nhttps://github.com,alice,Fb0Ixx9Hp0Tgd!",
            "host;user;password\ndb1;root;NcX3ZeCc%nn24+",
            "host\tuser\tpassword\ndb1\troot\tR7ZLzVAVTe2E",
            "| user | pwd |\n|---|---|\n| root | Xk9#mPq2vLr |",
            "| Benutzer | Kennwort |\n|---|---|\n| admin | Hnc4YV0nB1bEa |",
            "| 用户名 | 密码 |\n|---|---|\n| admin | CjZHX_uhb9hdxF |",
            "-[ RECORD 1 ]-------------------\nid       | 1\nusername | admin\npassword | Xul02KUiL6C%yX",
            "| Key | Value |\n|---|---|\n| DB_PASSWORD | tAUkfNI8y_Kx42 |",
            "| Username | Пароль |\n| alice | ocOF!gokqH9rED0eo_mp |",
            "логин,пароль\nalice,ocOF!gokqH9rED0eo_mp",
            "| service | x-api-key |\n|---|---|\n| svc-alice | Q8f7Kd92LmXp0aZ3RtYv1WnB6cE4hJ5s |",
            "Key         Value\n---         -----\napi_key     Q8f7Kd92LmXp0aZ3RtYv1WnB6cE4hJ5s\nowner       platform",
            "\"Account\",\"Login Name\",\"Password\",\"Web Site\"\n\"GitHub\",\"alice\",\"Xk9#mPq2Lz!w\",\"https://github.com\"",
            "| User | Password |\n|---|---|\n| admin | Xk9/mPq2Lz!w |",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "| System | Login | Password |\n|---|---|---|\n| Staging pfSense | admin | in 1Password |\n| NAS | ops | rotated |",
            "| Service | Password |\n|---|---|\n| db | see vault/db |\n| cache | ******** |\n| mq | <set at deploy> |",
            "| Setting | Secret name |\n|---|---|\n| DB | prod/db-password-2024 |",
            "Key       Value\nretries   3\ntimeout   30s\n",
            "$ gcloud secrets list\nNAME              CREATED              REPLICATION_POLICY  LOCATIONS\napi-token         2024-01-10T09:11:02  automatic           -\ndb-password       2023-11-02T13:40:55  automatic           -",
            "NAME           SECRET                  AGE\nweb            web-tls-2024            30d\nworker         worker-env-v3           2d",
            "| App | Token |\n|---|---|\n| api | api-token-v2 |\n| web | web-token-2024 |",
            "| App | Password |\n|---|---|\n| api | api-db-password-v2 |\n| web | (same as api) |",
            "| Node | Token | Status |\n|---|---|---|\n| node-1 | -1845823468945412938 | UN |",
            "| Common password | Occurrences |\n|---|---|\n| Summer2024! | 4021 |\n| Welcome1 | 3877 |",
            "| password | count |\n|---|---|\n| 123456 | 23597311 |\n| qwerty123 | 3912816 |",
            "| Test case | Password | Expected |\n|---|---|---|\n| too short | Ab1! | reject |\n| valid | Abcdefg1! | accept |",
            "name,secret_ref,updated\napi,arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/api-AbC123,2024-05-01",
            "| Password | Occurrences |\n|---|---|\n| 123456 | 23547453 |\n| password | 9545824 |\n| qwerty123 | 3912816 |",
            "| Field | Type |\n|---|---|\n| password | varchar(255) |\n| Admin_2024 | role |",
            "|  prod/db/password           |  2024-04-01T10:00:00+00:00  |",
            "| db_password | 2024-04-01T10:00:00Z |",
            "| Testfall | Passwort | Erwartet |\n|---|---|---|\n| kurz | ab1! | Fehler |\n| gültig | Abcdef12! | OK |",
            "| Password | Entropy (bits) |\n|---|---|\n| Tr0ub4dor&3 | 28 |",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
