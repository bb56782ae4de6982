//! The JUnit report of both commands, written and read back.

use super::*;
use crate::diffing;
use crate::reporting::tests::case;
use crate::reporting::verified::{ProblemHeading, ProblemOutcome, RowScore, SkipReason};
use std::path::PathBuf;

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
    let mut reporter = JunitReporter::new(Destination {
        path: path.clone(),
        follow_links: false,
    });
    for result in results {
        reporter.report(&Event::case(result, None)).unwrap();
    }
    let summary = Summary {
        passed: 1,
        failed: 4,
        ..Summary::default()
    };
    reporter.report(&Event::RunFinished(&summary)).unwrap();
    std::fs::read_to_string(path).unwrap()
}

fn elements<'a>(doc: &'a roxmltree::Document<'_>, tag: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
}

#[test]
fn verdicts_split_into_failures_and_errors() {
    // AC is a failure only where a failure was due (a `verify` submission).
    for verdict in [Verdict::AC, Verdict::WA, Verdict::PE, Verdict::NOEXP] {
        assert_eq!(
            kind(Got::Verdict(verdict)),
            NonSuccessKind::Failure,
            "{verdict}"
        );
    }
    for verdict in [
        Verdict::RE,
        Verdict::TLE,
        Verdict::MLE,
        Verdict::OLE,
        Verdict::JE,
    ] {
        assert_eq!(
            kind(Got::Verdict(verdict)),
            NonSuccessKind::Error,
            "{verdict}"
        );
    }
    assert_eq!(kind(Got::CompileError), NonSuccessKind::Error);
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
    let mut reporter = JunitReporter::new(Destination {
        path: path.clone(),
        follow_links: false,
    });
    reporter.report(&Event::case(&results()[0], None)).unwrap();
    reporter
        .report(&Event::RunFinished(&Summary::default()))
        .unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("<?xml"));
}

/// A JUnit reporter of a `verify` run, started, writing `verify.xml` in `dir`.
fn verify_reporter(dir: &std::path::Path) -> (JunitReporter, PathBuf) {
    let path = dir.join("verify.xml");
    let mut reporter = JunitReporter::new(Destination {
        path: path.clone(),
        follow_links: false,
    });
    let run = RunKind::Verify {
        unreadable: vec![],
        explain: false,
    };
    reporter.report(&Event::RunStarted(&run)).unwrap();
    (reporter, path)
}

/// A `verify` run: a suite per problem in the order reported, a test case per submission (a
/// wrong output a failure, a crash an error, one not judged skipped), and `(package)` for an
/// invalid one; cut short, every suite says so.
#[test]
fn verify_reports_submissions_and_packages_with_the_same_rule() {
    let dir = tempfile::tempdir().unwrap();
    let (mut reporter, path) = verify_reporter(dir.path());
    let row = |problem: &str, name: &str, got, ok| SubmissionRow {
        problem: problem.into(),
        submission: name.into(),
        verdict: got,
        ok,
        unexpected: (ok == Some(false)).then(|| "not as expected".to_string()),
        skipped: ok
            .is_none()
            .then(|| SkipReason::Reported("no compiler".into())),
        ..SubmissionRow::default()
    };
    for problem in ["zeta", "alpha"] {
        let heading = ProblemHeading {
            name: problem.into(),
            ..ProblemHeading::default()
        };
        reporter.report(&Event::ProblemStarted(&heading)).unwrap();
    }
    let rows = [
        row(
            "alpha",
            "wrong_answer/right.py",
            Some(Got::Verdict(Verdict::AC)),
            Some(false),
        ),
        row(
            "alpha",
            "accepted/crash.py",
            Some(Got::Verdict(Verdict::RE)),
            Some(false),
        ),
        row("alpha", "accepted/new.c", None, None),
    ];
    for row in &rows {
        reporter
            .report(&Event::Finished(Finished::submission(row)))
            .unwrap();
    }
    let invalid = ProblemOutcome {
        name: "alpha".into(),
        errors: vec![crate::reporting::findings::Fault::InputValidatorBroken {
            case: "secret/1".into(),
            validator: "check.py".into(),
            said: "exited with status 1".into(),
        }],
        ..ProblemOutcome::default()
    };
    reporter
        .report(&Event::Finished(Finished::verified(&invalid)))
        .unwrap();
    reporter.report(&Event::Cancelled).unwrap();
    reporter
        .report(&Event::RunFinished(&Summary::default()))
        .unwrap();
    let xml = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("name"), Some("grundy verify"));
    let suites: Vec<_> = elements(&doc, "testsuite")
        .iter()
        .map(|s| s.attribute("name").unwrap())
        .collect();
    assert_eq!(suites, ["zeta", "alpha"]);
    let outcome = |name: &str| {
        let case = elements(&doc, "testcase")
            .into_iter()
            .find(|c| c.attribute("name") == Some(name))
            .unwrap();
        let element = case.first_element_child().map(|e| e.tag_name().name());
        (
            element,
            case.first_element_child().and_then(|e| e.attribute("type")),
        )
    };
    assert_eq!(
        outcome("wrong_answer/right.py"),
        (Some("failure"), Some("AC"))
    );
    assert_eq!(outcome("accepted/crash.py"), (Some("error"), Some("RE")));
    assert_eq!(outcome("accepted/new.c"), (Some("skipped"), None));
    assert_eq!(
        outcome("(package)"),
        (Some("failure"), Some("invalid package"))
    );
    let cancelled = xml.matches(r#"name="cancelled" value="true""#).count();
    assert_eq!(cancelled, 2, "{xml}");
}

#[test]
fn a_scored_submission_carries_its_score_line_and_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let (mut reporter, path) = verify_reporter(dir.path());
    // Legacy `objective: min` over the range 3..100: 7 is the score, 3 the full one.
    let row = SubmissionRow {
        problem: "golf".into(),
        submission: "partially_accepted/long.py".into(),
        verdict: Some(Got::Verdict(Verdict::AC)),
        ok: Some(true),
        score: Some(RowScore {
            total: 7.0,
            max: Some(100.0),
            groups: vec![
                ("secret/a".into(), 4.0, Some(50.0)),
                ("data".into(), 7.0, Some(100.0)),
            ],
            lower_best: Some(3.0),
        }),
        ..SubmissionRow::default()
    };
    reporter
        .report(&Event::Finished(Finished::submission(&row)))
        .unwrap();
    reporter
        .report(&Event::RunFinished(&Summary::default()))
        .unwrap();
    let xml = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let out = elements(&doc, "system-out")[0].text().unwrap_or_default();
    assert_eq!(out.trim(), "score 7, lower is better, full 3: secret/a 4");
    let properties: Vec<_> = elements(&doc, "property")
        .iter()
        .map(|p| (p.attribute("name").unwrap(), p.attribute("value").unwrap()))
        .collect();
    assert_eq!(
        properties,
        [
            ("score", "7"),
            ("max_score", "100"),
            ("min_score", "3"),
            ("objective", "min")
        ]
    );
}
