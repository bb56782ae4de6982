//! The one sender of a run's [`Event`]s: it keeps the totals (per kind of unit, and the judge
//! errors), the fail-fast setting and the cancel token the worker pool obeys, and the exit code
//! they make. Every command that judges reports through it, so a unit is counted the same way
//! whichever format shows it, and each summary counts the one kind of unit its command judges.
//!
//! Events are printed above the progress bar of the command's [`Stages`], never through it. A
//! report that cannot be written stops the run (the pool sees the cancel token) and is the
//! run's error; Ctrl-C (the same token, set by `commands::setup::interrupts`) ends it with the
//! [`Event::Cancelled`] event, and the run [`Ended::Cancelled`] (exit status 130).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::events::{Detail, Event, Finished, RunKind};
use super::findings::Unreadable;
use super::generated::DataMade;
use super::progress::Stages;
use super::stressed::Counterexample;
use super::unit::{Totals, Unit};
use super::verified::{ProblemHeading, ProblemOutcome, SubmissionRow};
use super::{LostReport, ReportError, Reporter, Summary};
use crate::discovery::{Case, LeftOut};
use crate::running::pool::{PoolOptions, Stop};

pub struct Dispatcher {
    reporter: Box<dyn Reporter>,
    stages: Stages,
    cancel: Arc<AtomicBool>,
    fail_fast: bool,
    started: Instant,
    /// What the run's summary counts, and the totals so far.
    command: &'static str,
    unit: Unit,
    totals: Totals,
    judge_errors: usize,
    left_out: LeftOut,
    /// Packages that could not be read, as shown: the run is incomplete (exit 2). Each is a
    /// failed package once, even when it is verified all the same (its data not all made).
    unreadable: BTreeSet<String>,
    /// The first report that could not be written: the run's error.
    written: Result<(), ReportError>,
    /// The wall time of work that ran elsewhere, when this run replays it.
    ran_for: Option<Duration>,
}

/// How a command that ran to its end came out, which `main` makes its exit status
/// (`commands::exit_status`, the one place that decides it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Everything judged is as it must be (exit 0).
    Passed,
    /// Something judged is not: a case failed, a submission did not get what it must, a
    /// package is invalid (exit 1).
    Failed,
    /// The run could not judge all it was given (a package that cannot be read, a program the
    /// host failed to build): its verdict would be a guess (exit 2).
    Incomplete,
    /// Ctrl-C cut it short; what was reported says so (exit 130).
    Cancelled,
    /// A protocol's own status: `grundy checktestdata`'s, by the Kattis validator protocol.
    Protocol(u8),
}

impl Ended {
    /// `Passed` when `passed`, else `Failed`.
    pub fn of(passed: bool) -> Ended {
        match passed {
            true => Ended::Passed,
            false => Ended::Failed,
        }
    }
}

/// Why a run through the dispatcher ends without an exit code (and a step below the commands
/// that prints what it did, as writing a new case does): a report that could not be written,
/// kept apart from any other failure.
#[derive(Debug)]
pub enum Unfinished {
    /// A report could not be written (which stopped the run).
    Report(ReportError),
    /// The judging failed as a whole: a program that cannot start, the host.
    Failed(anyhow::Error),
}

impl<E: Into<anyhow::Error>> From<E> for Unfinished {
    fn from(error: E) -> Self {
        Unfinished::Failed(error.into())
    }
}

impl From<LostReport> for Unfinished {
    fn from(lost: LostReport) -> Self {
        Unfinished::Report(ReportError::Lost(lost))
    }
}

impl Dispatcher {
    /// Sends the events of a run to `reporter`, above the bars of `stages`; `cancel` is the
    /// token Ctrl-C sets. The run's wall time counts from here.
    pub fn new(
        reporter: Box<dyn Reporter>,
        stages: Stages,
        cancel: Arc<AtomicBool>,
        fail_fast: bool,
    ) -> Dispatcher {
        Dispatcher {
            reporter,
            stages,
            cancel,
            fail_fast,
            started: Instant::now(),
            command: "",
            unit: Unit::default(),
            totals: Totals::default(),
            judge_errors: 0,
            left_out: LeftOut::default(),
            unreadable: BTreeSet::new(),
            written: Ok(()),
            ran_for: None,
        }
    }

    /// The run's wall time when its work ran elsewhere (`report merge`: its slowest shard's),
    /// rather than the time since [`Dispatcher::new`].
    pub fn ran_for(&mut self, time: Duration) {
        self.ran_for = Some(time);
    }

    /// How a worker pool of `jobs` workers runs this run's jobs: with its fail-fast and its
    /// cancel token.
    pub fn pool_options(&self, jobs: usize) -> PoolOptions {
        PoolOptions {
            jobs,
            fail_fast: self.fail_fast,
            cancel: Arc::clone(&self.cancel),
        }
    }

    /// The run starts: what it is and what its summary counts. Packages that could not be
    /// read count as failed packages.
    pub fn run_started(&mut self, kind: &RunKind) {
        self.command = kind.command();
        self.unit = kind.unit();
        self.unreadable = kind.unreadable().iter().map(Unreadable::package).collect();
        self.totals.packages.failed += self.unreadable.len();
        self.emit(&Event::RunStarted(kind));
    }

    pub fn case_started(&mut self, case: &Case) {
        self.emit(&Event::CaseStarted(case));
    }

    /// A unit done: counted by its kind, and reported.
    pub fn finished(&mut self, finished: Finished<'_>) {
        let counted = match finished.detail {
            Detail::Verified(outcome) => {
                self.judge_errors += outcome.judge_errors.len();
                !self.unreadable.contains(&outcome.origin)
            }
            _ => true,
        };
        if counted {
            (self.totals.of_mut(finished.detail.unit())).add(finished.outcome);
        }
        self.emit(&Event::Finished(finished));
    }

    /// A unit of `unit` the pool did not run (fail-fast, an error, a cancel): counted as
    /// skipped, and not reported.
    pub fn skipped(&mut self, unit: Unit) {
        self.totals.of_mut(unit).skipped += 1;
    }

    /// Cases left out before the run, by reason (the summary says so; they are not counted).
    pub fn left_out(&mut self, left_out: LeftOut) {
        self.left_out = left_out;
    }

    /// `stress`'s counterexample, shrunk: shown, not counted (its case was).
    pub fn counterexample(&mut self, found: &Counterexample) {
        self.emit(&Event::Counterexample(found));
    }

    /// A package's data generated before it is verified: said, not counted.
    pub fn generated(&mut self, made: &DataMade<'_>) {
        self.emit(&Event::Generated(made));
    }

    pub fn problem_started(&mut self, heading: &ProblemHeading) {
        self.emit(&Event::ProblemStarted(heading));
    }

    pub fn submission_finished(&mut self, row: &SubmissionRow) {
        self.finished(Finished::submission(row));
    }

    /// A problem's verification is done: its package counted as passed when valid.
    pub fn problem_finished(&mut self, outcome: &ProblemOutcome) {
        self.finished(Finished::verified(outcome));
    }

    /// Ends the run: `ran` is how the judging went (its error is the run's, unless Ctrl-C cut
    /// it short), `summary` what the command adds to the totals (jobs, partition). Returns how
    /// the run ended: cancelled; incomplete when a package could not be read or the host failed
    /// a build; failed when a unit of any kind failed; else passed.
    pub fn finish(mut self, ran: Result<(), Stop>, summary: Summary) -> Result<Ended, Unfinished> {
        std::mem::replace(&mut self.written, Ok(())).map_err(Unfinished::Report)?;
        // Cut short by the token, or by Ctrl-C after the judging ended.
        let cancelled = matches!(ran, Err(Stop::Cancelled)) || self.cancel.load(Ordering::SeqCst);
        match ran {
            Err(Stop::Failed(error)) if !cancelled => return Err(Unfinished::Failed(error)),
            _ if cancelled => self.emit(&Event::Cancelled),
            _ => {}
        }
        let counted = self.totals.of(self.unit);
        let summary = Summary {
            command: self.command,
            unit: self.unit,
            passed: counted.passed,
            failed: counted.failed,
            skipped: counted.skipped,
            totals: self.totals,
            judge_errors: self.judge_errors,
            left_out: self.left_out,
            wall_time: self.ran_for.unwrap_or_else(|| self.started.elapsed()),
            ..summary
        };
        // The reporters' own errors are the run's: a report that cannot be written is exit 2.
        self.stages
            .suspend(|| self.reporter.report(&Event::RunFinished(&summary)))
            .map_err(Unfinished::Report)?;
        Ok(if cancelled {
            Ended::Cancelled
        } else if !self.unreadable.is_empty() || summary.judge_errors > 0 {
            Ended::Incomplete
        } else {
            Ended::of(!summary.totals.any_failed())
        })
    }

    /// Sends `event` to the reporters, unless a report was lost already; a lost one stops the
    /// run.
    fn emit(&mut self, event: &Event<'_>) {
        if self.written.is_err() {
            return;
        }
        let (reporter, stages) = (&mut self.reporter, &self.stages);
        self.written = stages.suspend(|| reporter.report(event));
        if self.written.is_err() {
            self.cancel.store(true, Ordering::SeqCst);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use crate::judging::{CaseResult, Verdict};
    use crate::reporting::tests::case;
    use crate::reporting::unit::Tally;

    /// Records the events it is given, by name; fails when told to.
    struct Recorder {
        log: Rc<RefCell<Vec<String>>>,
        fail: bool,
    }

    impl Reporter for Recorder {
        fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
            let name = format!("{event:?}");
            let name = name
                .split(['(', ' '])
                .next()
                .unwrap_or_default()
                .to_string();
            self.log.borrow_mut().push(name);
            match self.fail {
                true => Err(ReportError::Lost(
                    std::io::Error::other("stdout closed").into(),
                )),
                false => Ok(()),
            }
        }
    }

    fn dispatcher(fail: bool) -> (Dispatcher, Rc<RefCell<Vec<String>>>) {
        let log = Rc::new(RefCell::new(Vec::new()));
        let recorder = Recorder {
            log: Rc::clone(&log),
            fail,
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let stages = Stages::new(false, false);
        (
            Dispatcher::new(Box::new(recorder), stages, cancel, false),
            log,
        )
    }

    fn row(ok: Option<bool>) -> SubmissionRow {
        SubmissionRow {
            ok,
            ..SubmissionRow::default()
        }
    }

    #[test]
    fn the_totals_and_the_exit_code_come_from_the_events() {
        let (mut dispatch, log) = dispatcher(false);
        dispatch.run_started(&RunKind::Check {
            cases: 3,
            time_limits: Default::default(),
        });
        let right = CaseResult::new(case("p/a"), Verdict::AC, None);
        dispatch.finished(Finished::case(&right, None));
        let wrong = CaseResult::new(case("p/b"), Verdict::WA, None);
        dispatch.finished(Finished::case(&wrong, None));
        dispatch.skipped(Unit::Case);
        let cases = Tally {
            passed: 1,
            failed: 1,
            skipped: 1,
        };
        assert_eq!(dispatch.totals.cases, cases);
        let code = dispatch.finish(Ok(()), Summary::default()).unwrap();
        assert_eq!(code, Ended::Failed);
        let names = log.borrow().clone();
        assert_eq!(names, ["RunStarted", "Finished", "Finished", "RunFinished"]);
    }

    /// A package's validity is not a submission: the summary counts the submissions, and the
    /// packages are counted apart, each once: one that could not be read for two reasons, and
    /// one whose data was not all made but which was verified all the same, are one failed
    /// package each.
    #[test]
    fn verify_counts_submissions_and_packages_apart_with_unreadable_ones() {
        let (mut dispatch, _) = dispatcher(false);
        let unreadable = vec![
            Unreadable::Package {
                package: "broken".into(),
                error: crate::package::yaml::Diagnostic::file(
                    std::path::Path::new("broken/data/link"),
                    "bad",
                ),
            },
            Unreadable::NoPlan {
                package: "broken".into(),
                errors: vec![],
            },
            Unreadable::NotGenerated {
                package: "half".into(),
                failed: 3,
            },
        ];
        dispatch.run_started(&RunKind::Verify {
            unreadable,
            explain: false,
        });
        dispatch.submission_finished(&row(Some(true)));
        dispatch.submission_finished(&row(None));
        dispatch.problem_finished(&ProblemOutcome::default());
        dispatch.problem_finished(&ProblemOutcome {
            origin: "half".into(),
            ..ProblemOutcome::default()
        });
        let submissions = Tally {
            passed: 1,
            failed: 0,
            skipped: 1,
        };
        assert_eq!(dispatch.totals.submissions, submissions);
        let packages = Tally {
            passed: 1,
            failed: 2,
            skipped: 0,
        };
        assert_eq!(dispatch.totals.packages, packages);
        assert_eq!(dispatch.unit, Unit::Submission);
        let code = dispatch.finish(Ok(()), Summary::default()).unwrap();
        assert_eq!(code, Ended::Incomplete);
    }

    #[test]
    fn a_cancel_is_an_event_and_exit_130_whatever_the_run_returned() {
        let (mut dispatch, log) = dispatcher(false);
        dispatch.run_started(&RunKind::Check {
            cases: 1,
            time_limits: Default::default(),
        });
        dispatch.cancel.store(true, Ordering::SeqCst);
        let ran = Err(Stop::Failed(anyhow::anyhow!("cut short")));
        let code = dispatch.finish(ran, Summary::default()).unwrap();
        assert_eq!(code, Ended::Cancelled);
        assert_eq!(log.borrow()[1..], ["Cancelled", "RunFinished"]);
    }

    #[test]
    fn a_lost_report_stops_the_run_and_is_its_error() {
        let (mut dispatch, log) = dispatcher(true);
        dispatch.run_started(&RunKind::Check {
            cases: 2,
            time_limits: Default::default(),
        });
        assert!(dispatch.cancel.load(Ordering::SeqCst), "the pool is told");
        let right = CaseResult::new(case("p/a"), Verdict::AC, None);
        dispatch.finished(Finished::case(&right, None));
        let Err(Unfinished::Report(error)) = dispatch.finish(Ok(()), Summary::default()) else {
            panic!("the lost report is the run's error");
        };
        assert!(error.to_string().contains("stdout closed"), "{error}");
        assert_eq!(
            *log.borrow(),
            ["RunStarted"],
            "nothing after the lost report"
        );
    }
}
