//! One test per rule of [`super::decide`], on facts written by hand.

use std::time::Duration;

use super::*;
use crate::model::Fixed;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn run(verdict: Verdict, cpu: u64, wall: u64) -> CaseRun {
    CaseRun {
        verdict,
        time: ms(cpu),
        stopped_by: None,
        message: None,
        score: None,
        cpu: ms(cpu),
        wall: ms(wall),
        peak_memory_bytes: None,
        failure: None,
        detail: None,
        said: None,
    }
}

fn fixed() -> TimeLimit {
    TimeLimit::fixed(ms(1000), Fixed::Package("problem.yaml"))
}

fn computed() -> TimeLimit {
    TimeLimit {
        limit: Ok(ms(1000)),
        how: How::Computed {
            factor: 2.0,
            step: ms(1000),
            near_step: false,
            cached: false,
        },
    }
}

fn facts<'a>(
    expected: &'a [String],
    got: Verdict,
    runs: &'a [CaseRun],
    limit: &'a TimeLimit,
) -> Facts<'a> {
    Facts {
        expected,
        got: Got::Verdict(got),
        runs: runs.iter().map(|r| ("secret/1", r)).collect(),
        time_limit: limit,
        limit_from: None,
        tool: Some("g++: g++ 12.2".into()),
        interpreter: None,
        missing_tool: false,
        compile_error: None,
    }
}

fn expected(verdicts: &[&str]) -> Vec<String> {
    verdicts.iter().map(|v| v.to_string()).collect()
}

#[test]
fn a_wrong_answer_blames_the_checker_and_quotes_it() {
    let mut wrong = run(Verdict::WA, 10, 12);
    wrong.message = Some("expected 3, got 4".into());
    let (ac, runs, limit) = (expected(&["AC"]), [wrong], fixed());
    let reason = decide(&facts(&ac, Verdict::WA, &runs, &limit));
    assert_eq!(reason.kind, Kind::Checker);
    assert_eq!(
        reason.to_string(),
        "the output validator rejected secret/1: expected 3, got 4"
    );
}

#[test]
fn a_tle_near_a_computed_limit_names_the_run_it_came_from() {
    let (ac, runs, limit) = (
        expected(&["AC"]),
        [run(Verdict::TLE, 1100, 1150)],
        computed(),
    );
    let mut facts = facts(&ac, Verdict::TLE, &runs, &limit);
    facts.limit_from = Some(LimitRun {
        submission: "accepted/fast.cpp".into(),
        case: "secret/2".into(),
        time: ms(400),
        tool: None,
        cpython: false,
    });
    let reason = decide(&facts);
    assert_eq!(reason.kind, Kind::TimeLimit);
    assert_eq!(
        reason.to_string(),
        "secret/1 ran 1.1s of the 1s limit (110%), computed from accepted/fast.cpp on secret/2"
    );
    assert!(reason
        .evidence_lines()
        .contains(&"limit from: accepted/fast.cpp on secret/2: 0.4s".to_string()));
}

#[test]
fn a_tle_just_over_the_limit_with_under_half_a_core_blames_the_busy_machine() {
    let (ac, limit) = (expected(&["AC"]), fixed());
    let runs = [run(Verdict::TLE, 1059, 3200)];
    let reason = decide(&facts(&ac, Verdict::TLE, &runs, &limit));
    assert_eq!(reason.kind, Kind::BusyMachine);
    assert_eq!(
        reason.to_string(),
        "secret/1 ran 1.059s of the 1s limit (106%) in 3.2s of wall time: it had under half a \
         core, and on a machine that busy CPU time runs slower too (shared cores and caches); \
         judge it again on a quieter machine"
    );
    // Far over the limit, or with a core of its own: the time limit, as before.
    for (cpu, wall) in [(1300, 4000), (1059, 1900)] {
        let runs = [run(Verdict::TLE, cpu, wall)];
        let reason = decide(&facts(&ac, Verdict::TLE, &runs, &limit));
        assert_eq!(reason.kind, Kind::TimeLimit, "{cpu} ms in {wall} ms");
    }
}

#[test]
fn an_expected_tle_that_ends_in_time_is_measured_against_a_fixed_limit() {
    let (tle, runs, limit) = (expected(&["TLE"]), [run(Verdict::AC, 500, 510)], fixed());
    let reason = decide(&facts(&tle, Verdict::AC, &runs, &limit));
    assert_eq!(reason.kind, Kind::TimeLimit);
    assert!(
        reason.to_string().contains("fixed by problem.yaml"),
        "{reason}"
    );
}

#[test]
fn a_python_tle_under_cpython_blames_the_interpreter() {
    let (ac, runs, limit) = (expected(&["AC"]), [run(Verdict::TLE, 1100, 1150)], fixed());
    let mut facts = facts(&ac, Verdict::TLE, &runs, &limit);
    facts.interpreter = Some(Python3::CPython);
    let reason = decide(&facts);
    assert_eq!((reason.kind, reason.own), (Kind::Interpreter, true));
    assert!(reason.to_string().starts_with("it ran under CPython"));
}

#[test]
fn a_limit_computed_from_cpython_blames_the_interpreter_of_that_run() {
    let (tle, runs, limit) = (expected(&["TLE"]), [run(Verdict::AC, 900, 910)], computed());
    let mut facts = facts(&tle, Verdict::AC, &runs, &limit);
    facts.limit_from = Some(LimitRun {
        submission: "accepted/slow.py".into(),
        case: "secret/2".into(),
        time: ms(480),
        tool: Some("python3: Python 3.11.2".into()),
        cpython: true,
    });
    let reason = decide(&facts);
    assert_eq!((reason.kind, reason.own), (Kind::Interpreter, false));
    assert!(reason.to_string().contains(
        "accepted/slow.py on secret/2: 0.48s (python3: Python 3.11.2) run under CPython"
    ));
}

#[test]
fn how_a_run_ended_names_memory_output_processes_and_stack() {
    let ac = expected(&["AC"]);
    let limit = fixed();
    let ended = |verdict, failure| {
        let mut r = run(verdict, 10, 10);
        r.failure = failure;
        [r]
    };
    let cases = [
        (ended(Verdict::MLE, None), Kind::Memory),
        (ended(Verdict::OLE, None), Kind::OutputLimit),
        (
            ended(Verdict::RE, Some(Failure::ProcessLimit)),
            Kind::Sandbox,
        ),
        (
            ended(Verdict::RE, Some(Failure::Signal("SIGSEGV".into()))),
            Kind::Stack,
        ),
        (
            ended(Verdict::RE, Some(Failure::ExitCode(1))),
            Kind::ExitStatus,
        ),
    ];
    for (runs, kind) in cases {
        let got = runs[0].verdict;
        assert_eq!(decide(&facts(&ac, got, &runs, &limit)).kind, kind, "{got}");
    }
}

#[test]
fn a_program_that_ends_itself_is_quoted_unless_a_run_time_error_was_due() {
    let mut probe = run(Verdict::RE, 1, 2);
    probe.failure = Some(Failure::ExitCode(1));
    probe.message = Some("exited with status 1".into());
    probe.said = Some("CPU MISMATCH!".into());
    let (wa, runs, limit) = (expected(&["WA"]), [probe], fixed());
    let reason = decide(&facts(&wa, Verdict::RE, &runs, &limit));
    assert_eq!(reason.kind, Kind::ExitStatus);
    assert_eq!(
        reason.evidence.message.as_deref(),
        Some("exited with status 1; it printed last: \"CPU MISMATCH!\"")
    );
    assert!(reason.to_string().starts_with(
        "secret/1 exited with status 1; it printed last: \"CPU MISMATCH!\" where no run-time \
         error was expected: it ended itself"
    ));
    // A wrong answer or a crash both allowed: the crash is no disagreement to explain, and a
    // run-time error expected is judged by the crash rules, not this one.
    let either = expected(&["WA", "RTE"]);
    assert_ne!(
        decide(&facts(&either, Verdict::RE, &runs, &limit)).kind,
        Kind::ExitStatus
    );
}

#[test]
fn a_run_over_the_limit_in_wall_time_alone_blames_the_backstop() {
    let (tle, limit) = (expected(&["TLE"]), fixed());
    let runs = [run(Verdict::WA, 5, 10_000)];
    let reason = decide(&facts(&tle, Verdict::WA, &runs, &limit));
    assert_eq!(reason.kind, Kind::WallBackstop);
    let mut stopped = run(Verdict::TLE, 5, 3000);
    stopped.stopped_by = Some(Clock::Wall);
    let (ac, runs) = (expected(&["AC"]), [stopped]);
    let reason = decide(&facts(&ac, Verdict::TLE, &runs, &limit));
    assert_eq!(reason.kind, Kind::WallBackstop);
    // Past the limit in CPU time too: not the backstop's doing, but a busy machine's (it let the
    // wall clock stop the run first), or far past it, the time limit's.
    for (cpu, kind) in [(1200, Kind::BusyMachine), (1900, Kind::TimeLimit)] {
        let mut spun = run(Verdict::TLE, cpu, 4000);
        spun.stopped_by = Some(Clock::Wall);
        let runs = [spun];
        let reason = decide(&facts(&ac, Verdict::TLE, &runs, &limit));
        assert_eq!(reason.kind, kind, "{cpu} ms");
    }
}

#[test]
fn an_expected_run_time_error_that_runs_out_of_time_blames_the_stack() {
    let (rte, runs, limit) = (expected(&["RTE"]), [run(Verdict::TLE, 1100, 1100)], fixed());
    let reason = decide(&facts(&rte, Verdict::TLE, &runs, &limit));
    assert_eq!((reason.kind, reason.own), (Kind::Stack, true));
}

#[test]
fn builds_blame_the_compiler_or_the_missing_tool() {
    let (ac, limit) = (expected(&["AC"]), fixed());
    let mut facts = facts(&ac, Verdict::AC, &[], &limit);
    facts.got = Got::CompileError;
    // The error, not the context g++ says first.
    facts.compile_error = Some("\nmain.cpp: In function 'int main()':\nmain.cpp:1: error: x\nmore");
    let reason = decide(&facts);
    assert_eq!(reason.kind, Kind::Compile);
    assert_eq!(reason.to_string(), "the build failed: main.cpp:1: error: x");
    facts.missing_tool = true;
    assert_eq!(decide(&facts).kind, Kind::MissingTool);
    let ce = expected(&["CE"]);
    let runs = [run(Verdict::AC, 1, 1)];
    let reason = decide(&self::facts(&ce, Verdict::AC, &runs, &limit));
    assert_eq!(reason.kind, Kind::Compile);
    assert!(reason.to_string().starts_with("its build passed"));
}

#[test]
fn every_run_accepted_blames_the_checker_for_a_wrong_answer_and_nothing_for_a_crash() {
    let (limit, runs) = (fixed(), [run(Verdict::AC, 10, 10)]);
    let wa = expected(&["WA"]);
    let reason = decide(&facts(&wa, Verdict::AC, &runs, &limit));
    assert_eq!(reason.kind, Kind::Checker);
    assert!(reason
        .to_string()
        .starts_with("the output validator accepted"));
    let rte = expected(&["RTE"]);
    let reason = decide(&facts(&rte, Verdict::AC, &runs, &limit));
    assert_eq!(reason.kind, Kind::Unknown);
    assert!(reason.to_string().starts_with("every run ended well"));
}
