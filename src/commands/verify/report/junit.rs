//! `--junit FILE`: a test suite per problem, a test case per submission (a failure when its
//! verdict is not allowed, an error when the host failed to build it, skipped when it was not
//! judged otherwise), and a `(package)` test case failing with the package's errors when it is
//! invalid, or with what could not be checked when it is not verified.

use std::path::Path;

use anyhow::{Context, Result};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::{ProblemReport, Status, Totals};
use crate::escape::{visible, visible_line};
use crate::files::{write_atomic, Existing};

pub fn write(path: &Path, reports: &[ProblemReport], totals: &Totals) -> Result<()> {
    let mut report = Report::new("grundy verify");
    report.set_time(totals.wall_time);
    for problem in reports {
        let name = visible_line(&problem.name);
        let mut suite = TestSuite::new(name.as_ref());
        for row in &problem.rows {
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
                    status.set_message(visible_line(why.as_deref().unwrap_or("not judged")));
                    status
                }
                (Some(false), ..) => {
                    let message = row.problem.clone().unwrap_or_default();
                    let mut details = format!("expected: {}\n", row.expected);
                    for (case, verdict, said) in &row.caught_by {
                        details +=
                            &format!("{case}: {verdict} {}\n", said.as_deref().unwrap_or(""));
                    }
                    if let Some(compiler) = &row.compile_error {
                        details += compiler;
                    }
                    let mut status = TestCaseStatus::non_success(kind_of(row.verdict.as_deref()));
                    status
                        .set_type(row.verdict.clone().unwrap_or_default())
                        .set_message(visible_line(&message))
                        .set_description(visible(&details));
                    status
                }
            };
            let mut case = TestCase::new(visible_line(&row.submission).as_ref(), status);
            case.set_classname(name.as_ref());
            if let Some((_, time)) = row.slowest {
                case.set_time(time);
            }
            suite.add_test_case(case);
        }
        let (kind, why) = match problem.status() {
            Status::Valid => ("", &[][..]),
            Status::Invalid => ("invalid package", &problem.errors[..]),
            Status::NotVerified => ("package not verified", &problem.unchecked[..]),
        };
        if let [first, ..] = why {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_type(kind)
                .set_message(visible_line(first))
                .set_description(visible(&why.join("\n")));
            let mut case = TestCase::new("(package)", status);
            case.set_classname(name.as_ref());
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    if totals.cancelled {
        // The run was cut short before any problem's report: it says so.
        let mut suite = TestSuite::new("grundy verify");
        suite.add_property(("cancelled", "true"));
        report.add_test_suite(suite);
    }
    let xml = report
        .to_string()
        .context("cannot serialize the JUnit report")?;
    write_atomic(path, xml.as_bytes(), Existing::Replace)
        .with_context(|| format!("cannot write the JUnit report `{}`", path.display()))
}

/// Failure or error for a submission that did not get what it must, with `check`'s semantics
/// (the book's JUnit chapter): a wrong output (WA, PE), or an accept where a failure was due, is a
/// failure; a program that did not run to a judged output (CE, RE, TLE, MLE, OLE, JE) is an
/// error.
fn kind_of(verdict: Option<&str>) -> NonSuccessKind {
    match verdict {
        Some("AC" | "WA" | "PE") => NonSuccessKind::Failure,
        _ => NonSuccessKind::Error,
    }
}
