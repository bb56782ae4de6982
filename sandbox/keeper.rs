//! The box keeper: a process forked from the runner into new PID, mount, network, IPC and UTS
//! namespaces (and a user namespace when grundy is not root), which builds the box's root
//! (layout.rs), then serves runs: for each plan it receives it starts the program (child.rs),
//! traces it (trace.rs), and when the program's main process ends it kills everything else in
//! the box (it is PID 1 there: kill(-1) reaches exactly the box), reaps it all and reports.
//! A run that must end early (time or output limit, cancel, Ctrl-C) ends with the whole box:
//! the runner kills the keeper, and the kernel every process of its PID namespace. The keeper
//! exits when the runner closes the control socket, or dies (parent-death signal).
//!
//! It is a fork of a multithreaded runner, so it uses raw system calls only, and its memory
//! is non-dumpable once the box is built: programs in the box, even of the same user, cannot
//! open its /proc files (its descriptors, its memory, its environment).

use crate::child::{run_to_end, Launchpad};
use crate::ctl;
use crate::layout::{Op, MAX_SOURCES};
use crate::plan::{View, FD_CGROUP, FD_STDERR, FD_STDIN, FD_STDOUT, MAX_PLAN_BYTES};
use crate::raw;
use crate::report::{Report, Stage, FLAG_IPC_LEFT};

/// What the keeper needs from the runner, read from its copy of the runner's memory.
pub(crate) struct Setup<'a> {
    /// The keeper's end of the control socket.
    pub ctl: i32,
    /// /dev/null of the host, for the keeper's own stdio.
    pub null: i32,
    /// Our uid and gid, to map to themselves in the new user namespace (None as root).
    pub map_ids: Option<(u32, u32)>,
    pub ops: &'a [Op],
    /// The seccomp filter of every program in the box, installed on the keeper itself once
    /// (its children inherit it, with the allocation rules when they are traced).
    pub filter: &'a [libc::sock_filter],
    /// The runner's command line area (start, end), blanked in the keeper's copy so the box
    /// does not show grundy's arguments as its PID 1's.
    pub argv_area: Option<(usize, usize)>,
}

/// Descriptors of the keeper itself are moved here, out of the way of a run's (3 to 8).
const HIGH_FD: i32 = 100;

/// The keeper process. Never returns.
pub(crate) fn main(setup: &Setup<'_>) -> ! {
    raw::mask_all(true);
    crate::child::default_signals();
    // Ends the box when grundy dies (keepers are made by threads that live as long as
    // grundy: the signal follows the creating thread).
    // (Had grundy died before this, the control socket is closed: the keeper's first message
    // fails and it exits. getppid() cannot tell: our parent is outside our PID namespace.)
    let _ = raw::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as usize, 0);
    // A session and process group of its own: a program's kill(0, …) then reaches only the
    // box (its group would otherwise be grundy's, and the shell's job around it).
    raw::setsid();
    let ctl = match settle_fds(setup) {
        Ok(ctl) => ctl,
        Err(_) => raw::exit(1),
    };
    let scratch = match build(setup) {
        Ok(fds) => fds,
        Err((step, errno)) => {
            let mut payload = [0u8; 8];
            payload[..4].copy_from_slice(&(step as u32).to_ne_bytes());
            payload[4..].copy_from_slice(&errno.to_ne_bytes());
            let _ = ctl::send(ctl, ctl::SETUP_FAILED, &payload, &[]);
            raw::exit(1);
        }
    };
    let _ = raw::prctl(libc::PR_SET_DUMPABLE, 0, 0);
    // What serving runs needs, and no more (in case a program ever took the keeper over):
    // tracing its programs, and reading their /proc status at any time (a program in the
    // middle of exec is briefly not dumpable); as root also making them the box user (setuid,
    // setgid) and killing them. (In a user namespace the capabilities only reach the box.)
    // Capability numbers (linux/capability.h).
    const CAP_KILL: u64 = 5;
    const CAP_SETGID: u64 = 6;
    const CAP_SETUID: u64 = 7;
    const CAP_SYS_PTRACE: u64 = 19;
    let keep = if setup.map_ids.is_none() {
        [CAP_SETUID, CAP_SETGID, CAP_KILL, CAP_SYS_PTRACE]
            .iter()
            .fold(0u64, |mask, &cap| mask | 1 << cap)
    } else {
        1 << CAP_SYS_PTRACE
    };
    let filtered =
        raw::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0).is_ok() && raw::seccomp(setup.filter).is_ok();
    if !filtered || raw::keep_capabilities(keep).is_err() {
        raw::exit(1);
    }
    if let Some((start, end)) = setup.argv_area {
        blank(start, end);
    }
    // /proc of the box (the keeper sees its programs' pids as they are there), kept open.
    let proc_dir = raw::open(c"/proc", libc::O_PATH | libc::O_DIRECTORY)
        .and_then(|fd| {
            let high = raw::dup_above(fd as i32, HIGH_FD);
            // SAFETY: the descriptor just opened; its duplicate is kept.
            unsafe { raw::close(fd as i32) };
            high
        })
        .map_or(libc::AT_FDCWD, |fd| fd as i32);
    let Ok(buf) = raw::map_anonymous(ctl::HEADER + MAX_PLAN_BYTES) else {
        raw::exit(1);
    };
    let (failed_optional, scratch_fd) = scratch;
    if ctl::send(
        ctl,
        ctl::READY,
        &failed_optional.to_ne_bytes(),
        &[scratch_fd],
    )
    .is_err()
    {
        raw::exit(1);
    }
    // SAFETY: the scratch descriptor was sent; ours is not needed any more.
    unsafe { raw::close(scratch_fd) };
    // SAFETY: a fresh private mapping of that size, used only by this loop.
    let buf = unsafe { std::slice::from_raw_parts_mut(buf, ctl::HEADER + MAX_PLAN_BYTES) };
    let keeper = Keeper { ctl, proc_dir };
    loop {
        keeper.serve(buf);
    }
}

/// Keeps ctl (moved to HIGH_FD) and /dev/null (as 0, 1, 2); closes the rest of what the fork
/// inherited. Returns ctl's new number.
fn settle_fds(setup: &Setup<'_>) -> Result<i32, i32> {
    for target in 0..3 {
        // SAFETY: the keeper owns its descriptor table (a copy made by fork).
        unsafe { raw::dup3(setup.null, target, 0) }?;
    }
    let ctl = raw::dup_above(setup.ctl, HIGH_FD)? as i32;
    // SAFETY: everything else is the fork's copy of the runner's descriptors.
    unsafe {
        let _ = raw::close_range(3, (ctl - 1) as u32);
        let _ = raw::close_range(ctl + 1, u32::MAX);
    }
    Ok(ctl)
}

/// Maps our ids (user namespace), makes every mount private, applies the layout. Returns the
/// count of optional steps that failed and the scratch folder's descriptor, or the failing
/// step's index and errno.
fn build(setup: &Setup<'_>) -> Result<(u32, i32), (usize, i32)> {
    if let Some((uid, gid)) = setup.map_ids {
        map_ids(uid, gid).map_err(|e| (usize::MAX, e))?;
    }
    let none = c"none";
    raw::mount(none, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)
        .map_err(|e| (usize::MAX - 1, e))?;
    let mut failed = 0;
    let mut scratch = -1;
    let mut sources = [-1i32; MAX_SOURCES];
    let mut opened = 0;
    for (index, op) in setup.ops.iter().enumerate() {
        let result =
            match op {
                Op::OpenSource { path } if opened < MAX_SOURCES => raw::open(path, libc::O_PATH)
                    .map(|fd| {
                        sources[opened] = fd as i32;
                        opened += 1;
                        0
                    }),
                Op::OpenSource { .. } => Err(libc::EMFILE),
                Op::Bind {
                    source,
                    target,
                    recursive,
                } => {
                    let mut digits = [0u8; 20];
                    let mut path = [0u8; 48];
                    let fd = sources.get(*source).copied().unwrap_or(-1);
                    let text = raw::decimal(fd.max(0) as u64, &mut digits);
                    let rec = if *recursive { libc::MS_REC } else { 0 };
                    match raw::join_cstr(&[b"/proc/self/fd/", text], &mut path) {
                        Some(from) if fd >= 0 => {
                            raw::mount(from, target, None, libc::MS_BIND | rec, None)
                        }
                        _ => Err(libc::EBADF),
                    }
                }
                Op::Mkdir { path, mode } => match raw::mkdir(path, *mode) {
                    Err(libc::EEXIST) => Ok(0),
                    other => other,
                },
                Op::Chmod { path, mode } => raw::chmod(path, *mode),
                Op::Chown { path, uid, gid } => raw::chown(path, *uid, *gid),
                Op::Symlink { target, path } => raw::symlink(target, path),
                Op::Touch { path } => raw::open(path, libc::O_WRONLY | libc::O_CREAT).map(|fd| {
                    // SAFETY: the descriptor was just opened here.
                    unsafe { raw::close(fd as i32) };
                    0
                }),
                Op::Mount {
                    source,
                    target,
                    fstype,
                    flags,
                    data,
                    optional,
                } => match raw::mount(source, target, fstype.as_deref(), *flags, data.as_deref()) {
                    Err(_) if *optional => {
                        failed += 1;
                        Ok(0)
                    }
                    other => other,
                },
                Op::OpenScratch { path } => raw::open(path, libc::O_RDONLY | libc::O_DIRECTORY)
                    .map(|fd| {
                        scratch = fd as i32;
                        0
                    }),
                Op::Unmount { path } => raw::umount_detach(path),
                Op::Rmdir { path } => raw::rmdir(path),
                Op::PivotRoot { path } => pivot_into(path),
            };
        result.map_err(|e| (index, e))?;
    }
    for &fd in &sources[..opened] {
        // SAFETY: the bind sources, opened above, are not needed once the binds exist.
        unsafe { raw::close(fd) };
    }
    Ok((failed, scratch))
}

/// Writes /proc/self/{setgroups,uid_map,gid_map}: our own ids mapped to themselves (the one
/// mapping an unprivileged user may write). Needs a dumpable process: ours is still the
/// runner's setting, so it is set first (and cleared once the box is built).
fn map_ids(uid: u32, gid: u32) -> Result<(), i32> {
    raw::prctl(libc::PR_SET_DUMPABLE, 1, 0)?;
    let write_file = |path: &std::ffi::CStr, text: &[u8]| -> Result<(), i32> {
        let fd = raw::open(path, libc::O_WRONLY)? as i32;
        let ok = raw::write(fd, text);
        // SAFETY: the descriptor was just opened here.
        unsafe { raw::close(fd) };
        ok.map(|_| ())
    };
    write_file(c"/proc/self/setgroups", b"deny")?;
    for (path, id) in [(c"/proc/self/uid_map", uid), (c"/proc/self/gid_map", gid)] {
        let mut digits = [0u8; 20];
        let id_text = raw::decimal(u64::from(id), &mut digits);
        let mut line = [0u8; 48];
        let mut at = 0;
        for part in [id_text, b" ", id_text, b" 1\n"] {
            line[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        write_file(path, &line[..at])?;
    }
    Ok(())
}

/// Makes `path` the root: pivot_root(".", ".") stacks the old root under the new one, and a
/// lazy unmount of "." then drops it.
fn pivot_into(path: &std::ffi::CStr) -> raw::Res {
    raw::chdir(path)?;
    raw::pivot_root(c".", c".")?;
    raw::umount_detach(c".")?;
    raw::chdir(c"/")
}

/// Overwrites [start, end) of our memory (the command line area) with NULs after a name.
fn blank(start: usize, end: usize) {
    let name = b"grundy-box";
    if end <= start || end - start > 1 << 20 {
        return;
    }
    for (i, addr) in (start..end).enumerate() {
        let byte = name.get(i).copied().unwrap_or(0);
        // SAFETY: [start, end) is this process's argument area as the kernel recorded it at
        // exec (part of the initial stack: mapped and writable); nothing in the keeper reads
        // it, and the runner's copy is separate (fork).
        unsafe { (addr as *mut u8).write_volatile(byte) };
    }
}

/// The keeper's own descriptors.
struct Keeper {
    ctl: i32,
    /// The box's /proc (AT_FDCWD if it has none).
    proc_dir: i32,
}

impl Keeper {
    /// Waits for one RUN message and serves it. Exits the keeper when the runner closed the
    /// control socket.
    fn serve(&self, buf: &mut [u8]) {
        let ctl = self.ctl;
        let mut fds = [-1i32; ctl::MAX_FDS];
        let (len, nfds) = match ctl::recv(ctl, buf, &mut fds) {
            Ok((0, _)) | Err(_) => raw::exit(0),
            Ok(got) => got,
        };
        let received = &fds[..nfds];
        if ctl::tag(&buf[..len]) != ctl::RUN || nfds < 3 {
            close_all(received);
            return;
        }
        if place_fds(received).is_err() {
            close_run_fds(nfds);
            send_report(ctl, &Report::failed(Stage::Setup, libc::EBADF));
            return;
        }
        let payload = &mut buf[ctl::HEADER..len];
        // SAFETY: the payload sits 8 bytes into a page-aligned mapping, so it is 8-aligned, and
        // the buffer is not touched again before the next message, after this run.
        let Some(plan) = (unsafe { View::fix_up(payload.as_mut_ptr(), payload.len()) }) else {
            close_run_fds(nfds);
            send_report(ctl, &Report::failed(Stage::Setup, libc::EINVAL));
            return;
        };
        // The launchpad lives in this frame, below which the keeper waits for the run.
        let mut pad = Launchpad::new();
        // Every process of the box ends as a child of the keeper (PID 1 adopts orphans) or of
        // one that is, and is reaped: the keeper's children's time grows by the whole run's.
        let cpu_before = raw::children_cpu_us();
        // kill(-1) ends whatever is left of the box, tracked or not.
        let (mut report, left, _) =
            run_to_end(&plan, &mut pad, self.proc_dir, || close_run_fds(nfds));
        end_everything(left);
        report.tree_cpu_us = raw::children_cpu_us().saturating_sub(cpu_before);
        // The box's IPC namespace outlives a run: objects a run left would be the next one's.
        if raw::ipc_objects() > 0 {
            report.flags |= FLAG_IPC_LEFT;
        }
        send_report(ctl, &report);
    }
}

/// Where the `i`th descriptor of a RUN message goes: stdin, stdout, stderr, then cgroup.procs
/// files, from FD_STDIN on (the layout child.rs expects).
fn run_fd(i: usize) -> i32 {
    FD_STDIN + i as i32
}

/// Moves a run's descriptors to their places (close-on-exec), out of the received numbers;
/// usually they arrive there already (the lowest free numbers).
fn place_fds(received: &[i32]) -> Result<(), i32> {
    const { assert!(FD_STDOUT == FD_STDIN + 1 && FD_STDERR == FD_STDIN + 2 && FD_CGROUP == 6) };
    if received.iter().enumerate().all(|(i, &fd)| fd == run_fd(i)) {
        return Ok(());
    }
    let mut high = [-1i32; ctl::MAX_FDS];
    for (slot, &fd) in high.iter_mut().zip(received) {
        *slot = raw::dup_above(fd, HIGH_FD + 10)? as i32;
        // SAFETY: a descriptor we received and own.
        unsafe { raw::close(fd) };
    }
    for (i, &fd) in high.iter().take(received.len()).enumerate() {
        // SAFETY: the targets are free in the keeper between runs.
        unsafe { raw::dup3(fd, run_fd(i), libc::O_CLOEXEC) }?;
        // SAFETY: the duplicate above is ours.
        unsafe { raw::close(fd) };
    }
    Ok(())
}

fn close_run_fds(count: usize) {
    for i in 0..count {
        // SAFETY: the run's descriptors, placed by place_fds; the program has its own copies.
        unsafe { raw::close(run_fd(i)) };
    }
}

fn close_all(fds: &[i32]) {
    for &fd in fds {
        // SAFETY: descriptors we received and own.
        unsafe { raw::close(fd) };
    }
}

/// Kills every other process of the box (the keeper is PID 1 of its namespace, so kill(-1)
/// reaches exactly the box) and reaps them all. When none should be `left`, first checks
/// that there is indeed nothing to reap (kill(-1) walks every process of the machine).
fn end_everything(left: bool) {
    if !left {
        // SAFETY: rusage is plain data; all zeroes is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if raw::wait_any(-1, libc::WNOHANG, &mut usage) == Err(libc::ECHILD) {
            return;
        }
    }
    loop {
        let _ = raw::kill(-1, libc::SIGKILL);
        // SAFETY: rusage is plain data; all zeroes is a valid value.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        match raw::wait_any(-1, 0, &mut usage) {
            Ok((pid, status)) if libc::WIFSTOPPED(status) => {
                // A tracee stopped at an event before SIGKILL reached it.
                let _ = raw::ptrace_simple(libc::PTRACE_CONT, pid, 0);
            }
            Ok(_) => {}
            Err(_) => return, // ECHILD: nothing is left
        }
    }
}

fn send_report(ctl: i32, report: &Report) {
    if ctl::send(ctl, ctl::REPORT, report.as_bytes(), &[]).is_err() {
        raw::exit(0);
    }
}
