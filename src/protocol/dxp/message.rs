//! DXP messages (protocols.md §3): the typed form of each message type,
//! written strictly and read leniently.
//!
//! Writing follows the layouts to the byte: fixed-width zero-padded
//! numbers, 32-character space-padded names, `W`/`Z` colours, integer
//! minutes, captured squares ascending, printable ASCII only and never more
//! than 127 characters. Reading accepts what real peers send: stray CR/LF
//! around a message (stripped by the codec), trailing bytes after the last
//! field, a decimal minutes field (`0.5`), `B`/`b` for black and `.` for an
//! empty square, and a missing stop code in `E`.
//!
//! A message text here never includes the NUL terminator: framing is the
//! codec's job.

use crate::board::Colour;
use std::fmt;
use std::time::Duration;

/// The protocol version Tiao speaks.
pub const VERSION: &str = "01";
/// Width of the name field of `R` and `A`.
pub const NAME_WIDTH: usize = 32;
/// Longest message text (the NUL not counted).
pub const MAX_MESSAGE: usize = 127;
/// Longest chat text (127 minus the header).
pub const MAX_CHAT: usize = MAX_MESSAGE - 1;
/// Squares of the 10x10 board.
pub const SQUARES: usize = 50;
/// Largest value of the 3-digit minutes and moves fields.
const MAX_3_DIGITS: u32 = 999;
/// Largest value of the 4-digit seconds field.
const MAX_4_DIGITS: u32 = 9999;

/// A DXP message.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// `R`: the initiator proposes a game.
    Request(GameRequest),
    /// `A`: the follower accepts or refuses it.
    Accept(GameAccept),
    /// `M`: a move.
    Move(MoveMessage),
    /// `E`: the game ends (or the acknowledgement of that).
    End(GameEnd),
    /// `C`: free text.
    Chat(String),
    /// `B`: take back moves.
    BackRequest(BackRequest),
    /// `K`: the answer to `B`.
    BackAccept(BackCode),
}

impl Message {
    /// Every field of the message in words, as received: what Tiao logs of
    /// each message it reads (`RUST_LOG=info`), so that a peer's game
    /// request, accept or move can be checked field by field. Text from
    /// the peer (names, chats) is as received; the log escapes it.
    pub fn fields(&self) -> String {
        match self {
            Message::Request(r) => format!(
                "game request: version {VERSION}, initiator name '{}', follower plays {}, \
                 {} minutes, moves {}{}, start: {}",
                r.name,
                r.follower.name(),
                minutes_text(r.time),
                r.moves,
                if r.moves == 0 {
                    " (the whole game)"
                } else {
                    ""
                },
                match &r.setup {
                    None => "the normal start (A)".to_string(),
                    Some(s) => format!("{} to move on {} (B)", s.to_move.name(), s.board),
                }
            ),
            Message::Accept(a) => format!(
                "game accept: follower name '{}', code {} ({})",
                a.name,
                accept_digit(a.code),
                match a.code {
                    AcceptCode::Accept => "accepted",
                    AcceptCode::WrongVersion => "wrong version",
                    AcceptCode::RefuseThis => "not this game",
                    AcceptCode::RefuseAll => "no game",
                }
            ),
            Message::Move(m) => format!(
                "move: from {} to {}, {} captured{}, {} s (the sender's count)",
                m.from,
                m.to,
                m.captured.len(),
                if m.captured.is_empty() {
                    String::new()
                } else {
                    let squares: Vec<String> = m.captured.iter().map(u32::to_string).collect();
                    format!(" ({})", squares.join(", "))
                },
                m.seconds
            ),
            Message::End(e) => format!(
                "game end: reason {} ({}), stop {} ({})",
                reason_digit(e.reason),
                match e.reason {
                    EndReason::None => "no reason: an acknowledgement, or unknown",
                    EndReason::Lose => "the sender loses",
                    EndReason::Draw => "draw",
                    EndReason::Win => "the sender wins",
                },
                u8::from(e.stop),
                if e.stop {
                    "no more games"
                } else {
                    "another game welcome"
                }
            ),
            Message::Chat(text) => format!("chat: {text}"),
            Message::BackRequest(b) => format!(
                "take-back request: to move {} with {} to move",
                b.move_number,
                b.colour.name()
            ),
            Message::BackAccept(k) => format!(
                "take-back answer: code {} ({})",
                match k {
                    BackCode::Accepted => 0,
                    BackCode::NotSupported => 1,
                    BackCode::Declined => 2,
                },
                match k {
                    BackCode::Accepted => "done",
                    BackCode::NotSupported => "not supported",
                    BackCode::Declined => "declined",
                }
            ),
        }
    }
}

/// The code digit of an `A`.
fn accept_digit(code: AcceptCode) -> char {
    match code {
        AcceptCode::Accept => '0',
        AcceptCode::WrongVersion => '1',
        AcceptCode::RefuseThis => '2',
        AcceptCode::RefuseAll => '3',
    }
}

/// The reason digit of an `E`.
fn reason_digit(reason: EndReason) -> char {
    match reason {
        EndReason::None => '0',
        EndReason::Lose => '1',
        EndReason::Draw => '2',
        EndReason::Win => '3',
    }
}

/// Minutes as read (a decimal field may carry a fraction): `5`, `0.5`.
fn minutes_text(time: Duration) -> String {
    let minutes = time.as_secs_f64() / 60.0;
    if (minutes - minutes.round()).abs() < 1e-9 {
        format!("{minutes:.0}")
    } else {
        format!("{minutes}")
    }
}

/// A start position other than the normal one: flag `B` of `R`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub to_move: Colour,
    /// 50 characters, squares 1..50, normalised to `e` `w` `z` `W` `Z`.
    pub board: String,
}

/// `R`: a game proposal. The version is checked while reading (a request of
/// another version cannot be laid out field by field).
#[derive(Clone, Debug, PartialEq)]
pub struct GameRequest {
    /// The initiator's name (trailing blanks removed).
    pub name: String,
    /// The colour the *follower* plays.
    pub follower: Colour,
    /// Thinking time per player for the whole game.
    pub time: Duration,
    /// Moves per side the time is for (0: no limit).
    pub moves: u32,
    /// `None`: the normal start, White to move (flag `A`).
    pub setup: Option<Setup>,
}

/// The code of an `A` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcceptCode {
    Accept,
    WrongVersion,
    /// Not this game, but another is welcome.
    RefuseThis,
    RefuseAll,
}

/// `A`: the answer to `R`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAccept {
    /// The follower's name (trailing blanks removed).
    pub name: String,
    pub code: AcceptCode,
}

/// `M`: a move as square numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMessage {
    /// Seconds the move took (informational).
    pub seconds: u32,
    pub from: u32,
    pub to: u32,
    /// Captured squares, in the order sent (written ascending).
    pub captured: Vec<u32>,
}

/// The reason field of `E`, from the sender's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// No reason (the acknowledgement).
    None,
    /// The sender loses.
    Lose,
    Draw,
    /// The sender wins.
    Win,
}

/// `E`: the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub reason: EndReason,
    /// The sender wants no more games on this connection.
    pub stop: bool,
}

/// `B`: take back to the point where `colour` is to make move `move_number`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackRequest {
    pub move_number: u32,
    pub colour: Colour,
}

/// The code of a `K` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackCode {
    Accepted,
    NotSupported,
    Declined,
}

/// Why a received message was not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The first character is no DXP message type.
    UnknownType(char),
    /// An `R` of another protocol version (answered with `A…1`).
    BadVersion(String),
    /// An `R` that cannot be accepted as it stands (answered with `A…2`).
    BadRequest(String),
    /// A message of a known type whose fields cannot be read.
    Malformed { kind: char, reason: String },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::UnknownType(c) => write!(f, "unknown message type {c:?}"),
            ParseError::BadVersion(v) => {
                write!(
                    f,
                    "protocol version {v:?} is not supported (Tiao speaks {VERSION})"
                )
            }
            ParseError::BadRequest(r) => write!(f, "game request refused: {r}"),
            ParseError::Malformed { kind, reason } => {
                write!(f, "malformed {kind} message: {reason}")
            }
        }
    }
}

impl std::error::Error for ParseError {}

// ---------------------------------------------------------------- writing

/// The DXP letter of a colour.
pub fn colour_letter(c: Colour) -> char {
    match c {
        Colour::White => 'W',
        Colour::Black => 'Z',
    }
}

/// Printable ASCII only: anything else would break the framing or the
/// fixed field widths of a strict peer.
fn printable(text: &str) -> impl Iterator<Item = char> + '_ {
    text.chars().map(|c| {
        if c.is_ascii_graphic() || c == ' ' {
            c
        } else {
            '?'
        }
    })
}

/// A name field: exactly 32 printable characters, space-padded.
fn name_field(name: &str) -> String {
    let mut s: String = printable(name).take(NAME_WIDTH).collect();
    while s.len() < NAME_WIDTH {
        s.push(' ');
    }
    s
}

fn digits(value: u32, width: usize, max: u32) -> String {
    format!("{:0width$}", value.min(max))
}

impl Message {
    /// The message text, exactly as the spec lays it out (without the NUL).
    pub fn encode(&self) -> String {
        match self {
            Message::Request(r) => {
                // Integer minutes: Scan and Moby Dam read decimals, others may not.
                let minutes = (r.time.as_secs_f64() / 60.0)
                    .round()
                    .min(f64::from(MAX_3_DIGITS));
                let mut s = format!(
                    "R{VERSION}{}{}{}{}",
                    name_field(&r.name),
                    colour_letter(r.follower),
                    digits(minutes as u32, 3, MAX_3_DIGITS),
                    digits(r.moves, 3, MAX_3_DIGITS),
                );
                match &r.setup {
                    None => s.push('A'),
                    Some(setup) => {
                        s.push('B');
                        s.push(colour_letter(setup.to_move));
                        s.extend(normalised_board(&setup.board));
                    }
                }
                s
            }
            Message::Accept(a) => format!("A{}{}", name_field(&a.name), accept_digit(a.code)),
            Message::Move(m) => {
                let mut captured = m.captured.clone();
                captured.sort_unstable();
                let mut s = format!(
                    "M{}{}{}{}",
                    digits(m.seconds, 4, MAX_4_DIGITS),
                    digits(m.from, 2, 99),
                    digits(m.to, 2, 99),
                    digits(captured.len() as u32, 2, 99),
                );
                for c in captured {
                    s.push_str(&digits(c, 2, 99));
                }
                s
            }
            Message::End(e) => {
                format!(
                    "E{}{}",
                    reason_digit(e.reason),
                    if e.stop { '1' } else { '0' }
                )
            }
            Message::Chat(text) => {
                let mut s = String::from("C");
                s.extend(printable(text).take(MAX_CHAT));
                if s.len() == 1 {
                    // A chat carries 1..126 characters.
                    s.push(' ');
                }
                s
            }
            Message::BackRequest(b) => format!(
                "B{}{}",
                digits(b.move_number, 3, MAX_3_DIGITS),
                colour_letter(b.colour)
            ),
            Message::BackAccept(k) => {
                let code = match k {
                    BackCode::Accepted => '0',
                    BackCode::NotSupported => '1',
                    BackCode::Declined => '2',
                };
                format!("K{code}")
            }
        }
    }
}

/// Exactly 50 characters of `e w z W Z` (a board built elsewhere may be short or odd).
fn normalised_board(board: &str) -> impl Iterator<Item = char> + '_ {
    board
        .chars()
        .map(|c| square_char(c).unwrap_or('e'))
        .chain(std::iter::repeat('e'))
        .take(SQUARES)
}

// ---------------------------------------------------------------- reading

/// A position square character, leniently: `.` for empty, `b`/`B` for black.
fn square_char(c: char) -> Option<char> {
    match c {
        'e' | 'E' | '.' => Some('e'),
        'w' => Some('w'),
        'W' => Some('W'),
        'z' | 'b' => Some('z'),
        'Z' | 'B' => Some('Z'),
        _ => None,
    }
}

/// A colour field, leniently: `W`, or `Z` / `B` for black, either case.
fn colour_of(c: char) -> Option<Colour> {
    match c.to_ascii_uppercase() {
        'W' => Some(Colour::White),
        'Z' | 'B' => Some(Colour::Black),
        _ => None,
    }
}

/// A numeric field; blanks around it are tolerated.
fn number(field: &str) -> Option<u32> {
    let t = field.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// A field by character positions, if the text is long enough.
fn field(text: &[char], from: usize, to: usize) -> Option<String> {
    text.get(from..to).map(|s| s.iter().collect())
}

/// Turn received bytes into one character per byte, so that field offsets
/// hold whatever the bytes are: anything but printable ASCII becomes `?`.
fn chars_of(bytes: &[u8]) -> Vec<char> {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                char::from(b)
            } else {
                '?'
            }
        })
        .collect()
}

fn malformed(kind: char, reason: impl Into<String>) -> ParseError {
    ParseError::Malformed {
        kind,
        reason: reason.into(),
    }
}

/// Read one message (the text between two NULs, CR/LF already stripped).
pub fn parse(bytes: &[u8]) -> Result<Message, ParseError> {
    let text = chars_of(bytes);
    let Some(&kind) = text.first() else {
        return Err(malformed('?', "empty message"));
    };
    match kind {
        'R' => parse_request(&text).map(Message::Request),
        'A' => parse_accept(&text).map(Message::Accept),
        'M' => parse_move(&text).map(Message::Move),
        'E' => parse_end(&text).map(Message::End),
        'C' => Ok(Message::Chat(text[1..].iter().collect())),
        'B' => parse_back(&text).map(Message::BackRequest),
        'K' => parse_back_accept(&text).map(Message::BackAccept),
        other => Err(ParseError::UnknownType(other)),
    }
}

const R_LENGTH_A: usize = 43;
const R_LENGTH_B: usize = R_LENGTH_A + 1 + SQUARES;

fn parse_request(text: &[char]) -> Result<GameRequest, ParseError> {
    let version = field(text, 1, 3).unwrap_or_else(|| text[1..].iter().collect());
    if version != VERSION {
        return Err(ParseError::BadVersion(version));
    }
    if text.len() < R_LENGTH_A {
        return Err(ParseError::BadRequest(format!(
            "R has {} characters, at least {R_LENGTH_A} expected",
            text.len()
        )));
    }
    let name = field(text, 3, 35)
        .unwrap_or_default()
        .trim_end()
        .to_string();
    let follower = colour_of(text[35]).ok_or_else(|| {
        ParseError::BadRequest(format!(
            "bad follower colour {:?} (W or Z expected)",
            text[35]
        ))
    })?;
    let minutes_field = field(text, 36, 39).unwrap_or_default();
    // Lenient: Scan and Moby Dam read the minutes as a decimal ("0.5").
    let minutes = minutes_field
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|m| m.is_finite() && *m >= 0.0 && *m <= f64::from(MAX_3_DIGITS))
        .ok_or_else(|| ParseError::BadRequest(format!("bad minutes field {minutes_field:?}")))?;
    let moves_field = field(text, 39, 42).unwrap_or_default();
    let moves = number(&moves_field)
        .ok_or_else(|| ParseError::BadRequest(format!("bad moves field {moves_field:?}")))?;
    let setup = match text[42] {
        'A' | 'a' => None,
        'B' | 'b' => Some(parse_setup(text)?),
        other => {
            return Err(ParseError::BadRequest(format!(
                "bad start flag {other:?} (A or B expected)"
            )));
        }
    };
    Ok(GameRequest {
        name,
        follower,
        time: Duration::from_secs_f64(minutes * 60.0),
        moves,
        setup,
    })
}

fn parse_setup(text: &[char]) -> Result<Setup, ParseError> {
    if text.len() < R_LENGTH_B {
        return Err(ParseError::BadRequest(format!(
            "bad position: R with flag B has {} characters, {R_LENGTH_B} expected",
            text.len()
        )));
    }
    let side = text[R_LENGTH_A];
    let to_move = colour_of(side).ok_or_else(|| {
        ParseError::BadRequest(format!(
            "bad position: colour to move {side:?} (W or Z expected)"
        ))
    })?;
    let mut board = String::with_capacity(SQUARES);
    for (i, &c) in text[R_LENGTH_A + 1..R_LENGTH_B].iter().enumerate() {
        match square_char(c) {
            Some(s) => board.push(s),
            None => {
                return Err(ParseError::BadRequest(format!(
                    "bad position: {c:?} on square {} (e w z W Z expected)",
                    i + 1
                )));
            }
        }
    }
    Ok(Setup { to_move, board })
}

fn parse_accept(text: &[char]) -> Result<GameAccept, ParseError> {
    // Lenient: a short name field still ends with the code.
    let (name, code) = if text.len() >= 2 + NAME_WIDTH {
        (&text[1..=NAME_WIDTH], text[1 + NAME_WIDTH])
    } else if text.len() >= 2 {
        (&text[1..text.len() - 1], text[text.len() - 1])
    } else {
        return Err(malformed('A', "no accept code"));
    };
    let code = match code {
        '0' => AcceptCode::Accept,
        '1' => AcceptCode::WrongVersion,
        '2' => AcceptCode::RefuseThis,
        '3' => AcceptCode::RefuseAll,
        other => return Err(malformed('A', format!("bad accept code {other:?}"))),
    };
    Ok(GameAccept {
        name: name.iter().collect::<String>().trim_end().to_string(),
        code,
    })
}

fn parse_move(text: &[char]) -> Result<MoveMessage, ParseError> {
    if text.len() < 11 {
        return Err(malformed(
            'M',
            format!("{} characters, at least 11 expected", text.len()),
        ));
    }
    let num = |from: usize, to: usize, what: &str| {
        let f = field(text, from, to).unwrap_or_default();
        number(&f).ok_or_else(|| malformed('M', format!("bad {what} field {f:?}")))
    };
    // The seconds are informational: an unreadable value is no reason to refuse the move.
    let seconds = num(1, 5, "seconds").unwrap_or(0);
    let from = num(5, 7, "from")?;
    let to = num(7, 9, "to")?;
    let count = num(9, 11, "count")? as usize;
    let needed = 11 + 2 * count;
    if text.len() < needed {
        return Err(malformed(
            'M',
            format!(
                "{count} captured squares announced but only {} given",
                (text.len() - 11) / 2
            ),
        ));
    }
    let captured = (0..count)
        .map(|k| num(11 + 2 * k, 13 + 2 * k, "captured square"))
        .collect::<Result<Vec<u32>, ParseError>>()?;
    Ok(MoveMessage {
        seconds,
        from,
        to,
        captured,
    })
}

fn parse_end(text: &[char]) -> Result<GameEnd, ParseError> {
    let reason = match text.get(1) {
        Some('0') => EndReason::None,
        Some('1') => EndReason::Lose,
        Some('2') => EndReason::Draw,
        Some('3') => EndReason::Win,
        Some(other) => return Err(malformed('E', format!("bad reason {other:?}"))),
        None => return Err(malformed('E', "no reason field")),
    };
    // Lenient: a missing stop code means "another game welcome".
    let stop = text.get(2) == Some(&'1');
    Ok(GameEnd { reason, stop })
}

fn parse_back(text: &[char]) -> Result<BackRequest, ParseError> {
    let f = field(text, 1, 4).ok_or_else(|| malformed('B', "too short"))?;
    let move_number = number(&f).ok_or_else(|| malformed('B', format!("bad move number {f:?}")))?;
    let c = text.get(4).copied().unwrap_or('?');
    let colour = colour_of(c).ok_or_else(|| malformed('B', format!("bad colour {c:?}")))?;
    Ok(BackRequest {
        move_number,
        colour,
    })
}

fn parse_back_accept(text: &[char]) -> Result<BackCode, ParseError> {
    match text.get(1) {
        Some('0') => Ok(BackCode::Accepted),
        Some('1') => Ok(BackCode::NotSupported),
        Some('2') => Ok(BackCode::Declined),
        other => Err(malformed('K', format!("bad code {other:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_padded_and_cut_to_32() {
        let a = Message::Accept(GameAccept {
            name: "x".repeat(40),
            code: AcceptCode::Accept,
        });
        assert_eq!(a.encode().len(), 34);
    }

    #[test]
    fn chats_are_printable_and_bounded() {
        let c = Message::Chat("a\0b\n".to_string() + &"z".repeat(300));
        let s = c.encode();
        assert_eq!(s.len(), MAX_MESSAGE);
        assert!(s.starts_with("Ca?b?z"));
        assert_eq!(Message::Chat(String::new()).encode(), "C ");
    }
}
