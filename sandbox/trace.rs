//! The supervisor's ptrace loop: follows the program and every task it creates (forks,
//! threads, execs), stops only at a few events (exec, exit, fork, and mmap/mremap requests of
//! 4 MiB or more, picked by the seccomp filter), and records what the verdict needs: whether a
//! watched request was refused with ENOMEM, the main process's peak memory just before it
//! exits, how many tasks are alive, and which ones died of their CPU or file-size limit.

use std::ffi::CStr;
use std::mem::{size_of, zeroed};

use crate::plan::MAX_TASKS;
use crate::raw;
use crate::supervise::{Report, FLAG_CPU_LIMIT, FLAG_FILE_LIMIT, FLAG_REFUSED, FLAG_TOO_MANY};
use crate::sys::field_u64;

pub(crate) unsafe fn open_status(pid_text: &[u8]) -> i32 {
    let mut path = [0u8; 64];
    let parts: [&[u8]; 3] = [b"/proc/", pid_text, b"/status\0"];
    let mut at = 0;
    for part in parts {
        if at + part.len() > path.len() {
            return -1;
        }
        path[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    match CStr::from_bytes_until_nul(&path) {
        Ok(p) => raw::open_read(p).map_or(-1, |fd| fd as i32),
        Err(_) => -1,
    }
}

/// The tracing wait loop of one run.
pub(crate) struct Watch<'a> {
    pub main: libc::pid_t,
    pub status_fd: i32,
    pub tasks: u32,
    pub options_set: bool,
    pub report: &'a mut Report,
}

const SYSCALL_STOP: i32 = libc::SIGTRAP | 0x80;
const PTRACE_SYSCALL_INFO_EXIT: u8 = 2;

#[repr(C)]
struct SyscallInfo {
    op: u8,
    _pad: [u8; 3],
    arch: u32,
    instruction_pointer: u64,
    stack_pointer: u64,
    data: [u64; 7],
}

impl Watch<'_> {
    /// Waits for every traced task until the main process ends or the task cap is exceeded.
    pub(crate) unsafe fn run(&mut self) {
        loop {
            let mut usage: libc::rusage = zeroed();
            let Ok((pid, status)) = raw::wait_any(-1, &mut usage) else {
                return;
            };
            if libc::WIFSIGNALED(status) {
                match libc::WTERMSIG(status) {
                    libc::SIGXCPU => self.report.flags |= FLAG_CPU_LIMIT,
                    libc::SIGXFSZ => self.report.flags |= FLAG_FILE_LIMIT,
                    _ => {}
                }
            }
            if libc::WIFSTOPPED(status) {
                self.on_stop(pid, status);
                if self.tasks > MAX_TASKS {
                    self.report.flags |= FLAG_TOO_MANY;
                    return;
                }
            } else if pid == self.main {
                self.report.status = status;
                self.report.utime_us = micros(usage.ru_utime);
                self.report.stime_us = micros(usage.ru_stime);
                self.report.maxrss_kb = usage.ru_maxrss.max(0) as u64;
                return;
            } else {
                self.tasks = self.tasks.saturating_sub(1);
            }
        }
    }

    unsafe fn on_stop(&mut self, pid: libc::pid_t, status: i32) {
        let sig = libc::WSTOPSIG(status);
        let mut inject = 0;
        match status >> 16 {
            libc::PTRACE_EVENT_SECCOMP => {
                // Let the watched mmap run, stopping again at its exit to see the result.
                let _ = raw::ptrace(libc::PTRACE_SYSCALL, pid, 0, 0);
                return;
            }
            libc::PTRACE_EVENT_FORK | libc::PTRACE_EVENT_VFORK | libc::PTRACE_EVENT_CLONE => {
                self.tasks += 1;
            }
            libc::PTRACE_EVENT_EXIT if pid == self.main => self.read_memory(),
            0 if sig == SYSCALL_STOP && self.syscall_refused_memory(pid) => {
                self.report.flags |= FLAG_REFUSED;
            }
            0 if sig == SYSCALL_STOP => {}
            0 if sig == libc::SIGTRAP && pid == self.main && !self.options_set => {
                self.options_set = true;
                let options = libc::PTRACE_O_TRACESYSGOOD
                    | libc::PTRACE_O_TRACESECCOMP
                    | libc::PTRACE_O_TRACEFORK
                    | libc::PTRACE_O_TRACEVFORK
                    | libc::PTRACE_O_TRACECLONE
                    | libc::PTRACE_O_TRACEEXEC
                    | libc::PTRACE_O_TRACEEXIT
                    | libc::PTRACE_O_EXITKILL;
                let _ = raw::ptrace(libc::PTRACE_SETOPTIONS, pid, 0, options as usize);
            }
            // New tasks start with SIGSTOP; job control makes no sense for a judged program.
            0 if matches!(
                sig,
                libc::SIGSTOP | libc::SIGTSTP | libc::SIGTTIN | libc::SIGTTOU
            ) => {}
            0 => inject = sig,
            _ => {}
        }
        let _ = raw::ptrace(libc::PTRACE_CONT, pid, 0, inject as usize);
    }

    /// At a syscall-exit stop after a watched request: did it fail with ENOMEM?
    unsafe fn syscall_refused_memory(&self, pid: libc::pid_t) -> bool {
        let mut info: SyscallInfo = zeroed();
        let got = raw::ptrace(
            libc::PTRACE_GET_SYSCALL_INFO,
            pid,
            size_of::<SyscallInfo>(),
            &mut info as *mut SyscallInfo as usize,
        );
        got.is_ok_and(|n| n > 0)
            && info.op == PTRACE_SYSCALL_INFO_EXIT
            && info.data[0] as i64 == -(libc::ENOMEM as i64)
    }

    /// Peak RSS and peak address space of the main process, read while it is stopped at exit
    /// (its memory is still mapped then). Unlike ru_maxrss this excludes the runner's own
    /// memory, which the pre-exec child briefly shared.
    unsafe fn read_memory(&mut self) {
        if self.status_fd < 0 {
            return;
        }
        let mut buf = [0u8; 4096];
        let n = raw::pread(self.status_fd, &mut buf);
        let text = &buf[..n.min(buf.len())];
        self.report.hwm_kb = field_u64(text, b"VmHWM:").unwrap_or(0);
        self.report.peak_vm_kb = field_u64(text, b"VmPeak:").unwrap_or(0);
    }
}

fn micros(t: libc::timeval) -> u64 {
    (t.tv_sec.max(0) as u64) * 1_000_000 + t.tv_usec.max(0) as u64
}
