//! What a run did, as facts for the caller: its end (the most specific cause first), its
//! output, its resource use, and the files read back from its working folder.

use std::path::PathBuf;
use std::time::{Duration, Instant};

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
    /// The run's `Cancel` token was used; the run was ended.
    Cancelled,
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
    /// User + system time of the program and the descendants it waited for.
    pub cpu_time: Duration,
    /// Peak resident memory (VmHWM) of the program's main process; without tracing, wait4's
    /// ru_maxrss when it can be told apart from the spawner's own. None when the run was
    /// killed before it could report.
    pub peak_memory_bytes: Option<u64>,
    pub end: End,
    /// The `Spec::collect` files that existed as regular files, each up to 64 KiB, in the
    /// order asked.
    pub collected: Vec<(PathBuf, Vec<u8>)>,
}
