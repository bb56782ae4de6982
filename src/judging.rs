//! Judging one case: run the program, then turn the run and the expected output into a verdict
//! with a message and, for a wrong answer, a diff. Also writes expected files under `--bless`.

use std::borrow::Cow;
use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use crate::checking::{Checker, Judgement};
use crate::diffing::{self, Diff};
use crate::discovery::Case;
use crate::escape::visible;
use crate::running::{Failure, Run};

/// The verdicts of the README; everything but `AC` fails the run. The names are the contract's
/// (and every judge's), hence the capitals.
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Verdict {
    AC,
    WA,
    PE,
    RE,
    TLE,
    MLE,
    OLE,
    NOEXP,
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
    pub time: Duration,
    pub peak_memory_bytes: Option<u64>,
    /// Why the case failed, in one line; `None` for AC.
    pub message: Option<String>,
    pub diff: Option<Diff>,
    /// The start of the program's stderr, for failed external runs.
    pub stderr: Option<String>,
    /// The expected file `--bless` wrote for this case.
    pub blessed: Option<PathBuf>,
}

/// Turns a finished run into a result: a failed run decides the verdict by itself; otherwise the
/// checker compares with `expected` (`None` when the case has no expected file). What the program
/// wrote reaches the result with its control characters escaped (see [`crate::escape`]).
pub fn judge(case: Case, run: &Run, expected: Option<&[u8]>, checker: &Checker) -> CaseResult {
    let mut result = judge_unescaped(case, run, expected, checker);
    let escape = |text: &mut Option<String>| {
        if let Some(text) = text {
            if let Cow::Owned(escaped) = visible(text) {
                *text = escaped;
            }
        }
    };
    escape(&mut result.message);
    escape(&mut result.stderr);
    result
}

fn judge_unescaped(
    case: Case,
    run: &Run,
    expected: Option<&[u8]>,
    checker: &Checker,
) -> CaseResult {
    let mut result = CaseResult::new(case, Verdict::AC, None);
    result.time = run.time;
    result.peak_memory_bytes = run.peak_memory_bytes;
    if result.case.expects_error() {
        judge_rejection(&mut result, run, expected);
        return result;
    }
    if let Some(failure) = &run.failure {
        let (verdict, message) = describe_failure(failure, &result);
        result.verdict = verdict;
        result.message = Some(message);
        result.stderr =
            (!run.stderr.is_empty()).then(|| String::from_utf8_lossy(&run.stderr).into_owned());
        return result;
    }
    let Some(expected) = expected else {
        result.verdict = Verdict::NOEXP;
        result.message = Some(format!(
            "no expected output `{}` (nor `.ans`); run `grundy check {} --bless` to write the \
             built-in solver's output there, or `grundy add` for a new case",
            result.case.default_expected_path().display(),
            result.case.id
        ));
        return result;
    };
    match checker.judge(expected, &run.output) {
        Judgement::Accepted => {}
        Judgement::WrongAnswer(message) => {
            result.verdict = Verdict::WA;
            result.message = Some(message);
            result.diff = diffing::diff(expected, &run.output);
        }
        Judgement::PresentationError(message) => {
            result.verdict = Verdict::PE;
            result.message = Some(format!("{message} (the tokens match; the layout does not)"));
            result.diff = diffing::diff(expected, &run.output);
        }
    }
    result
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
    pub fn new(case: Case, verdict: Verdict, message: Option<String>) -> Self {
        CaseResult {
            case,
            verdict,
            time: Duration::ZERO,
            peak_memory_bytes: None,
            message,
            diff: None,
            stderr: None,
            blessed: None,
        }
    }
}

fn describe_failure(failure: &Failure, result: &CaseResult) -> (Verdict, String) {
    let verdict = match failure {
        Failure::Panicked(_)
        | Failure::RejectedInput(_)
        | Failure::ExitCode(_)
        | Failure::Signal(_)
        | Failure::ProcessLimit => Verdict::RE,
        Failure::TimeLimit => Verdict::TLE,
        Failure::MemoryLimit { .. } => Verdict::MLE,
        Failure::OutputLimit { .. } => Verdict::OLE,
    };
    let message = match failure {
        Failure::RejectedInput(message) => {
            format!("{}: {message}", result.case.input.display())
        }
        Failure::TimeLimit => format!("stopped after {} ms", result.time.as_millis()),
        Failure::MemoryLimit { .. } => match result.peak_memory_bytes {
            Some(bytes) => format!("{failure} (peak {} MiB in use)", bytes >> 20),
            None => failure.to_string(),
        },
        other => other.to_string(),
    };
    (verdict, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid_case() -> Case {
        Case {
            id: "nim/invalid/x".into(),
            problem: "nim".into(),
            input: PathBuf::from("fixtures/nim/invalid/x.in"),
            expected: Some(PathBuf::from("fixtures/nim/invalid/x.err")),
        }
    }

    fn rejected(message: &str) -> Run {
        Run {
            failure: Some(Failure::RejectedInput(message.into())),
            ..Run::default()
        }
    }

    const MESSAGE: &str =
        "line 2, column 3: expected heap size (a non-negative integer), found `x`";

    #[test]
    fn an_invalid_input_passes_when_rejected_with_exactly_the_expected_message() {
        let expected = format!("{MESSAGE}\n");
        let result = judge(
            invalid_case(),
            &rejected(MESSAGE),
            Some(expected.as_bytes()),
            &Checker::Exact,
        );
        assert_eq!((result.verdict, result.message), (Verdict::AC, None));
    }

    #[test]
    fn accepting_an_invalid_input_or_another_message_is_a_wrong_answer() {
        let accepted = Run {
            output: b"win\n".to_vec(),
            ..Run::default()
        };
        let result = judge(
            invalid_case(),
            &accepted,
            Some(MESSAGE.as_bytes()),
            &Checker::Tokens,
        );
        assert_eq!(result.verdict, Verdict::WA);
        assert!(
            result.message.as_deref().unwrap().contains("was accepted"),
            "{:?}",
            result.message
        );
        let other = "line 2, column 4: something else";
        let result = judge(
            invalid_case(),
            &rejected(other),
            Some(MESSAGE.as_bytes()),
            &Checker::Tokens,
        );
        assert_eq!(result.verdict, Verdict::WA);
        let message = result.message.unwrap();
        assert!(
            message.contains(MESSAGE) && message.contains(other),
            "{message}"
        );
        assert!(result.diff.is_some());
    }

    #[test]
    fn external_programs_reject_with_a_failing_status_and_the_message_on_stderr() {
        let run = |stderr: &str| Run {
            failure: Some(Failure::ExitCode(1)),
            stderr: stderr.as_bytes().to_vec(),
            ..Run::default()
        };
        let good = format!("error: <stdin>: {MESSAGE}\n");
        let result = judge(
            invalid_case(),
            &run(&good),
            Some(MESSAGE.as_bytes()),
            &Checker::Tokens,
        );
        assert_eq!(result.verdict, Verdict::AC);
        let result = judge(
            invalid_case(),
            &run("Traceback ...\n"),
            Some(MESSAGE.as_bytes()),
            &Checker::Tokens,
        );
        assert_eq!(result.verdict, Verdict::WA);
    }

    #[test]
    fn panics_and_timeouts_keep_their_verdicts_and_a_missing_err_file_is_noexp() {
        let timeout = Run {
            failure: Some(Failure::TimeLimit),
            ..Run::default()
        };
        let result = judge(
            invalid_case(),
            &timeout,
            Some(MESSAGE.as_bytes()),
            &Checker::Tokens,
        );
        assert_eq!(result.verdict, Verdict::TLE);
        let mut case = invalid_case();
        case.expected = None;
        let result = judge(case, &rejected(MESSAGE), None, &Checker::Tokens);
        assert_eq!(result.verdict, Verdict::NOEXP);
        assert!(
            result.message.as_deref().unwrap().contains("x.err"),
            "{:?}",
            result.message
        );
    }
}
