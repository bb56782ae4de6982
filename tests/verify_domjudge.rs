//! `grundy verify` through the real binary on packages in the shape DOMjudge's and BAPCtools'
//! examples take: a legacy multi-pass problem with its validator in `output_validator/` (as
//! DOMjudge's `jumble`), its time limit in `.timelimit` and `domjudge-problem.ini`, and
//! submissions outside the named folders saying what they get with `@EXPECTED_RESULTS@: `.

use crate::common;

use common::{code, dump, row, verify_json as json, Project};
use serde_json::Value;

/// The output validator of `twice` (Kattis protocol, Python): the input is `n`, the output must
/// be `2n`; after a right first pass it asks for a second on `2n` (DOMjudge's `jumble` asks for
/// two passes the same way).
const TWICE_VALIDATOR: &str = r#"import os, sys
n = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
if sys.stdin.read().split() != [str(2 * n)]:
    sys.exit(43)
marker = os.path.join(feedback, "first-pass-done")
if not os.path.exists(marker):
    open(marker, "w").close()
    open(os.path.join(feedback, "nextpass.in"), "w").write(f"{2 * n}\n")
sys.exit(42)
"#;

/// A legacy multi-pass package `twice` as DOMjudge ships its examples.
pub(crate) fn twice(project: &Project) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "validation: custom multi-pass\nlimits:\n  validation_passes: 2\n",
        ),
        (".timelimit", "2\n"),
        (
            "domjudge-problem.ini",
            "name = \"Twice\"\ntimelimit = 3\ncolor = #00ff00\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "2\n"),
        ("data/secret/1.in", "5\n"),
        ("data/secret/1.ans", "10\n"),
        ("output_validator/validator.py", TWICE_VALIDATOR),
        (
            "submissions/accepted/double.py",
            "# @EXPECTED_RESULTS@: WRONG-ANSWER\nprint(2 * int(input()))\n",
        ),
        (
            "submissions/mixed/crash_on_big.py",
            "# @EXPECTED_RESULTS@: CORRECT, RUN-ERROR\n\
             n = int(input())\nassert n < 10\nprint(2 * n)\n",
        ),
        (
            "submissions/mixed/plus_one.py",
            "# @EXPECTED_RESULTS@: WRONG-ANSWER\nprint(int(input()) + 1)\n",
        ),
        ("submissions/untagged/nocompile.c", "this is not C\n"),
        (
            "submissions/rejected/broken.py",
            "# @EXPECTED_RESULTS@: RUN-ERROR\nprint(2 * int(input()))\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("twice/{path}"), text);
    }
}

#[test]
fn a_domjudge_style_package_is_verified_whole() {
    let project = Project::new();
    twice(&project);
    let output = project.verify(&["twice", "--format", "json"]);
    // `rejected/broken.py` is right every time, so its tag is not met: the package is invalid.
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let ok = |id: &str| row(&rows, id)["ok"].clone();
    assert_eq!(
        ok("accepted/double.py"),
        Value::Bool(true),
        "the folder decides"
    );
    assert_eq!(ok("mixed/crash_on_big.py"), Value::Bool(true), "{rows:#?}");
    assert_eq!(row(&rows, "mixed/crash_on_big.py")["verdict"], "RE");
    assert_eq!(ok("mixed/plus_one.py"), Value::Bool(true));
    assert_eq!(ok("rejected/broken.py"), Value::Bool(false));
    assert!(
        row(&rows, "rejected/broken.py")["problem"]
            .as_str()
            .unwrap()
            .contains("no case got RTE: 2 judged (@EXPECTED_RESULTS@ at broken.py:1:3)"),
        "{rows:#?}"
    );
    // Nothing describes it, so its compile error is held against nothing.
    let untagged = row(&rows, "untagged/nocompile.c");
    assert_eq!(untagged["ok"], Value::Null, "{untagged}");
    assert!(
        untagged["skipped"]
            .as_str()
            .unwrap()
            .starts_with("skipped: nothing says what it must get"),
        "{untagged}"
    );
    let package = &summary["packages"][0];
    // domjudge-problem.ini's timelimit beats .timelimit, which is warned about at its line.
    assert_eq!(
        package["time_limit"], "3s (domjudge-problem.ini)",
        "{package}"
    );
    let warnings: Vec<&str> = package["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let has = |text: &str| warnings.iter().any(|w| w.contains(text));
    assert!(
        has(".timelimit:1:1: 2 s is overruled by domjudge-problem.ini's timelimit 3 s"),
        "{warnings:#?}"
    );
    assert!(
        has("accepted/double.py: @EXPECTED_RESULTS@ at double.py:1:3 is ignored: the accepted folder decides"),
        "{warnings:#?}"
    );
    assert!(
        has("output_validator: the legacy format names this folder output_validators/"),
        "{warnings:#?}"
    );
}

/// Asserts that verify found `twice` unreadable (exit 2), saying `message`.
fn unreadable(project: &Project, message: &str) {
    let output = project.verify(&["twice"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(dump(&output).contains(message), "{}", dump(&output));
}

#[test]
fn a_submission_with_a_bad_tag_is_left_out_as_domjudge_refuses_it_and_the_score_tag_counts() {
    let project = Project::new();
    twice(&project);
    // DOMjudge's own example package holds such submissions, to check that it refuses them.
    project.file(
        "twice/submissions/mixed/plus_one.py",
        "x = 1\n# @EXPECTED_RESULTS@: WRONG-ANSWER, SLOW\n",
    );
    project.file(
        "twice/submissions/mixed/two_tags/main.py",
        "# @EXPECTED_RESULTS@: CORRECT\nprint(2 * int(input()))\n",
    );
    project.file(
        "twice/submissions/mixed/two_tags/notes.txt",
        "@EXPECTED_RESULTS@: WRONG-ANSWER\n",
    );
    // DOMjudge's other spelling of the tag says what it must get as well.
    project.file(
        "twice/submissions/mixed/score_tag.py",
        "# @EXPECTED_SCORE@: WRONG-ANSWER\nprint(int(input()) + 1)\n",
    );
    let output = project.verify(&["twice", "--format", "json"]);
    // Verified, not unreadable (exit 2); invalid only by `rejected/broken.py`, as above.
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let judged: Vec<&str> = rows
        .iter()
        .map(|r| r["submission"].as_str().unwrap())
        .collect();
    assert!(!judged.contains(&"mixed/plus_one.py"), "{judged:?}");
    assert!(!judged.contains(&"mixed/two_tags"), "{judged:?}");
    assert_eq!(row(&rows, "accepted/double.py")["verdict"], "AC");
    assert_eq!(row(&rows, "mixed/score_tag.py")["ok"], true, "{rows:#?}");
    let warnings = summary["packages"][0]["warnings"].as_array().unwrap();
    let said = |place: &str, what: &str| {
        warnings.iter().any(|w| {
            let w = w.as_str().unwrap();
            w.contains(place)
                && w.contains(what)
                && w.ends_with("; this submission is left out, as DOMjudge refuses it")
        })
    };
    assert!(
        said("mixed/plus_one.py:2:37: ", "`SLOW` is not a verdict"),
        "{warnings:#?}"
    );
    assert!(
        said(
            "two_tags/notes.txt:1:1: ",
            "a second @EXPECTED_RESULTS@ or @EXPECTED_SCORE@ tag"
        ),
        "{warnings:#?}"
    );
}

#[test]
fn a_bad_timelimit_makes_the_package_unreadable_at_its_place() {
    let project = Project::new();
    twice(&project);
    project.file("twice/.timelimit", "two seconds\n");
    unreadable(
        &project,
        "twice/.timelimit:1:1: must hold the time limit, a number of seconds from 0.001 to \
         86400 (a millisecond to a day), found `two seconds`",
    );
}

/// BAPCtools' validators include `validation.h` without shipping it (its test packages link it
/// to BAPCtools' own copy, outside the package): grundy supplies its header to them.
#[test]
fn validators_including_validation_h_get_grundys_when_the_package_has_none() {
    let project = Project::new();
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n",
        ),
        ("data/sample/1.in", "1 2\n"),
        ("data/sample/1.ans", "3\n"),
        ("data/secret/1.in", "40 2\n"),
        ("data/secret/1.ans", "42\n"),
        ("data/invalid_input/spaces.in", "1  2\n"),
        ("data/invalid_input/big.in", "1 101\n"),
        (
            "input_validators/two/two.cpp",
            "#include \"validation.h\"\n\
             int main(int argc, char** argv) {\n\
             \tInputValidator v(argc, argv);\n\
             \tv.read_integers(\"x\", 2, 0, 100);\n\
             }\n",
        ),
        // It reads the input with std::ifstream without including <fstream>, as BAPCtools'
        // packages do: BAPCtools' header includes it, so grundy's must too.
        (
            "output_validator/sum.cpp",
            "#include \"validation.h\"\n\
             int main(int argc, char** argv) {\n\
             \tstd::ifstream in(argv[1]);\n\
             \tlong long a, b;\n\
             \tin >> a >> b;\n\
             \tOutputValidator v(argc, argv);\n\
             \tlong long s = v.read_integer(\"sum\", 0, 200);\n\
             \tv.check(s == a + b, \"wrong sum\");\n\
             }\n",
        ),
        (
            "submissions/accepted/sum.py",
            "a, b = map(int, input().split())\nprint(a + b)\n",
        ),
        (
            "submissions/wrong_answer/diff.py",
            "a, b = map(int, input().split())\nprint(abs(a - b))\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("sum/{path}"), text);
    }
    // A header outside the package that would not compile: it must not be the one used.
    project.file("elsewhere/validation.h", "#error not this one\n");
    std::os::unix::fs::symlink(
        project.path().join("elsewhere/validation.h"),
        project.path().join("sum/input_validators/two/validation.h"),
    )
    .unwrap();
    let output = project.verify(&["sum", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, summary) = json(&output);
    assert_eq!(row(&rows, "accepted/sum.py")["verdict"], "AC");
    assert_eq!(row(&rows, "wrong_answer/diff.py")["verdict"], "WA");
    let package = &summary["packages"][0];
    assert_eq!(package["valid"], true, "{package}");
    let warnings = package["warnings"].to_string();
    assert!(
        warnings.contains("validation.h is not shipped and grundy supplies its own"),
        "{warnings}"
    );
}
