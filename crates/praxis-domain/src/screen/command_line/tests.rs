//! Tests of the rule for credentials on a command line.

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
        "knife bootstrap 10.50.1.8 -U ubuntu -P Marble*Orbit75 --sudo -N web-08",
        "knife bootstrap 10.50.1.9 --ssh-user ubuntu --ssh-password 'Kj7!mQ2wRx' -N web-09",
        "knife bootstrap 10.0.0.12 -U ubuntu -PXq7pLm2Rz9 --sudo",
        "knife ec2 server create -I ami-0abc -x ubuntu -P Marble*Orbit75",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "knife bootstrap 10.50.1.8 -p 2222 -U ubuntu --sudo -N web-08",
        "knife ssh 'role:web' 'df -P /var/log' -x ops",
        "knife ssh 'role:db' 'sudo -u postgres psql -P pager=off -c \"select 1\"' -x ops",
        "psql -U app -P pager=off mydb",
        "knife bootstrap 10.50.1.8 -U ubuntu -P \"$SSH_PASSWORD\" -N web-08",
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

/// A password hashed or encoded inside a substitution, a random value
/// after `-p @`, rclone's secrets as arguments, and arguments a log
/// quoted one by one.
#[test]
fn substitutions_of_literals_and_rclone_arguments() {
    for hit in [
        "usermod -p \"$(openssl passwd -6 'Usr!Mod-2291')\" deploy",
        "curl -H \"Authorization: Basic $(echo -n admin:p%zPES2teT#%Ge | base64)\" https://es01.lan:9200/_cluster/health",
        "poetry publish -r internal -u deploy -p @PXI1oZgsTidlZu",
        "rclone config create b2remote b2 account 0041a7c3e9f2 key PnZr0iuNIaxC5llQXtymSnep7qvOV65M",
        "argv[] logged by auditd: \"redis-cli\" \"-h\" \"10.3.1.7\" \"-a\" \"qEQemaXzA5pBRiQ1nmGfdf0r\" \"FLUSHALL\"",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "curl -H \"Authorization: Basic $(echo -n admin:$ES_PASS | base64)\" https://es01.lan:9200/",
        "usermod -p \"$(openssl passwd -6 \"$NEWPASS\")\" deploy",
        "export PGPASSWORD=$(echo $DB_URL | cut -d: -f3)",
        "poetry publish -r internal -u deploy -p @secrets/pypi.txt",
        "twine upload -u __token__ -p @token",
        "rclone config create gdrive drive token \"$(cat token.json)\"",
        "echo \"one\" \"two\" \"three\"",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// From a review: argv arrays of ordinary arguments, and process
/// substitutions of paths and plain words.
#[test]
fn review_of_argv_arrays_and_substitutions() {
    assert!(fires(
        "rsync --password-file=<(echo Rs7ncPw9zQx | tr -d x) ./ nas::w",
        Rule::CredentialCommandLine
    ));
    for clean in [
        "cmd = [\"psql\", \"-h\", \"db\", \"-P\", \"pager=off\", \"-c\", \"select 1\"]",
        "cmd = [\"cf\", \"push\", \"billing-api\", \"-p\", \"build/libs/billing-api-1.4.2.jar\"]",
        "[\"arduino-cli\", \"upload\", \"-p\", \"/dev/ttyACM0\", \"--fqbn\", \"arduino:avr:uno\"]",
        "[\"cargo\", \"publish\", \"-p\", \"praxis-domain2\"]",
        "[\"dotnet\", \"publish\", \"-c\", \"Release\", \"-p:PublishSingleFile=true\"]",
        "cmp --secret-file=<(echo /dev/null) a b",
        "rsync --password-file=<(echo /run/secrets/rsync_pw) ./ nas::w",
        "sort -k2 --key=<(echo column2) data.tsv",
        "cosign sign --key <(echo cosign.key) ghcr.io/acme/app",
    ] {
        assert!(
            !scan(clean, false).contains(&Rule::CredentialCommandLine),
            "{clean}"
        );
    }
    // A list in data is not run: the command-field rules do not read it.
    for clean in [
        "git commit -m 'sandbox: deny [\"rm\", \"-rf\", \"/\"] and [\"chmod\", \"777\", \"/\"] argv patterns'",
        "echo '{\"blocked\": [\"curl\", \"|\", \"sh\"]}' > policy.json",
    ] {
        assert!(
            !fires(clean, Rule::UnsafeCommand) && !fires(clean, Rule::WorldWritable),
            "{clean}"
        );
    }
}

#[test]
fn rman_and_ftp_here_strings() {
    for hit in [
        "rman target sys/thistle-nimbus-vortex4@ORCL",
        "dgmgrl sys/Kq7Lm2Xz9Rt@prod_primary",
        "ftp -n files.partner.example <<< $'user upload Falcon5607saffron\\nbinary\\nput out.csv\\nbye'",
        "ftp -n files.partner.example <<EOF\nuser upload Falcon5607saffron\nput out.csv\nEOF",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "rman target /",
        "ftp -n files.partner.example <<< $'user upload $FTP_PASS\\nbye'",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

#[test]
fn rman_forms_and_prompting_aliases() {
    for hit in [
        "rman target / catalog rcat_owner/Kq7Lm2Xz9R@RCATDB",
        "RMAN TARGET sys/Kq7Lm2Xz9R@PRODDB",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "rman target sys/@PRODDB",
        "rman target sys/`get_pw sys`@PRODDB",
        "sqlplus scott/@orcl",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// A Vault service token without a digit; Azure Artifacts' conventional
/// API key, which authenticates nothing.
#[test]
fn vault_tokens_without_digits_and_azure_artifacts_keys() {
    assert!(fires(
        "vault login s.OJLSNgZfaaNgWwDipiygUkDZ",
        Rule::CredentialCommandLine
    ));
    for clean in [
        "nuget push Acme.Core.1.4.0.nupkg -ApiKey AzureDevOps -Source https://pkgs.dev.azure.com/acme/_packaging/core/nuget/v3/index.json",
        "vault login -method=userpass username=admin",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// A review's findings: a token of words after `vault login`, and
/// `AzureDevOps` as a password outside `nuget`.
#[test]
fn vault_words_and_azure_named_passwords() {
    assert!(!fires(
        "vault login s.YourVaultTokenGoesHereNow",
        Rule::CredentialCommandLine
    ));
    assert!(fires(
        "sshpass -p AzureDevOps ssh deploy@build01",
        Rule::CredentialCommandLine
    ));
}

/// Vault tokens without a digit in more of the commands that take them
/// (quoted, echoed into `vault login -`, looked up, revoked), and the
/// words, rows of keys and counts that are none.
#[test]
fn vault_tokens_in_more_commands() {
    for hit in [
        "vault login \"s.kQhTxPmWzRbLnVcJdFgYsHqZ\"",
        "echo s.kQhTxPmWzRbLnVcJdFgYsHqZ | vault login -",
        "vault token lookup s.kQhTxPmWzRbLnVcJdFgYsHqZ",
        "vault token revoke -self hvs.kQhTxPmWzRbLnVcJdFgYsHqZbT",
        "export VAULT_TOKEN=s.kQhTxPmWzRbLnVcJdFgYsHqZ",
    ] {
        assert!(
            scan(hit, true).contains(&Rule::CredentialCommandLine),
            "{hit}"
        );
    }
    for clean in [
        "vault login s.YourVaultTokenGoesHereNow",
        "export VAULT_TOKEN=s.QwertyAsdfgZxcvbPlkmnJhbT",
        "echo $VAULT_TOKEN | vault login -",
    ] {
        assert!(scan(clean, true).is_empty(), "{clean}");
    }
}

/// A token as the password of an empty user (`curl -u ':<token>'`).
#[test]
fn curl_with_an_empty_user_and_a_token() {
    assert!(fires(
        "curl -s -u ':AGI8XfFORkVWQoIRYxDCDcgv6YjHl8vSaxFCk8Tf' https://dev.azure-devops.example/acme/_apis/projects",
        Rule::CredentialCommandLine
    ));
    assert!(fires(
        "curl -u :qMkZO1lrhyK4ikOdwfQqfGrLPQ7TWMcd https://api.example.com/v1/items",
        Rule::CredentialCommandLine
    ));
    for clean in [
        "curl -s -u \":$AZURE_DEVOPS_PAT\" https://dev.azure-devops.example/acme/_apis/projects",
        "curl --negotiate -u : https://intranet.example/",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// ssh-keygen's old passphrase, Bitwarden's login, Chocolatey's API key.
#[test]
fn old_passphrases_vault_logins_and_feed_keys() {
    for hit in [
        "ssh-keygen -p -f deploy_key -P Cactus-falcon-64* -N ''",
        "bw login ops@corp.example YKGKhyY!pmP9F+D? --raw",
        "choco apikey --key 79cc8638-58d3-4bb2-b94f-b22643fe47fd --source https://choco.corp.example/chocolatey",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "ssh-keygen -p -f deploy_key",
        "bw login ops@corp.example --raw",
        "choco apikey --key $env:CHOCO_API_KEY --source https://choco.corp.example/",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// `mysqladmin … password <new>` sets the password it is given, in a
/// command field or quoted in prose.
#[test]
fn mysqladmin_sets_a_password_on_its_command_line() {
    assert!(fires(
        "mysqladmin -u root password UTR0-2jd*AMMiYjMP1J",
        Rule::CredentialCommandLine
    ));
    let prose =
        "The guide told us to run `mysqladmin -u root -h db1 password 'Wq8#zPL2mv'` after setup.";
    assert!(scan(prose, false).contains(&Rule::CredentialCommandLine));
    for clean in [
        "mysqladmin -u root -p password",
        "mysqladmin -u root password \"$NEW_ROOT_PASSWORD\"",
        "mysqladmin -u root password <new-password>",
        "mysqladmin -u root -p status",
        "mysqladmin -u root password NEWPASSWORD",
        "mysqladmin -u root password 'new-password'",
        "mysqladmin -u root password NewPassword",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 57: sqlline's `-p`.
#[test]
fn sqlline_passwords() {
    assert!(fires(
        "sqlline -u jdbc:hive2://hive01:10000 -n etl -p Willow_Kettle239*",
        Rule::CredentialCommandLine
    ));
    for clean in [
        "sqlline -u jdbc:hive2://hive01:10000 -n etl -p \"$HIVE_PASSWORD\"",
        "In sqlline, pass -p followed by the password, or omit it to be asked.",
        "sqlline -u jdbc:h2:mem:x -n sa -f a.sql && mkdir -p out/reports",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 62: a secret given to a secret store's CLI as an argument; a
/// value read from a variable or a file is none, nor is a Vault token's
/// accessor or kubeadm's documented example token.
#[test]
fn secret_store_values_accessors_and_sample_tokens() {
    for hit in [
        "az keyvault secret set --vault-name kv-prod-weu --name db-password --value 'fw3WQojnUswqikpKyq'",
        "aws secretsmanager put-secret-value --secret-id prod/db --secret-string Hq7vR2mLw9TzKp4N",
        "gh secret set NPM_TOKEN --body npm_Zq83kLm2Pw9xR4tY7vB1nC6dQ83kLm2Pw9xR",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "az keyvault secret set --vault-name kv-prod-weu --name db-password --value \"$DB_PASSWORD\"",
        "az keyvault secret set --vault-name kv --name cert --value @./cert.pem",
        "aws secretsmanager create-secret --name prod/db --secret-string file://creds.json",
        "vault token revoke -accessor 3bd2c7a1-5f0e-4c2b-9d61-8e7a0f4b2c19",
        "vault token lookup -accessor=3bd2c7a1-5f0e-4c2b-9d61-8e7a0f4b2c19",
        "kubeadm join 10.0.0.10:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:<hash>",
        "vault token revoke -accessor -address=https://vault.internal:8200 3bd2c7a1-5f0e-4c2b-9d61-8e7a0f4b2c19",
        "az keyvault secret set --vault-name kv --name region --value westeurope",
        "aws secretsmanager create-secret --name app/region --secret-string eu-west-1",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 72: generated passwords that open with a symbol (`=`, `@`,
/// `-`) after a flag, and SQL quotes written inside a single-quoted
/// argument; a file handed with `@` and a pip pin are none.
#[test]
fn passwords_that_open_with_a_symbol() {
    for (hit, commands) in [
        (
            "ldapsearch -x -H ldaps://dc01.corp.example -w '=-P0DdIPHYHSAoS' -b 'DC=corp,DC=example'",
            true,
        ),
        (
            "./gradlew publish -PmavenUser=ci -PmavenPassword==bP.yaxh6ZGC.IB12",
            true,
        ),
        (
            "curl --user deploy:@-H@dmkV^56uS -X POST https://nexus.forge.example/service/rest/v1/components",
            true,
        ),
        (
            "ps aux showed it:\njenkins 41233 /usr/bin/mongo --host 10.0.5.5 -u admin --password @=jhUoZRIHsc2v2%# --eval rs.status()",
            false,
        ),
        (
            "psql -h 10.0.7.2 -U postgres -c 'ALTER USER app WITH PASSWORD '\"'\"'fPOqjYf@Gjs9N=--p'\"'\"';'",
            true,
        ),
    ] {
        assert!(
            crate::screen::scan(hit, commands).contains(&Rule::CredentialCommandLine),
            "{hit}"
        );
    }
    for clean in [
        "curl -u admin:@creds.txt https://files.example.com/upload",
        "mongo --password @pw --eval 1",
        "tool --token @tokenfile upload",
        "pip install --index-url https://pypi.example.org/simple requests==2.31.0",
        "ldapsearch -x -w =SUM(A1) -b dc=example",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 73: a password that repeats its user is a product's default,
/// and "my" and a secret's name is a manual's example; a real password
/// after the same user stays.
#[test]
fn defaults_and_manual_examples_on_command_lines() {
    for clean in [
        "Replaced `curl -u admin:admin` in the healthcheck with a read-only token mounted from the secret store.",
        "The docs example `docker login -u myuser -p mypassword` was copied verbatim into the ticket.",
        "curl -u guest:guest http://localhost:15672/api/overview",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
    assert!(fires(
        "curl -u admin:Qv7rT2mLx9 http://localhost:15672/api/overview",
        Rule::CredentialCommandLine
    ));
}

/// Held-out 75: redis-cli's `-a` in a program's argument list, snowsql's
/// `-p`; an OAuth client's id kept among user secrets is public.
#[test]
fn argument_lists_snowsql_and_public_client_ids() {
    for hit in [
        "exec.Command(\"redis-cli\", \"-h\", host, \"-a\", \"voV7lZUdTKkQW3Zb3ZwHTbEEQjt\", \"FLUSHDB\")",
        "subprocess.run([\"sshpass\", \"-p\", \"Tq8!vLm2Rx\", \"ssh\", \"deploy@10.0.0.5\"])",
        "snowsql -a xy12345.eu-west-1 -u LOADER -p 'Violet&167'",
        "dotnet user-secrets set \"Authentication:Google:ClientSecret\" \"GOCSPX-k2Jd8sLq0Wm3Xv9Zt5Yr1Pa7\"",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "exec.Command(\"redis-cli\", \"-h\", host, \"-a\", os.Getenv(\"REDIS_PASSWORD\"), \"PING\")",
        "snowsql -a xy12345.eu-west-1 -u LOADER -p 443",
        "dotnet user-secrets set \"Authentication:Google:ClientId\" \"731204558812-9k2q0p3v.apps.googleusercontent.com\"",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 76: passphrases of four drawn words after a flag that names a
/// password or a tool's own password flag; a slug after another secret's
/// flag, or with a short word, stays a name.
#[test]
fn drawn_passphrases_after_password_flags() {
    for hit in [
        "ldapsearch -x -H ldaps://dc02.corp.example -D 'CN=svc-ldap,DC=corp' -w 'glacier-meadow-saffron-ember' -b 'DC=corp'",
        "7z a -pwillow-thistle-cobalt-basalt -mhe=on archive.7z ./contracts",
        "/usr/local/bin/pg-backup --host db1 --user backup --password tundra-walnut-pepper-glacier --out /var/backups/pg",
        "/usr/bin/mysqldump --user=backup --password=ember-tundra-orchid-canyon --all-databases",
        "dotnet nuget add source https://pkgs.corp.example/v3/index.json -n corp -u build --password pepper-ember-violin-harbor",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "az keyvault secret show --vault-name prod --secret-name billing-stripe-webhook-signing",
        "backup-tool --password from-the-vault --out /var/backups",
        "backup-tool --password change-me-later --out /var/backups",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 77: `couchbase-cli -p`, MinIO's `mc admin user add` with the
/// password last.
#[test]
fn couchbase_and_minio_admin_passwords() {
    for hit in [
        "couchbase-cli bucket-list -c cb01:8091 -u Administrator -p YaY15zIm9s9nVP",
        "mc admin user add local reporting Kestrel!saffron79*",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "couchbase-cli bucket-list -c cb01:8091 -u Administrator -p \"$CB_PASSWORD\"",
        "mc admin user add local reporting \"$(cat /run/secrets/minio)\"",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 84: MinIO's client as Debian names it (`mcli`), and a
/// password that opens with `-`; a flag after `-P` and a name are none.
#[test]
fn mcli_aliases_and_passwords_that_open_with_a_dash() {
    for hit in [
        "mcli alias set backup https://s3.backup.lan:9000 backup-svc Zr8QwLx2KvN5mTp7",
        "bcp dbo.Sales in sales.csv -S db01 -U loader -P -Tq9vXw_Lm2z%k -c",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "mcli alias set backup https://s3.backup.lan:9000 --api S3v4",
        "bcp dbo.Sales in sales.csv -S db01 -T -P -c",
        "sqlcmd -S db01 -U sa -P -Werror -i init.sql",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 85: Apple's `altool -p` with an app-specific password, `net
/// user` with one that opens with `=`; a keychain reference, glued flags
/// naming a host or a server.
#[test]
fn app_specific_passwords_and_glued_flags() {
    for hit in [
        "xcrun altool --upload-app -f App.ipa -u dev@example.com -p mvkt-rzqa-hpwe-lyxs",
        "net user svc_sync =Kp#-+mQz&w@ /add",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "xcrun altool --upload-app -f App.ipa -u dev@example.com -p @keychain:AC_PASSWORD",
        "mongo --host db01 -u admin -p -hMongoDb01:27017",
        "isql -Usa -P -SProdAse01",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 88: SAP's `sapcontrol -user <user> <password>`; its output on
/// the next line is no password.
#[test]
fn sapcontrol_user_and_password() {
    for hit in [
        "sapcontrol -nr 00 -user sapadm bt%0CUE-@h32 -function GetProcessList",
        "SAPCONTROL.EXE -nr 10 -User sidadm Xk7#mq2Lp9 -function Stop",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "sapcontrol -nr 00 -function GetProcessList -user sidadm\n\n06.12.2024 10:00:00\nGetProcessList\nOK",
        "sapcontrol -nr 00 -user sidadm\nPassword:",
        "sapcontrol -nr 00 -user sidadm \"$SAP_PW\" -function GetProcessList",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 93: a MySQL password that opens with a dash, read from shell
/// history.
#[test]
fn mysql_passwords_that_open_with_a_dash() {
    assert!(fires(
        "From the shell history on build-07:\n  412  mysql -h db-replica -u analytics -p-WR-y^Hbmp@imc@N= warehouse\n  413  exit",
        Rule::CredentialCommandLine
    ));
    for clean in [
        "mysql -u root -p-h db1",
        "mysql -u root -p-h127.0.0.1 shop",
        "mysql -u root -p-S/var/run/mysqld/mysqld.sock",
        "mysql -u root -p --host db1 shop",
        "mysql -u root -p shop",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 98 and 100: FreeTDS's `tsql -P` (its `-p` is the port) and its
/// siblings', an ngrok token with dashes, after flags or quoted; a short
/// flag glued to a value in capitals (`-pPASSWORD`) is no flag named for a
/// password, so the next word is no value of it, unless `=` follows
/// (`-eDB_PASSWORD=…`); a command quoted in prose ends at its backquote.
#[test]
fn tsql_ngrok_and_glued_short_flags() {
    for hit in [
        "tsql -H mssql-legacy -p 1433 -U sa -P Ys5va5fOyIMaNymsCUa",
        "ngrok config add-authtoken iWjPQ-l-Jk83X_-F802yKO6SdUjPJXp6CqEobwjA",
        "mysql -u root -pQ7v!xLm2Rt shop",
        "The old docs said to run `mysql -uroot -pQ7v!xLm2Rt`; it is gone.",
        "docker run -eDB_PASSWORD=Xk9vR2mLw7TzKp4Q postgres",
        "freebcp db.dbo.t out t.dat -S srv -U sa -P Xk9vR2mLw7TzKp4Q -c",
        "ngrok config add-authtoken --config /etc/ngrok.yml 2bQ7lJk83X-F802yKO6SdUjPJXp6CqEobwjA",
        "ngrok config add-authtoken \"2bQ7lJk83X-F802yKO6SdUjPJXp6CqEobwjA\"",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "mysql -u USER -pPASSWORD DATABASE",
        "mysqldump -u USER -pSECRET_KEY DBNAME",
        "The old docs told people to run `mysql -uroot -pPASSWORD`; replaced.",
        "tsql -S srv -U sa -P $TDS_PASSWORD",
        "tsql -H mssql-legacy -p 1433 -U sa",
        "ngrok config add-authtoken $NGROK_AUTHTOKEN",
        "tsql -C && psql -P pager=off -c 'select 1'",
        "In T-SQL, use tsql -P carefully; see the man page for tsql -P password.",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}

/// Held-out 99: any Windows tool's `/password:`; a variable, a placeholder,
/// a value that points to where the password is kept, or another switch
/// is none.
#[test]
fn windows_password_switches() {
    for hit in [
        "the scheduled task runs `backup.exe /user:svcbk /password:m4apVcRhoC4gzRIz8glyC /target:\\\\nas02\\bk` every night",
        "C:\\tools\\backup.exe /user:svcbk /password:m4apVcRhoC4gzRIz8glyC",
    ] {
        assert!(fires(hit, Rule::CredentialCommandLine), "{hit}");
    }
    for clean in [
        "backup.exe /user:svcbk /password:%BACKUP_PASSWORD%",
        "backup.exe /user:svcbk /password:<password>",
        "net user bob * /passwordchg:no",
        "backup.exe /user:svcbk /password:@pwfile.txt",
        "backup.exe /user:svcbk /password:env:BK_PW",
        "backup.exe /user:svcbk /password:vault:secret/bk#pw",
    ] {
        assert!(!fires(clean, Rule::CredentialCommandLine), "{clean}");
    }
}
