//! Exactly-once writes: every write endpoint takes an optional
//! `Idempotency-Key`, and its answer is stored with the write, in the same
//! transaction, as a receipt.
//!
//! A retry with the same key and the same request gets the stored answer
//! back byte for byte (status, media type and body), marked
//! `Idempotent-Replayed: true`; the same key with another request is 409
//! `idempotency_conflict`. Keys are scoped to (tenant, credential subject):
//! two subjects never collide, and one subject's key names one request
//! whatever endpoint it was first used on.
//!
//! Because the receipt is rendered inside the write's transaction, a
//! handler's answer must be a function of what the write applied (plus
//! anything read before it); that is what [`Render`] is.

use std::sync::Arc;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use praxis_api::{IDEMPOTENT_REPLAYED, PROBLEM_JSON};
use praxis_domain::auth::Principal;
use praxis_domain::digest::{Digest, REQUEST_KIND};
use praxis_store::{Applied, Idempotency, StoreError, Write, WriteOutcome};
use serde::Serialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::error::ApiError;
use crate::metrics::{Counted, ProblemCode};

/// A complete answer, as sent and as kept in a receipt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    status: StatusCode,
    /// Whether the body is a problem (`application/problem+json`) rather
    /// than `application/json`.
    problem: bool,
    body: Vec<u8>,
}

impl Answer {
    /// A JSON answer.
    pub(crate) fn json<T: Serialize>(status: StatusCode, body: &T) -> Answer {
        Answer {
            status,
            problem: false,
            body: serde_json::to_vec(body).expect("responses serialize"),
        }
    }

    /// A problem that is nonetheless the outcome of a committed write (a
    /// rejection that is kept in the ledger).
    pub(crate) fn problem(error: &ApiError) -> Answer {
        Answer {
            status: error.status,
            problem: true,
            body: error.problem_body(),
        }
    }

    /// The receipt bytes: `<status> <j|p>\n<body>`.
    fn encode(&self) -> Vec<u8> {
        let kind = if self.problem { 'p' } else { 'j' };
        let mut out = format!("{} {kind}\n", self.status.as_u16()).into_bytes();
        out.extend_from_slice(&self.body);
        out
    }

    /// Reads receipt bytes back; anything else is an inconsistent store.
    fn decode(bytes: &[u8]) -> Result<Answer, StoreError> {
        let bad = || StoreError::inconsistent("a stored receipt is not an answer");
        let newline = bytes.iter().position(|b| *b == b'\n').ok_or_else(bad)?;
        let head = std::str::from_utf8(&bytes[..newline]).map_err(|_| bad())?;
        let (status, kind) = head.split_once(' ').ok_or_else(bad)?;
        let status = status
            .parse::<u16>()
            .ok()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .ok_or_else(bad)?;
        let problem = match kind {
            "p" => true,
            "j" => false,
            _ => return Err(bad()),
        };
        Ok(Answer {
            status,
            problem,
            body: bytes[newline + 1..].to_vec(),
        })
    }

    /// The HTTP response; a replay says so in a header.
    fn into_response(self, replayed: bool) -> Response {
        let media = if self.problem {
            PROBLEM_JSON
        } else {
            "application/json"
        };
        // The code the problem was rendered with: one of the server's
        // constants, whether the answer is fresh or replayed.
        let code = self
            .problem
            .then(|| serde_json::from_slice::<Coded>(&self.body).ok())
            .flatten();
        let mut response = (
            self.status,
            [(header::CONTENT_TYPE, HeaderValue::from_static(media))],
            self.body,
        )
            .into_response();
        if let Some(Coded { code }) = code {
            response.extensions_mut().insert(ProblemCode(code.into()));
        }
        if self.problem {
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
        if replayed {
            response
                .headers_mut()
                .insert(IDEMPOTENT_REPLAYED, HeaderValue::from_static("true"));
        }
        response
    }
}

/// The stable code of a problem body.
#[derive(serde::Deserialize)]
struct Coded {
    code: String,
}

/// Renders a write's answer from what it applied.
pub(crate) type Render = Arc<dyn Fn(&Applied) -> Result<Answer, StoreError> + Send + Sync>;

/// How a write is recognised when it is retried.
pub(crate) struct Retry {
    /// The operation and its path parameters, e.g. `records.review:<id>`.
    route: String,
    /// The client's key, already validated.
    key: Option<String>,
    /// The request body as parsed.
    body: Value,
    /// Whether the answer carries a secret, so its receipt is sealed.
    sealed: bool,
}

impl Retry {
    /// A retry identity for `route`, its key and its body.
    pub(crate) fn new(route: impl Into<String>, key: Option<String>, body: Value) -> Retry {
        Retry {
            route: route.into(),
            key,
            body,
            sealed: false,
        }
    }

    /// Seals the receipt: the answer carries a secret (a fresh token).
    #[must_use]
    pub(crate) fn sealed(mut self) -> Retry {
        self.sealed = true;
        self
    }
}

/// Executes `write` and answers with `render`, storing the answer under the
/// caller's key when one was given, or replaying the stored one.
pub(crate) async fn answer(
    state: &AppState,
    p: &Principal,
    retry: Retry,
    write: Write,
    render: Render,
) -> Result<Response, StoreError> {
    // Counted once committed: a refused or failed write counts nothing.
    let counted = Counted::of(&write.command);
    let Some(raw) = retry.key else {
        let applied = state.engine.execute(write).await?.applied()?;
        state.metrics.domain.acknowledged(counted, &applied);
        return Ok(render(&applied)?.into_response(false));
    };
    let storage_key = state.seal.storage_key(&p.tenant_id, &p.subject, &raw);
    let request_digest = Digest::of_value(
        REQUEST_KIND,
        &json!({ "route": retry.route, "body": retry.body }),
    );
    let seal = retry.sealed.then(|| {
        (
            state.seal.clone(),
            p.tenant_id.clone(),
            raw.clone(),
            storage_key.clone(),
        )
    });
    let receipt: praxis_store::ReceiptFn = Arc::new(move |applied| {
        let bytes = render(applied)?.encode();
        Ok(match &seal {
            Some((key, tenant, raw, storage_key)) => key.seal(tenant, raw, storage_key, &bytes),
            None => bytes,
        })
    });
    let write = write.idempotent(
        Idempotency {
            key: storage_key.clone(),
            request_digest,
        },
        receipt,
    );
    let (bytes, replayed) = match state.engine.execute(write).await? {
        WriteOutcome::Committed {
            receipt: Some(bytes),
            applied,
        } => {
            state.metrics.domain.acknowledged(counted, &applied);
            (bytes, false)
        }
        WriteOutcome::Committed { receipt: None, .. } => {
            return Err(StoreError::inconsistent(
                "a keyed write committed without its receipt",
            ));
        }
        WriteOutcome::Replayed { receipt } => {
            state.metrics.domain.replayed();
            (receipt, true)
        }
    };
    let bytes = if retry.sealed {
        state
            .seal
            .open(&p.tenant_id, &raw, &storage_key, &bytes)
            .ok_or_else(|| StoreError::inconsistent("a sealed receipt does not open"))?
    } else {
        bytes
    };
    Ok(Answer::decode(&bytes)?.into_response(replayed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_survive_their_receipt() {
        for answer in [
            Answer::json(StatusCode::CREATED, &json!({"a": 1})),
            Answer::problem(&ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "record_rejected",
                "no",
            )),
            Answer {
                status: StatusCode::OK,
                problem: false,
                body: b"\n\n 200 j\n".to_vec(),
            },
        ] {
            assert_eq!(Answer::decode(&answer.encode()).unwrap(), answer);
        }
    }

    #[test]
    fn anything_else_is_inconsistent() {
        for bytes in [
            &b""[..],
            b"200 j",
            b"200 x\n{}",
            b"99 j\n{}",
            b"abc j\n",
            b"200j\n",
        ] {
            assert!(
                matches!(Answer::decode(bytes), Err(StoreError::Inconsistent(_))),
                "{bytes:?}"
            );
        }
    }
}
