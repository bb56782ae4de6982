//! DOMjudge's `@EXPECTED_RESULTS@: ` tag: a line in a submission's source naming, after the
//! tag, the verdicts it may get, comma-separated (`// @EXPECTED_RESULTS@: CORRECT, TIMELIMIT`).
//! DOMjudge takes `@EXPECTED_SCORE@: ` as the same tag, unless a number follows it: that is a
//! score, which grundy leaves out with a warning.
//! DOMjudge's jury submissions and BAPCtools' mixed ones carry it; this module finds and reads
//! it, and [`super::submissions`] decides when it counts.
//!
//! As DOMjudge and BAPCtools read it: the tag is matched ignoring case, with the one space after
//! the colon; its verdicts run to the end of the line, each trimmed. Every file of the
//! submission is looked at (a folder's files in name order; a tag in a `.txt` beside the source
//! counts). Only the first [`SCAN_BYTES`] of each file are read: a tag is a comment near the top,
//! and a package's files are untrusted. A tag DOMjudge cannot read (two in one submission, a word
//! that is no verdict, an empty one) is [`TagError::Refused`]: DOMjudge refuses that submission,
//! and its own example package holds such submissions for that very check, so the submission is
//! left out and the rest of the package is read (BAPCtools would take the first of two tags).

use std::io::Read;

use super::expectations::{Verdict, Verdicts};
use super::yaml::Diagnostic;
use crate::escape::visible_line;
use crate::files::beneath::TreePath;

/// How much of each file is searched for the tag.
pub const SCAN_BYTES: u64 = 64 * 1024;

const TAG: &[u8] = b"@EXPECTED_RESULTS@: ";
/// DOMjudge's other spelling of the tag: verdicts as [`TAG`]'s, or a number, the score a
/// scoring problem's submission expects.
const SCORE_TAG: &[u8] = b"@EXPECTED_SCORE@: ";

/// A tag, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Tag {
    /// Where it is, for messages: `sol.c:3:4`.
    pub origin: String,
    /// The run verdicts it allows, in the format's vocabulary.
    pub verdicts: Verdicts,
    /// `COMPILER-ERROR` is among them.
    pub compile_error: bool,
}

/// Why a submission's tag was not read.
#[derive(Debug)]
pub enum TagError {
    /// A file of the submission could not be read, as any unreadable file of a package.
    Unreadable(Diagnostic),
    /// The tag is one DOMjudge refuses the submission for, at its place.
    Refused(Diagnostic),
}

/// One word of a tag.
#[derive(Debug, PartialEq)]
enum Word {
    Verdict(Verdict),
    CompileError,
    /// `CHECK-MANUALLY`: a human looks; nothing grundy can check.
    CheckManually,
}

/// DOMjudge's result names and the format's long names (which BAPCtools also takes), upper case.
/// DOMjudge's `memory-limit` and `output-limit` are run-time errors in the format (an overrun of
/// either is one here); `no-output` is a wrong answer, as BAPCtools reads it.
fn word(text: &str) -> Option<Word> {
    use Verdict::*;
    Some(match text {
        "CORRECT" | "ACCEPTED" => Word::Verdict(AC),
        "WRONG-ANSWER" | "WRONG_ANSWER" | "NO-OUTPUT" | "NO_OUTPUT" => Word::Verdict(WA),
        "TIMELIMIT" | "TIME_LIMIT_EXCEEDED" => Word::Verdict(TLE),
        "RUN-ERROR" | "RUN_TIME_ERROR" | "MEMORY-LIMIT" | "OUTPUT-LIMIT" | "OUTPUT_LIMIT" => {
            Word::Verdict(RTE)
        }
        "COMPILER-ERROR" | "COMPILER_ERROR" => Word::CompileError,
        "CHECK-MANUALLY" => Word::CheckManually,
        _ => return None,
    })
}

/// Where the tag of one file is: the byte just after it, and its line and column (1-based).
struct Found {
    /// Which of the two tags it is.
    tag: &'static [u8],
    after: usize,
    line: usize,
    column: usize,
}

/// The first tag (of either spelling) in `bytes` at or after `from`.
fn find(bytes: &[u8], from: usize) -> Option<Found> {
    let at = |tag: &'static [u8]| {
        let found = bytes
            .get(from..)?
            .windows(tag.len())
            .position(|w| w.eq_ignore_ascii_case(tag))?;
        Some((found + from, tag))
    };
    let (start, tag) = [at(TAG), at(SCORE_TAG)].into_iter().flatten().min()?;
    let line = bytes[..start].iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = bytes[..start]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    Some(Found {
        tag,
        after: start + tag.len(),
        line,
        column: start - line_start + 1,
    })
}

/// Whether a score tag's text is a number (a score), not verdicts: digits, with a sign, a
/// point or an exponent.
fn is_score(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_digit()) && text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// The first [`SCAN_BYTES`] of `file`, read through one open.
fn head(file: &TreePath) -> Result<Vec<u8>, TagError> {
    let mut bytes = Vec::new();
    file.open()
        .map_err(|e| TagError::Unreadable(e.into()))?
        .take(SCAN_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            TagError::Unreadable(Diagnostic::file(
                file.path(),
                format!("cannot read it: {e}"),
            ))
        })?;
    Ok(bytes)
}

/// The tag of the submission made of `files`, if it has one. An unknown verdict, an empty
/// list or a second tag is refused at its place; `CHECK-MANUALLY` is left out with a warning.
pub fn read(files: &[TreePath], warnings: &mut Vec<Diagnostic>) -> Result<Option<Tag>, TagError> {
    let mut tag: Option<Tag> = None;
    for file in files {
        let bytes = head(file)?;
        let mut from = 0;
        while let Some(found) = find(&bytes, from) {
            let located = |column: usize, message: String| Diagnostic {
                file: file.path().to_path_buf(),
                line: found.line,
                column,
                message,
            };
            let refused =
                |column: usize, message: String| TagError::Refused(located(column, message));
            let end = bytes[found.after..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |i| found.after + i);
            let text = String::from_utf8_lossy(&bytes[found.after..end]);
            if found.tag == SCORE_TAG && is_score(text.trim()) {
                // A score beside the verdicts, as DOMjudge takes it: not a second tag.
                warnings.push(located(
                    found.column,
                    format!(
                        "@EXPECTED_SCORE@: {} is a score DOMjudge expects; grundy does not \
                         check it",
                        visible_line(text.trim())
                    ),
                ));
                from = found.after;
                continue;
            }
            if let Some(first) = &tag {
                return Err(refused(
                    found.column,
                    format!(
                        "a second @EXPECTED_RESULTS@ or @EXPECTED_SCORE@ tag in one submission \
                         (the first is at {})",
                        first.origin
                    ),
                ));
            }
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut read = Tag {
                origin: format!("{}:{}:{}", visible_line(&name), found.line, found.column),
                verdicts: Verdicts::new(),
                compile_error: false,
            };
            let mut offset = found.after;
            for piece in bytes[found.after..end].split(|&b| b == b',') {
                let text = String::from_utf8_lossy(piece);
                let trimmed = text.trim();
                let column = found.column
                    + found.tag.len()
                    + (offset - found.after)
                    + (text.len() - text.trim_start().len());
                offset += piece.len() + 1;
                match word(&trimmed.to_ascii_uppercase()) {
                    Some(Word::Verdict(verdict)) => {
                        read.verdicts.insert(verdict);
                    }
                    Some(Word::CompileError) => read.compile_error = true,
                    Some(Word::CheckManually) => warnings.push(located(
                        column,
                        "@EXPECTED_RESULTS@: CHECK-MANUALLY asks for a human's look; grundy \
                         leaves it out"
                            .into(),
                    )),
                    None if trimmed.is_empty() => {
                        return Err(refused(
                            column,
                            "@EXPECTED_RESULTS@: an empty verdict; write verdicts apart by commas"
                                .into(),
                        ))
                    }
                    None => {
                        return Err(refused(
                            column,
                            format!(
                                "@EXPECTED_RESULTS@: `{}` is not a verdict (CORRECT, \
                                 WRONG-ANSWER, TIMELIMIT, RUN-ERROR, NO-OUTPUT, COMPILER-ERROR, \
                                 OUTPUT-LIMIT, MEMORY-LIMIT, or the format's ACCEPTED, \
                                 WRONG_ANSWER, TIME_LIMIT_EXCEEDED, RUN_TIME_ERROR)",
                                visible_line(trimmed)
                            ),
                        ))
                    }
                }
            }
            tag = Some(read);
            from = found.after;
        }
    }
    Ok(tag)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::test_support::{root, tree};

    fn tag_of(files: &[(&str, &str)]) -> (Result<Option<Tag>, TagError>, Vec<Diagnostic>) {
        let dir = tree(files);
        let tree = root(dir.path());
        let paths: Vec<TreePath> = files.iter().map(|(name, _)| tree.join(name)).collect();
        let mut warnings = vec![];
        (read(&paths, &mut warnings), warnings)
    }

    /// Where and why a tag was refused.
    fn refused(tag: Result<Option<Tag>, TagError>) -> Diagnostic {
        match tag {
            Err(TagError::Refused(why)) => why,
            other => panic!("not refused: {other:?}"),
        }
    }

    fn set(verdicts: &[Verdict]) -> Verdicts {
        verdicts.iter().copied().collect()
    }

    #[test]
    fn domjudge_and_format_names_map_to_the_formats_verdicts_ignoring_case() {
        let (tag, _) = tag_of(&[(
            "a.c",
            "/*\n * @expected_results@:  correct,Wrong-Answer , no-output,TIME_LIMIT_EXCEEDED\n */\n",
        )]);
        let tag = tag.unwrap().unwrap();
        assert_eq!(tag.verdicts, set(&[Verdict::AC, Verdict::WA, Verdict::TLE]));
        assert!(!tag.compile_error);
        assert_eq!(tag.origin, "a.c:2:4");
        let (tag, _) = tag_of(&[(
            "b.py",
            "# @EXPECTED_RESULTS@: RUN-ERROR,OUTPUT-LIMIT,COMPILER-ERROR\r\n",
        )]);
        let tag = tag.unwrap().unwrap();
        assert_eq!(tag.verdicts, set(&[Verdict::RTE]));
        assert!(tag.compile_error);
    }

    #[test]
    fn no_tag_is_none_and_the_space_after_the_colon_is_part_of_the_tag() {
        assert_eq!(tag_of(&[("a.c", "int main() {}\n")]).0.unwrap(), None);
        assert_eq!(
            tag_of(&[("a.c", "// @EXPECTED_RESULTS@:CORRECT\n")])
                .0
                .unwrap(),
            None
        );
    }

    #[test]
    fn a_bad_word_is_located_at_its_column() {
        let (tag, _) = tag_of(&[("a.c", "int x;\n// @EXPECTED_RESULTS@: CORRECT, SLOW\n")]);
        let error = refused(tag);
        assert_eq!((error.line, error.column), (2, 33), "{error}");
        assert!(error.message.contains("`SLOW` is not a verdict"), "{error}");
        let (tag, _) = tag_of(&[("a.c", "// @EXPECTED_RESULTS@: \n")]);
        assert!(refused(tag).message.contains("empty verdict"));
    }

    #[test]
    fn any_file_of_a_folder_may_hold_it_but_only_one_tag_is_allowed() {
        let (tag, _) = tag_of(&[
            ("s/main.c", "int main() {}\n"),
            ("s/notes.txt", "@EXPECTED_RESULTS@: WRONG-ANSWER\n"),
        ]);
        assert_eq!(tag.unwrap().unwrap().verdicts, set(&[Verdict::WA]));
        let (tag, _) = tag_of(&[
            ("s/main.c", "// @EXPECTED_RESULTS@: CORRECT\n"),
            ("s/notes.txt", "x\n@EXPECTED_RESULTS@: WRONG-ANSWER\n"),
        ]);
        let error = refused(tag);
        assert_eq!(error.line, 2);
        assert!(
            error.message.contains("(the first is at main.c:1:4)"),
            "{error}"
        );
    }

    #[test]
    fn the_score_tag_names_verdicts_too_unless_it_holds_a_number() {
        let (tag, _) = tag_of(&[("a.py", "# @EXPECTED_SCORE@: CORRECT\n")]);
        assert_eq!(tag.unwrap().unwrap().verdicts, set(&[Verdict::AC]));
        let (tag, warnings) = tag_of(&[(
            "a.c",
            "// @EXPECTED_SCORE@: 30\n// @EXPECTED_RESULTS@: WRONG-ANSWER\n",
        )]);
        assert_eq!(tag.unwrap().unwrap().verdicts, set(&[Verdict::WA]));
        assert_eq!((warnings[0].line, warnings[0].column), (1, 4));
        assert!(
            warnings[0].message.contains("`30`") || warnings[0].message.contains("30 is a score")
        );
        let (tag, _) = tag_of(&[(
            "a.c",
            "// @EXPECTED_RESULTS@: NO-OUTPUT\n// @EXPECTED_SCORE@: NO-OUTPUT\n",
        )]);
        assert_eq!(refused(tag).line, 2);
    }

    #[test]
    fn check_manually_is_left_out_with_a_warning() {
        let (tag, warnings) =
            tag_of(&[("a.c", "// @EXPECTED_RESULTS@: CHECK-MANUALLY, CORRECT\n")]);
        assert_eq!(tag.unwrap().unwrap().verdicts, set(&[Verdict::AC]));
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].column, 24);
    }

    #[test]
    fn only_the_first_scan_bytes_are_read() {
        let mut text = "x".repeat(SCAN_BYTES as usize);
        text.push_str("\n// @EXPECTED_RESULTS@: CORRECT\n");
        assert_eq!(tag_of(&[("a.c", &text)]).0.unwrap(), None);
    }
}
