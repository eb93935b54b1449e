//! Lines that a terminal or a mail client wrapped, put back together, so
//! that a token broken across them is read whole.

use super::normalize::token_byte;

/// The lines a terminal or a mail client wrapped, put back together, and
/// for each of their bytes the byte of `text` it came from; `None` where
/// no line was wrapped. A line break (and the indentation after it) is
/// left out where a run of at least eight token bytes with a digit or an
/// underscore ends
/// the line and the next line goes on with a run of at least four with a
/// digit that holds no `:` and no `=` before its end (a key of the next
/// line's own is no continuation): `ghp_KMzhEwbrJKA` and
/// `PaXXRIvHQ9aZNQr5KGszyxCDV` on two lines are one token. Only the lines
/// around each such break are kept (a line apart from the next), so that
/// the rules read again no more than what changed.
pub(super) fn unwrapped(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    // The breaks to leave out, each with where the next line's token
    // starts; found before anything is copied, as most texts have none.
    let joins: Vec<(usize, usize)> = memchr::memchr_iter(b'\n', bytes)
        .filter_map(|at| wrapped_at(bytes, at))
        .collect();
    // A terminal wraps a token or two; a text where many lines look
    // wrapped is a listing, read as it stands.
    if joins.is_empty() || joins.len() > MAX_WRAPS {
        return None;
    }
    let line_start = |at: usize| memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
    let line_end = |at: usize| memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
    let mut out = Vec::new();
    let mut origin = Vec::new();
    // Where the copy stands: the end of the last line taken, if any.
    let mut taken: Option<usize> = None;
    for (start, resume) in joins {
        let from = match taken {
            // The break ends the line just taken: drop what was copied
            // past it (a carriage return) and go on from there.
            Some(end) if start <= end => {
                out.truncate(out.len() - (end - start));
                origin.truncate(out.len());
                start
            }
            Some(end) => {
                out.push(b'\n');
                origin.push(end);
                line_start(start)
            }
            None => line_start(start),
        };
        out.extend_from_slice(&bytes[from..start]);
        origin.extend(from..start);
        let end = line_end(resume);
        out.extend_from_slice(&bytes[resume..end]);
        origin.extend(resume..end);
        taken = Some(end);
    }
    // Only ASCII bytes were left out: still UTF-8.
    String::from_utf8(out).ok().map(|text| (text, origin))
}

/// The most breaks [`unwrapped`] puts back in one text.
const MAX_WRAPS: usize = 16;

/// Where the line break at `at` was put by a wrap, the bytes to leave
/// out: from the break (or the carriage return or the continuation mark
/// before it) to the next line's first token byte.
fn wrapped_at(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut start = if at > 0 && bytes[at - 1] == b'\r' {
        at - 1
    } else {
        at
    };
    // A continuation ending the line is the break's too: a POSIX shell's
    // `\`, cmd's `^`, PowerShell's backtick, quoted-printable's soft `=`,
    // an editor's `↵`.
    if start > 0 && matches!(bytes[start - 1], b'\\' | b'^' | b'`' | b'=') {
        start -= 1;
    } else if bytes[..start].ends_with("↵".as_bytes()) {
        start -= "↵".len();
    }
    let run = &bytes[start
        - bytes[..start]
            .iter()
            .rev()
            .take(64)
            .take_while(|b| token_byte(**b))
            .count()..start];
    if run.len() < 8 || !run.iter().any(|b| b.is_ascii_digit() || *b == b'_') {
        return None;
    }
    // A log that wraps repeats its line's prefix (a timestamp, a process's
    // tag, a quote's `> `): the continuation starts after it.
    let mut j = at + 1 + repeated_prefix(bytes, at);
    while bytes.get(j).is_some_and(|c| *c == b' ' || *c == b'\t') {
        j += 1;
    }
    let mut k = j;
    while bytes.get(k).is_some_and(|c| token_byte(*c) && *c != b':') {
        k += 1;
    }
    let tail = &bytes[j..k];
    let key = tail
        .iter()
        .position(|c| *c == b'=')
        .is_some_and(|at| tail[at..].iter().any(|c| *c != b'='));
    // A long run in mixed case goes on with a generated token as a digit
    // does.
    let mixed = tail.len() >= 16
        && tail.iter().any(u8::is_ascii_uppercase)
        && tail.iter().any(u8::is_ascii_lowercase);
    let continues = tail.len() >= 4 && (tail.iter().any(u8::is_ascii_digit) || mixed);
    (continues && !key && bytes.get(k) != Some(&b':')).then_some((start, j))
}

/// How long a prefix the line after the break at `at` repeats from the
/// line before it, cut back to end at a separator (a space, `|`, `:`,
/// `>`): none when shorter than two bytes, or when it is the whole of the
/// line before.
fn repeated_prefix(bytes: &[u8], at: usize) -> usize {
    let line = &bytes[memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1)..at];
    let next = &bytes[at + 1..];
    let common = line.iter().zip(next).take_while(|(a, b)| a == b).count();
    let cut = line[..common]
        .iter()
        .rposition(|b| !token_byte(*b))
        .map_or(0, |i| i + 1);
    if cut >= 2 && cut < line.len() { cut } else { 0 }
}

#[cfg(test)]
mod tests {
    /// A token broken across lines is joined; a line that starts a key of
    /// its own is not.
    #[test]
    fn wrapped_tokens_are_joined() {
        let (unwrapped, _) =
            super::unwrapped("TOKEN:  ghp_KMzhEwbrJKA\n    PaXXRIvHQ9aZNQr5KGszyxCDV\n").unwrap();
        assert_eq!(
            unwrapped,
            "TOKEN:  ghp_KMzhEwbrJKAPaXXRIvHQ9aZNQr5KGszyxCDV"
        );
        // Only the lines around a break are kept; two breaks in a row are
        // one line, a break further on a line apart.
        let (unwrapped, origin) = super::unwrapped(
            "head\nk=ab_cdefgh1\r\n  ij2klm_mn\r\nno3pqrstu\nmiddle\nx_yz12345\n9abcdef",
        )
        .unwrap();
        assert_eq!(
            unwrapped,
            "k=ab_cdefgh1ij2klm_mnno3pqrstu\nx_yz123459abcdef"
        );
        assert_eq!(origin[12], 21);
        // A key of the next line's own is no continuation.
        assert_eq!(
            super::unwrapped("APP_ENV=production\nAPP_DEBUG=false"),
            None
        );
        assert_eq!(super::unwrapped("level: production\nname: api"), None);
    }

    /// A log's repeated line prefix is left out of a continuation; a run
    /// in mixed case continues a token.
    #[test]
    fn repeated_prefixes_and_mixed_case_runs() {
        let (joined, _) = super::unwrapped(
            "0|bot  | login with MjM3OTAy.G-HdJ5.OzBmkC4Y\n0|bot  | JX3bGGcPogsSJajE failed",
        )
        .unwrap();
        assert_eq!(
            joined,
            "0|bot  | login with MjM3OTAy.G-HdJ5.OzBmkC4YJX3bGGcPogsSJajE failed"
        );
        let (joined, _) = super::unwrapped("> Bearer eyJ0eXAiOiJKV1Qi↵\n> ubmV0IiwiaWF0").unwrap();
        assert_eq!(joined, "> Bearer eyJ0eXAiOiJKV1QiubmV0IiwiaWF0");
        let (joined, _) =
            super::unwrapped("token=NjI2MTg5.GhsMWU.7JzJiotT\n    fvkhLQuploLQzGWXtyZ shard=1")
                .unwrap();
        assert_eq!(
            joined,
            "token=NjI2MTg5.GhsMWU.7JzJiotTfvkhLQuploLQzGWXtyZ shard=1"
        );
        // Two log lines whose second starts with a word go on apart.
        assert_eq!(
            super::unwrapped("12:00:01 job a1b2c3d4e5f6\n12:00:01 listening on 8080"),
            None
        );
    }

    /// cmd's `^` and quoted-printable's soft `=` end a wrapped line as a
    /// shell's `\` does.
    #[test]
    fn caret_and_soft_breaks_unwrap() {
        let (joined, _) = super::unwrapped("Bearer abc123def456^\n  789ghi0jk").unwrap();
        assert_eq!(joined, "Bearer abc123def456789ghi0jk");
        let (joined, _) =
            super::unwrapped("token: eyJzdWIiOiJhbGVydG1hbmFnZXIiLCJleHAiO=\njE3MTg2MDEzMDh9")
                .unwrap();
        assert_eq!(
            joined,
            "token: eyJzdWIiOiJhbGVydG1hbmFnZXIiLCJleHAiOjE3MTg2MDEzMDh9"
        );
    }
}
