//! Integration tests of the storage engines. Every test runs on both backends.

mod attempts;
mod contract;
mod experiences;
mod layout;
mod learning;
mod memory;
mod migrate;
mod procedures;
mod project_skills;
mod proposals;
mod record_search;
mod records;
mod snapshot;
mod tamper;
