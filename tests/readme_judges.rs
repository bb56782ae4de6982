//! The C++ checker and interactor the README shows (`docs/judges/`): the README holds their
//! sources verbatim, and they compile and judge the shipped fixtures as the README says.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles `docs/judges/<name>.cpp` into `project`; g++ is part of the machine's toolchain.
fn compile(project: &Project, name: &str) -> PathBuf {
    let source = repository().join("docs/judges").join(format!("{name}.cpp"));
    let binary = project.path().join(name);
    let output = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .expect("g++ runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    binary
}

fn assert_in_readme(path: &Path) {
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    let source = std::fs::read_to_string(path).unwrap();
    assert!(
        readme.contains(&source),
        "README.md must show {} as it is",
        path.display()
    );
}

#[test]
fn the_snim_move_checker_accepts_every_shipped_case_and_catches_a_lazy_program() {
    assert_in_readme(&repository().join("docs/judges/snim_move_checker.cpp"));
    let project = Project::new();
    let checker = compile(&project, "snim_move_checker");
    let fixtures = repository().join("fixtures");
    let checker = format!("kattis:{}", checker.display());
    let fixtures = fixtures.to_str().unwrap();
    let args = [
        "check",
        "s-nim-move",
        "--fixtures",
        fixtures,
        "--checker",
        &checker,
    ];
    let output = project.grundy(&args);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        closing_line(&output).ends_with(" passed, 0 failed"),
        "{}",
        dump(&output)
    );

    let lazy = project.file(
        "lazy.sh",
        "#!/bin/sh\nwhile read line; do :; done\necho lose\necho lose\necho lose\n",
    );
    let mut permissions = std::fs::metadata(&lazy).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&lazy, permissions).unwrap();
    let lazy = lazy.display().to_string();
    let mut args = args.to_vec();
    args[1] = "s-nim-move/sample-1";
    args.extend(["--exec", &lazy]);
    let output = project.grundy(&args);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let block = case_block(&output, "s-nim-move/sample-1");
    assert!(
        block.contains("line 2: `lose`, but the position is a win"),
        "{block}"
    );
}

#[test]
fn the_snim_duel_interactor_loses_to_the_built_in_player_and_beats_a_careless_one() {
    assert_in_readme(&repository().join("docs/judges/snim_duel_interactor.cpp"));
    let project = Project::new();
    let interactor = compile(&project, "snim_duel_interactor");
    let fixtures = repository().join("fixtures");
    let interactor = format!("kattis:{}", interactor.display());
    let fixtures = fixtures.to_str().unwrap();
    let args = [
        "check",
        "s-nim-duel",
        "--fixtures",
        fixtures,
        "--interactor",
        &interactor,
    ];
    let output = project.grundy(&args);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    assert!(
        closing_line(&output).ends_with(" passed, 0 failed"),
        "{}",
        dump(&output)
    );

    // A player that always takes the first side and resigns at once loses wherever the judge
    // can win.
    let careless = project.file(
        "careless.sh",
        "#!/bin/sh\nread s\nread h\necho first\necho 0 0\n",
    );
    let mut permissions = std::fs::metadata(&careless).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&careless, permissions).unwrap();
    let careless = careless.display().to_string();
    let mut args = args.to_vec();
    args.extend(["--exec", &careless, "-v"]);
    let output = project.grundy(&args);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let block = case_block(&output, "s-nim-duel/sample-1");
    assert!(
        block.contains("resigned") && block.contains("exchange"),
        "{block}"
    );
}
