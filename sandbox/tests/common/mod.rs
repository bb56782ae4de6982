//! Helpers shared by the sandbox's integration tests: programs to judge (sh scripts, small C
//! programs compiled here with cc), case inputs, and a /proc scan for leftover processes.

#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use grundy_sandbox::{Containment, Limits, Outcome, Program, SpawnError, Spec, Stdin};

pub fn limits(time_ms: u64, memory_mb: u64, output_kb: u64) -> Limits {
    let time = Duration::from_millis(time_ms);
    Limits {
        time,
        wall: Limits::wall_for(time),
        memory_bytes: memory_mb << 20,
        output_bytes: output_kb << 10,
    }
}

pub fn default_limits() -> Limits {
    limits(2000, 256, 1024)
}

pub fn program<S: Into<OsString>>(argv: impl IntoIterator<Item = S>) -> Program {
    Program::new(argv)
}

pub fn sh(script: &str) -> Program {
    program(["sh", "-c", script])
}

fn scratch() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-tests")
}

pub fn unique() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// This test process's folder for inputs; those of finished test processes are removed.
fn inputs_dir() -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    let root = scratch().join("inputs");
    SWEPT.call_once(|| {
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let pid = entry.file_name().to_string_lossy().parse::<u32>().ok();
            if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    });
    let dir = root.join(std::process::id().to_string());
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An empty folder of its own, unique per call (below this test process's inputs folder).
pub fn folder() -> PathBuf {
    let path = inputs_dir().join(unique());
    std::fs::create_dir_all(&path).unwrap();
    path
}

/// A case input file with `bytes`, unique per call.
pub fn input(bytes: &[u8]) -> PathBuf {
    let path = inputs_dir().join(format!("{}.in", unique()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Compiles a C program (once; kept in the target folder) and returns its path.
pub fn c_program(name: &str, source: &str) -> PathBuf {
    // One compile at a time: two threads renaming fresh copies over the same path would swap
    // the file under a run that is binding it.
    static COMPILING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = COMPILING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch().join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    // The name carries a hash of the source, so an edited program is rebuilt.
    let exe = dir.join(format!("{name}-{:016x}", fnv1a(source.as_bytes())));
    if !exe.exists() {
        let src = dir.join(format!("{name}-{}.c", unique()));
        std::fs::write(&src, source).unwrap();
        let tmp = dir.join(format!("{name}-{}.tmp", unique()));
        let status = Command::new("cc")
            .args(["-O1", "-o"])
            .arg(&tmp)
            .arg(&src)
            .status()
            .expect("cc is needed for these tests");
        assert!(status.success(), "cc failed for {name}");
        std::fs::rename(&tmp, &exe).unwrap();
        std::fs::remove_file(&src).unwrap();
    }
    exe
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A marker unique to this test process and call, to find a test's processes in /proc.
pub fn marker(tag: &str) -> String {
    format!("grundy-marker-{tag}-{}", unique())
}

/// Live (non-zombie) processes whose command line contains `marker`.
pub fn processes_with(marker: &str) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(marker) {
            found.push(pid);
        }
    }
    found
}

/// `program` with the file `stdin` as its input.
pub fn spec<'a>(program: &'a Program, stdin: &Path, limits: &'a Limits) -> Spec<'a> {
    Spec::new(program, limits).stdin(Stdin::File(
        std::fs::File::open(stdin).expect("the input opens"),
    ))
}

/// Runs `program` on the file `stdin` under the best containment.
pub fn run(program: &Program, stdin: &Path, limits: &Limits) -> Result<Outcome, SpawnError> {
    grundy_sandbox::run(spec(program, stdin, limits))
}

/// Runs `program` on the file `stdin` under `containment`.
pub fn run_with(
    program: &Program,
    stdin: &Path,
    limits: &Limits,
    containment: Containment,
) -> Result<Outcome, SpawnError> {
    grundy_sandbox::run_with(spec(program, stdin, limits), containment)
}

/// The hostile probe program (tests/common/probe.c), compiled once.
pub fn probe() -> PathBuf {
    c_program("probe", include_str!("probe.c"))
}

/// Runs the probe with `args` under `containment` (stdin /dev/null) and returns its stdout's
/// first line; panics unless it exited 0.
pub fn probe_says(containment: Containment, args: &[&str]) -> String {
    probe_says_on(containment, args, b"")
}

/// [`probe_says`] with `stdin` (give a path as `-` and the path here: a path in argv is shown
/// to the program on purpose).
pub fn probe_says_on(containment: Containment, args: &[&str], stdin: &[u8]) -> String {
    let exe = probe();
    let mut argv: Vec<OsString> = vec![exe.into()];
    argv.extend(args.iter().map(OsString::from));
    let program = Program::new(argv);
    let limits = default_limits();
    let spec = Spec::new(&program, &limits).stdin(Stdin::Bytes(stdin.to_vec()));
    let o = grundy_sandbox::run_with(spec, containment).unwrap();
    assert_eq!(
        o.end,
        grundy_sandbox::End::Exited(0),
        "{containment} {args:?}: {o:?}"
    );
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    out.lines().next().unwrap_or_default().to_string()
}

/// Whether the tests run as root (the box's user is then a uid of its own).
pub fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Waits (generously) until no live process has `marker` in its command line.
pub fn assert_gone(marker: &str) {
    // Killed processes are reaped asynchronously by whoever inherits them.
    for _ in 0..250 {
        if processes_with(marker).is_empty() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("left behind: {:?}", processes_with(marker));
}

/// Every containment this machine offers, strongest first. A loop over them tests what it
/// must: the box wherever the build found one could be made (`cfg(boxes)`, or
/// `GRUNDY_REQUIRE_BOX=1`), and the process group everywhere; a machine that offers less fails
/// here rather than letting the loop shrink in silence. A cgroup is used where one is writable.
pub fn available_containments() -> Vec<Containment> {
    let probe = input(b"");
    let offered: Vec<Containment> = [
        Containment::PidNamespace,
        Containment::Cgroup,
        Containment::ProcessGroup,
    ]
    .into_iter()
    .filter(|&c| run_with(&program(["true"]), &probe, &default_limits(), c).is_ok())
    .collect();
    let required = [
        (cfg!(boxes), Containment::PidNamespace),
        (true, Containment::ProcessGroup),
    ];
    for (_, containment) in required.iter().filter(|(needed, _)| *needed) {
        assert!(
            offered.contains(containment),
            "the {containment} containment must be offered here (the build found namespaces \
             allowed, or GRUNDY_REQUIRE_BOX=1 asks for them), but only {offered:?} are: {}",
            grundy_sandbox::describe_containment()
        );
    }
    offered
}

/// `program` run on `1 2` under every containment offered here, one thread each.
pub fn judge(program: &Program, limits: &Limits) -> Vec<Outcome> {
    let stdin = input(b"1 2\n");
    // One thread per containment: the runs are independent, and a limit test spends most of
    // its time waiting for a clock to run out.
    std::thread::scope(|scope| {
        let runs: Vec<_> = available_containments()
            .into_iter()
            .map(|c| {
                let stdin = &stdin;
                scope.spawn(move || run_with(program, stdin, limits, c).unwrap())
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap()).collect()
    })
}
