//! Writes into a package through the real binary, while someone swaps one of its folders for a
//! link to a folder outside it: grundy writes beneath the package's descriptor, never through
//! a link, so the write fails naming the link and nothing lands (or is removed) where it leads.
//!
//! The swap happens while a generator runs, as the attack did it. A generator cannot
//! touch the package from inside its box, so the test plays the one who can (anyone allowed to
//! write the package's folder): the generator blocks SIGUSR1, then sets a handler for it (which
//! its `/proc/<pid>/status` shows, in `SigCgt`) and waits for it; the test swaps `data/` once it
//! sees the handler, then sends the signal, which stays pending until taken. No clock is involved.

use crate::common;
use crate::exec_support::processes_with;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use common::{code, dump, stderr, Project, NO_HANG};

/// A package whose one case comes from a generator that waits for SIGUSR1 (blocked before its
/// handler is set, then taken by `sigwait`: a signal sent once the handler shows is not lost);
/// `marker` is in its command line.
fn waiting_package(project: &Project, marker: &str) {
    let plan = format!(
        "solution: /submissions/accepted/sum.py\ndata:\n  secret:\n    data:\n      - a:\n          \
         generate: wait.py {marker}\n"
    );
    let files: &[(&str, &str)] = &[
        (
            "pkg/problem.yaml",
            "problem_format_version: 2023-07-draft\nname: Sum\n",
        ),
        ("pkg/generators/generators.yaml", &plan),
        (
            "pkg/generators/wait.py",
            "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})\n\
             signal.signal(signal.SIGUSR1, lambda *_: None)\n\
             signal.sigwait({signal.SIGUSR1})\nprint('1 2')\n",
        ),
        (
            "pkg/submissions/accepted/sum.py",
            "print(sum(int(x) for x in input().split()))\n",
        ),
    ];
    for (path, text) in files {
        project.file(path, text);
    }
}

/// The pid of the process with `marker` in its command line once it has a handler for SIGUSR1.
fn catching_usr1(marker: &str) -> u32 {
    let started = Instant::now();
    loop {
        for (pid, _) in processes_with(marker) {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
            let caught = status
                .lines()
                .find_map(|l| l.strip_prefix("SigCgt:"))
                .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok());
            // SIGUSR1 is signal 10: bit 9 of the mask.
            if caught.is_some_and(|mask| mask & (1 << 9) != 0) {
                return pid;
            }
        }
        assert!(started.elapsed() < NO_HANG, "the generator never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A grundy started by a test, killed if the test fails before it waited for it.
struct KilledIfLeft(Option<std::process::Child>);

impl Drop for KilledIfLeft {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Every file and folder below `dir`, as paths relative to it.
fn everything_below(dir: &Path) -> Vec<String> {
    let mut found = vec![];
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            found.push(path.strip_prefix(dir).unwrap().display().to_string());
            if path.symlink_metadata().unwrap().is_dir() {
                pending.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn generate_writes_and_removes_nothing_through_data_swapped_for_a_link_while_it_runs() {
    let project = Project::new();
    let marker = format!(
        "swap-marker-{}",
        project.path().file_name().unwrap().to_string_lossy()
    );
    waiting_package(&project, &marker);
    // A folder outside the package, holding a data file no rule of the package lists: `--clean`
    // would remove it, were it taken for the package's.
    let outside = project.path().join("outside");
    std::fs::create_dir_all(outside.join("secret")).unwrap();
    std::fs::write(outside.join("secret/victim.in"), "mine\n").unwrap();
    let data = project.path().join("pkg/data");
    std::fs::create_dir(&data).unwrap();

    let mut run = KilledIfLeft(Some(
        std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .current_dir(project.path())
            .args(["generate", "--clean", "pkg"])
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("CARGO_TARGET_DIR")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    ));
    let generator = catching_usr1(&marker);
    std::fs::rename(&data, project.path().join("pkg/data.moved")).unwrap();
    symlink(&outside, &data).unwrap();
    let sent = std::process::Command::new("kill")
        .args(["-USR1", &generator.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let output = run.0.take().unwrap().wait_with_output().unwrap();
    assert_eq!(
        everything_below(&outside),
        ["secret", "secret/victim.in"],
        "nothing written or removed outside: {}",
        dump(&output)
    );
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let said = stderr(&output);
    assert!(
        said.contains(&format!("`{}`: a symbolic link", data.display())),
        "the link is named: {}",
        dump(&output)
    );
    assert_eq!(
        everything_below(&project.path().join("pkg/data.moved")),
        Vec::<String>::new()
    );
    assert!(data.symlink_metadata().unwrap().is_symlink());
}
