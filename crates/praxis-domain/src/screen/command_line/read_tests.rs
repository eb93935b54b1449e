//! Tests of command-line values that are read or named, not given: a
//! backquoted command's output and a sentence's placeholder.

use crate::screen::fires;
use crate::screen::rule::Rule;

/// A backquoted command after a password flag runs and passes what it
/// prints, like `$(…)`; a backquoted literal in Markdown, or a literal
/// that only opens with a backquote, is still given.
#[test]
fn backquoted_commands_are_read() {
    for clean in [
        "mysql -u root -p`cat /run/secrets/db` mydb",
        "mysql -u root -p\"`cat /run/secrets/db`\" mydb",
        "mysqldump -uroot -p`cat pw.txt` shop > shop.sql",
        "sshpass -p `cat ~/.pw` ssh admin@10.0.0.7",
        "sshpass -p \"`pass show infra/ssh`\" ssh admin@10.0.0.7",
        "mysql -u root -p$(cat /run/secrets/db) mydb",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
    for hit in [
        "connect with `mysql -uroot -pT7q!vR2xLm9w shop`",
        "sshpass -p Xk93jf2La ssh admin@10.0.0.7",
        "mysql -u root -p`Xk9!q7Lw2 shop",
        "run mysql -uroot -p`Xk9q7Lw2Tz` against shop",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
}

/// A placeholder ends no less a placeholder for the sentence's stop after
/// it; a real password before the stop still counts.
#[test]
fn placeholders_before_a_full_stop() {
    for clean in [
        "Run sshpass -p PASSWORD.",
        "Log in with sshpass -p PASSWORD, then run the script.",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
    for hit in ["Run sshpass -p Xk93jf2La.", "Run sshpass -p Tq7!mZ2w;"] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
}
