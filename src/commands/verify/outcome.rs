//! Each submission's result against what it must get: its first-error verdict, whether the
//! package allows it ([`crate::package::expectations`], with a memory or output overrun counted
//! as a run-time error), its slowest case, and every case that caught it. The rows every report
//! format prints.

use std::time::Duration;

use super::model::{format_verdict, Problem};
use super::results::{CaseRun, Judged};
use crate::judging::Verdict;
use crate::package::expectations::{Expectation, Outcome};
use crate::package::programs::Kind;
use crate::package::submissions::{CompileError, Submission};

/// One submission, settled.
#[derive(Clone, Debug)]
pub struct Row {
    /// The path below `submissions/`.
    pub submission: String,
    pub language: String,
    /// `AC`, `WA`, ..., `CE`; `None` when it was not judged.
    pub verdict: Option<String>,
    /// What it must get, in full, and in a few characters for tables.
    pub expected: String,
    pub expected_short: String,
    /// Whether the verdict is one the package allows; `None` when not judged.
    pub ok: Option<bool>,
    /// Its slowest case.
    pub slowest: Option<(String, Duration)>,
    /// Every case it failed, in judging order, with the verdict and message.
    pub caught_by: Vec<(String, Verdict, Option<String>)>,
    /// What was not as expected, in one line.
    pub problem: Option<String>,
    /// Why it was not judged.
    pub skipped: Option<String>,
    /// A compiler's message.
    pub compile_error: Option<String>,
    /// Why it could not be built, by the host's fault (verdict `JE`; not judged).
    pub judge_error: Option<String>,
}

/// Whether a submission must fail to compile (the `compile_error` folder, or a tag naming only
/// `COMPILER-ERROR`).
pub fn expects_compile_error(submission: &Submission) -> bool {
    submission.compile_error == CompileError::Required
}

/// The rows of a problem's submissions.
pub fn rows(problem: &Problem, judged: &[Judged]) -> Vec<Row> {
    problem
        .submissions
        .iter()
        .zip(judged)
        .map(|(submission, judged)| row(problem, submission, judged))
        .collect()
}

fn row(problem: &Problem, submission: &Submission, judged: &Judged) -> Row {
    let (expected, expected_short) = describe(submission);
    let mut row = Row {
        submission: submission.id.clone(),
        language: language(submission),
        verdict: None,
        expected,
        expected_short,
        ok: None,
        slowest: None,
        caught_by: vec![],
        problem: None,
        skipped: None,
        compile_error: None,
        judge_error: None,
    };
    match judged {
        Judged::Skipped(why) => row.skipped = Some(why.clone()),
        Judged::HostError(error) => {
            row.verdict = Some("JE".into());
            row.judge_error = Some(error.to_string());
        }
        Judged::CompileError(message) => {
            let ok = submission.compile_error != CompileError::Forbidden;
            row.verdict = Some("CE".into());
            row.ok = Some(ok);
            row.compile_error = Some(message.clone());
            if !ok {
                row.problem = Some(format!(
                    "expected {}, but it does not compile",
                    row.expected_short
                ));
            }
        }
        Judged::Runs(runs) => judged_row(problem, submission, runs, &mut row),
    }
    row
}

fn judged_row(problem: &Problem, submission: &Submission, runs: &[Option<CaseRun>], row: &mut Row) {
    let ids = problem.cases.iter().map(|c| c.id.as_str());
    let first_error = runs
        .iter()
        .flatten()
        .find(|r| r.verdict != Verdict::AC)
        .map_or(Verdict::AC, |r| r.verdict);
    row.verdict = Some(first_error.to_string());
    row.slowest = ids
        .clone()
        .zip(runs)
        .filter_map(|(id, run)| Some((id.to_string(), run.as_ref()?.time)))
        .max_by_key(|(_, time)| *time);
    row.caught_by = ids
        .clone()
        .zip(runs)
        .filter_map(|(id, run)| {
            let run = run.as_ref().filter(|r| r.verdict != Verdict::AC)?;
            Some((id.to_string(), run.verdict, run.message.clone()))
        })
        .collect();
    let Some(expectation) = &submission.expectation else {
        // It must not compile, and it did.
        row.ok = Some(false);
        row.problem = Some("expected CE, but it compiles".into());
        return;
    };
    let outcomes: Vec<Outcome> = ids
        .zip(runs)
        .map(|(case, run)| Outcome {
            case,
            verdict: run.as_ref().and_then(|r| format_verdict(r.verdict)),
            message: run.as_ref().and_then(|r| r.message.as_deref()),
        })
        .collect();
    let check = expectation.check(&outcomes, None);
    row.ok = Some(check.ok());
    row.problem = check.problem;
}

/// What a submission must get: in full, and short (the verdicts alone).
fn describe(submission: &Submission) -> (String, String) {
    match &submission.expectation {
        None => ("CE".into(), "CE".into()),
        Some(Expectation::Final(verdict)) => (verdict.to_string(), verdict.to_string()),
        Some(expectation @ Expectation::Rules(rules)) => {
            let short = rules
                .first()
                .and_then(|r| r.required.as_ref().or(r.permitted.as_ref()))
                .map(|set| {
                    set.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("/")
                })
                .unwrap_or_else(|| "see below".into());
            (expectation.describe(), short)
        }
    }
}

fn language(submission: &Submission) -> String {
    match &submission.program.kind {
        Kind::Source { language, .. } => language.name.to_string(),
        Kind::Scripts => "build/run".into(),
        Kind::Unsupported(what) => (*what).to_string(),
        Kind::Invalid(_) => "?".into(),
    }
}
