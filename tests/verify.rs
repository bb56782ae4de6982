//! `grundy verify PKG` through the real binary, on Kattis packages the tests write: `hello`
//! (legacy, in the shape of problemtools' example), `different` (2023-07, float output judged by
//! the default validator's flags), `sum` (2025-09, a custom Kattis output validator, invalid
//! inputs and outputs, a compile error), `guess` (interactive) and a contest folder holding some
//! of them. Programs are C, C++ and Python; validators are Python.

use crate::common;

use common::{binary, code, dump, row, stderr, stdout, verify_json as json, Project};
use serde_json::{json, Value};

mod packages;

pub(crate) use packages::{different, hello, sum};

#[test]
fn hello_every_folder_gets_its_verdict_and_the_time_limit_is_computed() {
    let project = Project::new();
    hello(&project, "hello");
    let output = project.verify(&["hello", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let verdicts: Vec<(&str, &str, bool)> = rows
        .iter()
        .map(|r| {
            (
                r["submission"].as_str().unwrap(),
                r["verdict"].as_str().unwrap(),
                r["ok"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("accepted/hello.c", "AC", true),
            ("accepted/hello.py", "AC", true),
            ("run_time_error/crash.py", "RE", true),
            ("time_limit_exceeded/forever.py", "TLE", true),
            ("wrong_answer/goodbye.py", "WA", true),
        ]
    );
    assert_eq!(row(&rows, "accepted/hello.c")["language"], "C");
    assert_eq!(row(&rows, "accepted/hello.py")["language"], "Python 3");
    let caught = &row(&rows, "wrong_answer/goodbye.py")["caught_by"];
    assert_eq!(caught[0]["case"], "sample/1");
    assert_eq!(caught[1]["case"], "secret/1");
    // Legacy: 5 × the slowest accepted run, rounded up to whole seconds (1 s on an idle
    // machine; a loaded one may take longer to start Python).
    let package = &summary["packages"][0];
    let limit = package["time_limit"].as_str().unwrap();
    let (seconds, how) = limit.split_once("s (").unwrap();
    let seconds: f64 = seconds.parse().unwrap();
    assert!(how.starts_with("computed") && seconds >= 1.0, "{limit}");
    assert_eq!(package["valid"], true);
    assert_eq!(
        (&summary["passed"], &summary["failed"]),
        (&Value::from(5), &Value::from(0))
    );
    // The forever loop ran to the timeout: the limit × time_safety_margin 2.
    let tle = &row(&rows, "time_limit_exceeded/forever.py");
    assert!(
        tle["time_ms"].as_f64().unwrap() >= seconds * 2000.0,
        "{tle}"
    );
}

/// A package's validity is not a submission: `verify` of a valid package with one accepted
/// submission counts that one submission, in every format (it said `2 passed` when the
/// package's validity counted as a pass), and counts the package apart, in its own line.
#[test]
fn the_summary_counts_submissions_and_the_packages_apart() {
    let project = Project::new();
    project.file("one/problem.yaml", "name: One\n");
    project.file("one/data/sample/1.in", "");
    project.file("one/data/sample/1.ans", "1\n");
    project.file("one/submissions/accepted/one.py", "print(1)\n");
    let human = project.verify(&["one"]);
    assert_eq!(code(&human), 0, "{}", dump(&human));
    assert_eq!(
        common::closing_line(&human),
        "1 submission as expected, 0 not"
    );
    let output = project.verify(&["one", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, summary) = json(&output);
    assert_eq!(rows.len(), 1, "{}", dump(&output));
    let counted = ["command", "unit", "passed", "failed", "skipped", "total"].map(|k| &summary[k]);
    assert_eq!(
        counted,
        [
            &json!("verify"),
            &json!("submission"),
            &json!(1),
            &json!(0),
            &json!(0),
            &json!(1)
        ],
        "{summary}"
    );
    let package = json!({"passed": 1, "failed": 0, "skipped": 0});
    assert_eq!(summary["totals"]["package"], package, "{summary}");
    let id = json!({"problem": "one", "subject": "accepted/one.py", "case": null});
    assert_eq!(rows[0]["id"], id, "{}", dump(&output));
    let lines: Vec<Value> = stdout(&output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let packages: Vec<&Value> = lines.iter().filter(|l| l["type"] == "package").collect();
    assert_eq!(packages.len(), 1, "{}", dump(&output));
    assert_eq!(packages[0]["status"], "valid");
    let id = json!({"problem": "one", "subject": null, "case": null});
    assert_eq!(packages[0]["id"], id);
}

#[test]
fn the_human_report_has_a_table_and_a_closing_line() {
    let project = Project::new();
    different(&project, "different");
    let output = project.verify(&["different"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    assert!(text.contains("SUBMISSION"), "{text}");
    assert!(text.contains("time limit: 2s (problem.yaml)"), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("wrong_answer/rounded.py"))
        .unwrap();
    assert!(
        line.contains("WA") && line.contains("2: sample/1 WA, secret/1 WA"),
        "{line}"
    );
    assert_eq!(
        common::closing_line(&output),
        "2 submissions as expected, 0 not"
    );
}

#[test]
fn first_failure_stops_a_submission_at_its_first_failing_case() {
    let project = Project::new();
    different(&project, "different");
    // Wrong on the sample, then a crash the wrong_answer folder does not permit.
    project.file(
        "different/submissions/wrong_answer/then_crash.py",
        "a, b = map(int, input().split())\nif a > 1:\n    raise SystemExit(1)\nprint(0)\n",
    );
    let every_case = project.verify(&["different", "--format", "json"]);
    assert_eq!(code(&every_case), 1, "{}", dump(&every_case));
    let (rows, _) = json(&every_case);
    let caught = &row(&rows, "wrong_answer/then_crash.py")["caught_by"];
    assert_eq!(caught.as_array().unwrap().len(), 2, "{caught}");
    assert_eq!(caught[1]["verdict"], "RE");

    let first = project.verify(&["different", "--format", "json", "--first-failure"]);
    assert_eq!(code(&first), 0, "{}", dump(&first));
    let (rows, summary) = json(&first);
    let stopped = row(&rows, "wrong_answer/then_crash.py");
    assert_eq!(
        (&stopped["verdict"], &stopped["ok"]),
        (&"WA".into(), &true.into())
    );
    let caught = stopped["caught_by"].as_array().unwrap();
    assert_eq!(caught.len(), 1, "{stopped}");
    assert_eq!(caught[0]["case"], "sample/1");
    // Accepted submissions still run every case.
    assert_eq!(row(&rows, "accepted/exact.py")["verdict"], "AC");
    assert_eq!(summary["packages"][0]["valid"], true, "{summary}");
    assert!(
        stderr(&first).contains("--first-failure"),
        "{}",
        stderr(&first)
    );
}

#[test]
fn submissions_only_judges_without_validating() {
    let project = Project::new();
    different(&project, "different");
    // An input validator that rejects every input makes the package invalid...
    project.file(
        "different/input_validators/two.py",
        "import sys\nsys.exit(43)\n",
    );
    let validated = project.verify(&["different"]);
    assert_eq!(code(&validated), 1, "{}", dump(&validated));
    assert!(
        stdout(&validated).contains("package INVALID"),
        "{}",
        dump(&validated)
    );
    // ...unless validation is left out: then only the submissions count.
    let judged = project.verify(&["different", "--submissions-only"]);
    assert_eq!(code(&judged), 0, "{}", dump(&judged));
    let text = stdout(&judged);
    assert!(
        text.contains("validation: not run (--submissions-only)\n"),
        "{text}"
    );
    assert!(text.contains("accepted/exact.py"), "{text}");
}

#[test]
fn a_custom_output_validator_judges_and_is_checked_with_the_output_cases() {
    let project = Project::new();
    sum(&project, "sum");
    let output = project.verify(&["sum", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, summary) = json(&output);
    assert_eq!(row(&rows, "accepted/sum.cpp")["verdict"], "AC");
    let wrong = row(&rows, "wrong_answer/off_by_one.py");
    assert_eq!(wrong["verdict"], "WA");
    assert_eq!(wrong["caught_by"][0]["case"], "secret/big");
    let message = wrong["caught_by"][0]["message"].as_str().unwrap();
    assert!(message.contains("expected ['3000000']"), "{message}");
    let broken = row(&rows, "compile_error/broken.cpp");
    assert_eq!(
        (&broken["verdict"], &broken["ok"]),
        (&"CE".into(), &true.into())
    );
    assert!(broken["compile_error"]
        .as_str()
        .unwrap()
        .contains("missing"));
    // The compiler's lines stay lines: JSON escapes a line break once, never as `\n` text.
    let said = broken["compile_error"].as_str().unwrap();
    assert!(said.contains('\n') && !said.contains("\\n"), "{said}");
    assert_eq!(broken["expected"], serde_json::json!(["CE"]));
    assert_eq!(wrong["expected"], serde_json::json!(["WA"]), "{wrong}");
    assert_eq!(summary["packages"][0]["valid"], true, "{summary}");
}

#[test]
fn a_package_is_invalid_when_its_validators_fail_their_checks() {
    let project = Project::new();
    sum(&project, "sum");
    // The input validator accepts anything now, and the output validator accepts every output.
    project.file("sum/input_validators/ints.py", "import sys\nsys.exit(42)\n");
    project.file(
        "sum/output_validator/validate.py",
        "import sys\nsys.exit(42)\n",
    );
    let output = project.verify(&["sum"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "error: invalid input invalid_input/letters is accepted by every input validator"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "error: the output validator must reject invalid_output/wrong, but it was accepted"
        ),
        "{text}"
    );
    assert!(text.contains("package INVALID"), "{text}");

    // A validator that breaks the protocol (exit 0) is broken, not a verdict.
    project.file("sum/input_validators/ints.py", "print('fine')\n");
    let output = project.verify(&["sum"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stdout(&output)
            .contains("the input validator ints.py is broken on sample/1: exited with status 0"),
        "{}",
        dump(&output)
    );
}

#[test]
fn answer_validators_check_every_answer_against_its_input() {
    let project = Project::new();
    sum(&project, "sum");
    // BAPCtools' protocol: the answer on stdin, the input file as the argument, 42 valid.
    project.file(
        "sum/answer_validators/adds_up.py",
        "import sys\na, b = map(int, open(sys.argv[1]).read().split())\nsys.exit(42 if int(sys.stdin.read()) == a + b else 43)\n",
    );
    let output = project.verify(&["sum", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));

    project.file("sum/data/secret/big.ans", "3000001\n");
    let output = project.verify(&["sum"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains("2 answers through 1 answer validator(s)"),
        "{text}"
    );
    assert!(
        text.contains("answer secret/big is rejected by the answer validator adds_up.py"),
        "{text}"
    );
    assert!(
        !text.contains("answer sample/1 is rejected"),
        "a right answer is valid: {text}"
    );
    assert!(text.contains("package INVALID"), "{text}");
}

/// g++ tells an error in a header after a line of context (`In file included from ...`): the
/// package's error names the header's error line, not the context.
#[test]
fn a_validator_that_does_not_compile_is_told_by_its_error_line() {
    let project = Project::new();
    hello(&project, "hello");
    project.file(
        "hello/input_validators/v/validate.cpp",
        "#include \"header.h\"\nint main() { return 42; }\n",
    );
    project.file("hello/input_validators/v/header.h", "int broken = oops;\n");
    let output = project.verify(&["hello"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let said = stdout(&output);
    let line = (said.lines())
        .find(|line| line.contains("does not compile"))
        .unwrap_or_else(|| panic!("{}", dump(&output)));
    assert!(
        line.contains("header.h:1:") && line.contains("error:") && line.contains("oops"),
        "{line}"
    );
    assert!(!line.contains("In file included"), "{line}");
}

#[test]
fn a_compile_error_where_none_is_allowed_fails_the_run() {
    let project = Project::new();
    hello(&project, "hello");
    project.file(
        "hello/submissions/accepted/hello.c",
        "int main(void) { oops }\n",
    );
    let output = project.verify(&["hello"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stdout(&output).contains("✗ accepted/hello.c: expected AC, but it does not compile"),
        "{}",
        dump(&output)
    );
}

#[test]
fn a_missing_compiler_skips_its_submissions() {
    let project = Project::new();
    hello(&project, "hello");
    // A PATH with Python and the shell but no C compiler.
    let bin = project.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["python3", "sh"] {
        std::os::unix::fs::symlink(binary(tool), bin.join(tool)).unwrap();
    }
    let output = project
        .command(&["verify", "hello", "--format", "json"])
        .env_remove("CARGO_TARGET_DIR")
        .env("PATH", &bin)
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, _) = json(&output);
    let c = row(&rows, "accepted/hello.c");
    assert_eq!((&c["verdict"], &c["ok"]), (&Value::Null, &Value::Null));
    // The message names the tool and where it was looked for: the PATH, then the folders of
    // the toolchain managers.
    let skipped = c["skipped"].as_str().unwrap();
    let expected = format!(
        "skipped: no compiler for C (gcc not found on PATH ({}) or in ",
        bin.display()
    );
    assert!(skipped.starts_with(&expected), "{c}");
    assert!(
        skipped.contains(".cargo/bin") && skipped.contains(".pyenv/shims"),
        "{c}"
    );
    assert_eq!(row(&rows, "accepted/hello.py")["verdict"], "AC");
}

/// A Kattis interactor in Python: the input is the secret number; the program guesses in
/// 1..=100 and is told `<`, `>` or `=`; seven wrong guesses lose.
const GUESS_INTERACTOR: &str = r#"import sys
secret = int(open(sys.argv[1]).read().split()[0])
feedback = sys.argv[3]
def done(code, why):
    open(feedback + "/judgemessage.txt", "w").write(why)
    sys.exit(code)
for _ in range(7):
    line = sys.stdin.readline()
    if not line:
        done(43, "no guess")
    try:
        guess = int(line)
    except ValueError:
        done(43, "not a guess: " + line.strip())
    print("<" if guess < secret else ">" if guess > secret else "=", flush=True)
    if guess == secret:
        done(42, "guessed")
done(43, "seven guesses, none right")
"#;

#[test]
fn interactive_packages_play_every_submission_against_their_interactor() {
    let project = Project::new();
    let files: Vec<(&str, &str)> = vec![
        (
            "guess/problem.yaml",
            "problem_format_version: 2025-09\nname: Guess\ntype: interactive\nlimits:\n  time_limit: 1\n",
        ),
        ("guess/data/sample/1.in", "17\n"),
        ("guess/data/sample/1.ans", "17\n"),
        ("guess/data/secret/1.in", "99\n"),
        ("guess/data/secret/1.ans", "99\n"),
        ("guess/input_validators/any.py", "import sys\nsys.exit(42)\n"),
        ("guess/output_validator/guess.py", GUESS_INTERACTOR),
        (
            "guess/submissions/accepted/halves.py",
            "low, high = 1, 100\nwhile True:\n    g = (low + high) // 2\n    print(g, flush=True)\n    r = input()\n    if r == '=': break\n    if r == '<': low = g + 1\n    else: high = g - 1\n",
        ),
        ("guess/submissions/wrong_answer/ones.py", "while True:\n    print(1, flush=True)\n    if input() == '=': break\n"),
        ("guess/submissions/time_limit_exceeded/silent.py", "import time\ntime.sleep(30)\n"),
        ("guess/submissions/run_time_error/crash.py", "raise SystemExit(3)\n"),
    ];
    for (path, text) in &files {
        project.file(path, text);
    }
    let output = project.verify(&["guess", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, _) = json(&output);
    for (submission, verdict) in [
        ("accepted/halves.py", "AC"),
        ("wrong_answer/ones.py", "WA"),
        ("time_limit_exceeded/silent.py", "TLE"),
        ("run_time_error/crash.py", "RE"),
    ] {
        assert_eq!(
            row(&rows, submission)["verdict"],
            verdict,
            "{}",
            dump(&output)
        );
        assert_eq!(row(&rows, submission)["ok"], true, "{}", dump(&output));
    }
}
