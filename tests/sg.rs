//! `grundy sg`: the Sprague-Grundy explorer through the real binary, and the `extended/` fixtures
//! of set-nim and s-nim that cover the solvers' period path.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::*;
use grundy_problems::Constraints;

/// `grundy sg ARGS` with the wrapping width fixed to `columns`.
fn sg(columns: usize, args: &[&str]) -> Output {
    let mut full = vec!["sg"];
    full.extend_from_slice(args);
    Project::new()
        .command(&full)
        .env("COLUMNS", columns.to_string())
        .output()
        .expect("the grundy binary runs")
}

fn json(output: &Output) -> serde_json::Value {
    assert_eq!(code(output), 0, "{}", dump(output));
    serde_json::from_str(&stdout(output)).unwrap_or_else(|e| panic!("{e}\n{}", dump(output)))
}

#[test]
fn the_seed_table_is_aligned_wrapped_and_its_period_proven() {
    let output = sg(80, &["subtract", "1,3,4", "--upto", "8"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let text = stdout(&output);
    assert!(text.starts_with("subtraction game S = {1, 3, 4}: g(x) for x = 0..=8\n\n"));
    assert!(
        text.contains("   x 0 1 2 3 4 5 6 7 8\ng(x) 0 1 0 1 2 3 2 0 1\n"),
        "{text}"
    );
    assert!(
        text.contains("period 7 from x = 0: 0 1 0 1 2 3 2\n"),
        "{text}"
    );
    assert!(text.contains("proven: every take is legal"), "{text}");
    assert!(!text.contains("\npreperiod"), "{text}");

    // 40 columns: 2-digit cells, (40 - 4) / 3 = 12 values a line, and every line fits.
    let output = sg(40, &["subtract", "4,1,3", "--upto", "30"]);
    let text = stdout(&output);
    assert!(
        text.contains("   x  0  1  2  3  4  5  6  7  8  9 10 11\n"),
        "{text}"
    );
    assert!(
        text.contains("\n   x 24 25 26 27 28 29 30\ng(x)  1  2  3  2  0  1  0\n"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.len() <= 40), "{text}");
}

#[test]
fn a_preperiod_is_reported_before_the_period() {
    let text = stdout(&sg(80, &["subtract", "2,4,7", "--upto", "20"]));
    assert!(text.contains("preperiod 8: 0 0 1 1 2 2 0 3\n"), "{text}");
    assert!(text.contains("period 3 from x = 8: 1 0 2\n"), "{text}");
}

#[test]
fn other_families_say_what_is_observed_and_what_is_proven() {
    let text = stdout(&sg(200, &["powers-of-two"]));
    assert!(text.contains("observed for x = 0..=30: period 3 from x = 0: 0 1 2; observed in the table, not proven by it"), "{text}");
    assert!(
        text.contains("proven closed form: g(x) = x mod 3 (proof: problems/powers_of_two/mod.rs"),
        "{text}"
    );
    let text = stdout(&sg(200, &["lieges", "--k", "4"]));
    assert!(
        text.contains("period 2 from x = 3: 0 1 (after 0 1 2)"),
        "{text}"
    );
    assert!(
        text.contains("problems/lieges_of_legendre/mod.rs"),
        "{text}"
    );
    let text = stdout(&sg(200, &["lieges", "--k", "1", "--upto", "40"]));
    assert!(
        text.contains("observed for x = 0..=40: no period"),
        "{text}"
    );
    assert!(text.contains("odd x >= 5: g(x) = 0"), "{text}");
    // Up to 100 the odd-k table looks periodic; the closed form shows the guess is wrong.
    let text = stdout(&sg(200, &["lieges", "--k", "1", "--upto", "100"]));
    assert!(
        text.contains("observed for x = 0..=100: period 16 from x = 49"),
        "{text}"
    );
    assert!(
        text.contains("that guess is wrong: at x = 128 the pattern predicts 2"),
        "{text}"
    );
    let text = stdout(&sg(200, &["nim", "--upto", "12"]));
    assert!(
        text.contains("g(x)  0  1  2  3  4  5  6  7  8  9 10 11 12\n"),
        "{text}"
    );
    assert!(
        text.contains("observed for x = 0..=12: g(x) = x; observed"),
        "{text}"
    );
}

#[test]
fn csv_lists_x_and_g() {
    let output = sg(80, &["subtract", "1,3,4", "--upto", "8", "--format", "csv"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert_eq!(
        stdout(&output),
        "x,g\n0,0\n1,1\n2,0\n3,1\n4,2\n5,3\n6,2\n7,0\n8,1\n"
    );
    let output = sg(80, &["nim", "--at", "5", "--at", "7", "--format", "csv"]);
    assert_eq!(stdout(&output), "x,g\n5,5\n7,7\n");
    let output = sg(80, &["powers-of-two", "--check", "--format", "csv"]);
    assert_eq!(
        stdout(&output),
        "upto,agrees,mismatch_x,law,rules\n30,true,,,\n"
    );
}

#[test]
fn json_holds_the_values_the_law_and_the_observation() {
    let value = json(&sg(
        80,
        &["subtract", "2,4,7", "--upto", "12", "--format", "json"],
    ));
    assert_eq!(value["game"], "subtract");
    assert_eq!(value["takes"], serde_json::json!([2, 4, 7]));
    assert_eq!(
        value["values"],
        serde_json::json!([0, 0, 1, 1, 2, 2, 0, 3, 1, 0, 2, 1, 0])
    );
    assert_eq!(value["law"]["kind"], "period");
    assert_eq!(value["law"]["proven"], true);
    assert_eq!(value["law"]["preperiod"], 8);
    assert_eq!(value["law"]["period"], 3);
    assert!(value.get("observed").is_none());

    let value = json(&sg(80, &["lieges", "--k", "2", "--format", "json"]));
    assert_eq!(value["k"], 2);
    assert_eq!(value["law"]["kind"], "closed-form");
    assert_eq!(value["observed"]["kind"], "period");
    assert_eq!(value["observed"]["proven"], false);
    assert_eq!(value["observed"]["preperiod"], 3);
    assert_eq!(value["observed"]["period"], 2);

    let value = json(&sg(
        80,
        &["nim", "--format", "json", "--at", "1000000000000000000"],
    ));
    assert!(value.get("values").is_none());
    assert_eq!(
        value["at"],
        serde_json::json!([{"x": 1_000_000_000_000_000_000u64, "g": 1_000_000_000_000_000_000u64, "via": "closed-form"}])
    );
}

#[test]
fn at_answers_huge_positions_instantly() {
    let cases: &[(&[&str], &str)] = &[
        // 10^18 = 1 (mod 7), and g(1) = 1.
        (
            &["subtract", "1,3,4"],
            "g(1000000000000000000) = 1 (by the period 7 from x = 0, proven)",
        ),
        // 10^18 = 1 (mod 3).
        (
            &["powers-of-two"],
            "g(1000000000000000000) = 1 (by g(x) = x mod 3, proven)",
        ),
        // Even k: every even x >= 3 has g = 1.
        (
            &["lieges", "--k", "2"],
            "g(1000000000000000000) = 1 (by the closed form for even k, proven)",
        ),
        (
            &["nim"],
            "g(1000000000000000000) = 1000000000000000000 (by g(x) = x, proven)",
        ),
    ];
    for (game, expected) in cases {
        let mut args = game.to_vec();
        args.extend(["--at", "1000000000000000000"]);
        let output = sg(200, &args);
        assert_eq!(code(&output), 0, "{}", dump(&output));
        assert_eq!(stdout(&output).trim_end(), *expected, "{args:?}");
    }
    // A long preperiod and period: 365207 and 13728.
    let output = sg(
        200,
        &[
            "subtract",
            "37,379,3797,9931",
            "--at",
            "365206",
            "--at",
            "1000000000000000000",
            "--format",
            "json",
        ],
    );
    let value = json(&output);
    assert_eq!(value["law"]["preperiod"], 365207);
    assert_eq!(value["law"]["period"], 13728);
    assert_eq!(value["at"][1]["via"], "period");
}

#[test]
fn check_passes_for_every_family() {
    let runs: &[&[&str]] = &[
        &["subtract", "1,3,4", "--upto", "100000"],
        &["subtract", "3,5,8,13", "--upto", "1048576"],
        &["powers-of-two", "--upto", "1048576"],
        &["lieges", "--k", "7", "--upto", "1048576"],
        &["lieges", "--k", "1000000000000000000", "--upto", "1048576"],
        &["nim", "--upto", "4000"],
    ];
    for args in runs {
        let mut args = args.to_vec();
        args.push("--check");
        let output = sg(300, &args);
        assert_eq!(code(&output), 0, "{}", dump(&output));
        assert!(
            stdout(&output).starts_with("check passed: "),
            "{}",
            dump(&output)
        );
        assert!(stdout(&output).contains("agrees with the rules-only table for every x = 0..="));
    }
}

#[test]
fn bad_arguments_exit_2_with_a_clear_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["subtract", "1,x,3"],
            "`x` in `1,x,3` is not a positive whole number",
        ),
        (&["subtract", "0,2"], "taking nothing is not a move"),
        (&["subtract", "1,,2"], "empty take"),
        (
            &["subtract", "1,3", "--upto", "1048577"],
            "--upto 1048577 is above the cap 1048576",
        ),
        (
            &["nim", "--upto", "16385"],
            "--upto 16385 is above the cap 16384",
        ),
        (&["lieges", "--upto", "5"], "--k <K>"),
        (
            &["lieges", "--k", "0"],
            "0 is not in 1..=1000000000000000000",
        ),
        (&["nim", "--at", "18446744073709551616"], "invalid value"),
        (&["nim", "--upto", "-1"], "unexpected argument '-1'"),
        (
            &["nim", "--at", "1", "--check", "--format", "csv"],
            "give --at or --check, not both",
        ),
        (
            &["subtract", "1,1048576", "--at", "2000000"],
            "out of reach",
        ),
        (&["subtract", "1,1048576", "--check"], "nothing to check"),
        (&["hackenbush"], "unrecognized subcommand"),
    ];
    for (args, message) in cases {
        let output = sg(80, args);
        assert_eq!(code(&output), 2, "{args:?}\n{}", dump(&output));
        assert!(
            stderr(&output).contains(message),
            "{args:?}\n{}",
            dump(&output)
        );
        assert!(stdout(&output).is_empty(), "{args:?}\n{}", dump(&output));
    }
}

/// The repository's fixtures folder for `problem`'s `extended/` group.
fn extended_group(problem: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(problem)
        .join("extended")
}

/// The `.in` files of `problem`'s `extended/` group, sorted.
fn extended_inputs(problem: &str) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(extended_group(problem))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    inputs.sort();
    inputs
}

#[test]
fn extended_fixtures_are_valid_listed_and_reproduced_by_the_brute_force() {
    for id in ["set-nim", "s-nim"] {
        let problem = grundy_problems::find(id).unwrap();
        let inputs = extended_inputs(id);
        assert!(inputs.len() >= 4, "{id}: {inputs:?}");
        let readme = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures")
                .join(id)
                .join("README-extended.md"),
        )
        .unwrap();
        let mut beyond_table = 0;
        let mut near_table = 0;
        for path in inputs {
            let name = path.file_stem().unwrap().to_str().unwrap();
            assert!(
                readme.contains(&format!("`extended/{name}`")),
                "{id}/extended/{name} is not listed in README-extended.md"
            );
            let input = std::fs::read(&path).unwrap();
            if let Err(e) = (problem.validate)(&mut input.as_slice(), Constraints::Extended) {
                panic!("{}: {e}", path.display());
            }
            let heaps = String::from_utf8(input.clone()).unwrap();
            let largest = heaps
                .split_whitespace()
                .map(|t| t.parse::<u64>().unwrap())
                .max()
                .unwrap();
            beyond_table += usize::from(largest > 1 << 21);
            near_table += usize::from(largest > 10_000 && largest <= 1 << 21);
            let expected = std::fs::read(path.with_extension("out")).unwrap();
            let (mut brute, mut solver) = (Vec::new(), Vec::new());
            (problem.brute)(&input, &mut brute).unwrap();
            (problem.solve)(&input, &mut solver).unwrap();
            assert_eq!(brute, expected, "{}: brute force", path.display());
            assert_eq!(solver, expected, "{}: solver", path.display());
        }
        assert!(
            beyond_table >= 3,
            "{id}: too few cases beyond the brute force's table"
        );
        assert!(near_table >= 1, "{id}: no case between 10^4 and 2^21");
    }
}

#[test]
fn extended_fixtures_pass_grundy_check() {
    let output = assert_cmd::Command::cargo_bin("grundy")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "set-nim/extended", "s-nim/extended"])
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .output()
        .unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let total = extended_inputs("set-nim").len() + extended_inputs("s-nim").len();
    assert_eq!(closing_line(&output), format!("{total} passed, 0 failed"));
}

/// `grundy sg ... | head -2`: once the reader is gone, grundy stops quietly with 141 (128 +
/// SIGPIPE, what a Unix tool killed by SIGPIPE gives), printing no error.
#[test]
fn a_reader_that_goes_away_stops_grundy_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let args = [
        "sg", "subtract", "1,2", "--upto", "1000000", "--format", "csv",
    ];
    let project = Project::new();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(project.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let head: Vec<String> = lines.by_ref().take(2).map(Result::unwrap).collect();
    assert_eq!(head, ["x,g", "0,0"]);
    // Megabytes of rows are still to come: the next write finds no reader.
    drop(lines);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(141), "{}", dump(&output));
    assert_eq!(stderr(&output), "", "no message");
}

/// Any other write error (a full disk, here /dev/full) is still exit 2 with its message.
#[test]
fn a_full_disk_is_exit_2_with_the_error() {
    let project = Project::new();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["sg", "subtract", "1,2", "--upto", "10"])
        .current_dir(project.path())
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("cannot write the report to standard output"),
        "{}",
        dump(&output)
    );
}
