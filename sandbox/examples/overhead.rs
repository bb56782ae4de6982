//! Per-run overhead of the sandbox: N runs of a tiny C program that exits at once, through
//! `run_with` under each containment this machine offers, against std::process::Command
//! (posix_spawn) and against fork+exec from `sh`'s loop. Prints wall time per run and CPU time
//! per run (this process and all its reaped descendants; steadier on a busy machine). Usage:
//! `cargo run --release -p grundy-sandbox --example overhead -- [N]` (needs cc).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grundy_sandbox::{run_with, Containment, Limits, Program};

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(500);
    let dir = std::env::temp_dir().join(format!("grundy-overhead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("tiny");
    let src = dir.join("tiny.c");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    let built = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status();
    assert!(built.is_ok_and(|s| s.success()), "cc failed");
    let input = dir.join("case.in");
    std::fs::write(&input, "1 2\n").unwrap();

    println!("{}", grundy_sandbox::describe_containment());
    let per_run = |(wall, cpu): (Duration, Duration), runs: u32| {
        format!(
            "{:8.1} us/run wall {:8.1} us/run cpu",
            wall.as_secs_f64() * 1e6 / f64::from(runs),
            cpu.as_secs_f64() * 1e6 / f64::from(runs)
        )
    };
    let spawn = time(n, || {
        Command::new(&exe)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .output()
            .unwrap();
    });
    println!("std::process::Command  {}", per_run(spawn, n));
    let loop_cmd = format!(
        "i=0; while [ $i -lt {n} ]; do {}; i=$((i+1)); done",
        exe.display()
    );
    let shell = time(1, || {
        Command::new("sh")
            .arg("-c")
            .arg(&loop_cmd)
            .status()
            .unwrap();
    });
    println!("sh loop (fork+exec)    {}", per_run(shell, n));

    let program = Program {
        argv: vec![exe.clone().into()],
    };
    let limits = Limits {
        time: Duration::from_secs(2),
        memory_bytes: 256 << 20,
        output_bytes: 64 << 20,
    };
    for containment in [
        Containment::PidNamespace,
        Containment::Cgroup,
        Containment::ProcessGroup,
    ] {
        if run_with(&program, &input, &limits, containment).is_err() {
            println!("{containment:<22} unavailable");
            continue;
        }
        let total = time(n, || {
            run_with(&program, &input, &limits, containment).unwrap();
        });
        println!("{:<22} {}", containment.to_string(), per_run(total, n));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Wall and CPU time of `n` calls of `f`.
fn time(n: u32, mut f: impl FnMut()) -> (Duration, Duration) {
    let (start, cpu) = (Instant::now(), cpu_used());
    for _ in 0..n {
        f();
    }
    (start.elapsed(), cpu_used() - cpu)
}

fn cpu_used() -> Duration {
    let of = |who| {
        // SAFETY: getrusage fills the struct we pass.
        let u = unsafe {
            let mut u: libc::rusage = std::mem::zeroed();
            libc::getrusage(who, &mut u);
            u
        };
        let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
        t(u.ru_utime) + t(u.ru_stime)
    };
    of(libc::RUSAGE_SELF) + of(libc::RUSAGE_CHILDREN)
}
