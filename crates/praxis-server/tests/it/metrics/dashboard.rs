//! The Grafana dashboard in `docs/grafana` cannot drift from the server:
//! it is valid JSON with a Prometheus data source variable, and every
//! metric its queries name is in a live server's `/metrics` after traffic.

use super::*;

use praxis_testkit::Backend;

const DASHBOARD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../docs/grafana/praxis-dashboard.json"
);

/// The `praxis_*` metric names a PromQL expression mentions.
fn metric_names(expr: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = expr;
    while let Some(at) = rest.find("praxis_") {
        let word: String = rest[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        rest = &rest[at + word.len()..];
        names.push(word);
    }
    names
}

/// Every query of the dashboard: panel targets and query variables.
fn queries(dashboard: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for panel in dashboard["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().into_iter().flatten() {
            out.push(
                target["expr"]
                    .as_str()
                    .expect("a target has an expr")
                    .to_owned(),
            );
        }
    }
    for var in dashboard["templating"]["list"]
        .as_array()
        .expect("variables")
    {
        if let Some(q) = var["query"]["query"].as_str() {
            out.push(q.to_owned());
        }
    }
    out
}

#[tokio::test]
async fn the_dashboard_queries_only_metrics_the_server_exposes() {
    let text = std::fs::read_to_string(DASHBOARD).expect("the dashboard is in docs/grafana");
    let dashboard: Value = serde_json::from_str(&text).expect("the dashboard is valid JSON");

    // A Prometheus data source variable, which every panel and query uses.
    let variables = dashboard["templating"]["list"].as_array().unwrap();
    assert!(
        variables.iter().any(|v| v["type"] == "datasource"
            && v["query"] == "prometheus"
            && v["name"] == "datasource"),
        "a Prometheus data source variable"
    );
    let panels = dashboard["panels"].as_array().unwrap();
    let mut ids = BTreeSet::new();
    for panel in panels {
        assert!(
            ids.insert(panel["id"].as_u64().unwrap()),
            "panel ids are unique"
        );
        if panel["type"] == "row" {
            continue;
        }
        assert_eq!(
            panel["datasource"]["uid"], "${datasource}",
            "{}",
            panel["title"]
        );
        let targets = panel["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{}", panel["title"]);
        for t in targets {
            assert_eq!(
                t["datasource"]["uid"], "${datasource}",
                "{}",
                panel["title"]
            );
            assert!(
                !metric_names(t["expr"].as_str().unwrap()).is_empty(),
                "{}: every query reads a Praxis metric",
                panel["title"]
            );
        }
    }
    let titles: Vec<&str> = panels.iter().filter_map(|p| p["title"].as_str()).collect();
    for wanted in [
        "Request rate by route",
        "p50 latency by route",
        "p99 latency by route",
        "Error rate by status",
        "Problems by code",
        "Commit duration",
        "Commit batch size",
        "Observations by disposition",
        "Assessments by recommendation",
        "Record submissions by verdict",
    ] {
        assert!(titles.contains(&wanted), "a panel {wanted:?}");
    }

    // Every metric named is in a live server's exposition after traffic.
    let server = Server::start(Backend::Sqlite).await;
    traffic(&server).await;
    let e = scrape(&server).await;
    let exposed = e.names();
    let named: BTreeSet<String> = queries(&dashboard)
        .iter()
        .flat_map(|q| metric_names(q))
        .collect();
    assert!(named.len() >= 10, "{named:?}");
    let missing: Vec<&String> = named
        .iter()
        .filter(|n| !exposed.contains(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "the dashboard names unknown metrics: {missing:?}"
    );
}

#[test]
fn metric_names_are_read_from_promql() {
    assert_eq!(
        metric_names("sum(rate(praxis_a_total{x=\"praxis\"}[5m])) / praxis_b_count"),
        ["praxis_a_total", "praxis_b_count"]
    );
}
