//! A command as the shell would expand it, for the rules of command
//! fields: a base64 literal decoded by a command substitution (`rm -rf
//! $(echo L3Vzcg== | base64 -d)`), a variable set earlier in the same
//! command (`T=/; rm -rf "$T"`), and one never set read as its default
//! (`rm -rf ${PREFIX:-/}*`). Each form comes with, for each of its
//! bytes, the byte of the command it came from.

use base64::Engine as _;

use super::decode::edited_lines;
use super::pattern::lazy_regex;

lazy_regex!(
    /// `$(echo … | base64 -d)` or its backquoted form, the literal in
    /// group 1 or 2.
    DECODING_SUBSTITUTION,
    r#"\$\(\s*(?:echo|printf)\s+(?:-n\s+)?["']?([A-Za-z0-9+/]{2,}={0,2})["']?\s*\|\s*base64\s+(?:-d|--decode|-D)\s*\)|`\s*(?:echo|printf)\s+(?:-n\s+)?["']?([A-Za-z0-9+/]{2,}={0,2})["']?\s*\|\s*base64\s+(?:-d|--decode|-D)\s*`"#
);
lazy_regex!(
    /// A shell variable set to a literal (`NAME=value`, quoted or not) at
    /// the start of the command or after a separator.
    SHELL_ASSIGNMENT,
    r#"(?:^|[;&|\n]\s*|\bexport\s+)([A-Za-z_][A-Za-z0-9_]*)=("[^"\n$`]*"|'[^'\n]*'|[^\s;&|"'$`]*)"#
);
lazy_regex!(
    /// A loop over words (`for d in /dev/sd?; do …`), where a command
    /// starts (in a group, a `bash -c '…'` or after `then` and `do` too):
    /// the variable (group 1) and the first word of its list (group 2), a
    /// literal or a glob, quoted or not.
    FOR_LOOP,
    r#"(?:^|[;&|\n({'"]|\bthen\b|\bdo\b)\s*for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+["']?([^\s;&|"'$`]+)"#
);
lazy_regex!(
    /// A variable's use with a default (`${NAME:-/}`, `${NAME-/}`, `${NAME:=/}`):
    /// the default (group 3; a literal, quoted or not, or another
    /// variable) is what the shell reads when nothing set the variable, or
    /// (after a colon, group 2) set it empty.
    DEFAULTED_USE,
    r#"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)[-=]("[^"$`\n]*"|'[^'\n]*'|\$[A-Za-z_][A-Za-z0-9_]*|[^}$`"'\s]+)\}"#
);
lazy_regex!(
    /// A variable's use: `$NAME` or `${NAME}`.
    SHELL_USE,
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))"
);

/// Whether `value` (quotes around it aside) is a decoding substitution
/// of a literal: the literal in disguise, not a reference to a secret
/// kept elsewhere.
pub(super) fn decodes_literal(value: &str) -> bool {
    let bare = value.trim_matches(['"', '\'']);
    DECODING_SUBSTITUTION
        .find(bare)
        .is_some_and(|m| m.start() == 0 && m.end() == bare.len())
}

/// The command with decoding substitutions and earlier-set variables
/// expanded, and for each byte the byte of `text` it came from; `None`
/// where there is nothing to expand.
pub(super) fn expanded(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    let dollar = memchr::memchr(b'$', bytes).is_some();
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    if memchr::memmem::find(bytes, b"base64").is_some() {
        for found in DECODING_SUBSTITUTION.captures_iter(text) {
            let (Some(whole), Some(run)) = (found.get(0), found.get(1).or_else(|| found.get(2)))
            else {
                continue;
            };
            let plain = base64::engine::general_purpose::STANDARD
                .decode(run.as_str())
                .ok()
                .filter(|p| !p.is_empty() && p.iter().all(|&b| (0x20..0x7f).contains(&b)));
            if let Some(plain) = plain {
                edits.push((whole.start(), whole.end(), plain));
            }
        }
    }
    let mut set: Vec<(&str, &str, usize)> = Vec::new();
    if dollar && memchr::memchr(b'=', bytes).is_some() {
        set.extend(SHELL_ASSIGNMENT.captures_iter(text).filter_map(|c| {
            let value = c.get(2)?;
            let literal = value.as_str().trim_matches(['"', '\'']);
            Some((c.get(1)?.as_str(), literal, value.end()))
        }));
    }
    // A loop's variable reads each word of its list in turn; the first
    // stands for them all (`for d in /dev/sd?; do dd … of=$d`).
    if dollar && memchr::memmem::find(bytes, b"for").is_some() {
        set.extend(FOR_LOOP.captures_iter(text).filter_map(|c| {
            let word = c.get(2)?;
            Some((c.get(1)?.as_str(), word.as_str(), word.end()))
        }));
        set.sort_by_key(|&(_, _, end)| end);
    }
    // The latest setting before a use at `at` is the one it reads, once a
    // separator ends the setting's command: the shell expands a command's
    // words before its own prefix (`X=/opt rm -rf ${X:-/}`) applies.
    let setting = |name: &str, at: usize| {
        set.iter()
            .rev()
            .find(|(n, _, end)| {
                *n == name && *end <= at && text[*end..at].contains([';', '\n', '&', '|'])
            })
            .map(|(_, value, _)| *value)
    };
    if dollar && memchr::memmem::find(bytes, b"${").is_some() {
        for used in DEFAULTED_USE.captures_iter(text) {
            let (Some(whole), Some(name), Some(default)) = (used.get(0), used.get(1), used.get(3))
            else {
                continue;
            };
            let colon = used.get(2).is_some_and(|m| !m.is_empty());
            let default = default.as_str().trim_matches(['"', '\'']);
            // Set empty, `${X-…}` reads the empty value; `${X:-…}` the
            // default.
            let value = match setting(name.as_str(), whole.start()) {
                Some(value) if !value.is_empty() || !colon => value,
                _ => default,
            };
            if !value.is_empty() {
                edits.push((whole.start(), whole.end(), value.as_bytes().to_vec()));
            }
        }
    }
    if !set.is_empty() {
        for used in SHELL_USE.captures_iter(text) {
            let (Some(whole), Some(name)) = (used.get(0), used.get(1).or_else(|| used.get(2)))
            else {
                continue;
            };
            if let Some(value) = setting(name.as_str(), whole.start()).filter(|v| !v.is_empty()) {
                edits.push((whole.start(), whole.end(), value.as_bytes().to_vec()));
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|&(start, _, _)| start);
    edits.dedup_by(|next, kept| next.0 < kept.1);
    let (out, origin) = edited_lines(bytes, &edits);
    // Only printable ASCII (spaces too: a decoded literal may be a whole
    // command) and literals cut at ASCII went in: still UTF-8.
    String::from_utf8(out).ok().map(|text| (text, origin))
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Decoded substitutions and variables set before use are read as the
    /// shell would read them; a variable set after its use, or never, is
    /// not.
    #[test]
    fn substitutions_and_variables_expand() {
        assert_eq!(
            super::expanded("rm -rf $(echo L2V0Yw== | base64 -d)").map(|(t, _)| t),
            Some("rm -rf /etc".to_string())
        );
        for hit in [
            "sudo rm -rf `echo L3Vzcg== | base64 --decode`",
            "DIR=/ ; sudo rm -rf \"$DIR\"",
            "export WIPE=/var ; rm -rf ${WIPE}",
        ] {
            assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
        }
        for hit in [
            "rm -rf ${PREFIX:-/}*",
            "sudo rm -rf \"${ROOT-/}\"",
            "PREFIX=/opt/app rm -rf ${PREFIX:-/}*",
            "rm -rf ${A:-\"/\"}",
            "rm -rf ${A:=/}*",
            "X=; rm -rf ${X:-/}*",
            "X=/; X=/opt rm -rf $X",
        ] {
            assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
        }
        // A loop's variable reads the words of its list.
        for hit in [
            "for d in /dev/sd?; do sudo dd if=/dev/zero of=$d bs=1M count=100; done",
            "for disk in /dev/nvme0n1 /dev/nvme1n1; do wipefs -a \"$disk\"; done",
            "for d in /etc /usr; do sudo rm -rf $d; done",
            "if true; then for d in /etc /usr; do rm -rf $d; done; fi",
            "sudo bash -c 'for d in /etc /usr; do rm -rf $d; done'",
            "  for d in \"/etc\" \"/usr\"; do sudo rm -rf $d; done",
            "(for d in /etc; do rm -rf $d; done)",
        ] {
            assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
        }
        for clean in [
            "for f in build dist; do rm -rf $f; done",
            "for u in /home/*; do rm -rf $u/.cache/pip; done",
            "for d in /dev/sd?; do sudo smartctl -a $d; done",
            "rm -rf $d; for d in /etc; do ls $d; done",
        ] {
            assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
        }
        for clean in [
            "rm -rf \"$DIR\"; DIR=/",
            "rm -rf \"$BUILD_DIR\"",
            "rm -rf \"${BUILD_DIR:-./build}\"",
            "PREFIX=/opt/app; rm -rf ${PREFIX:-/}/cache",
            "X=; rm -rf ${X-/}*",
        ] {
            assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
        }
        assert!(fires(
            "docker login -u ci -p \"$(echo UXo4IXdMbTIjUng5 | base64 -d)\" registry.lan",
            Rule::CredentialCommandLine
        ));
    }

    /// A short literal (`Lw==` is `/`) and a decoded command with spaces
    /// are expanded too; a harmless one stays harmless.
    #[test]
    fn short_and_spaced_literals_expand() {
        for hit in [
            "rm -rf $(echo Lw== | base64 -d)",
            "eval \"$(echo cm0gLXJmIC0tbm8tcHJlc2VydmUtcm9vdCAv | base64 -d)\"",
        ] {
            assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
        }
        assert!(!fires(
            "echo \"$(echo aGVsbG8gd29ybGQ= | base64 -d)\"",
            Rule::UnsafeCommand
        ));
    }
}
