//! What judging found, as plain data: each case run of each submission, what became of each
//! submission, and the judging of a problem (its time limit and what it noticed). Made by
//! [`super::judge`], read by [`super::time_limit`], [`super::outcome`] and the report.

use crate::build::HostError;
use crate::judging::CaseRun;
use crate::model::TimeLimit;
use crate::reporting::findings::{Fault, JudgingWarning, Unchecked};
/// Read by the stages that write times in their messages, as the reports write them.
pub use crate::reporting::seconds;

/// What became of one submission.
#[derive(Clone, Debug)]
pub enum Judged {
    /// Its case runs in judging order (`None`: not judged).
    Runs(Vec<Option<CaseRun>>),
    CompileError(String),
    Skipped(String),
    /// Not judged: the host failed while building it.
    HostError(HostError),
}

/// The judging of one problem.
#[derive(Debug)]
pub struct Judging {
    pub submissions: Vec<Judged>,
    /// The time limit judged with, or why there is none, and how it came about.
    pub time_limit: TimeLimit,
    /// Problems of the package found while judging (judge errors, time-limit margins).
    pub errors: Vec<Fault>,
    /// What could not be checked: the output validator did not run.
    pub unchecked: Vec<Unchecked>,
    /// What judging noticed that is worth fixing but fails nothing (a thin fixed time limit).
    pub warnings: Vec<JudgingWarning>,
}
