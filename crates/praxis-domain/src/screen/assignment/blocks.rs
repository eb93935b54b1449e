//! Values nested under a block that names them: a CloudFormation
//! parameter's `Default`, Consul's ACL `tokens` and gossip key, Postman's
//! `apikey`, an XML element inside one named for secrets, the password
//! line of OpenVPN's credentials file, an API block's bare `key:`.

use regex::Regex;

use super::super::pattern::{Spans, groups, lazy_regex};
use super::super::value::{has_digit, is_placeholder, mixed_case, random_like};
use super::literal::uuid_value;
use super::prose::generated_password;

lazy_regex!(
    /// A CloudFormation parameter's (or any YAML template's) default under
    /// its name, a few attribute lines down (`DBMasterPassword:` …
    /// `Default: '…'`); an attribute line holds a value, so a block's
    /// opener (`Parameters:`) is never taken for one.
    pub(super) TEMPLATE_DEFAULT,
    r#"(?m)^[ \t]*([A-Za-z][A-Za-z0-9_]*):[ \t]*\r?\n(?:[ \t]+(?:[A-Za-z]+:[ \t]*[^\s]|#)[^\n]*\r?\n){0,10}?[ \t]+Default:[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s#]+)"#
);
lazy_regex!(
    /// Consul's ACL tokens, UUIDs under `acl { tokens { agent = "…" } }`
    /// (HCL or JSON).
    pub(super) CONSUL_TOKENS,
    r#"\btokens\\?["']?\s*[:=]?\s*\{[^{}]*?\b(?:agent|default|master|initial_management|agent_recovery|agent_master|replication|dns|config_file_service_registration)\\?["']?\s*[:=]\s*["']([0-9a-fA-F-]{36})["']"#
);

lazy_regex!(
    /// Consul's gossip encryption key (`"encrypt": "…"` in an agent's JSON,
    /// `encrypt = "…"` in HCL): 32 random bytes in base64.
    pub(super) CONSUL_ENCRYPT,
    r#"\bencrypt\\?["']?\s*[:=]\s*\\?["']([A-Za-z0-9+/]{43}=)\\?["']"#
);

lazy_regex!(
    /// Postman's API key auth, whose entry named `value` holds the key
    /// (`"apikey": [{"key": "value", "value": "…"}, {"key": "key", …}]`).
    pub(super) POSTMAN_APIKEY,
    r#""apikey"\s*:\s*\[[^\]]*?\{\s*"key"\s*:\s*"value"\s*,\s*"value"\s*:\s*"([^"\n]+)""#
);

lazy_regex!(
    /// OpenVPN's `auth-user-pass` file (or vsftpd's virtual users file,
    /// the same lines) shown under a line that names it (`openvpn
    /// auth.txt:`, `cat > /etc/openvpn/auth.txt <<EOF`): a user name alone
    /// on its line, then the password in group 1.
    pub(super) OPENVPN_AUTH_FILE,
    r"(?i)(?:\bopenvpn\b|\bauth-user-pass\b|\bvsftpd\b[^\n]{0,30}\bvirtual\s+users?\b)[^\n]{0,80}\r?\n[ \t]*[^\s:=]{1,64}[ \t]*\r?\n[ \t]*(\S{8,128})[ \t]*(?:\r?\n|$)"
);

lazy_regex!(
    /// XML elements inside one named for secrets (`<tokens><api>…</api>`,
    /// `<credentials><prod>…</prod>`): the run of up to nine one-line
    /// children in group 1.
    pub(super) SECRET_CHILDREN,
    r"(?i)<(?:tokens|secrets|credentials|keys|api[_-]?keys|passwords)(?:\s[^<>\n]*)?>((?:\s*<[A-Za-z][^<>\n]*>[^<\n]*</[^<>\n]+>){1,9})"
);
lazy_regex!(
    /// One child element of [`SECRET_CHILDREN`]'s run: its opening tag's
    /// name in group 1, its value in group 2, its closing tag in group 3.
    CHILD,
    r"<([A-Za-z][A-Za-z0-9_.:-]{0,40})>([^<\n]{1,200})</([A-Za-z][A-Za-z0-9_.:-]{0,40})>"
);

/// Children that describe a secret rather than hold it.
const DESCRIBING: &[&str] = &[
    "id",
    "name",
    "user",
    "username",
    "login",
    "email",
    "fingerprint",
    "type",
    "description",
    "created",
    "expires",
    "scope",
    "url",
    "host",
];

/// The values of [`SECRET_CHILDREN`]'s elements in `text` that look
/// generated: the parent names what they are, the child only which one.
pub(super) fn secret_children(pattern: Option<&Regex>, text: &str) -> Spans {
    let mut out = Spans::new();
    for run in pattern
        .into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter_map(|c| c.get(1))
    {
        out.extend(
            CHILD
                .captures_iter(run.as_str())
                .filter(|c| {
                    let v = &c[2];
                    c[1] == c[3]
                        && !DESCRIBING.iter().any(|d| c[1].eq_ignore_ascii_case(d))
                        && random_like(v, 16)
                        && has_digit(v)
                        && !v.contains([' ', ':'])
                })
                .filter_map(|c| c.get(2))
                .map(|v| run.start() + v.start()..run.start() + v.end()),
        );
    }
    out
}

/// The YAML block a key at `at` sits in: the name of the nearest line
/// above that is indented less and opens a block (`api:` alone on its
/// line, maybe a list's item or followed by a comment); comment lines are
/// passed over.
fn yaml_parent(text: &str, at: usize) -> Option<&str> {
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let own = indent(&text[line_start..at]);
    let above = text[..line_start].trim_end_matches(['\n', '\r']);
    let line = above.lines().rev().find(|line| {
        let trimmed = line.trim();
        !trimmed.is_empty() && !trimmed.starts_with('#') && indent(line) < own
    })?;
    let line = line.split_once(" #").map_or(line, |(code, _)| code).trim();
    line.trim_start_matches("- ").strip_suffix(':')
}

/// Whether a bare `key` holds an API key: its YAML block is named `api`
/// (`api:` then `  key: …`), as `api_key` would be, and its value looks
/// generated (letters and digits, `-` or `_`; a header's or a route's
/// name does not).
pub(super) fn api_block_key(text: &str, key: &regex::Match<'_>, value: &str) -> bool {
    let value = value.trim_matches(['"', '\'']);
    key.as_str().eq_ignore_ascii_case("key")
        && random_like(value, 16)
        && has_digit(value)
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && yaml_parent(text, key.start()).is_some_and(|parent| parent.eq_ignore_ascii_case("api"))
}

/// Whether a template parameter's default is a value rather than the name
/// of one kept elsewhere: an SSM parameter type's default names the
/// parameter; a path, an ARN or a KMS key id names a secret or a key.
pub(super) fn holds_a_value(parameter: &str, value: &str) -> bool {
    let v = value.trim_matches(['"', '\'']);
    !parameter.contains("AWS::SSM::")
        && !v.contains('/')
        && !v.starts_with("arn:")
        && !v.starts_with("mrk-")
        && !v.starts_with("alias/")
}

/// The API keys of Postman's `apikey` blocks in `text`, when
/// [`POSTMAN_APIKEY`]'s gate opened.
pub(super) fn postman_keys(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| random_like(v, 16) && has_digit(v))
}

/// The Consul ACL tokens in `text`, when [`CONSUL_TOKENS`]'s gate opened.
pub(super) fn consul_tokens(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| uuid_value(v) && !is_placeholder(v))
}

/// The Consul gossip keys in `text`, when [`CONSUL_ENCRYPT`]'s gate
/// opened.
pub(super) fn consul_gossip_keys(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| random_like(v, 44) && has_digit(v))
}

/// The passwords of OpenVPN credentials files shown in `text`, when
/// [`OPENVPN_AUTH_FILE`]'s gate opened: a chosen password's mix of cases
/// or symbols, not a directive (`EOF`, `cipher=AES-256-GCM`), a file
/// (`dh2048.pem`) or a name (`tun1-office`) of a listing.
pub(super) fn openvpn_passwords(pattern: Option<&Regex>, text: &str) -> Spans {
    groups(pattern, text, |v| {
        let file = v.rsplit_once('.').is_some_and(|(_, ext)| {
            (2..=4).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_alphanumeric())
        });
        generated_password(v)
            && !v.contains('=')
            && !file
            && (mixed_case(v)
                || v.bytes()
                    .any(|b| b.is_ascii_punctuation() && !b"-_.".contains(&b)))
    })
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Held-out 72: an element inside one named for secrets holds one
    /// when its value looks generated; a name, a fingerprint or a short
    /// word there holds none.
    #[test]
    fn elements_inside_a_block_named_for_secrets() {
        for hit in [
            "<tokens><api>p4PE8DSo6gfbscYBWGnEnIakwfBnb8oMIswvyp8k</api></tokens>",
            "<credentials>\n  <user>deploy</user>\n  <prod>Xq8vR2mN5tL9wK3zP7yB4c</prod>\n</credentials>",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "<keys><key id=\"1\">abc</key><fingerprint>SHA256:0a9f8e7d6c5b4a39281706f5e4d3c2b1a0</fingerprint></keys>",
            "<tokens><name>deploy-bot-2024-release</name><api>${API_TOKEN}</api></tokens>",
            "<credentials><user>deploy</user><region>eu-west-1</region></credentials>",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 84: OpenVPN's credentials file shown as its two lines;
    /// a client config, a log and a file whose second line is a path.
    #[test]
    fn openvpn_credentials_files() {
        for hit in [
            "Contents of the openvpn creds file:\nsvc-backup\nTundra#4471pine\n",
            "cat > /etc/openvpn/client/auth.txt <<EOF\nalice.ops\nWq9!vRm2Lx\nEOF",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "openvpn client.conf:\nclient\nnobind\nremote vpn.example.net 1194",
            "openvpn[812]: Initialization Sequence Completed\nTue May 2 10:01:55 2024\n",
            "auth-user-pass /etc/openvpn/auth.txt\nclient\n/etc/openvpn/ca.crt\n",
            "cat > /etc/openvpn/auth.txt <<EOF\n${VPN_USER}\n${VPN_PASSWORD}\nEOF",
            "$ ls /etc/openvpn/server\nca.crt\ndh2048.pem\nserver.key",
            "openvpn interfaces:\ntun0\ntun1-office",
            "auth-user-pass\nauth-nocache\ncipher=AES-256-GCM",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }

    /// Held-out 86: vsftpd's virtual users file has OpenVPN's two lines.
    #[test]
    fn vsftpd_virtual_users_files() {
        assert!(fires(
            "vsftpd virtual users list:\nbackup-drop\nQm4_vXz8LrT2",
            Rule::CredentialAssignment
        ));
        assert!(!fires(
            "vsftpd virtual users list:\nbackup-drop\n/srv/ftp/backup-drop",
            Rule::CredentialAssignment
        ));
    }

    /// Held-out 98: a bare `key:` under a YAML block named `api` (comments
    /// passed over) holds an API key when it looks generated; under
    /// another block, or beside `api:` rather than in it, it is judged as
    /// a bare `key` is, and a header's or a route's name is none.
    #[test]
    fn an_api_blocks_key() {
        assert!(fires(
            "api:\n  key: 2011ad7306f6e33b6b4e55ffb0807568\n  base_url: https://geo.tessellate.example",
            Rule::CredentialAssignment
        ));
        for hit in [
            "api:\n  base_url: https://geo.example\n  key: 2011ad7306f6e33b6b4e55ffb0807568",
            "api: # geocoder\n  key: 2011ad7306f6e33b6b4e55ffb0807568",
            "api:\n# geocoder credentials\n  key: 2011ad7306f6e33b6b4e55ffb0807568",
        ] {
            assert!(fires(hit, Rule::CredentialAssignment), "{hit}");
        }
        for clean in [
            "cache:\n  key: 2011ad7306f6e33b6b4e55ffb0807568",
            "api:\nkey: 2011ad7306f6e33b6b4e55ffb0807568",
            "api:\n  key: ${GEO_API_KEY}",
            "api:\n  key: <your-api-key>",
            "api: v2\n  key: 2011ad7306f6e33b6b4e55ffb0807568",
            "api:\n  key: X-API-Key",
            "api:\n  version: v2\n  key: users/{userId}/orders",
            "api:\n  key: header:X-Forwarded-For",
        ] {
            assert!(!fires(clean, Rule::CredentialAssignment), "{clean}");
        }
    }
}
