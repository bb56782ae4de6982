//! Human output, a view per command over the one stream, with one palette: verdicts and states
//! in colour only when asked (`--color`, `NO_COLOR` and a terminal, decided by the command
//! line), the same colour for the same verdict in `check` and `verify`.
//!
//! `check` ([`check`]) prints at three status levels like cargo-nextest's: `-q` only the final
//! lines (`Judged ...` and `N passed, M failed`); the default adds every failure with its message
//! and diff as it is reached in sorted order, a per-problem table and the slow cases; `-v` adds a
//! line for every passing case with its time and peak memory. `verify` ([`verify`]) prints a
//! block per problem, streamed: its heading, then a table row per submission as soon as all its
//! cases are judged, fitted to the width, then what the problem's verification found.
//! `validate` ([`validate`]) prints a line per input that is not what its group wants and a
//! package's findings, then how many inputs were validated. `mutants` ([`mutants`]) prints the
//! mutation score, the survivors and which cases kill.

mod check;
mod contest;
pub(super) mod list;
mod mutants;
mod stress;
mod timelimit;
mod validate;
mod verify;

use std::io::Write;

use super::events::{Detail, Event, Finished, RunKind};
use super::{plural, LostReport, ReportError, Reporter};
use crate::diffing::Paint;
use crate::judging::Verdict;
use check::CheckView;
use mutants::MutantsView;
use stress::StressView;
use verify::VerifyView;

/// How much is printed: `-q` only the final lines, default failures and summary, `-v` every case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    Quiet,
    Normal,
    Verbose,
}

/// How the text looks: coloured or not, how much of it, how wide.
#[derive(Clone, Copy, Debug)]
struct Look {
    color: bool,
    verbosity: Verbosity,
    /// The width rows are fitted to.
    width: usize,
}

impl Look {
    /// `text` in `style`, or plain without colour.
    fn paint(&self, style: anstyle::Style, text: &str) -> String {
        if self.color {
            format!("{}{text}{}", style.render(), style.render_reset())
        } else {
            text.to_string()
        }
    }

    /// How diffs are painted.
    fn diff(&self) -> Paint {
        if self.color {
            Paint::colored()
        } else {
            Paint::plain()
        }
    }
}

/// The colour of a verdict, in every human report.
fn verdict_style(verdict: Verdict) -> anstyle::Style {
    use anstyle::{AnsiColor, Effects};
    let color = match verdict {
        Verdict::AC => AnsiColor::Green,
        Verdict::NOEXP => AnsiColor::Yellow,
        Verdict::JE => AnsiColor::Magenta,
        _ => AnsiColor::Red,
    };
    color.on_default().effects(Effects::BOLD)
}

/// The colours of a good state, a bad one, one to look at and a judge error.
const GOOD: anstyle::Style = anstyle::AnsiColor::Green.on_default();
const BAD: anstyle::Style = anstyle::AnsiColor::Red.on_default();
const NOTE: anstyle::Style = anstyle::AnsiColor::Yellow.on_default();
const JUDGE: anstyle::Style = anstyle::AnsiColor::Magenta.on_default();

pub struct HumanReporter<W: Write> {
    out: W,
    look: Look,
    /// The view of the command that runs (`check`'s until a run says otherwise).
    view: View,
    cancelled: bool,
}

/// What each command's report keeps of the stream.
enum View {
    Check(CheckView),
    Verify(VerifyView),
    /// `validate`: how many inputs are deliberately invalid.
    Validate {
        deliberate: usize,
    },
    /// `generate` and `timelimit`: a package's report is its block, and the run has no more,
    /// unless Ctrl-C cut it short; what was not done then.
    Packages {
        undone: &'static str,
    },
    Stress(StressView),
    Mutants(MutantsView),
}

impl View {
    fn of(kind: &RunKind) -> View {
        match kind {
            RunKind::Check { .. } => View::Check(CheckView::default()),
            RunKind::Verify {
                unreadable,
                explain,
            } => View::Verify(VerifyView::new(unreadable, *explain)),
            RunKind::Validate { deliberate } => View::Validate {
                deliberate: *deliberate,
            },
            RunKind::Generate => View::Packages {
                undone: "the data of what is not reported above was not all generated",
            },
            RunKind::Timelimit { .. } => View::Packages {
                undone: "what is not reported above was not timed",
            },
            RunKind::Stress(run) => View::Stress(StressView::new(run)),
            RunKind::Mutants(run) => View::Mutants(MutantsView::new(run)),
        }
    }
}

impl<W: Write> HumanReporter<W> {
    /// Prints to `out`, in colour when `color`, fitting rows to `width` columns.
    pub fn new(out: W, color: bool, verbosity: Verbosity, width: usize) -> Self {
        HumanReporter {
            out,
            look: Look {
                color,
                verbosity,
                width,
            },
            view: View::Check(CheckView::default()),
            cancelled: false,
        }
    }

    fn write(&mut self, text: &str) -> Result<(), LostReport> {
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(LostReport::from)
    }

    /// What is printed of a unit done.
    fn finished(&mut self, detail: &Detail<'_>) -> String {
        let look = &self.look;
        match (detail, &mut self.view) {
            (Detail::Case(result), View::Check(view)) => view.case_finished(result, look),
            (Detail::Submission(row), View::Verify(view)) => view.submission_finished(row, look),
            (Detail::Verified(outcome), View::Verify(view)) => view.problem_finished(outcome, look),
            (Detail::Input { input, finding }, _) => validate::input(input, finding, look),
            (Detail::Validated(validation), _) => validate::package(validation, look),
            // What it found is a note on stderr; the counts are the report.
            (Detail::Generated(made), _) => made.counts() + "\n",
            (Detail::Timed(timing), _) => timelimit::package(timing),
            (Detail::Mutant(row), View::Mutants(view)) => view.mutant(row),
            _ => String::new(),
        }
    }
}

impl<W: Write> Reporter for HumanReporter<W> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        let look = self.look;
        let text = match event {
            Event::RunStarted(kind) => {
                self.view = View::of(kind);
                return Ok(());
            }
            Event::ProblemStarted(heading) => match &mut self.view {
                View::Verify(view) => view.problem_started(heading, &look),
                _ => return Ok(()),
            },
            Event::Finished(Finished { detail, .. }) => self.finished(detail),
            Event::Counterexample(found) => match &mut self.view {
                View::Stress(view) => view.counterexample(found),
                _ => return Ok(()),
            },
            Event::Cancelled => {
                self.cancelled = true;
                return Ok(());
            }
            Event::RunFinished(summary) => match &self.view {
                View::Check(view) => view.finish(summary, self.cancelled, &look),
                View::Verify(view) => view.finish(summary, self.cancelled, &look),
                View::Validate { deliberate } => {
                    validate::finish(summary, *deliberate, self.cancelled)
                }
                View::Packages { undone } if self.cancelled => format!(
                    "Cancelled (Ctrl-C): {undone}.\n{}\n",
                    summary.closing_line()
                ),
                View::Packages { .. } => return Ok(()),
                View::Stress(view) => view.finish(summary, self.cancelled),
                View::Mutants(view) => view.finish(summary, self.cancelled, &look),
            },
            Event::CaseStarted(_) | Event::Generated(_) => return Ok(()),
        };
        // Flushed at once, so the line is on the terminal before a progress bar is redrawn.
        match text.is_empty() {
            true => Ok(()),
            false => Ok(self.write(&text)?),
        }
    }
}
