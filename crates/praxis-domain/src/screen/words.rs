//! The words that open each rule's door: the keyword gate's first list,
//! one per rule. A word must be a necessary condition of the rule firing
//! (see [`super::gate`]).

use super::rule::Rule;

/// Words one of which every text a rule fires on holds (ASCII case
/// aside); none for the rules that look for a shape rather than a word.
/// The rules of a gated family take their patterns' words instead.
pub(super) fn words(rule: Rule) -> &'static [&'static str] {
    match rule {
        // Wine shows a Linux home through its root drive (`Z:\home\…`).
        Rule::HomePath => &[
            "/home",
            "\\home",
            "users",
            "/root",
            "documents and settings",
            "\\\\",
        ],
        Rule::CredentialGithub => &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        Rule::CredentialOpenai => &["sk-"],
        Rule::CredentialAnthropic => &["sk-ant-"],
        Rule::CredentialSlack => &["xox", "xapp-", "slack"],
        Rule::CredentialAws => &[
            "akia",
            "asia",
            "abia",
            "acca",
            "access",
            "session",
            "credentials",
            "secret_key",
            "secretkey",
            "aws_secret",
            "aws secret",
            "aws-secret",
            "'secret'",
            "\"secret\"",
            "s3a.secret",
            "s3a.bucket.",
            "s3n.bucket.",
            "s3.bucket.",
            "s3n.secret",
            "s3.secret",
            "secreta",
            "secrète",
            "secrete",
            "segreta",
            "schlüssel",
            "schlussel",
            "x-amz-security-token",
            "iqojb3jpz2lux2vj",
            "fwogzxivyxdze",
            "fqogzxivyxdze",
            // S3's answer to a wrong secret, "the secret …" beside it or
            // beside AWS's names.
            "signaturedoesnotmatch",
            "the secret",
            // A CloudFormation parameter's default.
            "default:",
        ],
        Rule::CredentialGoogle => &["aiza", "gocspx-", "ya29.", "1//0", "client_secret"],
        Rule::CredentialStripe => &["sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"],
        Rule::CredentialNpm => &["npm", "_auth", "_password"],
        Rule::CredentialJwt => &["eyj", "eyai", "ewog", "ew0k"],
        Rule::CredentialPrivateKey => &[
            "private key",
            "private+key",
            // PGP 2's name for it.
            "secret key block",
            "putty-user-key-file",
            "ls0tls1crudjti",
            // A key's DER body in base64.
            "ibaak",
            "ibadanbgkqhkig9w0baqefaas",
            "mhccaqeei",
            "mighageambmgbyqgsm49ageggcqgsm49aweh",
            "mc4caqawbqydk2vwbcie",
        ],
        // A bot token is `<digits>:<secret>`.
        Rule::CredentialTelegram => &[
            "0:", "1:", "2:", "3:", "4:", "5:", "6:", "7:", "8:", "9:",
            // A token split in two, beside its bot's id.
            "bot",
        ],
        Rule::CredentialTwilio
        | Rule::CredentialOther
        | Rule::CredentialDiscord
        | Rule::CredentialAssignment
        | Rule::CredentialCommandLine
        | Rule::PromptOverride
        | Rule::UnsafeCommand => &[],
        Rule::CredentialAzure => &[
            "azurewebsites",
            "x-functions-key",
            "accountkey",
            "sharedaccesskey",
            "sharedsecretvalue",
            "sig=",
            "account-key",
            "sas-token",
            "sastoken",
            "accesskey=",
            "==",
            "windows.net",
            "ocp-apim",
            "subscription-key",
            "fromsubscription",
            "openai.azure",
            "sharedaccesspolicykey",
            "sv=",
            "azconfig",
            "arm_access_key",
            "aeg-sas-key",
            // Log Analytics' and Storage's signed requests, Azure Cache for
            // Redis's host.
            "sharedkey",
            "redis.cache.windows",
            // A key pair's member (`primaryKey`, "secondary key"), Event
            // Grid's key.
            "primary",
            "secondary",
            "eventgrid",
            // An Entra client secret's fixed `Q~`.
            "q~",
        ],
        Rule::SecretUrl => &[
            "://",
            "discord",
            "telegram",
            "hooks",
            "token",
            "sig",
            "credential",
            "key",
            "secret",
            "pass",
            "pwd",
            "auth",
            "jwt",
            "jdbc:oracle",
            // Query parameters of a relative URL in a log line
            // (`GET /v1/forecast?appid=…`) named for no word above.
            "appid",
            "app_id",
            "sid=",
            "hdnts",
            "hdnea",
            "tkn",
            "stok",
            // An SMB share's address and MySQL Shell's connection URI,
            // which have no scheme.
            "smbfs",
            "cifs",
            "mysqlsh",
            "\\c",
            // An rclone remote's Storj grant, written inline.
            "access_grant",
            // Password parameters (an SMS gateway's, a router's, a SOAP
            // login's) and a feed's shared access signature.
            "psw=",
            "pw=",
            "sas=",
        ],
        Rule::SessionId => &[
            // MongoDB's logical session.
            "lsid",
            "sess",
            // OpenSearch Dashboards' security plugin's session cookie.
            "security_authentication",
            // opencode's session ids.
            "ses_",
            "transcript",
            "sesi",
            "sesj",
            "sid",
            "resume",
            "resuming",
            "claude",
            "rollout-",
            ".gemini/tmp",
            "セッション",
            "会话",
            "会話",
            "세션",
            "sitzung",
            "frontend",
            "сесси",
            "сесі",
            "oturum",
            "cftoken",
            "wordpress_",
            // Laravel's remember-me cookie.
            "remember_",
            // A cookie header's or string's session cookies (`unifises=`).
            "cookie:",
            "ses=",
            // PrestaShop's cookie, named by a hash.
            "prestashop-",
            // Jupyter's kernel file, Mosh's key, a resumed conversation.
            "kernel-",
            "mosh_key",
            "conversation",
            "threads continue",
            "(s(",
            "oauth2_proxy",
            "svpncookie",
            "dsid",
            "mrhsession",
            "cakephp",
            "phpmyadmin",
            "i_like_gitea",
            "symfony",
            // A Salesforce session id, a tmate or upterm session's SSH
            // address.
            "00d",
            "tmate",
            "upterm.dev",
            // A Phoenix session cookie's signed value, an iron-sealed one.
            "sfmynty.",
            "fe26.2**",
            // ASP.NET's sign-in cookies.
            ".aspx",
            ".aspnet",
            // SAP's logon ticket, Mojolicious's signed cookie, an Oracle
            // APEX URL's session field.
            "mysapsso2",
            "mojolicious",
            "f?p=",
            // A session's id named in Vietnamese ("mã phiên").
            "phiên",
            // A Teleport session's recording or a shared one, a mosh
            // session's key.
            "tsh play",
            "tsh join",
            "mosh connect",
            // A Proxmox ticket, plain or URL-encoded.
            "pve:",
            "pmg:",
            "pbs:",
            "pve%3a",
            "pmg%3a",
            "pbs%3a",
            "pvevnc",
            "pmgquar",
        ],
        Rule::TlsVerificationDisabled => &[
            "tls",
            "ssl",
            "verif",
            "insecure",
            "unauthorized",
            "trusted-host",
            "check-certificate",
            "cert",
            "pythonhttpsverify",
            "curl",
            "accept-invalid",
            "trusted_host",
            "httpserrors",
            "https_errors",
            "https-errors",
            "sqlcmd",
            "websocat",
            "fly",
            "govc_insecure",
            // Composer's `secure-http false`.
            "secure-http",
            "trustmanager",
            "ansible-galaxy",
            "wscat",
            "https",
            // R's `download.file.extra="-k"`.
            "download.file.extra",
        ],
        Rule::GitSafeguardBypass => &[
            "push",
            "commit",
            "merge",
            "rebase",
            "cherry-pick",
            "revert",
            // `git am`, not "yaml" or "stream".
            "\\bam\\b",
            "pull",
            "husky",
            "hookspath",
            "skip=",
            "lefthook",
            "skip_hooks",
            "sync",
            "upload",
            "gh-deploy",
            "ghp-import",
            "git/refs",
        ],
        Rule::WorldWritable => &[
            "chmod",
            "cacls",
            "mkdir",
            "install",
            "mode=",
            "mode:",
            "setfacl",
            "set_mode",
            "filesystemaccessrule",
            "mode:=",
            "mode =",
            "mode :=",
            "mode\t=",
            "mode\t:=",
        ],
    }
}
