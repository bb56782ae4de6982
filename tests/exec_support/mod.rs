//! Helpers for the `check --exec` tests (tests/exec_*.rs): hostile programs written or compiled
//! at test time, a fixture tree in which one case triggers the hostility, the JSON report read
//! back per case, and a /proc scan for processes a run left behind.
//!
//! Every program here answers powers-of-two correctly (`Kiki` unless 3 divides n) except on an
//! input that contains [`MARKER`], where it does the one bad thing its test is about. Each fixture
//! tree holds that case among ordinary ones, so a test can also check that the other cases of the
//! same run are judged correctly.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{dump, stdout, Project};

mod processes;

pub use processes::{assert_no_process_left, pinned, processes_with, Hogs};

/// The number whose presence in an input makes a program misbehave.
pub const MARKER: u32 = 777_777;

/// The case that holds [`MARKER`]; it sorts between the ordinary ones.
pub const HOSTILE: &str = "powers-of-two/m-hostile";

/// The ordinary cases [`fixture`] writes, in sorted order.
pub const ORDINARY: [&str; 3] = [
    "powers-of-two/a-first",
    "powers-of-two/b-mixed",
    "powers-of-two/z-many",
];

/// A project with the ordinary cases and [`HOSTILE`], all with correct expected outputs.
pub fn fixture() -> Project {
    let project = Project::new();
    project.powers("a-first", &[1, 2, 3]);
    project.powers("b-mixed", &[6, 7, 9, 1000, 512]);
    project.powers("m-hostile", &[MARKER, 4, 5]);
    project.powers("z-many", &(1..=300).collect::<Vec<_>>());
    project
}

/// The C program every compiled test program starts from: it reads every n, calls `watch()`
/// (which says whether the run sees what it must not, e.g. what an earlier run left) and then
/// `misbehave()` when one of them is [`MARKER`] (both supplied by the test), then prints the
/// answers, or a wrong one first when `watch()` saw something.
const C_PRELUDE: &str = r#"
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void misbehave(void);
static int watch(void);

/* Writes every page of a block, in a way the compiler cannot drop. */
__attribute__((unused)) static void touch(char *block, size_t size) {
    volatile char *pages = block;
    for (size_t i = 0; i < size; i += 4096) pages[i] = (char)i | 1;
}

int main(void) {
    static long long ns[100000];
    size_t count = 0;
    long long n;
    int marked = 0;
    while (count < 100000 && scanf("%lld", &n) == 1) {
        ns[count++] = n;
        if (n == MARKER) marked = 1;
    }
    int saw = watch();
    if (marked) misbehave();
    if (saw) puts("this run saw what it must not");
    for (size_t i = 0; i < count; i++) puts(ns[i] % 3 ? "Kiki" : "Cici");
    return 0;
}
"#;

/// Compiles `source` with `cc -O2` into `project/programs/name`.
pub fn compile(project: &Project, name: &str, source: &str) -> PathBuf {
    let dir = project.path().join("programs");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, source).unwrap();
    let output = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("cc runs");
    assert!(
        output.status.success(),
        "cc failed on {name}.c:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// A compiled program that answers correctly and runs `misbehave` (a C function body) on the
/// input holding [`MARKER`]. The body may call `touch(block, size)` to make memory resident
/// (a plain `memset` of a block that is never read may be optimized away).
pub fn c_program(project: &Project, name: &str, misbehave: &str) -> PathBuf {
    c_program_with(project, name, "", "return 0;", misbehave)
}

/// [`c_program`] that also runs `watch` (a C function body returning int) on every case first:
/// a case where it returns non-zero gets a wrong answer, so its verdict says whether the run saw
/// what it must not. `helpers` (C definitions) come before both.
pub fn c_program_with(
    project: &Project,
    name: &str,
    helpers: &str,
    watch: &str,
    misbehave: &str,
) -> PathBuf {
    let source = format!(
        "#define MARKER {MARKER}LL\n{C_PRELUDE}\n{helpers}\n\
         static int watch(void) {{\n{watch}\n}}\n\
         static void misbehave(void) {{\n{misbehave}\n}}\n"
    );
    compile(project, name, &source)
}

/// An executable `#!/bin/sh` script that answers correctly and runs `misbehave` (shell commands)
/// on the input holding [`MARKER`].
pub fn sh_program(project: &Project, name: &str, misbehave: &str) -> PathBuf {
    let script = format!(
        r#"#!/bin/sh
misbehave() {{
{misbehave}
}}
input=$(cat)
case " $(echo $input) " in *" {MARKER} "*) misbehave ;; esac
for n in $input; do
    if [ $((n % 3)) -eq 0 ]; then echo Cici; else echo Kiki; fi
done
"#
    );
    script_file(project, name, &script)
}

/// Writes `text` as an executable file `project/programs/name`.
pub fn script_file(project: &Project, name: &str, text: &str) -> PathBuf {
    let path = project.file(&format!("programs/{name}"), text);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A finished `grundy check --format json` run, read back.
pub struct Judged {
    pub output: Output,
    pub elapsed: Duration,
    /// Case objects by case id.
    pub cases: BTreeMap<String, Value>,
    /// Case ids in the order reported.
    pub order: Vec<String>,
    pub summary: Option<Value>,
}

impl Judged {
    pub fn code(&self) -> i32 {
        crate::common::code(&self.output)
    }

    pub fn dump(&self) -> String {
        dump(&self.output)
    }

    pub fn case(&self, id: &str) -> &Value {
        self.cases
            .get(id)
            .unwrap_or_else(|| panic!("no result for `{id}`\n{}", self.dump()))
    }

    pub fn verdict(&self, id: &str) -> &str {
        self.case(id)["verdict"].as_str().unwrap_or_default()
    }

    pub fn message(&self, id: &str) -> &str {
        self.case(id)["message"].as_str().unwrap_or_default()
    }

    pub fn time_ms(&self, id: &str) -> f64 {
        self.case(id)["time_ms"]
            .as_f64()
            .unwrap_or_else(|| panic!("no time_ms for `{id}`\n{}", self.dump()))
    }

    /// The hostile case got `verdict`, every ordinary case is AC, nothing was skipped, and the
    /// exit code says whether anything failed.
    pub fn assert_verdicts(&self, verdict: &str) {
        let mut expected: Vec<String> = ORDINARY.iter().map(|c| c.to_string()).collect();
        expected.insert(2, HOSTILE.to_string());
        assert_eq!(self.order, expected, "cases reported\n{}", self.dump());
        for id in ORDINARY {
            assert_eq!(self.verdict(id), "AC", "`{id}`\n{}", self.dump());
        }
        assert_eq!(self.verdict(HOSTILE), verdict, "{}", self.dump());
        let summary = self.summary.as_ref().expect("a summary object");
        let failed = u64::from(verdict != "AC");
        assert_eq!(summary["total"], 4, "{}", self.dump());
        assert_eq!(summary["failed"], failed, "{}", self.dump());
        assert_eq!(summary["passed"], 4 - failed, "{}", self.dump());
        assert_eq!(self.code(), failed as i32, "{}", self.dump());
    }
}

/// `grundy ARGS --format json` in the project folder.
pub fn check_json(project: &Project, args: &[&str]) -> Judged {
    check_json_with(project, Launch::Direct, args)
}

/// [`check_json`], started through `launch`.
pub fn check_json_with(project: &Project, launch: Launch, args: &[&str]) -> Judged {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let started = Instant::now();
    let output = grundy(project, launch, &all).output().expect("grundy runs");
    let elapsed = started.elapsed();
    parse_json(output, elapsed)
}

/// One `#[test]` per launch for `body(launch)`: as the test runs, without namespaces, and
/// without namespaces as `nobody` (which needs root, and is ignored otherwise).
#[macro_export]
macro_rules! in_each_launch {
    ($body:ident: $direct:ident, $no_namespaces:ident, $as_nobody:ident) => {
        #[test]
        fn $direct() {
            $body(Launch::Direct);
        }

        #[test]
        fn $no_namespaces() {
            $body(Launch::NoNamespaces);
        }

        #[test]
        #[cfg_attr(not(as_root), ignore = "needs root: the test becomes nobody")]
        fn $as_nobody() {
            $body(Launch::NoNamespacesAsNobody);
        }
    };
}

/// How a test starts grundy, to reach each containment the sandbox can fall back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Launch {
    /// As the test runs: the strongest containment this machine offers.
    Direct,
    /// Under a seccomp filter that refuses new user and PID namespaces (as a container's
    /// default profile or a distribution's user-namespace policy can): a cgroup where the
    /// user can write one (root here), else the process group.
    NoNamespaces,
    /// As NoNamespaces, and as the unprivileged user `nobody` (needs root): the process group.
    NoNamespacesAsNobody,
    /// As NoNamespaces, and Landlock refused too (as on a kernel without it): nothing keeps the
    /// host's files from judged programs.
    NoNamespacesNoLandlock,
}

pub fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        == Some("0")
}

/// Installs a seccomp filter that fails clone/unshare with a new user or PID namespace
/// (EPERM) and clone3 (ENOSYS, so callers fall back to clone), and with `-L` Landlock's calls
/// (ENOSYS, as a kernel without it answers), optionally becomes `nobody` (`-u`), then runs its
/// arguments. The program is opened before becoming nobody and run from that descriptor:
/// nobody need not reach it (the clone may sit in a 0700 folder).
const LAUNCHER: &str = r#"
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int first = 1, nobody = 0, no_landlock = 0;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "-u") == 0) nobody = 1;
        else if (strcmp(argv[first], "-L") == 0) no_landlock = 1;
        else return 125;
    }
    if (first >= argc) return 125;
    /* landlock_create_ruleset is 444 on every architecture; without -L nothing matches it. */
    unsigned landlock = no_landlock ? 444 : 0xffffffff;
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, landlock, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_unshare, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER | CLONE_NEWPID, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program)) {
        perror("launcher: seccomp");
        return 125;
    }
    int exe = open(argv[first], O_PATH | O_CLOEXEC);
    if (exe < 0) {
        perror("launcher: open");
        return 125;
    }
    if (nobody && (setgroups(0, NULL) || setgid(65534) || setuid(65534))) {
        perror("launcher: becoming nobody");
        return 125;
    }
    extern char **environ;
    syscall(SYS_execveat, exe, "", argv + first, environ, AT_EMPTY_PATH);
    perror("launcher: execveat");
    return 125;
}
"#;

/// The command `grundy ARGS` in the project folder, started through `launch`.
pub fn grundy(project: &Project, launch: Launch, args: &[&str]) -> Command {
    let exe = assert_cmd::cargo::cargo_bin("grundy");
    let mut command = match launch {
        Launch::Direct => Command::new(exe),
        Launch::NoNamespaces | Launch::NoNamespacesAsNobody | Launch::NoNamespacesNoLandlock => {
            let launcher = project.path().join("programs/launcher");
            if !launcher.exists() {
                compile(project, "launcher", LAUNCHER);
            }
            let mut command = Command::new(launcher);
            if launch == Launch::NoNamespacesAsNobody {
                assert!(is_root(), "only root can become nobody");
                // nobody must reach the fixtures and the programs.
                let open = std::fs::Permissions::from_mode(0o755);
                std::fs::set_permissions(project.path(), open).unwrap();
                command.arg("-u");
            }
            if launch == Launch::NoNamespacesNoLandlock {
                command.arg("-L");
            }
            command.arg(exe);
            command
        }
    };
    command
        .current_dir(project.path())
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("CI")
        .stdin(std::process::Stdio::null());
    command
}

/// The containment `check -v` names for a launch, checked against what it must be.
pub fn assert_containment(project: &Project, launch: Launch) -> String {
    let program = c_program(project, "containment-probe", "");
    let exec = exec_arg(&program);
    let output = grundy(
        project,
        launch,
        &["check", "-v", "--exec", &exec, "--format", "json"],
    )
    .output()
    .unwrap();
    let notes = String::from_utf8_lossy(&output.stderr).into_owned();
    let line = notes
        .lines()
        .find_map(|l| l.strip_prefix("containment: "))
        .unwrap_or_else(|| panic!("no containment line\n{}", dump(&output)))
        .to_string();
    let allowed: &[&str] = match launch {
        // Where the build found namespaces allowed (or GRUNDY_REQUIRE_BOX=1), nothing less.
        Launch::Direct if cfg!(boxes) => &["PID namespace"],
        Launch::Direct => &["PID namespace", "cgroup", "process group"],
        Launch::NoNamespaces | Launch::NoNamespacesNoLandlock => &["cgroup", "process group"],
        Launch::NoNamespacesAsNobody => &["process group"],
    };
    assert!(
        allowed.iter().any(|a| line.starts_with(a)),
        "{launch:?}: containment `{line}`"
    );
    line
}

pub fn parse_json(output: Output, elapsed: Duration) -> Judged {
    let mut cases = BTreeMap::new();
    let mut order = Vec::new();
    let mut summary = None;
    for line in stdout(&output).lines().filter(|l| !l.trim().is_empty()) {
        let value: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {line}\n{}", dump(&output)));
        match value["type"].as_str() {
            Some("case") => {
                let id = value["case"].as_str().unwrap().to_string();
                order.push(id.clone());
                cases.insert(id, value);
            }
            Some("summary") => summary = Some(value),
            other => panic!("unexpected object type {other:?}: {line}"),
        }
    }
    Judged {
        output,
        elapsed,
        cases,
        order,
        summary,
    }
}

/// `--exec` argument for a program path: quoted, since temporary folders may hold spaces.
pub fn exec_arg(program: &Path) -> String {
    shell_quote(&program.display().to_string())
}

pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}
