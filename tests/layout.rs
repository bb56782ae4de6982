//! Fixture-layout mistakes and the fixtures root's boundary: NOEXP, orphan and doubled expected
//! files, unknown problem folders, nothing to judge, escaping filters and symbolic links.

use crate::common;

use std::os::unix::fs::symlink;

use common::*;

#[test]
fn a_missing_expected_file_gives_noexp_pointing_to_bless() {
    let project = Project::new();
    project.file("fixtures/powers-of-two/new.in", "1\n");
    project.powers("old", &[2]);

    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "1 passed, 1 failed",
        "{}",
        dump(&output)
    );
    assert_eq!(verdict_of(&output, "powers-of-two/old"), "AC");
    let block = case_block(&output, "powers-of-two/new");
    assert!(block.starts_with("FAIL NOEXP "), "{block}");
    assert!(block.contains("--bless"), "{block}");
    assert!(block.contains("new.out"), "{block}");
    // Reporting the case writes nothing.
    assert!(!project
        .path()
        .join("fixtures/powers-of-two/new.out")
        .exists());
}

#[test]
fn an_expected_file_without_input_exits_2_naming_the_files() {
    let project = Project::new();
    project.powers("fine", &[1]);
    project.file("fixtures/powers-of-two/group/orphan.out", "Kiki\n");

    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let message = stderr(&output);
    assert!(message.contains("orphan.out"), "{message}");
    assert!(message.contains("orphan.in"), "{message}");
    assert!(
        !stdout(&output).contains("passed"),
        "nothing is judged\n{}",
        dump(&output)
    );

    // An orphan `.ans` too.
    let project = Project::new();
    project.powers("fine", &[1]);
    project.file("fixtures/powers-of-two/lonely.ans", "Kiki\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("lonely.ans"), "{}", dump(&output));
}

#[test]
fn both_out_and_ans_exit_2_naming_both() {
    let project = Project::new();
    project.powers("twice", &[1]);
    project.file("fixtures/powers-of-two/twice.ans", "Kiki\n");

    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let message = stderr(&output);
    assert!(
        message.contains("twice.out") && message.contains("twice.ans"),
        "{message}"
    );
}

#[test]
fn a_folder_without_a_built_in_problem_exits_2_naming_it() {
    let project = Project::new();
    project.powers("fine", &[1]);
    project.case("no-such-game/a", "1\n", "1\n");

    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("no-such-game"),
        "{}",
        dump(&output)
    );
    assert!(!stdout(&output).contains("passed"), "{}", dump(&output));

    // Judging only the known problem is fine.
    let output = project.grundy(&["check", "powers-of-two"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
}

#[test]
fn an_empty_fixtures_root_exits_2() {
    let project = Project::new();
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("fixtures"),
        "names the root\n{}",
        dump(&output)
    );
    assert!(!stdout(&output).contains("0 passed"), "{}", dump(&output));

    // A problem folder holding no `.in` file is no better.
    project.file("fixtures/powers-of-two/README.txt", "notes\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
}

#[test]
fn a_missing_fixtures_root_exits_2() {
    // The runner.toml here says this is a project, so the built-in problems' shipped fixtures
    // do not stand in for its missing root.
    let project = Project::new();
    std::fs::remove_dir(project.path().join("fixtures")).unwrap();
    project.file("runner.toml", "jobs = 1\n");
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).contains("fixtures"), "{}", dump(&output));
}

#[test]
fn a_filter_matching_nothing_exits_2_naming_it() {
    let project = Project::new();
    project.powers("sample-1", &[1]);

    for filter in [
        "powers-of-two/nothing-*",
        "lieges-of-legendre",
        "powers-of-two/sample-1/x",
    ] {
        let output = project.grundy(&["check", filter]);
        assert_eq!(code(&output), 2, "{filter}\n{}", dump(&output));
        assert!(
            stderr(&output).contains(filter),
            "{filter}\n{}",
            dump(&output)
        );
    }
    // One good filter does not excuse a bad one: a CI gate must not pass on fewer cases.
    let output = project.grundy(&["check", "powers-of-two", "powers-of-tow"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("powers-of-tow"),
        "{}",
        dump(&output)
    );
}

#[test]
fn filters_with_dot_dot_or_absolute_paths_exit_2_and_read_nothing_outside() {
    let project = Project::new();
    project.powers("sample-1", &[1]);
    // A tree beside the fixtures root that an escaping filter could reach; its case would fail.
    project.case("../outside/powers-of-two/x", "1\n", "Cici\n");
    let outside = project.path().join("outside");

    let absolute = outside.join("powers-of-two").display().to_string();
    for filter in [
        "../outside",
        "powers-of-two/../../outside/powers-of-two",
        "powers-of-two/..",
        "./powers-of-two",
        absolute.as_str(),
        "/etc",
    ] {
        let output = project.grundy(&["check", filter]);
        assert_eq!(code(&output), 2, "{filter}\n{}", dump(&output));
        assert!(
            !stdout(&output).contains("passed"),
            "{filter}\n{}",
            dump(&output)
        );
        // Rejected as a filter, with the reason, not merely found to match nothing.
        let message = stderr(&output);
        assert!(
            message.contains("absolute") || message.contains("`..`"),
            "{filter}\n{}",
            dump(&output)
        );
    }
}

#[test]
fn symlinks_are_not_followed_and_verbose_says_so() {
    let project = Project::new();
    project.powers("real", &[1, 2]);
    // Outside the root: a whole group and a whole problem folder, both with failing cases.
    project.case("../elsewhere/group/x", "3\n", "Kiki\n");
    project.case("../elsewhere-lieges/x", "2 1\n3 4\n", "Nicky\n");
    symlink(
        project.path().join("elsewhere"),
        project.path().join("fixtures/powers-of-two/linked-group"),
    )
    .unwrap();
    symlink(
        project.path().join("elsewhere-lieges"),
        project.path().join("fixtures/lieges-of-legendre"),
    )
    .unwrap();
    // A loop back into the problem folder.
    symlink(".", project.path().join("fixtures/powers-of-two/loop")).unwrap();

    let output = project.grundy(&["check", "-v"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        closing_line(&output),
        "1 passed, 0 failed",
        "{}",
        dump(&output)
    );
    assert_eq!(reported_ids(&output), ["powers-of-two/real"]);
    let notes = stderr(&output);
    for link in ["linked-group", "lieges-of-legendre", "loop"] {
        assert!(
            notes
                .lines()
                .any(|l| l.contains(link) && l.contains("link")),
            "-v names the skipped link `{link}`\n{}",
            dump(&output)
        );
    }

    // Without -v the links are skipped silently.
    let output = project.grundy(&["check"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        !stderr(&output).contains("linked-group"),
        "{}",
        dump(&output)
    );
}

#[test]
fn a_filter_naming_a_linked_problem_judges_nothing() {
    let project = Project::new();
    project.powers("real", &[1]);
    project.case("../elsewhere-lieges/x", "2 1\n3 4\n", "Kevin\n");
    symlink(
        project.path().join("elsewhere-lieges"),
        project.path().join("fixtures/lieges-of-legendre"),
    )
    .unwrap();
    let output = project.grundy(&["check", "lieges-of-legendre"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(!stdout(&output).contains("passed"), "{}", dump(&output));
}

#[test]
fn a_missing_folder_or_problem_is_named_as_given_with_the_nearest_folder() {
    let project = Project::new();
    // No fixtures root, no runner.toml, no package: only what the user named can be meant.
    std::fs::remove_dir(project.path().join("fixtures")).unwrap();
    std::fs::create_dir(project.path().join("aplusb")).unwrap();
    // The current folder as the process sees it (its links resolved); a path given is shown
    // as given.
    let here = std::fs::canonicalize(project.path()).unwrap();
    let here = here.display().to_string();
    let nope = project.path().join("nope").display().to_string();
    let given = project.path().display().to_string();
    let cases = [
        (
            vec!["check", "aplsub"],
            format!("`aplsub` is no folder in {here}, nor a built-in problem (did you mean the folder `aplusb`?)"),
        ),
        (
            vec!["generate", "aplsub"],
            format!("`aplsub` is no folder in {here}, nor a built-in problem (did you mean the folder `aplusb`?)"),
        ),
        (
            vec!["check", "./aplusbb"],
            format!("`./aplusbb` is no folder in {here} (did you mean the folder `./aplusb`?)"),
        ),
        (
            vec!["check", &nope],
            format!("`{nope}` is no folder in {given}"),
        ),
        (
            vec!["check", "zzzz"],
            format!("`zzzz` is no folder in {here}, and no built-in problem `zzzz`; known problems: "),
        ),
    ];
    for (args, expected) in cases {
        let output = project.grundy(&args);
        assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
        assert!(
            stderr(&output).contains(&expected),
            "{args:?}: {expected}\n{}",
            dump(&output)
        );
    }
}
