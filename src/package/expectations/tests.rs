//! Tests of expectations (expectations.rs).

use super::check::{Outcome, Scored};
use super::Verdict::*;
use super::*;

fn outcomes<'a>(cases: &[(&'a str, Option<Verdict>)]) -> Vec<Outcome<'a>> {
    cases
        .iter()
        .map(|&(case, verdict)| Outcome {
            case,
            verdict,
            message: None,
        })
        .collect()
}

fn rules(folder: &str) -> Expectation {
    Expectation::Rules(vec![default_rule(folder).unwrap()])
}

fn set(verdicts: &[Verdict]) -> Option<Verdicts> {
    Some(verdicts.iter().copied().collect())
}

#[test]
fn verdicts_parse_and_print_in_the_formats_words() {
    assert_eq!("TLE".parse::<Verdict>(), Ok(TLE));
    assert_eq!(
        "MLE".parse::<Verdict>().unwrap_err().to_string(),
        "`MLE` is not a verdict (AC, WA, TLE or RTE)"
    );
    assert_eq!(RTE.to_string(), "RTE");
}

#[test]
fn the_submission_verdict_is_the_first_error() {
    let all_ac = outcomes(&[("sample/1", Some(AC)), ("secret/1", Some(AC))]);
    assert_eq!(
        Expectation::Final(AC, None).check(&all_ac, None).verdict,
        AC
    );
    let mixed = outcomes(&[
        ("sample/1", Some(AC)),
        ("secret/1", Some(TLE)),
        ("secret/2", Some(WA)),
    ]);
    let check = Expectation::Final(WA, None).check(&mixed, None);
    assert_eq!(check.verdict, TLE);
    assert_eq!(
        check.problem.as_deref(),
        Some("expected WA, got TLE on secret/1 (the first case that failed)")
    );
    assert!(Expectation::Final(TLE, None).check(&mixed, None).ok());
    let check = Expectation::Final(WA, None).check(&all_ac, None);
    assert_eq!(
        check.problem.as_deref(),
        Some("expected WA, but every judged case was accepted")
    );
}

#[test]
fn legacy_folders_name_their_verdict() {
    assert_eq!(legacy_verdict("accepted"), Some(AC));
    assert_eq!(legacy_verdict("partially_accepted"), Some(AC));
    assert_eq!(legacy_verdict("wrong_answer"), Some(WA));
    assert_eq!(legacy_verdict("time_limit_exceeded"), Some(TLE));
    assert_eq!(legacy_verdict("run_time_error"), Some(RTE));
    assert_eq!(legacy_verdict("brute_force"), None);
}

#[test]
fn default_folders_follow_the_spec() {
    let run = |folder: &str, verdicts: &[Verdict]| {
        let cases: Vec<_> = verdicts
            .iter()
            .enumerate()
            .map(|(i, v)| (["s/1", "s/2", "s/3"][i], Some(*v)))
            .collect();
        rules(folder).check(&outcomes(&cases), None).ok()
    };
    assert!(run("accepted", &[AC, AC]));
    assert!(!run("accepted", &[AC, WA]));
    assert!(run("wrong_answer", &[AC, WA, WA]));
    assert!(!run("wrong_answer", &[AC, AC]));
    assert!(
        !run("wrong_answer", &[WA, TLE]),
        "TLE is not permitted, even after the first WA"
    );
    assert!(run("time_limit_exceeded", &[AC, TLE]));
    assert!(!run("time_limit_exceeded", &[TLE, RTE]));
    assert!(run("run_time_error", &[RTE, AC]));
    assert!(run("rejected", &[AC, WA, TLE]));
    assert!(!run("rejected", &[AC, AC]));
    assert!(run("brute_force", &[AC, TLE]));
    assert!(!run("brute_force", &[TLE, WA]));
    assert!(default_rule("partially_accepted").is_none());
}

#[test]
fn unexpected_results_are_explained_in_one_line() {
    let check = rules("wrong_answer").check(
        &outcomes(&[("secret/1", Some(WA)), ("secret/2", Some(TLE))]),
        None,
    );
    assert_eq!(check.verdict, WA);
    assert_eq!(
        check.problem.as_deref(),
        Some("secret/2 got TLE, but only AC, WA is permitted (the wrong_answer folder)")
    );
    let check = rules("time_limit_exceeded").check(&outcomes(&[("secret/1", Some(AC))]), None);
    assert_eq!(
        check.problem.as_deref(),
        Some("no case got TLE: 1 judged (the time_limit_exceeded folder)")
    );
}

#[test]
fn unjudged_cases_are_not_held_against_permitted_but_are_named_for_required() {
    let stopped = outcomes(&[("secret/1", Some(WA)), ("secret/2", None)]);
    assert!(rules("wrong_answer").check(&stopped, None).ok());
    let stopped = outcomes(&[("secret/1", Some(AC)), ("secret/2", None)]);
    let check = rules("time_limit_exceeded").check(&stopped, None);
    assert_eq!(
        check.problem.as_deref(),
        Some("no case got TLE: 1 judged, and 1 were not judged (the time_limit_exceeded folder)")
    );
}

#[test]
fn rules_can_look_at_some_groups_only() {
    let group2 = Rule {
        cases: Some(PathGlob::new("secret/group2").unwrap()),
        permitted: set(&[AC, TLE]),
        required: set(&[TLE]),
        ..Rule::new("submissions.yaml:4:3")
    };
    let sample = Rule {
        cases: Some(PathGlob::new("sample").unwrap()),
        permitted: set(&[AC]),
        ..Rule::new("submissions.yaml:2:3")
    };
    let expectation = Expectation::Rules(vec![sample, group2]);
    let good = outcomes(&[
        ("sample/1", Some(AC)),
        ("secret/group1/1", Some(WA)),
        ("secret/group2/1", Some(TLE)),
    ]);
    assert!(
        expectation.check(&good, None).ok(),
        "group1 is not constrained"
    );
    let bad = outcomes(&[
        ("sample/1", Some(AC)),
        ("secret/group2/1", Some(AC)),
        ("secret/group2/2", Some(AC)),
    ]);
    assert_eq!(
        expectation.check(&bad, None).problem.as_deref(),
        Some("no case got TLE on secret/group2: 2 judged (submissions.yaml:4:3)")
    );
    let nothing = Expectation::Rules(vec![Rule {
        cases: Some(PathGlob::new("secret/nope").unwrap()),
        permitted: set(&[AC]),
        ..Rule::new("submissions.yaml:1:1")
    }]);
    assert_eq!(
        nothing.check(&good, None).problem.as_deref(),
        Some("no case matches `secret/nope` (submissions.yaml:1:1)")
    );
}

#[test]
fn case_globs_match_within_one_name_and_cover_groups() {
    let glob = PathGlob::new("secret/*-easy").unwrap();
    assert!(glob.matches("secret/01-easy"));
    assert!(
        glob.matches("secret/g-easy/03"),
        "a matching group covers its cases"
    );
    assert!(!glob.matches("secret/a/01-easy"), "`*` does not cross `/`");
    assert!(PathGlob::new("secret/{a,b}").unwrap().matches("secret/b/1"));
    assert!(PathGlob::new("sample").unwrap().matches("sample/1"));
    assert!(!PathGlob::new("sample").unwrap().matches("samples/1"));
    assert!(PathGlob::new("secret/[").is_err());
}

#[test]
fn scores_and_messages() {
    let rule = Rule {
        score: Some((40.0, 60.0)),
        message: Some("too slow".into()),
        ..Rule::new("submissions.yaml:1:1")
    };
    let expectation = Expectation::Rules(vec![rule]);
    let mut cases = outcomes(&[("secret/1", Some(AC))]);
    assert_eq!(
        expectation.check(&cases, None).problem.as_deref(),
        Some("a score in [40, 60] is expected, but the run gave none (submissions.yaml:1:1)")
    );
    assert_eq!(
        expectation
            .check(&cases, Some(&total(70.0)))
            .problem
            .as_deref(),
        Some("score 70 is outside [40, 60] (submissions.yaml:1:1)")
    );
    assert!(expectation
        .check(&cases, Some(&total(50.0)))
        .problem
        .unwrap()
        .contains("no judge message contains \"too slow\""));
    cases[0].message = Some("far too slow here");
    assert!(expectation.check(&cases, Some(&total(40.0))).ok());
}

#[test]
fn time_limit_roles() {
    assert_eq!(
        rules("accepted").time_limit_role(),
        TimeLimitRole {
            lower: true,
            upper: false
        }
    );
    assert_eq!(
        rules("wrong_answer").time_limit_role(),
        TimeLimitRole {
            lower: true,
            upper: false
        }
    );
    assert_eq!(
        rules("time_limit_exceeded").time_limit_role(),
        TimeLimitRole {
            lower: false,
            upper: true
        }
    );
    assert_eq!(
        rules("brute_force").time_limit_role(),
        TimeLimitRole::default()
    );
    assert_eq!(
        rules("rejected").time_limit_role(),
        TimeLimitRole::default()
    );
    let opted_out = Expectation::Rules(vec![Rule {
        use_for_time_limit: TimeLimitUse::Never,
        ..default_rule("accepted").unwrap()
    }]);
    assert_eq!(opted_out.time_limit_role(), TimeLimitRole::default());
    let opted_in = Expectation::Rules(vec![Rule {
        use_for_time_limit: TimeLimitUse::Upper,
        ..default_rule("brute_force").unwrap()
    }]);
    assert!(opted_in.time_limit_role().upper);
    assert!(Expectation::Final(AC, None).time_limit_role().lower);
    assert!(Expectation::Final(TLE, None).time_limit_role().upper);
}

#[test]
fn expectations_describe_themselves() {
    assert_eq!(Expectation::Final(WA, None).describe(), "WA");
    assert_eq!(
        rules("wrong_answer").describe(),
        "permitted AC, WA; required WA"
    );
    let scoped = Expectation::Rules(vec![Rule {
        cases: Some(PathGlob::new("sample").unwrap()),
        permitted: set(&[AC]),
        ..Rule::new("x")
    }]);
    assert_eq!(scoped.describe(), "on sample: permitted AC");
}

#[test]
fn globs_match_folders_holding_a_path_and_allow_spaced_alternatives() {
    let glob = PathGlob::new("secret/*{ 4 }{ 2 }").unwrap();
    assert!(glob.matches("secret/42"));
    assert!(glob.matches("secret/a42"));
    assert!(!glob.matches("secret/4"));
    assert!(
        !glob.matches("secret/group/42"),
        "`*` does not cross a folder"
    );
    let group = PathGlob::new("secret/{group1, group2}").unwrap();
    assert!(
        group.matches("secret/group2/7"),
        "a case below a matching group"
    );
    assert!(!group.matches("secret/group3/7"));
}

#[test]
fn only_expectations_over_every_case_may_stop_at_the_first_failure() {
    assert!(Expectation::Final(WA, None).decided_by_first_failure());
    assert!(rules("wrong_answer").decided_by_first_failure());
    let some_cases = Rule {
        cases: Some(PathGlob::new("secret/group1/*").unwrap()),
        permitted: set(&[AC]),
        ..Rule::new("submissions.yaml:1:1")
    };
    let scored = Rule {
        score: Some((0.0, 50.0)),
        ..Rule::new("submissions.yaml:2:1")
    };
    for rule in [some_cases, scored] {
        let expectation = Expectation::Rules(vec![default_rule("accepted").unwrap(), rule]);
        assert!(!expectation.decided_by_first_failure());
    }
}

/// A score of `total` out of 100, in no groups.
fn total(total: f64) -> Scored {
    Scored {
        total,
        range: (0.0, 100.0),
        ..Scored::default()
    }
}

#[test]
fn the_final_verdicts_are_the_same_whatever_the_version_says() {
    for (folder, verdict) in [
        ("accepted", AC),
        ("wrong_answer", WA),
        ("run_time_error", RTE),
    ] {
        let legacy = Expectation::Final(legacy_verdict(folder).unwrap(), None);
        assert_eq!(
            legacy.final_verdicts(),
            Verdicts::from([verdict]),
            "{folder}"
        );
        assert_eq!(
            rules(folder).final_verdicts(),
            Verdicts::from([verdict]),
            "{folder}"
        );
    }
    let mut either = Rule::new("submissions.yaml:1:1");
    either.permitted = set(&[AC, WA, TLE]);
    either.required = set(&[WA, TLE]);
    let mut on_some = Rule::new("submissions.yaml:4:1");
    on_some.cases = Some(PathGlob::new("secret/huge").unwrap());
    on_some.required = set(&[TLE]);
    let expectation = Expectation::Rules(vec![either, on_some]);
    assert_eq!(expectation.final_verdicts(), Verdicts::from([WA, TLE]));
}

#[test]
fn folder_demands_measure_towards_the_full_score_whichever_way_it_lies() {
    use ScoreDemand::{Full, Partial};
    let cases = outcomes(&[("secret/1", Some(AC))]);
    let problem = |demand, total, minimize| {
        let scored = Scored {
            total,
            range: (10.0, 100.0),
            minimize,
            ..Scored::default()
        };
        Expectation::Final(AC, Some(demand))
            .check(&cases, Some(&scored))
            .problem
    };
    // A higher score is better: the full score is 100; 10 is the worst.
    assert_eq!(problem(Full, 100.0, false), None);
    assert_eq!(problem(Partial, 50.0, false), None);
    assert!(problem(Partial, 10.0, false).unwrap().contains("above 10"));
    assert!(problem(Partial, 100.0, false)
        .unwrap()
        .contains("short of the full 100"));
    // `objective: min`: the full score is 10; 100 is the worst.
    assert_eq!(problem(Full, 10.0, true), None);
    assert_eq!(
        problem(Full, 100.0, true).as_deref(),
        Some("expected the full score 10, got 100 (its folder's demand)")
    );
    assert_eq!(problem(Partial, 50.0, true), None);
    assert!(problem(Partial, 100.0, true).unwrap().contains("below 100"));
    assert!(problem(Partial, 10.0, true)
        .unwrap()
        .contains("short of the full 10"));
}

#[test]
fn without_scores_only_verdicts_are_demanded() {
    let cases = outcomes(&[("secret/1", Some(AC))]);
    let folder = Expectation::Final(AC, Some(ScoreDemand::Partial)).without_scores();
    assert!(folder.check(&cases, None).ok());
    let scored = Rule {
        permitted: set(&[AC]),
        score: Some((40.0, 60.0)),
        ..Rule::new("submissions.yaml:1:1")
    };
    let rules = Expectation::Rules(vec![scored]);
    assert!(!rules.check(&cases, None).ok());
    assert!(rules.without_scores().check(&cases, None).ok());
    let wrong = outcomes(&[("secret/1", Some(WA))]);
    assert!(!rules.without_scores().check(&wrong, None).ok());
}
