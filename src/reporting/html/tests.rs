//! The page builder: what it shows of `check`'s and `verify`'s events, its escaping, its bounds.

use std::time::Duration;

use super::page::{render, PAGE_BYTES};
use super::*;
use crate::diffing;
use crate::judging::Verdict;
use crate::model::{Fixed, TimeLimit};
use crate::reporting::tests::case;
use crate::reporting::verified::{Got, OutputJudge, ProblemHeading, ProblemOutcome, Validators};
use crate::reporting::RunKind;

const HOSTILE: &str = "<script>alert('x')</script> \"quoted\" & \u{1b}[2J\u{7}<img src=x>";

fn reporter() -> HtmlReporter {
    let destination = Destination {
        path: "unused.html".into(),
        follow_links: false,
    };
    HtmlReporter::new(destination)
}

/// `check`'s start: `cases` cases, `nim`'s time limit a second.
fn check(cases: usize) -> RunKind {
    RunKind::Check {
        cases,
        time_limits: BTreeMap::from([("nim".to_string(), Duration::from_millis(1000))]),
    }
}

/// The page of `events`, as the reporter collects them.
fn page_of(reporter: &mut HtmlReporter, events: &[Event<'_>]) -> String {
    for event in events {
        reporter.report(event).unwrap();
    }
    render(&reporter.collected, &Summary::default())
}

fn result(id: &str, verdict: Verdict, millis: u64) -> CaseResult {
    let message = (!verdict.passed()).then(|| format!("{verdict} here"));
    let mut result = CaseResult::new(case(id), verdict, message);
    result.time = Duration::from_millis(millis);
    result
}

#[test]
fn check_shows_each_case_with_its_verdict_time_and_details() {
    let pass = result("nim/sample/1", Verdict::AC, 12);
    let mut wrong = result("nim/secret/2", Verdict::WA, 700);
    wrong.diff = diffing::diff(b"first\n", b"second\n");
    let mut reporter = reporter();
    let kind = check(2);
    let page = page_of(
        &mut reporter,
        &[
            Event::RunStarted(&kind),
            Event::case(&pass, Some("built-in")),
            Event::case(&wrong, Some("built-in")),
        ],
    );
    assert!(
        page.contains("<tr><th>sample/1<td class=AC>AC\n12"),
        "{page}"
    );
    // Over half the limit of 1 s: outlined.
    assert!(
        page.contains("<tr><th>secret/2<td class=\"WA near\">WA\n700"),
        "{page}"
    );
    // A problem's failures are a section of their own, laid out only when in view.
    assert!(page.contains(
        "<section class=failures><h3>nim</h3>\n<details class=failure>\
         <summary><span class=WA>WA</span> built-in · secret/2: <span class=q>WA here</span>"
    ));
    assert!(
        page.contains("-first") && page.contains("+second"),
        "the diff is in the details"
    );
    assert!(page.contains("time limit: 1s"), "{page}");
    assert!(!page.contains("Cancelled"));
}

#[test]
fn what_programs_printed_is_escaped_and_no_script_can_run() {
    let mut hostile = result("nim/a", Verdict::RE, 1);
    hostile.message = Some(HOSTILE.into());
    hostile.stderr = Some(HOSTILE.into());
    hostile.case.id = format!("nim/{HOSTILE}");
    let mut reporter = reporter();
    let kind = check(1);
    let page = page_of(
        &mut reporter,
        &[
            Event::RunStarted(&kind),
            Event::case(&hostile, Some(HOSTILE)),
        ],
    );
    assert!(
        !page.contains("<script") && !page.contains("<img"),
        "{page}"
    );
    assert!(
        page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;quoted&quot; &amp;")
    );
    assert!(
        page.contains("\\x1b[2J\\x07"),
        "controls as escapes: {page}"
    );
    assert!(!page.contains('\u{1b}') && !page.contains('\u{7}'));
    // No script of its own, and none allowed.
    assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'\""));
}

fn row(submission: &str, expected: &str, verdicts: &[Option<Verdict>]) -> SubmissionRow {
    let runs: Vec<CaseCell> = verdicts
        .iter()
        .enumerate()
        .map(|(i, verdict)| CaseCell {
            case: format!("secret/{}", i + 1),
            verdict: *verdict,
            time: Duration::from_millis(10 * i as u64),
            message: verdict
                .filter(|v| !v.passed())
                .map(|v| format!("{v} on it")),
            detail: verdict
                .filter(|v| !v.passed())
                .map(|_| "detail ".repeat(100)),
        })
        .collect();
    let first = runs.iter().filter_map(|r| r.verdict).find(|v| !v.passed());
    SubmissionRow {
        problem: "sum".into(),
        submission: submission.into(),
        expected_short: expected.into(),
        verdict: Some(Got::Verdict(first.unwrap_or(Verdict::AC))),
        ok: Some(true),
        runs,
        ..SubmissionRow::default()
    }
}

#[test]
fn verify_shows_the_matrix_and_what_catches_each_wrong_submission() {
    let (ac, wa, tle) = (Some(Verdict::AC), Some(Verdict::WA), Some(Verdict::TLE));
    let rows = [
        row("accepted/a.py", "AC", &[ac, ac, ac]),
        row("wrong_answer/b.py", "WA", &[ac, wa, wa]),
        row("time_limit_exceeded/c.py", "TLE", &[ac, tle, None]),
        row("wrong_answer/lucky.py", "WA", &[ac, ac, ac]),
    ];
    let heading = ProblemHeading {
        name: "sum".into(),
        ..ProblemHeading::default()
    };
    let kind = RunKind::Verify {
        unreadable: vec![],
        explain: false,
    };
    let mut events = vec![Event::RunStarted(&kind), Event::ProblemStarted(&heading)];
    events.extend(
        rows.iter()
            .map(|row| Event::Finished(Finished::submission(row))),
    );
    events.push(Event::Cancelled);
    let page = page_of(&mut reporter(), &events);
    assert!(
        page.contains(
            "<tr class=ok data-submission=\"wrong_answer/b.py\"><th>wrong_answer/b.py<td>WA\
         <td class=\"WA\">WA<td>20 ms<td class=AC>AC\n0<td class=WA>WA\n10\
         <td class=WA>WA\n20"
        ),
        "{page}"
    );
    assert!(
        page.contains("<td class=TLE>TLE\n10<td class=none>-"),
        "not run: {page}"
    );
    assert!(page.contains(
        "<tr><th>wrong_answer/b.py<td><span class=WA>secret/2 WA</span> \
         <span class=WA>secret/3 WA</span>"
    ));
    assert!(page.contains("<tr><th>wrong_answer/lucky.py<td><b>no case catches it</b>"));
    assert!(
        !page.contains("<tr><th>accepted/a.py<td>"),
        "an accepted one is caught by nothing"
    );
    assert!(page.contains("1 case catches no submission that must fail: <span>secret/1</span>"));
    assert!(
        page.contains("submissions by verdict</caption><tr><td class=AC>AC <b>2</b><td class=TLE>TLE <b>1</b><td class=WA>WA <b>1</b>"),
        "{page}"
    );
    assert!(page.contains("<td class=none>not run <b>1</b>"), "{page}");
    assert!(page.contains("Cancelled"));
}

#[test]
fn a_hundred_thousand_failed_case_results_stay_under_the_bound() {
    // A contest of 100 submissions × 1,000 cases, every run failed with the longest detail.
    let verdicts = vec![Some(Verdict::WA); 1000];
    let mut reporter = reporter();
    let kind = RunKind::Verify {
        unreadable: vec![],
        explain: false,
    };
    reporter.report(&Event::RunStarted(&kind)).unwrap();
    for s in 0..100 {
        let mut row = row(
            &format!("wrong_answer/submission-{s:03}.py"),
            "WA",
            &verdicts,
        );
        row.runs
            .iter_mut()
            .for_each(|c| c.case = format!("secret/group/case-{}", c.case));
        reporter
            .report(&Event::Finished(Finished::submission(&row)))
            .unwrap();
    }
    let page = render(&reporter.collected, &Summary::default());
    assert!(page.len() < PAGE_BYTES, "{} bytes", page.len());
    // The matrix is whole: every row and every cell; details as far as they fit.
    assert_eq!(page.matches("<td class=WA>WA\n").count(), 100_000);
    assert!(page.contains("data-submission=\"wrong_answer/submission-099.py\""));
    assert!(
        page.contains("more failure details left out"),
        "the cut is said"
    );
    assert!(
        page.contains("the diff and stderr of"),
        "details beyond the budget were not kept"
    );
}

#[test]
fn a_check_of_many_long_named_cases_stays_under_the_bound() {
    let mut reporter = reporter();
    let kind = check(100_000);
    reporter.report(&Event::RunStarted(&kind)).unwrap();
    let long = "n".repeat(500);
    for i in 0..100_000 {
        let mut failed = result(&format!("nim/{long}/{i}"), Verdict::RE, 5);
        failed.stderr = Some("e".repeat(3_000));
        reporter
            .report(&Event::case(&failed, Some("built-in")))
            .unwrap();
    }
    let page = render(&reporter.collected, &Summary::default());
    assert!(page.len() < PAGE_BYTES, "{} bytes", page.len());
    assert!(page.contains("more cases left out"), "the cut is said");
}

#[test]
fn a_run_of_many_problems_lists_the_first_ones_and_stays_under_the_bound() {
    let mut reporter = reporter();
    let kind = check(50_000);
    reporter.report(&Event::RunStarted(&kind)).unwrap();
    let long = "p".repeat(200);
    for i in 0..50_000 {
        let failed = result(&format!("{long}{i}/a"), Verdict::WA, 5);
        reporter
            .report(&Event::case(&failed, Some("built-in")))
            .unwrap();
    }
    let page = render(&reporter.collected, &Summary::default());
    assert!(page.len() < PAGE_BYTES, "{} bytes", page.len());
    assert!(
        page.contains("<li>… 49800 more</ul></nav>"),
        "the list of problems is cut"
    );
    assert!(
        page.contains("more problems left out"),
        "so are their sections"
    );
}

/// `problem`'s heading in a contest, labelled `label`, with a sample and a secret case.
fn contest_heading(problem: &str, label: &str) -> ProblemHeading {
    ProblemHeading {
        name: problem.into(),
        label: Some(label.into()),
        groups: vec![("sample".into(), 1), ("secret".into(), 2)],
        time_limit: TimeLimit::fixed(Duration::from_secs(1), Fixed::Package("problem.yaml")),
        validators: Validators {
            input: 1,
            answer: 0,
            output: OutputJudge::Custom,
        },
        ..ProblemHeading::default()
    }
}

#[test]
fn a_contest_opens_with_its_table_each_label_linking_to_its_problem() {
    let (ac, wa) = (Some(Verdict::AC), Some(Verdict::WA));
    let mut first = [
        row("accepted/a.py", "AC", &[ac, ac]),
        row("wrong_answer/b.py", "WA", &[ac, wa]),
    ];
    first[0].expected_verdicts = vec!["AC".into()];
    first[1].expected_verdicts = vec!["WA".into()];
    first[0].slowest = Some(("secret/2".into(), Duration::from_millis(10)));
    // Expected to fail, it passed: not as expected.
    let mut second = row("wrong_answer/lucky.py", "WA", &[ac, ac]);
    (second.problem, second.ok) = (HOSTILE.into(), Some(false));
    second.expected_verdicts = vec!["WA".into()];
    let kind = RunKind::Verify {
        unreadable: vec![],
        explain: false,
    };
    let (sum, hostile) = (
        contest_heading("sum", "B"),
        contest_heading(HOSTILE, HOSTILE),
    );
    let mut events = vec![Event::RunStarted(&kind), Event::ProblemStarted(&sum)];
    events.extend(
        first
            .iter()
            .map(|row| Event::Finished(Finished::submission(row))),
    );
    let sum_outcome = ProblemOutcome {
        name: "sum".into(),
        ..ProblemOutcome::default()
    };
    events.push(Event::Finished(Finished::verified(&sum_outcome)));
    events.push(Event::ProblemStarted(&hostile));
    events.push(Event::Finished(Finished::submission(&second)));
    let page = page_of(&mut reporter(), &events);
    let table = page.find("<table class=contest>").expect("a contest table");
    assert!(
        table < page.find("<section id=summary>").unwrap(),
        "the page opens with it"
    );
    assert!(
        page.contains(
            "<tr><th><a href=\"#p0\">B</a><td>sum<td>sample 1, secret 2<td>AC 1/1, WA 1/1\
         <td>1 input, custom output<td>1s (AC ≤ 0.01s)<td class=missing>a time-limit submission\
         <td class=\"status valid\">valid</tr>"
        ),
        "{page}"
    );
    let escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot;quoted&quot; &amp; \
                   \\x1b[2J\\x07&lt;img src=x&gt;";
    assert!(
        page.contains(&format!(
            "<tr><th><a href=\"#p1\">{escaped}</a><td>{escaped}<td>sample 1, secret 2\
         <td class=unexpected>WA 0/1<td>1 input, custom output<td>1s\
         <td class=missing>an accepted submission, a time-limit submission\
         <td class=\"status not-finished\">not finished</tr>"
        )),
        "{page}"
    );
    assert!(page.contains("<section class=problem id=\"p1\"><h2>&lt;script&gt;"));
    assert!(!page.contains("<script") && !page.contains("<img"));
}

#[test]
fn one_problem_verified_alone_has_no_contest_table() {
    let kind = RunKind::Verify {
        unreadable: vec![],
        explain: false,
    };
    let heading = ProblemHeading {
        name: "alone".into(),
        ..ProblemHeading::default()
    };
    let page = page_of(
        &mut reporter(),
        &[Event::RunStarted(&kind), Event::ProblemStarted(&heading)],
    );
    assert!(!page.contains("class=contest"), "{page}");
}
