//! The match statistics against numbers worked out by hand from the
//! published formulas (the derivations are in the comments; the decimals
//! were checked with an independent Python script using `math.erfc`):
//!
//! - logistic Elo: Elo(s) = −400·log10(1/s − 1), s(Elo) = 1/(1 + 10^(−Elo/400));
//! - pentanomial: pair scores x ∈ {0, ¼, ½, ¾, 1}, mean μ, population
//!   variance σ², N pairs, standard error σ/√N, 95% interval
//!   Elo(μ ± 1.959964·σ/√N), LOS = Φ((μ − ½)/(σ/√N));
//! - GSPRT (normal approximation, Van den Bergh / fishtest):
//!   LLR = N·(s1 − s0)·(2μ − s0 − s1)/(2σ²), Wald bounds ln(β/(1−α)),
//!   ln((1−β)/α).

use tiao::tools::match_runner::sprt::{DEFAULT_MIN_PAIRS, Decision, Sprt};
use tiao::tools::match_runner::stats::{
    Tally, elo, estimate, expected_score, format_elo, normal_cdf,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_of_simple_scores() {
    // 75%: 1/s − 1 = 1/3, so Elo = 400·log10(3) = 190.8485...
    assert!(close(elo(0.75), 400.0 * 3f64.log10(), 1e-12));
    assert!(close(elo(0.75), 190.848_501_887_865, 1e-9));
    // 60%: 1/s − 1 = 2/3, Elo = 400·log10(1.5) = 70.4365...
    assert!(close(elo(0.6), 70.436_503_622_272_47, 1e-9));
    assert_eq!(elo(0.5), 0.0);
    assert!(close(elo(0.25), -elo(0.75), 1e-12));
    // 400 Elo: 10^(−1) gives 1/(1 + 0.1) = 10/11.
    assert!(close(expected_score(400.0), 10.0 / 11.0, 1e-15));
    assert_eq!(format_elo(elo(0.5)), "+0.0");
    assert_eq!(format_elo(elo(0.0)), "-inf");
}

#[test]
fn the_normal_distribution_function() {
    assert_eq!(normal_cdf(0.0), 0.5);
    // Φ(1.959964) = 0.975 (the 95% two-sided quantile), Φ(1) = 0.841344746...
    assert!(close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-12));
    assert!(close(normal_cdf(1.0), 0.841_344_746_068_542_9, 1e-12));
    assert!(close(
        normal_cdf(-1.0),
        1.0 - 0.841_344_746_068_542_9,
        1e-12
    ));
}

/// Pairs by the first engine's points: 0: 2, ½: 10, 1: 40, 1½: 20, 2: 8.
fn worked_pairs() -> Tally {
    let mut t = Tally::default();
    for (half_points, count) in [(0u8, 2), (1, 10), (2, 40), (3, 20), (4, 8)] {
        for _ in 0..count {
            t.add_pair(half_points);
        }
    }
    t
}

#[test]
fn pentanomial_estimate_of_a_worked_example() {
    let e = estimate(&worked_pairs()).expect("estimate");
    assert!(e.from_pairs);
    // N = 80 pairs. μ = (2·0 + 10·¼ + 40·½ + 20·¾ + 8·1)/80 = 45.5/80 = 0.56875.
    assert!(close(e.score, 0.56875, 1e-15));
    // σ² = Σ n·(x − μ)²/N
    //    = (2·0.56875² + 10·0.31875² + 40·0.06875² + 20·0.18125² + 8·0.43125²)/80
    //    = (0.646953125 + 1.016015625 + 0.1890625 + 0.65703125 + 1.4878125)/80
    //    = 3.996875/80 = 0.0499609375;
    // standard error = √(0.0499609375/80) = 0.0249902325.
    assert!(close(
        e.std_error,
        (0.049_960_937_5f64 / 80.0).sqrt(),
        1e-15
    ));
    assert!(close(e.std_error, 0.024_990_232_466_905_946, 1e-12));
    // Elo(0.56875) = −400·log10(0.43125/0.56875) = 48.0769...
    assert!(close(e.elo, 48.076_920_633_535_316, 1e-9));
    // Interval: Elo(0.56875 ∓ 1.959964·0.0249902) = Elo(0.519770) .. Elo(0.617730)
    //         = 13.7448 .. 83.3714.
    assert!(close(e.elo_low, 13.744_799_851_003_256, 1e-7));
    assert!(close(e.elo_high, 83.371_358_045_611_26, 1e-7));
    // LOS = Φ(0.06875/0.0249902) = Φ(2.751075) = 0.997030.
    assert!(close(e.los, 0.997_029_996_534_619_8, 1e-9));
}

#[test]
fn trinomial_estimate_without_pairs() {
    // W 40, D 40, L 20, no complete pairs: single games x ∈ {0, ½, 1}.
    let mut t = Tally::default();
    for (p, n) in [(2u8, 40), (1, 40), (0, 20)] {
        for _ in 0..n {
            t.add_game(p);
        }
    }
    let e = estimate(&t).expect("estimate");
    assert!(!e.from_pairs);
    // μ = (40 + 20)/100 = 0.6; σ² = (40·0.4² + 40·0.1² + 20·0.6²)/100
    //   = (6.4 + 0.4 + 7.2)/100 = 0.14; se = √(0.14/100) = 0.0374166.
    assert!(close(e.score, 0.6, 1e-15));
    assert!(close(e.std_error, 0.037_416_573_867_739_42, 1e-12));
    assert!(close(e.elo, 70.436_503_622_272_47, 1e-9));
    assert!(close(e.elo_low, 18.546_239_994_354_075, 1e-7));
    assert!(close(e.elo_high, 125.651_542_176_569_35, 1e-7));
    // LOS = Φ(0.1/0.0374166) = Φ(2.672612) = 0.996237.
    assert!(close(e.los, 0.996_236_842_416_771, 1e-9));
    assert_eq!(t.draw_ratio(), Some(0.4));
}

#[test]
fn an_even_match_has_a_symmetric_interval() {
    // W = L = 30, D = 40: μ = ½, σ² = (30·¼ + 30·¼)/100 = 0.15,
    // se = 0.0387298; Elo(½ ± 1.959964·0.0387298) = ∓53.158.
    let mut t = Tally::default();
    for (p, n) in [(2u8, 30), (1, 40), (0, 30)] {
        for _ in 0..n {
            t.add_game(p);
        }
    }
    let e = estimate(&t).expect("estimate");
    assert_eq!(e.elo, 0.0);
    assert!(close(e.elo_low, -53.157_979_780_053_225, 1e-7));
    assert!(close(e.elo_high, 53.157_979_780_053_275, 1e-7));
    assert_eq!(e.los, 0.5);
}

#[test]
fn sprt_llr_of_the_worked_example() {
    let pairs = worked_pairs().pairs;
    // elo0 = 0, elo1 = 10: s0 = ½, s1 = 1/(1 + 10^(−10/400)) = 0.5143871842.
    // LLR = 80·(0.5143871842 − 0.5)·(2·0.56875 − 0.5 − 0.5143871842)/(2·0.0499609375)
    //     = 80·0.0143871842·0.1231128158/0.099921875 = 1.4181053.
    let s = Sprt::new(0.0, 10.0);
    assert!(close(expected_score(10.0), 0.514_387_184_165_998_7, 1e-12));
    assert!(close(s.llr(&pairs), 1.418_105_298_443_175_2, 1e-9));
    assert_eq!(s.decide(s.llr(&pairs), 80), Decision::Continue);
    // elo0 = −5, elo1 = 5: s0 = 0.4928058, s1 = 0.5071942 → LLR 1.5841556.
    let s = Sprt {
        elo0: -5.0,
        elo1: 5.0,
        ..s
    };
    assert!(close(s.llr(&pairs), 1.584_155_597_551_887, 1e-9));
}

#[test]
fn sprt_bounds_and_decisions() {
    // α = 0.05, β = 0.1: lower ln(0.1/0.95) = −2.2512918, upper ln(0.9/0.05) = ln 18 = 2.8903718.
    let s = Sprt {
        beta: 0.1,
        ..Sprt::new(0.0, 5.0)
    };
    let (lo, hi) = s.bounds();
    assert!(close(lo, -2.251_291_798_606_495, 1e-12));
    assert!(close(hi, 2.890_371_757_896_164_5, 1e-12));
    assert_eq!(s.decide(2.9, 100), Decision::AcceptH1);
    assert_eq!(s.decide(-2.26, 100), Decision::AcceptH0);
    assert_eq!(s.decide(2.8, 100), Decision::Continue);
    // Too few pairs for the variance to mean anything: no decision yet.
    assert_eq!(s.decide(50.0, DEFAULT_MIN_PAIRS - 1), Decision::Continue);
    assert_eq!(s.decide(50.0, DEFAULT_MIN_PAIRS), Decision::AcceptH1);
    let s = Sprt { min_pairs: 20, ..s };
    assert_eq!(s.decide(50.0, 19), Decision::Continue);
    assert_eq!(s.decide(50.0, 20), Decision::AcceptH1);
}

#[test]
fn sprt_with_empty_cells_uses_the_small_regularising_count() {
    // Pairs 1: 5, 2: 5, the other cells empty and counted 0.001 each:
    // N = 10.003, μ = (5·½ + 5·1 + 0.001·(0 + ¼ + ¾))/10.003 = 0.74987504,
    // σ² = 0.06256247; with elo0 = 0, elo1 = 10:
    // LLR = 10.003·0.0143871842·(1.49975008 − 1.0143871842)/(2·0.06256247) = 0.5582501.
    let s = Sprt::new(0.0, 10.0);
    assert!(close(
        s.llr(&[0, 0, 5, 0, 5]),
        0.558_250_072_753_732_7,
        1e-9
    ));
    assert_eq!(s.llr(&[0; 5]), 0.0);
}
