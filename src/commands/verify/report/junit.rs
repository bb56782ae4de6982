//! `--junit FILE`: a test suite per problem, a test case per submission (a failure when its
//! verdict is not allowed, skipped when it was not judged), and a `(package)` test case failing
//! with the package's errors when it is invalid.

use std::path::Path;

use anyhow::{Context, Result};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::{ProblemReport, Totals};
use crate::escape::{visible, visible_line};
use crate::files::{write_atomic, Existing};

pub fn write(path: &Path, reports: &[ProblemReport], totals: &Totals) -> Result<()> {
    let mut report = Report::new("grundy verify");
    report.set_time(totals.wall_time);
    for problem in reports {
        let name = visible_line(&problem.name);
        let mut suite = TestSuite::new(name.as_ref());
        for row in &problem.rows {
            let status = match (row.ok, &row.skipped) {
                (Some(true), _) => TestCaseStatus::success(),
                (None, why) => {
                    let mut status = TestCaseStatus::skipped();
                    status.set_message(visible_line(why.as_deref().unwrap_or("not judged")));
                    status
                }
                (Some(false), _) => {
                    let message = row.problem.clone().unwrap_or_default();
                    let mut details = format!("expected: {}\n", row.expected);
                    for (case, verdict, said) in &row.caught_by {
                        details +=
                            &format!("{case}: {verdict} {}\n", said.as_deref().unwrap_or(""));
                    }
                    if let Some(compiler) = &row.compile_error {
                        details += compiler;
                    }
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
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
        if !problem.valid() {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_type("invalid package")
                .set_message(visible_line(&problem.errors[0]))
                .set_description(visible(&problem.errors.join("\n")));
            let mut case = TestCase::new("(package)", status);
            case.set_classname(name.as_ref());
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    let xml = report
        .to_string()
        .context("cannot serialize the JUnit report")?;
    write_atomic(path, xml.as_bytes(), Existing::Replace)
        .with_context(|| format!("cannot write the JUnit report `{}`", path.display()))
}
