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
