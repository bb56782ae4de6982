//! Judging every submission on every judged case (sample, then secret), in parallel over
//! submissions × cases.
//!
//! When the time limit is computed ([`super::time_limit`]), the submissions it comes from run
//! first; every other run then has the limit times `time_limit_to_tle` to finish, so a slow run
//! is told apart from a hopeless one, and a run over the limit is TLE whatever it printed.
//!
//! Every case is judged, even after a failure, so the report can say which cases catch each
//! wrong submission; a multi-pass package's case pass after pass
//! ([`crate::judging::judge_passes`]), its time that of its slowest pass.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;

use super::build::{Build, Builds};
use super::checkers::{checker_for, interactor_for, Unjudgeable};
use super::first_failure::{Ran, Stops};
use super::model::{Problem, TestCase};
use super::outcome::expects_compile_error;
use super::results::{seconds, CaseRun, Judged, Judging};
use super::time_limit;
use super::Pool;
use crate::checking::{Checker, Interactor};
use crate::config::Settings;
use crate::discovery::Case;
use crate::files::beneath::TreePath;
use crate::judging::{judge, judge_interactive, judge_passes, Against, Verdict};
use crate::package::limits::TimeLimitError;
use crate::package::submissions::Submission;
use crate::running::pool::Jobs;
use crate::running::{Input, RunError, SolveWatch, Subject};

/// What every job of one problem shares.
struct Prepared {
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

/// Judges every problem's submissions.
pub fn judge_all(
    problems: &Arc<Vec<Problem>>,
    builds: &Builds,
    pool: &Pool,
    first_failure: bool,
) -> Result<Vec<Judging>> {
    let mut judgings = vec![];
    let mut prepared = vec![];
    for problem in problems.iter() {
        let (judging, ready) = prepare(problem, builds);
        judgings.push(judging);
        prepared.push(ready);
    }
    let prepared = Arc::new(prepared);
    // First the runs the time limit is computed from.
    let mut first = vec![];
    for (p, problem) in problems.iter().enumerate() {
        for (s, submission) in problem.submissions.iter().enumerate() {
            if time_limit::times_the_limit(problem, submission) && prepared[p].subjects[s].is_some()
            {
                first.extend((0..problem.cases.len()).map(|c| (p, s, c, time_limit::GENEROUS)));
            }
        }
    }
    run_tasks(
        problems,
        &prepared,
        first,
        pool,
        "timing accepted submissions",
        None,
        &mut judgings,
    )?;
    let mut rest = vec![];
    for (p, problem) in problems.iter().enumerate() {
        let (limit, line) = time_limit::limit(problem, &judgings[p]);
        let judging = &mut judgings[p];
        judging.time_limit_line = line;
        if let Ok(limit) = limit {
            let timeout = problem.limits.timeout(limit);
            for (s, judged) in judging.submissions.iter().enumerate() {
                if let Judged::Runs(runs) = judged {
                    rest.extend(
                        runs.iter()
                            .enumerate()
                            .filter(|(_, run)| run.is_none())
                            .map(|(c, _)| (p, s, c, timeout)),
                    );
                }
            }
        }
        judging.time_limit = limit;
    }
    let stops = first_failure.then(|| Stops::new(problems, &judgings));
    run_tasks(
        problems,
        &prepared,
        rest,
        pool,
        "judging submissions",
        stops,
        &mut judgings,
    )?;
    for (problem, judging) in problems.iter().zip(&mut judgings) {
        settle(problem, judging);
    }
    Ok(judgings)
}

/// The runs of the submissions `timeout_of` picks, with the timeout it gives each, on every
/// case, the verdicts left as the runs gave them (no time limit is applied afterwards): for
/// `grundy timelimit`, which times the runs itself.
pub fn runs_of(
    problems: &Arc<Vec<Problem>>,
    builds: &Builds,
    pool: &Pool,
    what: &str,
    timeout_of: impl Fn(usize, &Problem, &Submission) -> Option<Duration>,
) -> Result<Vec<Judging>> {
    let (mut judgings, prepared): (Vec<Judging>, Vec<Prepared>) = problems
        .iter()
        .map(|problem| prepare(problem, builds))
        .unzip();
    let mut tasks = vec![];
    for (p, problem) in problems.iter().enumerate() {
        for (s, submission) in problem.submissions.iter().enumerate() {
            let timeout = timeout_of(p, problem, submission);
            if let (Some(timeout), Some(_)) = (timeout, &prepared[p].subjects[s]) {
                tasks.extend((0..problem.cases.len()).map(|c| (p, s, c, timeout)));
            }
        }
    }
    run_tasks(
        problems,
        &Arc::new(prepared),
        tasks,
        pool,
        what,
        None,
        &mut judgings,
    )?;
    Ok(judgings)
}

/// Checkers, interactor, limits and programs of one problem, and the submissions that cannot be
/// judged at all.
fn prepare(problem: &Problem, builds: &Builds) -> (Judging, Prepared) {
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
    let settings = match &problem.judging {
        super::model::Judging::Settings(settings) => (**settings).clone(),
        super::model::Judging::Package { .. } => Settings {
            memory_limit_mb: problem.memory_mib,
            output_limit_mb: problem.output_mib,
            validation_passes: problem.passes,
            ..Settings::default()
        },
    };
    let mut subjects = vec![];
    let mut submissions = vec![];
    for submission in &problem.submissions {
        let unchecked = submission.expectation.is_none() && !expects_compile_error(submission);
        let (subject, judged) = match (builds.of(&submission.program), &blocker) {
            // Whatever its build gave (a compile error included), nothing can be held against
            // a submission nothing describes.
            _ if unchecked => (
                None,
                Judged::Skipped(
                    "skipped: nothing says what it must get (its folder is not one the format \
                     knows, and no submissions.yaml glob or @EXPECTED_RESULTS@ tag says)"
                        .into(),
                ),
            ),
            (Build::Failed(message), _) => (None, Judged::CompileError(message.clone())),
            (Build::Skipped(why), _) => (None, Judged::Skipped(why.clone())),
            (Build::HostError(error), _) => (None, Judged::HostError(error.clone())),
            (Build::Ready { .. }, Some(why)) => (None, Judged::Skipped(format!("skipped: {why}"))),
            (Build::Ready { command, .. }, None) => (
                Some(Subject::External {
                    program: command.clone(),
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
        Some(Unjudgeable::Package(why)) => errors.push(why.clone()),
        Some(Unjudgeable::NotRun { validator, why }) => {
            unchecked.push(format!("{validator}: {why}"))
        }
        None => {}
    }
    let judging = Judging {
        submissions,
        // Set by `time_limit::limit` once the runs it is computed from are timed.
        time_limit: Err(TimeLimitError::Untimed),
        time_limit_line: String::new(),
        errors,
        unchecked,
        warnings: vec![],
    };
    let prepared = Prepared {
        checkers,
        interactor: interactor.ok().flatten(),
        settings,
        subjects,
    };
    (judging, prepared)
}

fn run_tasks(
    problems: &Arc<Vec<Problem>>,
    prepared: &Arc<Vec<Prepared>>,
    tasks: Vec<Task>,
    pool: &Pool,
    what: &str,
    stops: Option<Stops>,
    judgings: &mut [Judging],
) -> Result<()> {
    let jobs = Arc::new(JudgeJobs {
        problems: Arc::clone(problems),
        prepared: Arc::clone(prepared),
        tasks,
        stops,
    });
    let outputs = pool.run(Arc::clone(&jobs), jobs.tasks.len(), what)?;
    for (&(p, s, c, timeout), ran) in jobs.tasks.iter().zip(outputs) {
        let submission = &mut judgings[p].submissions[s];
        match ran {
            Some(Ran::Unjudged(why)) => *submission = Judged::Skipped(format!("skipped: {why}")),
            Some(Ran::Case(mut run)) => {
                if let Judged::Runs(runs) = submission {
                    if run.verdict == Verdict::TLE {
                        // Killed at the timeout: it ran at least that long.
                        run.time = run.time.max(timeout);
                    }
                    runs[c] = Some(run);
                }
            }
            Some(Ran::Stopped) | None => {}
        }
    }
    if let Some(stops) = &jobs.stops {
        stops.trim(judgings);
    }
    Ok(())
}

/// Applies the final time limit to every run (a run over it is TLE), collects the judge errors,
/// and checks the limit against the format's margins.
fn settle(problem: &Problem, judging: &mut Judging) {
    let Ok(limit) = judging.time_limit.clone() else {
        let why = judging.time_limit.clone().unwrap_err();
        // Whether a submission the limit is computed from was not built (no compiler, a judge
        // error of the host): then the limit is unknown, not the package wrong.
        let unbuilt =
            problem
                .submissions
                .iter()
                .zip(&judging.submissions)
                .any(|(submission, judged)| {
                    time_limit::times_the_limit(problem, submission)
                        && matches!(judged, Judged::Skipped(_) | Judged::HostError(_))
                });
        for judged in &mut judging.submissions {
            if matches!(judged, Judged::Runs(_)) {
                *judged = Judged::Skipped(format!("skipped: no time limit: {why}"));
            }
        }
        match unbuilt {
            true => judging.unchecked.push(format!(
                "time limit: {why} (a submission it is computed from was not built)"
            )),
            false => judging.errors.push(format!("time limit: {why}")),
        }
        return;
    };
    for (submission, judged) in problem.submissions.iter().zip(&mut judging.submissions) {
        let Judged::Runs(runs) = judged else { continue };
        for (case, run) in problem.cases.iter().zip(runs.iter_mut()) {
            let Some(run) = run else { continue };
            if run.verdict != Verdict::TLE && run.time > limit {
                run.message = Some(format!(
                    "used {} of CPU time, over the time limit of {}",
                    seconds(run.time),
                    seconds(limit)
                ));
                run.verdict = Verdict::TLE;
            }
            if run.verdict == Verdict::JE {
                judging.errors.push(format!(
                    "judge error on {} with {}: {}",
                    case.id,
                    submission.id,
                    run.message.as_deref().unwrap_or_default()
                ));
            }
        }
    }
    if let Some(why) = time_limit::margins(problem, judging) {
        judging.errors.push(format!("time limit: {why}"));
    }
    if let Some(why) = time_limit::thin_fixed_margin(problem, judging) {
        judging.warnings.push(format!("time limit: {why}"));
    }
    let timeout = problem.limits.timeout(limit);
    let calls = time_limit::close_calls(problem, judging, limit, timeout);
    judging.warnings.extend(calls);
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
        let problem = &self.problems[p];
        let prepared = &self.prepared[p];
        let subject = prepared.subjects[s]
            .as_ref()
            .expect("only submissions with a program are judged");
        let case = &problem.cases[c];
        let settings = Settings {
            time_limit: timeout,
            ..prepared.settings.clone()
        };
        let ran = judge_case(problem, prepared, subject, case, c, &settings, watch);
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

fn judge_case(
    problem: &Problem,
    prepared: &Prepared,
    subject: &Subject,
    case: &TestCase,
    index: usize,
    settings: &Settings,
    watch: &SolveWatch,
) -> Ran {
    let failed = |verdict: Verdict, message: String| {
        Ran::Case(CaseRun {
            verdict,
            time: Duration::ZERO,
            message: Some(message),
        })
    };
    let checker = match &prepared.checkers[index] {
        Ok(checker) => checker,
        Err(why) => return failed(Verdict::JE, why.to_string()),
    };
    let answer = match case.answer.as_ref().map(TreePath::read).transpose() {
        Ok(answer) => answer,
        Err(error) => return failed(Verdict::JE, format!("cannot read the answer: {error}")),
    };
    let input = Input::File(&case.input);
    let id = format!("{}/{}", problem.name, case.id);
    let case_of = || {
        Case::of_package(
            id.clone(),
            problem.name.clone(),
            case.input.clone(),
            case.answer.clone(),
        )
    };
    let passes = settings.validation_passes;
    let judged = match &prepared.interactor {
        Some(interactor) => {
            let answer = answer.unwrap_or_default();
            judge_passes(passes, input, |input, feedback| {
                let run = subject.interact(
                    &problem.name,
                    interactor,
                    (input, &answer, feedback),
                    settings,
                    Some(watch),
                )?;
                Ok(judge_interactive(case_of(), &run))
            })
        }
        None => judge_passes(passes, input, |input, feedback| {
            let run = subject.run(&problem.name, None, input, settings, Some(watch))?;
            let against = Against {
                input,
                expected: answer.as_deref(),
                checker,
                judge_limits: &settings.judge_limits(),
                feedback,
            };
            Ok(judge(case_of(), &run, &against))
        }),
    };
    let result = match judged {
        Ok(result) => result,
        Err(RunError::Setup(why)) => return Ran::Unjudged(format!("{why:#}")),
        Err(error) => return failed(Verdict::RE, error.to_string()),
    };
    Ran::Case(CaseRun {
        verdict: result.verdict,
        time: result.time,
        message: result
            .message
            .map(|m| m.lines().next().unwrap_or_default().to_string()),
    })
}
