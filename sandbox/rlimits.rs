//! The resource limits a judged program starts with, derived from its `Limits`: CPU time as a
//! backstop to the wall clock, address space, file size, no core dumps, no POSIX message
//! queues, an unlimited stack, and a process cap where the box has a user of its own. Values above the runner's own hard
//! limits are lowered to them (an unprivileged process cannot raise a hard limit).

use crate::plan::{Rlimit, MAX_TASKS};
use crate::Limits;

/// The runner's own hard limit for `resource`, read once (a process can only lower it, and
/// grundy does not).
fn own_hard_limit(resource: libc::__rlimit_resource_t) -> libc::rlim_t {
    use std::sync::OnceLock;
    const RESOURCES: [libc::__rlimit_resource_t; 7] = [
        libc::RLIMIT_CPU,
        libc::RLIMIT_FSIZE,
        libc::RLIMIT_CORE,
        libc::RLIMIT_STACK,
        libc::RLIMIT_AS,
        libc::RLIMIT_NPROC,
        libc::RLIMIT_MSGQUEUE,
    ];
    static HARD: OnceLock<[libc::rlim_t; 7]> = OnceLock::new();
    let read = |resource| {
        let mut current = libc::rlimit {
            rlim_cur: libc::RLIM_INFINITY,
            rlim_max: libc::RLIM_INFINITY,
        };
        // SAFETY: getrlimit fills the struct we pass.
        unsafe { libc::getrlimit(resource, &mut current) };
        current.rlim_max
    };
    match RESOURCES.iter().position(|&r| r == resource) {
        Some(i) => HARD.get_or_init(|| RESOURCES.map(read))[i],
        None => read(resource),
    }
}

/// The limits for a run. `cap_processes` adds RLIMIT_NPROC, which counts the processes of the
/// program's user: meaningful only where that user is the box's alone (a uid of its own, or
/// a user namespace), and a little above MAX_TASKS so the tracer sees the excess first.
/// `address_space` is false where a cgroup alone holds the memory limit.
pub(crate) fn for_run(limits: &Limits, cap_processes: bool, address_space: bool) -> Vec<Rlimit> {
    // CPU seconds are whole; the wall clock is the precise limit, this is the backstop that
    // still holds if the runner itself is stopped. Soft sends SIGXCPU, hard SIGKILL.
    let cpu = limits.time.as_secs() + 1;
    let file = limits.output_bytes.saturating_mul(4).max(1 << 20);
    let mut out = vec![
        (libc::RLIMIT_CPU, cpu, cpu + 1),
        (libc::RLIMIT_FSIZE, file, file),
        (libc::RLIMIT_CORE, 0, 0),
        // Judges let the stack use the whole memory limit (deep recursion is normal in contest
        // code): an unlimited stack is bounded by RLIMIT_AS below, and leaves threads glibc's
        // small default stacks (a finite RLIMIT_STACK would be every thread's reservation).
        (libc::RLIMIT_STACK, u64::MAX, u64::MAX),
        // No POSIX message queue can be made: its memory is the user's, outside every limit
        // here, and it would outlive the run where there is no IPC namespace of its own.
        (libc::RLIMIT_MSGQUEUE, 0, 0),
    ];
    if limits.memory_bytes > 0 && address_space {
        out.push((libc::RLIMIT_AS, limits.memory_bytes, limits.memory_bytes));
    }
    if cap_processes {
        let n = u64::from(MAX_TASKS + 8);
        out.push((libc::RLIMIT_NPROC, n, n));
    }
    out.into_iter()
        .map(|(resource, soft, hard)| within_hard_limit(resource, soft, hard))
        .collect()
}

/// `soft`/`hard` lowered to the runner's own hard limit (u64::MAX stands for unlimited).
fn within_hard_limit(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> Rlimit {
    let as_rlim = |v: u64| {
        if v == u64::MAX {
            libc::RLIM_INFINITY
        } else {
            v as libc::rlim_t
        }
    };
    let cap = own_hard_limit(resource);
    Rlimit::new(
        resource,
        as_rlim(soft).min(cap) as u64,
        as_rlim(hard).min(cap) as u64,
    )
}
