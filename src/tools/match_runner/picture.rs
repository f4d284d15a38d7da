//! The match's result as a picture: an SVG file with, per pairing, the
//! Elo difference and its 95% interval on one common axis (so pairings can
//! be compared at a glance), and, when an SPRT ran, the course of its
//! log-likelihood ratio pair by pair between the two bounds. It says what
//! the report's table says; the table stays the record.
//!
//! The SVG is written by hand (a few elements, no library): every text
//! that comes from outside (engine names, the description) is escaped, and
//! every coordinate is a finite number, so the file is always well-formed.

use super::report::Heading;
use super::results::PairingResults;
use super::stats::format_elo;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Least width of the picture, in SVG user units (pixels).
const MIN_WIDTH: f64 = 760.0;
/// Width of the plots.
const PLOT_WIDTH: f64 = 320.0;
/// About how wide a character is: the sans-serif text and the monospace
/// figures, at 12px. Labels are sized from these, so they are estimates
/// with room to spare.
const CHAR: f64 = 7.0;
const MONO_CHAR: f64 = 7.3;
/// Height of one pairing's row in the Elo chart.
const ROW: f64 = 30.0;
/// Height of one SPRT chart's plot area.
const SPRT_HEIGHT: f64 = 170.0;
/// An SPRT chart shows the LLR up to this many times the distance between
/// the bounds beyond them (a lopsided match's LLR runs into the thousands;
/// the course beyond is drawn along the edge), so the bounds stay apart.
const LLR_REACH: f64 = 2.0;
/// Elo axis when no estimate is finite (all +inf or -inf): the dots sit
/// at its ends.
const INFINITE_ELO_AXIS: f64 = 100.0;

/// Where things go across the picture, from its widest labels.
struct Layout {
    width: f64,
    /// The plots, between the pairing labels (left) and the figures (right).
    plot_left: f64,
    plot_right: f64,
}

impl Layout {
    fn new(labels: &[String], figures: &[String]) -> Layout {
        let longest = |texts: &[String]| texts.iter().map(|t| t.chars().count()).max().unwrap_or(0);
        let label_width = (longest(labels) as f64 * CHAR).clamp(120.0, 400.0);
        let plot_left = 20.0 + label_width + 10.0;
        let plot_right = plot_left + PLOT_WIDTH;
        // The SPRT bound labels ("H1 accepted at -2.94") sit there too.
        let figures_width = longest(figures).max(22) as f64 * MONO_CHAR;
        Layout {
            width: (plot_right + 10.0 + figures_width + 20.0).max(MIN_WIDTH),
            plot_left,
            plot_right,
        }
    }

    /// How many characters of running text fit on a line.
    fn line_chars(&self) -> usize {
        ((self.width - 40.0) / CHAR) as usize
    }
}

/// `text` in lines of at most `chars` characters, broken at spaces (a
/// word longer than a line gets a line of its own).
fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= chars => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The file the picture of a match goes to: `--svg` if given, else the
/// PDN file's name with `.svg` for its extension (`None`: neither given).
pub fn path_for(svg: Option<&Path>, pdn: Option<&Path>) -> Option<PathBuf> {
    if let Some(svg) = svg {
        return Some(svg.to_path_buf());
    }
    pdn.map(svg_beside)
}

/// The picture's file beside `file`: its name with `.svg` for its
/// extension, or `.svg` added when it already has that extension, so the
/// picture never overwrites the games file it belongs to. The
/// extension is compared without case: on a case-insensitive file system
/// (macOS, Windows) `w.svg` is the file `w.SVG`.
pub fn svg_beside(file: &Path) -> PathBuf {
    if file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
    {
        let mut name = file.as_os_str().to_owned();
        name.push(".svg");
        PathBuf::from(name)
    } else {
        file.with_extension("svg")
    }
}

/// Text for SVG: markup characters escaped, characters XML does not allow
/// (controls other than tab and newline, U+FFFE, U+FFFF) replaced by `?`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate for the file: finite whatever came in (an infinite Elo is
/// clamped to the axis before it gets here; this is the last guard).
fn num(x: f64) -> String {
    let x = if x.is_finite() { x } else { 0.0 };
    format!("{:.1}", x + 0.0)
}

/// A round step between axis ticks that gives about five ticks over `span`.
fn tick_step(span: f64) -> f64 {
    let rough = (span / 5.0).max(1e-9);
    let magnitude = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * magnitude)
}

/// A linear map from `[lo, hi]` onto `[from, to]`, with both ends kept
/// finite and distinct.
#[derive(Clone, Copy)]
struct Scale {
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
    /// Between ticks.
    step: f64,
}

impl Scale {
    /// A scale over every finite value of `values` (and `always`), padded,
    /// with ends on ticks.
    fn around(values: impl Iterator<Item = f64>, always: &[f64], from: f64, to: f64) -> Scale {
        let finite: Vec<f64> = values
            .chain(always.iter().copied())
            .filter(|v| v.is_finite())
            .collect();
        let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo.is_finite() && hi > lo {
            (lo, hi)
        } else if lo.is_finite() {
            (lo - 1.0, lo + 1.0)
        } else {
            (-1.0, 1.0)
        };
        Scale::on_ticks(lo, hi, from, to)
    }

    /// A scale from `lo` to `hi` (`lo < hi`, both finite), widened to ticks.
    fn on_ticks(lo: f64, hi: f64, from: f64, to: f64) -> Scale {
        let step = tick_step(hi - lo);
        Scale {
            lo: (lo / step).floor() * step,
            hi: (hi / step).ceil() * step,
            from,
            to,
            step,
        }
    }

    /// Where `v` goes; values beyond the ends (infinities too) stop at them.
    fn at(&self, v: f64) -> f64 {
        let v = v.clamp(self.lo, self.hi);
        let v = if v.is_nan() { self.lo } else { v };
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }

    /// The tick values, ends included.
    fn ticks(&self) -> Vec<f64> {
        let count = ((self.hi - self.lo) / self.step).round() as i64;
        (0..=count.clamp(0, 50))
            .map(|i| self.lo + self.step * i as f64)
            .collect()
    }
}

/// A tick's label: no decimals unless the step needs them.
fn tick_label(v: f64) -> String {
    let v = v + 0.0;
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn text(out: &mut String, x: f64, y: f64, anchor: &str, class: &str, content: &str) {
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="{anchor}" class="{class}">{}</text>"#,
        num(x),
        num(y),
        escape(content)
    );
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), class: &str) {
    let _ = writeln!(
        out,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" class="{class}"/>"#,
        num(x1),
        num(y1),
        num(x2),
        num(y2)
    );
}

/// The label of a pairing, as the report's table writes it.
fn label(h: &Heading, p: &PairingResults) -> String {
    format!(
        "{} vs {}",
        h.names[p.pairing.first], h.names[p.pairing.second]
    )
}

/// The Elo figures of a pairing, as in the report's table: `+12.3
/// [-5.0, +29.6]`, or `-` without games.
fn figures(p: &PairingResults) -> String {
    match p.estimate() {
        Some(e) if e.std_error > 0.0 => format!(
            "{} [{}, {}]",
            format_elo(e.elo),
            format_elo(e.elo_low),
            format_elo(e.elo_high)
        ),
        Some(e) => format!("{} (no spread)", format_elo(e.elo)),
        None => "-".into(),
    }
}

/// Lines of running text from `top`, `class` as in the style sheet;
/// returns where the next line would go.
fn paragraph(out: &mut String, layout: &Layout, top: f64, class: &str, content: &str) -> f64 {
    let mut y = top;
    for line in wrap(content, layout.line_chars()) {
        text(out, 20.0, y, "start", class, &line);
        y += 18.0;
    }
    y
}

/// The Elo chart, from `top`; returns where it ends.
fn elo_chart(
    out: &mut String,
    layout: &Layout,
    h: &Heading,
    pairings: &[PairingResults],
    top: f64,
) -> f64 {
    let top = paragraph(
        out,
        layout,
        top,
        "heading",
        "Elo of the first engine of each pairing, with its 95% interval",
    );
    let estimates: Vec<_> = pairings.iter().map(PairingResults::estimate).collect();
    let values: Vec<f64> = estimates
        .iter()
        .flatten()
        .flat_map(|e| [e.elo, e.elo_low, e.elo_high])
        .filter(|v| v.is_finite())
        .collect();
    let (left, right) = (layout.plot_left, layout.plot_right);
    let x = if values.is_empty() {
        Scale::on_ticks(-INFINITE_ELO_AXIS, INFINITE_ELO_AXIS, left, right)
    } else {
        Scale::around(values.into_iter(), &[0.0], left, right)
    };
    let rows_top = top;
    let rows_bottom = rows_top + ROW * pairings.len() as f64;
    for t in x.ticks() {
        let at = x.at(t);
        let class = if t == 0.0 { "zero" } else { "grid" };
        line(out, (at, rows_top), (at, rows_bottom), class);
        text(
            out,
            at,
            rows_bottom + 16.0,
            "middle",
            "tick",
            &tick_label(t),
        );
    }
    for (i, (p, e)) in pairings.iter().zip(&estimates).enumerate() {
        let y = rows_top + ROW * (i as f64 + 0.5);
        text(out, left - 10.0, y + 4.0, "end", "label", &label(h, p));
        text(out, right + 10.0, y + 4.0, "start", "figure", &figures(p));
        if let Some(e) = e {
            if e.std_error > 0.0 {
                line(out, (x.at(e.elo_low), y), (x.at(e.elo_high), y), "interval");
                for end in [e.elo_low, e.elo_high] {
                    line(out, (x.at(end), y - 6.0), (x.at(end), y + 6.0), "interval");
                }
            }
            let _ = writeln!(
                out,
                r#"<circle cx="{}" cy="{}" r="4.5" class="elo"/>"#,
                num(x.at(e.elo)),
                num(y)
            );
        }
    }
    text(
        out,
        (left + right) / 2.0,
        rows_bottom + 32.0,
        "middle",
        "tick",
        "Elo (logistic; an infinite one at the end of the axis)",
    );
    rows_bottom + 44.0
}

/// One pairing's SPRT chart, from `top`; returns where it ends.
fn sprt_chart(out: &mut String, layout: &Layout, h: &Heading, p: &PairingResults, top: f64) -> f64 {
    let Some(sprt) = p.sprt else {
        return top;
    };
    let (lo, hi) = sprt.bounds();
    let llr = p.llr().unwrap_or(0.0);
    let standing = match p.sprt_stop {
        Some(s) => format!(
            "{} after {} pairs (LLR {:.2})",
            s.decision.describe(),
            s.pairs,
            s.llr
        ),
        None => sprt
            .decide(llr, p.tally.pair_count())
            .describe()
            .to_string(),
    };
    let top = paragraph(
        out,
        layout,
        top,
        "heading",
        &format!("SPRT {sprt}, {}", label(h, p)),
    );
    let top = paragraph(
        out,
        layout,
        top,
        "label",
        &format!(
            "LLR {llr:.2} after {} pairs: {standing}",
            p.tally.pair_count()
        ),
    );
    let plot_top = top + 14.0;
    let plot_bottom = plot_top + SPRT_HEIGHT;
    let last_pairs = p.llr_course.last().map_or(1, |&(n, _)| n.max(1));
    let x = Scale {
        lo: 0.0,
        hi: f64::from(last_pairs),
        // Room on the left for the LLR's tick labels.
        from: 70.0,
        to: layout.plot_right,
        step: f64::from(last_pairs),
    };
    let reach = LLR_REACH * (hi - lo);
    let course = p
        .llr_course
        .iter()
        .map(|&(_, l)| l.clamp(lo - reach, hi + reach));
    let y = Scale::around(course, &[lo, hi, 0.0], plot_bottom, plot_top);
    // The pairs before the test may decide: a crossing there is no decision.
    let early = x.at(f64::from(sprt.min_pairs.min(last_pairs)));
    let _ = writeln!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" class="early"/>"#,
        num(x.from),
        num(plot_top),
        num(early - x.from),
        num(SPRT_HEIGHT)
    );
    text(
        out,
        x.from,
        plot_bottom + 16.0,
        "start",
        "tick",
        &format!("shaded: no decision before {} pairs", sprt.min_pairs),
    );
    line(out, (x.from, plot_bottom), (x.to, plot_bottom), "grid");
    for t in y.ticks() {
        text(
            out,
            x.from - 8.0,
            y.at(t) + 4.0,
            "end",
            "tick",
            &tick_label(t),
        );
    }
    for (bound, name) in [(hi, "H1"), (lo, "H0")] {
        line(out, (x.from, y.at(bound)), (x.to, y.at(bound)), "bound");
        text(
            out,
            x.to + 8.0,
            y.at(bound) + 4.0,
            "start",
            "figure",
            &format!("{name} accepted at {bound:.2}"),
        );
    }
    line(out, (x.from, y.at(0.0)), (x.to, y.at(0.0)), "zero");
    if let Some(stop) = p.sprt_stop {
        let at = x.at(f64::from(stop.pairs));
        line(out, (at, plot_top), (at, plot_bottom), "decided");
        text(out, at, plot_top - 4.0, "middle", "tick", "decided");
    }
    let points: Vec<String> = std::iter::once((0, 0.0))
        .chain(p.llr_course.iter().copied())
        .map(|(n, l)| format!("{},{}", num(x.at(f64::from(n))), num(y.at(l))))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{}" class="llr"/>"#,
        points.join(" ")
    );
    text(
        out,
        x.to,
        plot_bottom + 16.0,
        "end",
        "tick",
        &format!("LLR after each of {last_pairs} game pairs"),
    );
    plot_bottom + 36.0
}

/// The whole picture, as SVG text.
pub fn render_svg(h: &Heading, pairings: &[PairingResults]) -> String {
    let labels: Vec<String> = pairings.iter().map(|p| label(h, p)).collect();
    let figures: Vec<String> = pairings.iter().map(figures).collect();
    let layout = Layout::new(&labels, &figures);
    let mut body = String::new();
    text(&mut body, 20.0, 28.0, "start", "title", "Tiao match");
    let y = paragraph(&mut body, &layout, 48.0, "label", &h.summary());
    let mut y = elo_chart(&mut body, &layout, h, pairings, y + 14.0);
    for p in pairings.iter().filter(|p| p.sprt.is_some()) {
        y = sprt_chart(&mut body, &layout, h, p, y + 16.0);
    }
    let (width, height) = (layout.width, y + 10.0);
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{hh}" viewBox="0 0 {w} {hh}">"#,
        w = num(width),
        hh = num(height)
    );
    out.push_str(
        "<style>\n\
         text { font-family: sans-serif; font-size: 12px; fill: #222; }\n\
         .title { font-size: 18px; font-weight: bold; }\n\
         .heading { font-size: 14px; font-weight: bold; }\n\
         .tick { font-size: 11px; fill: #555; }\n\
         .figure { font-family: monospace; }\n\
         .grid { stroke: #ddd; stroke-width: 1; }\n\
         .zero { stroke: #888; stroke-width: 1; }\n\
         .interval { stroke: #1f5fa8; stroke-width: 2; }\n\
         .elo { fill: #1f5fa8; }\n\
         .bound { stroke: #b33; stroke-width: 1; stroke-dasharray: 5 4; }\n\
         .early { fill: #f0f0f0; }\n\
         .decided { stroke: #888; stroke-width: 1; stroke-dasharray: 2 3; }\n\
         .llr { fill: none; stroke: #1f5fa8; stroke-width: 2; }\n\
         </style>\n",
    );
    let _ = writeln!(
        out,
        r#"<rect x="0" y="0" width="{}" height="{}" fill="white"/>"#,
        num(width),
        num(height)
    );
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_goes_next_to_the_pdn_unless_named() {
        let pdn = Path::new("out/games.pdn");
        assert_eq!(
            path_for(None, Some(pdn)),
            Some(PathBuf::from("out/games.svg"))
        );
        assert_eq!(
            path_for(Some(Path::new("a.svg")), Some(pdn)),
            Some(PathBuf::from("a.svg"))
        );
        assert_eq!(path_for(None, None), None);
        // A PDN file named .svg is not overwritten by its picture.
        assert_eq!(
            path_for(None, Some(Path::new("odd.svg"))),
            Some(PathBuf::from("odd.svg.svg"))
        );
        // Nor one named .SVG, which a case-insensitive file system would
        // take `odd.svg` for.
        assert_eq!(
            path_for(None, Some(Path::new("odd.SVG"))),
            Some(PathBuf::from("odd.SVG.svg"))
        );
        assert_eq!(svg_beside(Path::new("w.Svg")), PathBuf::from("w.Svg.svg"));
        assert_eq!(svg_beside(Path::new("w.bin")), PathBuf::from("w.svg"));
    }

    #[test]
    fn text_from_outside_cannot_break_the_markup() {
        assert_eq!(
            escape("a<b>&\"c'\u{1}\u{ffff}\n"),
            "a&lt;b&gt;&amp;&quot;c&apos;?? "
        );
    }

    #[test]
    fn coordinates_are_always_finite() {
        assert_eq!(num(f64::INFINITY), "0.0");
        assert_eq!(num(f64::NAN), "0.0");
        assert_eq!(num(-0.0), "0.0");
        let s = Scale::around([f64::INFINITY, 10.0].into_iter(), &[0.0], 0.0, 100.0);
        assert_eq!(s.at(f64::INFINITY), 100.0);
        assert_eq!(s.at(f64::NEG_INFINITY), 0.0);
        let empty = Scale::around(std::iter::empty(), &[], 0.0, 100.0);
        assert!(empty.hi > empty.lo);
    }

    #[test]
    fn long_text_is_wrapped_at_spaces() {
        assert_eq!(wrap("aa bb cc dd", 5), vec!["aa bb", "cc dd"]);
        assert_eq!(wrap("a verylongword b", 4), vec!["a", "verylongword", "b"]);
    }

    #[test]
    fn the_axis_has_round_ticks_around_the_values() {
        let s = Scale::around([-13.0, 47.0].into_iter(), &[0.0], 0.0, 100.0);
        assert_eq!((s.lo, s.hi), (-20.0, 60.0));
        assert_eq!(s.ticks(), vec![-20.0, 0.0, 20.0, 40.0, 60.0]);
        assert_eq!(tick_step(0.7), 0.2);
    }
}
