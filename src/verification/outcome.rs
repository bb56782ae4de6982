//! Each submission's result against what it must get: its first-error verdict, whether the
//! package allows it ([`crate::package::expectations`], with a memory or output overrun counted
//! as a run-time error), its slowest case, and every case that caught it: the row every report
//! shows of it.

use std::time::Duration;

use super::results::{Judged, Judging};
use crate::judging::CaseRun;
use crate::judging::Verdict;
use crate::model::scoring::format_verdict;
use crate::model::Problem;
use crate::package::expectations::check::{Outcome, Scored};
use crate::package::expectations::{Expectation, ScoreDemand, Verdict as FormatVerdict};
use crate::package::programs::Kind;
use crate::package::submissions::{CompileError, Submission};
use crate::reporting::verified::{CaseCell, Got, RowScore, SubmissionRow};

/// Whether a submission must fail to compile (the `compile_error` folder, or a tag naming only
/// `COMPILER-ERROR`).
pub fn expects_compile_error(submission: &Submission) -> bool {
    submission.compile_error == CompileError::Required
}

/// The row of submission `s` of `problem`, settled as `judging` has it, with the likely reason
/// when it is not as expected.
pub fn row(problem: &Problem, s: usize, judging: &Judging) -> SubmissionRow {
    let mut row = judged(problem, s, &judging.submissions[s]);
    row.reason = super::explain::reason(problem, s, judging, &row);
    row
}

/// The row of submission `s` of `problem`, settled as `judged`.
fn judged(problem: &Problem, s: usize, judged: &Judged) -> SubmissionRow {
    let submission = &problem.submissions[s];
    let (expected, expected_short) = describe(submission);
    let mut row = SubmissionRow {
        problem: problem.name.clone(),
        submission: submission.id.clone(),
        language: language(submission),
        tool: crate::build::versions::of_program(&submission.program),
        expected,
        expected_short,
        expected_verdicts: match &submission.expectation {
            None => vec!["CE".into()],
            Some(expectation) => expectation
                .final_verdicts()
                .iter()
                .map(ToString::to_string)
                .collect(),
        },
        ..SubmissionRow::default()
    };
    match judged {
        Judged::Skipped(why) => row.skipped = Some(why.clone().into()),
        Judged::HostError(error) => {
            row.verdict = Some(Got::Verdict(Verdict::JE));
            row.judge_error = Some(error.to_string());
        }
        Judged::CompileError(message) => {
            let ok = submission.compile_error != CompileError::Forbidden;
            row.verdict = Some(Got::CompileError);
            row.ok = Some(ok);
            row.compile_error = Some(message.clone());
            if !ok {
                row.unexpected = Some(format!(
                    "expected {}, but it does not compile",
                    row.expected_short
                ));
            }
        }
        Judged::Runs(runs) => judged_row(problem, submission, runs, &mut row),
    }
    row
}

fn judged_row(
    problem: &Problem,
    submission: &Submission,
    runs: &[Option<CaseRun>],
    row: &mut SubmissionRow,
) {
    let ids = problem.cases.iter().map(|c| c.id());
    let first_error = runs
        .iter()
        .flatten()
        .find(|r| r.verdict != Verdict::AC)
        .map_or(Verdict::AC, |r| r.verdict);
    row.verdict = Some(Got::Verdict(first_error));
    row.slowest = ids
        .clone()
        .zip(runs)
        .filter_map(|(id, run)| Some((id.to_string(), run.as_ref()?.time)))
        .max_by_key(|(_, time)| *time);
    row.runs = ids
        .clone()
        .zip(runs)
        .map(|(case, run)| CaseCell {
            case: case.to_string(),
            verdict: run.as_ref().map(|r| r.verdict),
            time: run.as_ref().map_or(Duration::ZERO, |r| r.time),
            message: run.as_ref().and_then(|r| r.message.clone()),
            detail: run.as_ref().and_then(|r| r.detail.clone()),
        })
        .collect();
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
        row.unexpected = Some("expected CE, but it compiles".into());
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
    let scores = problem
        .scoring
        .as_ref()
        .and_then(|scheme| scheme.as_ref().ok()?.score(runs).ok());
    let scored = scores.as_ref().map(|scores| Scored {
        total: scores.total,
        range: scores.range,
        minimize: scores.minimize,
        verdict: scores.verdict,
        groups: scores
            .groups
            .iter()
            .map(|(id, score, _)| (id.clone(), *score))
            .collect(),
    });
    let check = match &problem.scoring {
        Some(Err(_)) => expectation.without_scores().check(&outcomes, None),
        _ => expectation.check(&outcomes, scored.as_ref()),
    };
    if let Some(graded) = scores.as_ref().and_then(|s| s.verdict) {
        // Legacy grading: the verdict is the grading's, which may accept a rejected case.
        row.verdict = Some(Got::Verdict(run_verdict(graded)));
    }
    row.ok = Some(check.ok());
    row.unexpected = check.problem;
    row.score = scores.map(|scores| RowScore {
        total: scores.total,
        max: Some(scores.range.1).filter(|max| max.is_finite()),
        groups: scores.groups,
        lower_best: Some(scores.range.0).filter(|_| scores.minimize),
    });
}

/// A format verdict as a run's verdict.
fn run_verdict(verdict: FormatVerdict) -> Verdict {
    match verdict {
        FormatVerdict::AC => Verdict::AC,
        FormatVerdict::WA => Verdict::WA,
        FormatVerdict::TLE => Verdict::TLE,
        FormatVerdict::RTE => Verdict::RE,
    }
}

/// What a submission must get: in full, and short (the verdicts alone).
fn describe(submission: &Submission) -> (String, String) {
    match &submission.expectation {
        None => ("CE".into(), "CE".into()),
        Some(expectation @ Expectation::Final(verdict, demand)) => {
            let short = match demand {
                Some(ScoreDemand::Partial) => "PAC".to_string(),
                _ => verdict.to_string(),
            };
            (expectation.describe(), short)
        }
        Some(expectation @ Expectation::Rules(rules)) => {
            let partial = rules
                .first()
                .is_some_and(|r| r.demand == Some(ScoreDemand::Partial));
            let short = rules
                .first()
                .filter(|_| !partial)
                .and_then(|r| r.required.as_ref().or(r.permitted.as_ref()))
                .map(|set| {
                    set.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("/")
                })
                .unwrap_or_else(|| if partial { "PAC" } else { "see below" }.into());
            (expectation.describe(), short)
        }
    }
}

/// The language a submission is in, as the reports name it.
pub fn language(submission: &Submission) -> String {
    match &submission.program.kind {
        Kind::Source { language, .. } => language.name.to_string(),
        Kind::Scripts => "build/run".into(),
        Kind::Checktestdata { .. } => "checktestdata".into(),
        Kind::Unsupported(what) => (*what).to_string(),
        Kind::Invalid(_) => "?".into(),
    }
}
