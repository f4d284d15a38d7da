//! Endgame databases: generation, storage and probing, checked against the
//! rules themselves.
//!
//! The tables are generated here, into temporary directories: international
//! up to 3 pieces (plus the 4-piece slice of three kings against one),
//! Russian up to 4, Brazilian and Canadian up to 3. Every value must equal
//! the best value over the legal moves (exhaustively for 2 pieces, on a
//! large sample for 3 and 4), distances are checked against an independent
//! brute-force search and by replaying wins, known endgame results are
//! checked, damaged files must give errors and never wrong values, and the
//! index must be a bijection.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tiao_core::bits::BitWord;
use tiao_draughts::board::{
    Brazilian, Canadian, Colour, Geometry, International, Position, Rules, Russian, Variant, Word,
};
use tiao_draughts::movegen::{MoveList, generate as moves, has_capture};
use tiao_draughts::notation::read_fen;
use tiao_knowledge::endgame::index::SliceIndex;
use tiao_knowledge::endgame::{Distance, Egdb, EgdbError, GenOptions, Material, Wdl, generate};

/// xorshift64*: deterministic, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A fresh directory under Cargo's scratch space for integration tests
/// (inside `target/`, so nothing is left in the system's temp directory).
fn temp_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("egdb-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn gen_into(dir: &Path, variant: Variant, pieces: u32, only: Vec<Material>) {
    let opts = GenOptions {
        dir: dir.to_path_buf(),
        progress: false,
        only,
        ..GenOptions::new(variant, pieces)
    };
    let report = generate(&opts).unwrap_or_else(|e| panic!("generating {variant} {pieces}: {e}"));
    assert!(report.positions() > 0);
}

/// International tables up to 3 pieces and the slice 3 kings v 1 king, generated once.
fn international() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = temp_dir("international");
        gen_into(&d, Variant::International, 3, Vec::new());
        gen_into(
            &d,
            Variant::International,
            4,
            vec![Material::new(0, 3, 0, 1)],
        );
        d
    })
}

fn russian() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = temp_dir("russian");
        gen_into(&d, Variant::Russian, 4, Vec::new());
        d
    })
}

fn position<R: Rules>(s: [u128; 4], side: Colour) -> Position<R> {
    let w = |x: u128| Word::<R>::from_u128(x);
    Position::<R>::from_bitboards(w(s[0]), w(s[1]), w(s[2]), w(s[3]), side)
        .expect("index gives valid positions")
}

/// The value a position must have given the values of its successors
/// (computed here, independently of the library): no move loses at once,
/// otherwise the fastest win, else a draw, else the slowest loss.
fn expected(succ: &[Distance]) -> Distance {
    let win = succ
        .iter()
        .filter_map(|d| match d {
            Distance::Loss(n) => Some(n + 1),
            _ => None,
        })
        .min();
    if let Some(n) = win {
        return Distance::Win(n);
    }
    if succ.contains(&Distance::Draw) {
        return Distance::Draw;
    }
    let slowest = succ
        .iter()
        .filter_map(|d| match d {
            Distance::Win(n) => Some(n + 1),
            _ => None,
        })
        .max();
    Distance::Loss(slowest.unwrap_or(0))
}

/// Check that the stored value of `pos` (and of its mirror) is the best
/// value over its moves. Returns the value.
fn check_position<R: Rules>(egdb: &Egdb<R>, pos: &Position<R>) -> Distance {
    let v = egdb
        .probe_dtw(pos)
        .unwrap_or_else(|| panic!("no value for {pos:?}"));
    assert_eq!(egdb.probe(pos), Some(v.wdl()));
    assert_eq!(egdb.probe_dtw(&pos.flipped()), Some(v), "mirror of {pos:?}");
    let mut list = MoveList::<R>::new();
    moves(pos, &mut list);
    let succ: Vec<Distance> = list
        .iter()
        .map(|m| {
            let s = pos.play(m);
            egdb.probe_dtw(&s)
                .unwrap_or_else(|| panic!("no value for {s:?}"))
        })
        .collect();
    assert_eq!(v, expected(&succ), "{pos:?}");
    v
}

/// Check positions of every slice with `pieces` pieces: all of them, or
/// `sample` random ones a slice.
fn check_slices<R: Rules>(egdb: &Egdb<R>, pieces: u32, sample: Option<u64>) -> usize {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1 ^ u64::from(pieces));
    let mut checked = 0;
    for m in Material::all(pieces)
        .into_iter()
        .filter(|m| m.pieces() == pieces)
    {
        let ix = SliceIndex::<R::Geometry>::new(m).unwrap();
        let n = ix.size();
        let count = sample.map_or(n, |s| s.min(n));
        for k in 0..count {
            let i = if sample.is_some() { rng.below(n) } else { k };
            let pos = position::<R>(ix.position(i).unwrap(), Colour::White);
            check_position(egdb, &pos);
            checked += 1;
        }
    }
    checked
}

#[test]
fn international_values_are_the_best_over_the_moves() {
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    // Every 2-piece position, 48 000 random 3-piece ones.
    assert_eq!(check_slices::<International>(&egdb, 2, None), 8845);
    assert_eq!(check_slices::<International>(&egdb, 3, Some(4000)), 48_000);
}

#[test]
fn russian_brazilian_canadian_values_are_the_best_over_the_moves() {
    let egdb = Egdb::<Russian>::open(russian(), 4).unwrap();
    check_slices::<Russian>(&egdb, 2, None);
    check_slices::<Russian>(&egdb, 3, Some(1000));
    check_slices::<Russian>(&egdb, 4, Some(300));

    let d = temp_dir("brazilian");
    gen_into(&d, Variant::Brazilian, 3, Vec::new());
    let egdb = Egdb::<Brazilian>::open(&d, 3).unwrap();
    check_slices::<Brazilian>(&egdb, 2, None);
    check_slices::<Brazilian>(&egdb, 3, Some(1000));
    let _ = std::fs::remove_dir_all(&d);

    let d = temp_dir("canadian");
    gen_into(&d, Variant::Canadian, 3, Vec::new());
    let egdb = Egdb::<Canadian>::open(&d, 3).unwrap();
    check_slices::<Canadian>(&egdb, 2, Some(2000));
    check_slices::<Canadian>(&egdb, 3, Some(500));
    let _ = std::fs::remove_dir_all(&d);
}

fn fen<R: Rules>(text: &str) -> Position<R> {
    read_fen::<R>(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn one_king_against_one_king_is_a_draw_unless_caught() {
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    let ix =
        SliceIndex::<<International as Rules>::Geometry>::new(Material::new(0, 1, 0, 1)).unwrap();
    let (mut draws, mut caught) = (0, 0);
    let mut losses = Vec::new();
    for i in 0..ix.size() {
        let pos = position::<International>(ix.position(i).unwrap(), Colour::White);
        let v = egdb.probe_dtw(&pos).unwrap();
        if has_capture(&pos) {
            assert_eq!(v, Distance::Win(1), "{pos:?}");
            continue;
        }
        match v {
            Distance::Draw => draws += 1,
            // A king in the corner of the long diagonal, shut in by the
            // other king: checked by brute force.
            Distance::Win(d) => {
                assert!(
                    d <= 5 && wins_within(&pos, d) && (d < 2 || !wins_within(&pos, d - 2)),
                    "{pos:?}"
                );
                caught += 1;
            }
            Distance::Loss(d) => {
                assert!(d <= 4 && loses_within(&pos, d), "{pos:?}");
                losses.push(pos);
            }
        }
    }
    assert!(
        draws > 1900 && caught + losses.len() < 40,
        "{draws} draws, {caught} caught, {} lost",
        losses.len()
    );
    // The two lost positions: kings in opposite corners of the long
    // diagonal, the side to move has only moves along it and is captured.
    let mut expect = vec![
        fen::<International>("W:WK46:BK5"),
        fen::<International>("W:WK5:BK46"),
    ];
    expect.sort_by_key(|p| p.hash());
    losses.sort_by_key(|p| p.hash());
    assert_eq!(losses, expect);
}

/// Whether the side to move can leave the other without a move within `d` plies.
/// Plain minimax over the move generator, independent of the tables.
fn wins_within<R: Rules>(pos: &Position<R>, d: u32) -> bool {
    if d == 0 {
        return false;
    }
    let mut list = MoveList::<R>::new();
    moves(pos, &mut list);
    list.iter().any(|m| loses_within(&pos.play(m), d - 1))
}

fn loses_within<R: Rules>(pos: &Position<R>, d: u32) -> bool {
    let mut list = MoveList::<R>::new();
    moves(pos, &mut list);
    if list.is_empty() {
        return true;
    }
    d > 0 && list.iter().all(|m| wins_within(&pos.play(m), d - 1))
}

#[test]
fn two_kings_against_one_draw_in_general_but_some_positions_win() {
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    // The lone king in the corner of the long diagonal cannot be caught.
    for f in [
        "W:WK1,K2:BK46",
        "W:WK1,K2:BK28",
        "B:WK1,K2:BK46",
        "W:WK3,K44:BK23",
    ] {
        assert_eq!(egdb.probe(&fen::<International>(f)), Some(Wdl::Draw), "{f}");
    }
    // Count the quiet wins (no capture for White now), and check some of
    // them by brute force: a forced catch within the stored distance, none faster.
    let ix =
        SliceIndex::<<International as Rules>::Geometry>::new(Material::new(0, 2, 0, 1)).unwrap();
    let (mut draws, mut quiet_wins, mut verified) = (0, 0, 0);
    for i in 0..ix.size() {
        let pos = position::<International>(ix.position(i).unwrap(), Colour::White);
        match egdb.probe_dtw(&pos).unwrap() {
            Distance::Draw => draws += 1,
            Distance::Win(d) if !has_capture(&pos) => {
                quiet_wins += 1;
                if d <= 5 && i % 7 == 0 {
                    assert!(wins_within(&pos, d), "{pos:?} wins in {d}");
                    assert!(
                        d < 2 || !wins_within(&pos, d - 2),
                        "{pos:?} wins faster than {d}"
                    );
                    verified += 1;
                }
            }
            _ => {}
        }
    }
    assert!(draws > ix.size() / 2, "2 kings v 1 is mostly a draw");
    assert!(
        quiet_wins > 100 && verified > 20,
        "{quiet_wins} quiet wins, {verified} verified"
    );
}

#[test]
fn three_kings_cannot_catch_a_king_holding_the_long_diagonal() {
    let dir = international();
    // Only one 4-piece slice (and its swap) was generated: a strict open
    // reports the others missing, a lenient one uses what is there.
    match Egdb::<International>::open(dir, 4) {
        Err(EgdbError::Missing { missing, .. }) => assert!(missing.len() > 10),
        other => panic!("expected missing tables, got {other:?}"),
    }
    let egdb = Egdb::<International>::open_available(dir, 4).unwrap();
    assert_eq!(egdb.pieces(), 3);
    assert_eq!(egdb.max_pieces(), 4);
    // A slice that is not there is simply not covered.
    assert_eq!(egdb.probe(&fen::<International>("W:WK1,K2:BK46,K5")), None);

    // Every value of the slice and its swap is the best over the moves.
    let mut rng = Rng(4);
    for m in [Material::new(0, 3, 0, 1), Material::new(0, 1, 0, 3)] {
        let ix = SliceIndex::<<International as Rules>::Geometry>::new(m).unwrap();
        for _ in 0..20_000 {
            let pos = position::<International>(
                ix.position(rng.below(ix.size())).unwrap(),
                Colour::White,
            );
            check_position(&egdb, &pos);
        }
    }
    let g = |sq: u32| <International as Rules>::Geometry::bit_of(sq - 1);
    let diagonal: Vec<u32> = [46, 41, 37, 32, 28, 23, 19, 14, 10, 5]
        .iter()
        .map(|&s| g(s))
        .collect();
    let on_diagonal =
        |p: &Position<International>, c: Colour| p.kings(c).iter().any(|b| diagonal.contains(&b));
    let ix =
        SliceIndex::<<International as Rules>::Geometry>::new(Material::new(0, 3, 0, 1)).unwrap();
    let (mut draws, mut caught, mut held, mut won) = (0, 0, 0, 0);
    for i in 0..ix.size() {
        // Black (the lone king) to move.
        let pos = position::<International>(ix.position(i).unwrap(), Colour::Black);
        if has_capture(&pos) {
            continue;
        }
        let v = egdb.probe_dtw(&pos).expect("3 kings v 1 king is covered");
        let lone_on = on_diagonal(&pos, Colour::Black);
        let strong_on = on_diagonal(&pos, Colour::White);
        if lone_on && !strong_on {
            // Draw, unless every move of the lone king along the diagonal
            // is caught at once (White captures next move).
            let mut list = MoveList::<International>::new();
            moves(&pos, &mut list);
            let all_caught = list
                .iter()
                .filter(|m| diagonal.contains(&m.to_bit()))
                .all(|m| has_capture(&pos.play(m)));
            match v {
                Distance::Draw => draws += 1,
                Distance::Loss(_) => {
                    assert!(all_caught, "{pos:?} is lost but the king can escape");
                    caught += 1;
                }
                Distance::Win(_) => panic!("{pos:?}: the lone king cannot win"),
            }
        }
        // White to move, the lone king on the long diagonal and no white
        // king there: a draw, unless the king is caught at once (checked
        // by brute force).
        let pos = pos.with_side(Colour::White);
        if lone_on && !strong_on && !has_capture(&pos) {
            match egdb.probe_dtw(&pos).unwrap() {
                Distance::Draw => held += 1,
                Distance::Win(d) => {
                    // Caught by a short combination.
                    assert!(d <= 15, "{pos:?}: caught only in {d} plies");
                    if d <= 5 && won % 20 == 0 {
                        assert!(wins_within(&pos, d), "{pos:?}");
                    }
                    won += 1;
                }
                Distance::Loss(_) => panic!("{pos:?}: three kings cannot lose"),
            }
        }
    }
    // (With the lone king to move, none is even caught at once.)
    assert!(draws > 80_000, "{draws} draws, {caught} caught");
    assert!(held > 50_000 && won > 100, "{held} draws, {won} caught");
    assert_eq!(
        egdb.probe(&fen::<International>("B:WK1,K2,K3:BK46")),
        Some(Wdl::Draw)
    );
    assert_eq!(
        egdb.probe(&fen::<International>("W:WK1,K2,K3:BK46")),
        Some(Wdl::Draw)
    );
}

#[test]
fn the_prober_can_be_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Egdb<International>>();
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    let pos = fen::<International>("W:WK1,K2:BK46");
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| assert_eq!(egdb.probe(&pos), Some(Wdl::Draw)));
        }
    });
}

#[test]
fn a_man_against_nothing_wins() {
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    for f in ["W:W28:B", "W:W46:B", "W:WK10:B", "B:W:B12"] {
        assert_eq!(
            egdb.probe_dtw(&fen::<International>(f)),
            Some(Distance::Win(1)),
            "{f}"
        );
    }
    // The side without pieces has lost.
    assert_eq!(
        egdb.probe_dtw(&fen::<International>("B:W28:B")),
        Some(Distance::Loss(0))
    );
    // A man against a king far away: the man is stopped or promotes.
    assert!(egdb.probe(&fen::<International>("W:W6:BK46")).is_some());
    // Not covered: too many pieces. (Another rule set's position does not
    // compile: the tables are typed by their rules.)
    assert_eq!(
        egdb.probe(&fen::<International>("W:W31,32,33:B18,19")),
        None
    );
}

#[test]
fn playing_the_distance_minimising_move_wins_within_the_distance() {
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    let mut rng = Rng(99);
    let mut games = 0;
    for m in Material::all(3).into_iter().filter(|m| m.pieces() == 3) {
        let ix = SliceIndex::<<International as Rules>::Geometry>::new(m).unwrap();
        let mut tries = 0;
        while tries < 400 {
            tries += 1;
            let start = position::<International>(
                ix.position(rng.below(ix.size())).unwrap(),
                Colour::White,
            );
            let Some(Distance::Win(d)) = egdb.probe_dtw(&start) else {
                continue;
            };
            // Best defence takes exactly d plies; random defence at most d.
            for best_defence in [true, false] {
                let mut pos = start;
                let mut plies = 0;
                loop {
                    let mut list = MoveList::<International>::new();
                    moves(&pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    assert!(plies < d, "{start:?}: no win within {d} plies");
                    let mv = if plies % 2 == 0 || best_defence {
                        egdb.best_move(&pos).unwrap()
                    } else {
                        list[rng.below(list.len() as u64) as usize]
                    };
                    pos = pos.play(&mv);
                    plies += 1;
                    // The distance of the winner's side never grows.
                    if plies % 2 == 0 {
                        match egdb.probe_dtw(&pos) {
                            Some(Distance::Win(r)) => assert!(r <= d - plies, "{start:?}"),
                            other => panic!("{start:?}: win lost after {plies} plies: {other:?}"),
                        }
                    }
                }
                assert_eq!(plies % 2, 1, "the winner made the last move");
                if best_defence {
                    assert_eq!(plies, d, "{start:?}: best defence lasts the distance");
                }
                assert!(plies <= d);
                games += 1;
            }
        }
    }
    assert!(games > 1000, "{games} games replayed");
}

#[test]
fn distances_agree_with_brute_force_search() {
    let egdb = Egdb::<International>::open(international(), 3).unwrap();
    let mut rng = Rng(5);
    let mut checked = 0;
    for m in Material::all(3).into_iter().filter(|m| m.pieces() == 3) {
        let ix = SliceIndex::<<International as Rules>::Geometry>::new(m).unwrap();
        for _ in 0..300 {
            let pos = position::<International>(
                ix.position(rng.below(ix.size())).unwrap(),
                Colour::White,
            );
            match egdb.probe_dtw(&pos).unwrap() {
                Distance::Win(d) if d <= 5 => {
                    assert!(wins_within(&pos, d), "{pos:?} win in {d}");
                    assert!(
                        d < 2 || !wins_within(&pos, d - 2),
                        "{pos:?} wins before {d}"
                    );
                    checked += 1;
                }
                Distance::Loss(d) if d <= 4 => {
                    assert!(loses_within(&pos, d), "{pos:?} loss in {d}");
                    assert!(
                        d < 2 || !loses_within(&pos, d - 2),
                        "{pos:?} loses before {d}"
                    );
                    checked += 1;
                }
                Distance::Draw => {
                    assert!(
                        !wins_within(&pos, 3) && !loses_within(&pos, 4),
                        "{pos:?} draw"
                    );
                    checked += 1;
                }
                _ => {}
            }
        }
    }
    assert!(checked > 1500, "{checked}");
}

/// Copy of the international tables with one file damaged by `damage`.
fn damaged_copy(name: &str, victim: Material, damage: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let d = temp_dir(name);
    let v = d.join("international");
    std::fs::create_dir_all(&v).unwrap();
    for m in Material::all(3) {
        let f = m.file_name();
        std::fs::copy(international().join("international").join(&f), v.join(&f)).unwrap();
    }
    let path = v.join(victim.file_name());
    let mut bytes = std::fs::read(&path).unwrap();
    damage(&mut bytes);
    std::fs::write(&path, bytes).unwrap();
    d
}

#[test]
fn damaged_files_give_errors_never_wrong_values() {
    let good = Egdb::<International>::open(international(), 3).unwrap();
    let victim = Material::new(1, 1, 0, 1);
    let ix = SliceIndex::<<International as Rules>::Geometry>::new(victim).unwrap();
    let len = std::fs::read(
        international()
            .join("international")
            .join(victim.file_name()),
    )
    .unwrap()
    .len();
    let crc = |b: &[u8]| -> u32 {
        // CRC-32 (IEEE), as the file format uses.
        let mut c = !0u32;
        for &x in b {
            c ^= u32::from(x);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    };
    // Damage that opening must catch: header, block table, truncation, version.
    type Damage = Box<dyn FnOnce(&mut Vec<u8>)>;
    let header_cases: Vec<(&str, Damage)> = vec![
        ("magic", Box::new(|b: &mut Vec<u8>| b[0] ^= 1)),
        ("material", Box::new(|b: &mut Vec<u8>| b[14] ^= 1)),
        ("count", Box::new(|b: &mut Vec<u8>| b[21] ^= 0x10)),
        ("table", Box::new(|b: &mut Vec<u8>| b[70] ^= 0x40)),
        (
            "truncated",
            Box::new(|b: &mut Vec<u8>| b.truncate(b.len() - 1)),
        ),
        ("half", Box::new(|b: &mut Vec<u8>| b.truncate(b.len() / 2))),
        ("extended", Box::new(|b: &mut Vec<u8>| b.push(0))),
        ("empty", Box::new(|b: &mut Vec<u8>| b.clear())),
        (
            "version",
            Box::new(move |b: &mut Vec<u8>| {
                b[8] = 2;
                let c = crc(&b[0..64]);
                b[64..68].copy_from_slice(&c.to_le_bytes());
            }),
        ),
    ];
    for (name, damage) in header_cases {
        let d = damaged_copy(name, victim, damage);
        let r = Egdb::<International>::open(&d, 3);
        assert!(r.is_err(), "{name}: damaged file was accepted");
        let msg = r.unwrap_err().to_string();
        assert!(msg.contains(&victim.file_name()), "{name}: {msg}");
        // The lenient open leaves the damaged slice out and says so.
        let lenient = Egdb::<International>::open_available(&d, 3).unwrap();
        assert_eq!(lenient.pieces(), 2);
        let _ = std::fs::remove_dir_all(&d);
    }
    // Damage inside the data: the file opens, but the damaged blocks give
    // errors; every value that is given is right.
    let mut rng = Rng(3);
    let mut noticed = 0;
    for round in 0..12 {
        let at = 256 + rng.below(len as u64 - 256) as usize;
        let bit = 1u8 << (round % 8);
        let d = damaged_copy(&format!("data{round}"), victim, |b| b[at] ^= bit);
        let bad = Egdb::<International>::open(&d, 3).unwrap();
        let mut errors = 0;
        for i in 0..ix.size() {
            let pos = position::<International>(ix.position(i).unwrap(), Colour::White);
            match bad.try_probe_dtw(&pos) {
                Ok(v) => assert_eq!(v, good.probe_dtw(&pos), "byte {at}: wrong value"),
                Err(e) => {
                    assert!(matches!(e, EgdbError::Corrupt { .. }), "{e}");
                    errors += 1;
                }
            }
        }
        // (A flipped padding bit at the end of a deflate stream changes
        // nothing at all; anything else must be noticed.)
        if errors > 0 {
            noticed += 1;
        }
        let _ = std::fs::remove_dir_all(&d);
    }
    assert!(noticed >= 10, "only {noticed} of 12 damaged files noticed");
}

#[test]
fn generation_resumes_and_replaces_damaged_files() {
    let d = temp_dir("resume");
    let opts = GenOptions {
        dir: d.clone(),
        progress: false,
        ..GenOptions::new(Variant::Russian, 3)
    };
    let first = generate(&opts).unwrap();
    assert_eq!(first.generated(), first.slices.len());
    let again = generate(&opts).unwrap();
    assert_eq!(again.generated(), 0, "a complete set is verified and kept");
    assert_eq!(again.positions(), first.positions());
    // Damage one file and remove another: exactly their units are redone,
    // and the files come out identical.
    let v = d.join("russian");
    let damaged = v.join(Material::new(1, 1, 0, 1).file_name());
    let removed = v.join(Material::new(0, 2, 0, 1).file_name());
    let original = std::fs::read(&damaged).unwrap();
    let original_removed = std::fs::read(&removed).unwrap();
    let mut bytes = original.clone();
    let n = bytes.len();
    bytes[n - 3] ^= 0xFF;
    std::fs::write(&damaged, &bytes).unwrap();
    std::fs::remove_file(&removed).unwrap();
    let third = generate(&opts).unwrap();
    assert_eq!(third.generated(), 4, "two units of two slices");
    assert_eq!(std::fs::read(&damaged).unwrap(), original);
    assert_eq!(std::fs::read(&removed).unwrap(), original_removed);
    assert_eq!(
        (third.wins(), third.losses(), third.draws()),
        (first.wins(), first.losses(), first.draws())
    );
    let _ = std::fs::remove_dir_all(&d);
}

fn bijection<G: Geometry>(m: Material, samples: u64) {
    let ix = SliceIndex::<G>::new(m).unwrap();
    let n = ix.size();
    let mut rng = Rng(n);
    let count = samples.min(n);
    for k in 0..count {
        let i = if count == n { k } else { rng.below(n) };
        let [wm, wk, bm, bk] = ix.position(i).unwrap();
        assert_eq!(ix.index(wm, wk, bm, bk), i, "{m}: index {i}");
        // A valid position of the slice.
        let w = |x: u128| G::W::from_u128(x);
        assert_eq!(w(wm).to_u128(), wm);
        assert_eq!(
            [
                wm.count_ones(),
                wk.count_ones(),
                bm.count_ones(),
                bk.count_ones()
            ],
            [
                u32::from(m.white_men),
                u32::from(m.white_kings),
                u32::from(m.black_men),
                u32::from(m.black_kings)
            ]
        );
        assert_eq!(
            (wm | wk | bm | bk).count_ones(),
            m.pieces(),
            "{m}: overlap at {i}"
        );
        assert_eq!((wm | wk | bm | bk) & !G::ALL.to_u128(), 0);
        assert_eq!(
            wm & G::TOP_ROW.to_u128(),
            0,
            "{m}: white man on its crowning row"
        );
        assert_eq!(
            bm & G::BOTTOM_ROW.to_u128(),
            0,
            "{m}: black man on its crowning row"
        );
    }
    assert!(ix.position(n).is_none());
}

#[test]
fn the_index_is_a_bijection_on_each_slice() {
    type B10 = <International as Rules>::Geometry;
    type B8 = <Russian as Rules>::Geometry;
    type B12 = <Canadian as Rules>::Geometry;
    for m in Material::all(3) {
        bijection::<B10>(m, u64::MAX);
        bijection::<B8>(m, u64::MAX);
    }
    for m in Material::all(5) {
        bijection::<B10>(m, 20_000);
        bijection::<B8>(m, 20_000);
    }
    for m in Material::all(6).into_iter().filter(|m| m.pieces() == 6) {
        bijection::<B8>(m, 2_000);
        bijection::<B10>(m, 2_000);
    }
    for m in Material::all(4) {
        bijection::<B12>(m, 20_000);
    }
    // Sizes: counted by hand for two slices.
    assert_eq!(
        SliceIndex::<B10>::new(Material::new(0, 1, 0, 1))
            .unwrap()
            .size(),
        50 * 49
    );
    assert_eq!(
        SliceIndex::<B8>::new(Material::new(1, 0, 1, 0))
            .unwrap()
            .size(),
        28 * 28 - 24
    );
}
