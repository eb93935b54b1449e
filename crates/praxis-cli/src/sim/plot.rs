//! The picture of one anytime run: its confidence sequence on the mean
//! paired difference, trial by trial, against the threshold.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;
use praxis_domain::learning::stats::{AnytimeTest, Verdict};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use super::model::PairedBernoulli;

/// Where a run stood after one trial.
pub struct Point {
    trial: u64,
    mean: f64,
    lower: f64,
    upper: f64,
}

/// A run, trial by trial.
pub type Sequence = Vec<Point>;

/// Which of a point's values a line shows.
type Pick = fn(&Point) -> f64;

/// One anytime run until it decides or reaches `max_trials`.
pub fn one_run(
    model: &PairedBernoulli,
    seed: u64,
    delta: f64,
    m: f64,
    max_trials: u64,
) -> Sequence {
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x0c5e_0c5e);
    let mut test = AnytimeTest::new(delta, m);
    let mut points = Vec::new();
    loop {
        let verdict = test.observe(model.draw(&mut rng));
        points.push(Point {
            trial: test.trials(),
            mean: test.mean().unwrap_or(0.0),
            lower: test.lower(),
            upper: test.upper(),
        });
        if verdict != Verdict::Undecided || test.trials() >= max_trials {
            return points;
        }
    }
}

/// Writes the run as an SVG: the running mean, the two bounds and the
/// threshold.
pub fn write_svg(path: &Path, points: &Sequence, m: f64, effect: f64) -> anyhow::Result<()> {
    let last = points.last().map_or(1, |p| p.trial);
    let root = SVGBackend::new(path, (800, 480)).into_drawing_area();
    root.fill(&WHITE).context("drawing the plot")?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("anytime_v1, one run at e = {effect}: decided after {last} trials"),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0u64..last, -1.0f64..1.0)
        .context("drawing the plot")?;
    chart
        .configure_mesh()
        .x_desc("paired trials")
        .y_desc("mean paired difference")
        .draw()
        .context("drawing the plot")?;
    let series: [(&str, RGBColor, Pick); 3] = [
        ("lower bound", BLUE, |p| p.lower),
        ("upper bound", RED, |p| p.upper),
        ("running mean", BLACK, |p| p.mean),
    ];
    for (label, color, pick) in series {
        chart
            .draw_series(LineSeries::new(
                points.iter().map(|p| (p.trial, pick(p))),
                color,
            ))
            .context("drawing the plot")?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], color));
    }
    chart
        .draw_series(LineSeries::new([(0, m), (last, m)], GREEN))
        .context("drawing the plot")?
        .label(format!("min_improvement = {m}"))
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], GREEN));
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE)
        .draw()
        .context("drawing the plot")?;
    root.present().context("writing the plot")?;
    Ok(())
}
