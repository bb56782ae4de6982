//! `--junit FILE`: a JUnit XML report for CI test viewers (GitHub and GitLab test reports,
//! Jenkins), written with quick-junit in the common schema: `testsuites` > one `testsuite` per
//! problem > one `testcase` per case (`name` the case id, `classname` the problem, `time` in
//! seconds) > `failure` or `error`.
//!
//! JUnit tells a `failure` (the test ran and its assertion did not hold) from an `error` (the
//! test could not run to its assertion). So the verdicts where the program finished and its
//! output was judged wrong, or could not be judged because the fixture has no expected output,
//! are failures: WA, PE, NOEXP. The verdicts where the program did not finish normally are
//! errors: RE, TLE, MLE, OLE. Either way the element's `type` is the verdict, its `message` the
//! one-line reason, and its text the reason followed by the plain (uncolored, truncated) diff;
//! the program's stderr, when there is one, goes to the testcase's `system-err`.
//!
//! The file is written once, at the end of the run, atomically (a temporary file in the same
//! folder, then a rename), replacing any earlier report at that path: CI never reads half a
//! report, and the user named the file to be written.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::{Reporter, Summary};
use crate::diffing::Paint;
use crate::escape::visible_line;
use crate::files::{write_atomic, Existing};
use crate::judging::{CaseResult, Verdict};

/// The name of the report (the `testsuites` element).
const REPORT_NAME: &str = "grundy";
/// Bytes of a program's stderr kept in the report; CI viewers choke on huge reports.
const STDERR_BYTES: usize = 16 * 1024;

pub struct JunitReporter {
    path: PathBuf,
    /// Per problem: its testcases and their total time.
    suites: BTreeMap<String, (Vec<TestCase>, Duration)>,
}

impl JunitReporter {
    pub fn new(path: PathBuf) -> Self {
        JunitReporter {
            path,
            suites: BTreeMap::new(),
        }
    }

    fn report(&self, summary: &Summary) -> Report {
        let mut report = Report::new(REPORT_NAME);
        report.set_time(summary.wall_time);
        for (problem, (cases, time)) in &self.suites {
            let mut suite = TestSuite::new(problem.as_str());
            suite.set_time(*time);
            suite.add_test_cases(cases.iter().cloned());
            if summary.cancelled {
                suite.add_property(("cancelled", "true"));
            }
            report.add_test_suite(suite);
        }
        if summary.cancelled && self.suites.is_empty() {
            // A run cut short before any case was judged still says so.
            let mut suite = TestSuite::new(REPORT_NAME);
            suite.add_property(("cancelled", "true"));
            report.add_test_suite(suite);
        }
        report
    }
}

/// Failure or error, per the JUnit conventions in the module comment; `None` for AC.
pub fn kind(verdict: Verdict) -> Option<NonSuccessKind> {
    match verdict {
        Verdict::AC => None,
        Verdict::WA | Verdict::PE | Verdict::NOEXP => Some(NonSuccessKind::Failure),
        Verdict::RE | Verdict::TLE | Verdict::MLE | Verdict::OLE | Verdict::JE => {
            Some(NonSuccessKind::Error)
        }
    }
}

fn test_case(result: &CaseResult) -> TestCase {
    let status = match kind(result.verdict) {
        None => TestCaseStatus::success(),
        Some(kind) => {
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
            let mut status = TestCaseStatus::non_success(kind);
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
        case.set_system_err(cut(stderr, STDERR_BYTES));
    }
    case
}

/// `text` cut to at most `limit` bytes on a character boundary, with a note when cut.
fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}\n(stderr truncated: {} more bytes)\n",
        &text[..end],
        text.len() - end
    )
}

impl Reporter for JunitReporter {
    fn case_finished(&mut self, result: &CaseResult) -> Result<()> {
        let (cases, time) = self.suites.entry(result.case.problem.clone()).or_default();
        cases.push(test_case(result));
        *time += result.time;
        Ok(())
    }

    fn finish(&mut self, summary: &Summary) -> Result<()> {
        let xml = self
            .report(summary)
            .to_string()
            .context("cannot serialize the JUnit report")?;
        write_atomic(&self.path, xml.as_bytes(), Existing::Replace)
            .with_context(|| format!("cannot write the JUnit report `{}`", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diffing;
    use crate::reporting::tests::case;

    fn results() -> Vec<CaseResult> {
        let mut pass = CaseResult::new(case("lieges-of-legendre/sample-1"), Verdict::AC, None);
        pass.time = Duration::from_millis(12);
        let mut wrong = CaseResult::new(
            case("lieges-of-legendre/sample-2"),
            Verdict::WA,
            Some("line 1, token 1: expected `Nicky`, found `Kevin`".into()),
        );
        wrong.diff = diffing::diff(b"Nicky\n", b"Kevin\n");
        let noexp = CaseResult::new(
            case("powers-of-two/new"),
            Verdict::NOEXP,
            Some("no expected output".into()),
        );
        let mut crash = CaseResult::new(
            case("powers-of-two/crash"),
            Verdict::RE,
            Some("exited with status 3".into()),
        );
        crash.stderr = Some(format!(
            "boom \u{1b}[31mred\u{1b}[0m \u{0}\n{}",
            "é".repeat(STDERR_BYTES)
        ));
        let slow = CaseResult::new(
            case("powers-of-two/slow"),
            Verdict::TLE,
            Some("stopped after 50 ms".into()),
        );
        vec![pass, wrong, noexp, crash, slow]
    }

    /// Writes the report for `results` and returns the file's text.
    fn written(results: &[CaseResult]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("reports/junit.xml");
        let mut reporter = JunitReporter::new(path.clone());
        for result in results {
            reporter.case_finished(result).unwrap();
        }
        let summary = Summary {
            passed: 1,
            failed: 4,
            ..Summary::default()
        };
        reporter.finish(&summary).unwrap();
        std::fs::read_to_string(path).unwrap()
    }

    fn elements<'a>(doc: &'a roxmltree::Document<'_>, tag: &str) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
    }

    #[test]
    fn verdicts_split_into_failures_and_errors() {
        assert_eq!(kind(Verdict::AC), None);
        for verdict in [Verdict::WA, Verdict::PE, Verdict::NOEXP] {
            assert_eq!(kind(verdict), Some(NonSuccessKind::Failure), "{verdict}");
        }
        for verdict in [Verdict::RE, Verdict::TLE, Verdict::MLE, Verdict::OLE] {
            assert_eq!(kind(verdict), Some(NonSuccessKind::Error), "{verdict}");
        }
    }

    #[test]
    fn the_report_has_one_suite_per_problem_and_the_right_counts() {
        let xml = written(&results());
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "testsuites");
        assert_eq!(root.attribute("tests"), Some("5"));
        assert_eq!(root.attribute("failures"), Some("2"));
        assert_eq!(root.attribute("errors"), Some("2"));
        let suites = elements(&doc, "testsuite");
        let names: Vec<_> = suites
            .iter()
            .map(|s| s.attribute("name").unwrap())
            .collect();
        assert_eq!(names, ["lieges-of-legendre", "powers-of-two"]);
        assert_eq!(suites[1].attribute("tests"), Some("3"));
        assert_eq!(suites[1].attribute("failures"), Some("1"));
        assert_eq!(suites[1].attribute("errors"), Some("2"));
        let cases = elements(&doc, "testcase");
        assert_eq!(cases.len(), 5);
        for case in &cases {
            assert!(case.attribute("time").is_some());
            let (problem, _) = case.attribute("name").unwrap().split_once('/').unwrap();
            assert_eq!(case.attribute("classname"), Some(problem));
        }
        assert_eq!(cases[0].attribute("time"), Some("0.012"));
        assert_eq!(elements(&doc, "failure").len(), 2);
        assert_eq!(elements(&doc, "error").len(), 2);
    }

    #[test]
    fn a_failure_carries_its_verdict_message_and_diff() {
        let xml = written(&results());
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let failure = elements(&doc, "failure")[0];
        assert_eq!(
            failure.parent().unwrap().attribute("name"),
            Some("lieges-of-legendre/sample-2")
        );
        assert_eq!(failure.attribute("type"), Some("WA"));
        assert!(failure
            .attribute("message")
            .unwrap()
            .contains("expected `Nicky`"));
        let text = failure.text().unwrap();
        assert!(
            text.contains("│-Nicky") && text.contains("│+Kevin"),
            "{text}"
        );
        let error = elements(&doc, "error")
            .into_iter()
            .find(|e| e.attribute("type") == Some("TLE"));
        let error = error.unwrap();
        assert_eq!(error.attribute("message"), Some("stopped after 50 ms"));
        assert!(error
            .text()
            .unwrap()
            .starts_with("TLE (time limit exceeded): stopped"));
    }

    #[test]
    fn stderr_is_kept_cut_and_cleaned_of_what_xml_cannot_hold() {
        let xml = written(&results());
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let stderr = elements(&doc, "system-err");
        assert_eq!(stderr.len(), 1);
        let text = stderr[0].text().unwrap();
        assert!(text.starts_with("boom red "), "{:?}", &text[..20]);
        assert!(text.contains("stderr truncated"), "cut to the limit");
        assert!(text.len() < STDERR_BYTES + 200);
    }

    #[test]
    fn an_earlier_report_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("junit.xml");
        std::fs::write(&path, "old").unwrap();
        let mut reporter = JunitReporter::new(path.clone());
        reporter.case_finished(&results()[0]).unwrap();
        reporter.finish(&Summary::default()).unwrap();
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("<?xml"));
    }
}
