//! Passwords and secrets written as prose: "the password is …", "pw for
//! the portal: …", "the API key for the geocoder is …", in English and in
//! other languages, and the checks that tell a generated value from words.

use std::sync::LazyLock;

use regex::Captures;

use super::super::pattern::{ScriptPattern, lazy_regex};
use super::super::value::{
    dated, has_digit, is_placeholder, mixed_case, password_symbol, word_like, wordy,
};
use super::literal::generated_value;
use super::{HARMLESS_TOKEN_WORDS, sealed};

/// A password given in a sentence: "the password is …", "log in with
/// password …" (or "use pw …"), "the password was reset to …", and the
/// first of these in German, French, Dutch, Portuguese, Spanish, Italian,
/// Polish, Swedish, Turkish, Russian, Japanese and Chinese, German's
/// verb first too ("lautet das Passwort … jetzt …"), the English word
/// after another language's article ("el password del usuario … es …"),
/// up to twelve words between the word and its verb (Portuguese "ficou"
/// too), German's word at the end of a compound naming what it opens
/// ("Datenbankpasswort ist …"), Chinese "密码已改为", a French guillemet with its space. Compiled
/// from its normalized form, as are its words.
pub(super) const PROSE_PASSWORD_PATTERN: &str = r#"(?i)\b(?:pass(?:word|phrase|wd)|pwd|pw|pre-?shared\s+key|psk|shared\s+secret)(?:\s+(?:for|on|of|in|at)(?:\s+the)?(?:\s+`?[\w.@-]+`?){1,3}?(?:\s+\([^()\n]{1,40}\))?)?(?:\s+(?:(?:was\s+|has\s+been\s+|is\s+)?(?:set|reset|changed|updated)\s+to|(?:is|was)\s+(?:now|still|currently)|is|was|of|became|to)|['’]s\s+(?:still|now))\s*:?\s+["'`“‘]?([^\s"'`”’]+)|\b(?:with|using|use|enter|entered|type|typed|try|tried)\s+(?:the\s+)?(?:new\s+|old\s+|default\s+|admin\s+|root\s+|temporary\s+)?(?:pass(?:word|phrase)|pwd|pw)\s+["'`“‘]?([^\s"'`”’,;]+)|\b(?:set|setting|changed?|changing|updated?|updating)\s+(?:the\s+|my\s+|our\s+|its\s+)?[\w.-]*(?:pass(?:word|wd)?|pwd)[\w.-]*\s+to\s+["'`“‘]?([^\s"'`”’,;]+)|\b(?:(?:datenbank|db|admin|root|wlan|wifi|server|benutzer|konto|master|mail|ftp|vpn|system|dienst|router|app|zugangs)?(?:passwort|kennwort)|mot\s+de\s+passe|senha|wachtwoord|contrase(?:ñ|n)a)(?:\s+\S+){0,12}?\s+(?:ist|lautet|war|est|était|é|era|es|is|ficou|fica)(?:\s+(?:nu|jetzt|maintenant|désormais|desormais|actuellement|toujours|ahora|agora|adesso|ora|ainda|todavía|noch))?\s*:?\s+(?:«\s?|["'`“‘„])?([^\s"'`”’»,;]+)|\b(?:lautet|ist|war)\s+(?:das|dein|ihr|euer|unser)\s+(?:neue\s+)?(?:passwort|kennwort)(?:\s+[^\s.;:]+){0,5}?\s+(?:jetzt|nun|aktuell)\s*:?\s+["'`„“]?([^\s"'`”“,;]+)|\b(?:el|la|le|o|das|der|il)\s+password(?:\s+[^\s.;:]+){0,6}?\s+(?:ist|lautet|war|est|était|é|è|e'|era|es)(?:\s+(?:nu|jetzt|maintenant|désormais|desormais|actuellement|toujours|ahora|agora|adesso|ora|ainda|todavía|noch))?\s*:?\s+["'`“‘„«]?([^\s"'`”’»,;]+)|\b(?:passwort|kennwort|mot\s+de\s+passe|senha|wachtwoord|contrase(?:ñ|n)a|hasło|lösenord)(?:\s+[^\s:]+){0,6}?\s*:\s*["'`“‘„«]?([^\s"'`”’»,;]{6,})|\bpassword(?:\s+\S+){0,4}?\s+(?:è|e')\s*:?\s+["'`“‘„«]?([^\s"'`”’»,;]+)|\bhasło(?:\s+\S+){0,6}?\s+(?:to|jest)\s*:?\s+["'`„]?([^\s"'`”,;]+)|\blösenord\S*(?:\s+\S+){0,4}?\s+(?:är|var)\s*:?\s+["'`”]?([^\s"'`”,;]+)|şifre\S*\s+["'`]?([^\s"'`,;]+)|пароль(?:\s+[^\s:]+){0,6}?(?:\s*:|\s+[—–-]|\s+это)\s*["'«]?([^\s"'»,;]+)|パスワード(?:は|：|:)\s*["'「]?([^\s"'」、。,;]+)|密码(?:是|为|：|:|(?:已经?)?(?:改为|改成|设为|设置为|重置为|更新为)\s*[：:]?)\s*["'「“]?([^\s"'」”，。,;]+)|비밀번호(?:는|은|:|：)\s*["']?([^\s"']+)|\b(?:adgangskode(?:n)?|passord(?:et)?|salasana(?:n)?|heslo|jelsz[oó](?:t|ja)?|parol[aăe]|kata\s+sandi(?:nya)?|mật\s+khẩu)(?:\s+[^\s:]+){0,10}?(?:\s+(?:er|on|je|är|este|adalah|là|jest)(?:\s+(?:nu|nyt|nå|teď|most|acum|sekarang))?\s*:?|\s*:)\s+["'`„“«]?([^\s"'`”’»,;]+)|\buses?\s+["'`]?([^\s"'`]{6,})["'`]?\s+as\s+(?:its|his|her|their|the|my|our|your)\s+(?:\w+\s+)?password\b|\bcreds?\s*:\s*[\w.@-]+\s*/\s*["'`]?([^\s"'`,;]{6,})|\bpass(?:word|phrase)\s+(?:in|from)(?:\s+the)?(?:\s+[\w.@-]+){1,3}?\s+(?:is|was)\s+["'`“‘]([^\s"'`”’]{6,})["'`”’]"#;

/// Words one of which each alternative of [`PROSE_PASSWORD_PATTERN`] holds.
pub(super) const PROSE_PASSWORD_WORDS: &[&str] = &[
    "pass",
    "pwd",
    "pw",
    "psk",
    "shared",
    "kennwort",
    "senha",
    "wachtwoord",
    "contrase",
    "hasło",
    "lösenord",
    "şifre",
    "пароль",
    "비밀번호",
    "パスワード",
    "密码",
    "adgangskode",
    "salasana",
    "heslo",
    "jelsz",
    "parol",
    "sandi",
    "khẩu",
    "cred",
];

pub(super) static PROSE_PASSWORD: LazyLock<ScriptPattern> =
    LazyLock::new(|| ScriptPattern::new(PROSE_PASSWORD_PATTERN, PROSE_PASSWORD_WORDS));

lazy_regex!(
    /// "password" followed directly by a value (`user qa, password X`,
    /// "mot de passe = X" too, group 6, where code has no such key; SNMP's
    /// `authPassword X`, and "pwd" after a user's name), or "passphrase"
    /// (`SSID lab, passphrase X`, group 4), or "pass", "passwd" or "pw"
    /// after a user's name (`user qa, pass X`, "login is admin, pw X",
    /// group 5: only in a text about logging in): taken only when the value
    /// looks generated.
    pub(super) BARE_PASSWORD,
    r#"(?i)(?:\b(?:password|senha|passwort|kennwort|wachtwoord|mot\s+de\s+passe)|(?-i:[a-z]Password))\s+["'`“‘]?([^\s"'`”’,;]{8,})|\b(?:pass|pwd)\s+["'`“‘]([^\s"'`”’,;]{8,})["'`”’]|\buser(?:name)?\s*:?\s+[\w.@-]+,?\s+pwd\s+([^\s"'`”’,;]{8,})|\bpass\s?phrase\s+["'`“‘]?([^\s"'`”’,;]{8,})|\b(?:user(?:name)?|usr|login)(?:\s*:|\s+(?:is|was))?\s+[\w.@-]+(?:,|;|\s+/|\s+and)?\s+(?:pass|passwd|pw)\s+([^\s"'`”’,;]{8,})|\bmot\s+de\s+passe\s*=\s*["'`“‘]?([^\s"'`”’,;]{8,})"#
);
lazy_regex!(
    /// A chat's question for a password answered by the next line alone
    /// ("what's the pw for the grafana viewer acct?" then "<kasia>
    /// Meadow65!cobalt"), the answer in group 1, or by "it's" and the
    /// password at the next line's start ("<oleg> it's X until …"), in
    /// group 2.
    pub(super) ANSWERED_PASSWORD,
    r"(?im)\b(?:pw|pwd|pass|passwd|password|passphrase)\b[^\n]{0,60}\?[ \t]*\r?\n(?:[^\n]{0,40}?(?:<[\w.@-]+>|[\w.@-]+:)[ \t]+)?(?:(\S{8,40})[ \t]*$|(?:it['’]?s|it\s+is)[ \t]+(\S{8,40})(?:[ \t]|$))"
);

lazy_regex!(
    /// "password" or "pw" followed by a few words, perhaps an aside in
    /// parentheses, and a colon ("wifi password this week: X", "pw for the
    /// SFTP drop (not rotated): X"; in other languages up to eight words,
    /// "Senha do Wi-Fi da recepção: X", or none, "密码（每月更换）：X"), "the pass
    /// is X" ("db pass for staging is X"), and a chat's answer to a question
    /// about a password ("what's the pass for the printer?", its mark
    /// perhaps left out, and on the next line "Lars: X"): taken only when
    /// the value looks generated and mixes cases, as a date or an
    /// algorithm's name does not. Also "reset it to X" in a sentence
    /// about a password ("changed it to" and "set it to" name settings
    /// and classes as often).
    pub(super) WORDS_THEN_PASSWORD,
    r#"(?i)(?:\bpass(?:word|phrase)(?:[ \t]+[^\s:(]+){1,8}?|\b(?:contrase(?:ñ|n)a|senha|wachtwoord|passwort|kennwort|mot\s+de\s+passe)(?:[ \t]+[^\s:(]+){1,10}?|密码|パスワード)(?:[ \t]*\([^)\n]{1,80}\))?[ \t]*:[ \t]*["'`“‘]?([^\s"'`”’,;$]{8,})|\bpass(?:\s+(?:for|on|of|to)(?:\s+the)?(?:\s+[\w.@-]+){1,3}?)?\s+(?:is|was)\s*:?\s+["'`“‘]?([^\s"'`”’,;]{8,})|\bpw(?:[ \t]+[^\s:(]+){0,6}?(?:[ \t]*\([^)\n]{1,80}\))?[ \t]*:[ \t]*["'`“‘]?([^\s"'`”’,;$]{8,})|\b(?:what(?:'s|’s|\s+is|\s+was|\s+are)|where(?:'s|’s|\s+is)|know|got|have|share|send)\s+(?:(?:the|a|our|your|my|an)\s+)?(?:[\w-]+\s+){0,2}?(?:password|passwd|pass|pwd|pw)(?:\s+(?:for|to|on|of|at)\b[^\n?]{0,50})?(?:\s+(?:again|now|today|please))?\??[ \t]*(?:\r?\n[ \t]*){1,2}(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]+)?[\w.@ -]{1,24}:[ \t]+(?:it['’]?s[ \t]+)?["'`“‘]?([^\s"'`”’,;$]{8,})|\breset\s+it\s+to\s+["'`“‘]?([^\s"'`”’,;$]{8,})[^\n]{0,100}?\bpass(?:word|wd)?\b|\bpass(?:word|wd)?\b[^\n]{0,100}?\breset\s+it\s+to\s+["'`“‘]?([^\s"'`”’,;$]{8,})"#
);
lazy_regex!(
    /// A password said to have been changed to a value ("the password had
    /// been rotated to X", "pw reset to X", an SNMP "community string set
    /// to X"), or named by who chose it ("the password I set via the reset
    /// flow was X"): taken only when the value looks generated.
    pub(super) PASSWORD_CHANGED_TO,
    r#"(?i)\b(?:password|passwd|pw|pwd|passphrase|community\s+string)\b[^.\n]{0,40}?\b(?:rotated|changed|reset|set|updated)\s+to\s+["'`“‘]?([^\s"'`”’,;]{8,40})|\b(?:password|passphrase)\s+(?:that\s+)?(?:I|we|they|you)\s+(?:set|chose|picked|gave|typed|entered)\b[^.\n]{0,40}?\s(?:was|is)\s+["'`“‘]?([^\s"'`”’,;]{8,40})"#
);
lazy_regex!(
    /// A token named in a sentence with its value right after the word,
    /// no colon or "is" between ("retried with the new token X that …"):
    /// taken only when the value is long, mixed-case and holds a digit.
    pub(super) TOKEN_THEN_VALUE,
    r"(?i)\b(?:new|old|fresh|same|api|access|bearer|auth|deploy|personal)\s+token\s+([A-Za-z0-9_-]{32,})\b"
);
lazy_regex!(
    /// An order to log in with a user and a password written `use deploy /
    /// X`: taken only when the value looks generated.
    pub(super) USE_PAIR,
    r#"(?i)\buse\s+["'`]?[A-Za-z][\w.@-]{0,31}["'`]?\s+/\s+["'`“‘]?([^\s"'`”’,;]{8,})"#
);
lazy_regex!(
    /// An administrator's name and password written `admin / X` in a text
    /// about logging in or credentials: taken only when the value looks
    /// generated.
    pub(super) ADMIN_PAIR,
    r#"(?i)\b(?:admin|administrator|root)\s+/\s+["'`“‘]?([^\s"'`”’,;]{8,})"#
);
lazy_regex!(
    /// An account or a login named and written `user / X` ("the shared
    /// test account is qa.lead / X", "login: ops@example.net / X"): taken
    /// only when the value looks generated.
    pub(super) ACCOUNT_PAIR,
    r#"(?i)\b(?:account|login|creds?|credentials|user(?:name)?)(?:\s+(?:for|to|on|of)\s+[^\n/:]{1,40}?)?\s*(?:\s(?:is|are|was|were)\s|:)\s*["'`]?[A-Za-z][\w.@+-]{0,63}["'`]?\s+/\s+["'`“‘]?([^\s"'`”’,;]{8,})"#
);
lazy_regex!(
    /// A Windows account (`.\buildadmin`, `CORP\svc-sql`) and its
    /// password written `account / X`: taken only when the value looks
    /// generated.
    pub(super) WINDOWS_ACCOUNT_PAIR,
    r#"(?:^|[\s:(])(?:\.|[A-Za-z][\w-]{0,30})\\[A-Za-z][\w.$-]{0,30}[ \t]+/[ \t]+["'`“‘]?([^\s"'`”’,;]{8,})"#
);
lazy_regex!(
    /// A token or an API key named in a sentence, its value (group 3)
    /// after a colon or "is" ("Access token (read-only): …", "the API key
    /// for the geocoder is …", "the token used for the smoke test was …"),
    /// with the name (group 2) and the word before it (group 1): judged
    /// by [`prose_secret`].
    pub(super) PROSE_SECRET,
    r#"(?i)(?:^|[\s(])(?:([A-Za-z-]+)[ \t]+)?(api[ \t]+key|access[ \t]+key|secret[ \t]+key|token|secret)(?:[ \t]*\([^)\n]{1,40}\))?(?:[ \t]+(?:we[ \t]+)?(?:used|issued|generated|created))?(?:[ \t]+(?:for|of|to)(?:[ \t]+the)?(?:[ \t]+[\w.'’-]+){1,5}?)?[ \t]*(?::|[ \t]is(?:[ \t]+(?:now|still|currently))?|[ \t]was)[ \t]+["'`]?([A-Za-z0-9_+/=.-]{24,})"#
);
lazy_regex!(
    /// A token named with a few words and perhaps an aside before its
    /// colon ("Bearer token we were sending (copied from devtools): …"):
    /// the same groups as [`PROSE_SECRET`], and judged as it is, its value
    /// 32 characters or more.
    pub(super) PROSE_TOKEN_LATER,
    r#"(?i)(?:^|[\s(])(?:([A-Za-z-]+)[ \t]+)?(token)(?:[ \t]+[a-z]+){1,4}?(?:[ \t]*\([^)\n]{1,60}\))?[ \t]*:[ \t]*["'`]?([A-Za-z0-9_+/=.-]{32,})"#
);
lazy_regex!(
    /// Words that make `admin / X` a credential, or an order to use it
    /// ("use admin / …").
    pub(super) LOGIN_CONTEXT,
    r"(?i)\bcreds?\b|credential|password|\bpw\b|\bpwd\b|\baccounts?\b|\blog(?:ged|ging)?\s*(?:in|on)\b|\blogin\b|\bsign(?:ed)?\s+in\b|\bdefault\b|\buse\s+[\w.@-]+\s*/"
);

/// [`BARE_PASSWORD`] in Spanish, Polish, Swedish and Russian (in any of
/// its cases, and with a word saying whose it is: "пароль от root …",
/// "паролем …"), apart so that its
/// letters outside ASCII leave the English pattern's literal search whole.
pub(super) static BARE_PASSWORD_ABROAD: LazyLock<ScriptPattern> = LazyLock::new(|| {
    ScriptPattern::new(
        r#"(?i)(?:\b(?:contrase(?:ñ|n)a|hasło|lösenord)|(?:^|[\s,;:(«"])парол(?:ь|ем|я|ю)(?:\s+(?:от|для|к|на))?(?:\s+[^\s"'`«]+)??)\s+["'`“‘«]?([^\s"'`”’»,;]{8,})"#,
        &["contrase", "hasło", "lösenord", "парол"],
    )
});

/// A token or an API key named in a Portuguese, Spanish, French, Italian
/// or German sentence, its value after the language's "is" or "was" ("O
/// token do bot é …", "la clave de la API es …"): judged by
/// [`prose_secret_abroad`]. A key alone ("la clave es …") is as often the
/// point of an argument.
pub(super) static PROSE_SECRET_ABROAD: LazyLock<ScriptPattern> = LazyLock::new(|| {
    ScriptPattern::new(
        r#"(?i)\b(?:token|(?:chave|clave|clé|clef|chiave)\s+(?:(?:de|da|del|della|d['’])\s*(?:la\s+|l['’])?)?(?:api|acesso|acceso|accesso|accès|acces)|api-?schl(?:ü|ue)ssel|zugangsschl(?:ü|ue)ssel)(?:\s+[^\s:.]+){0,5}?\s+(?:é|es|est|c['’]est|ist|era|war|è|lautet|foi|fue|fut)\s*:?\s+["'`„«“]?([A-Za-z0-9_+/=.-]{24,})"#,
        &[
            "\\btoken\\b",
            "\\bchave\\b",
            "\\bclave\\b",
            "clé",
            "\\bclef\\b",
            "\\bchiave\\b",
            "schlüssel",
            "schluessel",
        ],
    )
});

/// Whether a value named by [`PROSE_SECRET_ABROAD`] is a secret: generated,
/// not an identifier's words, a JWT's public header, a commit or a
/// chain's address.
pub(super) fn prose_secret_abroad(raw: &str) -> bool {
    let v = raw.trim_end_matches('.');
    let commit = v.len() == 40 && v.bytes().all(|b| b.is_ascii_hexdigit());
    let public = v.starts_with("eyJ") || v.starts_with("0x") || commit;
    generated_value(v) && !wordy(v) && !public
}

/// Whether a password read from prose is a literal one: long enough, not
/// a word or a placeholder, and with a digit, a symbol or mixed case.
pub(super) fn prose_password(raw: &str) -> bool {
    let v = raw.trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
    // A URL or a password manager's name says where it is, not what.
    let store = matches!(
        v.to_ascii_lowercase().as_str(),
        "1password" | "bitwarden" | "keepass" | "keepassxc" | "lastpass" | "dashlane" | "keychain"
    );
    // An adjective of one hyphenated word ("ist 6-stellig", "ist
    // Base64-kodiert", "was SHA256-hashed") says what the password is like.
    let described = v.split_once('-').is_some_and(|(_, tail)| {
        [
            "stellig",
            "kodiert",
            "codiert",
            "verschlüsselt",
            "spezifisch",
            "basiert",
            "lang",
            "hashed",
            "encoded",
            "encrypted",
            "salted",
            "based",
            "protected",
            "generated",
            "sensitive",
            "specific",
        ]
        .contains(&tail.to_lowercase().as_str())
    });
    // A URL split at its scheme's colon ("пароль https://…") is one too.
    !store
        && !described
        && !v.contains("://")
        && !v.starts_with("//")
        && v.chars().count() >= 6
        && !is_placeholder(v)
        && !word_like(v)
        && (has_digit(v) || mixed_case(v) || v.chars().any(|c| !c.is_alphanumeric()))
        && !v.chars().all(|c| c.is_ascii_digit())
}

/// Words that make a named token or key a digest, a public value or a
/// chain's address rather than a secret ("Token (sha256): …", "Secret key
/// (fingerprint): …").
pub(super) const NOT_SECRET_WORDS: &[&str] = &[
    "hash",
    "hashed",
    "sha",
    "sha1",
    "sha256",
    "sha512",
    "md5",
    "checksum",
    "digest",
    "fingerprint",
    "encrypted",
    "ciphertext",
    "contract",
    "address",
    "nft",
    "erc",
    "public",
    "publishable",
    "search",
];

/// Whether a match of [`PROSE_SECRET`] names a secret: not denied ("not a
/// token: …"), not a digest or a public value by its words, not a page's
/// or a CSRF token, and a generated value that is no chain address
/// (`0x…`) or IPFS id (`Qm…`).
pub(super) fn prose_secret(c: &Captures<'_>, text: &str) -> bool {
    let start = c.get(0).map_or(0, |m| m.start());
    let lead = text[text.floor_char_boundary(start.saturating_sub(12))..start].to_ascii_lowercase();
    let before = c
        .get(1)
        .map_or(String::new(), |w| w.as_str().to_ascii_lowercase());
    // "not a token: …", and "not a real token: …" with the word between.
    let denied = ["not", "n't", "not a", "not an", "n't a", "n't an"]
        .iter()
        .any(|n| lead.ends_with(n))
        || before == "no";
    let value_at = c.get(3).map_or(start, |m| m.start());
    let words: Vec<String> = text[start..value_at]
        .split(|ch: char| !ch.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .collect();
    let not_secret = words.iter().any(|w| NOT_SECRET_WORDS.contains(&w.as_str()));
    let harmless_token =
        c[2].eq_ignore_ascii_case("token") && HARMLESS_TOKEN_WORDS.contains(&before.as_str());
    let value = c[3].trim_end_matches('.');
    let address = value.starts_with("0x") || (value.starts_with("Qm") && value.len() == 46);
    !denied
        && !not_secret
        && !harmless_token
        && !address
        && generated_value(value)
        && !sealed(text, c.get(0))
}

/// Whether a password after the word is a capitalized word and a number
/// (`Dravvel2805!`, `Copper2000#`): how people choose one, where a
/// trailing `!` is as often the password's as the sentence's, and one
/// other symbol may close it.
pub(super) fn word_and_number(v: &str) -> bool {
    let v = v.trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
    let v = v
        .strip_suffix(['#', '$', '%', '&', '*', '@', '+', '=', '^', '~'])
        .unwrap_or(v);
    let letters = v.bytes().take_while(u8::is_ascii_alphabetic).count();
    let digits = &v[letters..];
    v.as_bytes().first().is_some_and(u8::is_ascii_uppercase)
        && letters >= 4
        && v.as_bytes()[1..letters].iter().all(u8::is_ascii_lowercase)
        && digits.len() >= 3
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !is_placeholder(v)
}

/// Whether `v` is a password people make up: a word, a number, a symbol
/// and another word (`Maple11#tundra`, `Meadow65!cobalt`), which no
/// name of a thing takes.
pub(super) fn word_number_symbol_word(v: &str) -> bool {
    let v = v.trim_end_matches(['.', ',', ';', ')']);
    let b = v.as_bytes();
    let run = |from: usize, f: fn(&u8) -> bool| b[from..].iter().take_while(|c| f(c)).count();
    let first = run(0, u8::is_ascii_alphabetic);
    let digits = run(first, u8::is_ascii_digit);
    let symbol = first + digits;
    first >= 3
        && digits >= 2
        && v.get(symbol..symbol + 1).is_some_and(password_symbol)
        && b.len() - (symbol + 1) >= 3
        && b[symbol + 1..].iter().all(u8::is_ascii_alphabetic)
}

/// Whether `v` is a password people make up of two words, a number and
/// a symbol (`Saffron.4660copper!`, `Juniper_4553ember%`): a capitalized
/// word and a lowercase one of four letters or more, three digits or
/// more, a symbol such as `!` or `%`, and nothing else; a setting's
/// `Min=12chars` or `Bitwarden+2024edition` joins with `=` or `+`.
pub(super) fn made_up(v: &str) -> bool {
    let v = v.trim_end_matches(['.', ',', ';', ')']);
    let b = v.as_bytes();
    let mut words: Vec<&[u8]> = Vec::new();
    let (mut numbers, mut at) = (0, 0);
    let kind = |c: &u8| (c.is_ascii_alphabetic(), c.is_ascii_digit());
    while at < b.len() {
        let run = b[at..]
            .iter()
            .take_while(|c| kind(c) == kind(&b[at]))
            .count();
        let piece = &b[at..at + run];
        match kind(&b[at]) {
            (true, _) if run >= 4 => words.push(piece),
            (_, true) if run >= 3 => numbers += 1,
            (false, false) if piece.iter().all(|c| b"!#$%&*?@^~._-".contains(c)) => {}
            _ => return false,
        }
        at += run;
    }
    let capitalized =
        |w: &[u8]| w[0].is_ascii_uppercase() && w[1..].iter().all(u8::is_ascii_lowercase);
    words.len() == 2
        && capitalized(words[0])
        && words[1].iter().all(u8::is_ascii_lowercase)
        && numbers == 1
        && password_symbol(v)
}

/// Whether `v` is a passphrase of drawn words with a number among them
/// (`mango-copper-rocket-1`, `falcon-11-yonder-cinder-rocket`, the number
/// glued to the last word in `falcon-velvet-cobalt98`): three or more
/// lowercase words of three letters or more and a group of digits, joined
/// by dashes, as a cipher's or a file's name (`aes-256-cbc`, `id-ed25519`)
/// is not.
pub(super) fn diceware(v: &str) -> bool {
    let parts: Vec<&str> = v
        .trim_end_matches(['.', ',', ';', ')'])
        .split('-')
        .collect();
    let word = |p: &str| p.len() >= 3 && p.bytes().all(|b| b.is_ascii_lowercase());
    let number = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    // A last word of four letters or more with two digits or more glued
    // on counts as a word and a number (an architecture's `amd64` has
    // three letters).
    let glued = parts.last().is_some_and(|last| {
        let letters = last.trim_end_matches(|c: char| c.is_ascii_digit());
        let digits = last.len() - letters.len();
        letters.len() >= 4 && digits >= 2 && word(letters)
    });
    let words = parts.iter().filter(|p| word(p)).count() + usize::from(glued);
    let numbers = parts.iter().filter(|p| number(p)).count() + usize::from(glued);
    words >= 3 && numbers >= 1 && words + numbers == parts.len() + usize::from(glued)
}

/// Whether `v` is drawn from capitals and digits (`F3J19BZTWS+10`,
/// `KU67+VDOYPW`), as an algorithm's name (`PBKDF2-SHA256`, `AES-256-GCM`),
/// a ticket (`INC0012345`) or a version (`V4.2.1`) is not: capitals, digits
/// and a symbol no such name takes, or a run of eight or more whose
/// letters and digits alternate at least four times.
pub(super) fn drawn_capitals(v: &str) -> bool {
    let capitals = !v.bytes().any(|b| b.is_ascii_lowercase())
        && v.bytes().any(|b| b.is_ascii_uppercase())
        && v.bytes().any(|b| b.is_ascii_digit())
        && password_symbol(v);
    capitals
        || v.split(|c: char| !c.is_ascii_alphanumeric()).any(|run| {
            let b = run.as_bytes();
            b.len() >= 8
                && !b.iter().any(u8::is_ascii_lowercase)
                && b.windows(2)
                    .filter(|w| w[0].is_ascii_digit() != w[1].is_ascii_digit())
                    .count()
                    >= 4
        })
}

pub(super) fn generated_password(v: &str) -> bool {
    let v = v.trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
    // A date or a timestamp (`2023-11-02T13:40:55`) is none.
    !dated(v)
        && v.len() >= 8
        && has_digit(v)
        && v.bytes().any(|b| b.is_ascii_alphabetic())
        && (mixed_case(v) || v.chars().any(|c| !c.is_alphanumeric()))
        && !v.contains('/')
        && !is_placeholder(v)
}

#[cfg(test)]
mod tests {
    use super::super::flagged;

    /// Held-out 96: a password "in" or "at" a place, and prose after `set
    /// KEY` (not fish's value); held-out 98: tmux's `set -g @name value`.
    #[test]
    fn a_password_in_a_place_and_set_in_prose() {
        for hit in [
            "ok the wifi password in the lab is xC8HC5i6%Bzi4fIEUbTN btw",
            "set -gx API_TOKEN Xq7vR2mLw9TzKp4",
            "set -gx DB_PASSWORD sunflowerpotatoes",
            // Held-out 98: a tmux user option.
            "set -g @vault_token \"8vLhKuySfFzHFhcAYAqjEYJ2kIBtNnChszv\"",
            "set-option -g @vault_token \"Xk9vR2mLw7TzKp4QXk9vR2mL\"",
            "set -g @weather-api-key \"Xk9vR2mLw7TzKp4QXk9vR2mL\"",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "set -g @vault_token \"$VAULT_TOKEN\"",
            "set -g @plugin 'tmux-plugins/tpm'",
            "set -g status-left \"#[fg=green]#H\"",
            "the password in the vault is rotated daily by the operator",
            "The password at the login screen is case-sensitive.",
            "README: set ADMIN_PASSWORD before first start; the sample file ships with changeme.",
            "Make sure you set POSTGRES_PASSWORD beforehand, otherwise the container exits.",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Passwords said in Danish, Finnish, Czech, Hungarian, Romanian,
    /// Indonesian and Vietnamese, in French "from now on", as what an
    /// account uses, and as a pair after "creds:".
    #[test]
    fn passwords_said_in_more_languages() {
        for hit in [
            "Le mot de passe de la base est désormais Hibou-5521$ pour tout le monde.",
            "Adgangskoden er Kx7!mQ2pLw",
            "Salasana on Kx7!mQ2pLw",
            "Heslo k routeru je Kx7!mQ2pLw",
            "Az admin jelszó: Kx7!mQ2pLw",
            "Parola pentru server este Kx7!mQ2pLw",
            "Kata sandi admin adalah Kx7!mQ2pLw",
            "Mật khẩu wifi là Kx7!mQ2pLw",
            "The admin account uses Kx7!mQ2pLw as its password.",
            "creds: deploy / Kx7!mQ2pLw",
            "Temporary password for the new hire account (chen.w) set to JeN^woVC^ja, forced change at first login.",
            "Temporary password for the new hire account (Chen Wei) set to JeN^woVC^ja.",
            "The password for the account (see ticket OPS-4521) is Kx7!mQ2pLw",
            "marta: what's the wifi pw for the lab router admin page?\nleo: admin / !hf%H9U0_RaEc9",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        // A secret manager's name and numbered version.
        assert!(!flagged(
            "gcloud run deploy checkout --set-secrets=GOOGLE_API_KEY=maps-key:3"
        ));
        for clean in [
            "Salasana on vaihdettu, kysy Mikolta.",
            "La parola è importante.",
            "Heslo je uloženo v trezoru.",
            "creds: see vault / ops",
            "The admin account uses SSO as its password replacement.",
            "Temporary password for the new hire account (chen.w) set to expire in 24 hours.",
            "The password for the shared mailbox (ops) is in the vault.",
            "Password for the account (if you have one) is required.",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 62: a Russian "пароль" before its value, as the English
    /// "password" is read; an order to use a user and password pair.
    #[test]
    fn russian_passwords_and_pairs_to_use() {
        for hit in [
            "Доступ к тестовому серверу: логин deploy, пароль Thistle@Falcon63",
            "Подключайтесь с паролем Vq4#Lm9!Tz2p",
            "пароль от root Rk8%Wd3-Jp6q",
            "for staging grafana use admin / Junip3r+845Qn3 (read-only dashboards are public anyway)",
            "use deploy / Qm5!Zr8#Tx2w for the staging box",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "Пароль хранится в Vault, спроси у Олега.",
            "пароль временный, смените его после входа",
            "use admin / operator roles for the dashboards",
            "пароль https://vault.example.org/ui/secrets/db",
            "пароль 1Password-ом не синхронизировался",
            "use staging / production configs as needed",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 67: a password named a few words before its colon, drawn
    /// from capitals and digits; an algorithm's name in capitals is none.
    #[test]
    fn passwords_drawn_from_capitals_and_digits() {
        for hit in [
            "VNC password for the kiosk: F3J19BZTWS+10",
            "password for the door panel (rotated): K7Q2M9XW4T#1",
            "badge printer password: QD48+MXKTR",
            "Senha do painel do alarme no depósito (não compartilhar): P7RKT@W2ZQ",
            "Wachtwoord van het beheerscherm van de router in de kelder: ZT8K#QW3MR",
            "Password del router al secondo piano del magazzino nuovo: XK7#PT4WQZ",
            "门禁 密码（每周更换）：HQ7W=4KZP2",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "password hashing: PBKDF2-SHA256",
            "password policy (2024): AES-256-GCM",
            "password for build: RELEASE2024",
            "password reset ticket: INC0012345",
            "Password manager client version: V4.2.1",
            "Senha do Wi-Fi da recepção: pergunte na portaria",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Second review of session 53: a password said in a sentence with
    /// many words before its verb, Portuguese "ficou", Chinese "已改为",
    /// a French guillemet with its space.
    #[test]
    fn passwords_said_after_long_subjects() {
        for hit in [
            "le mot de passe du compte de service de la recette est désormais « Tilleul4471!vent ».",
            "la contraseña del usuario de copias del servidor de la sede de Bilbao es Rk7!wQ2zLm9x.",
            "a senha do usuário de leitura do banco de testes ficou Vq4#Lm9!Tz2p depois da troca.",
            "预发环境 Redis 的密码已改为：Hq7!Wz2#Lm4x，请更新配置。",
            "mật khẩu tài khoản dịch vụ của máy chủ sao lưu là Qz8!Lm2#Vx5w nhé.",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "la contraseña del usuario de copias del servidor de la sede de Bilbao es la de siempre.",
            "a senha do usuário de leitura ficou guardada no cofre.",
            "预发环境 Redis 的密码已改为：见保险库，请更新配置。",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Second review of session 53: a passphrase of drawn words with a
    /// number, after a label or after the word; a cipher's name is none.
    #[test]
    fn passphrases_of_drawn_words() {
        for hit in [
            "Passphrase for the backup key: maple-orbit-lantern-7",
            "Guest network \"Lab-Guest\", passphrase otter-42-velvet-comet-ridge",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "Passphrase cipher: aes-256-cbc",
            "passphrase file-name-here",
            "Passphrase for the backup key: see-the-vault",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 71: a made-up password of a word, a number, a symbol and
    /// a word, after "passphrase" or answering a chat's question for it,
    /// and a typed declaration's literal.
    #[test]
    fn made_up_passwords_answers_and_typed_declarations() {
        for hit in [
            "FYI the wifi in the lab is \"DevLab-5G\", passphrase Maple11#tundra",
            "11:02 <dmitri> what's the pw for the grafana viewer acct?\n11:03 <kasia> Meadow65!cobalt\n11:03 <kasia> (read-only, don't worry)",
            "let hmac_secret: &str = \"qo3QSnSZ26vvMe3qvRVCDzFq7VXqjeRpvXlCBCaeF\";",
            "const apiKey: string = \"qo3QSnSZ26vvMe3qvRVCDzFq7VXqjeRpvXlCBCaeF\";",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "the passphrase AES-256-CBC protects the key file",
            "what is the password?\nsee the vault entry",
            "11:02 <dmitri> what's the pw for the grafana viewer acct?\n11:03 <kasia> in 1Password",
            "let token: Option<String> = \"none\";",
            "const apiKey: string = process.env.API_KEY;",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
        assert!(super::word_number_symbol_word("Maple11#tundra"));
        assert!(!super::word_number_symbol_word("Release2024"));
        assert!(!super::word_number_symbol_word("AES256-GCM"));
    }

    /// Held-out 72: "login is admin, pw …" and a chat's answer "it's …"
    /// to a question for a password; the same shapes without a generated
    /// value are none.
    #[test]
    fn a_login_said_and_a_password_answered_with_its() {
        for hit in [
            "From standup notes: staging grafana login is admin, pw Velvet@harbor1984 for now",
            "[14:02] <dana> what's the root pw for the lab switch?\n[14:03] <oleg> it's SsK13v8+B!a# until we move it to the vault",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "From standup notes: staging grafana login is admin, pw reset pending",
            "[14:02] <dana> what's the root pw for the lab switch?\n[14:03] <oleg> it's stored in the vault now, ask Marta",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 73: a password said to have been changed to a value, a
    /// token named with its value right after the word, "mot de passe =
    /// …" in prose and a `.pgpass` line after a label; the same shapes
    /// with no generated value are none.
    #[test]
    fn passwords_changed_tokens_named_and_labelled_pgpass_lines() {
        for hit in [
            "Turned out the service account's password had been rotated to .Ce5vk_nN..Jzmm3 but the old one was cached.",
            "Retried the deploy with the new token ZYkjpcbFZHklmTKS1mheU5QKePqfXTop6rW8qLDw that Priya sent in chat.",
            "Dans le fichier de conf : mot de passe = Mango71!quartz",
            "pgpass line: pg-replica:5432:*:replicator:MVq7AyAOe#VViG",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "The password had been rotated to the vault's new path, so the job failed.",
            "Retried the deploy with the new token from the secret store and it authenticated.",
            "Dans le fichier de conf : mot de passe = ${DB_PASSWORD}",
            "password = secrets.token_urlsafe(24)",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 75: an SNMP community "set to", a password named by who
    /// set it, a chat's answer to a question without its mark, a
    /// pgbouncer line whose passphrase glues its number to the last word,
    /// a Python bytes literal under a key ending in `key`.
    #[test]
    fn communities_chosen_passwords_and_glued_passphrases() {
        for hit in [
            "snmp community string set to 8HHdmjhyFDEFYkSY on all core switches (rw)",
            "The temporary admin password I set via the reset flow was walnut-ember-juniper12; the login loop persisted.",
            "chat log\n[10:02] ana: what's the vpn password again\n[10:03] tomas: Copper2000# , same as last quarter",
            "pgbouncer userlist.txt:\n\"report_ro\" \"falcon-velvet-cobalt98\"",
            "hmac_key = b\"DDT7EiIuKyuYkGAmlPKWU8AvwASNnMqV\"",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "snmp community string set to public on the lab switch",
            "The password I set via the reset flow was rejected by the policy.",
            "what's the vpn password again\ntomas: check the vault, same as last quarter",
            "pgbouncer userlist.txt:\n\"report_ro\" \"md5a1b2c3d4e5f60718293a4b5c6d7e8f90\"",
            "image = debian-bookworm-amd64",
            "hmac_key = b\"\"",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 76: a passphrase of four drawn words under a key named
    /// for a password, a Python annotated literal; a slug under another
    /// key, or with a short word, stays a name.
    #[test]
    fn drawn_passphrases_and_annotated_literals() {
        for hit in [
            "jobs:\n  e2e:\n    env:\n      E2E_USER: qa-bot\n      E2E_PASSWORD: meadow-violin-tundra-quartz",
            "my_token: str = \"xp6GDg1E1yDwintLef0vxKwuPmPboHoid8\"",
            "    self.api_key: Final = 'Qm7vX2pL9kT4wZ8rN3bY6cJ1'",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "env:\n  E2E_PASSWORD: from-the-vault",
            "env:\n  DEPLOY_STRATEGY: blue-green-canary-rollout",
            "service_name: str = \"billing-webhook-consumer\"",
            "api_token: str = \"\"",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 77: "db pass for staging is …" in a chat.
    #[test]
    fn a_pass_named_for_its_place() {
        assert!(flagged("<mara> db pass for staging is LPO2jv!h!Tz_PxR btw"));
        assert!(!flagged(
            "<mara> the boarding pass for the trip is in my inbox"
        ));
    }

    /// Held-out 78: "passwd for the jump host is …", a numbered key
    /// (`VAULT_UNSEAL_KEY_1`).
    #[test]
    fn passwd_in_prose_and_numbered_keys() {
        for hit in [
            "passwd for the jump host is Maple1794!, user ops, port 2222",
            "export VAULT_UNSEAL_KEY_1=CVSFxTNBWTu5ZJBDOUJvkIEHw3qj8XEeOU0JrxTtSWQ=",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "passwd for the jump host is managed by the ops team",
            "export VAULT_UNSEAL_KEY_1=\"$(cat /run/secrets/unseal1)\"",
            "export CACHE_KEY_1=linux-node-20",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 81: an account or a login written `user / password`; a
    /// path or a choice between names written with a slash is none.
    #[test]
    fn accounts_written_as_user_and_password() {
        for hit in [
            "As agreed in the call, the shared test account is qa.lead / Meadow#Monsoon9915.",
            "login: ops@example.net / Vq4#Lm9!Tz2p",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "the shared test account is qa.lead / qa.backup (whichever is free)",
            "login: ops / https://sso.example.net/start",
            "The user is admin / operator, depending on the tier.",
            "account is prod / 2024-05-01",
            "login: build-agent-01 / Linux-x86_64",
            "Test account is qa.lead / QaLeadTeam01 in Jira (that's the team name)",
            "user: bob / 2024Q3Review",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 82: a password named by where it was kept ("the password
    /// in the old runbook was …"); a judgement of it is none.
    #[test]
    fn a_password_named_by_where_it_was_kept() {
        assert!(flagged(
            "OK I found it, the service account password in the old runbook was \"Fqp6ro06hsb!362\", it still works on pg-replica-2."
        ));
        for clean in [
            "the password in the old runbook was wrong, so I asked in #ops",
            "the password from the vault is rotated nightly",
            "The password in the connection string is URL-encoded.",
            "The password in v2.3.1 was SHA256-hashed, not salted.",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    /// Held-out 86: a login "for" a system, then the account and its
    /// password; a second name after the slash is none.
    #[test]
    fn logins_for_a_system_in_prose() {
        assert!(flagged(
            "fyi the login for the staging wiki is wiki-ops / Kq8v_Zr2LmX5t"
        ));
        for clean in [
            "the login for staging is alice / alice.smith",
            "login to the box is ops / Summer2024Dashboard",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
