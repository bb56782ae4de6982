//! `grundy verify`'s build cache and compile step through the real binary: whose fault a failed
//! build is (a compile error, a program that could not be built here, or a judge error of the
//! host: an unwritable cache folder, a full disk), a package whose validators did not all run is
//! never called valid, a build that leaves nothing to run is a compile error, and the cache
//! recovers from a damaged entry and from a grundy killed while it built.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::{binary, code, dump, row, set_mode, stdout, verify_json as json, Project, NO_HANG};
use serde_json::Value;

/// A 2025-09 package `echo` at `at`: one case, a Python input validator, an accepted Python
/// submission and the `extra` files.
fn echo(project: &Project, at: &str, extra: &[(&str, &str)]) {
    let files: &[(&str, &str)] = &[
        (
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Echo\nlimits:\n  time_limit: 2\n",
        ),
        ("data/sample/1.in", "7\n"),
        ("data/sample/1.ans", "7\n"),
        (
            "input_validators/one.py",
            "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
        ),
        ("submissions/accepted/echo.py", "print(input())\n"),
    ];
    for (path, text) in files.iter().chain(extra) {
        project.file(&format!("{at}/{path}"), text);
    }
}

/// `grundy verify ARGS` with the build cache in `cache/` of the project (through
/// `CARGO_TARGET_DIR`, as `cache_folder` reads it).
fn verify_in(project: &Project, cache: &Path, args: &[&str]) -> Output {
    let mut all = vec!["verify"];
    all.extend(args);
    project
        .command(&all)
        .env("CARGO_TARGET_DIR", cache)
        .timeout(NO_HANG)
        .output()
        .unwrap()
}

/// A PATH (one folder of the project) with Python and the shell but no C compiler.
fn without_a_c_compiler(project: &Project) -> PathBuf {
    let bin = project.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["python3", "sh"] {
        std::os::unix::fs::symlink(binary(tool), bin.join(tool)).unwrap();
    }
    bin
}

/// The summary's only package.
fn package(summary: &Value) -> &Value {
    &summary["packages"][0]
}

#[test]
fn a_validator_that_does_not_compile_makes_the_package_invalid() {
    let project = Project::new();
    echo(
        &project,
        "echo",
        &[(
            "input_validators/broken.c",
            "int main(void) { return oops; }\n",
        )],
    );
    let cache = project.path().join("target");
    let output = verify_in(&project, &cache, &["echo", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let package = package(&summary);
    assert_eq!(
        (&package["valid"], &package["status"]),
        (&Value::Bool(false), &Value::from("invalid"))
    );
    let errors = package["errors"].to_string();
    assert!(
        errors.contains("the validator broken.c does not compile"),
        "{errors}"
    );
    assert_eq!(row(&rows, "accepted/echo.py")["verdict"], "AC");
}

#[test]
fn a_validator_that_cannot_be_built_here_leaves_the_package_not_verified() {
    let project = Project::new();
    // A C validator on a PATH without a C compiler, and one grundy does not run.
    echo(
        &project,
        "echo",
        &[
            (
                "input_validators/digits.c",
                "int main(void) { return 42; }\n",
            ),
            ("input_validators/format.viva", "<int>\n"),
        ],
    );
    let bin = without_a_c_compiler(&project);
    let cache = project.path().join("target");
    let run = |format: &str| {
        project
            .command(&["verify", "echo", "--format", format])
            .env("CARGO_TARGET_DIR", &cache)
            .env("PATH", &bin)
            .timeout(NO_HANG)
            .output()
            .unwrap()
    };
    let output = run("json");
    assert_eq!(
        code(&output),
        1,
        "never valid, so never exit 0: {}",
        dump(&output)
    );
    let (rows, summary) = json(&output);
    let package = package(&summary);
    assert_eq!(package["valid"], false, "{package}");
    assert_eq!(package["status"], "not verified", "{package}");
    assert_eq!(package["errors"], Value::Array(vec![]), "{package}");
    let unchecked = package["unchecked"].to_string();
    assert!(
        unchecked.contains("digits.c: skipped: no compiler for C (gcc not found on PATH (")
            && unchecked.contains("format.viva: skipped: unsupported (viva)"),
        "{unchecked}"
    );
    assert_eq!(row(&rows, "accepted/echo.py")["ok"], true);
    let text = stdout(&run("human"));
    assert!(text.contains("echo: package NOT VERIFIED"), "{text}");
    assert!(text.contains("  not checked: digits.c: skipped"), "{text}");
    assert!(!text.contains(": ok\n"), "validation said ok: {text}");
}

#[test]
fn an_output_validator_that_cannot_be_built_here_leaves_the_package_not_verified() {
    let project = Project::new();
    echo(
        &project,
        "echo",
        &[
            ("output_validator/same.c", "int main(void) { return 42; }\n"),
            ("data/valid_output/1.in", "7\n"),
            ("data/valid_output/1.ans", "7\n"),
            ("data/valid_output/1.out", "7\n"),
        ],
    );
    let output = project
        .command(&["verify", "echo", "--format", "json"])
        .env("CARGO_TARGET_DIR", project.path().join("target"))
        .env("PATH", without_a_c_compiler(&project))
        .timeout(NO_HANG)
        .output()
        .unwrap();
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let package = package(&summary);
    assert_eq!(package["status"], "not verified", "{package}");
    let unchecked = package["unchecked"].as_array().unwrap();
    assert_eq!(
        unchecked.len(),
        1,
        "once, though validation and judging both needed it: {unchecked:?}"
    );
    assert!(
        unchecked[0]
            .as_str()
            .unwrap()
            .starts_with("output_validator: skipped: no compiler for C (gcc not found on PATH ("),
        "{unchecked:?}"
    );
    let echo = row(&rows, "accepted/echo.py");
    assert_eq!(echo["ok"], Value::Null, "{echo}");
    assert!(
        echo["skipped"]
            .as_str()
            .unwrap()
            .contains("no compiler for C"),
        "{echo}"
    );
}

#[test]
fn a_cache_folder_that_cannot_be_made_is_a_judge_error_and_exit_2() {
    let project = Project::new();
    echo(&project, "echo", &[]);
    // CARGO_TARGET_DIR names a file: its `grundy-build/` cannot be made.
    let blocked = project.file("blocked", "a file, not a folder\n");
    let junit = project.path().join("report.xml");
    let output = verify_in(
        &project,
        &blocked,
        &[
            "echo",
            "--format",
            "json",
            "--junit",
            junit.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let echo = row(&rows, "accepted/echo.py");
    assert_eq!(
        (&echo["verdict"], &echo["ok"]),
        (&Value::from("JE"), &Value::Null)
    );
    let why = echo["judge_error"].as_str().unwrap();
    let folder = blocked.join("grundy-build");
    assert!(
        why.contains("cannot create the build cache folder")
            && why.contains(&folder.display().to_string())
            && why.contains("Not a directory"),
        "{why}"
    );
    assert_eq!(echo["compile_error"], Value::Null);
    assert_eq!(
        summary["judge_errors"], 2,
        "the validator and the submission"
    );
    // The validator never ran: the package is not called valid, nor blamed.
    let package = package(&summary);
    assert_eq!(package["status"], "not verified", "{package}");
    assert_eq!(package["errors"], Value::Array(vec![]));
    assert!(
        package["judge_errors"][0]
            .as_str()
            .unwrap()
            .starts_with("input_validators/one.py could not be built: cannot create"),
        "{package}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    let error = document
        .descendants()
        .find(|n| n.has_tag_name("error"))
        .unwrap_or_else(|| panic!("no <error>: {xml}"));
    assert_eq!(error.attribute("type"), Some("JE"), "{xml}");
    // Without a fixed time limit, the one computed from the accepted submission is unknown,
    // not wrong.
    project.file(
        "echo/problem.yaml",
        "problem_format_version: 2025-09\nname: Echo\n",
    );
    let output = verify_in(&project, &blocked, &["echo", "--format", "json"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let (_, summary) = json(&output);
    let free = &summary["packages"][0];
    assert_eq!(free["errors"], Value::Array(vec![]), "{free}");
    assert!(
        free["unchecked"].to_string().contains("time limit: "),
        "{free}"
    );
    // The human report says whose fault it is.
    let output = verify_in(&project, &blocked, &["echo"]);
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let text = stdout(&output);
    assert!(
        text.contains("  ! accepted/echo.py: judge error: cannot create"),
        "{text}"
    );
    assert!(
        text.contains("error: 2 program(s) could not be built because of the host"),
        "{text}"
    );
}

#[test]
#[cfg_attr(
    not(as_root),
    ignore = "needs root: mounts a small tmpfs as the build cache, in a mount namespace of its own"
)]
fn a_full_disk_is_a_judge_error_not_a_compile_error() {
    let project = Project::new();
    // Its binary holds 4 MiB of initialised data; the cache's disk has 1 MiB.
    let big = "#include <stdio.h>\nstatic volatile char big[4 << 20] = {1};\n\
               int main(void) { int n; if (scanf(\"%d\", &n) != 1) return 1; \
               printf(\"%d\\n\", n + big[0] - 1); return 0; }\n";
    echo(&project, "echo", &[("submissions/accepted/big.c", big)]);
    let cache = project.path().join("small-disk");
    std::fs::create_dir(&cache).unwrap();
    // The tmpfs lives and dies with the mount namespace `unshare` makes for this one run.
    let script = r#"mount -t tmpfs -o size=1m grundy-test "$1" && shift && exec "$@""#;
    let output = Command::new("unshare")
        .args([
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            "sh",
        ])
        .arg(&cache)
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .args(["verify", "echo", "--format", "json"])
        .current_dir(project.path())
        .env("CARGO_TARGET_DIR", &cache)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let (rows, summary) = json(&output);
    let big = row(&rows, "accepted/big.c");
    assert_eq!(big["verdict"], "JE", "{}", dump(&output));
    assert_eq!(big["compile_error"], Value::Null, "{}", dump(&output));
    let why = big["judge_error"].as_str().unwrap();
    assert!(
        why.contains("No space left on device")
            && why.contains(&cache.join("grundy-build").display().to_string()),
        "{why}"
    );
    // What fit was built and judged as usual.
    assert_eq!(row(&rows, "accepted/echo.py")["ok"], true);
    assert_eq!(package(&summary)["status"], "valid");
    assert_eq!(summary["judge_errors"], 1);
}

#[test]
fn a_build_that_exits_0_without_what_the_run_command_needs_is_a_compile_error() {
    let project = Project::new();
    let script = |body: &str| format!("#!/bin/sh\n{body}\n");
    echo(
        &project,
        "echo",
        &[
            ("submissions/accepted/no_run/build", &script("exit 0")),
            ("submissions/accepted/run_folder/build", &script("mkdir run")),
            ("submissions/accepted/manifest/build", &script(
                "printf '#!/bin/sh\\nexec cat\\n' > run && chmod +x run && touch .grundy-manifest",
            )),
        ],
    );
    for build in ["no_run", "run_folder", "manifest"] {
        let path = project
            .path()
            .join(format!("echo/submissions/accepted/{build}/build"));
        set_mode(&path, 0o755);
    }
    let cache = project.path().join("target");
    let output = verify_in(&project, &cache, &["echo", "--format", "json"]);
    assert_eq!(code(&output), 1, "{}", dump(&output));
    let (rows, _) = json(&output);
    for (submission, said) in [
        ("accepted/no_run", "the `run` script `run` is missing"),
        (
            "accepted/run_folder",
            "the `run` script `run` is not a regular file",
        ),
        ("accepted/manifest", "the build made `.grundy-manifest`"),
    ] {
        let submission = row(&rows, submission);
        assert_eq!(submission["verdict"], "CE", "{submission}");
        let message = submission["compile_error"].as_str().unwrap();
        assert!(message.contains(said), "{message}");
    }
    // Never marked built: nothing of them is in the cache.
    let entries = std::fs::read_dir(cache.join("grundy-build"))
        .unwrap()
        .count();
    assert_eq!(entries, 2, "the validator and echo.py alone");
}

#[test]
fn a_damaged_cache_entry_is_removed_and_built_again() {
    let project = Project::new();
    echo(
        &project,
        "echo",
        &[(
            "submissions/accepted/echo.c",
            "#include <stdio.h>\nint main(void) { int n; scanf(\"%d\", &n); printf(\"%d\\n\", n); }\n",
        )],
    );
    let cache = project.path().join("target");
    let first = verify_in(&project, &cache, &["echo"]);
    assert_eq!(code(&first), 0, "{}", dump(&first));
    let main = std::fs::read_dir(cache.join("grundy-build"))
        .unwrap()
        .map(|e| e.unwrap().path().join("main"))
        .find(|main| main.is_file())
        .expect("the C submission's build");
    // Damage that keeps the size: only the digest sees it.
    let mut bytes = std::fs::read(&main).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&main, &bytes).unwrap();
    let second = verify_in(&project, &cache, &["echo"]);
    assert_eq!(code(&second), 0, "{}", dump(&second));
    assert!(
        stdout(&second).contains("3 program(s): 1 built, 2 from the cache"),
        "the damaged build was taken: {}",
        dump(&second)
    );
    assert_ne!(std::fs::read(&main).unwrap(), bytes, "rebuilt");
}

#[test]
fn the_staging_folder_of_a_killed_grundy_is_swept_by_the_next_run() {
    let project = Project::new();
    let build = "#!/bin/sh\nsleep 20\n";
    echo(
        &project,
        "echo",
        &[("submissions/accepted/slow/build", build)],
    );
    let slow = project.path().join("echo/submissions/accepted/slow/build");
    set_mode(&slow, 0o755);
    let cache = project.path().join("target");
    let folder = cache.join("grundy-build");
    let mut grundy = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["verify", "echo"])
        .current_dir(project.path())
        .env("CARGO_TARGET_DIR", &cache)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let staging = |folder: &Path| -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(folder) else {
            return vec![];
        };
        let names = entries.map(|e| e.unwrap().path());
        names
            .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .collect()
    };
    let started = Instant::now();
    while staging(&folder).is_empty() {
        assert!(started.elapsed() < NO_HANG, "no staging folder appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    grundy.kill().unwrap();
    grundy.wait().unwrap();
    let debris = staging(&folder);
    assert!(!debris.is_empty(), "SIGKILL leaves the staging folder");
    // The next run, with a build that finishes, sweeps it.
    project.file(
        "echo/submissions/accepted/slow/build",
        "#!/bin/sh\nprintf '#!/bin/sh\\nexec cat\\n' > run && chmod +x run\n",
    );
    set_mode(&slow, 0o755);
    let output = verify_in(&project, &cache, &["echo"]);
    assert_eq!(code(&output), 0, "{}", dump(&output));
    for path in debris {
        assert!(!path.exists(), "{} was left", path.display());
    }
    assert!(staging(&folder).is_empty(), "{:?}", staging(&folder));
}
