//! Opaque list cursors.
//!
//! A cursor is a position in one list, sealed to that list. The list is the
//! operation that pages it and every value that selects its rows: the
//! tenant, the namespace and the filters, but never the page size, which a
//! client may change between pages. On the wire a cursor is
//! `base64url(version ‖ kind ‖ position ‖ tag)`, unpadded, where `kind` says
//! whether the position is a sequence number (8 bytes, big-endian) or a row
//! id (UTF-8), and `tag` is HMAC-SHA256, cut to 128 bits, over the list and
//! the rest of the cursor under a key derived from the server's seal key.
//!
//! Every server of one store shares its seal key, so a cursor keeps working
//! across restarts and on any server of the store. A cursor that was altered,
//! made up, or given out by another list or for another query is refused
//! with 400 `invalid_cursor` naming `after`, before the store is read.

use axum::http::StatusCode;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::error::ApiError;
use crate::seal::SealKey;

/// First byte of every cursor; a new layout takes a new version.
const VERSION: u8 = 1;

/// Bytes of the HMAC tag a cursor carries (128 bits).
const TAG_LEN: usize = 16;

/// Longest cursor accepted, in characters: room for row ids of well over a
/// kilobyte, while a cursor stays far below the request-target limit.
pub(crate) const MAX_CURSOR_CHARS: usize = 2048;

/// Ends the list's fields in the MAC input; field markers are 0 or 1, so
/// the list and the cursor that follows it cannot be split another way.
const END_OF_LIST: u8 = 0xff;

/// What a cursor can point at: a row id or a sequence number.
pub(crate) trait Position: Sized {
    /// The kind byte that tells positions of this type apart.
    const KIND: u8;
    /// Appends the position's bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// The position these bytes hold, if they hold one.
    fn take(bytes: &[u8]) -> Option<Self>;
}

impl Position for u64 {
    const KIND: u8 = b'n';

    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_be_bytes());
    }

    fn take(bytes: &[u8]) -> Option<Self> {
        Some(u64::from_be_bytes(bytes.try_into().ok()?))
    }
}

impl Position for String {
    const KIND: u8 = b's';

    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }

    fn take(bytes: &[u8]) -> Option<Self> {
        String::from_utf8(bytes.to_vec()).ok()
    }
}

/// A position in a record search: the last record's relevance (its exact
/// bits, when the search ranks) and its id.
impl Position for praxis_store::records::SearchAfter {
    const KIND: u8 = b'r';

    fn put(&self, out: &mut Vec<u8>) {
        match self.score {
            Some(score) => {
                out.push(1);
                out.extend_from_slice(&score.to_bits().to_be_bytes());
            }
            None => out.push(0),
        }
        out.extend_from_slice(self.experience_id.as_bytes());
    }

    fn take(bytes: &[u8]) -> Option<Self> {
        let (score, id) = match bytes.split_first()? {
            (0, id) => (None, id),
            (1, rest) if rest.len() >= 8 => {
                let (bits, id) = rest.split_at(8);
                let score = f64::from_bits(u64::from_be_bytes(bits.try_into().ok()?));
                (Some(Some(score).filter(|s| s.is_finite())?), id)
            }
            _ => return None,
        };
        Some(praxis_store::records::SearchAfter {
            score,
            experience_id: String::from_utf8(id.to_vec()).ok()?,
        })
    }
}

/// One list, as cursors are sealed to it: built from the operation and
/// tenant, then every value that selects the rows, in a fixed order.
#[derive(Clone)]
pub(crate) struct List {
    /// HMAC state keyed and fed with the list so far.
    mac: Hmac<Sha256>,
}

impl List {
    /// The list `operation` gives in `tenant`, under the server's key.
    pub(crate) fn new(seal: &SealKey, operation: &str, tenant: &str) -> List {
        let key = seal.derive("praxis.cursor.v1", &[]);
        let mac = Hmac::<Sha256>::new_from_slice(&key.0).expect("HMAC takes a key of any length");
        List { mac }.by(Some(operation)).by(Some(tenant))
    }

    /// The list narrowed by one selecting value (`None` when the query
    /// leaves it out, which differs from any value, even an empty one).
    #[must_use]
    pub(crate) fn by(mut self, value: Option<&str>) -> List {
        match value {
            None => self.mac.update(&[0]),
            Some(v) => {
                self.mac.update(&[1]);
                self.mac.update(&(v.len() as u64).to_be_bytes());
                self.mac.update(v.as_bytes());
            }
        }
        self
    }

    /// The MAC of a cursor body (version, kind and position) in this list.
    fn tag(&self, body: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.mac.clone();
        mac.update(&[END_OF_LIST]);
        mac.update(body);
        mac
    }

    /// The cursor of `position` in this list.
    pub(crate) fn cursor<P: Position>(&self, position: &P) -> String {
        let mut token = vec![VERSION, P::KIND];
        position.put(&mut token);
        let tag = self.tag(&token).finalize().into_bytes();
        token.extend_from_slice(&tag[..TAG_LEN]);
        URL_SAFE_NO_PAD.encode(token)
    }

    /// The position `after` points at: `None` without a cursor (the first
    /// page), else 400 `invalid_cursor` unless this list gave it out.
    pub(crate) fn after<P: Position>(&self, after: Option<&str>) -> Result<Option<P>, ApiError> {
        after
            .map(|text| self.open(text).ok_or_else(invalid))
            .transpose()
    }

    fn open<P: Position>(&self, text: &str) -> Option<P> {
        if text.len() > MAX_CURSOR_CHARS {
            return None;
        }
        let token = URL_SAFE_NO_PAD.decode(text).ok()?;
        let split = token.len().checked_sub(TAG_LEN)?;
        let (body, tag) = token.split_at(split);
        if body.len() < 2 || body[0] != VERSION || body[1] != P::KIND {
            return None;
        }
        // Verified in constant time before the position is read at all.
        self.tag(body).verify_truncated_left(tag).ok()?;
        P::take(&body[2..])
    }
}

fn invalid() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "invalid_cursor",
        "after is not a cursor of this list: pass a next_cursor this list returned for the same query, or leave after out to start from the beginning",
    )
    .at("after")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(seal: &SealKey) -> List {
        List::new(seal, "records.search", "t1")
            .by(Some("ns"))
            .by(None)
    }

    fn refused<P: Position + std::fmt::Debug>(list: &List, text: &str) {
        let err = list.after::<P>(Some(text)).expect_err(text);
        assert_eq!(
            (err.status, err.code, err.field.as_deref()),
            (StatusCode::BAD_REQUEST, "invalid_cursor", Some("after")),
            "{text}"
        );
    }

    #[test]
    fn cursors_round_trip_and_are_url_safe() {
        let seal = SealKey::generate();
        let l = list(&seal);
        for n in [0, 1, 42, u64::MAX] {
            let c = l.cursor(&n);
            assert!(
                c.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            );
            assert_eq!(l.after::<u64>(Some(&c)).unwrap(), Some(n));
        }
        for id in ["", "exp-a-20260101", "é/?&=#%"] {
            let c = l.cursor(&id.to_owned());
            assert_eq!(l.after::<String>(Some(&c)).unwrap().as_deref(), Some(id));
        }
        assert_eq!(l.after::<u64>(None).unwrap(), None);
    }

    #[test]
    fn cursors_hold_across_restarts_with_the_same_key() {
        let seal = SealKey::generate();
        let again = SealKey::from_hex(&seal.to_hex()).unwrap();
        let c = list(&seal).cursor(&7u64);
        assert_eq!(list(&again).after::<u64>(Some(&c)).unwrap(), Some(7));
        refused::<u64>(&list(&SealKey::generate()), &c);
    }

    #[test]
    fn every_altered_byte_is_refused() {
        let seal = SealKey::generate();
        let l = list(&seal);
        let c = l.cursor(&"exp-b-20260101".to_owned());
        let bytes = URL_SAFE_NO_PAD.decode(&c).unwrap();
        for i in 0..bytes.len() {
            let mut tampered = bytes.clone();
            tampered[i] ^= 1;
            refused::<String>(&l, &URL_SAFE_NO_PAD.encode(tampered));
        }
        // Any character changed, even where only padding bits would change.
        for i in 0..c.len() {
            let mut chars: Vec<char> = c.chars().collect();
            chars[i] = if chars[i] == 'B' { 'C' } else { 'B' };
            refused::<String>(&l, &chars.into_iter().collect::<String>());
        }
        // Cut short, or lengthened.
        refused::<String>(&l, &URL_SAFE_NO_PAD.encode(&bytes[..bytes.len() - 1]));
        refused::<String>(&l, &format!("{c}AA"));
    }

    #[test]
    fn a_cursor_of_another_operation_or_query_is_refused() {
        let seal = SealKey::generate();
        let c = list(&seal).cursor(&3u64);
        let others = [
            List::new(&seal, "records.history", "t1")
                .by(Some("ns"))
                .by(None),
            List::new(&seal, "records.search", "t2")
                .by(Some("ns"))
                .by(None),
            List::new(&seal, "records.search", "t1")
                .by(Some("other"))
                .by(None),
            List::new(&seal, "records.search", "t1")
                .by(Some("ns"))
                .by(Some("")),
            List::new(&seal, "records.search", "t1").by(Some("ns")),
            List::new(&seal, "records.search", "t1")
                .by(Some("ns"))
                .by(None)
                .by(None),
        ];
        for other in &others {
            refused::<u64>(other, &c);
        }
        // Splitting one value into two gives another list.
        let ab = List::new(&seal, "op", "t").by(Some("ab")).cursor(&1u64);
        refused::<u64>(
            &List::new(&seal, "op", "t").by(Some("a")).by(Some("b")),
            &ab,
        );
        // A sequence number is not a row id.
        refused::<String>(&list(&seal), &c);
    }

    #[test]
    fn garbage_empty_and_oversized_cursors_are_refused() {
        let l = list(&SealKey::generate());
        for text in [
            "",
            "zzz",
            "\0\u{ff}",
            "0",
            "12",
            "exp-a-20260101",
            "====",
            "a+b/c",
            "AAAA",
        ] {
            refused::<u64>(&l, text);
            refused::<String>(&l, text);
        }
        let long = l.cursor(&"x".repeat(MAX_CURSOR_CHARS));
        assert!(long.len() > MAX_CURSOR_CHARS);
        refused::<String>(&l, &long);
        refused::<String>(&l, &"A".repeat(MAX_CURSOR_CHARS + 4));
    }
}
