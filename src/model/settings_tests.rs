use std::path::PathBuf;
use std::time::Duration;

use super::*;
use crate::config::Config;
use crate::model::builtin::judged_by_settings;
use crate::model::Fixed;
use crate::package::test_support::tree;

/// runner.toml setting every limit, the checker, and a table of its own for the folder `fx`.
const RUNNER: &str = "time_limit_ms = 1500\nwall_time_limit_ms = 4000\nmemory_limit_mb = 300\n\
                      output_limit_mb = 40\njudge_time_limit_ms = 7000\nchecker = \"lines\"\n\
                      [problems.fx]\nmemory_limit_mb = 120\n";

/// runner.toml's settings, `RUNNER` or none, with the flags `overrides` over them.
fn config(runner: Option<&str>, overrides: &Overrides) -> Config {
    let dir = tree(&[("runner.toml", runner.unwrap_or(""))]);
    let path = dir.path().join("runner.toml");
    let found = crate::locate::Found::Named;
    let exists = |id: &str, _: &std::path::Path| id == "fx" || grundy_problems::find(id).is_some();
    Config::load(Some(&path), found, overrides, exists).unwrap()
}

/// A 2023-07 package fixing its time limit, and its memory and output limits unless `bare`.
fn package(bare: bool) -> Problem {
    let limits = match bare {
        true => "  time_limit: 2\n",
        false => "  time_limit: 2\n  memory: 100\n  output: 3\n",
    };
    let yaml = format!("problem_format_version: 2023-07-draft\nname: P\nlimits:\n{limits}");
    let dir = tree(&[
        ("problem.yaml", yaml.as_str()),
        ("data/secret/1.in", "1\n"),
        ("data/secret/1.ans", "1\n"),
    ]);
    Problem::from_package(crate::package::read_package(dir.path()).unwrap())
}

const SECONDS_2: Option<Duration> = Some(Duration::from_secs(2));

#[test]
fn a_packages_limits_win_over_runner_toml_whose_wall_clock_and_judge_time_apply() {
    let none = Overrides::default();
    let config = config(Some(RUNNER), &none);
    let settings = judged_under(&package(false), config.settings("p"), &none, SECONDS_2);
    assert_eq!(settings.limits.memory_mib, 100);
    assert_eq!(settings.limits.output_mib, 3);
    assert_eq!(settings.limits.time, Duration::from_secs(2));
    assert_eq!(settings.limits.passes, 1);
    assert_eq!(settings.limits.wall, Some(Duration::from_millis(4000)));
    assert_eq!(settings.limits.judge_time, Duration::from_millis(7000));
    // Its own validator judges it: runner.toml's checker is a built-in problem's.
    assert_eq!(settings.checker, Checker::TOKENS);
    assert_eq!(settings.interactor, None);
    // A package leaving memory and output to the judge gets the format's defaults, not
    // runner.toml's.
    let bare = judged_under(&package(true), config.settings("p"), &none, SECONDS_2);
    assert_eq!(bare.limits.memory_mib, 2048);
    assert_eq!(bare.limits.output_mib, 8);
}

#[test]
fn flags_win_over_the_package_and_runner_toml() {
    let flags = Overrides {
        time_limit: Some(Duration::from_millis(700)),
        wall_time_limit: Some(Duration::from_millis(900)),
        memory_limit_mb: Some(50),
        output_limit_mb: Some(5),
        checker: Some(Checker::parse("exact", &PathBuf::new()).unwrap()),
        env: vec![("A".into(), "1".into())],
        ..Overrides::default()
    };
    let config = config(Some(RUNNER), &flags);
    let settings = judged_under(&package(false), config.settings("p"), &flags, SECONDS_2);
    assert_eq!(settings.limits.memory_mib, 50);
    assert_eq!(settings.limits.output_mib, 5);
    assert_eq!(settings.limits.time, Duration::from_millis(700));
    assert_eq!(settings.limits.wall, Some(Duration::from_millis(900)));
    assert_eq!(settings.limits.judge_time, Duration::from_millis(7000));
    assert_eq!(settings.checker.to_string(), "exact");
    assert_eq!(settings.env, [("A".into(), "1".into())]);
}

#[test]
fn without_runner_toml_a_package_is_judged_under_the_defaults_where_it_says_nothing() {
    let none = Overrides::default();
    let config = config(None, &none);
    let settings = judged_under(&package(false), config.settings("p"), &none, SECONDS_2);
    assert_eq!(settings.limits.memory_mib, 100);
    assert_eq!(settings.limits.wall, None);
    assert_eq!(settings.limits.judge_time, Duration::from_millis(30_000));
    assert!(settings.env.is_empty());
}

#[test]
fn a_fixtures_folder_is_judged_under_runner_toml_its_table_first() {
    let none = Overrides::default();
    let config = config(Some(RUNNER), &none);
    for (name, memory) in [("fx", 120), ("hello", 300)] {
        let base = config.settings(name);
        let problem = judged_by_settings(
            name,
            PathBuf::from("fixtures").join(name),
            base,
            Fixed::Runner,
            [],
            vec![],
            false,
        );
        let settings = judged_under(&problem, base, &none, None);
        assert_eq!(settings.limits.memory_mib, memory, "{name}");
        assert_eq!(settings.limits.output_mib, 40, "{name}");
        assert_eq!(settings.limits.time, Duration::from_millis(1500), "{name}");
        assert_eq!(settings.limits.wall, Some(Duration::from_millis(4000)));
        assert_eq!(settings.checker.to_string(), "lines", "{name}");
    }
}
