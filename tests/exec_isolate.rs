//! `check --isolate` through the real binary: the built-in solver judged as a child process
//! (`grundy solve`) in the sandbox gives the same verdicts as in-process, and reports the
//! containment and each case's peak memory.

use crate::common;
use crate::exec_support;

use common::{case_block, code, dump, powers_case, stderr, verdict_of};
use exec_support::*;

/// The usual fixture, with the hostile case's expected file made wrong.
fn fixture_with_a_wrong_expected_file() -> common::Project {
    let project = fixture();
    let (input, _) = powers_case(&[MARKER, 4, 5]);
    project.case(HOSTILE, &input, "Kiki\nKiki\nKiki\n");
    project
}

#[test]
fn isolate_gives_the_in_process_verdicts() {
    let project = fixture_with_a_wrong_expected_file();
    // A word after `--isolate` that is no mode stays a filter (`--isolate nim`).
    let isolated = check_json(&project, &["check", "--isolate", "powers-of-two"]);
    isolated.assert_verdicts("WA");
    let diff = isolated.case(HOSTILE)["diff"].as_str().unwrap_or_default();
    assert!(diff.contains("+Cici"), "{}", isolated.dump());

    let in_process = check_json(&project, &["check"]);
    in_process.assert_verdicts("WA");
    for id in &isolated.order {
        assert_eq!(
            (isolated.verdict(id), isolated.message(id)),
            (in_process.verdict(id), in_process.message(id)),
            "`{id}`"
        );
    }
    // Child processes have a measured peak; all of them ran.
    for id in &isolated.order {
        let peak = isolated.case(id)["peak_memory_bytes"].as_u64();
        assert!(peak.is_some_and(|b| b > 0), "`{id}`\n{}", isolated.dump());
    }
}

#[test]
fn isolate_verbose_shows_containment_and_peak_memory() {
    let project = fixture_with_a_wrong_expected_file();
    let output = project.grundy(&["check", "--isolate", "-v"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    assert!(
        stderr(&output)
            .lines()
            .any(|l| l.starts_with("containment: ")),
        "{}",
        dump(&output)
    );
    for id in ORDINARY {
        assert_eq!(verdict_of(&output, id), "AC", "{}", dump(&output));
        // `PASS AC    powers-of-two/a-first (1.234 ms, 4.6 MiB)`
        let line = case_block(&output, id);
        assert!(line.trim_end().ends_with(" MiB)"), "{line}");
    }
    let block = case_block(&output, HOSTILE);
    assert!(block.starts_with("FAIL WA"), "{block}");
    assert!(block.contains(" MiB, wrong answer)"), "{block}");
}

#[test]
fn isolate_stops_a_looping_solver_and_reports_a_panicking_one() {
    // Test builds register `test-loop` (never returns on `loop`) and `test-panic` (panics on
    // `panic`); both echo any other input.
    let project = fixture();
    project.case("test-loop/fine", "hello\n", "hello\n");
    project.case("test-loop/stuck", "loop\n", "loop\n");
    project.case("test-panic/boom", "panic\n", "panic\n");
    project.case("test-panic/fine", "calm\n", "calm\n");
    let isolated = check_json(&project, &["check", "--isolate", "--time-limit", "500"]);
    assert_eq!(isolated.code(), 1, "{}", isolated.dump());
    assert!(
        isolated.elapsed < std::time::Duration::from_secs(10),
        "took {:?}",
        isolated.elapsed
    );
    let expected = [
        ("powers-of-two/a-first", "AC"),
        ("powers-of-two/b-mixed", "AC"),
        ("powers-of-two/m-hostile", "AC"),
        ("powers-of-two/z-many", "AC"),
        ("test-loop/fine", "AC"),
        ("test-loop/stuck", "TLE"),
        ("test-panic/boom", "RE"),
        ("test-panic/fine", "AC"),
    ];
    let verdicts: Vec<(&str, &str)> = isolated
        .order
        .iter()
        .map(|id| (id.as_str(), isolated.verdict(id)))
        .collect();
    assert_eq!(verdicts, expected, "{}", isolated.dump());
    assert!(
        isolated.time_ms("test-loop/stuck") < 3500.0,
        "{}",
        isolated.dump()
    );

    // In-process, the same verdicts.
    let in_process = check_json(&project, &["check", "--time-limit", "500"]);
    for (id, verdict) in expected {
        assert_eq!(in_process.verdict(id), verdict, "{}", in_process.dump());
    }
}
