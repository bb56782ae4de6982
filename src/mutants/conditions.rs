//! The operators that change an expression rather than a token: a loop's bound moved by one (a
//! C-family `for` header's condition `i < n` to `i < n - 1`, the direction the relational
//! operator's `<=` does not cover; Python's `range(n)` to `range(n - 1)` and `range(n + 1)`;
//! Rust's `0..n` to `0..=n` and back) and an `if`'s condition negated (`if (c)` to
//! `if (!(c))`, Rust's `if c {` to `if !(c) {`, Python's `if c:` to `if not (c):`). A bound that
//! is a number is left to the constants operator, which already moves it by one.

use std::collections::HashSet;

use super::operators::{Edit, Operator};
use super::scan::{Family, Kind, Token};

/// The tokens a bound may hold at its top level and still take `- 1` or `+ 1` without
/// brackets: names, numbers, member access and operators that bind tighter than `+`, or as
/// tight.
const TIGHT: &[&str] = &[".", "->", "::", "*", "/", "//", "%", "+", "-", "**"];

/// Every loop-bound and negated-condition edit of `source`, in source order; none on the
/// `skipped` lines (imports and directives).
pub fn edits(
    source: &[u8],
    tokens: &[Token],
    family: Family,
    skipped: &HashSet<usize>,
) -> Vec<Edit> {
    let text = |t: &Token| std::str::from_utf8(&source[t.start..t.end]).unwrap_or("");
    let mut edits = vec![];
    for i in 0..tokens.len() {
        if skipped.contains(&tokens[i].line) {
            continue;
        }
        let made = match (family, text(&tokens[i])) {
            (Family::C, "for") => for_bound(source, tokens, i, &text),
            (Family::C | Family::Rust, "if") | (Family::Python, "if" | "elif") => {
                negated(source, tokens, i, family, &text)
            }
            (Family::Python, "range") => range_bound(source, tokens, i, &text),
            (Family::Rust, ".") => rust_range(tokens, i, &text),
            _ => vec![],
        };
        edits.extend(made);
    }
    edits
}

/// The edit replacing the bytes `start..end` (trimmed of white space) by `replace(text)`.
fn around(
    source: &[u8],
    first: &Token,
    (start, end): (usize, usize),
    operator: Operator,
    replace: impl Fn(&str) -> String,
) -> Option<Edit> {
    let span = &source[start..end];
    let skip = span.iter().take_while(|b| b.is_ascii_whitespace()).count();
    let keep = span
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    let (start, end) = (start + skip, end.saturating_sub(keep).max(start + skip));
    let inner = std::str::from_utf8(&source[start..end]).ok()?;
    let line = first.line
        + source[first.start..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
    let line_start = source[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |n| n + 1);
    (!inner.is_empty()).then(|| Edit {
        operator,
        start,
        end,
        line,
        column: start - line_start + 1,
        replacement: replace(inner),
    })
}

/// The index of the bracket closing the one opened at `open`, where it closes.
fn closing<'a>(tokens: &[Token], open: usize, text: &impl Fn(&Token) -> &'a str) -> Option<usize> {
    let (opens, closes) = match text(&tokens[open]) {
        "(" => ("(", ")"),
        "[" => ("[", "]"),
        _ => ("{", "}"),
    };
    let mut depth = 0usize;
    for (j, token) in tokens.iter().enumerate().skip(open) {
        match text(token) {
            t if t == opens => depth += 1,
            t if t == closes => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// The indices in `from..to` of tokens outside any bracket opened in that range.
fn top_level<'a>(
    tokens: &[Token],
    (from, to): (usize, usize),
    text: &impl Fn(&Token) -> &'a str,
) -> Vec<usize> {
    let mut depth = 0i32;
    let mut top = vec![];
    for (j, token) in tokens.iter().enumerate().take(to).skip(from) {
        match text(token) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            _ if depth == 0 => top.push(j),
            _ => {}
        }
    }
    top
}

/// The first token after `i` outside round and square brackets that is one of `ends`.
fn ending<'a>(
    tokens: &[Token],
    i: usize,
    ends: &[&str],
    text: &impl Fn(&Token) -> &'a str,
) -> Option<usize> {
    let mut depth = 0i32;
    for (j, token) in tokens.iter().enumerate().skip(i + 1) {
        match text(token) {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            t if depth == 0 && ends.contains(&t) => return Some(j),
            _ => {}
        }
        if depth < 0 {
            return None;
        }
    }
    None
}

/// `bound - 1` or `bound + 1` (`step`), the bound bracketed unless it binds tighter than the
/// sum (`n`, `a.size()`, `n * m`, `n - k`).
fn moved<'a>(
    tokens: &[Token],
    (from, to): (usize, usize),
    text: &impl Fn(&Token) -> &'a str,
) -> impl Fn(&str, &str) -> String {
    let tight = top_level(tokens, (from, to), text).into_iter().all(|j| {
        let t = text(&tokens[j]);
        match tokens[j].kind {
            Kind::Punct => TIGHT.contains(&t),
            Kind::Word => !["and", "or", "not", "if", "else", "lambda", "as"].contains(&t),
            Kind::Number => true,
        }
    });
    move |bound: &str, step: &str| match tight {
        true => format!("{bound} {step} 1"),
        false => format!("({bound}) {step} 1"),
    }
}

/// A C-family `for (init; i < n; step)` (or Go's, without brackets): its bound moved by one,
/// the way its relational mutant does not (`<` and `>=` down, `<=` and `>` up), when the
/// condition is one comparison and its bound is not a number.
fn for_bound<'a>(
    source: &[u8],
    tokens: &[Token],
    i: usize,
    text: &impl Fn(&Token) -> &'a str,
) -> Vec<Edit> {
    let header = match tokens.get(i + 1).map(text) {
        Some("(") => closing(tokens, i + 1, text).map(|close| (i + 2, close)),
        // Go's header runs to its block.
        _ => (i + 1..tokens.len())
            .find(|&j| text(&tokens[j]) == "{")
            .map(|open| (i + 1, open)),
    };
    let Some(header) = header else {
        return vec![];
    };
    let top = top_level(tokens, header, text);
    let semicolons: Vec<usize> = top
        .iter()
        .copied()
        .filter(|&j| text(&tokens[j]) == ";")
        .collect();
    let [first, second] = semicolons[..] else {
        return vec![];
    };
    let condition = top_level(tokens, (first + 1, second), text);
    let relational: Vec<usize> = condition
        .iter()
        .copied()
        .filter(|&j| ["<", "<=", ">", ">="].contains(&text(&tokens[j])))
        .collect();
    let plain = condition
        .iter()
        .all(|&j| !["&&", "||", "?", ",", "=", "and", "or"].contains(&text(&tokens[j])));
    let [at] = relational[..] else {
        return vec![];
    };
    let bound = (at + 1, second);
    let number = bound.1 == bound.0 + 1 && tokens[bound.0].kind == Kind::Number;
    if !plain || bound.1 == bound.0 || number {
        return vec![];
    }
    let step = match text(&tokens[at]) {
        "<" | ">=" => "-",
        _ => "+",
    };
    let moved = moved(tokens, bound, text);
    let span = (tokens[at].end, tokens[second].start);
    around(source, &tokens[at + 1], span, Operator::LoopBound, |b| {
        moved(b, step)
    })
    .into_iter()
    .collect()
}

/// Python's `range(stop)`, `range(start, stop)` or `range(start, stop, step)`: its stop moved
/// down and up by one, when it is not a number.
fn range_bound<'a>(
    source: &[u8],
    tokens: &[Token],
    i: usize,
    text: &impl Fn(&Token) -> &'a str,
) -> Vec<Edit> {
    let method = i > 0 && [".", "def"].contains(&text(&tokens[i - 1]));
    if method || tokens.get(i + 1).map(text) != Some("(") {
        return vec![];
    }
    let Some(close) = closing(tokens, i + 1, text) else {
        return vec![];
    };
    let commas: Vec<usize> = top_level(tokens, (i + 2, close), text)
        .into_iter()
        .filter(|&j| text(&tokens[j]) == ",")
        .collect();
    let stop = match commas[..] {
        [] => (i + 2, close),
        [first] | [first, _] => (first + 1, commas.get(1).copied().unwrap_or(close)),
        _ => return vec![],
    };
    let starred = tokens.get(stop.0).map(text) == Some("*");
    let number = stop.1 == stop.0 + 1 && tokens[stop.0].kind == Kind::Number;
    if stop.1 <= stop.0 || starred || number {
        return vec![];
    }
    let moved = moved(tokens, stop, text);
    let span = (tokens[stop.0 - 1].end, tokens[stop.1].start);
    ["-", "+"]
        .into_iter()
        .filter_map(|step| {
            around(source, &tokens[stop.0], span, Operator::LoopBound, |b| {
                moved(b, step)
            })
        })
        .collect()
}

/// Rust's range `a..b` made `a..=b`, and `a..=b` made `a..b`: only a range with both ends
/// (`x[1..]` and a struct's `..rest` have no other).
fn rust_range<'a>(tokens: &[Token], i: usize, text: &impl Fn(&Token) -> &'a str) -> Vec<Edit> {
    let joined = |a: usize, b: usize| tokens.get(b).is_some_and(|t| t.start == tokens[a].end);
    let is = |j: usize, what: &str| tokens.get(j).is_some_and(|t| text(t) == what);
    let starts = i == 0 || !(is(i - 1, ".") && joined(i - 1, i));
    if !starts || !is(i + 1, ".") || !joined(i, i + 1) || (is(i + 2, ".") && joined(i + 1, i + 2)) {
        return vec![];
    }
    let operand_before = i > 0
        && match tokens[i - 1].kind {
            Kind::Word | Kind::Number => true,
            Kind::Punct => matches!(text(&tokens[i - 1]), ")" | "]"),
        };
    let inclusive = is(i + 2, "=") && joined(i + 1, i + 2);
    let last = if inclusive { i + 2 } else { i + 1 };
    let operand_after = tokens
        .get(last + 1)
        .is_some_and(|t| t.kind != Kind::Punct || text(t) == "(");
    if !operand_before || !operand_after {
        return vec![];
    }
    vec![Edit {
        operator: Operator::LoopBound,
        start: tokens[i].start,
        end: tokens[last].end,
        line: tokens[i].line,
        column: tokens[i].column,
        replacement: if inclusive { ".." } else { "..=" }.to_string(),
    }]
}

/// An `if`'s condition negated: C family `if (c)` to `if (!(c))`, Rust `if c {` to
/// `if !(c) {`, Python `if c:` (or `elif`) to `if not (c):`. Not a condition that declares
/// (C++'s `if (int x = f(); x)`, Rust's `if let`), nor Python's `x if c else y`.
fn negated<'a>(
    source: &[u8],
    tokens: &[Token],
    i: usize,
    family: Family,
    text: &impl Fn(&Token) -> &'a str,
) -> Vec<Edit> {
    let span = match family {
        Family::C => {
            if tokens.get(i + 1).map(text) != Some("(") {
                return vec![];
            }
            let Some(close) = closing(tokens, i + 1, text) else {
                return vec![];
            };
            let declares = top_level(tokens, (i + 2, close), text)
                .iter()
                .any(|&j| text(&tokens[j]) == ";")
                || tokens
                    .get(i + 2)
                    .is_some_and(|t| ["auto", "int", "long", "const"].contains(&text(t)));
            (!declares).then(|| (tokens[i + 1].end, tokens[close].start))
        }
        Family::Rust => ending(tokens, i, &["{", ";", "let"], text)
            .filter(|&j| text(&tokens[j]) == "{" && j > i + 1)
            .map(|j| (tokens[i].end, tokens[j].start)),
        Family::Python => {
            let first_on_line = i == 0 || tokens[i - 1].line != tokens[i].line;
            ending(tokens, i, &[":", "lambda"], text)
                .filter(|&j| first_on_line && text(&tokens[j]) == ":" && j > i + 1)
                .map(|j| (tokens[i].end, tokens[j].start))
        }
    };
    let negate = |c: &str| match family {
        Family::C => format!("!({c})"),
        Family::Rust => format!("!({c})"),
        Family::Python => format!("not ({c})"),
    };
    span.and_then(|span| around(source, &tokens[i], span, Operator::Logical, negate))
        .into_iter()
        .collect()
}
