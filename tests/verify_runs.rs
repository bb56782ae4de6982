//! Whole `verify` runs through the real binary, on the packages of `verify.rs`: a contest
//! folder, an unreadable package among good ones, the build cache, `check` judging one program
//! on a package, a validator that does not build, Ctrl-C, and what JUnit calls each failure.

use crate::common;
use crate::verify::{different, hello, sum};

use common::{code, dump, row, stderr, stdout, verify_json as json, Project};

#[test]
fn a_contest_folder_verifies_every_package_and_notes_the_other_folders() {
    let project = Project::new();
    hello(&project, "contest/hello");
    different(&project, "contest/different");
    project.file("contest/notes/todo.txt", "write more problems\n");
    let junit = project.path().join("report.xml");
    let output = project.verify(&["contest", "--junit", junit.to_str().unwrap(), "-j", "2"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stderr(&output).contains("no problem.yaml in it"),
        "{}",
        dump(&output)
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<(&str, usize)> = document
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .map(|s| {
            let cases = s.children().filter(|c| c.has_tag_name("testcase")).count();
            (s.attribute("name").unwrap(), cases)
        })
        .collect();
    assert_eq!(suites, [("different", 2), ("hello", 5)]);
}

#[test]
fn an_unreadable_package_is_exit_2_with_its_place_and_the_others_are_still_verified() {
    let project = Project::new();
    different(&project, "contest/different");
    project.file("contest/broken/problem.yaml", "name: [unclosed\n");
    let output = project.verify(&["contest"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let text = stdout(&output);
    assert!(text.contains("broken/problem.yaml:"), "{text}");
    assert!(text.contains("different: package valid"), "{text}");
    let output = project.verify(&["nowhere"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
}

#[test]
fn builds_are_cached_beside_the_package_and_nothing_is_left_in_the_temporary_folder() {
    let project = Project::new();
    different(&project, "different");
    sum(&project, "sum");
    let tmp = project.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let run = || {
        project
            .command(&["verify", "sum"])
            .env_remove("CARGO_TARGET_DIR")
            .env("TMPDIR", &tmp)
            .output()
            .unwrap()
    };
    let first = run();
    assert_eq!(code(&first), 0, "{}", dump(&first));
    assert!(stdout(&first).contains("built"), "{}", dump(&first));
    assert!(project.path().join(".grundy-build").is_dir());
    let second = run();
    assert!(
        stdout(&second).contains("from the cache") && !stdout(&second).contains(" built"),
        "{}",
        dump(&second)
    );
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
}

#[test]
fn check_judges_one_program_on_a_package_with_its_limits_and_validator_flags() {
    let project = Project::new();
    different(&project, "contest/different");
    sum(&project, "contest/sum");
    project.file(
        "exact.py",
        "a, b = map(int, input().split())\nprint(f'{a / b:.7f}')\n",
    );
    project.file(
        "rounded.py",
        "a, b = map(int, input().split())\nprint(f'{a / b:.2f}')\n",
    );
    let check = |fixtures: &str, program: &str| {
        project
            .command(&[
                "check",
                "--fixtures",
                fixtures,
                "--exec",
                program,
                "different",
            ])
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap()
    };
    // Within the tolerance 1e-6 of the package's flags, the sample's .out ignored.
    let output = check("contest/different", "python3 exact.py");
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(common::closing_line(&output), "2 passed, 0 failed");
    let output = check("contest", "python3 rounded.py");
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        common::case_block(&output, "different/secret/1").contains("differ by"),
        "{}",
        dump(&output)
    );
    // `list` shows the package with its own limits and checker.
    let output = project
        .command(&["list", "--fixtures", "contest"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let text = stdout(&output);
    let line = text.lines().find(|l| l.starts_with("different ")).unwrap();
    assert!(
        line.contains("2000ms") && line.contains("kattis-default float_tolerance"),
        "{line}"
    );
    // Memory and output limits left to the judge are the format's defaults, as verify's.
    assert!(line.contains("  2048 MiB     8 MiB  "), "{line}");
    let line = text.lines().find(|l| l.starts_with("sum ")).unwrap();
    assert!(line.contains("kattis:"), "{line}");
}

#[test]
fn a_judge_error_names_the_output_validator_as_the_package_does() {
    let project = Project::new();
    sum(&project, "sum");
    project.file(
        "sum/output_validator/validate.py",
        "import sys\nsys.exit(7)\n",
    );
    let output = project.verify(&["sum", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, _) = json(&output);
    let accepted = row(&rows, "accepted/sum.cpp");
    assert_eq!(accepted["verdict"], "JE", "{}", dump(&output));
    let message = accepted["caught_by"][0]["message"].as_str().unwrap();
    assert!(message.contains("`kattis:output_validator`"), "{message}");
    assert!(!message.contains("grundy-build"), "{message}");
}

/// Loading settings builds nothing, and a package whose output validator cannot be built fails
/// alone: `list` and `gen` work in its fixtures root, and `check` judges the other problems
/// there, failing the broken package's cases with the reason.
#[test]
fn a_package_whose_validator_does_not_build_fails_alone() {
    let project = Project::new();
    different(&project, "contest/different");
    sum(&project, "contest/sum");
    // A C++ output validator that does not compile (a C++ one: Python would need no build).
    std::fs::remove_file(
        project
            .path()
            .join("contest/sum/output_validator/validate.py"),
    )
    .unwrap();
    project.file(
        "contest/sum/output_validator/validate.cpp",
        "int main() { return missing; }\n",
    );
    project.file(
        "exact.py",
        "a, b = map(int, input().split())\nprint(f'{a / b:.9f}')\n",
    );
    let run = |args: &[&str]| {
        project
            .command(args)
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .unwrap()
    };
    let output = run(&["list", "--fixtures", "contest"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    let line = text.lines().find(|l| l.starts_with("sum ")).unwrap();
    assert!(line.contains("kattis:output_validator"), "{line}");
    assert!(
        !project.path().join("contest/.grundy-build").exists(),
        "list built something"
    );
    let output = run(&["gen", "--fixtures", "contest", "nim", "a/b"]);
    assert_ne!(code(&output), 2, "{}", dump(&output));
    // `check` of the whole root: `different` is judged, `sum`'s cases fail with the reason.
    let output = run(&[
        "check",
        "--fixtures",
        "contest",
        "--exec",
        "python3 exact.py",
        "--format",
        "json",
    ]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let cases: Vec<serde_json::Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["type"] == "case")
        .collect();
    let verdict = |id: &str| {
        let case = cases.iter().find(|c| c["case"] == id).unwrap();
        (case["verdict"].clone(), case["message"].to_string())
    };
    assert_eq!(verdict("different/secret/1").0, "AC", "{}", dump(&output));
    let (sum, message) = verdict("sum/secret/big");
    assert_eq!(sum, "JE", "{}", dump(&output));
    assert!(
        message.contains("output validator output_validator did not compile"),
        "{message}"
    );
}

/// Ctrl-C ends every submission at once, and `verify` still writes its reports, marked
/// cancelled, and exits 130.
#[test]
fn ctrl_c_ends_verify_with_its_reports_marked_cancelled() {
    let project = Project::new();
    hello(&project, "hello");
    project.file(
        "hello/submissions/time_limit_exceeded/sleeper.py",
        "import time\ntime.sleep(60)\n",
    );
    let junit = project.path().join("report.xml");
    let junit_arg = junit.display().to_string();
    // Interrupted once the sleeper runs (its build, and so its command line, is in the
    // project).
    let marker = format!("{}", project.path().display());
    let sleeping = || common::running(&marker, "sleeper.py");
    let args = ["verify", "hello", "--format", "json", "--junit", &junit_arg];
    let output = project.interrupted(&args, sleeping);
    assert_eq!(code(&output), 130, "{}", dump(&output));
    let (_, summary) = json(&output);
    assert_eq!(summary["cancelled"], true, "{}", dump(&output));
    assert!(!sleeping(), "the sleeper outlived verify");
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    assert!(xml.contains(r#"name="cancelled" value="true""#), "{xml}");
}

/// `verify`'s JUnit report calls a submission that did not get what it must a failure when its
/// output was judged (accepted, or wrong) and an error when it did not run to an output (a
/// crash), as `check`'s does.
#[test]
fn junit_calls_a_wrong_output_a_failure_and_a_run_that_did_not_finish_an_error() {
    let project = Project::new();
    hello(&project, "hello");
    // Planted in the wrong folders: an accepted program under wrong_answer, a crashing one
    // under accepted.
    project.file(
        "hello/submissions/wrong_answer/right.py",
        "print('Hello World!')\n",
    );
    project.file(
        "hello/submissions/accepted/crashes.py",
        "raise SystemExit(3)\n",
    );
    let junit = project.path().join("report.xml");
    let output = project.verify(&["hello", "--junit", junit.to_str().unwrap()]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let outcome = |name: &str| {
        let case = document
            .descendants()
            .find(|n| n.has_tag_name("testcase") && n.attribute("name") == Some(name))
            .unwrap_or_else(|| panic!("no test case {name}\n{xml}"));
        let element = case
            .children()
            .find(|c| c.has_tag_name("failure") || c.has_tag_name("error"))
            .unwrap_or_else(|| panic!("{name} passed\n{xml}"));
        (
            element.tag_name().name(),
            element.attribute("type").unwrap_or_default(),
        )
    };
    assert_eq!(outcome("wrong_answer/right.py"), ("failure", "AC"));
    assert_eq!(outcome("accepted/crashes.py"), ("error", "RE"));
}
