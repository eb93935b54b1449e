//! PuTTY key files whose private part was left out.

/// Whether a PuTTY key file's private lines were left out: a redaction
/// marker (`<redacted>`, `[…]`) stands for the count after
/// `Private-Lines:` or opens the line after it, or there is no
/// `Private-Lines:` and a marker line or a bracketed or parenthesized note ("Comment:
/// [contents removed]") stands in for the body, or an ellipsis or a slot
/// (`Comment: <your comment>`) follows the header and no line of key
/// material does.
pub(super) fn putty_redacted(text: &str, found: &regex::Match<'_>) -> bool {
    let rest = &text[found.end()..];
    let marker = |line: &str| line.trim_start().starts_with(['<', '[']);
    found.as_str().starts_with("PuTTY")
        && match rest.find("Private-Lines:") {
            Some(at) => rest[at + "Private-Lines:".len()..]
                .split('\n')
                .take(2)
                .any(marker),
            // A note in brackets that the contents were removed.
            None => {
                rest.lines().any(|line| marker(line) || removed_note(line))
                    || (["...", "…", ": <"].iter().any(|cut| rest.contains(cut))
                        && !rest.lines().any(|line| {
                            let line = line.trim();
                            line.len() >= 40
                                && line.bytes().all(|b| {
                                    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
                                })
                        }))
            }
        }
}

/// Whether a line holds a bracketed or parenthesized note that something
/// was taken out ("(private lines removed before attaching)").
fn removed_note(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains(['[', '<', '('])
        && [
            "removed", "redacted", "omitted", "snipped", "elided", "entfernt", "eliminad",
            "supprim", "retirad", "rimoss", "removid",
        ]
        .iter()
        .any(|w| lower.contains(w))
}
