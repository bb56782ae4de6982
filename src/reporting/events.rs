//! The events of a run, the one stream every command's reports are made from (after
//! cargo-nextest's reporter events): the run starts, cases start and finish (`check`), problems
//! start, their submissions finish and they finish (`verify`), the run may be cancelled, and it
//! finishes with its [`Summary`]. The [`super::Dispatcher`] sends them, in a deterministic order,
//! to the [`super::Reporter`]s, which are the only printers.
//!
//! Not for: judging or counting. An event carries what was found; the dispatcher keeps the
//! totals, and each reporter keeps whatever view of the stream it shows.

use super::findings::Unreadable;
use super::verified::{ProblemHeading, ProblemOutcome, SubmissionRow};
use super::Summary;
use crate::discovery::Case;
use crate::judging::CaseResult;

/// One thing that happened in a run.
#[derive(Debug)]
pub enum Event<'a> {
    /// First, once.
    RunStarted(&'a RunKind),
    /// A case was taken by a worker (in the order workers take them).
    CaseStarted(&'a Case),
    /// A case was judged; in sorted case order, whatever order the cases finish in.
    CaseFinished(&'a CaseResult),
    /// A problem of `verify` is about to report its submissions: what it is and how it was
    /// built, validated and timed.
    ProblemStarted(&'a ProblemHeading),
    /// Every case of a submission was judged (or it was not judged at all): after its
    /// problem's `ProblemStarted`, submissions in their problem's order.
    SubmissionFinished(&'a SubmissionRow),
    /// Every submission of a problem was reported; what the problem's verification found.
    ProblemFinished(&'a ProblemOutcome),
    /// Ctrl-C cut the run short: what was not reported by now never will be.
    Cancelled,
    /// Last, once.
    RunFinished(&'a Summary),
}

/// What a run judges, known before anything runs.
#[derive(Clone, Debug, PartialEq)]
pub enum RunKind {
    /// `check`: this many cases.
    Check { cases: usize },
    /// `verify`: the packages that could not be read (or their data generated), which count
    /// as failed.
    Verify { unreadable: Vec<Unreadable> },
}
