//! `--first-failure`: judging a submission only up to its first failing case, as `verifyproblem`
//! and `bt run` do. Which runs may be skipped (those after a submission's first failure), and
//! trimming what ran anyway (workers got there first), so the report does not depend on timing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::results::Unjudged;
use super::results::{Judged, Judging};
use crate::judging::CaseRun;
use crate::judging::Verdict;
use crate::model::Problem;
use crate::package::submissions::Submission;

/// The result of one job.
#[derive(Debug)]
pub(super) enum Ran {
    Case(CaseRun),
    /// The case could not be judged at all.
    Unjudged(Unjudged),
    /// Not run: the submission already failed an earlier case (`--first-failure`).
    Stopped,
}

/// Per problem its time limit, and per submission that may stop early the first case it failed
/// so far (`usize::MAX`: none); cases after it are not run.
pub(super) struct Stops {
    limits: Vec<Option<Duration>>,
    first_failed: Vec<Vec<Option<AtomicUsize>>>,
}

impl Stops {
    pub(super) fn new(problems: &[Problem], judgings: &[Judging]) -> Stops {
        let limits = judgings
            .iter()
            .map(|j| j.time_limit.limit.clone().ok())
            .collect();
        let first_failed = problems
            .iter()
            .map(|problem| {
                // A scoring problem's scores need every case.
                let stops = |s: &Submission| {
                    problem.scoring.is_none()
                        && s.expectation
                            .as_ref()
                            .is_some_and(|e| e.decided_by_first_failure())
                };
                problem
                    .submissions
                    .iter()
                    .map(|s| stops(s).then(|| AtomicUsize::new(usize::MAX)))
                    .collect()
            })
            .collect();
        Stops {
            limits,
            first_failed,
        }
    }

    /// Whether case `c` of submission `s` of problem `p` need not run.
    pub(super) fn skips(&self, p: usize, s: usize, c: usize) -> bool {
        self.first_failed[p][s]
            .as_ref()
            .is_some_and(|first| first.load(Ordering::Relaxed) < c)
    }

    /// Records how case `c` went.
    pub(super) fn record(&self, p: usize, s: usize, c: usize, ran: &Ran) {
        let Some(first) = &self.first_failed[p][s] else {
            return;
        };
        let over_limit = |run: &CaseRun| self.limits[p].is_some_and(|limit| run.time > limit);
        let failed = match ran {
            Ran::Case(run) => run.verdict != Verdict::AC || over_limit(run),
            Ran::Unjudged(_) => true,
            Ran::Stopped => false,
        };
        if failed {
            first.fetch_min(c, Ordering::Relaxed);
        }
    }

    /// Forgets the runs of submission `s` of problem `p` after its first failure, which ran
    /// only because workers got to them first: the report is the same whatever the timing.
    /// Called once every run of the submission is in.
    pub(super) fn trim(&self, p: usize, s: usize, judged: &mut Judged) {
        let (Some(first), Judged::Runs(runs)) = (&self.first_failed[p][s], judged) else {
            return;
        };
        let first = first.load(Ordering::Relaxed);
        runs.iter_mut()
            .skip(first.saturating_add(1))
            .for_each(|run| *run = None);
    }
}
