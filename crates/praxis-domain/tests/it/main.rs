//! Integration tests of `praxis-domain`, built as one binary so that adding a
//! module does not add a link step.

mod learning_stats;
mod records;
mod repository;
mod screen;
mod vectors;
