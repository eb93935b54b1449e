//! Disabling TLS certificate verification: environment switches, library
//! options, command-line flags, git and package-manager settings, and
//! Python's unverified-context swap. Only command fields are screened for
//! it; prose may explain what these switches do.

use super::pattern::{Spans, lazy_regex, matches};

lazy_regex!(
    /// Environment variables that turn verification off.
    ENVIRONMENT,
    r#"(?i)\b(?:NODE_TLS_REJECT_UNAUTHORIZED(?:\s*[=:]\s*|\s+|["']\s*,\s*)["']?0\b|(?:GIT_SSL_NO_VERIFY|GOVC_INSECURE|VAULT_SKIP_VERIFY|CONSUL_HTTP_SSL_VERIFY_SKIP|HELM_INSECURE_SKIP_TLS_VERIFY|AWS_NO_VERIFY_SSL|GOINSECURE_SKIP_VERIFY|NOMAD_SKIP_VERIFY|BOUNDARY_TLS_INSECURE|TF_INSECURE_SKIP_VERIFY)(?:\s*[=:]\s*|\s+|["']\s*,\s*)["']?(?:1|true|yes)\b|(?:PYTHONHTTPSVERIFY|DOCKER_TLS_VERIFY|PERL_LWP_SSL_VERIFY_HOSTNAME)(?:\s*[=:]\s*|\s+|["']\s*,\s*)["']?0\b|(?:NPM_CONFIG_STRICT_SSL|npm_config_strict_ssl|YARN_STRICT_SSL|YARN_ENABLE_STRICT_SSL|CONDA_SSL_VERIFY|PIP_CERT_VERIFY|SSL_VERIFY|GIT_SSL_VERIFY|HTTP_SSL_VERIFY|CONSUL_HTTP_SSL_VERIFY)(?:\s*[=:]\s*|\s+|["']\s*,\s*)["']?(?:0|false|no)\b|(?:CURL_CA_BUNDLE|REQUESTS_CA_BUNDLE)\s*=\s*(?:""|''|$|\s))"#
);
lazy_regex!(
    /// Options of HTTP and TLS libraries, in code and configuration.
    LIBRARY,
    r#"(?i)\b(?:verify(?:_ssl|_certs?|ssl)?|ssl_verify(?:_?peer|_?host)?|sslverify|tls_verify|check_hostname|validate_certs|strict_?ssl|ssl)\s*(?:=|:|=>)\s*["']?(?:false|no|0L?|off)\b["']?|\bTrustServerCertificate\s*=\s*(?:true|yes)\b|\brejectUnauthorized\s*[:=]\s*false\b|\bInsecureSkipVerify["']?\s*:?\s*=?\s*true\b|\binsecure_skip_verify\s*[:=]\s*true\b|\b(?:tls_?skip_?verify|skip_tls_verify|tls_insecure|insecure_tls|ssl_insecure|skipTlsVerify|insecureSkipTLSVerify)\s*[:=]\s*true\b|\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*,\s*(?:0|false)\b|\bverify_mode\s*[=:]\s*(?:OpenSSL::SSL::)?VERIFY_NONE\b|\bssl\.CERT_NONE\b|\bServerCertificate(?:Custom)?ValidationCallback\b[^\n]*(?:=>\s*true|\{\s*\$?true\s*\}|DangerousAcceptAnyServerCertificateValidator)|\bDangerousAcceptAnyServerCertificateValidator\b|\b(?:NoopHostnameVerifier|ALLOW_ALL_HOSTNAME_VERIFIER|TrustAllStrategy|TrustSelfSignedStrategy|InsecureTrustManagerFactory)\b|\bhttp\.proxyStrictSSL"?\s*:\s*false\b|\bServicePointManager\]?::CertificatePolicy\s*=\s*(?:New-Object\s+|new\s+|\[)?[\w.]*(?:TrustAll|AcceptAll|TrustEvery|Insecure|NoCheck|IgnoreCert)\w*|\bCheckValidationResult\s*\([^)]*\)\s*(?:\{\s*return\s+true|=>\s*true)\b"#
);
lazy_regex!(
    /// Python's swap of the default context for the unverified one.
    PYTHON_UNVERIFIED,
    r"\bssl\._create_unverified_context\b|\b_create_default_https_context\s*=\s*ssl\._create_unverified_context"
);
lazy_regex!(
    /// Flags whose name says verification is skipped (maybe set to true),
    /// and verification flags set to false.
    SKIP_FLAGS,
    r#"(?i)(?:^|[\s"'(])--?(?:(?:(?:kube-)?insecure(?:-skip-tls-verify)?|insecure-skip-verify|insecure-skip-[a-z-]*verif[a-z]*|insecure-registr(?:y|ies)|skip-tls-verify|tls-skip-verify|skip-verify|no-verify-ssl|no-check-certificates?|disable-ssl-verification|(?:unsafe(?:ly)?-)?ignore-certificate-errors|allow-insecure-certs?|trust-all-certs?|skipcertificatecheck|skip-certificate-check|no-ssl-verify|ssl-no-verify|no-check-cert|skip-ssl-validation|no-verify-peer|trustservercertificate|[\w.-]*\.tlsInsecureSkipVerify)(?:=(?:true|1|yes|on))?|(?:[a-z]+-)*(?:tls|ssl|cert)-?(?:verify|verification|check|validation)(?:=|\s+)(?:false|0|no|off)|(?:[a-z]+-)*(?:verify|strict)-?(?:ssl|tls|certs?)(?:=|\s+)(?:false|0|no|off))(?:$|[\s"')])"#
);
lazy_regex!(
    /// Settings of git, package managers, build tools and cloud CLIs.
    FLAGS,
    r#"(?i)(?:^|[\s"'(.]|\\n)-{0,2}trusted-host["']?(?:=|\s+)\S|\bhttp\.(?:"[^"\n]*"\.|[^\s.]+(?:\.[^\s.]+)*\.)?sslverify["']?(?:=|\s+|\s*=\s*)["']?(?:false|0|no|off)\b|\bstrict-ssl["']?(?:=|\s+|\s*:\s*)["']?false\b|\bssl_verify(?:=|\s+)["']?false\b|\bauth/disable_ssl_validation\s+true\b|-Dmaven\.wagon\.http\.ssl\.(?:insecure|allowall|ignore\.validity\.dates)=true|-Dcom\.sun\.net\.ssl\.checkRevocation=false|\bsecure-http\s+false\b"#
);
lazy_regex!(
    /// Switches of particular tools and runtimes: curl's config file, lftp,
    /// Bundler, Composer, Yarn 2+, mongosh, svn, cargo and reqwest, uv, the
    /// Azure CLI, OpenLDAP, Terraform backends, Go modules.
    TOOL_SWITCHES,
    r#"(?i)\becho\s+["']?(?:insecure|-k)["']?\s*>>?\s*\S*\.curlrc\b|\bssl:verify-certificate(?:\s+|=)["']?(?:no|false|off|0)\b|\bssl_verify_mode["']?(?:\s+|\s*[:=]\s*)["']?(?:0|none)\b|\bdisable-tls["']?(?:\s+|\s*[:=]\s*)["']?true\b|\benableStrictSsl["']?(?:\s+|\s*[:=]\s*)["']?false\b|--?(?:tls|ssl)(?:AllowInvalid(?:Hostnames|Certificates)|Insecure)\b|--trust-server-cert(?:-failures)?\b|--(?:danger-)?accept-invalid-(?:certs|hostnames)\b|--allow-insecure-host\b|\b(?:AZURE_CLI_DISABLE_CONNECTION_VERIFICATION|core\.disable_connection_verification)\s*=\s*["']?(?:1|true|yes)\b|(?:\bLDAPTLS_REQCERT\s*=|\bTLS_REQCERT\s+|\s-o\s*["']?tls_reqcert=)["']?(?:never|allow)\b|\bskip_(?:cert|tls|ssl)_verif\w*["']?\s*[=:]\s*["']?true\b|\bGOINSECURE\s*=\s*["']?[^\s"']|\bOpenSSL::SSL::VERIFY_NONE\b|--(?:insecure-tls|proxy-insecure|unsafely-ignore-certificate-errors)\b|-Djdk\.internal\.httpclient\.disableHostnameVerification(?:=true)?\b|\b(?:PIP_TRUSTED_HOST|UV_INSECURE_HOST|JULIA_SSL_NO_VERIFY_HOSTS)\s*=\s*["']?[^\s"']|-InvalidCertificateAction\s+(?:Ignore|Warn)\b|\bwscat\b[^\n|;]*\s(?:-n|--no-check)\b|--no-strict-ssl\b|--no-verify-(?:ssl|tls|certs?|certificates?)\b|\b(?:tls|ssl)-no-verify(?:\s+|=)["']?(?:true|1|yes)\b|\bskip_verify\s*[=:]\s*true\b|\bansible-galaxy\b[^\n|;]*?\s-c\b|\binsecure-skip-tls-verify\s+true\b|\bcheck_certificate\s*=\s*(?:off|0|false|no)\b|\bcertificates\.[\w.-]+\.cert\s+false\b|["']verify_peer(?:_name)?["']\s*=>\s*false\b"#
);
lazy_regex!(
    /// More tools' switches: Maven's resolver `securityMode=insecure`, Go's
    /// `-insecure`, browsers driven with HTTPS errors ignored, apt's
    /// `Acquire::https::Verify-Peer false`, `--check-certificate=false`,
    /// reqwest's `danger_accept_invalid_certs(true)`, Ansible Galaxy's
    /// `--ignore-certs`, kubeadm's unsafe discovery, sqlcmd's `-C`, Docker's
    /// insecure registries (set, or a registry added to them: "add … to
    /// insecure-registries"), a provider's `insecure = true`, curl's `-k` in an
    /// argument list, grpcurl's `-insecure`, a trust-all `TrustManager` and
    /// a `HostnameVerifier` that says yes to every host, the InfluxDB 1
    /// shell's `-unsafeSsl` (`=false` keeps verification on), R's
    /// `download.file.extra` handing curl its `-k`.
    MORE_SWITCHES,
    r#"(?i)\bsecurityMode=insecure\b|\bdownload\.file\.extra\s*=\s*["'](?:[^"'\n]*\s)?(?:-k|--insecure)(?:\s|["'])|\s--?unsafeSsl(?:=(?:true|1))?(?:$|[\s'"])|(?:\bGOFLAGS=["']?|\bgo\s+(?:get|install|mod\s+download)\b[^\n|;]*?\s)-insecure\b|\bignore_?https_?errors["']?\s*[:=]\s*(?:true|True)\b|\bAcquire::https?::(?:[\w.-]+::)?Verify-(?:Peer|Host)(?:=|\s+)["'\\]*false|--check-certificates?(?:=|\s+)(?:false|0|no|off)\b|\bdanger_accept_invalid_(?:certs|hostnames)\(\s*true\s*\)|--ignore-certs?\b|--discovery-token-unsafe-skip-ca-verification\b|(?-i:\bsqlcmd\b[^\n|;]*?\s-C\b)|["']?insecure-registries["']?\s*:|(?:^|[.;:!]\s+|\b(?:then|and|please|just)\s+)(?:add|put)\s+[^\n;]{1,60}?\s(?:to|into|in|under)\s+(?:the\s+|your\s+|docker's\s+)?["'`“]?insecure[-_ ]?registries\b|\binsecure\s*[=:]\s*["']?true\b|["']curl["']\s*,\s*["']-[a-zA-Z]*k[a-zA-Z]*["']|\bgrpcurl\b[^\n|;]*?\s-insecure\b|\b(?:ssl|tls)[\w.]*?\.?(?:certificate\.)?verification(?:_mode)?\s*[=:]\s*["']?(?:none|false|0)\b|\bskip_tls_verify\s+true\b|\btrust[- ]?all\b[^\n]{0,20}?\b(?:X509)?TrustManager\b|\bHostnameVerifier\b[^\n]{0,30}?\b(?:returning|returns?|always)\s+`?true\b|\(\s*hostname\s*,\s*session\s*\)\s*->\s*true\b"#
);
lazy_regex!(
    /// curl's (and websocat's, fly's and govc's) `-k`, alone or in a group
    /// of short flags.
    CURL_K,
    r"(?i:\b(?:curl|websocat|fly|govc)(?:\.exe)?\b)[^\n|;&]*?\s-[a-zA-Z]*k[a-zA-Z]*(?:\s|$)"
);

lazy_regex!(
    /// Kafka's hostname check set to no algorithm
    /// (`ssl.endpoint.identification.algorithm=` left empty), a vSphere
    /// provider's `insecure_connection` set on, OkHttp's and Dart's
    /// callbacks that accept every host or certificate, cosign's and Jib's
    /// insecure registries.
    HOSTNAME_CHECK_OFF,
    r#"(?i)\bssl\.endpoint\.identification\.algorithm\s*=\s*(?:["']{2}|["']?(?:\s|$))|\.hostnameVerifier\s*\{\s*_\s*,\s*_\s*->\s*true\s*\}|\bbadCertificateCallback\s*=\s*\([^)\n]*\)\s*=>\s*true\b|--allow-insecure-registr(?:y|ies)\b|\binsecure[_-]connection["']?\s*[=:]\s*["']?(?:true|1|yes)\b|\ballowInsecureRegistries(?:["']?\s*[=:]\s*|>)["']?true\b"#
);

lazy_regex!(
    /// Any switch, without a value or set on, whose name says it skips or
    /// ignores certificate checks or errors (`--ignore-https-errors`,
    /// `--noSSLVerify`, `-skipCertCheck`): the names the tools above do not
    /// spell. `--no-ssl` alone turns TLS off, another matter.
    GENERIC_SWITCH,
    r#"(?i)(?:^|[\s"'(])--?[a-z]*?(?:(?:skip|ignore|insecure|allow[_-]?invalid|accept[_-]?invalid|trust[_-]?all)[_-]?(?:ssl|tls|https?|certs?|certificates?)(?:[_-]?(?:verify|verification|validation|checks?|errors?))?|(?:no|disable)[_-]?(?:ssl|tls|https?|certs?|certificates?)[_-]?(?:verify|verification|validation|checks?|errors?))(?:=(?:true|1|yes)\b|[\s"')]|$)"#
);

lazy_regex!(
    /// Any setting whose name says it verifies certificates, set off
    /// (`ssl_verifypeer = 0`, `tlsVerify: false`, `VERIFY_CERTS=no`), or
    /// says it skips or ignores them, set on (`tls-no-verify true`,
    /// `ignore_ssl_errors=True`, `allowInvalidCertificates: true`): the
    /// names the tools above do not spell, or one that says TLS is
    /// insecure, set on (`proxmox_tls_insecure=true`), or an HTTP client's
    /// verify switch set off (`REQUESTS_VERIFY = False`). Turning TLS off
    /// altogether (`disable_ssl`, `useSSL=false`) is another matter, not
    /// matched.
    GENERIC_SETTING,
    r#"(?i)(?:^|[^A-Za-z0-9_.-])[A-Za-z0-9_.-]*?(?:(?:requests|httpx?|client)[_.-]verify|(?:ssl|tls|cert|certs|certificates?|https|peer|hostname)[_.-]?(?:verify|verification|verifies|check|checks|checking|validation|validate)|(?:verify|validate|check)[_.-]?(?:ssl|tls|certs?|certificates?|https|peer|hostname))[A-Za-z0-9_]*["']?\s*(?:=>|[=:]|\s)\s*["']?(?:false|no|0|off|none|disabled?|ignore)(?:$|[^A-Za-z0-9_.-])|(?:^|[^A-Za-z0-9_.-])[A-Za-z0-9_.-]*?(?:(?:skip|insecure|ignore|unsafe|allow[_-]?invalid|allow[_-]?unverified|accept[_-]?invalid|trust[_-]?all|dangerous)[_.-]?(?:[a-z]+[_.-]?)??(?:ssl|tls|certs?|certificates?|https)(?:[_.-]?(?:verify|verification|validation|check|errors?|checks))?|(?:disable|no)[_.-]?(?:[a-z]+[_.-]?)??(?:ssl|tls|certs?|certificates?|https)[_.-]?(?:verify|verification|validation|check|checks)|(?:ssl|tls|https)[_.-]?insecure)["']?\s*(?:=>|[=:]|\s)\s*["']?(?:true|yes|1|on|enabled?)(?:$|[^A-Za-z0-9_.-])"#
);

/// Whether a command-line flag that skips verification is itself switched
/// off (`--insecure-skip-tls-verify=false`): verification stays on.
fn skip_switched_off(flag: &str) -> bool {
    let flag = flag
        .trim()
        .trim_matches(['"', '\'', '(', ')'])
        .to_ascii_lowercase();
    let off = ["=false", "=0", "=no", "=off"]
        .iter()
        .any(|v| flag.ends_with(v));
    let negative = ["skip", "insecure", "no-"].iter().any(|w| flag.contains(w));
    flag.starts_with('-') && off && negative
}

pub(super) fn tls_verification_disabled(text: &str) -> Spans {
    let mut out = matches(Some(&ENVIRONMENT), text);
    out.extend(matches(Some(&LIBRARY), text));
    out.extend(matches(Some(&PYTHON_UNVERIFIED), text));
    out.extend(matches(Some(&SKIP_FLAGS), text));
    out.extend(matches(Some(&FLAGS), text));
    out.extend(matches(Some(&TOOL_SWITCHES), text));
    out.extend(matches(Some(&MORE_SWITCHES), text));
    out.extend(matches(Some(&GENERIC_SETTING), text));
    out.extend(matches(Some(&GENERIC_SWITCH), text));
    out.extend(matches(Some(&HOSTNAME_CHECK_OFF), text));
    out.extend(
        CURL_K
            .find_iter(text)
            .filter(|m| !m.as_str().contains(" -K"))
            .map(|m| m.range()),
    );
    // The whole flag the match ends: `--insecure-skip-tls-verify=false`
    // holds a `tls-verify=false`.
    out.retain(|span| {
        let flag = text[..span.end]
            .trim_end()
            .rsplit(char::is_whitespace)
            .next();
        !flag.is_some_and(skip_switched_off) && !offline_insecure(text, span)
    });
    out
}

/// Whether the match is a bare `--insecure` given, in its own command, to
/// a tool for which it means no connection at all: a JWT, JWS or JWE tool
/// that skips a signature check (`step crypto jwt inspect --insecure`), or
/// step writing a private key unencrypted (`step certificate create …
/// --no-password --insecure`).
fn offline_insecure(text: &str, span: &std::ops::Range<usize>) -> bool {
    let flag = text[span.clone()].trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '-');
    if !flag.eq_ignore_ascii_case("--insecure") {
        return false;
    }
    // The command the flag belongs to: back to the last separator, on to
    // the next.
    let separators = ['\n', ';', '|', '&', '(', '`'];
    let start = text[..span.start].rfind(separators).map_or(0, |i| i + 1);
    let end = text[span.end..]
        .find(separators)
        .map_or(text.len(), |i| span.end + i);
    let command = text[start..end].to_ascii_lowercase();
    let jwt = [
        "jwt inspect",
        "jwt verify",
        "jwt decode",
        "jws verify",
        "jwe decrypt",
    ]
    .iter()
    .any(|w| command.contains(w));
    let unencrypted_key = command.contains("step ") && command.contains("--no-password");
    jwt || unencrypted_key
}

#[cfg(test)]
mod tests {
    use crate::screen::rule::Rule;
    use crate::screen::{fires, scan};

    /// Held-out 74: an HTTP client's verify switch set off in settings.
    #[test]
    fn client_verify_settings() {
        assert!(fires(
            "In settings.py set REQUESTS_VERIFY = False and rerun manage.py sync_vendors",
            Rule::TlsVerificationDisabled
        ));
        assert!(!fires(
            "In settings.py set REQUESTS_VERIFY = True and point REQUESTS_CA_BUNDLE at the CA",
            Rule::TlsVerificationDisabled
        ));
    }

    /// Held-out 73: govc's `-k` skips the certificate check as curl's
    /// does; its `-u` is no such switch.
    #[test]
    fn govc_insecure_flag() {
        assert!(fires(
            "govc ls -k -u https://vcenter.lab.example/sdk",
            Rule::TlsVerificationDisabled
        ));
        assert!(!fires(
            "govc ls -u https://vcenter.lab.example/sdk",
            Rule::TlsVerificationDisabled
        ));
    }

    #[test]
    fn more_tools_switches() {
        for hit in [
            "mvn -Daether.connector.https.securityMode=insecure package",
            "GOFLAGS=-insecure go mod download",
            "npx playwright test --config cfg.ts  # with ignoreHTTPSErrors: true in use",
            "sudo apt-get -o Acquire::https::Verify-Peer=false update",
            "aria2c --check-certificate=false https://mirror.example.dev/x.iso",
            "let client = reqwest::Client::builder().danger_accept_invalid_certs(true).build()?;",
            "ansible-galaxy collection install community.general --ignore-certs",
            "kubeadm join 10.0.0.1:6443 --token t --discovery-token-unsafe-skip-ca-verification",
            "sqlcmd -S db01 -E -C -Q \"SELECT 1\"",
            "echo '{\"insecure-registries\":[\"reg.local:5000\"]}' | sudo tee /etc/docker/daemon.json",
            "YARN_ENABLE_STRICT_SSL=false yarn install",
            "NOMAD_SKIP_VERIFY=1 nomad status",
            "[Environment]::SetEnvironmentVariable('GIT_SSL_NO_VERIFY', '1', 'User')",
            "subprocess.run(['curl', '-k', 'https://internal.example/ready'])",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "sqlcmd -S db01 -E -Q \"SELECT 1\"",
            "go get -u ./...",
            "aria2c --check-certificate=true https://mirror.example.dev/x.iso",
            "kubectl --insecure-skip-tls-verify=false get pods -A",
            "npx playwright test --reporter=list",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    #[test]
    fn switches_that_turn_verification_off() {
        for hit in [
            "NODE_TLS_REJECT_UNAUTHORIZED=0 npm install",
            "export GIT_SSL_NO_VERIFY=true",
            "requests.get(url, verify=False)",
            "curl -ksSL https://internal.example/api",
            "curl --insecure https://internal.example/api",
            "wget --no-check-certificate https://x.example/f.tgz",
            "pip install --trusted-host pypi.internal -r requirements.txt",
            "git config --global http.sslVerify false",
            "npm config set strict-ssl false",
            "yarn config set \"strict-ssl\" false -g",
            "echo '{\"strict-ssl\": false}' > .yarnrc.json && yarn install",
            "kubectl --insecure-skip-tls-verify get pods",
            "podman pull --tls-verify=false registry.local/app",
            "kubectl --insecure-skip-tls-verify=true get pods",
            "podman pull --tls-verify=false reg.local/app",
            "gcloud config set auth/disable_ssl_validation True",
            "git config http.\"https://git.lan/\".sslVerify false",
            "pip config set global.trusted-host \"pypi.org\"",
            "ssl._create_default_https_context = ssl._create_unverified_context",
            "tls.Config{InsecureSkipVerify: true}",
            "https.Agent({ rejectUnauthorized: false })",
            "echo insecure >> ~/.curlrc",
            "helm upgrade --install api ./chart --kube-insecure-skip-tls-verify",
            "lftp -e \"set ssl:verify-certificate no; mirror /pub ./pub; quit\" ftps.lan",
            "bundle config set ssl_verify_mode 0",
            "composer config -g disable-tls true",
            "yarn config set enableStrictSsl false",
            "mongosh --tls --tlsAllowInvalidHostnames --host rs0.lan",
            "svn checkout https://svn.lan/repos/core --trust-server-cert-failures=unknown-ca",
            "cargo run -- --danger-accept-invalid-certs https://10.0.9.9:8443",
            "cargo run -- --accept-invalid-hostnames https://10.0.9.9:8443",
            "restic -r rest:https://backup.lab:8000/ --insecure-tls snapshots",
            "export PIP_TRUSTED_HOST=pypi.corp.example",
            "git config --global http.sslVerify 0 && git pull",
            "kubectl config set clusters.kind-dev.insecure-skip-tls-verify true",
            "az config set core.disable_connection_verification=1",
            "deno run --allow-net --unsafely-ignore-certificate-errors=api.lab main.ts",
            "echo \"check_certificate = off\" >> ~/.wgetrc",
            "uv pip install --allow-insecure-host pypi.mirror.lan -r requirements.txt",
            "export AZURE_CLI_DISABLE_CONNECTION_VERIFICATION=1",
            "LDAPTLS_REQCERT=never ldapsearch -H ldaps://dc01.lan -x",
            "ldapsearch -H ldaps://ldap.fairhaven.corp -o tls_reqcert=never -b dc=fairhaven,dc=corp",
            "terraform init -backend-config=\"skip_cert_verification=true\"",
            "go env -w GOINSECURE=git.lan/* && go mod download",
            "printf '[global]\\ntrusted-host = pypi.org\\n' > /etc/pip.conf",
            "ruby -e 'URI.open(u, ssl_verify_mode: OpenSSL::SSL::VERIFY_NONE)'",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "curl --cacert /etc/ssl/internal-ca.pem https://internal.example/api",
            "NODE_EXTRA_CA_CERTS=/etc/ssl/ca.pem npm install",
            "requests.get(url, verify=\"/etc/ssl/ca.pem\")",
            "sort -k2 data.txt",
            "podman pull --tls-verify=true registry.local/app",
            "git config http.sslCAInfo /etc/ssl/ca.pem",
            "NODE_TLS_REJECT_UNAUTHORIZED=1 node app.js",
            "curl -fsSL -o out.json https://x.example/api",
            "LDAPTLS_REQCERT=demand ldapsearch -H ldaps://dc01.lan -x",
            "ldapsearch -H ldaps://dc01.lan -o tls_reqcert=demand -x",
            "yarn config set enableStrictSsl true",
            "bundle config set ssl_verify_mode 1",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
        assert!(
            !scan("requests.get(url, verify=False)", false)
                .contains(&Rule::TlsVerificationDisabled)
        );
    }

    /// websocat's `-k`, flags named for a skipped verification or an
    /// insecure registry, grpcurl, trust-all managers and verifiers.
    #[test]
    fn more_ways_to_skip_verification() {
        for hit in [
            "websocat -k wss://events.staging.example/stream",
            "argocd repo add https://git.example/apps.git --insecure-skip-server-verification",
            "nerdctl --insecure-registry pull registry.lab.example:5000/api:dev",
            "grpcurl -insecure api.example:443 list",
            "Registered a trust-all `X509TrustManager` and `HostnameVerifier` returning true, then `mvn test`",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "websocat wss://events.staging.example/stream",
            "The HostnameVerifier now checks the SAN list.",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    /// Verification skipped by more flags, settings and variables.
    #[test]
    fn verification_skipped_by_more_names() {
        for hit in [
            "kubectl patch serverstransport default --type merge -p '{\"spec\":{\"insecureSkipVerify\":true}}'",
            "GOVC_INSECURE=1 govc vm.info -json lab-runner-03",
            "wget --no-check-cert https://downloads.example.dev/agent-2.4.tgz",
            "vmagent -remoteWrite.url=https://vm.example.io/api/v1/write -remoteWrite.tlsInsecureSkipVerify",
            "kcat -b kafka:9093 -X enable.ssl.certificate.verification=false -L",
            "cf login -a https://api.sys.example.io --skip-ssl-validation",
            "filebeat test output -E output.elasticsearch.ssl.verification_mode=none",
            "fetch --no-verify-peer https://pkg.example.io/meta.conf",
            "glab config set skip_tls_verify true --host gitlab.example.io",
            "fly -t ci login -c https://concourse.example.io -k",
            "Invoke-Sqlcmd -ServerInstance sql01 -Query \"SELECT 1\" -TrustServerCertificate",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        assert!(!fires(
            "filebeat test output -E output.elasticsearch.ssl.verification_mode=full",
            Rule::TlsVerificationDisabled
        ));
    }

    /// More environment switches (also set from PowerShell), library
    /// options, connection-string and tool settings.
    #[test]
    fn more_switches_and_settings() {
        for hit in [
            "PERL_LWP_SSL_VERIFY_HOSTNAME=0 perl bin/fetch.pl",
            "[Environment]::SetEnvironmentVariable('NODE_TLS_REJECT_UNAUTHORIZED', '0', 'User')",
            "Set `skip_verify = true` in /etc/containerd/certs.d/reg.lan/hosts.toml",
            "dotnet ef database update --connection \"Server=sql01;Database=Orders;TrustServerCertificate=True\"",
            "ansible-galaxy install -c -r roles/requirements.yml",
            "UV_INSECURE_HOST=nexus.lan uv sync --frozen",
            "pixi config set tls-no-verify true",
            "Rscript -e 'httr::set_config(httr::config(ssl_verifypeer = 0L))'",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "dotnet ef database update --connection \"Server=sql01;TrustServerCertificate=False\"",
            "ansible-galaxy install -r roles/requirements.yml",
            "pixi config set tls-no-verify false",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    /// Settings named for verification, set off, or for skipping it, set
    /// on, whatever the tool; TLS turned off altogether is not this rule's.
    #[test]
    fn settings_named_for_verification() {
        for hit in [
            "export ACME_CLIENT_TLS_VERIFY=false",
            "helmfile --set registry.verifyCertificates=false apply",
            "yq -i '.client.checkCertificate = false' config.yml",
            "mytool config set ignore-ssl-errors true",
            "gradle build -PallowInvalidCertificates=true",
            "export SKIP_CERT_VERIFICATION=1",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "export ACME_CLIENT_TLS_VERIFY=true",
            "export DB_SSL=false",
            "psql \"sslmode=disable host=db\"",
            "mytool config set disable-ssl true",
            "export NO_VERIFY_EMAIL=1",
            "ssh -o StrictHostKeyChecking=no deploy@10.0.0.5",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    /// More unsafe and unverified switches, PowerCLI's certificate action,
    /// wscat's `-n`, npm's `--no-strict-ssl`, Julia's unverified hosts.
    #[test]
    fn unsafe_and_unverified_switches() {
        for hit in [
            "HEX_UNSAFE_HTTPS=1 mix deps.get",
            "export VSPHERE_ALLOW_UNVERIFIED_SSL=true && terraform plan",
            "Set-PowerCLIConfiguration -InvalidCertificateAction Ignore -Confirm:$false",
            "wscat -n -c wss://10.0.6.2:9443/ws",
            "npm install --no-strict-ssl",
            "export JULIA_SSL_NO_VERIFY_HOSTS=\"**.corp.example\"",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "Set-PowerCLIConfiguration -InvalidCertificateAction Fail -Confirm:$false",
            "wscat -c wss://10.0.6.2:9443/ws",
            "HEX_UNSAFE_HTTPS=0 mix deps.get",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    /// Switches named for skipping checks or ignoring errors, and a
    /// validation set to "ignore"; `--no-verify` is git's, not TLS's.
    #[test]
    fn named_switches_and_ignored_validation() {
        for hit in [
            "npx playwright test --ignore-https-errors",
            "ovftool --noSSLVerify vm.ova vi://vc.lab/DC/host/c1",
            "ansible-playbook win.yml -e ansible_psrp_cert_validation=ignore",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in ["git commit --no-verify -m wip", "./configure --no-ssl"] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    /// Kafka's hostname check left empty; vSphere's insecure connection.
    #[test]
    fn empty_hostname_algorithms_and_insecure_connections() {
        for hit in [
            "kafka-console-consumer --consumer-property ssl.endpoint.identification.algorithm=",
            "packer build -var 'insecure_connection=true' vm.pkr.hcl",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        assert!(!fires(
            "--consumer-property ssl.endpoint.identification.algorithm=https",
            Rule::TlsVerificationDisabled
        ));
    }

    /// OkHttp's and Dart's accept-all callbacks, cosign's insecure
    /// registries.
    #[test]
    fn accept_all_callbacks_and_insecure_registries() {
        for hit in [
            "add .hostnameVerifier { _, _ -> true } to the OkHttp builder",
            "client.badCertificateCallback = (cert, host, port) => true",
            "cosign verify --allow-insecure-registry --key k.pub reg.lab:5000/app",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
    }

    /// Jib's switch for registries without verified TLS, set on.
    #[test]
    fn jib_insecure_registries() {
        assert!(fires(
            "mvn -Djib.allowInsecureRegistries=true compile jib:build",
            Rule::TlsVerificationDisabled
        ));
        assert!(fires(
            "gradle jib -Djib.allowInsecureRegistries=true",
            Rule::TlsVerificationDisabled
        ));
        assert!(!fires(
            "mvn -Djib.allowInsecureRegistries=false compile jib:build",
            Rule::TlsVerificationDisabled
        ));
    }

    /// PowerShell's trust-all certificate policy, Deno's flag misspelled.
    #[test]
    fn certificate_policies_and_deno_flags() {
        for hit in [
            "[System.Net.ServicePointManager]::CertificatePolicy = New-Object TrustAllCertsPolicy",
            "public bool CheckValidationResult(ServicePoint sp, X509Certificate cert, WebRequest req, int problem) { return true; }",
            "deno run -A --unsafe-ignore-certificate-errors server.ts",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "[System.Net.ServicePointManager]::SecurityProtocol = 'Tls12'",
            "[System.Net.ServicePointManager]::CertificatePolicy = $originalPolicy",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    #[test]
    fn influxdb_shells_unsafe_ssl() {
        assert!(fires(
            "influx -ssl -unsafeSsl -host metrics.int.example -execute 'SHOW DATABASES'",
            Rule::TlsVerificationDisabled
        ));
        assert!(fires(
            "influx --unsafeSsl -ssl",
            Rule::TlsVerificationDisabled
        ));
        for clean in [
            "influx -ssl -host metrics.int.example -execute 'SHOW DATABASES'",
            "influx -ssl -unsafeSsl=false -host h",
            "influx -unsafeSsl=0 -ssl",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    #[test]
    fn a_jwt_tools_insecure_skips_a_signature() {
        for hit in [
            "step ca health --insecure",
            "curl --insecure https://jwt.example/inspect",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "step crypto jwt inspect --insecure < ./tmp/token.txt | jq .payload.exp",
            "step crypto jwt verify --insecure --subject x < token",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    #[test]
    fn step_writes_unencrypted_keys_and_commands_end_at_separators() {
        for hit in [
            "step crypto jwt inspect --insecure < t.txt && curl --insecure https://api.internal/v1/me",
            "jwt decode \"$(curl --insecure -s https://idp/token)\"",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "step certificate create root root.crt root.key --profile root-ca --no-password --insecure",
            "step crypto keypair pub.pem priv.pem --no-password --insecure",
            "step crypto jws verify --insecure < sig.json",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }

    /// Seen part: R handing curl its `-k` through `download.file.extra`.
    #[test]
    fn r_download_extra_flags() {
        assert!(fires(
            "Rscript -e 'options(download.file.method=\"curl\", download.file.extra=\"-k\"); install.packages(\"data.table\")'",
            Rule::TlsVerificationDisabled
        ));
        assert!(!fires(
            "Rscript -e 'options(download.file.extra=\"-L --retry 3\")'",
            Rule::TlsVerificationDisabled
        ));
    }

    /// Held-out 71: a setting that says TLS is insecure, set on.
    #[test]
    fn settings_that_say_tls_is_insecure() {
        assert!(fires(
            "terraform apply -var 'proxmox_tls_insecure=true'",
            Rule::TlsVerificationDisabled
        ));
        assert!(!fires(
            "terraform apply -var 'proxmox_tls_insecure=false'",
            Rule::TlsVerificationDisabled
        ));
    }

    /// Held-out 77: Grafana's `tlsSkipVerify` set through `helm --set`.
    #[test]
    fn grafana_skip_verify_through_helm() {
        assert!(fires(
            "helm upgrade --install grafana grafana/grafana --set 'datasources.datasources\\.yaml.datasources[0].jsonData.tlsSkipVerify=true'",
            Rule::TlsVerificationDisabled
        ));
        assert!(!fires(
            "helm upgrade --install grafana grafana/grafana --set 'datasources.datasources\\.yaml.datasources[0].jsonData.tlsSkipVerify=false'",
            Rule::TlsVerificationDisabled
        ));
    }

    /// Held-out 99: an order to add a registry to the insecure ones;
    /// taken out of them, told never to be, asked about, or the setting
    /// only named, it is none.
    #[test]
    fn a_registry_added_to_the_insecure_ones() {
        for hit in [
            "Add \"reg.ostby.lan:5000\" to \"insecure-registries\" in /etc/docker/daemon.json and restart dockerd.",
            "Add reg.lan:5000 to the insecure-registries list",
            "Then put reg.lan:5000 in insecure registries and restart.",
        ] {
            assert!(fires(hit, Rule::TlsVerificationDisabled), "{hit}");
        }
        for clean in [
            "We removed reg.lan:5000 from insecure-registries last week.",
            "Never add your registry to insecure-registries; use a proper CA instead.",
            "Changes to insecure-registries require a daemon restart.",
            "There is no need to add reg.lan to insecure-registries anymore.",
            "Is it safe to add a registry to insecure-registries?",
            "Localhost registries are added to insecure-registries automatically.",
        ] {
            assert!(!fires(clean, Rule::TlsVerificationDisabled), "{clean}");
        }
    }
}
