//! A checktestdata script's text as tokens, each with its line and column.
//!
//! As DOMjudge's scanner: commands are uppercase words (the longest keyword wins, so `REPI` is
//! not `REP` `I`), variables `[a-z][a-z0-9]*`, numbers without a sign (a float has a dot or an
//! exponent), strings in double quotes that may span lines, `#` comments to the end of the
//! line. Two things DOMjudge accepts are refused here with a reason: an integer literal with a
//! leading zero (GMP would read `010` as octal 8), and a string escape that makes no byte
//! (`\777`).

use super::failure::{Pos, ScriptError};

/// Uppercase words: commands, tests, functions and float options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    IsEof,
    Match,
    Unique,
    InArray,
    Strlen,
    Space,
    Newline,
    Eof,
    Int,
    Float,
    FloatP,
    String,
    Regex,
    Assert,
    Set,
    Unset,
    Rep,
    RepI,
    While,
    WhileI,
    If,
    Else,
    End,
    Fixed,
    Scientific,
}

const WORDS: &[(&str, Word)] = &[
    ("ISEOF", Word::IsEof),
    ("MATCH", Word::Match),
    ("UNIQUE", Word::Unique),
    ("INARRAY", Word::InArray),
    ("STRLEN", Word::Strlen),
    ("SPACE", Word::Space),
    ("NEWLINE", Word::Newline),
    ("EOF", Word::Eof),
    ("INT", Word::Int),
    ("FLOAT", Word::Float),
    ("FLOATP", Word::FloatP),
    ("STRING", Word::String),
    ("REGEX", Word::Regex),
    ("ASSERT", Word::Assert),
    ("SET", Word::Set),
    ("UNSET", Word::Unset),
    ("REP", Word::Rep),
    ("REPI", Word::RepI),
    ("WHILE", Word::While),
    ("WHILEI", Word::WhileI),
    ("IF", Word::If),
    ("ELSE", Word::Else),
    ("END", Word::End),
    ("FIXED", Word::Fixed),
    ("SCIENTIFIC", Word::Scientific),
];

impl Word {
    pub fn name(self) -> &'static str {
        WORDS
            .iter()
            .find(|(_, word)| *word == self)
            .map_or("?", |(name, _)| name)
    }
}

/// A token.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Word(Word),
    Var(String),
    /// Digits.
    Int(String),
    /// Digits with a dot or an exponent.
    Float(String),
    Str(Vec<u8>),
    /// Punctuation and operators, as written: `(`, `<=`, `&&`.
    Sym(&'static str),
    /// The end of the script.
    End,
}

impl Tok {
    /// The token as an error message shows it.
    pub fn describe(&self) -> String {
        match self {
            Tok::Word(word) => format!("`{}`", word.name()),
            Tok::Var(name) => format!("the variable `{name}`"),
            Tok::Int(text) | Tok::Float(text) => format!("the number `{text}`"),
            Tok::Str(bytes) => format!("the string {:?}", String::from_utf8_lossy(bytes)),
            Tok::Sym(symbol) => format!("`{symbol}`"),
            Tok::End => "the end of the script".into(),
        }
    }
}

/// Operators and punctuation, longest first so `<=` is not `<` `=`.
const SYMBOLS: &[&str] = &[
    "&&", "||", "<=", ">=", "==", "!=", "(", ")", "[", "]", ",", "=", "+", "-", "*", "/", "%", "^",
    "!", "<", ">",
];

struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    line: u32,
    line_start: usize,
}

/// The tokens of `text`, ending with [`Tok::End`].
pub fn tokens(text: &[u8]) -> Result<Vec<(Tok, Pos)>, ScriptError> {
    let mut lexer = Lexer {
        text,
        at: 0,
        line: 1,
        line_start: 0,
    };
    let mut tokens = vec![];
    loop {
        lexer.skip_blanks();
        let pos = lexer.pos();
        let Some(&c) = text.get(lexer.at) else {
            tokens.push((Tok::End, pos));
            return Ok(tokens);
        };
        let token = match c {
            b'A'..=b'Z' => lexer.word(pos)?,
            b'a'..=b'z' => {
                Tok::Var(lexer.take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit()))
            }
            b'0'..=b'9' => lexer.number(pos)?,
            b'"' => lexer.string(pos)?,
            _ => lexer.symbol(pos)?,
        };
        tokens.push((token, pos));
    }
}

impl Lexer<'_> {
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: (self.at - self.line_start + 1) as u32,
            offset: self.at,
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.text.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> u8 {
        let c = self.text[self.at];
        self.at += 1;
        if c == b'\n' {
            self.line += 1;
            self.line_start = self.at;
        }
        c
    }

    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' | b'\n' => {
                    self.bump();
                }
                b'#' => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                _ => return,
            }
        }
    }

    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> String {
        let start = self.at;
        while self.peek(0).is_some_and(&keep) {
            self.bump();
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    fn word(&mut self, pos: Pos) -> Result<Tok, ScriptError> {
        let rest = &self.text[self.at..];
        let longest = WORDS
            .iter()
            .filter(|(name, _)| rest.starts_with(name.as_bytes()))
            .max_by_key(|(name, _)| name.len());
        match longest {
            Some((name, word)) => {
                self.at += name.len();
                Ok(Tok::Word(*word))
            }
            None => {
                let word = self.take_while(|c| c.is_ascii_alphanumeric());
                Err(ScriptError::at(
                    pos,
                    format!("unknown command or keyword `{word}`"),
                ))
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        self.at - start
    }

    /// The length of an exponent (`e`, a sign, digits) at the cursor, if one is there.
    fn exponent_length(&self) -> Option<usize> {
        if !matches!(self.peek(0), Some(b'e' | b'E')) {
            return None;
        }
        let sign = usize::from(matches!(self.peek(1), Some(b'+' | b'-')));
        let digits = (1 + sign..)
            .take_while(|&i| self.peek(i).is_some_and(|c| c.is_ascii_digit()))
            .count();
        (digits > 0).then_some(1 + sign + digits)
    }

    fn number(&mut self, pos: Pos) -> Result<Tok, ScriptError> {
        let start = self.at;
        let whole = self.digits();
        let mut float = false;
        if self.peek(0) == Some(b'.') {
            self.bump();
            self.digits();
            float = true;
        }
        if let Some(length) = self.exponent_length() {
            self.at += length;
            float = true;
        }
        let text = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
        if float {
            return Ok(Tok::Float(text));
        }
        if whole > 1 && text.starts_with('0') {
            return Err(ScriptError::at(
                pos,
                format!("the integer `{text}` has a leading zero (DOMjudge reads it as octal)"),
            ));
        }
        Ok(Tok::Int(text))
    }

    fn string(&mut self, pos: Pos) -> Result<Tok, ScriptError> {
        self.bump();
        let mut bytes = vec![];
        loop {
            let Some(c) = self.peek(0) else {
                return Err(ScriptError::at(pos, "a string that is never closed".into()));
            };
            self.bump();
            match c {
                b'"' => return Ok(Tok::Str(bytes)),
                b'\\' => self.escape(&mut bytes)?,
                _ => bytes.push(c),
            }
        }
    }

    /// What follows a backslash in a string.
    fn escape(&mut self, bytes: &mut Vec<u8>) -> Result<(), ScriptError> {
        let pos = self.pos();
        let Some(c) = self.peek(0) else {
            bytes.push(b'\\');
            return Ok(());
        };
        let simple = match c {
            b'n' => Some(b'\n'),
            b't' => Some(b'\t'),
            b'r' => Some(b'\r'),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'"' => Some(b'"'),
            b'\\' => Some(b'\\'),
            _ => None,
        };
        if let Some(byte) = simple {
            self.bump();
            bytes.push(byte);
        } else if c == b'\n' {
            // A line continuation: neither is kept.
            self.bump();
        } else if (b'0'..=b'7').contains(&c) {
            let digits = self.take_while_max(3, |c| (b'0'..=b'7').contains(&c));
            let code = u32::from_str_radix(&digits, 8).expect("octal digits");
            let byte = u8::try_from(code).map_err(|_| {
                ScriptError::at(pos, format!("the escape `\\{digits}` is not a byte"))
            })?;
            bytes.push(byte);
        } else {
            // Any other backslash is itself.
            bytes.push(b'\\');
        }
        Ok(())
    }

    fn take_while_max(&mut self, most: usize, keep: impl Fn(u8) -> bool) -> String {
        let start = self.at;
        while self.at - start < most && self.peek(0).is_some_and(&keep) {
            self.bump();
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    fn symbol(&mut self, pos: Pos) -> Result<Tok, ScriptError> {
        let rest = &self.text[self.at..];
        match SYMBOLS.iter().find(|s| rest.starts_with(s.as_bytes())) {
            Some(symbol) => {
                self.at += symbol.len();
                Ok(Tok::Sym(symbol))
            }
            None => {
                let shown = String::from_utf8_lossy(&rest[..rest.len().min(4)]);
                let c = shown.chars().next().unwrap_or('?');
                Err(ScriptError::at(pos, format!("unexpected character {c:?}")))
            }
        }
    }
}
