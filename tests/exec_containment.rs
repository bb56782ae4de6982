//! `check --exec` through the real binary: what a judged program can leave behind. Processes
//! (a fork bomb, a child that leaves the session, Ctrl-C of the runner), files, and what it can
//! see of the runner's environment. Programs are found in /proc by the project's temporary
//! folder, which their command lines hold. Each run also holds ordinary cases, which must still
//! be judged correctly.

use crate::common;
use crate::exec_support;

use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use exec_support::*;

in_each_launch!(fork_bomb:
    a_bounded_fork_bomb_is_stopped_and_leaves_no_process,
    without_namespaces_a_fork_bomb_is_stopped_and_leaves_no_process,
    as_nobody_without_namespaces_a_fork_bomb_is_stopped_and_leaves_no_process
);

fn fork_bomb(launch: Launch) {
    let project = fixture();
    assert_containment(&project, launch);
    // Every process starts 3 children, down to depth 6 (1093 processes if nothing stopped it),
    // and all of them sleep 20 s: harmless even if containment failed.
    let program = c_program(
        &project,
        "bomb",
        r#"int depth = 0;
for (int k = 0; depth < 6 && k < 3; k++) {
    pid_t child = fork();
    if (child == 0) {
        depth++;
        k = -1;
    }
}
sleep(20);
_exit(0);"#,
    );
    let marker = project.path().display().to_string();
    let judged = check_json_with(
        &project,
        launch,
        &[
            "check",
            "--time-limit",
            "2000",
            "--exec",
            &exec_arg(&program),
        ],
    );
    let verdict = judged.verdict(HOSTILE).to_string();
    assert!(
        verdict == "RE" || verdict == "TLE",
        "verdict {verdict}\n{}",
        judged.dump()
    );
    judged.assert_verdicts(&verdict);
    assert!(
        judged.elapsed < Duration::from_secs(15),
        "took {:?}",
        judged.elapsed
    );
    assert_no_process_left(&marker);
}

in_each_launch!(session_leaver:
    a_child_that_leaves_the_session_holding_stdout_does_not_outlive_its_case,
    without_namespaces_a_child_that_leaves_the_session_does_not_outlive_its_case,
    as_nobody_without_namespaces_a_child_that_leaves_the_session_does_not_outlive_its_case
);

fn session_leaver(launch: Launch) {
    let project = fixture();
    assert_containment(&project, launch);
    // The child calls setsid() and starts a grandchild; both keep stdout open and sleep 30 s.
    // The program itself answers and exits at once.
    let program = c_program(
        &project,
        "daemon",
        r#"fflush(stdout);
if (fork() == 0) {
    setsid();
    if (fork() == 0) {
        sleep(30);
        _exit(0);
    }
    sleep(30);
    _exit(0);
}"#,
    );
    let marker = project.path().display().to_string();
    let judged = check_json_with(
        &project,
        launch,
        &[
            "check",
            "--time-limit",
            "5000",
            "--exec",
            &exec_arg(&program),
        ],
    );
    judged.assert_verdicts("AC");
    assert!(judged.time_ms(HOSTILE) < 5000.0, "{}", judged.dump());
    assert!(
        judged.elapsed < Duration::from_secs(10),
        "took {:?}",
        judged.elapsed
    );
    assert_no_process_left(&marker);
}

#[test]
fn files_written_by_the_program_stay_out_of_the_project_and_its_environment_is_minimal() {
    let project = fixture();
    // The program cannot write outside its working folder and /tmp, so it reports what it saw
    // on stderr and fails: each case's JSON object then carries its stderr.
    let program = script_file(
        &project,
        "writer.sh",
        r#"#!/bin/sh
echo "cwd=$(pwd) entries=$(ls -A | wc -l) secret=[$GRUNDY_TEST_SECRET] path=[$PATH]" >&2
echo leftover > left-behind.txt
mkdir -p sub && echo leftover > sub/left-behind.txt
exit 3
"#,
    );
    let command = exec_arg(&program);
    let args = ["check", "--exec", &command, "--format", "json"];
    let output = project
        .command(&args)
        .env("GRUNDY_TEST_SECRET", "do-not-pass-this-on")
        .output()
        .unwrap();
    let judged = parse_json(output, Duration::ZERO);

    let found: Vec<_> = walk(project.path())
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "left-behind.txt"))
        .collect();
    assert!(found.is_empty(), "files left in the project: {found:?}");

    assert_eq!(judged.order.len(), 4, "{}", judged.dump());
    for id in &judged.order {
        assert_eq!(judged.verdict(id), "RE", "{}", judged.dump());
        let line = judged.case(id)["stderr"]
            .as_str()
            .unwrap_or_default()
            .trim();
        let cwd = line
            .strip_prefix("cwd=")
            .and_then(|l| l.split(" entries=").next())
            .unwrap_or_else(|| panic!("{line}\n{}", judged.dump()));
        let cwd = std::path::Path::new(cwd);
        assert!(!cwd.starts_with(project.path()), "ran in {}", cwd.display());
        assert!(
            line.contains(" entries=0 "),
            "not empty at the start: {line}"
        );
        assert!(
            line.contains(" secret=[] "),
            "the environment leaked: {line}"
        );
        assert!(!line.contains("path=[]"), "no PATH: {line}");
        // A box's working folder (/box) is not on the host at all; a host one is removed.
        assert!(
            cwd == std::path::Path::new("/box") || !cwd.exists(),
            "{} was not removed",
            cwd.display()
        );
    }
}

/// Every file below `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

in_each_launch!(ctrl_c:
    ctrl_c_ends_grundy_promptly_and_every_judged_program,
    without_namespaces_ctrl_c_ends_every_judged_program,
    as_nobody_without_namespaces_ctrl_c_ends_every_judged_program
);

fn ctrl_c(launch: Launch) {
    let project = fixture();
    assert_containment(&project, launch);
    // The hostile case sleeps 60 s in two processes (the second in its own session); the
    // other cases are judged first (-j 1, sorted order).
    let program = c_program(
        &project,
        "sleeper",
        r#"if (fork() == 0) setsid();
sleep(60);
_exit(0);"#,
    );
    let marker = project.path().display().to_string();
    let exec = exec_arg(&program);
    // A folder any user may write in: grundy may run as nobody.
    let reports = project.path().join("reports");
    std::fs::create_dir(&reports).unwrap();
    std::fs::set_permissions(&reports, std::fs::Permissions::from_mode(0o777)).unwrap();
    let junit = reports.join("report.xml");
    let junit_arg = junit.display().to_string();
    let args = [
        "check",
        "-j",
        "1",
        "--time-limit",
        "120000",
        "--format",
        "json",
        "--junit",
        &junit_arg,
        "--exec",
        &exec,
    ];
    let mut child = grundy(&project, launch, &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();

    // Wait until both sleepers run (grundy's own command line holds the marker too).
    let started = Instant::now();
    let program_name = program.display().to_string();
    while processes_with(&marker)
        .iter()
        .filter(|(pid, cmd)| *pid != child.id() && cmd.starts_with(&program_name))
        .count()
        < 2
    {
        if started.elapsed() > Duration::from_secs(20) || child.try_wait().unwrap().is_some() {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!("the sleepers did not start\n{}", common::dump(&output));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));

    let interrupted = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = interrupted + Duration::from_secs(5);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            assert_no_process_left(&marker);
            panic!("grundy was still running 5 s after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}\n{out}");
    assert_no_process_left(&marker);

    // The cases before the sleeper were judged and reported; the one cut short is not (a killed
    // program would look like RE), and the summary says the run was cancelled.
    let mut reported: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let summary = reported.pop().expect("a summary");
    let verdicts: Vec<(&str, &str)> = reported
        .iter()
        .map(|v| (v["case"].as_str().unwrap(), v["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [(ORDINARY[0], "AC"), (ORDINARY[1], "AC")],
        "{out}"
    );
    assert_eq!(summary["type"], "summary", "{out}");
    assert_eq!(summary["cancelled"], true, "{out}");
    assert_eq!(
        (&summary["passed"], &summary["failed"], &summary["skipped"]),
        (&2.into(), &0.into(), &2.into()),
        "{out}"
    );
    // The JUnit report is written too, marked cancelled.
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report is written");
    assert!(xml.contains(r#"name="cancelled" value="true""#), "{xml}");
}
