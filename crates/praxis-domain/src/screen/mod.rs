//! The redaction and screening engine.
//!
//! Every string of a record is screened for what must never be published in
//! an experience record: absolute paths into a user's home, credentials,
//! secret-bearing URLs, raw session identifiers, text that tries to instruct
//! the agent that later reads the record, and (in command fields only)
//! destructive or unreviewed-download commands.
//!
//! Text is normalized before matching (format characters removed, then NFKC),
//! so that a secret split by zero-width characters or written in fullwidth
//! letters is still recognized. Homoglyphs from other scripts (a Cyrillic
//! `а` for a Latin `a`) are not folded: NFKC keeps them apart.
//!
//! A finding names the rule and where it fired, never what matched: findings
//! are meant to be logged and shown.
//!
//! Detection is two-stage: one [`RegexSet`] pass tells which rules can
//! possibly fire (each of its patterns is a necessary condition of its
//! rule), then only those rules run their precise patterns and the checks
//! that tell a real value from a placeholder.
//!
//! Each rule family has a module of its own (home paths, vendor
//! credentials, credential assignments, secret URLs, session ids, prompt
//! overrides, unsafe commands), on top of the shared normalization, value
//! heuristics and pattern helpers; this module only routes text to them.

mod assignment;
mod command;
pub mod corpus;
mod home_path;
mod normalize;
mod pattern;
mod prompt;
mod rule;
mod secret_url;
mod session;
mod value;
mod vendor;

use std::sync::LazyLock;

use regex::RegexSet;
use serde_json::Value;

use crate::finding::Finding;

pub use normalize::normalize;
pub use rule::Rule;

/// The rules that fire on one text, in [`Rule::ALL`] order. Unsafe-command
/// rules run only when `commands` is true, for fields that hold commands.
pub fn scan(text: &str, commands: bool) -> Vec<Rule> {
    let text = normalize(text);
    let text = text.as_ref();
    let possible = PREFILTER.matches(text);
    Rule::ALL
        .into_iter()
        .filter(|&rule| possible.matched(rule.index()))
        .filter(|&rule| commands || rule != Rule::UnsafeCommand)
        .filter(|&rule| detect(rule, text))
        .collect()
}

/// Screening findings over every string of `record`.
///
/// Strings under `/resolution/steps/*`, `/rollback/steps/*` and
/// `/attempts/*/action` are commands and are also screened for unsafe
/// commands. Object keys are screened too: a key that fires is reported at
/// its object's pointer (the pointer would otherwise repeat it) and its
/// value is not descended into.
pub fn findings(record: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(record, &mut path, &mut out);
    out.sort();
    out.dedup();
    out
}

fn walk(value: &Value, path: &mut Vec<String>, out: &mut Vec<Finding>) {
    match value {
        Value::String(text) => {
            for rule in scan(text, is_command_field(path)) {
                out.push(Finding::new(pointer(path), rule.code(), rule.description()));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                walk(item, path, out);
                path.pop();
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                let rules = scan(key, false);
                if rules.is_empty() {
                    path.push(key.clone());
                    walk(member, path, out);
                    path.pop();
                } else {
                    for rule in rules {
                        out.push(Finding::new(
                            pointer(path),
                            rule.code(),
                            format!("an object key holds {}", rule.description()),
                        ));
                    }
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn is_command_field(path: &[String]) -> bool {
    match path {
        [top, steps, _, ..] if steps == "steps" => top == "resolution" || top == "rollback",
        [top, _, action, ..] => top == "attempts" && action == "action",
        _ => false,
    }
}

/// RFC 6901 pointer of `path`.
fn pointer(path: &[String]) -> String {
    let mut out = String::new();
    for segment in path {
        out.push('/');
        out.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    }
    out
}

/// One necessary condition per rule, indexed like [`Rule::ALL`].
static PREFILTER: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        r"(?i)/home/|/users/|/root|[a-z]:[\\/]+(?:users|documents and settings)|\\\\",
        r"gh[pousr]_|github_pat_",
        r"sk-",
        r"sk-ant-",
        r"xox[a-z]-|xapp-|hooks\.slack\.com",
        r"(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}|(?i:secret[_-]?access[_-]?key|session[_-]?token)",
        r"AIza|GOCSPX-|ya29\.",
        r"(?:sk|rk)_(?:live|test)_|whsec_",
        r"npm_|(?i:_auth)",
        r"eyJ",
        r"PRIVATE KEY|PuTTY-User-Key-File",
        r"gl[a-z]{1,5}-|pypi-AgE|hf_|_v1_|shp[a-z]{2}_|SG\.|hv[sb]\.|sntr[ysu]_|dapi|lin_api_|PMAK-|dp\.pt\.|glsa_|ATATT|key-|pul-|atlasv1|sbp_|secret_|AGE-SECRET-KEY|figd_|nfp_",
        r"(?i)pass|secret|token|key|credential|auth|pwd|bearer|mysql|curl|sudo|ssh-keygen|chpasswd|7z|zip|redis-cli",
        r"(?i)://|[?&#;][a-z0-9_.-]*(?:token|sig|credential|key|secret|pass|pwd|auth|jwt)[a-z0-9_.-]*=|discord|telegram",
        r"(?i)sess|sid|resume|claude/projects|claude\s+-r",
        r"(?i)ignore|disregard|forget|discard|skip|override|overwrite|replace|bypass|circumvent|suspend|lift|you\s+are\s+now|instructions|prompt|message|exfiltrat|reveal|leak|disclose|divulge|send|upload|post|email|forward|transmit|<\||<<sys>>|from\s+now\s+on|act\s+as|behave\s+as|respond\s+as|pretend|anything\s+now",
        r"(?i)curl|wget|rm|rd|del|erase|ri|remove-item|gci|get-childitem|powershell|pwsh|iex|invoke-expression|scriptblock|mkfs|mke2fs|dd|chmod|chown|chgrp|format|wipefs|shred|blkdiscard|clear-disk|/dev/|:\s*\(\s*\)",
    ])
    .expect("prefilter patterns")
});

fn detect(rule: Rule, text: &str) -> bool {
    match rule {
        Rule::HomePath => home_path::home_path(text),
        Rule::CredentialGithub => vendor::github(text),
        Rule::CredentialOpenai => vendor::openai(text),
        Rule::CredentialAnthropic => vendor::anthropic(text),
        Rule::CredentialSlack => vendor::slack(text),
        Rule::CredentialAws => vendor::aws(text),
        Rule::CredentialGoogle => vendor::google(text),
        Rule::CredentialStripe => vendor::stripe(text),
        Rule::CredentialNpm => vendor::npm(text),
        Rule::CredentialJwt => vendor::jwt(text),
        Rule::CredentialPrivateKey => vendor::private_key(text),
        Rule::CredentialOther => vendor::other_vendor(text),
        Rule::CredentialAssignment => assignment::assignment(text),
        Rule::SecretUrl => secret_url::secret_url(text),
        Rule::SessionId => session::session_id(text),
        Rule::PromptOverride => prompt::prompt_override(text),
        Rule::UnsafeCommand => command::unsafe_command(text),
    }
}

/// Whether `rule` fires on `text`, screened as a command field: the unit
/// tests of every rule family ask this.
#[cfg(test)]
fn fires(text: &str, rule: Rule) -> bool {
    scan(text, true).contains(&rule)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Each prefilter pattern must be a necessary condition of its rule:
    /// a rule whose detector fires where its prefilter does not would be
    /// silently skipped.
    #[test]
    fn prefilter_admits_everything_the_detectors_find() {
        let extra = [
            "echo 'hunter22' | sudo -S apt-get update",
            "claude -r 0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
            "ssh-keygen -N 'abc123' -f k",
            "sshpass -p Qw3rty ssh host",
        ];
        let texts = corpus::corpus()
            .into_iter()
            .map(|c| c.text)
            .chain(extra.map(String::from));
        for text in texts {
            let text = normalize(&text).into_owned();
            let possible = PREFILTER.matches(&text);
            for rule in Rule::ALL {
                assert!(
                    !detect(rule, &text) || possible.matched(rule.index()),
                    "{rule} fires but its prefilter does not: {text:?}"
                );
            }
        }
    }

    /// Pieces of text that the rules anchor on (separators, URL and path
    /// syntax, rule keywords) next to characters of every UTF-8 width,
    /// including whitespace that normalization keeps (U+0085, U+1680,
    /// U+2028, U+2029) or turns into a space (U+3000, U+00A0), and
    /// characters it removes or folds. Random strings rarely put a
    /// multi-byte character right where a rule computes a byte offset;
    /// these do so often.
    fn tricky_text() -> impl Strategy<Value = String> {
        let pieces = vec![
            " ",
            "\t",
            "\n",
            "\u{85}",
            "\u{1680}",
            "\u{2028}",
            "\u{2029}",
            "\u{3000}",
            "\u{A0}",
            "\u{200B}",
            "\u{FEFF}",
            "\u{AD}",
            "é",
            "𝔸",
            "ｈ",
            "ß",
            "İ",
            "?",
            "&",
            "#",
            ";",
            "=",
            ":",
            "/",
            "\\",
            "@",
            "\"",
            "'",
            "`",
            "(",
            ")",
            "<",
            ">",
            "{",
            "}",
            "[",
            "]",
            "-",
            "_",
            ".",
            "~",
            "*",
            "$",
            "!",
            "|",
            ",",
            "https://",
            "h.io",
            "token",
            "key",
            "password",
            "auth",
            "sess",
            "session ",
            "rm",
            " -rf ",
            "-R",
            "chmod",
            "Remove-Item",
            "curl",
            "| sh",
            "$(",
            "whoami",
            "$HOME",
            "/home/",
            "/Users/",
            "/root",
            "/mnt/c/users/",
            "C:\\Users\\",
            "\\\\",
            "sk-",
            "ghp_",
            "eyJ",
            "abcd1234efgh",
            "?token=",
            "&key=",
            "#access_token=",
            ";auth=",
            "?password=",
            "AKIA",
            "ignore previous instructions",
            "0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
        ];
        prop::collection::vec(prop::sample::select(pieces), 0..64).prop_map(|p| p.concat())
    }

    fn any_text() -> impl Strategy<Value = String> {
        prop_oneof![any::<String>(), tricky_text()]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Screening takes any text: every byte offset it computes lands on
        /// a character boundary.
        #[test]
        fn scanning_never_panics(text in any_text(), commands in any::<bool>()) {
            let _ = scan(&text, commands);
        }

        /// The same through a record: strings at the command pointers, in
        /// other fields and as object keys.
        #[test]
        fn findings_never_panic(
            step in any_text(),
            rollback in any_text(),
            action in any_text(),
            summary in any_text(),
            key in any_text(),
        ) {
            let record = serde_json::json!({
                "resolution": { "steps": [step] },
                "rollback": { "steps": [rollback] },
                "attempts": [ { "action": action } ],
                "summary": summary,
                "context": { key: "x" },
            });
            let _ = findings(&record);
        }
    }

    #[test]
    fn pointers_escape_and_findings_do_not_echo() {
        let secret = "ghp_4fT9qLm2Xc8Rz1Vb7Nw3Kd6Hs0Jp5Ay2Ge9U";
        let record =
            serde_json::json!({"a/b": {"c~d": [secret]}, "resolution": {"steps": ["rm -rf ~"]}});
        let found = findings(&record);
        assert!(
            found
                .iter()
                .any(|f| f.pointer == "/a~1b/c~0d/0" && f.rule == "screen.credential.github")
        );
        assert!(
            found
                .iter()
                .any(|f| f.pointer == "/resolution/steps/0" && f.rule == "screen.unsafe_command")
        );
        for f in &found {
            assert!(!f.to_string().contains("4fT9"));
        }
    }
}
