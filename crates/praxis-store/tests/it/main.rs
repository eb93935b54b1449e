//! Integration tests of the storage engines. Every test runs on both backends.

mod contract;
mod tamper;
