//! `grundy check`: discover the selected cases, judge them in parallel, report in sorted order,
//! and exit 0 (all AC), 1 (some case failed) or 2 (nothing meaningful could be judged).

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::{known_problems, load_config};
use crate::checking::Checker;
use crate::cli::CheckArgs;
use crate::config::{Config, Overrides};
use crate::discovery::{discover, select, Case, Filter, INVALID_GROUP};
use crate::files::{write_atomic, Existing};
use crate::judging::{judge, CaseResult, Verdict};
use crate::reporting::{self, ReportOptions, Reporter, Summary, Verbosity};
use crate::running::{
    built_in_as_process, parse_command, run_external, run_in_process, solve_inline_on_this_thread,
    Failure, Run, SolveWatch, SOLVER_STACK,
};

/// Set by the Ctrl-C handler before it kills the judged programs, so the runs it cut short are
/// not reported (a killed program would look like RE).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What produces the output being judged.
enum Subject {
    /// The built-in solvers, in-process.
    BuiltIn,
    /// The built-in solvers as `grundy solve` child processes in the sandbox (`--isolate`).
    Isolated,
    /// A user's program in the sandbox (`--exec`).
    External(grundy_sandbox::Program),
}

pub fn run(args: CheckArgs, color: bool) -> Result<ExitCode> {
    let overrides = Overrides {
        jobs: args.jobs,
        time_limit_ms: args.time_limit,
        memory_limit_mb: args.memory_limit,
        output_limit_mb: args.output_limit,
        checker: args.checker.clone(),
        isolate: args.isolate,
        ..Overrides::default()
    };
    let config = load_config(&args.sources, overrides)?;
    let filters: Vec<Filter> = args
        .filters
        .iter()
        .map(|f| f.parse())
        .collect::<Result<_>>()?;
    let wanted: BTreeSet<&str> = filters.iter().map(|f| f.problem.as_str()).collect();
    let fixtures = discover(&config.fixtures, |p| {
        wanted.is_empty() || wanted.contains(p)
    })?;
    let verbosity = match (args.quiet, args.verbose) {
        (true, _) => Verbosity::Quiet,
        (_, true) => Verbosity::Verbose,
        _ => Verbosity::Normal,
    };
    if verbosity == Verbosity::Verbose {
        for link in &fixtures.skipped_links {
            eprintln!("note: not following the symbolic link `{}`", link.display());
        }
    }
    let cases = select(fixtures.cases, &filters)?;
    if cases.is_empty() {
        bail!(
            "no case to judge: there is no `.in` file below `{}`{}",
            config.fixtures.display(),
            if filters.is_empty() {
                ""
            } else {
                " for the given filters"
            }
        );
    }
    let subject = match &args.exec {
        Some(command) => Subject::External(parse_command(command)?),
        None if config.isolate => Subject::Isolated,
        None => Subject::BuiltIn,
    };
    let problems: BTreeSet<&str> = cases.iter().map(|c| c.problem.as_str()).collect();
    for problem in problems {
        if !matches!(subject, Subject::External(_)) && grundy_problems::find(problem).is_none() {
            bail!(
                "fixtures folder `{}` has no built-in problem `{problem}` (known: {}); judge its \
                 cases with --exec 'CMD', or rename the folder",
                config.fixtures.join(problem).display(),
                known_problems()
            );
        }
    }
    let suite_size = cases.len();
    let cases = match args.partition {
        Some(partition) => partition.apply(cases),
        None => cases,
    };
    // `invalid/` cases test the built-in solvers' exact error messages, which a contestant's
    // program cannot know: `--exec` leaves them out unless a filter names such a group.
    let (cases, left_out): (Vec<Case>, Vec<Case>) = if matches!(subject, Subject::External(_))
        && !filters.iter().any(|f| f.names_group(INVALID_GROUP))
    {
        cases.into_iter().partition(|case| !case.expects_error())
    } else {
        (cases, Vec::new())
    };
    if !left_out.is_empty() {
        eprintln!(
            "note: --exec leaves out {} deliberately invalid case(s) (`{INVALID_GROUP}/` groups \
             expect grundy's own error messages); name them in a filter to judge them",
            left_out.len()
        );
    }

    if !matches!(subject, Subject::BuiltIn) {
        // Ctrl-C must not leave judged programs running.
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::SeqCst);
            grundy_sandbox::kill_all_running();
            std::process::exit(130);
        });
        if verbosity == Verbosity::Verbose {
            eprintln!("containment: {}", grundy_sandbox::describe_containment());
        }
    }
    let mut reporter = reporting::reporter(ReportOptions {
        format: args.format,
        color,
        verbosity,
        junit: args.junit.clone(),
        slowest: args.slowest,
        time_limits: cases
            .iter()
            .map(|c| (c.problem.clone(), config.settings(&c.problem).time_limit))
            .collect(),
        cases: cases.len(),
    });
    let started = Instant::now();
    // Shared with the worker threads, which must not borrow from here (an overdue one is left
    // running when this function returns).
    let (config, subject) = (Arc::new(config), Arc::new(subject));
    let judge_one = {
        let (config, subject, bless) = (Arc::clone(&config), Arc::clone(&subject), args.bless);
        move |case: &Case| judge_case(case, &subject, &config, bless)
    };
    let judged = judge_all(
        Arc::new(cases),
        config.jobs,
        args.fail_fast,
        reporter.as_mut(),
        Arc::new(judge_one),
    );
    if INTERRUPTED.load(Ordering::SeqCst) {
        // Ctrl-C: no summary (nor exit 0) for a cut-short run. The handler is exiting with 130
        // too; std lets only one thread's exit through.
        std::process::exit(130);
    }
    let mut summary = judged?;
    summary.skipped += left_out.len();
    summary.wall_time = started.elapsed();
    summary.jobs = config.jobs;
    summary.partition = args.partition.map(|p| (p.to_string(), suite_size));
    reporter.finish(&summary)?;
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Judges one case; shared by the worker threads.
type JudgeOne = Arc<dyn Fn(&Case) -> Result<CaseResult> + Send + Sync>;

/// How long the collecting thread naps between looks at the events: halved after a look that
/// found some, doubled after one that found none, within these bounds (the longest also bounds
/// how late an overdue solver is seen).
const SHORTEST_NAP: Duration = Duration::from_micros(50);
const LONGEST_NAP: Duration = Duration::from_millis(2);

/// Judges `cases` on `jobs` worker threads and hands the results to `reporter` in case order as
/// soon as each one's turn comes, whatever order they finish in.
///
/// The workers run built-in solvers themselves (no handoff to another thread per case, see
/// `running::solve_inline_on_this_thread`), and this thread watches their time limits: a solver
/// still running past its limit cannot be stopped, so its case is reported TLE here, its worker
/// is abandoned (it keeps its core busy until the process exits) and a new worker takes its
/// place.
fn judge_all(
    cases: Arc<Vec<Case>>,
    jobs: usize,
    fail_fast: bool,
    reporter: &mut dyn Reporter,
    judge_one: JudgeOne,
) -> Result<Summary> {
    let work = Arc::new(Work {
        cases,
        judge_one,
        fail_fast,
        next_case: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        fatal: Mutex::new(None),
        panicked: Mutex::new(None),
    });
    let cases = &work.cases;
    let (sender, results) = mpsc::channel::<Event>();
    let mut workers = (0..jobs.max(1))
        .map(|_| Worker::start(&work, &sender))
        .collect::<Result<Vec<_>>>()?;
    let mut summary = Summary::default();
    let mut pending = BTreeMap::new();
    let mut next_to_report = 0;
    let mut nap = SHORTEST_NAP;
    while next_to_report < cases.len() {
        // Napping and then taking every event at once, rather than blocking on the channel: a
        // blocked receiver makes every send (two per case) a futex wake and a context switch,
        // which on a small VM costs about as much as judging a tiny case.
        let mut events = results.try_iter().peekable();
        if events.peek().is_none() {
            thread::sleep(nap);
            nap = (nap * 2).min(LONGEST_NAP);
        } else {
            nap = (nap / 2).max(SHORTEST_NAP);
        }
        for event in events {
            match event {
                Event::Started(index) => reporter.case_started(&cases[index]),
                // The result of a case already reported TLE (a late solver) is dropped.
                Event::Finished(index, result) if index >= next_to_report => {
                    pending.entry(index).or_insert(result);
                }
                Event::Finished(..) => {}
            }
        }
        for worker in &mut workers {
            if let Some(index) = worker.overdue_case() {
                worker.abandoned.store(true, Ordering::SeqCst);
                let case = &cases[index];
                let timed_out = Run {
                    time: worker.watch.running_for(),
                    failure: Some(Failure::TimeLimit),
                    ..Run::default()
                };
                // What `judge_case` makes of a run that timed out (it needs no expected output).
                let result = judge(case.clone(), &timed_out, None, &Checker::Tokens);
                if fail_fast {
                    work.stop.store(true, Ordering::Relaxed);
                }
                pending.insert(index, Some(Box::new(result)));
                *worker = Worker::start(&work, &sender)?;
            }
        }
        while let Some(result) = pending.remove(&next_to_report) {
            next_to_report += 1;
            match result {
                None => summary.skipped += 1,
                Some(result) => {
                    if result.verdict.passed() {
                        summary.passed += 1;
                    } else {
                        summary.failed += 1;
                    }
                    reporter.case_finished(&result);
                }
            }
        }
    }
    if let Some(payload) = work.panicked.lock().expect("never poisoned").take() {
        panic::resume_unwind(payload);
    }
    let fatal = work.fatal.lock().expect("never poisoned").take();
    match fatal {
        Some(error) => Err(error),
        None => Ok(summary),
    }
}

/// What the workers share.
struct Work {
    cases: Arc<Vec<Case>>,
    judge_one: JudgeOne,
    fail_fast: bool,
    /// The next case to take; workers take cases in sorted order, so results stream out nearly
    /// in order.
    next_case: AtomicUsize,
    /// No new case starts (`--fail-fast`, an error, Ctrl-C).
    stop: AtomicBool,
    /// An error that makes the whole run meaningless (the program cannot be started at all).
    fatal: Mutex<Option<anyhow::Error>>,
    /// A panic outside the solvers (a bug in grundy), raised again on the collecting thread.
    panicked: Mutex<Option<Box<dyn Any + Send>>>,
}

/// A worker thread as the collecting thread sees it.
struct Worker {
    watch: Arc<SolveWatch>,
    /// The case the worker is on.
    case: Arc<AtomicUsize>,
    /// Set when its case was judged TLE without it; it then stops after that case.
    abandoned: Arc<AtomicBool>,
}

impl Worker {
    fn start(work: &Arc<Work>, sender: &Sender<Event>) -> Result<Worker> {
        let worker = Worker {
            watch: SolveWatch::new(),
            case: Arc::new(AtomicUsize::new(usize::MAX)),
            abandoned: Arc::new(AtomicBool::new(false)),
        };
        let (watch, case, abandoned) = (
            Arc::clone(&worker.watch),
            Arc::clone(&worker.case),
            Arc::clone(&worker.abandoned),
        );
        let (work, sender) = (Arc::clone(work), sender.clone());
        thread::Builder::new()
            .name("grundy-worker".into())
            .stack_size(SOLVER_STACK)
            .spawn(move || {
                solve_inline_on_this_thread(watch);
                while !abandoned.load(Ordering::SeqCst) {
                    let index = work.next_case.fetch_add(1, Ordering::Relaxed);
                    if index >= work.cases.len() {
                        break;
                    }
                    case.store(index, Ordering::SeqCst);
                    let result = work.judge(index, &sender);
                    if sender
                        .send(Event::Finished(index, result.map(Box::new)))
                        .is_err()
                    {
                        break;
                    }
                }
            })
            .context("cannot start a worker thread")?;
        Ok(worker)
    }

    /// The case whose solver is past its time limit, if any. The case is read before and after
    /// the deadline, so a worker that moved on in between is not taken for overdue.
    fn overdue_case(&self) -> Option<usize> {
        let before = self.case.load(Ordering::SeqCst);
        let overdue = self.watch.overdue();
        (overdue && self.case.load(Ordering::SeqCst) == before).then_some(before)
    }
}

impl Work {
    /// Judges case `index` on the calling worker; `None` when it is skipped or the run is over.
    fn judge(&self, index: usize, sender: &Sender<Event>) -> Option<CaseResult> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        let _ = sender.send(Event::Started(index));
        let judged = panic::catch_unwind(AssertUnwindSafe(|| (self.judge_one)(&self.cases[index])));
        match judged {
            // Ctrl-C killed the run: no verdict of its own; the handler exits.
            Ok(Ok(_)) if INTERRUPTED.load(Ordering::SeqCst) => {
                self.stop.store(true, Ordering::Relaxed);
                None
            }
            Ok(Ok(result)) => {
                if self.fail_fast && !result.verdict.passed() {
                    self.stop.store(true, Ordering::Relaxed);
                }
                Some(result)
            }
            Ok(Err(error)) => {
                self.stop.store(true, Ordering::Relaxed);
                let mut fatal = self.fatal.lock().expect("never poisoned");
                fatal.get_or_insert(error);
                None
            }
            Err(payload) => {
                self.stop.store(true, Ordering::Relaxed);
                let mut panicked = self.panicked.lock().expect("never poisoned");
                panicked.get_or_insert(payload);
                None
            }
        }
    }
}

/// What a worker tells the reporting thread about the case at an index: started (for progress),
/// or finished with its result (`None` when `--fail-fast` skipped it).
enum Event {
    Started(usize),
    Finished(usize, Option<Box<CaseResult>>),
}

/// Runs the subject on `case` and judges it; under `--bless`, writes the output as the expected
/// file when it is missing or not accepted. An error means the program cannot run at all.
fn judge_case(case: &Case, subject: &Subject, config: &Config, bless: bool) -> Result<CaseResult> {
    let settings = config.settings(&case.problem);
    let run = match subject {
        Subject::BuiltIn => {
            let problem =
                grundy_problems::find(&case.problem).expect("problems were checked before judging");
            match std::fs::read(&case.input) {
                Ok(input) => run_in_process(problem.solve, input, settings.time_limit),
                Err(error) => return Ok(unreadable(case, &case.input, error)),
            }
        }
        Subject::Isolated => {
            run_external(&built_in_as_process(&case.problem)?, &case.input, settings)?
        }
        Subject::External(program) => run_external(program, &case.input, settings)?,
    };
    let expected = match case.expected.as_ref().map(std::fs::read).transpose() {
        Ok(expected) => expected,
        Err(error) => {
            let path = case.expected.as_ref().expect("read only when present");
            return Ok(unreadable(case, path, error));
        }
    };
    let mut result = judge(case.clone(), &run, expected.as_deref(), &settings.checker);
    if bless && matches!(result.verdict, Verdict::WA | Verdict::PE | Verdict::NOEXP) {
        bless_case(&mut result, &run);
    }
    Ok(result)
}

fn bless_case(result: &mut CaseResult, run: &Run) {
    let path = result
        .case
        .expected
        .clone()
        .unwrap_or_else(|| result.case.default_expected_path());
    // A case of an `invalid/` group expects the solver's error message, not an output.
    let contents = match (result.case.expects_error(), &run.failure) {
        (false, _) => run.output.clone(),
        (true, Some(Failure::RejectedInput(message))) => format!("{message}\n").into_bytes(),
        (true, _) => {
            result.message = Some(format!(
                "{}; --bless writes an `.err` file only when the solver rejects the input",
                result.message.as_deref().unwrap_or("not rejected")
            ));
            return;
        }
    };
    match write_atomic(&path, &contents, Existing::Replace) {
        Ok(()) => {
            result.verdict = Verdict::AC;
            result.message = None;
            result.diff = None;
            result.blessed = Some(path);
        }
        Err(error) => {
            result.message = Some(format!("--bless could not write: {error:#}"));
        }
    }
}

/// A fixture file that cannot be read fails its case with the reason (the run goes on).
fn unreadable(case: &Case, path: &std::path::Path, error: std::io::Error) -> CaseResult {
    let message = format!("cannot read `{}`: {error}", path.display());
    CaseResult::new(case.clone(), Verdict::RE, Some(message))
}
