//! Credentials on a command line: a password or token given as a flag or
//! argument (registry, cloud and cluster logins, database clients, archive
//! and key tools), where it lands in shell history, process listings and
//! CI logs.

use std::sync::LazyLock;

use super::assignment::{KEY_WORDS, KeyClass, app_password, key_class, literal_secret};
use super::gate::{Doors, Gates};
use super::pattern::{Spans, contains_ignoring_case, groups, lazy_regex};
use super::value::{
    drawn_words, has_digit, is_placeholder, mixed_case, password_symbol, random_like, refers,
    vault_token, word_like, wordy, written_out,
};

lazy_regex!(
    /// A long or short flag and its value, after a space or `=`; in prose,
    /// also inside backquotes.
    FLAG,
    r#"(?i)(?:^|[\s"'`])--?((?:[a-z][a-z0-9_.-]*)?(?:pass|pwd|secret|token|key|credential|auth)[a-z0-9_.-]*|(?:[a-z][a-z0-9_.-]*[_-])?pat)(?:[ \t]+|=|["']\s*,\s*)(["']?)([^\s`-][^\s"'`]*|-[^\s"'`-][^\s"'`]*)"#
);
lazy_regex!(
    /// `-p value` of a login-like command (registries, clusters, package
    /// uploads, database shells, Apple's `altool`), where `-p` is the
    /// password (which may open with `-`); `-a` of `redis-cli` (whose `-p`
    /// is the port). Not psql's: it takes no password flag (`-p` is the
    /// port, `-P pager=off` a print option).
    LOGIN_SHORT,
    r#"(?i)\b(?:login|upload|publish|connect|auth|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|influx|cf|twine|rabbitmqadmin|sqlcmd|mssql-cli|bcp|hdbsql|isql|snowsql|couchbase-cli|ncftp(?:put|get|ls)?|winrs|altool)\b[^\n|;&]*?\s-(?:p|P)(?:[ \t]+|[=:])["']?([^\s"'-][^\s"']*|-[^\s"'-][^\s"']{7,})|\bredis-cli\b[^\n|;&]*?\s-a(?:[ \t]+|=)["']?([^\s"'-][^\s"']*)"#
);
lazy_regex!(
    /// curl's `-u` closing a run of short flags (`-su 'user:password'`),
    /// apart from [`CURL_USER`] so that only texts naming curl read it.
    CURL_BUNDLED_USER,
    r#"(?i)\bcurl(?:\.exe)?\b[^\n|;&]*?\s-[a-zA-Z]+u(?:\s+|=)?(?:"[^\s:"]*:([^"\n]+)"|'[^\s:']*:([^'\n]+)'|[^\s:'"]+:(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"@][^\s'"]*)))"#
);
lazy_regex!(
    /// curl's and its kin's `-u user:password`, the user left out too
    /// where a token is the password (Azure DevOps' `-u ':<token>'`).
    CURL_USER,
    r#"(?i)\b(?:curl|wget|http|https)\b[^\n|;]*?\s(?:-u|--user|--proxy-user|-U)(?:\s+|=)?(?:"[^\s:"]*:([^"\n]+)"|'[^\s:']*:([^'\n]+)'|[^\s:'"]+:(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"`][^\s'"`]*))|["']?([A-Za-z0-9_-]{24,}):["']?(?:\s|$)|:([A-Za-z0-9_.~+/=-]{20,})(?:\s|$))"#
);
lazy_regex!(
    MYSQL_PASSWORD,
    r#"(?i)(?:^|[\s;&|(`"'/])(?:mysql|mariadb)(?:dump|admin|sh|import|slap|-dump|-admin)?\b[^\n|;]*?\s-p(-?[^\s'"-][^\s'"]*|'[^']+'|"[^"]+")"#
);
lazy_regex!(
    /// Any Windows tool's password switch (`backup.exe /user:svc
    /// /password:…`, `/pwd=…`): the value in group 1.
    WINDOWS_PASSWORD,
    r#"(?:^|\s)/(?i:password|passwd|pwd)[:=]["']?([^\s"'`/]+)"#
);
lazy_regex!(
    /// A secret handed to a secret store's CLI as an argument: GitHub's
    /// `gh secret set --body`, Azure Key Vault's `az keyvault secret set
    /// --value`, AWS Secrets Manager's `--secret-string`.
    SECRET_STORE_VALUE,
    r#"(?i)\bgh\s+secret\s+set\b[^\n|;]*?\s(?:--body|-b)(?:\s+|=)["']?([^\s"']+)|\baz\s+keyvault\s+secret\s+set\b[^\n|;]*?\s--value(?:\s+|=)["']?([^\s"']+)|\baws\s+secretsmanager\s+(?:create-secret|put-secret-value|update-secret)\b[^\n|;]*?\s--secret-string(?:\s+|=)["']?([^\s"']+)"#
);
lazy_regex!(SPEC_VALUE, r"^[A-Za-z_]+=");
lazy_regex!(
    /// An ftp script's `user NAME PASSWORD` line, after `ftp` on an earlier
    /// line (a here-document fed to `ftp -n`).
    FTP_USER,
    r"(?i)\bftp\b[^\x00]*?\n[ \t]*user[ \t]+\S+[ \t]+(\S+)[ \t]*(?:\r?\n|$)"
);
lazy_regex!(
    /// sshpass or redis-cli run from a program's argument list
    /// (`["sshpass", "-p", "…", "ssh", …]`, Go's `exec.Command("redis-cli",
    /// "-h", host, "-a", "…")`): the password after its flag.
    ARGV_PASSWORD,
    r#"[\[(]\s*["'](?:sshpass["']\s*,\s*["']-p|redis-cli["']\s*,(?:\s*[^,\n\])]+,){0,8}?\s*["']-a)["']\s*,\s*["']([^"'\n]+)["']"#
);
lazy_regex!(
    /// Passwords handed to a command on its command line or standard input
    /// (Kerberos's `kinit` reads one piped in or from a here-string), to be
    /// hashed (`openssl passwd …`) or encoded for a Basic header (`echo -n
    /// user:… | base64`), and rclone's secrets set as arguments (`rclone
    /// config create … key …`).
    CLI_PASSWORD,
    r#"(?i)\b(?:echo|printf)\s+(?:-[a-z]+\s+)?(?:['"]%s(?:\\n)?['"]\s+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s|]+))\s*\|\s*(?:sudo\s+(?:-\w+\s+)*-S\b|(?:sudo\s+)?chpasswd\b|passwd\s+--stdin\b|docker\s+login\b|podman\s+login\b|helm\s+registry\s+login\b|oras\s+login\b|openconnect\b[^\n]*--passwd-on-stdin\b|(?:sudo\s+(?:-u\s+\S+\s+)?)?(?:/\S*/)?(?:kinit|k5start)\b)|\bkinit\b[^\n|;]*<<<\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\bsudo\s+(?:-\w+\s+)*-S\b[^\n|;]*<<<\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\bssh-keygen\b[^\n|;]*?\s(?-i:-[NP])\s*(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|-pass(?:in|out)?\s+pass:(\S+)|\bsshpass\s+-p\s*(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\b7z\b[^\n|;]*\s-p(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|\b(?:un)?zip\b[^\n|;]*\s(?-i:-P)\s+(\S+)|(?:^|[\s;&|(])(?:un)?rar(?:\.exe)?\s+[a-z]{1,2}\b[^\n|;]*\s-h?p([^\s'"-][^\s'"]*)|\bredis-cli\b[^\n|;]*?\s-a\s+(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))|\b(?:htpasswd|mosquitto_passwd)(?:\s+-[A-Za-z]+)*\s+-(?-i:[A-Za-z]*b[A-Za-z]*)(?:\s+-[A-Za-z]+)*\s+\S+\s+\S+\s+(\S+)|\bnet\s+user\s+\S+\s+(\*[^\s/]+|[^\s/*][^\s/]*)\s+/add\b|(?m:^\++[ \t]+(?:echo|printf)[ \t]+(?:'([^'\n]+)'|"([^"\n]+)"|(\S+))[ \t]*\n\++[ \t]+sudo[ \t]+(?:-\w+[ \t]+)*-S\b)|\bwpa_passphrase\s+(?:'[^'\n]*'|"[^"\n]*"|[^\s'"]+)\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"|>]+))|\bopenssl\s+passwd\b(?:\s+-[\w-]+)*\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"()$-][^\s'"()]*))|\becho\s+-n\s+["']?[^\s:'"|$]+:([^\s'"|]+?)["']?\s*\|\s*base64\b|\brclone\s+config\s+(?:create|update)\b[^\n|;&]*?\s(?:key|pass|password|secret_access_key|client_secret|token|account_key|app_key|sas_url)\s+["']?([^\s"']+)"#
);
lazy_regex!(
    /// A password handed as a file made on the fly after a flag named for
    /// it (`--password-file=<(echo …)`).
    PROCESS_SUBSTITUTION,
    r#"(?i)--?[a-z0-9_.-]*(?:pass|pwd|secret|token|credential)[a-z0-9_.-]*(?:=|[ \t]+)<\((?:echo|printf)\s+(?:-[a-z]+\s+)?(?:['"]%s(?:\\n)?['"]\s+)?(?:'([^'\n]+)'|"([^"\n]+)"|([^\s)|]+))"#
);
lazy_regex!(
    /// Tools that take a password in a flag of their own shape: RDP
    /// clients, LDAP tools, smbclient, `--creds user:pass`, `net use`,
    /// RabbitMQ and Grafana admin commands, nmcli, MinIO's `mc alias set`
    /// and `mc admin user add` (`mcli` where Debian packages it), Drupal's `drush user:password`, `etcdctl
    /// --user`, macOS's `security` keychain commands, any `-pw`, Swift's
    /// `-K`, `openssl enc -k`,
    /// Perforce's `-P`, `net use` with the password before `/user:`,
    /// rclone's `config create … pass …`, Bitwarden's `bw login <mail>
    /// <password>`, Chocolatey's `apikey --key`, and the Windows network
    /// tools' lower-case `-p` (smbmap, CrackMapExec and NetExec,
    /// evil-winrm, enum4linux), and VMware's `esxcli` connection password
    /// (its `-p` after `-u`; a namespace's `-p` names a port group or a
    /// profile) or an account's.
    TOOL_PASSWORD,
    r#"(?i)\b(?:xfreerdp|wfreerdp|sdl-freerdp|rdesktop)\b[^\n]*?\s[/-]p[: ]\s*["']?([^\s"']+)|\bldap(?:search|modify|add|delete|whoami|passwd|compare|exop)\b[^\n|;]*?\s-w\s*["']?([^\s"']+)|\bsmbclient\b[^\n|;]*?\s(?:-U|--user(?:=|\s))\s*["']?[^\s"'%]+%([^\s"']+)|--(?:src-|dest-)?creds(?:=|\s+)["']?[^\s:"']+:([^\s"']+)|\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+["']?([^\s"'<-][^\s"']*)|\breset-admin-password\s+["']?([^\s"'-][^\s"']*)|\bnmcli\b[^\n|;]*?\bpassword\s+["']?([^\s"']+)|\bmc(?:li)?\s+(?:alias|config\s+host)\s+(?:set|add)\s+\S+\s+\S+\s+[^\s-]\S*\s+["']?([^\s"'-][^\s"']*)|\bmc(?:li)?\s+admin\s+user\s+add\s+\S+\s+\S+\s+["']?([^\s"'-][^\s"']*)|\bnet\s+use\b[^\n|;]*?/user:\S+\s+["']?([^\s"'/*][^\s"']*)|\bnet\s+use\s+(?:[A-Za-z]:\s+|\*\s+)?\\\\\S+\s+["']?([^\s"'/*][^\s"']*)["']?\s+/user:|\brclone\s+config\s+(?:create|update)\b[^\n|;]*?\spass(?:word)?\s+["']?([^\s"'-][^\s"']*)|\b(?:psexec|paexec)(?:64)?(?:\.exe)?\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bdrush\s+(?:user:password|upwd)\s+\S+\s+["']?([^\s"']+)|\betcdctl\b[^\n|;]*?--user[= ]["']?[^\s:"']+:([^\s"']+)|\bsecurity\s+(?:unlock-keychain|create-keychain)\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bsecurity\s+add-(?:generic|internet)-password\b[^\n|;]*?\s-w\s+["']?([^\s"'-][^\s"']*)|(?:^|\s)-pw\s+["']?([^\s"'-][^\s"']*)|\bswift\b[^\n|;]*?\s-K\s+["']?([^\s"']+)|\bp4\b[^\n|;]*?\s(?-i:-P)\s+["']?([^\s"']+)|--password-command[= ]["']echo\s+([^\s"']+)|\bopenssl\s+(?:enc|aes-\S+|des\S*)\b[^\n|;]*?\s-k\s+["']?([^\s"'-][^\s"']*)|\bsqlcmd\b[^\n|;]*?\s(?-i:-P)\s*["']?([^\s"']+)|\bsigntool\b[^\n|;]*?\s/p\s+["']?([^\s"']+)|\b(?:cqlsh|beeline|sqlline)\b[^\n|;&]*?\s-p\s+["']?([^\s"']+)|\bmosquitto_(?:pub|sub)\b[^\n|;]*?\s(?-i:-P)\s+["']?([^\s"']+)|\bset-initial-password\s+["']?([^\s"'-][^\s"']*)|\bmount\b[^\n|;]*?\s-o\s+\S*?\bpass(?:word)?=([^,\s"']+)|\bschtasks\b[^\n|;]*?\s/RP\s+["']?([^\s"']+)|\bsc(?:\.exe)?\s+(?:config|create)\b[^\n|;]*?\bpassword=\s*["']?([^\s"']+)|\blftp\b[^\n|;]*?\s-u\s+[^\s,]+,(?:'([^'\n]+)'|"([^"\n]+)"|([^\s'"]+))|\bhttps?\s+(?:-\w+\s+)*-a\s+[^\s:]+:([^\s'"]+)|\bnuget\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bsqlplus\s+(?:-\w+\s+)*[A-Za-z0-9_$#]+/([^\s@/"']+)@|\bopenssl\s+passwd\b[^\n|;]*?\s["']([^"'\n]+)["']|\bvsql\b[^\n|;]*?\s-w\s+["']?([^\s"']+)|\bab\s[^\n|;]*?\s-A\s+[^\s:"']+:([^\s"']+)|\bisql\s+(?:-\w+\s+)*[A-Za-z_][\w.-]*\s+[A-Za-z_][\w.@-]*\s+["']?([^\s"'-][^\s"']*)|\bnuget\b[^\n|;]*?\s(?:-k|--api-key|-ApiKey)\s+["']?([^\s"'-][^\s"']*)|\bcloudflared\s+(?:service\s+install|tunnel\s+(?:--\S+\s+)*run\s+--token)\s+["']?(eyJ[A-Za-z0-9+/=_-]{40,})|\bbw\s+unlock\s+["']?([^\s"'-][^\s"']*)|\bbw\s+login\s+[^\s@'"]+@\S+\s+["']?([^\s"'-][^\s"']*)|\bchoco(?:latey)?(?:\.exe)?\s+(?:apikey|setapikey)\b[^\n|;]*?\s(?:--key|-k|--api-key)[= ]["']?([^\s"'-][^\s"']*)|\b(?:smbmap|crackmapexec|netexec|nxc|evil-winrm|enum4linux(?:-ng)?)\b[^\n|;&]*?\s(?-i:-p)\s+["']?([^\s"'/-][^\s"'/]*)(?:["']|\s|$)|\besxcli\b[^\n|;&]*?\s(?:-u|--username)[= ]\S+\s+(?:(?:-s|--server)[= ]\S+\s+)?(?:-p|--password)[= ]["']?([^\s"'-][^\s"']*)|\besxcli\s+system\s+account\s+(?:add|set)\b[^\n|;&]*?\s(?:-p|--password)[= ]["']?([^\s"'-][^\s"']*)|\bexpect\b[^\n]*?assword:?["'\\]*\s*(?:;\s*|\n\s*)send\s+(?:--\s+)?["']([^"'\\\n]+)"#
);
lazy_regex!(
    /// More tools that take a password or token as an argument of their
    /// own: BMC and SNMP clients (`ipmitool -P`, `racadm -p`, `snmpwalk
    /// -A/-X`), database shells (`cypher-shell -p`, `db2 connect … using`,
    /// FreeTDS's `tsql -P` and its siblings', whose `-p` is the port),
    /// Windows (`cmdkey /pass:`, `schtasks /p`, `plink -pw`), Azure CLI
    /// `-p`, Jenkins' `-auth user:secret`, and registries' and services'
    /// token commands (`cargo login`, `snyk auth`, `ngrok config
    /// add-authtoken`, `codecov -t`, `influx -t`, `composer config
    /// http-basic.<host> <user> <password>`, `poetry config`, `bundle config
    /// <host> <user>:<password>`, HTTPie's bearer `--auth`, `doctl auth
    /// init -t`, an SSM `SecureString`'s `--value`).
    /// SAP's `sapcontrol -user <user> <password>`, Chef's `knife bootstrap
    /// -P <password>` (not a `-P` inside the quoted command `knife ssh`
    /// runs).
    /// `sqlplus user/password@db` too, and Data Pump's, SQL*Loader's, Data
    /// Guard's and RMAN's (`rman target sys/…@ORCL`); an FTP session's
    /// `user NAME PASSWORD` fed in by a here-string or here-document.
    TOOL_SECRET,
    r#"\b(?:(?:sqlplus|expdp|impdp|sqlldr|dgmgrl)(?:\.exe)?\s+(?:-\w+\s+)*|\b(?i:rman)(?:\.exe)?\s+(?:[^\n|;]*?\s)?(?i:target|catalog|auxiliary)(?:\s*=\s*|\s+))["']?[A-Za-z0-9_$#.]+/(?:([^\s@`]\S*?)(?:@(?://)?[A-Za-z0-9.-]+(?::\d+)?(?:/\S*)?)?|(@[^\s@]+)@(?://)?[A-Za-z0-9.-]+(?::\d+)?(?:/\S*)?)["']?(?:\s|$)|\bipmitool\b[^\n|;]*?\s-P\s*["']?([^\s"']+)|\b(?:tsql|fisql|bsqldb|freebcp|defncopy)\b[^\n|;&]*?\s-P[ \t]*["']?([^\s"';-][^\s"';]*)|\bknife\b(?:[^\n|;'"]|'[^'\n]*'|"[^"\n]*")*?\s(?:-P[= ]?|--ssh-password[= ]|--winrm-password[= ]|--connection-password[= ])["']?([^\s"';-][^\s"';]*)|(?i:\bsapcontrol\b)[^\n|;]*?[ \t]-(?i:user)[ \t]+\S+[ \t]+["']?([^\s"'-][^\s"']*)|\bracadm\b[^\n|;]*?\s-p\s+["']?([^\s"']+)|\bcypher-shell\b[^\n|;]*?\s(?:-p|--password)\s+["']?([^\s"']+)|\b(?:plink|pscp|psftp)(?:\.exe)?\b[^\n|;]*?\s-pw\s+["']?([^\s"']+)|\bsnmp[a-z]+\b[^\n|;]*?\s-[AX]\s+["']?([^\s"']+)|(?i:\bdb2\s+["']?connect\b)[^\n|;]*?\b(?i:using)\s+["']?([^\s"']+)|(?i:\bcmdkey(?:\.exe)?\b)[^\n|;]*?\s/(?i:pass):["']?([^\s"']+)|(?i:\bschtasks(?:\.exe)?\b)[^\n|;]*?\s/[pP]\s+["']?([^\s"']+)|\baz\s[^\n|;]*?\s(?:--admin-password|--password)\s+["']?([^\s"'-][^\s"']*)|\baz\s+(?:sql|postgres|mysql|login)\b[^\n|;]*?\s-p\s+["']?([^\s"'-][^\s"']*)|\s-auth\s+["']?[^\s:"']+:([^\s"'@]+)|\bcargo\s+login\s+(?:--[\w-]+(?:[= ][\w.-]+)?\s+)*?([A-Za-z0-9_]{20,})|\bdoctl\s+auth\s+init\b[^\n|;]*?\s(?:-t|--access-token)[= ]["']?([^\s"']+)|\bput-parameter\b[^\n|;]*?--type\s+SecureString\b[^\n|;]*?--value\s+["']?([^\s"']+)|\bput-parameter\b[^\n|;]*?--value\s+["']?([^\s"']+)[^\n|;]*?--type\s+SecureString\b|\bhttps?\b[^\n|;]*?--auth-type[= ](?:bearer|jwt)\b[^\n|;]*?\s(?:--auth|-a)[= ]["']?([^\s"']{16,})|\bsnyk\s+auth\s+([0-9A-Za-z-]{20,})|\bngrok(?:\.exe)?\s+(?:config\s+add-authtoken|authtoken)\s+(?:--[\w-]+(?:[= ][^\s-]\S*)?\s+)*["']?([A-Za-z0-9_-]{20,})|\bcodecov(?:cli)?\b[^\n|;]*?\s-t\s+["']?([0-9A-Za-z-]{20,})|\binflux\b[^\n|;]*?\s-t\s+["']?([^\s"']{20,})|\bcomposer\s+config\s+(?:--\S+\s+)*http-basic\.\S+\s+\S+\s+["']?([^\s"']+)|\bpoetry\s+config\s+(?:http-basic\.\S+\s+\S+|pypi-token\.\S+)\s+["']?([^\s"']+)|\bbundle\s+config\s+(?:set\s+)?(?:--\S+\s+)*\S+\s+[^\s:'"]+:([^\s"']+)|\bftp\b[^\n|;]*?<<(?:<\s*\$?["']|-?\s*["']?\w+["']?[ \t]*\r?\n)(?:[^\n]*\n){0,3}?[ \t]*user\s+\S+\s+([^\s\\"']+)"#
);
lazy_regex!(
    /// `mysqladmin … password <new password>` where a command starts (a
    /// line, after a separator, `sudo` or a backquote): prose that names
    /// the subcommand ("mysqladmin password prompts for …") is no command.
    MYSQLADMIN_PASSWORD,
    r#"(?:^|[\n;&|(`]|\bsudo)[ \t]*mysqladmin\b[^\n|;`]*?\spassword\s+(?:'([^'\n]+)'|"([^"\n]+)"|([^\s"'`-][^\s"'`]*))"#
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
    /// A password in SQL handed to a database client, its quotes written
    /// inside a single-quoted argument too (`'…PASSWORD '"'"'…'"'"';'`).
    SQL_PASSWORD,
    r#"(?i)\b(?:psql|mysql|mariadb|sqlcmd|cqlsh|mongo\w*|clickhouse-client|sqlplus|isql)\b[^\n]*?\b(?:PASSWORD|IDENTIFIED\s+BY)\s+(?:'"'"'([^'\n]+)'"'"'|'([^'\n]+)')"#
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
    /// login …` (or `token lookup`, or the token echoed into `vault login
    /// -`), `dotnet user-secrets set <name> …`, a long generated
    /// token after any tool's `login` (`wandb login …`).
    POSITIONAL,
    r#"(?i)\b(?:configure|config)\s+set\s+(?:--\S+\s+)*\S*(?:secret|token|password|_auth)\S*\s+["']?([^\s"']+)|\bvault\s+(?:login|token\s+(?:lookup|revoke|renew|capabilities))\s+(?:-\S+\s+)*["']?([A-Za-z0-9._-]{16,})|\becho\s+(?:-n\s+)?["']?((?:hvs|hvb|s|b)\.[A-Za-z0-9_-]{24,})["']?\s*\|\s*vault\s+login\b|\bvault\s+operator\s+unseal\s+(?:-\S+\s+)*([A-Za-z0-9+/]{40,}={0,2})|\buser-secrets\s+set\s+(?:--?\S+\s+\S+\s+)*["']?[^\s"']+["']?\s+["']?([^\s"']+)|\b[\w.-]+\s+(?:auth\s+)?login\s+(?:--?\S+\s+)*([A-Za-z0-9_]{32,})(?:\s|$)"#
);

/// Whether `v` is letters then digits (`ProdAse01`): a host's or a
/// server's name, not a password drawn at random.
fn name_with_number(v: &str) -> bool {
    let letters = v.trim_end_matches(|c: char| c.is_ascii_digit());
    !letters.is_empty() && letters.bytes().all(|b| b.is_ascii_alphabetic())
}

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

/// Whether `value` names a file to read the password from (`-p @pw.txt`)
/// rather than being one: after its `@`, a name with a dot or a path, or
/// one that does not look random.
fn file_reference(value: &str) -> bool {
    value
        .strip_prefix('@')
        .is_some_and(|rest| rest.contains(['.', '/', '\\']) || !random_like(rest, 8))
}

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
                    "snowsql",
                    "couchbase-cli",
                    "ncftp",
                    "winrs",
                ],
            ),
            (&CURL_USER, &["curl", "wget", "http"]),
            (&CURL_BUNDLED_USER, &["curl"]),
            (&MYSQL_PASSWORD, &["mysql", "mariadb"]),
            (&SECRET_STORE_VALUE, &["secret"]),
            (&ARGV_PASSWORD, &["sshpass", "redis-cli"]),
            (
                &WINDOWS_PASSWORD,
                &[
                    "/password:",
                    "/password=",
                    "/passwd:",
                    "/passwd=",
                    "/pwd:",
                    "/pwd=",
                ],
            ),
            (&PROCESS_SUBSTITUTION, &["<(echo", "<(printf"]),
            (&FTP_USER, &["ftp"]),
            (
                &CLI_PASSWORD,
                &[
                    "\\becho\\b",
                    "\\bprintf\\b",
                    "\\bsudo\\b",
                    "\\bssh-keygen\\b",
                    "\\bpass:",
                    "\\bsshpass\\b",
                    "\\b7z\\b",
                    "\\bzip\\b",
                    "\\brar\\b",
                    "\\bredis-cli\\b",
                    "\\bhtpasswd\\b",
                    "\\bmosquitto_passwd\\b",
                    "\\bnet\\b",
                    "\\bwpa_passphrase\\b",
                    "\\bopenssl\\b",
                    "\\brclone\\b",
                    "\\bunzip\\b",
                    "\\bunrar\\b",
                    "\\bkinit\\b",
                ],
            ),
            (
                &TOOL_PASSWORD,
                &[
                    "freerdp",
                    "rdesktop",
                    "\\bldap",
                    "\\bsmbclient\\b",
                    "\\bcreds\\b",
                    "\\brabbitmqctl\\b",
                    "\\breset-admin-password\\b",
                    "\\bnmcli\\b",
                    "\\bmc\\b",
                    "\\bnet\\b",
                    "\\bpsexec",
                    "\\bpaexec",
                    "\\bsqlcmd\\b",
                    "\\bsigntool\\b",
                    "\\bcqlsh\\b",
                    "\\bbeeline\\b",
                    "\\bsqlline\\b",
                    "\\bmosquitto_",
                    "\\bset-initial-password\\b",
                    "\\bmount\\b",
                    "\\bschtasks\\b",
                    "\\bpassword=",
                    "\\blftp\\b",
                    "\\bnuget\\b",
                    "\\bsqlplus\\b",
                    "\\bopenssl\\b",
                    "\\bcloudflared\\b",
                    "\\bisql\\b",
                    "\\bvsql\\b",
                    "\\bab ",
                    "\\bbw\\b",
                    "\\bchoco",
                    "\\bexpect\\b",
                    "\\bsmbmap\\b",
                    "\\bcrackmapexec\\b",
                    "\\bnetexec\\b",
                    "\\bnxc\\b",
                    "\\bevil-winrm\\b",
                    "\\benum4linux",
                    "\\besxcli\\b",
                    "\\bdrush\\b",
                    "\\betcdctl\\b",
                    "\\bsecurity\\b",
                    "\\b-pw\\b",
                    "\\bswift\\b",
                    "password-command",
                    "\\bp4\\b",
                    "\\brclone\\b",
                    "\\bmcli\\b",
                    "\\bhttp\\b",
                    "\\bhttps\\b",
                ],
            ),
            (&MYSQLADMIN_PASSWORD, &["mysqladmin"]),
            (
                &TOOL_SECRET,
                &[
                    "\\bsqlplus\\b",
                    "\\bdgmgrl\\b",
                    "\\brman\\b",
                    "\\bftp\\b",
                    "\\bexpdp\\b",
                    "\\bimpdp\\b",
                    "\\bsqlldr\\b",
                    "\\bdoctl\\b",
                    "\\bput-parameter\\b",
                    "\\bipmitool\\b",
                    "\\btsql\\b",
                    "\\bfisql\\b",
                    "\\bbsqldb\\b",
                    "\\bfreebcp\\b",
                    "\\bdefncopy\\b",
                    "\\bknife\\b",
                    "\\bsapcontrol\\b",
                    "\\bracadm\\b",
                    "\\bcypher-shell\\b",
                    "\\bplink\\b",
                    "\\bpscp\\b",
                    "\\bpsftp\\b",
                    "\\bsnmp",
                    "\\bdb2\\b",
                    "\\bcmdkey\\b",
                    "\\bschtasks\\b",
                    "\\baz\\b",
                    "\\b-auth\\b",
                    "\\bcargo\\b",
                    "\\bsnyk\\b",
                    "\\bngrok\\b",
                    "\\bcodecov",
                    "\\binflux\\b",
                    "\\bcomposer\\b",
                    "\\bpoetry\\b",
                    "\\bbundle\\b",
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
        // Each of these also needs its flag or its tool (`FLAG`'s dash
        // opens the text or follows a space or a quotation mark).
        vec![
            (&FLAG, &["\\b-"]),
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

/// Whether a flag's name is a short flag glued to its value in capitals
/// (`mysql -pPASSWORD db`): one dash, a small letter, then capitals only.
/// Its "name" is the value, and the next word is no argument of it. With
/// `=` after it (`docker run -eDB_PASSWORD=…`), the name is a variable's
/// and the value its own.
fn glued_short_flag(text: &str, name: Option<regex::Match<'_>>) -> bool {
    let Some(name) = name else {
        return false;
    };
    if text[name.end()..].starts_with('=') {
        return false;
    }
    let before = &text[..name.start()];
    let (first, rest) = name.as_str().split_at(1);
    before.ends_with('-')
        && !before.ends_with("--")
        && first.bytes().all(|b| b.is_ascii_lowercase())
        && rest.bytes().any(|b| b.is_ascii_uppercase())
        && !rest.bytes().any(|b| b.is_ascii_lowercase())
}

/// Whether `--secret` marks a configuration value as secret (`pulumi
/// config set --secret <key> [value]`): the word after it is the key.
fn config_key(text: &str, flag: &str, at: usize) -> bool {
    flag.eq_ignore_ascii_case("secret") && text[..at].to_ascii_lowercase().contains("config set")
}

/// Whether a key is the name that a feed taking any key is given: Azure
/// Artifacts ignores `nuget push`'s API key, and its documentation's
/// `AzureDevOps` is the usual one.
fn any_key(value: &str) -> bool {
    ["azuredevops", "azureartifacts"]
        .iter()
        .any(|k| value.eq_ignore_ascii_case(k))
}

/// What a sentence may put right after a value on a command line: its
/// punctuation, and the backquote that closes a command quoted in prose
/// ("run `mysql -pPASSWORD`;").
const SENTENCE_END: [char; 6] = ['.', ',', ';', ':', ')', '`'];

/// Whether a flag value is a literal secret (not a variable, a file, a
/// command substitution or a placeholder).
fn literal_flag_value(class: KeyClass, value: &str, quoted: bool) -> bool {
    let bare = value.trim_end_matches(SENTENCE_END);
    let reference = refers(value)
        // `@file` is read; `@=jhU…` is a password that opens with `@`.
        || file_reference(value)
        // A password may hold `=`; other secrets' `id=…` is a spec.
        || (class != KeyClass::Password && SPEC_VALUE.is_match(value))
        || (!quoted && word_like(bare) && !(class == KeyClass::Password && drawn_words(bare)))
        // A URL after a flag that takes its password from elsewhere
        // (`lftp -u user --env-password sftp://…`).
        || value.contains("://")
        // Prose in another script after a flag named in a sentence
        // ("--secret 挂载"): no letter or digit of a secret's.
        || (!quoted && !bare.bytes().any(|b| b.is_ascii_alphanumeric()));
    // A value that opens with `@` and is no file reference is judged as a
    // generated password after a colon is (`--password @=jhU…`).
    !reference && literal_secret(class, value, quoted, value.starts_with('@'))
}

pub(super) fn command_line(text: &str, doors: Doors) -> Spans {
    let open = GATES.open(doors);
    let mut out: Spans = open
        .captures(&FLAG, text)
        .filter(|c| {
            !switch_flag(&c[1])
                && !glued_short_flag(text, c.get(1))
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
        // A generated password may open with `-`; a flag (`-c`,
        // `-Wall`) has no mix of cases with digits or symbols, and one
        // glued to its value names a host, a file or a setting
        // (`-hMongoDb01:27017`, `-SProdAse01`).
        let flag = v.strip_prefix('-').is_some_and(|rest| {
            // The flag's letter may be any character (`-é…`), so the value
            // glued to it starts after one char, not one byte.
            let glued = rest.chars().next().map_or("", |c| &rest[c.len_utf8()..]);
            !(mixed_case(rest)
                && rest
                    .bytes()
                    .any(|b| b.is_ascii_digit() || (b.is_ascii_punctuation() && b != b'-')))
                || rest.contains([':', '.', '/', '='])
                || wordy(glued)
                || name_with_number(glued)
        });
        // Apple's tools read `@keychain:NAME` and `@env:NAME`; their
        // app-specific passwords are four groups of four small letters,
        // which read as words.
        let apple = contains_ignoring_case(text, "altool");
        let kept_elsewhere = apple && (v.starts_with("@keychain:") || v.starts_with("@env:"));
        let app_specific = apple && app_password(v);
        !port
            && !flag
            && !kept_elsewhere
            && !names_the_flag(v)
            && v.len() >= 4
            && !refers(v)
            && !file_reference(v)
            && (app_specific || !word_like(v.trim_end_matches(SENTENCE_END)))
            && !is_placeholder(v)
            && !is_placeholder(v.trim_end_matches(SENTENCE_END))
    }));
    // Each of these patterns reads a password, where drawn words count.
    let handed = |v: &str| {
        let bare = v.trim_end_matches(SENTENCE_END);
        v.len() >= 3
            && !is_placeholder(v)
            && !is_placeholder(bare)
            && !v.contains("$(")
            && (!word_like(bare) || drawn_words(bare))
    };
    out.extend(groups(open.get(&CLI_PASSWORD), text, handed));
    out.extend(groups(open.get(&ARGV_PASSWORD), text, handed));
    out.extend(groups(open.get(&PROCESS_SUBSTITUTION), text, |v| {
        handed(v) && !v.contains(['/', '$']) && has_digit(v) && v.len() >= 8
    }));
    out.extend(groups(open.get(&FTP_USER), text, |v| {
        handed(v) && !refers(v) && (has_digit(v) || v.chars().any(|c| !c.is_alphanumeric()))
    }));
    for curl in [&CURL_USER, &CURL_BUNDLED_USER] {
        out.extend(groups(open.get(curl), text, |v| {
            v.len() >= 3 && !is_placeholder(v) && !file_reference(v)
        }));
    }
    // A variable, a file (`file://creds.json`) or `@file` is read, not
    // given.
    // Words and a region's or a resource's name (`westeurope`,
    // `eu-west-1`) are settings, not secrets.
    out.extend(groups(open.get(&SECRET_STORE_VALUE), text, |v| {
        // A long one with digits is generated, whatever its case.
        let named = v.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        }) && !(v.len() >= 20 && has_digit(v));
        v.len() >= 8
            && !is_placeholder(v)
            && !v.starts_with(['$', '@'])
            && !v.contains("://")
            && !word_like(v)
            && !named
    }));
    out.extend(groups(open.get(&MYSQL_PASSWORD), text, |v| {
        let v = v.trim_matches(['\'', '"']);
        // A password may open with a dash (`-p-WR-y^Hbm…`); so may a
        // mistyped flag and its value (`-p-h10.0.4.7`, `-p-S/var/run/…`),
        // which holds no symbol that only a password takes.
        if let Some(rest) = v.strip_prefix('-') {
            return rest.len() >= 8 && password_symbol(rest);
        }
        // A sentence's stop after a placeholder (`-pPASSWORD`;) is none of
        // it.
        v.len() >= 3 && !is_placeholder(v) && !is_placeholder(v.trim_end_matches(SENTENCE_END))
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
        // A list of passwords to try (`-p passwords.txt`) is a file.
        let wordlist = [".txt", ".lst", ".dic"].iter().any(|e| v.ends_with(e));
        v.len() >= 4
            && !wordlist
            && !is_placeholder(v)
            && !refers(v)
            && !names_the_flag(v)
            && (!word_like(v) || drawn_words(v))
    }));
    out.extend(groups(open.get(&MYSQLADMIN_PASSWORD), text, |v| {
        // Manuals write the new password as a name for it
        // (`NEWPASSWORD`, `'new-password'`).
        let lower = v.to_ascii_lowercase();
        v.len() >= 6
            && !is_placeholder(v)
            && !refers(v)
            && !lower.contains("password")
            && !lower.contains("passwd")
            && (has_digit(v) || v.bytes().any(|b| b.is_ascii_punctuation() && b != b'-'))
    }));
    // A value that points to where the password is kept (`@file`,
    // `env:NAME`, `vault:path`, a batch file's `%VAR%`) is none.
    out.extend(groups(open.get(&WINDOWS_PASSWORD), text, |v| {
        v.len() >= 6
            && !v.starts_with('@')
            && !v.contains([':', '%'])
            && !is_placeholder(v)
            && !refers(v)
            && !word_like(v)
    }));
    out.extend(groups(open.get(&TOOL_SECRET), text, |v| {
        // The AWS CLI reads a `file://` or `fileb://` value from the file.
        let file = v.starts_with("file://") || v.starts_with("fileb://");
        // A sentence's punctuation after a word leaves the word.
        let bare = v.trim_end_matches(SENTENCE_END);
        v.len() >= 6 && !file && !is_placeholder(v) && !refers(v) && !word_like(bare)
    }));
    out.extend(
        groups(open.get(&POSITIONAL), text, |v| {
            // A Vault token's prefix (`s.`, `hvs.`) marks it, digits or none.
            // An OAuth client's id, kept among secrets beside its secret,
            // is public (`….apps.googleusercontent.com`).
            random_like(v, 12)
                && (has_digit(v) || vault_token(v))
                && !v.ends_with(".apps.googleusercontent.com")
        })
        .into_iter()
        // `vault token revoke -accessor …` names a token by its accessor,
        // which grants nothing, whatever flags stand between.
        .filter(|span| !accessor_value(&text[..span.start])),
    );
    if contains_ignoring_case(text, "nuget") {
        out.retain(|span| !any_key(&text[span.clone()]));
    }
    // A value that counts up is a manual's sample (kubeadm's documented
    // `abcdef.0123456789abcdef`).
    out.retain(|span| !written_out(&text[span.clone()]));
    // A password that repeats its user (`admin:admin`, `guest:guest`) is
    // a product's default, written in docs and samples.
    out.retain(|span| !repeats_user(text, span));
    out.retain(|span| !substituted(text, span));
    out
}

/// Whether the value at `span` opens a backquoted command substitution
/// (`-p\`cat /run/secrets/db\``, bare or in double quotes): the shell runs
/// the command and passes what it prints, so the password is kept
/// elsewhere. The substitution closes on its line and within its quotes,
/// and holds a command's name, then its arguments. A backquoted word alone
/// is Markdown's code, which may hold a literal (`-p\`S3cret\``); in single
/// quotes a backquote is a character.
fn substituted(text: &str, span: &std::ops::Range<usize>) -> bool {
    let value = &text[span.start..];
    let value = value.strip_prefix('"').unwrap_or(value);
    value
        .strip_prefix('`')
        .and_then(|rest| rest.split_once('`'))
        .is_some_and(|(command, _)| {
            let name = command.split([' ', '\t']).next().unwrap_or_default();
            command.contains([' ', '\t'])
                && !command.contains(['\n', '"'])
                && name.starts_with(|c: char| c.is_ascii_lowercase() || c == '/')
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"._/-".contains(&b))
        })
}

/// Whether the value at `span` is the user name right before it and its
/// colon, repeated.
fn repeats_user(text: &str, span: &std::ops::Range<usize>) -> bool {
    let value = &text[span.clone()];
    text[..span.start]
        .strip_suffix(':')
        .and_then(|before| before.strip_suffix(value))
        .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Whether the argument that `before` leads to is a `-accessor` flag's
/// value: the line's last `-accessor` is followed by flags alone.
fn accessor_value(before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or(before);
    let lower = line.to_ascii_lowercase();
    lower.rfind("-accessor").is_some_and(|at| {
        let rest = &lower[at + "-accessor".len()..];
        rest.trim_start_matches(['=', '"', '\'']).is_empty()
            || (rest.starts_with([' ', '\t'])
                && rest.split_whitespace().all(|token| token.starts_with('-')))
    })
}

#[cfg(test)]
mod read_tests;
#[cfg(test)]
mod tests;
