//! `grundy new`: the scaffold registers the problem, writes a sample, refuses what exists, and
//! the result builds, passes its own tests, is formatted, and passes `check` in a copy of the
//! repository.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies `from` into `to` recursively (plain files and folders; links are not followed).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A copy of what builds the project: manifests, lockfile, sources and the problems. Fixtures
/// are left out, so `check` judges only what `new` writes. The copy builds with cargo's plain
/// dev profile (nothing optimised): on a fresh CI machine its separate target folder compiles
/// every dependency once, and unoptimised that takes a fraction of the time.
fn copy_of_the_repository(to: &Path) {
    let manifest = std::fs::read_to_string(repository().join("Cargo.toml")).unwrap();
    let without_profiles: String = manifest
        .split("\n[")
        .filter(|section| !section.starts_with("profile."))
        .collect::<Vec<_>>()
        .join("\n[");
    std::fs::write(to.join("Cargo.toml"), without_profiles).unwrap();
    std::fs::copy(repository().join("Cargo.lock"), to.join("Cargo.lock")).unwrap();
    for folder in ["src", "problems", "sandbox", "bench/solvers"] {
        copy_tree(&repository().join(folder), &to.join(folder));
    }
}

#[test]
fn new_registers_the_problem_and_writes_a_sample_then_refuses_to_repeat() {
    let project = Project::new();
    copy_of_the_repository(project.path());
    let output = project.grundy(&["new", "take-away"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    for file in [
        "mod.rs",
        "solver.rs",
        "brute.rs",
        "generator.rs",
        "validator.rs",
        "shrink.rs",
        "statement.md",
    ] {
        let text = project.read(&format!("problems/take_away/{file}"));
        assert!(!text.contains("{{"), "{file} has a placeholder left");
    }
    assert!(project
        .read("problems/take_away/mod.rs")
        .contains("id: \"take-away\""));
    let lib = project.read("problems/lib.rs");
    assert!(lib.contains("\nmod take_away;\n"), "{lib}");
    assert!(lib.contains("\n    &take_away::PROBLEM,\n"), "{lib}");
    let original = std::fs::read_to_string(repository().join("problems/lib.rs")).unwrap();
    assert_eq!(lib.lines().count(), original.lines().count() + 2);
    assert_eq!(project.read("fixtures/take-away/sample-1.in"), "1\n4\n7\n");
    assert_eq!(
        project.read("fixtures/take-away/sample-1.out"),
        "First\nSecond\nFirst\n"
    );
    assert!(
        stdout(&output).contains("registered `take-away`"),
        "{}",
        dump(&output)
    );

    let again = project.grundy(&["new", "take-away"]);
    assert_eq!(code(&again), 2, "{}", dump(&again));
    assert!(stderr(&again).contains("there already"), "{}", dump(&again));
    assert_eq!(project.read("problems/lib.rs"), lib, "lib.rs is untouched");
    for bad in ["Take-Away", "nim", "2-nim", "type", "scanner"] {
        let output = project.grundy(&["new", bad]);
        assert_eq!(code(&output), 2, "{bad}\n{}", dump(&output));
    }
    assert_eq!(project.read("problems/lib.rs"), lib);
}

#[test]
fn new_finds_the_root_from_a_subfolder_and_explains_when_there_is_none() {
    let project = Project::new();
    copy_of_the_repository(project.path());
    let mut command = project.command(&["new", "from-below"]);
    command.current_dir(project.path().join("src"));
    let output = command.output().unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(project.path().join("problems/from_below/mod.rs").is_file());
    assert!(project
        .path()
        .join("fixtures/from-below/sample-1.in")
        .is_file());

    let elsewhere = Project::new();
    let output = elsewhere.grundy(&["new", "lost"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("not in a grundy checkout") && stderr(&output).contains("--root"),
        "{}",
        dump(&output)
    );
    let root = project.path().to_str().unwrap();
    let output = elsewhere.grundy(&["new", "with-root", "--root", root]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(project.path().join("problems/with_root/brute.rs").is_file());
}

/// Runs `cargo ARGS` in `dir` with its own target folder; panics with the output on failure.
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        // Without debug info everything builds faster; nothing here is debugged.
        .env("CARGO_PROFILE_DEV_DEBUG", "false")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let text = format!(
        "cargo {args:?}: {:?}\n--- stdout ---\n{}--- stderr ---\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{text}");
    text
}

#[test]
fn a_new_problem_builds_is_formatted_passes_its_tests_and_passes_check() {
    // A fixed place below target/ (not a fresh temporary folder), so the copy keeps the same
    // package ids between runs and its separate target folder reuses every compiled dependency:
    // only the three local crates are rebuilt.
    let place = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("new-problem");
    let copy = place.join("repository");
    let target = place.join("target");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    copy_of_the_repository(&copy);
    std::fs::write(copy.join("runner.toml"), "").unwrap();

    let project = Project::new();
    let root = copy.to_str().unwrap();
    let output = project.grundy(&["new", "take-away", "--root", root]);
    assert_eq!(code(&output), 0, "{}", dump(&output));

    let folder = copy.join("problems/take_away");
    let sources: Vec<PathBuf> = ["mod.rs", "solver.rs", "brute.rs", "generator.rs"]
        .iter()
        .chain(&["validator.rs", "shrink.rs"])
        .map(|file| folder.join(file))
        .collect();
    let rustfmt = Command::new("rustfmt")
        .args(["--edition", "2021", "--check"])
        .args(&sources)
        .output()
        .expect("rustfmt runs");
    assert!(
        rustfmt.status.success(),
        "the scaffold is not rustfmt-clean:\n{}",
        String::from_utf8_lossy(&rustfmt.stdout)
    );

    let tests = cargo(
        &copy,
        &target,
        &["test", "-p", "grundy-problems", "take_away"],
    );
    assert!(tests.contains("test result: ok."), "{tests}");
    assert!(
        !tests.contains(" 0 passed"),
        "the scaffold's tests ran\n{tests}"
    );
    let check = cargo(&copy, &target, &["run", "--", "check", "--color", "never"]);
    assert!(check.contains("1 passed, 0 failed"), "{check}");
    let stress = cargo(
        &copy,
        &target,
        &[
            "run",
            "--",
            "stress",
            "take-away",
            "--cases",
            "300",
            "--seed",
            "1",
        ],
    );
    assert!(stress.contains("300 cases, all agree"), "{stress}");
}
