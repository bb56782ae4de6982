//! `grundy new NAME --package --format VERSION` through the real binary: each format version's
//! package as that version lays it out, a `.gitignore` naming what grundy writes into it, and
//! the peers' verdicts on it taken as oracles where they are installed: problemtools'
//! `verifyproblem` (legacy, 2023-07) and BAPCtools' `bt` (2025-09), each run on a scaffold of
//! the version it reads.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{code, dump, Project};

#[test]
fn each_format_version_is_laid_out_as_that_version_says() {
    let project = Project::new();
    let legacy = project.scaffold("old", &["--format", "legacy"]);
    let mid = project.scaffold("mid", &["--package", "--format", "2023-07"]);
    let new = project.scaffold("new", &["--package"]);
    let yaml = |package: &Path| std::fs::read_to_string(package.join("problem.yaml")).unwrap();
    // Legacy: no version line, no time limit (computed), the statement in problem_statement/.
    assert!(
        !yaml(&legacy).contains("\nproblem_format_version:"),
        "{}",
        yaml(&legacy)
    );
    assert!(!yaml(&legacy).contains("time_limit:"), "{}", yaml(&legacy));
    assert!(legacy.join("problem_statement/problem.en.tex").is_file());
    // 2023-07 as problemtools spells it; 2025-09 the default, with an answer validator.
    assert!(yaml(&mid).contains("\nproblem_format_version: 2023-07-draft\n"));
    assert!(yaml(&new).contains("\nproblem_format_version: 2025-09\n"));
    for package in [&mid, &new] {
        assert!(package.join("statement/problem.en.tex").is_file());
    }
    assert!(new.join("answer_validators/validate_answer.py").is_file());
    assert!(!mid.join("answer_validators").exists());
    // The name is a string whatever it looks like (a title of digits is not a number).
    let digits = project.scaffold("2026", &["--package"]);
    assert!(
        yaml(&digits).contains("\nname: \"2026\"\n"),
        "{}",
        yaml(&digits)
    );
    // Each is a package grundy verifies as it is.
    for package in [&legacy, &mid] {
        let mut verify = project.command(&["verify"]);
        let verified = verify.current_dir(package).output().unwrap();
        assert_eq!(code(&verified), 0, "{}", dump(&verified));
    }
}

#[test]
fn the_gitignore_names_the_record_generate_writes_into_the_package() {
    let project = Project::new();
    let package = project.scaffold("sum", &["--package"]);
    let ignored = std::fs::read_to_string(package.join(".gitignore")).unwrap();
    let lines: Vec<&str> = ignored.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines, ["/data/.grundy-generated.json"]);
    let mut generate = project.command(&["generate"]);
    let generated = generate.current_dir(&package).output().unwrap();
    assert_eq!(code(&generated), 0, "{}", dump(&generated));
    assert!(package.join("data/.grundy-generated.json").is_file());
}

/// `program ARGS` run in `folder`: its exit code and all it printed.
pub(crate) fn peer(folder: &Path, program: &str, args: &[&str]) -> (i32, String) {
    let output = Command::new(program)
        .args(args)
        .current_dir(folder)
        .output()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), said)
}

#[test]
#[cfg_attr(
    not(verifyproblem),
    ignore = "needs problemtools' verifyproblem on the PATH (pip install problemtools), and pypy3"
)]
fn verifyproblem_finds_no_error_in_a_legacy_or_2023_07_scaffold() {
    let project = Project::new();
    for (name, format, lang) in [
        ("legacypy", "legacy", "python"),
        ("legacycpp", "legacy", "cpp"),
        ("draftpy", "2023-07", "python"),
        ("draftcpp", "2023-07", "cpp"),
    ] {
        project.scaffold(name, &["--format", format, "--lang", lang]);
        // The statement is left out: rendering it takes TeX Live and pandoc.
        let parts = ["-p", "config", "data", "validators", "submissions"];
        let (status, said) = peer(
            project.path(),
            "verifyproblem",
            &[&[name][..], &parts].concat(),
        );
        assert_eq!(status, 0, "{name}: {said}");
        assert!(
            said.contains(&format!("{name} tested: 0 errors")),
            "{name}: {said}"
        );
    }
}

#[test]
#[cfg_attr(
    not(bapctools),
    ignore = "needs BAPCtools' bt on the PATH (pip install bapctools, Python 3.12 or later)"
)]
fn bt_generates_validates_and_runs_a_2025_09_scaffold_without_a_warning() {
    let project = Project::new();
    for (name, lang) in [("sumpy", "python"), ("sumcpp", "cpp")] {
        let package = project.scaffold(name, &["--package", "--lang", lang]);
        // bt exits 1 on any warning as on an error.
        for command in [
            &["generate", "--no-visualizer"][..],
            &["validate"],
            &["run"],
        ] {
            let (status, said) = peer(&package, "bt", command);
            assert_eq!(status, 0, "{name}: bt {command:?}: {said}");
        }
    }
}
