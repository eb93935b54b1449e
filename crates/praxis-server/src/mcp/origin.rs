//! Which browser origins may call `/mcp`: loopback ones on any port, and
//! exactly the configured others (DNS rebinding makes any other page able
//! to reach a server on loopback). Allowed origins also get the CORS
//! answers a browser needs before it sends a credential.

use std::time::Duration;

use axum::http::{HeaderName, HeaderValue, Method, header};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// An origin (RFC 6454) as `scheme://host[:port]`: lowercase, with the
/// scheme's default port made explicit, so equal origins compare equal.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// Parses exactly `http[s]://host[:port]`: no user, path, query or
    /// fragment; a host of letters, digits, `-` and `.`, or a bracketed
    /// IPv6 address; a port of one to five digits.
    fn parse(text: &str) -> Option<Origin> {
        let text = text.to_ascii_lowercase();
        let (scheme, rest) = text.split_once("://")?;
        let default = match scheme {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        let (host, after) = if let Some(v6) = rest.strip_prefix('[') {
            let (address, after) = v6.split_once(']')?;
            let ok = !address.is_empty()
                && address
                    .chars()
                    .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
            if !ok {
                return None;
            }
            (format!("[{address}]"), after)
        } else {
            let end = rest.find(':').unwrap_or(rest.len());
            let host = &rest[..end];
            let ok = !host.is_empty()
                && host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.');
            if !ok {
                return None;
            }
            (host.to_owned(), &rest[end..])
        };
        let port = match after.strip_prefix(':') {
            None if after.is_empty() => default,
            None => return None,
            Some(digits) => {
                let ok =
                    (1..=5).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
                if !ok {
                    return None;
                }
                digits.parse().ok()?
            }
        };
        Some(Origin {
            scheme: scheme.to_owned(),
            host,
            port,
        })
    }

    fn is_loopback(&self) -> bool {
        matches!(self.host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
    }
}

/// Who may call `/mcp` from a browser.
#[derive(Clone, Debug, Default)]
pub struct McpSettings {
    allowed: Vec<Origin>,
}

impl McpSettings {
    /// Loopback origins and `origins` (`scheme://host[:port]`, a trailing
    /// `/` tolerated); the error names the first that is not an origin.
    pub fn allowing<I: IntoIterator<Item = String>>(origins: I) -> Result<McpSettings, String> {
        let allowed = origins
            .into_iter()
            .map(|text| {
                Origin::parse(text.strip_suffix('/').unwrap_or(&text)).ok_or_else(|| {
                    format!("{text:?} is not an origin (scheme://host[:port], http or https)")
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(McpSettings { allowed })
    }

    /// Whether a request carrying `origin` may call `/mcp`.
    pub fn allows(&self, origin: &HeaderValue) -> bool {
        origin
            .to_str()
            .ok()
            .and_then(Origin::parse)
            .is_some_and(|o| o.is_loopback() || self.allowed.contains(&o))
    }

    /// The CORS answers for allowed origins: a preflight is answered before
    /// authentication (a browser sends it without the credential), and the
    /// real answer names the origin; others get no CORS headers at all.
    pub(crate) fn cors(&self) -> CorsLayer {
        let settings = self.clone();
        CorsLayer::new()
            .allow_origin(AllowOrigin::predicate(move |origin, _| {
                settings.allows(origin)
            }))
            .allow_methods([Method::POST, Method::GET, Method::DELETE])
            .allow_headers([
                header::AUTHORIZATION,
                header::CONTENT_TYPE,
                header::ACCEPT,
                HeaderName::from_static("mcp-protocol-version"),
                HeaderName::from_static("mcp-session-id"),
                HeaderName::from_static("last-event-id"),
                HeaderName::from_static("idempotency-key"),
            ])
            .max_age(Duration::from_mins(10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_and_configured_origins_pass() {
        let settings = McpSettings::allowing([
            "https://console.example.com/".to_owned(),
            "http://tools.example:8080".to_owned(),
        ])
        .unwrap();
        for ok in [
            "http://localhost:3000",
            "http://127.0.0.1",
            "https://[::1]:8443",
            "HTTP://LOCALHOST:1",
            "https://console.example.com",
            "https://console.example.com:443",
            "http://tools.example:8080",
        ] {
            assert!(settings.allows(&HeaderValue::from_static(ok)), "{ok}");
        }
        for bad in [
            "null",
            "",
            "http://evil.example",
            "http://localhost.evil.example",
            "http://localhost.",
            "http://127.0.0.1.nip.io",
            "http://127.0.0.1.evil.example:80",
            "http://localhost@evil.example",
            "http://evil.example@localhost",
            "http://localhost:notaport",
            "http://localhost:+80",
            "http://localhost:123456",
            "http://[::1]x:80",
            "http://[::1",
            "http://localhost/path",
            "https://console.example.com:8443",
            "http://console.example.com",
            "http://tools.example",
            "file://localhost",
            "ws://localhost",
        ] {
            assert!(!settings.allows(&HeaderValue::from_static(bad)), "{bad}");
        }
    }

    #[test]
    fn a_configured_origin_must_be_one() {
        for bad in [
            "console.example.com",
            "https://x.example/path",
            "ftp://x.example",
            "https://",
        ] {
            let err = McpSettings::allowing([bad.to_owned()]).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }
}
