//! Addresses that carry a password without a URL's scheme: an SMB
//! share mounted by its address, MySQL Shell's connection URI, an rclone
//! remote written inline.

use super::super::pattern::{Spans, contains_ignoring_case, groups, lazy_regex};
use super::super::value::{is_placeholder, refers, word_like};

lazy_regex!(
    /// A mount of an SMB share whose password is in its address
    /// (`mount_smbfs '//DOMAIN;user:…@host/share'`, no scheme).
    SMB_MOUNT,
    r#"(?i)\b(?:mount_smbfs|mount\.cifs|mount\s+-t\s+(?:smbfs|cifs))\s+(?:-\S+\s+)*["']?//(?:[^\s/@:;'"]+;)?[^\s/@:;'"]+:([^\s@'"/]+)@"#
);
lazy_regex!(
    /// MySQL Shell's connection URI, whose scheme is optional
    /// (`mysqlsh --uri 'admin:…@db:33060'`, `\connect admin:…@db`).
    SHELL_URI,
    r#"(?i)(?:\bmysqlsh\b[^\n|;]*?\s(?:--uri[= ])?|\\c(?:onnect)?\s+)["']?[A-Za-z0-9_.-]+:([^\s@'"/]+)@[A-Za-z0-9.-]+"#
);

lazy_regex!(
    /// An rclone remote written inline, a connection string
    /// (`":webdav,url='https://…',user=ops,pass='…':"`): a backend's name
    /// after a colon, then its parameters (bare flags among them), one of
    /// them a secret. After an `=`, `:name,` is an SQL statement's bound
    /// parameter (`SET email=:email,password=crypt(…)`).
    RCLONE_REMOTE,
    r#"(?i)(?:^|[\s"']):[a-z][a-z0-9]*,(?:[a-z0-9_]+(?:=(?:'[^'\n]*'|"[^"\n]*"|[^,:'"\s]*))?,)*?(?:pass|password2?|key|secret_access_key|account_key|client_secret|sse_customer_key|access_grant|token|bearer_token)=(?:'([^'\n]+)'|"([^"\n]+)"|([^,:'"\s]+))"#
);

/// The passwords in `text` of addresses written without a scheme.
pub(super) fn schemeless(text: &str) -> Spans {
    let mut out = Spans::new();
    if contains_ignoring_case(text, "mount") {
        out.extend(groups(Some(&SMB_MOUNT), text, |p| !is_placeholder(p)));
    }
    if contains_ignoring_case(text, "mysqlsh") || text.contains("\\c") {
        out.extend(groups(Some(&SHELL_URI), text, |p| {
            p.len() >= 3 && !is_placeholder(p) && !p.starts_with("//")
        }));
    }
    if text.contains(',') && text.contains('=') {
        out.extend(
            RCLONE_REMOTE
                .captures_iter(text)
                .filter_map(|c| c.iter().skip(1).flatten().next())
                .filter(|m| {
                    let v = m.as_str();
                    // A constant's name (`RCLONE_PASS`), a call, a
                    // reference or a word (`obscured`) stands for the value.
                    let constant = v
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
                    v.len() >= 4
                        && !constant
                        && !v.contains('(')
                        && !refers(v)
                        && !v.starts_with('{')
                        && !v.to_ascii_lowercase().starts_with("env:")
                        && !word_like(v)
                        && !is_placeholder(v)
                })
                .map(|m| m.range()),
        );
    }
    out
}
