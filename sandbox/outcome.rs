//! What a run did, as facts for the caller: its end (the most specific cause first), its
//! output, its resource use, and the files read back from its working folder; and how the
//! runner turns what it saw of a run into them.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::cgroup::MemoryEvents;
use crate::drain::{Stop, Streams};
use crate::report::{Report, Stage, KIND_FAILED};
use crate::{verdict, SpawnError};

/// How a run ended, most specific first: a limit beats the exit status it caused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Exited(i32),
    Signaled {
        signal: i32,
        name: &'static str,
    },
    /// Over the time limit: by the CPU time of the run's processes, or stopped by the
    /// wall-clock backstop while not over it (sleeping or blocked).
    TimeLimit(Clock),
    MemoryLimit,
    OutputLimit,
    /// More than 256 processes and threads at once (a fork bomb); the run was ended.
    ProcessLimit,
    /// The run's `Cancel` token was used; the run was ended.
    Cancelled,
}

/// Which limit ended a run that took too long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clock {
    /// CPU time ([`Limits::time`](crate::Limits::time)).
    Cpu,
    /// The wall clock ([`Limits::wall`](crate::Limits::wall)).
    Wall,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Everything written to stdout, cut at the output limit (empty with `Stdout::Fd`).
    pub stdout: Vec<u8>,
    /// The first 8 KiB written to stderr.
    pub stderr: Vec<u8>,
    /// From the start to the end of the program's main process.
    pub wall_time: Duration,
    /// When the program's main process ended (or was killed): for "which side failed
    /// first" between a program and an interactor.
    pub ended_at: Instant,
    /// User + system time of every process and thread of the run (see "Limits" in the crate
    /// docs for where only the main process and the descendants it waited for are counted).
    pub cpu_time: Duration,
    /// The run's peak memory (see the crate docs, "Peak memory"): the cgroup's where one
    /// measures the run; else the main process's peak resident memory (VmHWM), or without
    /// tracing wait4's ru_maxrss when it can be told apart from the spawner's own. None when
    /// neither is known (a run killed before it could report, outside a cgroup).
    pub peak_memory_bytes: Option<u64>,
    pub end: End,
    /// The `Spec::collect` files that existed as regular files, each up to 64 KiB, in the
    /// order asked.
    pub collected: Vec<(PathBuf, Vec<u8>)>,
    /// The host paths `Spec::export` wrote (files and folders, each folder before its contents).
    pub exported: Vec<PathBuf>,
    /// The `Spec::export` pairs (by their path in the working folder) that were not copied out,
    /// and why; nothing of them is left on the host. Empty when the run did not finish.
    pub export_failures: Vec<ExportFailure>,
}

/// A `Spec::export` pair that was not copied out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportFailure {
    /// Its path in the working folder.
    pub relative: PathBuf,
    pub why: ExportError,
}

/// Why a `Spec::export` pair was not copied out: the program's doing, or the host's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The run left nothing there, or a link or a special file, or it changed while copied.
    #[error("the run left no file or folder there")]
    Missing,
    /// More than the output limit in bytes, 64 folder levels or 100,000 files and folders.
    #[error("it is larger than what may be copied out (the output limit, 64 folder levels or 100,000 files and folders)")]
    TooBig,
    /// Writing it on the host failed (a full disk, say): the host path and the error.
    #[error("cannot write {}: {message}", path.display())]
    Host {
        path: PathBuf,
        kind: std::io::ErrorKind,
        message: String,
    },
}

/// What the runner knows once a run is over.
pub(crate) struct Ended {
    pub stop: Stop,
    pub started_at: Instant,
    pub seen_end: Instant,
    pub report: Option<Report>,
    pub events: Option<MemoryEvents>,
    /// The plain supervisor's rusage (a box keeper's report has the program's).
    pub rusage: Option<libc::rusage>,
    /// The CPU time cpu_watch.rs last saw the run's processes use: all that is known of a run
    /// whose box was destroyed before its keeper could report.
    pub watched_cpu: Duration,
    pub runner_peak_kb: u64,
    pub collected: Vec<(PathBuf, Vec<u8>)>,
    pub exported: Vec<PathBuf>,
    pub export_failures: Vec<ExportFailure>,
    /// RLIMIT_AS held the memory limit (else a cgroup alone did).
    pub address_space: bool,
}

pub(crate) fn conclude(
    argv0: &OsStr,
    limits: &crate::Limits,
    streams: Streams,
    ended: Ended,
) -> Result<Outcome, SpawnError> {
    let report = ended.report;
    if let Some(r) = report.filter(|r| r.kind == KIND_FAILED) {
        let stage = Stage::from_u32(r.stage);
        if stage != Stage::Exec || r.errno != libc::ENOMEM || limits.memory_bytes == 0 {
            return Err(SpawnError::from_child(argv0, stage, r.errno));
        }
    }
    let image_too_big = report.is_some_and(|r| r.kind == KIND_FAILED);
    // The moment the main process ended, as the keeper or supervisor saw it.
    let ended_at = report
        .filter(|r| r.ended_ns > 0)
        .and_then(|r| {
            let ago = crate::raw::monotonic_ns().checked_sub(r.ended_ns)?;
            ended
                .seen_end
                .max(Instant::now())
                .checked_sub(Duration::from_nanos(ago))
        })
        .filter(|&at| ended.stop == Stop::Finished && at >= ended.started_at)
        .unwrap_or(ended.seen_end);
    let cpu_time = match (&report, &ended.rusage) {
        // The whole run's, where every process of it was reaped by its keeper or supervisor.
        (Some(r), _) if r.tree_cpu_us > 0 => Duration::from_micros(r.tree_cpu_us),
        (Some(r), _) => Duration::from_micros(r.utime_us + r.stime_us),
        (None, Some(u)) => (timeval(u.ru_utime) + timeval(u.ru_stime)).max(ended.watched_cpu),
        (None, None) => ended.watched_cpu,
    };
    // Until exec the program shares its spawner's memory (a copy of ours), and ru_maxrss keeps
    // that high-water mark: an ru_maxrss not above our own peak says nothing about it.
    // The one rule of peak memory (crate docs): the run's own memory, not the files it maps,
    // as a cgroup counts it; the file-backed part read with the peak is taken off it.
    let peak_kb = report.as_ref().and_then(|r| match r.hwm_kb {
        0 => (r.maxrss_kb > ended.runner_peak_kb).then_some(r.maxrss_kb),
        kb => Some(kb.saturating_sub(r.rss_file_kb)),
    });
    let end = if image_too_big {
        End::MemoryLimit // the executable itself does not fit in the memory limit
    } else {
        verdict::classify(&verdict::Facts {
            stop: ended.stop,
            stdout_total: streams.stdout_total,
            report: report.as_ref(),
            cpu_time,
            cgroup: ended.events,
            untraced_peak_kb: peak_kb,
            limits,
            address_space: ended.address_space,
        })
    };
    Ok(Outcome {
        stdout: streams.stdout,
        stderr: streams.stderr,
        wall_time: ended_at.saturating_duration_since(ended.started_at),
        ended_at,
        cpu_time,
        peak_memory_bytes: peak_memory(&ended, peak_kb, end, limits),
        end,
        collected: ended.collected,
        exported: ended.exported,
        export_failures: ended.export_failures,
    })
}

/// The run's peak memory by the one rule of the crate docs: where a cgroup measured the run,
/// its figure (what the limit counts, for the whole run), else the main process's. A run ended
/// for its memory needed at least the limit, whatever it held when the box refused it more or
/// ended it: its peak is never said to be below the limit it exceeded.
fn peak_memory(
    ended: &Ended,
    peak_kb: Option<u64>,
    end: End,
    limits: &crate::Limits,
) -> Option<u64> {
    let measured = ended
        .events
        .and_then(|e| e.peak_bytes)
        .or(peak_kb.map(|kb| kb * 1024));
    match end {
        End::MemoryLimit if limits.memory_bytes > 0 => {
            Some(measured.unwrap_or(0).max(limits.memory_bytes))
        }
        _ => measured,
    }
}

pub(crate) fn own_peak_rss_kb() -> u64 {
    // SAFETY: rusage is plain data; getrusage fills it.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage.ru_maxrss.max(0) as u64
    }
}

fn timeval(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}
