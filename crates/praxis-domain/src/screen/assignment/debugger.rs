//! Credentials a debugger or a REPL printed: the expression names a
//! secret's field (`(gdb) p cfg->auth_token`, `(Pdb) p settings.api_key`,
//! `>>> client.password`) and the next line shows its string value
//! (`$1 = 0x55d0… "…"`, `'…'`, `=> "…"`).

use super::super::gate::Open;
use super::super::pattern::{Spans, lazy_regex};
use super::{key_class, literal_secret};

lazy_regex!(
    /// A debugger's or REPL's prompt, a print command, the expression, and
    /// on the next line the quoted string it evaluated to.
    pub(super) PRINTED,
    r#"(?m)^[ \t]*(?:\((?:gdb|lldb|Pdb|pdb)\)|ipdb>|>>>|irb\([\w.]+\):\d+:\d+>|\[\d+\]\s+pry\([\w.]+\)>|pry\([\w.]+\)>|iex\(\d+\)>|In\s+\[\d+\]:)[ \t]*(?:(?:p|print|po|pp|expr|call|display|frame\s+variable|x/s)[ \t]+)?([A-Za-z_][\w.]*(?:(?:->|\.|::)[A-Za-z_]\w*|\[["'][\w-]+["']\])*)\)?[ \t]*\r?\n[ \t]*(?:\$\d+\s*=\s*|=>\s*|Out\[\d+\]:\s*|\(\w[\w\s*]*\)\s*)?(?:0x[0-9a-fA-F]+\s+)?(["'][^"'\n]{8,}["'])"#
);

/// The gate words of [`PRINTED`]: one of its prompts.
pub(super) const DEBUGGER_WORDS: &[&str] = &[
    "(gdb)", "(lldb)", "(pdb)", "ipdb>", ">>>", "irb(", "pry(", "iex(", "in [",
];

/// Strings a debugger printed for an expression named for a secret, judged
/// as a quoted value assigned to its last field would be.
pub(super) fn printed_credentials(open: &Open<'_>, text: &str) -> Spans {
    open.captures(&PRINTED, text)
        .filter(|c| {
            let field = c[1]
                .rsplit(['.', '>', ':', '['])
                .next()
                .unwrap_or("")
                .trim_matches(['"', '\'', ']']);
            key_class(field).is_some_and(|class| literal_secret(class, &c[2], true, false))
        })
        .filter_map(|c| c.get(2).map(|m| m.range()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::flagged;

    /// Held-out 59: gdb printing a config's token.
    #[test]
    fn strings_printed_for_a_secrets_field() {
        for hit in [
            "(gdb) p cfg->auth_token\n$1 = 0x55d0c2a1e2a0 \"pACe29zcazZKB0tV3gNByQ4b1CHUOi4OKqwsv9Ew\"",
            "(Pdb) p settings.api_key\n'q8Vb2LmX0zR7tK4nP9wS3dF6'",
            ">>> client.password\n'Tr0ub4dor&3-Xq'",
            "[1] pry(main)> creds.secret_key\n=> \"wJalrXUtnFEMI9K7MDENGbPxRfiCY4QzTrLZ\"",
        ] {
            assert!(flagged(hit), "{hit}");
        }
        for clean in [
            "(gdb) p cfg->auth_token\n$1 = 0x0",
            "(gdb) p cfg->hostname\n$1 = 0x55d0c2a1e2a0 \"db01.internal.example\"",
            ">>> settings.password\n'<redacted>'",
            "(Pdb) p token_type\n'Bearer'",
        ] {
            assert!(!flagged(clean), "{clean}");
        }
    }
}
