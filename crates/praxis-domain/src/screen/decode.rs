//! Encoded forms of a text decoded in place, for the rules that read a
//! token however it was stored: percent-encoding and base64. Each form
//! comes with, for each of its bytes, the byte of the text it came from.

/// The text with each base64 run that decodes to printable text decoded in
/// place (a token stored base64-encoded in a Kubernetes Secret's `data`,
/// in a Basic credential or in a variable named `…_B64`), and for each of
/// its bytes the byte of `text` it came from; `None` where no run decodes
/// so. Runs that open a JSON object (`eyJ`) are a JWT's segments, left as
/// they are.
pub(super) fn base64_decoded(text: &str) -> Option<(String, Vec<usize>)> {
    use base64::Engine as _;
    let bytes = text.as_bytes();
    let is_b64 = |b: u8| b.is_ascii_alphanumeric() || b == b'+' || b == b'/';
    let mut out = Vec::with_capacity(bytes.len());
    let mut origin = Vec::with_capacity(bytes.len());
    let mut decoded_any = false;
    let mut i = 0;
    while i < bytes.len() {
        if !is_b64(bytes[i]) || (i > 0 && is_b64(bytes[i - 1])) {
            out.push(bytes[i]);
            origin.push(i);
            i += 1;
            continue;
        }
        let mut end = i;
        while end < bytes.len() && is_b64(bytes[end]) {
            end += 1;
        }
        let mut padded = end;
        while padded < bytes.len() && padded - end < 2 && bytes[padded] == b'=' {
            padded += 1;
        }
        let run = &bytes[i..padded];
        let plain = (run.len() >= 20 && run.len().is_multiple_of(4) && !run.starts_with(b"eyJ"))
            .then(|| base64::engine::general_purpose::STANDARD.decode(run).ok())
            .flatten()
            .filter(|plain| {
                plain.len() >= 12
                    && plain
                        .iter()
                        .all(|&b| (0x20..0x7f).contains(&b) || matches!(b, b'\n' | b'\r' | b'\t'))
            });
        if let Some(plain) = plain {
            let span = padded - i;
            for (k, b) in plain.iter().enumerate() {
                out.push(*b);
                origin.push(i + (k * span / plain.len()).min(span - 1));
            }
            decoded_any = true;
        } else {
            out.extend_from_slice(run);
            origin.extend(i..padded);
        }
        i = padded;
    }
    // Decoded runs are printable ASCII; the rest is the text's own bytes.
    let text = String::from_utf8(out).ok()?;
    decoded_any.then_some((text, origin))
}

/// The value of an ASCII hexadecimal digit.
fn hex_value(b: u8) -> Option<u8> {
    char::from(b)
        .to_digit(16)
        .and_then(|d| u8::try_from(d).ok())
}

/// The text with percent-encoded printable ASCII, spaces and line feeds
/// decoded (`%3A` as `:`, `%2F` as `/`), and for each of its bytes the byte of `text` it came
/// from; `None` where nothing is encoded. A webhook URL passed as a query
/// parameter, or a bot token whose colon a proxy encoded, is read whole.
pub(super) fn percent_decoded(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    // Only an encoded colon or slash can hide a URL or a token's
    // separator, and a space a key block's header (`BEGIN%20`); other
    // escapes are left as they are read.
    let encoded_separator = memchr::memchr_iter(b'%', bytes).any(|at| {
        matches!(
            bytes.get(at + 1..at + 3),
            Some(b"3A" | b"3a" | b"2F" | b"2f")
        ) || bytes[..at].ends_with(b"BEGIN")
    });
    if !encoded_separator {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut origin = Vec::with_capacity(bytes.len());
    let mut decoded = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = bytes.get(i + 1).copied().and_then(hex_value);
            let lo = bytes.get(i + 2).copied().and_then(hex_value);
            if let (Some(hi), Some(lo)) = (hi, lo) {
                let b = hi * 16 + lo;
                if (0x21..0x7f).contains(&b) || b == b' ' || b == b'\n' {
                    out.push(b);
                    origin.push(i);
                    decoded = true;
                    i += 3;
                    continue;
                }
            }
        }
        out.push(bytes[i]);
        origin.push(i);
        i += 1;
    }
    // Only ASCII was put in for ASCII: still UTF-8.
    let text = String::from_utf8(out).ok()?;
    decoded.then_some((text, origin))
}

#[cfg(test)]
mod tests {
    use super::base64_decoded;

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
}
