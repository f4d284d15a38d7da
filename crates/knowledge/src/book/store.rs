//! The book in memory: positions keyed by their Zobrist hash, each with its
//! moves in Hub form, scores and weights. Loading checks every entry against
//! the board (the position must be valid, every move legal in it), so a
//! loaded book never offers an illegal move; probing is a hash lookup.
//!
//! The book itself is variant-erased (moves are text), so front ends need
//! only the current position's hash, the game ply and the legal moves.
//! Work that needs the board (validation, ordering the file) is generic over
//! the rule set and dispatched once per call with `tiao_draughts::with_rules!`.

use super::choose::{BookChoice, BookSettings, pick};
use super::error::{BookError, LineError};
use super::format::{BookMove, RawEntry, read_text, write_entry, write_header};
use std::collections::HashMap;
use std::path::Path;
use tiao_core::bits::BitWord as _;
use tiao_draughts::board::{Colour, Geometry, Position, Rules, Variant};
use tiao_draughts::notation::{MoveFormat, legal_moves_text, read_fen, read_move, write_hub_move};
use tiao_draughts::with_rules;

/// A position of the book and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `Position::hash()` of the position.
    pub hash: u64,
    /// The position as FEN, square numbers, runs written as ranges.
    pub fen: String,
    pub moves: Vec<BookMove>,
}

impl Entry {
    /// The best score among the scored moves, if any is scored.
    pub fn best_score(&self) -> Option<i32> {
        self.moves.iter().filter_map(|m| m.score).max()
    }

    /// Whether some move still needs a score.
    pub fn has_unscored(&self) -> bool {
        self.moves.iter().any(|m| m.score.is_none())
    }

    /// Best first: by score (unscored last), then weight, then move text.
    pub(crate) fn sort_moves(&mut self) {
        self.moves.sort_by(|a, b| {
            b.score
                .map_or(i64::MIN, i64::from)
                .cmp(&a.score.map_or(i64::MIN, i64::from))
                .then(b.weight.cmp(&a.weight))
                .then_with(|| a.mv.cmp(&b.mv))
        });
    }
}

/// An opening book of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    entries: Vec<Entry>,
    /// Hash to index into `entries`.
    index: HashMap<u64, usize>,
}

impl Book {
    /// An empty book.
    pub fn new(variant: Variant) -> Book {
        Book {
            variant,
            entries: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Read and check a book file for `variant`. Any bad line rejects the
    /// whole file; the error lists the bad lines with their numbers.
    pub fn load(path: impl AsRef<Path>, variant: Variant) -> Result<Book, BookError> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let io = |message: String| BookError::Io {
            path: shown.clone(),
            message,
        };
        let bytes = tiao_core::files::read(path).map_err(|e| io(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            io(format!(
                "not UTF-8 text (byte {} is not valid); is this a book file?",
                e.utf8_error().valid_up_to() + 1
            ))
        })?;
        Book::parse(&text, variant).map_err(|e| e.in_file(&shown))
    }

    /// Read and check a book from text (see [`Book::load`]).
    pub fn parse(text: &str, variant: Variant) -> Result<Book, BookError> {
        let (raw, mut errors) = read_text(text);
        let Some(raw) = raw else {
            return Err(BookError::from_lines(errors));
        };
        if raw.variant != variant {
            return Err(BookError::WrongVariant {
                expected: variant,
                found: raw.variant,
            });
        }
        let mut book = Book::new(variant);
        // Line of each position, to point at the first copy of a duplicate.
        let mut lines: HashMap<u64, usize> = HashMap::new();
        for raw_entry in &raw.entries {
            let checked = with_rules!(variant, R => check_entry::<R>(raw_entry));
            match checked {
                Ok(entry) => {
                    if let Some(first) = lines.get(&entry.hash) {
                        errors.push(LineError {
                            line: raw_entry.line,
                            message: format!("the same position as line {first}"),
                        });
                    } else {
                        lines.insert(entry.hash, raw_entry.line);
                        book.insert(entry);
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(book)
        } else {
            Err(BookError::from_lines(errors))
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of moves over all positions.
    pub fn move_count(&self) -> usize {
        self.entries.iter().map(|e| e.moves.len()).sum()
    }

    /// The moves of the position with this hash (`Position::hash()`), if the
    /// book has it.
    pub fn moves(&self, hash: u64) -> Option<&[BookMove]> {
        self.entry(hash).map(|e| e.moves.as_slice())
    }

    pub fn entry(&self, hash: u64) -> Option<&Entry> {
        self.index.get(&hash).map(|&i| &self.entries[i])
    }

    pub fn contains(&self, hash: u64) -> bool {
        self.index.contains_key(&hash)
    }

    /// All positions, in the order they were read or added.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The move to play in the position with this hash, or `None` (book off,
    /// `ply` at or past `book-max-ply`, position not in the book, or no
    /// playable move). `legal` are the legal moves of the position in Hub
    /// form (`Session::legal_moves(MoveFormat::Hub)`):
    /// an entry offering a move that is not among them belongs to another
    /// position with the same hash and is ignored. `ply` is the game ply
    /// (0 = the first move of the game); `seed` drives the random choice.
    pub fn probe(
        &self,
        hash: u64,
        ply: u32,
        legal: &[String],
        settings: &BookSettings,
        seed: u64,
    ) -> Option<BookChoice> {
        if !settings.plays_at(ply) {
            return None;
        }
        let moves = self.moves(hash)?;
        if moves.iter().any(|m| !legal.contains(&m.mv)) {
            log::warn!("book entry with hash {hash:016x} does not fit the position; ignored");
            return None;
        }
        let picked = pick(moves, ply, settings.ply, settings.margin, seed)?;
        let mv = &moves[picked.index];
        Some(BookChoice {
            mv: mv.mv.clone(),
            score: mv.score,
            weight: mv.weight,
            candidates: picked.candidates,
            moves: moves.len(),
            random: picked.random,
        })
    }

    /// Add a position, or replace the one with the same hash.
    pub fn insert(&mut self, entry: Entry) {
        match self.index.get(&entry.hash) {
            Some(&i) => self.entries[i] = entry,
            None => {
                self.index.insert(entry.hash, self.entries.len());
                self.entries.push(entry);
            }
        }
    }

    pub(crate) fn entry_mut(&mut self, hash: u64) -> Option<&mut Entry> {
        self.index.get(&hash).map(|&i| &mut self.entries[i])
    }

    /// The book as text: the header (with `comments` as `#` lines), then the
    /// positions ordered by their distance in plies from the start position
    /// through book moves (unreachable ones last), then by FEN; in each
    /// position the best move first. A rebuilt book therefore diffs well.
    pub fn to_text(&self, comments: &[String]) -> String {
        let depth = self.distances();
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&a, &b| {
            let (ea, eb) = (&self.entries[a], &self.entries[b]);
            let da = depth.get(&ea.hash).copied().unwrap_or(u32::MAX);
            let db = depth.get(&eb.hash).copied().unwrap_or(u32::MAX);
            da.cmp(&db).then_with(|| ea.fen.cmp(&eb.fen))
        });
        let mut out = String::with_capacity(self.entries.len() * 160 + 256);
        write_header(&mut out, self.variant, comments);
        for i in order {
            let mut e = self.entries[i].clone();
            e.sort_moves();
            write_entry(&mut out, &e.fen, &e.moves);
        }
        out
    }

    /// Write the book to `path`: to a temporary file first, then renamed over
    /// it, so that an interrupted save never leaves half a book behind.
    pub fn save(&self, path: impl AsRef<Path>, comments: &[String]) -> Result<(), BookError> {
        let path = path.as_ref();
        let io = |e: std::io::Error| BookError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_text(comments)).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

/// Check one entry against the board: a valid position, every move legal
/// (written in any form `read_move` understands, kept in Hub form), no move
/// twice.
fn check_entry<R: Rules>(raw: &RawEntry<'_>) -> Result<Entry, LineError> {
    let err = |message: String| LineError {
        line: raw.line,
        message,
    };
    let pos = read_fen::<R>(raw.fen).map_err(|e| err(e.to_string()))?;
    let legal = legal_moves_text(&pos, MoveFormat::Hub);
    let mut moves: Vec<BookMove> = Vec::with_capacity(raw.moves.len());
    for (k, m) in raw.moves.iter().enumerate() {
        // Books we write use the Hub form: an exact match is the fast path.
        let hub = match legal.iter().find(|(_, t)| t == m.text) {
            Some((_, t)) => t.clone(),
            None => read_move(&pos, m.text)
                .map(|mv| write_hub_move::<R>(&mv))
                .map_err(|e| err(format!("move item {}: {e}", k + 1)))?,
        };
        if moves.iter().any(|b| b.mv == hub) {
            return Err(err(format!("move item {}: {hub} is listed twice", k + 1)));
        }
        moves.push(BookMove {
            mv: hub,
            score: m.score,
            weight: m.weight,
            results: m.results,
        });
    }
    Ok(Entry {
        hash: pos.hash(),
        fen: compact_fen(&pos),
        moves,
    })
}

/// FEN with square numbers and runs of three or more men as ranges
/// (`W:W31-50:B1-20`): much shorter than one number per square on a full
/// board, and `read_fen` reads it in every variant.
pub fn compact_fen<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for colour in [Colour::White, Colour::Black] {
        out.push(':');
        out.push(colour.letter());
        let men = pos.men(colour);
        let kings = pos.kings(colour);
        let mut items: Vec<String> = Vec::new();
        let mut n = 1;
        while n <= R::Geometry::SQUARES {
            let bit = R::Geometry::bit_of(n - 1);
            if kings.has(bit) {
                items.push(format!("K{n}"));
                n += 1;
            } else if men.has(bit) {
                let mut last = n;
                while last < R::Geometry::SQUARES && men.has(R::Geometry::bit_of(last)) {
                    last += 1;
                }
                match last - n {
                    0 => items.push(n.to_string()),
                    1 => items.push(format!("{n},{last}")),
                    _ => items.push(format!("{n}-{last}")),
                }
                n = last + 1;
            } else {
                n += 1;
            }
        }
        out.push_str(&items.join(","));
    }
    out
}

/// The hash the book uses for a position given as FEN, for front ends that
/// hold the position as text.
pub fn position_hash(variant: Variant, fen: &str) -> Result<u64, String> {
    with_rules!(variant, R => read_fen::<R>(fen).map(|p| p.hash()).map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiao_draughts::board::International;

    /// Loading `path` on a thread: the result, or `None` if it blocks.
    fn load_within(path: std::path::PathBuf) -> Option<Result<Book, BookError>> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(Book::load(
                &path,
                tiao_draughts::board::Variant::International,
            ));
        });
        rx.recv_timeout(std::time::Duration::from_secs(10)).ok()
    }

    #[test]
    fn only_regular_files_are_read_as_books() {
        let dir = std::env::temp_dir().join(format!("tiao-book-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("book.txt");
        // A named pipe nobody writes to: opening it used to block for ever
        // (`set-param name=book-file value=PIPE` hung the Hub engine).
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            match load_within(fifo) {
                Some(Err(BookError::Io { message, .. })) => {
                    assert!(message.contains("regular file"), "{message}")
                }
                Some(other) => panic!("{other:?}"),
                None => panic!("loading a named pipe as a book blocks"),
            }
        }
        match load_within(dir.clone()) {
            Some(Err(BookError::Io { .. })) => {}
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn compact_fen_round_trips() {
        let start = Position::<International>::start();
        assert_eq!(compact_fen(&start), "W:W31-50:B1-20");
        let fen = "B:W31,32,34-50,K21:B1-19,23";
        let p = read_fen::<International>(fen).unwrap();
        assert_eq!(read_fen::<International>(&compact_fen(&p)).unwrap(), p);
    }
}
