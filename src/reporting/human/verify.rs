//! `verify`'s human view, streamed: a problem's heading (warnings, build, validation, time limit
//! and the table's header), then a row per submission as it is reported, then what the problem's
//! verification found and its state; after the last problem, the closing lines.
//!
//! A row starts with a mark: `✓` it got what it must, `✗` it did not, `-` it was not judged, `!`
//! the host failed to build it; the rows marked `✗`, `-` and `!` are explained on the lines
//! below them, with the same mark.
//!
//! Rows fit the width: the columns are sized once per problem from its submissions' names, a
//! name too long for its column is cut in the middle (`wrong_ans…_xor.cpp`), and a CAUGHT BY
//! list that does not fit on the row goes on an indented line below it, wrapped between cases.
//! The lines that explain a row and the problem's errors are sentences a reader searches for, so
//! they are printed whole, indented under what they explain.

use std::fmt::Write as _;

use super::{verdict_style, Look, Verbosity, BAD, GOOD, JUDGE, NOTE};
use crate::escape::{visible, visible_line};
use crate::reporting::contest::ContestTable;
use crate::reporting::findings::Unreadable;
use crate::reporting::fit::{ellipsize, wrap};
use crate::reporting::verified::{Got, ProblemHeading, ProblemOutcome, Status, SubmissionRow};
use crate::reporting::{left_out_lines, seconds, Summary};

/// Cases named in the CAUGHT BY column; the rest are counted (all with `-v`).
const CASES_SHOWN: usize = 3;
/// The narrowest name column (`SUBMISSION`) and the widest language column.
const NAME_MIN: usize = 10;
const LANGUAGE_MAX: usize = 12;
/// Width of the row but the name and language: the indent, the mark, the separators and the
/// VERDICT, EXPECTED and SLOWEST columns.
const FIXED: usize = 2 + 2 + 4 * 2 + 7 + 8 + 8;
/// Room kept on a row for `  CAUGHT BY`.
const CAUGHT_MIN: usize = 11;
/// Indent of the lines under a row.
const UNDER: &str = "      ";

/// The columns of one problem's table.
#[derive(Clone, Copy, Debug, Default)]
struct Table {
    name: usize,
    language: usize,
}

impl Table {
    /// Columns for `heading`'s submissions, names cut to leave the other columns room in
    /// `width`.
    fn of(heading: &ProblemHeading, width: usize) -> Table {
        let widest = |texts: &mut dyn Iterator<Item = usize>| texts.max().unwrap_or(0);
        let language = widest(&mut heading.submissions.iter().map(|(_, l)| l.chars().count()))
            .clamp(4, LANGUAGE_MAX);
        let room = width.saturating_sub(FIXED + language + CAUGHT_MIN);
        let names = heading
            .submissions
            .iter()
            .map(|(name, _)| visible_line(name).chars().count());
        let name = widest(&mut names.into_iter())
            .max(NAME_MIN)
            .min(room.max(NAME_MIN));
        Table { name, language }
    }

    /// The width of a row up to and with its SLOWEST column.
    fn fixed(&self) -> usize {
        FIXED + self.name + self.language
    }

    fn header(&self) -> String {
        let (name, language) = (self.name, self.language);
        format!(
            "    {:<name$}  {:<language$}  {:<7}  {:<8}  {:>8}  CAUGHT BY\n",
            "SUBMISSION", "LANG", "VERDICT", "EXPECTED", "SLOWEST"
        )
    }
}

/// The problem being reported, and the run's counts.
pub(super) struct VerifyView {
    unreadable: Vec<Unreadable>,
    /// `--explain`: each reason's evidence under it.
    explain: bool,
    table: Table,
    /// Of the problem being reported: submissions, judged ones, judged not as expected.
    rows: usize,
    judged: usize,
    wrong: usize,
    /// Every problem's state, and every submission, reported so far.
    states: Vec<Status>,
    submissions: usize,
    /// The contest table, gathered as problems report.
    contest: ContestTable,
}

impl VerifyView {
    pub(super) fn new(unreadable: &[Unreadable], explain: bool) -> VerifyView {
        VerifyView {
            unreadable: unreadable.to_vec(),
            explain,
            table: Table::default(),
            rows: 0,
            judged: 0,
            wrong: 0,
            states: Vec::new(),
            submissions: 0,
            contest: ContestTable::default(),
        }
    }

    pub(super) fn problem_started(&mut self, heading: &ProblemHeading, look: &Look) -> String {
        (self.rows, self.judged, self.wrong) = (0, 0, 0);
        self.contest.started(heading);
        self.table = Table::of(heading, look.width);
        let mut text = format!(
            "{} ({})\n",
            visible_line(&heading.name),
            visible_line(&heading.origin)
        );
        for warning in &heading.warnings {
            text += &note(look, "warning", &warning.to_string());
        }
        // `-q`: a problem's errors and its closing line only.
        if look.verbosity == Verbosity::Quiet {
            return text;
        }
        let _ = writeln!(text, "  build: {}", heading.build);
        let _ = writeln!(text, "  validation: {}", visible_line(&heading.validation));
        let _ = writeln!(text, "  time limit: {}", heading.time_limit);
        if !heading.submissions.is_empty() {
            text += &self.table.header();
        }
        text
    }

    pub(super) fn submission_finished(&mut self, row: &SubmissionRow, look: &Look) -> String {
        self.rows += 1;
        self.submissions += 1;
        self.contest.submission(row);
        self.judged += usize::from(row.ok.is_some());
        self.wrong += usize::from(row.ok == Some(false));
        if look.verbosity == Verbosity::Quiet {
            return String::new();
        }
        let table = self.table;
        let (name, language) = (table.name, table.language);
        let verdict = row.verdict.map_or("-".to_string(), |got| got.to_string());
        let verdict = look.paint(got_style(row.verdict), &format!("{verdict:<7}"));
        let slowest = row
            .slowest
            .as_ref()
            .map_or("-".to_string(), |(_, time)| seconds(*time));
        let mut text = format!(
            "  {} {:<name$}  {:<language$}  {verdict}  {:<8}  {slowest:>8}",
            mark(row, look),
            ellipsize(&visible_line(&row.submission), name),
            ellipsize(&row.language, language),
            ellipsize(&row.expected_short, 8),
        );
        let caught = caught_by(row, look.verbosity == Verbosity::Verbose);
        let on_one_line = caught.join(" ");
        let on_the_row = table.fixed() + 2 + on_one_line.chars().count() <= look.width;
        match (on_one_line.as_str(), on_the_row) {
            ("-", false) => text.push('\n'),
            (_, true) => {
                let _ = writeln!(text, "  {on_one_line}");
            }
            (_, false) => {
                text.push('\n');
                let units = ["caught", "by"]
                    .into_iter()
                    .chain(caught.iter().map(String::as_str));
                text += &wrap(units, look.width, UNDER);
            }
        }
        if let Some(score) = &row.score {
            text += &wrap(score.words().iter().map(String::as_str), look.width, UNDER);
        }
        text + &explained(row, look, self.explain)
    }

    pub(super) fn problem_finished(&mut self, outcome: &ProblemOutcome, look: &Look) -> String {
        self.contest.verified(outcome);
        let mut text = String::new();
        for warning in &outcome.judging_warnings {
            text += &note(look, "warning", &warning.to_string());
        }
        for error in &outcome.errors {
            let error = error.to_string();
            let _ = writeln!(text, "  {}: {}", look.paint(BAD, "error"), visible(&error));
        }
        for what in &outcome.unchecked {
            text += &note(look, "not checked", &what.to_string());
        }
        let status = outcome.status();
        self.states.push(status);
        let state = match status {
            Status::Valid => look.paint(GOOD, "valid"),
            Status::Invalid => look.paint(BAD.effects(anstyle::Effects::BOLD), "INVALID"),
            Status::NotVerified => look.paint(NOTE.effects(anstyle::Effects::BOLD), "NOT VERIFIED"),
        };
        let _ = writeln!(
            text,
            "  {}: package {state}; {} of {} submissions judged, {} as expected\n",
            visible_line(&outcome.name),
            self.judged,
            self.rows,
            self.judged - self.wrong
        );
        text
    }

    pub(super) fn finish(&self, summary: &Summary, cancelled: bool, look: &Look) -> String {
        let mut text = String::new();
        if self.contest.shown() {
            text += &super::contest::table(&self.contest, look);
        }
        for error in &self.unreadable {
            let error = error.to_string();
            let _ = writeln!(text, "{}: {}", look.paint(BAD, "error"), visible(&error));
        }
        if summary.judge_errors > 0 {
            let _ = writeln!(
                text,
                "{}: {} program(s) could not be built because of the host (judge errors above, \
                 not the programs' fault): the verification is incomplete",
                look.paint(BAD, "error"),
                summary.judge_errors
            );
        }
        let count = |status| self.states.iter().filter(|s| **s == status).count();
        let unverified = match count(Status::NotVerified) {
            0 => String::new(),
            n => format!(", {n} not verified"),
        };
        let unreadable = match self.unreadable.len() {
            0 => String::new(),
            n => format!(", {n} unreadable"),
        };
        let _ = writeln!(
            text,
            "Verified {} problem(s) ({} invalid{unverified}{unreadable}) and {} submission(s) in \
             {}.",
            self.states.len(),
            count(Status::Invalid),
            self.submissions,
            seconds(summary.wall_time)
        );
        if let Some((bucket, selected)) = &summary.partition {
            let _ = writeln!(
                text,
                "Bucket {bucket} held {} of the {selected} submission(s) selected.",
                self.submissions
            );
        }
        for line in left_out_lines(&summary.left_out) {
            let _ = writeln!(text, "{line}");
        }
        if cancelled {
            text += "Cancelled (Ctrl-C): what is not reported above was not verified.\n";
        }
        text + &summary.closing_line() + "\n"
    }
}

/// The mark of a row, in its colour.
fn mark(row: &SubmissionRow, look: &Look) -> String {
    match (row.ok, &row.judge_error) {
        (Some(true), _) => look.paint(GOOD, "✓"),
        (Some(false), _) => look.paint(BAD.effects(anstyle::Effects::BOLD), "✗"),
        (None, Some(_)) => look.paint(JUDGE, "!"),
        (None, None) => look.paint(NOTE, "-"),
    }
}

/// `  warning: ...`, the label in the note colour.
fn note(look: &Look, label: &str, text: &str) -> String {
    format!("  {}: {}\n", look.paint(NOTE, label), visible_line(text))
}

/// The colour of what a submission got: a verdict's own, a compile error's as a failure's.
fn got_style(got: Option<Got>) -> anstyle::Style {
    match got {
        Some(Got::Verdict(verdict)) => verdict_style(verdict),
        Some(Got::CompileError) => verdict_style(crate::judging::Verdict::RE),
        None => anstyle::Style::new(),
    }
}

/// The lines under a row: why it is unexpected (with its first failure or the compiler's
/// first lines, and its likely reason, with the evidence when `explain`), why it was skipped,
/// or its judge error.
fn explained(row: &SubmissionRow, look: &Look, explain: bool) -> String {
    let mut text = String::new();
    let name = visible_line(&row.submission);
    if let Some(problem) = &row.unexpected {
        let mark = look.paint(BAD, "✗");
        let _ = writeln!(text, "    {mark} {name}: {}", visible_line(problem));
        if let Some((case, verdict, Some(message))) = row.caught_by.first() {
            let _ = writeln!(
                text,
                "{UNDER}first failure {case} ({verdict}): {}",
                visible_line(message)
            );
        }
        if let Some(message) = &row.compile_error {
            for line in message.lines().take(5) {
                let _ = writeln!(text, "{UNDER}  {}", visible_line(line));
            }
        }
    }
    if let Some(reason) = &row.reason {
        let _ = writeln!(
            text,
            "{UNDER}likely because: {}",
            visible_line(&reason.to_string())
        );
        if explain {
            let _ = writeln!(text, "{UNDER}evidence ({}):", reason.kind.name());
            for line in reason.evidence_lines() {
                let _ = writeln!(text, "{UNDER}  {line}");
            }
        }
    }
    if let Some(why) = &row.skipped {
        let _ = writeln!(text, "    - {name}: {}", visible_line(&why.to_string()));
    }
    if let Some(why) = &row.judge_error {
        let mark = look.paint(JUDGE, "!");
        let _ = writeln!(
            text,
            "    {mark} {name}: judge error: {}",
            visible_line(why)
        );
    }
    text
}

/// `23: large/a WA, edge/b WA, edge/c RE, +20 more`, or `-`, in the units it may be wrapped
/// between (`23:`, `large/a WA,`, ...).
fn caught_by(row: &SubmissionRow, verbose: bool) -> Vec<String> {
    if row.caught_by.is_empty() {
        return vec!["-".into()];
    }
    let shown = if verbose { usize::MAX } else { CASES_SHOWN };
    let mut parts: Vec<String> = row
        .caught_by
        .iter()
        .take(shown)
        .map(|(case, verdict, _)| format!("{} {verdict}", visible_line(case)))
        .collect();
    let more = row.caught_by.len().saturating_sub(shown);
    if more > 0 {
        parts.push(format!("+{more} more"));
    }
    let last = parts.len() - 1;
    let items = parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| match i == last {
            true => part,
            false => part + ",",
        });
    std::iter::once(format!("{}:", row.caught_by.len()))
        .chain(items)
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::judging::Verdict;
    use crate::reporting::{Event, Finished, HumanReporter, Reporter, RunKind, Unit};

    fn heading() -> ProblemHeading {
        ProblemHeading {
            name: "sum".into(),
            origin: "contest/sum".into(),
            build: "2 program(s): 2 built".into(),
            validation: "2 inputs: ok".into(),
            time_limit: crate::model::TimeLimit::fixed(
                std::time::Duration::from_secs(1),
                crate::model::Fixed::Package("problem.yaml"),
            ),
            submissions: vec![
                ("accepted/sum.py".into(), "Python 3".into()),
                (
                    format!("wrong_answer/{}.py", "long_".repeat(12)),
                    "C++".into(),
                ),
            ],
            ..ProblemHeading::default()
        }
    }

    fn rows() -> Vec<SubmissionRow> {
        let heading = heading();
        let accepted = SubmissionRow {
            submission: heading.submissions[0].0.clone(),
            language: "Python 3".into(),
            verdict: Some(Got::Verdict(Verdict::AC)),
            expected_short: "AC".into(),
            ok: Some(true),
            slowest: Some(("secret/1".into(), Duration::from_millis(120))),
            ..SubmissionRow::default()
        };
        let caught = (1..=5)
            .map(|i| (format!("secret/group/{i}"), Verdict::WA, None))
            .collect();
        let wrong = SubmissionRow {
            submission: heading.submissions[1].0.clone(),
            language: "C++".into(),
            verdict: Some(Got::Verdict(Verdict::WA)),
            expected_short: "AC".into(),
            ok: Some(false),
            caught_by: caught,
            unexpected: Some("expected AC, got WA".into()),
            ..SubmissionRow::default()
        };
        vec![accepted, wrong]
    }

    fn render(color: bool, width: usize) -> String {
        let mut out = Vec::new();
        let mut reporter = HumanReporter::new(&mut out, color, Verbosity::Normal, width);
        let kind = RunKind::Verify {
            unreadable: vec![],
            explain: false,
        };
        reporter.report(&Event::RunStarted(&kind)).unwrap();
        reporter.report(&Event::ProblemStarted(&heading())).unwrap();
        for row in rows() {
            let row = Event::Finished(Finished::submission(&row));
            reporter.report(&row).unwrap();
        }
        let outcome = ProblemOutcome {
            name: "sum".into(),
            errors: vec![crate::reporting::findings::Fault::InvalidAccepted(
                "invalid_input/a".into(),
            )],
            ..ProblemOutcome::default()
        };
        let outcome = Event::Finished(Finished::verified(&outcome));
        reporter.report(&outcome).unwrap();
        let summary = Summary {
            unit: Unit::Submission,
            passed: 1,
            failed: 1,
            ..Summary::default()
        };
        reporter.report(&Event::RunFinished(&summary)).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_wide_table_has_every_name_whole_and_its_cases_on_the_row() {
        let text = render(false, 200);
        let row = text
            .lines()
            .find(|l| l.contains("wrong_answer/long_"))
            .unwrap();
        assert!(row.contains(&heading().submissions[1].0), "{text}");
        assert!(row.starts_with("  ✗ wrong_answer/long_"), "{text}");
        let caught = "  5: secret/group/1 WA, secret/group/2 WA, secret/group/3 WA, +2 more";
        assert!(row.ends_with(caught), "{text}");
        assert!(text.contains("    ✗ wrong_answer/long_"), "{text}");
        assert!(text.contains("  sum: package INVALID; 2 of 2 submissions judged, 1 as expected\n"));
        assert!(text.ends_with(
            "Verified 1 problem(s) (1 invalid) and 2 submission(s) in 0s.\n1 submission as \
             expected, 1 not\n"
        ));
        assert!(!text.contains('\u{1b}'), "no colour unless asked");
    }

    #[test]
    fn a_narrow_table_cuts_names_and_moves_the_cases_below_the_row() {
        let text = render(false, 80);
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("    SUBMISSION"))
            .take_while(|l| !l.starts_with("    ✗"))
            .collect();
        assert_eq!(table.len(), 5, "{text}");
        for line in &table {
            assert!(line.chars().count() <= 80, "{line:?} is over 80 columns");
        }
        assert!(table[2].contains('…') && table[2].ends_with(" -"), "{text}");
        assert!(
            table[3].starts_with("      caught by 5: secret/group/1 WA"),
            "{text}"
        );
    }

    #[test]
    fn colour_marks_verdicts_results_and_states() {
        let text = render(true, 100);
        let green = anstyle::AnsiColor::Green.on_default().render().to_string();
        assert!(text.contains(&format!("{green}✓")), "{text:?}");
        assert!(text.contains("INVALID\u{1b}[0m"), "{text:?}");
    }
}
