//! The pattern evaluation: exact colour symmetry on thousands of random
//! positions of each variant, agreement with v1 when its tables are empty,
//! clear errors for damaged weights files, and an engine that still plays
//! after a failed load; each rule set's own evaluation (what a session
//! of it owns) evaluates as the engine's choice does.

mod playout_support;

use playout_support::random_positions;
use tiao::board::{Brazilian, Colour, International, Position, Rules, Russian, Variant};
use tiao::eval::Evaluator;
use tiao::eval::pattern::{Blocks, BlocksAndTall, Carried, PatternEval, PatternOf};
use tiao::eval::pattern_file::{PatternFileError, PatternWeights, Phase};
use tiao::eval::pattern_select::{EvalChoice, EvalOf};
use tiao::game::Evaluate;
use tiao::movegen::{MoveList, generate};
use tiao::record::GameHistory;
use tiao::search::{Limits, Mode, Params, Root, Searcher};
use tiao::tools::train::model::Model;
use tiao::tools::train::rng::Rng;

/// Weights with every table entry random (and still colour-symmetric):
/// a far harder symmetry test than trained weights, whose entries are
/// mostly small.
fn random_weights(v: Variant, seed: u64) -> PatternWeights {
    random_weights_with(v, seed, Phase::Pieces, false)
}

/// As `random_weights`, blended by `phase`, with tall windows if `tall`.
fn random_weights_with(v: Variant, seed: u64, phase: Phase, tall: bool) -> PatternWeights {
    let mut model = Model::new(v).expect("supported variant").with_phase(phase);
    if tall {
        model = model.with_tall();
    }
    let mut rng = Rng::new(seed);
    let mut p = model.params_from_v1().expect("v1");
    for x in p.iter_mut() {
        *x += (rng.unit() as f32 - 0.5) * 40.0;
    }
    model
        .export(&p, 100.0, "random".into())
        .expect("symmetric by construction")
}

fn check_symmetry<R: Rules>(eval: &PatternEval, positions: &[Position<R>]) {
    for pos in positions {
        let f = pos.flipped();
        let (a, b) = (eval.white_score(pos), eval.white_score(&f));
        assert_eq!(a, -b, "{pos:?} scores {a}, flipped {f:?} scores {b}");
        // From the side to move, the flipped position is the same position.
        assert_eq!(eval.evaluate(pos), eval.evaluate(&f), "{pos:?}");
    }
}

#[test]
fn pattern_evaluation_is_colour_symmetric() {
    for (v, seed) in [
        (Variant::International, 1),
        (Variant::Russian, 2),
        (Variant::Brazilian, 3),
    ] {
        let random = PatternEval::v1_only().with(random_weights(v, seed));
        let advancement =
            PatternEval::v1_only().with(random_weights_with(v, seed, Phase::Advancement, false));
        let tall = PatternEval::v1_only().with(random_weights_with(v, seed, Phase::Pieces, true));
        let builtin = PatternEval::builtin();
        let evals = [&random, &advancement, &tall, &builtin];
        match v {
            Variant::International => {
                let ps = random_positions::<International>(4000, seed);
                evals.iter().for_each(|e| check_symmetry(e, &ps));
            }
            Variant::Russian => {
                let ps = random_positions::<Russian>(3000, seed);
                evals.iter().for_each(|e| check_symmetry(e, &ps));
            }
            _ => {
                let ps = random_positions::<Brazilian>(3000, seed);
                evals.iter().for_each(|e| check_symmetry(e, &ps));
            }
        }
    }
}

#[test]
fn builtin_weights_load_for_every_trained_variant() {
    let e = PatternEval::builtin();
    for v in [Variant::International, Variant::Russian, Variant::Brazilian] {
        let w = e
            .weights(v)
            .unwrap_or_else(|| panic!("no built-in pattern weights for {v}"));
        assert_eq!(w.variant, v);
        assert!(w.note.contains("tiao train"), "{v}: {}", w.note);
    }
    assert!(e.weights(Variant::Canadian).is_none());
}

/// The dense terms are fast versions of v1 features: they must agree.
fn check_dense<R: Rules>(positions: &[Position<R>]) {
    use tiao::eval::features::{Feature, features};
    use tiao::eval::pattern_dense::{
        KING, KING_MOBILITY, MAN, RUNAWAY, SIDE_TO_MOVE, TEMPO, dense,
    };
    for pos in positions {
        let (d, f) = (dense(pos), features(pos));
        for (i, feature) in [
            (MAN, Feature::Man),
            (KING, Feature::King),
            (TEMPO, Feature::Tempo),
            (RUNAWAY, Feature::Runaway),
            (KING_MOBILITY, Feature::KingMobility),
        ] {
            assert_eq!(d[i], f[feature as usize], "{} in {pos:?}", feature.name());
        }
        assert_eq!(
            d[SIDE_TO_MOVE],
            if pos.side() == Colour::White { 1 } else { -1 }
        );
    }
}

/// The dense terms v1 has no feature for, counted square by square as
/// their names say, for one side (White minus Black is the term).
fn slow_terms<R: Rules>(pos: &Position<R>, c: Colour) -> [i32; 4] {
    use tiao::bits::BitWord;
    use tiao::board::{Dir, Geometry};
    let has = |w: tiao::board::Word<R>, bit: u32| (w.to_u128() >> bit) & 1 == 1;
    let size = R::Geometry::SIZE as i32;
    let empty = pos.empty_squares();
    let (mut has_king, mut denied, mut diagonal, mut skew) = (0, 0, 0, 0);
    for sq in 0..R::Geometry::SQUARES {
        let bit = R::Geometry::bit_of(sq);
        let (row, file) = R::Geometry::row_file(bit);
        if has(pos.men(c), bit) {
            skew += 2 * file as i32 - (size - 1);
        }
        if !has(pos.kings(c), bit) {
            continue;
        }
        has_king = 1;
        diagonal += i32::from(row + file == R::Geometry::SIZE - 1);
        for d in Dir::ALL {
            let mut at = bit;
            while let Some(next) = R::Geometry::neighbour(at, d).filter(|&n| has(empty, n)) {
                at = next;
                // A man of the other side next to `at` with the square
                // beyond `at` empty takes a king that stops on `at`.
                let attacked = Dir::ALL.into_iter().any(|e| {
                    let man = R::Geometry::neighbour(at, e).is_some_and(|m| has(pos.men(!c), m));
                    let beyond =
                        R::Geometry::neighbour(at, e.reverse()).is_some_and(|b| has(empty, b));
                    man && beyond
                });
                denied += i32::from(attacked);
            }
        }
    }
    [has_king, denied, diagonal, -skew.abs()]
}

fn check_later_terms<R: Rules>(positions: &[Position<R>]) {
    use tiao::eval::pattern_dense::{BALANCE, HAS_KING, KING_DENIED, LONG_DIAGONAL, dense};
    let mut seen = [0usize; 4];
    for pos in positions {
        let d = dense(pos);
        let (w, b) = (
            slow_terms(pos, Colour::White),
            slow_terms(pos, Colour::Black),
        );
        for (k, (term, name)) in [
            (HAS_KING, "has-king"),
            (KING_DENIED, "king-denied"),
            (LONG_DIAGONAL, "long-diagonal"),
            (BALANCE, "balance"),
        ]
        .into_iter()
        .enumerate()
        {
            assert_eq!(d[term], w[k] - b[k], "{name} in {pos:?}");
            seen[k] += usize::from(d[term] != 0);
        }
    }
    // The positions exercise every term.
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

#[test]
fn the_later_dense_terms_count_what_their_names_say() {
    check_later_terms(&random_positions::<International>(3000, 17));
    check_later_terms(&random_positions::<Russian>(2000, 18));
    check_later_terms(&random_positions::<Brazilian>(2000, 19));
}

#[test]
fn dense_terms_match_the_v1_features() {
    check_dense(&random_positions::<International>(3000, 7));
    check_dense(&random_positions::<Russian>(2000, 8));
    check_dense(&random_positions::<Brazilian>(2000, 9));
}

#[test]
fn canadian_falls_back_to_v1() {
    use tiao::board::Canadian;
    let e = PatternEval::builtin();
    let v1 = Evaluator::default();
    for pos in random_positions::<Canadian>(200, 9) {
        assert_eq!(e.white_score(&pos), v1.white_score(&pos));
    }
}

#[test]
fn terms_add_up_to_the_score() {
    let e = PatternEval::v1_only().with(random_weights(Variant::International, 11));
    for pos in random_positions::<International>(300, 12) {
        let sum: i32 = e.terms(&pos).iter().map(|t| t.score).sum();
        // Each term is rounded on its own.
        assert!((sum - e.white_score(&pos)).abs() <= 8, "{pos:?}");
    }
}

#[test]
fn a_king_is_worth_its_squares_entry_seen_from_its_own_side() {
    use tiao::eval::pattern::KING_SQUARES;
    use tiao::eval::weights::Weights;
    use tiao::notation::fen::read_fen;
    let mut w = PatternWeights::from_v1(Variant::International, &Weights::builtin()).expect("v1");
    // In table units (8 a centi-man): square 1 is worth 10, square 50 -20.
    w.king_squares[0] = (80, 80);
    w.king_squares[49] = (-160, -160);
    let e = PatternEval::v1_only().with(w);
    let table = |fen: &str| {
        let pos = read_fen::<International>(fen).expect("fen");
        let t = e.terms(&pos);
        t.iter()
            .find(|t| t.name == KING_SQUARES)
            .expect("a king-square term")
            .score
    };
    assert_eq!(table("W:WK1:B35"), 10);
    assert_eq!(table("W:WK50:B35"), -20);
    // Black's square 50 is White's square 1, seen half a turn away.
    assert_eq!(table("W:W35:BK50"), -10);
    assert_eq!(table("W:W35:BK1"), 20);
    assert_eq!(table("W:WK1,K49:BK50,K2"), 0);
    assert_eq!(table("W:WK2:B35"), 0);
    assert_eq!(table("W:W20:B35"), 0, "men are not on the table");
}

/// The drawish divisor of `fen` for the side `ahead`.
fn divisor<R: Rules>(fen: &str, ahead: Colour) -> i32 {
    use tiao::eval::pattern::drawish_divisor;
    let pos = tiao::notation::fen::read_fen::<R>(fen).expect("fen");
    drawish_divisor(&pos, ahead)
}

#[test]
fn three_pieces_or_fewer_against_a_king_are_drawish() {
    use Colour::White;
    assert_eq!(divisor::<International>("W:WK1,K2,K3:BK45", White), 8);
    assert_eq!(divisor::<International>("W:WK1,K2:BK45", White), 8);
    assert_eq!(divisor::<International>("W:WK1,20,30:BK45,40", White), 8);
    assert_eq!(divisor::<Russian>("W:WKa3,Kc1,Ke1:BKh2", White), 8);
    assert_eq!(divisor::<Russian>("W:WKa3,c1,e3:BKh2", White), 8);
}

#[test]
fn equal_kings_and_men_within_one_are_half_drawish() {
    use Colour::White;
    assert_eq!(
        divisor::<International>("W:WK1,31,32,33:BK50,20,19", White),
        2
    );
    assert_eq!(
        divisor::<International>("W:WK1,31,32,33,34:BK50,20,19", White),
        1
    );
}

#[test]
fn without_a_king_behind_nothing_is_drawish() {
    use Colour::White;
    assert_eq!(divisor::<International>("W:WK1,K2,K3:B20", White), 1);
    assert_eq!(divisor::<Russian>("W:WKa3:Bh6", White), 1);
}

#[test]
fn on_8x8_a_lone_king_on_the_main_road_holds_three_pieces_with_a_king() {
    use Colour::{Black, White};
    // Russian: the main road runs a1-h8.
    assert_eq!(divisor::<Russian>("W:WKa3,Kc1,Ke1:BKd4", White), 32);
    assert_eq!(divisor::<Russian>("W:WKa3,c1,e3:BKh8", White), 32);
    assert_eq!(divisor::<Russian>("B:WKa1:BKa3,Kc1,Ke1", Black), 32);
    // Off the road, three men, two pieces, or men beside the lone king:
    // drawish as everywhere.
    assert_eq!(divisor::<Russian>("W:WKa3,Kc1,Ke1:BKh2", White), 8);
    assert_eq!(divisor::<Russian>("W:Wa3,c1,e1:BKd4", White), 8);
    assert_eq!(divisor::<Russian>("W:WKa3,Kc1:BKd4", White), 8);
    assert_eq!(divisor::<Russian>("W:WKa3,Kc1,Ke1:BKd4,h8", White), 8);
    // Brazilian counts squares 1-32: 29 (a1) to 4 (h8) is the road.
    assert_eq!(divisor::<Brazilian>("W:WK30,K31,K32:BK15", White), 32);
    assert_eq!(divisor::<Brazilian>("W:WK30,K31,K32:BK1", White), 8);
    // The long diagonal of 10x10 is no road to hold.
    assert_eq!(divisor::<International>("W:WK1,K2,K3:BK46", White), 8);
}

fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tiao-eval-pattern-{}-{name}", std::process::id()))
}

#[test]
fn damaged_weights_files_give_clear_errors() {
    let good = random_weights(Variant::International, 5).to_bytes();
    assert!(PatternWeights::from_bytes(&good, Some(Variant::International)).is_ok());

    let truncated = &good[..good.len() / 2];
    let e = PatternWeights::from_bytes(truncated, None).expect_err("truncated");
    assert!(matches!(e, PatternFileError::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
    let e = PatternWeights::from_bytes(&good[..10], None).expect_err("header only");
    assert!(matches!(e, PatternFileError::Truncated { .. }), "{e}");
    assert!(PatternWeights::from_bytes(&[], None).is_err());

    let mut flipped = good.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    let e = PatternWeights::from_bytes(&flipped, None).expect_err("corrupt");
    assert!(
        matches!(e, PatternFileError::ChecksumMismatch { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("corrupt"), "{e}");

    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(
        PatternWeights::from_bytes(&magic, None),
        Err(PatternFileError::BadMagic)
    );

    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        PatternWeights::from_bytes(&longer, None),
        Err(PatternFileError::TrailingBytes(1))
    ));

    let e = PatternWeights::from_bytes(&good, Some(Variant::Russian)).expect_err("other variant");
    assert!(matches!(e, PatternFileError::WrongVariant { .. }), "{e}");

    // From disk: the message names the file.
    let path = temp_path("corrupt.bin");
    std::fs::write(&path, &flipped).expect("write temp file");
    let e = PatternWeights::load(&path, None).expect_err("corrupt file");
    assert!(
        e.contains(&path.display().to_string()) && e.contains("checksum"),
        "{e}"
    );
    let missing = temp_path("missing.bin");
    let e = PatternEval::load(&missing).expect_err("missing file");
    assert!(e.contains("cannot read"), "{e}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn weights_files_round_trip() {
    let w = random_weights(Variant::Brazilian, 21);
    let path = temp_path("round-trip.bin");
    w.save(&path).expect("save");
    let back = PatternWeights::load(&path, Some(Variant::Brazilian)).expect("load");
    assert_eq!(back, w);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn engine_still_plays_after_a_failed_load() {
    let path = temp_path("truncated.bin");
    let bytes = random_weights(Variant::International, 3).to_bytes();
    std::fs::write(&path, &bytes[..1000]).expect("write temp file");
    // What a front end does: try the file, keep the evaluation it had.
    let mut eval = EvalChoice::default();
    match EvalChoice::load(&path) {
        Ok(e) => eval = e,
        Err(msg) => assert!(msg.contains("truncated"), "{msg}"),
    }
    assert_eq!(eval.name(), "pattern");
    let mut searcher = Searcher::new(1, 4).expect("searcher");
    let mut game = GameHistory::new(Position::<International>::start());
    for _ in 0..12 {
        let root = Root {
            position: *game.position(),
            counters: game.counters(),
            history: game.reversible_hashes(),
        };
        searcher.prepare(Mode::Think);
        let out = searcher.search(&root, &eval, &Params::think(Limits::nodes(2000)), &|_| {});
        let mv = out.best.expect("a legal move");
        let mut list = MoveList::<International>::new();
        generate(game.position(), &mut list);
        assert!(list.contains(&mv));
        game.play(mv);
    }
    assert!(game.position().side() == Colour::White);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn evaluation_choice_reads_both_formats() {
    let v1 = temp_path("v1.txt");
    std::fs::write(&v1, tiao::eval::weights::BUILTIN).expect("write");
    assert_eq!(EvalChoice::load(&v1).expect("v1 text").name(), "v1");
    let pat = temp_path("pattern.bin");
    random_weights(Variant::Russian, 4)
        .save(&pat)
        .expect("save");
    assert_eq!(EvalChoice::load(&pat).expect("pattern").name(), "pattern");
    assert!(EvalChoice::named("nnue").is_err());
    let _ = std::fs::remove_file(&v1);
    let _ = std::fs::remove_file(&pat);
}

fn same_as_the_choice<R: Rules>(choice: &EvalChoice, positions: &[Position<R>]) {
    let own = choice.of_rules::<R>();
    for pos in positions {
        assert_eq!(own.evaluate(pos), choice.evaluate(pos), "{pos:?}");
        assert_eq!(own.terms(pos), choice.terms(pos), "{pos:?}");
    }
}

#[test]
fn a_rule_sets_own_evaluation_is_the_choice_for_that_rule_set() {
    use tiao::board::Canadian;
    for choice in [
        EvalChoice::default(),
        EvalChoice::V1(Evaluator::default()),
        EvalChoice::Pattern(PatternEval::v1_only().with(random_weights(Variant::Russian, 7))),
    ] {
        same_as_the_choice(&choice, &random_positions::<International>(300, 31));
        same_as_the_choice(&choice, &random_positions::<Russian>(300, 32));
        same_as_the_choice(&choice, &random_positions::<Brazilian>(300, 33));
        // No pattern weights: v1 evaluates it.
        same_as_the_choice(&choice, &random_positions::<Canadian>(100, 34));
    }
}

#[test]
fn a_weights_file_changes_only_the_evaluation_of_its_rule_set() {
    use tiao::engine::{Engine, Options, PositionText};
    let w = random_weights(Variant::Russian, 8);
    let path = temp_path("russian.bin");
    w.save(&path).expect("write weights");
    let loaded = EvalChoice::Pattern(PatternEval::builtin().with(w));
    let builtin = EvalChoice::default();
    // A position where the random weights and the shipped ones disagree.
    let russian = random_positions::<Russian>(50, 9)
        .into_iter()
        .find(|p| loaded.evaluate(p) != builtin.evaluate(p))
        .expect("random weights differ from the shipped ones somewhere");
    let international = random_positions::<International>(1, 10)[0];

    let mut engine = Engine::new(Options::default()).expect("engine");
    let fen = tiao::notation::write_fen(&international);
    engine
        .set_position(PositionText::Fen(&fen), &[], tiao::engine::MoveReading::Any)
        .expect("position");
    let before = engine.evaluate().0;
    engine
        .set_option("eval-file", &path.display().to_string())
        .expect("load the Russian weights");
    assert_eq!(engine.evaluate().0, before, "international unchanged");
    assert_eq!(before, builtin.evaluate(&international));

    engine.set_option("variant", "russian").expect("switch");
    let fen = tiao::notation::write_fen(&russian);
    engine
        .set_position(PositionText::Fen(&fen), &[], tiao::engine::MoveReading::Any)
        .expect("position");
    assert_eq!(
        engine.evaluate().0,
        loaded.evaluate(&russian),
        "the file's weights"
    );
    engine.set_option("eval", "v1").expect("v1");
    assert_eq!(
        engine.evaluate().0,
        Evaluator::default().evaluate(&russian),
        "v1 replaces the weights of the session in play"
    );
    let _ = std::fs::remove_file(&path);
}

/// The window indices the search carries from move to move (the blocks',
/// with tall windows read from the board, or the blocks' and the tall
/// windows') evaluate every position of random games exactly as indices
/// read from the board (test builds also assert the indices equal).
fn carried_state_agrees<R: Rules, C: Carried>(seed: u64) {
    let w = std::sync::Arc::new(random_weights_with(
        R::VARIANT,
        seed,
        Phase::Advancement,
        true,
    ));
    assert!(!w.tall.is_empty());
    let e = PatternOf::<R, C>::new(w);
    let mut rng = Rng::new(seed);
    for _ in 0..30 {
        let mut game = GameHistory::new(Position::<R>::start());
        let mut state = e.state(game.position());
        let mut list = MoveList::<R>::new();
        for _ in 0..150 {
            list.clear();
            generate(game.position(), &mut list);
            if list.is_empty() || game.outcome().is_some() {
                break;
            }
            let parent = *game.position();
            game.play(list[rng.below(list.len())]);
            state = e.state_after(&state, &parent, game.position());
            let pos = game.position();
            assert_eq!(e.evaluate_with(&state, pos), e.evaluate(pos), "{pos:?}");
        }
    }
}

#[test]
fn carried_indices_evaluate_as_indices_read_from_the_board() {
    carried_state_agrees::<International, Blocks>(41);
    carried_state_agrees::<Russian, Blocks>(42);
    carried_state_agrees::<International, BlocksAndTall>(43);
    carried_state_agrees::<Russian, BlocksAndTall>(44);
}

/// Weights with tall tables get the evaluator that carries the tall
/// windows' indices too; weights without them, the one that carries the
/// blocks' alone (a smaller state to copy at every node).
#[test]
fn only_weights_with_tall_windows_carry_their_indices() {
    let pick = |tall: bool| {
        let w = random_weights_with(Variant::International, 45, Phase::Advancement, tall);
        EvalChoice::Pattern(PatternEval::builtin().with(w)).of_rules::<International>()
    };
    assert!(matches!(pick(true), EvalOf::PatternTall(_)));
    assert!(matches!(pick(false), EvalOf::Pattern(_)));
}
