//! Settling what judging found, as soon as it can be, and handing it to the report
//! ([`Pending`]): a submission once all its runs are in (a run over the final time limit is TLE),
//! a problem once all its submissions are settled (its judge errors, the time limit against the
//! format's margins), or at once when it has no time limit (nothing of it is judged).

use std::time::Duration;

use super::first_failure::Stops;
use super::report::Stream;
use super::results::{seconds, Judged, Judging, NotJudged};
use super::time_limit;
use crate::judging::Verdict;
use crate::model::scoring::{NoScore, SchemeError};
use crate::model::Problem;
use crate::package::limits::TimeLimitError;
use crate::reporting::findings::{margin_findings, Fault, Unchecked};

/// The runs each submission still waits for, so each is settled and reported as soon as its
/// last run is in, and each problem as soon as its last submission is.
pub struct Pending<'a, 'b> {
    pub runs: Vec<Vec<usize>>,
    /// Per problem, its submissions not settled yet.
    unsettled: Vec<usize>,
    pub stream: &'a mut Stream<'b>,
}

impl<'a, 'b> Pending<'a, 'b> {
    /// Nothing settled yet of `problems`; the runs each waits for are pushed problem by
    /// problem as the time limits are known.
    pub fn new(problems: &[Problem], stream: &'a mut Stream<'b>) -> Self {
        Pending {
            runs: vec![],
            unsettled: problems.iter().map(|p| p.submissions.len()).collect(),
            stream,
        }
    }

    /// Submission `s` of problem `p` has all its runs: settled (trimmed after its first failure
    /// under `--first-failure`), reported, and its problem settled after its last submission.
    pub fn settle(
        &mut self,
        problem: &Problem,
        judging: &mut Judging,
        (p, s): (usize, usize),
        stops: Option<&Stops>,
    ) {
        if let Some(stops) = stops {
            stops.trim(p, s, &mut judging.submissions[s]);
        }
        if let Ok(limit) = judging.time_limit.limit {
            submission(limit, &mut judging.submissions[s]);
        }
        self.stream.settled(p, s, judging);
        self.unsettled[p] -= 1;
        if self.unsettled[p] == 0 {
            self.finish(problem, judging, p);
        }
    }

    /// Problem `p` has all its submissions settled: settled itself, and reported.
    pub fn finish(&mut self, problem: &Problem, judging: &mut Judging, p: usize) {
        if judging.time_limit.limit.is_ok() {
            self::problem(problem, judging);
        }
        self.stream.finished(p, judging);
    }
}

/// Applies the final time limit to every run of a submission: a run over it is TLE.
pub fn submission(limit: Duration, judged: &mut Judged) {
    let Judged::Runs(runs) = judged else { return };
    for run in runs.iter_mut().flatten() {
        if run.verdict != Verdict::TLE && run.time > limit {
            run.message = Some(format!(
                "used {} of CPU time, over the time limit of {}",
                seconds(run.time),
                seconds(limit)
            ));
            run.verdict = Verdict::TLE;
        }
    }
}

/// Collects the judge errors of a problem whose submissions are settled, and checks its time
/// limit against the format's margins.
pub fn problem(problem: &Problem, judging: &mut Judging) {
    scoring_faults(problem, judging);
    for (submission, judged) in problem.submissions.iter().zip(&judging.submissions) {
        let Judged::Runs(runs) = judged else { continue };
        for (case, run) in problem.cases.iter().zip(runs) {
            if let Some(run) = run.as_ref().filter(|run| run.verdict == Verdict::JE) {
                judging.errors.push(Fault::JudgeError {
                    case: case.id().to_string(),
                    submission: submission.id.clone(),
                    why: run.message.clone().unwrap_or_default(),
                });
            }
        }
    }
    if let Ok(limit) = judging.time_limit.limit {
        let facts = time_limit::margin_facts(problem, judging);
        let (error, thin) = margin_findings(&facts, limit);
        judging.errors.extend(error);
        judging.warnings.extend(thin);
        judging.margins = Some(facts);
        let timeout = problem.limits.timeout(limit);
        let calls = time_limit::close_calls(problem, judging, limit, timeout);
        judging.warnings.extend(calls);
    }
}

/// What a scoring problem's scores found wrong with the package: a scheme that cannot be
/// computed, a score file against the rules (a judge error of its case), a group's score
/// outside its range.
fn scoring_faults(problem: &Problem, judging: &mut Judging) {
    let scheme = match &problem.scoring {
        None => return,
        Some(Ok(scheme)) => scheme,
        Some(Err(SchemeError::Invalid(why))) => {
            return judging.errors.push(Fault::Scoring(why.clone()))
        }
        Some(Err(SchemeError::Unsupported(why))) => {
            return judging.unchecked.push(Unchecked::Scoring(why.clone()))
        }
    };
    for (submission, judged) in problem.submissions.iter().zip(&judging.submissions) {
        let Judged::Runs(runs) = judged else { continue };
        match scheme.score(runs) {
            Ok(scores) => judging
                .errors
                .extend(
                    scores
                        .faults
                        .into_iter()
                        .map(|fault| Fault::ScoreOutOfRange {
                            fault,
                            submission: submission.id.clone(),
                        }),
                ),
            // A judge error of the run itself is told with the others.
            Err(NoScore::JudgeError { case, why })
                if runs[case].as_ref().is_none_or(|r| r.verdict != Verdict::JE) =>
            {
                judging.errors.push(Fault::JudgeError {
                    case: problem.cases[case].id().to_string(),
                    submission: submission.id.clone(),
                    why,
                })
            }
            Err(_) => {}
        }
    }
}

/// A problem without a time limit (`why`): none of its submissions is judged, and the package
/// is wrong, or not verified when a submission the limit comes from was not built (no
/// compiler, a judge error of the host).
pub fn without_limit(problem: &Problem, judging: &mut Judging, why: &TimeLimitError) {
    let unbuilt =
        problem
            .submissions
            .iter()
            .zip(&judging.submissions)
            .any(|(submission, judged)| {
                time_limit::runs_first(problem, submission)
                    && matches!(judged, Judged::Skipped(_) | Judged::HostError(_))
            });
    for judged in &mut judging.submissions {
        if matches!(judged, Judged::Runs(_)) {
            *judged = Judged::Skipped(NotJudged::NoTimeLimit(why.clone()));
        }
    }
    match unbuilt {
        true => judging.unchecked.push(Unchecked::TimeLimit(why.clone())),
        false => judging.errors.push(Fault::TimeLimit(why.clone())),
    }
}
