//! Runs one untrusted program (a contestant's binary, a script) on one input under time,
//! memory and output limits, and says how it ended. It is the only part of grundy that starts
//! judged programs; it knows nothing about problems, checkers or reports.
//!
//! # What a run gets
//! - stdin is the case file itself (a program that never reads cannot block anyone); stdout is
//!   kept up to the output limit, the first 8 KiB of stderr are kept, both are drained while it
//!   runs. The working directory is an empty temporary one (directories are reused, emptied,
//!   between runs and removed at exit); the environment holds only PATH, HOME and LANG.
//! - Limits: the wall clock (SIGKILL at the limit; RLIMIT_CPU as a backstop), RLIMIT_AS = the
//!   memory limit, an unlimited stack (so recursion may use the whole memory limit, as on
//!   judges), a cgroup memory limit for the whole process tree where cgroups are writable,
//!   RLIMIT_FSIZE = 4 × the output limit, no core dumps, at most 256 tasks (traced forks, a
//!   pids cgroup, or RLIMIT_NPROC in a user namespace). Limits above the runner's own hard
//!   limits are lowered to them.
//! - Containment ([`Containment`]): a PID namespace, else a cgroup, else the process group.
//!   The program is also ptrace'd (with all its descendants) by a small supervisor process,
//!   which notices refused allocations and ends every traced descendant when it exits
//!   (PTRACE_O_EXITKILL), even one that left the process group.
//!
//! # The MLE rule
//! A run is [`End::MemoryLimit`] if the cgroup's OOM killer fired, or if the program failed
//! (non-zero exit or a signal) and its memory ran out: an mmap/mremap of 4 MiB or more was
//! refused with ENOMEM (seen by the tracer), or its peak address space (VmPeak) came within
//! 4 MiB of the limit (how any smaller refused request looks), or the cgroup reached its limit.
//! So a C++ `bad_alloc` abort, a Rust allocation failure or Python's MemoryError at the limit
//! is MLE, while a program that handles a refused allocation and exits 0 is judged on its
//! output. Where tracing is unavailable (Yama ptrace_scope 3, the runner itself being traced)
//! only the peak RSS from wait4 is left, and it is used in place of VmPeak.
//!
//! # Programs that do not fit
//! A judged program cannot use ptrace itself (it is already traced; LeakSanitizer needs it),
//! and address-space hungry runtimes (ASan, the JVM) need a memory limit far above what they
//! touch, as on any judge that limits RLIMIT_AS.
//!
//! # Not for
//! Checking output, scheduling runs, or reporting: the runner does those.

mod cgroup;
mod command;
mod containment;
mod drain;
mod plan;
mod raw;
mod supervise;
mod sys;
mod trace;
mod verdict;
mod workdir;

use std::ffi::OsString;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;
use std::time::{Duration, Instant};

pub use command::SpawnError;
pub use containment::{kill_all_running, Containment};
pub use verdict::signal_name;

use drain::{Stop, Streams};
use plan::{Isolation, Plan, PlanInput};
use supervise::{Report, Stage, KIND_FAILED};

/// Limits for one run. A `memory_bytes` of 0 means no memory limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub time: Duration,
    pub memory_bytes: u64,
    pub output_bytes: u64,
}

/// The command to run: `argv[0]` is looked up in PATH unless it contains a `/`, in which case
/// it is a path relative to the caller's working directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub argv: Vec<OsString>,
}

/// How a run ended, most specific first: a limit beats the exit status it caused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Exited(i32),
    Signaled {
        signal: i32,
        name: &'static str,
    },
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    /// More than 256 processes and threads at once (a fork bomb); the run was ended.
    ProcessLimit,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Everything written to stdout, cut at the output limit.
    pub stdout: Vec<u8>,
    /// The first 8 KiB written to stderr.
    pub stderr: Vec<u8>,
    pub wall_time: Duration,
    /// User + system time of the program and the descendants it waited for.
    pub cpu_time: Duration,
    /// Peak resident memory (VmHWM) of the program's main process; without tracing, wait4's
    /// ru_maxrss when it can be told apart from the runner's own (the program shares the
    /// runner's memory until exec). None when the run was killed before it could report.
    pub peak_memory_bytes: Option<u64>,
    pub end: End,
}

/// The mechanism [`run`] uses on this machine (probed once, then cached).
pub fn containment() -> Containment {
    containment::probe().best()
}

/// One line for `check -v`: the containment and what backs the limits, e.g.
/// "PID namespace, cgroup v1 memory/pids limits, allocation tracing".
pub fn describe_containment() -> String {
    containment::probe().describe()
}

/// Runs `program` with `stdin` as its standard input under `limits`. Safe to call from many
/// threads at once. Errors only when the program cannot be started at all.
pub fn run(program: &Program, stdin: &Path, limits: &Limits) -> Result<Outcome, SpawnError> {
    run_with(program, stdin, limits, containment())
}

/// [`run`] with a given containment, e.g. to test a weaker one; an error if this machine
/// does not offer it.
pub fn run_with(
    program: &Program,
    stdin: &Path,
    limits: &Limits,
    containment: Containment,
) -> Result<Outcome, SpawnError> {
    let argv0 = program
        .argv
        .first()
        .map(OsString::as_os_str)
        .unwrap_or_default();
    let exe = command::resolve(argv0)?;
    let other = |reason: String| SpawnError::other(argv0, reason);
    let (isolation, cgroups) = containment::probe()
        .setup(containment)
        .ok_or_else(|| other(format!("{containment} containment is not available here")))?;
    let input = File::open(stdin)
        .map_err(|e| other(format!("cannot open the input {}: {e}", stdin.display())))?;
    let workdir = workdir::WorkDir::create()
        .map_err(|e| other(format!("cannot create a temporary directory: {e}")))?;
    let slot = cgroups
        .map(|c| c.acquire(limits.memory_bytes))
        .transpose()
        .map_err(|e| other(format!("cannot prepare a cgroup: {e}")))?;
    let pipe = || sys::pipe().map_err(|e| other(format!("cannot create a pipe: {e}")));
    let ((out_r, out_w), (err_r, err_w), (rep_r, rep_w)) = (pipe()?, pipe()?, pipe()?);
    let mut fds = vec![
        input.as_raw_fd(),
        out_w.as_raw_fd(),
        err_w.as_raw_fd(),
        rep_w.as_raw_fd(),
    ];
    fds.extend(slot.iter().flat_map(|s| s.procs_fds()));
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    let plan = Plan::new(PlanInput {
        exe: &exe,
        argv: &program.argv,
        workdir: workdir.path(),
        fds,
        limits,
        isolation,
        trace: plan::TRACING_SUPPORTED,
        cap_processes_by_rlimit: !root
            && isolation
                == (Isolation::PidNamespace {
                    user_namespace: true,
                }),
    })
    .map_err(other)?;

    // Until exec the program shares our memory, and ru_maxrss keeps that high-water mark: an
    // ru_maxrss not above our own peak says nothing about the program.
    let runner_peak_kb = own_peak_rss_kb();
    let started_at = Instant::now();
    let cgroup_dir = slot.as_ref().map(|s| s.memory_dir().to_path_buf());
    let started = containment::start(&plan, cgroup_dir)
        .map_err(|e| other(format!("cannot create a process: {e}")))?;
    drop((out_w, err_w, rep_w, input));
    let mut streams = Streams::new(out_r, err_r, rep_r, limits.output_bytes);
    let stop = streams.collect(started_at + limits.time);
    let wall_time = started_at.elapsed();
    let usage = started.end(stop != Stop::Finished);
    streams.finish(Duration::from_millis(100));

    let events = match (cgroups, slot) {
        (Some(c), Some(slot)) => {
            let events = slot.events(c.version);
            c.release(slot);
            Some(events)
        }
        _ => None,
    };
    let report = Report::parse(&streams.report);
    if let Some(r) = report.filter(|r| r.kind == KIND_FAILED) {
        let stage = Stage::from_u32(r.stage);
        if stage == Stage::Exec && r.errno == libc::ENOMEM && limits.memory_bytes > 0 {
            // The image itself does not fit in the memory limit.
            return Ok(outcome(
                streams,
                wall_time,
                Duration::ZERO,
                None,
                End::MemoryLimit,
            ));
        }
        return Err(SpawnError::from_child(argv0, stage, r.errno));
    }
    let cpu_time = match &report {
        Some(r) => Duration::from_micros(r.utime_us + r.stime_us),
        None => timeval(usage.ru_utime) + timeval(usage.ru_stime),
    };
    let peak_kb = report.as_ref().and_then(|r| match r.hwm_kb {
        0 => (r.maxrss_kb > runner_peak_kb).then_some(r.maxrss_kb),
        kb => Some(kb),
    });
    let end = verdict::classify(&verdict::Facts {
        stop,
        stdout_total: streams.stdout_total,
        report: report.as_ref(),
        cpu_time,
        cgroup: events,
        untraced_peak_kb: peak_kb,
        limits,
    });
    let peak = peak_kb.map(|kb| kb * 1024);
    Ok(outcome(streams, wall_time, cpu_time, peak, end))
}

fn outcome(
    streams: Streams,
    wall_time: Duration,
    cpu_time: Duration,
    peak_memory_bytes: Option<u64>,
    end: End,
) -> Outcome {
    Outcome {
        stdout: streams.stdout,
        stderr: streams.stderr,
        wall_time,
        cpu_time,
        peak_memory_bytes,
        end,
    }
}

fn own_peak_rss_kb() -> u64 {
    // SAFETY: getrusage fills the struct we pass.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage.ru_maxrss.max(0) as u64
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}
