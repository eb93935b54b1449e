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
mod command_line;
mod context;
pub mod corpus;
mod git;
mod home_path;
mod normalize;
mod pattern;
mod permissions;
mod prompt;
mod rule;
mod secret_url;
mod session;
mod tls;
mod value;
mod vendor;

use std::sync::LazyLock;

use regex::{RegexSet, RegexSetBuilder};
use serde_json::Value;

use crate::finding::Finding;

pub use context::Suppressor;
pub use normalize::{Normalized, normalize};
pub use rule::Rule;

/// One place in a text where a rule fired.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Hit {
    /// Where it starts: an offset in Unicode scalar values (characters) of
    /// the screened text.
    pub start: usize,
    /// Where it ends, exclusive, in the same unit.
    pub end: usize,
    /// The rule.
    pub rule: Rule,
}

/// Every place where a rule fires on `text`, by position. Command-field
/// rules ([`Rule::commands_only`]) run only when `commands` is true.
/// Matches that a context stands down ([`Suppressor`]) are left out.
pub fn screen(text: &str, commands: bool) -> Vec<Hit> {
    screen_with_suppressed(text, commands)
        .into_iter()
        .filter(|(_, suppressor)| suppressor.is_none())
        .map(|(hit, _)| hit)
        .collect()
}

/// Every place where a rule matched on `text`, with the context that made
/// it stand down, if one did.
pub fn screen_with_suppressed(text: &str, commands: bool) -> Vec<(Hit, Option<Suppressor>)> {
    let normalized = normalize(text);
    let matched = normalized.as_str();
    let possible = PREFILTER.matches(matched);
    let mut out = Vec::new();
    for rule in Rule::ALL {
        if !possible.matched(rule.index()) || (rule.commands_only() && !commands) {
            continue;
        }
        let mut spans: Vec<_> = detect(rule, matched)
            .into_iter()
            .map(|span| {
                let suppressor = context::suppressor(rule, matched, &span);
                (span, suppressor)
            })
            .collect();
        // Overlapping matches of one rule are one place: the first one that
        // stands, else the first one.
        spans.sort_by_key(|(s, suppressor)| {
            (suppressor.is_some(), s.start, std::cmp::Reverse(s.end))
        });
        let mut kept: Vec<std::ops::Range<usize>> = Vec::new();
        for (span, suppressor) in spans {
            if kept
                .iter()
                .any(|k| k.start < span.end && span.start < k.end)
            {
                continue;
            }
            kept.push(span.clone());
            let original = normalized.original(span);
            let hit = Hit {
                start: original.start,
                end: original.end,
                rule,
            };
            out.push((hit, suppressor));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The rules that fire on one text, in [`Rule::ALL`] order.
pub fn scan(text: &str, commands: bool) -> Vec<Rule> {
    let mut rules: Vec<Rule> = screen(text, commands).into_iter().map(|h| h.rule).collect();
    rules.sort();
    rules.dedup();
    rules
}

/// Screening findings over every string of `record`.
///
/// Strings under `/resolution/steps/*`, `/rollback/steps/*` and
/// `/attempts/*/action` are commands and are also screened by the
/// command-field rules. Object keys are screened too: a key that fires is
/// reported at its object's pointer (the pointer would otherwise repeat it)
/// and its value is not descended into.
pub fn findings(record: &Value) -> Vec<Finding> {
    findings_with(record, is_command_field)
}

/// Screening findings over every string of `document`, where `commands`
/// tells which paths hold guidance an agent acts on (screened by the
/// command-field rules too): a memory item's body or a proposal's content,
/// for instance.
pub fn findings_with(document: &Value, commands: fn(&[String]) -> bool) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(document, &mut path, commands, &mut out);
    out.sort();
    out.dedup();
    out
}

/// Whether the string at `pointer` (RFC 6901) of a record is a command
/// field, screened by the command-field rules too.
pub fn is_command_pointer(pointer: &str) -> bool {
    let path: Vec<String> = pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    is_command_field(&path)
}

fn walk(
    value: &Value,
    path: &mut Vec<String>,
    commands: fn(&[String]) -> bool,
    out: &mut Vec<Finding>,
) {
    match value {
        Value::String(text) => {
            for rule in scan(text, commands(path)) {
                out.push(Finding::new(pointer(path), rule.code(), rule.message()));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(i.to_string());
                walk(item, path, commands, out);
                path.pop();
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                let rules = scan(key, false);
                if rules.is_empty() {
                    path.push(key.clone());
                    walk(member, path, commands, out);
                    path.pop();
                } else {
                    for rule in rules {
                        out.push(Finding::new(
                            pointer(path),
                            rule.code(),
                            format!("an object key holds {}", rule.message()),
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

/// Room for the lazy DFAs of the pattern sets: with less, their many
/// case-insensitive alternatives evict states so often that matching falls
/// back to the much slower NFA simulation.
pub(crate) const DFA_CACHE: usize = 32 << 20;

/// One necessary condition per rule, indexed like [`Rule::ALL`].
static PREFILTER: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSetBuilder::new([
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
        r"gl[a-z]{1,5}-|pypi-AgE|hf_|_v1_|shp[a-z]{2}_|SG\.|hv[sb]\.|sntr[ysu]{1,2}_|dapi|lin_api_|PMAK-|dp\.pt\.|glsa_|ATATT|key-|pul-|atlasv1|sbp_|secret_|AGE-SECRET-KEY|figd_|nfp_|ntn_|dp\.",
        r"(?i)twilio|(?-i:AC|SK)[0-9a-f]{4}",
        r"[0-9]{5}:[A-Za-z0-9_-]{4}",
        r"(?i)discord|[A-Za-z0-9_-]{4}\.[A-Za-z0-9_-]{6}\.",
        r"(?i)azurewebsites|x-functions-key|accountkey|sharedaccesskey|sharedsecretvalue|sig=|account-key|storageaccountkey|sas-?token|accesskey=|==|windows\.net",
        r"(?i)pass|secret|token|key|credential|auth|pwd|bearer|identified",
        r"(?i)pass|secret|token|key|credential|auth|pwd|curl|wget|http|sudo|ssh-keygen|chpasswd|7z|zip|redis-cli|mysql|login|upload|publish|connect|mongo|psql|influx|cf|twine|sqlcmd|bcp|htpasswd|net\s+user|config\s+set|vault|freerdp|rdesktop|ldap|smbclient|creds|rabbitmqctl|nmcli|mc\s|net\s+use|psexec|paexec",
        r"(?i)://|[?&#;][a-z0-9_.-]*(?:token|sig|credential|key|secret|pass|pwd|auth|jwt)[a-z0-9_.-]*=|discord|telegram|hooks",
        r"(?i)sess|sid|resume|claude/projects|claude\s+-r|rollout-|\.gemini/tmp",
        r"(?i)ignore|disregard|forget|discard|skip|override|overwrite|replace|bypass|circumvent|suspend|lift|you\s+are\s+now|instructions|prompt|message|exfiltrat|reveal|leak|disclose|divulge|send|upload|post|email|forward|transmit|<\||<<sys>>|from\s+now\s+on|act\s+as|behave\s+as|respond\s+as|pretend|anything\s+now|</|<\s*(?:system|developer|sys|important|admin|assistant|agent|ai|model|claude|copilot|hidden|secret|user|root|sudo|operator|override)|system\s*:|developer\s*:|if\s+you\s+are|without|no\s+(?:any\s+)?(?:rules|restrictions|limits|filters|guidelines|guardrails)|(?:agents|claude|gemini|copilot)\.md|\[\s*system|\[/inst\]|(?m:^|\\n)\s*(?:#+\s*)?\**(?:human|assistant|h|a)\**\s*:|stop|quit|cease|environment|env|secret|credential|key|token|password|ssh/|id_rsa|id_ed25519|npmrc|netrc|pypirc",
        r"(?i)curl|wget|rm|rd|del|erase|ri|remove-item|gci|get-childitem|powershell|pwsh|iex|invoke-expression|scriptblock|mkfs|mke2fs|dd|chmod|chown|chgrp|format|wipefs|shred|blkdiscard|clear-disk|/dev/|:\s*\(\s*\)|fetch|aria2c|iwr|invoke-webrequest|start-bitstransfer|certutil|downloadfile",
        r"(?i)tls|ssl|verif|insecure|unauthorized|trusted-host|check-certificate|cert|pythonhttpsverify|curl",
        r"(?i)(?:push|commit|merge|rebase|cherry-pick|revert|am|pull|husky|hookspath|lefthook|skip_hooks)",
        r"(?i)chmod|icacls",
    ])
    .dfa_size_limit(DFA_CACHE)
    .build()
    .expect("prefilter patterns")
});

fn detect(rule: Rule, text: &str) -> pattern::Spans {
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
        Rule::CredentialTwilio => vendor::twilio(text),
        Rule::CredentialTelegram => vendor::telegram(text),
        Rule::CredentialDiscord => vendor::discord(text),
        Rule::CredentialAzure => vendor::azure(text),
        Rule::CredentialAssignment => assignment::assignment(text),
        Rule::CredentialCommandLine => command_line::command_line(text),
        Rule::SecretUrl => secret_url::secret_url(text),
        Rule::SessionId => session::session_id(text),
        Rule::PromptOverride => prompt::prompt_override(text),
        Rule::UnsafeCommand => command::unsafe_command(text),
        Rule::TlsVerificationDisabled => tls::tls_verification_disabled(text),
        Rule::GitSafeguardBypass => git::git_safeguard_bypass(text),
        Rule::WorldWritable => permissions::world_writable(text),
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
        let texts = corpus::part(corpus::Part::Train)
            .into_iter()
            .map(|c| c.text)
            .chain(extra.map(String::from));
        for text in texts {
            let normalized = normalize(&text);
            let text = normalized.as_str();
            let possible = PREFILTER.matches(text);
            for rule in Rule::ALL {
                assert!(
                    detect(rule, text).is_empty() || possible.matched(rule.index()),
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
