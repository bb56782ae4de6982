use super::*;

fn row(expected: &[&str], verdict: Verdict, ok: bool, ms: u64) -> SubmissionRow {
    SubmissionRow {
        expected_verdicts: expected.iter().map(|v| v.to_string()).collect(),
        verdict: Some(Got::Verdict(verdict)),
        ok: Some(ok),
        slowest: Some(("secret/1".into(), Duration::from_millis(ms))),
        ..SubmissionRow::default()
    }
}

#[test]
fn a_row_counts_each_expected_verdict_and_the_times_around_the_limit() {
    let mut table = ContestTable::default();
    table.started(&ProblemHeading {
        name: "hello".into(),
        label: Some("A".into()),
        groups: vec![("sample".into(), 2), ("secret/g1".into(), 5)],
        ..ProblemHeading::default()
    });
    for submission in [
        row(&["TLE"], Verdict::TLE, true, 2000),
        row(&["AC"], Verdict::AC, true, 120),
        row(&["WA"], Verdict::AC, false, 300),
        row(&["AC"], Verdict::AC, true, 90),
        row(&["TLE"], Verdict::TLE, true, 1900),
        row(&["TLE", "RTE"], Verdict::WA, false, 10),
    ] {
        table.submission(&submission);
    }
    table.verified(&ProblemOutcome::default());
    assert!(table.shown());
    let row = &table.rows()[0];
    let counts: Vec<(&str, usize, usize)> = row
        .expected
        .iter()
        .map(|e| (e.verdicts.as_str(), e.submissions, e.as_expected))
        .collect();
    assert_eq!(
        counts,
        [("AC", 2, 2), ("WA", 1, 0), ("TLE", 2, 2), ("TLE/RTE", 1, 0)]
    );
    // The WA submission judged AC counts as the slowest accepted run.
    assert_eq!(row.slowest_accepted, Some(Duration::from_millis(300)));
    assert_eq!(row.fastest_too_slow, Some(Duration::from_millis(1900)));
    assert_eq!(row.status, Some(Status::Valid));
    assert_eq!(row.cases(), "sample 2, secret/g1 5");
    assert_eq!(row.missing(), [Missing::InputValidator]);
}

#[test]
fn one_problem_alone_is_no_contest_and_lacks_what_it_has_not() {
    let mut table = ContestTable::default();
    table.started(&ProblemHeading {
        name: "alone".into(),
        ..ProblemHeading::default()
    });
    assert!(!table.shown());
    let missing = table.rows()[0].missing();
    assert_eq!(missing.len(), 6);
    assert_eq!(missing[0].to_string(), "an accepted submission");
}
