//! SQL `INSERT` statements read as key/value pairs: `INSERT INTO t (name,
//! api_token) VALUES ('reporting', '…')` gives `api_token` its literal as
//! surely as `api_token = '…'` would, but the column and its value stand
//! apart. The credential and session rules judge the pairs as they judge
//! their own keys.

use std::ops::Range;

use super::pattern::{contains_ignoring_case, lazy_regex};

lazy_regex!(
    /// An `INSERT` up to its first row's opening parenthesis, the table
    /// and the column list captured.
    INSERT,
    r#"(?i)\binsert\s+into\s+([\w."`\[\]]+)\s*(?:\(([^()\n]{1,500})\)\s*)?values\s*\("#
);

/// One column of an `INSERT` and its literal.
pub(super) struct Inserted<'a> {
    /// The table's name without its schema or quotes.
    pub table: &'a str,
    /// The column's name without quotes; empty where the statement names
    /// no columns.
    pub column: &'a str,
    /// The value's place in its row, from 0.
    pub position: usize,
    /// The literal's span without its quotes.
    pub value: Range<usize>,
}

/// Each column of each `INSERT` in `text` that gives a quoted literal in
/// the first row (a one-letter prefix such as SQL Server's `N'…'` aside),
/// by its name where the statement names its columns and by its place
/// alone where it does not. A bare value (a number, `NULL`, `DEFAULT`)
/// holds its column's place and gives nothing; a call (`crypt('…', …)`)
/// or anything else that does not parse ends the row.
pub(super) fn inserted(text: &str) -> Vec<Inserted<'_>> {
    let mut out = Vec::new();
    if !contains_ignoring_case(text, "insert") {
        return out;
    }
    for c in INSERT.captures_iter(text) {
        let (Some(table), Some(whole)) = (c.get(1), c.get(0)) else {
            continue;
        };
        let table = table.as_str().rsplit('.').next().map_or("", unquote);
        let values = values(text, whole.end());
        let columns: Vec<&str> = match c.get(2) {
            Some(columns) => columns.as_str().split(',').map(unquote).collect(),
            None => vec![""; values.len()],
        };
        out.extend(columns.into_iter().zip(values).enumerate().filter_map(
            |(position, (column, value))| {
                Some(Inserted {
                    table,
                    column,
                    position,
                    value: value?,
                })
            },
        ));
    }
    out
}

/// A name without the quotes or brackets SQL allows around it.
fn unquote(name: &str) -> &str {
    name.trim().trim_matches(['"', '`', '[', ']'])
}

/// The values of one row from byte `at` (just inside its parenthesis) to
/// its closing parenthesis: a quoted literal's span, or `None` for a bare
/// value.
fn values(text: &str, mut at: usize) -> Vec<Option<Range<usize>>> {
    let bytes = text.as_bytes();
    let blank = |b: &u8| b.is_ascii_whitespace();
    let bare = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_');
    let mut out = Vec::new();
    loop {
        while bytes.get(at).is_some_and(blank) {
            at += 1;
        }
        // A one-letter prefix before a literal (`N'…'`, `E'…'`).
        if bytes.get(at).is_some_and(u8::is_ascii_alphabetic) && bytes.get(at + 1) == Some(&b'\'') {
            at += 1;
        }
        let value = match bytes.get(at) {
            // MySQL takes double quotes around a literal too.
            Some(&quote @ (b'\'' | b'"')) => {
                // A quote is escaped by doubling it.
                let start = at + 1;
                let mut end = start;
                loop {
                    match bytes.get(end) {
                        Some(&b) if b == quote && bytes.get(end + 1) == Some(&quote) => end += 2,
                        Some(&b) if b == quote => break,
                        Some(b'\n') | None => return out,
                        Some(_) => end += 1,
                    }
                }
                at = end + 1;
                Some(start..end)
            }
            Some(b) if bare(b) => {
                while bytes.get(at).is_some_and(bare) {
                    at += 1;
                }
                None
            }
            _ => return out,
        };
        while bytes.get(at).is_some_and(blank) {
            at += 1;
        }
        match bytes.get(at) {
            Some(b',') => {
                out.push(value);
                at += 1;
            }
            Some(b')') => {
                out.push(value);
                return out;
            }
            _ => return out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(&str, &str)> {
        inserted(text)
            .into_iter()
            .map(|i| (i.column, &text[i.value]))
            .collect()
    }

    #[test]
    fn tables_lose_their_schema_and_quotes() {
        let tables = |text| inserted(text).iter().map(|i| i.table).collect::<Vec<_>>();
        assert_eq!(
            tables("INSERT INTO app.\"web_sessions\" (id) VALUES ('a')"),
            ["web_sessions"]
        );
        assert_eq!(
            tables("insert into [dbo].[Tokens] (k, v) values ('a', 'b')"),
            ["Tokens", "Tokens"]
        );
    }

    #[test]
    fn columns_meet_their_literals() {
        assert_eq!(
            pairs("INSERT INTO accounts (name, \"api_token\", n) VALUES ('rep''s', N'Xy9', 42);"),
            [("name", "rep''s"), ("api_token", "Xy9")]
        );
        assert_eq!(
            pairs("insert into s (a, k, b)\nvalues (\n  DEFAULT,\n  'y',\n  lower('x'))"),
            [("k", "y")]
        );
        assert!(
            pairs("INSERT INTO users (name, password) VALUES ('bob', crypt('x', gen_salt('bf')))")
                .iter()
                .all(|(column, _)| *column == "name")
        );
        assert_eq!(
            pairs("INSERT INTO t VALUES ('a', 'b')"),
            [("", "a"), ("", "b")]
        );
        assert_eq!(
            inserted("INSERT INTO t VALUES (1, 'b')")
                .iter()
                .map(|i| i.position)
                .collect::<Vec<_>>(),
            [1]
        );
        assert!(pairs("INSERT INTO t (a, b) SELECT a, b FROM u").is_empty());
        assert!(pairs("no statement here").is_empty());
    }
}
