//! Tests of `problem.yaml` reading (metadata.rs), per format version.

use super::*;
use crate::package::yaml;

fn read_text(text: &str) -> Result<(Metadata, Vec<String>), String> {
    let file = Path::new("problem.yaml");
    let root = yaml::parse(file, text).map_err(|e| e.to_string())?;
    let empty = Node {
        value: Value::Map(vec![]),
        raw: String::new(),
        line: 1,
        column: 1,
    };
    let mut warnings = vec![];
    let metadata =
        parse(file, root.as_ref().unwrap_or(&empty), &mut warnings).map_err(|e| e.to_string())?;
    Ok((metadata, warnings.iter().map(ToString::to_string).collect()))
}

fn ok(text: &str) -> Metadata {
    let (metadata, warnings) = read_text(text).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    metadata
}

#[test]
fn no_version_is_legacy_with_legacy_defaults() {
    let m = ok("name: Hello World!\n");
    assert_eq!(m.version, FormatVersion::Legacy);
    assert_eq!(m.display_name(), Some("Hello World!"));
    assert_eq!(m.problem_type, ProblemType::default());
    assert_eq!(m.problem_type.to_string(), "pass-fail");
    assert_eq!(m.license, "unknown");
    assert_eq!(m.limits.ac_to_time_limit, 5.0);
    assert!(!m.custom_validation);
}

#[test]
fn an_empty_file_is_a_legacy_package_with_defaults() {
    let m = ok("");
    assert_eq!(m.version, FormatVersion::Legacy);
    assert!(m.name.is_empty());
}

#[test]
fn legacy_validation_and_type_forms() {
    let m = ok("type: scoring\nvalidation: custom interactive score\nvalidator_flags: float_tolerance 1e-6\n");
    assert!(m.problem_type.scoring && m.problem_type.interactive);
    assert!(m.custom_validation && m.custom_score);
    assert_eq!(m.validator_flags, ["float_tolerance", "1e-6"]);
    assert_eq!(m.problem_type.to_string(), "scoring interactive");
    let m = ok("validation: custom multipass\n");
    assert!(m.problem_type.multi_pass && m.custom_validation);
    let error = read_text("validation: custom fancy\n").unwrap_err();
    assert_eq!(
        error,
        "problem.yaml:1:13: validation must be `default` or `custom` followed by any of interactive, score, \
         multipass, found \"custom fancy\""
    );
    assert!(read_text("type: interactive\n")
        .unwrap_err()
        .contains("type must be pass-fail or scoring"));
}

#[test]
fn legacy_strings_for_author_source_and_keywords() {
    let m = ok(
        "author: Ada Lovelace, Alan Turing and Grace Hopper\nsource: NWERC 2024\n\
                source_url: https://example.org\nkeywords: graphs greedy\nlicense: cc by-sa\n\
                rights_owner: NWERC\nuuid: abc-123\n",
    );
    assert_eq!(m.authors, ["Ada Lovelace", "Alan Turing", "Grace Hopper"]);
    assert_eq!(
        m.source,
        [Source {
            name: "NWERC 2024".into(),
            url: Some("https://example.org".into())
        }]
    );
    assert_eq!(m.keywords, ["graphs", "greedy"]);
    assert_eq!(m.rights_owner.as_deref(), Some("NWERC"));
    assert_eq!(m.license, "cc by-sa");
    assert!(read_text("uuid: [1]\n")
        .unwrap_err()
        .contains("uuid must be a string"));
}

#[test]
fn new_versions_read_names_types_and_credits() {
    let m = ok("problem_format_version: 2025-09\nname:\n  en: Hello\n  pt-BR: Olá\ntype: [scoring, interactive]\n\
                uuid: 8ee7605a-d1ce-47b3-be37-15de5acd757e\ncredits:\n  authors:\n  - Ada <ada@example.org>\n  \
                - name: Alan\nsource:\n  - name: NWERC 2024\n    url: https://example.org\n  - SWERC 2024\n\
                keywords: [graphs]\n");
    assert_eq!(m.version, FormatVersion::V2025_09);
    assert_eq!(m.name.len(), 2);
    assert_eq!(m.display_name(), Some("Hello"));
    assert!(m.problem_type.scoring && m.problem_type.interactive);
    assert_eq!(m.authors, ["Ada <ada@example.org>", "Alan"]);
    assert_eq!(m.source.len(), 2);
    assert_eq!(m.keywords, ["graphs"]);
    assert_eq!(m.limits.ac_to_time_limit, 2.0);
    let m =
        ok("problem_format_version: 2023-07-draft\ntype: multi-pass\ncredits: Ada\nsource: BAPC\n");
    assert_eq!(m.version, FormatVersion::V2023_07);
    assert!(m.problem_type.multi_pass);
    assert_eq!(m.authors, ["Ada"]);
    assert_eq!(m.source[0].name, "BAPC");
    let m = ok("problem_format_version: 2023-07\ntype: scoring interactive\n");
    assert!(m.problem_type.scoring && m.problem_type.interactive);
}

#[test]
fn incompatible_or_unknown_types_are_errors() {
    let error =
        read_text("problem_format_version: 2025-09\ntype: [pass-fail, scoring]\n").unwrap_err();
    assert_eq!(
        error,
        "problem.yaml:2:7: type cannot combine pass-fail and scoring"
    );
    let error = read_text("problem_format_version: 2025-09\ntype: [submit-answer, interactive]\n")
        .unwrap_err();
    assert!(error.contains("cannot combine submit-answer"), "{error}");
    let error =
        read_text("problem_format_version: 2025-09\ntype: [scoring, scoring]\n").unwrap_err();
    assert!(error.contains("lists `scoring` twice"), "{error}");
    let error = read_text("problem_format_version: 2025-09\ntype: fancy\n").unwrap_err();
    assert!(error.contains("type must be pass-fail, scoring"), "{error}");
}

#[test]
fn unknown_versions_and_licenses_are_errors() {
    let error = read_text("problem_format_version: 2023-07-daft\n").unwrap_err();
    assert!(
        error.starts_with("problem.yaml:1:25: problem_format_version must be one of"),
        "{error}"
    );
    assert!(error.contains("(did you mean `2023-07-draft`?)"), "{error}");
    let error = read_text("license: mit\n").unwrap_err();
    assert!(
        error.contains("license must be one of unknown, public domain"),
        "{error}"
    );
}

#[test]
fn unknown_keys_are_warnings_and_legacy_keys_in_new_versions_say_what_replaced_them() {
    let (m, warnings) =
        read_text("problem_format_version: 2025-09\nnmae: x\nvalidation: custom\n").unwrap();
    assert!(
        !m.custom_validation,
        "new versions take the validator from output_validator/"
    );
    assert_eq!(
        warnings,
        [
            "problem.yaml:2:1: unknown key `nmae` (did you mean `name`?)",
            "problem.yaml:3:1: unknown key `validation` is legacy only; this version uses `type` (and an \
             output_validator/ folder)"
        ]
    );
    let (_, warnings) = read_text("credits: x\n").unwrap();
    assert_eq!(warnings.len(), 1, "credits is not a legacy key");
}

#[test]
fn wrong_types_are_located() {
    let error = read_text("problem_format_version: 2025-09\nname: [a]\n").unwrap_err();
    assert_eq!(
        error,
        "problem.yaml:2:7: name must be a string or a map of language codes to names, found a list"
    );
    let error = read_text("limits: 3\n").unwrap_err();
    assert_eq!(
        error,
        "problem.yaml:1:9: limits must be a map of keys to values, found 3"
    );
    let error = read_text("- a\n").unwrap_err();
    assert!(error.contains("the file must be a map"), "{error}");
}

#[test]
fn other_new_keys_are_type_checked() {
    let m = ok(
        "problem_format_version: 2025-09\nlanguages: [cpp, python3]\nallow_file_writing: true\n\
                version: '1.2'\nembargo_until: 2026-01-01\nconstants: {max_n: 100}\n",
    );
    assert_eq!(m.languages, ["cpp", "python3"]);
    assert!(m.allow_file_writing);
    assert!(ok("problem_format_version: 2025-09\nlanguages: all\n")
        .languages
        .is_empty());
    let error =
        read_text("problem_format_version: 2025-09\nallow_file_writing: yes please\n").unwrap_err();
    assert!(
        error.contains("allow_file_writing must be true or false"),
        "{error}"
    );
    let error = read_text("problem_format_version: 2025-09\nconstants: [1]\n").unwrap_err();
    assert!(error.contains("constants must be a map"), "{error}");
    let error = read_text("problem_format_version: 2025-09\nversion: [1]\n").unwrap_err();
    assert!(error.contains("version must be a string"), "{error}");
}

#[test]
fn legacy_grading_objective_and_its_deprecated_keys() {
    let m = ok("type: scoring\ngrading:\n  objective: min\n  show_test_data_groups: true\n");
    assert!(m.grading.minimize);
    // As Swedish olympiad packages write it, a boolean to YAML 1.1.
    assert!(
        !ok("grading:\n  show_test_data_groups: yes\n")
            .grading
            .minimize
    );
    assert!(read_text("grading:\n  show_test_data_groups: maybe\n").is_err());
    assert_eq!(ok("name: x\n").grading, ProblemGrading::default());
    let (m, warnings) =
        read_text("grading:\n  range: 0 50\n  on_reject: grade\n  accept_score: 5\n").unwrap();
    assert_eq!(
        m.grading,
        ProblemGrading {
            minimize: false,
            accept_score: Some(5.0),
            reject_score: None,
            range: Some((0.0, 50.0)),
            on_reject_continue: Some(true),
        }
    );
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(
        warnings.iter().any(
            |w| w.starts_with("problem.yaml:2:10: grading.range in problem.yaml is deprecated")
        ),
        "{warnings:?}"
    );
    let error = read_text("grading:\n  objective: least\n").unwrap_err();
    assert!(
        error.contains("grading.objective must be max or min"),
        "{error}"
    );
    let (_, warnings) = read_text("grading:\n  objectve: min\n").unwrap();
    assert!(
        warnings[0].contains("unknown key `grading.objectve`"),
        "{warnings:?}"
    );
}
