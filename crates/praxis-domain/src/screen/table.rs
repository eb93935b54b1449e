//! Tables read as columns: a header row names what each column holds, and
//! the cells under a column named for a secret or a session hold one, as
//! surely as `password = …` would. Three layouts: cells split by `|`
//! (psql's output, a Markdown table), by commas (a CSV export, such as a
//! cloud console's credentials file) and aligned with runs of spaces (a
//! manager's listing, a pasted report).

use std::ops::Range;

use super::pattern::contains_ignoring_case;

/// A cell under a named column.
pub(super) struct Cell<'t, T> {
    /// What the column's name said, as `named` gave it.
    pub tag: T,
    /// The cell's value, trimmed.
    pub value: &'t str,
    /// The value's span in the text.
    pub span: Range<usize>,
}

/// How many rows under a header are read.
const ROWS: usize = 16;

/// The cells under each column that `named` picks from a header row
/// holding one of `words` (a cheap test before the header is split): from
/// tables split by `|`, and from tables aligned with spaces.
///
/// `named` sees a header cell's name with its spaces turned to `_`
/// (`API key` as `API_key`), so that it reads as a key would.
pub(super) fn cells<'t, T: Copy>(
    text: &'t str,
    words: &[&str],
    named: impl Fn(&str) -> Option<T>,
) -> Vec<Cell<'t, T>> {
    let mut out = Vec::new();
    if !words.iter().any(|w| contains_ignoring_case(text, w)) {
        return out;
    }
    let lines = lines(text);
    for (i, &(_, header)) in lines.iter().enumerate() {
        if !words.iter().any(|w| contains_ignoring_case(header, w)) {
            continue;
        }
        if header.contains('|') {
            split(&lines, i, '|', &named, &mut out);
        } else if header.contains(',') {
            split(&lines, i, ',', &named, &mut out);
        } else {
            aligned(&lines, i, &named, &mut out);
        }
    }
    out
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

/// The name a header cell gives, spaces turned to `_`; none for an empty
/// cell, one of more than three words (a sentence, not a name), or one
/// that holds what no column's name does: a colon (`Secret:  …` labels
/// its value), quotes, backquotes or `=` (code).
fn cell_name(cell: &str) -> Option<String> {
    let cell = cell.trim();
    let words = cell.split_whitespace().count();
    let name = cell
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'_' | b'-' | b'#' | b'.' | b'/'));
    (!cell.is_empty() && words <= 3 && name)
        .then(|| cell.split_whitespace().collect::<Vec<_>>().join("_"))
}

/// Cells under the named column of a table split by `separator` whose
/// header is line `i`. A CSV header is names only, two or more: a line of
/// prose holds commas too.
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
        let cell = cell.trim();
        cell_name(cell).is_some()
            && (!cell.contains(' ') || cell.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    if separator == ',' && !header.trim_end_matches('\r').split(',').all(csv_name) {
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
        // A CSV row has as many cells as its header.
        if !row.contains(separator) || (separator == ',' && row.split(',').count() != width) {
            break;
        }
        let mut at = start;
        for (k, cell) in row.split(separator).enumerate() {
            if k == column {
                let value = cell.trim().trim_end_matches('\r');
                let from = at + cell.len() - cell.trim_start().len();
                if !value.is_empty() {
                    out.push(Cell {
                        tag,
                        value,
                        span: from..from + value.len(),
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
    if cells.len() < 2 || cells.iter().any(|(_, cell)| cell_name(cell).is_none()) {
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
        assert_eq!(values(csv, "secret_access_key"), ["1O2hMQr/mgoTb6YYm"]);
        let prose = "Secret, as we said, is kept\nelsewhere, safely";
        assert!(values(prose, "secret").is_empty());
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
