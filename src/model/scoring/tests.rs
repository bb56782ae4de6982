use std::time::Duration;

use super::legacy::default_grader;
use super::*;
use crate::package::test_support::{root, tree};
use crate::package::testdata;

/// The scheme of a package of `version` with these files below it (its `data/`).
fn scheme(version: FormatVersion, files: &[(&str, &str)], custom: bool) -> Scheme {
    with_problem(version, files, custom, &ProblemGrading::default())
}

/// [`scheme`] with legacy `grading` in `problem.yaml`.
fn with_problem(
    version: FormatVersion,
    files: &[(&str, &str)],
    custom: bool,
    problem: &ProblemGrading,
) -> Scheme {
    attempt(version, files, custom, problem).unwrap()
}

/// The scheme, or why there is none.
fn attempt(
    version: FormatVersion,
    files: &[(&str, &str)],
    custom: bool,
    problem: &ProblemGrading,
) -> Result<Scheme, SchemeError> {
    let dir = tree(files);
    let data = testdata::read(
        &root(dir.path()),
        version,
        &[],
        &Default::default(),
        &mut vec![],
    )
    .unwrap();
    let ids: Vec<String> = data.judged().map(|c| c.id.clone()).collect();
    Scheme::new(version, &data, &ids, custom, problem)
}

/// A run with a verdict (and a validator's score).
fn run(verdict: RunVerdict, score: Option<ValidatorScore>) -> Option<CaseRun> {
    Some(CaseRun {
        verdict,
        time: Duration::ZERO,
        stopped_by: None,
        message: None,
        score,
        cpu: Duration::ZERO,
        wall: Duration::ZERO,
        peak_memory_bytes: None,
        failure: None,
        detail: None,
        said: None,
    })
}

const AC: RunVerdict = RunVerdict::AC;
const WA: RunVerdict = RunVerdict::WA;

/// problemtools' scoring example (examples/oddecho, 2023-07-draft, legacy testdata.yaml keys),
/// its settings files as shipped and one case per folder it has cases in.
fn oddecho() -> Scheme {
    let case = |name: &str| {
        [
            (format!("data/{name}.in"), ""),
            (format!("data/{name}.ans"), ""),
        ]
    };
    let cases: Vec<(String, &str)> = [
        "sample/1",
        "sample/2",
        "secret/subtask1/1",
        "secret/subtask1/2",
        "secret/subtask2/01",
        "secret/subtask2/02",
    ]
    .iter()
    .flat_map(|c| case(c))
    .collect();
    let mut files: Vec<(&str, &str)> = cases.iter().map(|(p, t)| (p.as_str(), *t)).collect();
    files.extend([
        (
            "data/testdata.yaml",
            "on_reject: continue\nrange: 0 100\ngrader_flags: ignore_sample\n",
        ),
        (
            "data/sample/testdata.yaml",
            "on_reject: continue\nrange: 0 0\naccept_score: 0\ngrader_flags: first_error\n",
        ),
        (
            "data/secret/testdata.yaml",
            "on_reject: continue\nrange: 0 100\ngrader_flags: first_error accept_if_any_accepted\n",
        ),
        (
            "data/secret/subtask1/testdata.yaml",
            "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
        ),
        (
            "data/secret/subtask2/testdata.yaml",
            "on_reject: break\naccept_score: 50\nrange: 0 50\ngrader_flags: min\n",
        ),
    ]);
    scheme(FormatVersion::V2023_07, &files, false)
}

#[test]
fn oddecho_scores_as_verifyproblem_does() {
    // Expected totals and verdicts: `verifyproblem -p submissions` (problemtools, pip) on the
    // example: accepted 100 AC, partially_accepted/sol.py (subtask 1 only) 50 AC.
    let scheme = oddecho();
    let all = vec![run(AC, None); 6];
    let scores = scheme.score(&all).unwrap();
    assert_eq!((scores.total, scores.verdict), (100.0, Some(Verdict::AC)));
    assert_eq!(scores.range, (0.0, 100.0));
    let subtask1_only = [all[..4].to_vec(), vec![run(WA, None), run(AC, None)]].concat();
    let scores = scheme.score(&subtask1_only).unwrap();
    assert_eq!((scores.total, scores.verdict), (50.0, Some(Verdict::AC)));
    assert!(scores
        .groups
        .contains(&("secret/subtask2".into(), 0.0, Some(50.0))));
    assert!(scores.faults.is_empty());
}

#[test]
fn the_default_grader_by_its_flags() {
    use Verdict::*;
    let flags = |text: &str| {
        text.split_whitespace()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let results = [(AC, 3.0), (WA, 0.0), (TLE, 1.0), (RTE, 2.0)];
    assert_eq!(default_grader(&results, &[]), (RTE, 6.0));
    assert_eq!(
        default_grader(&results, &flags("first_error avg")),
        (WA, 1.5)
    );
    assert_eq!(
        default_grader(&results, &flags("always_accept max")),
        (AC, 3.0)
    );
    assert_eq!(
        default_grader(&results, &flags("min accept_if_any_accepted")),
        (AC, 0.0)
    );
    assert_eq!(
        default_grader(&results[1..3], &flags("ignore_sample")),
        (TLE, 1.0)
    );
    assert_eq!(default_grader(&[], &[]), (AC, 0.0));
}

#[test]
fn legacy_score_files_need_custom_score_validation() {
    let files = [("data/secret/1.in", ""), ("data/secret/1.ans", "")];
    let scored = [run(AC, Some(ValidatorScore::Score(7.5)))];
    let custom = scheme(FormatVersion::Legacy, &files, true);
    assert_eq!(custom.score(&scored).unwrap().total, 7.5);
    assert!(matches!(
        custom.score(&[run(AC, None)]),
        Err(NoScore::JudgeError { case: 0, .. })
    ));
    let plain = scheme(FormatVersion::Legacy, &files, false);
    assert!(matches!(
        plain.score(&scored),
        Err(NoScore::JudgeError { .. })
    ));
    // accept_score 1 by default.
    assert_eq!(plain.score(&[run(AC, None)]).unwrap().total, 1.0);
}

#[test]
fn problem_yaml_grading_keys_hold_over_every_group_and_min_is_the_objective() {
    let files = [
        (
            "data/secret/testdata.yaml",
            "accept_score: 3\nrange: 0 10\n",
        ),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", ""),
        ("data/secret/2.in", ""),
        ("data/secret/2.ans", ""),
    ];
    let problem = ProblemGrading {
        minimize: true,
        accept_score: Some(2.0),
        range: Some((1.0, 20.0)),
        on_reject_continue: Some(true),
        ..ProblemGrading::default()
    };
    let scheme = with_problem(FormatVersion::Legacy, &files, false, &problem);
    // secret: WA (0, judged on by `grade`) then AC (2): 2; data: the same.
    let scores = scheme.score(&[run(WA, None), run(AC, None)]).unwrap();
    assert_eq!(scores.total, 2.0);
    assert_eq!((scores.range, scores.minimize), ((1.0, 20.0), true));
    assert!(scores.faults.is_empty());
}

fn spec_package(group2: &str) -> Vec<(&str, &str)> {
    let mut files = vec![
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", ""),
        ("data/secret/a/1.in", ""),
        ("data/secret/a/1.ans", ""),
        ("data/secret/a/test_group.yaml", "max_score: 40\n"),
        ("data/secret/b/1.in", ""),
        ("data/secret/b/1.ans", ""),
        ("data/secret/b/2.in", ""),
        ("data/secret/b/2.ans", ""),
    ];
    files.push(("data/secret/b/test_group.yaml", group2));
    files
}

#[test]
fn groups_of_2025_09_by_their_aggregation() {
    // Cases: sample/1, secret/a/1, secret/b/1, secret/b/2. Group a pass-fail of 40; b of 60
    // summed over its two cases (30 each) or their minimum (60 each).
    let sum = scheme(
        FormatVersion::V2025_09,
        &spec_package("max_score: 60\nscore_aggregation: sum\n"),
        false,
    );
    let half = ValidatorScore::Multiplier(0.5);
    let runs = [
        run(WA, None),
        run(AC, None),
        run(AC, Some(half)),
        run(WA, None),
    ];
    let scores = sum.score(&runs).unwrap();
    // 40 + (15 + 0): the sample counts for nothing.
    assert_eq!(
        (scores.total, scores.range, scores.verdict),
        (55.0, (0.0, 100.0), None)
    );
    let min = scheme(
        FormatVersion::V2025_09,
        &spec_package("max_score: 60\nscore_aggregation: min\n"),
        false,
    );
    let runs = [
        run(AC, None),
        run(WA, None),
        run(AC, Some(ValidatorScore::Score(20.0))),
        run(AC, None),
    ];
    assert_eq!(min.score(&runs).unwrap().total, 20.0);
    // require_pass: b scores nothing while a sample fails.
    let gated = scheme(
        FormatVersion::V2025_09,
        &spec_package("max_score: 60\nrequire_pass: sample\n"),
        false,
    );
    let runs = [run(WA, None), run(AC, None), run(AC, None), run(AC, None)];
    assert_eq!(gated.score(&runs).unwrap().total, 40.0);
}

#[test]
fn score_files_against_the_2025_09_rules_are_judge_errors() {
    let sum = scheme(
        FormatVersion::V2025_09,
        &spec_package("max_score: 60\nscore_aggregation: sum\n"),
        false,
    );
    let over = [
        run(AC, None),
        run(AC, None),
        run(AC, Some(ValidatorScore::Score(31.0))),
        run(AC, None),
    ];
    assert!(matches!(
        sum.score(&over),
        Err(NoScore::JudgeError { case: 2, .. })
    ));
    // A pass-fail group's case may not be scored.
    let scored = [
        run(AC, None),
        run(AC, Some(ValidatorScore::Score(1.0))),
        run(AC, None),
        run(AC, None),
    ];
    assert!(matches!(
        sum.score(&scored),
        Err(NoScore::JudgeError { case: 1, .. })
    ));
    // A group without max_score under a bounded secret is the package's error.
    let files = spec_package("score_aggregation: sum\n");
    assert!(matches!(
        attempt(FormatVersion::V2025_09, &files, false, &ProblemGrading::default()),
        Err(SchemeError::Invalid(why)) if why.contains("secret/b")
    ));
}

#[test]
fn what_grundy_does_not_apply_leaves_the_scores_unchecked_and_says_where() {
    let unsupported = |version, group_file: &str| {
        let files = spec_package(group_file);
        match attempt(version, &files, false, &ProblemGrading::default()) {
            Err(SchemeError::Unsupported(why)) => why,
            other => panic!("{group_file}: {other:?}"),
        }
    };
    let why = unsupported(
        FormatVersion::V2025_09,
        "max_score: 60\nstatic_validation_score: 10\n",
    );
    assert!(
        why.contains("secret/b/test_group.yaml:2:26: `static_validation_score` asks for a static")
            && why.ends_with("the scores are not checked"),
        "{why}"
    );
    let why = unsupported(
        FormatVersion::V2023_07,
        "scoring:\n  score: 60\n  aggregation: sum\n",
    );
    assert!(
        why.contains(
            "secret/b/test_group.yaml:2:8: `scoring` asks for scores by the 2023-07 draft"
        ),
        "{why}"
    );
    // `static_validation: false` asks for nothing.
    let files = spec_package("max_score: 60\nstatic_validation: false\n");
    let none = ProblemGrading::default();
    assert!(attempt(FormatVersion::V2023_07, &files, false, &none).is_ok());
    let files = [
        ("data/secret/testdata.yaml", "grading: custom\n"),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", ""),
    ];
    match attempt(FormatVersion::Legacy, &files, false, &none) {
        Err(SchemeError::Unsupported(why)) => {
            assert!(
                why.contains("`grading: custom` in the settings of secret"),
                "{why}"
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn overruns_are_run_time_errors_and_judge_errors_no_verdict() {
    let format = |v| format_verdict(v).map(|f| f.to_string());
    assert_eq!(format(RunVerdict::AC).as_deref(), Some("AC"));
    assert_eq!(format(RunVerdict::PE).as_deref(), Some("WA"));
    for overrun in [RunVerdict::RE, RunVerdict::MLE, RunVerdict::OLE] {
        assert_eq!(format(overrun).as_deref(), Some("RTE"));
    }
    assert_eq!(format(RunVerdict::TLE).as_deref(), Some("TLE"));
    assert_eq!(format(RunVerdict::JE), None);
}
