use super::*;
use crate::checking::Comparison;

fn load(text: &str, overrides: &Overrides) -> Result<Config, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runner.toml");
    std::fs::write(&path, text).unwrap();
    Config::load(Some(&path), overrides, |id, _| {
        grundy_problems::find(id).is_some()
    })
    .map_err(|e| {
        e.to_string()
            .replace(&path.display().to_string(), "runner.toml")
    })
}

#[test]
fn empty_file_means_defaults() {
    let config = load("", &Overrides::default()).unwrap();
    assert_eq!(config.settings("nim"), &Settings::default());
    assert!(config.jobs >= 1);
    assert!(config.fixtures.ends_with("fixtures"));
}

#[test]
fn problem_tables_override_the_top_level_and_flags_override_both() {
    let text = "time_limit_ms = 500\nchecker = \"lines\"\n[problems.s-nim]\nchecker = \"exact\"\n";
    let config = load(text, &Overrides::default()).unwrap();
    assert_eq!(
        config.settings("nim").checker,
        Checker::Compare(Comparison::Lines)
    );
    assert_eq!(
        config.settings("s-nim").checker,
        Checker::Compare(Comparison::Exact)
    );
    assert_eq!(
        config.settings("s-nim").time_limit,
        Duration::from_millis(500)
    );
    let flags = Overrides {
        checker: Some(Checker::TOKENS),
        time_limit_ms: Some(7),
        ..Overrides::default()
    };
    let config = load(text, &flags).unwrap();
    assert_eq!(config.settings("s-nim").checker, Checker::TOKENS);
    assert_eq!(config.settings("nim").time_limit, Duration::from_millis(7));
}

#[test]
fn unknown_key_names_line_column_and_suggestion() {
    let err = load("jobs = 2\n\ntimelimit = 5\n", &Overrides::default()).unwrap_err();
    assert!(
        err.starts_with("runner.toml:3:1: unknown field `timelimit`"),
        "{err}"
    );
    assert!(err.contains("did you mean `time_limit_ms`?"), "{err}");
    let err = load(
        "[problems.nim]\nchekcer = \"lines\"\n",
        &Overrides::default(),
    )
    .unwrap_err();
    assert!(err.starts_with("runner.toml:2:1:"), "{err}");
    assert!(err.contains("did you mean `checker`?"), "{err}");
}

#[test]
fn unknown_keys_are_found_in_the_tables_themselves_first_in_the_file_first() {
    assert_eq!(fields_of::<ProblemTable>().len(), 7);
    assert!(fields_of::<RunnerFile>().contains(&"box_uids"));
    let text = "[problems.nim]\nchekcer = \"lines\"\n\n[problems.s-nim]\nx = 1\n";
    let err = load(text, &Overrides::default()).unwrap_err();
    assert_eq!(
        err,
        "runner.toml:2:1: unknown field `chekcer`, expected one of `time_limit_ms`, \
         `wall_time_limit_ms`, `memory_limit_mb`, `output_limit_mb`, `checker`, \
         `interactor`, `judge_time_limit_ms` (did you mean `checker`?)"
    );
    let err = load("\"zzz\" = 1\n", &Overrides::default()).unwrap_err();
    assert!(
        err.starts_with("runner.toml:1:1: unknown field `zzz`"),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn wrong_type_is_located() {
    let err = load(
        "jobs = 1\ntime_limit_ms = \"fast\"\n",
        &Overrides::default(),
    )
    .unwrap_err();
    assert!(err.starts_with("runner.toml:2:17:"), "{err}");
}

#[test]
fn wrong_types_and_duplicates_name_their_key() {
    let error = |text: &str| load(text, &Overrides::default()).unwrap_err();
    assert_eq!(
        error("jobs = \"two\"\n"),
        "runner.toml:1:8: `jobs`: expected a whole number (0 means one per core), found the \
         string \"two\""
    );
    assert_eq!(
        error("[problems.nim]\nmemory_limit_mb = -1\n"),
        "runner.toml:2:19: `problems.nim.memory_limit_mb`: expected a whole number of MiB, \
         found -1"
    );
    assert_eq!(
        error("jobs = 2\njobs = 3\n"),
        "runner.toml:2:1: duplicate key: `jobs`"
    );
    assert!(
        error("[problems.nim]\n[problems.nim]\n").ends_with("duplicate key: `[problems.nim]`"),
        "a table header is named whole"
    );
}

#[test]
fn every_key_says_what_it_takes() {
    let keys = invalid::fields_of::<RunnerFile>()
        .iter()
        .chain(invalid::fields_of::<ProblemTable>());
    for key in keys {
        let expected = invalid::expected_of(&[key.to_string()]);
        assert_ne!(
            expected, "another type",
            "`{key}` needs words in expected_of"
        );
    }
}

#[test]
fn unknown_problem_is_located_with_a_suggestion() {
    let err = load(
        "[problems.snim]\nchecker = \"lines\"\n",
        &Overrides::default(),
    )
    .unwrap_err();
    assert!(
        err.starts_with("runner.toml:1:11: no built-in problem `snim`"),
        "{err}"
    );
    assert!(err.contains("did you mean `s-nim`?"), "{err}");
}

#[test]
fn bad_checker_and_zero_limit_are_located() {
    let err = load("checker = \"fuzzy\"\n", &Overrides::default()).unwrap_err();
    assert!(
        err.starts_with("runner.toml:1:11: unknown checker `fuzzy`"),
        "{err}"
    );
    let err = load("\nmemory_limit_mb = 0\n", &Overrides::default()).unwrap_err();
    assert!(
        err.starts_with(
            "runner.toml:2:19: memory_limit_mb must be a whole number of MiB from 1 to "
        ),
        "{err}"
    );
}

#[test]
fn missing_default_file_is_fine_but_a_named_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("nope.toml");
    let err = Config::load(Some(&named), &Overrides::default(), |_, _| true).unwrap_err();
    assert!(format!("{err:#}").contains("cannot read the runner file"));
}

#[test]
fn a_key_set_twice_is_named_where_it_repeats() {
    let err = load(
        "jobs = 1\ntime_limit_ms = 5\njobs = 2\n",
        &Overrides::default(),
    )
    .unwrap_err();
    assert!(err.starts_with("runner.toml:3:1: duplicate key"), "{err}");
    assert!(err.ends_with("`jobs`"), "{err}");
}
