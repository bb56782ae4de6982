//! The events of a run, the one stream every judging command's reports are made from (after
//! cargo-nextest's reporter events): the run starts, saying what it counts; work starts (a case
//! taken by a worker, a problem of `verify` about to report); units finish, each named by its
//! [`UnitId`] with its [`Outcome`] and what was found of it ([`Detail`]); the run may be
//! cancelled; and it finishes with its [`Summary`]. The [`super::Dispatcher`] sends them, in a
//! deterministic order, to the [`super::Reporter`]s, which are the only printers.
//!
//! Not for: judging or counting. An event carries what was found; the dispatcher keeps the
//! totals, and each reporter keeps whatever view of the stream it shows.

use std::collections::BTreeMap;
use std::time::Duration;

use super::findings::Unreadable;
use super::generated::DataMade;
use super::mutated::{MutantRow, MutationRun, Status as MutantStatus};
use super::stressed::{Counterexample, StressRun, Tried};
use super::timed::PackageTiming;
use super::unit::{Outcome, Unit, UnitId};
use super::validated::{InputFinding, PackageValidation};
use super::verified::{ProblemHeading, ProblemOutcome, Status, SubmissionRow};
use super::Summary;
use crate::discovery::Case;
use crate::files::beneath::TreePath;
use crate::judging::CaseResult;

/// One thing that happened in a run.
#[derive(Debug)]
pub enum Event<'a> {
    /// First, once.
    RunStarted(&'a RunKind),
    /// A case was taken by a worker (in the order workers take them).
    CaseStarted(&'a Case),
    /// A problem of `verify` is about to report its submissions: what it is and how it was
    /// built, validated and timed.
    ProblemStarted(&'a ProblemHeading),
    /// A unit is done: in a deterministic order (cases in sorted order, submissions in their
    /// problem's order after its `ProblemStarted`, a problem's package after its submissions),
    /// whatever order the work finished in.
    Finished(Finished<'a>),
    /// A package's data was generated before it was verified (`verify`'s first step): said,
    /// not counted.
    Generated(&'a DataMade<'a>),
    /// The first case of `stress` that failed, shrunk.
    Counterexample(&'a Counterexample),
    /// Ctrl-C cut the run short: what was not reported by now never will be.
    Cancelled,
    /// Last, once.
    RunFinished(&'a Summary),
}

#[cfg(test)]
impl<'a> Event<'a> {
    /// A judged case of `check`, the subject judged named by `subject`.
    pub fn case(result: &'a CaseResult, subject: Option<&'a str>) -> Event<'a> {
        Event::Finished(Finished::case(result, subject))
    }
}

/// A unit done: its name, how it ended, and what was found of it.
#[derive(Debug)]
pub struct Finished<'a> {
    pub id: UnitId<'a>,
    pub outcome: Outcome,
    pub detail: Detail<'a>,
}

/// What was found of a unit; its kind says which kind of unit it is ([`Detail::unit`]).
#[derive(Debug)]
pub enum Detail<'a> {
    /// A case of `check`, judged.
    Case(&'a CaseResult),
    /// A submission of `verify`, settled.
    Submission(&'a SubmissionRow),
    /// A problem of `verify`, once every submission of it was reported: what its verification
    /// found.
    Verified(&'a ProblemOutcome),
    /// An input of `validate`, against what its group wants: its file, and what was found.
    Input {
        input: &'a TreePath,
        finding: &'a InputFinding,
    },
    /// A package of `validate`, after its inputs: what its validators found of it as a whole.
    Validated(&'a PackageValidation),
    /// A package's data (or a built-in problem's fixtures) generated (`generate`).
    Generated(&'a DataMade<'a>),
    /// A package timed (`timelimit`).
    Timed(&'a PackageTiming),
    /// A case of `stress` tried: the program under test against the reference.
    Tried(Tried),
    /// A mutant of `mutants`, judged.
    Mutant(&'a MutantRow),
}

impl Detail<'_> {
    pub fn unit(&self) -> Unit {
        match self {
            Detail::Case(_) | Detail::Input { .. } | Detail::Tried(_) => Unit::Case,
            Detail::Submission(_) => Unit::Submission,
            Detail::Mutant(_) => Unit::Mutant,
            Detail::Verified(_)
            | Detail::Validated(_)
            | Detail::Generated(_)
            | Detail::Timed(_) => Unit::Package,
        }
    }
}

impl<'a> Finished<'a> {
    /// A judged case: passed when accepted.
    pub fn case(result: &'a CaseResult, subject: Option<&'a str>) -> Finished<'a> {
        let case = &result.case;
        Finished {
            id: UnitId::case(&case.problem, subject, &case.id),
            outcome: Outcome::of(result.verdict.passed()),
            detail: Detail::Case(result),
        }
    }

    /// A settled submission: passed when it got a verdict it may get, skipped when not judged.
    pub fn submission(row: &'a SubmissionRow) -> Finished<'a> {
        Finished {
            id: UnitId {
                problem: &row.problem,
                subject: Some(&row.submission),
                case: None,
            },
            outcome: row.ok.map_or(Outcome::Skipped, Outcome::of),
            detail: Detail::Submission(row),
        }
    }

    /// An input of `problem` (its path within it `case`), validated.
    pub fn input(
        problem: &'a str,
        case: &'a str,
        input: &'a TreePath,
        finding: &'a InputFinding,
    ) -> Finished<'a> {
        Finished {
            id: UnitId {
                problem,
                subject: None,
                case: Some(case),
            },
            outcome: finding.outcome(),
            detail: Detail::Input { input, finding },
        }
    }

    /// A package's data validated: passed when valid.
    pub fn validated(validation: &'a PackageValidation) -> Finished<'a> {
        Finished {
            id: UnitId::problem(&validation.name),
            outcome: Outcome::of(validation.status() == Status::Valid),
            detail: Detail::Validated(validation),
        }
    }

    /// A package's data generated: passed when every case was made and nothing is invalid.
    pub fn generated(made: &'a DataMade<'a>) -> Finished<'a> {
        Finished {
            id: UnitId::problem(made.package),
            outcome: Outcome::of(made.ok()),
            detail: Detail::Generated(made),
        }
    }

    /// A package timed: passed when everything in it is as the format wants.
    pub fn timed(timing: &'a PackageTiming) -> Finished<'a> {
        Finished {
            id: UnitId::problem(&timing.name),
            outcome: Outcome::of(timing.fine()),
            detail: Detail::Timed(timing),
        }
    }

    /// A case of `stress` (`case` its number, as the unit names it) tried with `subject`:
    /// passed when the program agreed with the reference.
    pub fn tried(run: &'a StressRun, case: &'a str, tried: Tried) -> Finished<'a> {
        Finished {
            id: UnitId {
                problem: &run.problem,
                subject: Some(&run.subject),
                case: Some(case),
            },
            outcome: Outcome::of(tried.verdict.is_none()),
            detail: Detail::Tried(tried),
        }
    }

    /// A mutant of `run`'s submission judged: passed when killed, failed when it survived,
    /// skipped when stillborn, not judged or likely equivalent.
    pub fn mutant(run: &'a MutationRun, row: &'a MutantRow) -> Finished<'a> {
        let outcome = match row.status {
            MutantStatus::Killed => Outcome::Passed,
            MutantStatus::Survived => Outcome::Failed,
            MutantStatus::Stillborn | MutantStatus::Unjudged | MutantStatus::Equivalent => {
                Outcome::Skipped
            }
        };
        Finished {
            id: UnitId {
                problem: &run.problem,
                subject: Some(&row.subject),
                case: None,
            },
            outcome,
            detail: Detail::Mutant(row),
        }
    }

    /// A verified problem: passed when valid.
    pub fn verified(outcome: &'a ProblemOutcome) -> Finished<'a> {
        Finished {
            id: UnitId::problem(&outcome.name),
            outcome: Outcome::of(outcome.status() == Status::Valid),
            detail: Detail::Verified(outcome),
        }
    }
}

/// What a run judges, known before anything runs: which command, and what it needs of it.
#[derive(Clone, Debug, PartialEq)]
pub enum RunKind {
    /// `check`: this many cases, each problem's judged under its time limit (the reports'
    /// slow-case lists and the HTML page hold the runs against it).
    Check {
        cases: usize,
        time_limits: BTreeMap<String, Duration>,
    },
    /// `verify`: the packages that could not be read (or their data generated), which count
    /// as failed.
    /// `explain` (`--explain`): the evidence of each reason is printed under it.
    Verify {
        unreadable: Vec<Unreadable>,
        explain: bool,
    },
    /// `validate`: how many of the inputs are deliberately invalid (below `invalid/` groups,
    /// or a package's `invalid_input` cases).
    Validate { deliberate: usize },
    /// `generate`.
    Generate,
    /// `timelimit`: the packages that could not be read, which count as failed.
    Timelimit { unreadable: Vec<Unreadable> },
    /// `stress`: what is stressed, how, and how to repeat it.
    Stress(StressRun),
    /// `mutants`: which submission of which package, its cases, how many mutants.
    Mutants(MutationRun),
}

impl RunKind {
    /// The command's name.
    pub fn command(&self) -> &'static str {
        match self {
            RunKind::Check { .. } => "check",
            RunKind::Verify { .. } => "verify",
            RunKind::Validate { .. } => "validate",
            RunKind::Generate => "generate",
            RunKind::Timelimit { .. } => "timelimit",
            RunKind::Stress(_) => "stress",
            RunKind::Mutants(_) => "mutants",
        }
    }

    /// What its summary counts.
    pub fn unit(&self) -> Unit {
        match self {
            RunKind::Check { .. } | RunKind::Validate { .. } | RunKind::Stress(_) => Unit::Case,
            RunKind::Verify { .. } => Unit::Submission,
            RunKind::Generate | RunKind::Timelimit { .. } => Unit::Package,
            RunKind::Mutants(_) => Unit::Mutant,
        }
    }

    /// The packages that could not be read: counted as failed packages, and the run is
    /// incomplete.
    pub fn unreadable(&self) -> &[Unreadable] {
        match self {
            RunKind::Verify { unreadable, .. } | RunKind::Timelimit { unreadable } => unreadable,
            RunKind::Check { .. }
            | RunKind::Validate { .. }
            | RunKind::Generate
            | RunKind::Stress(_)
            | RunKind::Mutants(_) => &[],
        }
    }
}
