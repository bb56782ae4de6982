//! The byte scanner every solver, brute force and validator reads its input with.
//!
//! It parses unsigned integers straight from the bytes, without allocating, from one of two
//! sources: the whole input in memory ([`Scanner::new`], for solvers and brute forces, which hold
//! the input anyway), or a stream read a window at a time ([`Scanner::from_reader`], for
//! validators, so that checking an input of any size takes a fixed amount of memory). The parsing
//! code is the same for both (generic over [`Source`]), so both accept and reject the same bytes
//! with the same messages.
//!
//! Positions are input byte offsets. Line and column are worked out from an offset only when an
//! error or a [`Place`] is built, by counting newlines forward from the last place worked out, so
//! the happy path pays nothing for good error messages and a validator that notes many places pays
//! for each byte once.

use std::fmt;
use std::io::{BufRead, ErrorKind};
use std::ops::RangeInclusive;

/// Malformed or out-of-range input, located by 1-based line and byte column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl InputError {
    /// An error at byte `offset` of `input`.
    pub fn at(input: &[u8], offset: usize, message: impl Into<String>) -> Self {
        Scanner::new(input).error_at(offset, message)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for InputError {}

/// A place in the input: 1-based line and byte column. Validators note the place of a token they
/// may blame later, since a stream no longer holds its bytes by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

impl Place {
    /// The error `message` at this place.
    pub fn error(self, message: impl Into<String>) -> InputError {
        InputError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

/// Numbers of up to this many digits (below 10^19 < 2^64) cannot overflow a `u64` in any step.
const SAFE_DIGITS: usize = 19;

/// How many bytes of a token an error message shows.
const SHOWN: usize = 24;

/// The most a [`Reader`] takes from its stream at once.
const READ_CHUNK: usize = 64 << 10;

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Where a [`Scanner`]'s bytes come from: a window of the input, which a stream slides forward.
pub trait Source {
    /// The input bytes in memory now; `window()[0]` is input byte `start()`.
    fn window(&self) -> &[u8];
    /// The input offset of `window()[0]`.
    fn start(&self) -> usize;
    /// Reads on until `window()[from..]` holds at least `len` bytes or the input ends. The bytes
    /// before window index `keep` (`keep <= from`) may be dropped; returns how many were, by which
    /// every window index the caller holds moves down.
    fn fill(&mut self, keep: usize, from: usize, len: usize) -> usize;
    /// The place of input offset `offset`, which must not lie past the window, nor before the
    /// start of the line holding `window()[0]` (a token being read always qualifies: it holds no
    /// newline).
    fn place(&mut self, offset: usize) -> Place;
}

/// Line counting from a known place: 1-based line `line` starts at input offset `line_start`, and
/// everything before offset `at` is counted.
#[derive(Clone, Copy, Debug)]
struct Lines {
    at: usize,
    line: usize,
    line_start: usize,
}

impl Lines {
    const START: Lines = Lines {
        at: 0,
        line: 1,
        line_start: 0,
    };

    /// Counts `bytes`, the input from offset `at` on.
    fn advance(&mut self, bytes: &[u8]) {
        let newlines = bytes.iter().filter(|&&b| b == b'\n').count();
        if newlines > 0 {
            self.line += newlines;
            let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
            self.line_start = self.at + last + 1;
        }
        self.at += bytes.len();
    }

    fn place(&self, offset: usize) -> Place {
        Place {
            line: self.line,
            column: offset.saturating_sub(self.line_start) + 1,
        }
    }
}

/// The whole input in memory.
pub struct InMemory<'a> {
    bytes: &'a [u8],
    /// The last place worked out.
    seen: Lines,
}

impl Source for InMemory<'_> {
    #[inline]
    fn window(&self) -> &[u8] {
        self.bytes
    }

    #[inline]
    fn start(&self) -> usize {
        0
    }

    #[inline]
    fn fill(&mut self, _keep: usize, _from: usize, _len: usize) -> usize {
        0
    }

    fn place(&mut self, offset: usize) -> Place {
        let offset = offset.min(self.bytes.len());
        if offset < self.seen.at {
            self.seen = Lines::START;
        }
        self.seen.advance(&self.bytes[self.seen.at..offset]);
        self.seen.place(offset)
    }
}

/// A stream, held a window at a time: the bytes from the token being read on. An I/O error ends
/// the input here; the owner of the stream learns of it from the stream itself.
pub struct Reader<'r> {
    stream: &'r mut dyn BufRead,
    window: Vec<u8>,
    start: usize,
    ended: bool,
    /// Lines counted up to `start`.
    dropped: Lines,
    /// The last place worked out, at or after `start` (else stale).
    seen: Lines,
}

impl Source for Reader<'_> {
    #[inline]
    fn window(&self) -> &[u8] {
        &self.window
    }

    #[inline]
    fn start(&self) -> usize {
        self.start
    }

    fn fill(&mut self, keep: usize, from: usize, len: usize) -> usize {
        if self.ended || self.window.len() - from >= len {
            return 0;
        }
        self.dropped.advance(&self.window[..keep]);
        self.window.drain(..keep);
        self.start += keep;
        let from = from - keep;
        while self.window.len() - from < len {
            let taken = match self.stream.fill_buf() {
                Ok(bytes) => {
                    let taken = bytes.len().min(READ_CHUNK);
                    self.window.extend_from_slice(&bytes[..taken]);
                    taken
                }
                Err(error) if error.kind() == ErrorKind::Interrupted => continue,
                Err(_) => 0,
            };
            if taken == 0 {
                self.ended = true;
                break;
            }
            self.stream.consume(taken);
        }
        keep
    }

    fn place(&mut self, offset: usize) -> Place {
        if offset < self.start {
            // On the line holding the window's first byte (the contract): `dropped` knows it.
            return self.dropped.place(offset);
        }
        let offset = offset.min(self.start + self.window.len());
        if self.seen.at < self.start || offset < self.seen.at {
            self.seen = self.dropped;
        }
        let counted = self.seen.at - self.start..offset - self.start;
        self.seen.advance(&self.window[counted]);
        self.seen.place(offset)
    }
}

/// A cursor over input bytes from a [`Source`].
pub struct Scanner<S> {
    source: S,
    /// The cursor, as an index into the source's window.
    pos: usize,
}

impl<'a> Scanner<InMemory<'a>> {
    /// A scanner over the whole input, in memory.
    pub fn new(input: &'a [u8]) -> Self {
        Scanner {
            source: InMemory {
                bytes: input,
                seen: Lines::START,
            },
            pos: 0,
        }
    }
}

impl<'r> Scanner<Reader<'r>> {
    /// A scanner over a stream, holding only a window of it: about the longest token plus what
    /// one read of the stream returns (at most 64 KiB).
    pub fn from_reader(stream: &'r mut dyn BufRead) -> Self {
        Scanner {
            source: Reader {
                stream,
                window: Vec::new(),
                start: 0,
                ended: false,
                dropped: Lines::START,
                seen: Lines::START,
            },
            pos: 0,
        }
    }
}

impl<S: Source> Scanner<S> {
    /// An error located at byte `offset` (see [`Source::place`] for which offsets a stream can
    /// still place; [`Scanner::place`] notes one for later).
    pub fn error_at(&mut self, offset: usize, message: impl Into<String>) -> InputError {
        self.source.place(offset).error(message)
    }

    /// The place of byte `offset`: the cursor, the token just read, or anything after the last
    /// place worked out.
    pub fn place(&mut self, offset: usize) -> Place {
        self.source.place(offset)
    }

    /// Makes at least `len` bytes from the cursor available, unless the input ends first.
    #[inline]
    fn ensure(&mut self, len: usize) {
        if self.source.window().len() - self.pos < len {
            self.pos -= self.source.fill(self.pos, self.pos, len);
        }
    }

    /// The byte at the cursor, reading on when the window ends there; `None` at the end of input.
    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.ensure(1);
        self.source.window().get(self.pos).copied()
    }

    /// Skips whitespace, newlines included.
    #[inline]
    pub fn skip_space(&mut self) {
        loop {
            let window = self.source.window();
            while self.pos < window.len() && is_space(window[self.pos]) {
                self.pos += 1;
            }
            if self.pos < window.len() || self.peek().is_none() {
                return;
            }
        }
    }

    /// Skips whitespace and tells whether nothing but whitespace remains.
    #[inline]
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos == self.source.window().len()
    }

    /// Skips spaces and tabs (not newlines) and tells whether another token stands on the current
    /// line; for formats where a line is a unit, such as one Nim position per line.
    #[inline]
    pub fn token_on_line(&mut self) -> bool {
        while let Some(b) = self.peek() {
            if b == b'\n' {
                return false;
            }
            if !is_space(b) {
                return true;
            }
            self.pos += 1;
        }
        false
    }

    /// Fails unless only whitespace remains.
    pub fn expect_end(&mut self) -> Result<(), InputError> {
        if self.at_end() {
            Ok(())
        } else {
            let message = format!(
                "unexpected `{}` after the end of the input",
                self.token_text()
            );
            Err(self.error_at(self.offset(), message))
        }
    }

    /// Reads the next unsigned integer, skipping whitespace before it; `what` names it in errors
    /// ("heap size").
    #[inline]
    pub fn u64(&mut self, what: &str) -> Result<u64, InputError> {
        self.skip_space();
        // The fast path takes a number of 1 to 19 digits followed by whitespace or the end, the
        // usual token: below 10^19 nothing can overflow, so each digit is one subtraction, one
        // comparison and one multiply-add. Anything else (20 digits or more, no digit, a digit
        // run glued to other bytes) is re-read from its start by `u64_slow`, which decides the
        // value or the error as the scanner always has.
        self.ensure(SAFE_DIGITS + 1);
        let rest = &self.source.window()[self.pos..];
        let mut value: u64 = 0;
        let mut len = 0;
        while len < rest.len() && len < SAFE_DIGITS {
            let digit = rest[len].wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value * 10 + u64::from(digit);
            len += 1;
        }
        if len > 0 && rest.get(len).is_none_or(|&b| is_space(b)) {
            self.pos += len;
            Ok(value)
        } else {
            self.u64_slow(what)
        }
    }

    /// [`Scanner::u64`] for every token, with overflow checks and the errors. A token may be
    /// longer than a stream's window (leading zeros): its start is placed and its text noted first.
    #[cold]
    #[inline(never)]
    fn u64_slow(&mut self, what: &str) -> Result<u64, InputError> {
        let start = self.offset();
        let text = self.token_text();
        let mut value: u64 = 0;
        let mut digits = 0;
        while let Some(b) = self.peek().filter(u8::is_ascii_digit) {
            value = match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
            {
                Some(v) => v,
                None => return Err(self.error_at(start, format!("{what} `{text}` is too large"))),
            };
            self.pos += 1;
            digits += 1;
        }
        if digits == 0 || self.peek().is_some_and(|b| !is_space(b)) {
            let found = if text.is_empty() {
                "end of input".to_string()
            } else {
                format!("`{text}`")
            };
            return Err(self.error_at(
                start,
                format!("expected {what} (a non-negative integer), found {found}"),
            ));
        }
        Ok(value)
    }

    /// Reads the next unsigned integer and checks it lies in `range`.
    #[inline]
    pub fn u64_in(&mut self, what: &str, range: RangeInclusive<u64>) -> Result<u64, InputError> {
        let start = self.next_token_offset();
        let value = self.u64(what)?;
        if range.contains(&value) {
            Ok(value)
        } else {
            Err(self.out_of_range(start, what, value, range))
        }
    }

    #[cold]
    #[inline(never)]
    fn out_of_range(
        &mut self,
        start: usize,
        what: &str,
        value: u64,
        range: RangeInclusive<u64>,
    ) -> InputError {
        let message = if value < *range.start() {
            format!("{what} {value} is below the minimum {}", range.start())
        } else {
            format!("{what} {value} is above the limit {}", range.end())
        };
        self.error_at(start, message)
    }

    /// Like [`Scanner::u64_in`], for counts and sizes used as lengths.
    pub fn usize_in(
        &mut self,
        what: &str,
        range: RangeInclusive<usize>,
    ) -> Result<usize, InputError> {
        let value = self.u64_in(what, *range.start() as u64..=*range.end() as u64)?;
        Ok(value as usize)
    }

    /// The input offset of the cursor.
    #[inline]
    pub fn offset(&self) -> usize {
        self.source.start() + self.pos
    }

    /// The offset where the next token starts (after whitespace).
    #[inline]
    pub fn next_token_offset(&mut self) -> usize {
        self.skip_space();
        self.offset()
    }

    /// The token at the cursor (up to the next whitespace), shortened for an error message; empty
    /// at the end of input.
    pub fn token_text(&mut self) -> String {
        self.ensure(SHOWN + 1);
        let token: Vec<u8> = self.source.window()[self.pos..]
            .iter()
            .take_while(|&&b| !is_space(b))
            .take(SHOWN + 1)
            .copied()
            .collect();
        let text = String::from_utf8_lossy(&token[..token.len().min(SHOWN)]).into_owned();
        if token.len() > SHOWN {
            text + "…"
        } else {
            text
        }
    }
}

#[cfg(test)]
#[path = "scanner_tests.rs"]
mod tests;
