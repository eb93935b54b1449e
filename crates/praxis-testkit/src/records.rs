//! Experience records for tests: a valid sample written here, and the
//! location of the upstream interoperability fixtures.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A complete, valid v0.1 candidate record with id `exp-<slug>-20261120`.
///
/// It passes the schema, the policy gate and screening as submitted; the
/// server-owned fields (lifecycle, review, screening, author) hold values a
/// submitter would send and the server overwrites.
pub fn sample_record(slug: &str) -> Value {
    praxis_api::examples::record(slug)
}

/// The directory of the Noosphere interoperability fixtures (the published
/// v0.1 schema, a reviewed record and a skill registry).
///
/// `PRAXIS_INTEROP_DIR` names it, or its parent holding `noosphere/`;
/// otherwise the ancestors of `start` are searched for
/// `shared/interop/noosphere`, beside or above the checkout, and last the
/// workspace's shared directory (`/work/shared`) of the development and CI
/// machines, for a clone placed elsewhere. Panics, naming where it looked,
/// when it cannot be found: an interoperability test never passes by
/// skipping.
pub fn interop_dir(start: &Path) -> PathBuf {
    let holds = |dir: &Path| dir.join("registry.json").is_file();
    if let Some(root) = std::env::var_os("PRAXIS_INTEROP_DIR") {
        let root = PathBuf::from(root);
        return [root.join("noosphere"), root.clone()]
            .into_iter()
            .find(|d| holds(d))
            .unwrap_or_else(|| {
                panic!(
                    "PRAXIS_INTEROP_DIR={} holds no noosphere fixtures",
                    root.display()
                )
            });
    }
    let mut looked = Vec::new();
    let beside = start.ancestors().flat_map(|ancestor| {
        [
            ancestor.join("shared/interop/noosphere"),
            ancestor.join("../shared/interop/noosphere"),
        ]
    });
    for candidate in beside.chain([PathBuf::from("/work/shared/interop/noosphere")]) {
        if holds(&candidate) {
            return candidate;
        }
        looked.push(candidate);
    }
    panic!(
        "the interoperability fixtures were not found; set PRAXIS_INTEROP_DIR. Looked in: {looked:?}"
    );
}
