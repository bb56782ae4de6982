//! `grundy stress`: a planted bug is caught and shrunk, the counterexample can be rebuilt and
//! saved, and every real problem's solver agrees with its brute force.

use crate::common;

use std::path::Path;

use common::*;

/// The lines of a titled block (`input:` and the indented lines under it) of a stress report.
fn block(report: &str, title: &str) -> Vec<String> {
    report
        .lines()
        .skip_while(|line| *line != format!("{title}:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .map(|line| line[2..].to_string())
        .collect()
}

/// `--seed 123 --scale 4` from the report's `grundy gen ...` line: (seed, scale).
fn recipe(report: &str) -> (String, String) {
    let line = report
        .lines()
        .find(|l| l.contains("grundy gen "))
        .unwrap_or_else(|| panic!("no gen command in\n{report}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |flag: &str| {
        let at = words.iter().position(|w| *w == flag).unwrap();
        words[at + 1].trim_end_matches('`').to_string()
    };
    (after("--seed"), after("--scale"))
}

#[test]
fn a_planted_bug_is_caught_early_and_shrunk_to_a_few_heaps() {
    let project = Project::new();
    for seed in ["1", "2", "3", "4", "5"] {
        let output =
            project.grundy(&["stress", "test-wrong-nim", "--cases", "300", "--seed", seed]);
        assert_eq!(code(&output), 1, "{}", dump(&output));
        let report = stdout(&output);
        assert!(
            report.contains(&format!("of `grundy stress test-wrong-nim --seed {seed}`")),
            "{report}"
        );
        let input = block(&report, "input");
        assert_eq!(input.len(), 1, "one position is enough\n{report}");
        let heaps: Vec<u64> = input[0]
            .split_whitespace()
            .map(|h| h.parse().unwrap())
            .collect();
        // The bug ignores heaps after the second: it takes three, and a third that matters.
        assert_eq!(heaps.len(), 3, "{report}");
        assert_ne!(heaps[2], 0, "{report}");
        assert!(heaps.iter().all(|&h| h <= 4), "small numbers\n{report}");
        let expected = block(&report, "expected output (brute force)");
        let actual = block(&report, "actual output (solver)");
        assert_ne!(expected, actual, "{report}");
        assert!(report.contains("WA wrong answer"), "{report}");
        assert!(
            report.contains("-win") || report.contains("-lose"),
            "the diff\n{report}"
        );
        let last = closing_line(&output);
        assert!(
            last.starts_with("stress test-wrong-nim: case ")
                && last.contains(&format!("seed {seed}")),
            "{last}"
        );
        let case: u64 = last.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert!(case <= 300, "{last}");
    }
}

#[test]
fn the_reported_case_is_rebuilt_by_gen_and_fails_again() {
    let project = Project::new();
    let output = project.grundy(&["stress", "test-wrong-nim", "--seed", "9"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (seed, scale) = recipe(&stdout(&output));
    let gen = project.grundy(&[
        "gen",
        "test-wrong-nim",
        "again",
        "--seed",
        &seed,
        "--scale",
        &scale,
    ]);
    assert_eq!(code(&gen), 0, "{}", dump(&gen));
    let check = project.grundy(&["check", "test-wrong-nim"]);
    assert_eq!(code(&check), 1, "{}", dump(&check));
    // The same seed finds the same case, whatever the number of workers.
    let again = project.grundy(&["stress", "test-wrong-nim", "--seed", "9", "-j", "1"]);
    let without_time = |text: String| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("stress "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        without_time(stdout(&output)),
        without_time(stdout(&again)),
        "{}",
        dump(&again)
    );
}

/// Every file below `dir`, relative and sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                found.extend(files(&path).into_iter().map(|f| format!("{name}/{f}")));
            } else {
                found.push(path.file_name().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

#[test]
fn save_writes_one_case_that_fails_the_wrong_solver_and_passes_the_right_one() {
    let project = Project::new();
    let output = project.grundy(&["stress", "test-wrong-nim", "--seed", "3", "--save"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let folder = project.path().join("fixtures/test-wrong-nim");
    let written = files(&folder);
    assert_eq!(written.len(), 3, "{written:?}\n{}", dump(&output));
    let stem = written[1].trim_end_matches(".in").to_string();
    assert!(stem.starts_with("stress/seed-3-case-"), "{written:?}");
    assert_eq!(
        written,
        [
            format!("{stem}.gen"),
            format!("{stem}.in"),
            format!("{stem}.out")
        ]
    );
    let input = project.read(&format!("fixtures/test-wrong-nim/{stem}.in"));
    assert_eq!(input.lines().count(), 1, "the shrunk input: {input:?}");
    assert_eq!(
        block(&stdout(&output), "input"),
        input.lines().map(str::to_string).collect::<Vec<_>>()
    );
    let note = project.read(&format!("fixtures/test-wrong-nim/{stem}.gen"));
    assert!(
        note.starts_with("grundy stress test-wrong-nim --seed 3 --save\n"),
        "{note}"
    );
    assert!(
        note.contains("shrunk") && note.contains("grundy gen test-wrong-nim"),
        "{note}"
    );
    assert!(
        stdout(&output).contains(&format!("wrote fixtures/test-wrong-nim/{stem}.in")),
        "{}",
        dump(&output)
    );

    // The expected output is the brute force's: the wrong solver fails it, the right one passes.
    let check = project.grundy(&["check", "test-wrong-nim"]);
    assert_eq!(code(&check), 1, "{}", dump(&check));
    assert!(
        closing_line(&check).ends_with("0 passed, 1 failed"),
        "{}",
        dump(&check)
    );
    for extension in ["in", "out"] {
        let text = project.read(&format!("fixtures/test-wrong-nim/{stem}.{extension}"));
        project.file(&format!("fixtures/nim/{stem}.{extension}"), text);
    }
    let check = project.grundy(&["check", "nim"]);
    assert_eq!(code(&check), 0, "{}", dump(&check));
    assert_eq!(closing_line(&check), "1 passed, 0 failed");

    // Saving the same counterexample again never overwrites: it picks a fresh name.
    let output = project.grundy(&["stress", "test-wrong-nim", "--seed", "3", "--save"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let again = files(&folder);
    assert_eq!(again.len(), 6, "{again:?}");
    assert!(again.contains(&format!("{stem}-2.in")), "{again:?}");
    assert_eq!(
        project.read(&format!("fixtures/test-wrong-nim/{stem}-2.in")),
        input
    );
}

#[test]
fn every_problem_agrees_with_its_brute_force() {
    let project = Project::new();
    for problem in [
        "lieges-of-legendre",
        "nim",
        "powers-of-two",
        "s-nim",
        "set-nim",
    ] {
        let output = project.grundy(&["stress", problem, "--cases", "400", "--seed", "2024"]);
        assert_eq!(code(&output), 0, "{}", dump(&output));
        let line = closing_line(&output);
        assert!(
            line.starts_with(&format!(
                "stress {problem}: 400 cases, all agree with the brute force ("
            )) && line.ends_with("s, seed 2024, scales 1 to 1000)"),
            "{line}"
        );
    }
    let output = project.grundy(&["stress", "s-nim", "--cases", "50", "--size", "small"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        closing_line(&output).ends_with(", scale 8)"),
        "{}",
        dump(&output)
    );
    assert!(
        closing_line(&output).contains("seed "),
        "a random seed is printed"
    );
}

#[test]
fn usage_errors_exit_2() {
    let project = Project::new();
    for args in [
        &["stress", "no-such-problem"][..],
        &["stress", "nim", "--cases", "0"],
        &["stress", "nim", "--size", "tiny"],
    ] {
        let output = project.grundy(args);
        assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
    }
}

#[test]
fn an_external_program_is_stressed_under_the_check_exec_limits() {
    let project = Project::new();
    let grundy = env!("CARGO_BIN_EXE_grundy");
    let right = format!("'{grundy}' solve nim");
    let output = project.grundy(&["stress", "nim", "--exec", &right, "--cases", "60"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        closing_line(&output).contains("60 cases, all agree"),
        "{}",
        dump(&output)
    );

    let wrong = format!("'{grundy}' solve test-wrong-nim");
    let output = project.grundy(&["stress", "nim", "--exec", &wrong, "--seed", "5", "--save"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let report = stdout(&output);
    assert!(report.contains("actual output (program):"), "{report}");
    assert_eq!(block(&report, "input").len(), 1, "{report}");
    let saved = files(&project.path().join("fixtures/nim"));
    assert_eq!(saved.len(), 3, "{saved:?}");
    let note = project.read(&format!("fixtures/nim/{}", saved[0]));
    assert!(
        note.starts_with("grundy stress nim --seed 5 --exec "),
        "{note}"
    );
    assert!(note.contains("solve test-wrong-nim"), "{note}");

    let output = project.grundy(&["stress", "nim", "--exec", "/no/such/program"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
}

/// A package judging the sum of `n` numbers: a Python generator `gen.py {seed} n`, a validator,
/// an accepted solution; `wrong.py` beside it is wrong only once `n` reaches 7.
fn sum_package(project: &Project) -> std::path::PathBuf {
    let files: [(&str, &str); 6] = [
        ("problem.yaml", "problem_format_version: 2025-09\nname: Sum\nuuid: 2d2f1f0e-5c1b-4b8e-9a3e-0a4c7d1e9b21\nlicense: unknown\nlimits:\n  time_limit: 2.0\n"),
        (
            "generators/generators.yaml",
            "solution: /submissions/accepted/sol.py\ndata:\n  sample:\n    data:\n      \"1\":\n        in: \"2\\n1 2\\n\"\n  secret:\n    data:\n      random:\n        generate: gen.py {seed} 40\n",
        ),
        (
            "generators/gen.py",
            "import random, sys\nrandom.seed(int(sys.argv[1]))\nn = int(sys.argv[2])\nprint(n)\nprint(*[random.randint(1, 9) for _ in range(n)])\n",
        ),
        (
            "input_validators/validate.py",
            "import sys\nlines = sys.stdin.read().split('\\n')\nn = int(lines[0])\nvalues = lines[1].split() if n else []\nsys.exit(42 if len(values) == n and all(v.isdigit() for v in values) else 43)\n",
        ),
        (
            "submissions/accepted/sol.py",
            "input()\nprint(sum(map(int, input().split())))\n",
        ),
        (
            "wrong.py",
            "n = int(input())\nprint(sum(map(int, input().split())) + (n >= 7))\n",
        ),
    ];
    let root = project.path().join("sum");
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    root
}

#[test]
fn a_package_is_stressed_without_rust_shrunk_by_its_generators_size_and_saved_once() {
    let project = Project::new();
    let root = sum_package(&project);
    let wrong = root.join("wrong.py");
    let wrong = wrong.to_str().unwrap();
    let stress = |extra: &[&str]| {
        let mut args = vec![
            "stress", "sum", "--exec", wrong, "--cases", "4", "--seed", "5",
        ];
        args.extend(extra);
        project.grundy(&args)
    };
    let output = stress(&["--save"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let report = stdout(&output);
    // Halving 40 gives 20 and 10, 5 passes; one less from 10 gives 9, 8, 7; 3 and 6 pass.
    let made_by = report
        .lines()
        .find(|l| l.contains("input made by `gen.py "))
        .unwrap_or_else(|| panic!("no generator line\n{report}"));
    let words: Vec<&str> = made_by.split('`').nth(1).unwrap().split(' ').collect();
    assert_eq!(words.len(), 3, "{made_by}");
    assert_eq!(words[2], "7", "shrunk to the smallest failing n\n{report}");
    let seed = words[1];
    assert!(report.contains("shrunk from `gen.py "), "{report}");
    let input = block(&report, "input");
    assert_eq!(input.len(), 2, "{report}");
    assert_eq!(input[0], "7");
    let sum: u64 = input[1].split(' ').map(|v| v.parse::<u64>().unwrap()).sum();
    assert_eq!(
        block(&report, "expected output (/submissions/accepted/sol.py)"),
        [sum.to_string()]
    );
    assert_eq!(
        block(&report, "actual output (program)"),
        [(sum + 1).to_string()]
    );
    assert!(report.contains("WA wrong answer"), "{report}");
    let saved_in = root.join(format!("data/secret/stress-{seed}.in"));
    let saved_ans = root.join(format!("data/secret/stress-{seed}.ans"));
    assert_eq!(
        std::fs::read_to_string(&saved_in).unwrap(),
        format!("7\n{}\n", input[1])
    );
    assert_eq!(
        std::fs::read_to_string(&saved_ans).unwrap(),
        format!("{sum}\n")
    );

    // The accepted solution agrees with itself on every case; --generator names another size.
    let accepted = root.join("submissions/accepted/sol.py");
    let agree = project.grundy(&[
        "stress",
        "sum",
        "--exec",
        accepted.to_str().unwrap(),
        "--cases",
        "3",
        "--generator",
        "gen.py {seed} 3",
    ]);
    assert_eq!(code(&agree), 0, "{}", dump(&agree));
    assert!(stdout(&agree).contains("3 cases, all agree with /submissions/accepted/sol.py"));
    // A generator command without a seed is a usage error.
    let seedless = project.grundy(&[
        "stress",
        "sum",
        "--exec",
        wrong,
        "--generator",
        "gen.py 1 3",
    ]);
    assert_eq!(code(&seedless), 2, "{}", dump(&seedless));
}

/// `--format json`: a line per case tried (named by problem, subject and number, its seed a
/// string, since a 64-bit seed is more than a double holds), then the counterexample once
/// shrunk, then a summary counting cases; stdout holds nothing else. `--junit` has a test case
/// per case tried, the failing one failed.
#[test]
fn json_has_a_line_per_case_the_counterexample_then_a_summary_of_cases() {
    let project = Project::new();
    let junit = project.path().join("stress.xml");
    let args = [
        "stress",
        "test-wrong-nim",
        "--seed",
        "1",
        "--format",
        "json",
        "--junit",
        junit.to_str().unwrap(),
    ];
    let output = project.grundy(&args);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let lines = crate::reports::json_lines(&output);
    let (summary, rest) = lines.split_last().expect("a summary");
    let (found, cases) = rest.split_last().expect("a counterexample");
    assert_eq!(found["type"], "counterexample", "{found}");
    for (at, case) in cases.iter().enumerate() {
        assert_eq!(case["type"], "case", "{case}");
        let number = (at + 1).to_string();
        let id = serde_json::json!({
            "problem": "test-wrong-nim",
            "subject": "built-in",
            "case": number,
        });
        assert_eq!(case["id"], id, "{case}");
        assert!(case["seed"].is_string(), "{case}");
    }
    let failed: Vec<_> = cases.iter().filter(|c| c["verdict"] != "AC").collect();
    assert_eq!(failed.len(), 1, "{}", dump(&output));
    assert_eq!(failed[0]["verdict"], "WA");
    assert_eq!(found["id"], failed[0]["id"], "{found}");
    assert_eq!(found["verdict"], "WA", "{found}");
    assert_eq!(found["rerun"], "grundy stress test-wrong-nim --seed 1");
    assert!(!found["input"].as_str().unwrap().is_empty(), "{found}");
    assert_ne!(found["expected"], found["output"], "{found}");
    let counted = [
        "type",
        "command",
        "unit",
        "failed",
        "total",
        "seed",
        "cancelled",
    ];
    let expected = serde_json::json!(["summary", "stress", "case", 1, 1000, "1", false]);
    assert_eq!(
        serde_json::json!(counted.map(|k| &summary[k])),
        expected,
        "{summary}"
    );
    assert_eq!(summary["passed"], cases.len() - 1, "{summary}");

    let xml = std::fs::read_to_string(&junit).expect("the JUnit report");
    assert_eq!(xml.matches("<testcase ").count(), cases.len(), "{xml}");
    let name = format!(
        "name=\"test-wrong-nim/{}\"",
        failed[0]["id"]["case"].as_str().unwrap()
    );
    assert!(xml.contains(&name), "{xml}");
    let failures: Vec<&str> = xml.lines().filter(|l| l.contains("<failure ")).collect();
    assert_eq!(failures.len(), 1, "{xml}");
    assert!(failures[0].contains("type=\"WA\""), "{xml}");
}

/// Whether a program `--exec` gave (a command line naming `script` in the folder `marker`)
/// runs: grundy's own command line names it too, after `--exec`.
fn exec_runs(marker: &str, script: &str) -> bool {
    crate::exec_support::processes_with(marker)
        .iter()
        .any(|(_, cmd)| cmd.contains(script) && !cmd.contains("--exec"))
}

/// Ctrl-C while the program under test runs ends `stress` at once, with the command that
/// repeats the run and its report marked cancelled, exit status 130 (it said only the command,
/// on stderr, and had no `--format json`), for a built-in problem and a package alike.
#[test]
fn ctrl_c_ends_stress_with_its_report_marked_cancelled() {
    let project = Project::new();
    let root = sum_package(&project);
    let sleeper = project.file("sleeper.py", "import time\ntime.sleep(60)\n");
    let marker = project.path().display().to_string();
    let exec = format!("python3 '{}'", sleeper.display());
    let sleeping = || exec_runs(&marker, "sleeper.py");
    let stress = |problem: &str, extra: &[&str]| {
        let mut args = vec![
            "stress",
            problem,
            "--seed",
            "3",
            "--time-limit",
            "120000",
            "--exec",
            &exec,
        ];
        args.extend(extra);
        let output = project.interrupted(&args, sleeping);
        assert!(
            !sleeping(),
            "the program outlived stress\n{}",
            dump(&output)
        );
        output
    };

    let output = stress("nim", &[]);
    let last = cancelled_closing_line(&output);
    let report = stdout(&output);
    let said = "Cancelled (Ctrl-C): `grundy stress nim --seed 3 --exec ";
    assert!(report.contains(said), "{}", dump(&output));
    assert!(report.contains("` repeats this run."), "{}", dump(&output));
    assert!(last.starts_with("0 passed, 0 failed"), "{}", dump(&output));

    let package = root.display().to_string();
    for problem in ["nim", package.as_str()] {
        let output = stress(problem, &["--format", "json"]);
        let summary = cancelled_summary(&output);
        let ended = ["command", "passed", "failed"].map(|k| &summary[k]);
        let expected = serde_json::json!(["stress", 0, 0]);
        assert_eq!(serde_json::json!(ended), expected, "{summary}");
        assert!(
            summary["rerun"].as_str().unwrap().contains("--seed 3"),
            "{summary}"
        );
    }
}
