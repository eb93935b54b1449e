//! The shape of the code, checked from its source: the invariants of
//! ARCHITECTURE.md that a compiler does not enforce.
//!
//! A module's dependencies are the top-level modules its files name with
//! `crate::` (in `use` declarations and in paths). Comments are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The storage concepts, each a folder of `praxis-store/src`.
const CONCEPTS: [&str; 5] = ["auth", "attempts", "records", "skills", "learning"];
/// The storage engines, each a folder of `praxis-store/src`.
const ENGINES: [&str; 2] = ["sqlite", "postgres"];
/// Longest source file allowed.
const MAX_LINES: usize = 1_000;

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("crates/")
        .to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src` belongs to (`lib` for `lib.rs`).
fn top_module(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("file under src");
    let first = relative
        .components()
        .next()
        .expect("non-empty path")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_owned()
}

/// The top-level modules a piece of code names after `crate::`.
fn crate_references(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = matching_brace(group);
            for item in split_top_level(&group[..end]) {
                out.insert(identifier(item.trim()));
            }
        } else {
            out.insert(identifier(rest));
        }
    }
    out.retain(|m| !m.is_empty() && m.chars().next().is_some_and(char::is_lowercase));
    out
}

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Index of the `}` closing a group whose `{` was just consumed.
fn matching_brace(text: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return i,
            '}' => depth -= 1,
            _ => {}
        }
    }
    text.len()
}

fn split_top_level(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Code without its comments (line comments only; the code base has no
/// block comments).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(at) => &l[..at],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Each top-level module of a crate with the top-level modules it uses.
fn module_graph(krate: &str) -> BTreeMap<String, BTreeSet<String>> {
    let src = crates_dir().join(krate).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let module = top_module(&src, &file);
        let text = std::fs::read_to_string(&file).expect("readable source");
        let uses = crate_references(&without_comments(&text));
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(uses.into_iter().filter(|m| *m != module));
    }
    graph
}

/// A cycle of the graph, if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn store_modules_have_no_import_cycle() {
    let graph = module_graph("praxis-store");
    assert!(graph.contains_key("ledger") && graph.contains_key("sqlite"));
    assert_eq!(find_cycle(&graph), None, "{graph:#?}");
}

#[test]
fn domain_modules_have_no_import_cycle() {
    let graph = module_graph("praxis-domain");
    assert!(graph.contains_key("attempts") && graph.contains_key("records"));
    assert_eq!(find_cycle(&graph), None, "{graph:#?}");
}

#[test]
fn concepts_build_on_the_ledger_alone() {
    let graph = module_graph("praxis-store");
    let allowed: BTreeSet<&str> = ["ledger", "error"].into_iter().chain(CONCEPTS).collect();
    for concept in CONCEPTS {
        let uses = &graph[concept];
        let extra: Vec<&String> = uses
            .iter()
            .filter(|m| !allowed.contains(m.as_str()))
            .collect();
        assert!(extra.is_empty(), "{concept} uses {extra:?}");
    }
    let ledger: Vec<&String> = graph["ledger"].iter().filter(|m| *m != "error").collect();
    assert!(ledger.is_empty(), "the ledger uses {ledger:?}");
}

#[test]
fn only_opening_a_store_names_an_engine() {
    let graph = module_graph("praxis-store");
    for (module, uses) in &graph {
        let named: Vec<&&str> = ENGINES.iter().filter(|e| uses.contains(**e)).collect();
        // `lib` holds `open()`; `bench` is the raw baseline's door, which
        // needs an engine's own connection settings.
        let may = ENGINES.contains(&module.as_str()) || module == "lib" || module == "bench";
        assert!(may || named.is_empty(), "{module} names {named:?}");
    }
}

#[test]
fn no_source_file_is_longer_than_a_thousand_lines() {
    let mut long = Vec::new();
    for krate in std::fs::read_dir(crates_dir()).expect("crates dir") {
        let krate = krate.expect("entry").path();
        // Tests are source too: a long test file is as hard to read.
        let mut files = Vec::new();
        for dir in ["src", "tests"] {
            if krate.join(dir).is_dir() {
                rust_files(&krate.join(dir), &mut files);
            }
        }
        for file in files {
            let lines = std::fs::read_to_string(&file)
                .expect("readable source")
                .lines()
                .count();
            if lines > MAX_LINES {
                long.push(format!("{} ({lines} lines)", file.display()));
            }
        }
    }
    assert!(long.is_empty(), "{long:#?}");
}

#[test]
fn references_are_read_from_use_groups_and_paths() {
    let code =
        "use crate::{ledger::{Ctx, LedgerTx}, error::StoreError};\nlet x = crate::skills::apply();";
    let found: Vec<String> = crate_references(code).into_iter().collect();
    assert_eq!(found, ["error", "ledger", "skills"]);
    let graph = BTreeMap::from([
        ("a".to_owned(), BTreeSet::from(["b".to_owned()])),
        ("b".to_owned(), BTreeSet::from(["a".to_owned()])),
    ]);
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".to_owned(), "b".to_owned(), "a".to_owned()])
    );
}
