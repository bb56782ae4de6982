//! Per-run overhead of the sandbox: N runs of a tiny C program that exits at once, through
//! `run_with` under each containment this machine offers, against the floor: a C loop that
//! only forks, execs and waits for the same program N times. Prints wall and CPU time per run
//! (CPU: this process and its descendants, steadier on a busy machine) and the ratio to the
//! floor. The floor and each containment are measured in alternation, `rounds` times, and the
//! median of the rounds' ratios is reported. Last, what a compile's files cost in a reused box:
//! the same shell command given three sources and writing its output under `out/` (so the box
//! is emptied and checked after each run) against it given nothing and writing nothing.
//! Usage:
//! `cargo run --release -p grundy-sandbox --example overhead -- [N] [rounds] [only]`
//! (needs cc); `only` is a containment's name (`PID namespace`, `cgroup`, `process group`).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use grundy_sandbox::{run_with, BoxFile, Containment, End, Limits, Program, Spec, Stdin};

const FLOOR: &str = r#"
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int n = atoi(argv[1]);
    char *args[] = {argv[2], 0};
    char *env[] = {0};
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            execve(argv[2], args, env);
            _exit(127);
        }
        int status;
        waitpid(pid, &status, 0);
    }
    return 0;
}
"#;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let rounds: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let only = args.next();
    let dir = std::env::temp_dir().join(format!("grundy-overhead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tiny = compile(&dir, "tiny", "int main(void) { return 0; }\n");
    let floor = compile(&dir, "floor", FLOOR);
    let input = dir.join("case.in");
    std::fs::write(&input, "1 2\n").unwrap();

    println!("{}", grundy_sandbox::describe_containment());
    let program = Program::new([tiny.clone()]);
    let limits = Limits {
        time: Duration::from_secs(2),
        wall: Duration::from_secs(5),
        memory_bytes: 256 << 20,
        output_bytes: 64 << 20,
    };
    let run = |containment| {
        let spec =
            Spec::new(&program, &limits).stdin(Stdin::File(std::fs::File::open(&input).unwrap()));
        run_with(spec, containment)
    };
    let containments: Vec<Containment> = [
        Containment::PidNamespace,
        Containment::Cgroup,
        Containment::ProcessGroup,
    ]
    .into_iter()
    .filter(|c| only.as_ref().is_none_or(|o| *o == c.to_string()))
    .filter(|&c| run(c).is_ok())
    .collect();
    // Each round times the floor, then each containment, under much the same load: the ratio
    // within a round is the fair comparison, and the median round's is reported (with the
    // best time of each over all rounds).
    let mut floor_times = Vec::new();
    let mut times: Vec<Vec<(Duration, Duration)>> = vec![Vec::new(); containments.len()];
    for _ in 0..rounds {
        floor_times.push(time(1, || {
            let status = Command::new(&floor).arg(n.to_string()).arg(&tiny).status();
            assert!(status.is_ok_and(|s| s.success()), "the floor loop failed");
        }));
        for (i, &c) in containments.iter().enumerate() {
            times[i].push(time(n, || {
                let outcome = run(c).unwrap();
                assert_eq!(outcome.end, End::Exited(0), "{c}: {outcome:?}");
            }));
        }
    }
    let micros = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(n);
    let best = |t: &[(Duration, Duration)]| {
        let wall = t.iter().map(|x| x.0).min().unwrap_or_default();
        let cpu = t.iter().map(|x| x.1).min().unwrap_or_default();
        (micros(wall), micros(cpu))
    };
    let median = |mut ratios: Vec<f64>| {
        ratios.sort_by(f64::total_cmp);
        ratios[ratios.len() / 2]
    };
    let (floor_wall, floor_cpu) = best(&floor_times);
    println!("{n} runs per round, {rounds} rounds: best times, median ratio to the floor");
    println!(
        "{:<24} {floor_wall:8.1} us/run wall {floor_cpu:8.1} us/run cpu",
        "floor (fork+exec+wait)"
    );
    for (i, c) in containments.iter().enumerate() {
        let (wall, cpu) = best(&times[i]);
        let ratio = |pick: fn(&(Duration, Duration)) -> Duration| {
            let per_round = times[i].iter().zip(&floor_times);
            median(
                per_round
                    .map(|(t, f)| micros(pick(t)) / micros(pick(f)))
                    .collect(),
            )
        };
        println!(
            "{:<24} {wall:8.1} us/run wall {cpu:8.1} us/run cpu   {:.2}x wall {:.2}x cpu",
            c.to_string(),
            ratio(|t| t.0),
            ratio(|t| t.1)
        );
    }
    if containments.contains(&Containment::PidNamespace) {
        compile_files(n, rounds, &limits);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Prints what placing a compile's files and clearing its box after it cost per run: a shell
/// that writes `out/main` when given sources, given three 4 KiB sources and an `out/` folder,
/// against the same shell given nothing (whose box is found pristine at once).
fn compile_files(n: u32, rounds: u32, limits: &Limits) {
    let shell = Program::new(["/bin/sh", "-c", "if [ -d out ]; then : > out/main; fi"]);
    let sources: Vec<BoxFile> = ["a.c", "b.c", "c.h"]
        .iter()
        .map(|name| BoxFile::bytes(format!("src/{name}"), vec![b'x'; 4096]))
        .chain([BoxFile::writable_dir("out")])
        .collect();
    let run = |files: &[BoxFile]| {
        let mut spec = Spec::new(&shell, limits);
        spec.files = files.to_vec();
        let outcome = run_with(spec, Containment::PidNamespace).unwrap();
        assert_eq!(outcome.end, End::Exited(0), "{outcome:?}");
    };
    let (mut bare, mut compiling) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        bare.push(time(n, || run(&[])).0);
        compiling.push(time(n, || run(&sources)).0);
    }
    let per_run = |t: &[Duration]| {
        let best = t.iter().min().copied().unwrap_or_default();
        best.as_secs_f64() * 1e6 / f64::from(n)
    };
    let (bare, compiling) = (per_run(&bare), per_run(&compiling));
    println!(
        "{:<24} {compiling:8.1} us/run wall against {bare:.1} with nothing: {:+.1} us/run \
         to place a compile's files and empty its box",
        "compile's files (box)",
        compiling - bare
    );
}

fn compile(dir: &Path, name: &str, source: &str) -> std::path::PathBuf {
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, source).unwrap();
    let built = Command::new("cc")
        .arg("-O2")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status();
    assert!(built.is_ok_and(|s| s.success()), "cc failed");
    exe
}

/// Wall and CPU time of `n` calls of `f`.
fn time(n: u32, mut f: impl FnMut()) -> (Duration, Duration) {
    let (start, cpu) = (Instant::now(), cpu_used());
    for _ in 0..n {
        f();
    }
    (start.elapsed(), cpu_used() - cpu)
}

/// CPU of this process, its reaped descendants, and its live children with theirs (a box's
/// keeper lives on between runs, and its programs are its children, not ours).
fn cpu_used() -> Duration {
    own_cpu() + live_children_cpu()
}

fn live_children_cpu() -> Duration {
    // SAFETY: sysconf has no preconditions.
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    let me = std::process::id().to_string();
    let mut ticks = 0u64;
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // After the command: state (3), ppid (4), ... utime (14) stime cutime cstime (17).
        if fields.get(1) == Some(&me.as_str()) {
            ticks += fields[11..15]
                .iter()
                .filter_map(|f| f.parse::<u64>().ok())
                .sum::<u64>();
        }
    }
    Duration::from_secs_f64(ticks as f64 / tick)
}

fn own_cpu() -> Duration {
    let of = |who| {
        // SAFETY: rusage is plain data; getrusage fills it.
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
