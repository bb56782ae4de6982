//! Compilers where toolchain managers put them, through the real binary: a rustup toolchain in
//! a home folder the test makes (`~/.cargo/bin/rustc` a link to `rustup`, the toolchain under
//! `~/.rustup/toolchains/`), off the PATH, builds and runs a Rust submission inside the
//! sandbox; without it, the report names the tool and every place it was looked for.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{code, dump, row, verify_json as json, Project};

/// A stand-in for the toolchain's `rustc`: it "compiles" any program into a script printing 3
/// (a real rustc would need the whole toolchain; this one needs only its own folder shown).
const FAKE_RUSTC: &str = "#!/bin/sh\n\
    while [ $# -gt 0 ]; do [ \"$1\" = -o ] && out=$2; shift; done\n\
    printf '#!/bin/sh\\necho 3\\n' > \"$out\" && chmod +x \"$out\"\n";

fn executable(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn sum_package(project: &Project) {
    for (path, text) in [
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n",
        ),
        ("data/secret/1.in", "1 2\n"),
        ("data/secret/1.ans", "3\n"),
        (
            "submissions/accepted/sum.rs",
            "fn main() { println!(\"3\"); }\n",
        ),
    ] {
        project.file(&format!("sum/{path}"), text);
    }
}

#[test]
fn a_rustup_toolchain_off_the_path_builds_and_runs_in_the_sandbox() {
    let project = Project::new();
    sum_package(&project);
    let home = project.path().join("home");
    executable(&home.join(".cargo/bin/rustup"), "#!/bin/sh\nexit 1\n");
    std::os::unix::fs::symlink("rustup", home.join(".cargo/bin/rustc")).unwrap();
    std::fs::create_dir_all(home.join(".rustup")).unwrap();
    std::fs::write(
        home.join(".rustup/settings.toml"),
        "default_toolchain = \"stable-x86_64-unknown-linux-gnu\"\n",
    )
    .unwrap();
    executable(
        &home.join(".rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/rustc"),
        FAKE_RUSTC,
    );
    let verify = |home: &Path| {
        project
            .command(&["verify", "sum", "--format", "json"])
            .env_remove("CARGO_TARGET_DIR")
            .env_remove("CARGO_HOME")
            .env_remove("RUSTUP_HOME")
            .env_remove("RUSTUP_TOOLCHAIN")
            .env_remove("PYENV_ROOT")
            .env_remove("PYENV_VERSION")
            .env_remove("SDKMAN_DIR")
            .env("HOME", home)
            .env("PATH", "/usr/bin:/bin")
            .output()
            .unwrap()
    };
    let output = verify(&home);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    let (rows, _) = json(&output);
    assert_eq!(row(&rows, "accepted/sum.rs")["verdict"], "AC", "{rows:#?}");

    let elsewhere = project.path().join("empty-home");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let output = verify(&elsewhere);
    let (rows, _) = json(&output);
    let skipped = row(&rows, "accepted/sum.rs")["skipped"]
        .as_str()
        .unwrap()
        .to_string();
    let home = elsewhere.display();
    assert_eq!(
        skipped,
        format!(
            "skipped: no compiler for Rust (rustc not found on PATH (/usr/bin:/bin) or in \
             {home}/.cargo/bin, {home}/.pyenv/shims, {home}/.sdkman/candidates/*/current/bin, \
             {home}/.local/bin)"
        )
    );
}
