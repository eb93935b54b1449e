//! The redaction and screening engine.
//!
//! Every string of a record is screened for what must never be published in
//! an experience record: absolute paths into a user's home, credentials,
//! secret-bearing URLs, raw session identifiers, text that tries to instruct
//! the agent that later reads the record, and (in command fields only)
//! destructive or unreviewed-download commands.
//!
//! Text is normalized before matching (format characters removed, NFKC,
//! then homoglyphs folded to their Latin skeleton), so that a secret split
//! by zero-width characters, written in fullwidth letters or spelled with a
//! Cyrillic `а` is still recognized.
//!
//! A finding names the rule and where it fired, never what matched: findings
//! are meant to be logged and shown.
//!
//! Detection is two-stage: one keyword pass ([`gate`]) tells which rules
//! can possibly fire, and which of the patterns of the larger families can
//! match (each gate word is a necessary condition), then only those run
//! their precise patterns and the checks that tell a real value from a
//! placeholder.
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
mod decode;
mod expand;
mod forms;
mod gate;
mod git;
mod home_path;
mod normalize;
mod pattern;
mod permissions;
mod prompt;
mod rule;
mod secret_url;
mod session;
mod sql;
mod table;
mod tls;
mod value;
mod vendor;
mod words;
mod wrap;

use std::ops::Range;
use std::sync::LazyLock;

use serde_json::Value;

use crate::finding::Finding;
use forms::Forms;
use gate::{Doors, Gates, Keywords};
use pattern::Found;
use words::words;

pub use context::Suppressor;
pub use normalize::{Normalized, normalize};
pub use prompt::model as prompt_model;
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
    let doors = DOORS.open(matched);
    let forms = Forms::of(matched, commands);
    let mut out = Vec::new();
    for rule in Rule::ALL {
        if rule.commands_only() && !commands {
            continue;
        }
        let mut spans: Vec<_> = matches(rule, matched, doors, &forms)
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
    if commands {
        carried_on_command_line(&mut out);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// In a command field, a credential assigned inside the command
/// (`PGPASSWORD=… psql`, `-H "Authorization: Bearer …"`, `--env-var
/// "apiKey=…"`) or carried by a URL in it (`pg_dump
/// --dbname=postgresql://user:…@host/db`) is passed on the command line
/// too: each such finding that stands is also a command-line finding,
/// unless one is there already.
fn carried_on_command_line(out: &mut Vec<(Hit, Option<Suppressor>)>) {
    let standing = |rule: Rule| {
        out.iter()
            .filter(move |(hit, suppressor)| hit.rule == rule && suppressor.is_none())
            .map(|(hit, _)| hit)
    };
    let carried: Vec<Hit> = standing(Rule::CredentialAssignment)
        .chain(standing(Rule::SecretUrl))
        .filter(|a| {
            !standing(Rule::CredentialCommandLine).any(|c| c.start < a.end && a.start < c.end)
        })
        .map(|a| Hit {
            rule: Rule::CredentialCommandLine,
            ..a.clone()
        })
        .collect();
    out.extend(carried.into_iter().map(|hit| (hit, None)));
}

/// The rules that fire on one text, in [`Rule::ALL`] order: the rules of
/// [`screen`]'s hits, found without placing them. A rule stops at its
/// first match that stands, so the learned reader and the other forms of
/// the text are read only for a rule that has not fired yet.
pub fn scan(text: &str, commands: bool) -> Vec<Rule> {
    let normalized = normalize(text);
    let matched = normalized.as_str();
    let doors = DOORS.open(matched);
    let forms = Forms::of(matched, commands);
    let mut rules: Vec<Rule> = Rule::ALL
        .into_iter()
        .filter(|&rule| !rule.commands_only() || commands)
        .filter(|&rule| fires_on(rule, matched, doors, &forms))
        .collect();
    // As in `screen`: a credential assigned or carried by a URL inside a
    // command is passed on its command line too.
    let carried = [Rule::CredentialAssignment, Rule::SecretUrl];
    if commands
        && !rules.contains(&Rule::CredentialCommandLine)
        && rules.iter().any(|rule| carried.contains(rule))
    {
        rules.push(Rule::CredentialCommandLine);
    }
    rules.sort();
    rules
}

/// Where `rule` matched on `matched`, as spans of it: behind the rule's
/// door, then by the learned reader (prompt overrides only: it has no
/// gate and weighs every word of the text), then in each other form of
/// the text that the rule reads. Each source runs only when the iteration
/// reaches it, so a caller that stops at the first match that stands
/// leaves the later ones unread.
fn matches<'a>(
    rule: Rule,
    matched: &'a str,
    doors: Doors,
    forms: &'a Forms<'a>,
) -> impl Iterator<Item = std::ops::Range<usize>> + 'a {
    let gated = doors
        .has(rule.index())
        .then(|| detect(rule, matched, doors, &|_| false).into_spans())
        .into_iter()
        .flatten();
    let learned = (rule == Rule::PromptOverride)
        .then_some(matched)
        .into_iter()
        .flat_map(prompt::model::flagged);
    let other = forms.read_by(rule).flat_map(move |form| {
        detect(rule, &form.text, form.doors, &|_| false)
            .into_spans()
            .into_iter()
            .filter_map(move |span| form.back(span, matched.len()))
    });
    gated.chain(learned).chain(other)
}

/// Whether `rule` fires on `matched`: whether one of its matches stands,
/// read from the same sources in the same order as [`matches`]. Each rule
/// that gathers its matches stage by stage stops at the first that stands.
fn fires_on(rule: Rule, matched: &str, doors: Doors, forms: &Forms<'_>) -> bool {
    let stands = |span: &Range<usize>| context::suppressor(rule, matched, span).is_none();
    if doors.has(rule.index()) && detect(rule, matched, doors, &stands).stood() {
        return true;
    }
    if rule == Rule::PromptOverride && prompt::model::flagged(matched).iter().any(stands) {
        return true;
    }
    forms.read_by(rule).any(|form| {
        let back = |span: &Range<usize>| {
            form.back(span.clone(), matched.len())
                .is_some_and(|span| stands(&span))
        };
        detect(rule, &form.text, form.doors, &back).stood()
    })
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

/// Every door's words: one door per rule, indexed like [`Rule::ALL`]
/// (whether the rule can fire), then one per gated pattern of the rule
/// families that gate theirs; and for each rule, the doors that are its
/// own (its door and its family's).
static DOOR_WORDS: LazyLock<(Vec<Vec<&'static str>>, Vec<Doors>)> = LazyLock::new(|| {
    // A gated family's rule can fire only where one of its patterns' doors
    // opens: its door takes all of their words.
    let mut lists: Vec<Vec<&str>> = Rule::ALL
        .iter()
        .map(|&rule| match family(rule) {
            Some(family) => family.first_lists().flatten().copied().collect(),
            // Words are matched in the text's normalized form: a
            // Cyrillic label's lookalike letters are folded there too.
            None => normalize::leak_normalized(words(rule)).to_vec(),
        })
        .collect();
    let mut owned: Vec<Doors> = Rule::ALL.iter().map(|r| Doors::one(r.index())).collect();
    for rule in Rule::ALL {
        if let Some(gates) = gated(rule) {
            gates.place(lists.len());
            for list in gates.lists() {
                owned[rule.index()] |= Doors::one(lists.len());
                lists.push(list.to_vec());
            }
        }
    }
    (lists, owned)
});

/// The doors of one pass over a text.
static DOORS: LazyLock<Keywords> = LazyLock::new(|| doors_of(|_| true));

/// The doors of the rules that read `reads`, the others shut: a smaller
/// automaton for a form of the text that only some rules read.
fn doors_of(reads: impl Fn(Rule) -> bool) -> Keywords {
    let (lists, owned) = &*DOOR_WORDS;
    let mask = Rule::ALL
        .iter()
        .filter(|&&rule| reads(rule))
        .fold(Doors::NONE, |mask, rule| mask | owned[rule.index()]);
    let lists: Vec<&[&str]> = lists.iter().map(Vec::as_slice).collect();
    Keywords::only(&lists, mask)
}

/// The patterns of `rule` that sit behind gates of their own: all of a
/// gated family's, and some of a rule whose door has words of its own.
fn gated(rule: Rule) -> Option<&'static Gates> {
    match rule {
        Rule::SecretUrl => Some(&secret_url::GATES),
        _ => family(rule),
    }
}

/// The rules whose every pattern sits behind a gate of its own.
fn family(rule: Rule) -> Option<&'static Gates> {
    match rule {
        Rule::CredentialOther => Some(&vendor::OTHER_GATES),
        Rule::CredentialAssignment => Some(&assignment::GATES),
        Rule::CredentialCommandLine => Some(&command_line::GATES),
        Rule::PromptOverride => Some(&prompt::GATES),
        Rule::UnsafeCommand => Some(&command::GATES),
        _ => None,
    }
}

fn detect<'s>(
    rule: Rule,
    text: &str,
    doors: Doors,
    stands: &'s dyn Fn(&Range<usize>) -> bool,
) -> Found<'s> {
    let spans = match rule {
        Rule::HomePath => home_path::home_path(text),
        Rule::CredentialGithub => vendor::github(text),
        Rule::CredentialOpenai => return vendor::openai(text, stands),
        Rule::CredentialAnthropic => vendor::anthropic(text),
        Rule::CredentialSlack => return vendor::slack(text, stands),
        Rule::CredentialAws => return vendor::aws(text, stands),
        Rule::CredentialGoogle => return vendor::google(text, stands),
        Rule::CredentialStripe => vendor::stripe(text),
        Rule::CredentialNpm => return vendor::npm(text, stands),
        Rule::CredentialJwt => vendor::jwt(text),
        Rule::CredentialPrivateKey => vendor::private_key(text),
        Rule::CredentialOther => vendor::other_vendor(text, doors),
        Rule::CredentialTwilio => vendor::twilio(text),
        Rule::CredentialTelegram => return vendor::telegram(text, stands),
        Rule::CredentialDiscord => return vendor::discord(text, stands),
        Rule::CredentialAzure => return vendor::azure(text, stands),
        Rule::CredentialAssignment => return assignment::assignment(text, doors, stands),
        Rule::CredentialCommandLine => command_line::command_line(text, doors),
        Rule::SecretUrl => return secret_url::secret_url(text, doors, stands),
        Rule::SessionId => return session::session_id(text, stands),
        Rule::PromptOverride => return prompt::prompt_override(text, doors, stands),
        Rule::UnsafeCommand => command::unsafe_command(text, doors),
        Rule::TlsVerificationDisabled => tls::tls_verification_disabled(text),
        Rule::GitSafeguardBypass => git::git_safeguard_bypass(text),
        Rule::WorldWritable => permissions::world_writable(text),
    };
    let mut found = Found::new(stands);
    found.stage(|| spans);
    found
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

    /// Gate words must be necessary conditions: a gate that stays shut
    /// where its pattern would match silently drops a finding. Over every
    /// labelled case, screening with the gates gives exactly what
    /// screening without them gives.
    #[test]
    fn gates_never_change_a_verdict_and_scan_names_the_hits_rules() {
        let extra = [
            "echo 'hunter22' | sudo -S apt-get update",
            "claude -r 0198a6c2-7e1b-7c3d-9f00-2b4d8e6a1c55",
            "ssh-keygen -N 'abc123' -f k",
            "sshpass -p Qw3rty ssh host",
            "composer config -g secure-http false && composer install",
        ];
        // The test part stays out: a verdict that differs there would show
        // a held-out case before its one measurement.
        let texts = corpus::part(corpus::Part::Train)
            .into_iter()
            .chain(corpus::part(corpus::Part::Seen))
            .map(|c| c.text)
            .chain(extra.map(String::from));
        for text in texts {
            for commands in [false, true] {
                let screened = screen_with_suppressed(&text, commands);
                assert_eq!(
                    screened,
                    gate::tests::without_gates(|| screen_with_suppressed(&text, commands)),
                    "{text:?}"
                );
                // `scan` stops early; it must name the rules of the hits.
                let mut rules: Vec<Rule> = screened
                    .iter()
                    .filter(|(_, suppressor)| suppressor.is_none())
                    .map(|(hit, _)| hit.rule)
                    .collect();
                rules.sort();
                rules.dedup();
                assert_eq!(scan(&text, commands), rules, "{text:?}");
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
            "docker login -p ",
            "mysql -p",
            "echo x | sudo -S ",
            "\nHuman: ",
            "\nAssistant: ",
            "<system>",
            "</user>",
            "git push --force ",
            "verify=False",
            "chmod 777 /",
            "twilio",
            "123456789:",
            "Bearer ",
            "IDENTIFIED BY '",
            "--password ",
        ];
        prop::collection::vec(prop::sample::select(pieces), 0..64).prop_map(|p| p.concat())
    }

    fn any_text() -> impl Strategy<Value = String> {
        prop_oneof![any::<String>(), tricky_text()]
    }

    /// 2,000 cases a run; `PROPTEST_CASES` asks for more when hunting.
    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(2000)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// Gates only skip work: screening with them finds what screening
        /// without them finds.
        #[test]
        fn gates_only_skip_work(text in any_text(), commands in any::<bool>()) {
            prop_assert_eq!(
                screen_with_suppressed(&text, commands),
                gate::tests::without_gates(|| screen_with_suppressed(&text, commands))
            );
        }

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
