//! `grundy new`: the scaffold registers the problem, writes a sample, refuses what exists, and
//! the result builds, passes its own tests, is formatted, and passes `check` in a copy of the
//! repository.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of what builds the product: manifests, lockfile, sources and the problems. Fixtures
/// are left out, so `check` judges only what `new` writes. The copy builds in this build's own
/// target folder, so every compiled dependency is reused and only its local crates are built; its
/// packages and binary are renamed (`-scaffold`), since cargo names a path crate's artifacts by
/// its place in the workspace and the copy's would otherwise replace this build's own.
fn copy_of_the_repository(to: &Path) {
    let rename = |file: &str, pairs: &[(&str, &str)]| {
        let mut text = std::fs::read_to_string(repository().join(file)).unwrap();
        for (from, into) in pairs {
            assert!(text.contains(from), "{file} holds `{from}`");
            text = text.replace(from, into);
        }
        std::fs::create_dir_all(to.join(file).parent().unwrap()).unwrap();
        std::fs::write(to.join(file), text).unwrap();
    };
    let problems =
        "grundy-problems = { package = \"grundy-problems-scaffold\", path = \"problems\"";
    rename(
        "Cargo.toml",
        &[
            (
                "members = [\"problems\", \"sandbox\", \"bench/solvers\", \"tests/judges\"]",
                "members = [\"problems\", \"sandbox\"]",
            ),
            (
                "default-members = [\".\", \"problems\", \"sandbox\", \"tests/judges\"]",
                "default-members = [\".\", \"problems\", \"sandbox\"]",
            ),
            (
                "[package]\nname = \"grundy\"",
                "[package]\nname = \"grundy-scaffold\"",
            ),
            (
                "default-run = \"grundy\"",
                "default-run = \"grundy-scaffold\"",
            ),
            (
                "[[bin]]\nname = \"grundy\"",
                "[[bin]]\nname = \"grundy-scaffold\"",
            ),
            ("grundy-problems = { path = \"problems\"", problems),
            (
                "grundy-sandbox = { path = \"sandbox\"",
                "grundy-sandbox = { package = \"grundy-sandbox-scaffold\", path = \"sandbox\"",
            ),
            // The copy's problems crate is built unoptimised: the new problem's cases are
            // small, and optimising the seven shipped problems again (for the test harness and
            // for the binary) was most of this test's time.
            (
                "[profile.dev.package.grundy-problems]\nopt-level = 3",
                "[profile.dev.package.grundy-problems-scaffold]\nopt-level = 0",
            ),
        ],
    );
    std::fs::copy(repository().join("Cargo.lock"), to.join("Cargo.lock")).unwrap();
    for folder in ["src", "problems", "sandbox"] {
        copy_tree(&repository().join(folder), &to.join(folder));
    }
    // The manifests copied with their folders are replaced by renamed ones.
    rename(
        "problems/Cargo.toml",
        &[(
            "name = \"grundy-problems\"",
            "name = \"grundy-problems-scaffold\"",
        )],
    );
    rename(
        "sandbox/Cargo.toml",
        &[(
            "name = \"grundy-sandbox\"",
            "name = \"grundy-sandbox-scaffold\"",
        )],
    );
}

/// `base`, or `base-2`, `base-3`, ...: the first id that is not a problem of the copy at `root`
/// yet, so the tests pass even in a checkout where someone already ran `grundy new base`.
fn fresh_id(root: &Path, base: &str) -> String {
    (1..)
        .map(|n| match n {
            1 => base.to_string(),
            n => format!("{base}-{n}"),
        })
        .find(|id| {
            let module = id.replace('-', "_");
            !root.join("problems").join(&module).exists()
                && !root.join("fixtures").join(id).exists()
        })
        .expect("some id is free")
}

#[test]
fn new_registers_the_problem_and_writes_a_sample_then_refuses_to_repeat() {
    let project = Project::new();
    copy_of_the_repository(project.path());
    let id = fresh_id(project.path(), "take-away");
    let module = id.replace('-', "_");
    let output = project.grundy(&["new", &id]);
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
        let text = project.read(&format!("problems/{module}/{file}"));
        assert!(!text.contains("{{"), "{file} has a placeholder left");
    }
    assert!(project
        .read(&format!("problems/{module}/mod.rs"))
        .contains(&format!("id: \"{id}\"")));
    let lib = project.read("problems/lib.rs");
    assert!(lib.contains(&format!("\nmod {module};\n")), "{lib}");
    assert!(
        lib.contains(&format!("\n    &{module}::PROBLEM,\n")),
        "{lib}"
    );
    let original = std::fs::read_to_string(repository().join("problems/lib.rs")).unwrap();
    assert_eq!(lib.lines().count(), original.lines().count() + 2);
    assert_eq!(
        project.read(&format!("fixtures/{id}/sample-1.in")),
        "1\n4\n7\n"
    );
    assert_eq!(
        project.read(&format!("fixtures/{id}/sample-1.out")),
        "First\nSecond\nFirst\n"
    );
    assert!(
        stdout(&output).contains(&format!("registered `{id}`")),
        "{}",
        dump(&output)
    );

    let again = project.grundy(&["new", &id]);
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
    let below = fresh_id(project.path(), "from-below");
    let mut command = project.command(&["new", &below]);
    command.current_dir(project.path().join("src"));
    let output = command.output().unwrap();
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let module = below.replace('-', "_");
    assert!(project
        .path()
        .join(format!("problems/{module}/mod.rs"))
        .is_file());
    assert!(project
        .path()
        .join(format!("fixtures/{below}/sample-1.in"))
        .is_file());

    // Outside a checkout a problem cannot be built in: `new` makes a package there.
    let elsewhere = Project::new();
    let output = elsewhere.grundy(&["new", "lost"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(elsewhere.path().join("lost/problem.yaml").is_file());
    let output = elsewhere.grundy(&["new", "lost-again", "--root", "nowhere"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("not a grundy checkout"),
        "{}",
        dump(&output)
    );
    let root = project.path().to_str().unwrap();
    let with_root = fresh_id(project.path(), "with-root");
    let output = elsewhere.grundy(&["new", &with_root, "--root", root]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let module = with_root.replace('-', "_");
    assert!(project
        .path()
        .join(format!("problems/{module}/brute.rs"))
        .is_file());
}

/// Runs `cargo ARGS` in `dir` with the target folder `target`; panics with the output on failure.
fn cargo(dir: &Path, target: &Path, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
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
    // package ids between runs. It builds in this build's own target folder (cargo releases it
    // while tests run), with the same profiles, so every dependency compiled for this build is
    // reused: only the three local crates of the copy are compiled.
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let copy = tmp.join("new-problem").join("repository");
    let target = tmp
        .parent()
        .expect("CARGO_TARGET_TMPDIR is target/tmp")
        .to_path_buf();
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    copy_of_the_repository(&copy);
    std::fs::write(copy.join("runner.toml"), "").unwrap();

    let project = Project::new();
    let root = copy.to_str().unwrap();
    let id = fresh_id(&copy, "take-away");
    let output = project.grundy(&["new", &id, "--root", root]);
    assert_eq!(code(&output), 0, "{}", dump(&output));

    let folder = copy.join("problems").join(id.replace('-', "_"));
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
        &[
            "test",
            "-p",
            "grundy-problems-scaffold",
            &id.replace('-', "_"),
        ],
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
        &["run", "--", "stress", &id, "--cases", "300", "--seed", "1"],
    );
    assert!(stress.contains("300 cases, all agree"), "{stress}");
}
