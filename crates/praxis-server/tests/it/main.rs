//! Integration tests of the HTTP server over real loopback HTTP, on both stores.

mod attempts;
mod auth;
mod cursors;
mod examples;
mod head;
mod http;
mod idempotency;
mod openapi;
mod records;
mod support;
