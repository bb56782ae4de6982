//! `check --exec` through the real binary: time, memory and output limits, and a large input
//! the program never reads. Every hostile program here is bounded by itself (it gives up after
//! some seconds or some hundreds of MiB), so a broken limit fails the test without hurting the
//! machine. Each run also holds ordinary cases, which must still be judged correctly.

use crate::common;
use crate::exec_support;

use std::time::Duration;

use exec_support::*;

/// A generous bound for a whole run whose hostile case is stopped at a limit of 500 ms (or that
/// has no limit to hit): the programs give up by themselves only after 30 s.
const BOUND: Duration = Duration::from_secs(10);

/// The hostile case was stopped by the time limit, at about the limit.
fn assert_time_limit(judged: &Judged, limit_ms: f64) {
    judged.assert_verdicts("TLE");
    assert!(judged.elapsed < BOUND, "took {:?}", judged.elapsed);
    let time = judged.time_ms(HOSTILE);
    assert!(
        time >= limit_ms * 0.9 && time < limit_ms + 3000.0,
        "stopped after {time} ms\n{}",
        judged.dump()
    );
}

fn run_with_time_limit(project: &common::Project, program: &std::path::Path) -> Judged {
    check_json(
        project,
        &["check", "--time-limit", "500", "--exec", &exec_arg(program)],
    )
}

#[test]
fn sleeping_is_tle_at_about_the_limit() {
    let project = fixture();
    let program = c_program(&project, "sleeper", "sleep(30);");
    assert_time_limit(&run_with_time_limit(&project, &program), 500.0);
}

#[test]
fn a_busy_loop_is_tle_at_about_the_limit() {
    let project = fixture();
    let program = c_program(
        &project,
        "spinner",
        r#"volatile unsigned long spins = 0;
time_t end = time(NULL) + 30;
while (time(NULL) < end) spins++;"#,
    );
    assert_time_limit(&run_with_time_limit(&project, &program), 500.0);
}

#[test]
fn a_shell_sleep_is_tle_at_about_the_limit() {
    let project = fixture();
    let program = sh_program(&project, "sh-sleeper", "sleep 30");
    assert_time_limit(&run_with_time_limit(&project, &program), 500.0);
    assert_no_process_left(&project.path().display().to_string());
}

#[test]
fn ignoring_sigterm_does_not_escape_the_time_limit() {
    let project = fixture();
    let program = c_program(
        &project,
        "stubborn",
        r#"signal(SIGTERM, SIG_IGN);
signal(SIGINT, SIG_IGN);
signal(SIGHUP, SIG_IGN);
for (int i = 0; i < 30; i++) sleep(1);"#,
    );
    assert_time_limit(&run_with_time_limit(&project, &program), 500.0);
    assert_no_process_left(&project.path().display().to_string());
}

in_each_launch!(memory_hog:
    touching_memory_far_past_the_limit_is_mle,
    without_namespaces_touching_memory_far_past_the_limit_is_mle,
    as_nobody_without_namespaces_touching_memory_far_past_the_limit_is_mle
);

fn memory_hog(launch: Launch) {
    let project = fixture();
    assert_containment(&project, launch);
    // 1 MiB at a time, up to 512 MiB (8 times the limit); a refused block ends it with status 1.
    let program = c_program(
        &project,
        "hog",
        r#"for (int i = 0; i < 512; i++) {
    char *block = malloc(1 << 20);
    if (!block) exit(1);
    touch(block, 1 << 20);
}"#,
    );
    let judged = check_json_with(
        &project,
        launch,
        &[
            "check",
            "--memory-limit",
            "64",
            "--exec",
            &exec_arg(&program),
        ],
    );
    judged.assert_verdicts("MLE");
    assert!(judged.elapsed < BOUND, "took {:?}", judged.elapsed);
    assert!(
        judged.message(HOSTILE).contains("memory limit"),
        "{}",
        judged.dump()
    );
    assert_peak_at_least(&judged, 64);
}

/// An MLE's peak is never said to be below the limit it exceeded (`limit_mib`), in the JSON
/// and in the message, whatever the program held when it was refused more or ended.
fn assert_peak_at_least(judged: &Judged, limit_mib: u64) {
    let peak = judged.case(HOSTILE)["peak_memory_bytes"].as_u64();
    assert!(
        peak.is_some_and(|bytes| bytes >= limit_mib << 20),
        "{}",
        judged.dump()
    );
    let message = judged.message(HOSTILE);
    let said = message
        .split("(peak ")
        .nth(1)
        .and_then(|rest| rest.split(" MiB").next())
        .and_then(|mib| mib.parse::<f64>().ok());
    assert!(
        said.is_some_and(|mib| mib >= limit_mib as f64),
        "{message}\n{}",
        judged.dump()
    );
}

#[test]
fn a_refused_huge_allocation_that_aborts_is_mle() {
    let project = fixture();
    // 16 GiB at once cannot be had under a 64 MiB limit; the program aborts, as a C++
    // program's uncaught bad_alloc would. Were it granted, only two pages are touched.
    let program = c_program(
        &project,
        "greedy",
        r#"size_t size = (size_t)1 << 34;
char *block = malloc(size);
if (!block) abort();
block[0] = 1;
block[size - 1] = 1;"#,
    );
    let judged = check_json(
        &project,
        &[
            "check",
            "--memory-limit",
            "64",
            "--exec",
            &exec_arg(&program),
        ],
    );
    judged.assert_verdicts("MLE");
    assert!(judged.elapsed < BOUND, "took {:?}", judged.elapsed);
    // It held two pages when refused: the peak said is still the limit's.
    assert_peak_at_least(&judged, 64);
}

#[test]
fn printing_endlessly_is_ole() {
    let project = fixture();
    // Up to 320 MiB, far past the 1 MiB limit.
    let program = c_program(
        &project,
        "printer",
        r#"for (long i = 0; i < (1L << 26); i++) fputs("Kiki\n", stdout);
exit(0);"#,
    );
    let judged = check_json(
        &project,
        &[
            "check",
            "--output-limit",
            "1",
            "--exec",
            &exec_arg(&program),
        ],
    );
    judged.assert_verdicts("OLE");
    assert!(judged.elapsed < BOUND, "took {:?}", judged.elapsed);
    assert!(
        judged.message(HOSTILE).contains("output limit"),
        "{}",
        judged.dump()
    );
}

/// Reads the first line with one small read(2); on the marker it writes its whole answer
/// (about 1 MiB, more than a pipe holds) without reading another byte of the ~20 MiB input.
/// Otherwise it reads everything and answers normally.
const NEVER_READS: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap + 1);
    ssize_t got = read(0, buf, 16);
    if (got > 0) len = (size_t)got;
    if (len >= 7 && memcmp(buf, "777777\n", 7) == 0) {
        fputs("Cici\n", stdout);
        for (long i = 0; i < LINES; i++) fputs("Kiki\n", stdout);
        return 0;
    }
    while (got > 0) {
        if (len == cap) buf = realloc(buf, (cap *= 2) + 1);
        got = read(0, buf + len, cap - len);
        if (got > 0) len += (size_t)got;
    }
    buf[len] = 0;
    char *p = buf, *end;
    for (long long n = strtoll(p, &end, 10); end != p; n = strtoll(p, &end, 10)) {
        puts(n % 3 ? "Kiki" : "Cici");
        p = end;
    }
    return 0;
}
"#;

#[test]
fn a_program_that_never_reads_a_large_input_is_judged_without_deadlock() {
    let project = fixture();
    const LINES: usize = 200_000;
    // 777777, then 200000 lines of `1` padded with spaces to 100 bytes: about 20 MiB.
    let line = format!("{:<99}\n", 1);
    let mut input = format!("{MARKER}\n");
    input.reserve(LINES * line.len());
    for _ in 0..LINES {
        input.push_str(&line);
    }
    assert!(input.len() > 20_000_000);
    let expected = format!("Cici\n{}", "Kiki\n".repeat(LINES));
    project.case(HOSTILE, &input, &expected);
    let source = format!("#define LINES {LINES}L\n{NEVER_READS}");
    let program = compile(&project, "never-reads", &source);

    let judged = check_json(
        &project,
        &[
            "check",
            "--time-limit",
            "5000",
            "--exec",
            &exec_arg(&program),
        ],
    );
    judged.assert_verdicts("AC");
    assert!(
        judged.elapsed < Duration::from_secs(30),
        "took {:?}",
        judged.elapsed
    );
}

/// `check --exec PROGRAM` with a time limit and a wall-clock limit of `time` and `wall` ms.
fn run_with_limits(
    project: &common::Project,
    program: &std::path::Path,
    time: &str,
    wall: &str,
) -> Judged {
    let exec = exec_arg(program);
    let args = [
        "check",
        "--time-limit",
        time,
        "--wall-time-limit",
        wall,
        "--exec",
        &exec,
    ];
    check_json(project, &args)
}

/// A case's `cpu_ms` and `wall_ms`, and the limit that stopped it (`limit`, for TLE).
fn clocks(judged: &Judged, id: &str) -> (f64, f64, Option<String>) {
    let case = judged.case(id);
    let ms = |key: &str| {
        case[key]
            .as_f64()
            .unwrap_or_else(|| panic!("no {key}\n{}", judged.dump()))
    };
    let limit = case["limit"].as_str().map(str::to_string);
    (ms("cpu_ms"), ms("wall_ms"), limit)
}

#[test]
fn spinning_in_forked_children_is_tle_by_their_cpu_time() {
    let project = fixture();
    // The main process only waits; four children do the work (each gives up after 30 s).
    let program = c_program(
        &project,
        "forker",
        r#"for (int i = 0; i < 4; i++) {
    if (fork() == 0) {
        volatile unsigned long spins = 0;
        time_t end = time(NULL) + 30;
        while (time(NULL) < end) spins++;
        _exit(0);
    }
}
while (wait(NULL) > 0) {}"#,
    );
    // The wall clock far behind: the CPU limit is reached first even on a busy machine.
    let judged = run_with_limits(&project, &program, "500", "20000");
    judged.assert_verdicts("TLE");
    let (cpu, wall, limit) = clocks(&judged, HOSTILE);
    assert!(wall < 20000.0, "{}", judged.dump());
    assert_eq!(limit.as_deref(), Some("cpu"), "{}", judged.dump());
    assert!(cpu > 500.0, "{}", judged.dump());
    assert!(
        judged.message(HOSTILE).contains("CPU time"),
        "{}",
        judged.dump()
    );
    assert_no_process_left(&project.path().display().to_string());
}

#[test]
fn sleeping_is_tle_by_the_wall_clock_which_says_so() {
    let project = fixture();
    let program = c_program(&project, "sleepy", "sleep(30);");
    let judged = run_with_limits(&project, &program, "500", "1500");
    judged.assert_verdicts("TLE");
    let (cpu, wall, limit) = clocks(&judged, HOSTILE);
    assert_eq!(limit.as_deref(), Some("wall"), "{}", judged.dump());
    assert!(cpu < 500.0, "{}", judged.dump());
    // Not stopped at the CPU limit's 500 ms: the wall clock gives a waiting program its own.
    assert!(wall >= 1500.0, "{}", judged.dump());
    assert_eq!(
        judged.time_ms(HOSTILE),
        wall,
        "TLE by the wall clock goes by the wall time"
    );
    assert!(
        judged.message(HOSTILE).contains("wall-clock limit"),
        "{}",
        judged.dump()
    );
}

#[test]
fn a_busy_machine_does_not_change_a_verdict() {
    let project = fixture();
    // Uses 800 ms of CPU time on the hostile case, however fast the machine.
    let program = c_program(
        &project,
        "steady",
        r#"struct timespec now;
do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
while (now.tv_sec == 0 && now.tv_nsec < 800000000L);"#,
    );
    let args = [
        "check",
        "-j",
        "1",
        "--time-limit",
        "1000",
        "--wall-time-limit",
        "30000",
        "--exec",
        &exec_arg(&program),
        "--format",
        "json",
    ];
    let judge = || {
        let started = std::time::Instant::now();
        let command = pinned(&grundy(&project, Launch::Direct, &args), 0);
        let output = { command }.output().expect("grundy runs");
        parse_json(output, started.elapsed())
    };
    let idle = judge();
    idle.assert_verdicts("AC");
    let busy = {
        // Four processes spinning on the program's one core: it gets a fifth of it at most.
        let _hogs = Hogs::on_core(0, 4);
        judge()
    };
    busy.assert_verdicts("AC");
    let (cpu, wall, _) = clocks(&busy, HOSTILE);
    assert!(cpu < 1000.0, "{}", busy.dump());
    // By the wall clock the loaded run took longer than the limit: judged by it, it would
    // have been TLE.
    assert!(
        wall > 1000.0,
        "the machine was not made busy\n{}",
        busy.dump()
    );
}

/// One peak-memory rule whatever the containment: a C++ program (its libstdc++ mapped from
/// files) that touches 16 MiB peaks at about 16 MiB in a box as root, in a cgroup without
/// namespaces, and as `nobody` with neither, where the main process's resident memory is all
/// there is to measure (the shared libraries it maps would add some 3 MiB).
fn peak_of_touching_16_mib(launch: Launch) {
    let project = fixture();
    assert_containment(&project, launch);
    let source = project.file(
        "programs/touch.cpp",
        r#"#include <iostream>
#include <vector>
int main() {
    std::vector<char> block(16 << 20, 1);
    long long n;
    while (std::cin >> n) std::cout << (n % 3 ? "Kiki" : "Cici") << "\n";
    return block[n & 1023] == 1 ? 0 : 3;
}
"#,
    );
    let exe = project.path().join("programs/touch");
    let built = std::process::Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&source)
        .output()
        .expect("g++ runs");
    assert!(built.status.success(), "{built:?}");
    let judged = check_json_with(&project, launch, &["check", "--exec", &exec_arg(&exe)]);
    assert_eq!(judged.code(), 0, "{}", judged.dump());
    for id in &judged.order {
        let peak = judged.case(id)["peak_memory_bytes"].as_u64().unwrap_or(0);
        assert!(
            (15 << 20..35 << 19).contains(&peak),
            "{launch:?}: {id} peaked at {peak} bytes\n{}",
            judged.dump()
        );
    }
}

#[test]
#[cfg_attr(not(gxx), ignore = "needs g++ on the PATH (Debian's g++)")]
fn a_cpp_program_peaks_at_what_it_touched() {
    peak_of_touching_16_mib(Launch::Direct);
}

#[test]
#[cfg_attr(not(gxx), ignore = "needs g++ on the PATH (Debian's g++)")]
fn without_namespaces_a_cpp_program_peaks_at_what_it_touched() {
    peak_of_touching_16_mib(Launch::NoNamespaces);
}

#[test]
#[cfg_attr(
    any(not(gxx), not(as_root)),
    ignore = "needs g++ on the PATH, and root: the test becomes nobody"
)]
fn as_nobody_a_cpp_program_peaks_at_what_it_touched() {
    peak_of_touching_16_mib(Launch::NoNamespacesAsNobody);
}
