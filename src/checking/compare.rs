//! The comparing checkers: whether a program's output matches the one expected output, and where
//! the first difference is. Comparison works on the bytes as they are; nothing is copied into
//! strings.

use std::fmt;
use std::str::FromStr;

use super::judgement::{Judgement, NameError};

/// How output is compared with the expected output (README, "Checkers and verdicts").
#[derive(Clone, Debug, PartialEq)]
pub enum Comparison {
    /// Whitespace-separated tokens must be equal.
    Tokens,
    /// Tokens, ignoring ASCII case.
    TokensIgnoreCase,
    /// Lines equal after trimming trailing whitespace; trailing blank lines ignored; CRLF = LF.
    Lines,
    /// Bytes equal.
    Exact,
    /// Tokens; numbers equal within an absolute or relative tolerance.
    Float { abs: f64, rel: f64 },
}

impl FromStr for Comparison {
    type Err = NameError;

    fn from_str(name: &str) -> Result<Self, NameError> {
        Ok(match name {
            "tokens" => Comparison::Tokens,
            "tokens-ci" => Comparison::TokensIgnoreCase,
            "lines" => Comparison::Lines,
            "exact" => Comparison::Exact,
            _ => {
                let Some(rest) = name.strip_prefix("float:") else {
                    return Err(NameError::UnknownChecker(name.to_string()));
                };
                let tolerance = |text: Option<&str>| {
                    text.and_then(|t| t.parse::<f64>().ok())
                        .filter(|v| v.is_finite() && *v >= 0.0)
                };
                let mut parts = rest.split(':');
                match (
                    tolerance(parts.next()),
                    tolerance(parts.next()),
                    parts.next(),
                ) {
                    (Some(abs), Some(rel), None) => Comparison::Float { abs, rel },
                    _ => return Err(NameError::Tolerances(name.to_string())),
                }
            }
        })
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Comparison::Tokens => f.write_str("tokens"),
            Comparison::TokensIgnoreCase => f.write_str("tokens-ci"),
            Comparison::Lines => f.write_str("lines"),
            Comparison::Exact => f.write_str("exact"),
            Comparison::Float { abs, rel } => write!(f, "float:{abs}:{rel}"),
        }
    }
}

impl Comparison {
    /// Compares `actual` with `expected`.
    pub fn judge(&self, expected: &[u8], actual: &[u8]) -> Judgement {
        // Equal bytes pass every checker; one memcmp settles the usual case, with no tokenising.
        if expected == actual {
            return Judgement::Accepted;
        }
        let strict = match self {
            Comparison::Tokens => {
                return wrong_unless_none(compare_tokens(expected, actual, same_bytes))
            }
            Comparison::TokensIgnoreCase => {
                return wrong_unless_none(compare_tokens(expected, actual, |a, b| {
                    a.eq_ignore_ascii_case(b)
                }))
            }
            Comparison::Float { abs, rel } => {
                return wrong_unless_none(compare_tokens(expected, actual, |e, a| {
                    numbers_close(e, a, *abs, *rel)
                }))
            }
            Comparison::Lines => compare_lines(expected, actual),
            Comparison::Exact => compare_exact(expected, actual),
        };
        match strict {
            None => Judgement::Accepted,
            Some(layout) => match compare_tokens(expected, actual, same_bytes) {
                None => Judgement::PresentationError(layout),
                Some(tokens) => Judgement::WrongAnswer(tokens),
            },
        }
    }
}

fn wrong_unless_none(difference: Option<String>) -> Judgement {
    difference.map_or(Judgement::Accepted, Judgement::WrongAnswer)
}

fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a == b
}

fn numbers_close(expected: &[u8], actual: &[u8], abs: f64, rel: f64) -> bool {
    let parse = |t: &[u8]| std::str::from_utf8(t).ok()?.parse::<f64>().ok();
    match (parse(expected), parse(actual)) {
        (Some(e), Some(a)) if e.is_finite() && a.is_finite() => {
            let diff = (e - a).abs();
            diff <= abs || diff <= rel * e.abs()
        }
        _ => expected == actual,
    }
}

/// Whitespace-separated tokens with the 1-based line each starts on.
struct Tokens<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Tokens {
            bytes,
            pos: 0,
            line: 1,
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !b.is_ascii_whitespace() {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < self.bytes.len() && !self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        (self.pos > start).then(|| (self.line, &self.bytes[start..self.pos]))
    }
}

/// The first token pair `same` rejects, described; `None` when all tokens match.
fn compare_tokens(
    expected: &[u8],
    actual: &[u8],
    same: impl Fn(&[u8], &[u8]) -> bool,
) -> Option<String> {
    let mut expected_tokens = Tokens::new(expected);
    let mut actual_tokens = Tokens::new(actual);
    for index in 1.. {
        match (expected_tokens.next(), actual_tokens.next()) {
            (None, None) => return None,
            (Some((line, e)), None) => {
                return Some(format!(
                    "output ends early: token {index} should be `{}` (expected line {line}), \
                     found end of output",
                    shown(e)
                ))
            }
            (None, Some((line, a))) => {
                return Some(format!(
                    "extra output: token {index} is `{}` (line {line}) after the expected end",
                    shown(a)
                ))
            }
            (Some((expected_line, e)), Some((actual_line, a))) if !same(e, a) => {
                let place = if expected_line == actual_line {
                    format!("line {actual_line}")
                } else {
                    format!("line {actual_line}, expected line {expected_line}")
                };
                return Some(format!(
                    "token {index} ({place}): expected `{}`, found `{}`",
                    shown(e),
                    shown(a)
                ));
            }
            _ => {}
        }
    }
    unreachable!("the loop returns once either side runs out of tokens")
}

/// Lines with trailing whitespace (and so any CR) trimmed, trailing blank lines dropped.
fn normalised_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii_end())
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

fn compare_lines(expected: &[u8], actual: &[u8]) -> Option<String> {
    let expected = normalised_lines(expected);
    let actual = normalised_lines(actual);
    let first = expected.iter().zip(&actual).position(|(e, a)| e != a);
    match first {
        Some(i) => Some(format!(
            "line {}: expected `{}`, found `{}`",
            i + 1,
            shown(expected[i]),
            shown(actual[i])
        )),
        None if expected.len() > actual.len() => Some(format!(
            "output ends early: line {} should be `{}`, found end of output",
            actual.len() + 1,
            shown(expected[actual.len()])
        )),
        None if actual.len() > expected.len() => Some(format!(
            "extra output: line {} is `{}` after the expected end",
            expected.len() + 1,
            shown(actual[expected.len()])
        )),
        None => None,
    }
}

fn compare_exact(expected: &[u8], actual: &[u8]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let offset = expected
        .iter()
        .zip(actual)
        .position(|(e, a)| e != a)
        .unwrap_or(expected.len().min(actual.len()));
    let line = expected[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
    let byte = |side: &[u8]| {
        side.get(offset).map_or("end of output".to_string(), |b| {
            format!("{:?}", char::from(*b))
        })
    };
    Some(format!(
        "byte {} (line {line}): expected {}, found {}",
        offset + 1,
        byte(expected),
        byte(actual)
    ))
}

/// A token or line for a message: lossy UTF-8, cut at 60 characters.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(60) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(checker: &str, expected: &str, actual: &str) -> Judgement {
        checker
            .parse::<Comparison>()
            .unwrap()
            .judge(expected.as_bytes(), actual.as_bytes())
    }

    #[test]
    fn tokens_ignore_layout_but_not_content() {
        assert_eq!(judge("tokens", "1 2\n3\n", "1\n2 3"), Judgement::Accepted);
        assert_eq!(
            judge("tokens", "Yes\nNo\n", "Yes\nYes\n"),
            Judgement::WrongAnswer("token 2 (line 2): expected `No`, found `Yes`".into())
        );
        assert!(
            matches!(judge("tokens", "a b", "a"), Judgement::WrongAnswer(m) if m.contains("ends early"))
        );
        assert!(
            matches!(judge("tokens", "a", "a b"), Judgement::WrongAnswer(m) if m.contains("extra output"))
        );
        assert_eq!(judge("tokens", "", " \n"), Judgement::Accepted);
    }

    #[test]
    fn tokens_ci_ignores_ascii_case_only() {
        assert_eq!(judge("tokens-ci", "YES no", "yes NO"), Judgement::Accepted);
        assert!(matches!(
            judge("tokens-ci", "yes", "yep"),
            Judgement::WrongAnswer(_)
        ));
        assert!(matches!(
            judge("tokens", "YES", "yes"),
            Judgement::WrongAnswer(_)
        ));
    }

    #[test]
    fn lines_trims_trailing_space_crlf_and_blank_tail() {
        assert_eq!(
            judge("lines", "LWW\nWWL\n", "LWW  \r\nWWL\r\n\n\n"),
            Judgement::Accepted
        );
        assert_eq!(
            judge("lines", "a b\n", "a  b\n"),
            Judgement::PresentationError("line 1: expected `a b`, found `a  b`".into())
        );
        assert!(
            matches!(judge("lines", "a\nb\n", "a\nc\n"), Judgement::WrongAnswer(m) if m.contains("`b`"))
        );
        assert!(
            matches!(judge("lines", "a\nb\n", "a\n"), Judgement::WrongAnswer(m) if m.contains("ends early"))
        );
        assert!(matches!(
            judge("lines", "a b\n", "a\nb\n"),
            Judgement::PresentationError(_)
        ));
    }

    #[test]
    fn exact_is_bytes_with_pe_for_layout() {
        assert_eq!(judge("exact", "x\n", "x\n"), Judgement::Accepted);
        assert_eq!(
            judge("exact", "x\n", "x"),
            Judgement::PresentationError(
                "byte 2 (line 1): expected '\\n', found end of output".into()
            )
        );
        assert!(matches!(
            judge("exact", "x\n", "y\n"),
            Judgement::WrongAnswer(_)
        ));
    }

    #[test]
    fn float_tolerances() {
        assert_eq!(
            judge("float:1e-6:0", "0.5 2", "0.5000001 2.0000000"),
            Judgement::Accepted
        );
        assert!(matches!(
            judge("float:1e-9:0", "0.5", "0.5001"),
            Judgement::WrongAnswer(_)
        ));
        assert_eq!(judge("float:0:1e-3", "1000", "1000.9"), Judgement::Accepted);
        assert!(matches!(
            judge("float:0:1e-3", "1000", "1002"),
            Judgement::WrongAnswer(_)
        ));
        assert!(matches!(
            judge("float:1:1", "nan", "nan"),
            Judgement::Accepted
        ));
        assert!(matches!(
            judge("float:1:1", "win", "lose"),
            Judgement::WrongAnswer(_)
        ));
    }

    #[test]
    fn checker_names_round_trip_and_bad_names_explain() {
        for name in [
            "tokens",
            "tokens-ci",
            "lines",
            "exact",
            "float:0.001:0.0001",
        ] {
            assert_eq!(name.parse::<Comparison>().unwrap().to_string(), name);
        }
        assert!("float:x:1"
            .parse::<Comparison>()
            .unwrap_err()
            .to_string()
            .contains("float:ABS:REL"));
        assert!("float:1".parse::<Comparison>().is_err());
        assert!("float:-1:1".parse::<Comparison>().is_err());
        assert!("fuzzy"
            .parse::<Comparison>()
            .unwrap_err()
            .to_string()
            .contains("unknown checker `fuzzy`"));
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        let long = "x".repeat(500);
        let Judgement::WrongAnswer(message) = judge("tokens", &long, "y") else {
            panic!("expected WA");
        };
        assert!(message.len() < 200 && message.contains('…'), "{message}");
    }
}
