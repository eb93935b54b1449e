//! Credentials in a table's column named for them: a runbook's Markdown
//! table of systems, logins and passwords, psql's output of a tokens
//! table, a listing aligned with spaces.

use super::super::pattern::Spans;
use super::super::table;
use super::super::value::has_digit;
use super::{KeyClass, key_class, literal_secret};

/// Words a header naming a credential holds, one of which opens the read.
const HEADER_WORDS: &[&str] = &["pass", "pwd", "secret", "token", "key"];

/// The credentials in columns named for them: one word (a table's cells
/// are unquoted, so a word alone is a note, not a password), and a
/// password with a digit or a symbol (`n/a`, `rotated`, `in vault` are
/// notes).
pub(super) fn table_credentials(text: &str) -> Spans {
    if !text.contains('|') && !text.contains("  ") && !text.contains('\t') {
        return Vec::new();
    }
    table::cells(text, HEADER_WORDS, key_class)
        .into_iter()
        .filter(|cell| {
            let v = cell.value;
            let chosen = cell.tag != KeyClass::Password
                || has_digit(v)
                || v.bytes().any(|b| b"!#$%&*+=?@^~".contains(&b));
            !v.contains(char::is_whitespace)
                && !v.contains('/')
                && chosen
                && literal_secret(cell.tag, v, false, true)
        })
        .map(|cell| cell.span)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::{Rule, scan};

    fn flagged(text: &str) -> bool {
        scan(text, false).contains(&Rule::CredentialAssignment)
    }

    #[test]
    fn passwords_and_tokens_in_their_columns() {
        for hit in [
            "| System | Login | Password |\n|---|---|---|\n| Staging pfSense | admin | Otter5437-gecko |",
            "Host      User    Password\n--------  ------  --------\nnas01     admin   Kx8#pq2Lm4\n",
            " name | api_token\n------+----------------------------------\n ci   | 9f8a7c6b5d4e3f2a1b0c9d8e7f6a5b4c\n(1 row)",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "| System | Login | Password |\n|---|---|---|\n| Staging pfSense | admin | in 1Password |\n| NAS | ops | rotated |",
            "| Service | Password |\n|---|---|\n| db | see vault/db |\n| cache | ******** |\n| mq | <set at deploy> |",
            "| Setting | Secret name |\n|---|---|\n| DB | prod/db-password-2024 |",
            "Key       Value\nretries   3\ntimeout   30s\n",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
