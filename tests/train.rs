//! The training pipeline: the data format round-trips and detects damage;
//! data generation is reproducible across shards and resumes; training on
//! synthetic data recovers known weights; the exported weights reproduce
//! the trained evaluation; the loss plot is an SVG.

mod playout_support;

use playout_support::random_positions;
use tiao::board::{Colour, International, Position, Variant};
use tiao::eval::features::{Feature, features, phase};
use tiao::eval::pattern::{PatternEval, drawish_divisor};
use tiao::eval::pattern_file::fnv1a64;
use tiao::tools::train::cli;
use tiao::tools::train::data::{self, ChunkHeader, DECISIVE, Dataset, Record, THREATENED};
use tiao::tools::train::datagen::{self, DatagenConfig, Player};
use tiao::tools::train::model::Model;
use tiao::tools::train::plot::loss_svg;
use tiao::tools::train::rng::Rng;
use tiao::tools::train::trainer::{self, TrainConfig};

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tiao-train-{}-{name}", std::process::id()))
}

fn header(count: usize, first_game: u64) -> ChunkHeader {
    ChunkHeader {
        variant: Variant::International,
        count: count as u32,
        shard: 0,
        shards: 1,
        first_game,
        games: 3,
        settings: 42,
        checksum: 0,
    }
}

#[test]
fn data_format_round_trips() {
    let positions = random_positions::<International>(500, 1);
    let records: Vec<Record> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut r = Record::new(p, i as i32 * 7 - 1000, (i % 3) as i8 - 1, i as u32);
            r.flags |= if i % 2 == 0 { THREATENED } else { DECISIVE };
            r.game = (i % 3) as u16;
            r
        })
        .collect();
    for (r, p) in records.iter().zip(&positions) {
        assert_eq!(r.position::<International>().expect("valid"), *p);
    }
    // Two chunks, as two files concatenated.
    let mut bytes = data::chunk_bytes(&header(200, 0), &records[..200]);
    bytes.extend(data::chunk_bytes(&header(300, 3), &records[200..]));
    let scan = data::scan(&mut bytes.as_slice());
    assert!(scan.damage.is_none(), "{:?}", scan.damage);
    assert_eq!(scan.valid_bytes, bytes.len() as u64);
    assert_eq!(scan.data.records, records);
    assert_eq!(scan.data.chunks.len(), 2);
    assert_eq!(scan.data.chunks[1].first_game, 3);

    // Merge checks and joins.
    let (a, b, m) = (temp_path("a.bin"), temp_path("b.bin"), temp_path("m.bin"));
    std::fs::write(&a, data::chunk_bytes(&header(200, 0), &records[..200])).expect("write");
    std::fs::write(&b, data::chunk_bytes(&header(300, 3), &records[200..])).expect("write");
    assert_eq!(
        data::merge(&[a.clone(), b.clone()], &m).expect("merge"),
        (2, 500)
    );
    assert_eq!(std::fs::read(&m).expect("read"), bytes);
    for p in [a, b, m] {
        let _ = std::fs::remove_file(p);
    }
}

/// One chunk of 50 random positions (seeded), as bytes.
fn chunk_of_fifty(seed: u64) -> Vec<u8> {
    let positions = random_positions::<International>(50, seed);
    let records: Vec<Record> = positions.iter().map(|p| Record::new(p, 0, 0, 0)).collect();
    data::chunk_bytes(&header(50, 0), &records)
}

#[test]
fn damaged_data_is_detected() {
    let one = chunk_of_fifty(2);
    let mut two = one.clone();
    two.extend(&one);

    // Truncated: the complete first chunk survives, the rest is reported.
    let cut = &two[..two.len() - 10];
    let s = data::scan(&mut &cut[..]);
    assert_eq!(s.data.records.len(), 50);
    assert_eq!(s.valid_bytes, one.len() as u64);
    assert!(
        s.damage.as_deref().is_some_and(|d| d.contains("truncated")),
        "{:?}",
        s.damage
    );

    // A flipped bit in a record: checksum.
    let mut bad = one.clone();
    bad[100] ^= 1;
    let s = data::scan(&mut &bad[..]);
    assert!(
        s.damage.as_deref().is_some_and(|d| d.contains("checksum")),
        "{:?}",
        s.damage
    );

    // A flipped bit in a header.
    let mut bad = one.clone();
    bad[13] ^= 1;
    let s = data::scan(&mut &bad[..]);
    assert!(
        s.damage.as_deref().is_some_and(|d| d.contains("header")),
        "{:?}",
        s.damage
    );

    // Not a data file at all; and read_file turns damage into an error.
    let s = data::scan(
        &mut &b"hello world, this is not a data file at all, not at all, not in the least, no."[..],
    );
    assert!(
        s.damage.as_deref().is_some_and(|d| d.contains("TIAODATA")),
        "{:?}",
        s.damage
    );
    let p = temp_path("cut.bin");
    std::fs::write(&p, cut).expect("write");
    let e = data::read_file(&p).expect_err("truncated file");
    assert!(
        e.contains("truncated") && e.contains(&p.display().to_string()),
        "{e}"
    );
    // ... and says what of it can be kept.
    let keep = format!("truncate -s {} {}", one.len(), p.display());
    assert!(e.contains(&keep), "{e}");
    let _ = std::fs::remove_file(p);
}

/// `tiao datagen info` on a damaged file describes its whole chunks, then
/// the damage and how to keep them, and marks the file damaged (the
/// command fails); a file damaged in its first chunk has nothing whole.
#[test]
fn info_reports_the_whole_chunks_of_a_damaged_file() {
    let one = chunk_of_fifty(3);
    let mut bytes = one.clone();
    bytes.extend(&one);
    bytes[one.len() + 100] ^= 1;
    let p = temp_path("info.bin");
    std::fs::write(&p, &bytes).expect("write");
    let info = cli::info(&p).expect("a report");
    assert!(info.damaged);
    assert!(
        info.text.contains("50 positions, 3 games, 1 chunks"),
        "{}",
        info.text
    );
    assert!(
        info.text
            .contains(&format!("damaged at byte {}", one.len())),
        "{}",
        info.text
    );
    assert!(
        info.text.contains(&format!("truncate -s {}", one.len())),
        "{}",
        info.text
    );
    assert!(
        !info.text.contains("resumes"),
        "not a torn end: {}",
        info.text
    );

    bytes[100] ^= 1;
    std::fs::write(&p, &bytes).expect("write");
    let info = cli::info(&p).expect("a report");
    assert!(info.damaged);
    assert!(info.text.contains("no whole chunk"), "{}", info.text);

    std::fs::write(&p, &one).expect("write");
    let info = cli::info(&p).expect("a report");
    assert!(
        !info.damaged && !info.text.contains("damaged"),
        "{}",
        info.text
    );
    let _ = std::fs::remove_file(p);
}

/// A file that ends inside a chunk is what a run leaves, running or
/// stopped: while a run holds the file it is reported as being written
/// (not damaged); otherwise the report says the run resumes it. Reading
/// that fails (a directory) is an error, never a suggestion to cut.
#[test]
fn info_tells_a_run_in_progress_from_damage() {
    let one = chunk_of_fifty(4);
    let mut bytes = one.clone();
    bytes.extend(&one[..data::HEADER_BYTES + 40]);
    let p = temp_path("info-torn.bin");
    std::fs::write(&p, &bytes).expect("write");

    let writer = std::fs::OpenOptions::new()
        .append(true)
        .open(&p)
        .expect("open");
    writer.lock().expect("lock");
    let info = cli::info(&p).expect("a report");
    assert!(!info.damaged, "{}", info.text);
    assert!(info.text.contains("being written"), "{}", info.text);
    drop(writer);

    let info = cli::info(&p).expect("a report");
    assert!(info.damaged);
    assert!(info.text.contains("resumes it"), "{}", info.text);
    assert!(
        info.text.contains(&format!("truncate -s {}", one.len())),
        "{}",
        info.text
    );
    let _ = std::fs::remove_file(&p);

    let dir = temp_path("info-dir.bin");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let e = cli::info(&dir).err().expect("a directory is an error");
    assert!(!e.contains("truncate"), "{e}");
    let _ = std::fs::remove_dir(dir);
}

fn small_run(out: &std::path::Path, games: u64, shard: u32, shards: u32) -> DatagenConfig {
    DatagenConfig {
        variant: Variant::International,
        games,
        shard,
        shards,
        seed: 7,
        nodes: 300,
        random_plies: (2, 4),
        opening_plies: (2, 4),
        openings: None,
        player: Player::V1,
        threads: 2,
        hash_mib: 1,
        out: out.to_path_buf(),
        max_plies: 120,
        adjudicate: 800,
        adjudicate_plies: 4,
        keep_threatened: false,
        batch: 2,
        quiet: true,
    }
}

/// Records of a file, without the within-chunk game slot, sorted.
fn record_set(p: &std::path::Path) -> Vec<(u64, u64, u64, i16, u16, i8, u8)> {
    let d = data::read_file(p).expect("data");
    let mut v: Vec<_> = d
        .records
        .iter()
        .map(|r| (r.white, r.black, r.kings, r.score, r.ply, r.result, r.flags))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn datagen_is_reproducible_shardable_and_resumable() {
    let whole = temp_path("whole.bin");
    let _ = std::fs::remove_file(&whole);
    let s = datagen::run(&small_run(&whole, 6, 0, 1)).expect("datagen");
    assert_eq!(s.games, 6);
    assert!(s.positions > 0);
    let d = data::read_file(&whole).expect("data");
    assert_eq!(d.chunks.len(), 3);
    for r in &d.records {
        let pos = r.position::<International>().expect("valid position");
        assert!(!tiao::movegen::has_capture(&pos), "quiet positions only");
        assert!(r.flags & THREATENED == 0);
    }

    // Two shards hold the same games.
    let (s0, s1) = (temp_path("s0.bin"), temp_path("s1.bin"));
    for (i, p) in [&s0, &s1].into_iter().enumerate() {
        let _ = std::fs::remove_file(p);
        datagen::run(&small_run(p, 6, i as u32, 2)).expect("shard");
    }
    let mut merged = record_set(&s0);
    merged.extend(record_set(&s1));
    merged.sort_unstable();
    assert_eq!(merged, record_set(&whole));

    // An interrupted run (half the games, then a torn chunk) resumes to the same file.
    let resumed = temp_path("resumed.bin");
    let _ = std::fs::remove_file(&resumed);
    datagen::run(&small_run(&resumed, 4, 0, 1)).expect("first part");
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&resumed)
            .expect("open");
        // The first bytes of a header, as a writer stopped inside them leaves.
        let mut torn = data::header_prefix(Variant::International);
        torn.extend_from_slice(&[2, 0]);
        f.write_all(&torn).expect("append");
    }
    let s = datagen::run(&small_run(&resumed, 6, 0, 1)).expect("resume");
    assert_eq!(s.resumed_games, 4, "two complete chunks of two games");
    assert_eq!(
        std::fs::read(&resumed).expect("read"),
        std::fs::read(&whole).expect("read")
    );

    // A run stopped inside a chunk's records resumes to the same file too.
    let whole_bytes = std::fs::read(&whole).expect("read");
    let four = {
        let p = temp_path("four.bin");
        let _ = std::fs::remove_file(&p);
        datagen::run(&small_run(&p, 4, 0, 1)).expect("four games");
        let n = std::fs::read(&p).expect("read").len();
        let _ = std::fs::remove_file(&p);
        n
    };
    let torn = temp_path("torn-body.bin");
    std::fs::write(&torn, &whole_bytes[..four + data::HEADER_BYTES + 10]).expect("write");
    let s = datagen::run(&small_run(&torn, 6, 0, 1)).expect("resume a torn body");
    assert_eq!(s.resumed_games, 4);
    assert_eq!(std::fs::read(&torn).expect("read"), whole_bytes);

    // Other settings refuse to resume, over whole chunks or a torn one alone.
    let mut other = small_run(&resumed, 8, 0, 1);
    other.seed = 8;
    let e = datagen::run(&other).expect_err("other settings");
    assert!(e.contains("other settings"), "{e}");
    let torn_only = &whole_bytes[..data::HEADER_BYTES + 10];
    std::fs::write(&torn, torn_only).expect("write");
    let mut other = small_run(&torn, 8, 0, 1);
    other.seed = 8;
    let e = datagen::run(&other).expect_err("a torn chunk of other settings");
    assert!(e.contains("left as it is"), "{e}");
    assert_eq!(std::fs::read(&torn).expect("read"), torn_only);
    for p in [whole, s0, s1, resumed, torn] {
        let _ = std::fs::remove_file(p);
    }
}

/// `--out` naming a file that is not the torn end of an earlier run is
/// refused and left byte for byte as it was: a foreign file, and a data
/// file damaged before its end (cutting there would drop good chunks).
#[test]
fn datagen_never_cuts_a_file_that_is_not_an_interrupted_run() {
    let foreign = temp_path("foreign.pdn");
    let text = b"[Event \"not data\"]\n1. 32-28 19-23 *\n".to_vec();
    std::fs::write(&foreign, &text).expect("write");
    let e = datagen::run(&small_run(&foreign, 2, 0, 1)).expect_err("a PDN file");
    assert!(e.contains("left as it is"), "{e}");
    assert_eq!(std::fs::read(&foreign).expect("read"), text);

    let short = temp_path("short.txt");
    std::fs::write(&short, b"notes").expect("write");
    datagen::run(&small_run(&short, 2, 0, 1)).expect_err("a short foreign file");
    assert_eq!(std::fs::read(&short).expect("read"), b"notes");

    // Two chunks, then a flipped bit in the first: the second is good data.
    let flipped = temp_path("flipped.bin");
    let _ = std::fs::remove_file(&flipped);
    datagen::run(&small_run(&flipped, 4, 0, 1)).expect("datagen");
    let mut bytes = std::fs::read(&flipped).expect("read");
    bytes[data::HEADER_BYTES + 3] ^= 1;
    std::fs::write(&flipped, &bytes).expect("write");
    let e = datagen::run(&small_run(&flipped, 6, 0, 1)).expect_err("damaged inside");
    assert!(e.contains("checksum"), "{e}");
    assert_eq!(std::fs::read(&flipped).expect("read"), bytes);
    for p in [foreign, short, flipped] {
        let _ = std::fs::remove_file(p);
    }
}

/// Two runs never write one file: while one holds it, another is refused
/// and changes nothing.
#[test]
fn datagen_refuses_a_file_another_run_is_writing() {
    let out = temp_path("locked.bin");
    let _ = std::fs::remove_file(&out);
    datagen::run(&small_run(&out, 2, 0, 1)).expect("datagen");
    let before = std::fs::read(&out).expect("read");
    let holder = std::fs::OpenOptions::new()
        .append(true)
        .open(&out)
        .expect("open");
    holder.lock().expect("lock");
    let e = datagen::run(&small_run(&out, 4, 0, 1)).expect_err("held by another writer");
    assert!(e.contains("another process is writing"), "{e}");
    assert_eq!(std::fs::read(&out).expect("read"), before);
    drop(holder);
    datagen::run(&small_run(&out, 4, 0, 1)).expect("free again");
    let _ = std::fs::remove_file(&out);
}

/// A chunk whose (checksummed) header claims four thousand million records
/// is read as far as the file goes: an error, not an allocation of the claim.
#[test]
fn a_huge_record_count_is_a_truncation_not_an_allocation() {
    let mut bytes = data::chunk_bytes(&header(0, 0), &[]);
    bytes[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    let sum = fnv1a64(&bytes[..56]);
    bytes[56..64].copy_from_slice(&sum.to_le_bytes());
    let s = data::scan(&mut bytes.as_slice());
    assert!(matches!(s.torn, Some(data::Torn::Body(_))), "{:?}", s.torn);
    assert!(s.damage.is_some_and(|d| d.contains("truncated")));
}

#[test]
fn datagen_refuses_boards_its_records_cannot_hold() {
    let out = temp_path("canadian.bin");
    let _ = std::fs::remove_file(&out);
    let mut cfg = small_run(&out, 2, 0, 1);
    cfg.variant = Variant::Canadian;
    let e = datagen::run(&cfg).expect_err("72 squares");
    assert!(e.contains("64 squares"), "{e}");
    assert!(!out.exists());
}

#[test]
fn datagen_refuses_a_ballot_of_another_variant() {
    let out = temp_path("wrong-ballot.bin");
    let _ = std::fs::remove_file(&out);
    let mut cfg = small_run(&out, 2, 0, 1);
    cfg.variant = Variant::Brazilian;
    cfg.openings = Some(concat!(env!("CARGO_MANIFEST_DIR"), "/openings/russian-4move.txt").into());
    let e = datagen::run(&cfg).expect_err("a Russian ballot");
    assert!(e.contains("is a ballot for russian"), "{e}");
    assert!(!out.exists());
}

/// A data set whose scores are a known linear function of the dense
/// features: training with lambda = 1 (targets from the scores) must find it.
#[test]
fn training_recovers_known_weights() {
    let positions = random_positions::<International>(12000, 3);
    let (man, king, mobility) = (100.0f64, 260.0f64, 4.0f64);
    // The evaluation divides drawish material's scores (pattern.rs), so
    // the generating function does too.
    let truth = |p: &Position<International>| {
        let f = features(p);
        let sum = man * f64::from(f[Feature::Man as usize])
            + king * f64::from(f[Feature::King as usize])
            + mobility * f64::from(f[Feature::KingMobility as usize]);
        let ahead = if sum > 0.0 {
            Colour::White
        } else {
            Colour::Black
        };
        sum / f64::from(drawish_divisor(p, ahead))
    };
    let records: Vec<Record> = positions
        .iter()
        .map(|p| Record::new(p, truth(p).round() as i32, 0, 0))
        .collect();
    let data = Dataset {
        chunks: vec![ChunkHeader {
            count: records.len() as u32,
            games: 1,
            ..header(0, 0)
        }],
        records,
    };
    let model = Model::new(Variant::International).expect("model");
    let (samples, bad) = model.samples(&data.records);
    assert_eq!(bad, 0);
    let cfg = TrainConfig {
        epochs: 40,
        batch: 1024,
        // Large steps: the loss is flat along king vs king mobility.
        lr: 8.0,
        lambda: 1.0,
        l2_shared: 1e-2,
        l2_specific: 1e-2,
        k: Some(1000.0),
        patience: 40,
        ..TrainConfig::default()
    };
    let empty = samples.clone();
    let t = trainer::train(&model, &samples, &empty, &cfg, &mut |_| {}).expect("train");
    // The man weight is pinned by the data; king and king mobility are
    // nearly collinear in random positions (a king's mobility is about
    // proportional to the number of kings), so only their joint effect is:
    // the evaluation as a whole must match the generating function.
    let scale = f64::from(tiao::eval::pattern_file::SCALE);
    let (mg, eg) = t.weights.dense[Feature::Man as usize];
    let (mg, eg) = (f64::from(mg) / scale, f64::from(eg) / scale);
    assert!(
        (mg - man).abs() < 5.0 && (eg - man).abs() < 5.0,
        "man: mg {mg:.1} eg {eg:.1}, want {man}"
    );
    // Logistic loss only sees errors where the prediction is not saturated:
    // check the evaluation where |truth| < K.
    let e = PatternEval::v1_only().with(t.weights.clone());
    let (mut err, mut n) = (0.0, 0);
    for pos in &positions {
        let want = truth(pos);
        if want.abs() < 1000.0 {
            err += (f64::from(e.white_score(pos)) - want).powi(2);
            n += 1;
        }
    }
    let rms = (err / f64::from(n)).sqrt();
    assert!(
        n > 1000 && rms < 10.0,
        "RMS error {rms:.1} centi-men over {n} positions"
    );
    assert!(t.history.last().expect("epochs").train < t.history[0].train);

    // The engine's integer evaluation of the exported weights matches the
    // model's (up to rounding of entries and of the phase mix).
    let e = PatternEval::v1_only().with(t.weights.clone());
    for (n, pos) in positions.iter().enumerate().take(500) {
        let float = f64::from(model.eval(&t.params, &samples, n));
        let int = f64::from(e.white_score(pos));
        // Entries round to 1/8 centi-man: a few dozen of them, plus the
        // dense terms times their feature counts, plus the final truncation.
        assert!(
            (float - int).abs() <= 3.0,
            "{pos:?} (phase {}): model {float:.1}, engine {int}",
            phase(pos)
        );
    }
    let svg = loss_svg(&t.history, "test");
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
}

#[test]
fn k_fit_finds_the_generating_scale() {
    // Results drawn from sigmoid(score / 120): the fitted K is near 120.
    let positions = random_positions::<International>(20000, 4);
    let mut rng = Rng::new(5);
    let records: Vec<Record> = positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let score = (i as i32 % 801) - 400;
            let q = 1.0 / (1.0 + (-f64::from(score) / 120.0).exp());
            let result = if rng.unit() < q { 1 } else { -1 };
            Record::new(p, score, result, 0)
        })
        .collect();
    let model = Model::new(Variant::International).expect("model");
    let (s, _) = model.samples(&records);
    let k = trainer::fit_k(&s);
    assert!((k - 120.0).abs() < 15.0, "K = {k}");
}

/// A term trained "without" keeps a zero weight, and the others still learn;
/// so does the king-square table (which could otherwise stand in for the
/// first king).
#[test]
fn training_without_a_term_leaves_its_weight_at_zero() {
    use tiao::eval::pattern_dense::{BALANCE, HAS_KING, MAN, dense};
    let positions = random_positions::<International>(3000, 5);
    let truth = |p: &Position<International>| {
        let d = dense(p);
        100 * d[MAN] + 300 * d[HAS_KING] + 10 * d[BALANCE]
    };
    let records: Vec<Record> = positions
        .iter()
        .map(|p| Record::new(p, truth(p), 0, 0))
        .collect();
    let model = Model::new(Variant::International).expect("model");
    let (mut samples, _) = model.samples(&records);
    let without = vec![HAS_KING, BALANCE];
    samples.without(&without);
    samples.without_king_squares();
    let cfg = TrainConfig {
        epochs: 3,
        lambda: 1.0,
        k: Some(1000.0),
        without,
        no_king_squares: true,
        ..TrainConfig::default()
    };
    let t = trainer::train(&model, &samples, &samples.clone(), &cfg, &mut |_| {}).expect("train");
    assert_eq!(t.weights.dense[HAS_KING], (0, 0));
    assert_eq!(t.weights.dense[BALANCE], (0, 0));
    assert!(t.weights.king_squares.iter().all(|&e| e == (0, 0)));
    assert!(t.history.last().expect("epochs").train < t.history[0].train);
}

/// With tall windows, the engine's evaluation of exported weights is the
/// model's (up to rounding), so the trainer's tall indices, bands and
/// mirrored entries are the ones the engine reads.
#[test]
fn exported_tall_windows_evaluate_as_the_model_does() {
    let positions = random_positions::<International>(600, 17);
    let records: Vec<Record> = positions.iter().map(|p| Record::new(p, 0, 0, 0)).collect();
    let model = Model::new(Variant::International)
        .expect("model")
        .with_tall();
    let (samples, bad) = model.samples(&records);
    assert_eq!(bad, 0);
    assert_eq!(samples.talls, model.layout.tall.len());
    let mut rng = Rng::new(4);
    let mut p = model.params_from_v1().expect("v1");
    let tall = 2 * model.tall_slot(0);
    for x in &mut p[tall..] {
        *x = (rng.unit() as f32 - 0.5) * 40.0;
    }
    let w = model.export(&p, 100.0, "tall".into()).expect("symmetric");
    assert!(!w.tall.is_empty());
    let again = model.params_from_weights(&w).expect("read back");
    let e = PatternEval::v1_only().with(w);
    for (n, pos) in positions.iter().enumerate() {
        let float = f64::from(model.eval(&p, &samples, n));
        let int = f64::from(e.white_score(pos));
        // 84 entries of two views rounded to 1/8 centi-man, and the mix.
        assert!(
            (float - int).abs() <= 6.0,
            "{pos:?}: model {float:.1}, engine {int}"
        );
        // Weights read back as parameters evaluate the same.
        let back = f64::from(model.eval(&again, &samples, n));
        assert!(
            (back - int).abs() <= 6.0,
            "{pos:?}: read back {back:.1}, engine {int}"
        );
    }
}

/// Weights whose pattern-table entries are all non-zero (each region's
/// entry for a configuration and its colour-swapped partner's differ), the
/// dense terms v1's.
fn tables_filled(model: &Model) -> tiao::eval::pattern_file::PatternWeights {
    let p = model.params_from_v1().expect("v1");
    let mut w = model.export(&p, 100.0, String::new()).expect("export");
    for (i, e) in w.tables.iter_mut().enumerate() {
        let v = 1 + (i % 89) as i16;
        *e = tiao::eval::pattern_file::Entry { mg: v, eg: -v };
    }
    w
}

/// An optimiser's test bed: `count` random positions scored `score`, the
/// model, its samples, weights with filled tables and their parameters.
struct Bed {
    model: Model,
    samples: tiao::tools::train::model::Samples,
    init: tiao::eval::pattern_file::PatternWeights,
    start: Vec<f32>,
}

impl Bed {
    fn new(count: usize, seed: u64, score: i32) -> Bed {
        let positions = random_positions::<International>(count, seed);
        let records: Vec<Record> = positions
            .iter()
            .map(|p| Record::new(p, score, 0, 0))
            .collect();
        let model = Model::new(Variant::International).expect("model");
        let (samples, _) = model.samples(&records);
        let init = tables_filled(&model);
        let start = model.params_from_weights(&init).expect("params");
        Bed {
            model,
            samples,
            init,
            start,
        }
    }

    /// The parameters after training from the filled tables (no
    /// validation set: the last epoch is kept).
    fn train(&self, cfg: TrainConfig) -> Vec<f32> {
        let cfg = TrainConfig {
            lambda: 1.0,
            k: Some(100.0),
            init: Some(self.init.clone()),
            ..cfg
        };
        let empty = self.model.samples(&[]).0;
        trainer::train(&self.model, &self.samples, &empty, &cfg, &mut |_| {})
            .expect("train")
            .params
    }
}

/// Lazy Adam: a table entry that no training position reads keeps its
/// value, even under regularisation that pulls every entry towards zero
/// (plain Adam moves it: the check can fail).
#[test]
fn lazy_adam_leaves_entries_no_position_reads() {
    let bed = Bed::new(200, 11, 0);
    let (model, start) = (&bed.model, &bed.start);
    // One position at a time: two positions may read an entry with
    // opposite signs.
    let mut read = vec![false; start.len()];
    let mut grad = vec![0f32; start.len()];
    for n in 0..bed.samples.len() {
        model.backward(&mut grad, &bed.samples, n, 1.0);
        for (r, g) in read.iter_mut().zip(&mut grad) {
            *r |= *g != 0.0;
            *g = 0.0;
        }
    }
    let tables = 2 * model.dense_slot();
    let unread: Vec<usize> = (0..tables).filter(|&i| !read[i]).collect();
    assert!(unread.len() > start.len() / 2, "most entries are unread");
    let run = |lazy: bool| {
        bed.train(TrainConfig {
            epochs: 2,
            batch: 64,
            l2_shared: 1e-2,
            l2_specific: 1e-2,
            patience: 2,
            lazy,
            ..TrainConfig::default()
        })
    };
    let lazy = run(true);
    assert!(unread.iter().all(|&i| lazy[i] == start[i]));
    assert!(
        (0..tables).any(|i| lazy[i] != start[i]),
        "the entries read still learn"
    );
    let plain = run(false);
    assert!(unread.iter().any(|&i| plain[i] != start[i]));
}

/// With `average`, the weights kept are the running average of the steps:
/// after one step, the start moved by (1 - AVERAGE_DECAY) of that step.
#[test]
fn averaged_weights_follow_the_steps_by_the_decay() {
    let bed = Bed::new(300, 12, 30);
    let start = &bed.start;
    let run = |average: bool| {
        bed.train(TrainConfig {
            epochs: 1,
            batch: bed.samples.len(),
            average,
            ..TrainConfig::default()
        })
    };
    let (stepped, averaged) = (run(false), run(true));
    let rate = 1.0 - trainer::AVERAGE_DECAY;
    let mut moved = 0;
    for i in 0..start.len() {
        let expected = start[i] + rate * (stepped[i] - start[i]);
        assert!(
            (averaged[i] - expected).abs() <= 1e-4 * (1.0 + expected.abs()),
            "parameter {i}: {} against {expected}",
            averaged[i]
        );
        moved += usize::from(stepped[i] != start[i]);
    }
    assert!(moved > 0, "the step moved something");
}
