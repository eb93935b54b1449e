//! Integration tests of the HTTP server over real loopback HTTP, on both stores.

mod attempts;
mod auth;
mod connections;
mod cursors;
mod examples;
mod experiences;
mod head;
mod http;
mod idempotency;
mod learning;
mod mcp;
mod memory;
mod metrics;
mod openapi;
mod procedures;
mod proposals;
mod readiness;
mod records;
mod screen;
mod support;
