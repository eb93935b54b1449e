//! Tests of command-line values that are read or named, not given (a
//! backquoted command's output and a sentence's placeholder), and of tools
//! whose password flag has a shape of their own.

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
        "redis-cli -a `cat /run/secrets/redis` --scan",
        "sqlcmd -S db01 -U sa -P `cat\t/run/secrets/sa` -Q 'SELECT 1'",
        "7z x backup.7z -p`/usr/local/bin/vault-get archive`",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
    for hit in [
        "connect with `mysql -uroot -pT7q!vR2xLm9w shop`",
        "sshpass -p Xk93jf2La ssh admin@10.0.0.7",
        "mysql -u root -p`Xk9!q7Lw2 shop",
        "run mysql -uroot -p`Xk9q7Lw2Tz` against shop",
        // In single quotes a backquote is a character; a later backquote
        // (SQL's quoted name, a Markdown span) closes nothing of it.
        "mysql -uroot -p'`Xk9!q7Lw2' -e \"SELECT `name` FROM users\"",
        "sshpass -p '`Tq7 mZ2w`' ssh admin@10.0.0.7",
        "redis-cli -a \"`Xk9!q7Lw2\" --scan --pattern `user *`",
        "mysql -u root -p`Xk9!q7Lw2 shop, then run `SHOW TABLES`",
        "7z a out.7z -p`T7q!vR2xLm9w docs/ `date`",
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
        "Use redis-cli -a PASSWORD.",
        "Connect with redis-cli -a PASSWORD, then ping.",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
    for hit in ["Run sshpass -p Xk93jf2La.", "Run sshpass -p Tq7!mZ2w;"] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
}

/// A flag whose letter is not ASCII (`-é…`) is read char by char: the
/// value glued to it starts after the whole letter.
#[test]
fn a_flag_with_a_letter_beyond_ascii() {
    for text in [
        "docker login -p -é?Bearer ",
        "mysql -u root -p -ÉZq7!rT2wLm9x",
    ] {
        let _ = crate::screen::scan(text, false);
        let _ = crate::screen::scan(text, true);
    }
    assert!(!fires(
        "docker login -p -é?Bearer ",
        Rule::CredentialCommandLine
    ));
}

/// The Windows network tools and VMware's `esxcli` take the password in a
/// lower-case `-p` (`-P` is a file of passwords or a port to some of them).
#[test]
fn windows_network_tools_take_a_lowercase_p() {
    for hit in [
        "smbmap -u svc_scan -p KIQMXQO9386JH3V2TxDe5E -d CORP -H 10.1.4.20",
        "crackmapexec smb 10.1.4.0/24 -u admin -p 'Winter2024!x' --shares",
        "nxc winrm dc01.corp.local -u svc_backup -p Qm7tR2vLx9",
        "evil-winrm -i 10.1.4.20 -u Administrator -p \"T7q!vR2xLm9w\"",
        "enum4linux-ng -A -u guest -p Zx81kfPq2 10.1.4.20",
        "esxcli --server esx02.lab -u root -p 'Rk4!vQ9zLm2x' storage core device list",
        "esxcli system account set -i backup -p 'Rk4!vQ9zLm2x' -c 'Rk4!vQ9zLm2x'",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "smbmap -u svc_scan -p $SMB_PASS -H 10.1.4.20",
        "nxc smb 10.1.4.0/24 -u users.txt -P passwords.txt",
        "evil-winrm -i 10.1.4.20 -u Administrator -H <NTLM_HASH>",
        "smbmap -H 10.1.4.20 -p <password>",
        "enum4linux -a 10.1.4.20",
        "nxc smb 10.10.10.0/24 -u users.txt -p passwords.txt",
        "crackmapexec smb 10.1.4.0/24 -u admin -p /usr/share/wordlists/rockyou.txt",
        "nxc smb 10.1.4.20 -u admin -H 0123abcd && ssh -p 2222 admin@10.1.4.20",
        "esxcli --server esx02.lab -u root -p $ESX_PASSWORD network ip interface list",
        "esxcli network ip interface add -i vmk1 -p vMotion-A2",
        "esxcli software profile update -p ESXi-8.0U2-22380479-standard -d https://depot.example/index.xml",
        "esxcli --server esx02.lab --credstore ~/.vmware/credstore network firewall get",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// A password piped into Kerberos's `kinit` is on the command line, as one
/// piped into `sudo -S` is; a variable or a keytab is not.
#[test]
fn a_password_piped_into_kinit() {
    for hit in [
        "echo 'Tq8!vR2xLm9w' | kinit svc-etl@CORP.EXAMPLE",
        "printf '%s\\n' Zx81kfPq2Lm | k5start -U -f - svc@REALM",
        "echo 'Tq8vR2xLm9wZ' | sudo -u hdfs kinit hdfs@DATA.LAKE",
        "kinit svc-etl@CORP.EXAMPLE <<< 'Tq8vR2xLm9wZ'",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "echo \"$KRB_PASSWORD\" | kinit svc-etl@CORP.EXAMPLE",
        "kinit -kt /etc/security/keytabs/etl.keytab svc-etl@CORP.EXAMPLE",
        "echo 'ticket renewed' && kinit -R",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}
