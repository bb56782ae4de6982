//! Diffs for failed cases: a compact unified diff of expected vs actual output with old and new
//! line numbers and the changed words emphasised, built with `similar` (patience algorithm; line
//! by line when both outputs have as many lines).
//!
//! Outputs can be huge, so only a window around the first differing line is diffed, long lines
//! are cut, and the rendered diff is capped; a note says whenever anything was left out.

use std::borrow::Cow;
use std::time::Duration;

use similar::{Algorithm, ChangeTag, DiffOp, TextDiff};

/// Lines of context before the first difference and around each hunk.
const CONTEXT: usize = 3;
/// Lines of each side diffed, starting a little before the first difference.
const WINDOW: usize = 400;
/// Characters of one line shown.
const LINE_CHARS: usize = 200;
/// Rendered lines and bytes kept before the diff is cut with a note.
const MAX_LINES: usize = 60;
const MAX_BYTES: usize = 4096;

/// A rendered-ready diff: plain data, painted by the reporter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub lines: Vec<DiffLine>,
    /// Why the diff stops short of the whole outputs, when it does.
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffLine {
    /// Starts a hunk: the 1-based line numbers where it begins in each output.
    Hunk {
        expected_line: usize,
        actual_line: usize,
    },
    /// A line present in both, with its numbers on each side.
    Same {
        expected_line: usize,
        actual_line: usize,
        text: String,
    },
    /// A line only in the expected output, as segments (emphasised, text).
    Expected {
        line: usize,
        segments: Vec<(bool, String)>,
    },
    /// A line only in the actual output.
    Actual {
        line: usize,
        segments: Vec<(bool, String)>,
    },
}

/// The diff of `expected` against `actual`, or `None` when their lines are identical.
pub fn diff(expected: &[u8], actual: &[u8]) -> Option<Diff> {
    let expected_text = String::from_utf8_lossy(expected);
    let actual_text = String::from_utf8_lossy(actual);
    let expected_lines: Vec<&str> = expected_text.lines().collect();
    let actual_lines: Vec<&str> = actual_text.lines().collect();
    let first = expected_lines
        .iter()
        .zip(&actual_lines)
        .position(|(e, a)| e != a)
        .unwrap_or(expected_lines.len().min(actual_lines.len()));
    if first == expected_lines.len() && first == actual_lines.len() {
        return None;
    }
    let start = first.saturating_sub(CONTEXT);
    let window = |lines: &[&str]| -> Vec<String> {
        lines
            .iter()
            .skip(start)
            .take(WINDOW)
            .map(|l| cut_line(l))
            .collect()
    };
    let old = window(&expected_lines);
    let new = window(&actual_lines);
    let old_refs: Vec<&str> = old.iter().map(String::as_str).collect();
    let new_refs: Vec<&str> = new.iter().map(String::as_str).collect();
    let text_diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(Duration::from_millis(200))
        .diff_slices(&old_refs, &new_refs);
    // Outputs of as many lines as expected (one answer per line, mostly) are compared line by
    // line: a line-matching diff would pair an expected answer with an unrelated equal one
    // further on, and show answers as moved that are simply wrong.
    let groups = if expected_lines.len() == actual_lines.len() {
        similar::group_diff_ops(line_by_line(&old_refs, &new_refs), CONTEXT)
    } else {
        text_diff.grouped_ops(CONTEXT)
    };

    let mut lines = Vec::new();
    let mut bytes = 0;
    let mut cut = false;
    'hunks: for group in groups {
        let (Some(first_op), true) = (group.first(), lines.len() < MAX_LINES) else {
            cut = true;
            break;
        };
        lines.push(DiffLine::Hunk {
            expected_line: start + first_op.old_range().start + 1,
            actual_line: start + first_op.new_range().start + 1,
        });
        for op in &group {
            for change in replacements_paired(text_diff.iter_inline_changes(op).collect()) {
                if lines.len() >= MAX_LINES || bytes >= MAX_BYTES {
                    cut = true;
                    break 'hunks;
                }
                let segments: Vec<(bool, String)> = change
                    .iter_strings_lossy()
                    .map(|(emphasised, text)| (emphasised, text.into_owned()))
                    .collect();
                bytes += segments.iter().map(|(_, t)| t.len()).sum::<usize>();
                let line = match change.tag() {
                    ChangeTag::Equal => DiffLine::Same {
                        expected_line: start + change.old_index().unwrap_or(0) + 1,
                        actual_line: start + change.new_index().unwrap_or(0) + 1,
                        text: segments.into_iter().map(|(_, t)| t).collect(),
                    },
                    ChangeTag::Delete => DiffLine::Expected {
                        line: start + change.old_index().unwrap_or(0) + 1,
                        segments,
                    },
                    ChangeTag::Insert => DiffLine::Actual {
                        line: start + change.new_index().unwrap_or(0) + 1,
                        segments,
                    },
                };
                lines.push(line);
            }
        }
    }
    let beyond_window =
        expected_lines.len() > start + WINDOW || actual_lines.len() > start + WINDOW;
    let note = (cut || beyond_window).then(|| {
        format!(
            "diff truncated: showing at most {MAX_LINES} lines from line {} on; the expected \
             output has {} lines, the actual output {}",
            start + 1,
            expected_lines.len(),
            actual_lines.len()
        )
    });
    Some(Diff { lines, note })
}

/// The operations of a line-by-line comparison: equal runs, and each differing line replaced by
/// the line at its place.
fn line_by_line(old: &[&str], new: &[&str]) -> Vec<DiffOp> {
    let mut ops: Vec<DiffOp> = vec![];
    for (index, (expected, actual)) in old.iter().zip(new).enumerate() {
        match ops.last_mut() {
            Some(DiffOp::Equal { len, .. }) if expected == actual => *len += 1,
            _ if expected == actual => ops.push(DiffOp::Equal {
                old_index: index,
                new_index: index,
                len: 1,
            }),
            _ => ops.push(DiffOp::Replace {
                old_index: index,
                old_len: 1,
                new_index: index,
                new_len: 1,
            }),
        }
    }
    ops
}

/// The changes of one diff operation, with the lines of a replacement paired up: each expected
/// line is followed by the actual line that replaced it (`-a +a' -b +b'`), so a changed line
/// reads as a replacement rather than a block of removals far from its additions. Other
/// operations keep their order.
fn replacements_paired<T>(
    changes: Vec<similar::InlineChange<'_, T>>,
) -> Vec<similar::InlineChange<'_, T>>
where
    T: similar::DiffableStr + ?Sized,
{
    let (removed, added): (Vec<_>, Vec<_>) = changes
        .into_iter()
        .partition(|change| change.tag() == ChangeTag::Delete);
    if removed.is_empty() || added.is_empty() {
        return removed.into_iter().chain(added).collect();
    }
    let mut paired = Vec::with_capacity(removed.len() + added.len());
    let mut removed = removed.into_iter();
    let mut added = added.into_iter();
    loop {
        match (removed.next(), added.next()) {
            (None, None) => return paired,
            (old, new) => paired.extend(old.into_iter().chain(new)),
        }
    }
}

/// `line` cut to [`LINE_CHARS`] characters with a note, its control characters escaped (it is
/// a program's output, shown on terminals).
fn cut_line(line: &str) -> String {
    let cut = match line.char_indices().nth(LINE_CHARS) {
        Some((at, _)) => Cow::Owned(format!("{}… ({} more bytes)", &line[..at], line.len() - at)),
        None => Cow::Borrowed(line),
    };
    crate::escape::visible(&cut).into_owned()
}

/// Styles for rendering; [`Paint::plain`] for files and logs.
pub struct Paint {
    pub removed: anstyle::Style,
    pub added: anstyle::Style,
    pub emphasis: anstyle::Style,
    pub dim: anstyle::Style,
}

impl Paint {
    pub fn plain() -> Self {
        Paint {
            removed: anstyle::Style::new(),
            added: anstyle::Style::new(),
            emphasis: anstyle::Style::new(),
            dim: anstyle::Style::new(),
        }
    }

    pub fn colored() -> Self {
        use anstyle::{AnsiColor, Effects};
        Paint {
            removed: AnsiColor::Red.on_default(),
            added: AnsiColor::Green.on_default(),
            emphasis: anstyle::Style::new().effects(Effects::BOLD | Effects::UNDERLINE),
            dim: anstyle::Style::new().effects(Effects::DIMMED),
        }
    }
}

impl Diff {
    /// The diff as text: `-` lines are expected, `+` lines are the program's; every line is
    /// prefixed with `indent`.
    pub fn render(&self, paint: &Paint, indent: &str) -> String {
        let mut out = String::new();
        let number =
            |n: Option<usize>| n.map_or_else(|| "     ".to_string(), |n| format!("{n:>5}"));
        for line in &self.lines {
            let (style, sign, old, new, segments): (_, _, _, _, Cow<'_, [(bool, String)]>) =
                match line {
                    DiffLine::Hunk {
                        expected_line,
                        actual_line,
                    } => {
                        out += &format!(
                        "{indent}{}@@ expected line {expected_line}, actual line {actual_line} @@{}\n",
                        paint.dim.render(),
                        paint.dim.render_reset()
                    );
                        continue;
                    }
                    DiffLine::Same {
                        expected_line,
                        actual_line,
                        text,
                    } => (
                        paint.dim,
                        ' ',
                        Some(*expected_line),
                        Some(*actual_line),
                        Cow::Owned(vec![(false, text.clone())]),
                    ),
                    DiffLine::Expected { line, segments } => (
                        paint.removed,
                        '-',
                        Some(*line),
                        None,
                        Cow::Borrowed(segments.as_slice()),
                    ),
                    DiffLine::Actual { line, segments } => (
                        paint.added,
                        '+',
                        None,
                        Some(*line),
                        Cow::Borrowed(segments.as_slice()),
                    ),
                };
            out += &format!(
                "{indent}{} {} │{}{sign}",
                number(old),
                number(new),
                style.render()
            );
            for (emphasised, text) in segments.iter() {
                if *emphasised {
                    let strong = style.effects(paint.emphasis.get_effects());
                    out += &format!(
                        "{}{}{}{}",
                        strong.render(),
                        text,
                        strong.render_reset(),
                        style.render()
                    );
                } else {
                    out += text;
                }
            }
            out += &format!("{}\n", style.render_reset());
        }
        if let Some(note) = &self.note {
            out += &format!("{indent}({note})\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(expected: &str, actual: &str) -> String {
        diff(expected.as_bytes(), actual.as_bytes())
            .expect("outputs differ")
            .render(&Paint::plain(), "")
    }

    #[test]
    fn identical_lines_give_no_diff() {
        assert_eq!(diff(b"a\nb\n", b"a\nb"), None);
    }

    #[test]
    fn shows_numbers_signs_and_context() {
        let text = plain("a\nb\nc\nd\n", "a\nb\nX\nd\n");
        assert!(
            text.contains("@@ expected line 1, actual line 1 @@"),
            "{text}"
        );
        assert!(text.contains("    3       │-c"), "{text}");
        assert!(text.contains("          3 │+X"), "{text}");
        assert!(text.contains("    4     4 │ d"), "{text}");
    }

    #[test]
    fn each_changed_line_is_followed_by_its_replacement() {
        let d = diff(b"a\nb\nc\nd\n", b"a\nB\nC\nD\nE\n").unwrap();
        let signs: Vec<String> = d.lines[1..]
            .iter()
            .map(|line| match line {
                DiffLine::Same { text, .. } => format!(" {text}"),
                DiffLine::Expected { segments, .. } => format!("-{}", segments_text(segments)),
                DiffLine::Actual { segments, .. } => format!("+{}", segments_text(segments)),
                DiffLine::Hunk { .. } => "@@".into(),
            })
            .collect();
        assert_eq!(signs, [" a", "-b", "+B", "-c", "+C", "-d", "+D", "+E"]);
    }

    fn segments_text(segments: &[(bool, String)]) -> String {
        segments.iter().map(|(_, text)| text.as_str()).collect()
    }

    /// `s-nim/edge/many-test-cases` (one answer per line) against an output whose answers are
    /// those of two cases on: every line is wrong, and the diff must say which answer each
    /// expected one got, not pair expected line 3 with actual line 1 because they are equal.
    #[test]
    fn outputs_of_as_many_lines_are_compared_line_by_line() {
        let expected = include_str!("../fixtures/s-nim/edge/many-test-cases.out");
        let lines: Vec<&str> = expected.lines().collect();
        let actual: String = (0..lines.len())
            .map(|i| format!("{}\n", lines[(i + 2) % lines.len()]))
            .collect();
        let d = diff(expected.as_bytes(), actual.as_bytes()).unwrap();
        let mut pairs = vec![];
        for line in &d.lines {
            match line {
                DiffLine::Hunk {
                    expected_line,
                    actual_line,
                } => assert_eq!(expected_line, actual_line, "{d:?}"),
                DiffLine::Same {
                    expected_line,
                    actual_line,
                    ..
                } => assert_eq!(expected_line, actual_line, "{d:?}"),
                DiffLine::Expected { line, segments } => {
                    pairs.push((*line, segments_text(segments), String::new()))
                }
                DiffLine::Actual { line, segments } => {
                    let last = pairs.last_mut().expect("an expected line before");
                    assert_eq!(last.0, *line, "{d:?}");
                    last.2 = segments_text(segments);
                }
            }
        }
        let wanted: Vec<(usize, String, String)> = (0..lines.len())
            .filter(|&i| lines[i] != lines[(i + 2) % lines.len()])
            .map(|i| (i + 1, lines[i].into(), lines[(i + 2) % lines.len()].into()))
            .collect();
        assert_eq!(
            pairs,
            wanted[..pairs.len()],
            "{}",
            d.render(&Paint::plain(), "")
        );
        assert!(pairs.len() >= 3, "{d:?}");
    }

    #[test]
    fn changed_words_are_emphasised_when_painted() {
        let d = diff(b"Yes No Yes\n", b"Yes Yes Yes\n").unwrap();
        let DiffLine::Expected { segments, .. } = &d.lines[1] else {
            panic!("{d:?}")
        };
        assert!(
            segments.iter().any(|(emph, text)| *emph && text == "No"),
            "{segments:?}"
        );
        let colored = d.render(&Paint::colored(), "");
        assert!(colored.contains("\u{1b}["), "{colored}");
        assert!(!d.render(&Paint::plain(), "").contains('\u{1b}'));
    }

    #[test]
    fn huge_outputs_are_windowed_and_capped_with_a_note() {
        let expected: String = (0..100_000).map(|i| format!("{i}\n")).collect();
        let actual: String = (0..100_000).map(|i| format!("{}\n", i + 1)).collect();
        let d = diff(expected.as_bytes(), actual.as_bytes()).unwrap();
        assert!(d.lines.len() <= MAX_LINES + 1);
        let text = d.render(&Paint::plain(), "");
        assert!(text.len() < MAX_BYTES * 3, "{}", text.len());
        assert!(
            d.note.as_deref().unwrap().contains("diff truncated"),
            "{text}"
        );
    }

    #[test]
    fn difference_deep_in_the_output_starts_near_it() {
        let expected: String = (0..5000).map(|i| format!("{i}\n")).collect();
        let actual = expected.replace("\n4000\n", "\nfour thousand\n");
        let text = plain(&expected, &actual);
        assert!(
            text.contains("@@ expected line 3998, actual line 3998 @@"),
            "{text}"
        );
        assert!(text.contains("+four thousand"), "{text}");
    }

    #[test]
    fn long_lines_are_cut() {
        let long = "7 ".repeat(10_000);
        let text = plain(&long, "8");
        assert!(text.contains("more bytes)"), "{}", &text[..200]);
        assert!(text.len() < 2000);
    }
}
