//! Tables read as columns: a header row names what each column holds, and
//! the cells under a column named for a secret or a session hold one, as
//! surely as `password = …` would. Three layouts: cells split by `|`
//! (psql's output, a Markdown table), by commas (a CSV export, such as a
//! cloud console's credentials file) and aligned with runs of spaces (a
//! manager's listing, a pasted report).

use std::ops::Range;

use super::pattern::{contains_any_ignoring_case, contains_ignoring_case, lazy_regex};

/// A cell under a named column.
pub(super) struct Cell<'t, T> {
    /// What the column's name said, as `named` gave it.
    pub tag: T,
    /// The cell's value, trimmed.
    pub value: &'t str,
    /// The value's span in the text.
    pub span: Range<usize>,
    /// The header row the column was named in (a Key/Value row's own
    /// line).
    pub header: &'t str,
}

/// How many rows under a header are read.
const ROWS: usize = 16;

/// The cells under each column that `named` picks from a header row
/// holding one of `words` (a cheap test before the header is split): from
/// tables split by `|`, commas, semicolons or tabs, and from tables
/// aligned with spaces.
///
/// `named` sees a header cell's name with its spaces turned to `_`
/// (`API key` as `API_key`), so that it reads as a key would.
pub(super) fn cells<'t, T: Copy>(
    text: &'t str,
    words: &[&str],
    named: impl Fn(&str) -> Option<T>,
) -> Vec<Cell<'t, T>> {
    let mut out = Vec::new();
    if !contains_any_ignoring_case(text, words) {
        return out;
    }
    let lines = lines(text);
    for (i, &(_, header)) in lines.iter().enumerate() {
        if !contains_any_ignoring_case(header, words) || inside_table(&lines, i) {
            continue;
        }
        match [',', ';', '\t'].into_iter().find(|&c| header.contains(c)) {
            _ if header.contains('|') => split(&lines, i, '|', &named, &mut out),
            // Tabs align columns as often as they split them.
            Some('\t') if header.contains("  ") => aligned(&lines, i, &named, &mut out),
            Some(separator) => split(&lines, i, separator, &named, &mut out),
            None => aligned(&lines, i, &named, &mut out),
        }
    }
    out
}

/// The values of rows that pair a name with its value, whose first cell
/// `named` picks: two-cell rows split by `|` (a Key/Value table's `|
/// DB_PASSWORD | … |`, psql's expanded `password | …`), and any row of a
/// table headed `Name | Value` or `Key  Value` (a cookie table, Vault's
/// aligned output), the value in its second cell.
pub(super) fn pairs<'t, T: Copy>(
    text: &'t str,
    words: &[&str],
    named: impl Fn(&str) -> Option<T>,
) -> Vec<Cell<'t, T>> {
    let mut out = Vec::new();
    if !contains_any_ignoring_case(text, words) {
        return out;
    }
    let headed = NAME_VALUE_HEADER.is_match(text);
    if !headed && !text.contains('|') {
        return out;
    }
    for (start, line) in lines(text) {
        let line = line.trim_end_matches('\r');
        let cells: Vec<(usize, &str)> = if line.contains('|') {
            line.split('|')
                .scan(start, |at, cell| {
                    let from = *at;
                    *at += cell.len() + 1;
                    Some((from, cell))
                })
                .filter(|(_, cell)| !cell.trim().is_empty())
                .collect()
        } else if headed {
            header_cells(line)
                .into_iter()
                .map(|(at, cell)| (start + at, cell))
                .collect()
        } else {
            continue;
        };
        if cells.len() < 2 || (cells.len() > 2 && !headed) {
            continue;
        }
        let (key, (at, value)) = (cells[0].1, cells[1]);
        let Some(tag) = words
            .iter()
            .any(|w| contains_ignoring_case(key, w))
            .then(|| cell_name(key).and_then(|name| named(&name)))
            .flatten()
        else {
            continue;
        };
        let trimmed = value.trim();
        let from = at + value.len() - value.trim_start().len();
        out.push(Cell {
            tag,
            value: trimmed,
            span: from..from + trimmed.len(),
            header: line,
        });
    }
    out
}

lazy_regex!(
    /// A table headed by a name and its value.
    NAME_VALUE_HEADER,
    r"(?im)^[ \t|]*(?:name|key|cookie|variable|setting|field|parameter)[ \t]*(?:\||[ \t]{2,})[ \t]*value\b"
);

/// Whether line `i` continues a table begun above it: the line before is
/// a row (cells split as this line's are, or aligned), not a rule. A data
/// row whose first cell says `password` is no header.
fn inside_table(lines: &[(usize, &str)], i: usize) -> bool {
    let Some(&(_, above)) = i.checked_sub(1).and_then(|k| lines.get(k)) else {
        return false;
    };
    let line = lines[i].1;
    if ruled(above) {
        // Under a rule, the first row of a table whose header is above
        // the rule: as many cells as it. A title box's one cell (the AWS
        // CLI's) heads nothing.
        let Some(&(_, header)) = i.checked_sub(2).and_then(|k| lines.get(k)) else {
            return false;
        };
        let width = |l: &str| l.split('|').filter(|c| !c.trim().is_empty()).count();
        return line.contains('|') && header.contains('|') && width(line) == width(header);
    }
    let split = ['|', ',', ';', '\t']
        .into_iter()
        .any(|c| line.contains(c) && above.contains(c));
    split || (header_cells(line).len() >= 2 && header_cells(above).len() >= 2)
}

/// Each line of `text` with its byte offset.
fn lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        out.push((at, line));
        at += line.len() + 1;
    }
    out
}

/// Whether `line` only rules a header off (`---+---`, `|---|:--|`).
fn ruled(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty()
        && line.contains('-')
        && line
            .bytes()
            .all(|b| matches!(b, b'-' | b'+' | b'|' | b' ' | b':' | b'=' | b'\r'))
}

/// The name a header cell gives, spaces turned to `_` and a CSV's quotes
/// dropped; none for an empty cell, one of more than three words (a
/// sentence, not a name), or one that holds what no column's name does: a
/// digit (a row's value, `worker-2x9k`), a colon (`Secret:  …` labels its
/// value), backquotes or `=` (code).
fn cell_name(cell: &str) -> Option<String> {
    let cell = cell.trim().trim_matches('"');
    let words = cell.split_whitespace().count();
    let name = cell
        .chars()
        .all(|c| c.is_alphabetic() || matches!(c, ' ' | '_' | '-' | '#' | '.' | '/'));
    (!cell.is_empty() && words <= 3 && name)
        .then(|| cell.split_whitespace().collect::<Vec<_>>().join("_"))
}

/// Whether an aligned header's cell is a lowercase slug (`api-token`), a
/// row's value rather than a column's name.
fn slug(cell: &str) -> bool {
    cell.contains('-') && !cell.chars().any(char::is_uppercase)
}

/// Cells under the named column of a table split by `separator` whose
/// header is line `i`. A header split by commas, semicolons or tabs is
/// names only, and each row has as many cells: a line of prose holds
/// commas too.
fn split<'t, T: Copy>(
    lines: &[(usize, &'t str)],
    i: usize,
    separator: char,
    named: &impl Fn(&str) -> Option<T>,
    out: &mut Vec<Cell<'t, T>>,
) {
    let header = lines[i].1;
    let width = header.split(separator).count();
    // A phrase of several words opens with a capital (`Secret access
    // key`); "as we said" is prose.
    let csv_name = |cell: &str| {
        let cell = cell.trim().trim_matches('"');
        cell_name(cell).is_some()
            && (!cell.contains(' ') || cell.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    let strict = separator != '|';
    if strict && !header.trim_end_matches('\r').split(separator).all(csv_name) {
        return;
    }
    let Some((column, tag)) = header
        .split(separator)
        .enumerate()
        .find_map(|(k, cell)| cell_name(cell).and_then(|n| named(&n)).map(|tag| (k, tag)))
    else {
        return;
    };
    // psql and Markdown rule the header off; a pasted table may not.
    let first = if lines.get(i + 1).is_some_and(|&(_, line)| ruled(line)) {
        i + 2
    } else {
        i + 1
    };
    for &(start, row) in lines.iter().skip(first).take(ROWS) {
        if !row.contains(separator) || (strict && row.split(separator).count() != width) {
            break;
        }
        let mut at = start;
        for (k, cell) in row.split(separator).enumerate() {
            if k == column {
                let trimmed = cell.trim_end_matches('\r').trim();
                let value = if strict {
                    trimmed.trim_matches('"')
                } else {
                    trimmed
                };
                let from = at + cell.len() - cell.trim_start().len()
                    + if strict {
                        trimmed.len() - trimmed.trim_start_matches('"').len()
                    } else {
                        0
                    };
                if !value.is_empty() {
                    out.push(Cell {
                        tag,
                        value,
                        span: from..from + value.len(),
                        header,
                    });
                }
            }
            at += cell.len() + 1;
        }
    }
}

/// Cells under the named column of a table aligned with spaces whose
/// header is line `i`: header cells are set off by two spaces or more (or
/// a tab), and each row's cell is the run of non-blank characters that
/// starts where the column's name does.
fn aligned<'t, T: Copy>(
    lines: &[(usize, &'t str)],
    i: usize,
    named: &impl Fn(&str) -> Option<T>,
    out: &mut Vec<Cell<'t, T>>,
) {
    let header = lines[i].1.trim_end_matches('\r');
    let cells = header_cells(header);
    // A header is two names or more, and names only: a line of prose or
    // code is none.
    if cells.len() < 2
        || cells
            .iter()
            .any(|(_, cell)| cell_name(cell).is_none() || slug(cell))
    {
        return;
    }
    let Some((column, tag)) = cells
        .into_iter()
        .find_map(|(at, cell)| cell_name(cell).and_then(|n| named(&n)).map(|tag| (at, tag)))
    else {
        return;
    };
    let rows = lines.iter().skip(i + 1).take(ROWS);
    for &(start, row) in rows.skip_while(|(_, row)| ruled(row)) {
        let Some(cell) = row.get(column..) else {
            continue;
        };
        let opens = column == 0 || row[..column].ends_with([' ', '\t']);
        let value = cell
            .split(char::is_whitespace)
            .next()
            .unwrap_or("")
            .trim_end_matches('\r');
        if opens && !value.is_empty() {
            out.push(Cell {
                tag,
                value,
                span: start + column..start + column + value.len(),
                header,
            });
        }
    }
}

/// A header's cells split at runs of two spaces or more (or tabs), each
/// with its byte offset.
fn header_cells(header: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = header.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && matches!(bytes[at], b' ' | b'\t') {
            at += 1;
        }
        let start = at;
        while at < bytes.len() {
            let gap = bytes[at] == b'\t'
                || (bytes[at] == b' '
                    && bytes.get(at + 1).is_some_and(|&b| b == b' ' || b == b'\t'));
            if gap {
                break;
            }
            at += 1;
        }
        if at > start {
            out.push((start, header[start..at].trim_end()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values<'t>(text: &'t str, column: &str) -> Vec<&'t str> {
        cells(text, &[column.get(..4).unwrap_or(column)], |name| {
            name.eq_ignore_ascii_case(column).then_some(())
        })
        .into_iter()
        .map(|c| {
            assert_eq!(&text[c.span.clone()], c.value);
            c.value
        })
        .collect()
    }

    #[test]
    fn piped_tables_with_or_without_a_rule() {
        let markdown = "| System | Login | Password |\n|---|---|---|\n| pfSense | admin | Otter5437-gecko |\n| NAS | ops | |";
        assert_eq!(values(markdown, "password"), ["Otter5437-gecko"]);
        let psql = " id | sid \n----+-----\n  1 | 605f0f02\n(1 row)";
        assert_eq!(values(psql, "sid"), ["605f0f02"]);
        assert!(values("no table | here", "password").is_empty());
        let csv = "User name,Password,Secret access key\nci-bot,,1O2hMQr/mgoTb6YYm\n";
        let tsv = "host\tuser\tpassword\ndb1\troot\tR7ZLzVAVTe2E";
        assert_eq!(values(tsv, "password"), ["R7ZLzVAVTe2E"]);
        let semicolons = "host;user;password\ndb1;root;NcX3ZeCc%nn24+";
        assert_eq!(values(semicolons, "password"), ["NcX3ZeCc%nn24+"]);
        assert_eq!(values(csv, "secret_access_key"), ["1O2hMQr/mgoTb6YYm"]);
        let prose = "Secret, as we said, is kept\nelsewhere, safely";
        assert!(values(prose, "secret").is_empty());
    }

    #[test]
    fn key_value_rows() {
        let rows = |text| {
            pairs(text, &["pass"], |name| {
                name.eq_ignore_ascii_case("password").then_some(())
            })
            .into_iter()
            .map(|c| c.value)
            .collect::<Vec<_>>()
        };
        assert_eq!(
            rows("-[ RECORD 1 ]---\nid       | 1\npassword | Xul02KUiL6C%yX"),
            ["Xul02KUiL6C%yX"]
        );
        assert_eq!(rows("| password | hunter2 |\n| user | bob |"), ["hunter2"]);
        assert!(rows("| password | hunter2 | extra |").is_empty());
    }

    #[test]
    fn rows_are_no_headers() {
        let kubectl = "NAME              TYPE     DATA   AGE\napi-token         Opaque   1      3d\nworker-2x9k       Opaque   1      3d";
        assert!(values(kubectl, "api-token").is_empty());
    }

    #[test]
    fn aligned_tables_by_their_columns() {
        let tomcat =
            "Session ID                         Last accessed\nFE72835F756C3F3D   10:32:04\n";
        assert_eq!(values(tomcat, "session_id"), ["FE72835F756C3F3D"]);
        let ruled =
            "Host      User    Password\n--------  ------  --------\nnas01     admin   Kx8#pq2Lm\n";
        assert_eq!(values(ruled, "password"), ["Kx8#pq2Lm"]);
        // A row whose cell is not where the column starts gives nothing.
        let skewed = "Host      Password\nnas01   Kx8#pq2Lm\n";
        assert!(values(skewed, "password").is_empty());
        // A row that starts blank where the column does gives nothing.
        assert!(values("Password  was rotated\n  yesterday", "password").is_empty());
        // Labelled values and code are no headers.
        let labelled = "Secret:      REDACTED\nCommit:      691f904f6a4a8bb7";
        assert!(values(labelled, "secret:").is_empty());
        let code = "\tToken string `json:\"token\"`\n\tExpiresIn   int";
        assert!(values(code, "token").is_empty());
    }
}
