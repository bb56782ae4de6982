//! The score a Kattis output validator (or interactor) gives an accepted case of a scoring
//! problem: `score.txt` (the score itself) or `score_multiplier.txt` (a fraction of the case's
//! maximum score) in its feedback folder. The bytes are the judge's, so they are read with a
//! bound and shown escaped; what the number means for the problem (its group's maximum, whether
//! a score may be given at all) is decided where the scores are added up, not here.

use std::fmt;

/// A score file an accepting judge wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValidatorScore {
    /// `score.txt`: the case's score.
    Score(f64),
    /// `score_multiplier.txt`: the case's score as a fraction of its maximum.
    Multiplier(f64),
}

impl fmt::Display for ValidatorScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidatorScore::Score(score) => write!(f, "{score} ({SCORE})"),
            ValidatorScore::Multiplier(m) => write!(f, "{m} ({MULTIPLIER})"),
        }
    }
}

pub const SCORE: &str = "score.txt";
pub const MULTIPLIER: &str = "score_multiplier.txt";

/// Longest score file read: a number with room for spaces around it.
const SCORE_BYTES: usize = 64;

/// Why a judge's score file cannot be used: a judge error.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ScoreFileError {
    #[error("wrote both {SCORE} and {MULTIPLIER}; one of them at most")]
    Both,
    #[error("wrote {file} but rejected the output; a score belongs to an accepted case only")]
    OnRejection { file: &'static str },
    #[error("wrote {file} of {bytes} bytes; it must hold one number")]
    TooLong { file: &'static str, bytes: usize },
    #[error("wrote {file} holding `{text}`, which is not one non-negative number")]
    NotANumber { file: &'static str, text: String },
}

/// The score among the judge's files (`(name, bytes)` of `score.txt` and
/// `score_multiplier.txt` when it wrote them).
pub fn read(
    score: Option<&[u8]>,
    multiplier: Option<&[u8]>,
) -> Result<Option<ValidatorScore>, ScoreFileError> {
    match (score, multiplier) {
        (Some(_), Some(_)) => Err(ScoreFileError::Both),
        (Some(bytes), None) => number(SCORE, bytes).map(|s| Some(ValidatorScore::Score(s))),
        (None, Some(bytes)) => {
            number(MULTIPLIER, bytes).map(|m| Some(ValidatorScore::Multiplier(m)))
        }
        (None, None) => Ok(None),
    }
}

/// One finite, non-negative number, spaces around it allowed.
fn number(file: &'static str, bytes: &[u8]) -> Result<f64, ScoreFileError> {
    if bytes.len() > SCORE_BYTES {
        return Err(ScoreFileError::TooLong {
            file,
            bytes: bytes.len(),
        });
    }
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim();
    trimmed
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n >= 0.0)
        // `-0` reads as zero.
        .map(|n| n + 0.0)
        .ok_or_else(|| ScoreFileError::NotANumber {
            file,
            text: crate::escape::visible_line(trimmed).into_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_number_in_one_file() {
        assert_eq!(read(None, None), Ok(None));
        assert_eq!(
            read(Some(b" 42.5\n"), None),
            Ok(Some(ValidatorScore::Score(42.5)))
        );
        assert_eq!(
            read(None, Some(b"0.25")),
            Ok(Some(ValidatorScore::Multiplier(0.25)))
        );
        assert_eq!(read(Some(b"1"), Some(b"1")), Err(ScoreFileError::Both));
    }

    #[test]
    fn anything_else_is_refused_and_shown_escaped() {
        for text in ["", "-1", "nan", "inf", "1 2", "12abc"] {
            assert!(
                matches!(
                    read(Some(text.as_bytes()), None),
                    Err(ScoreFileError::NotANumber { .. })
                ),
                "{text:?}"
            );
        }
        let error = read(Some(b"\x1b[31m7"), None).unwrap_err().to_string();
        assert!(error.contains("\\x1b[31m7"), "{error}");
        assert!(!error.contains('\x1b'));
        assert_eq!(
            read(Some(&[b'1'; 65]), None),
            Err(ScoreFileError::TooLong {
                file: SCORE,
                bytes: 65
            })
        );
    }
}
