//! What judging found, as plain data: each case run of each submission, what became of each
//! submission, and the judging of a problem (its time limit and what it noticed). Made by
//! [`super::judge`], read by [`super::time_limit`], [`super::outcome`] and the report.

use std::sync::Arc;
use std::time::Duration;

use crate::build::{HostError, Skipped};
use crate::judging::CaseRun;
use crate::model::{MarginFacts, TimeLimit};
use crate::package::limits::TimeLimitError;
use crate::reporting::findings::{Fault, JudgingWarning, Unchecked};
/// Read by the stages that write times in their messages, as the reports write them.
pub use crate::reporting::seconds;
use crate::reporting::verified::SkipReason;
use crate::validation::checkers::Unjudgeable;

/// What became of one submission.
#[derive(Clone, Debug)]
pub enum Judged {
    /// Its case runs in judging order (`None`: not judged).
    Runs(Vec<Option<CaseRun>>),
    CompileError(String),
    /// Not judged, and nobody's fault the submission can be blamed for: why.
    Skipped(NotJudged),
    /// Not judged: the host failed while building it.
    HostError(HostError),
}

/// Why a case could not be judged at all: grundy could not prepare its run (an interactive
/// pairing it does not support, a feedback folder it could not make). Kept whole until the
/// report says it, as the submission's reason for being skipped.
#[derive(Debug, thiserror::Error)]
#[error("{0:#}")]
pub struct Unjudged(pub(super) anyhow::Error);

/// Why a submission was not judged, kept as a type until its row says it.
#[derive(Clone, Debug, thiserror::Error)]
pub enum NotJudged {
    /// Nothing says which verdicts it must get, so nothing could be held against it.
    #[error(
        "skipped: nothing says what it must get (its folder is not one the format knows, and no \
         submissions.yaml glob or @EXPECTED_RESULTS@ tag says)"
    )]
    NoExpectation,
    /// The build stage did not build it (no compiler, an unsupported language, cut short).
    #[error("{0}")]
    Unbuilt(Skipped),
    /// Its problem cannot be judged at all (its output validator or interactor cannot run).
    #[error("skipped: {0}")]
    Unjudgeable(Unjudgeable),
    /// A case of it could not be judged at all (its run could not be prepared).
    #[error("skipped: {0}")]
    Unprepared(Arc<Unjudged>),
    /// Its problem has no time limit to judge it with.
    #[error("skipped: no time limit: {0}")]
    NoTimeLimit(TimeLimitError),
}

impl From<NotJudged> for SkipReason {
    fn from(why: NotJudged) -> Self {
        SkipReason::Judging(Arc::new(why))
    }
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
    /// What the time-limit findings were computed from, once settled with a limit.
    pub margins: Option<MarginFacts>,
    /// Under `--partition`, the slowest run of the accepted submissions of other buckets a
    /// computed limit comes from ([`super::other_buckets`]): counted as this bucket's own.
    pub timed_elsewhere: Option<Duration>,
}
