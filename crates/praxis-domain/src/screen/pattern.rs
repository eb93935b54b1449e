//! Compiling the screening patterns, and matching helpers the rule
//! families share.

use std::ops::Range;

use regex::{Captures, Regex, RegexBuilder};

use super::normalize::{leak_normalized, normalize};

/// Compiles a screening pattern; a broken one is a bug caught by the first
/// test that touches its rule.
///
/// Word boundaries, word characters and digits are taken in their ASCII
/// sense ([`ascii_classes`]): what the rules look for is ASCII, and a
/// Unicode word boundary makes the lazy DFA give up on the first non-ASCII
/// byte and fall back to a far slower engine.
///
/// Each pattern's lazy DFA gets [`DFA_CACHE`] bytes for its states.
pub(super) fn regex(pattern: &str) -> Regex {
    let pattern = ascii_classes(pattern);
    RegexBuilder::new(&pattern)
        .dfa_size_limit(DFA_CACHE)
        .build()
        .unwrap_or_else(|e| panic!("screening pattern {pattern:?}: {e}"))
}

/// The room a pattern's lazy DFA has for the states it builds as it
/// scans. With the default 2 MiB, the larger patterns (long alternations
/// of phrases, bounded gaps between words) fill it, clear it and build the
/// same states again text after text: building states was 8% of screening
/// time. At 8 MiB a few still did (a pass over the corpus took 16.3 s);
/// at 32 MiB it takes 15.2 s, and more room gains nothing. The cache is
/// per pattern and per thread, and grows only as far as a pattern's
/// states need.
const DFA_CACHE: usize = 32 << 20;

/// A pattern written in other scripts with the gate words it needs, both
/// in their normalized form (lookalike letters folded as the screened
/// text's are), so that folding treats pattern, words and text alike.
pub(super) struct ScriptPattern {
    /// The compiled pattern.
    pub(super) pattern: Regex,
    /// Its gate words, normalized.
    pub(super) words: &'static [&'static str],
}

impl ScriptPattern {
    /// Compiles `pattern` and `words` from their normalized forms.
    pub(super) fn new(pattern: &str, words: &[&str]) -> Self {
        Self {
            pattern: regex(normalize(pattern).as_str()),
            words: leak_normalized(words),
        }
    }
}

/// `pattern` with `\b`, `\B`, `\w` and `\d` made ASCII-only, in and out of
/// bracketed classes.
fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars().peekable();
    // Depth of bracketed classes (`[[:alpha:]]` and nested sets nest).
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(next) = chars.next() else {
                    out.push(c);
                    break;
                };
                match (next, depth) {
                    ('b' | 'B', 0) => {
                        out.push_str("(?-u:\\");
                        out.push(next);
                        out.push(')');
                    }
                    ('w', 0) => out.push_str("[0-9A-Za-z_]"),
                    ('d', 0) => out.push_str("[0-9]"),
                    ('w', _) => out.push_str("0-9A-Za-z_"),
                    ('d', _) => out.push_str("0-9"),
                    _ => {
                        out.push(c);
                        out.push(next);
                    }
                }
            }
            '[' => {
                depth += 1;
                out.push(c);
                // A `]` or `^]` right after the opening bracket is a literal.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if depth > 0 => {
                depth -= 1;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Declares a pattern compiled on first use, private unless a visibility
/// comes before its name.
macro_rules! lazy_regex {
    ($(#[$doc:meta])* $vis:vis $name:ident, $pattern:expr) => {
        $(#[$doc])*
        $vis static $name: ::std::sync::LazyLock<::regex::Regex> =
            ::std::sync::LazyLock::new(|| $crate::screen::pattern::regex($pattern));
    };
}
pub(super) use lazy_regex;

/// Byte ranges of the matched text where a rule fired.
pub(super) type Spans = Vec<Range<usize>>;

/// What a rule found on one text, gathered stage by stage. A caller that
/// only asks whether the rule fires (`scan`) says which spans stand; once
/// one does, the later stages are skipped, as their spans could not change
/// the answer. A caller that wants every span says none stands.
pub(super) struct Found<'s> {
    spans: Spans,
    stands: &'s dyn Fn(&Range<usize>) -> bool,
    stood: bool,
}

impl<'s> Found<'s> {
    /// Nothing found yet; `stands` judges each span as it comes.
    pub(super) fn new(stands: &'s dyn Fn(&Range<usize>) -> bool) -> Self {
        Self {
            spans: Vec::new(),
            stands,
            stood: false,
        }
    }

    /// Runs `stage` unless a span already stands, and keeps its spans up
    /// to the first that stands: a lazy stage (an iterator of matches)
    /// searches no further.
    pub(super) fn stage<I: IntoIterator<Item = Range<usize>>>(
        &mut self,
        stage: impl FnOnce() -> I,
    ) {
        if self.stood {
            return;
        }
        for span in stage() {
            let stands = (self.stands)(&span);
            self.spans.push(span);
            if stands {
                self.stood = true;
                return;
            }
        }
    }

    /// Whether a span found stands.
    pub(super) fn stood(&self) -> bool {
        self.stood
    }

    /// The spans found, in the order found.
    pub(super) fn into_spans(self) -> Spans {
        self.spans
    }
}

/// Every match of `re` (its whole span); none when its gate is closed.
pub(super) fn matches(re: Option<&Regex>, text: &str) -> Spans {
    re.into_iter()
        .flat_map(|re| re.find_iter(text))
        .map(|m| m.range())
        .collect()
}

/// The spans of the matches of `re` that `accept` takes, trying the next
/// match right after each rejected key (group 1) rather than after the
/// whole match: in `postgres: POSTGRES_PASSWORD=x` the first candidate's
/// value holds the real assignment. An accepted match is reported by the
/// span of its group `report` (or the whole match, when that group did not
/// take part).
pub(super) fn candidates<'t>(
    re: Option<&'t Regex>,
    text: &'t str,
    report: usize,
    accept: impl Fn(&Captures<'_>) -> bool + 't,
) -> impl Iterator<Item = Range<usize>> + 't {
    let mut at = 0;
    std::iter::from_fn(move || {
        let re = re?;
        while at <= text.len() {
            let c = re.captures_at(text, at)?;
            let whole = c.get(0).map_or(at..text.len(), |m| m.range());
            let accepted = accept(&c).then(|| c.get(report).map_or(whole.clone(), |m| m.range()));
            at = match accepted {
                Some(_) => whole.end.max(at + 1),
                None => c.get(1).map_or(text.len(), |m| m.end()),
            };
            while at <= text.len() && !text.is_char_boundary(at) {
                at += 1;
            }
            if accepted.is_some() {
                return accepted;
            }
        }
        None
    })
}

/// The whole spans of the matches of `re` whose first participating group
/// `accept` takes: for tokens whose prefix belongs to the secret (`ghp_…`),
/// so that redacting the span removes all of it.
pub(super) fn tokens(re: Option<&Regex>, text: &str, accept: impl Fn(&str) -> bool) -> Spans {
    re.into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter(|c| {
            c.iter()
                .skip(1)
                .flatten()
                .next()
                .is_some_and(|m| accept(m.as_str()))
        })
        .filter_map(|c| c.get(0).map(|m| m.range()))
        .collect()
}

/// The spans of the first participating group of each match of `re`
/// (patterns with alternatives capture one group per alternative) that
/// `accept` takes.
pub(super) fn groups(re: Option<&Regex>, text: &str, accept: impl Fn(&str) -> bool) -> Spans {
    re.into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter_map(|c| c.iter().skip(1).flatten().next())
        .filter(|m| accept(m.as_str()))
        .map(|m| m.range())
        .collect()
}

/// Where `word` (ASCII lowercase) stands in `text`, in any ASCII case.
pub(super) fn find_ignoring_case<'t>(
    text: &'t str,
    word: &'t str,
) -> impl Iterator<Item = usize> + 't {
    let (bytes, needle) = (text.as_bytes(), word.as_bytes());
    let first = needle.first().copied().unwrap_or(0);
    // The first letter in either case, found by a vectorized scan.
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), bytes).filter(move |&i| {
        bytes
            .get(i..i + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })
}

/// Whether `text` contains one of `words` (ASCII lowercase) in any ASCII
/// case.
pub(super) fn contains_any_ignoring_case(text: &str, words: &[&str]) -> bool {
    words.iter().any(|w| contains_ignoring_case(text, w))
}

/// Whether `text` contains `word` (ASCII lowercase) in any ASCII case.
pub(super) fn contains_ignoring_case(text: &str, word: &str) -> bool {
    word.is_empty() || find_ignoring_case(text, word).next().is_some()
}

/// The last `max` bytes or fewer of `text[..end]` (from a character's
/// start), in ASCII lowercase: what a check of the words just before a
/// match reads, without copying the whole text for every match.
pub(super) fn lead_lower(text: &str, end: usize, max: usize) -> String {
    let mut from = end.saturating_sub(max);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    text[from..end].to_ascii_lowercase()
}

/// Shell words of an argument string, quotes removed: a quoted path with a
/// space (`"C:\Program Files"`) is one word.
pub(super) fn shell_words(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote = None;
    for c in args.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, c) if c.is_whitespace() => {
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
            }
            (_, c) => current.push(c),
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{ascii_classes, contains_ignoring_case};

    #[test]
    fn words_are_found_in_any_ascii_case() {
        assert!(contains_ignoring_case("see DiScOrD.com", "discord"));
        assert!(contains_ignoring_case("discord", "discord"));
        assert!(!contains_ignoring_case("discor", "discord"));
        assert!(!contains_ignoring_case("díscord", "discord"));
    }

    #[test]
    fn classes_become_ascii_in_and_out_of_brackets() {
        assert_eq!(ascii_classes(r"\bkey\b"), r"(?-u:\b)key(?-u:\b)");
        assert_eq!(ascii_classes(r"\w+\d"), r"[0-9A-Za-z_]+[0-9]");
        assert_eq!(ascii_classes(r"[\w.-]"), r"[0-9A-Za-z_.-]");
        assert_eq!(ascii_classes(r"[^\d\s]"), r"[^0-9\s]");
        // Escaped brackets and backslashes are no classes.
        assert_eq!(ascii_classes(r"\[\w\]"), r"\[[0-9A-Za-z_]\]");
        assert_eq!(ascii_classes(r"\\w"), r"\\w");
        assert_eq!(ascii_classes(r"[]\w]"), r"[]0-9A-Za-z_]");
        assert_eq!(ascii_classes(r"\s\S\."), r"\s\S\.");
    }
}
