//! A strict parser of the Prometheus text format (0.0.4), as much of it as
//! a scraper relies on: `# HELP` and `# TYPE` once per family and before
//! its samples, each family's samples together, valid names and escaped
//! label values, no duplicate series, and histograms whose buckets are
//! cumulative and end in `+Inf` equal to `_count`.

use std::collections::{BTreeMap, BTreeSet};

/// One sample line.
#[derive(Debug)]
pub(super) struct Sample {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub value: f64,
}

/// A parsed exposition.
#[derive(Debug, Default)]
pub(super) struct Exposition {
    /// Family name to its type.
    pub types: BTreeMap<String, String>,
    pub samples: Vec<Sample>,
}

fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
}

fn parse_value(text: &str) -> Result<f64, String> {
    match text {
        "+Inf" => Ok(f64::INFINITY),
        "-Inf" => Ok(f64::NEG_INFINITY),
        "NaN" => Ok(f64::NAN),
        _ => text.parse().map_err(|_| format!("bad value {text:?}")),
    }
}

/// Parses `{a="x",b="y"}` (the braces included), returning the labels and
/// the rest of the line.
fn parse_labels(text: &str) -> Result<(BTreeMap<String, String>, &str), String> {
    let mut labels = BTreeMap::new();
    let mut rest = text.strip_prefix('{').ok_or("labels start with {")?;
    loop {
        if let Some(after) = rest.strip_prefix('}') {
            return Ok((labels, after));
        }
        let eq = rest.find('=').ok_or("a label without =")?;
        let name = &rest[..eq];
        if !valid_name(name) || name.contains(':') {
            return Err(format!("bad label name {name:?}"));
        }
        rest = rest[eq + 1..]
            .strip_prefix('"')
            .ok_or("label values are quoted")?;
        let mut value = String::new();
        let mut chars = rest.char_indices();
        let end = loop {
            match chars.next() {
                Some((_, '\\')) => match chars.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, c @ ('\\' | '"'))) => value.push(c),
                    other => return Err(format!("bad escape {other:?}")),
                },
                Some((i, '"')) => break i,
                Some((_, '\n')) | None => return Err("unterminated label value".into()),
                Some((_, c)) => value.push(c),
            }
        };
        if labels.insert(name.to_owned(), value).is_some() {
            return Err(format!("label {name} repeated"));
        }
        rest = &rest[end + 1..];
        rest = rest.strip_prefix(',').unwrap_or(rest);
    }
}

/// The family a sample name belongs to, given the declared types.
fn family_of<'a>(name: &'a str, types: &BTreeMap<String, String>) -> Option<&'a str> {
    if types.contains_key(name) {
        return Some(name);
    }
    ["_bucket", "_sum", "_count"].iter().find_map(|suffix| {
        let base = name.strip_suffix(suffix)?;
        (types.get(base).map(String::as_str) == Some("histogram")).then_some(base)
    })
}

impl Exposition {
    /// Parses and checks `text`.
    pub fn parse(text: &str) -> Result<Exposition, String> {
        let mut e = Exposition::default();
        let mut helps = BTreeSet::new();
        let mut closed = BTreeSet::new();
        let mut current: Option<String> = None;
        let mut series = BTreeSet::new();
        for (n, line) in text.lines().enumerate() {
            let at = |msg: String| format!("line {}: {msg}: {line:?}", n + 1);
            if let Some(comment) = line.strip_prefix('#') {
                let mut words = comment.trim_start().splitn(3, ' ');
                let (keyword, name) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
                let rest = words.next().unwrap_or("");
                if !matches!(keyword, "HELP" | "TYPE") {
                    continue;
                }
                if !valid_name(name) {
                    return Err(at("bad metric name".into()));
                }
                if closed.contains(name) {
                    return Err(at("a family after its samples ended".into()));
                }
                if keyword == "HELP" {
                    if !helps.insert(name.to_owned()) || rest.is_empty() {
                        return Err(at("HELP repeated or empty".into()));
                    }
                } else {
                    if !matches!(
                        rest,
                        "counter" | "gauge" | "histogram" | "summary" | "untyped"
                    ) {
                        return Err(at("unknown type".into()));
                    }
                    if e.types.insert(name.to_owned(), rest.to_owned()).is_some() {
                        return Err(at("TYPE repeated".into()));
                    }
                }
                if current.as_deref() != Some(name)
                    && let Some(previous) = current.replace(name.to_owned())
                {
                    closed.insert(previous);
                }
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let name_end = line.find(['{', ' ']).ok_or_else(|| at("no value".into()))?;
            let name = &line[..name_end];
            if !valid_name(name) {
                return Err(at("bad metric name".into()));
            }
            let (labels, rest) = if line[name_end..].starts_with('{') {
                parse_labels(&line[name_end..]).map_err(at)?
            } else {
                (BTreeMap::new(), &line[name_end..])
            };
            let mut fields = rest.split_whitespace();
            let value =
                parse_value(fields.next().ok_or_else(|| at("no value".into()))?).map_err(at)?;
            if fields.count() > 1 {
                return Err(at("trailing text".into()));
            }
            let family = family_of(name, &e.types).ok_or_else(|| at("no TYPE for it".into()))?;
            if current.as_deref() != Some(family) {
                return Err(at("a sample away from its family".into()));
            }
            if !helps.contains(family) {
                return Err(at("no HELP for it".into()));
            }
            if e.types[family] == "counter" && (value.is_nan() || value < 0.0) {
                return Err(at("a negative counter".into()));
            }
            if !series.insert((name.to_owned(), labels.clone())) {
                return Err(at("a duplicate series".into()));
            }
            e.samples.push(Sample {
                name: name.to_owned(),
                labels,
                value,
            });
        }
        e.check_histograms()?;
        Ok(e)
    }

    /// Buckets ascend in `le`, their counts never fall, and `+Inf` equals
    /// `_count`; `_sum` is there and not negative (durations and sizes).
    fn check_histograms(&self) -> Result<(), String> {
        for (family, kind) in &self.types {
            if kind != "histogram" {
                continue;
            }
            let mut groups: BTreeMap<BTreeMap<String, String>, Vec<(f64, f64)>> = BTreeMap::new();
            for s in self
                .samples
                .iter()
                .filter(|s| s.name == format!("{family}_bucket"))
            {
                let mut labels = s.labels.clone();
                let le = labels
                    .remove("le")
                    .ok_or(format!("{family}: a bucket without le"))?;
                groups
                    .entry(labels)
                    .or_default()
                    .push((parse_value(&le)?, s.value));
            }
            for (labels, buckets) in &groups {
                let ascending = buckets
                    .windows(2)
                    .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1);
                if !ascending {
                    return Err(format!(
                        "{family}{labels:?}: buckets not cumulative: {buckets:?}"
                    ));
                }
                let last = buckets.last().expect("a group has a bucket");
                if !(last.0.is_infinite() && last.0 > 0.0) {
                    return Err(format!("{family}{labels:?}: no +Inf bucket"));
                }
                let count = self.value(&format!("{family}_count"), labels);
                let sum = self.value(&format!("{family}_sum"), labels);
                if count.is_none_or(|c| c.total_cmp(&last.1).is_ne())
                    || !sum.is_some_and(|s| s >= 0.0)
                {
                    return Err(format!(
                        "{family}{labels:?}: +Inf {} but _count {count:?}, _sum {sum:?}",
                        last.1
                    ));
                }
            }
        }
        Ok(())
    }

    /// The value of the series `name` with exactly `labels`.
    pub fn value(&self, name: &str, labels: &BTreeMap<String, String>) -> Option<f64> {
        self.samples
            .iter()
            .find(|s| s.name == name && s.labels == *labels)
            .map(|s| s.value)
    }

    /// The count in the series `name` with exactly the labels given, 0
    /// when the series is absent (a counter not yet incremented); counts
    /// are whole numbers.
    pub fn get(&self, name: &str, labels: &[(&str, &str)]) -> u64 {
        let labels = labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let value = self.value(name, &labels).unwrap_or(0.0);
        assert!(
            value >= 0.0 && value.fract() == 0.0 && value < 1e15,
            "{name}{labels:?} = {value} is not a count"
        );
        value as u64
    }

    /// Every sample name and family name.
    pub fn names(&self) -> BTreeSet<&str> {
        self.samples
            .iter()
            .map(|s| s.name.as_str())
            .chain(self.types.keys().map(String::as_str))
            .collect()
    }
}

#[test]
fn the_parser_refuses_what_a_scraper_would() {
    let ok = "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"q\\\"\"} 1\n";
    assert!(Exposition::parse(ok).is_ok());
    for bad in [
        "a_total 1\n",
        "# HELP a_total A.\n# TYPE a_total counter\na_total -1\n",
        "# HELP a_total A.\n# TYPE a_total counter\na_total 1\na_total 2\n",
        "# HELP a_total A.\n# TYPE a_total counter\na_total{x=\"1} 1\n",
        "# HELP h H.\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",
        "# HELP h H.\n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\nh_sum 1\nh_count 1\n",
        "# HELP a A.\n# TYPE a gauge\n# HELP b B.\n# TYPE b gauge\nb 1\na 1\n",
    ] {
        assert!(Exposition::parse(bad).is_err(), "{bad}");
    }
}
