//! Tests of reading submissions and submissions.yaml (submissions.rs).

use super::*;
use crate::package::expectations::check::Outcome;
use crate::package::expectations::Verdict::*;
use crate::package::programs::Kind;
use crate::package::test_support::{root, tree};

fn load(
    dir: &tempfile::TempDir,
    version: FormatVersion,
) -> Result<(Vec<Submission>, Vec<String>), String> {
    let prefix = format!("{}/", dir.path().display());
    let mut warnings = vec![];
    let subs = read(&root(dir.path()), version, false, &mut warnings)
        .map_err(|e| e.to_string().replace(&prefix, ""))?;
    Ok((
        subs,
        warnings
            .iter()
            .map(|w| w.to_string().replace(&prefix, ""))
            .collect(),
    ))
}

fn find<'a>(subs: &'a [Submission], id: &str) -> &'a Submission {
    subs.iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no {id}"))
}

fn check(sub: &Submission, verdicts: &[(&str, Verdict)]) -> Option<String> {
    let outcomes: Vec<Outcome> = verdicts
        .iter()
        .map(|&(case, v)| Outcome {
            case,
            verdict: Some(v),
            message: None,
        })
        .collect();
    sub.expectation
        .as_ref()
        .unwrap()
        .check(&outcomes, None)
        .problem
}

#[test]
fn legacy_folders_give_first_error_expectations() {
    let dir = tree(&[
        ("submissions/accepted/a.cpp", ""),
        ("submissions/wrong_answer/w.py", ""),
        ("submissions/time_limit_exceeded/slow/main.py", ""),
        ("submissions/partially_accepted/p.py", ""),
        ("submissions/brute_force/b.py", ""),
        ("submissions/mystery/m.py", ""),
        ("submissions/README.md", ""),
        ("submissions/accepted/.a.cpp.swp", ""),
        ("submissions/accepted/old.cpp.disabled", ""),
    ]);
    let (subs, warnings) = load(&dir, FormatVersion::Legacy).unwrap();
    let ids: Vec<_> = subs.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "accepted/a.cpp",
            "brute_force/b.py",
            "mystery/m.py",
            "partially_accepted/p.py",
            "time_limit_exceeded/slow",
            "wrong_answer/w.py"
        ]
    );
    assert_eq!(
        find(&subs, "wrong_answer/w.py")
            .expectation
            .as_ref()
            .unwrap()
            .describe(),
        "WA"
    );
    assert_eq!(
        find(&subs, "partially_accepted/p.py")
            .expectation
            .as_ref()
            .unwrap()
            .describe(),
        "AC"
    );
    assert_eq!(
        find(&subs, "brute_force/b.py")
            .expectation
            .as_ref()
            .unwrap()
            .describe(),
        "permitted AC, TLE, RTE; required TLE, RTE"
    );
    assert!(find(&subs, "mystery/m.py").expectation.is_none());
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0]
            .starts_with("submissions/mystery/m.py: nothing says what this submission must get"),
        "{warnings:?}"
    );
    assert_eq!(
        find(&subs, "time_limit_exceeded/slow").folder,
        "time_limit_exceeded"
    );
    assert!(matches!(
        find(&subs, "time_limit_exceeded/slow").program.kind,
        Kind::Source { .. }
    ));
}

#[test]
fn submissions_yaml_adds_rules_per_glob_and_case_glob() {
    let dir = tree(&[
        ("submissions/accepted/a.py", ""),
        ("submissions/time_limit_exceeded/solves_easy.py", ""),
        ("submissions/other/sol.cpp", ""),
        (
            "submissions/submissions.yaml",
            "time_limit_exceeded/solves_easy.py:\n  sample:\n    permitted: [AC]\n  secret/*-easy:\n    permitted: [AC]\n  \
             secret/*-hard:\n    permitted: [AC, TLE]\n    required: [TLE]\nother:\n  required: [WA]\n  language: c\n",
        ),
    ]);
    let (subs, warnings) = load(&dir, FormatVersion::V2025_09).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let tle = find(&subs, "time_limit_exceeded/solves_easy.py");
    assert_eq!(
        check(
            tle,
            &[
                ("sample/1", AC),
                ("secret/01-easy", AC),
                ("secret/02-hard", TLE)
            ]
        ),
        None
    );
    assert_eq!(
        check(
            tle,
            &[
                ("sample/1", AC),
                ("secret/01-easy", TLE),
                ("secret/02-hard", TLE)
            ]
        )
        .unwrap(),
        "secret/01-easy got TLE, but only AC is permitted on secret/*-easy (submissions.yaml:4:3)"
    );
    let other = find(&subs, "other/sol.cpp");
    assert_eq!(
        other.expectation.as_ref().unwrap().describe(),
        "required WA"
    );
    assert!(
        matches!(other.program.kind, Kind::Source { language, .. } if language.code == "c"),
        "language from the yaml"
    );
    assert_eq!(
        find(&subs, "accepted/a.py")
            .expectation
            .as_ref()
            .unwrap()
            .describe(),
        "permitted AC"
    );
}

#[test]
fn naming_a_default_folder_changes_its_default() {
    let dir = tree(&[
        ("submissions/time_limit_exceeded/t.py", ""),
        ("submissions/wrong_answer/w.py", ""),
        ("submissions/submissions.yaml", "time_limit_exceeded:\n  permitted: [AC, WA, TLE]\nwrong_answer/*:\n  required: [WA]\n  message: off by one\n"),
    ]);
    let (subs, _) = load(&dir, FormatVersion::V2023_07).unwrap();
    let tle = find(&subs, "time_limit_exceeded/t.py");
    assert_eq!(
        tle.expectation.as_ref().unwrap().describe(),
        "permitted AC, WA, TLE; required TLE"
    );
    assert_eq!(check(tle, &[("secret/1", WA), ("secret/2", TLE)]), None);
    let wa = find(&subs, "wrong_answer/w.py");
    assert_eq!(
        wa.expectation.as_ref().unwrap().describe(),
        "permitted AC, WA; required WA | required WA; message \"off by one\"",
        "a glob below the folder adds a rule"
    );
}

#[test]
fn entrypoints_scores_and_time_limit_use() {
    let dir = tree(&[
        ("submissions/accepted/j/A.java", ""),
        ("submissions/accepted/j/B.java", ""),
        ("submissions/accepted/fast.py", ""),
        (
            "submissions/submissions.yaml",
            "accepted/j:\n  entrypoint: B\n  score: [10, 20]\naccepted/fast.py:\n  use_for_time_limit: false\n",
        ),
    ]);
    let (subs, _) = load(&dir, FormatVersion::V2025_09).unwrap();
    let java = find(&subs, "accepted/j");
    assert!(matches!(&java.program.kind, Kind::Source { entry: Some(e), .. } if e == "B"));
    assert_eq!(
        java.expectation.as_ref().unwrap().describe(),
        "permitted AC | score in [10, 20]"
    );
    assert!(java.expectation.as_ref().unwrap().time_limit_role().lower);
    assert!(
        !find(&subs, "accepted/fast.py")
            .expectation
            .as_ref()
            .unwrap()
            .time_limit_role()
            .lower
    );
}

#[test]
fn bad_submissions_yaml_is_a_located_error_and_typos_warn() {
    let with = |text: &str| {
        let dir = tree(&[
            ("submissions/accepted/a.py", ""),
            ("submissions/submissions.yaml", text),
        ]);
        load(&dir, FormatVersion::V2025_09)
    };
    let error = with("accepted:\n  permitted: [AC, OK]\n").unwrap_err();
    assert_eq!(
        error,
        "submissions/submissions.yaml:2:14: permitted: `OK` is not a verdict (AC, WA, TLE or RTE)"
    );
    let error = with("accepted:\n  score: [3, 1]\n").unwrap_err();
    assert!(
        error.contains("score must be a number or a list of two numbers"),
        "{error}"
    );
    let error = with("accepted:\n  use_for_time_limit: maybe\n").unwrap_err();
    assert!(
        error.contains("use_for_time_limit must be true, false, lower or upper"),
        "{error}"
    );
    let (_, warnings) = with("accepted:\n  permited: [AC]\n").unwrap();
    assert_eq!(warnings, ["submissions/submissions.yaml:2:3: unknown key `accepted.permited` (did you mean `permitted`?)"]);
    let (subs, warnings) = tree_legacy_with_yaml();
    assert_eq!(subs[0].expectation.as_ref().unwrap().describe(), "AC");
    assert!(warnings[0].contains("legacy packages take expectations from folder names"));
}

#[test]
fn an_entrypoint_leading_out_of_the_submission_is_refused_where_it_is_written() {
    for entry in ["../../..", "/root/secret", "sub/../../x.py"] {
        let dir = tree(&[
            ("submissions/accepted/a.py", ""),
            (
                "submissions/submissions.yaml",
                &format!("accepted/a.py:\n  language: python3\n  entrypoint: {entry}\n"),
            ),
        ]);
        let error = load(&dir, FormatVersion::V2025_09).unwrap_err();
        assert_eq!(
            error,
            format!(
                "submissions/submissions.yaml:3:3: entrypoint `{entry}` leads outside the \
                 submission; name one of its files (or its class), relative to it"
            )
        );
    }
    let dir = tree(&[
        ("submissions/accepted/a/main.py", ""),
        (
            "submissions/submissions.yaml",
            "accepted/a:\n  entrypoint: ./main.py\n",
        ),
    ]);
    let (subs, _) = load(&dir, FormatVersion::V2025_09).unwrap();
    assert!(
        matches!(&subs[0].program.kind, Kind::Source { entry: Some(e), .. } if e == "./main.py")
    );
}

fn tree_legacy_with_yaml() -> (Vec<Submission>, Vec<String>) {
    let dir = tree(&[
        ("submissions/accepted/a.py", ""),
        (
            "submissions/submissions.yaml",
            "accepted:\n  permitted: [WA]\n",
        ),
    ]);
    load(&dir, FormatVersion::Legacy).unwrap()
}

#[test]
fn an_expected_results_tag_counts_outside_the_named_folders_and_yaml() {
    let dir = tree(&[
        (
            "submissions/mixed/slow.c",
            "/* @EXPECTED_RESULTS@: CORRECT, TIMELIMIT */\n",
        ),
        (
            "submissions/rejected/wrong.py",
            "# @EXPECTED_RESULTS@: WRONG-ANSWER, RUN-ERROR\n",
        ),
        (
            "submissions/rejected/nocompile.c",
            "// @EXPECTED_RESULTS@: COMPILER-ERROR\n",
        ),
        (
            "submissions/accepted/a.c",
            "// @EXPECTED_RESULTS@: WRONG-ANSWER\n",
        ),
        (
            "submissions/other/b.py",
            "# @EXPECTED_RESULTS@: WRONG-ANSWER\n",
        ),
        (
            "submissions/submissions.yaml",
            "other:\n  permitted: [AC]\n",
        ),
    ]);
    // The whole line after the tag is read, as DOMjudge and BAPCtools read it: `*/` is no verdict,
    // and DOMjudge refuses the submission: it is left out, the others read.
    let (subs, warnings) = load(&dir, FormatVersion::V2025_09).unwrap();
    assert!(!subs.iter().any(|s| s.id == "mixed/slow.c"));
    assert!(subs.iter().any(|s| s.id == "rejected/wrong.py"));
    assert!(
        warnings.iter().any(|w| w.starts_with(
            "submissions/mixed/slow.c:1:33: @EXPECTED_RESULTS@: `TIMELIMIT */` is not a verdict"
        ) && w
            .ends_with("; this submission is left out, as DOMjudge refuses it")),
        "{warnings:#?}"
    );
    std::fs::write(
        dir.path().join("submissions/mixed/slow.c"),
        "// @EXPECTED_RESULTS@: CORRECT, TIMELIMIT\n",
    )
    .unwrap();
    let (subs, warnings) = load(&dir, FormatVersion::V2025_09).unwrap();

    let slow = find(&subs, "mixed/slow.c");
    assert_eq!(slow.compile_error, CompileError::Forbidden);
    assert_eq!(check(slow, &[("1", AC), ("2", AC)]), None);
    assert_eq!(check(slow, &[("1", AC), ("2", TLE)]), None);
    assert!(check(slow, &[("1", WA)])
        .unwrap()
        .contains("only AC, TLE is permitted"));

    let wrong = find(&subs, "rejected/wrong.py");
    assert!(check(wrong, &[("1", AC)])
        .unwrap()
        .contains("no case got WA, RTE: 1 judged (@EXPECTED_RESULTS@ at wrong.py:1:3)"));
    assert!(
        check(wrong, &[("1", TLE), ("2", WA)]).is_some(),
        "every case must be AC or a tag's"
    );
    assert_eq!(check(wrong, &[("1", RTE), ("2", WA)]), None);
    assert_eq!(
        wrong.compile_error,
        CompileError::Forbidden,
        "the tag replaces rejected/"
    );

    let nocompile = find(&subs, "rejected/nocompile.c");
    assert!(nocompile.expectation.is_none());
    assert_eq!(nocompile.compile_error, CompileError::Required);

    // The named folder and submissions.yaml overrule the tag, with a warning.
    assert!(check(find(&subs, "accepted/a.c"), &[("1", WA)]).is_some());
    assert!(check(find(&subs, "other/b.py"), &[("1", WA)]).is_some());
    assert!(
        warnings.iter().any(|w| w
            == "submissions/accepted/a.c: @EXPECTED_RESULTS@ at a.c:1:4 is ignored: the \
                accepted folder decides"),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.starts_with(
            "submissions/other/b.py: @EXPECTED_RESULTS@ at b.py:1:3 is ignored: \
             submissions.yaml decides (`other`, submissions.yaml:1:1)"
        )),
        "{warnings:?}"
    );
}

#[test]
fn a_legacy_package_reads_the_tag_in_its_other_folders() {
    let dir = tree(&[(
        "submissions/mixed/a.py",
        "# @EXPECTED_RESULTS@: CORRECT, WRONG-ANSWER\n",
    )]);
    let (subs, warnings) = load(&dir, FormatVersion::Legacy).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let mixed = find(&subs, "mixed/a.py");
    assert_eq!(check(mixed, &[("1", WA)]), None);
    assert!(check(mixed, &[("1", RTE)]).is_some());
}
