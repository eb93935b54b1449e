//! Integration tests of the `praxis` binary, run as a real process: its
//! command line, and durability of acknowledged writes when it is killed.

mod attempts;
mod cli;
mod kill;
mod records;
mod support;
