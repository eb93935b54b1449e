//! A password parameter beside its user's in one URL's query: InfluxDB's
//! and others' `?u=<user>&p=<password>`, the user before or after.

use super::super::pattern::Spans;
use super::super::value::{few_vowels, wordy};
use super::{Param, URL_PARAM, secret_param};

/// The `p` values of URLs in `text` that also carry a `u`. Off InfluxDB's
/// API (`/query`, `/write`, port 8086), `p` is also a page, a post or a
/// port: only a chosen password's shape counts there, with the few vowels
/// of drawn letters (`HomePage-Hero-v2` is words).
pub(super) fn user_passwords(text: &str) -> Spans {
    let user_param = (text.contains("?u=") || text.contains("&u=")).then_some(&*URL_PARAM);
    user_param
        .into_iter()
        .flat_map(|re| re.captures_iter(text))
        .filter(|c| {
            let Some(m) = c.get(0) else {
                return false;
            };
            let from = text[..m.start()]
                .rfind(char::is_whitespace)
                .map_or(0, |i| i + 1);
            let to = text[m.end()..]
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>'))
                .map_or(text.len(), |i| m.end() + i);
            let url = &text[from..to];
            let influx = ["/query?", "/write?", ":8086/"]
                .iter()
                .any(|p| url.contains(p));
            let kind = if influx {
                Param::Password
            } else {
                Param::ShortPassword
            };
            &c[1] == "p"
                && text[from..m.start()].contains("://")
                && (url.contains("?u=") || url.contains("&u="))
                && secret_param(kind, &c[2], None)
                && (influx || (few_vowels(&c[2]) && !wordy(&c[2])))
        })
        .filter_map(|c| c.get(2).map(|m| m.range()))
        .collect()
}
