//! The tokens of a source file, for the mutation operators: words, numbers and punctuation with
//! their byte span, line and column, comments, strings and character literals skipped, so no
//! mutant ever touches them. Two families of syntax: the C family (C, C++, Java, C#, Go,
//! Kotlin, JavaScript: `//` and `/* */` comments, `"` and `'` literals, C++'s raw strings,
//! Java's text blocks, JavaScript's template strings) with Rust's additions (nested comments,
//! raw strings, lifetimes), and Python (`#` comments, string prefixes, triple quotes).
//!
//! The input is bounded by the caller ([`super::MAX_SOURCE`]); a literal or comment that never
//! ends is an error at the line and column it starts.

use thiserror::Error;

/// Which syntax a file is scanned with, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// C, C++, Java, C#, Go, Kotlin, JavaScript.
    C,
    Rust,
    Python,
}

impl Family {
    /// The family of a file named `name`, or `None` for a file no operator mutates.
    pub fn of(name: &str) -> Option<Family> {
        let extension = name.rsplit_once('.')?.1;
        match extension {
            "c" | "cc" | "cpp" | "cxx" | "c++" | "h" | "hpp" | "java" | "cs" | "go" | "kt"
            | "js" => Some(Family::C),
            "rs" => Some(Family::Rust),
            "py" => Some(Family::Python),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword.
    Word,
    Number,
    Punct,
}

/// One token: its kind, its bytes `start..end` in the source, and where it starts (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
}

/// A comment or literal that does not end before the file does.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("{line}:{column}: {what} that never ends")]
pub struct ScanError {
    pub line: usize,
    pub column: usize,
    pub what: &'static str,
}

/// Punctuation, longest first: each is one token.
const PUNCTUATION: &[&str] = &[
    "<<=", ">>=", "===", "!==", "...", "**=", "//=", "->", "=>", "::", "<=", ">=", "==", "!=",
    "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**", "//",
];

struct Scanner<'a> {
    source: &'a [u8],
    family: Family,
    at: usize,
    line: usize,
    /// Where the current line starts.
    line_start: usize,
    tokens: Vec<Token>,
}

/// The tokens of `source`, in order.
pub fn scan(source: &[u8], family: Family) -> Result<Vec<Token>, ScanError> {
    let mut scanner = Scanner {
        source,
        family,
        at: 0,
        line: 1,
        line_start: 0,
        tokens: vec![],
    };
    scanner.run()?;
    Ok(scanner.tokens)
}

fn is_word_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_' || byte == b'$' || byte >= 0x80
}

fn is_word(byte: u8) -> bool {
    is_word_start(byte) || byte.is_ascii_digit()
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.source.get(self.at + ahead).copied().unwrap_or(0)
    }

    fn rest(&self) -> &[u8] {
        &self.source[self.at..]
    }

    /// Moves on `count` bytes, counting lines.
    fn advance(&mut self, count: usize) {
        for _ in 0..count {
            if self.peek(0) == b'\n' {
                self.line += 1;
                self.line_start = self.at + 1;
            }
            self.at += 1;
        }
    }

    fn error(&self, start: (usize, usize), what: &'static str) -> ScanError {
        ScanError {
            line: start.0,
            column: start.1,
            what,
        }
    }

    fn here(&self) -> (usize, usize) {
        (self.line, self.at - self.line_start + 1)
    }

    fn push(&mut self, kind: Kind, start: usize, line: (usize, usize)) {
        self.tokens.push(Token {
            kind,
            start,
            end: self.at,
            line: line.0,
            column: line.1,
        });
    }

    fn run(&mut self) -> Result<(), ScanError> {
        while self.at < self.source.len() {
            let here = self.here();
            let start = self.at;
            let byte = self.peek(0);
            if byte.is_ascii_whitespace() {
                self.advance(1);
            } else if self.comment(here)? || self.literal(here)? {
                // Skipped: never mutated.
            } else if byte.is_ascii_digit() || (byte == b'.' && self.peek(1).is_ascii_digit()) {
                self.number();
                self.push(Kind::Number, start, here);
            } else if is_word_start(byte) {
                while is_word(self.peek(0)) {
                    self.advance(1);
                }
                self.push(Kind::Word, start, here);
            } else {
                let long = PUNCTUATION
                    .iter()
                    .find(|p| self.rest().starts_with(p.as_bytes()))
                    .map_or(1, |p| p.len());
                self.advance(long);
                self.push(Kind::Punct, start, here);
            }
        }
        Ok(())
    }

    /// Skips a comment here, if one starts here.
    fn comment(&mut self, here: (usize, usize)) -> Result<bool, ScanError> {
        let rest = self.rest();
        let line = match self.family {
            Family::Python => rest.starts_with(b"#"),
            Family::C | Family::Rust => rest.starts_with(b"//"),
        };
        if line {
            while self.at < self.source.len() && self.peek(0) != b'\n' {
                self.advance(1);
            }
            return Ok(true);
        }
        if self.family == Family::Python || !rest.starts_with(b"/*") {
            return Ok(false);
        }
        // Rust's block comments nest; C's end at the first `*/`.
        let mut depth = 0usize;
        loop {
            if self.at >= self.source.len() {
                return Err(self.error(here, "a comment"));
            }
            if self.rest().starts_with(b"/*") && (depth == 0 || self.family == Family::Rust) {
                depth += 1;
                self.advance(2);
            } else if self.rest().starts_with(b"*/") {
                depth -= 1;
                self.advance(2);
                if depth == 0 {
                    return Ok(true);
                }
            } else {
                self.advance(1);
            }
        }
    }

    /// Skips a string or character literal here (with its prefix), if one starts here.
    fn literal(&mut self, here: (usize, usize)) -> Result<bool, ScanError> {
        match self.family {
            Family::Python => self.python_literal(here),
            Family::C => self.c_literal(here),
            Family::Rust => self.rust_literal(here),
        }
    }

    fn c_literal(&mut self, here: (usize, usize)) -> Result<bool, ScanError> {
        // C++'s raw strings: `R"delim( ... )delim"`, with an encoding prefix or not.
        for prefix in ["R\"", "u8R\"", "LR\"", "uR\"", "UR\""] {
            if self.rest().starts_with(prefix.as_bytes()) && self.not_in_word() {
                self.advance(prefix.len());
                let open = self.rest().iter().position(|&b| b == b'(');
                let Some(open) = open.filter(|&n| n <= 16) else {
                    return Err(self.error(here, "a raw string"));
                };
                let mut close = vec![b')'];
                close.extend_from_slice(&self.rest()[..open]);
                close.push(b'"');
                self.advance(open + 1);
                return self.skip_to(&close, true, here, "a raw string");
            }
        }
        if self.rest().starts_with(b"\"\"\"") {
            self.advance(3);
            return self.skip_to(b"\"\"\"", false, here, "a text block");
        }
        match self.peek(0) {
            b'"' => self.quoted(b'"', here, "a string"),
            b'\'' => self.quoted(b'\'', here, "a character literal"),
            b'`' => self.quoted(b'`', here, "a template string"),
            _ => Ok(false),
        }
    }

    fn rust_literal(&mut self, here: (usize, usize)) -> Result<bool, ScanError> {
        let rest = self.rest();
        let raw = match rest {
            [b'r', b'"' | b'#', ..] => Some(1),
            [b'b' | b'c', b'r', b'"' | b'#', ..] => Some(2),
            _ => None,
        };
        if let Some(prefix) = raw.filter(|_| self.not_in_word()) {
            let hashes = rest[prefix..].iter().take_while(|&&b| b == b'#').count();
            if rest.get(prefix + hashes) == Some(&b'"') {
                self.advance(prefix + hashes + 1);
                let mut close = vec![b'"'];
                close.extend(std::iter::repeat_n(b'#', hashes));
                return self.skip_to(&close, true, here, "a raw string");
            }
        }
        if matches!(rest, [b'b' | b'c', b'"' | b'\'', ..]) && self.not_in_word() {
            self.advance(1);
        }
        match self.peek(0) {
            b'"' => self.quoted(b'"', here, "a string"),
            // A lifetime or label (`'a`, `'outer`) is no literal: its name is not closed by a
            // quote right after its first character.
            b'\'' if is_word_start(self.peek(1)) && self.peek(2) != b'\'' => {
                self.advance(1);
                while is_word(self.peek(0)) {
                    self.advance(1);
                }
                Ok(true)
            }
            b'\'' => self.quoted(b'\'', here, "a character literal"),
            _ => Ok(false),
        }
    }

    fn python_literal(&mut self, here: (usize, usize)) -> Result<bool, ScanError> {
        let prefix = self
            .rest()
            .iter()
            .take_while(|b| matches!(b.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f'))
            .count();
        let quote = self.peek(prefix);
        if prefix > 2 || !matches!(quote, b'"' | b'\'') || (prefix > 0 && !self.not_in_word()) {
            return Ok(false);
        }
        self.advance(prefix);
        let triple = [quote; 3];
        if self.rest().starts_with(&triple) {
            self.advance(3);
            // Tokenised alike, raw or not: a backslash keeps the next character in the string.
            return self.skip_to(&triple, false, here, "a triple-quoted string");
        }
        self.quoted(quote, here, "a string")
    }

    /// Whether the byte before here ends no word (a prefix letter starts the literal).
    fn not_in_word(&self) -> bool {
        self.at == 0 || !is_word(self.source[self.at - 1])
    }

    /// Skips a literal from its opening `quote` to the closing one, a backslash keeping the
    /// next byte in it. A Python string that is not triple-quoted ends at its line.
    fn quoted(
        &mut self,
        quote: u8,
        here: (usize, usize),
        what: &'static str,
    ) -> Result<bool, ScanError> {
        self.advance(1);
        loop {
            match self.peek(0) {
                _ if self.at >= self.source.len() => return Err(self.error(here, what)),
                b'\\' => self.advance(2.min(self.source.len() - self.at)),
                b'\n' if self.family == Family::Python => return Err(self.error(here, what)),
                byte => {
                    self.advance(1);
                    if byte == quote {
                        return Ok(true);
                    }
                }
            }
        }
    }

    /// Skips to just after `close`, a backslash keeping the next byte in the literal unless it
    /// is `raw`.
    fn skip_to(
        &mut self,
        close: &[u8],
        raw: bool,
        here: (usize, usize),
        what: &'static str,
    ) -> Result<bool, ScanError> {
        loop {
            if self.at >= self.source.len() {
                return Err(self.error(here, what));
            }
            if self.rest().starts_with(close) {
                self.advance(close.len());
                return Ok(true);
            }
            let step = if self.peek(0) == b'\\' && !raw { 2 } else { 1 };
            self.advance(step.min(self.source.len() - self.at));
        }
    }

    /// A numeric literal: digits, letters (a base's, an exponent's, a suffix), `_` and C++'s
    /// `'` separators between digits, a `.` followed by a digit, an exponent's sign.
    fn number(&mut self) {
        let hex = matches!(self.peek(1), b'x' | b'X');
        let mut previous = self.peek(0);
        self.advance(1);
        loop {
            let byte = self.peek(0);
            let sign = matches!(byte, b'+' | b'-') && !hex && matches!(previous, b'e' | b'E');
            let separator =
                byte == b'\'' && self.family == Family::C && self.peek(1).is_ascii_alphanumeric();
            let point = byte == b'.' && self.peek(1).is_ascii_digit();
            if !(is_word(byte) || sign || separator || point) {
                return;
            }
            previous = byte;
            self.advance(1);
        }
    }
}
