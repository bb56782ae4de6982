//! Interactive problems through the real binary: the built-in judge of a problem against its
//! built-in player, and the first-failure rule (a crash first is RE, a silence past the limit is
//! TLE, a judge's rejection stands even if the program then crashes, a judge that fails is JE),
//! with the last lines of the exchange under each failure.

use crate::common;

use common::*;

/// `test-guess` cases, one per mode of its built-in player and judge (see problems/test_problems.rs).
fn project(modes: &[&str]) -> Project {
    let project = Project::new();
    for mode in modes {
        project.case(
            &format!("test-guess/{mode}"),
            &format!("37 {mode}\n"),
            "guessed\n",
        );
    }
    project
}

#[test]
fn the_side_that_failed_first_decides() {
    let modes = [
        ("play", "AC"),
        ("silent", "TLE"),
        ("wrong", "WA"),
        ("crash", "RE"),
        ("quit", "WA"),
        ("late-crash", "WA"),
        ("judge-panic", "JE"),
        ("judge-error", "JE"),
    ];
    let names: Vec<&str> = modes.iter().map(|(m, _)| *m).collect();
    let project = project(&names);
    let output = project.grundy(&["check", "-v", "--time-limit", "500"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    for (mode, verdict) in modes {
        let id = format!("test-guess/{mode}");
        assert_eq!(
            verdict_of(&output, &id),
            verdict,
            "{mode}\n{}",
            dump(&output)
        );
    }
    let crash = case_block(&output, "test-guess/crash");
    assert!(crash.contains("the player was asked to crash"), "{crash}");
    let late = case_block(&output, "test-guess/late-crash");
    assert!(late.contains("seven guesses, none right"), "{late}");
    let judge = case_block(&output, "test-guess/judge-panic");
    assert!(judge.contains("not the program"), "{judge}");
}

#[test]
fn a_failed_case_shows_the_last_lines_of_the_exchange_both_ways() {
    let project = project(&["wrong"]);
    let output = project.grundy(&["check"]);
    let block = case_block(&output, "test-guess/wrong");
    assert!(
        block.contains("exchange (> to the program, < from it):"),
        "{block}"
    );
    assert!(
        block.contains("| > wrong") && block.contains("| < 0") && block.contains("| > <"),
        "{block}"
    );
    let shown = block
        .lines()
        .filter(|l| l.trim_start().starts_with("| "))
        .count();
    assert!(shown <= 21, "bounded: {shown} lines\n{block}");

    let json = project.grundy(&["check", "--format", "json"]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&json).lines().next().unwrap()).unwrap();
    assert!(
        first["exchange"].as_str().unwrap().contains("< 0\n"),
        "{first}"
    );
}

#[test]
fn bless_explains_that_it_writes_nothing_for_interactive_problems() {
    let project = project(&["play"]);
    std::fs::remove_file(project.path().join("fixtures/test-guess/play.out")).unwrap();
    let output = project.grundy(&["check", "--bless"]);
    assert!(
        stderr(&output).contains("--bless writes nothing for interactive problems"),
        "{}",
        dump(&output)
    );
    assert!(!project.path().join("fixtures/test-guess/play.out").exists());
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "NOEXP",
        "{}",
        dump(&output)
    );
}

/// The verdict of `test-guess/<name>` for each `--exec` player of the test judge, against
/// `interactor` (`None`: the problem's built-in judge).
fn verdicts_of_players(interactor: Option<&str>, players: &[(&str, &str)]) {
    let project = project(&["play"]);
    for (player, verdict) in players {
        let mut args = vec!["check", "--time-limit", "700", "-v"];
        let exec = judge_command(&format!("player-{player}"));
        args.extend(["--exec", &exec]);
        if let Some(interactor) = interactor {
            args.extend(["--interactor", interactor]);
        }
        let output = project.grundy(&args);
        let got = verdict_of(&output, "test-guess/play");
        assert_eq!(got, *verdict, "player {player}\n{}", dump(&output));
    }
}

const PLAYERS: &[(&str, &str)] = &[
    ("good", "AC"),
    ("silent", "TLE"),
    ("noflush", "TLE"),
    ("wait", "TLE"),
    ("crash", "RE"),
    ("quit", "WA"),
    ("garbage", "WA"),
    ("late-crash", "WA"),
];

#[test]
fn programs_against_the_built_in_judge() {
    verdicts_of_players(None, PLAYERS);
}

#[test]
fn a_program_idle_while_the_judge_waits_is_asked_whether_it_flushed() {
    let project = project(&["play"]);
    let exec = judge_command("player-noflush");
    let output = project.grundy(&["check", "--time-limit", "300", "--exec", &exec]);
    let block = case_block(&output, "test-guess/play");
    assert!(
        block.contains("waiting for the judge while the judge waits for its last line")
            && block.contains("flush after every line"),
        "{}",
        dump(&output)
    );
}

#[test]
fn programs_against_a_kattis_interactor() {
    let interactor = format!("kattis:{}", judge_command("kattis-interact"));
    verdicts_of_players(Some(&interactor), PLAYERS);
}

#[test]
fn programs_against_a_testlib_interactor() {
    let interactor = format!("testlib:{}", judge_command("testlib-interact"));
    verdicts_of_players(
        Some(&interactor),
        &[
            ("good", "AC"),
            ("garbage", "WA"),
            ("crash", "RE"),
            ("silent", "TLE"),
        ],
    );
}

#[test]
fn the_built_in_player_against_an_interactor_program() {
    let project = project(&["play", "wrong"]);
    let interactor = format!("kattis:{}", judge_command("kattis-interact"));
    let output = project.grundy(&["check", "-v", "--interactor", &interactor]);
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "test-guess/wrong"),
        "WA",
        "{}",
        dump(&output)
    );
}

#[test]
fn an_interactor_that_crashes_hangs_or_rejects_at_once() {
    let project = project(&["play"]);
    project.file("runner.toml", "judge_time_limit_ms = 3000\n");
    // A copy of the judge under a name of this test's own, to look for leftovers by.
    let judge = project.path().join("judge-of-the-leftover-test");
    std::fs::copy(test_judge(), &judge).unwrap();
    let judge = judge.display().to_string();
    let run = |role: &str| {
        let interactor = format!("kattis:{judge} {role}");
        let exec = format!("{judge} player-good");
        let started = std::time::Instant::now();
        let output = project.grundy(&["check", "-v", "--exec", &exec, "--interactor", &interactor]);
        assert!(started.elapsed() < NO_HANG, "{role} hung");
        output
    };
    let output = run("interact-crash");
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "JE",
        "{}",
        dump(&output)
    );
    assert!(
        case_block(&output, "test-guess/play").contains("SIGABRT"),
        "{}",
        dump(&output)
    );
    // It talks, the program wins and leaves, and the interactor never exits: its fault.
    let output = run("interact-hang");
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "JE",
        "{}",
        dump(&output)
    );
    assert!(
        case_block(&output, "test-guess/play").contains("did not end"),
        "{}",
        dump(&output)
    );
    let output = run("interact-reject-at-once");
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "WA",
        "{}",
        dump(&output)
    );
    assert_no_process_left("judge-of-the-leftover-test");
}

#[test]
fn a_program_is_stopped_as_soon_as_the_interactor_rejects_it() {
    let project = project(&["play"]);
    let interactor = format!("kattis:{}", judge_command("interact-reject-at-once"));
    // The program never reads nor ends; the interactor has rejected it at once, so the case is
    // decided and the program is not left to run until its (long) time limit.
    let exec = judge_command("hang");
    let output = project.grundy(&[
        "check",
        "--format",
        "json",
        "--time-limit",
        "40000",
        "--exec",
        &exec,
        "--interactor",
        &interactor,
    ]);
    let case: serde_json::Value =
        serde_json::from_str(stdout(&output).lines().next().unwrap()).unwrap();
    assert_eq!(case["verdict"], "WA", "{}", dump(&output));
    let time_ms = case["time_ms"].as_f64().unwrap();
    assert!(
        time_ms < 20000.0,
        "the program ran {time_ms} ms of its 40000 ms after the interactor had decided"
    );
}

/// Asserts that no process whose command line holds `marker` is alive, after a moment for
/// killed ones to be reaped.
fn assert_no_process_left(marker: &str) {
    let alive = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
            .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(marker))
            .count()
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while alive() > 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(alive(), 0, "processes of `{marker}` outlived their runs");
}

#[test]
fn a_testlib_interactors_output_file_goes_through_the_problems_checker() {
    let project = project(&["play"]);
    project.case("test-guess/expects-a-loss", "37 play\n", "lost\n");
    let interactor = format!("testlib:{}", judge_command("testlib-interact"));
    let checker = format!("testlib:{}", judge_command("testlib-compare"));
    let exec = judge_command("player-good");
    let output = project.grundy(&[
        "check",
        "-v",
        "--exec",
        &exec,
        "--interactor",
        &interactor,
        "--checker",
        &checker,
    ]);
    // The interactor writes `guessed` when the program wins; the checker compares it with .ans.
    assert_eq!(
        verdict_of(&output, "test-guess/play"),
        "AC",
        "{}",
        dump(&output)
    );
    assert_eq!(
        verdict_of(&output, "test-guess/expects-a-loss"),
        "WA",
        "{}",
        dump(&output)
    );
    assert!(case_block(&output, "test-guess/expects-a-loss").contains("the tokens differ"));
}
