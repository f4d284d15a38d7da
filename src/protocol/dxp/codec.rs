//! DXP framing: messages are terminated by a NUL byte on a TCP stream.
//!
//! [`Framer`] is the framing itself, without I/O: bytes go in as they
//! arrive (a message may be split over reads, several may arrive in one),
//! whole messages come out. It strips stray CR/LF around a message, drops
//! empty messages and caps what it holds without a NUL at
//! [`MAX_PENDING`] bytes, so a peer that never sends a NUL cannot make it
//! grow. [`Reader`] and [`Writer`] put it on an async stream, with
//! deadlines, and turn frames into [`Message`]s and back; nothing here
//! knows about games.

use super::message::{Message, ParseError, parse};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::time::Instant;

/// Most bytes held without a NUL before the stream is declared broken.
pub const MAX_PENDING: usize = 4096;
/// Bytes read from the socket at a time.
const READ_CHUNK: usize = 4096;

/// The pending bytes went past [`MAX_PENDING`] without a NUL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

/// NUL framing over a byte stream.
#[derive(Debug, Default)]
pub struct Framer {
    buf: Vec<u8>,
    /// Bytes of `buf` already searched for a NUL.
    scanned: usize,
}

impl Framer {
    pub fn new() -> Self {
        Framer::default()
    }

    /// Add received bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete message, CR/LF around it stripped; empty messages
    /// are skipped. `Err(Overflow)` when no NUL came within [`MAX_PENDING`]
    /// bytes (the buffer is then cleared: the stream is not usable).
    pub fn next_frame(&mut self) -> Option<Result<Vec<u8>, Overflow>> {
        loop {
            let Some(at) = self.buf[self.scanned..].iter().position(|&b| b == 0) else {
                self.scanned = self.buf.len();
                if self.buf.len() > MAX_PENDING {
                    self.buf.clear();
                    self.scanned = 0;
                    return Some(Err(Overflow));
                }
                return None;
            };
            let end = self.scanned + at;
            let frame = strip_line_ends(&self.buf[..end]).to_vec();
            self.buf.drain(..=end);
            self.scanned = 0;
            if !frame.is_empty() {
                return Some(Ok(frame));
            }
        }
    }

    /// Whether part of a message is waiting for its NUL (line ends alone do not count).
    pub fn has_partial(&self) -> bool {
        !strip_line_ends(&self.buf).is_empty()
    }

    /// The partial message as received (escape it before echoing it).
    pub fn partial_text(&self) -> String {
        String::from_utf8_lossy(strip_line_ends(&self.buf)).into_owned()
    }
}

/// Remove CR and LF at both ends (peers that end messages with a line end as well).
fn strip_line_ends(bytes: &[u8]) -> &[u8] {
    let is_end = |b: &u8| *b == b'\r' || *b == b'\n';
    let start = bytes.iter().position(|b| !is_end(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !is_end(b))
        .map_or(start, |e| e + 1);
    &bytes[start..end.max(start)]
}

/// A received message: parsed, or why not, with its text for logs and chats.
#[derive(Clone, Debug, PartialEq)]
pub struct Incoming {
    /// The message as received, decoded leniently but not escaped: it may
    /// hold control characters, so escape it (`crate::printable::escape`)
    /// before echoing it.
    pub text: String,
    pub message: Result<Message, ParseError>,
}

/// Why no message could be read.
#[derive(Debug)]
pub enum ReadError {
    /// The peer closed the connection.
    Closed,
    /// The deadline passed with no message.
    Timeout,
    /// Part of a message has waited too long for its NUL.
    Incomplete {
        text: String,
    },
    /// [`MAX_PENDING`] bytes without a NUL.
    Overflow,
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Closed => write!(f, "the peer closed the connection"),
            ReadError::Timeout => write!(f, "no message in time"),
            ReadError::Incomplete { text } => {
                let text = crate::printable::escape(text);
                write!(
                    f,
                    "a message was left without its NUL terminator: \"{text}\""
                )
            }
            ReadError::Overflow => write!(f, "more than {MAX_PENDING} bytes without a NUL"),
            ReadError::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

/// Messages from an async byte stream.
pub struct Reader<R> {
    inner: R,
    framer: Framer,
    /// How long part of a message may wait for the rest.
    partial_timeout: Duration,
    /// When the current partial message began to wait.
    partial_since: Option<Instant>,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    pub fn new(inner: R, partial_timeout: Duration) -> Self {
        Reader {
            inner,
            framer: Framer::new(),
            partial_timeout,
            partial_since: None,
        }
    }

    /// The next message, waiting at most until `deadline` (`None`: no limit
    /// but the partial-message timeout).
    ///
    /// Cancel safe: the only await is the socket read, and bytes are handed
    /// to the framer as soon as it returns, so a caller may drop this future
    /// (in `select!`) without losing data.
    pub async fn next(&mut self, deadline: Option<Instant>) -> Result<Incoming, ReadError> {
        let mut chunk = [0u8; READ_CHUNK];
        loop {
            match self.framer.next_frame() {
                Some(Ok(frame)) => {
                    self.partial_since = None;
                    let incoming = Incoming {
                        text: String::from_utf8_lossy(&frame).into_owned(),
                        message: parse(&frame),
                    };
                    log::debug!("dxp < {}", incoming.text);
                    return Ok(incoming);
                }
                Some(Err(Overflow)) => return Err(ReadError::Overflow),
                None => {}
            }
            let partial_deadline = if self.framer.has_partial() {
                let since = *self.partial_since.get_or_insert_with(Instant::now);
                Some(since + self.partial_timeout)
            } else {
                self.partial_since = None;
                None
            };
            let wait_until = match (deadline, partial_deadline) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let read = self.inner.read(&mut chunk);
            let n = match wait_until {
                Some(t) => match tokio::time::timeout_at(t, read).await {
                    Ok(r) => r,
                    Err(_) => {
                        return Err(if partial_deadline.is_some_and(|p| Instant::now() >= p) {
                            ReadError::Incomplete {
                                text: self.framer.partial_text(),
                            }
                        } else {
                            ReadError::Timeout
                        });
                    }
                },
                None => read.await,
            };
            match n {
                Ok(0) => return Err(ReadError::Closed),
                Ok(n) => self.framer.push(&chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
    }

    /// Read and discard whatever the peer still sends, until it closes or
    /// `until` passes: closing a socket with unread input makes the kernel
    /// send a reset, which can destroy a last message still on its way.
    pub async fn drain(&mut self, until: Instant) {
        let mut chunk = [0u8; READ_CHUNK];
        while let Ok(Ok(n)) = tokio::time::timeout_at(until, self.inner.read(&mut chunk)).await {
            if n == 0 {
                break;
            }
        }
    }
}

/// Messages to an async byte stream.
pub struct Writer<W> {
    inner: W,
    /// How long one message may take to go out (a peer that reads nothing
    /// would otherwise block the connection forever once the buffers fill).
    timeout: Duration,
}

impl<W: AsyncWrite + Unpin> Writer<W> {
    pub fn new(inner: W, timeout: Duration) -> Self {
        Writer { inner, timeout }
    }

    /// Send one message, NUL-terminated.
    pub async fn send(&mut self, message: &Message) -> std::io::Result<()> {
        let text = message.encode();
        log::debug!("dxp > {text}");
        let mut bytes = text.into_bytes();
        bytes.push(0);
        match tokio::time::timeout(self.timeout, async {
            self.inner.write_all(&bytes).await?;
            self.inner.flush().await
        })
        .await
        {
            Ok(r) => r,
            Err(_) => Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the peer does not read",
            )),
        }
    }

    /// Close the sending side (the peer reads end of file).
    pub async fn shutdown(&mut self) {
        let _ = tokio::time::timeout(self.timeout, self.inner.shutdown()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_and_empty_messages_are_dropped() {
        let mut f = Framer::new();
        f.push(b"\0\r\n\0E00\r\n\0\nK0");
        assert_eq!(f.next_frame(), Some(Ok(b"E00".to_vec())));
        assert_eq!(f.next_frame(), None);
        assert!(f.has_partial());
        f.push(b"\0");
        assert_eq!(f.next_frame(), Some(Ok(b"K0".to_vec())));
        assert!(!f.has_partial());
    }

    #[test]
    fn overflow_after_max_pending() {
        let mut f = Framer::new();
        f.push(&[b'x'; MAX_PENDING]);
        assert_eq!(f.next_frame(), None);
        f.push(b"x");
        assert_eq!(f.next_frame(), Some(Err(Overflow)));
        assert_eq!(f.next_frame(), None);
    }
}
