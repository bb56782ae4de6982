//! `grundy verify` through the real binary, against a hostile package: compiles with the same
//! limits share a sandbox box, so a `build` script that leaves things behind (a folder 30,000
//! levels deep, files in the working folder and /tmp) must not reach the next package's build,
//! which fails if it sees any of it. Its output, a tree as deep, is not copied out: that build
//! fails (a compile error saying so), and its package is invalid.

use crate::common;

use common::{code, dump, verify_json, Project};

/// A package whose input validator is a folder with `build` and `run` scripts: `build` runs
/// `action` (shell), `run` accepts every input. The script names the project's folder, so no
/// build cache (a shared `CARGO_TARGET_DIR`) can already hold its build.
fn package(project: &Project, at: &str, action: &str) {
    let unique = project.path().display();
    let build = format!("#!/bin/sh\n# {unique}\nset -e\n{action}\n");
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Echo\n",
        ),
        ("data/sample/1.in", "5\n"),
        ("data/sample/1.ans", "5\n"),
        ("data/secret/1.in", "7\n"),
        ("data/secret/1.ans", "7\n"),
        ("input_validators/scripted/build", &build),
        ("input_validators/scripted/run", "#!/bin/sh\nexit 42\n"),
        ("submissions/accepted/echo.py", "print(input())\n"),
        (
            "submissions/wrong_answer/off.py",
            "print(int(input()) + 1)\n",
        ),
    ];
    for (path, text) in files {
        let written = project.file(&format!("{at}/{path}"), text);
        if path.ends_with("build") || path.ends_with("run") {
            use std::os::unix::fs::PermissionsExt;
            let executable = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(written, executable).unwrap();
        }
    }
}

/// Leaves everything it can where the next build in the same box would look.
const LEAVE: &str = r#"echo poison > /tmp/left || true
echo poison > ../left 2>/dev/null || true
python3 -c '
import os
for top in ("/tmp/deep", "../deep", "deep-output"):
    try:
        os.mkdir(top)
        os.chdir(top)
        for _ in range(30000):
            os.mkdir("d")
            os.chdir("d")
    except OSError:
        pass
    os.chdir(os.environ.get("PWD", "/"))
'"#;

/// Fails (a compile error of its validator) if anything of an earlier build is there.
const WATCH: &str = r#"for p in /tmp/left ../left /tmp/deep ../deep; do
    if [ -e "$p" ]; then echo "left by an earlier build: $p" >&2; exit 1; fi
done"#;

#[test]
fn a_build_leaves_nothing_for_the_next_packages_build() {
    let project = Project::new();
    package(&project, "contest/a-attacker", LEAVE);
    package(&project, "contest/b-victim", WATCH);
    // One worker: the builds run one after another, in the same box when it is reused.
    let output = project.grundy(&["verify", "contest", "-j", "1", "--format", "json"]);
    let (rows, summary) = verify_json(&output);
    let victim: Vec<_> = rows.iter().filter(|r| r["package"] == "b-victim").collect();
    assert!(!victim.is_empty(), "{}", dump(&output));
    for row in &victim {
        assert_eq!(row["ok"], true, "{row}\n{}", dump(&output));
    }
    let packages = summary["packages"].as_array().unwrap();
    let status = |name: &str| {
        let package = packages.iter().find(|p| p["package"] == name).unwrap();
        (package["status"].clone(), package["errors"].to_string())
    };
    let (victim, errors) = status("b-victim");
    assert_eq!(victim, "valid", "{errors}\n{}", dump(&output));
    let (attacker, errors) = status("a-attacker");
    assert_eq!(attacker, "invalid", "{}", dump(&output));
    assert!(errors.contains("larger than may be copied out"), "{errors}");
    assert_eq!(code(&output), 1, "{}", dump(&output));
}

/// A Python submission that prints the answer it reads when it runs, or 0.
const PEEKING_PY: &str =
    "try:\n    print(open('ANSWER').read().strip())\nexcept OSError:\n    print(0)\n";

/// A compiler or interpreter outside the system folders shows the box its installation, the
/// folder above its `bin/`: here the project, which holds the package. Neither a build nor a
/// submission run sees the package's `data/`.
#[test]
fn a_toolchain_folder_holding_the_package_shows_neither_build_nor_submission_its_answers() {
    use std::os::unix::fs::PermissionsExt;
    let project = Project::new();
    let answer = project.path().join("sum/data/secret/1.ans");
    let answer = answer.display().to_string();
    for (path, text) in [
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Sum\nlimits:\n  time_limit: 2\n",
        ),
        ("data/secret/1.in", "1 2\n"),
        ("data/secret/1.ans", "3\n"),
        ("submissions/accepted/sum.py", "print(3)\n"),
        ("submissions/wrong_answer/built.rs", "fn main() {}\n"),
        (
            "submissions/wrong_answer/run.py",
            &PEEKING_PY.replace("ANSWER", &answer),
        ),
    ] {
        project.file(&format!("sum/{path}"), text);
    }
    for (tool, text) in [
        ("rustc", common::peeking_rustc(&answer)),
        (
            "python3",
            "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n".to_string(),
        ),
    ] {
        let written = project.file(&format!("bin/{tool}"), text);
        std::fs::set_permissions(&written, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let home = project.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let path = format!("{}:/usr/bin:/bin", project.path().join("bin").display());
    let output = project
        .command(&["verify", "sum", "--format", "json"])
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("PYENV_ROOT")
        .env_remove("PYENV_VERSION")
        .env("HOME", &home)
        .env("PATH", path)
        .output()
        .unwrap();
    let (rows, _) = verify_json(&output);
    for submission in ["wrong_answer/built.rs", "wrong_answer/run.py"] {
        let row = common::row(&rows, submission);
        assert_eq!(
            row["verdict"],
            "WA",
            "{submission}: {row}\n{}",
            dump(&output)
        );
    }
    assert_eq!(code(&output), 0, "{}", dump(&output));
}
