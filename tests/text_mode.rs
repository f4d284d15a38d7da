//! Text mode driven as a script: commands piped on stdin give one
//! parseable result each, errors are `error:` lines, and nothing crashes.

mod script_support;

use script_support::text_script;

#[test]
fn a_script_sets_up_plays_and_reports_in_parseable_lines() {
    let out =
        text_script("fen\nmoves\nplay 32-28 19-23\nmoves\nundo\nhistory\nstart\nperft 3\nquit\n");
    assert_eq!(
        out[0],
        "fen W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    );
    assert_eq!(
        out[1],
        "moves 31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30"
    );
    assert_eq!(out[2], "played 32-28");
    assert_eq!(out[3], "played 19-23");
    assert_eq!(out[4], "moves 28x19");
    assert_eq!(out[5], "undone 19-23");
    assert_eq!(out[6], "history 32-28");
    assert!(out[7].starts_with("fen W:W31,"), "{}", out[7]);
    assert!(out[8].starts_with("perft 3 658"), "{}", out[8]);
}

#[test]
fn go_thinks_and_plays_a_move() {
    let out = text_script("book off\ngo depth 4\nhistory\n");
    let best = out
        .iter()
        .find(|l| l.starts_with("bestmove "))
        .expect("bestmove line");
    let mv = best.split(' ').nth(1).expect("move");
    assert!(out.iter().any(|l| l == &format!("played {mv}")));
    assert_eq!(
        out.last().map(String::as_str),
        Some(format!("history {mv}").as_str())
    );
    assert!(out.iter().any(|l| l.starts_with("info depth=4 ")));
}

#[test]
fn eval_lists_every_term() {
    // The default evaluation is the pattern evaluation (docs/training.md):
    // its region tables as one term, then the terms the regions cannot see.
    let out = text_script("eval\n");
    let terms: Vec<&String> = out.iter().filter(|l| l.starts_with("term ")).collect();
    for name in [
        "patterns",
        "man",
        "king",
        "tempo",
        "runaway",
        "king-mobility",
        "side-to-move",
    ] {
        assert!(
            terms
                .iter()
                .any(|t| t.split_whitespace().nth(1) == Some(name)),
            "term {name}"
        );
    }
    let last = out.last().map(String::as_str).unwrap_or("");
    assert!(
        last.starts_with("eval ") && last.ends_with(" (side to move)"),
        "{last}"
    );
}

#[test]
fn other_variants_use_their_notation() {
    let out = text_script("variant russian\nmoves\nplay c3-d4 f6-e5\nplay d4:f6\nfen\n");
    assert_eq!(out[0], "variant russian");
    assert_eq!(out[1], "moves a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4");
    assert_eq!(out[4], "played d4:f6");
    assert!(out[5].starts_with("fen B:W"), "{}", out[5]);
}

#[test]
fn bad_commands_are_errors_and_the_script_goes_on() {
    let out = text_script(
        "frobnicate\nplay 32-27x\nplay 32-29\nfen W:W51\nvariant frisian\nperft banana\ngo depth zero\nthreads 0\nundo\nfen\n",
    );
    let errors = out.iter().filter(|l| l.starts_with("error: ")).count();
    assert_eq!(errors, 9, "{out:#?}");
    assert!(out.last().is_some_and(|l| l.starts_with("fen W:W31")));
}

#[test]
fn random_bytes_do_not_crash_text_mode() {
    let mut x: u64 = 7;
    let mut input = String::new();
    for _ in 0..300 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = (x % 30) as usize;
        let line: String = (0..len)
            .map(|i| char::from(33 + ((x >> (i % 8 * 8)) % 90) as u8))
            .collect();
        if !line.starts_with('q')
            && !line.starts_with("go")
            && !line.starts_with("bench")
            && !line.starts_with("perft")
        {
            input.push_str(&line);
        }
        input.push('\n');
    }
    input.push_str("fen\n");
    let out = text_script(&input);
    assert!(
        out.last().is_some_and(|l| l.starts_with("fen ")),
        "{:?}",
        out.last()
    );
}

#[test]
fn set_takes_every_option_of_the_table_and_rejects_values_out_of_range() {
    let out = text_script(
        "set multipv 3\nset threads 300\nthreads 0\nhash 70000\nset nonsense 1\nset book maybe\nbook ply 21\negdb 9\n",
    );
    assert_eq!(out[0], "option multipv 3");
    assert_eq!(
        out[1],
        "error: parameter 'threads' takes an integer from 1 to 256, not '300'"
    );
    assert_eq!(out[2], "error: threads needs a number from 1 to 256");
    assert_eq!(out[3], "error: hash needs a size in MiB from 1 to 65536");
    assert_eq!(out[4], "error: unknown parameter 'nonsense'");
    assert_eq!(
        out[5],
        "error: parameter 'book' takes true or false, not 'maybe'"
    );
    assert_eq!(out[6], "error: book ply needs a number from 0 to 20");
    assert!(
        out[7].starts_with("error: egdb needs a number of pieces from 0 to 8"),
        "{}",
        out[7]
    );
    assert_eq!(out.len(), 8, "{out:#?}");
}

#[test]
fn options_lists_the_table_with_values_and_help_shows_its_ranges() {
    use tiao::engine::options::TABLE;
    let out = text_script("set hash 16\noptions\nhelp\n");
    assert_eq!(out[0], "option hash 16");
    let listed: Vec<&str> = out
        .iter()
        .filter_map(|l| l.strip_prefix("option "))
        .skip(1)
        .collect();
    assert_eq!(listed.len(), TABLE.len(), "{out:#?}");
    for (line, option) in listed.iter().zip(TABLE) {
        assert!(line.starts_with(&format!("{} ", option.name)), "{line}");
        assert!(line.ends_with(option.help), "{line}");
    }
    assert!(
        listed
            .iter()
            .any(|l| l.starts_with("hash 16 (an integer from 1 to 65536)"))
    );
    assert!(
        out.iter()
            .any(|l| l.contains("threads N") && l.contains("(1..256)"))
    );
    assert!(out.iter().any(|l| l.contains("gewu-dice")));
}
