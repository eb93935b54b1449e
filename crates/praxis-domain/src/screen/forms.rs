//! The other forms of a text that some rules read too: leetspeak spelled
//! out, ROT13 rotated back, a command as the shell reads it, base64 runs
//! decoded, and so on. Each form is made only when a rule that reads it
//! asks, so that a text that a rule has already fired on, or that no
//! reader of a form is left to read, never pays for that form.

use std::cell::OnceCell;
use std::ops::Range;
use std::sync::LazyLock;

use super::gate::{Doors, Keywords};
use super::{Rule, decode, doors_of, expand, normalize, wrap};

/// One form of a text, with its doors and the way back to the bytes of the
/// text as matched.
pub(super) struct Form {
    /// The text of the form.
    pub(super) text: String,
    /// Its doors, opened by the words of the rules that read it.
    pub(super) doors: Doors,
    /// For each byte of `text`, the byte it came from; `None` when the
    /// offsets agree.
    origin: Option<Vec<usize>>,
}

/// A form's text, and the byte each of its bytes came from when the
/// offsets differ.
type Made = Option<(String, Option<Vec<usize>>)>;

/// How one form is made and who reads it.
struct Kind {
    /// Makes the form of a text (the flag says whether it is a command), or
    /// nothing where the form would add nothing.
    make: fn(&str, bool) -> Made,
    /// The doors of the form's readers.
    keywords: &'static LazyLock<Keywords>,
    /// The rules that read the form.
    rules: fn(Rule) -> bool,
}

static ORDERS: LazyLock<Keywords> = LazyLock::new(|| doors_of(order_readers));
static VENDORS: LazyLock<Keywords> = LazyLock::new(|| doors_of(token_readers));
static DECODED: LazyLock<Keywords> = LazyLock::new(|| doors_of(decoded_readers));
static COMMANDS: LazyLock<Keywords> = LazyLock::new(|| doors_of(shell_readers));
static BASE64: LazyLock<Keywords> = LazyLock::new(|| doors_of(base64_readers));
static ARGV: LazyLock<Keywords> = LazyLock::new(|| doors_of(argv_readers));

/// A form that keeps the offsets.
fn same(form: Option<String>) -> Made {
    form.map(|text| (text, None))
}

/// A form that maps its offsets back.
fn mapped(form: Option<(String, Vec<usize>)>) -> Made {
    form.map(|(text, origin)| (text, Some(origin)))
}

/// The forms worth reading, in the order they are read: leetspeak spelled
/// out, in prose, letters rotated back where the text names ROT13 and lines
/// read backwards where it says to, Markdown emphasis left out, for prompt
/// overrides (an order to the reader is prose; a command's digits are its
/// own), words written apart put back together for them too, a command as
/// the shell reads it (`c''url … | b\ash`, continuations joined) and as it
/// expands it (`$(echo … | base64 -d)`, `$VAR` set before) for the
/// command-field rules, argument lists (an audit log's `EXECVE` record, an
/// argv array) as their command lines for credentials on a command line
/// (in prose too), and for vendor tokens: adjacent string literals joined
/// (`"ghp_" + "…"`, split to dodge a scanner), percent-encoding decoded (a
/// webhook URL inside a query parameter; session cookies and home paths
/// read it too), wrapped lines put back together and base64 runs decoded
/// (which prompt overrides read too).
static KINDS: [Kind; 12] = [
    Kind {
        make: |text, commands| same((!commands).then(|| normalize::unleet(text)).flatten()),
        keywords: &ORDERS,
        rules: order_readers,
    },
    Kind {
        make: |text, _| same(normalize::rot13(text)),
        keywords: &ORDERS,
        rules: order_readers,
    },
    Kind {
        make: |text, commands| mapped((!commands).then(|| decode::unemphasized(text)).flatten()),
        keywords: &ORDERS,
        rules: order_readers,
    },
    Kind {
        make: |text, _| mapped(decode::reversed(text)),
        keywords: &ORDERS,
        rules: order_readers,
    },
    Kind {
        make: |text, _| mapped(normalize::rejoined(text)),
        keywords: &ORDERS,
        rules: order_readers,
    },
    Kind {
        make: |text, commands| mapped(commands.then(|| normalize::dequoted(text)).flatten()),
        keywords: &COMMANDS,
        rules: shell_readers,
    },
    Kind {
        make: |text, commands| mapped(commands.then(|| expand::expanded(text)).flatten()),
        keywords: &COMMANDS,
        rules: shell_readers,
    },
    Kind {
        make: |text, _| mapped(decode::argv_joined(text)),
        keywords: &ARGV,
        rules: argv_readers,
    },
    Kind {
        make: |text, _| mapped(normalize::joined_literals(text)),
        keywords: &VENDORS,
        rules: token_readers,
    },
    Kind {
        make: |text, _| mapped(decode::percent_decoded(text)),
        keywords: &DECODED,
        rules: decoded_readers,
    },
    Kind {
        make: |text, _| mapped(wrap::unwrapped(text)),
        keywords: &VENDORS,
        rules: token_readers,
    },
    Kind {
        make: |text, _| mapped(decode::base64_decoded(text)),
        keywords: &BASE64,
        rules: base64_readers,
    },
];

/// The forms of one text, each made the first time a reader asks for it.
pub(super) struct Forms<'a> {
    matched: &'a str,
    commands: bool,
    made: [OnceCell<Option<Form>>; 12],
}

impl<'a> Forms<'a> {
    /// The forms of `matched` (a command when `commands`), none made yet.
    pub(super) fn of(matched: &'a str, commands: bool) -> Self {
        Self {
            matched,
            commands,
            made: Default::default(),
        }
    }

    /// The forms that `rule` reads and whose doors open for it, in order,
    /// each made as the iteration reaches it.
    pub(super) fn read_by(&self, rule: Rule) -> impl Iterator<Item = &Form> {
        KINDS
            .iter()
            .zip(&self.made)
            .filter(move |(kind, _)| (kind.rules)(rule))
            .filter_map(|(kind, cell)| {
                cell.get_or_init(|| {
                    (kind.make)(self.matched, self.commands).map(|(text, origin)| Form {
                        doors: kind.keywords.open(&text),
                        text,
                        origin,
                    })
                })
                .as_ref()
            })
            .filter(move |form| form.doors.has(rule.index()))
    }
}

/// The rules that read the forms made for tokens: vendor tokens, and
/// private keys (a key block percent-encoded in a form body).
fn token_readers(rule: Rule) -> bool {
    rule.is_vendor_token() || rule == Rule::CredentialPrivateKey
}

/// The rules that read base64 runs decoded: those of tokens, and prompt
/// overrides (an order encoded, with the order to decode and obey it).
fn base64_readers(rule: Rule) -> bool {
    token_readers(rule) || rule == Rule::PromptOverride
}

/// The rules that read argument lists as command lines: credentials on a
/// command line only, as a list in data (a deny list's `["rm", "-rf",
/// "/"]`) is not run.
fn argv_readers(rule: Rule) -> bool {
    rule == Rule::CredentialCommandLine
}

/// The rules that read a command as the shell reads it: those of command
/// fields, credentials on a command line and secret URLs.
fn shell_readers(rule: Rule) -> bool {
    rule.commands_only() || matches!(rule, Rule::CredentialCommandLine | Rule::SecretUrl)
}

/// The rules that read a text percent-decoded (JSON's `\u00XX` escapes
/// too): those of tokens, and session cookies, home paths, secret URLs,
/// orders logged inside an encoded URL or header, and assignments whose key
/// was escaped to slip past a filter (`"pass\u0077ord"`).
fn decoded_readers(rule: Rule) -> bool {
    token_readers(rule)
        || matches!(
            rule,
            Rule::SessionId
                | Rule::HomePath
                | Rule::SecretUrl
                | Rule::PromptOverride
                | Rule::CredentialAssignment
        )
}

/// The rules that read leetspeak spelled out, ROT13 rotated back and words
/// put back together.
fn order_readers(rule: Rule) -> bool {
    rule == Rule::PromptOverride
}

impl Form {
    /// `span` of this form as a span of the matched text, `len` bytes
    /// long. The span ends where the next byte came from, so that a byte
    /// that stands for several (an entity's `&lt;`) is taken whole.
    pub(super) fn back(&self, span: Range<usize>, len: usize) -> Option<Range<usize>> {
        match &self.origin {
            None => Some(span),
            Some(origin) => {
                let start = *origin.get(span.start)?;
                let last = *origin.get(span.end.checked_sub(1)?)?;
                if last < start {
                    // A line read backwards: its bytes came in reverse.
                    let from = origin.get(span)?;
                    let first = *from.iter().min()?;
                    return Some(first..*from.iter().max()? + 1);
                }
                let end = origin.get(span.end).copied().unwrap_or(len).max(last + 1);
                Some(start..end)
            }
        }
    }
}
