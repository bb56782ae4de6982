//! How a run ended, decided from what the runner saw (the wall-clock backstop, the CPU watch,
//! the output limit), what the supervisor reported (wait status, refused allocations, peak
//! memory) and what the cgroup counted. The TLE and MLE rules live here; lib.rs documents them
//! for users.

use std::time::Duration;

use crate::cgroup::MemoryEvents;
use crate::drain::Stop;
use crate::plan::WATCHED_REQUEST;
use crate::report::{
    Report, FLAG_CPU_LIMIT, FLAG_FILE_LIMIT, FLAG_REFUSED, FLAG_TOO_MANY, FLAG_TRACED,
};
use crate::{Clock, End, Limits};

pub(crate) struct Facts<'a> {
    pub stop: Stop,
    pub stdout_total: u64,
    pub report: Option<&'a Report>,
    pub cpu_time: Duration,
    pub cgroup: Option<MemoryEvents>,
    /// Peak RSS when not traced, if it is the program's own.
    pub untraced_peak_kb: Option<u64>,
    pub limits: &'a Limits,
    /// RLIMIT_AS held the memory limit; else a cgroup alone did, and the address space says
    /// nothing about memory.
    pub address_space: bool,
}

pub(crate) fn classify(f: &Facts<'_>) -> End {
    let over_cpu = f.cpu_time > f.limits.time;
    match f.stop {
        Stop::CpuLimit => return End::TimeLimit(Clock::Cpu),
        // Stopped by the wall clock: still a CPU overrun if the processes had used their time.
        Stop::Deadline if over_cpu => return End::TimeLimit(Clock::Cpu),
        Stop::Deadline => return End::TimeLimit(Clock::Wall),
        Stop::OutputLimit => return End::OutputLimit,
        Stop::Cancelled => return End::Cancelled,
        Stop::Finished => {}
    }
    if f.stdout_total > f.limits.output_bytes {
        return End::OutputLimit;
    }
    let Some(report) = f.report else {
        // Killed from outside before it could report: by the OOM killer (which may pick a box's
        // keeper), or by kill_all_running.
        if f.cgroup.is_some_and(|c| c.oom_kills > 0) {
            return End::MemoryLimit;
        }
        return signaled(libc::SIGKILL);
    };
    if report.flags & FLAG_TOO_MANY != 0 {
        return End::ProcessLimit;
    }
    let status = report.status;
    let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
    let failed = signal.is_some() || libc::WEXITSTATUS(status) != 0;
    // A process of the run killed by its CPU or file-size limit decides a failed run.
    let hit = |flag, sig| signal == Some(sig) || (failed && report.flags & flag != 0);
    if hit(FLAG_CPU_LIMIT, libc::SIGXCPU) || over_cpu {
        return End::TimeLimit(Clock::Cpu);
    }
    if hit(FLAG_FILE_LIMIT, libc::SIGXFSZ) {
        return End::OutputLimit;
    }
    if memory_limit_hit(f, report, failed) {
        return End::MemoryLimit;
    }
    match signal {
        Some(sig) => signaled(sig),
        None => End::Exited(libc::WEXITSTATUS(status)),
    }
}

/// The MLE rule (see the crate docs): the cgroup OOM-killed something; or the program failed
/// and an allocation was refused at the limit (seen directly for requests of WATCHED_REQUEST
/// or more, inferred from a peak address space within WATCHED_REQUEST of the limit for smaller
/// ones) or the cgroup's limit was reached during the run.
fn memory_limit_hit(f: &Facts<'_>, report: &Report, failed: bool) -> bool {
    if f.cgroup.is_some_and(|c| c.oom_kills > 0) {
        return true;
    }
    if !failed || f.limits.memory_bytes == 0 {
        return false;
    }
    if f.cgroup.is_some_and(|c| c.limit_reached) {
        return true;
    }
    if !f.address_space {
        return false;
    }
    if report.flags & FLAG_REFUSED != 0 {
        return true;
    }
    let near = f.limits.memory_bytes.saturating_sub(WATCHED_REQUEST);
    let peak_kb = if report.flags & FLAG_TRACED != 0 {
        report.peak_vm_kb
    } else {
        f.untraced_peak_kb.unwrap_or(0)
    };
    peak_kb.saturating_mul(1024) >= near
}

pub(crate) fn signaled(signal: i32) -> End {
    End::Signaled {
        signal,
        name: signal_name(signal),
    }
}

/// The conventional name of a signal ("SIGSEGV"), or "SIGRT" / "signal" for others.
pub fn signal_name(signal: i32) -> &'static str {
    const NAMES: [(i32, &str); 31] = [
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGINT, "SIGINT"),
        (libc::SIGQUIT, "SIGQUIT"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGTRAP, "SIGTRAP"),
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGBUS, "SIGBUS"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGUSR2, "SIGUSR2"),
        (libc::SIGPIPE, "SIGPIPE"),
        (libc::SIGALRM, "SIGALRM"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGSTKFLT, "SIGSTKFLT"),
        (libc::SIGCHLD, "SIGCHLD"),
        (libc::SIGCONT, "SIGCONT"),
        (libc::SIGSTOP, "SIGSTOP"),
        (libc::SIGTSTP, "SIGTSTP"),
        (libc::SIGTTIN, "SIGTTIN"),
        (libc::SIGTTOU, "SIGTTOU"),
        (libc::SIGURG, "SIGURG"),
        (libc::SIGXCPU, "SIGXCPU"),
        (libc::SIGXFSZ, "SIGXFSZ"),
        (libc::SIGVTALRM, "SIGVTALRM"),
        (libc::SIGPROF, "SIGPROF"),
        (libc::SIGWINCH, "SIGWINCH"),
        (libc::SIGIO, "SIGIO"),
        (libc::SIGPWR, "SIGPWR"),
        (libc::SIGSYS, "SIGSYS"),
    ];
    match NAMES.iter().find(|(n, _)| *n == signal) {
        Some((_, name)) => name,
        None if signal >= libc::SIGRTMIN() && signal <= libc::SIGRTMAX() => "SIGRT",
        None => "signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            time: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory_bytes: 64 << 20,
            output_bytes: 1 << 20,
        }
    }

    fn facts<'a>(report: &'a Report, limits: &'a Limits) -> Facts<'a> {
        Facts {
            stop: Stop::Finished,
            stdout_total: 0,
            report: Some(report),
            cpu_time: Duration::ZERO,
            cgroup: None,
            untraced_peak_kb: None,
            limits,
            address_space: true,
        }
    }

    #[test]
    fn abort_is_a_runtime_error_unless_memory_ran_out() {
        let limits = limits();
        let mut report = Report {
            status: libc::SIGABRT, // a wait status for "killed by SIGABRT"
            flags: FLAG_TRACED,
            peak_vm_kb: 8 << 10,
            ..Report::default()
        };
        assert_eq!(
            classify(&facts(&report, &limits)),
            End::Signaled {
                signal: libc::SIGABRT,
                name: "SIGABRT"
            }
        );
        report.flags |= FLAG_REFUSED;
        assert_eq!(classify(&facts(&report, &limits)), End::MemoryLimit);
        report.flags = FLAG_TRACED;
        report.peak_vm_kb = 63 << 10;
        assert_eq!(classify(&facts(&report, &limits)), End::MemoryLimit);
    }

    #[test]
    fn success_near_the_limit_is_not_mle() {
        let limits = limits();
        let report = Report {
            status: 0,
            flags: FLAG_TRACED | FLAG_REFUSED,
            peak_vm_kb: 63 << 10,
            ..Report::default()
        };
        assert_eq!(classify(&facts(&report, &limits)), End::Exited(0));
    }

    #[test]
    fn where_a_cgroup_alone_holds_memory_the_address_space_says_nothing() {
        let limits = limits();
        // A JVM that reserved far past the limit, then failed for a reason of its own.
        let report = Report {
            status: 1 << 8, // exited with status 1
            flags: FLAG_TRACED | FLAG_REFUSED,
            peak_vm_kb: 8 << 20,
            ..Report::default()
        };
        let cgroup_only = Facts {
            address_space: false,
            ..facts(&report, &limits)
        };
        assert_eq!(classify(&cgroup_only), End::Exited(1));
        assert_eq!(classify(&facts(&report, &limits)), End::MemoryLimit);
    }

    #[test]
    fn names_signals() {
        assert_eq!(signal_name(libc::SIGSEGV), "SIGSEGV");
        assert_eq!(signal_name(libc::SIGRTMIN() + 1), "SIGRT");
    }
}
