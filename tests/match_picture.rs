//! The picture `tiao match` draws of its result: an SVG file next to the
//! PDN (or where `--svg` says), well-formed XML whatever the engines are
//! called, with a row for each pairing that carries the same Elo figures
//! as the report's table. (The SPRT's course is checked with the SPRT's
//! own match, in `match_games.rs`.)

mod svg_support;

use std::path::Path;
use std::process::Command;
use svg_support::{Element, read_xml};

const TIAO: &str = env!("CARGO_BIN_EXE_tiao");

fn engine(name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("name={name}"),
        format!("cmd='{TIAO}' hub"),
        "option.hash=8".into(),
    ]
}

/// The Elo figures of the table row of `label`, as the picture writes
/// them: `+12.3 [-5.0, +29.6]`, `+0.0 (no spread)`, or `-`.
fn table_figures(stdout: &str, label: &str) -> String {
    let row = stdout
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no row {label} in {stdout}"));
    let cells: Vec<&str> = row[label.len()..].split_whitespace().collect();
    let (elo, interval) = (cells[5], cells[6]);
    match interval {
        "-" => elo.to_string(),
        i if i.starts_with('[') || i.starts_with('(') => format!("{elo} {i} {}", cells[7]),
        i => panic!("no interval in {row}: {i}"),
    }
}

fn texts(elements: &[Element]) -> Vec<&str> {
    elements
        .iter()
        .filter(|e| e.name == "text")
        .map(|e| e.text.as_str())
        .collect()
}

#[test]
fn a_match_draws_each_pairing_with_its_elo_next_to_the_pdn() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("match-picture");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let pdn = dir.join("games.pdn");
    let svg = dir.join("games.svg");
    // Names with markup characters: the picture must escape them.
    let names = ["a<1>", "b&2", "c'3"];
    let mut args: Vec<String> = ["match", "--quiet", "--round-robin"]
        .map(String::from)
        .to_vec();
    for name in names {
        args.extend(engine(name));
    }
    args.extend(["--games", "4", "--tc", "nodes=200", "--pdn"].map(String::from));
    args.push(pdn.display().to_string());
    let out = Command::new(TIAO).args(&args).output().expect("tiao runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("picture: {}", svg.display())),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&svg).expect("the picture is written");
    let elements = read_xml(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    assert_eq!(elements[0].name, "svg");
    assert_eq!(
        elements[0].attribute("xmlns"),
        Some("http://www.w3.org/2000/svg")
    );
    let texts = texts(&elements);
    for (i, first) in names.iter().enumerate() {
        for second in &names[i + 1..] {
            let label = format!("{first} vs {second}");
            assert!(texts.contains(&label.as_str()), "{label}: {texts:?}");
            let figures = table_figures(&stdout, &label);
            assert!(
                texts.contains(&figures.as_str()),
                "{label}: {figures} not in {texts:?}"
            );
        }
    }
    // One dot per pairing with games.
    assert_eq!(elements.iter().filter(|e| e.name == "circle").count(), 3);
    assert!(!texts.iter().any(|t| t.contains("SPRT")), "no SPRT ran");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn svg_names_the_picture_and_an_unwritable_one_is_an_error() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("match-picture-named");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let run = |svg: &Path| {
        let mut args: Vec<String> = ["match", "--quiet"].map(String::from).to_vec();
        args.extend(engine("a"));
        args.extend(engine("b"));
        args.extend(["--games", "2", "--tc", "nodes=100", "--svg"].map(String::from));
        args.push(svg.display().to_string());
        Command::new(TIAO).args(&args).output().expect("tiao runs")
    };
    let named = dir.join("result.svg");
    let out = run(&named);
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&named).expect("written without a PDN");
    read_xml(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    let nowhere = dir.join("no-such-dir").join("result.svg");
    let out = run(&nowhere);
    assert!(!out.status.success(), "an unwritable picture is an error");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("a vs b"),
        "the report still comes: {stdout}"
    );
    assert!(stderr.contains("cannot write the picture"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
