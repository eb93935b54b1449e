//! Praxis domain: the pure rules of the experience ledger.
//!
//! This crate holds types, canonical JSON, digests, capability checks, the
//! event vocabulary and the rules that decide whether a command may proceed
//! (every refusal is a [`Refusal`]). It performs no IO and has no async
//! code, so every rule in it can be tested and reused by the storage
//! engines, the server and the CLI alike.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attempts;
pub mod auth;
pub mod canonical;
pub mod credentials;
pub mod digest;
pub mod error;
pub mod finding;
pub mod learning;
pub mod ledger;
pub mod memory;
pub mod proposals;
pub mod records;
pub mod refusal;
pub mod review;
pub mod revision;
pub mod screen;
pub mod skills;
pub mod time;

pub use error::DomainError;
pub use refusal::Refusal;
