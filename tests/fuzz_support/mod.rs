//! What the fuzz tests share: the number of cases, a watchdog that turns a
//! hang into a failure, and the input generators — arbitrary text and
//! bytes, and mutations of valid samples (bytes flipped, set, inserted,
//! deleted, duplicated, truncated; tokens deleted, duplicated, swapped;
//! numbers replaced by boundary values).
//!
//! Cases per test come from `TIAO_FUZZ_CASES` (default [`DEFAULT_CASES`])
//! and the generator's seed from `TIAO_FUZZ_SEED` (default fixed): `make
//! test` runs the default, `make fuzz` many cases from a random seed.
//! Failures are shrunk by proptest and printed; nothing is written to disk.

#![allow(dead_code)]

use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::{Config, RngSeed};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

/// Cases per reader when `TIAO_FUZZ_CASES` is not set.
pub const DEFAULT_CASES: u32 = 256;

/// How long one case may take before it counts as a hang. Each case is
/// milliseconds of work; the margin is for a loaded CI machine.
pub const CASE_LIMIT: Duration = Duration::from_secs(20);

/// Cases per reader: `TIAO_FUZZ_CASES`, or [`DEFAULT_CASES`].
pub fn cases() -> u32 {
    std::env::var("TIAO_FUZZ_CASES")
        .ok()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .unwrap_or(DEFAULT_CASES)
        .max(1)
}

/// The seed of the case generator: `TIAO_FUZZ_SEED` (a number, or
/// `random` for a new one each run, as `make fuzz` does), else a fixed
/// one, so that the bounded run in `make test` tries the same cases every
/// time and a failure there reproduces.
pub fn seed() -> RngSeed {
    match std::env::var("TIAO_FUZZ_SEED") {
        Ok(v) if v.trim() == "random" => RngSeed::Random,
        Ok(v) => RngSeed::Fixed(v.trim().parse().unwrap_or(DEFAULT_SEED)),
        Err(_) => RngSeed::Fixed(DEFAULT_SEED),
    }
}

/// The seed of the bounded run.
pub const DEFAULT_SEED: u64 = 0x7469_616f;

/// The proptest configuration of a reader whose cases cost `cost` times an
/// ordinary one (so the whole suite scales with one number).
pub fn config(cost: u32) -> Config {
    Config {
        cases: (cases() / cost.max(1)).max(1),
        failure_persistence: None,
        // A hang costs CASE_LIMIT per shrinking step: keep shrinking bounded.
        max_shrink_time: 60_000,
        max_shrink_iters: 256,
        rng_seed: seed(),
        ..Config::default()
    }
}

/// Run `f` on its own thread and return its result; panic (failing the
/// case) if it has not finished within [`CASE_LIMIT`]. A panic inside `f`
/// is passed on as it is.
pub fn within_limit<T, F>(what: &str, f: F) -> T
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    within(CASE_LIMIT, what, f)
}

/// [`within_limit`] with another limit (cases that start a process).
pub fn within<T, F>(limit: Duration, what: &str, f: F) -> T
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (tx, rx) = channel();
    let handle = std::thread::Builder::new()
        .name(format!("fuzz {what}"))
        .spawn(move || {
            let _ = tx.send(f());
        })
        .expect("spawn a fuzz case thread");
    match rx.recv_timeout(limit) {
        Ok(v) => {
            let _ = handle.join();
            v
        }
        Err(RecvTimeoutError::Timeout) => {
            panic!("hang: {what} did not finish within {limit:?}")
        }
        Err(RecvTimeoutError::Disconnected) => match handle.join() {
            Err(payload) => std::panic::resume_unwind(payload),
            Ok(()) => panic!("{what}: the case thread ended without a result"),
        },
    }
}

/// A rejection must say something.
pub fn assert_clear(what: &str, input: &impl std::fmt::Debug, message: &str) {
    assert!(
        !message.trim().is_empty(),
        "{what}: empty error message for {input:?}"
    );
}

// ---------------------------------------------------------------- arbitrary input

/// Numbers at the edges of every field width and integer type, and things
/// that look like numbers.
pub const BOUNDARY_NUMBERS: &[&str] = &[
    "0",
    "00",
    "000000",
    "-0",
    "+0",
    "1",
    "-1",
    "+5",
    "7",
    "9",
    "10",
    "12",
    "19",
    "20",
    "32",
    "33",
    "49",
    "50",
    "51",
    "64",
    "99",
    "100",
    "127",
    "128",
    "255",
    "256",
    "999",
    "1000",
    "9999",
    "10000",
    "10001",
    "32767",
    "32768",
    "-32768",
    "-32769",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999999999",
    "0.5",
    "1e9",
    "1e999",
    "-1e-9",
    "NaN",
    "inf",
    "-inf",
    "0x10",
    "١٢",
];

/// Bytes that readers treat specially somewhere, and some that no reader expects.
pub const SPECIAL_BYTES: &[u8] = &[
    0, 1, 7, 8, b'\t', b'\n', 0x0b, 0x0c, b'\r', 0x1b, b' ', b'"', b'#', b'$', b'\'', b'(', b')',
    b'*', b',', b'-', b'.', b'/', b':', b';', b'=', b'?', b'[', b'\\', b']', b'{', b'}', b'x',
    0x7f, 0x80, 0xbf, 0xc0, 0xe2, 0xef, 0xfe, 0xff,
];

/// Characters that stress text handling: controls, blanks of other
/// scripts, a byte-order mark, combining marks, wide and astral characters.
pub const SPECIAL_CHARS: &[char] = &[
    '\0', '\u{1}', '\u{7}', '\u{8}', '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1b}', '\u{7f}',
    '\u{85}', '\u{a0}', '\u{2028}', '\u{3000}', '\u{feff}', '\u{fffd}', '\u{301}', '…', 'é', 'ß',
    'İ', 'K', '跳', '𝟙', '😀', '"', '\\',
];

fn long_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![select(SPECIAL_CHARS), any::<char>(), Just('1'), Just('(')],
        1_000usize..40_000,
    )
        .prop_map(|(c, n)| std::iter::repeat_n(c, n).collect())
}

/// Arbitrary text: any characters, controls and odd characters, very long
/// runs, and soups of the reader's own tokens (which get much further into
/// a parser than random characters do).
pub fn text(tokens: &'static [&'static str]) -> impl Strategy<Value = String> {
    let soup = proptest::collection::vec(
        prop_oneof![
            4 => select(tokens).prop_map(str::to_string),
            1 => select(BOUNDARY_NUMBERS).prop_map(str::to_string),
            1 => select(SPECIAL_CHARS).prop_map(|c| c.to_string()),
            1 => Just(" ".to_string()),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat());
    prop_oneof![
        3 => soup,
        2 => proptest::collection::vec(any::<char>(), 0..80)
            .prop_map(|v| v.into_iter().collect::<String>()),
        2 => proptest::collection::vec(
            prop_oneof![select(SPECIAL_CHARS), (0x20u8..0x7f).prop_map(char::from)],
            0..80
        )
        .prop_map(|v| v.into_iter().collect::<String>()),
        1 => long_text(),
    ]
}

/// Arbitrary bytes: any values, special bytes, long runs, invalid UTF-8.
pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => proptest::collection::vec(any::<u8>(), 0..300),
        2 => proptest::collection::vec(select(SPECIAL_BYTES), 0..120),
        1 => (select(SPECIAL_BYTES), 1_000usize..20_000).prop_map(|(b, n)| vec![b; n]),
        1 => long_text().prop_map(String::into_bytes),
    ]
}

// ---------------------------------------------------------------- mutations

/// One change to a valid sample.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Flip one bit of a byte.
    Flip(Index, u8),
    /// Overwrite a byte.
    Set(Index, u8),
    /// Insert bytes (special bytes, a boundary number, a token of the reader, any bytes).
    Insert(Index, Vec<u8>),
    /// Delete up to n bytes.
    Delete(Index, usize),
    /// Repeat a stretch of up to n bytes in place, k times.
    Duplicate(Index, usize, usize),
    /// Cut the sample here.
    Truncate(Index),
    /// Remove one token (a run of letters and digits, or one other byte).
    DeleteToken(Index),
    /// Write one token twice.
    DuplicateToken(Index),
    /// Exchange two tokens.
    SwapTokens(Index, Index),
    /// Replace a run of digits (with its sign) by a boundary number.
    Number(Index, &'static str),
    /// Replace a blank-separated word by a boundary number.
    Word(Index, &'static str),
    /// Change the case of a letter.
    Case(Index),
}

fn edit(dictionary: &'static [&'static str]) -> impl Strategy<Value = Edit> {
    let insertion = prop_oneof![
        select(SPECIAL_BYTES).prop_map(|b| vec![b]),
        select(BOUNDARY_NUMBERS).prop_map(|s| s.as_bytes().to_vec()),
        select(dictionary).prop_map(|s| s.as_bytes().to_vec()),
        select(SPECIAL_CHARS).prop_map(|c| c.to_string().into_bytes()),
        proptest::collection::vec(any::<u8>(), 1..8),
    ];
    prop_oneof![
        1 => (any::<Index>(), 0u8..8).prop_map(|(i, b)| Edit::Flip(i, b)),
        1 => (any::<Index>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        3 => (any::<Index>(), insertion).prop_map(|(i, v)| Edit::Insert(i, v)),
        1 => (any::<Index>(), 1usize..16).prop_map(|(i, n)| Edit::Delete(i, n)),
        1 => (any::<Index>(), 1usize..24, 1usize..6).prop_map(|(i, n, k)| Edit::Duplicate(i, n, k)),
        1 => any::<Index>().prop_map(Edit::Truncate),
        2 => any::<Index>().prop_map(Edit::DeleteToken),
        2 => any::<Index>().prop_map(Edit::DuplicateToken),
        2 => (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::SwapTokens(a, b)),
        3 => (any::<Index>(), select(BOUNDARY_NUMBERS)).prop_map(|(i, n)| Edit::Number(i, n)),
        3 => (any::<Index>(), select(BOUNDARY_NUMBERS)).prop_map(|(i, n)| Edit::Word(i, n)),
        1 => any::<Index>().prop_map(Edit::Case),
    ]
}

/// Token boundaries: runs of ASCII letters and digits, every other byte alone.
fn tokens(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        if b[i].is_ascii_alphanumeric() {
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Runs of digits, each with the sign before it.
fn digit_runs(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let start = if i > 0 && matches!(b[i - 1], b'+' | b'-') {
                i - 1
            } else {
                i
            };
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// Blank-separated words.
fn words(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Apply edits in turn to a copy of `sample`.
pub fn apply(sample: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = sample.to_vec();
    for e in edits {
        // Positions count one past the end, so inserts can append.
        let at = |i: &Index, len: usize| i.index(len + 1);
        match e {
            Edit::Flip(i, bit) if !b.is_empty() => {
                let k = i.index(b.len());
                b[k] ^= 1 << bit;
            }
            Edit::Set(i, v) if !b.is_empty() => {
                let k = i.index(b.len());
                b[k] = *v;
            }
            Edit::Insert(i, v) => {
                let k = at(i, b.len());
                b.splice(k..k, v.iter().copied());
            }
            Edit::Delete(i, n) if !b.is_empty() => {
                let k = i.index(b.len());
                let end = (k + n).min(b.len());
                b.drain(k..end);
            }
            Edit::Duplicate(i, n, times) if !b.is_empty() => {
                let k = i.index(b.len());
                let end = (k + n).min(b.len());
                let part = b[k..end].to_vec();
                for _ in 0..*times {
                    b.splice(end..end, part.iter().copied());
                }
            }
            Edit::Truncate(i) => {
                let k = at(i, b.len());
                b.truncate(k);
            }
            Edit::DeleteToken(i) => {
                let t = tokens(&b);
                if !t.is_empty() {
                    let (s, e) = t[i.index(t.len())];
                    b.drain(s..e);
                }
            }
            Edit::DuplicateToken(i) => {
                let t = tokens(&b);
                if !t.is_empty() {
                    let (s, e) = t[i.index(t.len())];
                    let part = b[s..e].to_vec();
                    b.splice(e..e, part);
                }
            }
            Edit::SwapTokens(x, y) => {
                let t = tokens(&b);
                if t.len() >= 2 {
                    let (p, q) = (t[x.index(t.len())], t[y.index(t.len())]);
                    let (first, second) = if p.0 <= q.0 { (p, q) } else { (q, p) };
                    if first.1 <= second.0 {
                        let a = b[first.0..first.1].to_vec();
                        let c = b[second.0..second.1].to_vec();
                        b.splice(second.0..second.1, a);
                        b.splice(first.0..first.1, c);
                    }
                }
            }
            Edit::Number(i, n) => {
                let runs = digit_runs(&b);
                if runs.is_empty() {
                    let k = at(i, b.len());
                    b.splice(k..k, n.bytes());
                } else {
                    let (s, e) = runs[i.index(runs.len())];
                    b.splice(s..e, n.bytes());
                }
            }
            Edit::Word(i, n) => {
                let w = words(&b);
                if !w.is_empty() {
                    let (s, e) = w[i.index(w.len())];
                    b.splice(s..e, n.bytes());
                }
            }
            Edit::Case(i) if !b.is_empty() => {
                let k = i.index(b.len());
                if b[k].is_ascii_alphabetic() {
                    b[k] ^= 0x20;
                }
            }
            _ => {}
        }
    }
    b
}

/// Mutations of the valid samples: one to six edits of one sample. Edits
/// shrink away one by one, so a failure is reported with the fewest edits
/// that still fail.
pub fn mutated(
    samples: Vec<Vec<u8>>,
    dictionary: &'static [&'static str],
) -> impl Strategy<Value = Vec<u8>> {
    assert!(!samples.is_empty(), "mutations need a valid sample");
    (
        select(samples),
        proptest::collection::vec(edit(dictionary), 1..7),
    )
        .prop_map(|(s, edits)| apply(&s, &edits))
}

/// Bytes with a short description for failure reports: large samples
/// (weights, tables) are reported as the sample and its edits, not as
/// megabytes of numbers.
#[derive(Clone)]
pub struct Labelled {
    pub label: String,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for Labelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({} bytes)", self.label, self.bytes.len())
    }
}

/// Mutations of large samples, labelled with the sample's index and the edits.
pub fn mutants(
    samples: Vec<Vec<u8>>,
    dictionary: &'static [&'static str],
) -> impl Strategy<Value = Labelled> {
    assert!(!samples.is_empty(), "mutations need a valid sample");
    let n = samples.len();
    (0..n, proptest::collection::vec(edit(dictionary), 1..7)).prop_map(move |(k, edits)| Labelled {
        bytes: apply(&samples[k], &edits),
        label: format!("sample {k} with edits {edits:?}"),
    })
}

/// Mutations as text (bytes that are not UTF-8 become U+FFFD, as a front
/// end reading with `from_utf8_lossy` would see them).
pub fn mutated_text(
    samples: Vec<String>,
    dictionary: &'static [&'static str],
) -> impl Strategy<Value = String> {
    mutated(
        samples.into_iter().map(String::into_bytes).collect(),
        dictionary,
    )
    .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
}

/// Arbitrary text or a mutation of a sample, half and half.
pub fn any_or_mutated(
    samples: Vec<String>,
    dictionary: &'static [&'static str],
) -> impl Strategy<Value = String> {
    prop_oneof![text(dictionary), mutated_text(samples, dictionary)]
}

/// A directory of its own under Cargo's scratch space for integration tests.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create a scratch directory");
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_words_and_punctuation() {
        assert_eq!(
            tokens(b"W:W31-50"),
            vec![(0, 1), (1, 2), (2, 5), (5, 6), (6, 8)]
        );
    }
}
