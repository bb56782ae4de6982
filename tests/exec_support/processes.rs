//! Processes around an `--exec` test: those a run left behind (found by a marker in their
//! command line), a command pinned to one core, and spinning hogs that make a core busy.

use std::process::Command;
use std::time::{Duration, Instant};

/// Live processes whose command line contains `marker`, as (pid, command line).
pub fn processes_with(marker: &str) -> Vec<(u32, String)> {
    let me = std::process::id();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(raw) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
        if cmdline.contains(marker) {
            found.push((pid, cmdline));
        }
    }
    found
}

/// Asserts that no process with `marker` in its command line is alive, allowing a moment for
/// killed processes to finish dying. Any found are killed (they are this test's own programs)
/// before the test fails.
pub fn assert_no_process_left(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut left = processes_with(marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = processes_with(marker);
    }
    if left.is_empty() {
        return;
    }
    for (pid, _) in &left {
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    panic!(
        "{} process(es) outlived the run:\n{}",
        left.len(),
        left.iter()
            .map(|(pid, cmd)| format!("  {pid}: {cmd}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `command` started through `taskset -c CPU`: it and every process it starts run on that core.
pub fn pinned(command: &Command, cpu: usize) -> Command {
    let mut pinned = Command::new("taskset");
    pinned
        .args(["-c", &cpu.to_string()])
        .arg(command.get_program())
        .args(command.get_args());
    for (name, value) in command.get_envs() {
        match value {
            Some(value) => pinned.env(name, value),
            None => pinned.env_remove(name),
        };
    }
    if let Some(dir) = command.get_current_dir() {
        pinned.current_dir(dir);
    }
    pinned.stdin(std::process::Stdio::null());
    pinned
}

/// Processes that spin on one core until dropped: a busy machine, made by the test.
pub struct Hogs(Vec<std::process::Child>);

impl Hogs {
    pub fn on_core(cpu: usize, count: usize) -> Hogs {
        Hogs(
            (0..count)
                .map(|_| {
                    // Each in a session of its own: with autogroup scheduling a session
                    // shares a core as one, and the judged program runs in a session of its own.
                    Command::new("setsid")
                        .args(["taskset", "-c", &cpu.to_string()])
                        .args(["sh", "-c", "while :; do :; done"])
                        .stdin(std::process::Stdio::null())
                        .spawn()
                        .expect("taskset starts a spinning shell")
                })
                .collect(),
        )
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}
