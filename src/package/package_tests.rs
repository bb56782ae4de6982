//! Whole packages, written by the tests in the shape of public examples (problemtools' `hello`,
//! `different` and `guess`, a BAPCtools-style 2025-09 problem), read with [`load`].

use super::expectations::check::Outcome;
use super::expectations::Verdict;
use super::*;
use crate::package::test_support::write;

/// Every package at `path` (a package or a contest folder), read; the first unreadable package
/// is the error.
pub(super) fn load(path: &Path) -> Result<Vec<Package>, Diagnostic> {
    find::find(path)?
        .packages
        .iter()
        .map(|p| load_package(p))
        .collect()
}

fn summary(package: &Package) -> String {
    package
        .to_string()
        .replace(&format!("{}/", package.root.display()), "")
}

/// A legacy pass-fail problem in the shape of problemtools' `hello`.
pub(super) fn hello(root: &Path) {
    write(
        root,
        &[
            (
                "problem.yaml",
                "source: Kattis\nlicense: public domain\nname: Hello World!\n",
            ),
            ("problem_statement/problem.en.tex", ""),
            ("data/sample/hello.in", ""),
            ("data/sample/hello.ans", "Hello World!\n"),
            ("data/secret/hello.in", ""),
            ("data/secret/hello.ans", "Hello World!\n"),
            ("input_validators/validate.py", "#!/usr/bin/env python3\n"),
            ("submissions/accepted/hello.c", ""),
            ("submissions/accepted/hello.cpp", ""),
            ("submissions/accepted/Hello.java", "public static void main"),
            ("submissions/accepted/hello.py", "#!/usr/bin/env python3\n"),
            ("submissions/wrong_answer/bye.py", ""),
        ],
    );
}

#[test]
fn hello_is_a_legacy_pass_fail_package() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("hello");
    hello(&root);
    let packages = load(&root).unwrap();
    assert_eq!(packages.len(), 1);
    let p = &packages[0];
    assert_eq!(
        summary(p),
        "hello \"Hello World!\" (legacy, pass-fail)\n\
         limits: time computed (×5 of the slowest AC, by 1s), TLE margin ×2, memory default, output default\n\
         groups: sample, secret\n\
         cases: sample/hello, secret/hello\n\
         input validators: validate.py [python3 validate.py]\n\
         output validator: default\n\
         submissions:\n  \
         accepted/Hello.java [java]: AC\n  \
         accepted/hello.c [c]: AC\n  \
         accepted/hello.cpp [cpp]: AC\n  \
         accepted/hello.py [python3 hello.py]: AC\n  \
         wrong_answer/bye.py [python3 bye.py]: WA\n"
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // The legacy format says nothing of a validator's working folder: an empty one.
    assert!(!p.input_validators[0].works_in_own_folder);
    let case = p.judged_cases().next().unwrap();
    assert_eq!(
        p.default_validator_options(case),
        Some(Ok(default_validator::Options::default()))
    );
}

/// A legacy problem in the shape of problemtools' `different`: a custom validator folder, a
/// checktestdata validator beside a Python one, descriptions, an unknown submissions folder.
#[test]
fn different_has_a_custom_validator_and_a_checktestdata_script() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("different");
    write(
        &root,
        &[
            ("problem.yaml", "source: Kattis\nlicense: cc by-sa\nrights_owner: Kattis\nvalidation: custom\nlimits:\n  memory: 1024\n"),
            ("data/sample/1.in", ""),
            ("data/sample/1.ans", ""),
            ("data/secret/01.in", ""),
            ("data/secret/01.ans", ""),
            ("data/secret/01.desc", ""),
            ("data/secret/02_extreme_cases.in", ""),
            ("data/secret/02_extreme_cases.ans", ""),
            ("data/secret/02_extreme_cases.desc", ""),
            ("input_format_validators/different.ctd", ""),
            ("input_format_validators/validate.py", ""),
            ("output_validators/different_validator/validate.cc", ""),
            ("output_validators/different_validator/validate.h", ""),
            ("submissions/accepted/different.cc", ""),
            ("submissions/accepted/prolog/different.pl", ""),
            ("submissions/slow_accepted/different_slow.py", ""),
            ("submissions/time_limit_exceeded/different_linear_search.cc", ""),
        ],
    );
    let p = load_package(&root).unwrap();
    let text = summary(&p);
    assert!(
        text.contains(
            "input validators: different.ctd [checktestdata], validate.py [python3 validate.py]"
        ),
        "{text}"
    );
    assert!(
        text.contains("output validator: different_validator [cpp]"),
        "{text}"
    );
    assert!(
        text.contains("accepted/prolog [invalid: no source file of a known language]: AC"),
        "{text}"
    );
    assert!(
        text.contains(
            "slow_accepted/different_slow.py [python3 different_slow.py]: nothing expected"
        ),
        "{text}"
    );
    assert!(
        text.contains("time_limit_exceeded/different_linear_search.cc [cpp]: TLE"),
        "{text}"
    );
    assert_eq!(p.metadata.limits.memory_mib, Some(1024));
    assert_eq!(p.data.cases[1].extras.len(), 1, "the .desc");
    assert_eq!(
        p.default_validator_options(&p.data.cases[0]),
        None,
        "a custom validator judges"
    );
    assert_eq!(
        p.warnings.len(),
        2,
        "only the missing statement and the unknown folder: {:?}",
        p.warnings
    );
}

/// An interactive legacy problem in the shape of problemtools' `guess`: samples given only as
/// interaction logs.
#[test]
fn guess_is_interactive_and_needs_its_validator() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("guess");
    let mut files = vec![
        (
            "problem.yaml",
            "source: Kattis\nlicense: cc by-sa\nvalidation: custom interactive\n",
        ),
        ("data/sample/1.interaction", "> 50\n< lower\n"),
        ("data/secret/01.in", "42\n"),
        ("data/secret/01.ans", ""),
        ("input_validators/validate.py", ""),
        ("output_validators/guess_validator/validate.cc", ""),
        ("output_validators/guess_validator/validate.h", ""),
        ("submissions/accepted/guess.py", ""),
        ("submissions/run_time_error/crash.py", ""),
    ];
    write(&root, &files);
    let p = load_package(&root).unwrap();
    assert!(p.metadata.problem_type.interactive);
    let text = summary(&p);
    assert!(
        text.starts_with("guess (legacy, pass-fail interactive)\n"),
        "{text}"
    );
    assert!(
        text.contains("cases: secret/01\n"),
        "interaction-only samples are not cases: {text}"
    );
    assert!(
        text.contains("run_time_error/crash.py [python3 crash.py]: RTE"),
        "{text}"
    );
    files.retain(|(path, _)| !path.starts_with("output_validators"));
    let bare = dir.path().join("bare");
    write(&bare, &files);
    let error = load_package(&bare).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "{}: a pass-fail interactive problem needs a custom output validator here",
            bare.join("output_validators").display()
        )
    );
}

/// A 2025-09 problem in the shape of BAPCtools' examples: groups with settings, validation
/// folders, answer validators, submissions.yaml.
pub(super) fn modern(root: &Path) {
    write(
        root,
        &[
            (
                "problem.yaml",
                "problem_format_version: 2025-09\nname: A plus B\nuuid: 8ee7605a-d1ce-47b3-be37-15de5acd757e\n\
                 type: scoring\nlimits:\n  time_limit: 1.5\n  memory: 512\ncredits: Ada\n",
            ),
            ("statement/problem.en.md", ""),
            ("data/sample/1.in", "1 2\n"),
            ("data/sample/1.ans", "3\n"),
            ("data/secret/test_group.yaml", "output_validator_args: [float_tolerance, '1e-6']\n"),
            ("data/secret/group1/test_group.yaml", "max_score: 40\n"),
            ("data/secret/group1/01-small.in", ""),
            ("data/secret/group1/01-small.ans", ""),
            ("data/secret/group2/test_group.yaml", "max_score: 60\noutput_validator_args: [case_sensitive]\n"),
            ("data/secret/group2/01-max.in", ""),
            ("data/secret/group2/01-max.ans", ""),
            ("data/invalid_input/negative.in", "-1 2\n"),
            ("data/invalid_answer/wrong.in", "1 2\n"),
            ("data/invalid_answer/wrong.ans", "x\n"),
            ("data/invalid_output/off.in", "1 2\n"),
            ("data/invalid_output/off.ans", "3\n"),
            ("data/invalid_output/off.out", "4\n"),
            ("data/valid_output/spaces.in", "1 2\n"),
            ("data/valid_output/spaces.ans", "3\n"),
            ("data/valid_output/spaces.out", "  3\n"),
            ("generators/gen.py", ""),
            ("generators/example.in", ""),
            ("input_validators/validate/validate.cpp", ""),
            ("input_validators/validate/validation.h", ""),
            ("answer_validators/check.py", ""),
            ("submissions/accepted/sol.rs", ""),
            ("submissions/accepted/sol.kt", "fun main() {}"),
            ("submissions/time_limit_exceeded/brute.py", ""),
            ("submissions/submissions.yaml", "time_limit_exceeded/brute.py:\n  secret/group1:\n    permitted: [AC]\n"),
        ],
    );
}

#[test]
fn a_2025_09_package_with_groups_and_validation_folders() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("a_plus_b");
    modern(&root);
    let p = load_package(&root).unwrap();
    assert_eq!(
        summary(&p),
        "a_plus_b \"A plus B\" (2025-09, scoring)\n\
         limits: time 1.5s, TLE margin ×1.5, memory 512 MiB, output default\n\
         groups: sample, secret, secret/group1, secret/group2, invalid_input, invalid_answer, invalid_output, valid_output\n\
         cases: sample/1, secret/group1/01-small, secret/group2/01-max, invalid_input/negative, invalid_answer/wrong, \
         invalid_output/off, valid_output/spaces\n\
         input validators: validate [cpp]\n\
         answer validators: check.py [python3 check.py]\n\
         output validator: default\n\
         submissions:\n  \
         accepted/sol.kt [kotlin]: permitted AC; full score\n  \
         accepted/sol.rs [rust sol.rs]: permitted AC; full score\n  \
         time_limit_exceeded/brute.py [python3 brute.py]: permitted AC, TLE; required TLE | on secret/group1: permitted AC\n"
    );
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
    // The new formats run an input validator among its own files.
    assert!(p.input_validators.iter().all(|v| v.works_in_own_folder));
    assert!(!p.answer_validators.iter().any(|v| v.works_in_own_folder));
    let options: Vec<_> = p
        .judged_cases()
        .map(|c| p.default_validator_options(c).unwrap().unwrap())
        .collect();
    assert_eq!(options[0], default_validator::Options::default());
    assert_eq!(options[1].absolute_tolerance, Some(1e-6));
    assert!(
        options[2].case_sensitive && options[2].absolute_tolerance.is_none(),
        "group2 replaces the inherited args"
    );
    assert_eq!(
        p.data.groups[2].settings.grading.max_score,
        Some(super::settings::MaxScore::Points(40.0))
    );
    assert_eq!(
        p.metadata
            .limits
            .time_limit(Some(std::time::Duration::from_millis(700)), None)
            .unwrap()
            .as_millis(),
        1500
    );

    let brute = p
        .submissions
        .iter()
        .find(|s| s.folder == "time_limit_exceeded")
        .unwrap();
    let expectation = brute.expectation.as_ref().unwrap();
    let outcome = |case, verdict| Outcome {
        case,
        verdict: Some(verdict),
        message: None,
    };
    let good = [
        outcome("sample/1", Verdict::AC),
        outcome("secret/group1/01-small", Verdict::AC),
        outcome("secret/group2/01-max", Verdict::TLE),
    ];
    assert!(expectation.check(&good, None).ok());
    let early = [
        outcome("sample/1", Verdict::AC),
        outcome("secret/group1/01-small", Verdict::TLE),
        outcome("secret/group2/01-max", Verdict::TLE),
    ];
    let check = expectation.check(&early, None);
    assert_eq!(check.verdict, Verdict::TLE);
    assert!(check
        .problem
        .unwrap()
        .starts_with("secret/group1/01-small got TLE, but only AC is permitted on secret/group1"));
}
