//! Keyword gates. Most screening patterns can only match where one of a
//! few words occurs; a regex scan costs about as much whether or not it
//! matches, so scanning with every pattern would cost every text the sum of
//! all of them. One Aho-Corasick pass (ASCII case-insensitive) finds which
//! words a text holds; a door per rule and per gated pattern opens on its
//! words, and only what is behind an open door runs.
//!
//! A gate word must be a necessary condition: every match of its pattern
//! contains one of its words, in any ASCII case. The screening tests check
//! that closing gates never changes a verdict.
//!
//! A word written `\bword`, `word\b` or `\bword\b` counts only where it
//! meets an ASCII word boundary on that side, as `(?-u:\b)` would see it
//! (no letter, digit or `_` next to it): so `\bif\b` opens on "if you" but
//! not on "verify", which a pattern that needs the word itself never
//! matches.

use std::sync::OnceLock;

use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::nfa::contiguous::NFA;
use aho_corasick::{Anchored, MatchKind};
use regex::{Captures, Match, Regex};

/// Which doors are open, one bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Doors([u64; 5]);

impl Doors {
    /// How many doors there are.
    pub(super) const CAPACITY: usize = 320;
    /// Every door shut.
    pub(super) const NONE: Self = Self([0; 5]);
    /// Every door open.
    #[cfg(test)]
    pub(super) const ALL: Self = Self([u64::MAX; 5]);

    /// Door `door` alone.
    pub(super) fn one(door: usize) -> Self {
        let mut doors = Self::NONE;
        doors.0[door / 64] = 1 << (door % 64);
        doors
    }

    /// Whether door `door` is open.
    pub(super) fn has(self, door: usize) -> bool {
        (self.0[door / 64] >> (door % 64)) & 1 == 1
    }

    /// The 128 doors from `offset` on, one bit each.
    pub(super) fn window(self, offset: usize) -> u128 {
        u128::from(self.window64(offset)) | (u128::from(self.window64(offset + 64)) << 64)
    }

    /// The 64 doors from `offset` on, one bit each.
    fn window64(self, offset: usize) -> u64 {
        let (word, shift) = (offset / 64, offset % 64);
        let low = self.0.get(word).map_or(0, |w| w >> shift);
        let high = match shift {
            0 => 0,
            _ => self.0.get(word + 1).map_or(0, |w| w << (64 - shift)),
        };
        low | high
    }
}

impl std::ops::BitOr for Doors {
    type Output = Self;

    fn bitor(mut self, other: Self) -> Self {
        self |= other;
        self
    }
}

impl std::ops::BitOrAssign for Doors {
    fn bitor_assign(&mut self, other: Self) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine |= theirs;
        }
    }
}

/// Words, each opening some of up to [`Doors::CAPACITY`] doors.
pub(super) struct Keywords {
    /// Stepped byte by byte: a match state holds every word that ends
    /// there, so one pass finds all of them, overlapping or not. A
    /// contiguous NFA, not a DFA: the main pass's DFA (over a thousand
    /// words) took 5.4 MB, beyond the core's caches, so each step was a
    /// likely miss; the NFA takes under 0.5 MB.
    automaton: NFA,
    start: StateID,
    /// For each word of the automaton, the doors it opens wherever it
    /// occurs.
    doors: Vec<Doors>,
    /// For each word of the automaton that some list marks with a
    /// boundary, its length and the doors it opens with a boundary before
    /// it, after it, and on both sides.
    bounded: Vec<Option<Bounded>>,
    /// Doors without words, open to every text.
    always: Doors,
}

/// The doors a word opens only at word boundaries.
#[derive(Clone, Copy, Debug)]
struct Bounded {
    /// The word's length in bytes.
    len: usize,
    /// Doors it opens with a boundary before it.
    before: Doors,
    /// Doors it opens with a boundary after it.
    after: Doors,
    /// Doors it opens with a boundary on both sides.
    both: Doors,
}

/// Whether `byte` is a word byte of `(?-u:\b)`: an ASCII letter, digit or
/// `_`.
fn word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// A gate word and its boundary marks: `\bword\b` is `word` with a
/// boundary needed before and after it.
fn marks(word: &str) -> (&str, bool, bool) {
    let (word, before) = match word.strip_prefix("\\b") {
        Some(rest) => (rest, true),
        None => (word, false),
    };
    let (word, after) = match word.strip_suffix("\\b") {
        Some(rest) => (rest, true),
        None => (word, false),
    };
    assert!(
        !(before || after) || word.is_ascii(),
        "a bounded gate word is ASCII: {word:?}"
    );
    (word, before, after)
}

impl Keywords {
    /// Door `i` opens on any word of `lists[i]`, or always when the list is
    /// empty.
    #[cfg(test)]
    pub(super) fn new(lists: &[&[&str]]) -> Self {
        Self::only(lists, Doors::ALL)
    }

    /// As [`Keywords::new`], with only the doors of `keep`: the others stay
    /// shut, and their words are left out of the automaton.
    pub(super) fn only(lists: &[&[&str]], keep: Doors) -> Self {
        assert!(
            lists.len() <= Doors::CAPACITY,
            "at most {} doors",
            Doors::CAPACITY
        );
        let mut words: Vec<String> = Vec::new();
        let mut doors: Vec<Doors> = Vec::new();
        let mut bounded: Vec<Option<Bounded>> = Vec::new();
        let mut always = Doors::NONE;
        for (door, list) in lists.iter().enumerate() {
            if !keep.has(door) {
                continue;
            }
            if list.is_empty() {
                always |= Doors::one(door);
            }
            for (word, before, after) in list.iter().map(|w| marks(w)) {
                for word in cased(word) {
                    let i = words.iter().position(|w| *w == word).unwrap_or_else(|| {
                        words.push(word.clone());
                        doors.push(Doors::NONE);
                        bounded.push(None);
                        words.len() - 1
                    });
                    let one = Doors::one(door);
                    if !(before || after) {
                        doors[i] |= one;
                        continue;
                    }
                    let b = bounded[i].get_or_insert(Bounded {
                        len: word.len(),
                        before: Doors::NONE,
                        after: Doors::NONE,
                        both: Doors::NONE,
                    });
                    match (before, after) {
                        (true, true) => b.both |= one,
                        (true, false) => b.before |= one,
                        _ => b.after |= one,
                    }
                }
            }
        }
        let automaton = NFA::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&words)
            .expect("gate words");
        let start = automaton
            .start_state(Anchored::No)
            .expect("an unanchored start");
        Self {
            automaton,
            start,
            doors,
            bounded,
            always,
        }
    }

    /// The doors the words in `text` open.
    pub(super) fn open(&self, text: &str) -> Doors {
        #[cfg(test)]
        if tests::all_open() {
            return Doors::ALL;
        }
        let dfa = &self.automaton;
        let bytes = text.as_bytes();
        let mut open = self.always;
        let mut state = self.start;
        for (at, &byte) in bytes.iter().enumerate() {
            state = dfa.next_state(Anchored::No, state, byte);
            if dfa.is_special(state) && dfa.is_match(state) {
                for i in 0..dfa.match_len(state) {
                    let word = dfa.match_pattern(state, i).as_usize();
                    open |= self.doors[word];
                    if let Some(b) = &self.bounded[word] {
                        let end = at + 1;
                        let before = end == b.len || !word_byte(bytes[end - b.len - 1]);
                        let after = bytes.get(end).is_none_or(|&next| !word_byte(next));
                        if before {
                            open |= b.before;
                        }
                        if after {
                            open |= b.after;
                        }
                        if before && after {
                            open |= b.both;
                        }
                    }
                }
            }
        }
        open
    }
}

/// The forms of a gate word the automaton must hold: the word itself, and
/// for a word with letters beyond ASCII (which the automaton's case folding
/// does not reach) its capitalized and all-capitals forms too, as a shouted
/// "ИГНОРИРУЙ ВСЕ ПРЕДЫДУЩИЕ ИНСТРУКЦИИ" is still an order.
fn cased(word: &str) -> Vec<String> {
    let lower = word.to_ascii_lowercase();
    if word.is_ascii() {
        return vec![lower];
    }
    let mut chars = lower.chars();
    let capitalized: String = chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    // Repeated forms (a script without case) are merged by the caller.
    vec![lower.clone(), capitalized, lower.to_uppercase()]
}

/// Patterns, each behind the words that can open it. Their doors sit in
/// the one [`Keywords`] pass over the text, from the offset it gave them.
pub(super) struct Gates {
    entries: Vec<(&'static Regex, &'static [&'static str])>,
    /// Second word lists of some of the patterns: such a pattern runs only
    /// where a word of each of its two lists occurs.
    also: Vec<(&'static Regex, &'static [&'static str])>,
    /// Each pattern's address, door and second door, in an open-addressed
    /// table hashed by address: asked for every pattern of every text, so
    /// found in a probe or two (a binary search was 2% of screening time).
    doors: Vec<Option<(usize, u32, Option<u32>)>>,
    /// The second door of each first door, in door order.
    seconds: Vec<Option<u32>>,
    offset: OnceLock<u32>,
}

impl Gates {
    /// Each pattern runs only on text holding one of its words.
    pub(super) fn new(entries: Vec<(&'static Regex, &'static [&'static str])>) -> Self {
        Self::with_also(entries, Vec::new())
    }

    /// As [`Gates::new`], and each pattern of `also` needs a word of its
    /// second list as well: for patterns that need two things, each of
    /// which alone is common (a tool's name and a flag).
    pub(super) fn with_also(
        entries: Vec<(&'static Regex, &'static [&'static str])>,
        also: Vec<(&'static Regex, &'static [&'static str])>,
    ) -> Self {
        assert!(
            entries.len() + also.len() <= FAMILY_DOORS,
            "at most {FAMILY_DOORS} doors in a family"
        );
        let second = |pattern: &Regex| {
            (0u32..)
                .zip(&also)
                .find(|(_, (p, _))| address(p) == address(pattern))
                .map(|(i, _)| u32::try_from(entries.len()).expect("door") + i)
        };
        let seconds: Vec<Option<u32>> = entries.iter().map(|(p, _)| second(p)).collect();
        // At most half full, so that a probe for a pattern that is not
        // gated soon meets an empty slot.
        let mut doors = vec![None; TABLE];
        for ((door, (pattern, _)), &second) in (0u32..).zip(&entries).zip(&seconds) {
            let mut slot = slot(address(pattern));
            while doors[slot].is_some() {
                slot = (slot + 1) % TABLE;
            }
            doors[slot] = Some((address(pattern), door, second));
        }
        assert!(
            also.iter()
                .all(|(p, _)| entries.iter().any(|(e, _)| address(e) == address(p))),
            "a second list belongs to a gated pattern"
        );
        Self {
            entries,
            also,
            doors,
            seconds,
            offset: OnceLock::new(),
        }
    }

    /// The first word lists, in door order: what a text must hold for any
    /// of the family's patterns to run.
    pub(super) fn first_lists(&self) -> impl Iterator<Item = &'static [&'static str]> + '_ {
        self.entries.iter().map(|(_, words)| *words)
    }

    /// Every word list, in door order (the first lists, then the second).
    pub(super) fn lists(&self) -> impl Iterator<Item = &'static [&'static str]> + '_ {
        self.first_lists()
            .chain(self.also.iter().map(|(_, words)| *words))
    }

    /// Records where these doors start.
    pub(super) fn place(&self, offset: usize) {
        let offset = u32::try_from(offset).expect("door offset");
        self.offset.get_or_init(|| offset);
    }

    /// Which of the patterns the open `doors` admit. Before its doors are
    /// placed, a family admits every pattern.
    pub(super) fn open(&self, doors: Doors) -> Open<'_> {
        let bits = self
            .offset
            .get()
            .map_or(u128::MAX, |&offset| doors.window(offset as usize));
        Open { gates: self, bits }
    }
}

/// The patterns of a [`Gates`] that one text opened.
pub(super) struct Open<'g> {
    gates: &'g Gates,
    bits: u128,
}

impl Open<'_> {
    /// The patterns whose gates are open, in door order: for families that
    /// run many patterns alike, cheaper than asking for each in turn.
    pub(super) fn patterns(&self) -> impl Iterator<Item = &'static Regex> + '_ {
        let shut = |door: u32| self.bits & (1 << door) == 0;
        (0u32..)
            .zip(&self.gates.entries)
            .zip(&self.gates.seconds)
            .filter(move |((door, _), second)| !shut(*door) && !second.is_some_and(shut))
            .map(|((_, (pattern, _)), _)| *pattern)
    }

    /// `pattern` when its gate is open (or it has none), else `None`.
    pub(super) fn get(&self, pattern: &'static Regex) -> Option<&'static Regex> {
        let shut = |door: u32| self.bits & (1 << door) == 0;
        let at = address(pattern);
        let mut slot = slot(at);
        while let Some((address, door, second)) = self.gates.doors[slot] {
            if address == at {
                return (!shut(door) && !second.is_some_and(shut)).then_some(pattern);
            }
            slot = (slot + 1) % TABLE;
        }
        Some(pattern)
    }
}

impl Open<'_> {
    /// The matches of `pattern` with their groups; none when its gate is
    /// shut.
    pub(super) fn captures<'t>(
        &self,
        pattern: &'static Regex,
        text: &'t str,
    ) -> impl Iterator<Item = Captures<'t>> {
        self.get(pattern)
            .into_iter()
            .flat_map(move |re| re.captures_iter(text))
    }

    /// The matches of `pattern`; none when its gate is shut.
    pub(super) fn find<'t>(
        &self,
        pattern: &'static Regex,
        text: &'t str,
    ) -> impl Iterator<Item = Match<'t>> {
        self.get(pattern)
            .into_iter()
            .flat_map(move |re| re.find_iter(text))
    }
}

/// The most doors a family has: one bit each in an [`Open`]'s `u128`.
const FAMILY_DOORS: usize = 128;

/// The slots of a family's table of doors: twice its most doors, a power
/// of two.
const TABLE: usize = 2 * FAMILY_DOORS;

/// Where the table of doors starts looking for the pattern at `address`
/// (Fibonacci hashing: statics sit at multiples of their alignment, so the
/// low bits alone would crowd a few slots; the high bits of the product
/// index the table).
fn slot(address: usize) -> usize {
    const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
    const _: () = assert!(TABLE.is_power_of_two());
    let hash = (address as u64).wrapping_mul(GOLDEN) >> (64 - TABLE.trailing_zeros());
    hash as usize
}

/// A pattern's identity: the address of its one static instance.
fn address(pattern: &Regex) -> usize {
    std::ptr::from_ref(pattern) as usize
}

#[cfg(test)]
pub(super) mod tests {
    use std::cell::Cell;

    thread_local! {
        static ALL_OPEN: Cell<bool> = const { Cell::new(false) };
    }

    /// Whether gates are switched off on this thread.
    pub(super) fn all_open() -> bool {
        ALL_OPEN.with(Cell::get)
    }

    /// Runs `f` with every gate open, as if there were none.
    pub(in crate::screen) fn without_gates<T>(f: impl FnOnce() -> T) -> T {
        ALL_OPEN.with(|c| c.set(true));
        let out = f();
        ALL_OPEN.with(|c| c.set(false));
        out
    }

    #[test]
    fn a_pattern_with_a_second_list_needs_a_word_of_each() {
        use std::sync::LazyLock;

        use regex::Regex;

        static LOGIN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"login\s.*-p").unwrap());
        static PUSH: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"push").unwrap());
        let gates = super::Gates::with_also(
            vec![(&LOGIN, &["login"]), (&PUSH, &["push"])],
            vec![(&LOGIN, &["-p"])],
        );
        let lists: Vec<&[&str]> = gates.lists().collect();
        let keywords = super::Keywords::new(&lists);
        gates.place(0);
        let runs = |text: &str, pattern: &'static LazyLock<Regex>| {
            gates.open(keywords.open(text)).get(pattern).is_some()
        };
        assert!(runs("docker login -p x", &LOGIN));
        assert!(!runs("docker login -u x", &LOGIN));
        assert!(!runs("psql -p 5433", &LOGIN));
        assert!(runs("git push", &PUSH));
        assert!(!runs("git pull", &PUSH));
        let open = |text: &str| gates.open(keywords.open(text)).patterns().count();
        assert_eq!(open("docker login -p x && git push"), 2);
        assert_eq!(open("docker login -u x && git push"), 1);
        assert_eq!(open("git pull"), 0);
    }

    #[test]
    fn a_window_of_doors_reads_across_words() {
        use super::Doors;
        let doors = Doors::one(3) | Doors::one(63) | Doors::one(64) | Doors::one(200);
        assert!(doors.has(63) && doors.has(64) && doors.has(200) && !doors.has(65));
        assert_eq!(doors.window(0), (1 << 64) | (1 << 63) | (1 << 3));
        assert_eq!(doors.window(60), (1 << 4) | (1 << 3));
        assert_eq!(doors.window(100), 1u128 << 100);
        assert_eq!(doors.window(200), 1);
        assert_eq!(doors.window(201), 0);
    }

    #[test]
    fn a_bounded_word_opens_only_at_word_boundaries() {
        let keywords = super::Keywords::new(&[&["\\bif\\b"], &["\\bset"], &["key\\b"], &["if"]]);
        let open = |text: &str| keywords.open(text).window(0);
        assert_eq!(open("if you are"), 0b1001);
        assert_eq!(open("verify it"), 0b1000);
        assert_eq!(open("(if)"), 0b1001);
        assert_eq!(open("iffy"), 0b1000);
        assert_eq!(open("_if"), 0b1000);
        assert_eq!(open("IF"), 0b1001);
        assert_eq!(open("settings"), 0b0010);
        assert_eq!(open("reset"), 0);
        assert_eq!(open("api_key: x"), 0b0100);
        assert_eq!(open("keys"), 0);
        assert_eq!(open("key"), 0b0100);
        assert_eq!(open("if\u{a0}set"), 0b1011);
        // One word, marked in one list and bare in another.
        let keywords = super::Keywords::new(&[&["\\bpass\\b"], &["pass"]]);
        assert_eq!(keywords.open("passed").window(0), 0b10);
        assert_eq!(keywords.open("a pass").window(0), 0b11);
    }

    #[test]
    fn a_word_opens_its_doors_in_any_ascii_case() {
        let keywords = super::Keywords::new(&[&["login", "pass"], &["password"], &["curl"], &[]]);
        assert_eq!(keywords.open("DB_PASSWORD=x").window(0), 0b1011);
        assert_eq!(keywords.open("docker LOGIN").window(0), 0b1001);
        assert_eq!(keywords.open("nothing here").window(0), 0b1000);
        assert_eq!(keywords.open("curl -u a:b").window(0), 0b1100);
        // Beyond ASCII, the capitalized and all-capitals forms open too.
        let keywords = super::Keywords::new(&[&["инструкции"]]);
        for text in ["инструкции", "Инструкции", "ИНСТРУКЦИИ"] {
            assert_eq!(keywords.open(text).window(0), 1, "{text}");
        }
    }
}
