use super::invalid::ConfigError;
use super::privileged::{ChosenBy, NotYours, Privileged, DEFAULT_BOX_UIDS, DEFAULT_FIRST_BOX_UID};
use super::*;
use crate::checking::Comparison;

/// `text` loaded as a runner.toml; what is wrong with it named as in `runner.toml`.
fn load(text: &str, overrides: &Overrides) -> Result<Config, ConfigError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runner.toml");
    std::fs::write(&path, text).unwrap();
    Config::load(Some(&path), Found::Named, overrides, |id, _| {
        grundy_problems::find(id).is_some()
    })
    .map_err(|e| {
        let mut error = e.downcast::<ConfigError>().expect("a located error");
        error.file = PathBuf::from("runner.toml");
        error
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
        config.settings("s-nim").limits.time,
        Duration::from_millis(500)
    );
    let flags = Overrides {
        checker: Some(Checker::TOKENS),
        time_limit: Some(Duration::from_millis(7)),
        ..Overrides::default()
    };
    let config = load(text, &flags).unwrap();
    assert_eq!(config.settings("s-nim").checker, Checker::TOKENS);
    assert_eq!(config.settings("nim").limits.time, Duration::from_millis(7));
}

#[test]
fn unknown_key_names_line_column_and_suggestion() {
    let err = load("jobs = 2\n\ntimelimit = 5\n", &Overrides::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("runner.toml:3:1: unknown field `timelimit`"),
        "{err}"
    );
    assert!(err.contains("did you mean `time_limit_ms`?"), "{err}");
    let err = load(
        "[problems.nim]\nchekcer = \"lines\"\n",
        &Overrides::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("runner.toml:2:1:"), "{err}");
    assert!(err.contains("did you mean `checker`?"), "{err}");
}

#[test]
fn unknown_keys_are_found_in_the_tables_themselves_first_in_the_file_first() {
    assert_eq!(fields_of::<ProblemTable>().len(), 7);
    assert!(fields_of::<RunnerFile>().contains(&"box_uids"));
    let text = "[problems.nim]\nchekcer = \"lines\"\n\n[problems.s-nim]\nx = 1\n";
    let err = load(text, &Overrides::default()).unwrap_err().to_string();
    assert_eq!(
        err,
        "runner.toml:2:1: unknown field `chekcer`, expected one of `time_limit_ms`, \
         `wall_time_limit_ms`, `memory_limit_mb`, `output_limit_mb`, `checker`, \
         `interactor`, `judge_time_limit_ms` (did you mean `checker`?)"
    );
    let err = load("\"zzz\" = 1\n", &Overrides::default())
        .unwrap_err()
        .to_string();
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
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("runner.toml:2:17:"), "{err}");
}

#[test]
fn wrong_types_and_duplicates_name_their_key() {
    let error = |text: &str| load(text, &Overrides::default()).unwrap_err().to_string();
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
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("runner.toml:1:11: no built-in problem `snim`"),
        "{err}"
    );
    assert!(err.contains("did you mean `s-nim`?"), "{err}");
}

#[test]
fn bad_checker_and_zero_limit_are_located() {
    let err = load("checker = \"fuzzy\"\n", &Overrides::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("runner.toml:1:11: unknown checker `fuzzy`"),
        "{err}"
    );
    let err = load("\nmemory_limit_mb = 0\n", &Overrides::default())
        .unwrap_err()
        .to_string();
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
    let err = Config::load(Some(&named), Found::Named, &Overrides::default(), |_, _| {
        true
    })
    .unwrap_err();
    assert!(format!("{err:#}").contains("cannot read the runner file"));
}

#[test]
fn a_key_set_twice_is_named_where_it_repeats() {
    let err = load(
        "jobs = 1\ntime_limit_ms = 5\njobs = 2\n",
        &Overrides::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("runner.toml:3:1: duplicate key"), "{err}");
    assert!(err.ends_with("`jobs`"), "{err}");
}

/// `text` as a runner.toml found as `found`, its mode set to `mode`.
fn load_found(text: &str, found: Found, mode: u32) -> Config {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runner.toml");
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    Config::load(Some(&path), found, &Overrides::default(), |_, _| true).unwrap()
}

const PRIVILEGED: &str = "jobs = 1\nfirst_box_uid = 61000\n  box_uids = 5\nisolate = \"off\"\n";

#[test]
fn a_file_found_above_sets_nothing_beyond_the_project_and_each_key_left_out_is_located() {
    let config = load_found(PRIVILEGED, Found::Above, 0o644);
    assert_eq!(
        (config.box_uids.first, config.box_uids.count),
        (DEFAULT_FIRST_BOX_UID, DEFAULT_BOX_UIDS)
    );
    assert_eq!(config.box_uids.chosen_by, ChosenBy::Default);
    assert_eq!(config.isolate, Isolate::default());
    assert_eq!(config.jobs, 1, "the rest of the file is read");
    let ignored: Vec<_> = config
        .ignored
        .iter()
        .map(|i| (i.line, i.column, i.key, i.why))
        .collect();
    assert_eq!(
        ignored,
        [
            (2, 17, Privileged::FirstBoxUid, NotYours::Above),
            (3, 14, Privileged::BoxUids, NotYours::Above),
            (4, 11, Privileged::IsolateOff, NotYours::Above),
        ]
    );
    let warning = config.ignored[0].to_string();
    let file = config.ignored[0].file.display().to_string();
    assert_eq!(
        warning,
        format!(
            "{file}:2:17: first_box_uid is ignored: only your own settings may choose the uids \
             grundy runs judged programs as, and this file is in a folder above the one grundy \
             runs in; set GRUNDY_BOX_UIDS=FIRST:COUNT, name the file with --config, or run \
             grundy in its folder"
        )
    );
}

#[test]
fn a_file_named_or_here_and_yours_sets_the_box_uids_and_isolate_off() {
    for found in [Found::Named, Found::Here] {
        let config = load_found(PRIVILEGED, found, 0o644);
        assert_eq!((config.box_uids.first, config.box_uids.count), (61_000, 5));
        assert!(matches!(config.box_uids.chosen_by, ChosenBy::File(_)));
        assert!(config.isolate.off);
        assert!(config.ignored.is_empty());
    }
    // Writable by others, it is not yours; containment made stricter is anyone's to ask.
    let config = load_found(PRIVILEGED, Found::Here, 0o664);
    assert_eq!(config.box_uids.chosen_by, ChosenBy::Default);
    assert_eq!(config.ignored.len(), 3);
    assert!(config.ignored.iter().all(|i| i.why == NotYours::Writable));
    let config = load_found("isolate = \"strict\"\n", Found::Above, 0o644);
    assert!(config.isolate.strict && config.ignored.is_empty());
}

#[test]
fn the_variables_range_wins_over_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runner.toml");
    std::fs::write(&path, PRIVILEGED).unwrap();
    let overrides = Overrides {
        box_uids: Some((70_000, 2)),
        ..Overrides::default()
    };
    let config = Config::load(Some(&path), Found::Named, &overrides, |_, _| true).unwrap();
    assert_eq!(
        config.box_uids,
        BoxUids {
            first: 70_000,
            count: 2,
            chosen_by: ChosenBy::Environment
        }
    );
}
