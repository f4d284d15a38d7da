//! The generation driver: which units to solve and in what order, skipping
//! units whose files are already on disk and verified (so an interrupted run
//! resumes where it stopped), loading the tables a unit depends on, solving
//! it group by group, writing the files, and reporting.
//!
//! A unit's groups (see `solve`) are solved by levels of advancement, from
//! the most advanced men down, every group of a level in parallel.

use super::codec::{DONT_CARE, Encoding};
use super::error::EgdbError;
use super::format::{FLAG_CAPTURES_NOT_STORED, Header, TableFile, table_path, write_table};
use super::index::SliceIndex;
use super::material::{Material, units};
use super::memtable::{MemTable, MemTables};
use super::solve::{UNSET, Unit, Workspace};
use super::symmetry::mirror;
use super::value::{Distance, code_distance};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU16;
use std::time::Instant;
use tiao_draughts::board::{Rules, Variant};

/// Above this many bytes of tables in memory, tables a unit does not need are dropped.
const MEMORY_BUDGET: usize = 6 << 30;

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenOptions {
    pub variant: Variant,
    /// Generate every slice with up to this many pieces.
    pub pieces: u32,
    /// Database directory (tables go to `<dir>/<variant>/`).
    pub dir: PathBuf,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Slices with up to this many pieces also store the distance to win.
    pub distance_pieces: u32,
    /// Draw a progress bar on stderr.
    pub progress: bool,
    /// Only these slices and what they depend on (empty: everything).
    pub only: Vec<Material>,
}

impl GenOptions {
    pub fn new(variant: Variant, pieces: u32) -> Self {
        GenOptions {
            variant,
            pieces,
            dir: PathBuf::from(super::DEFAULT_DIR),
            threads: None,
            distance_pieces: 4,
            progress: true,
            only: Vec::new(),
        }
    }
}

/// What happened to one slice.
#[derive(Clone, Debug)]
pub struct SliceReport {
    pub material: Material,
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Size of the file.
    pub bytes: u64,
    /// Solving and writing time (a unit's time shared by its two slices by size).
    pub seconds: f64,
    /// Whether the file stores distances.
    pub distances: bool,
    /// Longest distance stored (plies), 0 without distances.
    pub max_distance: u32,
    /// The file was already there and verified, so it was not generated again.
    pub reused: bool,
}

/// The final report of a generation run.
#[derive(Clone, Debug)]
pub struct GenReport {
    pub variant: Variant,
    pub pieces: u32,
    pub slices: Vec<SliceReport>,
    /// Wall time of the whole run.
    pub seconds: f64,
}

impl GenReport {
    pub fn positions(&self) -> u64 {
        self.slices.iter().map(|s| s.positions).sum()
    }
    pub fn wins(&self) -> u64 {
        self.slices.iter().map(|s| s.wins).sum()
    }
    pub fn losses(&self) -> u64 {
        self.slices.iter().map(|s| s.losses).sum()
    }
    pub fn draws(&self) -> u64 {
        self.slices.iter().map(|s| s.draws).sum()
    }
    pub fn bytes(&self) -> u64 {
        self.slices.iter().map(|s| s.bytes).sum()
    }
    pub fn generated(&self) -> usize {
        self.slices.iter().filter(|s| !s.reused).count()
    }
}

impl fmt::Display for GenReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<12} {:>13} {:>13} {:>13} {:>13} {:>12} {:>9} {:>6}",
            "slice", "positions", "wins", "losses", "draws", "bytes", "seconds", "dtw"
        )?;
        for s in &self.slices {
            writeln!(
                f,
                "{:<12} {:>13} {:>13} {:>13} {:>13} {:>12} {:>9} {:>6}",
                s.material.to_string(),
                s.positions,
                s.wins,
                s.losses,
                s.draws,
                s.bytes,
                if s.reused {
                    "reused".to_string()
                } else {
                    format!("{:.1}", s.seconds)
                },
                if s.distances {
                    s.max_distance.to_string()
                } else {
                    "-".into()
                }
            )?;
        }
        for p in 2..=self.pieces {
            let v: Vec<&SliceReport> = self
                .slices
                .iter()
                .filter(|s| s.material.pieces() == p)
                .collect();
            if v.is_empty() {
                continue;
            }
            writeln!(
                f,
                "{:<12} {:>13} {:>13} {:>13} {:>13} {:>12} {:>9.1}",
                format!("{p} pieces"),
                v.iter().map(|s| s.positions).sum::<u64>(),
                v.iter().map(|s| s.wins).sum::<u64>(),
                v.iter().map(|s| s.losses).sum::<u64>(),
                v.iter().map(|s| s.draws).sum::<u64>(),
                v.iter().map(|s| s.bytes).sum::<u64>(),
                // (A fold from +0.0: an empty float sum is -0.0.)
                v.iter()
                    .filter(|s| !s.reused)
                    .fold(0.0, |a, s| a + s.seconds),
            )?;
        }
        write!(
            f,
            "{} {}: {} slices ({} generated), {} positions: {} wins, {} losses, {} draws; {} bytes; {:.1} s",
            self.variant,
            self.pieces,
            self.slices.len(),
            self.generated(),
            self.positions(),
            self.wins(),
            self.losses(),
            self.draws(),
            self.bytes(),
            self.seconds
        )
    }
}

/// Generate (or complete) the tables of a variant. Safe to interrupt and
/// run again: finished slices are verified and kept.
pub fn generate(opts: &GenOptions) -> Result<GenReport, EgdbError> {
    if opts.pieces < 2 || opts.pieces > 7 {
        return Err(EgdbError::Unsupported(format!(
            "tables can be generated for 2 to 7 pieces, not {}",
            opts.pieces
        )));
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = opts.threads {
        builder = builder.num_threads(t.max(1));
    }
    let pool = builder
        .build()
        .map_err(|e| EgdbError::Unsupported(format!("cannot start worker threads: {e}")))?;
    pool.install(|| tiao_draughts::with_rules!(opts.variant, R => run::<R>(opts)))
}

/// Slices that White's captures and promotions in `m` lead to (after the
/// colour swap), not counting positions where the side to move has no piece.
fn successors(m: Material) -> Vec<Material> {
    let mut out = Vec::new();
    for x in 0..=m.black_men {
        for y in 0..=m.black_kings {
            for p in 0..=m.white_men.min(1) {
                if x + y == 0 && p == 0 {
                    continue;
                }
                let after = Material::new(
                    m.black_men - x,
                    m.black_kings - y,
                    m.white_men - p,
                    m.white_kings + p,
                );
                if after.white() > 0 {
                    out.push(after);
                }
            }
        }
    }
    out
}

/// Every slice the positions of `unit` can lead to, however deep.
fn dependencies(unit: &[Material]) -> BTreeSet<Material> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<Material> = unit.to_vec();
    while let Some(m) = todo.pop() {
        for s in successors(m)
            .into_iter()
            .chain(std::iter::once(m.swapped()))
        {
            if !unit.contains(&s) && seen.insert(s) {
                todo.push(s);
            }
        }
    }
    seen
}

/// The encoding a slice is stored with.
fn wants_distances(m: Material, opts: &GenOptions) -> bool {
    m.pieces() <= opts.distance_pieces
}

/// An existing file that can be kept: right slice, right kind, every block intact.
fn reusable<R: Rules>(opts: &GenOptions, m: Material) -> Option<TableFile> {
    let path = table_path(&opts.dir, R::VARIANT, m);
    if !path.exists() {
        return None;
    }
    let size = SliceIndex::<R::Geometry>::new(m).ok()?.size();
    let checked = TableFile::open(&path, R::VARIANT, m, size).and_then(|f| {
        if f.header().encoding.has_distance() != wants_distances(m, opts) {
            return Err(EgdbError::Mismatch {
                path: path.clone(),
                reason: "distances stored or not, unlike this run".into(),
            });
        }
        f.verify()?;
        Ok(f)
    });
    match checked {
        Ok(f) => Some(f),
        Err(e) => {
            log::warn!("{e}; generating it again");
            None
        }
    }
}

fn run<R: Rules>(opts: &GenOptions) -> Result<GenReport, EgdbError> {
    let start = Instant::now();
    let vdir = opts.dir.join(R::VARIANT.name());
    std::fs::create_dir_all(&vdir).map_err(|e| EgdbError::io(&vdir, e))?;

    let mut plan = units(opts.pieces);
    if !opts.only.is_empty() {
        let mut need: BTreeSet<Material> = BTreeSet::new();
        for &m in &opts.only {
            if m.pieces() > opts.pieces || m.white() == 0 || m.black() == 0 {
                return Err(EgdbError::Unsupported(format!(
                    "slice {m} is not in the {} piece tables",
                    opts.pieces
                )));
            }
            need.insert(m);
            need.insert(m.swapped());
            need.extend(dependencies(&[m, m.swapped()]));
        }
        plan.retain(|u| u.iter().any(|m| need.contains(m)));
    }

    // Which units are already done.
    let mut todo: Vec<(Vec<Material>, Option<Vec<TableFile>>)> = Vec::new();
    for u in plan {
        let files: Option<Vec<TableFile>> = u.iter().map(|&m| reusable::<R>(opts, m)).collect();
        todo.push((u, files));
    }
    let mut total = 0u64;
    for (u, files) in &todo {
        if files.is_none() {
            for &m in u {
                total += SliceIndex::<R::Geometry>::new(m)?.size();
            }
        }
    }
    let bar = if opts.progress {
        let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {percent:>3}% {human_pos}/{human_len} positions, eta {eta} {msg}",
        ) {
            b.set_style(style.progress_chars("=> "));
        }
        b
    } else {
        ProgressBar::hidden()
    };

    let mut tables = MemTables::<R>::new();
    let mut reports = Vec::new();
    let mut done = 0u64;
    for (u, files) in todo {
        if let Some(files) = files {
            for f in files {
                let h = f.header();
                reports.push(SliceReport {
                    material: h.material,
                    positions: h.positions,
                    wins: h.wins,
                    losses: h.losses,
                    draws: h.draws,
                    bytes: std::fs::metadata(f.path()).map(|m| m.len()).unwrap_or(0),
                    seconds: 0.0,
                    distances: h.encoding.has_distance(),
                    max_distance: u32::from(h.max_depth),
                    reused: true,
                });
            }
            continue;
        }
        let t0 = Instant::now();
        let name: Vec<String> = u.iter().map(|m| m.to_string()).collect();
        bar.set_message(name.join(" "));
        let deps = dependencies(&u);
        if tables.bytes() > MEMORY_BUDGET {
            tables.retain(|m| deps.contains(&m));
        }
        for &m in &deps {
            if tables.get(m).is_none() {
                let index = SliceIndex::<R::Geometry>::new(m)?;
                let path = table_path(&opts.dir, R::VARIANT, m);
                let file = TableFile::open(&path, R::VARIANT, m, index.size())?;
                tables.insert(m, Arc::new(MemTable::load(&file, index)?));
            }
        }
        let distances = wants_distances(u[0], opts);
        let codes = solve_unit::<R>(&u, &tables, distances, &bar, done)?;
        let sizes: Vec<u64> = codes.iter().map(|c| c.len() as u64).collect();
        let unit_size: u64 = sizes.iter().sum();
        let mut unit_reports = Vec::new();
        for (&m, c) in u.iter().zip(&codes) {
            let (wins, losses, draws, max_d) = statistics(c);
            let encoding = if !distances {
                Encoding::Wdl2
            } else if c.iter().all(|&x| x & 0x7FFF <= 255) {
                Encoding::Dtw8
            } else {
                Encoding::Dtw16
            };
            let header = Header {
                variant: R::VARIANT,
                material: m,
                encoding,
                flags: FLAG_CAPTURES_NOT_STORED,
                positions: c.len() as u64,
                block_positions: 0,
                blocks: 0,
                wins,
                losses,
                draws,
                max_depth: if distances {
                    max_d.min(u32::from(u16::MAX)) as u16
                } else {
                    0
                },
            };
            let bytes = write_table(&table_path(&opts.dir, R::VARIANT, m), &header, c)?;
            tables.insert(
                m,
                Arc::new(MemTable::from_codes(
                    SliceIndex::<R::Geometry>::new(m)?,
                    c,
                    distances,
                )),
            );
            unit_reports.push(SliceReport {
                material: m,
                positions: c.len() as u64,
                wins,
                losses,
                draws,
                bytes,
                seconds: 0.0,
                distances,
                max_distance: if distances { max_d } else { 0 },
                reused: false,
            });
        }
        let secs = t0.elapsed().as_secs_f64();
        for r in &mut unit_reports {
            r.seconds = secs * r.positions as f64 / unit_size.max(1) as f64;
        }
        log::info!("{} solved in {secs:.1} s", name.join(" "));
        reports.extend(unit_reports);
        done += unit_size;
        bar.set_position(done);
    }
    bar.finish_and_clear();
    Ok(GenReport {
        variant: R::VARIANT,
        pieces: opts.pieces,
        slices: reports,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Wins, losses, draws and the longest distance among codes.
fn statistics(codes: &[u16]) -> (u64, u64, u64, u32) {
    codes
        .par_chunks(1 << 16)
        .map(|ch| {
            let mut s = (0u64, 0u64, 0u64, 0u32);
            for &c in ch {
                match code_distance(c & !DONT_CARE) {
                    Distance::Win(d) => {
                        s.0 += 1;
                        s.3 = s.3.max(d);
                    }
                    Distance::Loss(d) => {
                        s.1 += 1;
                        s.3 = s.3.max(d);
                    }
                    Distance::Draw => s.2 += 1,
                }
            }
            s
        })
        .reduce(
            || (0, 0, 0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3.max(b.3)),
        )
}

/// Solve one unit; returns the codes of each of its slices (with `DONT_CARE`
/// on positions that must capture).
fn solve_unit<R: Rules>(
    unit: &[Material],
    deps: &MemTables<R>,
    distances: bool,
    bar: &ProgressBar,
    done: u64,
) -> Result<Vec<Vec<u16>>, EgdbError> {
    let m0 = unit[0];
    let m1 = unit.get(1).copied().unwrap_or(m0);
    let ix0 = SliceIndex::<R::Geometry>::new(m0)?;
    let ix1 = SliceIndex::<R::Geometry>::new(m1)?;
    let fresh = |n: u64| -> Vec<AtomicU16> { (0..n).map(|_| AtomicU16::new(UNSET)).collect() };
    let res0 = fresh(ix0.size());
    let res1 = if m1 != m0 {
        fresh(ix1.size())
    } else {
        Vec::new()
    };
    let r1: &[AtomicU16] = if m1 != m0 { &res1 } else { &res0 };
    let solver = Unit {
        mats: [m0, m1],
        index: [&ix0, &ix1],
        results: [&res0, r1],
        deps,
        distances,
    };

    // Groups: a men placement of slice 0 and its mirror in slice 1, by advancement.
    let men = ix0.men_count();
    if men > u64::from(u32::MAX) {
        return Err(EgdbError::Unsupported(format!(
            "slice {m0} has too many men placements"
        )));
    }
    let mut groups: Vec<(u32, u32, u32)> = (0..men)
        .into_par_iter()
        .map(|r| {
            let (wm, bm) = ix0
                .men_unrank(r)
                .ok_or_else(|| EgdbError::Internal(format!("men rank {r} of {m0}")))?;
            let adv = SliceIndex::<R::Geometry>::advancement(wm, bm);
            let partner = ix1.men_rank(mirror::<R::Geometry>(bm), mirror::<R::Geometry>(wm));
            Ok((adv, r as u32, partner as u32))
        })
        .filter(|g: &Result<(u32, u32, u32), EgdbError>| match g {
            // A self-symmetric unit: each pair of mirror placements once.
            Ok((_, a, b)) => m0 != m1 || a <= b,
            Err(_) => true,
        })
        .collect::<Result<_, _>>()?;
    groups.par_sort_unstable_by_key(|g| std::cmp::Reverse(g.0));

    let unit_total = ix0.size() + if m1 != m0 { ix1.size() } else { 0 };
    let mut i = 0;
    while i < groups.len() {
        let adv = groups[i].0;
        let mut j = i;
        while j < groups.len() && groups[j].0 == adv {
            j += 1;
        }
        groups[i..j].par_iter().with_min_len(8).try_for_each_init(
            || (Workspace::default(), 0u64),
            |(ws, pending), &(_, a, b)| {
                *pending += solver.solve(ws, u64::from(a), u64::from(b))?;
                if *pending >= 1 << 16 {
                    bar.inc(*pending);
                    *pending = 0;
                }
                Ok::<(), EgdbError>(())
            },
        )?;
        i = j;
    }
    bar.set_position(done + unit_total);

    let mut out = vec![
        res0.into_iter()
            .map(AtomicU16::into_inner)
            .collect::<Vec<u16>>(),
    ];
    if m1 != m0 {
        out.push(res1.into_iter().map(AtomicU16::into_inner).collect());
    }
    for (m, c) in unit.iter().zip(&out) {
        if let Some(i) = c.iter().position(|&x| x == UNSET) {
            return Err(EgdbError::Internal(format!(
                "{m} index {i} was never solved"
            )));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_come_first() {
        let order: Vec<Material> = Material::all(5);
        let at = |m: &Material| order.iter().position(|x| x == m).unwrap();
        for u in units(5) {
            for d in dependencies(&u) {
                assert!(at(&d) < at(&u[0]), "{d} needed by {}", u[0]);
            }
        }
    }
}
