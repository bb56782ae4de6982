//! One run from the runner's side, in a box (boxes.rs, keeper.rs) or plain (supervise.rs):
//! resolving the program, preparing its working folder, stdio and plan, starting it, draining
//! its output until it ends or a limit or a cancel stops it, and turning what happened into an
//! `Outcome`.

use std::ffi::{OsStr, OsString};
use std::os::fd::{AsRawFd, RawFd};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::boxes;
use crate::cgroup::{Cgroups, MemoryEvents, Slot as CgroupSlot};
use crate::command::SetupError;
use crate::containment::{probe, Containment, Mode};
use crate::cpu_watch::CpuWatch;
use crate::drain::{ReportFrom, Stop, Streams, StreamsInput};
use crate::filter::{self, Policy};
use crate::hidden::{self, Hidden};
use crate::layout::WORKDIR;
use crate::outcome::{conclude, own_peak_rss_kb, Ended};
use crate::plan::{Plan, PlanInput, FLAG_CHECK_PARENT, FLAG_LANDLOCK, FLAG_MUST_TRACE};
use crate::plan::{FLAG_NO_EXIT_STOP, FLAG_SEIZE, FLAG_TRACE};
use crate::report::{Report, FLAG_IPC_LEFT, FLAG_LEFT};
use crate::view::{box_key, reachable};
use crate::{command, files, identity, rlimits, stdio, supervise, workdir};
use crate::{Outcome, SpawnError, Spec};

/// The PATH a program gets unless the caller passes one; bare command names are looked up
/// there (its folders are all visible in a box).
pub const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

pub(crate) fn run(spec: Spec<'_>, containment: Containment) -> Result<Outcome, SpawnError> {
    let argv0 = spec.argv0().to_os_string();
    let other = |reason: String| SpawnError::other(&argv0, reason);
    let probe = probe();
    let mode = probe
        .mode(containment)
        .ok_or_else(|| other(format!("{containment} containment is not available here")))?;
    for name in spec.files.iter().map(|f| &f.name).chain(&spec.collect) {
        files::check_relative(name).map_err(|e| SpawnError::setup(&argv0, e))?;
    }
    let search = spec
        .env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map_or_else(|| OsString::from(DEFAULT_PATH), |(_, v)| v.clone());
    let exe = command::resolve(&argv0, &search)?;
    let can_mask = matches!(mode, Mode::Boxed(_)) || crate::landlock::abi() > 0;
    let hidden = hidden::check(spec.program, &exe, can_mask)
        .map_err(|e| SpawnError::setup(&argv0, e.into()))?;
    match mode {
        Mode::Boxed(cgroups) => run_boxed(spec, &exe, &hidden, cgroups, probe.tracing),
        Mode::Plain(cgroups) => run_plain(spec, &exe, &hidden, cgroups, probe.tracing),
    }
}

/// Where and as whom a run's program starts, and what the filter protects.
struct Target<'a> {
    exe: &'a OsStr,
    argv: &'a [OsString],
    workdir: &'a OsStr,
    identity: Option<(u32, u32)>,
    /// RLIMIT_NPROC counts a user's processes: only for a user that is the run's alone.
    cap_processes: bool,
    /// A box's program: it inherits its keeper's filter (and has a network namespace).
    boxed: bool,
    /// The box's cgroup limits the run's memory (a plain run's cgroup is its launch's slot).
    box_cgroup: bool,
    protect: Option<(i32, i32)>,
    flags: u32,
}

/// A run ready to start: its plan, the descriptors the program gets (stdin, stdout, stderr,
/// cgroup.procs files), and the runner's side of them.
struct Launch {
    plan: Plan,
    io: stdio::Stdio,
    slot: Option<CgroupSlot>,
    /// RLIMIT_AS holds the memory limit (else a cgroup alone does).
    address_space: bool,
}

impl Launch {
    fn new(
        spec: &mut Spec<'_>,
        target: &Target<'_>,
        cgroups: Option<&Cgroups>,
    ) -> Result<Launch, SetupError> {
        let slot = cgroup_slot(cgroups, spec.limits.memory_bytes)?;
        let cgroup_limits_memory = target.box_cgroup || slot.is_some();
        let address_space = !(spec.program.reserves_address_space && cgroup_limits_memory);
        let stdin = std::mem::replace(&mut spec.stdin, crate::Stdin::Null);
        let stdout = std::mem::replace(&mut spec.stdout, crate::Stdout::Capture);
        let io = stdio::open(stdin, stdout).map_err(SetupError::Stdio)?;
        // A box's programs inherit its keeper's filter, allocation rules and all.
        let [filter, traced_filter] = if target.boxed {
            [Vec::new(), Vec::new()]
        } else {
            // Grundy's own user could move the program out of a cgroup grundy may write to:
            // only a box user's is a cgroup that holds.
            let memory_counted =
                target.identity.is_some() && slot.is_some() && cgroups.is_some_and(|c| c.memory);
            filter::cached(Policy {
                trace_allocations: false,
                network_namespace: false,
                protect: target.protect,
                ipc_namespace: false,
                memory_counted,
                // Only the traced filter holds the rule: a failing exit stops in the tracer.
                failed_exits: target.flags & FLAG_NO_EXIT_STOP != 0,
                program: true,
            })
        };
        let plan = Plan::new(&PlanInput {
            exe: target.exe,
            argv: target.argv,
            env: &environment(spec.env, target.workdir, !target.boxed),
            workdir: target.workdir,
            rlimits: rlimits::for_run(spec.limits, target.cap_processes, address_space),
            filter,
            traced_filter,
            identity: target.identity,
            flags: target.flags,
            cgroup_fds: slot.as_ref().map_or(0, |s| s.procs_fds().len()),
        })?;
        Ok(Launch {
            plan,
            io,
            slot,
            address_space,
        })
    }

    /// The program's descriptors, in the order a supervisor or keeper expects them.
    fn child_fds(&self) -> Vec<RawFd> {
        let io = &self.io;
        let stdio = [&io.child_in, &io.child_out, &io.child_err].map(|f| f.as_raw_fd());
        let cgroup = self.slot.as_ref().map_or(Vec::new(), |s| s.procs_fds());
        stdio.into_iter().chain(cgroup).collect()
    }
}

/// Once the program has its copies of `io`: the runner's side, draining until `report`.
fn drain(io: stdio::Stdio, report: ReportFrom, spec: &mut Spec<'_>) -> Streams {
    drop((io.child_in, io.child_out, io.child_err));
    Streams::new(StreamsInput {
        out: io.out,
        err: io.err,
        report,
        feeder: io.feeder,
        cancel: spec.cancel.take(),
        output_limit: spec.limits.output_bytes,
    })
}

fn run_boxed(
    mut spec: Spec<'_>,
    exe: &Path,
    hidden: &Hidden,
    cgroups: Option<&'static Cgroups>,
    tracing: bool,
) -> Result<Outcome, SpawnError> {
    let argv0 = spec.argv0().to_os_string();
    let other = |reason: String| SpawnError::other(&argv0, reason);
    // The paths the program shows are bound like the absolute paths of its command line.
    let mut seen = spec.program.argv.clone();
    seen.extend(
        spec.program
            .show
            .iter()
            .map(|p| p.as_os_str().to_os_string()),
    );
    let mut key = box_key(exe, &seen, hidden, spec.limits.memory_bytes, tracing).map_err(|e| {
        other(format!(
            "cannot show the program's files in the sandbox: {e}"
        ))
    })?;
    key.read_only_workdir = spec.program.read_only_workdir;
    let mut bx =
        boxes::acquire(&key, cgroups).map_err(|e| other(format!("cannot make a sandbox: {e}")))?;
    bx.reset_cgroup(spec.limits.memory_bytes)
        .map_err(|e| other(format!("cannot prepare a cgroup: {e}")))?;
    files::place_for(&bx.work_path(), spec.program, &spec.files, bx.ids())
        .map_err(|e| other(format!("cannot place the run's files: {e}")))?;
    let target = Target {
        exe: exe.as_os_str(),
        argv: &spec.program.argv,
        workdir: OsStr::new(WORKDIR),
        identity: bx.ids(),
        cap_processes: true,
        boxed: true,
        box_cgroup: bx.has_cgroup(),
        protect: None,
        // The keeper's filter sends big allocations to the tracer: a program it could not
        // trace would have them refused, so it must not start untraced.
        flags: trace_flags(tracing)
            | if tracing { FLAG_MUST_TRACE } else { 0 }
            | if bx.no_exit_stop() {
                FLAG_NO_EXIT_STOP
            } else {
                0
            },
    };
    // The box's cgroup is the keeper's: its programs are born in it.
    let launch = Launch::new(&mut spec, &target, None).map_err(|e| SpawnError::setup(&argv0, e))?;

    let runner_peak_kb = own_peak_rss_kb();
    let started_at = Instant::now();
    let registration = bx
        .start(launch.plan.bytes(), &launch.child_fds())
        .map_err(|e| other(format!("cannot start the program in its sandbox: {e}")))?;
    let Launch {
        io, address_space, ..
    } = launch;
    let mut streams = drain(io, ReportFrom::Socket(bx.ctl_fd()), &mut spec);
    let members = bx.cgroup_procs();
    let mut cpu = CpuWatch::new(bx.keeper_pid(), members, spec.limits.time, started_at);
    let stop = streams.collect(started_at + spec.limits.wall_clock(), &mut cpu);
    let seen_end = Instant::now();
    let events = bx.cgroup_events();
    // A run that must end early ends with its box (the keeper's death ends every process in
    // it); one that finished was reported once nothing of it was left.
    drop(registration);
    let bx = if stop == Stop::Finished {
        Some(bx)
    } else {
        drop(bx);
        None
    };
    streams.finish(Duration::from_millis(100));
    let report = Report::parse(&streams.report);
    let (collected, (exported, export_failures)) = match bx {
        Some(bx) if report.is_some() => {
            let collected = files::collect(&bx.work_path(), &spec.collect);
            let exported = files::export(&bx.work_path(), &spec.export, spec.limits.output_bytes);
            let ipc_left = report.is_some_and(|r| r.flags & FLAG_IPC_LEFT != 0);
            boxes::release(bx, ipc_left);
            (collected, exported)
        }
        // The box was killed, or its keeper died: it is gone.
        _ => (Vec::new(), (Vec::new(), Vec::new())),
    };
    let facts = Ended {
        stop,
        started_at,
        seen_end,
        report,
        events,
        rusage: None,
        watched_cpu: cpu.seen,
        runner_peak_kb,
        collected,
        exported,
        export_failures,
        address_space,
    };
    conclude(&argv0, spec.limits, streams, facts)
}

fn run_plain(
    mut spec: Spec<'_>,
    exe: &Path,
    hidden: &Hidden,
    cgroups: Option<&Cgroups>,
    tracing: bool,
) -> Result<Outcome, SpawnError> {
    let argv0 = spec.argv0().to_os_string();
    let other = |reason: String| SpawnError::other(&argv0, reason);
    let workdir = workdir::Slot::acquire()
        .map_err(|e| other(format!("cannot create a working folder: {e}")))?;
    let ids = workdir.lease.as_ref().map(identity::Lease::ids);
    // Without a mount namespace a box user reaches files through their real folders: a folder
    // the program is to be shown must be open to other users all the way (it cannot be copied
    // elsewhere, since the program names it by its path).
    if ids.is_some() {
        let closed = spec
            .program
            .show
            .iter()
            .find(|folder| !identity::reachable_by_others(folder, false));
        if let Some(folder) = closed {
            return Err(other(format!(
                "cannot show {} to the program: without a mount namespace it runs as a box user \
                 who reaches only what every user may read, and this folder, or one on the way to \
                 it, is closed to others; move it under a folder others may enter, or run where \
                 namespaces are allowed",
                folder.display()
            )));
        }
    }
    let (exe, argv) = if ids.is_some() {
        reachable(exe, &spec.program.argv, hidden).map_err(|e| other(e.to_string()))?
    } else {
        (exe.to_path_buf(), spec.program.argv.clone())
    };
    files::place_for(workdir.path(), spec.program, &spec.files, ids)
        .map_err(|e| other(format!("cannot place the run's files: {e}")))?;
    let landlock = crate::landlock::plain_view(&exe, &argv, spec.program, hidden, workdir.path())
        .map_err(|e| SpawnError::setup(&argv0, e))?;
    let (report_r, report_w) = crate::sys::pipe().map_err(|e| other(e.to_string()))?;
    // SAFETY: getpid and getpgrp have no preconditions.
    let runner = unsafe { (libc::getpid(), libc::getpgrp()) };
    // A box user's program is held by its cgroup: where that measures the run's peak, the
    // main process need not stop at its exit to have its memory read, as in a box.
    let no_exit_stop = tracing && ids.is_some() && cgroups.is_some_and(|c| c.peak);
    let target = Target {
        exe: exe.as_os_str(),
        argv: &argv,
        workdir: workdir.path().as_os_str(),
        identity: ids,
        cap_processes: ids.is_some(),
        boxed: false,
        box_cgroup: false,
        protect: Some(runner),
        flags: FLAG_CHECK_PARENT
            | trace_flags(tracing)
            | if landlock.is_some() { FLAG_LANDLOCK } else { 0 }
            | if no_exit_stop { FLAG_NO_EXIT_STOP } else { 0 },
    };
    let launch =
        Launch::new(&mut spec, &target, cgroups).map_err(|e| SpawnError::setup(&argv0, e))?;

    let runner_peak_kb = own_peak_rss_kb();
    let started_at = Instant::now();
    let cgroup_dir = launch.slot.as_ref().map(|s| s.memory_dir().to_path_buf());
    let members = cgroup_dir.as_ref().map(|dir| dir.join("cgroup.procs"));
    let fds = launch.child_fds();
    let Launch {
        plan,
        io,
        slot,
        address_space,
    } = launch;
    let landlock_fd = landlock.as_ref().map_or(-1, |fd| fd.as_raw_fd());
    let started = supervise::start(plan, &fds, (report_w.as_raw_fd(), landlock_fd), cgroup_dir)
        .map_err(|e| other(format!("cannot create a process: {e}")))?;
    drop((report_w, landlock));
    let mut streams = drain(io, ReportFrom::Pipe(report_r), &mut spec);
    let mut cpu = CpuWatch::new(started.pid, members, spec.limits.time, started_at);
    let stop = streams.collect(started_at + spec.limits.wall_clock(), &mut cpu);
    let seen_end = Instant::now();
    let usage = started.end(stop != Stop::Finished);
    streams.await_report(Duration::from_millis(100));
    streams.finish(Duration::from_millis(100));
    let mut events = end_cgroup(cgroups, slot);
    if ids.is_none() {
        // A program of grundy's own user may leave a cgroup grundy can write to: its peak is
        // the main process's, as the tracer reads it at the exit.
        if let Some(events) = &mut events {
            events.peak_bytes = None;
        }
    }
    let collected = files::collect(workdir.path(), &spec.collect);
    let (exported, export_failures) = match stop {
        Stop::Finished => files::export(workdir.path(), &spec.export, spec.limits.output_bytes),
        _ => (Vec::new(), Vec::new()),
    };
    let report = Report::parse(&streams.report);
    workdir.release(report.is_none_or(|r| r.flags & FLAG_LEFT != 0));
    let facts = Ended {
        stop,
        started_at,
        seen_end,
        report,
        events,
        rusage: Some(usage),
        watched_cpu: cpu.seen,
        runner_peak_kb,
        collected,
        exported,
        export_failures,
        address_space,
    };
    conclude(&argv0, spec.limits, streams, facts)
}

/// How the program is traced: not at all, or seized by its spawner (root may seize a child
/// that shares its non-dumpable memory), or asking to be traced itself.
fn trace_flags(tracing: bool) -> u32 {
    match (tracing, identity::is_root()) {
        (false, _) => 0,
        (true, true) => FLAG_TRACE | FLAG_SEIZE,
        (true, false) => FLAG_TRACE,
    }
}

/// PATH, HOME (the working folder) and LANG, then the caller's variables over them. Without a
/// box, TMPDIR is the working folder too: the host's /tmp is not the program's to write.
fn environment(caller: &[(OsString, OsString)], home: &OsStr, plain: bool) -> Vec<OsString> {
    let mut vars: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), DEFAULT_PATH.into()),
        ("HOME".into(), home.to_os_string()),
        ("LANG".into(), "C.UTF-8".into()),
    ];
    if plain {
        vars.push(("TMPDIR".into(), home.to_os_string()));
    }
    for (key, value) in caller {
        vars.retain(|(k, _)| k != key);
        vars.push((key.clone(), value.clone()));
    }
    vars.into_iter()
        .map(|(mut k, v)| {
            k.push("=");
            k.push(v);
            k
        })
        .collect()
}

fn cgroup_slot(cgroups: Option<&Cgroups>, memory: u64) -> Result<Option<CgroupSlot>, SetupError> {
    cgroups
        .map(|c| c.acquire(memory))
        .transpose()
        .map_err(SetupError::Cgroup)
}

fn end_cgroup(cgroups: Option<&Cgroups>, slot: Option<CgroupSlot>) -> Option<MemoryEvents> {
    let (c, slot) = (cgroups?, slot?);
    let events = slot.events(c.version);
    c.release(slot);
    Some(events)
}
