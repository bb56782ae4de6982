//! The byte scanner every solver, brute force and validator reads its input with.
//!
//! It parses unsigned integers straight from the bytes, without allocating, and keeps only a byte
//! offset; line and column are worked out from the offset when an error is built, so the happy path
//! pays nothing for good error messages.

use std::fmt;
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
        let before = &input[..offset.min(input.len())];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        InputError {
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: before.len() - line_start + 1,
            message: message.into(),
        }
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

/// Numbers of up to this many digits (below 10^19 < 2^64) cannot overflow a `u64` in any step.
const SAFE_DIGITS: usize = 19;

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A cursor over input bytes.
pub struct Scanner<'a> {
    input: &'a [u8],
    pos: usize,
}

impl<'a> Scanner<'a> {
    pub fn new(input: &'a [u8]) -> Self {
        Scanner { input, pos: 0 }
    }

    /// An error located at byte `offset`.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> InputError {
        InputError::at(self.input, offset, message)
    }

    /// Skips whitespace, newlines included.
    #[inline]
    pub fn skip_space(&mut self) {
        while self.pos < self.input.len() && is_space(self.input[self.pos]) {
            self.pos += 1;
        }
    }

    /// Skips whitespace and tells whether nothing but whitespace remains.
    #[inline]
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos == self.input.len()
    }

    /// Skips spaces and tabs (not newlines) and tells whether another token stands on the current
    /// line; for formats where a line is a unit, such as one Nim position per line.
    #[inline]
    pub fn token_on_line(&mut self) -> bool {
        while let Some(&b) = self.input.get(self.pos) {
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
            Err(self.error_at(
                self.pos,
                format!(
                    "unexpected `{}` after the end of the input",
                    self.token_text()
                ),
            ))
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
        let rest = &self.input[self.pos..];
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

    /// [`Scanner::u64`] for every token, with overflow checks and the errors.
    #[cold]
    #[inline(never)]
    fn u64_slow(&mut self, what: &str) -> Result<u64, InputError> {
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(&b) = self.input.get(self.pos) {
            if !b.is_ascii_digit() {
                break;
            }
            value = match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
            {
                Some(v) => v,
                None => {
                    return Err(self.error_at(
                        start,
                        format!("{what} `{}` is too large", self.token_text_from(start)),
                    ))
                }
            };
            self.pos += 1;
        }
        let ends_cleanly = self.input.get(self.pos).is_none_or(|&b| is_space(b));
        if self.pos == start || !ends_cleanly {
            self.pos = start;
            let found = if start == self.input.len() {
                "end of input".to_string()
            } else {
                format!("`{}`", self.token_text())
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
        &self,
        start: usize,
        what: &str,
        value: u64,
        range: RangeInclusive<u64>,
    ) -> InputError {
        if value < *range.start() {
            self.error_at(
                start,
                format!("{what} {value} is below the minimum {}", range.start()),
            )
        } else {
            self.error_at(
                start,
                format!("{what} {value} is above the limit {}", range.end()),
            )
        }
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

    /// The byte offset of the cursor.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// The offset where the next token starts (after whitespace).
    #[inline]
    pub fn next_token_offset(&mut self) -> usize {
        self.skip_space();
        self.pos
    }

    fn token_text(&self) -> String {
        self.token_text_from(self.pos)
    }

    fn token_text_from(&self, start: usize) -> String {
        const SHOWN: usize = 24;
        let token: Vec<u8> = self.input[start..]
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
mod tests {
    use super::*;

    #[test]
    fn reads_numbers_across_any_whitespace() {
        let mut s = Scanner::new(b" 12\t0\r\n\n18446744073709551615 ");
        assert_eq!(s.u64("a").unwrap(), 12);
        assert_eq!(s.u64("b").unwrap(), 0);
        assert_eq!(s.u64("c").unwrap(), u64::MAX);
        assert!(s.at_end());
    }

    #[test]
    fn missing_number_names_line_and_column_of_the_end() {
        let mut s = Scanner::new(b"3\n1 2");
        for _ in 0..3 {
            s.u64("heap").unwrap();
        }
        let err = s.u64("heap").unwrap_err();
        assert_eq!((err.line, err.column), (2, 4));
        assert!(err.message.contains("found end of input"), "{err}");
    }

    #[test]
    fn non_digit_is_reported_with_its_text() {
        let err = Scanner::new(b"1 2\n  3x 4").u64_nth(3).unwrap_err();
        assert_eq!((err.line, err.column), (2, 3));
        assert!(err.message.contains("`3x`"), "{err}");
        let err = Scanner::new(b"-5").u64("k").unwrap_err();
        assert!(err.message.contains("`-5`"), "{err}");
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        let err = Scanner::new(b"18446744073709551616").u64("h").unwrap_err();
        assert!(err.message.contains("too large"), "{err}");
        assert_eq!((err.line, err.column), (1, 1));
    }

    #[test]
    fn the_fast_path_and_the_checked_path_agree_around_nineteen_digits() {
        let mut s = Scanner::new(
            b"9999999999999999999 10000000000000000000 0000000000000000000000042 \
              1234567890123456789",
        );
        assert_eq!(s.u64("a").unwrap(), 9_999_999_999_999_999_999);
        assert_eq!(s.u64("b").unwrap(), 10_000_000_000_000_000_000);
        assert_eq!(s.u64("c").unwrap(), 42);
        assert_eq!(s.u64("d").unwrap(), 1_234_567_890_123_456_789);
        assert!(s.at_end());
        let err = Scanner::new(b"99999999999999999999").u64("h").unwrap_err();
        assert!(err.message.contains("too large"), "{err}");
        let err = Scanner::new(b"1234567890123456789x").u64("h").unwrap_err();
        assert!(err.message.contains("`1234567890123456789x`"), "{err}");
        let err = Scanner::new(b"12345678901234567890x").u64("h").unwrap_err();
        assert!(err.message.contains("`12345678901234567890x`"), "{err}");
    }

    #[test]
    fn range_errors_point_at_the_number() {
        let mut s = Scanner::new(b"5\n 10001");
        s.u64("k").unwrap();
        let err = s.u64_in("heap size", 1..=10000).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, column 2: heap size 10001 is above the limit 10000"
        );
        let err = Scanner::new(b"1 00000007")
            .u64_nth_in(2, 1..=5)
            .unwrap_err();
        assert_eq!(
            (err.line, err.column),
            (1, 3),
            "leading zeros do not shift the column"
        );
        let err = Scanner::new(b"0").u64_in("n", 1..=5).unwrap_err();
        assert_eq!(err.message, "n 0 is below the minimum 1");
    }

    #[test]
    fn the_fast_path_decides_as_the_checked_path_on_random_bytes() {
        let mut state = 0x853c_49e6_748f_ea9bu64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 48) as usize;
            // Mostly digits, so long runs around 19 and 20 digits come up often.
            let bytes: Vec<u8> = (0..len)
                .map(|_| b"000123456789999 \n\tx"[(next() % 19) as usize])
                .collect();
            let (mut fast, mut slow) = (Scanner::new(&bytes), Scanner::new(&bytes));
            loop {
                slow.skip_space();
                let (a, b) = (fast.u64("n"), slow.u64_slow("n"));
                assert_eq!(a, b, "{:?}", String::from_utf8_lossy(&bytes));
                assert_eq!(fast.offset(), slow.offset());
                if a.is_err() {
                    break;
                }
            }
        }
    }

    #[test]
    fn token_on_line_stops_at_newline() {
        let mut s = Scanner::new(b"1 2 \r\n3");
        s.u64("a").unwrap();
        assert!(s.token_on_line());
        s.u64("b").unwrap();
        assert!(!s.token_on_line());
        s.skip_space();
        assert!(s.token_on_line());
    }

    #[test]
    fn trailing_garbage_is_reported() {
        let mut s = Scanner::new(b"1\nfoo");
        s.u64("a").unwrap();
        let err = s.expect_end().unwrap_err();
        assert_eq!((err.line, err.column), (2, 1));
        assert!(err.message.contains("`foo`"));
    }

    impl Scanner<'_> {
        fn u64_nth(&mut self, n: usize) -> Result<u64, InputError> {
            for _ in 1..n {
                self.u64("x")?;
            }
            self.u64("x")
        }

        fn u64_nth_in(&mut self, n: usize, range: RangeInclusive<u64>) -> Result<u64, InputError> {
            for _ in 1..n {
                self.u64("x")?;
            }
            self.u64_in("x", range)
        }
    }
}
