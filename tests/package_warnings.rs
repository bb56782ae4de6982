//! A package's mistakes that judge all the same, through the real binary: each a located
//! warning that `verify` and `check` both show (an unknown key of problem.yaml, no statement, a
//! `submissions/` folder the format does not know, with the folder it is nearest to, a
//! validator including a `validation.h` the package does not ship, naming the peers that fail
//! on it), an error under `verify -e`; and `-t` for `--time-limit`. One scaffolded package per
//! test, reused across its assertions, to keep the suite cheap.

use crate::common;

use std::path::PathBuf;

use common::*;

/// A Python package scaffolded by `grundy new pk --package`, and its folder.
fn scaffolded() -> (Project, PathBuf) {
    let project = Project::new();
    let made = project.grundy(&["new", "pk", "--package"]);
    assert_eq!(code(&made), 0, "{}", dump(&made));
    let package = project.path().join("pk");
    (project, package)
}

#[test]
fn check_shows_the_warnings_verify_shows() {
    let (project, package) = scaffolded();
    let yaml = project.read("pk/problem.yaml");
    project.file("pk/problem.yaml", format!("{yaml}memmory: 512\n"));
    std::fs::rename(
        package.join("submissions/wrong_answer"),
        package.join("submissions/wrong_anwser"),
    )
    .unwrap();
    std::fs::remove_dir_all(package.join("statement")).unwrap();
    project.file(
        "pk/input_validators/bapc/validate.cpp",
        "#include \"validation.h\"\nint main() { return 42; }\n",
    );
    let line = yaml.lines().count() + 1;
    let expected = [
        format!("problem.yaml:{line}:1: unknown key `memmory`"),
        "pk/statement: no problem statement".to_string(),
        "`wrong_anwser` is not a folder the format knows and no submissions.yaml glob matches \
         it (did you mean `wrong_answer`?)"
            .to_string(),
        "pk/input_validators/bapc: includes validation.h, which the package does not ship: \
         grundy supplies its own, but BAPCtools (`bt generate`, `bt validate`) and problemtools \
         (`verifyproblem`) supply none"
            .to_string(),
    ];
    // check judges the cases (and builds no input validator) but says what verify would.
    let checked = grundy_in(
        &project,
        &package,
        &[
            "check",
            "-q",
            "-t",
            "2500",
            "--exec",
            "submissions/accepted/sol.py",
        ],
    );
    assert_eq!(code(&checked), 0, "{}", dump(&checked));
    let missing: Vec<&String> = (expected.iter())
        .filter(|warning| !stderr(&checked).contains(warning.as_str()))
        .collect();
    assert!(missing.is_empty(), "{missing:?}\n{}", dump(&checked));
    assert!(
        stderr(&checked).contains(&format!("warning: {}", project.path().display())),
        "{}",
        dump(&checked)
    );
}

#[test]
fn verify_fails_a_package_without_a_statement_under_e_and_takes_t_for_the_time_limit() {
    let (project, package) = scaffolded();
    let only_accepted = [
        "--no-generate",
        "--submissions-only",
        "--submission",
        "accepted/*",
    ];
    let whole = grundy_in(
        &project,
        &package,
        &[&["verify"][..], &only_accepted].concat(),
    );
    assert_eq!(code(&whole), 0, "{}", dump(&whole));
    assert!(
        !stdout(&whole).contains("warning"),
        "the scaffold has nothing to warn of\n{}",
        dump(&whole)
    );

    std::fs::remove_dir_all(package.join("statement")).unwrap();
    let warned = grundy_in(
        &project,
        &package,
        &[&["verify", "-t", "2500"][..], &only_accepted].concat(),
    );
    assert_eq!(code(&warned), 0, "{}", dump(&warned));
    assert!(
        stdout(&warned).contains("pk/statement: no problem statement")
            && stdout(&warned).contains("time limit: 2.5s (--time-limit)"),
        "{}",
        dump(&warned)
    );
    let strict = grundy_in(
        &project,
        &package,
        &[&["verify", "-e", "-q"][..], &only_accepted].concat(),
    );
    assert_eq!(code(&strict), 1, "{}", dump(&strict));
    assert!(
        stdout(&strict).contains("errors under --warnings-as-errors"),
        "{}",
        dump(&strict)
    );

    // A legacy package's statement is in problem_statement/.
    project.file("pk/problem_statement/problem.en.tex", "\\problemname{pk}\n");
    let legacy_folder = grundy_in(
        &project,
        &package,
        &[&["verify", "-e"][..], &only_accepted].concat(),
    );
    assert_eq!(code(&legacy_folder), 0, "{}", dump(&legacy_folder));
}
