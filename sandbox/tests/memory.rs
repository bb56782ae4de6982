//! Memory verdicts on small programs, under every containment this machine offers: the
//! limit reached at once, in small steps, by a family of processes or by a reservation; the
//! peak measured; languages' own out-of-memory ends (Python, Rust) judged MLE.

mod common;

use common::*;
use grundy_sandbox::{End, Program};

const HOG: &str = r#"
#include <stdlib.h>
int main(void) {
    for (;;) {
        volatile char *p = malloc(1 << 20);
        if (!p) return 1;
        for (int i = 0; i < 1 << 20; i += 4096) p[i] = 1;
    }
}
"#;

const HUGE: &str = r#"
#include <stdlib.h>
int main(void) {
    char *p = malloc((size_t)1 << 40);
    if (!p) abort();
    p[0] = 1;
    return 0;
}
"#;

const MODEST: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    size_t n = 24 << 20;
    volatile char *p = malloc(n);
    memset((char *)p, 6 + argc, n);
    long sum = 0;
    for (size_t i = 0; i < n; i += 4096) sum += p[i];
    printf("%ld\n", sum / (long)(n / 4096));
    return 0;
}
"#;

const THREADS: &str = r#"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void *work(void *arg) {
    size_t n = 16 << 20;
    char *p = malloc(n);
    if (!p) return (void *)-1000000L;
    memset(p, 1, n);
    long sum = 0;
    for (size_t i = 0; i < n; i += 4096) sum += p[i];
    free(p);
    return (void *)sum;
}
int main(void) {
    pthread_t t[4];
    long total = 0;
    for (int i = 0; i < 4; i++)
        if (pthread_create(&t[i], 0, work, 0)) return 2;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        total += (long)r;
    }
    printf("%ld\n", total);
    return 0;
}
"#;

#[test]
fn allocating_past_the_limit_is_a_memory_limit() {
    let exe = c_program("hog", HOG);
    for o in judge(&program([exe]), &limits(5000, 64, 1024)) {
        assert_eq!(o.end, End::MemoryLimit, "{o:?}");
    }
}

#[test]
fn running_out_of_memory_in_small_steps_is_a_memory_limit_however_the_program_ends() {
    // Each request is below what the filter watches: only the peak address space, read at
    // the program's end, tells. The ends that fail are the ones the tracer must see (a box
    // whose cgroup measures memory does not stop programs at every exit).
    for (name, ending) in [
        ("hog_exit", "exit(3);"),
        ("hog_segv", "*(volatile char *)0 = 1;"),
        ("hog_thread", "syscall(SYS_exit, 9); for (;;) pause();"),
    ] {
        let exe = c_program(name, &HOG_ENDING.replace("ENDING", ending));
        for o in judge(&program([&exe]), &limits(5000, 64, 1024)) {
            assert_eq!(o.end, End::MemoryLimit, "{name}: {o:?}");
        }
    }
    // The same program ending well is judged on its output, whatever memory it reached.
    let exe = c_program(
        "hog_ok",
        &HOG_ENDING.replace("ENDING", "puts(\"ok\"); exit(256);"),
    );
    for o in judge(&program([exe]), &limits(5000, 64, 1024)) {
        assert_eq!(o.end, End::Exited(0), "{o:?}");
        assert_eq!(o.stdout, b"ok\n");
    }
}

/// Allocates 1 MiB blocks (each its own mapping, below the watched size) until one is
/// refused, then ends as ENDING says.
const HOG_ENDING: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    for (;;) {
        volatile char *p = malloc(1 << 20);
        if (!p) {
            ENDING
        }
        for (int i = 0; i < 1 << 20; i += 4096) p[i] = 1;
    }
}
"#;

#[test]
fn a_refused_huge_allocation_that_aborts_is_a_memory_limit() {
    let exe = c_program("huge", HUGE);
    for o in judge(&program([exe]), &limits(5000, 64, 1024)) {
        assert_eq!(o.end, End::MemoryLimit, "{o:?}");
    }
}

#[test]
fn memory_within_the_limit_is_fine_and_measured() {
    let exe = c_program("modest", MODEST);
    for o in judge(&program([exe]), &limits(5000, 64, 1024)) {
        assert_eq!(o.end, End::Exited(0), "{o:?}");
        assert_eq!(o.stdout, b"7\n");
        let peak = o.peak_memory_bytes.unwrap();
        // 24 MiB touched; a cgroup may have charged up to a batch per CPU (256 KiB) of it
        // before the run began.
        assert!((23 << 20..60 << 20).contains(&peak), "peak {peak}");
    }
}

#[test]
fn threads_allocating_in_parallel_are_fine() {
    // Each glibc thread arena reserves 64 MiB of address space, hence the roomy limit.
    let exe = c_program("threads", THREADS);
    for o in judge(&program([exe]), &limits(5000, 1024, 1024)) {
        assert_eq!(o.end, End::Exited(0), "{o:?}");
        assert_eq!(o.stdout, b"16384\n");
    }
}

#[test]
fn python_memory_error_is_a_memory_limit() {
    let limits = limits(5000, 64, 1024);
    let fine = run(
        &program(["python3", "-c", "print(sum(range(10)))"]),
        &input(b""),
        &limits,
    );
    assert_eq!(fine.unwrap().stdout, b"45\n");
    let o = run(
        &program(["python3", "-c", "x = bytearray(10**10)"]),
        &input(b""),
        &limits,
    );
    let o = o.unwrap();
    assert_eq!(o.end, End::MemoryLimit, "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("MemoryError"));
}

#[test]
fn a_rust_allocation_failure_is_a_memory_limit() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-tests/bin");
    let src = dir.join(format!("alloc-{}.rs", std::process::id()));
    let exe = dir.join(format!("alloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        &src,
        "fn main() { let v: Vec<u8> = Vec::with_capacity(std::env::args().count() << 36); \
         println!(\"{}\", v.capacity()); }",
    )
    .unwrap();
    let built = std::process::Command::new("rustc")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status()
        .unwrap();
    assert!(built.success());
    let outcomes = judge(&program([&exe]), &limits(5000, 64, 1024));
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&exe);
    for o in outcomes {
        assert_eq!(o.end, End::MemoryLimit, "{o:?}");
    }
}

#[test]
fn deep_recursion_may_use_the_memory_limit() {
    let exe = c_program(
        "recurse",
        "#include <stdio.h>\n\
         static long depth(long n) { volatile char pad[64]; pad[0] = (char)n; \
         return n == 0 ? pad[0] : 1 + depth(n - 1); }\n\
         int main(void) { printf(\"%ld\\n\", depth(1000000)); return 0; }\n",
    );
    for o in judge(&program([exe]), &limits(5000, 256, 1024)) {
        assert_eq!(o.end, End::Exited(0), "{o:?}");
        assert_eq!(o.stdout, b"1000000\n");
    }
}

const FAMILY_HOG: &str = r#"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
/* Three processes of 40 MiB each: every one is within RLIMIT_AS, the family is not. */
int main(void) {
    for (int i = 0; i < 3; i++) {
        if (fork() == 0) {
            size_t n = 40 << 20;
            volatile char *p = malloc(n);
            if (!p) return 1;
            for (size_t j = 0; j < n; j += 4096) p[j] = 1;
            usleep(300000);
            return p[n / 2] != 1;
        }
    }
    int status, failed = 0;
    while (wait(&status) > 0) failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    return failed;
}
"#;

#[test]
fn a_process_family_is_limited_together_where_cgroups_are_writable() {
    let exe = c_program("family", FAMILY_HOG);
    let stdin = input(b"");
    let limits = limits(5000, 64, 1024);
    let cgroups = grundy_sandbox::describe_containment().contains("memory and pids");
    for containment in available_containments() {
        let o = run_with(&program([&exe]), &stdin, &limits, containment).unwrap();
        if cgroups && containment != grundy_sandbox::Containment::ProcessGroup {
            assert_eq!(o.end, End::MemoryLimit, "{containment}: {o:?}");
        } else {
            assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        }
    }
}

/// Reserves 8 GiB of address space without touching it (as the JVM reserves its heap), then
/// touches 16 MiB of it; exits 1 if the reservation is refused.
const RESERVER: &str = r#"#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
int main(void) {
    size_t reserved = (size_t)8 << 30;
    char *p = mmap(0, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return 1;
    memset(p, 1, 16 << 20);
    puts("reserved");
    return 0;
}
"#;

#[test]
fn a_program_that_reserves_address_space_is_held_by_the_cgroup_alone_where_there_is_one() {
    let exe = c_program("reserver", RESERVER);
    let stdin = input(b"");
    let limits = limits(5000, 256, 1024);
    let cgroups = grundy_sandbox::describe_containment().contains("memory and pids");
    let plain = program([&exe]);
    let reserving = Program {
        reserves_address_space: true,
        ..program([&exe])
    };
    for containment in available_containments() {
        // By default the address space is the limit: the reservation is refused.
        let o = run_with(&plain, &stdin, &limits, containment).unwrap();
        assert_eq!(o.end, End::MemoryLimit, "{containment}: {o:?}");
        let o = run_with(&reserving, &stdin, &limits, containment).unwrap();
        if cgroups && containment != grundy_sandbox::Containment::ProcessGroup {
            assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
            assert_eq!(o.stdout, b"reserved\n");
        } else {
            // No cgroup to hold the memory limit: the address space still does.
            assert_eq!(o.end, End::MemoryLimit, "{containment}: {o:?}");
        }
    }
}

#[test]
fn every_run_that_ends_by_itself_has_a_measured_peak() {
    // Measured at the program's exit from /proc; reading it must not depend on timing (a
    // program in the middle of exec is briefly undumpable).
    let program = sh("true");
    for containment in available_containments() {
        for _ in 0..30 {
            let o = run_with(&program, &input(b""), &default_limits(), containment).unwrap();
            assert!(o.peak_memory_bytes.is_some(), "{containment}: {o:?}");
        }
    }
}
