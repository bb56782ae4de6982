//! The project's own fixtures as a gate: every shipped case passes `check` with the built-in
//! solvers, and every shipped input passes `validate`. (`.ci/run` relies on this instead of a
//! separate `cargo run -- check`, which would build the runner a second time.)

use crate::common;

use std::path::PathBuf;

use common::*;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn in_repository(args: &[&str]) -> std::process::Output {
    let mut command = assert_cmd::Command::cargo_bin("grundy").unwrap();
    command
        .current_dir(repository())
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .output()
        .unwrap()
}

#[test]
fn every_shipped_case_passes() {
    let output = in_repository(&["check", "--format", "json"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let summary = stdout(&output)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["failed"], 0, "{summary}");
    assert!(summary["passed"].as_u64().unwrap() >= 200, "{summary}");
    // Every built-in problem has fixtures.
    for problem in common::BUILT_IN_PROBLEMS {
        assert!(
            stdout(&output).contains(&format!("\"problem\":\"{problem}\"")),
            "{problem}"
        );
    }
}

#[test]
fn every_shipped_input_is_valid() {
    let output = in_repository(&["validate"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        closing_line(&output).ends_with(" failed") && closing_line(&output).contains(" 0 failed"),
        "{}",
        dump(&output)
    );
}
