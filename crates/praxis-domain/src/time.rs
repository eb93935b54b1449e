//! Timestamps: microseconds since the Unix epoch, shown as RFC 3339.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::DomainError;

/// A UTC instant with microsecond precision.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Timestamp(i64);

impl Timestamp {
    /// The instant `micros` microseconds after the Unix epoch.
    pub fn from_micros(micros: i64) -> Self {
        Timestamp(micros)
    }

    /// Microseconds since the Unix epoch.
    pub fn micros(self) -> i64 {
        self.0
    }

    /// Parses a strict RFC 3339 timestamp with an explicit offset.
    pub fn parse_rfc3339(s: &str) -> Result<Self, DomainError> {
        let ts: jiff::Timestamp = s
            .parse()
            .map_err(|_| DomainError::invalid("", "expected an RFC 3339 timestamp"))?;
        Ok(Timestamp(ts.as_microsecond()))
    }

    /// This instant plus `micros` microseconds, saturating.
    #[must_use]
    pub fn plus_micros(self, micros: i64) -> Self {
        Timestamp(self.0.saturating_add(micros))
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match jiff::Timestamp::from_microsecond(self.0) {
            Ok(ts) => write!(f, "{ts:.6}"),
            Err(_) => write!(f, "invalid-timestamp({})", self.0),
        }
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Timestamp::parse_rfc3339(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_rfc3339() {
        let t = Timestamp::parse_rfc3339("2026-11-29T18:00:00.123456Z").unwrap();
        assert_eq!(t.to_string(), "2026-11-29T18:00:00.123456Z");
        assert_eq!(Timestamp::parse_rfc3339(&t.to_string()).unwrap(), t);
    }

    #[test]
    fn refuses_timestamps_without_offset() {
        assert!(Timestamp::parse_rfc3339("2026-11-29T18:00:00").is_err());
        assert!(Timestamp::parse_rfc3339("yesterday").is_err());
    }
}
