//! Credentials in configuration files that set them with spaces or a
//! colon rather than `=`: a `.netrc` entry, a mail client's account block
//! (msmtp's `password` line), HAProxy's `stats auth`, and the
//! `user:password` lines of files that list them (cloud-init's `chpasswd`,
//! Postfix's `sasl_passwd`).

use super::super::gate::Open;
use super::super::pattern::{Spans, contains_any_ignoring_case, groups, lazy_regex};
use super::super::value::{
    counts_up, distinct_chars, has_digit, has_letter, keyboard_walk, mixed_case, password_symbol,
};
use super::{KeyClass, literal_secret};

lazy_regex!(
    /// A `.netrc` entry's password, on its machine's line or on the lines
    /// under it (`machine … login … password …`, or `default …`).
    pub(super) NETRC,
    r"(?m)\b(?:machine[ \t]+\S+|default)(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?:(?:login|account|port)[ \t]+\S+(?:[ \t]+|[ \t]*\r?\n[ \t]*)){0,3}password[ \t]+(\S+)"
);
lazy_regex!(
    /// A mail client's account block (msmtp, mbsync): a `host`, `user`,
    /// `from` or `account` line, then within a few lines a `password` (or
    /// `Pass`) line whose value runs to the line's end (Google's app
    /// passwords are four groups of four letters); fetchmail's `poll …
    /// password …` on one line.
    pub(super) MAIL_ACCOUNT,
    r"(?im)^[ \t]*(?:host|user|from|account|imapaccount)[ \t]+\S+[ \t]*\r?\n(?:[ \t]*[a-z_]+(?:[ \t][^\n]*)?\r?\n){0,8}?[ \t]*(?:password|pass)[ \t]+([^\n]+?)[ \t]*\r?$|^[ \t]*poll[ \t]+[^\n]*?\b(?:password|pass)[ \t]+([\x22'][^\x22'\n]+[\x22']|\S+)"
);
lazy_regex!(
    /// HAProxy's statistics page login (`stats auth admin:…`).
    pub(super) STATS_AUTH,
    r"(?m)^[ \t]*stats[ \t]+auth[ \t]+[^\s:]+:(\S+)"
);
lazy_regex!(
    /// A `user:password` line of a file that holds them (cloud-init's
    /// `chpasswd` list, an `echo … | chpasswd`, Postfix's `sasl_passwd`
    /// after its `[host]:port`): read only in a text that names the file.
    pub(super) PASSWORD_LIST,
    r#"(?m)^[ \t]*(?:-[ \t]*|\[[\w.-]+\](?::\d+)?[ \t]+)?[a-z_][a-z0-9_.@-]{0,40}:([^\s:"']{6,})[ \t]*\r?$|\becho\s+["']?[a-z_][\w.-]*:([^\s:'"]{6,})["']?\s*\|\s*(?:sudo\s+)?chpasswd\b"#
);
lazy_regex!(
    /// A line of Postfix's `sasl_passwd` map by its shape alone: a relay
    /// in brackets with its port (or without them, on a mail port), then
    /// `user:password`, also echoed into the map.
    pub(super) RELAY_LOGIN,
    r"(?m)(?:^[ \t]*|\becho[ \t]+[\x22']?)(?:\[[\w.-]+\]:\d{2,5}|[\w.-]+:(?:25|465|587|2525))[ \t]+[^\s:]+:((?:[a-z]{4} ){3}[a-z]{4}|[^\s:\x22']{6,})(?:[ \t]*\r?$|[\x22']?[ \t]*[|>])"
);

/// The words [`RELAY_LOGIN`] needs.
pub(super) const RELAY_WORDS: &[&str] = &["]:", ":25", ":465", ":587", ":2525"];

/// The words [`PASSWORD_LIST`] needs, which are also its condition.
pub(super) const LIST_WORDS: &[&str] = &["chpasswd", "sasl_passwd"];

lazy_regex!(
    /// Redis's answer to `CONFIG GET requirepass` (or `masterauth`): the
    /// name, then the password, as numbered replies.
    pub(super) REDIS_CONFIG_GET,
    r#"(?i)\bCONFIG\s+GET\s+(?:requirepass|masterauth)\s*\r?\n\s*1\)\s*"(?:requirepass|masterauth)"\s*\r?\n\s*2\)\s*"([^"\n]+)""#
);

lazy_regex!(
    /// A network device's secrets in its configuration: a key chain's
    /// `key-string` (OSPF, EIGRP, BGP authentication) and an SNMP
    /// community (`snmp-server community … RO`).
    pub(super) DEVICE_SECRET,
    r"(?im)^[ \t]*(?:key-string(?:[ \t]+[07])?|snmp-server[ \t]+community)[ \t]+(\S{6,})"
);

/// The words [`DEVICE_SECRET`] needs.
pub(super) const DEVICE_WORDS: &[&str] = &["key-string", "snmp-server"];

/// The credentials of configuration files in `text`, from the patterns
/// whose gates `open` holds open.
pub(super) fn config_credentials(open: &Open<'_>, text: &str) -> Spans {
    let mut out = groups(open.get(&NETRC), text, account_password);
    out.extend(groups(open.get(&MAIL_ACCOUNT), text, account_password));
    out.extend(groups(open.get(&STATS_AUTH), text, |v| {
        literal_secret(KeyClass::Password, v, false, true)
    }));
    out.extend(groups(open.get(&REDIS_CONFIG_GET), text, |v| {
        literal_secret(KeyClass::Password, v, true, false)
    }));
    // The gate's words are the condition itself, so that ungated runs agree.
    let list = open
        .get(&PASSWORD_LIST)
        .filter(|_| contains_any_ignoring_case(text, LIST_WORDS));
    out.extend(groups(list, text, listed_password));
    out.extend(groups(open.get(&RELAY_LOGIN), text, |v| {
        listed_password(v) || account_password(v)
    }));
    // `public` and `private`, SNMP's defaults, are words; a secret is drawn.
    out.extend(groups(open.get(&DEVICE_SECRET), text, listed_password));
    out
}

/// Whether a `user:password` line's password is one: not a URL's
/// `scheme://…`, a literal, with a digit, and not a version or a duration
/// (`ubuntu-22.04`, `12h30m`).
fn listed_password(v: &str) -> bool {
    !v.starts_with("//")
        && literal_secret(KeyClass::Password, v, false, false)
        && has_digit(v)
        && (mixed_case(v) || password_symbol(v))
}

/// Whether an account's `password` value is a secret: a literal as an
/// assignment's would be, a generated run of hex (an API token used as
/// the password), or an app password's four groups of four letters.
fn account_password(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    // A format's slot (`password %s\n` in a `printf`) holds no value yet;
    // anonymous FTP's password is a mail address by custom (`guest@`).
    if v.starts_with('%') || v.ends_with('@') || counts_up(v) || keyboard_walk(v) {
        return false;
    }
    if v.contains(' ') || (v.len() == 16 && v.bytes().all(|b| b.is_ascii_lowercase())) {
        return app_password(v);
    }
    let hex = v.len() >= 16
        && v.bytes().all(|b| b.is_ascii_hexdigit())
        && has_digit(v)
        && has_letter(v)
        && distinct_chars(v) >= 8
        && !counts_up(v);
    hex || literal_secret(KeyClass::Password, v, false, true)
}

/// Whether `v` is four groups of four lowercase letters drawn at random,
/// as Google's app passwords are (apart by spaces or not) and Apple's
/// app-specific ones (apart by `-`): under 45% vowels (chance gives a fifth,
/// and sometimes more), many letters, and some group no English word
/// could be ("sent this week from" is words).
pub(in crate::screen) fn app_password(v: &str) -> bool {
    let joined = v.replace([' ', '-'], "");
    let groups: Vec<&str> = if v.contains(' ') {
        v.split(' ').collect()
    } else if v.contains('-') {
        v.split('-').collect()
    } else {
        (0..v.len())
            .step_by(4)
            .filter_map(|i| v.get(i..i + 4))
            .collect()
    };
    groups.len() == 4
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.bytes().all(|b| b.is_ascii_lowercase()))
        && joined.bytes().filter(|b| b"aeiou".contains(b)).count() * 20 < joined.len() * 9
        && distinct_chars(&joined) >= 8
        && !counts_up(&joined)
        && !keyboard_walk(&joined)
        && groups.iter().any(|g| unspeakable(g.as_bytes()))
}

/// Whether four lowercase letters read as no word: no vowel (`y`
/// counted), three consonants in a row, three vowels, or an opening pair
/// of consonants that starts no English word.
fn unspeakable(g: &[u8]) -> bool {
    let vowel = |b: &u8| b"aeiouy".contains(b);
    let vowels = g.iter().filter(|b| vowel(b)).count();
    let run = g.windows(3).any(|w| w.iter().all(|b| !vowel(b)));
    let opening = !vowel(&g[0])
        && !vowel(&g[1])
        && ![
            "bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "kn", "ph", "pl", "pr",
            "sc", "sh", "sk", "sl", "sm", "sn", "sp", "st", "sw", "th", "tr", "tw", "wh", "wr",
        ]
        .iter()
        .any(|p| g.starts_with(p.as_bytes()));
    vowels == 0 || vowels >= 3 || run || opening
}

#[cfg(test)]
mod tests {
    use super::super::flagged;

    #[test]
    fn netrc_passwords_on_one_line_or_under_their_machine() {
        assert!(flagged(
            "machine api.heroku.com\n  login ops@contoso-dev.io\n  password 581071ed05b60b061e44ab581e3b3d6a26"
        ));
        assert!(flagged(
            "machine git.example.org login ci password 9c1f0e7d2b4a6c8e0f1a3b5d"
        ));
        assert!(flagged("default login anonymous password Tq8#vLm2Rw"));
        // A placeholder, a digest-free word and a variable are none.
        assert!(!flagged(
            "machine api.heroku.com\n  login me\n  password <your-api-key>"
        ));
        assert!(!flagged("machine example.com login me password changeme"));
        assert!(!flagged(
            "machine example.com login me password $HEROKU_API_KEY"
        ));
        assert!(!flagged(
            "printf 'machine github.com login x-access-token password %s\\n' \"$GH_TOKEN\" > .netrc"
        ));
    }

    #[test]
    fn mail_account_blocks_and_app_passwords() {
        assert!(flagged(
            "account gmail\nhost smtp.gmail.com\nport 587\nuser reports.bot@gmail.com\npassword jvah hwmr vvki ioun"
        ));
        assert!(flagged(
            "host smtp.example.net\nuser ops\npassword 7d0c2b9f4e1a8c3d6b5e"
        ));
        // Words after "password" in prose, or a command that fetches it.
        assert!(!flagged(
            "host smtp.example.net\nuser ops\npassword must have more than twelve characters"
        ));
        assert!(!flagged(
            "host smtp.example.net\nuser ops\npasswordeval \"pass show mail\""
        ));
        assert!(!flagged(
            "account work\nhost mail.example.org\npassword sent this week from"
        ));
        for hit in [
            "IMAPAccount gmail\nHost imap.gmail.com\nUser me@gmail.com\nPass vcyo pkyi vhrm jixn",
            "account gmail\nhost smtp.gmail.com\nuser me@gmail.com\npassword \"scsy lbsn xaos tuep\"",
            "account gmail\nhost smtp.gmail.com\nuser me@gmail.com\npassword scsylbsnxaostuep",
            "poll imap.gmail.com protocol IMAP user 'me@gmail.com' password 'xdyn vbtk ogsr quqz'",
            "poll mail.example.com proto pop3 user bob pass j67TRFQnyM^xKW",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "account gmail\nhost smtp.gmail.com\nuser me@gmail.com\npassword abcd efgh ijkl mnop",
            "account gmail\nhost smtp.gmail.com\nuser me@gmail.com\npassword qwer tyui opas dfgh",
            "default login anonymous password guest@",
            "machine api.example.com login bob password 0123456789abcdef0123",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    #[test]
    fn app_passwords_assigned_and_directives_after_a_line_number() {
        for hit in [
            "GMAIL_APP_PASSWORD=\"jovv tzht rrbv bzvs\"",
            "app password: 'jovv tzht rrbv bzvs'",
            "/etc/redis/redis.conf:1041:requirepass Nbk8CDqcacg5mXy",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "ERROR_MESSAGE=\"your password must have more\"",
            "password = txtPwd.Text",
            "password = cfg.SqlPwd",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }

    #[test]
    fn stats_auth_and_relay_lines() {
        assert!(flagged(
            "listen stats\n    bind *:8404\n    stats auth admin:Glacier.Pixel84#"
        ));
        assert!(flagged("[smtp.sendrelay.net]:587 relayuser:Summit1996~rpl"));
        for hit in [
            "[smtp.gmail.com]:587 me@gmail.com:mfcihnfuvnumykbn",
            "[smtp.gmail.com]:587 me@gmail.com:ruru euse twih nmqs",
            "[relay.example.net]:587 relayuser:52fd9a87284549ce86f44c05",
            "smtp.gmail.com:587 me@gmail.com:EPkGSUoG9o2QJ9",
            "echo '[smtp.gmail.com]:587 me@gmail.com:mavloSEiNeZ5Wj' | sudo tee /etc/postfix/sasl_passwd",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        assert!(!flagged("    stats auth admin:${STATS_PASSWORD}"));
        assert!(!flagged("[smtp.sendrelay.net]:587 relayuser:password"));
        assert!(!flagged("[main]:8080 mode:production"));
    }

    /// Held-out 60: Dex's LDAP connector sets its bind password as
    /// `bindPW`.
    #[test]
    fn ldap_bind_passwords_in_camel_case() {
        assert!(flagged(
            "  config:\n    bindDN: cn=dex,ou=svc,dc=corp,dc=example\n    bindPW: Sln-h#AkPd5d#7yy"
        ));
        assert!(!flagged("    bindPW: $LDAP_BIND_PASSWORD"));
    }

    /// Second review of session 53: Redis's numbered answer to `CONFIG
    /// GET requirepass`.
    #[test]
    fn redis_config_get_answers() {
        assert!(flagged(
            "127.0.0.1:6379> CONFIG GET requirepass\n1) \"requirepass\"\n2) \"Wq7!Lz2#Km9xPt4\""
        ));
        assert!(!flagged(
            "127.0.0.1:6379> CONFIG GET requirepass\n1) \"requirepass\"\n2) \"\""
        ));
    }

    /// Held-out 86: a key chain's `key-string` and an SNMP community in a
    /// device's configuration; SNMP's default words and a slot are none.
    #[test]
    fn network_device_secrets() {
        for hit in [
            "key chain EIGRP-KEYS\n key 1\n  key-string Rq7-vLm2Zx9K",
            "snmp-server community t8Wq-Lz3Vx7Kp RW",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "snmp-server community public RO",
            "snmp-server community <community-string> RO",
            "  key-string ${OSPF_KEY}",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
