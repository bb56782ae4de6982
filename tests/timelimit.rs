//! A computed time limit through the real binary. `grundy timelimit PKG`: the accepted
//! submissions are timed by CPU time over several runs, the limit is the format's rule applied to
//! the slowest, the margin to each time-limit-exceeded submission is checked, and `--write` sets
//! the limit in problem.yaml keeping the rest of the file. `verify` and `timelimit` alike: the
//! limit comes from the accepted submissions alone, and a submission that may fail never runs
//! longer than that limit's timeout.

use crate::common;

use common::{code, dump, row, stdout, verify_json, Project};

/// A C program that uses `millis` of CPU time (however fast the machine), then prints 42.
fn steady(millis: u64) -> String {
    format!(
        "#include <stdio.h>\n#include <time.h>\nint main(void) {{\n    struct timespec now;\n    \
         do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);\n    \
         while (now.tv_sec * 1000 + now.tv_nsec / 1000000 < {millis});\n    puts(\"42\");\n    \
         return 0;\n}}\n"
    )
}

const PROBLEM_YAML: &str =
    "problem_format_version: 2023-07-draft\nname: Spin\n# keep me\nlimits:\n  memory: 512 # MiB\n";

/// A 2023-07 package whose accepted submission uses 100 ms of CPU time per case: with the
/// format's defaults (ac_to_time_limit 2, time_resolution 1 s) its limit is 1 s.
fn spin(project: &Project) {
    let files: &[(&str, &str)] = &[
        ("problem.yaml", PROBLEM_YAML),
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", "42\n"),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", "42\n"),
        ("submissions/accepted/steady.c", &steady(100)),
        (
            "submissions/time_limit_exceeded/forever.c",
            "#include <time.h>\nint main(void) { volatile unsigned long n = 0; \
             time_t end = time(NULL) + 30; while (time(NULL) < end) n++; return 0; }\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("spin/{path}"), text);
    }
}

#[test]
fn the_limit_comes_from_the_accepted_cpu_times_and_is_written_keeping_the_file() {
    let project = Project::new();
    spin(&project);
    let output = project.grundy(&["timelimit", "spin", "--runs", "2", "--write"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let out = stdout(&output);
    assert!(out.contains("in 2 run(s)"), "{}", dump(&output));
    assert!(out.contains("time limit: 1s"), "{}", dump(&output));
    assert!(
        out.contains("time_limit_exceeded/forever.c: stopped at the timeout 1.5s"),
        "{}",
        dump(&output)
    );
    let yaml = std::fs::read_to_string(project.path().join("spin/problem.yaml")).unwrap();
    assert_eq!(
        yaml,
        "problem_format_version: 2023-07-draft\nname: Spin\n# keep me\nlimits:\n  time_limit: 1\n  memory: 512 # MiB\n"
    );
    // Without --write nothing is written.
    project.file("spin/problem.yaml", PROBLEM_YAML);
    let output = project.grundy(&["timelimit", "spin", "--runs", "1"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let yaml = std::fs::read_to_string(project.path().join("spin/problem.yaml")).unwrap();
    assert_eq!(yaml, PROBLEM_YAML);
}

/// Told as a warning naming it, not failed: the limit comes from the accepted submissions alone,
/// as `bt time_limit` computes it.
#[test]
fn a_time_limit_exceeded_submission_too_close_to_the_limit_is_a_warning() {
    let project = Project::new();
    spin(&project);
    // 1.2 s of CPU time: over the 1 s limit, but under 1 s × time_limit_to_tle 1.5.
    project.file(
        "spin/submissions/time_limit_exceeded/slowish.c",
        steady(1200),
    );
    let output = project.grundy(&["timelimit", "spin", "--runs", "1"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stdout(&output).contains(
            "warning: time_limit_exceeded/slowish.c: too fast for this limit: its slowest case 1.2"
        ),
        "{}",
        dump(&output)
    );
    assert!(stdout(&output).contains("too close"), "{}", dump(&output));
}

/// A `wrong_answer/` submission that spins for ever (the newer formats count it as a lower bound
/// of the limit: it may not get TLE), and one that uses 700 ms of CPU time and answers wrong.
fn wrong_answers(project: &Project) {
    project.file(
        "spin/submissions/wrong_answer/forever.c",
        "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n",
    );
    let slow = steady(700).replace("42", "41");
    project.file("spin/submissions/wrong_answer/slow.c", slow);
}

#[test]
fn verify_runs_a_submission_that_may_fail_no_longer_than_the_computed_limit_allows() {
    let project = Project::new();
    spin(&project);
    wrong_answers(&project);
    // A wall-clock backstop far behind the CPU timeout: what is tested is where the CPU time
    // stops a run, which a machine too busy to give slow.c its 0.7 s in the default backstop
    // (4 s; seen on CI's 2 cores) must not turn into the wall clock's TLE.
    project.file("runner.toml", "wall_time_limit_ms = 60000\n");
    let output = project.verify(&["spin", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = verify_json(&output);
    let package = &summary["packages"][0];
    // From the accepted run alone: 100 ms × 2, rounded up to 1 s (slow.c's 0.7 s would give 2 s).
    assert!(
        package["time_limit"]
            .as_str()
            .unwrap()
            .starts_with("1s (computed"),
        "{}",
        dump(&output)
    );
    let forever = row(&rows, "wrong_answer/forever.c");
    assert_eq!(forever["verdict"], "TLE", "{}", dump(&output));
    // Stopped at the timeout, 1 s × time_limit_to_tle 1.5 of CPU time (or, on a busy machine, by
    // the wall clock before it): not at the 60 s the accepted submissions get while the limit is
    // computed. Each stop says the CPU time the run used.
    let stops = forever["caught_by"].as_array().unwrap();
    assert_eq!(stops.len(), 2, "{}", dump(&output));
    for stop in stops {
        let message = stop["message"].as_str().unwrap();
        let cpu_ms: f64 = message
            .split(" ms of CPU time")
            .next()
            .and_then(|before| before.rsplit(' ').next())
            .and_then(|ms| ms.parse().ok())
            .unwrap_or_else(|| panic!("{message}"));
        assert!(cpu_ms < 3000.0, "{message}\n{}", dump(&output));
    }
    assert_eq!(
        row(&rows, "wrong_answer/slow.c")["verdict"],
        "WA",
        "{}",
        dump(&output)
    );
    let warnings = package["warnings"].to_string();
    assert!(
        warnings.contains(
            "time limit: the time limit 1s is tighter than the format's margin: \
             wrong_answer/slow.c's slowest run takes 0.7"
        ) && warnings.contains("which would make it 2s"),
        "{}",
        dump(&output)
    );
}

#[test]
fn timelimit_runs_a_submission_that_may_fail_once_and_no_longer_than_the_limit_allows() {
    let project = Project::new();
    spin(&project);
    wrong_answers(&project);
    let output = project.grundy(&["timelimit", "spin", "--runs", "2"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let out = stdout(&output);
    assert!(out.contains("time limit: 1s"), "{}", dump(&output));
    assert!(!out.contains("not timed as accepted"), "{}", dump(&output));
    let line = out
        .lines()
        .find(|l| l.contains("warning: wrong_answer/forever.c: too slow for this limit: over it ("))
        .unwrap_or_else(|| panic!("{}", dump(&output)));
    assert!(line.contains("stopped at the timeout"), "{}", dump(&output));
    let cpu: f64 = line
        .split("over it (")
        .nth(1)
        .and_then(|rest| rest.split('s').next())
        .and_then(|seconds| seconds.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(cpu < 3.0, "{line}");
    assert!(
        out.contains(
            "wrong_answer/slow.c: the time limit 1s is tighter than the format's margin: its \
             slowest case takes 0.7"
        ) && out.contains("which would make the limit 2s"),
        "{}",
        dump(&output)
    );
}

/// `--format json`: a line per package (its runs, the limit, each bound and whether it is kept),
/// then a summary counting packages.
#[test]
fn json_has_a_line_per_package_then_a_summary_of_packages() {
    let project = Project::new();
    spin(&project);
    let output = project.grundy(&["timelimit", "spin", "--runs", "1", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let lines = crate::reports::json_lines(&output);
    assert_eq!(lines.len(), 2, "{}", dump(&output));
    let package = &lines[0];
    assert_eq!(package["type"], "package", "{package}");
    let id = serde_json::json!({"problem": "spin", "subject": null, "case": null});
    assert_eq!(package["id"], id, "{package}");
    assert_eq!(package["time_limit_ms"], 1000.0, "{package}");
    let runs = &package["submissions"][0]["runs"];
    assert_eq!(runs.as_array().map(Vec::len), Some(1), "{package}");
    let bound = &package["bounds"][0];
    assert_eq!(bound["submission"], "time_limit_exceeded/forever.c");
    assert_eq!(
        (&bound["kept"], &package["ok"]),
        (&true.into(), &true.into())
    );
    let summary = &lines[1];
    let counted = ["command", "unit", "passed", "failed"].map(|k| &summary[k]);
    let expected = [
        serde_json::json!("timelimit"),
        "package".into(),
        1.into(),
        0.into(),
    ];
    assert_eq!(counted, expected.each_ref(), "{summary}");
}

/// Ctrl-C while an accepted submission is timed ends `timelimit` at once, its report marked
/// cancelled (it ended quietly, reporting nothing), with exit status 130.
#[test]
fn ctrl_c_ends_timelimit_with_its_report_marked_cancelled() {
    let project = Project::new();
    let files: &[(&str, &str)] = &[
        ("problem.yaml", PROBLEM_YAML),
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", "42\n"),
        (
            "submissions/accepted/sleeper.py",
            "import time\ntime.sleep(60)\n",
        ),
    ];
    for (path, text) in files {
        project.file(&format!("nap/{path}"), text);
    }
    let marker = project.path().display().to_string();
    let sleeping = || common::running(&marker, "sleeper.py");
    let output = project.interrupted(&["timelimit", "nap"], sleeping);
    let closing = common::cancelled_closing_line(&output);
    assert_eq!(closing, "0 packages ok, 0 not");
    assert!(!sleeping(), "the submission outlived timelimit");

    let output = project.interrupted(&["timelimit", "nap", "--format", "json"], sleeping);
    common::cancelled_summary(&output);
}

/// `grundy new --package` then `grundy timelimit` inside it: the scaffold's limit is had (exit 0),
/// its `wrong_answer/` submission is not timed as accepted, and a `time_limit_exceeded/` one as
/// fast as the accepted one is named as too fast for the limit, a warning.
#[test]
fn a_fresh_scaffold_is_timed_and_a_submission_too_fast_for_its_limit_is_named() {
    let project = Project::new();
    let scaf = project.scaffold("scaf", &["--package"]);
    let timelimit = || project.grundy_in(&scaf, &["timelimit", "--runs", "1"]);
    let fresh = timelimit();
    assert_eq!(code(&fresh), 0, "{}", dump(&fresh));
    assert!(
        !stdout(&fresh).contains("not timed as accepted"),
        "{}",
        dump(&fresh)
    );
    let accepted = std::fs::read(scaf.join("submissions/accepted/sol.py")).unwrap();
    project.file("scaf/submissions/time_limit_exceeded/quick.py", accepted);
    let output = timelimit();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        stdout(&output).contains("warning: time_limit_exceeded/quick.py: too fast for this limit"),
        "{}",
        dump(&output)
    );
}

/// An accepted submission the build stage skipped (no C compiler on the PATH) is not timed, and
/// timelimit says why in the judging stage's words, in the human report and the JSON line.
#[test]
fn an_accepted_submission_not_built_is_not_timed_and_says_why() {
    let project = Project::new();
    for (path, text) in [
        ("problem.yaml", PROBLEM_YAML),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", "42\n"),
        ("submissions/accepted/hello.py", "print(42)\n"),
        ("submissions/accepted/hello.c", &steady(0)),
    ] {
        project.file(&format!("spin/{path}"), text);
    }
    // A PATH with Python and the shell but no C compiler.
    let bin = project.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["python3", "sh"] {
        std::os::unix::fs::symlink(common::binary(tool), bin.join(tool)).unwrap();
    }
    let timelimit = |extra: &[&str]| {
        (project.command(&[&["timelimit", "spin"][..], extra].concat()))
            .env_remove("CARGO_TARGET_DIR")
            .env("PATH", &bin)
            .output()
            .unwrap()
    };
    let why = format!(
        "skipped: no compiler for C (gcc not found on PATH ({}) or in ",
        bin.display()
    );
    let human = timelimit(&[]);
    let said = format!("    error: not timed as accepted: {why}");
    assert!(
        stdout(&human).lines().any(|line| line.starts_with(&said)),
        "{}",
        dump(&human)
    );
    let json = timelimit(&["--format", "json"]);
    let package: serde_json::Value = (stdout(&json).lines())
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .find(|line| line["type"] == "package")
        .unwrap_or_else(|| panic!("{}", dump(&json)));
    let c = (package["submissions"].as_array().unwrap().iter())
        .find(|s| s["submission"] == "accepted/hello.c")
        .unwrap_or_else(|| panic!("{package}"));
    let trouble = c["trouble"][0].as_str().unwrap_or_default();
    assert!(trouble.starts_with(&why), "{c}");
}
