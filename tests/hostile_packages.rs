//! Packages written by a hostile problem author, through the real binary: paths and links that
//! lead out of the package (to a secret only root can read, where the tests run as root), FIFOs
//! where files are read, and YAML made to exhaust memory or the stack. Each must be one clear,
//! located error, quickly, and nothing outside the package may be read or shown.

use crate::common;

use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output};

use common::{code, dump, stderr, stdout, Project, NO_HANG};

/// What the secret file outside the package holds; it must never be printed.
const SECRET: &str = "TOP-SECRET-c0ffee-4711";

/// A small 2025-09 package at `pkg/` of the project: one sample, one accepted submission, and
/// `extra` files (path, contents) over them.
fn package(project: &Project, extra: &[(&str, &str)]) -> PathBuf {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Echo\n",
        ),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "1\n"),
        ("submissions/accepted/sol.py", "print(input())\n"),
    ];
    for (path, text) in files.iter().chain(extra) {
        project.file(&format!("pkg/{path}"), text);
    }
    project.path().join("pkg")
}

/// A folder outside the package, mode 0600 (only root may look inside, not even its owner), holding
/// `secret.txt` and a program `run.py` that would print it.
fn vault(project: &Project) -> PathBuf {
    let vault = project.path().join("vault");
    std::fs::create_dir(&vault).unwrap();
    std::fs::write(vault.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    let program = format!(
        "print(open('{}').read())\n",
        vault.join("secret.txt").display()
    );
    std::fs::write(vault.join("run.py"), program).unwrap();
    std::fs::set_permissions(&vault, std::fs::Permissions::from_mode(0o600)).unwrap();
    vault
}

/// Gives the vault back to the temporary folder's clean-up.
fn open_vault(vault: &Path) {
    std::fs::set_permissions(vault, std::fs::Permissions::from_mode(0o700)).unwrap();
}

/// `grundy ARGS` in the project, killed (and the test failed) if it runs past [`NO_HANG`].
fn grundy(project: &Project, args: &[&str]) -> Output {
    project
        .command(args)
        .env_remove("CARGO_TARGET_DIR")
        .timeout(NO_HANG)
        .output()
        .unwrap()
}

/// `verify` of the package ends with exit 2 and `check` with 1 or 2 (the package's cases fail
/// with the reason, or its data cannot be read at all), never hanging (see [`grundy`]); both
/// say `wanted` (its file named from the package folder on), and neither shows the secret.
fn assert_refused(project: &Project, wanted: &str) {
    let prefix = format!("{}/", project.path().display());
    let wanted = wanted.strip_prefix(&prefix).unwrap_or(wanted);
    for args in [
        &["verify", "pkg"][..],
        &["check", "--fixtures", "pkg", "--exec", "cat"],
    ] {
        let output = grundy(project, args);
        let failed = match args[0] {
            "verify" => code(&output) == 2,
            _ => [1, 2].contains(&code(&output)),
        };
        assert!(failed, "{args:?}: {}", dump(&output));
        let said = format!("{}{}", stdout(&output), stderr(&output));
        assert!(
            said.contains(wanted),
            "{args:?}, wanted {wanted}: {}",
            dump(&output)
        );
        assert!(!said.contains(SECRET), "{args:?}: {}", dump(&output));
    }
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let made = Process::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn an_entrypoint_leading_out_of_the_package_is_refused_where_it_is_written() {
    let project = Project::new();
    let vault = vault(&project);
    let escapes = [
        "../../..".to_string(),
        vault.display().to_string(),
        vault.join("run.py").display().to_string(),
    ];
    for entry in &escapes {
        let yaml = format!("accepted/sol.py:\n  language: python3\n  entrypoint: {entry}\n");
        package(&project, &[("submissions/submissions.yaml", &yaml)]);
        let wanted = format!(
            "pkg/submissions/submissions.yaml:3:3: entrypoint `{entry}` leads outside the \
             submission"
        );
        assert_refused(&project, &wanted);
    }
    open_vault(&vault);
}

#[test]
fn a_validator_argument_naming_a_file_outside_is_refused_where_it_is_written() {
    let project = Project::new();
    let vault = vault(&project);
    let secret = vault.join("secret.txt").display().to_string();
    let yaml = format!("output_validator_args: [case_sensitive, {secret}]\n");
    package(&project, &[("data/test_group.yaml", &yaml)]);
    let wanted = format!("pkg/data/test_group.yaml:1:41: `{secret}` is an absolute path");
    assert_refused(&project, &wanted);
    open_vault(&vault);
}

#[test]
fn an_answer_linked_to_a_file_outside_is_refused_and_never_shown() {
    let project = Project::new();
    let vault = vault(&project);
    let root = package(&project, &[]);
    let answer = root.join("data/sample/1.ans");
    std::fs::remove_file(&answer).unwrap();
    symlink(vault.join("secret.txt"), &answer).unwrap();
    let wanted = format!(
        "{}: links outside the package (to {}); the format allows links only within it",
        answer.display(),
        vault.join("secret.txt").display()
    );
    assert_refused(&project, &wanted);
    open_vault(&vault);
}

#[test]
fn a_fifo_as_input_or_answer_is_an_error_not_a_hang() {
    for file in ["1.in", "1.ans"] {
        let project = Project::new();
        let root = package(&project, &[]);
        let fifo = root.join("data/sample").join(file);
        mkfifo(&fifo);
        let wanted = format!(
            "{}: a FIFO (named pipe), not a regular file; only regular files are read",
            fifo.display()
        );
        assert_refused(&project, &wanted);
    }
}

/// The "billion laughs": nine levels of nine aliases each, a few hundred bytes that expand to
/// 9^9 values.
fn alias_bomb() -> String {
    let mut text = String::from("problem_format_version: 2025-09\n");
    text += "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n";
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let aliases = vec![format!("*{}", pair[0]); 9].join(",");
        text += &format!("{}: &{} [{aliases}]\n", pair[1], pair[1]);
    }
    text
}

#[test]
fn yaml_bombs_deep_nesting_and_huge_files_are_refused_quickly_with_their_place() {
    let nested = format!("name: {}x{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let huge = "# padding\n".repeat(120_000);
    let cases = [
        (
            alias_bomb(),
            "pkg/problem.yaml:7:8: more than 100000 values once aliases are expanded",
        ),
        (nested, "pkg/problem.yaml:1:"),
        (
            huge,
            "pkg/problem.yaml: too large: 1200000 bytes, over the 1 MiB grundy reads of this file",
        ),
    ];
    for (text, wanted) in cases {
        let project = Project::new();
        package(&project, &[("problem.yaml", &text)]);
        assert_refused(&project, wanted);
    }
}
