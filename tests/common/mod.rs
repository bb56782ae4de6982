//! Helpers for driving the real `grundy` binary on temporary fixture trees.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, SystemTime};

use assert_cmd::Command;

/// The built-in problems the project ships (the test-only ones aside).
pub const BUILT_IN_PROBLEMS: [&str; 7] = [
    "lieges-of-legendre",
    "nim",
    "powers-of-two",
    "s-nim",
    "s-nim-duel",
    "s-nim-move",
    "set-nim",
];

/// How long a run may take before a test calls it hung: generous, since a loaded CI machine can
/// be many times slower than a desk (speed is measured by the benchmarks, never by tests).
pub const NO_HANG: Duration = Duration::from_secs(60);

/// A temporary project folder: `fixtures/` inside, optionally a `runner.toml`.
pub struct Project {
    pub dir: tempfile::TempDir,
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::create_dir_all(dir.path().join("fixtures")).unwrap();
        Project { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `contents` at `relative` (below the project folder), creating folders.
    pub fn file(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// A case `fixtures/<id>.in` with `<id>.out`.
    pub fn case(&self, id: &str, input: &str, expected: &str) {
        self.file(&format!("fixtures/{id}.in"), input);
        self.file(&format!("fixtures/{id}.out"), expected);
    }

    pub fn read(&self, relative: &str) -> String {
        std::fs::read_to_string(self.path().join(relative)).unwrap()
    }

    /// `grundy ARGS` run in the project folder, with no color and no CI-specific behaviour.
    pub fn grundy(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("the grundy binary runs")
    }

    /// `grundy new NAME ARGS` in the project folder, which must succeed; the package's folder.
    pub fn scaffold(&self, name: &str, args: &[&str]) -> PathBuf {
        let made = self.grundy(&[&["new", name][..], args].concat());
        assert_eq!(code(&made), 0, "{}", dump(&made));
        self.path().join(name)
    }

    /// `grundy ARGS` run in `folder` (a package inside the project, a folder inside that).
    pub fn grundy_in(&self, folder: &Path, args: &[&str]) -> Output {
        let mut command = self.command(args);
        command.current_dir(folder);
        command.output().expect("the grundy binary runs")
    }

    /// `grundy ARGS` run in the project folder, `input` on its stdin.
    pub fn grundy_fed(&self, args: &[&str], input: &str) -> Output {
        self.command(args)
            .write_stdin(input.to_string())
            .output()
            .expect("the grundy binary runs")
    }

    /// `grundy verify ARGS`, its build cache beside the package as a user's would be (not in
    /// the test build's target folder).
    pub fn verify(&self, args: &[&str]) -> Output {
        let mut all = vec!["verify"];
        all.extend(args);
        self.command(&all)
            .env_remove("CARGO_TARGET_DIR")
            .output()
            .expect("the grundy binary runs")
    }

    /// Runs grundy with `args` and sends it SIGINT (Ctrl-C) once `ready` says what is to be
    /// cut short runs; what it did then. A run that never starts that, or outlives the
    /// interrupt, fails the test.
    pub fn interrupted(&self, args: &[&str], ready: impl Fn() -> bool) -> Output {
        use std::process::Stdio;
        use std::time::Instant;
        let mut child = self
            .spawnable(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the grundy binary runs");
        let started = Instant::now();
        while !ready() {
            if started.elapsed() > NO_HANG || child.try_wait().unwrap().is_some() {
                let _ = child.kill();
                let output = child.wait_with_output().unwrap();
                panic!(
                    "what was to be interrupted did not start\n{}",
                    dump(&output)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let interrupted = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if interrupted.elapsed() > NO_HANG {
                let _ = child.kill();
                panic!("grundy was still running {NO_HANG:?} after SIGINT");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    }

    /// The command as the standard library's, for tests that start grundy and watch it run.
    pub fn spawnable(&self, args: &[&str]) -> std::process::Command {
        let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"));
        command
            .args(args)
            .current_dir(self.path())
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("CARGO_TARGET_DIR");
        command
    }

    /// The command, for tests that need stdin or more setup.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::cargo_bin("grundy").expect("the grundy binary is built");
        command
            .current_dir(self.path())
            .args(args)
            .env("NO_COLOR", "1")
            .env_remove("CI")
            // A run with no fixtures of its own unpacks the built-in problems into the user's
            // cache: into the test build's, never the home folder of whoever runs the tests.
            .env(
                "XDG_CACHE_HOME",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("xdg-cache"),
            );
        command
    }
}

/// `grundy ARGS` run in `folder` (a package below the project, say).
pub fn grundy_in(project: &Project, folder: &Path, args: &[&str]) -> Output {
    let mut command = project.command(args);
    command.current_dir(folder);
    command.output().expect("the grundy binary runs")
}

/// Whether a process runs whose command line holds both `marker` (a temporary folder's path, say)
/// and `program`.
pub fn running(marker: &str, program: &str) -> bool {
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline);
        cmdline.contains(marker) && cmdline.contains(program)
    })
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The exit code; a test fails loudly if the process was killed instead.
pub fn code(output: &Output) -> i32 {
    output.status.code().unwrap_or_else(|| {
        panic!(
            "grundy was killed: {:?}\nstdout:\n{}\nstderr:\n{}",
            output.status,
            stdout(output),
            stderr(output)
        )
    })
}

/// Everything the run printed, for assertion messages.
pub fn dump(output: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout ---\n{}--- stderr ---\n{}",
        output.status.code(),
        stdout(output),
        stderr(output)
    )
}

/// The last non-empty line of stdout: the human report's closing `N passed, M failed`.
pub fn closing_line(output: &Output) -> String {
    stdout(output)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string()
}

/// The closing line of a human report Ctrl-C cut short, once it is seen to say so, with exit
/// status 130.
pub fn cancelled_closing_line(output: &Output) -> String {
    assert_eq!(code(output), 130, "{}", dump(output));
    let said = stdout(output).contains("Cancelled (Ctrl-C): ");
    assert!(said, "no word of the cancel\n{}", dump(output));
    closing_line(output)
}

/// The summary of a `--format json` run Ctrl-C cut short (its last line), once it is seen to be
/// a summary marked cancelled, with exit status 130.
pub fn cancelled_summary(output: &Output) -> serde_json::Value {
    assert_eq!(code(output), 130, "{}", dump(output));
    let line = closing_line(output);
    let summary: serde_json::Value = serde_json::from_str(&line)
        .unwrap_or_else(|e| panic!("not a JSON summary ({e})\n{}", dump(output)));
    assert_eq!(summary["type"], "summary", "{}", dump(output));
    assert_eq!(summary["cancelled"], true, "{}", dump(output));
    summary
}

/// The case ids of the `PASS`/`FAIL` lines of a human report, in the order printed.
pub fn reported_ids(output: &Output) -> Vec<String> {
    stdout(output)
        .lines()
        .filter(|l| l.starts_with("PASS ") || l.starts_with("FAIL "))
        .map(|l| l.split_whitespace().nth(2).unwrap_or_default().to_string())
        .collect()
}

/// The report line (`PASS ...` or `FAIL ...`) of one case, and the indented lines under it.
pub fn case_block(output: &Output, id: &str) -> String {
    let text = stdout(output);
    let mut lines = text.lines().skip_while(|l| {
        !((l.starts_with("PASS ") || l.starts_with("FAIL "))
            && l.split_whitespace().nth(2) == Some(id))
    });
    let Some(head) = lines.next() else {
        panic!("no report line for `{id}`\n{}", dump(output));
    };
    let mut block = format!("{head}\n");
    for line in lines.take_while(|l| l.starts_with("      ")) {
        block += line;
        block += "\n";
    }
    block
}

/// The verdict a human report gives a case (`AC`, `WA`, ...); needs `-v` for passing cases.
pub fn verdict_of(output: &Output, id: &str) -> String {
    let block = case_block(output, id);
    block
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

/// `Kiki` or `Cici` for powers-of-two with `n` cards: Kiki loses exactly when 3 divides n.
pub fn powers_answer(n: u32) -> &'static str {
    if n.is_multiple_of(3) {
        "Cici"
    } else {
        "Kiki"
    }
}

/// The input and the correct expected output of a powers-of-two case for these `n`s.
pub fn powers_case(ns: &[u32]) -> (String, String) {
    let input: String = ns.iter().map(|n| format!("{n}\n")).collect();
    let output: String = ns
        .iter()
        .map(|&n| format!("{}\n", powers_answer(n)))
        .collect();
    (input, output)
}

impl Project {
    /// A powers-of-two case `fixtures/powers-of-two/<name>` with the right expected output.
    pub fn powers(&self, name: &str, ns: &[u32]) {
        let (input, output) = powers_case(ns);
        self.case(&format!("powers-of-two/{name}"), &input, &output);
    }
}

/// A stand-in `rustc` that builds a program printing what it read at `answer` while it built,
/// or 0: a build that could read the answer makes a program that passes.
pub fn peeking_rustc(answer: &str) -> String {
    let script = r#"#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
printf '#!/bin/sh\necho %s\n' "$(cat "ANSWER" 2>/dev/null || echo 0)" > "$out"
chmod +x "$out"
"#;
    script.replace("ANSWER", answer)
}

/// The modification time of a file.
pub fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// Sets a file's modification time an hour back, so a rewrite would show; returns it.
pub fn age(path: &Path) -> SystemTime {
    let old = SystemTime::now() - Duration::from_secs(3600);
    let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_modified(old).unwrap();
    modified(path)
}

/// The permission bits of a file.
pub fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Sets the permission bits of a file.
pub fn set_mode(path: &Path, bits: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(bits)).unwrap();
}

/// The first `tool` on the PATH that is a binary, not a script (a pyenv shim needs more tools).
pub fn binary(tool: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap();
    std::env::split_paths(&path)
        .filter_map(|dir| dir.join(tool).canonicalize().ok())
        .find(|p| std::fs::read(p).is_ok_and(|bytes| bytes.starts_with(b"\x7fELF")))
        .unwrap_or_else(|| panic!("{tool} is on the PATH as a binary"))
}

/// Copies `from` into `to` recursively (plain files and folders; links are not followed).
pub fn copy_tree(from: &Path, to: &Path) {
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

/// Copies the shipped fixtures `from` into `to` as a clone has them: without the record a
/// `grundy generate` run in the checkout leaves (`<problem>/.grundy-generated.json`, ignored by
/// git), so that a run in the copy makes what a run in a clone makes.
pub fn copy_fixtures(from: &Path, to: &Path) {
    copy_tree(from, to);
    for problem in std::fs::read_dir(to).unwrap() {
        let _ = std::fs::remove_file(problem.unwrap().path().join(".grundy-generated.json"));
    }
}

/// The mode any tool gives a new file here (0666 less the umask), found by making one.
pub fn usual_new_file_mode(project: &Project) -> u32 {
    let probe = project.file("probe.txt", "x");
    let bits = mode(&probe);
    std::fs::remove_file(probe).unwrap();
    bits
}

/// Every file below `dir`, as paths relative to it, sorted.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    files.sort();
    files
}

/// The checker/interactor/player program of `tests/judges` (see its module docs for the roles),
/// built by `cargo test` from the workspace root, or built here when a narrower run left it out.
pub fn test_judge() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let grundy = PathBuf::from(env!("CARGO_BIN_EXE_grundy"));
            let judge = grundy.with_file_name("grundy-test-judge");
            if !judge.exists() {
                let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
                let status = std::process::Command::new(env!("CARGO"))
                    .args(["build", "-p", "grundy-test-judges"])
                    .current_dir(env!("CARGO_MANIFEST_DIR"))
                    .env("CARGO_TARGET_DIR", target.parent().expect("target/tmp"))
                    .status()
                    .expect("cargo runs");
                assert!(status.success(), "cannot build grundy-test-judges");
            }
            judge
        })
        .clone()
}

/// `--checker`/`--interactor`/`--exec` text running the test judge in `role` (quoted: the path
/// may hold spaces).
pub fn judge_command(role: &str) -> String {
    let path = test_judge().display().to_string();
    format!("'{}' {role}", path.replace('\'', r"'\''"))
}

/// The JSON lines of a `grundy verify --format json` run: the submissions' (not the
/// packages'), and the summary.
pub fn verify_json(output: &Output) -> (Vec<serde_json::Value>, serde_json::Value) {
    let mut lines: Vec<serde_json::Value> = stdout(output)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\n{}", dump(output))))
        .collect();
    let summary = lines.pop().expect("a summary");
    assert_eq!(summary["type"], "summary", "{}", dump(output));
    lines.retain(|line| line["type"] == "submission");
    (lines, summary)
}

/// The row of `submission` in a verify report's rows.
pub fn row<'a>(rows: &'a [serde_json::Value], submission: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["submission"] == submission)
        .unwrap_or_else(|| panic!("no row for {submission}: {rows:#?}"))
}
