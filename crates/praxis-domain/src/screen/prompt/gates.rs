//! The words each prompt-override pattern needs before it runs: its
//! gate in the screen's one keyword pass.

use std::sync::LazyLock;

use regex::Regex;

use super::super::gate::Gates;
use super::{
    PHRASING_PATTERNS, REMINDER_TAG, REPOSITORY_GUIDANCE, REVEAL_ENVIRONMENT, ROLE_TAG_SWITCH,
    SYSTEM_TAG, TURN, addressed, fiction, languages, standing,
};

/// The words each pattern needs.
pub(in crate::screen) static GATES: LazyLock<Gates> = LazyLock::new(|| {
    let mut entries: Vec<(&'static Regex, &'static [&'static str])> = PHRASING_PATTERNS
        .iter()
        .map(|(words, pattern)| (pattern, *words))
        .collect();
    entries.extend([
        (
            &*ROLE_TAG_SWITCH,
            &["</", "<|", "[/inst]", "start_of_turn", "role="][..],
        ),
        (&*SYSTEM_TAG, &["<", "["]),
        (&*REMINDER_TAG, &["<", "["]),
        (&*fiction::FICTION_COVER, fiction::FICTION_WORDS),
        (&*TURN, &[":"]),
        (
            &*REPOSITORY_GUIDANCE,
            &[
                "ignore",
                "disregard",
                "skip",
                "forget",
                "override",
                "bypass",
                "not",
                "don't",
                "stop",
                "vergiss",
                "vergesst",
                "ignorier",
                "missachte",
            ],
        ),
        (
            &*REVEAL_ENVIRONMENT,
            &[
                "env",
                "secret",
                "credential",
                "key",
                "token",
                "password",
                "ssh/",
                "id_rsa",
                "id_ed25519",
                "npmrc",
                "netrc",
                "pypirc",
            ],
        ),
    ]);
    entries.push((addressed::address_pattern(), addressed::address_words()));
    entries.push((
        addressed::late_address_pattern(),
        addressed::late_address_words(),
    ));
    entries.extend(languages::entries());
    entries.extend(standing::entries());
    let mut also: Vec<(&'static Regex, &'static [&'static str])> = vec![
        (
            &*REVEAL_ENVIRONMENT,
            &[
                "\\bprint\\b",
                "\\boutput\\b",
                "\\bdump\\b",
                "\\bshow\\b",
                "\\bdisplay\\b",
                "\\blist\\b",
                "\\becho\\b",
                "\\bcat\\b",
                "\\bpaste\\b",
                "\\binclude\\b",
                "\\bpost\\b",
                "\\bsend\\b",
                "\\bshare\\b",
                "\\breveal\\b",
                "\\breturn\\b",
                "\\bwrite\\b",
                "\\bcopy\\b",
                "\\bupload\\b",
                "\\bappend\\b",
                "\\battach\\b",
                "\\bread\\b",
                "\\bencode\\b",
            ],
        ),
        // Turns count only in pairs, and only one label can sit at the
        // text's start: the other follows a line break, written or escaped.
        (
            &*TURN,
            &["\n", "\\n", "echo", "print", "write", " -", "\t-"],
        ),
    ];
    also.extend(languages::second_lists());
    Gates::with_also(entries, also)
});
