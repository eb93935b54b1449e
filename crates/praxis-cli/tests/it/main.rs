//! Integration tests of the `praxis` binary, run as a real process: its
//! command line, durability of acknowledged writes when it is killed, and
//! the served API against its OpenAPI document (every answer a test draws
//! through the checking proxy, and a Schemathesis run).

mod attempts;
mod backup;
mod chunked;
mod cli;
mod contract;
mod credentials;
mod desk;
mod kill;
mod learning;
mod mcp;
mod memory;
mod migrate;
mod proposals;
mod proxy;
mod records;
mod review;
mod screen;
mod support;
