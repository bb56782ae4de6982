//! Tests of group and case settings (settings.rs).

use super::*;
use crate::package::test_support::{constants, root};

fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> TreePath {
    std::fs::write(dir.path().join(name), text).unwrap();
    root(dir.path()).join(name)
}

fn group(
    version: FormatVersion,
    parent: &Settings,
    text: &str,
) -> Result<(Settings, Vec<String>), String> {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "test_group.yaml", text);
    let mut warnings = vec![];
    let settings = parent
        .inherited(version)
        .with_group_file(&path, version, &Constants::default(), &mut warnings)
        .map_err(|e| {
            e.to_string()
                .replace(&dir.path().display().to_string(), "data")
        })?;
    let warnings = warnings
        .iter()
        .map(|w| {
            w.to_string()
                .replace(&dir.path().display().to_string(), "data")
        })
        .collect();
    Ok((settings, warnings))
}

fn strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn legacy_flags_are_strings_split_like_a_shell() {
    let (s, warnings) = group(
        FormatVersion::Legacy,
        &Settings::root(),
        "output_validator_flags: float_tolerance 1e-6\ninput_validator_flags: --max 10\non_reject: continue\n\
         grading: custom\ngrader_flags: first_error ignore_sample\naccept_score: 2\nrange: -inf +inf\n",
    )
    .unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        s.output_validator_args,
        strings(&["float_tolerance", "1e-6"])
    );
    assert_eq!(
        s.input_validator_args.for_validator("any"),
        strings(&["--max", "10"])
    );
    assert!(s.grading.on_reject_continue && s.grading.custom_grader);
    assert_eq!(
        s.grading.grader_flags,
        strings(&["first_error", "ignore_sample"])
    );
    assert_eq!(s.grading.accept_score, Some(2.0));
    assert_eq!(s.grading.range, Some((f64::NEG_INFINITY, f64::INFINITY)));
}

#[test]
fn legacy_input_validator_flags_per_validator() {
    let (s, _) = group(
        FormatVersion::Legacy,
        &Settings::root(),
        "input_validator_flags:\n  name: check\n  flags: --small\n",
    )
    .unwrap();
    assert_eq!(
        s.input_validator_args.for_validator("check"),
        strings(&["--small"])
    );
    assert!(s.input_validator_args.for_validator("other").is_empty());
    let (s, _) = group(
        FormatVersion::Legacy,
        &Settings::root(),
        "input_validator_flags:\n  a: --x\n  b: [--y, '2']\n",
    )
    .unwrap();
    assert_eq!(
        s.input_validator_args.for_validator("b"),
        strings(&["--y", "2"])
    );
}

#[test]
fn legacy_files_replace_the_inherited_settings_whole() {
    let (parent, _) = group(
        FormatVersion::Legacy,
        &Settings::root(),
        "output_validator_flags: case_sensitive\non_reject: continue\n",
    )
    .unwrap();
    assert_eq!(
        parent.inherited(FormatVersion::Legacy),
        parent,
        "no file: the nearest one applies"
    );
    let (child, _) = group(FormatVersion::Legacy, &parent, "accept_score: 1\n").unwrap();
    assert!(child.output_validator_args.is_empty());
    assert!(!child.grading.on_reject_continue);
}

#[test]
fn new_versions_inherit_arguments_key_by_key_but_not_scoring() {
    let (parent, _) = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "output_validator_args: [case_sensitive]\nargs: [--fast]\nmax_score: 40\nscore_aggregation: min\nrequire_pass: sample\n",
    )
    .unwrap();
    assert_eq!(parent.grading.max_score, Some(MaxScore::Points(40.0)));
    assert_eq!(parent.grading.score_aggregation.as_deref(), Some("min"));
    assert_eq!(parent.grading.require_pass, ["sample"]);
    let (child, _) = group(
        FormatVersion::V2025_09,
        &parent,
        "input_validator_args:\n  check: [--n, 5]\nfull_feedback: true\n",
    )
    .unwrap();
    assert_eq!(child.output_validator_args, ["case_sensitive"]);
    assert_eq!(child.args, ["--fast"]);
    assert_eq!(
        child.input_validator_args.for_validator("check"),
        ["--n", "5"]
    );
    assert!(child.full_feedback);
    assert_eq!(child.grading, Grading::default());
    let (unbounded, _) = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "max_score: unbounded\n",
    )
    .unwrap();
    assert_eq!(unbounded.grading.max_score, Some(MaxScore::Unbounded));
}

#[test]
fn the_other_versions_names_are_read_with_a_warning() {
    let (s, warnings) = group(
        FormatVersion::V2023_07,
        &Settings::root(),
        "output_validator_flags: float_tolerance 0.1\n",
    )
    .unwrap();
    assert_eq!(s.output_validator_args, ["float_tolerance", "0.1"]);
    assert_eq!(
        warnings,
        ["data/test_group.yaml:1:25: `output_validator_flags` is how another format version names `output_validator_args`; read as `output_validator_args`"]
    );
    let (s, warnings) = group(
        FormatVersion::Legacy,
        &Settings::root(),
        "output_validator_args: [case_sensitive]\n",
    )
    .unwrap();
    assert_eq!(s.output_validator_args, ["case_sensitive"]);
    assert_eq!(warnings.len(), 1);
}

#[test]
fn unknown_keys_warn_and_wrong_types_are_located() {
    let (_, warnings) = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "output_validator_arg: [x]\n",
    )
    .unwrap();
    assert_eq!(warnings, ["data/test_group.yaml:1:1: unknown key `output_validator_arg` (did you mean `output_validator_args`?)"]);
    let error = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "full_feedback: maybe\n",
    )
    .unwrap_err();
    assert_eq!(
        error,
        "data/test_group.yaml:1:16: full_feedback must be true or false, found \"maybe\""
    );
    let error = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "output_validator_args: {a: 1}\n",
    )
    .unwrap_err();
    assert!(
        error.contains("output_validator_args must be a list of arguments"),
        "{error}"
    );
    let error = group(
        FormatVersion::Legacy,
        &Settings::root(),
        "on_reject: stop\n",
    )
    .unwrap_err();
    assert!(
        error.contains("on_reject must be break or continue"),
        "{error}"
    );
    let error = group(FormatVersion::Legacy, &Settings::root(), "range: 5\n").unwrap_err();
    assert!(error.contains("range must be two numbers"), "{error}");
    let error = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "score_aggregation: max\n",
    )
    .unwrap_err();
    assert!(
        error.contains("score_aggregation must be pass-fail, sum or min"),
        "{error}"
    );
}

#[test]
fn arguments_naming_absolute_paths_are_refused_where_they_are_written() {
    let error = |version, text| group(version, &Settings::root(), text).unwrap_err();
    let refused = "is an absolute path: programs are shown the files their arguments name, and \
                   a package may name nothing outside it";
    assert_eq!(
        error(
            FormatVersion::V2025_09,
            "output_validator_args: [case_sensitive, /root/secret]\n"
        ),
        format!("data/test_group.yaml:1:41: `/root/secret` {refused}")
    );
    assert_eq!(
        error(
            FormatVersion::V2025_09,
            "input_validator_args:\n  v: [--max, /etc/shadow]\n"
        ),
        format!("data/test_group.yaml:2:14: `/etc/shadow` {refused}")
    );
    assert_eq!(
        error(
            FormatVersion::Legacy,
            "output_validator_flags: float_tolerance /x\n"
        ),
        format!("data/test_group.yaml:1:25: `/x` {refused}")
    );
    let (settings, _) = group(
        FormatVersion::V2025_09,
        &Settings::root(),
        "output_validator_args: [a/b, ../c, x=/y]\n",
    )
    .unwrap();
    assert_eq!(settings.output_validator_args, ["a/b", "../c", "x=/y"]);
}

#[test]
fn an_empty_file_keeps_the_inherited_settings_in_new_versions() {
    let parent = Settings {
        args: strings(&["x"]),
        ..Settings::root()
    };
    let (s, _) = group(FormatVersion::V2025_09, &parent, "").unwrap();
    assert_eq!(s.args, ["x"]);
    let (s, _) = group(FormatVersion::Legacy, &parent, "").unwrap();
    assert!(s.args.is_empty());
}

#[test]
fn case_files_override_their_group() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        "1.yaml",
        "args: [a, b]\nhint: think\ndescription: the largest case\n",
    );
    let group = Settings {
        output_validator_args: strings(&["case_sensitive"]),
        ..Settings::root()
    };
    let s = group
        .with_case_file(&path, FormatVersion::V2025_09, &mut vec![])
        .unwrap();
    assert_eq!(s.args, ["a", "b"]);
    assert_eq!(s.output_validator_args, ["case_sensitive"]);
    assert_eq!(
        (s.hint.as_deref(), s.description.as_deref()),
        (Some("think"), Some("the largest case"))
    );
    let bad = file(&dir, "2.yaml", "max_score: 3\n");
    let mut warnings = vec![];
    group
        .with_case_file(&bad, FormatVersion::V2025_09, &mut warnings)
        .unwrap();
    assert_eq!(warnings.len(), 1, "group-only keys are unknown for a case");
}

#[test]
fn a_group_files_constants_are_substituted_in_its_text_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(
        &dir,
        "test_group.yaml",
        "output_validator_args: [float_tolerance, {{tol}}, '{{tol.tex}}', '{{none}}']\n",
    );
    let constants = constants("constants:\n  tol: {value: 0.5, tex: half}\n").unwrap();
    let settings = Settings::root()
        .with_group_file(&path, FormatVersion::V2025_09, &constants, &mut vec![])
        .unwrap();
    assert_eq!(
        settings.output_validator_args,
        ["float_tolerance", "0.5", "half", "{{none}}"]
    );
}

#[test]
fn a_group_file_its_constants_would_grow_past_the_cap_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = file(&dir, "test_group.yaml", &"{{big}}".repeat(1000));
    let constants = constants(&format!("constants:\n  big: '{}'\n", "x".repeat(2000))).unwrap();
    let error = Settings::root()
        .with_group_file(&path, FormatVersion::V2025_09, &constants, &mut vec![])
        .unwrap_err()
        .to_string();
    assert!(error.contains("test_group.yaml"), "{error}");
    assert!(
        error.contains("once the constants are substituted"),
        "{error}"
    );
}
