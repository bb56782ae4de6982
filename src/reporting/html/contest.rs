//! The contest table at the top of the page (when the run's reports show one: a contest, or
//! several problems): a row per problem, as [`crate::reporting::contest`] gathered it for every
//! report, each problem's label (its name when it has none) linking to its section below.

use std::fmt::Write;

use super::markup::{short, LISTED, MESSAGE_CHARS, NAME_CHARS};
use super::Collected;
use crate::reporting::contest::ContestRow;

const HEADER: &str = "<tr><th>label<th>problem<th>cases<th>submissions (as expected/all)\
                      <th>validators<th>time limit<th>missing<th>status</tr>";

/// The table, when the run shows one.
pub(super) fn contest_part(out: &mut String, collected: &Collected) {
    let table = &collected.contest;
    if !table.shown() {
        return;
    }
    let _ = writeln!(
        out,
        "<section id=contest><h2>Contest</h2><div class=scroll><table class=contest>\
         <thead>{HEADER}</thead><tbody>"
    );
    for row in table.rows().iter().take(LISTED) {
        let section = collected
            .problems
            .iter()
            .position(|p| p.name == row.problem);
        problem_row(out, row, section);
    }
    if let Some(left) = table
        .rows()
        .len()
        .checked_sub(LISTED)
        .filter(|left| *left > 0)
    {
        let _ = writeln!(out, "<tr><td colspan=8>… {left} more</tr>");
    }
    out.push_str("</tbody></table></div></section>\n");
}

/// One problem's row; `section` the index of its section, when it has one.
fn problem_row(out: &mut String, row: &ContestRow, section: Option<usize>) {
    let name = short(&row.problem, NAME_CHARS);
    let label = row.label.as_deref().map(|label| short(label, NAME_CHARS));
    let link = |text: &str| match section {
        Some(index) => format!("<a href=\"#p{index}\">{text}</a>"),
        None => text.to_string(),
    };
    let (label, name) = match label {
        Some(label) => (link(&label), name),
        None => ("-".to_string(), link(&name)),
    };
    let cell = |text: String| match text.is_empty() {
        true => "-".to_string(),
        false => short(&text, MESSAGE_CHARS),
    };
    let short_of = row.expected.iter().any(|e| e.as_expected < e.submissions);
    let missing: Vec<String> = row.missing().iter().map(ToString::to_string).collect();
    let status = row.status.map_or("not finished", |status| status.name());
    let _ = writeln!(
        out,
        "<tr><th>{label}<td>{name}<td>{}<td{}>{}<td>{}<td>{}<td{}>{}\
         <td class=\"status {}\">{status}</tr>",
        cell(row.cases()),
        if short_of { " class=unexpected" } else { "" },
        cell(row.submissions()),
        cell(row.validators()),
        cell(row.time_limit()),
        if missing.is_empty() {
            ""
        } else {
            " class=missing"
        },
        cell(missing.join(", ")),
        status.replace(' ', "-"),
    );
}
