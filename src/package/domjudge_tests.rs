use super::*;
use crate::package::metadata;
use crate::package::test_support::{root, tree};

/// What a package of `files` ends with, paths in warnings relative to the package.
#[derive(Debug)]
struct InForce {
    limit: Option<f64>,
    name: Option<String>,
    warnings: Vec<String>,
}

/// What a package of `files` ends with, or the error that refuses it, the file named relative
/// to the package.
fn read(files: &[(&str, &str)]) -> Result<InForce, Diagnostic> {
    let dir = tree(files);
    let tree = root(dir.path());
    let relative = |mut d: Diagnostic| {
        d.file = d.file.strip_prefix(dir.path()).unwrap().to_path_buf();
        d
    };
    let mut warnings = vec![];
    let mut metadata = read_metadata(&tree.join("problem.yaml"), &mut warnings).unwrap();
    apply(&tree, &mut metadata, &mut warnings).map_err(relative)?;
    Ok(InForce {
        limit: metadata.limits.time_limit.map(|l| l.as_secs_f64()),
        name: metadata.display_name().map(str::to_string),
        warnings: (warnings.into_iter())
            .map(|d| relative(d).to_string())
            .collect(),
    })
}

#[test]
fn timelimit_file_alone_sets_the_limit() {
    let found = read(&[("problem.yaml", "name: Hello\n"), (".timelimit", "  2.5\n")]).unwrap();
    assert_eq!(found.limit, Some(2.5));
    assert!(found.warnings.is_empty(), "{:?}", found.warnings);
    let dir = tree(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit = 2\n"),
    ]);
    let mut metadata = read_metadata(&root(dir.path()).join("problem.yaml"), &mut vec![]).unwrap();
    apply(&root(dir.path()), &mut metadata, &mut vec![]).unwrap();
    assert_eq!(metadata.limits.time_limit_file, "domjudge-problem.ini");
}

#[test]
fn problem_yaml_then_the_ini_then_timelimit_win_and_losers_warn_where_they_are() {
    let found = read(&[
        ("problem.yaml", "limits:\n  time_limit: 3\n"),
        ("domjudge-problem.ini", "; settings\ntimelimit = 2\n"),
        (".timelimit", "5\n"),
    ])
    .unwrap();
    assert_eq!(found.limit, Some(3.0));
    assert_eq!(
            found.warnings,
            [
                "domjudge-problem.ini:2:13: 2 s is overruled by problem.yaml's limits.time_limit 3 s (DOMjudge's precedence; DOMjudge refuses a package whose .timelimit disagrees with the limit in force)",
                ".timelimit:1:1: 5 s is overruled by problem.yaml's limits.time_limit 3 s (DOMjudge's precedence; DOMjudge refuses a package whose .timelimit disagrees with the limit in force)",
            ]
        );
    let found = read(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit='4'\n"),
        (".timelimit", "4"),
    ])
    .unwrap();
    assert_eq!(found.limit, Some(4.0));
    assert!(
        found.warnings.is_empty(),
        "agreeing values say nothing: {:?}",
        found.warnings
    );
    let found = read(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit = 4\n"),
        (".timelimit", "1"),
    ])
    .unwrap();
    assert!(
        found.warnings[0].contains("overruled by domjudge-problem.ini's timelimit 4 s"),
        "{:?}",
        found.warnings
    );
}

#[test]
fn the_ini_names_a_nameless_problem_and_warns_about_what_it_cannot_use() {
    let found = read(&[
            ("problem.yaml", ""),
            (
                "domjudge-problem.ini",
                "name = \"Hello\nWorld\"\ncolor = #ff0000\nspecial_compare = boolfind_cmp\ntimelimt = 3\n",
            ),
        ])
        .unwrap();
    assert_eq!(found.name.as_deref(), Some("Hello\nWorld"));
    assert_eq!(found.warnings.len(), 2, "{:?}", found.warnings);
    assert!(
        found.warnings[0].starts_with(
            "domjudge-problem.ini:4:19: special_compare names a DOMjudge executable \
                 (`boolfind_cmp`)"
        ),
        "{:?}",
        found.warnings
    );
    assert!(
        found.warnings[1].starts_with(
            "domjudge-problem.ini:5:12: `timelimt` is not a key DOMjudge reads; ignored"
        ),
        "{:?}",
        found.warnings
    );
    assert!(
        found.warnings[1].contains("timelimit"),
        "did you mean: {:?}",
        found.warnings
    );
    let found = read(&[
        ("problem.yaml", "name: Hi\n"),
        ("domjudge-problem.ini", "name=Other\n"),
    ])
    .unwrap();
    assert_eq!(found.name.as_deref(), Some("Hi"));
    assert_eq!(
        found.warnings,
        ["domjudge-problem.ini:1:6: name `Other` is overruled by problem.yaml's name `Hi`"]
    );
}

#[test]
fn bad_values_are_located_errors_and_an_unparsable_ini_is_ignored() {
    let error = read(&[("problem.yaml", ""), (".timelimit", "\n  fast\n")]).unwrap_err();
    assert_eq!(
        (error.file.as_path(), error.line, error.column),
        (std::path::Path::new(".timelimit"), 2, 3)
    );
    assert_eq!(
        error.to_string(),
        ".timelimit:2:3: must hold the time limit, a number of seconds from 0.001 to 86400 (a \
         millisecond to a day), found `fast`"
    );
    for bad in [
        "0", "-1", "inf", "NaN", "1s", "1e300", "1e-300", "0.0009", "86401",
    ] {
        assert!(
            read(&[("problem.yaml", ""), (".timelimit", bad)]).is_err(),
            "{bad}"
        );
    }
    let error = read(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit = soon\n"),
    ])
    .unwrap_err()
    .to_string();
    assert_eq!(
        error,
        "domjudge-problem.ini:1:13: timelimit must be a number of seconds from 0.001 to 86400 \
         (a millisecond to a day), found `soon`"
    );
    let error = read(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit = 1e300\n"),
    ])
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with("domjudge-problem.ini:1:13: timelimit must be"),
        "{error}"
    );
    let found = read(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "timelimit = 2\nname = \"open\n"),
    ])
    .unwrap();
    assert_eq!(found.limit, None);
    assert!(
        found.warnings[0].starts_with(
            "domjudge-problem.ini:2:8: a value opened with \" is never closed; DOMjudge \
                 ignores"
        ),
        "{:?}",
        found.warnings
    );
    let found = read(&[
        ("problem.yaml", ""),
        ("domjudge-problem.ini", "[problem]\njust words\n"),
    ])
    .unwrap();
    assert!(
        found.warnings[0].starts_with("domjudge-problem.ini:2:1: a line that is neither"),
        "{:?}",
        found.warnings
    );
}

#[test]
fn files_over_the_cap_or_not_text_are_errors() {
    let big = "1".repeat(MAX_BYTES as usize + 1);
    assert!(read(&[("problem.yaml", ""), (".timelimit", &big)])
        .unwrap_err()
        .message
        .contains("too large"));
    let dir = tree(&[("problem.yaml", "")]);
    std::fs::write(dir.path().join(".timelimit"), b"1\n\xff").unwrap();
    let tree = root(dir.path());
    let mut metadata = read_metadata(&tree.join("problem.yaml"), &mut vec![]).unwrap();
    let error = apply(&tree, &mut metadata, &mut vec![]).unwrap_err();
    assert_eq!((error.line, error.column), (2, 1));
}

/// `problem.yaml` at `file` read as a package's reader reads it.
fn read_metadata(
    file: &crate::files::beneath::TreePath,
    warnings: &mut Vec<Diagnostic>,
) -> Result<metadata::Metadata, Diagnostic> {
    let yaml = crate::package::yaml::read(file, crate::package::yaml::PROBLEM_YAML_BYTES)?;
    metadata::of_yaml(file.path(), yaml.as_ref(), warnings)
}
