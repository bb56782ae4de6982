//! Interactive runs with processes, each contained by the sandbox and joined by pipes:
//! - a program (an `--exec` program, or `grundy solve` under `--isolate`) against a built-in
//!   judge, which runs right here, reading and writing the program's pipes;
//! - a program, or the built-in player, against an interactor program (Kattis or testlib
//!   protocol), the exchange relayed through grundy so it can be recorded.
//!
//! No side can hold up the other past its limits: every read and write waits with a deadline,
//! the program is ended as soon as a judge has rejected it, and an interactor that does not end
//! soon after the program is stopped and blamed.

use std::ffi::OsString;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use grundy_problems::{Decision, Interaction, Link, PlayError};
use grundy_sandbox::{
    Cancel, End, Limits, Outcome, Program, SpawnError, Stdin, Stdout, ThreadClock,
};

use super::interactor::{
    interactor_files, interactor_judgement, Files, INTERACTOR_GRACE, TESTLIB_OUTPUT,
};
use super::pipes::{pipe, relay, PipeLink};
use super::{judgement_of, take, Direction, InteractiveRun, Recorded, Transcript};
use crate::checking::{Checker, ExternalJudge, Feedback, Judgement, Protocol, Submitted};
use crate::config::Settings;
use crate::contained::Contained;
use crate::run_input::Input;
use crate::running::external::run_of;
use crate::running::helpers;
use crate::running::in_process::{catching_panics, SolveWatch, SOLVER_STACK};
use crate::running::run::{Failure, Run, TimeLimits};
use grundy_sandbox::Clock;

/// Beyond the program's time limit, before a judge gives up waiting for it (the sandbox ends
/// the program at its limit; the judge then reads the end of its output).
const READ_SLACK: Duration = Duration::from_millis(500);

/// The side facing an interactor program.
#[derive(Clone, Copy)]
pub enum Side<'a> {
    /// A program under test, contained.
    Program(&'a Program),
    /// A built-in problem's player, in-process.
    Player(fn(&mut dyn Link) -> Result<(), PlayError>),
}

/// A program running in the sandbox, waited for on a helper thread.
struct Running {
    cancel: Cancel,
    finished: mpsc::Receiver<Result<Outcome, SpawnError>>,
}

impl Running {
    /// Starts `program` with the given stdin and stdout under `limits` (plus the files placed
    /// in its working folder, read back and copied out after it, and `env` added to its
    /// environment) on a helper thread; `cancel` stops it, and `on_end` is called with its
    /// outcome the moment it ends.
    fn start(
        cancel: Cancel,
        program: &Program,
        limits: &Limits,
        (stdin, stdout): (Stdin, Stdout),
        files: Files,
        (env, on_end): (&[(OsString, OsString)], OnEnd),
    ) -> std::io::Result<Running> {
        let (done, finished) = mpsc::channel();
        let (program, limits, token) = (program.clone(), limits.clone(), cancel.clone());
        let env = env.to_vec();
        helpers::spawn(move || {
            let outcome = Contained::new(&program, limits)
                .stdin(stdin)
                .stdout(stdout)
                .env(&env)
                .files(files.placed)
                .collect(files.collect)
                .export(files.export)
                .cancel(token)
                .run();
            if let Some(on_end) = on_end {
                on_end(&outcome);
            }
            let _ = done.send(outcome);
        })?;
        Ok(Running { cancel, finished })
    }

    /// Waits for the run to end, at most until `give_up` (then it is stopped).
    fn wait(self, give_up: Option<Instant>) -> Result<Outcome, SpawnError> {
        if let Some(give_up) = give_up {
            let wait = give_up.saturating_duration_since(Instant::now());
            if let Ok(outcome) = self.finished.recv_timeout(wait) {
                return outcome;
            }
            self.cancel.cancel();
        }
        self.finished
            .recv()
            .unwrap_or_else(|_| Err(setup_error("the run's thread is gone")))
    }
}

/// What to do the moment a run ends, with its outcome.
type OnEnd = Option<Box<dyn FnOnce(&Result<Outcome, SpawnError>) + Send>>;

fn spawn_error(error: std::io::Error) -> SpawnError {
    setup_error(&format!("cannot prepare an interactive run: {error}"))
}

fn setup_error(reason: &str) -> SpawnError {
    SpawnError::Other {
        command: "(interactive run)".into(),
        reason: reason.into(),
    }
}

/// `program` against the built-in judge of `interaction`, which runs on this thread (watched
/// through `watch` for the program's limit plus the judge's own, in case it never returns).
pub fn program_against_judge(
    program: &Program,
    interaction: Interaction,
    input: &[u8],
    answer: &[u8],
    settings: &Settings,
    watch: Option<&SolveWatch>,
) -> Result<InteractiveRun, SpawnError> {
    let (to_program_r, to_program_w) = pipe().map_err(spawn_error)?;
    let (from_program_r, from_program_w) = pipe().map_err(spawn_error)?;
    let limits = settings.limits.program();
    let running = Running::start(
        Cancel::new(),
        program,
        &limits,
        (Stdin::Fd(to_program_r), Stdout::Fd(from_program_w)),
        Files::default(),
        (&settings.env, None),
    )
    .map_err(spawn_error)?;
    let started = Instant::now();
    // The program is silent past its limit when it has not answered by the wall-clock limit
    // (its CPU time is its sandbox's to judge).
    let deadline = started + limits.wall + READ_SLACK;
    let transcript = Arc::new(Mutex::new(Transcript::default()));
    let mut link = Recorded {
        inner: PipeLink::new(from_program_r, to_program_w, deadline).map_err(spawn_error)?,
        transcript: Arc::clone(&transcript),
        reads: Direction::FromProgram,
    };
    let judge = |link: &mut Recorded<PipeLink>| {
        catching_panics(|| (interaction.judge)(input, answer, link))
    };
    let decision = match watch {
        // The built-in judge on this thread: its own CPU time, and the program's wall time
        // plus its own.
        Some(watch) => watch.during(
            TimeLimits {
                cpu: settings.limits.judge_time,
                wall: limits.wall + settings.limits.judge_time,
            },
            || judge(&mut link),
        ),
        None => judge(&mut link),
    };
    let judge_ended = Instant::now();
    let silent = link.inner.timed_out;
    let program_left = link.inner.closed_at;
    // The judge is done: the program reads the end of its input. A rejected program is ended
    // at once, since nothing it does now can change the verdict.
    drop(link);
    // (A program whose output has ended is ending anyway: it is let go, so its own end is known.)
    let rejected = !matches!(decision, Ok(Decision::Accept));
    if rejected && program_left.is_none() {
        running.cancel.cancel();
    }
    let outcome = running.wait(None)?;
    let (program, program_ended) = program_side(&outcome, settings);
    // The end of its output, when the judge saw it, orders the program's end exactly against
    // the judge's decision (the sandbox's account of the end comes a moment later).
    let program_ended = program_left.or(program_ended);
    Ok(InteractiveRun {
        program,
        program_ended,
        judge: judgement_of(decision),
        judge_ended,
        program_silent_past_limit: silent,
        transcript: take(transcript),
    })
}

/// The program's side of an interactive run: a run stopped by grundy (its judge had already
/// decided) has no failure of its own.
fn program_side(outcome: &Outcome, settings: &Settings) -> (Run, Option<Instant>) {
    let mut run = run_of(outcome.clone(), &settings.limits);
    if outcome.end == End::Cancelled {
        run.failure = None;
    }
    (run, Some(outcome.ended_at))
}

/// `side` against the interactor program `interactor` on the case `input` and its `answer`
/// (with the feedback folder the passes of a multi-pass case share). A testlib interactor's
/// output file is then judged by `checker`, when the problem has one.
pub fn against_interactor(
    side: Side<'_>,
    interactor: &ExternalJudge,
    (input, answer, feedback): (Input<'_>, &[u8], Option<&Feedback>),
    settings: &Settings,
    checker: Option<&Checker>,
) -> Result<InteractiveRun, SpawnError> {
    let (program_in_r, program_in_w) = pipe().map_err(spawn_error)?;
    let (program_out_r, program_out_w) = pipe().map_err(spawn_error)?;
    let (interactor_in_r, interactor_in_w) = pipe().map_err(spawn_error)?;
    let (interactor_out_r, interactor_out_w) = pipe().map_err(spawn_error)?;
    // The interactor's CPU time is its own limit; it waits while the program computes, so
    // its wall clock runs as long as the program's and then its own.
    let judge_limits = Limits {
        wall: settings.limits.wall() + settings.limits.judge().wall,
        ..settings.limits.judge()
    };
    let (interactor_program, files) =
        interactor_files(interactor, input, answer, feedback).map_err(spawn_error)?;
    // An interactor that ends without accepting has decided the case: nothing the program does
    // afterwards can change the verdict, so it is stopped at once (rather than left to spin or
    // wait until its time limit) - unless its output had ended first: then it is ending by
    // itself, maybe failing first, and its own end must be known.
    let program_cancel = Cancel::new();
    let program_left = Arc::new(AtomicBool::new(false));
    let (stop_program, left) = (program_cancel.clone(), Arc::clone(&program_left));
    let protocol = interactor.protocol;
    let stop_if_rejected: OnEnd = Some(Box::new(move |outcome| {
        let accepted = matches!(
            (protocol, outcome.as_ref().map(|o| &o.end)),
            (Protocol::Kattis, Ok(End::Exited(42))) | (Protocol::Testlib, Ok(End::Exited(0)))
        );
        if !accepted && !left.load(Ordering::SeqCst) {
            stop_program.cancel();
        }
    }));
    let judge = Running::start(
        Cancel::new(),
        &interactor_program,
        &judge_limits,
        (Stdin::Fd(interactor_in_r), Stdout::Fd(interactor_out_w)),
        files,
        (&[], stop_if_rejected),
    )
    .map_err(spawn_error)?;
    let started = Instant::now();
    let transcript = Arc::new(Mutex::new(Transcript::default()));
    // With the program's run, when its output and the interactor's were seen to end: the exact
    // order of their ends (the sandbox's account of an end comes a moment later).
    let (program, interactor_closed) = match side {
        Side::Program(program) => {
            let running = Running::start(
                program_cancel,
                program,
                &settings.limits.program(),
                (Stdin::Fd(program_in_r), Stdout::Fd(program_out_w)),
                Files::default(),
                (&settings.env, None),
            )
            .map_err(spawn_error)?;
            let relay_until = started + judge_limits.wall + INTERACTOR_GRACE;
            let relayed = relay(
                (program_out_r, interactor_in_w),
                (interactor_out_r, program_in_w),
                &transcript,
                (settings.limits.output_mib << 20, &program_left),
                (relay_until, INTERACTOR_GRACE),
            )
            .map_err(spawn_error)?;
            if relayed.output_limit {
                running.cancel.cancel();
            }
            let outcome = running.wait(None)?;
            let (mut run, ended) = program_side(&outcome, settings);
            if relayed.output_limit {
                run.failure = Some(Failure::OutputLimit {
                    limit_mb: settings.limits.output_mib,
                });
            }
            (
                (run, relayed.program_closed.or(ended)),
                relayed.interactor_closed,
            )
        }
        Side::Player(play) => {
            drop((program_in_r, program_in_w, program_out_r, program_out_w));
            let limits = TimeLimits::of(&settings.limits);
            let deadline = started + limits.wall + READ_SLACK;
            let link =
                PipeLink::new(interactor_out_r, interactor_in_w, deadline).map_err(spawn_error)?;
            let (run, ended, interactor_closed) =
                play_against(play, link, Arc::clone(&transcript), limits);
            ((run, ended), interactor_closed)
        }
    };
    // The program is over: the interactor has a moment to end, or it is to blame.
    let give_up = program.1.unwrap_or_else(Instant::now).max(started) + INTERACTOR_GRACE;
    let judged = judge.wait(Some(give_up))?;
    let judge_ended = interactor_closed.unwrap_or(judged.ended_at);
    let mut judgement =
        interactor_judgement(interactor, &judged, (&judge_limits, feedback), &program);
    // testlib: a problem with a checker judges the interactor's output file with it.
    if let (Judgement::Accepted, Some(checker)) = (&judgement, checker) {
        let output = judged
            .collected
            .iter()
            .find(|(path, _)| path == Path::new(TESTLIB_OUTPUT))
            .map_or(&[][..], |(_, bytes)| bytes);
        let submitted = Submitted {
            input,
            expected: answer,
            output,
            feedback: None,
            submission_files: None,
        };
        judgement = checker.judge(&submitted, &settings.limits.judge());
    }
    let (program, program_ended) = program;
    Ok(InteractiveRun {
        program,
        program_ended,
        judge: judgement,
        judge_ended,
        program_silent_past_limit: false,
        transcript: take(transcript),
    })
}

/// The built-in player on a thread of its own, facing an interactor through `link`: its run,
/// when it ended, and when it saw the interactor's output end.
fn play_against(
    play: fn(&mut dyn Link) -> Result<(), PlayError>,
    link: PipeLink,
    transcript: Arc<Mutex<Transcript>>,
    limits: TimeLimits,
) -> (Run, Option<Instant>, Option<Instant>) {
    let started = Instant::now();
    let (done, finished) = mpsc::channel();
    let spawned = thread::Builder::new()
        .name("grundy-player".into())
        .stack_size(SOLVER_STACK)
        .spawn(move || {
            let clock = ThreadClock::current();
            let mut link = Recorded {
                inner: link,
                transcript,
                reads: Direction::ToProgram,
            };
            let failure = match catching_panics(|| play(&mut link)) {
                Ok(Ok(())) => None,
                Ok(Err(error)) => Some(Failure::GaveUp(error.to_string())),
                Err(panic) => Some(panic),
            };
            let _ = done.send((Instant::now(), failure, link.inner.closed_at, clock.now()));
        });
    let (ended, failure, closed, cpu) = match spawned {
        Ok(_) => match finished.recv_timeout(limits.wall + READ_SLACK) {
            Ok((at, failure, closed, cpu)) => (Some(at), failure, closed, cpu),
            Err(_) => (
                None,
                Some(Failure::TimeLimit(Clock::Wall)),
                None,
                Duration::ZERO,
            ),
        },
        Err(error) => (
            Some(Instant::now()),
            Some(Failure::GaveUp(error.to_string())),
            None,
            Duration::ZERO,
        ),
    };
    // The player's thread is its own: its CPU clock is the player's time, as a solver's.
    let over_cpu = (cpu > limits.cpu).then_some(Failure::TimeLimit(Clock::Cpu));
    let run = Run {
        cpu,
        wall: ended.unwrap_or_else(Instant::now) - started,
        failure: failure.or(over_cpu),
        ..Run::default()
    };
    (run, ended, closed)
}
