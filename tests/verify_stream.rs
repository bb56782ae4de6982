//! `grundy verify`'s reports through the real binary, as they are printed: each submission's row
//! as soon as all its cases are judged (read from the pipe while a later submission still runs),
//! in colour only when asked, and fitted to `COLUMNS`. The packages are small and in Python, so
//! nothing is compiled.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;

use common::{code, dump, stdout, verify_json, Project, NO_HANG};

/// A package `echo` (2023-07, one sample, a fixed time limit of `limit` seconds) with the
/// submissions given as (path below `submissions/`, Python source).
fn echo(project: &Project, limit: u32, submissions: &[(&str, &str)]) {
    let yaml = format!(
        "problem_format_version: 2023-07-draft\nname: Echo\nlimits:\n  time_limit: {limit}\n"
    );
    project.file("echo/problem.yaml", yaml);
    project.file("echo/data/sample/1.in", "7\n");
    project.file("echo/data/sample/1.ans", "7\n");
    for name in ["a", "b", "c", "d"] {
        project.file(&format!("echo/data/secret/{name}.in"), "7\n");
        project.file(&format!("echo/data/secret/{name}.ans"), "7\n");
    }
    project.file(
        "echo/input_validators/number.py",
        "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
    );
    for (path, source) in submissions {
        project.file(&format!("echo/submissions/{path}"), source);
    }
}

const ECHO: &str = "print(input())\n";
const WRONG: &str = "print(8)\n";
/// Sleeps far past any run of the test: only its timeout (the limit × 1.5) or Ctrl-C ends it.
const SLEEPER: &str = "import time\ntime.sleep(10**6)\n";

/// `grundy verify echo ARGS` started with stdout piped, its lines sent on a channel as they are
/// printed.
fn spawn(project: &Project, args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = project
        .spawnable(&["verify", "echo"])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel();
    let out = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for line in out.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    (child, received)
}

/// The lines printed until one contains `wanted` (that one included); a run that ends or hangs
/// before printing it fails the test.
fn lines_until(received: &mpsc::Receiver<String>, wanted: &str) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        match received.recv_timeout(NO_HANG) {
            Ok(line) => {
                let found = line.contains(wanted);
                seen.push(line);
                if found {
                    return seen;
                }
            }
            Err(error) => panic!("no line with {wanted:?} ({error}); printed:\n{seen:#?}"),
        }
    }
}

/// Ctrl-C, then the rest of what `child` prints and its exit code.
fn interrupt(mut child: Child, received: &mpsc::Receiver<String>) -> (Vec<String>, i32) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    // The reader thread ends the channel when stdout closes, at the process's end.
    let mut rest = Vec::new();
    loop {
        match received.recv_timeout(NO_HANG) {
            Ok(line) => rest.push(line),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                panic!("verify still runs after Ctrl-C: {rest:#?}");
            }
        }
    }
    let status = child.wait().unwrap();
    (rest, status.code().expect("an exit code, not a signal"))
}

/// The row of `accepted/echo.py` is printed while the sleeper after it still runs (the process
/// can only end by its 900 s timeout or Ctrl-C, which the test sends once it has read the row):
/// a report that waited for the end would print nothing before the Ctrl-C.
#[test]
fn a_submission_is_reported_while_the_next_one_still_runs() {
    let project = Project::new();
    let submissions = [
        ("accepted/echo.py", ECHO),
        ("time_limit_exceeded/sleeper.py", SLEEPER),
    ];
    echo(&project, 600, &submissions);
    for format in ["human", "json"] {
        let (mut child, received) = spawn(&project, &["--format", format, "-j", "2"]);
        let seen = lines_until(&received, "accepted/echo.py");
        assert!(
            child.try_wait().unwrap().is_none(),
            "verify ended before Ctrl-C: {seen:#?}"
        );
        if format == "human" {
            let row = seen.last().unwrap();
            assert!(row.starts_with("  ✓ accepted/echo.py"), "{seen:#?}");
            assert!(
                seen[0].starts_with("echo ("),
                "the heading first: {seen:#?}"
            );
        }
        let (rest, code) = interrupt(child, &received);
        assert_eq!(code, 130, "{rest:#?}");
        let all = [seen, rest].concat();
        // The JSON heading names every submission of the package, the sleeper too.
        let mut units = all.iter().filter(|l| !l.contains("\"type\":\"heading\""));
        assert!(
            !units.any(|l| l.contains("sleeper.py")),
            "the sleeper was cut short, so it is not reported: {all:#?}"
        );
        let said = match format {
            "human" => all.iter().any(|l| l.starts_with("Cancelled (Ctrl-C)")),
            _ => all
                .last()
                .is_some_and(|l| l.contains(r#""cancelled":true"#)),
        };
        assert!(said, "the report says it was cancelled: {all:#?}");
    }
}

/// Rows come in the package's order of submissions, in both formats, whichever worker judged
/// what.
#[test]
fn rows_come_in_submission_order_in_every_format() {
    let project = Project::new();
    let submissions = [
        ("accepted/echo.py", ECHO),
        ("accepted/echo_too.py", ECHO),
        ("wrong_answer/eight.py", WRONG),
    ];
    echo(&project, 5, &submissions);
    let output = project
        .command(&["verify", "echo", "-j", "2"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    let rows: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  ✓ "))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(rows, submissions.map(|(path, _)| path), "{}", dump(&output));
    let output = project
        .command(&["verify", "echo", "-j", "2", "--format", "json"])
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    let (objects, _) = verify_json(&output);
    let names: Vec<&str> = objects
        .iter()
        .map(|o| o["submission"].as_str().unwrap())
        .collect();
    assert_eq!(names, submissions.map(|(path, _)| path));
}

fn verify(project: &Project, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut command = project.command(&[&["verify", "echo"], args].concat());
    command.env_remove("CARGO_TARGET_DIR").env_remove("COLUMNS");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap()
}

/// `--color always` colours the marks, verdicts and states even into a pipe; a pipe without it
/// is plain, and so is NO_COLOR.
#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let project = Project::new();
    let submissions = [("accepted/echo.py", ECHO), ("wrong_answer/eight.py", WRONG)];
    echo(&project, 5, &submissions);
    let green = "\u{1b}[32m";
    let coloured = verify(&project, &["--color", "always"], &[]);
    assert_eq!(code(&coloured), 0, "{}", dump(&coloured));
    let text = stdout(&coloured);
    assert!(text.contains(&format!("{green}✓")), "{text:?}");
    assert!(text.contains(&format!("{green}valid")), "{text:?}");
    // Project::command sets NO_COLOR; `auto` into a pipe is plain even without it.
    let plain = verify(&project, &[], &[]);
    let piped = project
        .command(&["verify", "echo"])
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    for output in [plain, piped] {
        assert_eq!(code(&output), 0, "{}", dump(&output));
        assert!(!stdout(&output).contains('\u{1b}'), "{}", dump(&output));
        assert!(stdout(&output).contains("  ✓ accepted/echo.py"));
    }
}

/// Under `COLUMNS=80` every line of the table fits in 80 columns: a long name is cut in the
/// middle, and the cases that caught a submission go on lines of their own below its row; with
/// room, the name is whole and the cases on the row.
#[test]
fn rows_are_fitted_to_the_width_in_columns() {
    let project = Project::new();
    let long = format!("accepted/{}.py", "echo_".repeat(16));
    let submissions = [(long.as_str(), ECHO), ("wrong_answer/eight.py", WRONG)];
    echo(&project, 5, &submissions);
    let narrow = verify(&project, &[], &[("COLUMNS", "80")]);
    assert_eq!(code(&narrow), 0, "{}", dump(&narrow));
    let text = stdout(&narrow);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("    SUBMISSION"))
        .take_while(|l| !l.starts_with("  echo: package"))
        .collect();
    assert_eq!(table.len(), 4, "{text}");
    for line in &table {
        assert!(
            line.chars().count() <= 80,
            "over 80 columns: {line:?}\n{text}"
        );
    }
    assert!(table[1].starts_with("  ✓ accepted/echo") && table[1].contains('…'));
    assert!(!text.contains(&long), "{text}");
    assert!(table[2].starts_with("  ✓ wrong_answer/eight.py"), "{text}");
    assert!(
        table[3].starts_with("      caught by 5: sample/1 WA,"),
        "{text}"
    );

    let wide = verify(&project, &[], &[("COLUMNS", "250")]);
    let text = stdout(&wide);
    let row = |name: &str| text.lines().find(|l| l.contains(name)).unwrap().to_string();
    assert!(row(&long).starts_with(&format!("  ✓ {long}  ")), "{text}");
    assert!(
        row("wrong_answer/eight.py")
            .ends_with("  5: sample/1 WA, secret/a WA, secret/b WA, +2 more"),
        "{text}"
    );
}
