//! The protocol's fixed terms that several checks share: its version and
//! the size bound of a record.

/// The protocol version this module implements.
pub const SCHEMA_VERSION: &str = "0.1";

/// Largest record, both as stored bytes and as compact JSON.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;
