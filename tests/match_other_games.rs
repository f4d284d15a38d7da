//! `tiao match` plays the games besides draughts: Halma and Gewu (with the
//! runner throwing for Gewu with throws), records them with a `Variant` tag,
//! and every game ends by that game's rules.

use std::process::Command;

fn play(game: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tiao-match-{game}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pdn = dir.join("games.pdn");
    let tiao = env!("CARGO_BIN_EXE_tiao");
    let engine = |name: &str| format!("name={name} cmd=\"{tiao} hub\"");
    let out = Command::new(tiao)
        .args([
            "match",
            "--quiet",
            "--variant",
            game,
            "--games",
            "4",
            "--tc",
            "depth=2",
            "--concurrency",
            "2",
        ])
        .args(["--engine"])
        .args(shell_words(&engine("a")))
        .args(["--engine"])
        .args(shell_words(&engine("b")))
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .expect("run tiao match");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pdn).expect("pdn written");
    let _ = std::fs::remove_dir_all(&dir);
    text
}

/// `name=a cmd="x hub"` as separate arguments, as a shell would pass them.
fn shell_words(s: &str) -> Vec<String> {
    let (name, cmd) = s.split_once(' ').expect("two words");
    vec![name.to_string(), cmd.replace('"', "")]
}

fn check(game: &str) {
    let pdn = play(game);
    let games = pdn.matches("[Event ").count();
    assert_eq!(games, 4, "{pdn}");
    assert_eq!(
        pdn.matches(&format!("[Variant \"{game}\"]")).count(),
        4,
        "{pdn}"
    );
    assert_eq!(
        pdn.matches("[Termination \"normal\"]").count(),
        4,
        "every game ends by the rules:\n{pdn}"
    );
    assert!(!pdn.contains("GameType"));
}

#[test]
fn a_halma_8x8_match_is_played_to_the_end_of_every_game() {
    check("halma8");
}

#[test]
fn a_gewu_match_is_played_to_the_end_of_every_game() {
    check("gewu");
}

#[test]
fn a_gewu_match_with_throws_is_played_with_the_runners_throws() {
    check("gewu-dice");
    // Every turn of the record carries its throw.
    let pdn = play("gewu-dice");
    let body: Vec<&str> = pdn
        .lines()
        .filter(|l| !l.starts_with('[') && !l.is_empty())
        .collect();
    for token in body.join(" ").split_whitespace() {
        let is_number =
            token.ends_with('.') && token[..token.len() - 1].chars().all(|c| c.is_ascii_digit());
        let is_result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&token);
        if !is_number && !is_result {
            let (throw, _) = token.split_once(':').expect("throw:move");
            assert!(["sai", "bai", "hei", "wu"].contains(&throw), "{token}");
        }
    }
}
