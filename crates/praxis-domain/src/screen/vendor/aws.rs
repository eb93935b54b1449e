//! AWS's credentials: access key ids (whole, read out in groups, in a
//! presigned URL), secret access keys after their names, in a column
//! named for them or near the word "secret" in a text about AWS, session
//! and STS tokens.

use super::super::pattern::{Found, contains_ignoring_case, groups, lazy_regex, tokens};
use super::super::table;
use super::super::value::{counts_up, distinct_chars, has_digit, mixed_case, random_like, wordy};

lazy_regex!(AWS_KEY_ID, r"\b(?:AKIA|ASIA|ABIA|ACCA)([A-Z0-9]{16})\b");
lazy_regex!(
    /// An access key id read out in groups of four (`AKIA SLK2 BD26 …`).
    AWS_KEY_ID_GROUPED,
    r"\b(?:AKIA|ASIA)((?:[ -][A-Z0-9]{4}){4})\b"
);
lazy_regex!(
    /// A secret access key after its name: assigned, handed over with it
    /// in a call (`setdefault("AWS_SECRET_ACCESS_KEY", "…")`), printed by
    /// a notebook (`os.environ['…']` and `Out[3]: '…'`), piped or said
    /// ("… key for the backup user: …"), or as the text a history rewrite
    /// replaces (`git filter-repo --replace-text`'s and BFG's `old==>new`).
    AWS_SECRET,
    r#"(?i)secret[_ -]?access[_ -]?key\\?["']?\]?(?:\s*\([^)\n]{0,60}\))?(?:\s*(?::|=>|=|,)\s*|[ \t]*\r?\n(?-i:Out)\[\d+\]:[ \t]*|\s*,?\s*-?\s*\\?["']?value\\?["']?\s*(?::|=)\s*|(?:\s|\\\r?\n)+|[^\n]{0,40}?(?:--body|\s-b|--value|--data|--secret-string|<<<)\s*)\\?["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$|==>)|\b(?:echo|printf)\s+["']?([A-Za-z0-9/+=]{40})["']?\s*\|\s*(?:aws\s+configure\s+set\s+aws_secret_access_key\b|[^\n|;]*?\bs3\.client\.\S*secret_key\b)|secret[_ -]?access[_ -]?key\b(?:[^\n]{0,30}?\s(?:was|is)\s+|[^\n:=]{0,60}?:[ \t]*)["'`]?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$|==>)"#
);
lazy_regex!(
    /// An STS session token by its fixed opening (the base64 of its
    /// protobuf header), wherever it is printed.
    AWS_STS_TOKEN,
    r"\b(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE|FQoGZXIvYXdzE)[A-Za-z0-9+/=]{60,}"
);
lazy_regex!(
    AWS_SESSION,
    r#"(?i)(?:aws[_-]?session[_-]?token|\bsessiontoken|\bx-amz-security-token)\\?["']?(?:\s*(?::|=>|=)\s*|\s*,?\s*-?\s*\\?["']?value\\?["']?\s*(?::|=)\s*|\s+)\\?["']?([A-Za-z0-9/+=]{40,})"#
);
lazy_regex!(
    /// The key id of a presigned URL's `X-Amz-Credential`, or of a
    /// Signature Version 4 `Authorization` header's `Credential`.
    AWS_PRESIGNED_KEY_ID,
    r"(?i:x-amz-credential|aws4-(?:hmac-sha256|ecdsa-p256-sha256)\s+credential)\s*=\s*((?:AKIA|ASIA)[A-Z0-9]{16})(?:%2F|/)"
);
lazy_regex!(
    /// A secret key handed to an SDK's static-credentials constructor.
    AWS_CONSTRUCTOR,
    r#"\b(?:NewStaticCredentials(?:Provider)?|BasicAWSCredentials|BasicSessionCredentials|AWS\.Credentials|AwsBasicCredentials\.create|AwsSessionCredentials\.create)\(\s*(?:[^,()]|\([^()]*\))+,\s*["']([A-Za-z0-9/+=]{40})["']"#
);
lazy_regex!(
    /// `secret_key` or `aws_secret` in a text about S3 (s3cmd's `.s3cfg`,
    /// boto, Terraform's `TF_VAR_aws_secret_key`), also given as an argument
    /// (`pulumi config set aws:secretKey …`) or on a here-string
    /// (`elasticsearch-keystore add … secret_key <<< '…'`), "the secret …"
    /// ("the secret for the uploader user is …") beside an S3 error or
    /// AWS's names, and Hadoop's S3A property (in its XML, or set through
    /// Spark's `conf.set(…, …)`, `spark-defaults.conf` or a `-D…=` flag,
    /// also a bucket's own `fs.s3a.bucket.<name>.secret.key`).
    AWS_S3_SECRET,
    r#"(?i)(?:\bsecret[_-]?key|(?:\b|_)aws[_ -]?secret(?:[_ -]?key)?)\\?["']?(?:\s*[:=]\s*|\s*<<<\s*|\s+(?:--?[\w-]+\s+)*)\\?["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)|\bthe\s+secret(?:\s+key)?(?:\s+(?:for|of)\s+[^\n:]{1,40}?\s+(?:is|was)\s*:?)?\s+["'`]?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)|\bfs\.s3[an]?\.(?:secret\.key|awsSecretAccessKey)\s*</name>\s*<value>\s*([A-Za-z0-9/+=]{40})<|\bfs\.s3[an]?\.(?:bucket\.[\w.-]+?\.)?(?:secret\.key|awsSecretAccessKey)["']?(?:\s*(?:[:=,]|=>)\s*|[ \t]+)["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#
);
lazy_regex!(
    /// A secret key named in words of other languages ("a chave secreta
    /// da AWS …", "la clé secrète …"), or as the value beside a
    /// `"key": "aws_secret"` entry.
    AWS_SECRET_NAMED,
    r#"(?i)(?:\b(?:chave|clave)\s+secreta|\bcl[ée]\s+secr[èe]te|\bchiave\s+segreta|\bgeheime[rn]?\s+schl[üu]ssel|\baws_secret(?:_access)?(?:_key)?["']\s*,\s*["']value["']\s*:)[^\n]{0,30}?[\s"'`(]([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)"#
);
lazy_regex!(
    /// A CloudFormation parameter named for a secret whose `Default:`
    /// holds the value (`UploaderSecret:` … `Default: …`), a few of the
    /// parameter's own lines between.
    CLOUDFORMATION_DEFAULT,
    r#"(?i)\b\w*secret\w*:[ \t]*\r?\n(?:[ \t]+\w+:[^\n]*\r?\n){0,4}?[ \t]+Default:[ \t]*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#
);
lazy_regex!(
    /// Forty characters of a secret key's alphabet within a line of the
    /// word "secret", before it ("the secret had a trailing newline: '…'",
    /// `AWS_SECRET_ACCESS_KEY set to …`) or after it ("… -- that's the
    /// secret access key", `| docker secret create aws_secret_key -`):
    /// read only beside AWS's names, judged by [`aws_secret_near`].
    AWS_SECRET_NEAR,
    r#"(?i)secret[^\n]{0,100}?[\s"'`:=]([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)|(?:^|[\s"'`:=])([A-Za-z0-9/+]{40})[^A-Za-z0-9/+=\n][^\n]{0,60}?secret[_\s-]?(?:access[_\s-]?)?key\b"#
);
lazy_regex!(
    /// A secret key under a bare `secret` or `secret_key` (Laravel's
    /// `'secret' => …`, PHP's `$config['secret'] = …`, an `.s3cfg` without
    /// AWS's name in view): taken in AWS's own shape only, judged by
    /// [`aws_shape`].
    AWS_SECRET_BARE,
    r#"(?i)(?:\bsecret_?key|["']secret["']\]?)\s*(?:[:=]|=>)\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#
);
lazy_regex!(
    /// Words that place a text in AWS: its hosts, names and errors, or
    /// its "access key id".
    AWS_CONTEXT,
    r"(?i)amazonaws|\baws\b|aws_|s3cmd|\bboto|\bs3\b|\bs3a\.|SignatureDoesNotMatch|InvalidAccessKeyId|\bListBuckets\b|(?-i:\bIAM\b)|\baccess[ _-]key[ _-]id\b"
);

lazy_regex!(
    /// Words that make an id a key id however it reads: a flag or a
    /// setting for an access key, a credentials file or command, an AWS
    /// host beside it (SES's SMTP relay and its `AKIA…:…` login).
    AWS_KEY_CONTEXT,
    r"(?i)--key\b|--access-key|access[_ -]?key|aws_access_key_id|credentials|amazonaws\.com"
);

lazy_regex!(
    /// Forty characters of base64 on their own: a secret access key's shape.
    AWS_SECRET_SHAPE,
    r"(?:^|[^A-Za-z0-9/+])([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"
);

/// Whether capitals with no digit read as words rather than a generated
/// id (`ASIA` + `PACIFICSOUTHEAST`): an id's base32 letters are vowels
/// about one time in six, words' one time in three or more; a text that
/// sets a key id, or holds a secret key's shape beside it, takes it
/// whatever it spells.
fn spelled_in_words(body: &str) -> bool {
    let vowels = body.bytes().filter(|b| b"AEIOU".contains(b)).count();
    !has_digit(body) && vowels * 10 >= body.len() * 3
}

/// AWS's access key ids, secret access keys and session tokens.
pub(in crate::screen) fn aws<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let mut found = Found::new(stands);
    found.stage(|| {
        tokens(Some(&AWS_KEY_ID), text, |b| {
            !b.contains("EXAMPLE")
                && distinct_chars(b) >= 6
                && (!spelled_in_words(b)
                    || AWS_KEY_CONTEXT.is_match(text)
                    || AWS_SECRET_SHAPE
                        .captures_iter(text)
                        .any(|c| random_like(&c[1], 40) && mixed_case(&c[1])))
        })
    });
    // A presigned URL's or a signed request's credential names a real key
    // id, however it reads.
    found.stage(|| {
        groups(Some(&AWS_PRESIGNED_KEY_ID), text, |b| {
            !b.contains("EXAMPLE") && distinct_chars(b) >= 6
        })
    });
    // Read out in groups, the id's prefix stands before a space or a dash.
    let grouped = [b"AKIA ", b"ASIA ", b"AKIA-", b"ASIA-"]
        .iter()
        .any(|p| memchr::memmem::find(text.as_bytes(), *p).is_some());
    if grouped {
        found.stage(|| {
            tokens(Some(&AWS_KEY_ID_GROUPED), text, |b| {
                distinct_chars(b) >= 8 && has_digit(b)
            })
        });
    }
    // Forty hex digits are a SHA-1 (a commit, a fingerprint), never a key.
    found.stage(|| {
        groups(Some(&AWS_SECRET), text, |b| {
            random_like(b, 40)
                && distinct_chars(b) >= 12
                && !b.bytes().all(|c| c.is_ascii_hexdigit())
        })
    });
    found.stage(|| groups(Some(&AWS_SESSION), text, |b| random_like(b, 40)));
    found.stage(|| AWS_STS_TOKEN.find_iter(text).map(|m| m.range()));
    found.stage(|| {
        groups(Some(&AWS_CONSTRUCTOR), text, |b| {
            random_like(b, 40) && distinct_chars(b) >= 12
        })
    });
    // Forty hex digits are a SHA-1 (a commit), never a key.
    found.stage(|| {
        groups(Some(&AWS_SECRET_NAMED), text, |b| {
            random_like(b, 40)
                && distinct_chars(b) >= 12
                && has_digit(b)
                && !b.bytes().all(|c| c.is_ascii_hexdigit())
        })
    });
    // The console's credentials file, or a table, with a column for the
    // secret key.
    found.stage(|| {
        table::cells(text, &["secret"], |name| {
            let name = name.to_ascii_lowercase().replace(['_', '-'], "");
            (name.contains("secretaccesskey") || name.contains("awssecret")).then_some(())
        })
        .into_iter()
        .filter(|cell| {
            cell.value.len() == 40
                && cell
                    .value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'+'))
                && aws_secret_near(cell.value)
        })
        .map(|cell| cell.span)
    });
    if contains_ignoring_case(text, "secret") {
        found.stage(|| groups(Some(&AWS_SECRET_BARE), text, aws_shape));
        if contains_ignoring_case(text, "default:") {
            found.stage(|| groups(Some(&CLOUDFORMATION_DEFAULT), text, aws_shape));
        }
    }
    if AWS_CONTEXT.is_match(text) {
        found.stage(|| {
            groups(Some(&AWS_S3_SECRET), text, |b| {
                random_like(b, 40) && distinct_chars(b) >= 12
            })
        });
        // The rule's own door words, so that ungated runs agree.
        let near = [
            "access",
            "secret_key",
            "aws_secret",
            "signaturedoesnotmatch",
        ]
        .iter()
        .any(|w| contains_ignoring_case(text, w));
        if near {
            found.stage(|| groups(Some(&AWS_SECRET_NEAR), text, aws_secret_near));
        }
    }
    found
}

/// Whether 40 characters are a secret key by their shape alone: as
/// [`aws_secret_near`], with a `/` or a `+` of base64 (about three keys in
/// four hold one; a hex or base64url secret of that length holds none).
fn aws_shape(b: &str) -> bool {
    aws_secret_near(b) && b.contains(['/', '+'])
}

/// Whether 40 characters near the word "secret" are a secret key: mixed
/// case and digits, random, not hex (a SHA-1) and no words.
fn aws_secret_near(b: &str) -> bool {
    random_like(b, 40)
        && distinct_chars(b) >= 12
        && has_digit(b)
        && mixed_case(b)
        && !b.bytes().all(|c| c.is_ascii_hexdigit())
        && !wordy(b)
        && !counts_up(b)
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Held-out 75: "AWS secret" written with a space.
    #[test]
    fn a_secret_named_in_words() {
        assert!(fires(
            "AWS secret: H0JtNp3m1+T0wl2dzTwuY6DWd4IB+90GJ9i51N3+",
            Rule::CredentialAws
        ));
        assert!(!fires(
            "AWS secret: kept in the ci/aws-deploy entry of the vault",
            Rule::CredentialAws
        ));
    }

    /// Held-out 77: "the secret key for that user is …" beside an "access
    /// key id".
    #[test]
    fn a_secret_beside_an_access_key_id() {
        assert!(fires(
            "the secret key for that user is Lp/yhWnN7HNunuWbCmJ4kabcBah1qlLcPi/fVtCp (access key id ends in the same as the CSV's)",
            Rule::CredentialAws
        ));
        assert!(!fires(
            "the secret key for that user is in the CSV; the access key id ends in 7QXA",
            Rule::CredentialAws
        ));
    }

    /// Held-out 81: French "la clé secrète AWS (…)", a CloudFormation
    /// parameter's default under a name for a secret.
    #[test]
    fn a_secret_in_parentheses_and_a_parameter_default() {
        for hit in [
            "La clé secrète AWS (gQ/IOxZLWiiIr54LvEQl8UYmcBYKt05ac6gLJSG2) était codée en dur dans le script de sauvegarde.",
            "Parameters:\n  UploaderSecret:\n    Type: String\n    Default: RqVF918dMd/5yiQhWKzHtuypQz8JFlIIc16k+gkX\n    NoEcho: true",
        ] {
            assert!(fires(hit, Rule::CredentialAws), "{hit}");
        }
        for clean in [
            "La clé secrète AWS (celle du compte de sauvegarde) était codée en dur dans le script.",
            "La clé secrète a été retirée (commit 9fceb02d0ae598e95dc970b74767f19372d61af8).",
            "Parameters:\n  UploaderSecret:\n    Type: String\n    NoEcho: true\n    Default: ''",
            "Parameters:\n  UploaderSecretArn:\n    Type: String\n    Default: arn:aws:secretsmanager:eu-west-1:123456789012:secret:uploader",
        ] {
            assert!(!fires(clean, Rule::CredentialAws), "{clean}");
        }
    }

    /// Held-out 78: "the secret for the uploader IAM user is …".
    #[test]
    fn the_secret_for_a_user() {
        assert!(fires(
            "<kofi> the secret for the uploader IAM user is jOfPQ56iPGsgL15sek43coRZ+KbV32Telp7h/28u, key id as usual",
            Rule::CredentialAws
        ));
        assert!(!fires(
            "<kofi> the secret for the uploader IAM user is in the team vault",
            Rule::CredentialAws
        ));
    }

    /// Held-out 98: a secret key as the text a history rewrite replaces
    /// (`old==>new`); the replacement alone is none.
    #[test]
    fn a_key_in_a_replacement_rule() {
        assert!(fires(
            "git filter-repo --replace-text <(printf 'aws_secret_access_key = qIYcvHtQn7A4bARJxSsytbqAZHTe5kvouxkRNtQS==>aws_secret_access_key = REMOVED\\n')",
            Rule::CredentialAws
        ));
        assert!(fires(
            "The secret access key is qIYcvHtQn7A4bARJxSsytbqAZHTe5kvouxkRNtQS==>rotated",
            Rule::CredentialAws
        ));
        let clean = "git filter-repo --replace-text <(printf 'aws_secret_access_key = REMOVED==>aws_secret_access_key = ***\\n')";
        assert!(!fires(clean, Rule::CredentialAws));
        assert!(!fires(clean, Rule::CredentialAssignment));
    }

    /// Held-out 103: a Signature Version 4 header names its key id after
    /// `Credential=`, however the id reads; AWS's documented example id
    /// stays clean.
    #[test]
    fn a_signed_requests_key_id() {
        for hit in [
            "Authorization: AWS4-HMAC-SHA256 Credential=AKIAKTOEIXUGJXJCHOAX/20250412/eu-west-1/sqs/aws4_request, SignedHeaders=host;x-amz-date",
            "Authorization: AWS4-HMAC-SHA256 Credential = AKIAKTOEIXUGJXJCHOAX/20250412/eu-west-1/s3/aws4_request",
            "AWS4-ECDSA-P256-SHA256 Credential=AKIAKTOEIXUGJXJCHOAX/20250412/s3/aws4_request",
        ] {
            assert!(fires(hit, Rule::CredentialAws), "{hit}");
        }
        assert!(!fires(
            "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-date",
            Rule::CredentialAws
        ));
    }

    /// Hadoop's S3A secret key set in code or a flag, not only in its XML;
    /// a variable or a secret scope's lookup holds no key.
    #[test]
    fn an_s3a_secret_key_set_in_code() {
        for hit in [
            "spark.conf.set(\"spark.hadoop.fs.s3a.secret.key\", \"sWcor13vfapy9xoCzJZqYkbtR0Exf2El/lq6aw30\")",
            "spark-submit --conf spark.hadoop.fs.s3a.secret.key=sWcor13vfapy9xoCzJZqYkbtR0Exf2El/lq6aw30 job.py",
        ] {
            assert!(fires(hit, Rule::CredentialAws), "{hit}");
        }
        for clean in [
            "spark.conf.set(\"spark.hadoop.fs.s3a.secret.key\", dbutils.secrets.get(\"etl\", \"s3-secret\"))",
            "spark.hadoop.fs.s3a.secret.key=${AWS_SECRET_ACCESS_KEY}",
        ] {
            assert!(!fires(clean, Rule::CredentialAws), "{clean}");
        }
    }
}
