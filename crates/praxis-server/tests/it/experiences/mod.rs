//! Development experiences over real HTTP on both stores: recording,
//! the outcome state machine and consumption, compare-and-set under
//! concurrency, parents and lineage, exports, withdrawal, history paging,
//! and reads that fail closed on an altered store.

use praxis_api::examples::learning as ex;
use praxis_testkit::BACKENDS;
use serde_json::{Value, json};

use crate::learning::*;

mod exports;
mod lifecycle;
mod tamper;

/// Asserts that `body` has `member`, and that it is null (unknown is
/// never written as 0, nor left out).
#[track_caller]
fn null_member(body: &Value, member: &str) {
    let o = body.as_object().expect("an object");
    assert!(o.contains_key(member), "{member} is missing: {body}");
    assert_eq!(o[member], Value::Null, "{member}: {body}");
}

/// Asserts a 64-digit lowercase hex string.
#[track_caller]
fn hex64(v: &Value) -> String {
    let s = v.as_str().unwrap_or_else(|| panic!("not a string: {v}"));
    assert!(
        s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "not a digest: {s}"
    );
    s.to_owned()
}
