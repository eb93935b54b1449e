//! Encoded forms of a text decoded in place, for the rules that read a
//! token however it was stored: percent-encoding and base64; and lines
//! written backwards, for an order hidden so; and command lines kept as
//! argument lists (an audit log's numbered arguments, a program's argv
//! array). Each form comes with, for each of its bytes, the byte of the
//! text it came from.

use super::pattern::lazy_regex;
use super::value::{has_digit, has_letter};

/// The text with each base64 run that decodes to printable text decoded in
/// place (a token stored base64-encoded in a Kubernetes Secret's `data`,
/// in a Basic credential or in a variable named `…_B64`), and for each of
/// its bytes the byte of `text` it came from; `None` where no run decodes
/// so. Runs that open a JSON object (`eyJ`) are a JWT's segments, left as
/// they are.
pub(super) fn base64_decoded(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    // Find the runs that decode first, without copying: most texts have
    // none, and most runs fail on their first quantum.
    let mut runs: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        // Skip to the next run of at least 20, checking every 20th byte
        // first: a byte outside the alphabet there rules out the 19 before.
        match bytes.get(i + 19) {
            Some(&b) if !is_base64(b) => {
                i += 20;
                continue;
            }
            None => break,
            Some(_) => {}
        }
        // The run through that byte starts after the last byte outside
        // the alphabet before it.
        let start = bytes[i..i + 19]
            .iter()
            .rposition(|&b| !is_base64(b))
            .map_or(i, |at| i + at + 1);
        i = start;
        while i < bytes.len() && is_base64(bytes[i]) {
            i += 1;
        }
        // At most two `=` pad a run.
        let body_end = i;
        while i < bytes.len() && i - body_end < 2 && bytes[i] == b'=' {
            i += 1;
        }
        if let Some(plain) = printable(&bytes[start..i]) {
            runs.push((start, i, plain));
        }
    }
    if runs.is_empty() {
        return None;
    }
    let (out, origin) = edited_lines(bytes, &runs);
    // Decoded runs are printable ASCII; the rest is the text's own bytes.
    String::from_utf8(out).ok().map(|text| (text, origin))
}

/// A byte of standard base64's alphabet (a table: this runs on every
/// byte of every text).
fn is_base64(b: u8) -> bool {
    static ALPHABET: [bool; 256] = {
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            table[b] = c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
            b += 1;
        }
        table
    };
    ALPHABET[usize::from(b)]
}

/// What a base64 run decodes to, when that is printable text of some
/// length; `None` for short runs, a JWT's segments (`eyJ`) and binary.
fn printable(run: &[u8]) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let text_byte = |b: u8| (0x20..0x7f).contains(&b) || matches!(b, b'\n' | b'\r' | b'\t');
    if run.len() < 20 || !run.len().is_multiple_of(4) || run.starts_with(b"eyJ") {
        return None;
    }
    let engine = &base64::engine::general_purpose::STANDARD;
    // The first quantum rules out almost every random run.
    let head = engine.decode(&run[..4]).ok()?;
    if !head.iter().all(|&b| text_byte(b)) {
        return None;
    }
    engine
        .decode(run)
        .ok()
        .filter(|plain| plain.len() >= 12 && plain.iter().all(|&b| text_byte(b)))
}

/// The value of an ASCII hexadecimal digit.
fn hex_value(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// The text with percent-encoded printable ASCII, spaces and line feeds
/// decoded (`%3A` as `:`, `%2F` as `/`), and JSON's `\u00XX` escapes of
/// printable ASCII too, and for each of its bytes the byte of `text` it came
/// from; `None` where nothing is encoded. A webhook URL passed as a query
/// parameter, or a bot token whose colon a proxy encoded, is read whole.
pub(super) fn percent_decoded(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    // Only an encoded colon or slash can hide a URL or a token's
    // separator, an equals sign a cookie's (`PHPSESSID%3D…`), and a space
    // a key block's header (`BEGIN%20`) or the start of a token that runs
    // on from its digits (`Bearer%20eyJ…`); other escapes are left as they
    // are read.
    let encoded_separator = memchr::memchr_iter(b'%', bytes).any(|at| {
        matches!(
            bytes.get(at + 1..at + 3),
            Some(b"3A" | b"3a" | b"2F" | b"2f" | b"3D" | b"3d")
        ) || (bytes.get(at + 1..at + 3) == Some(b"20")
            && bytes.get(at + 3).is_some_and(u8::is_ascii_alphanumeric))
            || bytes[..at].ends_with(b"BEGIN")
            || bytes[..at].ends_with(b"-----")
    });
    // JSON's `\u0026` hides a query's `&` as `%26` does.
    let json_escapes = memchr::memmem::find(bytes, b"\\u00").is_some();
    if !encoded_separator && !json_escapes {
        return None;
    }
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for at in memchr::memchr_iter(b'%', bytes) {
        let hi = bytes.get(at + 1).copied().and_then(hex_value);
        let lo = bytes.get(at + 2).copied().and_then(hex_value);
        if let (Some(hi), Some(lo)) = (hi, lo) {
            let b = hi * 16 + lo;
            // `%25` decodes to a `%` that starts no escape of its own.
            let after_last = edits.last().is_none_or(|&(_, end, _)| end <= at);
            if after_last && ((0x21..0x7f).contains(&b) || b == b' ' || b == b'\n') {
                edits.push((at, at + 3, vec![b]));
            }
        }
    }
    if json_escapes {
        for at in memchr::memmem::find_iter(bytes, b"\\u00") {
            let hi = bytes.get(at + 4).copied().and_then(hex_value);
            let lo = bytes.get(at + 5).copied().and_then(hex_value);
            if let (Some(hi), Some(lo)) = (hi, lo) {
                let b = hi * 16 + lo;
                if (0x21..0x7f).contains(&b) {
                    edits.push((at, at + 6, vec![b]));
                }
            }
        }
        edits.sort_by_key(|&(start, _, _)| start);
        // A `%` inside an escape's span would overlap it: keep the first.
        edits.dedup_by(|next, kept| next.0 < kept.1);
    }
    if edits.is_empty() {
        return None;
    }
    let (out, origin) = edited_lines(bytes, &edits);
    // Only ASCII was put in for ASCII: still UTF-8.
    String::from_utf8(out).ok().map(|text| (text, origin))
}

/// The lines of `bytes` that `edits` touch, each edit's span replaced by
/// its bytes, lines apart one line break apart; and for each byte, the
/// byte it came from (a replacement's bytes spread over its span). Only
/// what changed is read again, whatever the length of the text.
pub(super) fn edited_lines(
    bytes: &[u8],
    edits: &[(usize, usize, Vec<u8>)],
) -> (Vec<u8>, Vec<usize>) {
    let line_start = |at: usize| memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let line_end = |at: usize| memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    let mut out = Vec::new();
    let mut origin = Vec::new();
    // Where the copy stands: the end of the last edit.
    let mut copied: Option<usize> = None;
    for (start, end, plain) in edits {
        let from = match copied {
            Some(at) if memchr::memchr(b'\n', &bytes[at..*start]).is_none() => at,
            Some(at) => {
                let stop = line_end(at);
                out.extend_from_slice(&bytes[at..stop]);
                origin.extend(at..stop);
                out.push(b'\n');
                origin.push(stop);
                line_start(*start)
            }
            None => line_start(*start),
        };
        out.extend_from_slice(&bytes[from..*start]);
        origin.extend(from..*start);
        let span = end - start;
        for (k, b) in plain.iter().enumerate() {
            out.push(*b);
            origin.push(start + (k * span / plain.len()).min(span - 1));
        }
        copied = Some(*end);
    }
    if let Some(at) = copied {
        let stop = line_end(at);
        out.extend_from_slice(&bytes[at..stop]);
        origin.extend(at..stop);
    }
    (out, origin)
}

/// The lines of the text that carry Markdown emphasis marks (`**`, `_`, a
/// backquote) opening or closing a word, with those marks left out, where
/// at least two words carry them (an order broken up by emphasis:
/// `**Ignore** _all_ previous instructions`), and for each of its bytes
/// the byte of `text` it came from; `None` otherwise.
pub(super) fn unemphasized(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    let mark = |b: u8| matches!(b, b'*' | b'_' | b'`');
    memchr::memchr3(b'*', b'_', b'`', bytes)?;
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    let mut opened = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !mark(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && mark(bytes[i]) {
            i += 1;
        }
        let before = start.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i).copied();
        let opens = before.is_none_or(|b| b.is_ascii_whitespace())
            && after.is_some_and(|b| b.is_ascii_alphabetic());
        let closes = before.is_some_and(|b| b.is_ascii_alphabetic())
            && after.is_none_or(|b| b.is_ascii_whitespace() || b".,;:!?".contains(&b));
        if opens || closes {
            opened += usize::from(opens);
            edits.push((start, i, Vec::new()));
        }
    }
    if opened < 2 {
        return None;
    }
    // Only the lines with marks are read again, whatever the text's length.
    let (out, origin) = edited_lines(bytes, &edits);
    // Only ASCII marks were left out: still UTF-8.
    String::from_utf8(out).ok().map(|text| (text, origin))
}

/// How many lines around a hint to read backwards ("read the next line
/// backwards").
const REVERSED_REACH: usize = 2;

/// The lines near a hint to read something backwards or reversed (an
/// order hidden so, with the hint to undo it), each with its characters in
/// reverse order, and for each of its bytes the byte of `text` it came
/// from; `None` where there is no hint.
pub(super) fn reversed(text: &str) -> Option<(String, Vec<usize>)> {
    let hints: Vec<usize> = ["backward", "reverse"]
        .iter()
        .flat_map(|n| super::pattern::find_ignoring_case(text, n))
        .collect();
    if hints.is_empty() {
        return None;
    }
    // The line each hint stands on, from where each line starts.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| at + 1))
        .collect();
    let hint_lines: Vec<usize> = hints
        .iter()
        .map(|&at| starts.partition_point(|&start| start <= at) - 1)
        .collect();
    let mut out = String::new();
    let mut origin = Vec::new();
    let mut line_start = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        if hint_lines
            .iter()
            .any(|&hint| hint.abs_diff(index) <= REVERSED_REACH)
        {
            let body = line.strip_suffix('\n').unwrap_or(line);
            for (at, c) in body.char_indices().rev() {
                out.push(c);
                origin.extend(line_start + at..line_start + at + c.len_utf8());
            }
            out.push('\n');
            origin.push(line_start + body.len());
        }
        line_start += line.len();
    }
    Some((out, origin))
}

lazy_regex!(
    /// One argument of an auditd `EXECVE` record: `a3="-U"`, or in hex
    /// where it holds a space or a quote (`a4=2D2D70617373`).
    AUDIT_ARGUMENT,
    r#"\ba(\d{1,3})=(?:"([^"\n]*)"|([0-9A-Fa-f]{2,})\b)"#
);
lazy_regex!(
    /// A program's argument list written as an array of string literals
    /// (`['ipmitool', '-U', 'admin', …]`, `["psql", "-h", …]`): Python's
    /// `subprocess`, a Dockerfile's exec form, a JSON `args`.
    ARGV_ARRAY,
    r#"\[\s*(?:'[^'\n]*'|"[^"\n]*")(?:\s*,\s*(?:'[^'\n]*'|"[^"\n]*"))+\s*,?\s*\]"#
);
lazy_regex!(
    /// Three or more double-quoted arguments in a row, as a log quotes an
    /// argv (`"redis-cli" "-h" "10.3.1.7" "-a" "…"`).
    QUOTED_ARGUMENTS,
    r#""[^"\n]*"(?:[ \t]+"[^"\n]*"){2,}"#
);
lazy_regex!(
    /// One string literal of [`ARGV_ARRAY`]'s or [`QUOTED_ARGUMENTS`]'.
    ARGV_ITEM,
    r#"'([^'\n]*)'|"([^"\n]*)""#
);

/// A form of a text being built, with the origin of each of its bytes.
#[derive(Default)]
struct Joined {
    text: String,
    origin: Vec<usize>,
    /// Where in the text the last piece ended.
    end: usize,
    /// Whether a piece looks like a secret: a list of ordinary arguments
    /// (`["cargo", "publish", "-p", "my-crate"]`) is not worth reading.
    secret_like: bool,
}

impl Joined {
    /// Appends `piece`, whose bytes came from `text[at..]` in order.
    fn push(&mut self, piece: &str, at: usize) {
        self.secret_like |= secret_like(piece);
        self.text.push_str(piece);
        self.origin.extend(at..at + piece.len());
        self.end = at + piece.len();
    }

    /// Appends `plain`, decoded from the hex digits of `text[hex]`: each
    /// byte came from its pair of digits.
    fn push_decoded(&mut self, plain: &str, hex: std::ops::Range<usize>) {
        self.secret_like |= secret_like(plain);
        self.text.push_str(plain);
        self.origin
            .extend((0..plain.len()).map(|k| hex.start + 2 * k));
        self.end = hex.end;
    }

    /// Appends one separating byte, taken to come from just after the last
    /// piece: a match that ends with a piece then ends where it did.
    fn separate(&mut self, separator: char) {
        self.text.push(separator);
        self.origin.push(self.end);
    }

    /// Appends `other`, on a line of its own.
    fn append_line(&mut self, other: Joined) {
        if !self.text.is_empty() {
            self.separate('\n');
        }
        self.text.push_str(&other.text);
        self.origin.extend(other.origin);
        self.end = other.end;
    }
}

/// Whether an argument looks like a generated secret: eight characters or
/// more with letters and digits, in mixed case or with a symbol, and no
/// path, setting (`pager=off`) or flag (a flag's own value aside).
fn secret_like(piece: &str) -> bool {
    // A flag's value: after `=` (`--password=…`), or joined (`-p…`).
    let value = match piece.strip_prefix('-') {
        Some(flag) => flag
            .split_once('=')
            .map_or_else(|| flag.get(1..).unwrap_or(""), |(_, v)| v),
        None => piece,
    };
    let b = value.as_bytes();
    b.len() >= 8
        && !value.starts_with('-')
        && !value.contains(['/', '\\', '=', ' '])
        && has_digit(value)
        && has_letter(value)
        && ((b.iter().any(u8::is_ascii_uppercase) && b.iter().any(u8::is_ascii_lowercase))
            || b.iter().any(|c| b"!#$%&*+?@^~".contains(c)))
}

/// Command lines kept as argument lists put back together as the shell
/// reads them, one per line, and for each of their bytes the byte of
/// `text` it came from: auditd `EXECVE` records (`a0="sqlcmd" a1="-S" …`,
/// hex arguments decoded), argv arrays (`['ipmitool', '-P', …]`) and
/// arguments quoted one by one (`"redis-cli" "-a" "…"`).
/// `None` where no list has two arguments or more.
pub(super) fn argv_joined(text: &str) -> Option<(String, Vec<usize>)> {
    let mut out = Joined::default();
    if text.contains("a0=") && text.contains("a1=") {
        audit_records(text, &mut out);
    }
    let arrays = (text.contains('[') && text.contains(','))
        .then(|| ARGV_ARRAY.find_iter(text))
        .into_iter()
        .flatten();
    let quoted = text
        .contains("\" \"")
        .then(|| QUOTED_ARGUMENTS.find_iter(text))
        .into_iter()
        .flatten();
    for list in arrays.chain(quoted) {
        let mut line = Joined::default();
        for (k, item) in ARGV_ITEM.captures_iter(list.as_str()).enumerate() {
            let Some(inner) = item.get(1).or_else(|| item.get(2)) else {
                continue;
            };
            if k > 0 {
                line.separate(' ');
            }
            line.push(inner.as_str(), list.start() + inner.start());
        }
        if line.secret_like {
            out.append_line(line);
        }
    }
    if out.text.is_empty() {
        return None;
    }
    // A last line feed marks where the last argument ended, so that a
    // match ending with it ends there too, not at the text's end.
    out.separate('\n');
    Some((out.text, out.origin))
}

/// The records of [`argv_joined`]'s first kind, each of two arguments or
/// more, appended to `out`.
fn audit_records(text: &str, out: &mut Joined) {
    let mut record = Joined::default();
    let mut count = 0usize;
    for c in AUDIT_ARGUMENT.captures_iter(text) {
        let Some(index) = c.get(1) else {
            continue;
        };
        let index: usize = index.as_str().parse().unwrap_or(usize::MAX);
        // A record's arguments start at `a0`; one out of turn is not its.
        if index == 0 {
            if count >= 2 && record.secret_like {
                out.append_line(std::mem::take(&mut record));
            }
            record = Joined::default();
            count = 0;
        } else if index != count {
            continue;
        } else {
            record.separate(' ');
        }
        if let Some(quoted) = c.get(2) {
            record.push(quoted.as_str(), quoted.start());
        } else if let Some(hex) = c.get(3) {
            let decoded: Option<Vec<u8>> = hex
                .as_str()
                .as_bytes()
                .chunks(2)
                .map(|pair| Some(hex_value(pair[0])? * 16 + hex_value(*pair.get(1)?)?))
                .collect();
            match decoded.and_then(|d| String::from_utf8(d).ok()) {
                Some(plain) => record.push_decoded(&plain, hex.range()),
                None => record.push(hex.as_str(), hex.start()),
            }
        }
        count += 1;
    }
    if count >= 2 && record.secret_like {
        out.append_line(record);
    }
}

#[cfg(test)]
mod tests {
    use super::{argv_joined, base64_decoded};

    /// An auditd `EXECVE` record reads as its command line, hex arguments
    /// decoded, each byte traced back to the record.
    #[test]
    fn audit_records_read_as_command_lines() {
        let record = r#"type=EXECVE argc=4 a0="mysql" a1="-u" a2=726F6F74 a3="-pQ7v!xLm2R""#;
        let (text, origin) = argv_joined(record).expect("a record");
        assert_eq!(text, "mysql -u root -pQ7v!xLm2R\n");
        let ordinary = r#"type=EXECVE argc=3 a0="ls" a1="-la" a2="/var/log""#;
        assert_eq!(argv_joined(ordinary), None);
        assert_eq!(origin.len(), text.len());
        assert_eq!(&record[origin[9]..origin[9] + 2], "72");
        assert_eq!(origin[text.len() - 2], record.len() - 2);
        assert_eq!(origin[text.len() - 1], record.len() - 1);
        assert_eq!(argv_joined("a0=\"ls\" only"), None);
        assert_eq!(argv_joined("no record here"), None);
    }

    /// An argv array reads as its command line; two lists are two lines.
    #[test]
    fn argv_arrays_read_as_command_lines() {
        let code = r#"run(['psql', '-W', 'Pq7!db']) and run(["mysql", "-pQ7v!xLm2"])"#;
        let (text, origin) = argv_joined(code).expect("one list");
        assert_eq!(text, "mysql -pQ7v!xLm2\n");
        assert_eq!(origin.len(), text.len());
        assert_eq!(&code[origin[6]..origin[6] + 3], "-pQ");
        assert_eq!(argv_joined("tags = ['a', 'b']"), None);
        assert_eq!(
            argv_joined(r#"["cargo", "publish", "-p", "my-crate2"]"#),
            None
        );
    }

    /// Base64 runs that decode to text are decoded in place; binary, short
    /// and JWT runs are not.
    #[test]
    fn base64_runs_decode_to_printable_text_only() {
        let (text, origin) = base64_decoded("key: c2tfdGVzdF9PaDdHbkc5ZmpD ok").expect("decodes");
        assert_eq!(text, "key: sk_test_Oh7GnG9fjC ok");
        assert_eq!(origin.len(), text.len());
        assert_eq!(base64_decoded("sha 3q2+7wAAAAAAAAAAAAAAAAAA end"), None);
        assert_eq!(base64_decoded("eyJhbGciOiJIUzI1NiJ9xxxxxxxx"), None);
        assert_eq!(base64_decoded("short aGVsbG8="), None);
    }

    /// JSON's `\\u0026` escapes decode as `%26` does.
    #[test]
    fn json_escapes_decode_in_place() {
        let (text, origin) = super::percent_decoded("a=1\\u0026sig=x%2By").expect("decodes");
        assert_eq!(text, "a=1&sig=x+y");
        assert_eq!(origin.len(), text.len());
    }
}
