//! `grundy checktestdata` through the real binary (the Kattis protocol's exit codes, its
//! messages, the bound of what the script's values hold), and the other commands that check
//! inputs with a package's scripts getting the same contained, bounded run: `validate` (held to
//! the package's validation memory limit), `generate`'s validation and `stress`'s check of each
//! input it generates.

use crate::common;

use std::process::Output;

use common::{code, dump, stderr, stdout, Project};

/// `grundy checktestdata ARGS` in `project`, `input` on stdin.
fn checktestdata(project: &Project, args: &[&str], input: &str) -> Output {
    let mut all = vec!["checktestdata"];
    all.extend(args);
    project.grundy_fed(&all, input)
}

#[test]
fn checktestdata_answers_by_the_kattis_protocol() {
    let project = Project::new();
    project.file("sum.ctd", "INT(1, 1000, a) SPACE\nINT(1, 1000) NEWLINE\n");
    let valid = checktestdata(&project, &["sum.ctd"], "1 2\n");
    assert_eq!(code(&valid), 42, "{}", dump(&valid));
    assert_eq!(stderr(&valid), "");
    let invalid = checktestdata(&project, &["sum.ctd"], "1 0\n");
    assert_eq!(code(&invalid), 43, "{}", dump(&invalid));
    assert_eq!(
        stderr(&invalid),
        "input line 1, column 3: expected an integer in [1, 1000], found \"0\" (script line 2)\n"
    );
    // The input may be a file; nothing goes to stdout either way.
    project.file("1.in", "7 8\n");
    let from_file = checktestdata(&project, &["sum.ctd", "1.in"], "");
    assert_eq!(code(&from_file), 42, "{}", dump(&from_file));
    assert_eq!(stdout(&from_file), "");
    // A script at fault exits 2, whether it does not parse or fails while running.
    project.file("undefined.ctd", "ASSERT(x == 1)\n");
    let fault = checktestdata(&project, &["undefined.ctd"], "");
    assert_eq!(code(&fault), 2, "{}", dump(&fault));
    assert_eq!(
        stderr(&fault),
        "script line 1: the variable `x` has no value\n"
    );
    project.file("broken.ctd", "INT(1, 1000 a)\n");
    let syntax = checktestdata(&project, &["broken.ctd"], "");
    assert_eq!(code(&syntax), 2, "{}", dump(&syntax));
    assert!(
        stderr(&syntax).starts_with("script line 1, column 13: expected `)`"),
        "{}",
        dump(&syntax)
    );
}

#[test]
fn what_the_values_of_a_script_hold_is_bounded_as_asked() {
    let project = Project::new();
    // Two thousand elements of 41 KiB each: about 80 MiB.
    project.file("many.ctd", "REPI(i, 2000)\nSET(a[i] = 10^99000 + i)\nEND\n");
    let bounded = checktestdata(&project, &["--memory", "16", "many.ctd"], "");
    assert_eq!(code(&bounded), 2, "{}", dump(&bounded));
    assert_eq!(
        stderr(&bounded),
        "script line 2: the script's values would hold more than 16 MiB, the most the \
         interpreter lets them hold\n"
    );
    let roomy = checktestdata(&project, &["--memory", "128", "many.ctd"], "");
    assert_eq!(code(&roomy), 42, "{}", dump(&roomy));
}

/// A 2023-07 package `pkg` below `fixtures/` whose validation memory limit is 64 MiB (so its
/// scripts' values may hold 32), its input validator `check.ctd` holding `script`, with `files`
/// besides.
fn package(project: &Project, script: &str, files: &[(&str, &str)]) {
    project.file(
        "fixtures/pkg/problem.yaml",
        "problem_format_version: 2023-07-draft\nname: Pkg\nlimits:\n  validation_memory: 64\n",
    );
    project.file("fixtures/pkg/input_validators/check.ctd", script);
    for (path, text) in files {
        project.file(&format!("fixtures/pkg/{path}"), text);
    }
}

/// Each element holds a number of 41 KiB: the script asked grundy itself for 41 GB before.
const BLOW_UP: &str = "REPI(i, 1000000)\nSET(a[i] = 10^99000 + i)\nEND\n";

/// What the interpreter says when its values reach half of the package's 64 MiB.
const HELD_32_MIB: &str = "script line 2: the script's values would hold more than 32 MiB, the \
                           most the interpreter lets them hold";

#[test]
fn validate_holds_a_script_to_the_packages_validation_memory_limit() {
    let project = Project::new();
    // 72 MiB of input cannot be read in 64 MiB; the script would accept it.
    let big = format!("1\n{}\n", "#".repeat(72 << 20));
    package(
        &project,
        "INT(1, 9) NEWLINE REGEX(\"#*\") NEWLINE\n",
        &[
            ("data/sample/1.in", "1\n#\n"),
            ("data/sample/1.ans", "1\n"),
            ("data/secret/big.in", &big),
            ("data/secret/big.ans", "1\n"),
        ],
    );
    let output = project.grundy(&["validate", "pkg"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "pkg: the input validator check.ctd is broken on secret/big: the interpreter exceeded \
             the memory limit of 64 MiB (the package's validation limits: 60 s of CPU time, 64 MiB)"
        ),
        "{text}"
    );
    assert!(text.contains("1 passed, 1 failed"), "{text}");
}

/// The generator of `pkg` (Python, as `generators.yaml` runs it) and its solution.
const GENERATED: &[(&str, &str)] = &[
    (
        "generators/generators.yaml",
        "solution: /submissions/accepted/sol.py\ndata:\n  secret:\n    data:\n      random:\n        \
         generate: gen.py {seed}\n",
    ),
    (
        "generators/gen.py",
        "import random, sys\nrandom.seed(int(sys.argv[1]))\nprint(random.randint(1, 9))\n",
    ),
    ("submissions/accepted/sol.py", "print(input())\n"),
];

#[test]
fn generate_validates_what_it_made_within_the_bounds() {
    let project = Project::new();
    package(&project, BLOW_UP, GENERATED);
    let output = project.grundy(&["generate", "fixtures/pkg"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stderr(&output).contains(&format!(
            "INVALID the input validator check.ctd is broken on secret/random: {HELD_32_MIB}"
        )),
        "{}",
        dump(&output)
    );
}

#[test]
fn stress_checks_each_input_within_the_bounds() {
    let project = Project::new();
    package(&project, BLOW_UP, GENERATED);
    let solution = project
        .path()
        .join("fixtures/pkg/submissions/accepted/sol.py");
    let output = project.grundy(&[
        "stress",
        "fixtures/pkg",
        "--exec",
        &format!("python3 {}", solution.display()),
        "--cases",
        "1",
        // The package has no data to time its accepted submission on, so no limit but this.
        "--time-limit",
        "2000",
    ]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let said = stderr(&output);
    assert!(
        said.contains("error: the input validator check.ctd failed on the input of `gen.py ")
            && said.contains(HELD_32_MIB),
        "{}",
        dump(&output)
    );
}
