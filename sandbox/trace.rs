//! The tracer's bookkeeping, shared by the plain supervisor and the box keeper: it follows the
//! program and every task it creates (forks, threads, execs), stops only at a few events
//! (exec, exit, fork, and mmap/mremap requests of 4 MiB or more, picked by the seccomp filter),
//! and records what the verdict needs: whether a watched request was refused with ENOMEM, the
//! main process's peak memory just before it exits, how many tasks are alive, and which died
//! of their CPU or file-size limit. Raw system calls only (see raw.rs).

use std::mem::zeroed;

use crate::filter::FAILED_EXIT;
use crate::plan::MAX_TASKS;
use crate::raw;
use crate::report::{Report, FLAG_CPU_LIMIT, FLAG_FILE_LIMIT, FLAG_REFUSED, FLAG_TOO_MANY};
use crate::report::{FLAG_TRACED, KIND_FINISHED};
use crate::sys::field_u64;

/// Opens <pid>/status in `proc_dir` (a descriptor of /proc, or AT_FDCWD for the /proc of our
/// root), -1 if it cannot: to read the main process's memory at its exit.
pub(crate) fn open_status(proc_dir: i32, pid: i32) -> i32 {
    let mut digits = [0u8; 20];
    let mut path = [0u8; 48];
    let text = raw::decimal(pid as u64, &mut digits);
    let prefix: &[u8] = if proc_dir == libc::AT_FDCWD {
        b"/proc/"
    } else {
        b""
    };
    match raw::join_cstr(&[prefix, text, b"/status"], &mut path) {
        Some(p) => {
            raw::openat(proc_dir, p, libc::O_RDONLY | libc::O_CLOEXEC, 0).map_or(-1, |fd| fd as i32)
        }
        None => -1,
    }
}

/// What the tracer should do after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Continue,
    /// The main process ended, or the run has too many tasks: end the run.
    Done,
}

/// The tasks of a traced run that were alive when its main process ended, as the tracer saw
/// them start (fork, vfork and clone events) and end. A fixed list: the tracer allocates
/// nothing. Killing them by pid is safe: a traced task's pid cannot be taken by another process
/// before the tracer has seen it end, and an end seen before its start was announced (the new
/// task runs once the tracer lets it, maybe before its parent's event is handled) is remembered
/// so that the late announcement adds nothing.
pub(crate) struct Alive {
    pids: [i32; ALIVE_CAP],
    len: usize,
    /// Tasks that ended before their start was announced (a few at most at any time).
    gone: [i32; GONE_CAP],
    gone_len: usize,
    /// Some task could not be listed (more than the cap): the list is not the whole run.
    overflowed: bool,
}

const ALIVE_CAP: usize = MAX_TASKS as usize + 8;
const GONE_CAP: usize = 64;

impl Alive {
    pub(crate) fn new() -> Alive {
        Alive {
            pids: [0; ALIVE_CAP],
            len: 0,
            gone: [0; GONE_CAP],
            gone_len: 0,
            overflowed: false,
        }
    }

    fn started(&mut self, pid: i32) {
        if let Some(i) = self.gone[..self.gone_len].iter().position(|&p| p == pid) {
            self.gone_len -= 1;
            self.gone[i] = self.gone[self.gone_len];
        } else if self.len < ALIVE_CAP {
            self.pids[self.len] = pid;
            self.len += 1;
        } else {
            self.overflowed = true;
        }
    }

    fn ended(&mut self, pid: i32) {
        if let Some(i) = self.pids[..self.len].iter().position(|&p| p == pid) {
            self.len -= 1;
            self.pids[i] = self.pids[self.len];
        } else if self.gone_len < GONE_CAP {
            self.gone[self.gone_len] = pid;
            self.gone_len += 1;
        } else {
            self.overflowed = true;
        }
    }

    /// Kills every task still listed and reaps everything this process may reap (it is the
    /// run's subreaper, so orphans of the run come to it), for at most two seconds. True when
    /// nothing of the run can be left: the list was whole and every child was reaped.
    pub(crate) fn end_all(&self) -> bool {
        for &pid in &self.pids[..self.len] {
            let _ = raw::kill(pid, libc::SIGKILL);
        }
        let deadline = raw::monotonic_ns() + 2_000_000_000;
        loop {
            // SAFETY: rusage is plain data; all zeroes is a valid value.
            let mut usage: libc::rusage = unsafe { zeroed() };
            match raw::wait_any(-1, libc::WNOHANG, &mut usage) {
                Ok((0, _)) if raw::monotonic_ns() > deadline => return false,
                Ok((0, _)) => {
                    let _ = raw::poll(&mut [], 1);
                }
                Ok((pid, status)) if libc::WIFSTOPPED(status) => {
                    // A tracee stopped at an event before SIGKILL reached it.
                    let _ = raw::ptrace_simple(libc::PTRACE_CONT, pid, 0);
                }
                Ok(_) => {}
                Err(_) => return !self.overflowed, // ECHILD: nothing is left
            }
        }
    }
}

/// The options a program is traced with: every task it starts is followed (fork, vfork,
/// clone), seccomp stops (watched allocations, failing exits) come to the tracer, and with
/// `exit_stop` the main process stops at its exit to have its memory read. A program seized
/// by its spawner gets them at once (and no exec stop); one that asked to be traced gets them,
/// with exec events, at its first stop.
pub(crate) fn options(exit_stop: bool) -> usize {
    let exit = if exit_stop {
        libc::PTRACE_O_TRACEEXIT
    } else {
        0
    };
    (libc::PTRACE_O_TRACESYSGOOD
        | libc::PTRACE_O_TRACESECCOMP
        | libc::PTRACE_O_TRACEFORK
        | libc::PTRACE_O_TRACEVFORK
        | libc::PTRACE_O_TRACECLONE
        | libc::PTRACE_O_EXITKILL
        | exit) as usize
}

/// Follows a started program until its main process ends (blocking: a run that must end early
/// is ended from outside), reading its memory through `proc_dir` (see `open_status`) when
/// `traced`: at its exit with `exit_stop`; else at each signal it gets and at a failing exit
/// (filter::FAILED_EXIT), which is all the MLE rule needs (a run that ends well is judged
/// without its peak address space, and its cgroup measures its peak memory). A `seized`
/// program has its trace options already. Returns the report, whether processes of the run
/// may be left (every task of a traced run is traced, as the filter refuses untraced clones,
/// so unless the count of tasks seen starting and ending says so, none is), and the tasks
/// still alive.
pub(crate) fn follow(
    pid: libc::pid_t,
    traced: bool,
    seized: bool,
    exit_stop: bool,
    proc_dir: i32,
) -> (Report, bool, Alive) {
    let mut report = Report {
        kind: KIND_FINISHED,
        flags: if traced { FLAG_TRACED } else { 0 },
        ..Report::default()
    };
    let mut watch = Watch {
        main: pid,
        status_fd: if traced {
            open_status(proc_dir, pid)
        } else {
            -1
        },
        tasks: 1,
        alive: Alive::new(),
        options_set: seized,
        exit_stop,
        report: &mut report,
    };
    watch.run_blocking();
    if watch.status_fd >= 0 {
        // SAFETY: the status descriptor opened above, ours alone.
        unsafe { raw::close(watch.status_fd) };
    }
    let left = !traced || watch.tasks > 1 || watch.report.flags & FLAG_TOO_MANY != 0;
    let alive = watch.alive;
    (report, left, alive)
}

/// The tracing state of one run.
struct Watch<'a> {
    main: libc::pid_t,
    status_fd: i32,
    tasks: u32,
    alive: Alive,
    options_set: bool,
    /// The main process stops at its exit (else: see `follow`).
    exit_stop: bool,
    report: &'a mut Report,
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
    /// Waits (blocking) for every traced task until the main process ends or the task cap
    /// is exceeded.
    fn run_blocking(&mut self) {
        loop {
            // SAFETY: rusage is plain data; all zeroes is a valid value.
            let mut usage: libc::rusage = unsafe { zeroed() };
            let Ok((pid, status)) = raw::wait_any(-1, 0, &mut usage) else {
                return;
            };
            if self.on_event(pid, status, &usage) == Flow::Done {
                return;
            }
        }
    }

    /// Handles one wait status.
    fn on_event(&mut self, pid: i32, status: i32, usage: &libc::rusage) -> Flow {
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
                return Flow::Done;
            }
        } else if pid == self.main {
            self.report.status = status;
            self.report.utime_us = micros(usage.ru_utime);
            self.report.stime_us = micros(usage.ru_stime);
            self.report.maxrss_kb = usage.ru_maxrss.max(0) as u64;
            self.report.ended_ns = raw::monotonic_ns();
            return Flow::Done;
        } else {
            self.tasks = self.tasks.saturating_sub(1);
            self.alive.ended(pid);
        }
        Flow::Continue
    }

    fn on_stop(&mut self, pid: libc::pid_t, status: i32) {
        let sig = libc::WSTOPSIG(status);
        let mut inject = 0;
        match status >> 16 {
            libc::PTRACE_EVENT_SECCOMP
                if raw::ptrace_event_message(pid) == Ok(FAILED_EXIT as u64) =>
            {
                self.read_memory();
            }
            libc::PTRACE_EVENT_SECCOMP => {
                // Let the watched mmap run, stopping again at its exit to see the result.
                let _ = raw::ptrace_simple(libc::PTRACE_SYSCALL, pid, 0);
                return;
            }
            libc::PTRACE_EVENT_FORK | libc::PTRACE_EVENT_VFORK | libc::PTRACE_EVENT_CLONE => {
                self.tasks += 1;
                match raw::ptrace_event_message(pid) {
                    Ok(child) => self.alive.started(child as i32),
                    Err(_) => self.alive.overflowed = true,
                }
            }
            libc::PTRACE_EVENT_EXIT if pid == self.main => self.read_memory(),
            0 if sig == SYSCALL_STOP && self.syscall_refused_memory(pid) => {
                self.report.flags |= FLAG_REFUSED;
            }
            0 if sig == SYSCALL_STOP => {}
            0 if sig == libc::SIGTRAP && pid == self.main && !self.options_set => {
                self.options_set = true;
                let options = options(self.exit_stop) | libc::PTRACE_O_TRACEEXEC as usize;
                let _ = raw::ptrace_simple(libc::PTRACE_SETOPTIONS, pid, options);
            }
            // New tasks start with SIGSTOP; job control makes no sense for a judged program.
            0 if matches!(
                sig,
                libc::SIGSTOP | libc::SIGTSTP | libc::SIGTTIN | libc::SIGTTOU
            ) => {}
            0 => {
                // A signal may end the program: without an exit stop, this is the last look
                // at its memory.
                if !self.exit_stop {
                    self.read_memory();
                }
                inject = sig;
            }
            _ => {}
        }
        let _ = raw::ptrace_simple(libc::PTRACE_CONT, pid, inject as usize);
    }

    /// At a syscall-exit stop after a watched request: did it fail with ENOMEM?
    fn syscall_refused_memory(&self, pid: libc::pid_t) -> bool {
        // SAFETY: SyscallInfo is plain data; all zeroes is a valid value.
        let mut info: SyscallInfo = unsafe { zeroed() };
        raw::ptrace_syscall_info(pid, &mut info).is_ok_and(|n| n > 0)
            && info.op == PTRACE_SYSCALL_INFO_EXIT
            && info.data[0] as i64 == -(libc::ENOMEM as i64)
    }

    /// Peak RSS, its file-backed part and peak address space of the main process so far, read while a task of the
    /// run is stopped (at the main process's exit its memory is still mapped). Unlike
    /// ru_maxrss this excludes the spawner's own memory, which the pre-exec child briefly
    /// shared. Both only grow, so a later reading never lowers them (one taken once the main
    /// process is gone has none).
    fn read_memory(&mut self) {
        if self.status_fd < 0 {
            return;
        }
        let mut buf = [0u8; 4096];
        let n = raw::pread(self.status_fd, &mut buf);
        let text = &buf[..n.min(buf.len())];
        let report = &mut *self.report;
        let field = |key: &[u8]| field_u64(text, key).unwrap_or(0);
        report.hwm_kb = report.hwm_kb.max(field(b"VmHWM:"));
        report.peak_vm_kb = report.peak_vm_kb.max(field(b"VmPeak:"));
        report.rss_file_kb = report.rss_file_kb.max(field(b"RssFile:"));
    }
}

fn micros(t: libc::timeval) -> u64 {
    (t.tv_sec.max(0) as u64) * 1_000_000 + t.tv_usec.max(0) as u64
}
