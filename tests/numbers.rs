//! Absurd numbers through the real binary: a limit or multiplier outside its range in
//! `problem.yaml`, DOMjudge's files, runner.toml or a flag is an error at its place, for that
//! package alone; grundy never panics (exit 101) on one, and the rest of a contest is still
//! verified, listed and judged.

use crate::common;

use common::{code, dump, stderr, stdout, verify_json, Project};

/// An input and its answer the same, so `--exec cat` passes and an echoing submission is
/// accepted.
const CASE: &[(&str, &str)] = &[
    ("data/secret/1.in", "echo\n"),
    ("data/secret/1.ans", "echo\n"),
];

/// A 2023-07 package at `at` with `problem_yaml`'s limits, one case and an accepted submission,
/// and `extra` files.
fn package(project: &Project, at: &str, limits: &str, extra: &[(&str, &str)]) {
    let yaml = format!("problem_format_version: 2023-07\nname: Echo\n{limits}");
    project.file(&format!("{at}/problem.yaml"), yaml);
    let echo = "import sys\nsys.stdout.write(sys.stdin.read())\n";
    project.file(&format!("{at}/submissions/accepted/echo.py"), echo);
    for (path, text) in CASE.iter().chain(extra) {
        project.file(&format!("{at}/{path}"), text);
    }
}

/// This machine's memory in MiB, as the kernel reports it (read apart from grundy).
fn machine_mib() -> u64 {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .map(|n| n.trim().parse::<u64>().unwrap())
        .unwrap();
    kib / 1024
}

/// An absurd package: its folder, its limits and files, and the start of its error, located.
type Absurd = (
    &'static str,
    String,
    Vec<(&'static str, &'static str)>,
    String,
);

/// Each absurd package of the contest.
fn absurd() -> Vec<Absurd> {
    let seconds = "a number of seconds from 0.001 to 86400 (a millisecond to a day)";
    let limit = |value: &str| format!("limits:\n  time_limit: {value}\n");
    vec![
        (
            "huge",
            limit("1e300"),
            vec![],
            format!("huge/problem.yaml:4:15: limits.time_limit must be {seconds}, found 1e300"),
        ),
        (
            "tiny",
            limit("1e-300"),
            vec![],
            "tiny/problem.yaml:4:15: limits.time_limit must be".into(),
        ),
        (
            "negative",
            limit("-1"),
            vec![],
            "negative/problem.yaml:4:15: limits.time_limit must be".into(),
        ),
        (
            "nan",
            limit(".nan"),
            vec![],
            "nan/problem.yaml:4:15: limits.time_limit must be".into(),
        ),
        (
            "multiplier",
            "limits:\n  time_multipliers:\n    ac_to_time_limit: 1e300\n".into(),
            vec![],
            "multiplier/problem.yaml:5:23: limits.time_multipliers.ac_to_time_limit must be a \
             number from 1 to 100, found 1e300"
                .into(),
        ),
        (
            "timelimit",
            String::new(),
            vec![(".timelimit", "1e300\n")],
            format!("timelimit/.timelimit:1:1: must hold the time limit, {seconds}, found `1e300`"),
        ),
        (
            "ini",
            String::new(),
            vec![("domjudge-problem.ini", "timelimit = 0.0001\n")],
            format!("ini/domjudge-problem.ini:1:13: timelimit must be {seconds}, found `0.0001`"),
        ),
        (
            "memory",
            "limits:\n  memory: 99999999999\n".into(),
            vec![],
            format!(
                "memory/problem.yaml:4:11: limits.memory must be a whole number of MiB from 1 to \
                 {} (this machine's memory), found 99999999999",
                machine_mib()
            ),
        ),
    ]
}

#[test]
fn verify_names_each_absurd_package_where_it_is_wrong_and_verifies_the_rest() {
    let project = Project::new();
    package(&project, "contest/good", "", &[]);
    let cases = absurd();
    for (at, limits, extra, _) in &cases {
        package(&project, &format!("contest/{at}"), limits, extra);
    }
    let junit = project.path().join("verify.xml");
    let junit_arg = junit.display().to_string();
    let output = project.verify(&["contest", "--format", "json", "--junit", &junit_arg]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let (rows, summary) = verify_json(&output);
    assert_eq!(
        rows.len(),
        1,
        "only the good package is judged\n{}",
        dump(&output)
    );
    assert_eq!(rows[0]["package"], "good", "{}", dump(&output));
    assert_eq!(rows[0]["verdict"], "AC", "{}", dump(&output));
    assert_eq!(summary["packages"][0]["valid"], true, "{}", dump(&output));
    let unreadable: Vec<&str> = summary["unreadable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert_eq!(unreadable.len(), cases.len(), "{}", dump(&output));
    for (_, _, _, error) in &cases {
        assert!(
            unreadable
                .iter()
                .any(|e| e.contains(&format!("/contest/{error}"))),
            "{error}\n{}",
            dump(&output)
        );
    }
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    assert!(xml.contains("testsuite name=\"good\""), "{xml}");
    // The human report says the same, each error once, and still verifies the good package.
    let output = project.verify(&["contest", "-q"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    for (_, _, _, error) in &cases {
        assert_eq!(
            stdout(&output).matches(error.as_str()).count(),
            1,
            "{error}\n{}",
            dump(&output)
        );
    }
    assert!(
        stdout(&output).contains("good: package valid"),
        "{}",
        dump(&output)
    );
}

#[test]
fn check_and_list_fail_only_the_absurd_package() {
    let project = Project::new();
    package(&project, "fixtures/good", "", &[]);
    package(
        &project,
        "fixtures/huge",
        "limits:\n  time_limit: 1e300\n",
        &[],
    );
    let error = "fixtures/huge/problem.yaml:4:15: limits.time_limit must be a number of seconds";

    let output = project.grundy(&["list"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let listed = stdout(&output);
    assert!(
        listed.contains("\ngood ") && listed.contains("\nhuge "),
        "{}",
        dump(&output)
    );
    assert!(stderr(&output).contains(error), "{}", dump(&output));

    let output = project.grundy(&["check", "--exec", "cat", "-v"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert_eq!(
        common::verdict_of(&output, "huge/secret/1"),
        "JE",
        "{}",
        dump(&output)
    );
    assert!(stdout(&output).contains(error), "{}", dump(&output));
    assert_eq!(
        common::verdict_of(&output, "good/secret/1"),
        "AC",
        "{}",
        dump(&output)
    );
}

#[test]
fn timelimit_generate_and_stress_refuse_an_absurd_package() {
    let project = Project::new();
    let generators = [
        ("generators/gen.py", "print('echo')\n"),
        (
            "generators/generators.yaml",
            "solution: /submissions/accepted/echo.py\ndata:\n  secret:\n    data:\n      r: gen.py {seed}\n",
        ),
    ];
    for (at, limits, extra, error) in absurd() {
        let extra: Vec<_> = extra.into_iter().chain(generators).collect();
        package(&project, at, &limits, &extra);
        for args in [
            vec!["timelimit", at],
            vec!["generate", at],
            vec!["stress", at, "--exec", "cat", "--cases", "1"],
        ] {
            let output = project.grundy(&args);
            assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
            assert!(
                stderr(&output).contains(&error),
                "{args:?}\n{}",
                dump(&output)
            );
        }
        assert!(
            !project.path().join(at).join("data/secret/r.in").exists(),
            "{at}: nothing is generated"
        );
    }
}

#[test]
fn memory_past_this_machine_is_refused_in_runner_toml_and_flags_naming_both_figures() {
    let project = Project::new();
    project.case("nim/1", "1 2\n", "win\n");
    let machine = machine_mib();
    let over = (machine + 1).to_string();
    let range = format!("a whole number of MiB from 1 to {machine} (this machine's memory)");
    for flag in ["--memory-limit", "--output-limit"] {
        let output = project.grundy(&["check", flag, &over]);
        assert_eq!(code(&output), 2, "{}", dump(&output));
        assert!(
            stderr(&output).contains(&format!("`{over}` is not {range}")),
            "{}",
            dump(&output)
        );
    }
    for key in ["memory_limit_mb", "output_limit_mb"] {
        project.file("runner.toml", format!("{key} = {over}\n"));
        let output = project.grundy(&["check"]);
        assert_eq!(code(&output), 2, "{}", dump(&output));
        assert!(
            stderr(&output).contains(&format!(
                "runner.toml:1:19: {key} must be {range}, not {over}"
            )),
            "{}",
            dump(&output)
        );
    }
    project.file("runner.toml", format!("memory_limit_mb = {machine}\n"));
    let output = project.grundy(&["check"]);
    assert_eq!(
        code(&output),
        0,
        "this machine's memory itself is fine\n{}",
        dump(&output)
    );
}

#[test]
fn a_count_of_any_size_on_the_command_line_is_taken_without_overflow() {
    let project = Project::new();
    project.case("nim/1", "1 2\n", "win\n");
    let output = project.grundy(&["check", "--slowest", &u64::MAX.to_string()]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(stdout(&output).contains("nim/1"), "{}", dump(&output));
}
