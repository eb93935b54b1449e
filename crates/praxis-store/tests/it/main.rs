//! Integration tests of the storage engines. Every test runs on both backends.

mod attempts;
mod contract;
mod experiences;
mod layout;
mod learning;
mod procedures;
mod records;
mod tamper;
