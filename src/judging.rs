//! Judging one case: the one case runner ([`run_case`], in `judging/runner.rs`) runs the program
//! and turns the run and the expected output into a verdict with a message and, for a wrong
//! answer, a diff ([`judge`]); an interactive run by the first-failure rule
//! ([`judge_interactive`]); a multi-pass package's case pass after pass ([`judge_passes`]).

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::checking::feedback::NEXT_PASS;
use crate::checking::score::ValidatorScore;
use crate::checking::{Checker, Feedback, Judgement, Submitted};
use crate::diffing::{self, Diff};
use crate::discovery::Case;
use crate::escape::visible;
use crate::running::interactive::InteractiveRun;
use crate::running::{Clock, Failure, Input, Run, RunError};
use grundy_sandbox::Limits;

mod runner;
pub use runner::{judge_given, run_case, Judge, Ran, Trial};

/// The verdicts of the README; everything but `AC` fails the run. The names are the contract's
/// (and every judge's), hence the capitals.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Verdict {
    AC,
    WA,
    PE,
    RE,
    TLE,
    MLE,
    OLE,
    NOEXP,
    JE,
}

impl Verdict {
    pub fn passed(self) -> bool {
        self == Verdict::AC
    }

    /// What the verdict stands for, for people.
    pub fn meaning(self) -> &'static str {
        match self {
            Verdict::AC => "accepted",
            Verdict::WA => "wrong answer",
            Verdict::PE => "presentation error",
            Verdict::RE => "runtime error",
            Verdict::TLE => "time limit exceeded",
            Verdict::MLE => "memory limit exceeded",
            Verdict::OLE => "output limit exceeded",
            Verdict::NOEXP => "no expected output",
            Verdict::JE => "judge error",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// Everything the reporters need about one judged case.
#[derive(Debug)]
pub struct CaseResult {
    pub case: Case,
    pub verdict: Verdict,
    /// The time the verdict went by: the CPU time, or the wall time of a run the wall-clock
    /// backstop stopped.
    pub time: Duration,
    /// CPU time of every process and thread of the run.
    pub cpu: Duration,
    /// Wall-clock time of the run.
    pub wall: Duration,
    /// The limit that ended a run over time (TLE).
    pub stopped_by: Option<Clock>,
    pub peak_memory_bytes: Option<u64>,
    /// Why the case failed, in one line; `None` for AC.
    pub message: Option<String>,
    pub diff: Option<Diff>,
    /// The start of the program's stderr, for failed external runs.
    pub stderr: Option<String>,
    /// The start of what a run that failed by itself (RE, TLE, MLE, OLE) wrote to stdout before
    /// it ended: a crash must not hide what was printed first.
    pub stdout: Option<String>,
    /// A failed case's whole input, when it is small enough to show (see [`small_input`]).
    pub input: Option<String>,
    /// The expected file `--bless` wrote for this case.
    pub blessed: Option<PathBuf>,
    /// The last lines of a failed interactive case's exchange (`>` to the program, `<` from it).
    pub exchange: Option<String>,
    /// The score file an accepting Kattis judge wrote (scoring problems).
    pub score: Option<ValidatorScore>,
    /// How the run ended, when it did not end well by itself (what a verdict of RE, TLE, MLE
    /// or OLE came from: a signal, the process limit...).
    pub failure: Option<Failure>,
}

/// One judged case of one submission, as `verify` keeps it (what scoring, the time limit and
/// the report read of a [`CaseResult`]).
#[derive(Clone, Debug)]
pub struct CaseRun {
    pub verdict: Verdict,
    /// CPU time, or the wall time of a run the wall clock stopped.
    pub time: Duration,
    /// The limit that ended a run over time.
    pub stopped_by: Option<Clock>,
    /// Why it failed, on one line.
    pub message: Option<String>,
    /// The score file its judge wrote, when it accepted the case with one.
    pub score: Option<ValidatorScore>,
    /// What the run measured (CPU and wall time, peak memory) and how it ended, kept so a
    /// disagreement with the package can be explained (`verification::explain`).
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_memory_bytes: Option<u64>,
    pub failure: Option<Failure>,
    /// What a failed run showed beyond its message (its diff, its stderr), bounded, for the
    /// HTML report's failure details; `None` for an accepted run.
    pub detail: Option<String>,
    /// The last line a failed run printed (its stderr's, else its stdout's), bounded: what a
    /// program that ended itself said last, for `verification::explain`.
    pub said: Option<String>,
}

/// What a case is judged against: its input, its expected file (`None` when it has none), the
/// checker, the limits an external checker runs under, and the feedback folder the passes of a
/// multi-pass case share.
#[derive(Clone, Copy)]
struct Against<'a> {
    pub input: Input<'a>,
    pub expected: Option<&'a [u8]>,
    pub checker: &'a Checker,
    pub judge_limits: &'a Limits,
    pub feedback: Option<&'a Feedback>,
    /// The folder the judged program's runs start from, for a judge that sees it.
    pub submission_files: Option<&'a Path>,
}

/// Turns a finished run into a result: a failed run decides the verdict by itself; otherwise the
/// checker judges the output. What the program wrote reaches the result with its control
/// characters escaped (see [`crate::escape`]).
fn judge(case: Case, run: &Run, against: &Against<'_>) -> CaseResult {
    escaped(judge_unescaped(case, run, against))
}

/// The result of a run that failed (`run.failure` is set): its failure decides the verdict, and
/// nothing is compared.
pub fn judge_failed_run(case: Case, run: &Run) -> CaseResult {
    let failure = run.failure.as_ref().expect("only a failed run");
    let mut result = CaseResult::new(case, Verdict::AC, None).measured(run);
    let (verdict, message) = describe_failure(failure, &result);
    result.verdict = verdict;
    result.message = Some(message);
    result.stderr =
        (!run.stderr.is_empty()).then(|| String::from_utf8_lossy(&run.stderr).into_owned());
    result.stdout = (!run.output.is_empty()).then(|| {
        let start = &run.output[..run.output.len().min(STDOUT_SHOWN)];
        String::from_utf8_lossy(start).into_owned()
    });
    escaped(result)
}

/// Bytes of a failed run's stdout kept for its report.
const STDOUT_SHOWN: usize = 4096;
/// The largest input shown whole under a failure: bytes and lines.
const SMALL_INPUT_BYTES: u64 = 256;
const SMALL_INPUT_LINES: usize = 8;

/// The input of `case` as text, when it is small enough to show under a failure (at most
/// [`SMALL_INPUT_BYTES`] bytes and [`SMALL_INPUT_LINES`] lines), its control characters escaped;
/// `None` for a larger one or one that cannot be read (its path is shown either way).
pub fn small_input(case: &Case) -> Option<String> {
    use std::io::Read;
    let mut bytes = vec![];
    let file = case.input.open().ok()?;
    file.take(SMALL_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    let text = String::from_utf8_lossy(&bytes);
    (bytes.len() as u64 <= SMALL_INPUT_BYTES && text.lines().count() <= SMALL_INPUT_LINES)
        .then(|| visible(&text).into_owned())
}

/// `result` with the control characters of its message and stderr escaped.
fn escaped(mut result: CaseResult) -> CaseResult {
    let escape = |text: &mut Option<String>| {
        if let Some(text) = text {
            if let Cow::Owned(escaped) = visible(text) {
                *text = escaped;
            }
        }
    };
    escape(&mut result.message);
    escape(&mut result.stderr);
    escape(&mut result.stdout);
    result
}

fn judge_unescaped(case: Case, run: &Run, against: &Against<'_>) -> CaseResult {
    let expected = against.expected;
    let mut result = CaseResult::new(case, Verdict::AC, None).measured(run);
    if result.case.expects_error() {
        judge_rejection(&mut result, run, expected);
        return result;
    }
    if run.failure.is_some() {
        return judge_failed_run(result.case, run);
    }
    let Some(expected) = expected else {
        return no_expected(result.case);
    };
    let submitted = Submitted {
        input: against.input,
        expected,
        output: &run.output,
        feedback: against.feedback,
        submission_files: against.submission_files,
    };
    let checker = against.checker;
    // A diff against the expected file says something only when that file is the one answer.
    let diff = || {
        checker
            .compares()
            .then(|| diffing::diff(expected, &run.output))
            .flatten()
    };
    match checker.judge(&submitted, against.judge_limits) {
        Judgement::Accepted => {}
        Judgement::Scored(score) => result.score = Some(score),
        Judgement::WrongAnswer(message) => {
            result.verdict = Verdict::WA;
            result.message = Some(message);
            result.diff = diff();
        }
        Judgement::PresentationError(message) => {
            result.verdict = Verdict::PE;
            result.message = Some(match checker.compares() {
                true => format!("{message} (the tokens match; the layout does not)"),
                false => message,
            });
            result.diff = diff();
        }
        Judgement::JudgeError(message) => {
            result.verdict = Verdict::JE;
            result.message = Some(judge_error(&message));
        }
    }
    result
}

/// Judges an interactive run by the Kattis rule: the side that failed first decides. A program
/// that crashed, overran a limit or fell silent past its time limit before the judge finished is
/// judged by that (RE, TLE, MLE, ...), even though the judge then found it wrong or could not go
/// on; a judge that rejected first gives WA, whatever the program did after; an accepting judge
/// still needs the program to end well.
/// An interactive program stopped by the wall clock with under 1/`IDLE_SHARE` of that time in
/// CPU time was waiting, not computing: its message says what it most often waits for.
const IDLE_SHARE: u32 = 10;

fn judge_interactive(case: Case, run: &InteractiveRun) -> CaseResult {
    let program_first = run
        .program_ended
        .is_some_and(|ended| ended <= run.judge_ended);
    let program_failed = |first: bool| run.program.failure.is_some() && first;
    let mut result = if run.program_silent_past_limit {
        // Silent past its time limit: the wall clock stopped it.
        let timed_out = Run {
            cpu: run.program.cpu,
            wall: run.program.wall,
            failure: Some(Failure::TimeLimit(Clock::Wall)),
            stderr: run.program.stderr.clone(),
            ..Run::default()
        };
        judge_failed_run(case, &timed_out)
    } else {
        match &run.judge {
            Judgement::Accepted | Judgement::Scored(_) if run.program.failure.is_some() => {
                judge_failed_run(case, &run.program)
            }
            Judgement::Accepted => CaseResult::new(case, Verdict::AC, None).measured(&run.program),
            Judgement::Scored(score) => CaseResult {
                score: Some(*score),
                ..CaseResult::new(case, Verdict::AC, None).measured(&run.program)
            },
            _ if program_failed(program_first) => judge_failed_run(case, &run.program),
            Judgement::WrongAnswer(message) | Judgement::PresentationError(message) => {
                let result = CaseResult::new(case, Verdict::WA, Some(message.clone()));
                escaped(result.measured(&run.program))
            }
            Judgement::JudgeError(message) => {
                let result = CaseResult::new(case, Verdict::JE, Some(judge_error(message)));
                escaped(result.measured(&run.program))
            }
        }
    };
    // Stopped by the wall clock having run under a tenth of that time: in an exchange, most
    // often waiting for the judge, which was waiting for the program's last line, still in the
    // program's output buffer. (A program that computes on a busy machine gets more than that.)
    if result.stopped_by == Some(Clock::Wall) && run.program.cpu * IDLE_SHARE < run.program.wall {
        result.message = Some(format!(
            "stopped by the wall-clock limit after {} ms with {} ms of CPU time used: an \
             interactive program that waits this long is most often waiting for the judge \
             while the judge waits for its last line, written but not flushed (flush after \
             every line)",
            run.program.wall.as_millis(),
            run.program.cpu.as_millis()
        ));
    }
    if !result.verdict.passed() {
        let exchange = run.transcript.render();
        result.exchange = (!exchange.is_empty()).then(|| visible(&exchange).into_owned());
    }
    result
}

/// Judges a case of a problem whose cases take up to `passes` passes (1 for every problem but a
/// multi-pass one). `pass` runs the program on one pass's input (the case's `input` first) and
/// judges it, with the feedback folder the passes share when there are several. A pass that is
/// not accepted ends the case with its verdict; one accepted without a `nextpass.in` from the
/// judge ends it accepted; otherwise `nextpass.in` is the next pass's input. A judge that asks
/// for a pass beyond `passes` is at fault (JE). Each pass has the limits to itself: the case's
/// time and memory are those of its slowest and largest pass.
fn judge_passes(
    passes: u64,
    input: Input<'_>,
    mut pass: impl FnMut(Input<'_>, Option<&Feedback>) -> Result<CaseResult, RunError>,
) -> Result<CaseResult, RunError> {
    if passes <= 1 {
        return pass(input, None);
    }
    let feedback = Feedback::new().map_err(|error| {
        RunError::Setup(anyhow::anyhow!(
            "cannot make a feedback folder for the passes: {error}"
        ))
    })?;
    let mut slowest = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut largest = None;
    let mut next: Option<Vec<u8>> = None;
    let mut number = 1;
    loop {
        let mut result = pass(next.as_deref().map_or(input, Input::Bytes), Some(&feedback))?;
        slowest.0 = slowest.0.max(result.time);
        slowest.1 = slowest.1.max(result.cpu);
        slowest.2 = slowest.2.max(result.wall);
        largest = largest.max(result.peak_memory_bytes);
        (result.time, result.cpu, result.wall) = slowest;
        result.peak_memory_bytes = largest;
        if !result.verdict.passed() {
            result.message = result.message.map(|m| format!("pass {number}: {m}"));
            return Ok(result);
        }
        let fault = match feedback.take_next_pass() {
            Ok(None) => return Ok(result),
            Ok(Some(_)) if number == passes => format!(
                "the judge wrote {NEXT_PASS} in pass {number}, the last the problem allows \
                 (limits.validation_passes: {passes})"
            ),
            Ok(Some(bytes)) => {
                next = Some(bytes);
                number += 1;
                continue;
            }
            Err(error) => format!("cannot take {NEXT_PASS} from the feedback folder: {error}"),
        };
        result.verdict = Verdict::JE;
        result.message = Some(judge_error(&fault));
        return Ok(result);
    }
}

/// The result of a case without an expected file.
pub fn no_expected(case: Case) -> CaseResult {
    let message = format!(
        "no expected output `{}` (nor `.ans`); run `grundy check {} --bless` to write the built-in \
         solver's output there, or `grundy add` for a new case",
        case.default_expected_path().display(),
        case.id
    );
    escaped(CaseResult::new(case, Verdict::NOEXP, Some(message)))
}

/// A judge error's message: what went wrong, and whose fault it is.
pub fn judge_error(what: &str) -> String {
    format!(
        "{what} (a judge error: the problem's checker or interactor is at fault, not the program)"
    )
}

/// A case of an `invalid/` group: it passes when the program rejects the input with exactly the
/// message of the `.err` file (both trimmed). The built-in solver rejects by returning an input
/// error; an external program by exiting with a non-zero status, its stderr holding the message
/// (so `--exec 'grundy solve ID'`, which prints `error: <stdin>: MESSAGE`, passes too). Accepting
/// the input is a wrong answer; a panic, a timeout or a limit is judged as anywhere else.
fn judge_rejection(result: &mut CaseResult, run: &Run, expected: Option<&[u8]>) {
    let rejection = match &run.failure {
        None => None,
        Some(Failure::RejectedInput(message)) => Some((message.trim().to_string(), true)),
        Some(Failure::ExitCode(_)) => {
            let stderr = String::from_utf8_lossy(&run.stderr).trim().to_string();
            Some((stderr, false))
        }
        Some(failure) => {
            let (verdict, message) = describe_failure(failure, result);
            result.verdict = verdict;
            result.message = Some(message);
            result.stderr =
                (!run.stderr.is_empty()).then(|| String::from_utf8_lossy(&run.stderr).into_owned());
            return;
        }
    };
    let Some(expected) = expected else {
        result.verdict = Verdict::NOEXP;
        result.message = Some(format!(
            "no expected error message `{}`; this input lies in an `{}/` group, so it must be \
             rejected: run `grundy check {} --bless` to write the solver's message there",
            result.case.default_expected_path().display(),
            crate::discovery::INVALID_GROUP,
            result.case.id
        ));
        return;
    };
    let expected = String::from_utf8_lossy(expected).trim().to_string();
    let Some((actual, exact)) = rejection else {
        result.verdict = Verdict::WA;
        result.message = Some(format!(
            "the input was accepted, but it is deliberately invalid and must be rejected with \
             `{expected}`"
        ));
        return;
    };
    let matches = if exact {
        actual == expected
    } else {
        !expected.is_empty() && actual.contains(&expected)
    };
    if !matches {
        result.verdict = Verdict::WA;
        result.message = Some(format!(
            "rejected with the wrong message: expected `{expected}`, found `{actual}`"
        ));
        result.diff = diffing::diff(expected.as_bytes(), actual.as_bytes());
        result.stderr = (!exact && !actual.is_empty()).then(|| actual.clone());
    }
}

impl CaseResult {
    /// A result with no run behind it yet (or none at all, as for an unreadable fixture).
    /// The times and memory of `run`, taken into this result.
    pub fn measured(mut self, run: &Run) -> Self {
        self.time = run.time();
        (self.cpu, self.wall) = (run.cpu, run.wall);
        self.stopped_by = match run.failure {
            Some(Failure::TimeLimit(clock)) => Some(clock),
            _ => None,
        };
        self.peak_memory_bytes = run.peak_memory_bytes;
        self.failure.clone_from(&run.failure);
        self
    }

    pub fn new(case: Case, verdict: Verdict, message: Option<String>) -> Self {
        CaseResult {
            case,
            verdict,
            time: Duration::ZERO,
            cpu: Duration::ZERO,
            wall: Duration::ZERO,
            stopped_by: None,
            peak_memory_bytes: None,
            message,
            diff: None,
            stderr: None,
            stdout: None,
            input: None,
            blessed: None,
            exchange: None,
            score: None,
            failure: None,
        }
    }
}

fn describe_failure(failure: &Failure, result: &CaseResult) -> (Verdict, String) {
    let verdict = match failure {
        Failure::Panicked(_)
        | Failure::RejectedInput(_)
        | Failure::ExitCode(_)
        | Failure::GaveUp(_)
        | Failure::Signal(_)
        | Failure::ProcessLimit => Verdict::RE,
        Failure::TimeLimit(_) => Verdict::TLE,
        Failure::MemoryLimit { .. } => Verdict::MLE,
        Failure::OutputLimit { .. } => Verdict::OLE,
    };
    let message = match failure {
        Failure::RejectedInput(message) => {
            format!("{}: {message}", result.case.input.path().display())
        }
        Failure::TimeLimit(Clock::Cpu) => format!(
            "stopped after {} ms of CPU time ({} ms wall)",
            result.cpu.as_millis(),
            result.wall.as_millis()
        ),
        Failure::TimeLimit(Clock::Wall) => format!(
            "stopped by the wall-clock limit after {} ms with {} ms of CPU time used (a \
             program that sleeps or waits for input, or a machine too busy to run it)",
            result.wall.as_millis(),
            result.cpu.as_millis()
        ),
        Failure::MemoryLimit { .. } => match result.peak_memory_bytes {
            // Whole MiB would say 0 of a program refused its first big allocation.
            Some(bytes) => format!("{failure} (peak {:.1} MiB)", bytes as f64 / 1048576.0),
            None => failure.to_string(),
        },
        other => other.to_string(),
    };
    (verdict, message)
}

#[cfg(test)]
#[path = "judging_tests.rs"]
mod tests;
