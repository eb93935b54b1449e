//! The v0.1 JSON Schema (written here) and structural findings.
//!
//! The schema is ours: it accepts exactly the records the published v0.1
//! schema accepts, but states each conditional rule so that a violation
//! points at the offending property (a forbidden property is a `false`
//! subschema, a status that may not take a value is an `enum` of the values
//! it may take). `format` stays an annotation, as Draft 2020-12 defines it:
//! the policy gate checks timestamps strictly instead.

use std::sync::LazyLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{JsonType, ValidationError, Validator};
use serde_json::Value;

use crate::finding::Finding;

/// The v0.1 record schema (Draft 2020-12).
pub const SCHEMA_JSON: &str = include_str!("schema.json");

/// The compiled schema, built on first use. `None` only if the embedded
/// schema is broken, which the unit tests rule out; callers then get one
/// finding instead of a panic.
static VALIDATOR: LazyLock<Option<Validator>> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SCHEMA_JSON).ok()?;
    jsonschema::draft202012::options()
        .should_validate_formats(false)
        .build(&schema)
        .ok()
});

/// Structural findings of `record` against the v0.1 schema, one per
/// violated keyword, pointing at the offending value.
pub fn findings(record: &Value) -> Vec<Finding> {
    let Some(validator) = VALIDATOR.as_ref() else {
        return vec![Finding::new(
            "",
            "schema.unavailable",
            "the embedded v0.1 schema could not be compiled",
        )];
    };
    validator.iter_errors(record).map(|e| finding(&e)).collect()
}

/// Whether `record` satisfies the v0.1 schema.
pub fn is_valid(record: &Value) -> bool {
    VALIDATOR.as_ref().is_some_and(|v| v.is_valid(record))
}

fn finding(error: &ValidationError<'_>) -> Finding {
    let kind = error.kind();
    Finding::new(
        error.instance_path().as_str(),
        format!("schema.{}", snake_case(kind.keyword())),
        message(kind),
    )
}

/// `maxLength` → `max_length`, `$ref` → `ref`: rule codes are lowercase
/// snake case whatever the keyword's spelling.
fn snake_case(keyword: &str) -> String {
    let mut out = String::with_capacity(keyword.len() + 4);
    for c in keyword.chars().filter(char::is_ascii_alphanumeric) {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Describes the rule from the error kind alone. The kind carries only
/// schema-side facts (limits, allowed values, property names); the
/// offending value is never read, so a secret cannot leak into a message.
fn message(kind: &ValidationErrorKind) -> String {
    use ValidationErrorKind as K;
    match kind {
        K::AdditionalProperties { unexpected } | K::UnevaluatedProperties { unexpected } => {
            format!("unexpected properties: {}", property_names(unexpected))
        }
        K::Required { property } => match property.as_str() {
            Some(name) => format!("missing required property `{name}`"),
            None => "a required property is missing".to_owned(),
        },
        K::Enum { options } => format!("must be one of {}", values(options)),
        K::Constant { expected_value } => format!("must be exactly {expected_value}"),
        K::Type { kind } => format!("must be of type {}", type_names(kind)),
        K::Pattern { pattern } => format!("must match the pattern `{pattern}`"),
        K::MinLength { limit } => format!("must be at least {limit} characters long"),
        K::MaxLength { limit } => format!("must be at most {limit} characters long"),
        K::MinItems { limit } => format!("must hold at least {limit} items"),
        K::MaxItems { limit } => format!("must hold at most {limit} items"),
        K::Minimum { limit } => format!("must be at least {limit}"),
        K::Maximum { limit } => format!("must be at most {limit}"),
        K::ExclusiveMinimum { limit } => format!("must be greater than {limit}"),
        K::ExclusiveMaximum { limit } => format!("must be less than {limit}"),
        K::MinProperties { limit } => format!("must have at least {limit} properties"),
        K::MaxProperties { limit } => format!("must have at most {limit} properties"),
        K::UniqueItems => "items must be unique".to_owned(),
        K::FalseSchema => {
            "this property is not allowed here (see the schema's conditional rules)".to_owned()
        }
        K::Contains => "no item has the shape this context requires \
             (an independently-reproduced level needs a passing external-run check)"
            .to_owned(),
        K::Format { format } => format!("must be a valid `{format}`"),
        K::Not { .. } => "matches a shape the schema forbids here".to_owned(),
        K::AnyOf { .. } | K::OneOfNotValid { .. } => {
            "matches none of the allowed shapes".to_owned()
        }
        K::OneOfMultipleValid { .. } => "matches more than one of the exclusive shapes".to_owned(),
        K::BacktrackLimitExceeded { .. } | K::RegexEngineFailure { .. } => {
            "the value could not be checked against its pattern".to_owned()
        }
        _ => format!("violates the schema keyword `{}`", kind.keyword()),
    }
}

/// Names of unexpected properties. A name is shown only when it looks like
/// a field name (lowercase snake case, short); anything else could be
/// pasted content, so it is counted but withheld.
fn property_names(names: &[String]) -> String {
    let shown: Vec<String> = names
        .iter()
        .filter(|n| looks_like_field_name(n))
        .map(|n| format!("`{n}`"))
        .collect();
    let withheld = names.len() - shown.len();
    match (shown.is_empty(), withheld) {
        (_, 0) => shown.join(", "),
        (true, n) => format!("{n} with names withheld"),
        (false, n) => format!("{} and {n} with names withheld", shown.join(", ")),
    }
}

fn looks_like_field_name(name: &str) -> bool {
    let mut chars = name.chars();
    name.len() <= 40
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

fn values(options: &Value) -> String {
    match options {
        Value::Array(items) => items
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

fn type_names(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => t.to_string(),
        TypeKind::Multiple(set) => set
            .iter()
            .map(|t: JsonType| t.to_string())
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn embedded_schema_parses_and_compiles() {
        let schema: Value = serde_json::from_str(SCHEMA_JSON).expect("schema.json parses");
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert!(jsonschema::draft202012::new(&schema).is_ok());
        assert!(VALIDATOR.is_some());
    }

    #[test]
    fn rule_codes_are_snake_case_keywords() {
        assert_eq!(snake_case("maxLength"), "max_length");
        assert_eq!(snake_case("additionalProperties"), "additional_properties");
        assert_eq!(snake_case("$ref"), "ref");
        assert_eq!(snake_case("enum"), "enum");
    }

    #[test]
    fn non_objects_are_rejected_at_the_root() {
        let found = findings(&json!([1, 2]));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].pointer, "");
        assert_eq!(found[0].rule, "schema.type");
        assert!(!is_valid(&json!(null)));
    }

    #[test]
    fn unexpected_names_that_are_not_field_names_are_withheld() {
        let names = vec!["extra_field".to_owned(), "ghp_ABCdef0123456789".to_owned()];
        let text = property_names(&names);
        assert!(text.contains("`extra_field`"));
        assert!(!text.contains("ghp_"));
        assert!(text.contains("1 with names withheld"));
    }
}
