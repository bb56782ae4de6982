//! The one record a supervisor or keeper sends the runner about a run: how the program's main
//! process ended, its resource use, and what the tracer saw; or, for a program that could not
//! be started, the stage and errno of the failure.

use std::mem::size_of;

pub(crate) const KIND_FAILED: u32 = 1;
pub(crate) const KIND_FINISHED: u32 = 2;
pub(crate) const FLAG_TRACED: u32 = 1;
pub(crate) const FLAG_REFUSED: u32 = 2;
pub(crate) const FLAG_TOO_MANY: u32 = 4;
/// Some task of the run was killed by SIGXCPU / SIGXFSZ (its CPU or file-size limit).
pub(crate) const FLAG_CPU_LIMIT: u32 = 8;
pub(crate) const FLAG_FILE_LIMIT: u32 = 16;
/// Processes of the run other than the main one may still have been alive at its end.
pub(crate) const FLAG_LEFT: u32 = 32;
/// The run left System V IPC objects in its box's IPC namespace: the box is not reused.
pub(crate) const FLAG_IPC_LEFT: u32 = 64;

/// Where a start failed, for `SpawnError` messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Stage {
    Setup = 1,
    Clone = 2,
    Stdio = 3,
    Workdir = 4,
    Cgroup = 5,
    Limits = 6,
    Identity = 7,
    Filter = 8,
    Exec = 9,
    Trace = 10,
}

impl Stage {
    pub(crate) fn from_u32(n: u32) -> Stage {
        [
            Stage::Setup,
            Stage::Clone,
            Stage::Stdio,
            Stage::Workdir,
            Stage::Cgroup,
            Stage::Limits,
            Stage::Identity,
            Stage::Filter,
            Stage::Trace,
        ]
        .into_iter()
        .find(|s| *s as u32 == n)
        .unwrap_or(Stage::Exec)
    }
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Report {
    pub kind: u32,
    pub stage: u32,
    pub errno: i32,
    /// The program's wait status.
    pub status: i32,
    pub flags: u32,
    pub _pad: u32,
    pub utime_us: u64,
    pub stime_us: u64,
    pub maxrss_kb: u64,
    /// VmHWM and VmPeak of the program's main process just before it exited (0 if unknown).
    pub hwm_kb: u64,
    pub peak_vm_kb: u64,
    /// Of the resident memory, what is mapped from files (the executable, shared libraries),
    /// which the page cache shares among programs and a cgroup charged before the run: not the
    /// run's own (0 if unknown).
    pub rss_file_kb: u64,
    /// CLOCK_MONOTONIC when the main process was seen to end (0 if unknown).
    pub ended_ns: u64,
    /// User + system time of every process of the run, the main one included, once all have
    /// ended and been reaped (0 if unknown).
    pub tree_cpu_us: u64,
}

impl Report {
    pub(crate) fn failed(stage: Stage, errno: i32) -> Report {
        Report {
            kind: KIND_FAILED,
            stage: stage as u32,
            errno,
            ..Report::default()
        }
    }

    pub(crate) fn parse(bytes: &[u8]) -> Option<Report> {
        (bytes.len() >= size_of::<Report>())
            // SAFETY: Report is plain old data and the buffer holds enough bytes.
            .then(|| unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<Report>()) })
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        // SAFETY: Report is repr(C) plain data; viewing it as bytes is sound.
        unsafe {
            std::slice::from_raw_parts((self as *const Report).cast::<u8>(), size_of::<Report>())
        }
    }
}
