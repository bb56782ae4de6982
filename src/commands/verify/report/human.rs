//! The human report: a block per problem, then the closing lines.

use std::fmt::Write as _;

use anyhow::Result;

use super::{ProblemReport, Status, Totals};
use crate::commands::verify::outcome::Row;
use crate::commands::verify::results::seconds;
use crate::escape::{visible, visible_line};
use crate::reporting::print as emit;

/// Cases named in the CAUGHT BY column; the rest are counted (all with `-v`).
const CASES_SHOWN: usize = 3;

pub fn print(reports: &[ProblemReport], totals: &Totals, verbose: bool) -> Result<()> {
    for report in reports {
        emit(&block(report, verbose))?;
    }
    emit(&closing(reports, totals))
}

fn block(report: &ProblemReport, verbose: bool) -> String {
    let mut text = format!(
        "{} ({})\n",
        visible_line(&report.name),
        visible_line(&report.origin)
    );
    for warning in &report.warnings {
        let _ = writeln!(text, "  warning: {}", visible_line(warning));
    }
    let _ = writeln!(text, "  build: {}", report.build);
    let _ = writeln!(text, "  validation: {}", visible_line(&report.validation));
    let _ = writeln!(text, "  time limit: {}", report.time_limit);
    if !report.rows.is_empty() {
        text += &table(&report.rows, verbose);
    }
    for error in &report.errors {
        let _ = writeln!(text, "  error: {}", visible(error));
    }
    for what in &report.unchecked {
        let _ = writeln!(text, "  not checked: {}", visible_line(what));
    }
    let judged = report.rows.iter().filter(|r| r.ok.is_some()).count();
    let wrong = report.rows.iter().filter(|r| r.ok == Some(false)).count();
    let state = match report.status() {
        Status::Valid => "valid",
        Status::Invalid => "INVALID",
        Status::NotVerified => "NOT VERIFIED",
    };
    let _ = writeln!(
        text,
        "  {}: package {state}; {judged} of {} submissions judged, {} as expected\n",
        visible_line(&report.name),
        report.rows.len(),
        judged - wrong
    );
    text
}

/// The submission table, with the lines explaining each unexpected or unjudged one below it.
fn table(rows: &[Row], verbose: bool) -> String {
    let width = rows
        .iter()
        .map(|r| r.submission.chars().count())
        .max()
        .unwrap_or(0)
        .max(10);
    let language = rows
        .iter()
        .map(|r| r.language.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut text = format!(
        "  {:<width$}  {:<language$}  {:<7}  {:<8}  {:>8}  CAUGHT BY\n",
        "SUBMISSION", "LANG", "VERDICT", "EXPECTED", "SLOWEST"
    );
    for row in rows {
        let mark = match (row.ok, &row.judge_error) {
            (Some(true), _) => "ok",
            (Some(false), _) => "UNEXPECTED",
            (None, Some(_)) => "judge error",
            (None, None) => "skipped",
        };
        let slowest = row
            .slowest
            .as_ref()
            .map_or("-".to_string(), |(_, time)| seconds(*time));
        let _ = writeln!(
            text,
            "  {:<width$}  {:<language$}  {:<7}  {:<8}  {slowest:>8}  {}  [{mark}]",
            visible_line(&row.submission),
            row.language,
            row.verdict.as_deref().unwrap_or("-"),
            row.expected_short,
            caught_by(row, verbose),
        );
    }
    for row in rows {
        let name = visible_line(&row.submission);
        if let Some(problem) = &row.problem {
            let _ = writeln!(text, "  ✗ {name}: {}", visible_line(problem));
            if let Some((case, verdict, Some(message))) = row.caught_by.first() {
                let _ = writeln!(
                    text,
                    "      first failure {case} ({verdict}): {}",
                    visible_line(message)
                );
            }
            if let Some(message) = &row.compile_error {
                let first = message
                    .lines()
                    .take(5)
                    .collect::<Vec<_>>()
                    .join("\n        ");
                let _ = writeln!(text, "      {}", visible(&first));
            }
        }
        if let Some(why) = &row.skipped {
            let _ = writeln!(text, "  - {name}: {}", visible_line(why));
        }
        if let Some(why) = &row.judge_error {
            let _ = writeln!(text, "  ! {name}: judge error: {}", visible_line(why));
        }
    }
    text
}

/// `3 of 23: large/a WA, edge/b WA, edge/c RE, +2 more`, or `-`.
fn caught_by(row: &Row, verbose: bool) -> String {
    if row.caught_by.is_empty() {
        return "-".into();
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
    format!("{}: {}", row.caught_by.len(), parts.join(", "))
}

fn closing(reports: &[ProblemReport], totals: &Totals) -> String {
    let mut text = String::new();
    for error in &totals.unreadable {
        let _ = writeln!(text, "error: {}", visible(error));
    }
    if totals.judge_errors > 0 {
        let _ = writeln!(
            text,
            "error: {} program(s) could not be built because of the host (judge errors above, \
             not the programs' fault): the verification is incomplete",
            totals.judge_errors
        );
    }
    let count = |status| reports.iter().filter(|r| r.status() == status).count();
    let unverified = match count(Status::NotVerified) {
        0 => String::new(),
        n => format!(", {n} not verified"),
    };
    let submissions: usize = reports.iter().map(|r| r.rows.len()).sum();
    let _ = writeln!(
        text,
        "Verified {} problem(s) ({} invalid{unverified}{}) and {submissions} submission(s) in {}.",
        reports.len(),
        count(Status::Invalid),
        if totals.unreadable.is_empty() {
            String::new()
        } else {
            format!(", {} unreadable", totals.unreadable.len())
        },
        seconds(totals.wall_time)
    );
    if totals.cancelled {
        text += "Cancelled (Ctrl-C): the packages were not verified.\n";
    }
    let mut line = format!("{} passed, {} failed", totals.passed, totals.failed);
    if totals.skipped > 0 {
        line += &format!(", {} skipped", totals.skipped);
    }
    text + &line + "\n"
}
