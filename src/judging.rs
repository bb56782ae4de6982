//! Judging one case: run the program, then turn the run and the expected output into a verdict
//! with a message and, for a wrong answer, a diff. Also writes expected files under `--bless`.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use crate::checking::{Checker, Judgement};
use crate::diffing::{self, Diff};
use crate::discovery::Case;
use crate::running::{Failure, Run};

/// The verdicts of DESIGN.md; everything but `AC` fails the run.
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
/// checker compares with `expected` (`None` when the case has no expected file).
pub fn judge(case: Case, run: &Run, expected: Option<&[u8]>, checker: &Checker) -> CaseResult {
    let mut result = CaseResult::new(case, Verdict::AC, None);
    result.time = run.time;
    result.peak_memory_bytes = run.peak_memory_bytes;
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
        | Failure::Signal(_) => Verdict::RE,
        Failure::TimeLimit => Verdict::TLE,
        Failure::MemoryLimit => Verdict::MLE,
        Failure::OutputLimit => Verdict::OLE,
    };
    let message = match failure {
        Failure::RejectedInput(message) => {
            format!("{}: {message}", result.case.input.display())
        }
        Failure::TimeLimit => format!("stopped after {} ms", result.time.as_millis()),
        Failure::MemoryLimit => match result.peak_memory_bytes {
            Some(bytes) => format!("{failure} (peak {} MiB)", bytes >> 20),
            None => failure.to_string(),
        },
        other => other.to_string(),
    };
    (verdict, message)
}
