//! Verdicts on small hostile and well-behaved programs, under every containment this machine
//! offers: exit codes, signals, time and output limits (memory: `memory.rs`).

mod common;

use std::time::Duration;

use common::*;
use grundy_sandbox::{Clock, End, Limits};

const ABORT: &str = "#include <stdlib.h>\nint main(void) { abort(); }\n";
const SPIN: &str = "int main(void) { for (;;) {} }\n";

#[test]
fn correct_program_is_judged_on_its_output() {
    for o in judge(&sh("read a b; echo $((a + b))"), &default_limits()) {
        assert_eq!(o.end, End::Exited(0));
        assert_eq!(o.stdout, b"3\n");
        // Measured; where a cgroup measures it, in the kernel's charge batches (up to 256 KiB
        // per CPU), so a run this small may show 0.
        assert!(o.peak_memory_bytes.is_some(), "{o:?}");
    }
}

#[test]
fn exit_code_and_stderr_are_reported() {
    for o in judge(&sh("echo oops >&2; exit 3"), &default_limits()) {
        assert_eq!(o.end, End::Exited(3));
        assert_eq!(o.stderr, b"oops\n");
    }
}

#[test]
fn abort_is_a_signal() {
    let exe = c_program("abort", ABORT);
    for o in judge(&program([exe]), &default_limits()) {
        assert_eq!(
            o.end,
            End::Signaled {
                signal: libc::SIGABRT,
                name: "SIGABRT"
            }
        );
    }
}

#[test]
fn a_signal_the_program_sends_itself_is_reported() {
    for o in judge(&sh("kill -SEGV $$"), &default_limits()) {
        assert!(
            matches!(
                o.end,
                End::Signaled {
                    name: "SIGSEGV",
                    ..
                }
            ),
            "{o:?}"
        );
    }
}

/// Stopped for its CPU time: it used more than its limit, and the CPU watch stopped it. Only a
/// machine too busy to give it its CPU time in the whole backstop (a twentieth of a core; seen
/// at load 14 on 2 cores) may leave it to the wall clock, and then it must not have had its CPU
/// time: a CPU watch that failed would show more. Nor is the wall time at a CPU stop bounded:
/// a machine that starved it may have let it reach both limits before the watch looked (seen
/// at load 12: 510 ms of CPU in 10.03 s), and then the CPU time decides, a fact of the program.
fn assert_cpu_time_limit(o: &grundy_sandbox::Outcome, limits: &Limits) {
    if o.end == End::TimeLimit(Clock::Wall) && o.cpu_time < limits.time {
        assert!(o.wall_time >= limits.wall, "{o:?}");
        return;
    }
    assert_eq!(o.end, End::TimeLimit(Clock::Cpu), "{o:?}");
    assert!(o.cpu_time > limits.time, "{o:?}");
}

#[test]
fn sleeping_is_a_time_limit_by_the_wall_clock() {
    let limits = limits(500, 256, 1024);
    for o in judge(&sh("sleep 30"), &limits) {
        assert_eq!(o.end, End::TimeLimit(Clock::Wall), "{o:?}");
        assert!(o.cpu_time < limits.time, "{o:?}");
        // Not stopped at the CPU limit: a waiting program is given the whole backstop.
        assert!(o.wall_time >= limits.wall, "{o:?}");
        assert!(o.wall_time < limits.wall + Duration::from_secs(2), "{o:?}");
    }
}

/// A CPU limit with a wall clock far behind it: a program that computes reaches the CPU limit
/// first even on a machine busy enough to give it a tenth of a core.
fn cpu_bound_limits() -> Limits {
    Limits {
        wall: Duration::from_secs(10),
        ..limits(500, 256, 1024)
    }
}

#[test]
fn spinning_is_a_time_limit_by_cpu_time() {
    let limits = cpu_bound_limits();
    let exe = c_program("spin", SPIN);
    for o in judge(&program([exe]), &limits) {
        assert_cpu_time_limit(&o, &limits);
    }
}

#[test]
fn spinning_in_forked_children_is_a_time_limit_by_their_cpu_time() {
    // The main process only waits: the CPU time is all its children's.
    let limits = cpu_bound_limits();
    let script = "for i in 1 2 3 4; do (while :; do :; done) & done; wait";
    for o in judge(&sh(script), &limits) {
        assert_cpu_time_limit(&o, &limits);
    }
}

#[test]
fn ignoring_sigterm_does_not_help() {
    let limits = cpu_bound_limits();
    for o in judge(&sh("trap '' TERM; while :; do :; done"), &limits) {
        assert_cpu_time_limit(&o, &limits);
    }
}

#[test]
fn endless_output_is_an_output_limit() {
    let limits = limits(5000, 256, 64);
    for o in judge(&program(["yes"]), &limits) {
        assert_eq!(o.end, End::OutputLimit, "{o:?}");
        assert_eq!(o.stdout.len() as u64, limits.output_bytes);
    }
}

#[test]
fn a_huge_file_is_stopped_by_the_file_size_limit() {
    let limits = limits(5000, 256, 16);
    // The shell survives; its child dies of SIGXFSZ, which still makes the run OLE.
    for o in judge(&sh("head -c 10000000 /dev/zero > big; exit 1"), &limits) {
        assert_eq!(o.end, End::OutputLimit, "{o:?}");
    }
}

#[test]
fn closing_stdout_early_is_judged_on_what_was_written() {
    for o in judge(
        &sh("echo 42; exec >&-; sleep 0.1; exit 0"),
        &default_limits(),
    ) {
        assert_eq!(o.end, End::Exited(0));
        assert_eq!(o.stdout, b"42\n");
    }
}

#[test]
fn a_program_that_never_reads_a_large_input_is_judged() {
    let big = input(&vec![b'7'; 50 << 20]);
    let o = run(&sh("echo done"), &big, &default_limits()).unwrap();
    std::fs::remove_file(&big).unwrap();
    assert_eq!(o.end, End::Exited(0));
    assert_eq!(o.stdout, b"done\n");
}

#[test]
fn environment_is_minimal() {
    std::env::set_var("GRUNDY_SECRET_FOR_TEST", "x");
    for o in judge(&program(["env"]), &default_limits()) {
        let env = String::from_utf8(o.stdout).unwrap();
        let keys: Vec<&str> = env.lines().filter_map(|l| l.split('=').next()).collect();
        assert!(
            keys.iter()
                .all(|k| ["PATH", "HOME", "LANG", "TMPDIR"].contains(k)),
            "{keys:?}"
        );
        assert!(keys.contains(&"PATH"));
    }
}

/// Four children that each spin 300 ms of CPU time and are never waited for: the program's
/// own CPU time is nearly nothing, the run's is 1.2 s.
const SPREADER: &str = r#"#include <time.h>
#include <unistd.h>
static void spin(long ms) {
    struct timespec t;
    for (;;) {
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        if (t.tv_sec * 1000 + t.tv_nsec / 1000000 >= ms) return;
    }
}
int main(void) {
    int done[2];
    if (pipe(done) != 0) return 2;
    for (int i = 0; i < 4; i++)
        if (fork() == 0) { spin(300); write(done[1], "x", 1); _exit(0); }
    char c;
    for (int i = 0; i < 4; i++) read(done[0], &c, 1);
    return 0;
}
"#;

#[test]
fn cpu_time_counts_every_process_of_the_run() {
    let exe = c_program("spreader", SPREADER);
    for o in judge(&program([exe]), &limits(20_000, 256, 64)) {
        assert_eq!(o.end, End::Exited(0), "{o:?}");
        assert!(
            o.cpu_time >= Duration::from_millis(1150),
            "the children's 1.2 s are missing: {:?}",
            o.cpu_time
        );
    }
}
