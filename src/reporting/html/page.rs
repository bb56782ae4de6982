//! The page itself, rendered from what was collected (a `mutants` run's by `mutants.rs`): the
//! contest table (`contest.rs`), the
//! summary, then each problem (its matrix; for `verify` the cases catching each submission that
//! must fail, and the cases that catch none), then the failure details, each a `<details>` that opens on a click without any
//! script. The page loads nothing: its style is inline, it has no script, and its content
//! security policy forbids both loading anything and running any script.
//!
//! Bounded: every name and message is cut to a length, every detail to
//! [`super::detail::DETAIL_BYTES`], and each part of the page stops at a mark of the page's size
//! (the matrices first, then the caught-by lists, then the details), saying what it left out, so
//! the page stays under [`PAGE_BYTES`] whatever the run: a contest of 100,000 case results fits
//! whole, matrices and all.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

use super::contest::contest_part;
use super::detail::DETAIL_BYTES;
use super::markup::{line, names, note, short, table_cut, text, LISTED, MESSAGE_CHARS, NAME_CHARS};
use super::mutants::mutants_part;
use super::{Collected, Problem, Row};
use crate::judging::Verdict;
use crate::reporting::verified::CaseCell;
use crate::reporting::{cut, plural, Summary};

/// The most bytes a page takes.
pub const PAGE_BYTES: usize = 5_000_000;
/// Where the page's parts stop, each leaving room for those after it: no matrix row starts
/// past the first mark, no caught-by entry past the second, no detail past the third, no
/// problem's heading past the last.
const MATRICES_END: usize = 3_500_000;
const CAUGHT_END: usize = 3_900_000;
const DETAILS_END: usize = 4_700_000;
const HEADINGS_END: usize = 4_900_000;
/// The most lines of a package's findings shown under its heading.
const FINDING_LINES: usize = 20;
/// The most cases named as catching one submission.
const CAUGHT_SHOWN: usize = 20;
/// The most cases named as catching no submission.
const UNCAUGHT_SHOWN: usize = 50;

const STYLE: &str = include_str!("style.css");

/// The page of `collected`, closed by `summary`.
pub fn render(collected: &Collected, summary: &Summary) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let command = collected.command;
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\
         <meta name=viewport content=\"width=device-width,initial-scale=1\">\
         <meta http-equiv=Content-Security-Policy content=\"default-src 'none'; \
         style-src 'unsafe-inline'\">\
         <title>grundy {command}</title><style>{STYLE}</style></head><body>\n\
         <h1>grundy {command}</h1>\n"
    );
    if let Some(mutated) = &collected.mutants {
        mutants_part(&mut out, mutated, collected.cancelled, summary);
        out += "</body></html>\n";
        return out;
    }
    contest_part(&mut out, collected);
    summary_part(&mut out, collected, summary);
    let check = command == "check";
    for (index, problem) in collected.problems.iter().enumerate() {
        if out.len() > HEADINGS_END {
            let left = collected.problems.len() - index;
            note(
                &mut out,
                &format!("{left} more {} left out", plural(left, "problem")),
            );
            break;
        }
        problem_part(&mut out, index, problem, check);
    }
    details_part(&mut out, collected);
    out += "</body></html>\n";
    debug_assert!(
        out.len() < PAGE_BYTES,
        "the marks leave room for what follows them"
    );
    out
}

/// The class and letters of a cell's verdict: `-` for a case that did not run.
fn verdict_class(verdict: Option<Verdict>) -> String {
    verdict.map_or_else(|| "none".to_string(), |v| v.to_string())
}

fn summary_part(out: &mut String, collected: &Collected, summary: &Summary) {
    out.push_str("<section id=summary>\n");
    if collected.cancelled {
        out.push_str(
            "<p class=cancelled><b>Cancelled</b>: Ctrl-C cut the run short; this page shows \
             what finished before.</p>\n",
        );
    }
    let _ = write!(
        out,
        "<p class=closing>{}</p>\n<table class=counts><tr><th>problems<td>{}</tr>",
        line(&summary.closing_line()),
        collected.problems.len()
    );
    for unit in crate::reporting::Unit::ALL {
        let tally = summary.totals.of(unit);
        let total = tally.passed + tally.failed + tally.skipped;
        if total == 0 {
            continue;
        }
        let _ = write!(
            out,
            "<tr><th>{}<td>{total}: {} passed, {} failed, {} skipped</tr>",
            plural(2, unit.name()),
            tally.passed,
            tally.failed,
            tally.skipped
        );
    }
    let _ = writeln!(
        out,
        "<tr><th>time<td>{}</tr></table>",
        crate::reporting::seconds(summary.wall_time)
    );
    verdict_counts(out, collected);
    if !collected.unreadable.is_empty() {
        out.push_str("<h2>Packages that could not be verified</h2><ul>");
        for (package, why) in collected.unreadable.iter().take(LISTED) {
            let why = cut(why, DETAIL_BYTES, "message");
            let _ = write!(
                out,
                "<li><b>{}</b><pre>{}</pre>",
                short(package, NAME_CHARS),
                text(&why)
            );
        }
        more(out, collected.unreadable.len());
        out.push_str("</ul>\n");
    }
    out.push_str("<nav><h2>Problems</h2><ul>");
    for (index, problem) in collected.problems.iter().enumerate().take(LISTED) {
        let _ = write!(
            out,
            "<li><a href=\"#p{index}\">{}</a>",
            short(&problem.name, NAME_CHARS)
        );
        if let Some((status, _)) = &problem.status {
            let class = status.replace(' ', "-");
            let _ = write!(out, " <span class=\"status {class}\">{status}</span>");
        }
    }
    more(out, collected.problems.len());
    out.push_str("</ul></nav>\n");
    legend(out);
    out.push_str("</section>\n");
}

/// The last item of a list of `count` cut to [`LISTED`]: how many more there are.
fn more(out: &mut String, count: usize) {
    if count > LISTED {
        let _ = write!(out, "<li>… {} more", count - LISTED);
    }
}

/// How many case results got each verdict (and, for `verify`, how many submissions got each
/// verdict), each in its colour.
fn verdict_counts(out: &mut String, collected: &Collected) {
    let mut cases: BTreeMap<String, usize> = BTreeMap::new();
    let mut got: BTreeMap<String, usize> = BTreeMap::new();
    for row in collected.problems.iter().flat_map(|p| &p.rows) {
        for cell in &row.cells {
            *cases.entry(verdict_class(cell.verdict)).or_default() += 1;
        }
        if let Some(verdict) = &row.got {
            *got.entry(verdict.clone()).or_default() += 1;
        }
    }
    let mut counts = |title: &str, id: &str, counts: BTreeMap<String, usize>| {
        if counts.is_empty() {
            return;
        }
        let _ = write!(
            out,
            "<table class=verdicts id={id}><caption>{title}</caption><tr>"
        );
        for (class, count) in &counts {
            let letters = if class == "none" { "not run" } else { class };
            let _ = write!(out, "<td class={class}>{letters} <b>{count}</b>");
        }
        out.push_str("</tr></table>\n");
    };
    counts("case results by verdict", "case-verdicts", cases);
    if collected.command != "check" {
        counts("submissions by verdict", "submission-verdicts", got);
    }
}

fn legend(out: &mut String) {
    out.push_str(
        "<details class=legend><summary>How to read the matrices</summary><p>Each cell is one \
         case of one program: its verdict's letters on its colour (AC accepted, WA wrong \
         answer, PE presentation error, RE run-time error, TLE time limit exceeded, MLE memory \
         limit exceeded, OLE output limit exceeded, NOEXP no expected output, JE judge error; \
         <span class=none>-</span> not run), and under them its CPU time in milliseconds. A \
         cell outlined took over half the time limit. A failed case's details are under \
         <a href=\"#details\">Failure details</a>.</p></details>\n",
    );
}

fn problem_part(out: &mut String, index: usize, problem: &Problem, check: bool) {
    let _ = writeln!(
        out,
        "<section class=problem id=\"p{index}\"><h2>{}</h2>",
        short(&problem.name, NAME_CHARS)
    );
    if let Some((status, why)) = &problem.status {
        let _ = write!(
            out,
            "<p>package: <span class=\"status {}\">{status}</span></p>",
            status.replace(' ', "-")
        );
        if !why.is_empty() {
            out.push_str("<ul class=findings>");
            for finding in why.iter().take(FINDING_LINES) {
                let _ = write!(out, "<li>{}", short(finding, MESSAGE_CHARS));
            }
            if why.len() > FINDING_LINES {
                let _ = write!(out, "<li>… {} more", why.len() - FINDING_LINES);
            }
            out.push_str("</ul>\n");
        }
    }
    let limit = match (&problem.limit_text, problem.time_limit) {
        (Some(text), _) => line(text),
        (None, Some(limit)) => crate::reporting::seconds(limit),
        (None, None) => "none".into(),
    };
    let _ = writeln!(out, "<p>time limit: {limit}</p>");
    if check {
        for row in &problem.rows {
            case_table(out, row, problem.time_limit);
        }
    } else {
        matrix(out, problem);
        caught_by(out, problem);
    }
    out.push_str("</section>\n");
}

/// One cell: the verdict's letters on its colour, the CPU time in milliseconds under them;
/// outlined when over half the time limit.
///
/// One element and one text, the line between letters and time broken by the style
/// (`white-space: pre-line`): a contest's page has 100,000 cells, and Chromium took about twice
/// as long to open it when each cell's time was an element of its own.
fn cell(out: &mut String, cell: &CaseCell, limit: Option<Duration>) {
    let class = verdict_class(cell.verdict);
    if cell.verdict.is_none() {
        out.push_str("<td class=none>-");
        return;
    }
    let near = limit.is_some_and(|limit| cell.time * 2 > limit);
    let ms = cell.time.as_millis();
    match near {
        true => {
            let _ = write!(out, "<td class=\"{class} near\">{class}\n{ms}");
        }
        false => {
            let _ = write!(out, "<td class={class}>{class}\n{ms}");
        }
    }
}

/// `check`'s cases of one subject, a row each.
fn case_table(out: &mut String, row: &Row, limit: Option<Duration>) {
    let _ = writeln!(
        out,
        "<div class=scroll><table class=cases><thead><tr><th>case<th>{}</tr></thead><tbody>",
        short(&row.subject, NAME_CHARS)
    );
    for (index, shown) in row.cells.iter().enumerate() {
        if out.len() > MATRICES_END {
            table_cut(out, row.cells.len() - index, "case");
            return;
        }
        let _ = write!(out, "<tr><th>{}", short(&shown.case, NAME_CHARS));
        cell(out, shown, limit);
        out.push('\n');
    }
    out.push_str("</tbody></table></div>\n");
}

/// `verify`'s submissions × cases: a row per submission (what it must get, what it got, its
/// slowest case against the limit), a column per case (numbered; the names in a list below).
fn matrix(out: &mut String, problem: &Problem) {
    let cases = case_names(problem);
    out.push_str(
        "<div class=scroll><table class=matrix><thead><tr><th>submission<th>expected<th>got\
         <th>slowest",
    );
    for (number, case) in cases.iter().enumerate() {
        let _ = write!(
            out,
            "<th title=\"{}\">{}",
            short(case, NAME_CHARS),
            number + 1
        );
    }
    out.push_str("</tr></thead><tbody>\n");
    for (index, row) in problem.rows.iter().enumerate() {
        if out.len() > MATRICES_END {
            table_cut(out, problem.rows.len() - index, "submission");
            break;
        }
        submission_row(out, row, &cases, problem.time_limit);
    }
    if out.len() <= MATRICES_END {
        out.push_str("</tbody></table></div>\n");
    }
    out.push_str("<details class=case-names><summary>cases</summary><ol>");
    for case in &cases {
        let _ = write!(out, "<li>{}", short(case, NAME_CHARS));
    }
    out.push_str("</ol></details>\n");
}

/// Every case of a problem, in the order its rows have them.
fn case_names(problem: &Problem) -> Vec<&str> {
    let mut names: Vec<&str> = vec![];
    for row in &problem.rows {
        for cell in &row.cells {
            if !names.contains(&cell.case.as_str()) {
                names.push(&cell.case);
            }
        }
        // Every judged row has every case: one is enough, unless it is a short one.
        if !row.cells.is_empty() && names.len() == row.cells.len() {
            break;
        }
    }
    names
}

fn submission_row(out: &mut String, row: &Row, cases: &[&str], limit: Option<Duration>) {
    let state = match row.ok {
        Some(true) => "ok",
        Some(false) => "unexpected",
        None => "unjudged",
    };
    let got = line(row.got.as_deref().unwrap_or("-"));
    let slowest = row.cells.iter().map(|c| c.time).max();
    let slowest = match (slowest, limit) {
        (Some(time), Some(limit)) => format!("{}/{} ms", time.as_millis(), limit.as_millis()),
        (Some(time), None) => format!("{} ms", time.as_millis()),
        (None, _) => "-".into(),
    };
    let _ = write!(
        out,
        "<tr class={state} data-submission=\"{}\"><th>{}<td>{}<td class=\"{}\">{got}<td>{slowest}",
        line(&row.subject),
        short(&row.subject, NAME_CHARS),
        line(row.expected.as_deref().unwrap_or("")),
        got.replace(' ', "-"),
    );
    let by_case: BTreeMap<&str, &CaseCell> =
        row.cells.iter().map(|c| (c.case.as_str(), c)).collect();
    for case in cases {
        match by_case.get(case) {
            Some(shown) => cell(out, shown, limit),
            None => out.push_str("<td>"),
        }
    }
    if let Some(note) = &row.note {
        let _ = write!(
            out,
            "<tr class=note><td colspan={}>{}",
            cases.len() + 4,
            short(note, MESSAGE_CHARS)
        );
    }
    out.push('\n');
}

/// Whether a submission must fail: what must catch it.
fn must_fail(row: &Row) -> bool {
    row.expected
        .as_deref()
        .is_some_and(|expected| !expected.split('/').any(|v| v == "AC"))
}

/// The CAUGHT BY view: each submission that must fail with the cases that catch it, and the
/// cases that catch none of them.
fn caught_by(out: &mut String, problem: &Problem) {
    let wrong: Vec<&Row> = problem.rows.iter().filter(|row| must_fail(row)).collect();
    if wrong.is_empty() {
        return;
    }
    out.push_str("<h3>Caught by</h3><table class=caught><tbody>\n");
    let failed = |cell: &&CaseCell| cell.verdict.is_some_and(|v| !v.passed());
    for row in &wrong {
        if out.len() > CAUGHT_END {
            out.push_str("</tbody></table>");
            note(out, "the rest of the caught-by list left out");
            return;
        }
        let caught: Vec<&CaseCell> = row.cells.iter().filter(failed).collect();
        let _ = write!(out, "<tr><th>{}<td>", short(&row.subject, NAME_CHARS));
        if caught.is_empty() {
            let why = match row.cells.is_empty() {
                true => "no case ran",
                false => "<b>no case catches it</b>",
            };
            out.push_str(why);
        }
        for shown in caught.iter().take(CAUGHT_SHOWN) {
            let verdict = verdict_class(shown.verdict);
            let _ = write!(
                out,
                "<span class={verdict}>{} {verdict}</span> ",
                short(&shown.case, NAME_CHARS)
            );
        }
        if caught.len() > CAUGHT_SHOWN {
            let _ = write!(out, "+{} more", caught.len() - CAUGHT_SHOWN);
        }
        out.push('\n');
    }
    out.push_str("</tbody></table>\n");
    let mut uncaught: Vec<&str> = case_names(problem);
    uncaught.retain(|case| {
        !wrong
            .iter()
            .flat_map(|row| &row.cells)
            .any(|cell| cell.case == *case && failed(&cell))
    });
    let _ = write!(
        out,
        "<p class=uncaught>{} {} no submission that must fail: ",
        uncaught.len(),
        match uncaught.len() {
            1 => "case catches",
            _ => "cases catch",
        }
    );
    names(out, &uncaught, UNCAUGHT_SHOWN);
    out.push_str("</p>\n");
}

/// Each failed case with its message and detail, a `<details>` each, by problem.
fn details_part(out: &mut String, collected: &Collected) {
    out.push_str("<section id=details><h2>Failure details</h2>\n");
    let mut left = 0;
    for problem in &collected.problems {
        let mut heading = false;
        for row in &problem.rows {
            for shown in row
                .cells
                .iter()
                .filter(|c| c.verdict.is_some_and(|v| !v.passed()))
            {
                if out.len() > DETAILS_END {
                    left += 1;
                    continue;
                }
                if !heading {
                    // A section of its own, laid out only when it comes into view (the style's
                    // `content-visibility`): thousands of failures otherwise all are at load.
                    let _ = writeln!(
                        out,
                        "<section class=failures><h3>{}</h3>",
                        short(&problem.name, NAME_CHARS)
                    );
                    heading = true;
                }
                failure(out, row, shown);
            }
        }
        if heading {
            out.push_str("</section>\n");
        }
    }
    if left > 0 {
        note(
            out,
            &format!("{left} more failure {} left out", plural(left, "detail")),
        );
    }
    if collected.details_dropped > 0 {
        let n = collected.details_dropped;
        let what = format!(
            "the diff and stderr of {n} more {} left out",
            plural(n, "failure")
        );
        note(out, &what);
    }
    out.push_str("</section>\n");
}

/// One failure: a `<details>` opening on its diff and output, or, when nothing more than its
/// message was kept, that line alone.
fn failure(out: &mut String, row: &Row, shown: &CaseCell) {
    let verdict = verdict_class(shown.verdict);
    let (open, close) = match shown.detail {
        Some(_) => ("<details class=failure><summary>", "</summary>"),
        None => ("<p class=failure>", "</p>\n"),
    };
    let _ = write!(
        out,
        "{open}<span class={verdict}>{verdict}</span> {} · {}",
        short(&row.subject, NAME_CHARS),
        short(&shown.case, NAME_CHARS)
    );
    if let Some(message) = &shown.message {
        // Not `<q>`: Chromium places each quotation mark by walking the quotes before it, so
        // a page of 10,000 took 20 s to render.
        let _ = write!(
            out,
            ": <span class=q>{}</span>",
            short(message, MESSAGE_CHARS)
        );
    }
    out.push_str(close);
    if let Some(detail) = &shown.detail {
        let detail = text(&cut(detail, DETAIL_BYTES, "detail"));
        let _ = writeln!(out, "<pre>{detail}</pre></details>");
    }
}
