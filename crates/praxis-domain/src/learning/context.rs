//! Evaluation contexts: the registered, immutable description of where a
//! candidate is developed and evaluated (task, baseline, model, tools,
//! environment, dataset, harness and permissions), each by revision.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::registry::registry_digest;
use super::text::check_text;
use crate::canonical::pointer;
use crate::digest::Digest;
use crate::error::DomainError;

/// Event kind of a registered context; its payload is a [`ContextRegistered`].
pub const CONTEXT_REGISTERED: &str = "learning.context_registered";
/// Most tools a context may name.
pub const MAX_TOOLS: usize = 128;

/// The stream of one context's registration.
pub fn context_stream(id: &str) -> String {
    format!("learning-context/{id}")
}

/// An evaluation context as registered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Context {
    /// The context's id, tenant-wide.
    pub id: String,
    /// The task evaluated.
    pub task: String,
    /// The baseline a candidate is compared with.
    pub baseline_revision: String,
    /// Who serves the model.
    pub model_provider: String,
    /// The model's revision.
    pub model_revision: String,
    /// Each tool's revision, by tool name; canonical JSON orders the names.
    pub tools: BTreeMap<String, String>,
    /// The environment's revision.
    pub environment_revision: String,
    /// What the evaluation measures.
    pub evaluation_contract: String,
    /// The dataset's revision.
    pub dataset_revision: String,
    /// The harness's revision.
    pub harness_revision: String,
    /// The permissions' revision.
    pub permissions_revision: String,
}

/// The payload of [`CONTEXT_REGISTERED`]: the context as sent and its
/// digest. Who registered it and when are the event's actor and time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextRegistered {
    /// The context.
    pub context: Context,
    /// [`Context::digest`].
    pub digest: Digest,
}

impl Context {
    /// Checks every string (1–512 bytes, see [`check_text`]) and the number
    /// of tools; `path` points at the context object (`/context`).
    pub fn validate(&self, path: &str) -> Result<(), DomainError> {
        let fields = [
            ("id", &self.id),
            ("task", &self.task),
            ("baseline_revision", &self.baseline_revision),
            ("model_provider", &self.model_provider),
            ("model_revision", &self.model_revision),
            ("environment_revision", &self.environment_revision),
            ("evaluation_contract", &self.evaluation_contract),
            ("dataset_revision", &self.dataset_revision),
            ("harness_revision", &self.harness_revision),
            ("permissions_revision", &self.permissions_revision),
        ];
        for (name, value) in fields {
            check_text(&format!("{path}/{name}"), value)?;
        }
        if self.tools.len() > MAX_TOOLS {
            return Err(DomainError::invalid(
                format!("{path}/tools"),
                format!("names at most {MAX_TOOLS} tools"),
            ));
        }
        for (name, revision) in &self.tools {
            // A tool's name is a key: its pointer is the member itself.
            let at = format!("{path}/tools{}", pointer(std::slice::from_ref(name)));
            check_text(&at, name)?;
            check_text(&at, revision)?;
        }
        Ok(())
    }

    /// Plain SHA-256 of the context's canonical JSON. This is the
    /// `context_digest` an attempt binds.
    pub fn digest(&self) -> Digest {
        registry_digest(self)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::canonical::parse_strict;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// A valid context with the given tools.
    pub(crate) fn context(tools: BTreeMap<String, String>) -> Context {
        Context {
            id: "context-v1".into(),
            task: "triage flaky builds".into(),
            baseline_revision: "prompt-v3".into(),
            model_provider: "provider".into(),
            model_revision: "model-2025-01".into(),
            tools,
            environment_revision: "env-7".into(),
            evaluation_contract: "paired held-out tasks".into(),
            dataset_revision: "tasks-v2".into(),
            harness_revision: "harness-1".into(),
            permissions_revision: "perm-4".into(),
        }
    }

    fn tools(n: usize) -> BTreeMap<String, String> {
        (0..n).map(|i| (format!("tool-{i}"), "r1".into())).collect()
    }

    #[test]
    fn every_string_and_the_tool_count_are_checked() {
        assert_eq!(context(tools(MAX_TOOLS)).validate("/context"), Ok(()));
        assert_eq!(
            context(tools(MAX_TOOLS + 1))
                .validate("/context")
                .unwrap_err()
                .path(),
            Some("/context/tools")
        );
        let mut c = context(tools(1));
        c.harness_revision = "h".repeat(513);
        assert_eq!(
            c.validate("/context").unwrap_err().path(),
            Some("/context/harness_revision")
        );
        let mut c = context(BTreeMap::from([("a/b".into(), String::new())]));
        assert_eq!(
            c.validate("/context").unwrap_err().path(),
            Some("/context/tools/a~1b")
        );
        c.tools = BTreeMap::from([(String::new(), "r".into())]);
        assert_eq!(
            c.validate("/context").unwrap_err().path(),
            Some("/context/tools/")
        );
    }

    #[test]
    fn unknown_fields_are_refused() {
        let mut v = serde_json::to_value(context(tools(1))).unwrap();
        v["extra"] = json!("x");
        assert!(serde_json::from_value::<Context>(v).is_err());
    }

    /// An object's JSON text with its members in the order `order` picks,
    /// nested objects' members reversed; written by hand so that no map
    /// type can restore an order.
    fn reordered(value: &Value, order: &[usize]) -> String {
        fn object(members: Vec<(&String, String)>) -> String {
            let parts: Vec<String> = members
                .into_iter()
                .map(|(k, v)| format!("{}:{v}", serde_json::to_string(k).unwrap()))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        let Value::Object(map) = value else {
            unreachable!("contexts are objects")
        };
        let mut entries: Vec<(&String, String)> = map
            .iter()
            .map(|(k, v)| {
                let text = match v {
                    Value::Object(inner) => object(
                        inner
                            .iter()
                            .rev()
                            .map(|(k, v)| (k, v.to_string()))
                            .collect(),
                    ),
                    other => other.to_string(),
                };
                (k, text)
            })
            .collect();
        for (i, &j) in order.iter().enumerate() {
            let len = entries.len();
            entries.swap(i % len, j % len);
        }
        object(entries)
    }

    proptest! {
        /// Member order in the sent JSON never changes the digest, and any
        /// change of content does.
        #[test]
        fn member_order_does_not_change_the_digest(
            names in prop::collection::btree_map("[a-z]{1,8}", "[a-z0-9.]{1,8}", 0..6),
            order in prop::collection::vec(0usize..32, 0..16),
            task in "[a-z ]{1,20}",
        ) {
            let mut c = context(names);
            c.task = format!("t {task}");
            let value = serde_json::to_value(&c).unwrap();
            let text = reordered(&value, &order);
            let parsed: Context = serde_json::from_value(parse_strict(text.as_bytes()).unwrap()).unwrap();
            prop_assert_eq!(parsed.digest(), c.digest());
            let mut other = c.clone();
            other.task.push('!');
            prop_assert_ne!(other.digest(), c.digest());
        }
    }
}
