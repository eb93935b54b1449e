//! Strict JSON ingress and RFC 8785 canonical form.
//!
//! Two requests must never share a digest unless they mean the same thing.
//! `serde_json::Value` silently keeps the last of two duplicate keys and
//! rounds large integers, so ingress goes through [`parse_strict`], which
//! refuses both. Lone UTF-16 surrogates are refused by the underlying parser.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::DomainError;

/// The largest integer magnitude every JSON implementation represents exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Parses one JSON document, refusing duplicate keys and inexact numbers.
pub fn parse_strict(bytes: &[u8]) -> Result<Value, DomainError> {
    let failure = RefCell::new(None);
    let path = RefCell::new(Vec::new());
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let seed = StrictSeed {
        path: &path,
        failure: &failure,
    };
    let parsed = seed.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    match parsed {
        Ok(value) => Ok(value),
        Err(err) => Err(failure.into_inner().unwrap_or(DomainError::MalformedJson {
            message: err.to_string(),
        })),
    }
}

/// Checks a value built in memory against the same rules as [`parse_strict`].
///
/// Values built from typed structs cannot hold duplicate keys, but they can
/// hold integers outside the exact range.
pub fn check_value(value: &Value) -> Result<(), DomainError> {
    fn walk(value: &Value, path: &mut Vec<String>) -> Result<(), DomainError> {
        match value {
            Value::Number(n) => check_number(n, path),
            Value::Array(items) => items.iter().enumerate().try_for_each(|(i, item)| {
                path.push(i.to_string());
                let r = walk(item, path);
                path.pop();
                r
            }),
            Value::Object(map) => map.iter().try_for_each(|(k, item)| {
                path.push(k.clone());
                let r = walk(item, path);
                path.pop();
                r
            }),
            _ => Ok(()),
        }
    }
    walk(value, &mut Vec::new())
}

/// Serializes a value to its RFC 8785 canonical bytes.
pub fn canonical_bytes(value: &Value) -> Vec<u8> {
    // Serializing a `Value` cannot fail: its keys are strings and its numbers finite.
    serde_json_canonicalizer::to_vec(value).expect("a serde_json::Value always canonicalizes")
}

/// Serializes any serializable value to canonical bytes, checking number ranges.
pub fn canonical_of<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, DomainError> {
    let v = serde_json::to_value(value).map_err(|e| DomainError::MalformedJson {
        message: e.to_string(),
    })?;
    check_value(&v)?;
    Ok(canonical_bytes(&v))
}

/// Formats path segments as an RFC 6901 JSON pointer.
pub fn pointer(segments: &[String]) -> String {
    segments.iter().fold(String::new(), |mut out, s| {
        out.push('/');
        out.push_str(&s.replace('~', "~0").replace('/', "~1"));
        out
    })
}

fn check_number(n: &serde_json::Number, path: &[String]) -> Result<(), DomainError> {
    let exact = if let Some(u) = n.as_u64() {
        u <= MAX_SAFE_INTEGER
    } else if let Some(i) = n.as_i64() {
        i.unsigned_abs() <= MAX_SAFE_INTEGER
    } else {
        // A non-integer double is exact by definition; an integral one written
        // with a fraction or exponent must still fit the exact range.
        let f = n.as_f64().unwrap_or(f64::NAN);
        f.is_finite() && (f.fract() != 0.0 || f.abs() <= MAX_SAFE_INTEGER as f64)
    };
    if exact {
        Ok(())
    } else {
        Err(DomainError::NumberOutOfRange {
            path: pointer(path),
        })
    }
}

struct StrictSeed<'a> {
    path: &'a RefCell<Vec<String>>,
    failure: &'a RefCell<Option<DomainError>>,
}

impl StrictSeed<'_> {
    fn fail<E: de::Error>(&self, err: DomainError) -> E {
        let message = err.to_string();
        *self.failure.borrow_mut() = Some(err);
        E::custom(message)
    }

    fn number<E: de::Error>(&self, n: serde_json::Number) -> Result<Value, E> {
        check_number(&n, &self.path.borrow()).map_err(|e| self.fail(e))?;
        Ok(Value::Number(n))
    }

    fn child(&self) -> StrictSeed<'_> {
        StrictSeed {
            path: self.path,
            failure: self.failure,
        }
    }
}

impl<'de> DeserializeSeed<'de> for StrictSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.number(v.into())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.number(v.into())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        match serde_json::Number::from_f64(v) {
            Some(n) => self.number(n),
            None => Err(self.fail(DomainError::NumberOutOfRange {
                path: pointer(&self.path.borrow()),
            })),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            self.path.borrow_mut().push(items.len().to_string());
            let next = seq.next_element_seed(self.child())?;
            self.path.borrow_mut().pop();
            match next {
                Some(v) => items.push(v),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            self.path.borrow_mut().push(key.clone());
            if map.contains_key(&key) {
                let path = pointer(&self.path.borrow());
                return Err(self.fail(DomainError::DuplicateKey { path }));
            }
            let value = access.next_value_seed(self.child())?;
            self.path.borrow_mut().pop();
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn refuses_duplicate_keys_with_their_path() {
        let err = parse_strict(br#"{"a":{"b":1,"b":2}}"#).unwrap_err();
        assert_eq!(
            err,
            DomainError::DuplicateKey {
                path: "/a/b".into()
            }
        );
    }

    #[test]
    fn refuses_integers_outside_the_exact_range() {
        assert!(parse_strict(b"9007199254740991").is_ok());
        assert!(parse_strict(b"-9007199254740991").is_ok());
        let err = parse_strict(br#"{"n":[9007199254740992]}"#).unwrap_err();
        assert_eq!(
            err,
            DomainError::NumberOutOfRange {
                path: "/n/0".into()
            }
        );
        assert!(parse_strict(b"-9007199254740993").is_err());
        assert!(parse_strict(b"1e300").is_err());
        assert!(parse_strict(b"0.5").is_ok());
    }

    #[test]
    fn refuses_lone_surrogates() {
        assert!(parse_strict(br#""\ud800""#).is_err());
        assert!(parse_strict(br#""\udc00x""#).is_err());
        assert_eq!(
            parse_strict(br#""\ud83d\ude00""#).unwrap(),
            Value::String("\u{1F600}".into())
        );
    }

    #[test]
    fn refuses_trailing_content() {
        assert!(matches!(
            parse_strict(b"{} {}"),
            Err(DomainError::MalformedJson { .. })
        ));
    }

    #[test]
    fn pointer_escapes_tilde_and_slash() {
        assert_eq!(pointer(&["a/b".into(), "c~d".into()]), "/a~1b/c~0d");
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-(MAX_SAFE_INTEGER as i64)..=MAX_SAFE_INTEGER as i64)
                .prop_map(std::convert::Into::into),
            "\\PC{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("\\PC{0,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn canonical_form_is_a_fixed_point(v in json_value()) {
            let once = canonical_bytes(&v);
            let reparsed = parse_strict(&once).unwrap();
            prop_assert_eq!(&reparsed, &v);
            prop_assert_eq!(canonical_bytes(&reparsed), once);
        }

        #[test]
        fn key_order_and_whitespace_do_not_change_canonical_form(v in json_value()) {
            let pretty = serde_json::to_vec_pretty(&v).unwrap();
            prop_assert_eq!(canonical_bytes(&parse_strict(&pretty).unwrap()), canonical_bytes(&v));
        }
    }
}
