//! The mutation operators, over a file's tokens ([`super::scan`]): each [`Edit`] replaces one
//! token (or the two of `long long`, or a simple statement) and changes nothing else, so a
//! mutant differs from its source in one place. Relational (`<`↔`<=`, `>`↔`>=`, `==`↔`!=`),
//! arithmetic (`+`↔`-`, `*`↔`/`, `%`→`*`, and their compound assignments, `++`↔`--`),
//! constants (a decimal integer `c` to `c+1` and `c-1`, so `0`↔`1`), logical (`&&`↔`||`,
//! `and`↔`or`, a negation `!` or `not` removed), integer width (`long long`, `long` and
//! `int64_t` to `int`, `uint64_t` to `unsigned`, Rust's `i64`/`u64` to `i32`/`u32`), and a
//! simple update statement removed (`x += y;` to `;`, Python's to `pass`). Lines of imports
//! and preprocessor directives are left alone: a mutant there would only fail to build.

use std::collections::HashSet;

use super::scan::{Family, Kind, Token};
use super::syntax::not_operators;

/// Which operator made an edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    Relational,
    Arithmetic,
    Constant,
    Logical,
    Width,
    Removed,
    /// A loop's bound moved by one ([`super::conditions`]).
    LoopBound,
}

/// One change: bytes `start..end` of the source replaced by `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub operator: Operator,
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub replacement: String,
}

/// Punctuation and its replacements, by operator.
const SWAPS: &[(&str, &[&str], Operator)] = &[
    ("<", &["<="], Operator::Relational),
    ("<=", &["<"], Operator::Relational),
    (">", &[">="], Operator::Relational),
    (">=", &[">"], Operator::Relational),
    ("==", &["!="], Operator::Relational),
    ("!=", &["=="], Operator::Relational),
    ("===", &["!=="], Operator::Relational),
    ("!==", &["==="], Operator::Relational),
    ("+", &["-"], Operator::Arithmetic),
    ("-", &["+"], Operator::Arithmetic),
    ("*", &["/"], Operator::Arithmetic),
    ("/", &["*"], Operator::Arithmetic),
    ("%", &["*"], Operator::Arithmetic),
    ("+=", &["-="], Operator::Arithmetic),
    ("-=", &["+="], Operator::Arithmetic),
    ("*=", &["/="], Operator::Arithmetic),
    ("/=", &["*="], Operator::Arithmetic),
    ("++", &["--"], Operator::Arithmetic),
    ("--", &["++"], Operator::Arithmetic),
    ("&&", &["||"], Operator::Logical),
    ("||", &["&&"], Operator::Logical),
];

/// Python's logical words.
const PYTHON_WORDS: &[(&str, &str)] = &[("and", "or"), ("or", "and"), ("not", "")];

/// Rust's integer types and the narrower one each is mutated to.
const RUST_WIDTHS: &[(&str, &str)] = &[
    ("i64", "i32"),
    ("u64", "u32"),
    ("i128", "i64"),
    ("u128", "u64"),
];

/// What updates a variable in place: a statement made of one of these can go.
const UPDATES: &[&str] = &[
    "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--",
];

/// Words a removable statement never starts with.
const KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "do", "return", "switch", "case", "break", "continue", "let",
    "const", "var", "auto", "int", "long", "final", "static", "def", "class", "yield", "del",
    "global", "nonlocal", "assert", "print", "lambda",
];

/// Where a line starts with these, its tokens are not mutated.
const DIRECTIVES: &[&str] = &[
    "#", "import", "package", "use", "from", "include", "extern", "mod",
];

/// Every edit of `source` (scanned into `tokens`), in source order.
pub fn edits(source: &[u8], tokens: &[Token], family: Family) -> Vec<Edit> {
    let text = |t: &Token| std::str::from_utf8(&source[t.start..t.end]).unwrap_or("");
    let skipped = directive_lines(source, tokens);
    let not_operator = not_operators(source, tokens, family);
    let depths = depths(tokens, &text);
    let mut edits = vec![];
    let mut edit = |token: &Token, end: usize, operator, replacement: &str| {
        edits.push(Edit {
            operator,
            start: token.start,
            end,
            line: token.line,
            column: token.column,
            replacement: replacement.to_string(),
        });
    };
    for (i, token) in tokens.iter().enumerate() {
        if skipped.contains(&token.line) {
            continue;
        }
        let word = text(token);
        let next = tokens.get(i + 1).map(&text).unwrap_or("");
        let previous = i.checked_sub(1).map(|p| &tokens[p]);
        match token.kind {
            // A type's angle brackets, a dereference, a declarator: no operator to swap.
            Kind::Punct if not_operator[i] => {}
            Kind::Punct => {
                for (from, to, operator) in SWAPS {
                    if word == *from {
                        for to in *to {
                            edit(token, token.end, *operator, to);
                        }
                    }
                }
                // A negation removed; Rust's `name!` is a macro, not one.
                let macro_bang = family == Family::Rust
                    && previous.is_some_and(|p| p.end == token.start && p.kind == Kind::Word);
                if word == "!" && family != Family::Python && !macro_bang {
                    edit(token, token.end, Operator::Logical, "");
                }
            }
            Kind::Number => {
                for constant in constants(word, family) {
                    edit(token, token.end, Operator::Constant, &constant);
                }
            }
            Kind::Word => match family {
                Family::Python => {
                    if let Some((_, to)) = PYTHON_WORDS.iter().find(|(w, _)| *w == word) {
                        edit(token, token.end, Operator::Logical, to);
                    }
                }
                Family::Rust => {
                    if let Some((_, to)) = RUST_WIDTHS.iter().find(|(w, _)| *w == word) {
                        edit(token, token.end, Operator::Width, to);
                    }
                }
                Family::C => {
                    let after_long = previous.is_some_and(|p| text(p) == "long");
                    if word == "long" && next == "long" {
                        edit(token, tokens[i + 1].end, Operator::Width, "int");
                    } else if (word == "long" && !after_long && next != "double")
                        || word == "int64_t"
                    {
                        edit(token, token.end, Operator::Width, "int");
                    } else if word == "uint64_t" {
                        edit(token, token.end, Operator::Width, "unsigned");
                    }
                }
            },
        }
        if let Some((end, replacement)) = removable(tokens, i, depths[i], family, &text) {
            edit(token, end, Operator::Removed, replacement);
        }
    }
    edits
}

/// The lines whose first token starts an import or a directive.
pub fn directive_lines(source: &[u8], tokens: &[Token]) -> HashSet<usize> {
    let text = |t: &Token| std::str::from_utf8(&source[t.start..t.end]).unwrap_or("");
    let mut lines = HashSet::new();
    let mut line = 0;
    for token in tokens {
        if token.line != line {
            line = token.line;
            if DIRECTIVES.contains(&text(token)) {
                lines.insert(line);
            }
        }
    }
    lines
}

/// A decimal integer literal's mutants: `c+1` and `c-1` (never below 0), its suffix kept. A
/// literal in another base, a float, or one with a suffix its language does not give integers
/// has none.
fn constants(literal: &str, family: Family) -> Vec<String> {
    let digits = literal
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'_' || *b == b'\'')
        .count();
    let (number, suffix) = literal.split_at(digits);
    let integer_suffix = match family {
        Family::C => suffix.bytes().all(|b| b"uUlLzZ".contains(&b)),
        Family::Rust => {
            suffix.is_empty()
                || [
                    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64",
                ]
                .into_iter()
                .chain(["u128", "usize"])
                .any(|s| suffix == s || suffix == format!("_{s}"))
        }
        Family::Python => suffix.is_empty(),
    };
    let clean: String = number.chars().filter(char::is_ascii_digit).collect();
    // A leading zero is C's and Java's octal.
    let octal = clean.len() > 1 && clean.starts_with('0');
    let Ok(value) = clean.parse::<u64>() else {
        return vec![];
    };
    if !integer_suffix || octal || number.ends_with(['_', '\'']) {
        return vec![];
    }
    let mut mutants = vec![];
    if let Some(up) = value.checked_add(1) {
        mutants.push(format!("{up}{suffix}"));
    }
    if let Some(down) = value.checked_sub(1) {
        mutants.push(format!("{down}{suffix}"));
    }
    mutants
}

/// Whether the statement starting at token `i` is a simple update that can go: one line, a
/// variable (not a keyword) first, an update operator outside brackets, no braces, and (C
/// family, Rust) ended by `;` there, or (Python) alone on its line. Its end and replacement:
/// the C family keeps the `;` as an empty statement, Python puts `pass`.
fn removable<'a>(
    tokens: &[Token],
    i: usize,
    depth: i32,
    family: Family,
    text: &impl Fn(&Token) -> &'a str,
) -> Option<(usize, &'static str)> {
    let first = &tokens[i];
    let starts = match family {
        Family::Python => i == 0 || tokens[i - 1].line != first.line,
        Family::C | Family::Rust => {
            i == 0 || ([";", "{", "}"].contains(&text(&tokens[i - 1])) && depth == 0)
        }
    };
    let word = text(first);
    if !starts || first.kind != Kind::Word || KEYWORDS.contains(&word) {
        return None;
    }
    let mut level = 0i32;
    let mut updates = false;
    for (j, token) in tokens.iter().enumerate().skip(i) {
        let t = text(token);
        if token.line != first.line {
            // Python's statement ends with its line; any other must end on it.
            let ended = family == Family::Python && level == 0;
            return (ended && updates).then(|| (tokens[j - 1].end, "pass"));
        }
        match t {
            "(" | "[" => level += 1,
            ")" | "]" => level -= 1,
            "{" | "}" => return None,
            ";" if level == 0 && family != Family::Python => {
                return updates.then_some((token.start, ""));
            }
            "=" | "," | ";" | ":" if level == 0 => return None,
            _ if level == 0 && UPDATES.contains(&t) => updates = true,
            _ => {}
        }
        if level < 0 {
            return None;
        }
    }
    let ended = family == Family::Python && level == 0;
    (ended && updates).then(|| (tokens[tokens.len() - 1].end, "pass"))
}

/// How deep in round or square brackets each token is.
fn depths<'a>(tokens: &[Token], text: &impl Fn(&Token) -> &'a str) -> Vec<i32> {
    let mut level = 0;
    let mut depths = Vec::with_capacity(tokens.len());
    for token in tokens {
        depths.push(level);
        match text(token) {
            "(" | "[" => level += 1,
            ")" | "]" => level -= 1,
            _ => {}
        }
    }
    depths
}
