//! What a punctuation token is where it stands, as far as the mutation operators need to know:
//! the `<` and `>` of a type's arguments (C++ templates, Java and Rust generics, Rust's
//! turbofish) are brackets, not comparisons; a `*` or `&&` that does not follow an operand is a
//! dereference, a reference or a pointer's declarator, not a product or a conjunction, and
//! neither is one that follows a type; a `+` or `+=` after a name declared a string appends. Swapping any of these for another operator only makes a
//! mutant that does not build (a stillborn one), which costs a build and says nothing of the
//! data. The rules look at the tokens around, not at a parse: they are meant to spare most such
//! mutants and never to hide a real comparison or product in the common shapes of contest code.

use std::collections::HashSet;

use super::scan::{Family, Kind, Token};

/// How far a type's arguments are looked for after its `<`.
const MAX_ARGUMENTS: usize = 64;

/// Words after which an expression starts: an operator after one of them is unary.
const EXPRESSION_STARTS: &[&str] = &[
    "return", "case", "in", "not", "and", "or", "if", "elif", "else", "while", "yield", "await",
    "throw", "new", "delete", "mut", "match", "lambda", "sizeof", "typeof",
];

/// C and C++'s words of a type, after which a `*` or `&&` declares.
const TYPE_WORDS: &[&str] = &[
    "int", "char", "long", "short", "double", "float", "bool", "void", "auto", "unsigned",
    "signed", "const", "size_t", "string", "int64_t", "uint64_t", "int32_t", "uint32_t",
];

/// For each token, whether it looks like an operator but is none here: an angle bracket of a
/// type's arguments, a string's `+` or `+=`, or a `*`, `&&` (or, in Rust, which has no unary
/// `+`, a `-`) that is unary or declares.
pub fn not_operators(source: &[u8], tokens: &[Token], family: Family) -> Vec<bool> {
    let text = |t: &Token| std::str::from_utf8(&source[t.start..t.end]).unwrap_or("");
    let mut not = vec![false; tokens.len()];
    if family != Family::Python {
        for i in 0..tokens.len() {
            if text(&tokens[i]) == "<" && !not[i] {
                if let Some(close) = type_arguments(tokens, i, family, &text) {
                    not[i..=close].fill(true);
                }
            }
        }
    }
    if family == Family::C {
        // A string's `+` and `+=` append: there is no `-` of strings.
        let strings = string_names(tokens, &text);
        for i in 1..tokens.len() {
            let appends = ["+", "+="].contains(&text(&tokens[i]));
            if appends && strings.contains(text(&tokens[i - 1])) {
                not[i] = true;
            }
        }
    }
    for (i, token) in tokens.iter().enumerate() {
        let word = text(token);
        let unary_candidates: &[&str] = match family {
            Family::Python => &["*"],
            Family::C => &["*", "&&"],
            Family::Rust => &["*", "&&", "-"],
        };
        if token.kind != Kind::Punct || !unary_candidates.contains(&word) {
            continue;
        }
        let after_operand = i > 0 && ends_operand(source, tokens, i, &not, &text);
        let declares = family == Family::C && declarator(tokens, i, &not, &text);
        not[i] |= !after_operand || declares;
    }
    not
}

/// The names declared as strings (`string s`, `std::string a, b`, Java's `String t`): each
/// name right after the type, and after a comma that follows one of them at the same depth.
fn string_names<'a>(tokens: &[Token], text: &impl Fn(&Token) -> &'a str) -> HashSet<&'a str> {
    let mut names = HashSet::new();
    for (i, token) in tokens.iter().enumerate() {
        if !["string", "String"].contains(&text(token)) {
            continue;
        }
        let mut j = i + 1;
        while let Some(name) = tokens.get(j).filter(|t| t.kind == Kind::Word) {
            names.insert(text(name));
            // Past an initialiser to the next name of the same declaration, if any.
            let mut depth = 0i32;
            j += 1;
            while let Some(t) = tokens.get(j).map(text) {
                match t {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    "," | ";" if depth == 0 => break,
                    _ => {}
                }
                if depth < 0 {
                    break;
                }
                j += 1;
            }
            if tokens.get(j).map(text) != Some(",") {
                break;
            }
            j += 1;
        }
    }
    names
}

/// Whether the token before token `i` ends an operand, so that an operator at `i` is binary: a
/// name (not a word an expression starts after), a number, a closing bracket, a literal.
fn ends_operand<'a>(
    source: &[u8],
    tokens: &[Token],
    i: usize,
    not: &[bool],
    text: &impl Fn(&Token) -> &'a str,
) -> bool {
    let previous = &tokens[i - 1];
    // A string or character literal between them is no token: its closing quote shows it.
    let between = &source[previous.end..tokens[i].start];
    if let Some(last) = between.iter().rev().find(|b| !b.is_ascii_whitespace()) {
        return matches!(last, b'"' | b'\'');
    }
    match previous.kind {
        Kind::Number => true,
        Kind::Word => !EXPRESSION_STARTS.contains(&text(previous)),
        Kind::Punct => matches!(text(previous), ")" | "]") || (not[i - 1] && text(previous) == ">"),
    }
}

/// Whether the `*` or `&&` at `i` declares a pointer or a reference: after a type word or a
/// type's arguments (`int *p`, `vector<int>&& v`), or between a name and a name at the start
/// of a statement (`Node *p = ...`), where a product would be a statement that does nothing.
fn declarator<'a>(
    tokens: &[Token],
    i: usize,
    not: &[bool],
    text: &impl Fn(&Token) -> &'a str,
) -> bool {
    let Some(previous) = i.checked_sub(1).map(|p| &tokens[p]) else {
        return false;
    };
    if TYPE_WORDS.contains(&text(previous)) || (not[i - 1] && matches!(text(previous), ">" | ">>"))
    {
        return true;
    }
    let name = |t: Option<&Token>| t.is_some_and(|t| t.kind == Kind::Word);
    let statement_start = match i.checked_sub(2).map(|p| text(&tokens[p])) {
        None => true,
        Some(before) => [";", "{", "}", "const", "struct"].contains(&before),
    };
    let then = tokens.get(i + 2).map(text).unwrap_or(";");
    name(Some(previous))
        && name(tokens.get(i + 1))
        && statement_start
        && ["=", ";", ",", "[", ")", "("].contains(&then)
}

/// Where the type's arguments opened by the `<` at `open` close (its `>`, or the `>>` that
/// closes a nested type's too), when it opens some: everything between is a type, with no
/// operator in it (Rust's bound `T: Ord + Copy`). It opens some when it follows a name (or
/// Rust's `::`), and a matching `>` comes before anything no type's arguments hold (a `;` or a
/// brace outside brackets, `&&`, `||`, `==`, a bracket closed that was opened before it).
fn type_arguments<'a>(
    tokens: &[Token],
    open: usize,
    family: Family,
    text: &impl Fn(&Token) -> &'a str,
) -> Option<usize> {
    let opens_after = |i: usize| {
        i.checked_sub(1).is_some_and(|p| {
            tokens[p].kind == Kind::Word || (family == Family::Rust && text(&tokens[p]) == "::")
        })
    };
    if !opens_after(open) {
        return None;
    }
    let mut angles = 1i32;
    let mut nested = 0i32;
    for j in open + 1..tokens.len().min(open + MAX_ARGUMENTS) {
        let t = text(&tokens[j]);
        let after = text(&tokens[j - 1]);
        let allowed = match t {
            "<" if opens_after(j) => {
                angles += 1;
                continue;
            }
            ">" | ">>" => {
                angles -= t.len() as i32;
                if angles == 0 {
                    return Some(j);
                }
                angles > 0
            }
            "(" | "[" => {
                nested += 1;
                true
            }
            ")" | "]" => {
                nested -= 1;
                nested >= 0
            }
            ";" => nested > 0,
            "," | "::" | "*" | "&" | "..." => true,
            // Java's wildcard, `? extends T`.
            "?" => family == Family::C && ["<", ","].contains(&after),
            // Rust's bounds, associated types and function types: `T: Ord + Copy`,
            // `Iterator<Item = u32>`, `Fn(i32) -> i32`, `&'a mut T`, `dyn Fn`.
            ":" | "+" | "=" | "->" | "&&" => family == Family::Rust,
            _ => matches!(tokens[j].kind, Kind::Word | Kind::Number),
        };
        if !allowed {
            return None;
        }
    }
    None
}
