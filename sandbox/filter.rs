//! The seccomp filter every judged program runs under (installed just before exec, inherited
//! by everything it starts). It keeps the containment's promises where the kernel's own checks
//! do not:
//! - no process escapes the tracer: `clone` with CLONE_UNTRACED is refused, and `clone3` (whose
//!   flags live in memory seccomp cannot read) answers ENOSYS so libc falls back to `clone`;
//! - no new namespaces (`unshare`, `setns`, namespace flags to `clone`);
//! - no network: `socket` is refused except AF_UNIX inside a network namespace (outside one,
//!   AF_UNIX too: host services listen on abstract and filesystem sockets); `io_uring_setup`,
//!   which could create sockets around the filter, answers ENOSYS;
//! - no kernel keyrings (`keyctl`, `add_key`, `request_key`);
//! - where the run shares the runner's PID namespace: no `kill(-1, …)`, and no signal aimed at
//!   the runner's pid or process group (`kill`, `tgkill`, `rt_sigqueueinfo`, `pidfd_open`…);
//! - nothing shared with other runs through the files every box shows (the system folders):
//!   no file locks (`flock`, `fcntl` locks and leases' notifications answer ENOLCK or EPERM),
//!   no `inotify`/`fanotify`, no `mincore` (page-cache residency), which would all let two
//!   runs signal each other through a file both can open;
//! - without a box, no reaching into other processes: `ptrace`, `process_vm_readv`/`writev`,
//!   `pidfd_getfd` and `kcmp` are refused (in a box only the run's own processes are in reach,
//!   and its keeper traces);
//! - no memory outside the address-space limit where no cgroup counts it: `memfd_create` and
//!   System V shared memory are refused there;
//! - no System V IPC where the run has no IPC namespace of its own (its objects would outlive
//!   it, on the host);
//! - only the native system call ABI (no 32-bit `int 0x80`, no x32).
//!
//! With allocation tracing, mmap/mremap requests of WATCHED_REQUEST bytes or more stop in the
//! tracer (SECCOMP_RET_TRACE) so it can see whether they were refused (the MLE rule). Where a
//! box's cgroup measures its peak memory, failing exits (`exit`, `exit_group` with a status
//! that is not 0 modulo 256) stop there too, marked [`FAILED_EXIT`], so the tracer reads the
//! address space a failed program reached without stopping every program at its exit.

use crate::plan::WATCHED_REQUEST;

/// What the filter must allow and refuse for one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Policy {
    /// Send big mmap/mremap requests to the tracer (only when the program is traced: without
    /// a tracer, SECCOMP_RET_TRACE fails the call with ENOSYS).
    pub trace_allocations: bool,
    /// The run has a network namespace of its own, so AF_UNIX sockets reach nothing outside.
    pub network_namespace: bool,
    /// The runner's pid and process group, when the run shares its PID namespace.
    pub protect: Option<(libc::pid_t, libc::pid_t)>,
    /// The run has an IPC namespace of its own (a box), so System V IPC objects stay in it.
    pub ipc_namespace: bool,
    /// A cgroup limits the run's memory, so memory that is not address space (a memfd, System
    /// V shared memory) is counted too.
    pub memory_counted: bool,
    /// With `trace_allocations`: send failing exits to the tracer as well (for programs that
    /// do not stop at their exit: a box's, or a plain run's, with a cgroup measuring the peak).
    pub failed_exits: bool,
    /// The filter is a plain run's program's own (not a box keeper's, which traces and so needs
    /// ptrace, and whose programs reach no process outside their run).
    pub program: bool,
}

impl Policy {
    /// A box keeper's filter, which every program of its box inherits: a box has network and
    /// IPC namespaces of its own, and its keeper traces (`memory_counted`: the box's cgroup
    /// counts its memory; `failed_exits`: see the field).
    pub(crate) fn keeper(memory_counted: bool, failed_exits: bool) -> Policy {
        Policy {
            trace_allocations: false,
            failed_exits,
            network_namespace: true,
            protect: None,
            ipc_namespace: true,
            memory_counted,
            program: false,
        }
    }
}

/// Whether this build knows its architecture's seccomp audit value.
pub(crate) const SUPPORTED: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

const ALLOW: u32 = 0x7fff_0000;
const TRACE: u32 = 0x7ff0_0000;
const ERRNO: u32 = 0x0005_0000;
/// The data of SECCOMP_RET_TRACE for a failing exit (0 for a watched allocation), which the
/// tracer reads with PTRACE_GETEVENTMSG.
pub(crate) const FAILED_EXIT: u32 = 1;

/// clone(2) flags that create namespaces (CLONE_NEWTIME shares its bit with the exit signal
/// in clone(2), so it only counts for unshare).
const NAMESPACE_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u32;
const CLONE_NEWTIME: u32 = 0x80;
/// x86-64 system call numbers with this bit are the x32 ABI.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Allow,
    Trace,
    Enosys,
    Eperm,
    Eacces,
    Clone,
    Unshare,
    Socket,
    Kill,
    SignalTarget,
    Fcntl,
    Enolck,
    Mmap,
    Mremap,
    Exit,
    TraceExit,
}

#[derive(Clone, Copy)]
enum Cond {
    Eq(u32),
    Ge(u32),
    Set(u32),
}

#[derive(Clone, Copy)]
enum Jump {
    Next,
    To(Label),
}

enum Op {
    Load(u32),
    If(Cond, Jump, Jump),
    Ret(u32),
    Here(Label),
}

/// seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (low word first: little endian).
const NR: u32 = 0;
const ARCH: u32 = 4;
fn arg_lo(i: u32) -> u32 {
    16 + 8 * i
}
fn arg_hi(i: u32) -> u32 {
    16 + 8 * i + 4
}

/// The filter a box keeper installs on itself (and so on every program of the box); a cgroup
/// that counts the box's memory lets its programs have memory outside their address space.
/// With `traced` programs it holds the allocation rules too (the keeper itself, untraced, makes
/// no allocation they watch), so that a run installs no filter of its own: compiling one per
/// run was a tenth of a tiny run's cost in the box. With `failed_exits` (and `traced`), the
/// failing-exit rules too: the keeper's own failing exits then answer ENOSYS, and raw::exit
/// exits with 0 after that.
pub(crate) fn box_filter(
    memory_counted: bool,
    traced: bool,
    failed_exits: bool,
) -> Vec<libc::sock_filter> {
    cached(Policy::keeper(memory_counted, failed_exits))[usize::from(traced)].clone()
}

/// The seccomp filters for `policy`: without and with allocation tracing (built once per kind).
pub(crate) fn cached(policy: Policy) -> [Vec<libc::sock_filter>; 2] {
    type Built = [Vec<libc::sock_filter>; 2];
    static BUILT: std::sync::Mutex<Vec<(Policy, Built)>> = std::sync::Mutex::new(Vec::new());
    let key = Policy {
        trace_allocations: false,
        ..policy
    };
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, filters)) = built.iter().find(|(k, _)| *k == key) {
        return filters.clone();
    }
    let filters = [false, true].map(|trace_allocations| {
        build(&Policy {
            trace_allocations,
            ..key
        })
    });
    built.push((key, filters.clone()));
    filters
}

/// The filter for `policy`, as classic BPF instructions.
pub(crate) fn build(policy: &Policy) -> Vec<libc::sock_filter> {
    use Jump::{Next, To};
    let nr = |n: libc::c_long| n as u32;
    let mut ops = vec![
        Op::Load(ARCH),
        Op::If(Cond::Eq(native_audit_arch()), Next, To(Label::Enosys)),
        Op::Load(NR),
    ];
    if cfg!(target_arch = "x86_64") {
        ops.push(Op::If(Cond::Ge(X32_SYSCALL_BIT), To(Label::Enosys), Next));
    }
    let mut dispatch = |call: libc::c_long, to: Label| {
        ops.push(Op::If(Cond::Eq(nr(call)), To(to), Next));
    };
    dispatch(libc::SYS_clone, Label::Clone);
    dispatch(libc::SYS_clone3, Label::Enosys);
    dispatch(libc::SYS_unshare, Label::Unshare);
    dispatch(libc::SYS_setns, Label::Eperm);
    dispatch(libc::SYS_io_uring_setup, Label::Enosys);
    dispatch(libc::SYS_keyctl, Label::Enosys);
    dispatch(libc::SYS_add_key, Label::Enosys);
    dispatch(libc::SYS_request_key, Label::Enosys);
    dispatch(libc::SYS_socket, Label::Socket);
    for call in [
        libc::SYS_inotify_init1,
        libc::SYS_fanotify_init,
        libc::SYS_mincore,
    ] {
        dispatch(call, Label::Enosys);
    }
    #[cfg(target_arch = "x86_64")]
    dispatch(libc::SYS_inotify_init, Label::Enosys);
    dispatch(libc::SYS_flock, Label::Enolck);
    dispatch(libc::SYS_fcntl, Label::Fcntl);
    if !policy.memory_counted {
        dispatch(libc::SYS_memfd_create, Label::Enosys);
        dispatch(libc::SYS_shmget, Label::Enosys);
    }
    if !policy.ipc_namespace {
        for call in [libc::SYS_shmget, libc::SYS_semget, libc::SYS_msgget] {
            dispatch(call, Label::Enosys);
        }
    }
    if policy.program {
        program_rules(&mut dispatch);
    }
    if policy.protect.is_some() {
        dispatch(libc::SYS_kill, Label::Kill);
        dispatch(libc::SYS_tkill, Label::Eperm);
        for call in [
            libc::SYS_tgkill,
            libc::SYS_rt_sigqueueinfo,
            libc::SYS_rt_tgsigqueueinfo,
            libc::SYS_pidfd_open,
        ] {
            dispatch(call, Label::SignalTarget);
        }
    }
    if policy.trace_allocations {
        dispatch(libc::SYS_mmap, Label::Mmap);
        dispatch(libc::SYS_mremap, Label::Mremap);
        if policy.failed_exits {
            dispatch(libc::SYS_exit, Label::Exit);
            dispatch(libc::SYS_exit_group, Label::Exit);
        }
    }
    ops.push(Op::Ret(ALLOW));

    ops.extend([
        Op::Here(Label::Clone),
        Op::Load(arg_lo(0)),
        Op::If(
            Cond::Set(libc::CLONE_UNTRACED as u32 | NAMESPACE_FLAGS),
            To(Label::Eperm),
            To(Label::Allow),
        ),
        Op::Here(Label::Unshare),
        Op::Load(arg_lo(0)),
        Op::If(
            Cond::Set(NAMESPACE_FLAGS | CLONE_NEWTIME),
            To(Label::Eperm),
            To(Label::Allow),
        ),
        Op::Here(Label::Fcntl),
        Op::Load(arg_lo(1)),
    ]);
    // Record locks, open file description locks and directory notification (F_NOTIFY).
    for command in [
        libc::F_GETLK,
        libc::F_SETLK,
        libc::F_SETLKW,
        libc::F_OFD_GETLK,
        libc::F_OFD_SETLK,
        libc::F_OFD_SETLKW,
        libc::F_NOTIFY,
    ] {
        ops.push(Op::If(Cond::Eq(command as u32), To(Label::Enolck), Next));
    }
    ops.extend([Op::Ret(ALLOW), Op::Here(Label::Socket)]);
    if policy.network_namespace {
        ops.push(Op::Load(arg_lo(0)));
        ops.push(Op::If(
            Cond::Eq(libc::AF_UNIX as u32),
            To(Label::Allow),
            To(Label::Eacces),
        ));
    } else {
        ops.push(Op::Ret(ERRNO | libc::EACCES as u32));
    }
    if let Some((pid, pgid)) = policy.protect {
        ops.extend([
            Op::Here(Label::Kill),
            Op::Load(arg_lo(0)),
            Op::If(Cond::Eq(u32::MAX), To(Label::Eperm), Next), // kill(-1, …)
            Op::If(Cond::Eq(pgid.wrapping_neg() as u32), To(Label::Eperm), Next),
            Op::Here(Label::SignalTarget),
            Op::Load(arg_lo(0)),
            Op::If(Cond::Eq(pid as u32), To(Label::Eperm), To(Label::Allow)),
        ]);
    }
    if policy.trace_allocations {
        allocation_rules(&mut ops);
        if policy.failed_exits {
            // The status a parent sees is the low byte: exit_group(256) succeeds.
            ops.extend([
                Op::Here(Label::Exit),
                Op::Load(arg_lo(0)),
                Op::If(Cond::Set(0xff), To(Label::TraceExit), To(Label::Allow)),
                Op::Here(Label::TraceExit),
                Op::Ret(TRACE | FAILED_EXIT),
            ]);
        }
    }
    ops.extend([
        Op::Here(Label::Enosys),
        Op::Ret(ERRNO | libc::ENOSYS as u32),
        Op::Here(Label::Eperm),
        Op::Ret(ERRNO | libc::EPERM as u32),
        Op::Here(Label::Eacces),
        Op::Ret(ERRNO | libc::EACCES as u32),
        Op::Here(Label::Enolck),
        Op::Ret(ERRNO | libc::ENOLCK as u32),
        Op::Here(Label::Trace),
        Op::Ret(TRACE),
        Op::Here(Label::Allow),
        Op::Ret(ALLOW),
    ]);
    assemble(&ops)
}

/// What a run without a box must not do to the processes around it (in a box nothing but the
/// run's own processes is in reach: its keeper is another user's, or holds capabilities the
/// program lacks, and is not dumpable).
fn program_rules(dispatch: &mut impl FnMut(libc::c_long, Label)) {
    for call in [
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_pidfd_getfd,
        libc::SYS_kcmp,
    ] {
        dispatch(call, Label::Eperm);
    }
}

/// The code at Label::Mmap and Label::Mremap: requests of WATCHED_REQUEST bytes or more (the
/// length, the new size) go to Label::Trace, others to Label::Allow.
fn allocation_rules(ops: &mut Vec<Op>) {
    use Jump::{Next, To};
    let watched = WATCHED_REQUEST as u32;
    for (label, arg) in [(Label::Mmap, 1), (Label::Mremap, 2)] {
        ops.extend([
            Op::Here(label),
            Op::Load(arg_hi(arg)),
            Op::If(Cond::Eq(0), Next, To(Label::Trace)),
            Op::Load(arg_lo(arg)),
            Op::If(Cond::Ge(watched), To(Label::Trace), To(Label::Allow)),
        ]);
    }
}

/// Resolves labels into forward jump offsets.
fn assemble(ops: &[Op]) -> Vec<libc::sock_filter> {
    const LD_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const RET: u16 = 0x06; // BPF_RET | BPF_K
    let mut positions = Vec::new();
    let mut at = 0usize;
    for op in ops {
        match op {
            Op::Here(label) => positions.push((*label, at)),
            _ => at += 1,
        }
    }
    let target = |label: Label| {
        positions
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, p)| *p)
            .expect("every label used is placed")
    };
    let mut code = Vec::with_capacity(at);
    for op in ops {
        let here = code.len();
        let offset = |jump: Jump| match jump {
            Jump::Next => 0,
            Jump::To(label) => {
                let distance = target(label) - here - 1;
                u8::try_from(distance).expect("filter jumps stay short")
            }
        };
        let ins = |code, jt, jf, k| libc::sock_filter { code, jt, jf, k };
        match *op {
            Op::Here(_) => continue,
            Op::Load(offset) => code.push(ins(LD_ABS, 0, 0, offset)),
            Op::Ret(action) => code.push(ins(RET, 0, 0, action)),
            Op::If(cond, then, otherwise) => {
                let (opcode, k) = match cond {
                    Cond::Eq(k) => (0x15, k),  // BPF_JMP | BPF_JEQ | BPF_K
                    Cond::Ge(k) => (0x35, k),  // BPF_JMP | BPF_JGE | BPF_K
                    Cond::Set(k) => (0x45, k), // BPF_JMP | BPF_JSET | BPF_K
                };
                code.push(ins(opcode, offset(then), offset(otherwise), k));
            }
        }
    }
    code
}

fn native_audit_arch() -> u32 {
    if cfg!(target_arch = "aarch64") {
        0xC000_00B7
    } else {
        0xC000_003E
    }
}

#[cfg(test)]
#[path = "filter_tests.rs"]
mod tests;
