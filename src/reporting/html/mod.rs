//! `--html FILE`: one self-contained HTML page of a run of `check`, `verify` or `mutants`, for
//! people to look at (a summary; per problem the submissions × cases matrix coloured by verdict,
//! with each run's CPU time against the limit; which cases catch each wrong submission and which
//! catch none; the failures' details on click; or, of `mutants`, the score, the survivors and
//! every mutant's fate: `mutants.rs`). Made only from the events, as every reporter is, so a
//! report merged from shards' events gets the same page.
//!
//! This module collects what the page shows as the events arrive ([`Collected`]), keeping the
//! failure details only up to a budget ([`DETAILS_KEPT`]) so a run of many failures holds no
//! more than that; `page.rs` renders it, within the page's own bounds; `detail.rs` makes a failed
//! case's detail; `markup.rs` escapes what goes in. The file is written once, at the end of the
//! run (a Ctrl-C still writes it, marked cancelled), where its [`Destination`] allows.

mod contest;
mod detail;
mod markup;
mod mutants;
mod page;

use std::collections::BTreeMap;
use std::time::Duration;

pub use detail::failure_detail;
use detail::DETAIL_BYTES;

use super::contest::ContestTable;
use super::events::{Detail, Event, Finished, RunKind};
use super::findings::lines;
use super::mutated::{MutantRow, MutationRun, MutationTally};
use super::unit::within;
use super::verified::{CaseCell, SubmissionRow};
use super::{Destination, ReportError, Reporter, Summary};
use crate::judging::CaseResult;

/// The most bytes of failure details kept for the page, all failures together: the page shows
/// no more than that anyway (see `page.rs`), so a run of many failures holds no more.
const DETAILS_KEPT: usize = 3 << 20;

pub struct HtmlReporter {
    destination: Destination,
    /// `check`'s time limit of each problem, as its run's start says.
    time_limits: BTreeMap<String, Duration>,
    collected: Collected,
    /// Bytes of failure details still to be kept.
    details_left: usize,
}

/// What the page shows, as the events told it.
#[derive(Debug, Default)]
struct Collected {
    /// `check` or `verify`.
    command: &'static str,
    /// The packages that could not be verified, each with why.
    unreadable: Vec<(String, String)>,
    problems: Vec<Problem>,
    /// `verify`'s contest table, gathered as every report gathers it.
    contest: ContestTable,
    /// Failure details not kept, the budget spent.
    details_dropped: usize,
    cancelled: bool,
    /// A `mutants` run's mutants, the page's only content then.
    mutants: Option<Mutated>,
}

/// The mutants of a `mutants` run, as judged, and their tally.
#[derive(Debug)]
struct Mutated {
    run: MutationRun,
    rows: Vec<MutantRow>,
    tally: MutationTally,
}

/// A problem as the page shows it.
#[derive(Debug, Default)]
struct Problem {
    name: String,
    /// The time limit the runs are held to, when known.
    time_limit: Option<Duration>,
    /// The time limit and where it comes from, in words (`verify`).
    limit_text: Option<String>,
    /// `verify`'s submissions, or `check`'s one subject (a row per subject).
    rows: Vec<Row>,
    /// `verify`'s finding of the package: its status and the lines saying why.
    status: Option<(&'static str, Vec<String>)>,
}

/// A submission of `verify`, or the subject `check` judged, with its cases.
#[derive(Debug, Default)]
struct Row {
    subject: String,
    /// What it must get (`verify`).
    expected: Option<String>,
    /// What it got: its first failing case's verdict, or CE.
    got: Option<String>,
    /// Whether that is what it must get (`verify`); `None` when not judged.
    ok: Option<bool>,
    /// Why it is not as expected, was not judged, or did not compile.
    note: Option<String>,
    cells: Vec<CaseCell>,
}

impl HtmlReporter {
    /// A reporter writing to `destination`.
    pub fn new(destination: Destination) -> Self {
        HtmlReporter {
            destination,
            time_limits: BTreeMap::new(),
            collected: Collected::default(),
            details_left: DETAILS_KEPT,
        }
    }

    /// The problem named `name`, made when it is new (a problem's units come together: it is
    /// the last one, or a new one).
    fn problem(&mut self, name: &str) -> &mut Problem {
        let problems = &mut self.collected.problems;
        if problems.last().is_none_or(|last| last.name != name) {
            problems.push(Problem {
                name: name.to_string(),
                time_limit: self.time_limits.get(name).copied(),
                ..Problem::default()
            });
        }
        problems.last_mut().expect("just made")
    }

    /// The detail `make` makes of a failure, while the budget of details lasts: once fewer
    /// bytes are left than a detail may take, no more is made (nor kept).
    fn keep(&mut self, make: impl FnOnce() -> Option<String>) -> Option<String> {
        if self.details_left < DETAIL_BYTES {
            self.collected.details_dropped += 1;
            return None;
        }
        let detail = make()?;
        self.details_left = self.details_left.saturating_sub(detail.len());
        Some(detail)
    }

    fn case(&mut self, result: &CaseResult, subject: &str) {
        let cell = CaseCell {
            case: within(&result.case.problem, &result.case.id).to_string(),
            verdict: Some(result.verdict),
            time: result.time,
            message: result.message.clone(),
            detail: match result.verdict.passed() {
                true => None,
                false => self.keep(|| failure_detail(result)),
            },
        };
        let problem = self.problem(&result.case.problem);
        if problem.rows.last().is_none_or(|row| row.subject != subject) {
            problem.rows.push(Row {
                subject: subject.to_string(),
                ..Row::default()
            });
        }
        problem.rows.last_mut().expect("just made").cells.push(cell);
    }

    fn submission(&mut self, row: &SubmissionRow) {
        let mut cells = row.runs.clone();
        for cell in cells.iter_mut().filter(|cell| cell.detail.is_some()) {
            let detail = cell.detail.take();
            cell.detail = self.keep(|| detail);
        }
        let note = (row.unexpected.clone())
            .or_else(|| row.skipped.as_ref().map(ToString::to_string))
            .or_else(|| row.judge_error.clone())
            .or_else(|| row.compile_error.clone());
        let shown = Row {
            subject: row.submission.clone(),
            expected: Some(row.expected_short.clone()),
            got: row.verdict.map(|got| got.to_string()),
            ok: row.ok,
            note,
            cells,
        };
        self.problem(&row.problem).rows.push(shown);
    }

    fn write(&self, summary: &Summary) -> Result<(), ReportError> {
        let html = page::render(&self.collected, summary);
        self.destination
            .write(html.as_bytes())
            .map_err(|error| ReportError::Html {
                path: self.destination.path.clone(),
                error,
            })
    }
}

impl Reporter for HtmlReporter {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        match event {
            Event::RunStarted(kind) => {
                self.collected.command = kind.command();
                if let RunKind::Check { time_limits, .. } = kind {
                    self.time_limits.clone_from(time_limits);
                }
                if let RunKind::Mutants(run) = kind {
                    self.collected.mutants = Some(Mutated {
                        run: run.clone(),
                        rows: vec![],
                        tally: MutationTally::default(),
                    });
                }
                self.collected.unreadable = kind
                    .unreadable()
                    .iter()
                    .map(|unreadable| (unreadable.package(), unreadable.to_string()))
                    .collect();
            }
            Event::ProblemStarted(heading) => {
                self.collected.contest.started(heading);
                let limit = heading.time_limit.limit.as_ref().ok().copied();
                let text = heading.time_limit.to_string();
                let problem = self.problem(&heading.name);
                problem.time_limit = limit;
                problem.limit_text = Some(text);
            }
            Event::Finished(Finished { detail, id, .. }) => match detail {
                Detail::Case(result) => self.case(result, id.subject.unwrap_or_default()),
                Detail::Submission(row) => {
                    self.collected.contest.submission(row);
                    self.submission(row);
                }
                Detail::Verified(outcome) => {
                    self.collected.contest.verified(outcome);
                    let status = outcome.status();
                    let mut why = lines(&outcome.errors);
                    why.extend(lines(&outcome.unchecked));
                    let problem = self.problem(&outcome.name);
                    problem.status = Some((status.name(), why));
                    // The limit settled last (a computed one is known only now).
                    problem.time_limit = outcome.time_limit.limit.as_ref().ok().copied();
                    problem.limit_text = Some(outcome.time_limit.to_string());
                }
                Detail::Mutant(row) => {
                    if let Some(mutated) = &mut self.collected.mutants {
                        mutated.tally.add(row);
                        mutated.rows.push((*row).clone());
                    }
                }
                // Only `check`, `verify` and `mutants` write the page.
                Detail::Input { .. }
                | Detail::Validated(_)
                | Detail::Generated(_)
                | Detail::Timed(_)
                | Detail::Tried(_) => {}
            },
            Event::Cancelled => self.collected.cancelled = true,
            Event::RunFinished(summary) => return self.write(summary),
            Event::CaseStarted(_) | Event::Generated(_) | Event::Counterexample(_) => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
