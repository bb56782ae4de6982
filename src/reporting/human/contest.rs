//! The contest table as text: a column per thing the table says of a problem, each as wide as
//! its widest cell, the problem's status in colour; printed before `verify`'s closing line.

use std::fmt::Write as _;

use super::{Look, BAD, GOOD, NOTE};
use crate::escape::visible_line;
use crate::reporting::contest::{ContestRow, ContestTable};
use crate::reporting::verified::Status;

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
    let missing: Vec<String> = row.missing().iter().map(ToString::to_string).collect();
    let or_dash = |text: String| match text.is_empty() {
        true => "-".to_string(),
        false => text,
    };
    [
        or_dash(visible_line(row.label.as_deref().unwrap_or_default()).into_owned()),
        visible_line(&row.problem).into_owned(),
        or_dash(visible_line(&row.cases()).into_owned()),
        or_dash(visible_line(&row.submissions()).into_owned()),
        row.validators(),
        row.time_limit(),
        or_dash(missing.join(", ")),
    ]
}
