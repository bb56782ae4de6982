//! `grundy stress PROBLEM`: random inputs from the problem's generator, the program under test
//! (the built-in solver, or `--exec`) against the brute force, compared with the problem's
//! checker. The first failing case (in case order, whatever order the workers finish in) is
//! shrunk with the problem's shrinker and printed with everything needed to reproduce it; with
//! `--save` it becomes a fixture. Exit 0 when every case agrees, 1 on a counterexample, 2 when
//! the run cannot mean anything (a brute force or generator fault, a program that cannot start).

mod package;
mod report;
mod schedule;
mod shrinking;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use grundy_problems::{Constraints, InputError, Problem};

use super::add::{reference_run, Reference, ReferenceFailed};
use super::{built_in, load_config};
use crate::cli::StressArgs;
use crate::commands::CommandError;
use crate::config::{Isolate, Overrides, Settings};
use crate::discovery::{answer_folders, Case};
use crate::files::beneath::TreePath;
use crate::judging::{judge, judge_interactive, Against, CaseResult};
use crate::reporting::{print, progress_bar};
use crate::running::pool::{self, Event, Jobs, PoolOptions};
use crate::running::{Input, SolveWatch, Subject};
use schedule::Schedule;

pub fn run(args: StressArgs, color: bool) -> Result<ExitCode, CommandError> {
    let Some(id) = args.problem.as_deref().filter(|p| !package::is_package(p)) else {
        return package::run(args, color);
    };
    if args.generator.is_some() {
        return Err(anyhow::anyhow!(
            "--generator names a package's generator, and `{id}` is a built-in problem, whose \
             inputs come from its own generator; drop --generator, or give a package folder"
        )
        .into());
    }
    let problem = built_in(id)?;
    let overrides = Overrides {
        jobs: args.jobs,
        time_limit_ms: args.time_limit,
        wall_time_limit_ms: args.wall_time_limit,
        env: args.env.clone(),
        isolate: args.isolate.as_deref().map(Isolate::from_flag),
        ..Overrides::default()
    };
    let config = load_config(&args.sources, overrides)?;
    let settings = config.settings(problem.id).clone();
    // Its cases' answers are the brute force's, in memory; the fixtures' stay out of reach too.
    let answers = answer_folders(&config.fixtures, &[]);
    let mut subject = super::given::subject(
        args.exec.as_deref(),
        false,
        config.isolate,
        settings.memory_limit_mb,
        &answers,
    )?;
    if subject.is_external() {
        super::containment_check(config.isolate)?;
    }
    subject.hide_answers(answers)?;
    let schedule = Schedule {
        seed: args.seed.unwrap_or_else(random_seed),
        scale: args.scale.map(|scale| scale.0),
    };
    // Ctrl-C: the run's seed is printed, so the cases tried so far can be tried again.
    let rerun = report::rerun_command(problem.id, &schedule, args.exec.as_deref());
    let cancel = Arc::new(AtomicBool::new(false));
    super::on_ctrl_c(&cancel);
    let options = PoolOptions {
        jobs: config.jobs,
        // The first failing case in case order is all the run looks for.
        fail_fast: true,
        cancel: Arc::clone(&cancel),
    };
    let tester = Arc::new(Tester {
        problem,
        subject,
        settings,
    });
    let cases = usize::try_from(args.cases).unwrap_or(usize::MAX);
    let jobs = Arc::new(StressJobs {
        schedule,
        tester: Arc::clone(&tester),
    });

    let bar = progress_bar(Some(args.cases), color);
    bar.set_message(format!("{} · seed {}", problem.id, schedule.seed));
    let started = Instant::now();
    let mut first_failure = None;
    let tried = pool::run_all(jobs, cases, &options, |event| {
        if let Event::Finished(Some(tried)) = event {
            bar.inc(1);
            if first_failure.is_none() && !matches!(tried.outcome, Outcome::Agree) {
                first_failure = Some((tried.case, tried.input, tried.outcome));
            }
        }
    });
    if cancel.load(Ordering::SeqCst) {
        bar.finish_and_clear();
        eprintln!("\ninterrupted; `{rerun}` repeats this run");
        return Err(CommandError::Cancelled);
    }
    tried?;
    let summary = Summary {
        problem: problem.id,
        cases: args.cases,
        seed: schedule.seed,
        scales: schedule.describe_scales(args.cases),
    };
    let Some((case, input, outcome)) = first_failure else {
        bar.finish_and_clear();
        print(&format!("{}\n", summary.passed(started.elapsed())))?;
        return Ok(ExitCode::SUCCESS);
    };
    let trial = match outcome {
        Outcome::Disagree(trial) => *trial,
        Outcome::Broken(reason) => {
            bar.finish_and_clear();
            return Err(anyhow::anyhow!(
                "{reason}; the stress run means nothing until that is fixed. The input: case {} \
                 of seed {}, rebuilt by `grundy gen {} CASE --seed {} --scale {}`",
                case.number,
                schedule.seed,
                problem.id,
                case.seed,
                case.scale
            )
            .into());
        }
        Outcome::Agree => unreachable!("agreeing cases are not reported"),
    };

    bar.finish_and_clear();
    let bar = progress_bar(None, color);
    bar.set_message(format!("shrinking case {}", case.number));
    let unshrunk = input.clone();
    let still_fails = Arc::clone(&tester);
    let shrunk = shrinking::shrink(
        problem,
        (input, trial),
        shrinking::BUDGET,
        Arc::new(
            move |candidate: &[u8]| match still_fails.try_input(candidate)? {
                Outcome::Disagree(trial) => Ok(Some(*trial)),
                Outcome::Agree | Outcome::Broken(_) => Ok(None),
            },
        ),
        &options,
        |steps, attempts| {
            bar.set_message(format!(
                "shrinking case {}: {steps} steps, {attempts} candidates tried",
                case.number
            ))
        },
    );
    if cancel.load(Ordering::SeqCst) {
        bar.finish_and_clear();
        eprintln!("\ninterrupted; `{rerun}` repeats this run");
        return Err(CommandError::Cancelled);
    }
    let shrunk = shrunk?;
    bar.finish_and_clear();
    let counterexample = report::Counterexample {
        problem: problem.id,
        program: tester.subject.describe(problem.id),
        role: tester.subject.role(),
        exec: tester.subject.command().map(String::from),
        schedule,
        case,
        unshrunk,
        shrunk,
    };
    print(&counterexample.render(color))?;
    if args.save {
        report::save(&config, &counterexample)?;
    }
    print(&format!(
        "{}\n",
        summary.failed(case.number, started.elapsed())
    ))?;
    Ok(ExitCode::FAILURE)
}

/// One pool job per case: its input from the schedule, through the [`Tester`].
struct StressJobs {
    schedule: Schedule,
    tester: Arc<Tester>,
}

/// One case tried.
struct Tried {
    case: schedule::CaseInput,
    input: Vec<u8>,
    outcome: Outcome,
}

impl Jobs for StressJobs {
    type Output = Tried;

    fn run(&self, index: usize, _: &SolveWatch) -> Result<Tried> {
        let case = self.schedule.case(index as u64 + 1);
        let input = (self.tester.problem.generate)(case.seed, case.scale);
        let outcome = self.tester.try_input(&input)?;
        Ok(Tried {
            case,
            input,
            outcome,
        })
    }

    fn failed(&self, tried: &Tried) -> bool {
        !matches!(tried.outcome, Outcome::Agree)
    }
}

/// Runs inputs through the program under test and the brute force, and compares them.
struct Tester {
    problem: &'static Problem,
    subject: Subject,
    settings: Settings,
}

/// What one input showed.
enum Outcome {
    Agree,
    Disagree(Box<Trial>),
    /// Not the program's fault: the generator made an invalid input, or the brute force failed.
    Broken(Broken),
}

/// Why an input tells nothing of the program under test.
#[derive(Debug, thiserror::Error)]
enum Broken {
    #[error("the generator of {problem} made an input its validator rejects: {error}")]
    Invalid {
        problem: &'static str,
        error: InputError,
    },
    #[error(transparent)]
    Reference(#[from] ReferenceFailed),
}

/// A failing run, with what is needed to show it.
pub struct Trial {
    pub result: CaseResult,
    pub expected: Vec<u8>,
    pub output: Vec<u8>,
}

impl Tester {
    fn try_input(&self, input: &[u8]) -> Result<Outcome> {
        let problem = self.problem;
        // Stress inputs stay within the original limits, whatever the scale: the program under
        // test may be one written for the original judge (the generators cap their sizes there).
        if let Err(error) = (problem.validate)(&mut &input[..], Constraints::Original) {
            return Ok(Outcome::Broken(Broken::Invalid {
                problem: problem.id,
                error,
            }));
        }
        // The reference gets all the time it needs, as for `gen` and `add --brute`.
        let expected = match reference_run(problem, input, Reference::BruteForce) {
            Ok(output) => output,
            Err(failed) => return Ok(Outcome::Broken(failed.into())),
        };
        let case = Case::fixture(
            format!("{}/stress", problem.id),
            problem.id.to_string(),
            TreePath::in_memory("<stdin>"),
            None,
        );
        // An interactive problem's program plays the judge, with the brute force's answer file.
        if let Some(interactor) = &self.settings.interactor {
            let (subject, settings) = (&self.subject, &self.settings);
            let input = Input::Bytes(input);
            let played = subject.interact(
                problem.id,
                interactor,
                (input, &expected, None),
                settings,
                None,
            )?;
            let result = judge_interactive(case, &played);
            if result.verdict.passed() {
                return Ok(Outcome::Agree);
            }
            return Ok(Outcome::Disagree(Box::new(Trial {
                result,
                expected,
                output: played.transcript.render().into_bytes(),
            })));
        }
        let run = self.subject.run(
            problem.id,
            Some(problem),
            Input::Bytes(input),
            &self.settings,
            None,
        )?;
        let against = Against {
            input: Input::Bytes(input),
            expected: Some(&expected),
            checker: &self.settings.checker,
            judge_limits: &self.settings.judge_limits(),
            feedback: None,
        };
        let result = judge(case, &run, &against);
        if result.verdict.passed() {
            return Ok(Outcome::Agree);
        }
        Ok(Outcome::Disagree(Box::new(Trial {
            result,
            expected,
            output: run.output,
        })))
    }
}

/// The closing line of a run.
struct Summary {
    problem: &'static str,
    cases: u64,
    seed: u64,
    scales: String,
}

impl Summary {
    fn passed(&self, time: Duration) -> String {
        format!(
            "stress {}: {} cases, all agree with the brute force ({:.2}s, seed {}, {})",
            self.problem,
            self.cases,
            time.as_secs_f64(),
            self.seed,
            self.scales
        )
    }

    fn failed(&self, number: u64, time: Duration) -> String {
        format!(
            "stress {}: case {number} of {} fails ({:.2}s, seed {}, {})",
            self.problem,
            self.cases,
            time.as_secs_f64(),
            self.seed,
            self.scales
        )
    }
}

/// A seed that differs between runs, printed so the run can be repeated.
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // Small numbers are easier to retype; a million of them is plenty of runs.
    (nanos ^ u64::from(std::process::id()).rotate_left(32)) % 1_000_000
}

#[cfg(test)]
#[path = "stress_tests.rs"]
mod tests;
