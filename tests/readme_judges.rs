//! The C++ checker and interactor the book shows (`docs/judges/`): its chapters include their
//! sources (mdBook's `{{#include}}`), and they compile and judge the shipped fixtures as those
//! chapters say.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::*;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `docs/judges/<name>.cpp` into `project` with g++ (the tests that do are ignored
/// where it is not on the PATH).
fn compile(project: &Project, name: &str) -> PathBuf {
    let source = repository().join("docs/judges").join(format!("{name}.cpp"));
    let binary = project.path().join(name);
    let output = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .expect("g++ runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    binary
}

/// The book's `chapter` shows `docs/judges/<source>.cpp` by including it, by a path from the
/// chapter's folder that leads to that very file.
fn assert_in_book(chapter: &str, source: &str) {
    let page = repository().join("docs/src").join(chapter);
    let text = std::fs::read_to_string(&page).unwrap();
    let include = format!("{{{{#include ../../judges/{source}.cpp}}}}");
    assert!(
        text.contains(&include),
        "{chapter} must show docs/judges/{source}.cpp with `{include}`"
    );
    let included = page
        .parent()
        .unwrap()
        .join(format!("../../judges/{source}.cpp"));
    assert_eq!(
        included.canonicalize().unwrap(),
        repository()
            .join(format!("docs/judges/{source}.cpp"))
            .canonicalize()
            .unwrap()
    );
}

/// The book's `docs/judges/<source>.cpp` (shown in `chapter`), compiled and given as `flag` (`--checker` or
/// `--interactor`) in the Kattis protocol, judges every shipped case of `problem` with the
/// built-in solver: all pass. Returns the project and the arguments of that run.
fn every_shipped_case_passes(
    chapter: &str,
    problem: &str,
    source: &str,
    flag: &str,
) -> (Project, Vec<String>) {
    assert_in_book(chapter, source);
    let project = Project::new();
    let judge = compile(&project, source);
    let fixtures = repository().join("fixtures");
    let args: Vec<String> = [
        "check",
        problem,
        "--fixtures",
        fixtures.to_str().unwrap(),
        flag,
        &format!("kattis:{}", judge.display()),
    ]
    .map(String::from)
    .to_vec();
    let output = project.grundy(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        closing_line(&output).ends_with(" passed, 0 failed"),
        "{}",
        dump(&output)
    );
    (project, args)
}

/// A shell script in `project`, executable, as an `--exec` argument.
fn script(project: &Project, name: &str, text: &str) -> String {
    let path = project.file(name, text);
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&path, permissions).unwrap();
    path.display().to_string()
}

#[test]
#[cfg_attr(not(gxx), ignore = "needs g++ on the PATH (Debian's g++)")]
fn the_snim_move_checker_accepts_every_shipped_case_and_catches_a_lazy_program() {
    let (project, mut args) = every_shipped_case_passes(
        "reference/checkers.md",
        "s-nim-move",
        "snim_move_checker",
        "--checker",
    );
    let lazy = script(
        &project,
        "lazy.sh",
        "#!/bin/sh\nwhile read line; do :; done\necho lose\necho lose\necho lose\n",
    );
    args[1] = "s-nim-move/sample-1".into();
    args.extend(["--exec".into(), lazy]);
    let output = project.grundy(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let block = case_block(&output, "s-nim-move/sample-1");
    assert!(
        block.contains("line 2: `lose`, but the position is a win"),
        "{block}"
    );
}

#[test]
#[cfg_attr(not(gxx), ignore = "needs g++ on the PATH (Debian's g++)")]
fn the_snim_duel_interactor_loses_to_the_built_in_player_and_beats_a_careless_one() {
    let (project, mut args) = every_shipped_case_passes(
        "reference/interactors.md",
        "s-nim-duel",
        "snim_duel_interactor",
        "--interactor",
    );
    // A player that always takes the first side and resigns at once loses wherever the judge
    // can win.
    let careless = script(
        &project,
        "careless.sh",
        "#!/bin/sh\nread s\nread h\necho first\necho 0 0\n",
    );
    args.extend(["--exec".into(), careless, "-v".into()]);
    let output = project.grundy(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let block = case_block(&output, "s-nim-duel/sample-1");
    assert!(
        block.contains("resigned") && block.contains("exchange"),
        "{block}"
    );
}
