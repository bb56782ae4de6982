//! `grundy verify`'s likely reasons through the real binary: a submission not judged as its
//! package expects gets one "likely because" line in the human report and a `reason` object in
//! its JSON line; `--explain` prints the evidence under it. The packages are small and in Bash,
//! so nothing is compiled and no interpreter choice changes what they do.

use crate::common;

use common::{dump, row, stdout, verify_json, Project};

/// A 2023-07 package `name` with one sample and one secret case (`7`), `limits` (YAML lines
/// under `limits:`, or none) and `submissions` (path below `submissions/`, Bash source).
fn package(project: &Project, name: &str, limits: &str, submissions: &[(&str, &str)]) {
    let yaml = format!("problem_format_version: 2023-07-draft\nname: Explain\n{limits}");
    project.file(&format!("{name}/problem.yaml"), yaml);
    for case in ["sample/1", "secret/1"] {
        project.file(&format!("{name}/data/{case}.in"), "7\n");
        project.file(&format!("{name}/data/{case}.ans"), "7\n");
    }
    for (path, source) in submissions {
        project.file(&format!("{name}/submissions/{path}"), source);
    }
}

const ECHO: &str = "read x\necho \"$x\"\n";
const EIGHT: &str = "echo 8\n";
/// Spins until the time limit stops it.
const SPIN: &str = "while :; do :; done\n";

fn wrongly(project: &Project) {
    let limits = "limits:\n  time_limit: 1\n";
    package(project, "wrongly", limits, &[("accepted/eight.sh", EIGHT)]);
}

#[test]
fn a_wrong_answer_expected_accepted_is_blamed_on_the_checker_with_its_message() {
    let project = Project::new();
    wrongly(&project);
    let json = project.verify(&["wrongly", "--submissions-only", "--format", "json"]);
    let (rows, _) = verify_json(&json);
    let eight = row(&rows, "accepted/eight.sh");
    assert_eq!(eight["ok"], false, "{}", dump(&json));
    let reason = &eight["reason"];
    assert_eq!(reason["kind"], "checker", "{}", dump(&json));
    assert_eq!(reason["case"], eight["caught_by"][0]["case"]);
    assert_eq!(reason["message"], eight["caught_by"][0]["message"]);
    assert!(reason["message"].is_string(), "{}", dump(&json));
    assert_eq!(reason["verdict"], "WA");

    let human = project.verify(&["wrongly", "--submissions-only"]);
    let text = stdout(&human);
    let line = format!(
        "likely because: the output validator rejected {}: {}",
        reason["case"].as_str().unwrap(),
        reason["message"].as_str().unwrap()
    );
    assert!(text.contains(&line), "{}", dump(&human));
    assert!(
        !text.contains("evidence"),
        "only with --explain: {}",
        dump(&human)
    );
}

#[test]
fn explain_prints_the_evidence_of_the_reason() {
    let project = Project::new();
    wrongly(&project);
    let human = project.verify(&["wrongly", "--submissions-only", "--explain"]);
    let text = stdout(&human);
    let evidence: Vec<&str> = text
        .lines()
        .skip_while(|l| l.trim() != "evidence (checker):")
        .skip(1)
        .take_while(|l| l.starts_with("        "))
        .map(str::trim)
        .collect();
    assert!(evidence[0].starts_with("case: "), "{}", dump(&human));
    assert!(evidence[0].ends_with(" (WA)"), "{}", dump(&human));
    assert!(evidence[1].starts_with("run: ") && evidence[1].contains(" CPU, "));
    assert!(
        evidence.contains(&"time limit: 1s (problem.yaml)"),
        "{evidence:?}"
    );
    assert!(
        evidence.iter().any(|l| l.starts_with("message: ")),
        "{evidence:?}"
    );
    assert!(
        evidence.iter().any(|l| l.starts_with("tool: bash")),
        "{evidence:?}"
    );
}

#[test]
fn a_time_limit_exceeded_names_the_accepted_run_the_computed_limit_came_from() {
    let project = Project::new();
    let submissions = [("accepted/echo.sh", ECHO), ("wrong_answer/spin.sh", SPIN)];
    package(&project, "slowly", "", &submissions);
    let args = ["slowly", "--submissions-only", "--first-failure"];
    let json = project.verify(&[&args[..], &["--format", "json"]].concat());
    let (rows, _) = verify_json(&json);
    let spin = row(&rows, "wrong_answer/spin.sh");
    assert_eq!(spin["verdict"], "TLE", "{}", dump(&json));
    let reason = &spin["reason"];
    // A machine busy with other tests can starve the spinner past the wall-clock backstop before
    // it has used its second of CPU (CI saw 850 ms in 4 s); that run is rightly blamed on the
    // wall clock, or, a little over its second in more than twice that, on the busy machine (CI
    // saw 1.06 s in 4 s). Either way the reason names the limit and the run it was computed from.
    let kind = reason["kind"].as_str().unwrap_or_default();
    assert!(
        ["time_limit", "wall_backstop", "busy_machine"].contains(&kind),
        "{}",
        dump(&json)
    );
    assert_eq!(reason["limit_from"]["submission"], "accepted/echo.sh");
    assert!(reason["time_limit"].as_str().unwrap().contains("computed"));
    assert!(row(&rows, "accepted/echo.sh").get("reason").is_none());

    let human = project.verify(&args);
    let text = stdout(&human);
    let line = text
        .lines()
        .find(|l| l.contains("likely because: "))
        .unwrap_or_else(|| panic!("no reason: {}", dump(&human)));
    if line.contains("of wall time but") {
        // Starved past the wall-clock backstop, as above.
        assert!(line.contains("grundy's limit is CPU time"), "{line}");
    } else if line.contains(" of wall time: it had under half a core") {
        // Starved a little past the limit, as above.
        assert!(line.contains("of the 1s limit"), "{line}");
    } else {
        assert!(
            line.contains("limit ("),
            "the time against the limit: {line}"
        );
        assert!(
            line.ends_with(", computed from accepted/echo.sh on sample/1")
                || line.ends_with(", computed from accepted/echo.sh on secret/1"),
            "{line}"
        );
    }
}

/// A program that checks the judge's machine and ends itself where it differs (as DOMjudge's
/// judgehost tests do), in `wrong_answer/`: what it printed last is the reason shown.
const PROBE: &str = "echo 'looking for /etc/judge-only.txt'\n\
                     echo 'cannot read /etc/judge-only.txt' >&2\nexit 3\n";

#[test]
fn a_program_that_ends_itself_where_a_wrong_answer_was_due_is_quoted() {
    let project = Project::new();
    let limits = "limits:\n  time_limit: 1\n";
    package(
        &project,
        "probing",
        limits,
        &[("wrong_answer/probe.sh", PROBE)],
    );
    let json = project.verify(&["probing", "--submissions-only", "--format", "json"]);
    let (rows, _) = verify_json(&json);
    let probe = row(&rows, "wrong_answer/probe.sh");
    assert_eq!(probe["verdict"], "RE", "{}", dump(&json));
    let reason = &probe["reason"];
    assert_eq!(reason["kind"], "exit_status", "{}", dump(&json));
    assert_eq!(
        reason["message"],
        "exited with status 3; it printed last: \"cannot read /etc/judge-only.txt\"",
        "{}",
        dump(&json)
    );

    let human = project.verify(&["probing", "--submissions-only"]);
    let line = "likely because: sample/1 exited with status 3; it printed last: \"cannot read \
                /etc/judge-only.txt\" where no run-time error was expected: it ended itself";
    assert!(stdout(&human).contains(line), "{}", dump(&human));
}

/// Sleeps, then spins until it has used 0.21 s of CPU time (read from its own `/proc` entry, in
/// clock ticks), and answers: over a 0.2 s limit, its wall time over twice its CPU time, as a
/// run on a machine busy enough to give it under half a core. A small limit leaves the most
/// room under the wall-clock backstop (about three times the limit and a second) for a busy
/// machine to run the spin.
const STARVED: &str = "read x\nsleep 0.45\nwhile :; do\n  read -r -a st < /proc/$$/stat\n  \
                       (( st[13] + st[14] >= 21 )) && break\ndone\necho \"$x\"\n";

#[test]
fn a_tle_just_over_the_limit_with_under_half_a_core_blames_the_busy_machine() {
    let project = Project::new();
    let limits = "limits:\n  time_limit: 0.2\n";
    package(
        &project,
        "starved",
        limits,
        &[("accepted/starved.sh", STARVED)],
    );
    let args = ["starved", "--submissions-only", "--first-failure"];
    let json = project.verify(&[&args[..], &["--format", "json"]].concat());
    let (rows, _) = verify_json(&json);
    let starved = row(&rows, "accepted/starved.sh");
    assert_eq!(starved["verdict"], "TLE", "{}", dump(&json));
    let reason = &starved["reason"];
    // A machine busier still stops it by the wall-clock backstop before its CPU time is over
    // the limit: that run is rightly blamed on the wall clock. Never on the limit alone.
    let kind = reason["kind"].as_str().unwrap_or_default();
    assert!(
        kind == "busy_machine" || kind == "wall_backstop",
        "{}",
        dump(&json)
    );
    if kind == "busy_machine" {
        let line = reason["line"].as_str().unwrap_or_default();
        assert!(
            line.contains(" of wall time: it had under half a core"),
            "{line}"
        );
    }
}
