//! `--junit FILE`: a JUnit XML report for CI test viewers (GitHub and GitLab test reports,
//! Jenkins), written with quick-junit in the common schema: `testsuites` > one `testsuite` per
//! problem > one `testcase` per case of `check` (`name` the case id, `classname` the problem,
//! `time` in seconds), per submission of `verify` (`name` its path below `submissions/`, `time`
//! its slowest case) or per input of `validate` (`name` the case id) > `failure`, `error` or
//! `skipped`.
//!
//! JUnit tells a `failure` (the test ran and its assertion did not hold) from an `error` (the
//! test could not run to its assertion), and both commands follow one rule ([`kind`]): the
//! program ran to an output that was judged, and it was wrong (WA, PE), had nothing to be judged
//! by (NOEXP), or was accepted where a failure was due (AC, in `verify`): a failure. The program
//! did not run to a judged output (RE, TLE, MLE, OLE, CE), or could not be judged (JE): an
//! error. The element's `type` is the verdict, its `message` the one-line reason, and its text
//! the reason followed by the plain (uncolored, truncated) diff, or for a submission what it
//! must get and the cases that caught it; a program's stderr, when there is one, goes to the
//! testcase's `system-err`. A scored submission's score line is its `system-out` and its numbers
//! are properties. `verify` adds a failing `(package)` test case to the suite of a
//! package that is invalid or not verified, and a submission it did not judge is `skipped`; a
//! package it could not verify is an `error` `(package)` test case of its own suite.
//!
//! The file is written once, at the end of the run, where its [`Destination`] allows: a new or
//! regular file atomically (CI never reads half a report; the user named the file to be
//! written), a device or FIFO written into, a link to stdout to stdout.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::events::{Detail, Event, Finished, RunKind};
use super::findings::{lines, Unreadable};
use super::stressed::Tried;
use super::unit::{Outcome, UnitId};
use super::validated::InputFinding;
use super::verified::{points, Got, Status, SubmissionRow};
use super::{cut, Destination, JunitError, ReportError, Reporter, Summary};
use crate::diffing::Paint;
use crate::escape::{visible, visible_line};
use crate::judging::{CaseResult, Verdict};
/// Bytes of a program's stderr kept in the report; CI viewers choke on huge reports.
const STDERR_BYTES: usize = 16 * 1024;

pub struct JunitReporter {
    destination: Destination,
    /// The report's name (the `testsuites` element): `grundy`, or `grundy verify`.
    name: &'static str,
    /// Per problem, in the order first reported: its name, testcases and their total time.
    suites: Vec<(String, Vec<TestCase>, Duration)>,
    cancelled: bool,
}

impl JunitReporter {
    pub fn new(destination: Destination) -> Self {
        JunitReporter {
            destination,
            name: "grundy",
            suites: Vec::new(),
            cancelled: false,
        }
    }

    /// The suite of `problem`, made when it is new.
    fn suite(&mut self, problem: &str) -> &mut (String, Vec<TestCase>, Duration) {
        let name = visible_line(problem);
        // A problem's test cases come together: it is the last suite, or a new one.
        let known = self.suites.iter().rposition(|(shown, ..)| *shown == name);
        let index = known.unwrap_or_else(|| {
            self.suites
                .push((name.into_owned(), Vec::new(), Duration::ZERO));
            self.suites.len() - 1
        });
        &mut self.suites[index]
    }

    fn add(&mut self, problem: &str, case: TestCase) {
        let (_, cases, time) = self.suite(problem);
        *time += case.time.unwrap_or_default();
        cases.push(case);
    }

    fn junit(&self, summary: &Summary) -> Report {
        let mut report = Report::new(self.name);
        report.set_time(summary.wall_time);
        for (problem, cases, time) in &self.suites {
            let mut suite = TestSuite::new(problem.as_str());
            suite.set_time(*time);
            suite.add_test_cases(cases.iter().cloned());
            if self.cancelled {
                suite.add_property(("cancelled", "true"));
            }
            report.add_test_suite(suite);
        }
        if self.cancelled && self.suites.is_empty() {
            // A run cut short before anything was reported still says so.
            let mut suite = TestSuite::new(self.name);
            suite.add_property(("cancelled", "true"));
            report.add_test_suite(suite);
        }
        report
    }

    fn write(&self, summary: &Summary) -> Result<(), ReportError> {
        let failed = |error| ReportError::Junit {
            path: self.destination.path.clone(),
            error,
        };
        let xml = self
            .junit(summary)
            .to_string()
            .map_err(|error| failed(JunitError::Serialize(error)))?;
        self.destination
            .write(xml.as_bytes())
            .map_err(|error| failed(JunitError::Write(error)))
    }
}

/// Failure or error, for both commands, by the rule in the module comment.
pub fn kind(got: Got) -> NonSuccessKind {
    match got {
        Got::Verdict(Verdict::AC | Verdict::WA | Verdict::PE | Verdict::NOEXP) => {
            NonSuccessKind::Failure
        }
        Got::Verdict(Verdict::RE | Verdict::TLE | Verdict::MLE | Verdict::OLE | Verdict::JE)
        | Got::CompileError => NonSuccessKind::Error,
    }
}

fn test_case(result: &CaseResult) -> TestCase {
    let status = match result.verdict.passed() {
        true => TestCaseStatus::success(),
        false => {
            let message = result
                .message
                .clone()
                .unwrap_or_else(|| result.verdict.meaning().to_string());
            let mut text = format!(
                "{} ({}): {message}\n",
                result.verdict,
                result.verdict.meaning()
            );
            if let Some(diff) = &result.diff {
                text += "\n";
                text += &diff.render(&Paint::plain(), "");
            }
            if let Some(exchange) = &result.exchange {
                text += "\nexchange (> to the program, < from it):\n";
                text += exchange;
            }
            let mut status = TestCaseStatus::non_success(kind(Got::Verdict(result.verdict)));
            status
                .set_type(result.verdict.to_string())
                .set_message(message)
                .set_description(text);
            status
        }
    };
    let mut case = TestCase::new(visible_line(&result.case.id).as_ref(), status);
    case.set_classname(result.case.problem.as_str())
        .set_time(result.time);
    if let Some(stderr) = &result.stderr {
        case.set_system_err(cut(stderr, STDERR_BYTES, "stderr").into_owned());
    }
    case
}

/// The test case of a `verify` submission: passing when it got what it must, skipped when not
/// judged, an error of type JE when the host failed to build it.
fn submission_case(row: &SubmissionRow) -> TestCase {
    let status = match (row.ok, &row.skipped, &row.judge_error) {
        (Some(true), ..) => TestCaseStatus::success(),
        (None, _, Some(why)) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status
                .set_type("JE")
                .set_message(visible_line(&format!("judge error: {why}")));
            status
        }
        (None, why, None) => {
            let mut status = TestCaseStatus::skipped();
            let why = why
                .as_ref()
                .map_or("not judged".into(), ToString::to_string);
            status.set_message(visible_line(&why));
            status
        }
        (Some(false), ..) => {
            let mut details = format!("expected: {}\n", row.expected);
            for (case, verdict, said) in &row.caught_by {
                details += &format!("{case}: {verdict} {}\n", said.as_deref().unwrap_or(""));
            }
            if let Some(compiler) = &row.compile_error {
                details += compiler;
            }
            let mut status =
                TestCaseStatus::non_success(row.verdict.map_or(NonSuccessKind::Error, kind));
            status
                .set_type(row.verdict.map(|got| got.to_string()).unwrap_or_default())
                .set_message(visible_line(row.unexpected.as_deref().unwrap_or_default()))
                .set_description(visible(&details));
            status
        }
    };
    let mut case = TestCase::new(visible_line(&row.submission).as_ref(), status);
    case.set_classname(visible_line(&row.problem).as_ref());
    if let Some((_, time)) = row.slowest {
        case.set_time(time);
    }
    if let Some(score) = &row.score {
        // The line for people (GitLab and Jenkins show a test case's output; few show its
        // properties), the numbers for programs.
        case.set_system_out(score.words().join(" ") + "\n");
        case.add_property(("score", points(score.total).as_str()));
        if let Some(max) = score.max {
            case.add_property(("max_score", points(max).as_str()));
        }
        if let Some(best) = score.lower_best {
            case.add_property(("min_score", points(best).as_str()));
            case.add_property(("objective", "min"));
        }
    }
    case
}

/// The failing `(package)` test case of a package that is invalid or not verified (`verify`'s
/// and `validate`'s): its state, and the lines that say why.
fn package_case(
    name: &str,
    status: Status,
    errors: Vec<String>,
    unchecked: Vec<String>,
) -> Option<TestCase> {
    let (kind, why) = match status {
        Status::Valid => return None,
        Status::Invalid => ("invalid package", errors),
        Status::NotVerified => ("package not verified", unchecked),
    };
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status
        .set_type(kind)
        .set_message(visible_line(why.first().map_or("", String::as_str)))
        .set_description(visible(&why.join("\n")));
    let mut case = TestCase::new("(package)", status);
    case.set_classname(visible_line(name).as_ref());
    Some(case)
}

/// The `(package)` test case of a package `verify` could not verify (or whose data could not
/// all be generated): an error, since nothing ran to an assertion.
fn unreadable_case(package: &str, unreadable: &Unreadable) -> TestCase {
    let why = unreadable.to_string();
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status
        .set_type("unreadable package")
        .set_message(visible_line(why.lines().next().unwrap_or_default()))
        .set_description(visible(&why));
    let mut case = TestCase::new("(package)", status);
    case.set_classname(visible_line(package).as_ref());
    case
}

/// The test case of a case of `stress` (named `problem/number`): a failure or an error, by the
/// one rule, when the program under test did not agree with the reference.
fn tried_case(id: &UnitId<'_>, tried: &Tried) -> TestCase {
    let status = match tried.verdict {
        None => TestCaseStatus::success(),
        Some(verdict) => {
            let mut status = TestCaseStatus::non_success(kind(Got::Verdict(verdict)));
            status.set_type(verdict.to_string()).set_message(format!(
                "{verdict} ({}) with seed {}",
                verdict.meaning(),
                tried.seed
            ));
            status
        }
    };
    let name = format!("{}/{}", id.problem, id.case.unwrap_or_default());
    let mut case = TestCase::new(visible_line(&name).as_ref(), status);
    case.set_classname(visible_line(id.problem).as_ref());
    case
}

/// The test case of an input of `validate`: a failure when its validators said it is not what
/// its group wants (an error when it cannot be read), skipped when not every validator could
/// check it.
fn input_case(id: &UnitId<'_>, finding: &InputFinding) -> TestCase {
    let message = finding.message().unwrap_or_else(|| match finding {
        InputFinding::Unchecked => "not every validator could check it".into(),
        _ => "a check of its package failed on it (the `(package)` case says which)".into(),
    });
    let status = match (finding.outcome(), finding) {
        (Outcome::Passed, _) => TestCaseStatus::success(),
        (Outcome::Skipped, _) => {
            let mut status = TestCaseStatus::skipped();
            status.set_message(visible_line(&message));
            status
        }
        (Outcome::Failed, _) => {
            let kind = match finding {
                InputFinding::Unreadable(_) => NonSuccessKind::Error,
                _ => NonSuccessKind::Failure,
            };
            let mut status = TestCaseStatus::non_success(kind);
            status
                .set_type(finding.name())
                .set_message(visible_line(&message));
            status
        }
    };
    let name = format!("{}/{}", id.problem, id.case.unwrap_or_default());
    let mut case = TestCase::new(visible_line(&name).as_ref(), status);
    case.set_classname(visible_line(id.problem).as_ref());
    case
}

impl Reporter for JunitReporter {
    fn report(&mut self, event: &Event<'_>) -> Result<(), ReportError> {
        match event {
            Event::RunStarted(kind) => {
                // A package that could not be verified is an error of its own suite.
                for unreadable in kind.unreadable() {
                    let package = unreadable.package();
                    self.add(&package, unreadable_case(&package, unreadable));
                }
                self.name = match kind {
                    RunKind::Check { .. } => "grundy",
                    RunKind::Verify { .. } => "grundy verify",
                    RunKind::Validate { .. } => "grundy validate",
                    RunKind::Generate => "grundy generate",
                    RunKind::Timelimit { .. } => "grundy timelimit",
                    RunKind::Stress(_) => "grundy stress",
                    RunKind::Mutants(_) => "grundy mutants",
                }
            }
            Event::ProblemStarted(heading) => {
                self.suite(&heading.name);
            }
            Event::Finished(Finished { detail, id, .. }) => match detail {
                Detail::Case(result) => self.add(&result.case.problem, test_case(result)),
                Detail::Submission(row) => self.add(&row.problem, submission_case(row)),
                Detail::Input { finding, .. } => self.add(id.problem, input_case(id, finding)),
                Detail::Tried(tried) => self.add(id.problem, tried_case(id, tried)),
                Detail::Verified(outcome) => {
                    let errors = lines(&outcome.errors);
                    let unchecked = lines(&outcome.unchecked);
                    let case = package_case(&outcome.name, outcome.status(), errors, unchecked);
                    if let Some(case) = case {
                        self.add(&outcome.name, case);
                    }
                }
                Detail::Validated(validation) => {
                    let mut errors: Vec<String> = validation
                        .unreadable
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    errors.extend(lines(&validation.errors));
                    let unchecked = lines(&validation.unchecked);
                    let status = validation.status();
                    if let Some(case) = package_case(&validation.name, status, errors, unchecked) {
                        self.add(&validation.name, case);
                    }
                }
                // No test cases: `generate`, `timelimit` and `mutants` write no JUnit report.
                Detail::Generated(_) | Detail::Timed(_) | Detail::Mutant(_) => {}
            },
            Event::Cancelled => self.cancelled = true,
            Event::RunFinished(summary) => return self.write(summary),
            // The counterexample's case is among the tried ones, failed.
            Event::CaseStarted(_) | Event::Generated(_) | Event::Counterexample(_) => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
