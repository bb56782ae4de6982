//! Tests of reading `data/` (testdata.rs) on temporary packages.

use super::*;
use crate::package::test_support::{root, tree};

fn read_data(
    dir: &tempfile::TempDir,
    version: FormatVersion,
) -> Result<(TestData, Vec<String>), String> {
    let mut warnings = vec![];
    let prefix = format!("{}/", dir.path().display());
    let data = read(
        &root(dir.path()),
        version,
        &[],
        &Constants::default(),
        &mut warnings,
    )
    .map_err(|e| e.to_string().replace(&prefix, ""))?;
    Ok((
        data,
        warnings
            .iter()
            .map(|w| w.to_string().replace(&prefix, ""))
            .collect(),
    ))
}

fn ids(data: &TestData) -> Vec<&str> {
    data.cases.iter().map(|c| c.id.as_str()).collect()
}

fn case<'a>(data: &'a TestData, id: &str) -> &'a Case {
    data.cases.iter().find(|c| c.id == id).unwrap()
}

#[test]
fn sample_first_then_secret_with_cases_and_groups_sorted_together() {
    let dir = tree(&[
        ("data/secret/b/1.in", ""),
        ("data/secret/b/1.ans", ""),
        ("data/secret/a.in", ""),
        ("data/secret/a.ans", ""),
        ("data/secret/c.in", ""),
        ("data/secret/c.ans", ""),
        ("data/secret/b/0-x/2.in", ""),
        ("data/secret/b/0-x/2.ans", ""),
        ("data/sample/2.in", ""),
        ("data/sample/2.ans", ""),
        ("data/sample/10.in", ""),
        ("data/sample/10.ans", ""),
    ]);
    let (data, warnings) = read_data(&dir, FormatVersion::V2025_09).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        ids(&data),
        [
            "sample/10",
            "sample/2",
            "secret/a",
            "secret/b/0-x/2",
            "secret/b/1",
            "secret/c"
        ]
    );
    let groups: Vec<_> = data.groups.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(groups, ["sample", "secret", "secret/b", "secret/b/0-x"]);
    let c = case(&data, "secret/b/1");
    assert_eq!(c.group, "secret/b");
    assert_eq!(c.kind, CaseKind::Secret);
    assert_eq!(
        c.answer.as_ref().map(TreePath::path),
        Some(dir.path().join("data/secret/b/1.ans").as_path())
    );
    assert_eq!(data.judged().count(), 6);
}

#[test]
fn companion_files_are_recognised_and_other_files_ignored() {
    let dir = tree(&[
        ("data/sample/1.in", ""),
        ("data/sample/1.ans", ""),
        ("data/sample/1.out", ""),
        ("data/sample/1.interaction", ""),
        ("data/sample/1.in.statement", ""),
        ("data/sample/1.ans.download", ""),
        ("data/sample/1.hint", ""),
        ("data/sample/1.desc", ""),
        ("data/sample/1.png", ""),
        ("data/sample/1.args", ""),
        ("data/sample/1.files/extra.txt", ""),
        ("data/sample/2.interaction", ""),
        ("data/sample/notes.md", ""),
        ("data/sample/.hidden.in", ""),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", ""),
        ("generators/big.in", ""),
    ]);
    let (data, _) = read_data(&dir, FormatVersion::V2025_09).unwrap();
    assert_eq!(ids(&data), ["sample/1", "secret/1"]);
    let c = case(&data, "sample/1");
    assert!(c.output.is_some() && c.interaction.is_some() && c.files.is_some());
    assert_eq!(c.extras.len(), 6);
    assert!(c.settings.full_feedback, "samples give full feedback");
    assert!(!case(&data, "secret/1").settings.full_feedback);
}

#[test]
fn validation_folders_need_their_files() {
    let dir = tree(&[
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", ""),
        ("data/invalid_input/neg.in", "-1\n"),
        ("data/invalid_answer/bad.in", ""),
        ("data/invalid_answer/bad.ans", ""),
        ("data/invalid_output/wrong.in", ""),
        ("data/invalid_output/wrong.ans", ""),
        ("data/invalid_output/wrong.out", ""),
        ("data/valid_output/alt.in", ""),
        ("data/valid_output/alt.ans", ""),
        ("data/valid_output/alt.out", ""),
    ]);
    let (data, _) = read_data(&dir, FormatVersion::V2023_07).unwrap();
    assert_eq!(
        ids(&data),
        [
            "secret/1",
            "invalid_input/neg",
            "invalid_answer/bad",
            "invalid_output/wrong",
            "valid_output/alt"
        ]
    );
    assert_eq!(data.judged().count(), 1);
    assert_eq!(data.of_kind(CaseKind::InvalidOutput).count(), 1);
    assert_eq!(case(&data, "invalid_input/neg").answer, None);
    std::fs::remove_file(dir.path().join("data/valid_output/alt.out")).unwrap();
    let error = read_data(&dir, FormatVersion::V2023_07).unwrap_err();
    assert!(
        error.starts_with("data/valid_output/alt.in: this case has no .out file"),
        "{error}"
    );
    std::fs::remove_file(dir.path().join("data/secret/1.ans")).unwrap();
    let error = read_data(&dir, FormatVersion::V2023_07).unwrap_err();
    assert!(
        error.starts_with("data/secret/1.in: this case has no .ans file"),
        "{error}"
    );
}

#[test]
fn settings_are_inherited_down_the_tree() {
    let dir = tree(&[
        (
            "data/testdata.yaml",
            "output_validator_flags: float_tolerance 1e-6\n",
        ),
        (
            "data/secret/g1/testdata.yaml",
            "input_validator_flags: --small\n",
        ),
        ("data/secret/g1/1.in", ""),
        ("data/secret/g1/1.ans", ""),
        ("data/secret/g2/1.in", ""),
        ("data/secret/g2/1.ans", ""),
    ]);
    let (data, _) = read_data(&dir, FormatVersion::Legacy).unwrap();
    let g1 = &case(&data, "secret/g1/1").settings;
    assert!(
        g1.output_validator_args.is_empty(),
        "legacy: the nearest file applies whole"
    );
    assert_eq!(g1.input_validator_args.for_validator("v"), ["--small"]);
    assert_eq!(
        case(&data, "secret/g2/1").settings.output_validator_args,
        ["float_tolerance", "1e-6"]
    );

    let dir = tree(&[
        (
            "data/test_group.yaml",
            "output_validator_args: [case_sensitive]\n",
        ),
        (
            "data/secret/g1/test_group.yaml",
            "input_validator_args: [--small]\n",
        ),
        ("data/secret/g1/1.in", ""),
        ("data/secret/g1/1.ans", ""),
        ("data/secret/g1/1.yaml", "args: [--seed, '1']\n"),
    ]);
    let (data, _) = read_data(&dir, FormatVersion::V2025_09).unwrap();
    let s = &case(&data, "secret/g1/1").settings;
    assert_eq!(
        s.output_validator_args,
        ["case_sensitive"],
        "new versions inherit key by key"
    );
    assert_eq!(s.input_validator_args.for_validator("v"), ["--small"]);
    assert_eq!(s.args, ["--seed", "1"]);
}

#[test]
fn legacy_validator_flags_come_before_group_flags() {
    let dir = tree(&[("data/secret/1.in", ""), ("data/secret/1.ans", "")]);
    let data = read(
        &root(dir.path()),
        FormatVersion::Legacy,
        &["case_sensitive".to_string()],
        &Constants::default(),
        &mut vec![],
    )
    .unwrap();
    assert_eq!(
        data.cases[0].settings.output_validator_args,
        ["case_sensitive"]
    );
}

#[test]
fn the_old_settings_name_is_read_in_new_versions_with_a_warning() {
    let dir = tree(&[
        (
            "data/secret/testdata.yaml",
            "output_validator_args: [case_sensitive]\n",
        ),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", ""),
    ]);
    let (data, warnings) = read_data(&dir, FormatVersion::V2023_07).unwrap();
    assert_eq!(
        data.cases[0].settings.output_validator_args,
        ["case_sensitive"]
    );
    assert_eq!(warnings, ["data/secret/testdata.yaml: format 2023-07-draft names this file test_group.yaml; read all the same"]);
}

#[test]
fn stray_folders_and_inputs_are_warned_about_and_a_missing_data_folder_too() {
    let dir = tree(&[
        ("data/extra/1.in", ""),
        ("data/loose.in", ""),
        ("data/secret/1.in", ""),
        ("data/secret/1.ans", ""),
    ]);
    let (data, warnings) = read_data(&dir, FormatVersion::V2025_09).unwrap();
    assert_eq!(ids(&data), ["secret/1"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let empty = tree(&[("problem.yaml", "")]);
    let (data, warnings) = read_data(&empty, FormatVersion::V2025_09).unwrap();
    assert!(data.cases.is_empty());
    assert!(warnings[0].contains("there is no data folder"));
}

#[test]
fn a_case_and_a_folder_of_the_same_name_is_an_error() {
    let dir = tree(&[
        ("data/secret/huge.in", ""),
        ("data/secret/huge.ans", ""),
        ("data/secret/huge/1.in", ""),
    ]);
    let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
    assert_eq!(
        error,
        "data/secret/huge: a case and a folder have the same name"
    );
}

#[cfg(unix)]
mod links {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_inside_the_package_are_followed() {
        let dir = tree(&[("data/sample/1.in", "5\n"), ("data/sample/1.ans", "25\n")]);
        let secret = dir.path().join("data/secret");
        std::fs::create_dir_all(&secret).unwrap();
        symlink("../sample/1.in", secret.join("s1.in")).unwrap();
        symlink("../sample/1.ans", secret.join("s1.ans")).unwrap();
        symlink("../sample", secret.join("group")).unwrap();
        let (data, _) = read_data(&dir, FormatVersion::V2025_09).unwrap();
        assert_eq!(ids(&data), ["sample/1", "secret/group/1", "secret/s1"]);
        assert_eq!(case(&data, "secret/s1").input.read().unwrap(), b"5\n");
    }

    #[test]
    fn links_leaving_the_package_are_errors() {
        let outside = tree(&[("1.in", "secret stuff\n")]);
        let dir = tree(&[("data/secret/1.ans", "")]);
        symlink(
            outside.path().join("1.in"),
            dir.path().join("data/secret/1.in"),
        )
        .unwrap();
        let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
        assert!(
            error.starts_with("data/secret/1.in: links outside the package"),
            "{error}"
        );
        let dir = tree(&[("data/secret/1.in", ""), ("data/secret/1.ans", "")]);
        symlink(outside.path(), dir.path().join("data/secret/g")).unwrap();
        let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
        assert!(
            error.starts_with("data/secret/g: links outside the package"),
            "{error}"
        );
    }

    #[test]
    fn link_loops_are_errors() {
        let dir = tree(&[("data/secret/g/1.in", ""), ("data/secret/g/1.ans", "")]);
        symlink("..", dir.path().join("data/secret/g/back")).unwrap();
        let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
        assert!(
            error.starts_with("data/secret/g/back: this link leads back"),
            "{error}"
        );
    }

    #[test]
    fn an_answer_linked_out_of_the_package_is_an_error_whatever_its_target() {
        let outside = tree(&[("shadow", "root:secret\n")]);
        let dir = tree(&[("data/secret/1.in", "")]);
        symlink("../../../shadow", dir.path().join("data/secret/1.ans")).unwrap();
        let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
        assert!(
            error.starts_with("data/secret/1.ans: links outside the package (to ../../../shadow)"),
            "{error}"
        );
        std::fs::remove_file(dir.path().join("data/secret/1.ans")).unwrap();
        symlink(
            outside.path().join("shadow"),
            dir.path().join("data/secret/1.ans"),
        )
        .unwrap();
        let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
        assert!(error.contains("links outside the package"), "{error}");
        assert!(!error.contains("root:secret"), "{error}");
    }
}

#[test]
fn case_files_that_are_not_regular_files_are_errors_naming_what_they_are() {
    for file in ["1.in", "1.ans", "1.yaml", "test_group.yaml"] {
        let dir = tree(&[("data/secret/1.in", ""), ("data/secret/1.ans", "")]);
        let path = dir.path().join("data/secret").join(file);
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.unwrap().success());
        let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
        assert_eq!(
            error,
            format!(
                "data/secret/{file}: a FIFO (named pipe), not a regular file; only regular files \
                 are read"
            )
        );
    }
    let dir = tree(&[("data/secret/1.in", ""), ("data/secret/1.ans/x", "")]);
    let error = read_data(&dir, FormatVersion::V2025_09).unwrap_err();
    assert!(
        error.starts_with("data/secret/1.ans: a directory, not a regular file"),
        "{error}"
    );
}
