//! `check --exec` through the real binary: nothing of one run reaches another. A hostile case
//! leaves what it can (files in its working folder, /tmp, /var/tmp and /dev/shm, a folder
//! 30,000 levels deep, System V IPC objects), takes locks on the shared system files, spreads
//! its work over processes it never waits for, holds memory outside its address space, writes
//! another case's expected file, and reaches for the user's other processes; every other case
//! watches for what it must not see and answers wrongly if it does. Each attack runs in every
//! containment a machine can fall back to.

use crate::common;
use crate::exec_support;

use std::process::{Command, Stdio};

use exec_support::*;

/// C helpers of the programs below: the names a run leaves things under (unique to the test
/// project, `TAG`), and a chain of folders made by descriptor, deeper than any path.
const HELPERS: &str = r#"
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <errno.h>

static const char *shared[] = {"/tmp/grundy-left-" TAG, "/var/tmp/grundy-left-" TAG,
                               "/dev/shm/grundy-left-" TAG, 0};

static void chain(const char *top, int depth) {
    if (mkdir(top, 0755) != 0) return;
    int dir = open(top, O_RDONLY | O_DIRECTORY);
    for (int i = 0; dir >= 0 && i < depth; i++) {
        if (mkdirat(dir, "d", 0755) != 0) break;
        int next = openat(dir, "d", O_RDONLY | O_DIRECTORY);
        close(dir);
        dir = next;
    }
    if (dir >= 0) close(dir);
}
"#;

/// What a run may see of an earlier one (named on stderr, which a failed case's report shows).
const WATCH_LEFTOVERS: &str = r#"
    struct stat st;
    const char *files[] = {"left-here", "deep", "/tmp/deep-" TAG, shared[0], shared[1], shared[2], 0};
    for (int i = 0; files[i]; i++)
        if (stat(files[i], &st) == 0) { fprintf(stderr, "saw %s\n", files[i]); return 1; }
    key_t key = (key_t)KEY;
    if (shmget(key, 0, 0) >= 0 || semget(key, 0, 0) >= 0 || msgget(key, 0) >= 0) {
        fprintf(stderr, "saw an IPC object\n");
        return 1;
    }
    struct shm_info info;
    if (shmctl(0, SHM_INFO, (struct shmid_ds *)&info) >= 0 && info.used_ids > 0) {
        fprintf(stderr, "saw shared memory\n");
        return 1;
    }
    return 0;
"#;

/// Everything a run can try to leave. In a box the chain is as deep as the attack that filled
/// a compile box; on a host folder (on disk, without a box) a shallower one keeps the test quick
/// (removing any depth without recursion is scrub.rs's unit test).
const LEAVE: &str = r#"
    close(open("left-here", O_WRONLY | O_CREAT, 0644));
    for (int i = 0; shared[i]; i++) close(open(shared[i], O_WRONLY | O_CREAT, 0666));
    char cwd[4096];
    int boxed = getcwd(cwd, sizeof cwd) && strcmp(cwd, "/box") == 0;
    chain("deep", boxed ? 30000 : 200);
    chain("/tmp/deep-" TAG, boxed ? 30000 : 200);
    key_t key = (key_t)KEY;
    int shm = shmget(key, 1 << 20, IPC_CREAT | 0666);
    if (shm >= 0) {
        char *p = shmat(shm, 0, 0);
        if (p != (void *)-1) { memset(p, 7, 1 << 20); shmdt(p); }
    }
    semget(key, 1, IPC_CREAT | 0666);
    msgget(key, IPC_CREAT | 0666);
"#;

/// A name unique to this project (its folder), for things left outside it.
fn tag(project: &common::Project) -> String {
    let path = project.path().display().to_string();
    let hash = path.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{:08x}", hash as u32)
}

/// The program's source defines: the tag, and a System V key from it.
fn defines(project: &common::Project) -> String {
    let tag = tag(project);
    let key = u32::from_str_radix(&tag, 16).unwrap() & 0x7fff_ffff;
    format!("#define TAG \"{tag}\"\n#define KEY {key}\n{HELPERS}")
}

/// The arguments every launch needs: without a box or Landlock nothing keeps files apart, and
/// grundy judges only when told to trust the program.
fn check_args<'a>(launch: Launch, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["check"];
    all.extend(args);
    if launch == Launch::NoNamespacesNoLandlock {
        all.extend(["--isolate", "off"]);
    }
    all
}

/// One `#[test]` per launch for `body(launch)`: as the test runs, without namespaces, as
/// `nobody` without namespaces, and without namespaces or Landlock as root (where a box user's
/// leftovers are swept; as an ordinary user nothing could tell them from the user's own files).
macro_rules! in_every_launch {
    ($body:ident: $direct:ident, $no_namespaces:ident, $as_nobody:ident, $no_landlock:ident) => {
        in_each_launch!($body: $direct, $no_namespaces, $as_nobody);

        #[test]
        #[cfg_attr(not(as_root), ignore = "needs root: a box user's files are told apart by owner")]
        fn $no_landlock() {
            $body(Launch::NoNamespacesNoLandlock);
        }
    };
}

in_every_launch!(leftovers:
    nothing_a_case_leaves_is_seen_by_the_next,
    without_namespaces_nothing_a_case_leaves_is_seen_by_the_next,
    as_nobody_nothing_a_case_leaves_is_seen_by_the_next,
    without_landlock_nothing_a_case_leaves_is_seen_by_the_next
);

fn leftovers(launch: Launch) {
    let project = fixture();
    let program = c_program_with(
        &project,
        "leaver",
        &defines(&project),
        WATCH_LEFTOVERS,
        LEAVE,
    );
    // One worker: the cases run one after another, the box (or working folder) of the hostile
    // one reused by the next.
    let exec = exec_arg(&program);
    let args = check_args(
        launch,
        &["-j", "1", "--time-limit", "10000", "--exec", &exec],
    );
    let judged = check_json_with(&project, launch, &args);
    judged.assert_verdicts("AC");
    let tag = tag(&project);
    for folder in ["/tmp", "/var/tmp", "/dev/shm"] {
        let left = std::path::Path::new(folder).join(format!("grundy-left-{tag}"));
        assert!(
            !left.exists(),
            "{launch:?}: {} outlived the run",
            left.display()
        );
    }
    assert!(
        !std::path::Path::new(&format!("/tmp/deep-{tag}")).exists(),
        "{launch:?}"
    );
}

in_each_launch!(locks:
    no_lock_on_a_system_file_passes_between_concurrent_cases,
    without_namespaces_no_lock_passes_between_concurrent_cases,
    as_nobody_no_lock_passes_between_concurrent_cases
);

/// Every case holds a lock on a file all runs can open for a while, and a case that finds it
/// held by another has received a bit: the covert channel the locks would be.
fn locks(launch: Launch) {
    let project = fixture();
    let helpers = r#"
#include <sys/file.h>
#include <fcntl.h>
#include <errno.h>
static int locked_elsewhere(void) {
    int fd = open("/etc/passwd", O_RDONLY);
    if (fd < 0) return 0;
    int busy = 0;
    for (int round = 0; round < 20; round++) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            usleep(20000);
            flock(fd, LOCK_UN);
        } else if (errno == EWOULDBLOCK) {
            busy = 1;
        }
        struct flock l = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
        if (fcntl(fd, F_OFD_GETLK, &l) == 0 && l.l_type != F_UNLCK) busy = 1;
        usleep(5000);
    }
    close(fd);
    return busy;
}
"#;
    let program = c_program_with(
        &project,
        "locker",
        helpers,
        "return locked_elsewhere();",
        "",
    );
    let exec = exec_arg(&program);
    let args = check_args(launch, &["-j", "4", "--exec", &exec]);
    check_json_with(&project, launch, &args).assert_verdicts("AC");
}

in_each_launch!(cpu_in_children:
    cpu_time_spent_in_forked_children_counts,
    without_namespaces_cpu_time_spent_in_forked_children_counts,
    as_nobody_cpu_time_spent_in_forked_children_counts
);

/// Four children spin 600 ms of CPU each, side by side, and the program never waits for them:
/// 2.4 s of CPU time in 1.2 s of wall time on two idle cores. The time limit is 2 s, so the
/// CPU time decides (on a machine so busy that the wall clock reaches the limit first, the
/// verdict is the same).
fn cpu_in_children(launch: Launch) {
    let project = fixture();
    let helpers = r#"
static void spin(long ms) {
    struct timespec t;
    for (;;) {
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        if (t.tv_sec * 1000 + t.tv_nsec / 1000000 >= ms) return;
    }
}
"#;
    let program = c_program_with(
        &project,
        "spreader",
        helpers,
        "return 0;",
        r#"int done[2];
if (pipe(done) != 0) return;
for (int i = 0; i < 4; i++) {
    if (fork() == 0) { spin(600); write(done[1], "x", 1); _exit(0); }
}
char c;
for (int i = 0; i < 4; i++) read(done[0], &c, 1);"#,
    );
    let exec = exec_arg(&program);
    let args = check_args(launch, &["--time-limit", "2000", "--exec", &exec]);
    let judged = check_json_with(&project, launch, &args);
    judged.assert_verdicts("TLE");
}

in_each_launch!(memfd:
    memory_outside_the_address_space_is_refused_or_counted,
    without_namespaces_memory_outside_the_address_space_is_refused_or_counted,
    as_nobody_memory_outside_the_address_space_is_refused_or_counted
);

/// 1.5 GiB written into a memfd (and System V shared memory) under a 256 MiB limit: refused
/// where no cgroup counts it, the memory limit where one does; never accepted.
fn memfd(launch: Launch) {
    let project = fixture();
    let helpers = r#"
#include <sys/mman.h>
#include <sys/shm.h>
"#;
    let program = c_program_with(
        &project,
        "hoarder",
        helpers,
        "return 0;",
        r#"static char block[1 << 20];
memset(block, 1, sizeof block);
int fd = memfd_create("hoard", 0);
if (fd < 0) exit(3);
for (int i = 0; i < 1536; i++)
    if (write(fd, block, sizeof block) != (ssize_t)sizeof block) exit(4);
int shm = shmget(IPC_PRIVATE, 256 << 20, IPC_CREAT | 0600);
if (shm >= 0) {
    char *p = shmat(shm, 0, 0);
    if (p != (void *)-1) { touch(p, 256 << 20); shmdt(p); }
}"#,
    );
    let exec = exec_arg(&program);
    let args = check_args(launch, &["--memory-limit", "256", "--exec", &exec]);
    let judged = check_json_with(&project, launch, &args);
    let verdict = judged.verdict(HOSTILE).to_string();
    assert!(
        verdict == "MLE" || verdict == "RE",
        "{launch:?}: {verdict}\n{}",
        judged.dump()
    );
    judged.assert_verdicts(&verdict);
}

in_each_launch!(fixtures:
    a_program_cannot_rewrite_another_cases_expected_file,
    without_namespaces_a_program_cannot_rewrite_another_cases_expected_file,
    as_nobody_a_program_cannot_rewrite_another_cases_expected_file
);

/// The hostile case rewrites the expected file of the case judged after it (whose path it was
/// compiled with) so that a wrong answer would pass there.
fn fixtures(launch: Launch) {
    let project = fixture();
    let victim = project.path().join("fixtures/powers-of-two/z-many.out");
    let before = std::fs::read(&victim).unwrap();
    let misbehave = format!(
        r#"FILE *f = fopen("{}", "w");
if (f) {{ fputs("rewritten\n", f); fclose(f); }}"#,
        victim.display()
    );
    let program = c_program(&project, "rewriter", &misbehave);
    let exec = exec_arg(&program);
    let args = check_args(launch, &["-j", "1", "--exec", &exec]);
    let judged = check_json_with(&project, launch, &args);
    judged.assert_verdicts("AC");
    assert_eq!(std::fs::read(&victim).unwrap(), before, "{launch:?}");
}

in_each_launch!(neighbours:
    a_program_cannot_trace_or_signal_the_users_processes,
    without_namespaces_a_program_cannot_trace_or_signal_the_users_processes,
    as_nobody_a_program_cannot_trace_or_signal_the_users_processes
);

/// A process of the user who runs grundy (nobody's, when grundy runs as nobody), which the
/// hostile case tries to attach to with ptrace and to kill. Where the program runs as that very
/// user (no box, no root), only Landlock's signal scoping (ABI 6, Linux 6.12) stops the kill:
/// on an older kernel the kill is not asserted, as the book says
/// (docs/src/reference/containment.md, "Landlock's signal scope, ABI 6").
fn neighbours(launch: Launch) {
    let project = fixture();
    let mut sleeper = Command::new("sleep");
    sleeper.arg("30").stdin(Stdio::null());
    if launch == Launch::NoNamespacesAsNobody {
        use std::os::unix::process::CommandExt;
        sleeper.uid(65534).gid(65534);
    }
    let mut neighbour = sleeper.spawn().unwrap();
    let pid = neighbour.id();
    let same_user = launch == Launch::NoNamespacesAsNobody || !is_root();
    let signals_scoped = launch == Launch::Direct || !same_user || landlock_abi(&project) >= 6;
    let helpers = "#include <sys/ptrace.h>\n";
    let kill = if signals_scoped {
        format!("return kill({pid}, SIGKILL) == 0;")
    } else {
        "return 0;".to_string()
    };
    let watch = format!(
        "if (ptrace(PTRACE_ATTACH, {pid}, 0, 0) == 0) return 1;\n\
         if (ptrace(PTRACE_SEIZE, {pid}, 0, 0) == 0) return 1;\n{kill}"
    );
    let program = c_program_with(&project, "neighbour", helpers, &watch, "");
    let exec = exec_arg(&program);
    let args = check_args(launch, &["--exec", &exec]);
    let judged = check_json_with(&project, launch, &args);
    let alive = neighbour.try_wait().unwrap().is_none();
    let _ = neighbour.kill();
    let _ = neighbour.wait();
    judged.assert_verdicts("AC");
    assert!(
        alive || !signals_scoped,
        "{launch:?}: the user's process was killed"
    );
}

/// The Landlock ABI of this kernel (0 without Landlock), asked by a program of the test's own.
fn landlock_abi(project: &common::Project) -> i64 {
    let probe = compile(
        project,
        "landlock-abi",
        "#include <stdio.h>\n#include <sys/syscall.h>\n#include <unistd.h>\n\
         int main(void) { printf(\"%ld\\n\", syscall(444, 0, 0, 1)); return 0; }\n",
    );
    let output = Command::new(probe).output().unwrap();
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap_or(0)
        .max(0)
}
