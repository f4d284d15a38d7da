//! The loss curve of a training run as a small standalone SVG (no plotting
//! library needed: two polylines, axes, ticks and a legend).

use super::trainer::EpochLoss;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 50.0;

/// A "nice" tick step (1, 2 or 5 times a power of ten) for a range.
fn tick_step(range: f64, ticks: f64) -> f64 {
    let raw = (range / ticks).max(1e-12);
    let p = 10f64.powf(raw.log10().floor());
    let f = raw / p;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.5 {
        2.0
    } else if f < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * p
}

/// Where the loss curve of weights written to `weights` goes: beside them,
/// `.loss.svg` for the extension (`it14.bin` → `it14.loss.svg`). The
/// `.loss` keeps it apart from the weights themselves, whatever they are
/// called, and from the picture of a match whose games file has the same
/// stem (`tiao match --pdn it14.pdn` draws `it14.svg`).
pub fn loss_picture(weights: &Path) -> PathBuf {
    weights.with_extension("loss.svg")
}

/// The SVG of training and validation loss per epoch.
pub fn loss_svg(history: &[EpochLoss], title: &str) -> String {
    let finite = |x: f64| x.is_finite();
    let values: Vec<f64> = history
        .iter()
        .flat_map(|e| [e.train, e.validation, e.validation_results])
        .filter(|&x| finite(x))
        .collect();
    let (mut lo, mut hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1e-3;
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let last = history.last().map_or(1, |e| e.epoch.max(1)) as f64;
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |epoch: f64| LEFT + epoch / last * pw;
    let y = |v: f64| TOP + (hi - v) / (hi - lo) * ph;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
        WIDTH / 2.0,
        escape(title)
    );
    // Axes and grid.
    let _ = writeln!(
        s,
        r#"<path d="M{LEFT} {TOP} V{} H{}" stroke="black" fill="none"/>"#,
        TOP + ph,
        LEFT + pw
    );
    let step = tick_step(hi - lo, 6.0);
    let mut t = (lo / step).ceil() * step;
    while t <= hi {
        let ty = y(t);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{ty:.1}" x2="{:.1}" y2="{ty:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            LEFT + pw,
            LEFT - 6.0,
            ty + 4.0,
            format_tick(t, step)
        );
        t += step;
    }
    let estep = tick_step(last, 8.0).max(1.0);
    let mut e = 0.0;
    while e <= last {
        let ex = x(e);
        let _ = writeln!(
            s,
            r#"<line x1="{ex:.1}" y1="{:.1}" x2="{ex:.1}" y2="{:.1}" stroke="black"/><text x="{ex:.1}" y="{:.1}" text-anchor="middle">{e}</text>"#,
            TOP + ph,
            TOP + ph + 5.0,
            TOP + ph + 18.0
        );
        e += estep;
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">epoch</text>"#,
        LEFT + pw / 2.0,
        HEIGHT - 10.0
    );
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">cross-entropy loss</text>"#,
        TOP + ph / 2.0,
        TOP + ph / 2.0
    );
    // The curves, and their legend.
    type Get = fn(&EpochLoss) -> f64;
    let series: [(&str, &str, Get); 3] = [
        ("training", "#1f77b4", |e| e.train),
        ("validation", "#d62728", |e| e.validation),
        ("validation vs results", "#2ca02c", |e| e.validation_results),
    ];
    let lx = LEFT + pw - 190.0;
    for (i, (name, colour, get)) in series.iter().enumerate() {
        let pts: Vec<String> = history
            .iter()
            .filter(|e| finite(get(e)))
            .map(|e| format!("{:.1},{:.1}", x(e.epoch as f64), y(get(e))))
            .collect();
        if !pts.is_empty() {
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="2"/>"#,
                pts.join(" ")
            );
        }
        let ly = TOP + 14.0 + 18.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{name}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

fn format_tick(v: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    format!("{v:.decimals$}")
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loss_curve_never_takes_the_name_of_the_weights_or_of_a_match_picture() {
        let cases = [
            ("it14.bin", "it14.loss.svg"),
            ("w", "w.loss.svg"),
            ("w.svg", "w.loss.svg"),
            ("w.loss.svg", "w.loss.loss.svg"),
            ("dir/w.SVG", "dir/w.loss.svg"),
        ];
        for (weights, curve) in cases {
            assert_eq!(loss_picture(Path::new(weights)), PathBuf::from(curve));
        }
    }
}
