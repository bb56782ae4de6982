//! Judging every submission on every judged case (sample, then secret), in parallel over
//! submissions × cases.
//!
//! When the time limit is computed ([`super::time_limit`]), the accepted submissions it comes
//! from run first, with a generous timeout; every other run, whatever the format counts it as,
//! then has the limit times `time_limit_to_tle` to finish, so a slow run is told apart from a
//! hopeless one, no submission that may fail runs longer than the final limit allows, and a run
//! over the limit is TLE whatever it printed.
//!
//! Every case is judged, even after a failure, so the report can say which cases catch each
//! wrong submission; a multi-pass package's case pass after pass
//! ([`crate::judging::run_case`]), its time that of its slowest pass. Each submission is
//! settled ([`super::settle`]) and handed to the report as soon as its last run is in, so the
//! report streams while later submissions run.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;

use super::explain::last_said;
use super::first_failure::{Ran, Stops};
use super::outcome::expects_compile_error;
use super::report::Stream;
use super::results::{Judged, Judging, NotJudged, Unjudged};
use super::settle::Pending;
use super::{settle, time_limit, timing_cache};
use crate::build::{Build, Builds};
use crate::checking::{Checker, Interactor};
use crate::config::Settings;
use crate::files::beneath::TreePath;
use crate::judging::CaseRun;
use crate::judging::{run_case, Judge, Trial, Verdict};
use crate::model::{How, Problem, TestCase, TimeLimit};
use crate::package::limits::TimeLimitError;
use crate::package::submissions::Submission;
use crate::reporting::failure_detail;
use crate::reporting::findings::{Fault, Unchecked};
use crate::running::pool::{Jobs, Stop};
use crate::running::{Input, RunError, SolveWatch, Subject};
use crate::stages::Pool;
use crate::validation::checkers::{checker_for, interactor_for, Unjudgeable};

/// What every job of one problem shares: its checkers, interactor, settings and each
/// submission's program (none for one that cannot be judged). Made by [`prepared`] for a stage
/// that picks its own runs ([`Prepared::judge`]).
pub struct Prepared {
    checkers: Vec<Result<Checker, Unjudgeable>>,
    interactor: Option<Interactor>,
    settings: Settings,
    subjects: Vec<Option<Subject>>,
}

/// One run: problem, submission, case, timeout.
type Task = (usize, usize, usize, Duration);

struct JudgeJobs {
    problems: Arc<Vec<Problem>>,
    prepared: Arc<Vec<Prepared>>,
    tasks: Vec<Task>,
    /// Under `--first-failure`, once the time limit is known: where judging may stop.
    stops: Option<Stops>,
}

/// Judges every problem's submissions under its `settings` (each problem's, by
/// [`crate::model::judged_under`]; every run's time its timeout), telling `stream` of each
/// problem's time limit, each submission once it is settled and each problem once all its
/// submissions are. `timed_elsewhere`: per problem, the slowest run of the accepted
/// submissions of other buckets ([`super::other_buckets`]), counted for a computed limit.
pub fn judge_all(
    problems: &Arc<Vec<Problem>>,
    settings: &[Settings],
    timed_elsewhere: &[Option<Duration>],
    builds: &Builds,
    pool: &Pool,
    first_failure: bool,
    stream: &mut Stream<'_>,
) -> Result<(), Stop> {
    let mut judgings = vec![];
    let mut prepared = vec![];
    for ((problem, settings), elsewhere) in problems.iter().zip(settings).zip(timed_elsewhere) {
        let (mut judging, ready) = prepare(problem, settings.clone(), builds);
        judging.timed_elsewhere = *elsewhere;
        judgings.push(judging);
        prepared.push(ready);
    }
    let prepared = Arc::new(prepared);
    // First the runs the time limit is computed from.
    let mut first = vec![];
    for (p, problem) in problems.iter().enumerate() {
        for (s, submission) in problem.submissions.iter().enumerate() {
            if time_limit::runs_first(problem, submission) && prepared[p].subjects[s].is_some() {
                first.extend((0..problem.cases.len()).map(|c| (p, s, c, time_limit::GENEROUS)));
            }
        }
    }
    let jobs = JudgeJobs::new(problems, &prepared, first, None);
    run_tasks(
        jobs,
        pool,
        "timing accepted submissions",
        &mut judgings,
        None,
    )?;
    let mut rest = vec![];
    let mut pending = Pending::new(problems, stream);
    for (p, problem) in problems.iter().enumerate() {
        let limit = time_limit::limit(problem, &judgings[p]);
        // A bucket's timing counts runs of submissions its problem does not hold, so it is not
        // the timing of what the cache would key it by.
        if problem.limits.time_limit.is_none() && judgings[p].timed_elsewhere.is_none() {
            record_timing(problem, &judgings[p]);
        }
        let judging = &mut judgings[p];
        judging.time_limit = limit.clone();
        pending.stream.timed(p, judging);
        let mut runs = vec![0; problem.submissions.len()];
        match limit.limit {
            Ok(limit) => {
                let timeout = problem.limits.timeout(limit);
                for (s, judged) in judging.submissions.iter().enumerate() {
                    if let Judged::Runs(ran) = judged {
                        let left = ran.iter().enumerate().filter(|(_, run)| run.is_none());
                        let before = rest.len();
                        rest.extend(left.map(|(c, _)| (p, s, c, timeout)));
                        runs[s] = rest.len() - before;
                    }
                }
            }
            Err(why) => settle::without_limit(problem, judging, &why),
        }
        pending.runs.push(runs);
    }
    // What needs no more runs is settled and reported at once.
    for (p, problem) in problems.iter().enumerate() {
        if problem.submissions.is_empty() {
            pending.finish(problem, &mut judgings[p], p);
        }
        for s in 0..problem.submissions.len() {
            if pending.runs[p][s] == 0 {
                pending.settle(problem, &mut judgings[p], (p, s), None);
            }
        }
    }
    let stops = first_failure.then(|| Stops::new(problems, &judgings));
    let jobs = JudgeJobs::new(problems, &prepared, rest, stops);
    run_tasks(
        jobs,
        pool,
        "judging submissions",
        &mut judgings,
        Some(&mut pending),
    )
}

/// Records the slowest accepted run of `judging`, the one `problem`'s computed limit comes
/// from, for the commands after this one ([`timing_cache`]). Not recorded (the host's
/// failure), it is timed again by the next command that needs it.
fn record_timing(problem: &Problem, judging: &Judging) {
    if let Some(slowest) = time_limit::slowest_accepted(problem, judging) {
        if let Some(key) = timing_cache::key(problem) {
            let _ = timing_cache::record(problem, &key, slowest);
        }
    }
}

/// The runs of the submissions `timeout_of` picks, with the CPU timeout it gives each, on every
/// case, under each problem's `settings` but for the wall clock, the verdicts left as the runs
/// gave them (no time limit is applied afterwards): for `grundy timelimit`, which times the
/// runs itself. The wall clock gets ten times the longest
/// timeout of a problem and ten seconds: a timing run is to end by its CPU time, which a busy
/// machine only delays.
pub fn runs_of(
    problems: &Arc<Vec<Problem>>,
    settings: &[Settings],
    builds: &Builds,
    pool: &Pool,
    what: &str,
    timeout_of: impl Fn(usize, &Problem, &Submission) -> Option<Duration>,
) -> Result<Vec<Judging>, Stop> {
    let (mut judgings, mut prepared): (Vec<Judging>, Vec<Prepared>) = problems
        .iter()
        .zip(settings)
        .map(|(problem, settings)| prepare(problem, settings.clone(), builds))
        .unzip();
    let mut tasks = vec![];
    for (p, problem) in problems.iter().enumerate() {
        let mut longest = Duration::ZERO;
        for (s, submission) in problem.submissions.iter().enumerate() {
            let timeout = timeout_of(p, problem, submission);
            if let (Some(timeout), Some(_)) = (timeout, &prepared[p].subjects[s]) {
                tasks.extend((0..problem.cases.len()).map(|c| (p, s, c, timeout)));
                longest = longest.max(timeout);
            }
        }
        let wall = longest.saturating_mul(10) + Duration::from_secs(10);
        prepared[p].settings.limits.wall = Some(wall);
    }
    let jobs = JudgeJobs::new(problems, &Arc::new(prepared), tasks, None);
    run_tasks(jobs, pool, what, &mut judgings, None)?;
    Ok(judgings)
}

/// What judging each submission of `problem` starts from (a compile error, a skip, or runs to
/// come), and what its runs share, under its `settings`: for a stage that picks its own runs
/// case by case, as `mutants` stops each mutant at its first failure.
pub fn prepared(problem: &Problem, settings: Settings, builds: &Builds) -> (Vec<Judged>, Prepared) {
    let (judging, prepared) = prepare(problem, settings, builds);
    (judging.submissions, prepared)
}

/// Checkers, interactor and programs of one problem judged under `settings`, and the
/// submissions that cannot be judged at all.
fn prepare(problem: &Problem, settings: Settings, builds: &Builds) -> (Judging, Prepared) {
    let checkers: Vec<Result<Checker, Unjudgeable>> = problem
        .cases
        .iter()
        .map(|case| checker_for(problem, builds, case))
        .collect();
    let interactor = interactor_for(problem, builds);
    // A problem whose judging cannot work judges nothing: one reason for all its submissions.
    let blocker = interactor.clone().err().or_else(|| {
        checkers
            .iter()
            .find_map(|c| c.clone().err())
            .filter(|_| checkers.iter().all(Result::is_err))
    });
    // What a submission must never see, whatever folders its toolchain shows it (a toolchain
    // in the home folder shows that folder, the packages in it included).
    let answers = problem.answers();
    let mut subjects = vec![];
    let mut submissions = vec![];
    for submission in &problem.submissions {
        let unchecked = submission.expectation.is_none() && !expects_compile_error(submission);
        let (subject, judged) = match (builds.of(&submission.program), &blocker) {
            // Whatever its build gave (a compile error included), nothing can be held against
            // a submission nothing describes.
            _ if unchecked => (None, Judged::Skipped(NotJudged::NoExpectation)),
            (Build::Failed(message), _) => (None, Judged::CompileError(message.clone())),
            (Build::Skipped(why), _) => (None, Judged::Skipped(NotJudged::Unbuilt(why.clone()))),
            (Build::HostError(error), _) => (None, Judged::HostError(error.clone())),
            (Build::Ready { .. }, Some(why)) => {
                (None, Judged::Skipped(NotJudged::Unjudgeable(why.clone())))
            }
            (Build::Ready { command, .. }, None) => (
                Some(Subject::External {
                    program: grundy_sandbox::Program {
                        hide: answers.clone(),
                        ..command.clone()
                    },
                    command: submission.id.clone(),
                }),
                Judged::Runs(vec![None; problem.cases.len()]),
            ),
        };
        subjects.push(subject);
        submissions.push(judged);
    }
    let (mut errors, mut unchecked) = (vec![], vec![]);
    match &blocker {
        Some(why @ Unjudgeable::Package(_)) => errors.push(Fault::Unjudgeable(why.clone())),
        Some(Unjudgeable::NotRun { validator, why }) => unchecked.push(Unchecked::NotRun {
            validator: validator.clone(),
            why: why.clone(),
        }),
        None => {}
    }
    let judging = Judging {
        submissions,
        // Set by `time_limit::limit` once the runs it is computed from are timed.
        time_limit: TimeLimit {
            limit: Err(TimeLimitError::Untimed),
            how: How::Fixed(problem.time_limit_source),
        },
        errors,
        unchecked,
        warnings: vec![],
        margins: None,
        timed_elsewhere: None,
    };
    let prepared = Prepared {
        checkers,
        interactor: interactor.ok().flatten(),
        settings,
        subjects,
    };
    (judging, prepared)
}

impl JudgeJobs {
    fn new(
        problems: &Arc<Vec<Problem>>,
        prepared: &Arc<Vec<Prepared>>,
        tasks: Vec<Task>,
        stops: Option<Stops>,
    ) -> Arc<JudgeJobs> {
        Arc::new(JudgeJobs {
            problems: Arc::clone(problems),
            prepared: Arc::clone(prepared),
            tasks,
            stops,
        })
    }
}

/// Runs `jobs` and records each run in `judgings` as it comes (in task order); with `pending`,
/// settles and reports each submission once its last run is in.
fn run_tasks(
    jobs: Arc<JudgeJobs>,
    pool: &Pool,
    what: &str,
    judgings: &mut [Judging],
    mut pending: Option<&mut Pending<'_, '_>>,
) -> Result<(), Stop> {
    let count = jobs.tasks.len();
    pool.run_each(Arc::clone(&jobs), count, what, |index, ran| {
        // Cut short (Ctrl-C, or an error that ends the run): its submission is never settled,
        // so neither it nor what comes after it is reported as if judged.
        let Some(ran) = ran else { return };
        let (p, s, c, timeout) = jobs.tasks[index];
        let submission = &mut judgings[p].submissions[s];
        match ran {
            Ran::Unjudged(why) => {
                *submission = Judged::Skipped(NotJudged::Unprepared(Arc::new(why)));
            }
            Ran::Case(mut run) => {
                if let Judged::Runs(runs) = submission {
                    if run.verdict == Verdict::TLE {
                        // Killed at the timeout: it ran at least that long.
                        run.time = run.time.max(timeout);
                    }
                    runs[c] = Some(run);
                }
            }
            Ran::Stopped => {}
        }
        if let Some(pending) = pending.as_deref_mut() {
            pending.runs[p][s] -= 1;
            if pending.runs[p][s] == 0 {
                let problem = &jobs.problems[p];
                pending.settle(problem, &mut judgings[p], (p, s), jobs.stops.as_ref());
            }
        }
    })
}

impl Jobs for JudgeJobs {
    type Output = Ran;

    fn run(&self, index: usize, watch: &SolveWatch) -> Result<Ran> {
        let (p, s, c, timeout) = self.tasks[index];
        if self
            .stops
            .as_ref()
            .is_some_and(|stops| stops.skips(p, s, c))
        {
            return Ok(Ran::Stopped);
        }
        let ran = match self.prepared[p].judge(&self.problems[p], s, c, timeout, watch) {
            Ok(run) => Ran::Case(run),
            Err(why) => Ran::Unjudged(why),
        };
        if let Some(stops) = &self.stops {
            stops.record(p, s, c, &ran);
        }
        Ok(ran)
    }

    fn failed(&self, ran: &Ran) -> bool {
        match ran {
            Ran::Case(run) => !run.verdict.passed(),
            Ran::Unjudged(_) => true,
            Ran::Stopped => false,
        }
    }
}

impl Prepared {
    /// Submission `s` of `problem` (one with a program) run on case `c`, stopped at `timeout`:
    /// its run, or why the case could not be judged at all.
    pub fn judge(
        &self,
        problem: &Problem,
        s: usize,
        c: usize,
        timeout: Duration,
        watch: &SolveWatch,
    ) -> Result<CaseRun, Unjudged> {
        let subject = self
            .subject(s)
            .expect("only submissions with a program are judged");
        let settings = self.settings(timeout);
        judge_case(self, subject, &problem.cases[c], c, &settings, watch)
    }

    /// Submission `s`'s program, as it is judged; none for one that cannot be.
    pub fn subject(&self, s: usize) -> Option<&Subject> {
        self.subjects[s].as_ref()
    }

    /// What a submission runs under, each run stopped at `timeout`.
    pub fn settings(&self, timeout: Duration) -> Settings {
        let mut settings = self.settings.clone();
        settings.limits.time = timeout;
        settings
    }
}

fn judge_case(
    prepared: &Prepared,
    subject: &Subject,
    case: &TestCase,
    index: usize,
    settings: &Settings,
    watch: &SolveWatch,
) -> Result<CaseRun, Unjudged> {
    let failed = |verdict: Verdict, message: String| {
        Ok(CaseRun {
            verdict,
            time: Duration::ZERO,
            stopped_by: None,
            message: Some(message),
            score: None,
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            peak_memory_bytes: None,
            failure: None,
            detail: None,
            said: None,
        })
    };
    let checker = match &prepared.checkers[index] {
        Ok(checker) => checker,
        Err(why) => return failed(Verdict::JE, why.to_string()),
    };
    let answer = match case.case.expected.as_ref().map(TreePath::read).transpose() {
        Ok(answer) => answer,
        Err(error) => return failed(Verdict::JE, format!("cannot read the answer: {error}")),
    };
    // An interactive package's case without an answer file gives its interactor an empty one.
    let expected = match (&answer, &prepared.interactor) {
        (None, Some(_)) => Some(&[][..]),
        (answer, _) => answer.as_deref(),
    };
    let trial = Trial {
        case: &case.case,
        built_in: None,
        input: Input::File(&case.case.input),
        expected,
    };
    let judge_by = Judge {
        checker,
        interactor: prepared.interactor.as_ref(),
    };
    let judged = run_case(subject, trial, judge_by, settings, Some(watch));
    let result = match judged {
        Ok(ran) => ran.result,
        Err(RunError::Setup(why)) => return Err(Unjudged(why)),
        Err(error) => return failed(Verdict::RE, error.to_string()),
    };
    Ok(CaseRun {
        detail: failure_detail(&result),
        said: last_said(&result),
        verdict: result.verdict,
        time: result.time,
        stopped_by: result.stopped_by,
        score: result.score,
        cpu: result.cpu,
        wall: result.wall,
        peak_memory_bytes: result.peak_memory_bytes,
        failure: result.failure,
        message: result
            .message
            .map(|m| m.lines().next().unwrap_or_default().to_string()),
    })
}
