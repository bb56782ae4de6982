//! The format's default output validator (`kattis-default`): the submission's output against the
//! answer file, token by token, with the flags `case_sensitive`, `space_change_sensitive`,
//! `float_tolerance ε`, `float_absolute_tolerance ε` and `float_relative_tolerance ε`.
//!
//! What follows the spec (2025-09, "Default output validator specification"):
//! - Files are bytes; whitespace is space, form feed, line feed, carriage return, horizontal and
//!   vertical tab. By default whitespace only separates tokens; with `space_change_sensitive`
//!   every run of whitespace (leading and trailing included) must equal the answer's byte for byte.
//! - Token counts must agree.
//! - Without `case_sensitive`, ASCII letters compare up to case; nothing else is folded.
//! - With a tolerance set, an answer token that is a float by the spec's grammar
//!   (`[+-]? (d* . d+ | d+ . | d+) ([Ee] [+-]? d+)?`, so integers too) is compared as a number:
//!   the output token must parse by the same grammar and be within the absolute tolerance
//!   (`|s-a| ≤ ε`) or the relative one (`|s-a| ≤ ε|a|`); either suffices. Answer tokens that are
//!   not floats compare as strings. Without a tolerance, numbers are strings.
//! - A tolerance given twice, or `float_tolerance` beside another tolerance, is an error.
//!
//! Where the spec is vague, problemtools' validator decides: `nan`, `inf` and hexadecimal floats
//! are not floats (its parser rejects non-finite values, and the spec's grammar has neither), so in
//! the answer they compare as strings and in the output they fail a numeric comparison; a number
//! too large for a double (`1e400`) is not a float either; tolerances must be finite and not
//! negative.

use super::judgement::Judgement;

/// The flags of the default validator, parsed from `output_validator_args`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub absolute_tolerance: Option<f64>,
    pub relative_tolerance: Option<f64>,
}

impl Options {
    /// Parses validator arguments; an unknown flag, a missing or bad tolerance, or a tolerance set
    /// twice is an error (the package is wrong, not the submission).
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Options, OptionsError> {
        let mut options = Options::default();
        let mut shorthand = false;
        let mut args = args.iter().map(AsRef::as_ref);
        while let Some(arg) = args.next() {
            match arg {
                "case_sensitive" => options.case_sensitive = true,
                "space_change_sensitive" => options.space_change_sensitive = true,
                "float_tolerance" | "float_absolute_tolerance" | "float_relative_tolerance" => {
                    let value = args
                        .next()
                        .ok_or_else(|| OptionsError::NoValue(arg.to_string()))?;
                    let epsilon = parse_float(value.as_bytes())
                        .filter(|e| *e >= 0.0)
                        .ok_or_else(|| OptionsError::BadTolerance {
                            flag: arg.to_string(),
                            value: value.to_string(),
                        })?;
                    let twice = match arg {
                        "float_tolerance" => {
                            let clash = shorthand
                                || options.absolute_tolerance.is_some()
                                || options.relative_tolerance.is_some();
                            shorthand = true;
                            options.absolute_tolerance = Some(epsilon);
                            options.relative_tolerance = Some(epsilon);
                            clash
                        }
                        "float_absolute_tolerance" => {
                            shorthand || options.absolute_tolerance.replace(epsilon).is_some()
                        }
                        _ => shorthand || options.relative_tolerance.replace(epsilon).is_some(),
                    };
                    if twice {
                        return Err(OptionsError::SetTwice(arg.to_string()));
                    }
                }
                other => {
                    let known = [
                        "case_sensitive",
                        "space_change_sensitive",
                        "float_tolerance",
                        "float_absolute_tolerance",
                        "float_relative_tolerance",
                    ];
                    return Err(OptionsError::UnknownFlag {
                        flag: other.to_string(),
                        hint: crate::suggest::did_you_mean(other, known.into_iter()),
                    });
                }
            }
        }
        Ok(options)
    }

    fn uses_floats(&self) -> bool {
        self.absolute_tolerance.is_some() || self.relative_tolerance.is_some()
    }
}

/// Why a package's `output_validator_args` are wrong (the package is at fault, not a submission).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionsError {
    #[error("{0} needs a value")]
    NoValue(String),
    #[error("{flag} must be a non-negative number, found `{value}`")]
    BadTolerance { flag: String, value: String },
    #[error(
        "{0} sets a tolerance that is already set; give each tolerance once, and float_tolerance \
         only alone"
    )]
    SetTwice(String),
    /// `hint`: the did-you-mean after the flag, or nothing.
    #[error("unknown default validator flag `{flag}`{hint}")]
    UnknownFlag { flag: String, hint: String },
}

/// The flags after a space each (` case_sensitive float_absolute_tolerance 1e-6`); nothing for
/// the defaults.
impl std::fmt::Display for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.case_sensitive {
            f.write_str(" case_sensitive")?;
        }
        if self.space_change_sensitive {
            f.write_str(" space_change_sensitive")?;
        }
        match (self.absolute_tolerance, self.relative_tolerance) {
            (Some(a), Some(r)) if a == r => write!(f, " float_tolerance {a}"),
            (a, r) => {
                if let Some(a) = a {
                    write!(f, " float_absolute_tolerance {a}")?;
                }
                if let Some(r) = r {
                    write!(f, " float_relative_tolerance {r}")?;
                }
                Ok(())
            }
        }
    }
}

/// Whether `output` is accepted against `answer` under `options`; a rejection names the first
/// difference by line and column of the output (and the line of the answer).
pub fn validate(answer: &[u8], output: &[u8], options: &Options) -> Judgement {
    let keep_space = options.space_change_sensitive;
    let mut expected = Segments::new(answer, keep_space);
    let mut found = Segments::new(output, keep_space);
    let mut tokens = 0usize;
    loop {
        match (expected.next(), found.next()) {
            (None, None) => return Judgement::Accepted,
            (Some(e), None) => {
                let what = if e.space {
                    format!("whitespace {}", describe_space(e.bytes))
                } else if tokens == 0 {
                    format!("`{}`", show(e.bytes))
                } else {
                    format!("`{}` (after {tokens} matching tokens)", show(e.bytes))
                };
                let empty = if output.is_empty() {
                    " (the output is empty)"
                } else {
                    ""
                };
                return wrong(format!(
                    "the output ends too early{empty}: the answer continues with {what} on its line {}",
                    line_of(answer, e.at)
                ));
            }
            (None, Some(f)) => {
                let what = if f.space {
                    format!("whitespace {}", describe_space(f.bytes))
                } else {
                    format!("`{}`", show(f.bytes))
                };
                return wrong(format!(
                    "{}: trailing output {what} after the answer's end",
                    place(output, f.at)
                ));
            }
            (Some(e), Some(f)) => {
                if e.space || f.space {
                    if e.bytes != f.bytes {
                        return wrong(format!(
                            "{} (answer line {}): whitespace differs: expected {}, found {}",
                            place(output, f.at),
                            line_of(answer, e.at),
                            if e.space {
                                describe_space(e.bytes)
                            } else {
                                format!("`{}`", show(e.bytes))
                            },
                            if f.space {
                                describe_space(f.bytes)
                            } else {
                                format!("`{}`", show(f.bytes))
                            },
                        ));
                    }
                    continue;
                }
                tokens += 1;
                if let Some(problem) = compare_tokens(e.bytes, f.bytes, options) {
                    return wrong(format!(
                        "{} (answer line {}), token {tokens}: {problem}",
                        place(output, f.at),
                        line_of(answer, e.at)
                    ));
                }
            }
        }
    }
}

/// Why two tokens differ, or `None` when they match.
fn compare_tokens(expected: &[u8], found: &[u8], options: &Options) -> Option<String> {
    if options.uses_floats() {
        if let Some(a) = parse_float(expected) {
            let Some(s) = parse_float(found) else {
                return Some(format!(
                    "expected a number like `{}`, found `{}`",
                    show(expected),
                    show(found)
                ));
            };
            let difference = (s - a).abs();
            let absolute_ok = options.absolute_tolerance.is_some_and(|e| difference <= e);
            let relative_ok = options
                .relative_tolerance
                .is_some_and(|e| difference <= e * a.abs());
            if absolute_ok || relative_ok {
                return None;
            }
            let mut allowed = vec![];
            if let Some(e) = options.absolute_tolerance {
                allowed.push(format!("absolute tolerance {e}"));
            }
            if let Some(e) = options.relative_tolerance {
                allowed.push(format!("relative tolerance {e} (here {:e})", e * a.abs()));
            }
            return Some(format!(
                "expected `{}`, found `{}`: they differ by {difference:e}, more than the {}",
                show(expected),
                show(found),
                allowed.join(" and the ")
            ));
        }
    }
    let equal = if options.case_sensitive {
        expected == found
    } else {
        expected.eq_ignore_ascii_case(found)
    };
    let case = if !equal && !options.case_sensitive {
        " (ignoring case)"
    } else {
        ""
    };
    (!equal).then(|| {
        format!(
            "expected `{}`, found `{}`{case}",
            show(expected),
            show(found)
        )
    })
}

/// A number by the spec's float grammar, finite as a double; anything else is `None`.
pub fn parse_float(token: &[u8]) -> Option<f64> {
    let digits = |bytes: &[u8], from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = usize::from(matches!(token.first(), Some(b'+' | b'-')));
    let whole_end = digits(token, i);
    let mut any_digits = whole_end > i;
    i = whole_end;
    if token.get(i) == Some(&b'.') {
        let fraction_end = digits(token, i + 1);
        any_digits |= fraction_end > i + 1;
        i = fraction_end;
    }
    if !any_digits {
        return None;
    }
    if matches!(token.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(token.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exponent_end = digits(token, j);
        if exponent_end == j {
            return None;
        }
        i = exponent_end;
    }
    if i != token.len() {
        return None;
    }
    let text = std::str::from_utf8(token).ok()?;
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The format's whitespace bytes (note: vertical tab counts, unlike in `u8::is_ascii_whitespace`).
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\x0c' | b'\n' | b'\r' | b'\t' | b'\x0b')
}

/// A token or a run of whitespace, with its byte offset.
struct Segment<'a> {
    bytes: &'a [u8],
    at: usize,
    space: bool,
}

/// The segments of a file in order; whitespace runs only when they matter.
struct Segments<'a> {
    data: &'a [u8],
    at: usize,
    keep_space: bool,
}

impl<'a> Segments<'a> {
    fn new(data: &'a [u8], keep_space: bool) -> Self {
        Segments {
            data,
            at: 0,
            keep_space,
        }
    }
}

impl<'a> Iterator for Segments<'a> {
    type Item = Segment<'a>;

    fn next(&mut self) -> Option<Segment<'a>> {
        loop {
            let start = self.at;
            let first = *self.data.get(start)?;
            let space = is_space(first);
            let length = self.data[start..]
                .iter()
                .take_while(|&&b| is_space(b) == space)
                .count();
            self.at = start + length;
            if !space || self.keep_space {
                return Some(Segment {
                    bytes: &self.data[start..self.at],
                    at: start,
                    space,
                });
            }
        }
    }
}

fn wrong(message: String) -> Judgement {
    Judgement::WrongAnswer(message)
}

fn line_of(data: &[u8], at: usize) -> usize {
    data[..at].iter().filter(|&&b| b == b'\n').count() + 1
}

/// `line L, column C` of the output.
fn place(data: &[u8], at: usize) -> String {
    let line_start = data[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    format!("line {}, column {}", line_of(data, at), at - line_start + 1)
}

/// A token for a message: lossy UTF-8, cut at 60 characters.
fn show(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

/// Whitespace for a message: `"\n"`, `" "`, `"\t\t"`.
fn describe_space(bytes: &[u8]) -> String {
    let shown: String = bytes
        .iter()
        .map(|&b| match b {
            b' ' => " ".to_string(),
            b'\n' => "\\n".to_string(),
            b'\r' => "\\r".to_string(),
            b'\t' => "\\t".to_string(),
            other => format!("\\x{other:02x}"),
        })
        .collect();
    format!("\"{shown}\"")
}

#[cfg(test)]
#[path = "default_validator_tests.rs"]
mod tests;
