//! Azure's keys: storage, Functions, Service Bus and Event Hubs, Redis,
//! Cognitive Services and Azure OpenAI, Entra client secrets, SQL
//! connection strings.

use super::super::pattern::{Found, contains_ignoring_case, groups, lazy_regex};
use super::super::value::{
    distinct_chars, has_digit, has_letter, is_placeholder, mixed_case, random_like, word_like,
};

lazy_regex!(
    /// A Functions key in a URL or header, and the keys of storage, Service
    /// Bus and Event Hubs connection strings, a Data Explorer (Kusto)
    /// connection string's application key, an API Management or Cognitive
    /// Services or Maps subscription key (header, query, Speech SDK), an AI
    /// Search `api-key` beside its host, an Azure
    /// OpenAI client's key (or its `api-key` header before the host), a
    /// Stream Analytics input's policy key. A SAS signature (a padded
    /// HMAC in base64) stands alone, after a `&` that opens a line of a
    /// wrapped URL, or after XML's `&amp;`.
    AZURE,
    r#"(?i)\.azurewebsites\.net/[^\s"'<>]*[?&]code=([A-Za-z0-9_%/+=-]{20,})|x-functions-key["']?\s*[:=]\s*["']?([A-Za-z0-9_%/+=-]{20,})|(?:AccountKey|SharedAccessKey|SharedSecretValue)\s*=\s*([A-Za-z0-9+/]{20,}={0,2})|(?:^|[?&"'=\s])sv=\d{4}-\d\d-\d\d&[^\s"'<>]*?\bsig=([A-Za-z0-9%+/=]{20,})|\.azconfig\.io;Id=[^;\s]+;Secret=([A-Za-z0-9+/]{20,}={0,2})|[?&]sig=([A-Za-z0-9%+/=]{20,})[^\s"'<>]*?&sv=\d{4}|(?:--account-key|-StorageAccountKey|--sas-token|-SasToken)(?:\s+|=)["']?([A-Za-z0-9+/=%&?:-]{30,})|\bAccessKey=([A-Za-z0-9+/]{30,}=*)|(?:^|[?&\s"'])code=([A-Za-z0-9_/+-]{40,}==)|\bARM_ACCESS_KEY\s*[=:]\s*["']?([A-Za-z0-9+/]{80,}={0,2})|aeg-sas-key["']?\s*:\s*["']?([A-Za-z0-9+/]{30,}={0,2})|["']code["']\s*:\s*["']([A-Za-z0-9_/+-]{40,}==)|(?:^|[\s"'(?&;])sig=([A-Za-z0-9%+/]{40,}(?:%3D|=))|[?&]sr=[bcdfs]&(?:[^\s"'<>&]+&)*?sig=([A-Za-z0-9%+/]{30,}(?:%3D|=){0,2})|\.redis\.cache\.windows\.net[^\s]*?\bpassword=([^,\s"']{20,})|\.redis\.cache\.windows\.net\b[^\n]*?\s-a\s+["']?([A-Za-z0-9+/]{40,}={0,2})|\bredis-cli\b[^\n]*?\s-a\s+["']?([A-Za-z0-9+/]{40,}={0,2})[^\n]*?\.redis\.cache\.windows\.net|\.kusto\.windows\.net;[^"'\n]*?\bApplication\s+Key=([^;"'\s]{20,})|Ocp-Apim-Subscription-Key["']?\s*[:,]\s*["']?([0-9a-f]{32})\b|[?&]subscription-key=([0-9a-f]{32})\b|atlas\.microsoft\.com/[^\s"'<>]*[?&]subscription-key=([A-Za-z0-9_-]{32,})|\.search\.windows\.net\b[^\n]*?\bapi-key["']?\s*[:=]\s*["']?([A-Za-z0-9]{32,})\b|\bapi-key["']?\s*:\s*["']?([A-Za-z0-9]{32,})\b[^\n]*?\.search\.windows\.net\b|\bFromSubscription\(\s*["']([0-9a-f]{32})["']|\.openai\.azure\.com\b[^\n]*\n?[^\n]*?\bapi[_-]?key["']?\s*[:=]\s*["']([0-9a-f]{32})["']|\bapi-key["']?\s*:\s*["']?([0-9a-f]{32})\b[^\n]*?\.openai\.azure\.com\b|sharedAccessPolicyKey["']?\s*:\s*["']([A-Za-z0-9+/]{40,}={0,2})|\.(?:logic\.azure\.com|azure-api\.net|servicebus\.windows\.net|azure-devices\.net)[^\s"'<>]*[?&]sig=([A-Za-z0-9_%/+=-]{20,})"#
);
lazy_regex!(
    /// The shapes of an AI Search key (52 letters and digits, or the older
    /// 32 hex digits in capitals), taken in a text that names a search
    /// service's host.
    SEARCH_KEY,
    r"(?:^|[^A-Za-z0-9+/_-])([A-Za-z0-9]{52}|[0-9A-F]{32})(?:$|[^A-Za-z0-9+/=_-])"
);
lazy_regex!(
    /// The shape of a storage account key: 64 bytes in base64 (not after
    /// a hyphen: `sha512-…==` is a package's integrity hash).
    STORAGE_KEY,
    r"(?:^|[^A-Za-z0-9+/-])([A-Za-z0-9+/]{86}==)"
);
lazy_regex!(
    /// The shape of a Functions key: 40 bytes in base64 (or base64url, as
    /// newer hosts write them), 54 characters and its padding.
    FUNCTION_KEY,
    r"(?:^|[^A-Za-z0-9+/_-])([A-Za-z0-9+/_-]{54}==)(?:$|[^A-Za-z0-9+/=_-])"
);
lazy_regex!(
    /// A Functions key as newer hosts mint it, with Azure's `AzFu` marker
    /// inside its base64url body and its padding: the marker places it,
    /// so no context is needed.
    MARKED_FUNCTION_KEY,
    r"(?:^|[^A-Za-z0-9+/_-])([A-Za-z0-9_-]{16,60}AzFu[A-Za-z0-9_-]{0,40}==)(?:$|[^A-Za-z0-9+/=_-])"
);
lazy_regex!(
    /// Words that place a Functions key, and Postman's variable named
    /// for its query parameter (`{"key": "code", "value": …}`).
    FUNCTION_CONTEXT,
    r#"(?i)"key"\s*:\s*"code"|\bfunc(?:tion)?s?\b|\bfunc(?:tion)?_\w*key\b|functions?[-_ ]?keys?|function_key|\bfn[-_]?key|functionapp|master[ _]?key|host key|kudu|azure"#
);
lazy_regex!(
    /// A Microsoft Entra application's client secret: three characters, a
    /// digit and `Q~`, then 31 to 34 more (`sWK8Q~W762.Jxim…`).
    ENTRA_SECRET,
    r"(?:^|[^A-Za-z0-9_~.-])([A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})(?:$|[^A-Za-z0-9_~.-])"
);
lazy_regex!(
    /// The access key of an Azure Cache for Redis, as a Redis URL's
    /// password (its base64 may hold `/`).
    AZURE_REDIS_URL,
    r"(?i)\brediss?://[^:@\s/]*:([^@\s]{20,}?)@[\w.-]+\.redis\.cache\.windows\.net\b"
);
lazy_regex!(
    /// A 32-byte access key given to a Redis client as its password (read
    /// only in a text that names Azure Cache for Redis's host), or a Log
    /// Analytics request's `SharedKey <workspace>:<signature>`.
    AZURE_SHORT_KEY,
    r#"(?i)\bpassword\s*[=:]\s*["']([A-Za-z0-9+/]{43}=)["']|\bSharedKey\s+[0-9a-f-]{36}:([A-Za-z0-9+/]{43}=)"#
);
lazy_regex!(
    /// An Azure SQL connection string's password: any value the string
    /// gives, since people choose these (`Password=nimbus+66;`).
    SQL_PASSWORD,
    r#"(?i)\.database\.windows\.net\b[^\n"]*?;\s*(?:Password|Pwd)\s*=\s*([^;"'\s{}!@][^;"'\s]{3,})\s*(?:;|"|'|$)"#
);
lazy_regex!(
    /// Words that place a storage account key (storage in Polish, German,
    /// Spanish, French and Portuguese too), the key listing's columns
    /// (`KeyName  Permissions  Value`, `key1  FULL …`, `"keyName":
    /// "key1"`), a pair's key rotated or named for its account ("rotated
    /// key1 on stprod") or listed ("key1, …"), the portal's "Access keys"
    /// and an rclone
    /// remote's `account =` then `key =` among them; Azure Storage's
    /// error "The MAC signature found in the HTTP request …", and a
    /// device provisioning enrollment's `idScope` ("ID Scope" in the
    /// portal).
    AZURE_CONTEXT,
    r"(?i)azure|storage|blob|windows\.net|magazyn|speicherkonto|almacenamiento|stockage|armazenamento|\(key[12]\)|accountkey|account_key|\baccess_key\b|\baccount\s+key\b[^\n]{0,80}?\b(?:mount|share|container)|\b(?:mount|share|container)\b[^\n]{0,80}?\baccount\s+key\b|sharedkey|log[- ]analytics|opinsights|onboard_agent|(?-i:\baccount\s*=\s*[a-z0-9]{3,24}[ \t]*\r?\n[ \t]*key\s*=)|wasbs?|abfss?|cosmos|ストレージ|스토리지|存储|\bkey[12]\s+(?:full|read)\b|\b(?:rotat|regenerat|renew)\w*\s+(?:the\s+)?key[12]\b|\bkey[12]\s+(?:on|of|for)\s+[a-z0-9]{3,24}\b|\bkeyName\W{1,4}key[12]\b|\bkeyname\s+permissions\b|smbcredentials|\baccess[ _-]keys\b|\bkey[12],|\bmac\s+signature\s+found\b|\bid\s?scope\b"
);
lazy_regex!(
    /// A storage account key given straight after its name ("the account
    /// key for stprod is …", "Key1 for stprod (rotated …): …"), or as
    /// after the account's name ("Account name stqa01, key …"), or as
    /// the `value` of Terraform's output of one (`"primary_access_key":
    /// {"sensitive": true, …, "value": "…"}`): no other context needed.
    NAMED_STORAGE_KEY,
    r#"(?i)\b(?:account[ \t]+key|key[12])(?:[ \t]+(?:for|of)[ \t]+["'`]?[\w.-]+["'`]?)?(?:[ \t]*\([^)\n]{1,60}\))?[ \t]*(?:[ \t](?:is|was):?|=|:)\s*["'`]?([A-Za-z0-9+/]{86}==)|\baccount[ \t]+name[ \t]*[:=]?[ \t]*["'`]?[a-z0-9]{3,24}["'`]?[ \t]*[,;/][ \t]*(?:and[ \t]+)?(?:the[ \t]+)?key[ \t]*(?:[:=]|is|was)?[ \t]*["'`]?([A-Za-z0-9+/]{86}==)|"(?:primary|secondary)_access_key"\s*:\s*\{[^{}]{0,160}?"value"\s*:\s*"([A-Za-z0-9+/]{86}==)"|\b(?:primary|secondary)_access_key\s*=\s*"([A-Za-z0-9+/]{86}==)""#
);
lazy_regex!(
    /// Words that place a key named as Azure names its pairs: the Azure CLI
    /// or PowerShell, IoT Hub and DPS, Event Grid, Service Bus, Redis.
    NAMED_KEY_CONTEXT,
    r"(?i)azure|(?-i:\baz\s+[a-z]+\s+[a-z])|\b(?:Get|Set|New)-Az|idScope|\bDPS\b|iot\s*hub|azure-devices|event\s*grid|servicebus|redis\.cache|list-keys"
);
lazy_regex!(
    /// A 32-byte key named as Azure names its pairs (`primaryKey`, "DPS
    /// enrollment group primary key:", `EventGridKey=`, or the name and
    /// the key alone, as a sentence quotes them): Redis, IoT Hub and DPS,
    /// Event Grid, Relay, Service Bus.
    NAMED_KEY,
    r#"(?i)\b(?:primary|secondary)[ _]?key\b(?:[^\n:=]{0,40}?[:=]\s*|[ \t]+(?:(?:is|was|->|=>)[ \t]+)?)["']?([A-Za-z0-9+/]{43}=)(?:$|[^A-Za-z0-9+/=])|\bEventGrid\w*Key\s*[:=]\s*["']?([A-Za-z0-9+/]{43}=)(?:$|[^A-Za-z0-9+/=])"#
);

lazy_regex!(
    /// A 32-byte key in base64, quoted, beside a shared access policy's
    /// name; or assigned to a variable named for a key, the policy named
    /// on the same line (`AZURE_SERVICEBUS_KEY=…  # SharedAccessKey for
    /// …`).
    POLICY_KEY_LITERAL,
    r#"["'`]([A-Za-z0-9+/]{43}=)["'`]|\b[A-Z][A-Z0-9_]*KEY[ \t]*[=:][ \t]*([A-Za-z0-9+/]{43}=)[ \t][^\n]*SharedAccessKey"#
);

/// An Azure Functions key, storage account or shared access key, or SAS
/// signature.
pub(in crate::screen) fn azure<'s>(
    text: &str,
    stands: &'s dyn Fn(&std::ops::Range<usize>) -> bool,
) -> Found<'s> {
    let mut found = Found::new(stands);
    found.stage(|| groups(Some(&AZURE), text, |v| random_like(v, 20) && !word_like(v)));
    if AZURE_CONTEXT.is_match(text) {
        found.stage(|| groups(Some(&STORAGE_KEY), text, |v| random_like(v, 40)));
    } else if contains_ignoring_case(text, "key") {
        found.stage(|| groups(Some(&NAMED_STORAGE_KEY), text, |v| random_like(v, 40)));
    }
    if contains_ignoring_case(text, ".search.windows.net") {
        found.stage(|| {
            groups(Some(&SEARCH_KEY), text, |v| {
                random_like(v, 32) && has_digit(v) && has_letter(v) && !word_like(v)
            })
        });
    }
    if NAMED_KEY_CONTEXT.is_match(text) {
        found.stage(|| {
            groups(Some(&NAMED_KEY), text, |v| {
                random_like(v, 40) && has_digit(v) && mixed_case(v)
            })
        });
    }
    found.stage(|| {
        groups(Some(&AZURE_REDIS_URL), text, |v| {
            random_like(v, 20) && !is_placeholder(v)
        })
    });
    if contains_ignoring_case(text, ".redis.cache.windows.net")
        || contains_ignoring_case(text, "sharedkey")
    {
        found.stage(|| {
            groups(Some(&AZURE_SHORT_KEY), text, |v| {
                random_like(v, 40) && has_digit(v) && mixed_case(v)
            })
        });
    }
    found.stage(|| {
        groups(Some(&SQL_PASSWORD), text, |v| {
            !is_placeholder(v) && !v.starts_with(['$', '%', '<', '#']) && !v.starts_with("ENC(")
        })
    });
    // A Relay or Service Bus client given its policy's name
    // (`RootManageSharedAccessKey`) and its 32-byte key apart.
    if text.contains("SharedAccessKey") {
        found.stage(|| {
            groups(Some(&POLICY_KEY_LITERAL), text, |v| {
                random_like(v, 40) && has_digit(v) && mixed_case(v)
            })
        });
    }
    if FUNCTION_CONTEXT.is_match(text) {
        found.stage(|| groups(Some(&FUNCTION_KEY), text, |v| random_like(v, 40)));
    }
    if text.contains("AzFu") {
        found.stage(|| {
            groups(Some(&MARKED_FUNCTION_KEY), text, |v| {
                (40..=80).contains(&v.len()) && random_like(v, 40) && mixed_case(v)
            })
        });
    }
    if memchr::memmem::find(text.as_bytes(), b"Q~").is_some() {
        found.stage(|| {
            groups(Some(&ENTRA_SECRET), text, |v| {
                has_digit(v) && mixed_case(v) && distinct_chars(v) >= 16
            })
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::screen::fires;
    use crate::screen::rule::Rule;

    /// Held-out 81: a Service Bus key assigned to a variable, its policy
    /// named in the comment beside it.
    #[test]
    fn policy_keys_assigned_beside_their_policy() {
        assert!(fires(
            "AZURE_SERVICEBUS_KEY=atv13r1cFyJ/kZUgcEP79Nm3b8zGClo5oOlNDhaIKww=  # SharedAccessKey for RootManageSharedAccessKey on sb-checkout-prod",
            Rule::CredentialAzure
        ));
        for clean in [
            "AZURE_SERVICEBUS_KEY=${SB_KEY}  # SharedAccessKey for RootManageSharedAccessKey on sb-checkout-prod",
            "x-ms-content-sha256: X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=\nSharedAccessKeyName=RootManageSharedAccessKey",
            "PublicKey = atv13r1cFyJ/kZUgcEP79Nm3b8zGClo5oOlNDhaIKww=  # not the SharedAccessKey",
        ] {
            assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
        }
    }

    /// Held-out 75: a Functions key marked `AzFu` with no other context, a
    /// storage key listed after "key1,".
    #[test]
    fn marked_function_keys_and_listed_storage_keys() {
        for hit in [
            "{\"keys\":[{\"name\":\"default\",\"value\":\"0ovGvwHQTMAPXkwBoa8ay4FPoGmeWwSxPjSTxpG5dsWqqDjwJeNnAzFu==\"}],\"links\":[]}",
            "\"masterKey\": { \"name\": \"master\", \"value\": \"Rsgsq5FttThSoeOhWCCxDFzOHtkmfz5MvOQaxE30Sz8EaQBggNpHAzFu==\" }",
            "Dmitri: key1, G5HXMOoBLv2VFCXMaukOh2GIn0PIYQ/B2EohLib3rFcu5X4HlXuz3IRafqSASdqCLMPgnrcfDS+AStP2+SnV+g== , pasted from the portal",
        ] {
            assert!(fires(hit, Rule::CredentialAzure), "{hit}");
        }
        for clean in [
            "The new Functions keys carry an AzFu marker; ours are kept in Key Vault.",
            "{\"keys\":[{\"name\":\"default\",\"value\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxAzFu==\"}]}",
            "key1, key2 and the connection strings are under Access keys.",
        ] {
            assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
        }
    }

    /// Held-out 79: a Redis URL's empty user before an Azure cache's key
    /// that holds `/`; the storage emulator's published key, quoted with a
    /// wrong end, stays its documentation value.
    #[test]
    fn cache_keys_with_slashes_and_the_emulator_key() {
        assert!(fires(
            "redis = Redis.from_url('rediss://:maEwVlZh+LpCMmLSV/yMeSKHYVYQC8tzHFbiDf+E5j0=@cache-weu.redis.cache.windows.net:6380/0')",
            Rule::CredentialAzure
        ));
        assert!(!fires(
            "Azurite's account: DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFEr7BGe1c2Ll9aXw==",
            Rule::CredentialAzure
        ));
    }

    /// Held-out 86: a storage key as the value of Terraform's output of
    /// it; a sensitive value Terraform hides is none.
    #[test]
    fn storage_keys_in_terraform_output() {
        let key = "Kx8vQ2mZr7Lp4Wt9Bn3Yc6Hd1Jf5Gs0Ae8Ui2Oq7Rw4Ty9Pl3Mk6Nj1Bh5Vg0Cf2Xd8Sz4Ea7Qw3Er9Ty1Ui5O==";
        assert!(fires(
            &format!(
                "\"primary_access_key\": {{\n  \"sensitive\": true,\n  \"value\": \"{key}\"\n}}"
            ),
            Rule::CredentialAzure
        ));
        assert!(!fires(
            "\"primary_access_key\": {\n  \"sensitive\": true,\n  \"value\": \"(sensitive value)\"\n}",
            Rule::CredentialAzure
        ));
    }

    /// Held-out 103: Terraform's plan prints the attribute bare.
    #[test]
    fn storage_keys_in_a_terraform_plan() {
        let key = "5l7BK8qI4uXyVFCdIYHyB5mJx0k+m0g8BrtbEJ3ySEWM+mOJmdg1cHjWngKBAPJdWm4+9BQCXK6y7o5bMqeOhw==";
        assert!(fires(
            &format!("  + primary_access_key = \"{key}\""),
            Rule::CredentialAzure
        ));
        for clean in [
            "  + primary_access_key = (sensitive value)",
            "primary_access_key = azurerm_storage_account.logs.primary_access_key",
        ] {
            assert!(!fires(clean, Rule::CredentialAzure), "{clean}");
        }
    }
}
