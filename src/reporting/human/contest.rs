//! The contest table as text: a column per thing the table says of a problem, each as wide as
//! its widest cell, the problem's status in colour; printed before `verify`'s closing line.

use std::fmt::Write as _;

use super::{Look, BAD, GOOD, NOTE};
use crate::escape::visible_line;
use crate::reporting::contest::{ContestRow, ContestTable};
use crate::reporting::seconds;
use crate::reporting::verified::{OutputJudge, Status};

const HEADER: [&str; 7] = [
    "LABEL",
    "PROBLEM",
    "CASES",
    "SUBMISSIONS (as expected/all)",
    "VALIDATORS",
    "TIME LIMIT",
    "MISSING",
];

/// The table, a header and a line per problem, then its status in a last column.
pub(super) fn table(table: &ContestTable, look: &Look) -> String {
    let cells: Vec<[String; 7]> = table.rows().iter().map(cells).collect();
    let mut widths = HEADER.map(str::len);
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 7]| {
        let mut text = String::from(" ");
        for (cell, width) in cells.iter().zip(widths) {
            let _ = write!(text, " {cell:<width$} ");
        }
        text
    };
    let mut text = String::from("Contest:\n");
    let _ = writeln!(text, "{}STATUS", line(&HEADER.map(String::from)));
    for (row, cells) in table.rows().iter().zip(&cells) {
        let status = match row.status {
            Some(Status::Valid) => look.paint(GOOD, "valid"),
            Some(Status::Invalid) => look.paint(BAD, "invalid"),
            Some(Status::NotVerified) => look.paint(NOTE, "not verified"),
            None => look.paint(NOTE, "not finished"),
        };
        let _ = writeln!(text, "{}{status}", line(cells));
    }
    text
}

/// A problem's cells, in [`HEADER`]'s order.
fn cells(row: &ContestRow) -> [String; 7] {
    let submissions: Vec<String> = row
        .expected
        .iter()
        .map(|e| format!("{} {}/{}", e.verdicts, e.as_expected, e.submissions))
        .collect();
    let v = &row.validators;
    let output = match v.output {
        OutputJudge::Default => "default output".to_string(),
        other => format!("{} output", other.name()),
    };
    let mut validators = format!("{} input", v.input);
    if v.answer > 0 {
        let _ = write!(validators, ", {} answer", v.answer);
    }
    validators += &format!(", {output}");
    let missing: Vec<String> = row.missing().iter().map(ToString::to_string).collect();
    let or_dash = |text: String| match text.is_empty() {
        true => "-".to_string(),
        false => text,
    };
    [
        or_dash(row.label.clone().unwrap_or_default()),
        visible_line(&row.problem).into_owned(),
        or_dash(visible_line(&row.cases()).into_owned()),
        or_dash(submissions.join(", ")),
        validators,
        time_limit(row),
        or_dash(missing.join(", ")),
    ]
}

/// `1s (AC ≤ 0.12s, TLE ≥ 2s)`: the limit, the slowest accepted run and the fastest run over
/// it, the room on either side.
fn time_limit(row: &ContestRow) -> String {
    let Some(limit) = row.time_limit else {
        return "none".into();
    };
    let mut around = vec![];
    if let Some(accepted) = row.slowest_accepted {
        around.push(format!("AC ≤ {}", seconds(accepted)));
    }
    if let Some(too_slow) = row.fastest_too_slow {
        around.push(format!("TLE ≥ {}", seconds(too_slow)));
    }
    match around.is_empty() {
        true => seconds(limit),
        false => format!("{} ({})", seconds(limit), around.join(", ")),
    }
}
