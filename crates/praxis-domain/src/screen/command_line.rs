//! Credentials on a command line: a password or token given as a flag or
//! argument (registry, cloud and cluster logins, database clients, archive
//! and key tools), where it lands in shell history, process listings and
//! CI logs.

use std::sync::LazyLock;

use super::assignment::{KEY_WORDS, KeyClass, key_class, literal_secret};
use super::gate::{Doors, Gates};
use super::pattern::{Spans, groups, lazy_regex};
use super::value::{has_digit, is_placeholder, random_like, refers, word_like};

lazy_regex!(
    /// A long or short flag and its value, after a space or `=`; in prose,
    /// also inside backquotes.
    FLAG,
    r#"(?i)(?:^|[\s"'`])--?((?:[a-z][a-z0-9_.-]*)?(?:pass|pwd|secret|token|key|credential|auth)[a-z0-9_.-]*|(?:[a-z][a-z0-9_.-]*[_-])?pat)(?:[ \t]+|=|["']\s*,\s*)(["']?)([^\s`-][^\s"'`]*|-[^\s"'`-][^\s"'`]*)"#
);
lazy_regex!(
    /// `-p value` of a login-like command (registries, clusters, package
    /// uploads, database shells), where `-p` is the password; `-a` of
    /// `redis-cli` (whose `-p` is the port).
    LOGIN_SHORT,
    r#"(?i)\b(?:login|upload|publish|connect|auth|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|psql|influx|cf|twine|rabbitmqadmin|sqlcmd|mssql-cli|bcp|hdbsql|isql|ncftp(?:put|get|ls)?|winrs)\b[^\n|;&]*?\s-(?:p|P)(?:[ \t]+|[=:])["']?([^\s"'-][^\s"']*)|\bredis-cli\b[^\n|;&]*?\s-a(?:[ \t]+|=)["']?([^\s"'-][^\s"']*)"#
);
lazy_regex!(
    /// curl's `-u` closing a run of short flags (`-su 'user:password'`),
    /// apart from [`CURL_USER`] so that only texts naming curl read it.
    CURL_BUNDLED_USER,
    r#"(?i)\bcurl(?:\.exe)?\b[^\n|;&]*?\s-[a-zA-Z]+u(?:\s+|=)?(?:"[^\s:"]+:([^"\n]+)"|'[^\s:']+:([^'\n]+)'|[^\s:'"]+:(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"@][^\s'"]*)))"#
);
lazy_regex!(
    CURL_USER,
    r#"(?i)\b(?:curl|wget|http|https)\b[^\n|;]*?\s(?:-u|--user|--proxy-user|-U)(?:\s+|=)?(?:"[^\s:"]+:([^"\n]+)"|'[^\s:']+:([^'\n]+)'|[^\s:'"]+:(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"@][^\s'"]*))|["']?([A-Za-z0-9_-]{24,}):["']?(?:\s|$))"#
);
lazy_regex!(
    MYSQL_PASSWORD,
    r#"(?i)(?:^|[\s;&|(`"'/])(?:mysql|mariadb)(?:dump|admin|sh|import|slap|-dump|-admin)?\b[^\n|;]*?\s-p([^\s'"-][^\s'"]*|'[^']+'|"[^"]+")"#
);
lazy_regex!(
    GH_SECRET_BODY,
    r#"(?i)\bgh\s+secret\s+set\b[^\n|;]*?\s(?:--body|-b)(?:\s+|=)["']?([^\s"']+)"#
);
lazy_regex!(SPEC_VALUE, r"^[A-Za-z_]+=");
lazy_regex!(
    /// An ftp script's `user NAME PASSWORD` line, after `ftp` on an earlier
    /// line (a here-document fed to `ftp -n`).
    FTP_USER,
    r"(?i)\bftp\b[^\x00]*?\n[ \t]*user[ \t]+\S+[ \t]+(\S+)[ \t]*(?:\r?\n|$)"
);
lazy_regex!(
    /// sshpass run from a program's argument list (`["sshpass", "-p",
    /// "…", "ssh", …]`).
    SSHPASS_ARGV,
    r#"\[\s*["']sshpass["']\s*,\s*["']-p["']\s*,\s*["']([^"'\n]+)["']"#
);
lazy_regex!(
    /// Passwords handed to a command on its command line or standard input,
    /// or as a file made on the fly (`--password-file=<(echo …)`).
    CLI_PASSWORD,
    r#"(?i)\b(?:echo|printf)\s+(?:-[a-z]+\s+)?(?:['"]%s(?:\\n)?['"]\s+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s|]+))\s*\|\s*(?:sudo\s+(?:-\w+\s+)*-S\b|(?:sudo\s+)?chpasswd\b|passwd\s+--stdin\b|docker\s+login\b|podman\s+login\b|helm\s+registry\s+login\b|oras\s+login\b|openconnect\b[^\n]*--passwd-on-stdin\b)|\bsudo\s+(?:-\w+\s+)*-S\b[^\n|;]*<<<\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\bssh-keygen\b[^\n|;]*?\s-N\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|-pass(?:in|out)?\s+pass:(\S+)|\bsshpass\s+-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\b7z\b[^\n|;]*\s-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|\b(?:un)?zip\b[^\n|;]*\s(?-i:-P)\s+(\S+)|(?:^|[\s;&|(])(?:un)?rar(?:\.exe)?\s+[a-z]{1,2}\b[^\n|;]*\s-h?p([^\s'"-][^\s'"]*)|\bredis-cli\b[^\n|;]*?\s-a\s+(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\b(?:htpasswd|mosquitto_passwd)(?:\s+-[A-Za-z]+)*\s+-(?-i:[A-Za-z]*b[A-Za-z]*)(?:\s+-[A-Za-z]+)*\s+\S+\s+\S+\s+(\S+)|\bnet\s+user\s+\S+\s+(\*[^\s/]+|[^\s/*][^\s/]*)\s+/add\b|(?m:^\++[ \t]+(?:echo|printf)[ \t]+(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))[ \t]*\n\++[ \t]+sudo[ \t]+(?:-\w+[ \t]+)*-S\b)|\bwpa_passphrase\s+(?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+)\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"|>]+))|--?[a-z0-9_.-]*(?:pass|pwd|secret|token|key|credential)[a-z0-9_.-]*(?:=|[ \t]+)<\(\s*(?:echo|printf)\s+(?:-[a-z]+\s+)?(?:['"]%s(?:\\n)?['"]\s+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s)|]+))\s*\)"#
);
lazy_regex!(
    /// Tools that take a password in a flag of their own shape: RDP
    /// clients, LDAP tools, smbclient, `--creds user:pass`, `net use`,
    /// RabbitMQ and Grafana admin commands, nmcli, MinIO's `mc alias set`,
    /// Drupal's `drush user:password`, `etcdctl --user`, macOS's `security`
    /// keychain commands, any `-pw`, Swift's `-K`, `openssl enc -k`,
    /// Perforce's `-P`, `net use` with the password before `/user:`,
    /// rclone's `config create … pass …`.
    TOOL_PASSWORD,
    r#"(?i)\b(?:xfreerdp|wfreerdp|sdl-freerdp|rdesktop)\b[^\n]*?\s[/-]p[: ]\s*["']?([^\s"']+)|\bldap(?:search|modify|add|delete|whoami|passwd|compare|exop)\b[^\n|;]*?\s-w\s*["']?([^\s"']+)|\bsmbclient\b[^\n|;]*?\s(?:-U|--user(?:=|\s))\s*["']?[^\s"'%]+%([^\s"']+)|--(?:src-|dest-)?creds(?:=|\s+)["']?[^\s:"']+:([^\s"']+)|\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+["']?([^\s"'<-][^\s"']*)|\breset-admin-password\s+["']?([^\s"'-][^\s"']*)|\bnmcli\b[^\n|;]*?\bpassword\s+["']?([^\s"']+)|\bmc\s+(?:alias|config\s+host)\s+(?:set|add)\s+\S+\s+\S+\s+[^\s-]\S*\s+["']?([^\s"'-][^\s"']*)|\bnet\s+use\b[^\n|;]*?/user:\S+\s+["']?([^\s"'/*]+)|\bnet\s+use\s+(?:[A-Za-z]:\s+|\*\s+)?\\\\\S+\s+["']?([^\s"'/*][^\s"']*)["']?\s+/user:|\brclone\s+config\s+(?:create|update)\b[^\n|;]*?\spass(?:word)?\s+["']?([^\s"'-][^\s"']*)|\b(?:psexec|paexec)(?:64)?(?:\.exe)?\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bdrush\s+(?:user:password|upwd)\s+\S+\s+["']?([^\s"']+)|\betcdctl\b[^\n|;]*?--user[= ]["']?[^\s:"']+:([^\s"']+)|\bsecurity\s+(?:unlock-keychain|create-keychain)\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bsecurity\s+add-(?:generic|internet)-password\b[^\n|;]*?\s-w\s+["']?([^\s"'-][^\s"']*)|(?:^|\s)-pw\s+["']?([^\s"'-][^\s"']*)|\bswift\b[^\n|;]*?\s-K\s+["']?([^\s"']+)|\bp4\b[^\n|;]*?\s(?-i:-P)\s+["']?([^\s"']+)|--password-command[= ]["']echo\s+([^\s"']+)|\bopenssl\s+(?:enc|aes-\S+|des\S*)\b[^\n|;]*?\s-k\s+["']?([^\s"'-][^\s"']*)|\bsqlcmd\b[^\n|;]*?\s(?-i:-P)\s*["']?([^\s"']+)|\bsigntool\b[^\n|;]*?\s/p\s+["']?([^\s"']+)|\b(?:cqlsh|beeline)\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bmosquitto_(?:pub|sub)\b[^\n|;]*?\s(?-i:-P)\s+["']?([^\s"']+)|\bset-initial-password\s+["']?([^\s"'-][^\s"']*)|\bmount\b[^\n|;]*?\s-o\s+\S*?\bpass(?:word)?=([^,\s"']+)|\bschtasks\b[^\n|;]*?\s/RP\s+["']?([^\s"']+)|\bsc(?:\.exe)?\s+(?:config|create)\b[^\n|;]*?\bpassword=\s*["']?([^\s"']+)|\blftp\b[^\n|;]*?\s-u\s+[^\s,]+,(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|\bhttps?\s+(?:-\w+\s+)*-a\s+[^\s:]+:([^\s'"]+)|\bnuget\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bsqlplus\s+(?:-\w+\s+)*[A-Za-z0-9_$#]+/([^\s@/"']+)@|\bopenssl\s+passwd\b[^\n|;]*?\s["']([^"'\n]+)["']|\bvsql\b[^\n|;]*?\s-w\s+["']?([^\s"']+)|\bab\s[^\n|;]*?\s-A\s+[^\s:"']+:([^\s"']+)|\bisql\s+(?:-\w+\s+)*[A-Za-z_][\w.-]*\s+[A-Za-z_][\w.@-]*\s+["']?([^\s"'-][^\s"']*)|\bnuget\b[^\n|;]*?\s(?:-k|--api-key|-ApiKey)\s+["']?([^\s"'-][^\s"']*)|\bcloudflared\s+(?:service\s+install|tunnel\s+(?:--\S+\s+)*run\s+--token)\s+["']?(eyJ[A-Za-z0-9+/=_-]{40,})|\bbw\s+unlock\s+["']?([^\s"'-][^\s"']*)|\bexpect\b[^\n]*?assword:?["'\\]*\s*(?:;\s*|\n\s*)send\s+(?:--\s+)?["']([^"'\\\n]+)"#
);
lazy_regex!(
    /// More tools that take a password or token as an argument of their
    /// own: BMC and SNMP clients (`ipmitool -P`, `racadm -p`, `snmpwalk
    /// -A/-X`), database shells (`cypher-shell -p`, `db2 connect … using`),
    /// Windows (`cmdkey /pass:`, `schtasks /p`, `plink -pw`), Azure CLI
    /// `-p`, Jenkins' `-auth user:secret`, and registries' and services'
    /// token commands (`cargo login`, `snyk auth`, `ngrok config
    /// add-authtoken`, `codecov -t`, `influx -t`, `composer config
    /// http-basic.<host> <user> <password>`, `poetry config`, `bundle config
    /// <host> <user>:<password>`, HTTPie's bearer `--auth`, `doctl auth
    /// init -t`, an SSM `SecureString`'s `--value`).
    /// `sqlplus user/password@db` too, and Data Pump's and SQL*Loader's.
    TOOL_SECRET,
    r#"\b(?:sqlplus|expdp|impdp|sqlldr)(?:\.exe)?\s+(?:-\w+\s+)*["']?[A-Za-z0-9_$#.]+/(\S+?)(?:@(?://)?[A-Za-z0-9.-]+(?::\d+)?(?:/\S*)?)?["']?(?:\s|$)|\bipmitool\b[^\n|;]*?\s-P\s*["']?([^\s"']+)|\bracadm\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bcypher-shell\b[^\n|;]*?\s(?:-p|--password)\s+["']?([^\s"']+)|\b(?:plink|pscp|psftp)(?:\.exe)?\b[^\n|;]*?\s-pw\s+["']?([^\s"']+)|\bsnmp[a-z]+\b[^\n|;]*?\s-[AX]\s+["']?([^\s"']+)|(?i:\bdb2\s+["']?connect\b)[^\n|;]*?\b(?i:using)\s+["']?([^\s"']+)|(?i:\bcmdkey(?:\.exe)?\b)[^\n|;]*?\s/(?i:pass):["']?([^\s"']+)|(?i:\bschtasks(?:\.exe)?\b)[^\n|;]*?\s/[pP]\s+["']?([^\s"']+)|\baz\s[^\n|;]*?\s(?:--admin-password|--password)\s+["']?([^\s"'-][^\s"']*)|\baz\s+(?:sql|postgres|mysql|login)\b[^\n|;]*?\s-p\s+["']?([^\s"'-][^\s"']*)|\s-auth\s+["']?[^\s:"']+:([^\s"'@]+)|\bcargo\s+login\s+(?:--[\w-]+(?:[= ][\w.-]+)?\s+)*?([A-Za-z0-9_]{20,})|\bdoctl\s+auth\s+init\b[^\n|;]*?\s(?:-t|--access-token)[= ]["']?([^\s"']+)|\bput-parameter\b[^\n|;]*?--type\s+SecureString\b[^\n|;]*?--value\s+["']?([^\s"']+)|\bput-parameter\b[^\n|;]*?--value\s+["']?([^\s"']+)[^\n|;]*?--type\s+SecureString\b|\bhttps?\b[^\n|;]*?--auth-type[= ](?:bearer|jwt)\b[^\n|;]*?\s(?:--auth|-a)[= ]["']?([^\s"']{16,})|\bsnyk\s+auth\s+([0-9A-Za-z-]{20,})|\bngrok\s+(?:config\s+add-authtoken|authtoken)\s+([A-Za-z0-9_]{20,})|\bcodecov(?:cli)?\b[^\n|;]*?\s-t\s+["']?([0-9A-Za-z-]{20,})|\binflux\b[^\n|;]*?\s-t\s+["']?([^\s"']{20,})|\bcomposer\s+config\s+(?:--\S+\s+)*http-basic\.\S+\s+\S+\s+["']?([^\s"']+)|\bpoetry\s+config\s+(?:http-basic\.\S+\s+\S+|pypi-token\.\S+)\s+["']?([^\s"']+)|\bbundle\s+config\s+(?:set\s+)?(?:--\S+\s+)*\S+\s+[^\s:'"]+:([^\s"']+)"#
);
lazy_regex!(
    /// A Java system property (`-Drepo.password=…`).
    PROPERTY,
    r#"(?:^|\s)-D([A-Za-z0-9_.-]*(?i:password|passwd|secret|token|apikey|api-key|api_key|credentials?|\.login))=["']?([^\s"']+)"#
);
lazy_regex!(
    /// A libpq connection string handed to a PostgreSQL client.
    LIBPQ_PASSWORD,
    r#"(?i:\b(?:psql|pg_dump|pg_dumpall|pg_restore|pgbench|pg_basebackup|pgcli)\b)[^\n]*?\bpassword=([^\s'"]+)"#
);
lazy_regex!(
    /// A password in SQL handed to a database client.
    SQL_PASSWORD,
    r"(?i)\b(?:psql|mysql|mariadb|sqlcmd|cqlsh|mongo\w*|clickhouse-client|sqlplus|isql)\b[^\n]*?\b(?:PASSWORD|IDENTIFIED\s+BY)\s+'([^'\n]+)'"
);
lazy_regex!(
    /// A command line of a tool that takes `key=value` arguments.
    PAIR_COMMAND,
    r"(?i)\b(?:vault|kubectl|oc|helm|docker|podman|az|aws|gcloud|terraform|ansible(?:-playbook)?|mc|curl|http|psql|java|mvn|gradle|npm|yarn|pip|python\d*|node|dotnet|func|heroku|flyctl|doctl|kubeseal|argocd|gh|glab|consul|nomad|boundary)\b(?:[^\n|;&]|&[^&\s])*"
);
lazy_regex!(
    /// One `key=value` argument (`password=…`, `--from-literal=password=…`,
    /// `--set db.password=…`).
    ARGUMENT_PAIR,
    r#"(?:^|\s|["']|--from-literal=|--set(?:-string)?[= ])([A-Za-z_][\w.-]*)=["']?([^\s"',]+)"#
);
lazy_regex!(
    /// A secret given as a positional argument: `aws configure set
    /// aws_secret_access_key …`, `npm config set …:_authToken …`, `vault
    /// login …`, `dotnet user-secrets set <name> …`, a long generated
    /// token after any tool's `login` (`wandb login …`).
    POSITIONAL,
    r#"(?i)\b(?:configure|config)\s+set\s+(?:--\S+\s+)*\S*(?:secret|token|password|_auth)\S*\s+["']?([^\s"']+)|\bvault\s+login\s+(?:-\S+\s+)*([A-Za-z0-9._-]{16,})|\bvault\s+operator\s+unseal\s+(?:-\S+\s+)*([A-Za-z0-9+/]{40,}={0,2})|\buser-secrets\s+set\s+(?:--?\S+\s+\S+\s+)*["']?[^\s"']+["']?\s+["']?([^\s"']+)|\b[\w.-]+\s+(?:auth\s+)?login\s+(?:--?\S+\s+)*([A-Za-z0-9_]{32,})(?:\s|$)"#
);

/// The commands [`PAIR_COMMAND`] names.
const PAIR_TOOLS: &[&str] = &[
    "vault",
    "kubectl",
    "oc",
    "helm",
    "docker",
    "podman",
    "az",
    "aws",
    "gcloud",
    "terraform",
    "ansible",
    "mc",
    "curl",
    "http",
    "psql",
    "java",
    "mvn",
    "gradle",
    "npm",
    "yarn",
    "pip",
    "python",
    "node",
    "dotnet",
    "func",
    "heroku",
    "flyctl",
    "doctl",
    "kubeseal",
    "argocd",
    "gh",
    "glab",
    "consul",
    "nomad",
    "boundary",
];

lazy_regex!(
    /// A single-quoted argument with no spaces and none of the characters
    /// of paths, patterns or shell code: judged by its shape alone
    /// ([`password_shaped`]), as the tools that take one are too many to
    /// name (`plink -pw '…'`, `bw unlock '…'`, `poetry config http-basic.x
    /// user '…'`).
    QUOTED_LITERAL,
    r"(?:^|[\s=:])'([^'\s/\\\[\]{}()<>|;&*?^`]{8,64})'(?:$|[\s;|&)])"
);

/// Whether a quoted literal looks like a chosen password: capitals, small
/// letters, digits and a symbol that identifiers and versions do not use.
/// Base64 of 16 characters or more (its padding and `+` are no symbols of
/// choice) is encoded data; `KEY=value`, `pkg==1.2`, `Class#method` and a
/// `$NAME` are settings, pins, names and variables.
fn password_shaped(v: &str) -> bool {
    let bytes = v.as_bytes();
    let base64 = v.len() >= 16
        && v.len().is_multiple_of(4)
        && v.trim_end_matches('=')
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/".contains(&b));
    let setting = v.trim_end_matches('=').contains('=');
    let method = bytes
        .windows(3)
        .any(|w| w[0].is_ascii_alphabetic() && w[1] == b'#' && w[2].is_ascii_lowercase());
    let variable = bytes
        .windows(2)
        .any(|w| w[0] == b'$' && (w[1].is_ascii_uppercase() || w[1] == b'_'));
    !base64
        && !setting
        && !method
        && !variable
        && bytes.iter().any(u8::is_ascii_uppercase)
        && bytes.iter().any(u8::is_ascii_lowercase)
        && has_digit(v)
        && bytes.iter().any(|b| b"!@#$%+=~".contains(b))
        && !is_placeholder(v)
}

/// Whether a flag's "value" is a sentence naming the flag ("sqlcmd's -P
/// flag exposes …").
fn names_the_flag(v: &str) -> bool {
    matches!(v, "flag" | "option" | "switch" | "parameter" | "argument")
}

/// The words each pattern needs.
pub(super) static GATES: LazyLock<Gates> = LazyLock::new(|| {
    Gates::with_also(
        vec![
            (&FLAG, KEY_WORDS),
            (&QUOTED_LITERAL, &["'"]),
            (
                &LOGIN_SHORT,
                &[
                    "login",
                    "upload",
                    "publish",
                    "connect",
                    "auth",
                    "mongo",
                    "psql",
                    "influx",
                    "cf",
                    "twine",
                    "redis-cli",
                    "rabbitmqadmin",
                    "sqlcmd",
                    "mssql-cli",
                    "bcp",
                    "hdbsql",
                    "isql",
                    "ncftp",
                    "winrs",
                ],
            ),
            (&CURL_USER, &["curl", "wget", "http"]),
            (&CURL_BUNDLED_USER, &["curl"]),
            (&MYSQL_PASSWORD, &["mysql", "mariadb"]),
            (&GH_SECRET_BODY, &["secret"]),
            (&SSHPASS_ARGV, &["sshpass"]),
            (&FTP_USER, &["ftp"]),
            (
                &CLI_PASSWORD,
                &[
                    "echo",
                    "printf",
                    "sudo",
                    "ssh-keygen",
                    "pass:",
                    "sshpass",
                    "7z",
                    "zip",
                    "rar",
                    "redis-cli",
                    "htpasswd",
                    "mosquitto_passwd",
                    "net",
                    "wpa_passphrase",
                ],
            ),
            (
                &TOOL_PASSWORD,
                &[
                    "freerdp",
                    "rdesktop",
                    "ldap",
                    "smbclient",
                    "creds",
                    "rabbitmqctl",
                    "reset-admin-password",
                    "nmcli",
                    "mc",
                    "net",
                    "psexec",
                    "paexec",
                    "sqlcmd",
                    "signtool",
                    "cqlsh",
                    "beeline",
                    "mosquitto_",
                    "set-initial-password",
                    "mount",
                    "schtasks",
                    "password=",
                    "lftp",
                    "http",
                    "nuget",
                    "sqlplus",
                    "openssl",
                    "cloudflared",
                    "isql",
                    "vsql",
                    "ab ",
                    "bw",
                    "expect",
                    "drush",
                    "etcdctl",
                    "security",
                    "-pw",
                    "swift",
                    "password-command",
                    "p4",
                    "rclone",
                ],
            ),
            (
                &TOOL_SECRET,
                &[
                    "sqlplus",
                    "expdp",
                    "impdp",
                    "sqlldr",
                    "doctl",
                    "put-parameter",
                    "ipmitool",
                    "racadm",
                    "cypher-shell",
                    "plink",
                    "pscp",
                    "psftp",
                    "snmp",
                    "db2",
                    "cmdkey",
                    "schtasks",
                    "az",
                    "-auth",
                    "cargo",
                    "snyk",
                    "ngrok",
                    "codecov",
                    "influx",
                    "composer",
                    "poetry",
                    "bundle",
                    "--auth-type",
                ],
            ),
            (
                &PROPERTY,
                &["pass", "secret", "token", "api", "credential", ".login"],
            ),
            (&LIBPQ_PASSWORD, &["psql", "pg_", "pgbench", "pgcli"]),
            (&SQL_PASSWORD, &["password", "identified"]),
            (&PAIR_COMMAND, KEY_WORDS),
            (&POSITIONAL, &["config", "vault", "user-secrets", "login"]),
        ],
        // Each of these also needs its flag or its tool.
        vec![
            (&FLAG, &["-"]),
            (&LOGIN_SHORT, &["-p", "-a"]),
            (&CURL_USER, &["-u"]),
            (&PROPERTY, &["-d"]),
            (&LIBPQ_PASSWORD, &["password="]),
            (&PAIR_COMMAND, PAIR_TOOLS),
        ],
    )
});

/// Whether a flag named for a secret takes no value: it asks for the
/// secret or reads it elsewhere (`--ask-password`, `--password-stdin`,
/// `--prompt-password`), so the next word is an argument of its own.
fn switch_flag(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.starts_with("ask")
        || name.starts_with("prompt")
        || name.starts_with("no-")
        || name.ends_with("stdin")
        || name.ends_with("-prompt")
}

/// Whether `--secret` marks a configuration value as secret (`pulumi
/// config set --secret <key> [value]`): the word after it is the key.
fn config_key(text: &str, flag: &str, at: usize) -> bool {
    flag.eq_ignore_ascii_case("secret") && text[..at].to_ascii_lowercase().contains("config set")
}

/// Whether a flag value is a literal secret (not a variable, a file, a
/// command substitution or a placeholder).
fn literal_flag_value(class: KeyClass, value: &str, quoted: bool) -> bool {
    let bare = value.trim_end_matches(['.', ',', ';', ':', ')']);
    let reference = refers(value)
        || value.starts_with('@')
        // A password may hold `=`; other secrets' `id=…` is a spec.
        || (class != KeyClass::Password && SPEC_VALUE.is_match(value))
        || (!quoted && word_like(bare))
        // A URL after a flag that takes its password from elsewhere
        // (`lftp -u user --env-password sftp://…`).
        || value.contains("://")
        // Prose in another script after a flag named in a sentence
        // ("--secret 挂载"): no letter or digit of a secret's.
        || (!quoted && !bare.bytes().any(|b| b.is_ascii_alphanumeric()));
    !reference && literal_secret(class, value, quoted, false)
}

pub(super) fn command_line(text: &str, doors: Doors) -> Spans {
    let open = GATES.open(doors);
    let mut out: Spans = open
        .captures(&FLAG, text)
        .filter(|c| {
            !switch_flag(&c[1])
                && !config_key(text, &c[1], c.get(0).map_or(0, |m| m.start()))
                && key_class(&c[1])
                    .is_some_and(|class| literal_flag_value(class, &c[3], !c[2].is_empty()))
        })
        .filter_map(|c| c.get(3).map(|m| m.range()))
        .collect();
    out.extend(groups(open.get(&QUOTED_LITERAL), text, password_shaped));
    // `-p`/`-a` take the password itself, so a value with `=` in it is no
    // `--secret id=…` spec.
    out.extend(groups(open.get(&LOGIN_SHORT), text, |v| {
        // A number of five digits or fewer is a port (`psql -p 5432`); a
        // sentence may name the flag itself ("sqlcmd's -P flag").
        let port = v.len() <= 5 && v.bytes().all(|b| b.is_ascii_digit());
        !port
            && !names_the_flag(v)
            && v.len() >= 4
            && !refers(v)
            && !v.starts_with('@')
            && !word_like(v.trim_end_matches(['.', ',', ';', ':', ')']))
            && !is_placeholder(v)
    }));
    let handed = |v: &str| {
        v.len() >= 3
            && !is_placeholder(v)
            && !v.contains("$(")
            && !word_like(v.trim_end_matches(['.', ',', ';', ':', ')']))
    };
    out.extend(groups(open.get(&CLI_PASSWORD), text, handed));
    out.extend(groups(open.get(&SSHPASS_ARGV), text, handed));
    out.extend(groups(open.get(&FTP_USER), text, |v| {
        handed(v) && !refers(v) && (has_digit(v) || v.chars().any(|c| !c.is_alphanumeric()))
    }));
    for curl in [&CURL_USER, &CURL_BUNDLED_USER] {
        out.extend(groups(open.get(curl), text, |v| {
            v.len() >= 3 && !is_placeholder(v)
        }));
    }
    out.extend(groups(open.get(&GH_SECRET_BODY), text, |v| {
        v.len() >= 8 && !is_placeholder(v)
    }));
    out.extend(groups(open.get(&MYSQL_PASSWORD), text, |v| {
        let v = v.trim_matches(['\'', '"']);
        v.len() >= 3 && !is_placeholder(v)
    }));
    out.extend(
        open.captures(&PROPERTY, text)
            .filter_map(|c| c.get(2))
            .chain(
                open.captures(&LIBPQ_PASSWORD, text)
                    .filter_map(|c| c.get(1)),
            )
            // A property's value may hold `=` (`-Dx.password=Willow=ZA5…`).
            .filter(|v| {
                !refers(v.as_str())
                    && literal_secret(KeyClass::Password, v.as_str(), false, false)
                    && !word_like(v.as_str())
            })
            .map(|v| v.range()),
    );
    out.extend(groups(open.get(&SQL_PASSWORD), text, |v| {
        v.len() >= 4 && !is_placeholder(v)
    }));
    // Every pair holds a `=`.
    let pairs = if text.contains('=') {
        open.get(&PAIR_COMMAND)
    } else {
        None
    };
    for command in pairs.into_iter().flat_map(|re| re.find_iter(text)) {
        out.extend(
            ARGUMENT_PAIR
                .captures_iter(command.as_str())
                .filter(|c| {
                    key_class(&c[1]).is_some_and(|class| literal_flag_value(class, &c[2], false))
                })
                .filter_map(|c| c.get(2))
                .map(|m| command.start() + m.start()..command.start() + m.end()),
        );
    }
    out.extend(groups(open.get(&TOOL_PASSWORD), text, |v| {
        v.len() >= 4 && !is_placeholder(v) && !refers(v) && !names_the_flag(v)
    }));
    out.extend(groups(open.get(&TOOL_SECRET), text, |v| {
        v.len() >= 6 && !is_placeholder(v) && !refers(v) && !word_like(v)
    }));
    out.extend(groups(open.get(&POSITIONAL), text, |v| {
        random_like(v, 12) && has_digit(v)
    }));
    out
}

#[cfg(test)]
mod tests {
    use crate::screen::rule::Rule;
    use crate::screen::{fires, scan};

    #[test]
    fn tools_with_secrets_of_their_own() {
        for hit in [
            "ipmitool -I lanplus -H 10.1.2.3 -U admin -P Xq7vR2mLw9Tz power status",
            "racadm -r 10.1.2.4 -u root -p Plum9-Anvil-Reed getsysinfo",
            "cypher-shell -a bolt://graph:7687 -u neo4j -p Hq2Zr8PwLm5Tx",
            "plink -ssh -pw Gr4nite!Owl ops@10.0.0.9 uptime",
            "snmpget -v3 -l authPriv -u mon -a SHA -A Zt8qWm2Rk5Lp -x AES -X Vb3nMq7Ty2Wd 10.0.0.1 sysName.0",
            "db2 connect to ORDERS user db2inst1 using Fj4!kR9zTq2",
            "cmdkey /add:files01 /user:CORP\\svc /pass:Wk2Lm9Qx7Rt4",
            "schtasks /create /tn Nightly /tr run.bat /ru CORP\\svc /p Pq8Wn3Zr6Xt",
            "az vm create -n vm1 -g rg1 --admin-username azureuser --admin-password 'Tz9!qWm4Lr2Xk'",
            "java -jar jenkins-cli.jar -s https://ci.example/ -auth admin:f3a9c2e7b1d4086a5c2e9f7b3d1a8c6e4b build app",
            "cargo login Jx8qLm2Rw9Tz4Vb7Nc1Pd5Hs3Kf",
            "ipmitool -I lanplus -H 10.1.2.3 -U admin -PXq7vR2mLw9Tz power status",
            "schtasks /create /tn Nightly /tr run.bat /ru CORP\\svc /P Pq8Wn3Zr6Xt",
            "db2 \"connect to sample user db2inst1 using Fj4kR9zTq2\"",
            "snyk auth 3f6c1a9e-7b2d-4e8f-a1c3-5d7e9f0b2a4c",
            "ngrok config add-authtoken 2Zq8LmR4wTx9Vb7Nc1Pd5Hs3Kf6Jy",
            "composer config --global http-basic.repo.example.org ci Mq4!vR8zLw2",
            "bundle config set --global gems.example.org ci:Rk7!wQ2zLm9",
            "sonar-scanner -Dsonar.projectKey=app -Dsonar.login=7d3e9a1c5b2f8e4d6a0c9b7e3f1d5a2c8e6b4f0a",
            "curl --user deploy:'Zq8-wR2m!Lx' -X POST https://ci.example/job/build",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "ipmitool -I lanplus -H 10.1.2.3 -U admin -P \"$IPMI_PASSWORD\" power status",
            "cargo login --registry crates-io",
            "bundle config set path vendor/bundle",
            "bundle config set --local without 'development:test'",
            "az group create -n rg1 -l westeurope",
            "snmpwalk -v2c -c public 10.0.0.1",
            "schtasks /query /fo LIST /v",
            "az webapp create -g rg -p plan-prod-eastus-01 -n app",
            "composer config --global http-basic.repo.example.org ci \"$COMPOSER_PASS\"",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// In a command field, an assignment inside the command is passed on
    /// the command line too.
    #[test]
    fn assignments_inside_commands_are_on_the_command_line() {
        use crate::screen::scan;
        for command in [
            "PGPASSWORD=Sq8!wLm2Rz4Tx psql -h db -U app",
            "curl -H \"Authorization: Bearer Hq7vR2mLw9TzXk4Pb8Nc3Df6Gy1Js5\" https://api.example/v1",
            "newman run suite.json --env-var \"apiKey=Wz4qLm8Rt2Xv6Nb9Pc3D\"",
        ] {
            let rules = scan(command, true);
            assert!(
                rules.contains(&Rule::CredentialCommandLine),
                "{command}: {rules:?}"
            );
        }
        // In prose the assignment stands alone.
        let rules = scan("PGPASSWORD=Sq8!wLm2Rz4Tx was in the runbook", false);
        assert!(!rules.contains(&Rule::CredentialCommandLine), "{rules:?}");
    }

    #[test]
    fn literal_secrets_on_command_lines() {
        for hit in [
            "docker login -u ci -p Dk9!rQ2vLm registry.example.com",
            "helm registry login ghcr.example.com --username bot --password 'H3lm#Pass2024'",
            "oc login --token=sha256~Xk2Lq9vR7tW4yB8nC1dF6gJ0sE5uMz3 --server=https://api.ocp:6443",
            "kubectl --token eyzQ9vR7tW4yB8nC1dF6 get pods",
            "az login --service-principal -u 1b2c -p Qw8~rT5yU2iO9pA3sD6f --tenant t",
            "curl -u deploy:Tr0ub4dor https://ci.internal",
            "mysql -uroot -pS3cretRoot db",
            "--api-key 4c9a7e1f2b8d3c6a",
            "aws configure set aws_secret_access_key q8Xv2LmN4pR7tK1wZ9sB3cD6fG0hJ5yA",
            "sshpass -p Qw3rty ssh host",
            "docker login -u ci -p %Rk2mQ9vL3x registry.example.com",
            "vsce publish --pat w3k9q2m7x5v8b1n4c6z0a2s4d6f8g1h3j5k7l9",
            "vault login -method=userpass username=ops password=Tp4&d4tUNjIVXIt5MHz",
            "az devops login --org https://dev.azure.com/acme --ado-pat q7w2e9r4t1y8u3i6o0p5a2s7d4f9g1h6",
            "mosquitto_pub -h broker.lan -p 8883 -u edge -P Mq7tT2vLx9 -t s/1 -m on",
            "rar a -pK7wq2Zt9 backup.rar ./reports",
            "sc\tconfig Spooler obj= .\\svc password= Hunter2pass!",
            "plink -ssh -pw 'Pl1nk!Ops' ops@10.0.4.20 uptime",
            "bw unlock 'Bitw@rden!Master88'",
            "poetry config http-basic.internal ci 'P0etry!Repo'",
            "plink -ssh -pw 'Pa$$w0rd!' ops@10.0.4.20 uptime",
            "plink -ssh -pw 'Passw0rd+123' ops@10.0.4.20 uptime",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "echo \"$REGISTRY_TOKEN\" | docker login ghcr.io -u bot --password-stdin",
            "docker login -u ci -p \"$CI_REGISTRY_PASSWORD\" $CI_REGISTRY",
            "oc login --token=$(cat /var/run/secrets/token) --server=https://api:6443",
            "helm registry login ghcr.io --password-stdin < token.txt",
            "kubectl --token=<token> get pods",
            "docker build --secret id=npmrc,src=.npmrc .",
            "git push -u origin main",
            "Removed the sshpass -p invocation; the job uses an agent now.",
            "docker login -u ci -p %REGISTRY_PASSWORD% registry.example.com",
            "vsce publish --pat \"$VSCE_PAT\"",
            "git log --pat short",
            "mosquitto_sub -h broker.local -p 1883 -t sensors/#",
            "find . -name '*.rar' -print0 | xargs -0 ls -l",
            "unzip -p build.zip config.json | jq .version",
            "sqlcmd -S db.lan -E -p -Q \"SELECT 1\"",
            "mongosh -u admin -p --authenticationDatabase admin --host mongo01",
            "git commit -m 'Fix: retry on HTTP 503!'",
            "grep -P '^v[0-9]+\\.[0-9]+' CHANGELOG.md",
            "docker tag 'App-Server_v2' registry.lan/app:2",
            "echo 'SGVsbG8sIHdvcmxkIQ==' | base64 -d",
            "helm upgrade app ./chart --set 'replicaCount=3'",
            "pip install 'Django==4.2.7'",
            "mvn test -Dtest='UserServiceTest#testLogin2'",
            "docker run -e 'JAVA_OPTS=-Xmx2G' app",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// `sqlplus user/password@db`, `dotnet user-secrets set`; a port after
    /// `-p`, a flag that asks for the password, a quoted reference.
    #[test]
    fn more_tools_and_what_is_no_password() {
        for hit in [
            "sqlplus scott/ERR@m7gEMBcj@//ora-02.example.lan:1521/ORCLPDB1",
            "sqlplus -s app/Tq7-zW2mLx9R@prod @report.sql",
            "dotnet user-secrets set \"Payments:ApiKey\" \"AfxVHJn6WEIuit9C419b84gywyBMi1ifHfQtlR5d\"",
            "redis-cli -h cache-02 -a Xq7vR2mLw9Tz ping",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "redis-cli -h cache-02 -p 6380 --latency",
            "psql -h db -p 5432 -U app",
            "wget --user=reader --ask-password https://files.example.lan/dumps/latest.sql.gz",
            "curl https://api.example.com/v1/refunds -u \"$STRIPE_SECRET_KEY:\" -H \"Idempotency-Key: c10238d7\"",
            "sqlplus /nolog",
            "sqlplus scott/$ORACLE_PW@prod",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// A flag and its value as items of an argument list; a property's
    /// value holding `=`.
    #[test]
    fn flags_in_argument_lists_and_properties_with_equals() {
        for hit in [
            "args: [\"--api-key\", \"oALKaujXaU34YAXwSE9MSyEMMqaktDPf\", \"--interval\", \"60s\"]",
            "mvn deploy -Dnexus.username=deployer -Dnexus.password=Willow=ZA5vjpwG",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        assert!(!fires(
            "args: [\"--api-key\", \"$(API_KEY)\", \"--interval\", \"60s\"]",
            Rule::CredentialCommandLine
        ));
    }

    /// Passwords for more database shells and CLIs, a token as curl's user,
    /// `expect` scripts, and cmd's `^` continuations.
    #[test]
    fn more_tools_and_continuations() {
        for hit in [
            "vsql -h vertica.lan -U dbadmin -w Bramble.Ember4017 -c 'SELECT 1;'",
            "bw unlock 'Orchid!gecko1263^' --raw",
            "expect -c 'spawn ssh admin@10.1.1.5; expect \"assword:\"; send \"Marlin-Mosaic8694\\r\"; interact'",
            "curl -s -u IJ0KUKzCg58daeRcH9zaxsBUEIPC26nA: https://api.mailer.test/v3/messages",
            "sqlcmd -S sqlrpt01 ^\n  -U etl ^\n  -P Vellum_Indigo9045 ^\n  -i nightly.sql",
            "mssql-cli -S sql-rpt -U reader -P Tq7wLm2xK9 -d Sales",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "bw unlock --passwordenv BW_PASSWORD",
            "bw unlock --passwordfile ./bw.pass --raw",
            "mssql-cli -S sql-rpt -U reader -d Sales",
            "curl -s -u \"$MAILER_KEY:\" https://api.mailer.test/v3/messages",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// mysqldump by its full path in `ps` output, Apache Bench's basic
    /// credentials, Codecov's CLI token.
    #[test]
    fn process_listings_and_bench_credentials() {
        for hit in [
            "jenkins 4121 /usr/bin/mysqldump -u backup -pGlacierLantern6314? --all-databases",
            "ab -n 1000 -c 20 -A loadtest:Tlq7U!xWHpBxtZ_ https://staging.example.test/api/health",
            "codecovcli upload-process -t fb073c16-4eae-4ee0-9f80-032263ebc87f -f coverage.xml",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        assert!(!fires(
            "ab -n 1000 -c 20 -A \"$BENCH_USER:$BENCH_PASS\" https://staging.example.test/",
            Rule::CredentialCommandLine
        ));
    }

    /// NuGet's API key, Cloudflare tunnel tokens, MariaDB's client, proxy
    /// credentials and passwords piped to openconnect.
    #[test]
    fn keys_tunnels_and_proxies() {
        for hit in [
            "dotnet nuget push pkg.nupkg -k oy2nr44evod2pgctss4aesk6vfhf6u7bhdr6lvkcz2xeki -s https://api.nuget.org/v3/index.json",
            "cloudflared service install eyJhIjoiNjQzMWNlYjIyOTA0ZmY2MjBhMDM1YjFhMzdjMGI0NTIiLCJ0IjoiMzU1ODUyY2Ii",
            "kubectl exec -it mariadb-0 -- mariadb -uroot -pIN5ZcMbUfMw6gJIF -e 'SHOW MASTER STATUS'",
            "curl -x http://proxy.corp.example:3128 --proxy-user svc_proxy:T0CVwIVSSX3aHY91NCKlm https://pypi.org/simple/",
            "echo 'B-ry2b5T5XKio' | openconnect --user=ana --passwd-on-stdin vpn.acme.example",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "dotnet nuget push pkg.nupkg -k \"$NUGET_API_KEY\" -s https://api.nuget.org/v3/index.json",
            "cloudflared service install",
            "mariadb -uroot -p -e 'SHOW MASTER STATUS'",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// unixODBC's `isql DSN user password`.
    #[test]
    fn odbc_positional_passwords() {
        assert!(fires(
            "isql -v DSN_REPORTS reporter KHHsr3mI2YiOOGIIzY4pi",
            Rule::CredentialCommandLine
        ));
        assert!(!fires(
            "isql -v DSN_REPORTS < query.sql",
            Rule::CredentialCommandLine
        ));
    }

    /// A long token after any tool's `login`, SAP HANA's `-p`; MinIO's
    /// `--api` value is no secret.
    #[test]
    fn login_tokens_and_hana_passwords() {
        for hit in [
            "comet login 4e9a7c1f3b5d8e2a6c0f9b7d3e1a5c8f2b4d6e0a",
            "hdbsql -n db.lan:30015 -u ADMIN -p 'Qx7!wLm2#Rz9' -d SYSTEMDB",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "mc alias set archive https://s3.archive.lan --api S3v2",
            "cargo login --registry crates-io",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// Drupal's `drush user:password`, `PsExec64`, Sybase's `isql -P`,
    /// HTTPie's bearer `--auth`, and a `--password=` value holding `=`.
    #[test]
    fn drush_psexec_isql_httpie_and_equals() {
        for hit in [
            "drush user:password admin \"Qz8!wLm2#Rx9\"",
            "PsExec64.exe -u CORP\\svc -p Tr4!vLq9#Wz -s cmd.exe",
            "isql -U sa -P Lq8#Tz2!wRm5 -S PROD",
            "http --auth-type=bearer --auth Zq8mLx2Rw9Tv4Nb7Kc1Pd5Hs3 GET https://api.example.com",
            "mysqldump -u backup --password=ab_CD=Ef9~7X%+S1 ledger",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
    }

    /// A flag in backquotes in prose, `net user` with a password opening on
    /// `*`, Data Pump, `doctl`, an SSM `SecureString`.
    #[test]
    fn backquoted_flags_data_pump_and_parameters() {
        assert!(
            crate::screen::scan("we passed `--password Qz8!wLm2#Rx9` to the tool", false)
                .contains(&Rule::CredentialCommandLine)
        );
        for hit in [
            "net user svc lSR95bumYlX#a*K5 /add",
            "expdp hr/Qz8wLm2Rx9@ORCL schemas=HR",
            "doctl auth init --context ci -t e0b9d58574987e5aa4bda52cec28332685f0d8a0",
            "aws ssm put-parameter --name /ci/db --type SecureString --value Qz8!wLm2#Rx9",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
    }

    /// etcd's `--user`, the macOS keychain, `-pw`, Swift's `-K`, `openssl
    /// enc -k`, `cargo login` after a valued flag, `curl -u` with `@`; a
    /// sentence naming the flag is no value.
    #[test]
    fn keychains_object_stores_and_named_flags() {
        for hit in [
            "etcdctl --user root:bAy+lWLPfPxb8Ze --endpoints=https://etcd:2379 member list",
            "security unlock-keychain -p 'HKMET_ON0l#N*fk' build.keychain",
            "security add-generic-password -a ci -s npm -w unLKnNF1ZjLCYaIXpYTQ -U",
            "xe -s xen01 -u root -pw sqv@8CEmy7+dcc vm-list",
            "swift -A https://s.lan/auth/v1.0 -U b:rw -K zrnZmJWGZdrqXorAlsM21U7 list",
            "openssl enc -aes-256-cbc -in a -out a.enc -k lqE_+k0gFEEgdSV",
            "cargo login --registry mirror RuZqUQXVi1t7M80KnXTc50NfYNsJH0lo",
            "curl -u admin:eN@r6jNwGSyu_4R -X POST http://ci.lan/job/x/build",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        assert!(
            !crate::screen::scan("sqlcmd's -P flag exposes the password", false)
                .contains(&Rule::CredentialCommandLine)
        );
    }

    /// restic's `--password-command "echo …"`.
    #[test]
    fn echoed_password_commands() {
        assert!(fires(
            "restic -r sftp:b@nas:/srv/r --password-command \"echo 9pTtt+%m_q~h65\" snapshots",
            Rule::CredentialCommandLine
        ));
    }

    /// Vault's unseal key, Perforce's `-P` (not its `-p` server).
    #[test]
    fn unseal_keys_and_perforce_tickets() {
        for hit in [
            "vault operator unseal yJdxqwSZWeGXljx1Z7v4oXv+KWG+FKd600XRrSx/zYB=",
            "p4 -p ssl:perforce.example:1666 -u builder -P ca966976fa63db2a98209ae821c7c558 sync",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        assert!(!fires(
            "p4 -p ssl:perforce.example:1666 -u builder sync //depot/...",
            Rule::CredentialCommandLine
        ));
    }

    /// FTP clients' and WinRM's `-p`, a Wi-Fi passphrase given to
    /// `wpa_passphrase`.
    #[test]
    fn ftp_winrm_and_wifi_passphrases() {
        for hit in [
            "ncftpput -u ftpuser -p CvEe46BtqW0GhAGDq ftp.partner.example /incoming r.csv",
            "winrs -r:app01.corp.example -u:CORP\\ops -p:jDHiH0jph1ddr7NVz0 ipconfig /all",
            "wpa_passphrase \"Office-Guest\" '6263Cobalt?Juniper' >> /etc/wpa_supplicant.conf",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "ncftpput -u ftpuser ftp.partner.example /incoming r.csv",
            "wpa_passphrase \"Office-Guest\" < /run/secrets/wifi",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// mosquitto_passwd's batch mode takes the password last; a flag named
    /// in a sentence of another script takes no value.
    #[test]
    fn batch_passwords_and_flags_named_in_prose() {
        assert!(fires(
            "mosquitto_passwd -b /etc/mosquitto/passwd sensor02 1AOccFqNWl621WxGL",
            Rule::CredentialCommandLine
        ));
        assert!(!fires(
            "mosquitto_passwd -U /etc/mosquitto/passwd",
            Rule::CredentialCommandLine
        ));
        assert!(!crate::screen::scan(
            "不要把 AWS 访问密钥写进 Dockerfile，改用 BuildKit 的 --secret 挂载，并在构建完成后不留下任何层。",
            false
        )
        .contains(&Rule::CredentialCommandLine));
    }

    /// A password printed with a format string, and a `set -x` trace that
    /// shows the two sides of the pipe on two lines.
    #[test]
    fn formatted_and_traced_passwords_for_sudo() {
        for hit in [
            "printf '%s\\n' 'G8Fhz15nebbhmspKwpxN0' | sudo -S -k systemctl restart containerd",
            "+ echo ember.yxf6l1PEP55\n+ sudo -S systemctl restart kubelet\n[sudo] password for deploy:",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        assert!(!fires(
            "+ echo done\n+ sudo systemctl restart kubelet",
            Rule::CredentialCommandLine
        ));
    }

    /// sshpass from a program's argument list; a URL after a flag that
    /// reads the password from the environment.
    #[test]
    fn argument_lists_and_env_password_flags() {
        assert!(fires(
            "subprocess.run([\"sshpass\", \"-p\", \"ELoED4kYsxr#034\", \"ssh\", \"admin@10.9.8.7\", \"reboot\"])",
            Rule::CredentialCommandLine
        ));
        assert!(!fires(
            "lftp -u uploader --env-password sftp://ftp.partner-drop.net",
            Rule::CredentialCommandLine
        ));
    }

    /// curl's `-u` at the end of a run of short flags, `net use` with the
    /// password before `/user:`, rclone's `pass`; a redirect after
    /// rabbitmqctl's flag is no password.
    #[test]
    fn combined_flags_share_passwords_and_rclone() {
        for hit in [
            "curl -su 'elastic:DDAUn_XsIYiO61' https://es01.ondine.internal:9200/_cluster/health",
            "net use Z: \\\\fs01\\projects fzAuF0Y^9_Ju /user:CORP\\reporter",
            "rclone config create remote webdav url https://dav.example user mhernandez pass u4HHxqpScCAE79fE",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
        }
        for clean in [
            "rabbitmqctl add_user reporter --silent < pw.txt",
            "curl -sL https://example.com/install.txt",
            "net use Z: \\\\fs01\\projects /user:CORP\\reporter",
            "curl -fsSO https://x.example/a.sh && rsync -avu backup01:/srv/www/ ./www",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// An ftp script's `user` line with a password; a variable or none.
    #[test]
    fn ftp_scripts_user_lines() {
        assert!(fires(
            "ftp -n <<EOF\nopen ftp.example.net\nuser uploader Rk4v9Qm2Tz\nput a.csv\nbye\nEOF",
            Rule::CredentialCommandLine
        ));
        for clean in [
            "ftp -n <<EOF\nopen ftp.example.net\nuser uploader $FTP_PASS\nbye\nEOF",
            "ftp -n <<EOF\nopen ftp.example.net\nuser anonymous guest\nbye\nEOF",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }

    /// A password handed to a command as a file made on the fly, and
    /// argument lists (an auditd `EXECVE` record, an argv array) read as
    /// the command lines they hold.
    #[test]
    fn process_substitutions_and_audit_records() {
        for hit in [
            "rsync -av --password-file=<(echo Copper!zephyr627) ./site/ backup@nas::web",
            "auditd EXECVE: a0=\"sqlcmd\" a1=\"-S\" a2=\"tcp:sql-bi\" a3=\"-U\" a4=\"bi_loader\" a5=\"-P\" a6=\"Vmp8k*2ew971\"",
            "type=EXECVE msg=audit(1712.5:88): argc=4 a0=\"mysql\" a1=\"-u\" a2=\"root\" a3=\"-pQ7v!xLm2Rt\"",
            "subprocess.CalledProcessError: Command '['ipmitool', '-I', 'lanplus', '-H', '10.50.1.14', '-U', 'admin', '-P', 'l@mrO84YfPd_IO_S', 'sdr']' returned non-zero exit status 1.",
            "CMD [\"redis-server\", \"--requirepass\", \"Xq7vR2mLw9Tz\"]",
        ] {
            assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
            assert!(
                scan(hit, false).contains(&Rule::CredentialCommandLine),
                "{hit}"
            );
        }
        for clean in [
            "rsync -av --password-file=<(echo \"$RSYNC_PASS\") ./site/ backup@nas::web",
            "type=EXECVE argc=3 a0=\"ls\" a1=\"-la\" a2=\"/var/log\"",
            "args: [\"--password\", \"$(DB_PASSWORD)\"]",
            "subprocess.run(['ipmitool', '-U', 'admin', '-P', password, 'sdr'])",
            "tags: ['password', 'rotation', 'vault']",
        ] {
            assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
        }
    }
}
