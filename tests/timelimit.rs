//! `grundy timelimit PKG` through the real binary: the accepted submissions are timed by CPU
//! time over several runs, the limit is the format's rule applied to the slowest, the margin to
//! each time-limit-exceeded submission is checked, and `--write` sets the limit in problem.yaml
//! keeping the rest of the file.

use crate::common;

use common::{code, dump, stdout, Project};

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

#[test]
fn a_time_limit_exceeded_submission_too_close_to_the_limit_fails() {
    let project = Project::new();
    spin(&project);
    // 1.2 s of CPU time: over the 1 s limit, but under 1 s × time_limit_to_tle 1.5.
    project.file(
        "spin/submissions/time_limit_exceeded/slowish.c",
        steady(1200),
    );
    let output = project.grundy(&["timelimit", "spin", "--runs", "1"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stdout(&output).contains("time_limit_exceeded/slowish.c: slowest case 1.2"),
        "{}",
        dump(&output)
    );
    assert!(stdout(&output).contains("too close"), "{}", dump(&output));
}
