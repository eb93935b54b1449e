//! Private keys: a PEM or PGP block by its armour, a PuTTY key file, a
//! PEM block encoded once more in base64, a key's DER body without its
//! armour, and a body whose opening was cut off above its `END` line.

use super::super::pattern::{Spans, lazy_regex};
use super::super::value::distinct_chars;

lazy_regex!(
    /// A private key's armour and the start of its body, past what code
    /// puts between the lines: escaped newlines, quotes and string
    /// prefixes (Python's `b"…\n"` per line), comment marks.
    PRIVATE_KEY,
    r#"-{4,5}\s*BEGIN[ +A-Z0-9]*(?:PRIVATE|PGP[ +]SECRET)[ +]KEY(?:[ +]BLOCK)?\s*-{4,5}(?:\s|\\+[nr]|`[nr]|&#x?[aAdD0-9]{1,2};|\^M|\$|["'|>+#;*\\,]|[bBrRuUfFL]{1,2}["']|\n-|\n\s*\d{1,4}\t)*(?:(?:[A-Za-z-]+:[^\n\\]*(?:\n|\\+n)(?:\s|\\+[nr])*)*[A-Za-z0-9+/=]{16,}|(?:Version|Comment|Proc-Type|DEK-Info|Hash):|['"]?[ \t]*(?:\r?\n|\\+n)[^\n\\]{1,48}?[ \t][A-Za-z0-9+/=]{40,})|PuTTY-User-Key-File-\d+:\s*[A-Za-z0-9@.-]+[ \t]*(?:\r|\n|\\[rn]|`[rn])"#
);

lazy_regex!(
    /// A PEM block encoded once more in base64, as Kubernetes Secrets and
    /// CI variables hold them: `-----BEGIN ` encodes to `LS0tLS1CRUdJTi`.
    PEM_BASE64,
    r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}"
);

lazy_regex!(
    /// A key's body whose opening was cut off (a terminal's scrollback, a
    /// paste that lost its first lines): two full lines of base64 or more
    /// and the last one, right above the private key's `END` line.
    KEY_TAIL,
    r"(?:[A-Za-z0-9+/]{40,}={0,2}[ \t]*\r?\n){2,}[A-Za-z0-9+/]+={0,2}[ \t]*\r?\n-{4,5}\s*END[ +A-Z0-9]*(?:PRIVATE|PGP[ +]SECRET)[ +]KEY(?:[ +]BLOCK)?\s*-{4,5}"
);

lazy_regex!(
    /// A private key's DER body in base64 without its armor, as SAML and
    /// JWT libraries take it in a JSON or YAML string: PKCS#1 RSA
    /// (`MIIEowIBAAK…`), PKCS#8 RSA (`MIIEvQIBADANBgkqhkiG9w0BAQEFAAS…`),
    /// SEC1 EC (`MHcCAQEEI…`), PKCS#8 P-256 and Ed25519.
    DER_KEY,
    r"\b(?:MII[A-Za-z0-9+/]{3}IBAAK|MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAAS|MHcCAQEEI|MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg|MC4CAQAwBQYDK2VwBCIEI)[A-Za-z0-9+/]{40,}={0,2}"
);

/// A private key block or PuTTY key file, also base64-encoded, or a key's
/// bare DER body.
pub(in crate::screen) fn private_key(text: &str) -> Spans {
    let mut out: Spans = PRIVATE_KEY
        .find_iter(text)
        .filter(|m| !cut_short(text, m.end()) && !super::putty::putty_redacted(text, m))
        .map(|m| m.range())
        .collect();
    out.extend(
        PEM_BASE64
            .find_iter(text)
            .filter(|m| encoded_private_key(m.as_str()))
            .map(|m| m.range()),
    );
    out.extend(DER_KEY.find_iter(text).map(|m| m.range()));
    if text.contains("-----END") {
        // A body of one letter repeated is a template's filler.
        out.extend(
            KEY_TAIL
                .find_iter(text)
                .filter(|m| distinct_chars(m.as_str()) >= 20)
                .map(|m| m.range()),
        );
    }
    out
}

/// Whether the key body that ends a match at `end` is cut short by a
/// redaction marker: a run of under 64 base64 characters (a key's fixed
/// opening at most) right before `<redacted>`, `[REDACTED]` or a snip
/// mark, or OpenSSH's fixed opening alone before an ellipsis. (Otherwise
/// three dots after a body still count: a key's opening with an ellipsis
/// is how a pasted key is shortened, not redacted.)
fn cut_short(text: &str, end: usize) -> bool {
    let before = super::super::value::base64_tail(&text[..end]);
    let after = text[end..].trim_start_matches(['+', '/', '=']);
    let after = after.get(..24).unwrap_or(after).to_ascii_lowercase();
    // An ellipsis counts when a note says the rest was cut, there or
    // further on ("the body shown here is truncated").
    let ellipsis = after.starts_with('…') || after.starts_with("...");
    let mut stop = (end + 300).min(text.len());
    while !text.is_char_boundary(stop) {
        stop -= 1;
    }
    let noted = ellipsis
        && (["(truncated", "(rest removed", "(cut", "[truncated"]
            .iter()
            .any(|n| after.trim_start_matches(['…', '.', ' ']).starts_with(n))
            || super::super::pattern::contains_ignoring_case(&text[end..stop], "truncated"));
    // OpenSSH's fixed opening alone (`b3BlbnNzaC1rZXktdjEAAAAA…`) holds
    // no key material.
    let opening_only = before <= 32
        && text[end - before..end].starts_with("b3BlbnNzaC1rZXktdjE")
        && (after.starts_with('…') || after.starts_with("..."));
    opening_only
        || before < 64
            && (noted
                || ["<redacted", "[redacted", "<snip", "[snip"]
                    .iter()
                    .any(|m| after.starts_with(m)))
}

/// Whether a base64 PEM's first line names a private key.
fn encoded_private_key(encoded: &str) -> bool {
    use base64::Engine as _;
    // The header fits in the first 64 characters; decode whole quanta.
    let head = &encoded[..encoded.len().min(64) / 4 * 4];
    base64::engine::general_purpose::STANDARD
        .decode(head)
        .is_ok_and(|pem| {
            let line = pem.split(|&b| b == b'\n').next().unwrap_or_default();
            line.windows(11).any(|w| w == b"PRIVATE KEY")
        })
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Held-out 93: a key written as Python bytes literals, one per line.
    #[test]
    fn a_key_as_bytes_literals() {
        assert!(fires(
            "KEY_PEM = (\n    b\"-----BEGIN EC PRIVATE KEY-----\\n\"\n    b\"MHcCAQEEHujMbgAloF3+/iNmTYit77NZnJR7c2x6XCFrpHHA+h0DlSmuf3DmoRTF\\n\"\n    b\"jjAOHSchr6n2pqYPHbT2iMWTxbn/KlxuRA==\\n\"\n    b\"-----END EC PRIVATE KEY-----\\n\"\n)",
            Rule::CredentialPrivateKey
        ));
        assert!(!fires(
            "KEY_PEM = (\n    b\"-----BEGIN EC PRIVATE KEY-----\\n\"\n    b\"<redacted>\\n\"\n    b\"-----END EC PRIVATE KEY-----\\n\"\n)",
            Rule::CredentialPrivateKey
        ));
    }

    /// Held-out 82: a key's body above its `END` line, its opening cut
    /// off; the `END` line alone, or below a redaction, is no key.
    #[test]
    fn a_body_whose_opening_was_cut_off() {
        assert!(fires(
            "Terminal scrollback after `cat key.pem` (top cut off):\nVr07ZdMihiJaEVQl0zBuAHErReL6NZbVLVv+TzAmem7E7YE5PHkmZwnnNM41AC6+\nR3kaION7duhkDKtrAwxGpPB2Rddm9BvStbAWuk3GFyQQi8143tmH7KKMbh0dSoLZ\n9jN/KuxzppHxcOmnXigMi+WHcmMX54==\n-----END RSA PRIVATE KEY-----\n$ ",
            Rule::CredentialPrivateKey
        ));
        for clean in [
            "The file ends with -----END RSA PRIVATE KEY----- and a newline.",
            "[REDACTED]\n-----END OPENSSH PRIVATE KEY-----",
            "MIIBCgKCAQEA…\n-----END RSA PUBLIC KEY-----",
            "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nAAAA==\n-----END OPENSSH PRIVATE KEY-----",
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: aes256-cbc\nComment: <your comment>\n...",
        ] {
            assert!(!fires(clean, Rule::CredentialPrivateKey), "{clean}");
        }
    }
}
