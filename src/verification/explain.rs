//! Why a submission was likely not judged as its package expects: the rules, from what `verify`
//! already has (the runs and how each ended, the time limit and how it came about, the accepted
//! run a computed limit came from, the tool and interpreter that ran it), in the order that
//! blames the most specific cause first. [`reason`] gathers the facts of a settled submission;
//! [`decide`] applies the rules to them. The reason is data ([`Reason`]); the reporters render it.

use std::time::Duration;

use super::results::{Judged, Judging};
use super::time_limit;
use crate::judging::{CaseResult, CaseRun, Verdict};
use crate::model::{How, Problem, TimeLimit};
use crate::package::languages::{Python3, PYTHON3_PYPY};
use crate::package::programs::Kind as Program;
use crate::package::submissions::Submission;
use crate::reporting::findings::first_error;
use crate::reporting::reason::{Evidence, Kind, LimitRun, Reason};
use crate::reporting::verified::{Got, SubmissionRow};
use crate::running::{Clock, Failure};

/// What the rules read of a settled submission.
#[derive(Debug)]
pub struct Facts<'a> {
    /// The verdicts it may end with, as the format names them (`AC`, `WA`, `TLE`, `RTE`, `CE`).
    pub expected: &'a [String],
    pub got: Got,
    /// Its judged runs, with their cases, in judging order.
    pub runs: Vec<(&'a str, &'a CaseRun)>,
    pub time_limit: &'a TimeLimit,
    /// The accepted run a computed limit came from.
    pub limit_from: Option<LimitRun>,
    pub tool: Option<String>,
    /// The interpreter a Python 3 submission ran under.
    pub interpreter: Option<Python3>,
    pub missing_tool: bool,
    pub compile_error: Option<&'a str>,
}

/// The reason for `row`, submission `s` of `problem` as `judging` settled it, when it is not as
/// expected.
pub fn reason(
    problem: &Problem,
    s: usize,
    judging: &Judging,
    row: &SubmissionRow,
) -> Option<Reason> {
    let (Some(false), Some(got)) = (row.ok, row.verdict) else {
        return None;
    };
    let submission = &problem.submissions[s];
    let runs = match &judging.submissions[s] {
        Judged::Runs(runs) => problem
            .cases
            .iter()
            .zip(runs)
            .filter_map(|(case, run)| Some((case.id(), run.as_ref()?)))
            .collect(),
        _ => vec![],
    };
    let facts = Facts {
        expected: &row.expected_verdicts,
        got,
        runs,
        time_limit: &judging.time_limit,
        limit_from: limit_from(problem, judging),
        tool: row.tool.clone(),
        interpreter: interpreter(submission),
        missing_tool: missing_tool(submission),
        compile_error: row.compile_error.as_deref(),
    };
    Some(decide(&facts))
}

/// The rules, most specific first.
pub fn decide(facts: &Facts<'_>) -> Reason {
    let expects = |verdict: &str| facts.expected.iter().any(|v| v == verdict);
    let limit = facts.time_limit.limit.as_ref().ok().copied();
    let first = facts
        .runs
        .iter()
        .find(|(_, run)| run.verdict != Verdict::AC);
    let slowest = facts.runs.iter().max_by_key(|(_, run)| run.time);
    let reason = |kind: Kind, own: bool, run: Option<&(&str, &CaseRun)>| {
        let mut evidence = Evidence {
            time_limit: Some(facts.time_limit.clone()),
            limit_from: facts.limit_from.clone(),
            tool: facts.tool.clone(),
            interpreter: facts.interpreter,
            ..Evidence::default()
        };
        if let Some((case, run)) = run {
            evidence.case = Some((*case).to_string());
            evidence.verdict = Some(run.verdict);
            (evidence.cpu, evidence.wall) = (Some(run.cpu), Some(run.wall));
            evidence.peak_memory_bytes = run.peak_memory_bytes;
            evidence.message.clone_from(&run.message);
        }
        Reason {
            kind,
            own,
            evidence,
        }
    };
    if facts.got == Got::CompileError {
        let kind = match facts.missing_tool {
            true => Kind::MissingTool,
            false => Kind::Compile,
        };
        let mut compiled = reason(kind, true, None);
        compiled.evidence.message = facts
            .compile_error
            .map(first_error)
            .filter(|said| !said.is_empty());
        return compiled;
    }
    if expects("CE") {
        return reason(Kind::Compile, true, None);
    }
    // How the first failing run ended, when that alone names a cause.
    if let Some(run @ (_, case_run)) = first {
        let kind = match (case_run.verdict, &case_run.failure) {
            (Verdict::MLE, _) => Some(Kind::Memory),
            (Verdict::OLE, _) => Some(Kind::OutputLimit),
            (Verdict::RE, Some(Failure::ProcessLimit)) => Some(Kind::Sandbox),
            (Verdict::RE, Some(Failure::Signal(name))) if name == "SIGSEGV" => Some(Kind::Stack),
            // It ended itself, where no run-time error was due: what it said last is why.
            (Verdict::RE, Some(Failure::ExitCode(_))) if !expects("RTE") => Some(Kind::ExitStatus),
            // Stopped by the wall clock before its CPU time reached the limit: it waited.
            (Verdict::TLE, _)
                if case_run.stopped_by == Some(Clock::Wall)
                    && limit.is_some_and(|limit| case_run.cpu <= limit) =>
            {
                Some(Kind::WallBackstop)
            }
            _ => None,
        };
        if let Some(kind) = kind {
            let mut found = reason(kind, false, Some(run));
            if let (Kind::ExitStatus, Some(said)) = (kind, &case_run.said) {
                let status = found.evidence.message.take().unwrap_or_default();
                found.evidence.message = Some(format!("{status}; it printed last: \"{said}\""));
            }
            return found;
        }
    }
    let got_tle = facts.got == Got::Verdict(Verdict::TLE);
    if expects("TLE") && !got_tle {
        // Over the limit in wall time but not in CPU time: a program that sleeps or waits.
        let waited = facts
            .runs
            .iter()
            .find(|(_, run)| limit.is_some_and(|limit| run.wall > limit && run.cpu <= limit));
        if let Some(run) = waited {
            return reason(Kind::WallBackstop, false, Some(run));
        }
    }
    if got_tle && expects("RTE") && !expects("TLE") {
        return reason(Kind::Stack, true, first);
    }
    if got_tle != expects("TLE") {
        let run = if got_tle { first } else { slowest };
        let cpython_limit = facts.limit_from.as_ref().is_some_and(|from| from.cpython);
        return match facts.interpreter {
            Some(Python3::CPython) if got_tle => reason(Kind::Interpreter, true, run),
            Some(Python3::PyPy) if !got_tle => reason(Kind::Interpreter, true, run),
            _ if cpython_limit => reason(Kind::Interpreter, false, run),
            _ if got_tle && run.is_some_and(|(_, r)| starved(r, limit)) => {
                reason(Kind::BusyMachine, false, run)
            }
            _ => reason(Kind::TimeLimit, false, run),
        };
    }
    match first {
        Some(run @ (_, case_run)) if matches!(case_run.verdict, Verdict::WA | Verdict::PE) => {
            reason(Kind::Checker, false, Some(run))
        }
        // Every output accepted where a wrong one was due: the checker's call too.
        None if expects("WA") => reason(Kind::Checker, false, slowest),
        _ => reason(Kind::Unknown, false, first.or(slowest)),
    }
}

/// Whether a run over the limit was near it and had under half a core: its wall time at least
/// twice its CPU time. A machine that busy slows CPU time too (cores and caches shared), so a
/// run within a quarter over the limit may be over it by the load alone.
fn starved(run: &CaseRun, limit: Option<Duration>) -> bool {
    limit.is_some_and(|limit| run.cpu <= limit + limit / 4) && run.wall >= run.cpu * 2
}

/// The most bytes of a run's last line kept: enough for a program's own error message.
const SAID_BYTES: usize = 200;

/// The last line a failed run printed, its stderr's, else its stdout's (what a program that
/// ends itself says last), cut to [`SAID_BYTES`]; `None` for a run that passed or said nothing.
pub fn last_said(result: &CaseResult) -> Option<String> {
    if result.verdict.passed() {
        return None;
    }
    let last = |text: &Option<String>| {
        let line = text
            .as_deref()?
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())?;
        let mut end = line.len().min(SAID_BYTES);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        Some(line[..end].trim().to_string())
    };
    last(&result.stderr).or_else(|| last(&result.stdout))
}

/// The slowest accepted run a computed limit came from (not one stopped as TLE), with its
/// case, submission and tool; `None` for a fixed limit, or when none was judged in this run.
fn limit_from(problem: &Problem, judging: &Judging) -> Option<LimitRun> {
    if !matches!(judging.time_limit.how, How::Computed { .. }) {
        return None;
    }
    let mut slowest: Option<(&Submission, &str, &CaseRun)> = None;
    for (submission, judged) in problem.submissions.iter().zip(&judging.submissions) {
        let Judged::Runs(runs) = judged else { continue };
        if !time_limit::computes_the_limit(submission) {
            continue;
        }
        for (case, run) in problem.cases.iter().zip(runs) {
            let Some(run) = run.as_ref().filter(|r| r.verdict != Verdict::TLE) else {
                continue;
            };
            if slowest.is_none_or(|(_, _, best)| run.time > best.time) {
                slowest = Some((submission, case.id(), run));
            }
        }
    }
    let (submission, case, run) = slowest?;
    Some(LimitRun {
        submission: submission.id.clone(),
        case: case.to_string(),
        time: run.time,
        tool: crate::build::versions::of_program(&submission.program),
        cpython: interpreter(submission) == Some(Python3::CPython),
    })
}

/// The interpreter a Python 3 submission runs under; `None` for any other.
fn interpreter(submission: &Submission) -> Option<Python3> {
    match &submission.program.kind {
        Program::Source { language, .. } if language.code == PYTHON3_PYPY.code => {
            match std::ptr::eq(*language, &PYTHON3_PYPY) {
                true => Some(Python3::PyPy),
                false => Some(Python3::CPython),
            }
        }
        _ => None,
    }
}

/// Whether the tool the submission's language needs is missing.
fn missing_tool(submission: &Submission) -> bool {
    match &submission.program.kind {
        Program::Source { language, .. } => matches!(
            crate::build::versions::version(language),
            crate::build::versions::Version::Missing(_)
        ),
        _ => false,
    }
}

#[cfg(test)]
#[path = "explain_tests.rs"]
mod tests;
