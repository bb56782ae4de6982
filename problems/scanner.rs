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
    pub fn skip_space(&mut self) {
        while self.pos < self.input.len() && is_space(self.input[self.pos]) {
            self.pos += 1;
        }
    }

    /// Skips whitespace and tells whether nothing but whitespace remains.
    pub fn at_end(&mut self) -> bool {
        self.skip_space();
        self.pos == self.input.len()
    }

    /// Skips spaces and tabs (not newlines) and tells whether another token stands on the current
    /// line; for formats where a line is a unit, such as one Nim position per line.
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
    pub fn u64(&mut self, what: &str) -> Result<u64, InputError> {
        self.skip_space();
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
    pub fn u64_in(&mut self, what: &str, range: RangeInclusive<u64>) -> Result<u64, InputError> {
        let start = self.next_token_offset();
        let value = self.u64(what)?;
        if value < *range.start() {
            Err(self.error_at(
                start,
                format!("{what} {value} is below the minimum {}", range.start()),
            ))
        } else if value > *range.end() {
            Err(self.error_at(
                start,
                format!("{what} {value} is above the limit {}", range.end()),
            ))
        } else {
            Ok(value)
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
