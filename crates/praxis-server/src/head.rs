//! Limits on the request head, answered in problem+json.
//!
//! hyper parses the request head before any of this code runs, and refuses
//! past its own limits with a bare status and a closed connection: a request
//! target over 65,534 bytes (414), more than 100 header fields or a head over
//! about 400 KiB (431), and a malformed head — an invalid or negative
//! `Content-Length`, control characters in a header — (400). The limits here
//! sit well below hyper's, so an oversized head that hyper lets through is
//! refused with a problem document and a stable code like every other
//! refusal.

use axum::extract::Request;
use axum::http::{StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::{HEADER_FIELDS_LIMIT, HEADERS_LIMIT, URI_LIMIT};

/// Bytes a header line adds besides its name and value: `": "` and CRLF.
const LINE_OVERHEAD: usize = 4;

/// The size of a request head as the client sent it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeadSize {
    /// Bytes of the request target.
    target: usize,
    /// Bytes of the header lines.
    header_bytes: usize,
    /// Number of header fields.
    fields: usize,
}

impl HeadSize {
    fn of(req: &Request) -> HeadSize {
        let headers = req.headers();
        HeadSize {
            target: target_len(req.uri()),
            header_bytes: headers
                .iter()
                .map(|(name, value)| name.as_str().len() + value.len() + LINE_OVERHEAD)
                .sum(),
            fields: headers.len(),
        }
    }
}

/// Records the head's size before any layer adds a header (the request id),
/// for [`limit_head`], which answers inside those layers.
pub(crate) async fn measure_head(mut req: Request) -> Request {
    let size = HeadSize::of(&req);
    req.extensions_mut().insert(size);
    req
}

/// Refuses a request target over [`URI_LIMIT`] with 414 `uri_too_long`, and
/// header fields over [`HEADERS_LIMIT`] bytes or [`HEADER_FIELDS_LIMIT`]
/// fields with 431 `headers_too_large`.
pub(crate) async fn limit_head(req: Request, next: Next) -> Response {
    let size = req
        .extensions()
        .get::<HeadSize>()
        .copied()
        .unwrap_or_else(|| HeadSize::of(&req));
    if size.target > URI_LIMIT {
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri_too_long",
            format!("the request target exceeds {URI_LIMIT} bytes"),
        )
        .into_response();
    }
    if size.fields > HEADER_FIELDS_LIMIT || size.header_bytes > HEADERS_LIMIT {
        return ApiError::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            format!(
                "the header fields exceed {HEADERS_LIMIT} bytes or {HEADER_FIELDS_LIMIT} fields"
            ),
        )
        .into_response();
    }
    next.run(req).await
}

/// The length of the request target as it was sent: origin form
/// (`/path?query`) or absolute form (`http://host/path?query`).
fn target_len(uri: &Uri) -> usize {
    let scheme = uri.scheme_str().map_or(0, |s| s.len() + "://".len());
    let authority = uri.authority().map_or(0, |a| a.as_str().len());
    let path = uri.path_and_query().map_or(0, |p| p.as_str().len());
    scheme + authority + path
}

#[cfg(test)]
mod tests {
    use super::target_len;

    #[test]
    fn the_target_is_measured_as_sent() {
        for target in ["/", "/healthz?x=1", "http://h:1/a?b", "*"] {
            let uri: axum::http::Uri = target.parse().unwrap();
            assert_eq!(target_len(&uri), target.len(), "{target}");
        }
    }
}
