//! RFC 8785 conformance, judged by an implementation other than ours.
//!
//! A digest is only as trustworthy as the canonical form under it, and a test
//! that compares our canonicalizer with itself proves nothing. So the committed
//! vectors in `tests/vectors/` come from Python's `rfc8785` package (see
//! `generate.py` there), and [`random_values_match_python_rfc8785`] asks that
//! package live about values our tests have never seen before.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use praxis_domain::DomainError;
use praxis_domain::canonical::{MAX_SAFE_INTEGER, canonical_bytes, check_value, parse_strict};
use praxis_domain::digest::Digest;
use serde::Deserialize;
use serde_json::{Map, Value};

/// One accepted input and what RFC 8785 says it canonicalizes to.
#[derive(Deserialize)]
struct Vector {
    name: String,
    input: String,
    canonical: String,
    kind: String,
    digest: String,
}

/// One input that `parse_strict` must refuse, and how.
#[derive(Deserialize)]
struct Reject {
    name: String,
    input: String,
    reason: String,
    /// Name of the expected `DomainError` variant.
    error: String,
    /// JSON pointer the error must carry, for variants that carry one.
    path: Option<String>,
}

fn load<T: for<'de> Deserialize<'de>>(file: &str) -> Vec<T> {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "vectors", file]
        .iter()
        .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is malformed: {e}", path.display()))
}

/// Every committed vector parses, canonicalizes and digests as Python said.
///
/// All failures are collected before asserting, so one run names every broken
/// vector rather than only the first.
#[test]
fn committed_vectors_match() {
    let vectors: Vec<Vector> = load("jcs.json");
    assert!(vectors.len() >= 40, "only {} vectors", vectors.len());
    let mut failures = Vec::new();
    for v in &vectors {
        let value = match parse_strict(v.input.as_bytes()) {
            Ok(value) => value,
            Err(e) => {
                failures.push(format!("{}: parse_strict refused it: {e}", v.name));
                continue;
            }
        };
        let ours = canonical_bytes(&value);
        if ours != v.canonical.as_bytes() {
            failures.push(format!(
                "{}: canonical form differs\n  ours:     {}\n  expected: {}",
                v.name,
                String::from_utf8_lossy(&ours),
                v.canonical
            ));
        }
        // Digest the expected text, not ours, so a digest mismatch points at
        // the digest rule alone.
        let digest = Digest::of_bytes(&v.kind, v.canonical.as_bytes()).to_hex();
        if digest != v.digest {
            failures.push(format!(
                "{}: digest differs\n  ours:     {digest}\n  expected: {}",
                v.name, v.digest
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every reject vector is refused, with the expected error and pointer.
#[test]
fn reject_vectors_are_refused() {
    let rejects: Vec<Reject> = load("reject.json");
    assert!(rejects.len() >= 12, "only {} reject vectors", rejects.len());
    let mut failures = Vec::new();
    for r in &rejects {
        let (variant, path) = match parse_strict(r.input.as_bytes()) {
            Ok(value) => {
                failures.push(format!("{} ({}): accepted as {value}", r.name, r.reason));
                continue;
            }
            Err(DomainError::DuplicateKey { path }) => ("DuplicateKey", Some(path)),
            Err(DomainError::NumberOutOfRange { path }) => ("NumberOutOfRange", Some(path)),
            Err(DomainError::MalformedJson { .. }) => ("MalformedJson", None),
            Err(other) => {
                failures.push(format!(
                    "{} ({}): unexpected error {other:?}",
                    r.name, r.reason
                ));
                continue;
            }
        };
        if variant != r.error || path != r.path {
            failures.push(format!(
                "{} ({}): got {variant} at {path:?}, expected {} at {:?}",
                r.name, r.reason, r.error, r.path
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Reads JSON lines on stdin, writes one RFC 8785 canonical form per line.
///
/// Lines are split on `\n` bytes only: canonical text escapes `\n` but not
/// U+2028, which Python's text-mode line splitting could treat as a break.
const PYTHON_CANONICALIZER: &str = r#"
import json, sys
try:
    import rfc8785
except ImportError:
    sys.stderr.write("the Python module rfc8785 is missing: run the tests with `scripts/test`\n")
    sys.exit(3)
out = sys.stdout.buffer
for line in sys.stdin.buffer.read().split(b"\n"):
    if line:
        out.write(rfc8785.dumps(json.loads(line.decode("utf-8"))) + b"\n")
"#;

/// Canonicalizes many random values with us and with Python's `rfc8785`.
///
/// Python is required, never skipped: a silent skip would let the only
/// independent check of our canonical form quietly stop running.
#[test]
fn random_values_match_python_rfc8785() {
    const COUNT: usize = 300;
    let mut rng = SplitMix64(0x5052_4158_4953_4a43); // "PRAXISJC": fixed, so failures reproduce.
    let mut inputs = Vec::with_capacity(COUNT);
    let mut ours = Vec::with_capacity(COUNT);
    for i in 0..COUNT {
        let value = if i % 10 == 0 {
            random_value(&mut rng, 0)
        } else {
            random_container(&mut rng, 4)
        };
        check_value(&value).expect("the generator stays within the exact number range");
        // serde_json's own compact output is not canonical (key order, float
        // spelling), so Python canonicalizes from scratch rather than echoing us.
        let text = serde_json::to_string(&value).expect("a Value serializes");
        let reparsed = parse_strict(text.as_bytes()).expect("our own output parses strictly");
        assert_eq!(
            reparsed, value,
            "value {i} changed through a text round trip: {text}"
        );
        ours.push(canonical_bytes(&reparsed));
        inputs.push(text);
    }

    let theirs = python_canonicalize(&inputs);
    assert_eq!(
        theirs.len(),
        COUNT,
        "Python returned {} lines for {COUNT} inputs",
        theirs.len()
    );
    let mismatches: Vec<String> = (0..COUNT)
        .filter(|&i| ours[i] != theirs[i])
        .map(|i| {
            format!(
                "value {i}\n  input:  {}\n  ours:   {}\n  python: {}",
                inputs[i],
                String::from_utf8_lossy(&ours[i]),
                String::from_utf8_lossy(&theirs[i])
            )
        })
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} of {COUNT} values canonicalize differently:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// Runs one Python process over all inputs; one process keeps the test fast.
fn python_canonicalize(inputs: &[String]) -> Vec<Vec<u8>> {
    let mut child = Command::new("python3")
        .args(["-c", PYTHON_CANONICALIZER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run python3 ({e}): run the tests with `scripts/test`, which sets up rfc8785"
            )
        });
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let payload = inputs.join("\n") + "\n";
    // Write from another thread so a full stdout pipe can never deadlock us.
    let writer = std::thread::spawn(move || stdin.write_all(payload.as_bytes()));
    let output = child.wait_with_output().expect("python3 ran");
    writer
        .join()
        .expect("the writer thread does not panic")
        .expect("python3 read its input");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.code() != Some(3), "{stderr}");
    assert!(
        output.status.success(),
        "python3 failed ({}); if rfc8785 is missing, run the tests with `scripts/test`:\n{stderr}",
        output.status
    );
    output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// SplitMix64: a tiny deterministic generator, so the cross-check needs no
/// extra dependency and every run tests the same values.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Characters that stress escaping and UTF-16 ordering: controls, quote and
/// backslash, DEL, line separators, BMP characters above the surrogate range
/// and non-BMP characters, which UTF-16 sorts before U+E000..U+FFFF.
const STRING_CHARS: &[char] = &[
    'a',
    'b',
    'A',
    'Z',
    '0',
    '9',
    ' ',
    '"',
    '\\',
    '/',
    '\u{0}',
    '\u{8}',
    '\t',
    '\n',
    '\u{c}',
    '\r',
    '\u{1f}',
    '\u{7f}',
    '\u{80}',
    'é',
    '\u{2028}',
    '\u{2029}',
    '€',
    '\u{fb33}',
    '\u{e000}',
    '\u{fffd}',
    '\u{ffff}',
    '😀',
    '\u{10000}',
    '\u{10ffff}',
];

/// A smaller alphabet for keys, so that siblings often share prefixes.
const KEY_CHARS: &[char] = &[
    'a',
    'b',
    'A',
    'B',
    '1',
    '\r',
    '\u{80}',
    'é',
    '€',
    '\u{fb33}',
    '\u{e000}',
    '\u{ffff}',
    '😀',
    '\u{10000}',
    '\u{10ffff}',
];

fn random_string(rng: &mut SplitMix64, alphabet: &[char], max_len: u64) -> String {
    (0..rng.below(max_len + 1))
        .map(|_| rng.pick(alphabet))
        .collect()
}

fn random_int(rng: &mut SplitMix64) -> i64 {
    let magnitude = match rng.below(8) {
        0 => MAX_SAFE_INTEGER,
        // Varied bit lengths, so short and long integers both appear.
        _ => rng.next() & ((1u64 << rng.below(54)) - 1),
    };
    let magnitude = i64::try_from(magnitude).expect("below 2^53");
    if rng.below(2) == 0 {
        magnitude
    } else {
        -magnitude
    }
}

/// A finite double that `parse_strict` accepts: integral ones stay within
/// ±(2^53−1) because larger ones are refused at ingress.
fn random_float(rng: &mut SplitMix64) -> f64 {
    const SPECIAL: &[f64] = &[
        0.0,
        -0.0,
        0.5,
        0.1,
        1.0 / 3.0,
        1e-7,
        1e-6,
        // The double just below 1e-6, the last one printed with an exponent.
        f64::from_bits(1e-6f64.to_bits() - 1),
        5e-324,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        4_503_599_627_370_495.5,
        9_007_199_254_740_991.0,
    ];
    loop {
        let f = match rng.below(4) {
            // Any bit pattern: exercises every exponent, subnormals included.
            0 => f64::from_bits(rng.next()),
            // Short decimals around the 1e-7 switch to exponent notation.
            1 => rng.below(1_000_000) as f64 * 10f64.powi(rng.below(34) as i32 - 24),
            // Full 53-bit mantissas scaled across a wide range.
            2 => (rng.next() >> 11) as f64 * 2f64.powi(rng.below(120) as i32 - 100),
            _ => rng.pick(SPECIAL),
        };
        let f = if rng.below(2) == 0 { f } else { -f };
        if f.is_finite() && (f.fract() != 0.0 || f.abs() <= MAX_SAFE_INTEGER as f64) {
            return f;
        }
    }
}

fn random_value(rng: &mut SplitMix64, depth: u32) -> Value {
    let kinds = if depth == 0 { 5 } else { 7 };
    match rng.below(kinds) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => Value::from(random_int(rng)),
        3 => Value::from(random_float(rng)),
        4 => Value::String(random_string(rng, STRING_CHARS, 8)),
        _ => random_container(rng, depth),
    }
}

fn random_container(rng: &mut SplitMix64, depth: u32) -> Value {
    let len = rng.below(7);
    let child_depth = depth.saturating_sub(1);
    if rng.below(3) == 0 {
        Value::Array((0..len).map(|_| random_value(rng, child_depth)).collect())
    } else {
        let mut map = Map::new();
        for _ in 0..len {
            let key = random_string(rng, KEY_CHARS, 3);
            map.insert(key, random_value(rng, child_depth));
        }
        Value::Object(map)
    }
}
