use super::*;
use crate::discovery::Expects;
use std::fs;

pub(crate) fn tree(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in files {
        let path = dir.path().join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "1\n").unwrap();
    }
    dir
}

fn ids(fixtures: &Fixtures) -> Vec<&str> {
    fixtures.cases.iter().map(|c| c.id.as_str()).collect()
}

#[test]
fn finds_nested_cases_with_out_or_ans_sorted() {
    let dir = tree(&[
        "s-nim/b.in",
        "s-nim/b.ans",
        "s-nim/a.in",
        "s-nim/a.out",
        "nim/large/deep/x.in",
        "nim/large/deep/x.out",
        "nim/notes.txt",
        "nim/no-expected.in",
    ]);
    let found = discover(dir.path(), |_| true).unwrap();
    assert_eq!(
        ids(&found),
        ["nim/large/deep/x", "nim/no-expected", "s-nim/a", "s-nim/b"]
    );
    assert_eq!(found.cases[0].name(), "large/deep/x");
    assert!(found.cases[1].expected.is_none());
    assert!(found.cases[3]
        .expected
        .as_ref()
        .unwrap()
        .path()
        .ends_with("b.ans"));
    assert_eq!(found.problems, ["nim", "s-nim"]);
}

#[test]
fn layout_errors_name_the_files() {
    let both = tree(&["nim/a.in", "nim/a.out", "nim/a.ans"]);
    let err = discover(both.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("a.out") && err.contains("a.ans"), "{err}");
    let orphan = tree(&["nim/a.out"]);
    let err = discover(orphan.path(), |_| true).unwrap_err().to_string();
    assert!(
        err.contains("has no input") && err.contains("a.in"),
        "{err}"
    );
    let loose = tree(&["a.in"]);
    assert!(discover(loose.path(), |_| true)
        .unwrap_err()
        .to_string()
        .contains("directly in"));
    let bad_id = tree(&["S_Nim/a.in"]);
    assert!(discover(bad_id.path(), |_| true)
        .unwrap_err()
        .to_string()
        .contains("kebab-case"));
    let missing = discover(Path::new("/nonexistent/fixtures"), |_| true).unwrap_err();
    assert!(format!("{missing:#}").contains("--fixtures"), "{missing:#}");
}

#[test]
fn invalid_groups_expect_err_files_and_only_they_may_have_them() {
    let dir = tree(&[
        "nim/invalid/x.in",
        "nim/invalid/x.err",
        "nim/deep/invalid/y.in",
        "nim/invalid/no-message.in",
        "nim/invalid.in",
        "nim/invalid.out",
        "nim/extended/big.in",
        "nim/extended/big.out",
    ]);
    let found = discover(dir.path(), |_| true).unwrap();
    assert_eq!(
        ids(&found),
        [
            "nim/deep/invalid/y",
            "nim/extended/big",
            "nim/invalid",
            "nim/invalid/no-message",
            "nim/invalid/x"
        ]
    );
    let by_id = |id: &str| found.cases.iter().find(|c| c.id == id).unwrap();
    let x = by_id("nim/invalid/x");
    assert!(x.expects_error());
    assert!(x.expected.as_ref().unwrap().path().ends_with("x.err"));
    let y = by_id("nim/deep/invalid/y");
    assert!(y.expects_error() && y.expected.is_none());
    assert!(y.default_expected_path().ends_with("invalid/y.err"));
    assert!(
        !by_id("nim/invalid").expects_error(),
        "a case named `invalid` is no group"
    );
    let big = by_id("nim/extended/big");
    assert_eq!(big.constraints, grundy_problems::Constraints::Extended);
    assert_eq!(big.expects, Expects::Output);
    assert_eq!(x.constraints, grundy_problems::Constraints::Original);

    let stray = tree(&["nim/a.in", "nim/a.err"]);
    let err = discover(stray.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("a.err") && err.contains("`invalid/`"), "{err}");
    let output = tree(&["nim/invalid/a.in", "nim/invalid/a.out"]);
    let err = discover(output.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("a.out") && err.contains("a.err"), "{err}");
    let orphan = tree(&["nim/invalid/a.err"]);
    let err = discover(orphan.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("has no input"), "{err}");
}

#[test]
fn stems_holding_dots_and_groups_named_like_cases_pair_by_whole_stem() {
    let dir = tree(&[
        "nim/t1.v2.in",
        "nim/t1.v2.out",
        "nim/t1.in",
        "nim/t1.ans",
        "nim/t1.extra.in",
        "nim/t1/inner.in",
        "nim/t1/inner.out",
        "nim-2/a.in",
        "nim/a-b/c.in",
    ]);
    let found = discover(dir.path(), |_| true).unwrap();
    assert_eq!(
        ids(&found),
        [
            "nim-2/a",
            "nim/a-b/c",
            "nim/t1",
            "nim/t1.extra",
            "nim/t1.v2",
            "nim/t1/inner"
        ]
    );
    let by_id = |id: &str| found.cases.iter().find(|c| c.id == id).unwrap();
    let expected = |id: &str| by_id(id).expected.as_ref().map(|e| e.path().to_path_buf());
    assert!(expected("nim/t1.v2").unwrap().ends_with("nim/t1.v2.out"));
    assert!(expected("nim/t1").unwrap().ends_with("nim/t1.ans"));
    assert!(expected("nim/t1.extra").is_none());
    assert!(by_id("nim/t1.v2").input.path().ends_with("nim/t1.v2.in"));
    let orphan = tree(&["nim/a.in", "nim/a.b.out"]);
    let err = discover(orphan.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("a.b.out") && err.contains("a.b.in"), "{err}");
}

#[test]
fn symlinks_are_skipped_not_followed() {
    let dir = tree(&["nim/a.in", "nim/a.out"]);
    std::os::unix::fs::symlink("/etc", dir.path().join("nim/escape")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("nim"), dir.path().join("nim/loop")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("nim"), dir.path().join("alias")).unwrap();
    let found = discover(dir.path(), |_| true).unwrap();
    assert_eq!(ids(&found), ["nim/a"]);
    // Named in full, in order, whatever order the file system lists them in.
    let root = dir.path();
    let links = [
        root.join("alias"),
        root.join("nim/escape"),
        root.join("nim/loop"),
    ];
    assert_eq!(found.skipped_links, links);
}

#[test]
fn hidden_entries_are_ignored_at_every_level() {
    let dir = tree(&[
        "nim/a.in",
        "nim/a.out",
        "nim/.b.in",
        "nim/.hidden/c.in",
        "nim/.hidden/orphan.out",
        ".git/x.in",
        ".grundy-journal/0",
    ]);
    let found = discover(dir.path(), |_| true).unwrap();
    assert_eq!(ids(&found), ["nim/a"]);
    assert_eq!(found.problems, ["nim"]);
}

#[test]
fn stale_temporary_files_are_swept_and_others_kept() {
    let dir = tree(&["nim/a.in", "nim/.grundy-Ab12xY", "nim/.grundy-notes.txt"]);
    discover(dir.path(), |_| true).unwrap();
    assert!(!dir.path().join("nim/.grundy-Ab12xY").exists());
    assert!(dir.path().join("nim/.grundy-notes.txt").exists());
}

#[test]
fn case_files_that_are_not_regular_files_are_layout_errors() {
    let dir = tree(&["nim/a.in"]);
    fs::create_dir_all(dir.path().join("nim/group/b.out")).unwrap();
    let err = discover(dir.path(), |_| true).unwrap_err().to_string();
    assert!(
        err.contains("b.out") && err.contains("a directory, not a regular file"),
        "{err}"
    );
    let dir = tree(&["nim/a.in"]);
    let fifo = dir.path().join("nim/a.out");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let err = discover(dir.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("a.out") && err.contains("FIFO"), "{err}");
    // Of several in one folder, the first by name is told.
    let dir = tree(&["nim/a.in"]);
    for name in ["q.out", "c.ans", "x.in", "m.in"] {
        fs::create_dir(dir.path().join("nim").join(name)).unwrap();
    }
    let err = discover(dir.path(), |_| true).unwrap_err().to_string();
    assert!(err.contains("nim/c.ans`"), "{err}");
}

#[test]
fn package_folders_are_problems_of_any_name_with_their_judged_cases() {
    let dir = tree(&[
        "HelloWorld/problem.yaml",
        "HelloWorld/data/sample/1.in",
        "HelloWorld/data/sample/1.ans",
        "HelloWorld/data/sample/1.out",
        "HelloWorld/data/secret/group/b.in",
        "HelloWorld/data/secret/group/b.ans",
        "HelloWorld/data/invalid_input/bad.in",
        "HelloWorld/input_validators/v.py",
        "nim/a.in",
        "nim/a.out",
    ]);
    fs::write(dir.path().join("HelloWorld/problem.yaml"), "name: Hello\n").unwrap();
    let found = discover(dir.path(), |_| true).unwrap();
    assert_eq!(
        ids(&found),
        ["HelloWorld/sample/1", "HelloWorld/secret/group/b", "nim/a"]
    );
    assert_eq!(found.problems, ["HelloWorld", "nim"]);
    let sample = &found.cases[0];
    assert_eq!(sample.problem, "HelloWorld");
    assert!(sample.expected.as_ref().unwrap().path().ends_with("1.ans"));
    assert_eq!(sample.name(), "sample/1");

    // The fixtures root may be a package itself.
    let package = discover(&dir.path().join("HelloWorld"), |_| true).unwrap();
    assert_eq!(
        ids(&package),
        ["HelloWorld/sample/1", "HelloWorld/secret/group/b"]
    );

    // A package that cannot be read is a located layout error.
    fs::write(dir.path().join("HelloWorld/problem.yaml"), "name: [x\n").unwrap();
    let error = format!("{:#}", discover(dir.path(), |_| true).unwrap_err());
    assert!(error.contains("HelloWorld/problem.yaml:"), "{error}");
}

#[test]
fn unwanted_problems_are_not_walked() {
    let dir = tree(&["nim/a.in", "s-nim/a.in"]);
    let found = discover(dir.path(), |p| p == "s-nim").unwrap();
    assert_eq!(ids(&found), ["s-nim/a"]);
    assert_eq!(found.problems, ["nim", "s-nim"]);
}
