//! Boxes from the runner's side: making one (a keeper forked into fresh namespaces, given the
//! layout of its root and, as root, a box user of its own), handing it runs, and keeping it
//! for the next run of the same program instead of paying for namespaces, mounts and a user
//! per run. A box is reused only for the same program files (and working-folder size): its
//! root shows exactly those. Idle boxes are kept in a small pool; a box whose run could not
//! be ended cleanly is destroyed, and a new one made.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use crate::cgroup::{Cgroups, MemoryEvents, Slot as CgroupSlot};
use crate::identity::{self, Lease};
use crate::layout::{self, Bind};
use crate::{ctl, keeper, raw, registry, scrub};

/// How boxes work on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Support {
    /// grundy is not root: each box is also a user namespace.
    pub user_namespace: bool,
    /// The box has a /proc (a kernel may refuse it, e.g. under a container's masked /proc).
    pub proc: bool,
}

/// What a box is made for: the program files it shows, and the size of its writable part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Key {
    pub binds: Vec<Bind>,
    /// Folders inside shown ones that the box shows empty (their paths in the box).
    pub masks: Vec<PathBuf>,
    /// (dev, inode, size, mtime ns) of each bind source: a new version needs a new box.
    pub versions: Vec<(u64, u64, u64, i128)>,
    pub scratch_bytes: u64,
    /// Its programs are traced: the keeper's own filter then sends their big allocations to
    /// the tracer (the MLE rule), and a run adds no filter of its own.
    pub traced: bool,
    /// Its working folder is shown read-only (`Program::read_only_workdir`).
    pub read_only_workdir: bool,
}

/// One box: its keeper (our child, PID 1 of the box), the control socket, the scratch folder
/// holding its working folder and /tmp, and its user (as root).
pub(crate) struct Boxed {
    key: Key,
    keeper: libc::pid_t,
    ctl: OwnedFd,
    scratch: Option<OwnedFd>,
    /// The working folder and /tmp, kept open for a cheap look after each run.
    folders: Option<(File, File)>,
    /// The box's cgroup, which the keeper joined when it was made (so its programs are born
    /// in it: no run pays for moving a process between cgroups).
    cgroup: Option<(&'static Cgroups, CgroupSlot)>,
    /// Its programs do not stop at their exit: they are traced, the box's cgroup measures
    /// their peak memory, and its filter sends failing exits to the tracer.
    no_exit_stop: bool,
    lease: Option<Lease>,
}

const MAX_IDLE: usize = 16;
const READY_TIMEOUT: Duration = Duration::from_secs(20);

static IDLE: Mutex<Vec<Boxed>> = Mutex::new(Vec::new());

fn idle() -> MutexGuard<'static, Vec<Boxed>> {
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether boxes can be made here: makes one (showing no program files) and destroys it.
pub(crate) fn probe() -> io::Result<Support> {
    let key = Key {
        binds: Vec::new(),
        masks: Vec::new(),
        versions: Vec::new(),
        scratch_bytes: 1 << 20,
        traced: false,
        read_only_workdir: false,
    };
    let (_, failed_optional) = create(&key, None)?;
    Ok(Support {
        user_namespace: !identity::is_root(),
        proc: failed_optional == 0,
    })
}

/// An idle box for `key`, or a new one (in a cgroup of its own if `cgroups`).
pub(crate) fn acquire(key: &Key, cgroups: Option<&'static Cgroups>) -> io::Result<Boxed> {
    loop {
        let found = {
            let mut idle = idle();
            let at = idle.iter().rposition(|b| &b.key == key);
            at.map(|i| idle.remove(i))
        };
        match found {
            Some(b) if b.keeper_alive() => return Ok(b),
            Some(dead) => drop(dead), // killed while idle (e.g. by an administrator)
            None => return create(key, cgroups).map(|(b, _)| b),
        }
    }
}

/// A request to the threads that make boxes.
struct Request {
    key: Key,
    cgroups: Option<&'static Cgroups>,
    reply: mpsc::Sender<io::Result<(Boxed, u32)>>,
}

/// Makes a box on one of the threads that make them all. A keeper asks for SIGKILL when the
/// thread that created it ends (PR_SET_PDEATHSIG follows the creating thread, not the
/// process); those threads live as long as grundy, so the box ends exactly when grundy does.
/// There are a few of them (one per core, up to four): making a box is mostly waiting on the
/// kernel (new namespaces, moves into cgroups), and workers that start at once want theirs at
/// once.
fn create(key: &Key, cgroups: Option<&'static Cgroups>) -> io::Result<(Boxed, u32)> {
    static MAKER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    let maker = MAKER.get_or_init(|| {
        let (send, receive) = mpsc::channel::<Request>();
        let receive = std::sync::Arc::new(Mutex::new(receive));
        let makers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
        for _ in 0..makers {
            let receive = std::sync::Arc::clone(&receive);
            std::thread::Builder::new()
                .name("grundy-boxes".into())
                .spawn(move || loop {
                    // The lock is held only while waiting for the next request.
                    let next = receive.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(request) = next else { return };
                    let made = Boxed::create(&request.key, request.cgroups);
                    let _ = request.reply.send(made);
                })
                .expect("cannot start a thread that makes boxes");
        }
        Mutex::new(send)
    });
    let (reply, answer) = mpsc::channel();
    let request = Request {
        key: key.clone(),
        cgroups,
        reply,
    };
    let sent = maker
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(request);
    sent.map_err(|_| io::Error::other("the threads that make boxes are gone"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the threads that make boxes are gone"))?
}

/// Returns a box whose run ended cleanly to the pool, once it is verified clean: its working
/// folder and /tmp hold nothing but the box's own mount points (emptied if they held more, then
/// checked again). A box that cannot be verified clean (`dirty`: the keeper found IPC objects
/// left; or files that would not go) is destroyed instead, and the next run makes a new one:
/// nothing of one run is ever seen by the next.
pub(crate) fn release(b: Boxed, dirty: bool) {
    if dirty {
        return; // dropped: destroyed
    }
    let keep = |shown: &str| -> Vec<PathBuf> {
        b.key
            .binds
            .iter()
            .filter_map(|bind| bind.target.strip_prefix(shown).ok())
            .map(Path::to_path_buf)
            .collect()
    };
    let (work_keep, tmp_keep) = (keep(layout::WORKDIR), keep("/tmp"));
    let pristine = |b: &Boxed| {
        b.folders.as_ref().is_some_and(|(work, tmp)| {
            scrub::is_pristine(work, 0o755, &work_keep)
                && scrub::is_pristine(tmp, 0o1777, &tmp_keep)
        })
    };
    if !pristine(&b) {
        // Errors are not trusted either way: only the check that follows decides.
        let _ = scrub::empty(&b.work_path(), 0o755, &work_keep);
        let _ = scrub::empty(&b.scratch_path().join("tmp"), 0o1777, &tmp_keep);
        if !pristine(&b) {
            return; // dropped: destroyed
        }
    }
    let surplus = {
        let mut idle = idle();
        idle.push(b);
        let extra = idle.len().saturating_sub(MAX_IDLE);
        idle.drain(..extra).collect::<Vec<_>>()
    };
    drop(surplus);
}

impl Boxed {
    /// Forks a keeper into fresh namespaces and waits until it has built the box. Returns the
    /// box and how many optional steps (a /proc) failed.
    fn create(key: &Key, cgroups: Option<&'static Cgroups>) -> io::Result<(Boxed, u32)> {
        let root = identity::is_root();
        let lease = if root { Some(identity::claim()?) } else { None };
        let ops = layout::build(
            &key.binds,
            &key.masks,
            key.scratch_bytes,
            lease.as_ref().map(Lease::ids),
            key.read_only_workdir,
        )?;
        let (ours, theirs) = socketpair()?;
        let null = File::options().read(true).write(true).open("/dev/null")?;
        // SAFETY: getuid and getgid have no preconditions.
        let ids = unsafe { (libc::getuid(), libc::getgid()) };
        let memory_counted = cgroups.is_some_and(|c| c.memory);
        let no_exit_stop = key.traced && cgroups.is_some_and(|c| c.peak);
        let setup = keeper::Setup {
            ctl: theirs.as_raw_fd(),
            null: null.as_raw_fd(),
            map_ids: (!root).then_some(ids),
            ops: &ops,
            filter: &crate::filter::box_filter(memory_counted, key.traced, no_exit_stop),
            argv_area: argv_area(),
        };
        let mut flags = libc::CLONE_NEWPID
            | libc::CLONE_NEWNS
            | libc::CLONE_NEWNET
            | libc::CLONE_NEWIPC
            | libc::CLONE_NEWUTS
            | libc::SIGCHLD;
        if !root {
            flags |= libc::CLONE_NEWUSER;
        }
        // SAFETY: a fork (no CLONE_VM: the child gets a copy of our memory and runs on its copy
        // of this stack); the child only runs keeper::main, which uses raw system calls (other
        // threads may hold locks in the copy) and never returns.
        let pid = match unsafe { raw::call(libc::SYS_clone, [flags as usize, 0, 0, 0, 0, 0]) } {
            Ok(0) => keeper::main(&setup),
            Ok(pid) => pid as libc::pid_t,
            Err(errno) => {
                let why = io::Error::from_raw_os_error(errno);
                return Err(io::Error::other(format!(
                    "this machine refuses new namespaces: {why}"
                )));
            }
        };
        drop((theirs, null));
        let mut b = Boxed {
            key: key.clone(),
            keeper: pid,
            ctl: ours,
            scratch: None,
            folders: None,
            cgroup: None,
            no_exit_stop,
            lease,
        };
        if let Some(c) = cgroups {
            let slot = c.acquire(0)?;
            let joined = slot.join(pid);
            b.cgroup = Some((c, slot));
            joined?;
        }
        let failed = b.await_ready(&ops)?;
        Ok((b, failed))
    }

    fn await_ready(&mut self, ops: &[layout::Op]) -> io::Result<u32> {
        let mut pfd = libc::pollfd {
            fd: self.ctl.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        if raw::poll(
            std::slice::from_mut(&mut pfd),
            READY_TIMEOUT.as_millis() as i32,
        ) != Ok(1)
        {
            return Err(io::Error::other("the box keeper did not answer"));
        }
        let mut buf = [0u8; 64];
        let mut fds = [-1; ctl::MAX_FDS];
        let (len, nfds) = ctl::recv(self.ctl.as_raw_fd(), &mut buf, &mut fds)
            .map_err(io::Error::from_raw_os_error)?;
        let received: Vec<OwnedFd> = fds[..nfds]
            .iter()
            // SAFETY: descriptors just received, owned by nobody else.
            .map(|&fd| unsafe { OwnedFd::from_raw_fd(fd) })
            .collect();
        let word = |i: usize| u32::from_ne_bytes(buf[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        match ctl::tag(&buf[..len]) {
            ctl::READY if received.len() == 1 => {
                self.scratch = received.into_iter().next();
                let open = |name: &str| File::open(self.scratch_path().join(name));
                self.folders = Some((open("work")?, open("tmp")?));
                Ok(word(0))
            }
            ctl::SETUP_FAILED => {
                let step = word(0) as usize;
                let errno = io::Error::from_raw_os_error(word(1) as i32);
                let what = match ops.get(step) {
                    Some(op) => op.describe(ops),
                    None if step == u32::MAX as usize => "mapping its user ids".into(),
                    None => "making its mounts private".into(),
                };
                Err(io::Error::other(format!(
                    "building the box failed at {what}: {errno}"
                )))
            }
            _ => Err(io::Error::other(
                "the box keeper exited while building the box",
            )),
        }
    }

    /// Hands the keeper a run: the plan and the descriptors (stdin, stdout, stderr, cgroup.procs
    /// files). The keeper is registered for `kill_all_running` while the registration lives.
    pub(crate) fn start(&self, plan: &[u8], fds: &[RawFd]) -> io::Result<registry::Registration> {
        let registration = registry::register(registry::Target::Keeper { pid: self.keeper });
        ctl::send(self.ctl.as_raw_fd(), ctl::RUN, plan, fds)
            .map_err(io::Error::from_raw_os_error)?;
        Ok(registration)
    }

    /// The keeper's pid (in our PID namespace): the box's processes are its descendants.
    pub(crate) fn keeper_pid(&self) -> libc::pid_t {
        self.keeper
    }

    pub(crate) fn ctl_fd(&self) -> RawFd {
        self.ctl.as_raw_fd()
    }

    /// The box's user and group (as root).
    pub(crate) fn ids(&self) -> Option<(u32, u32)> {
        self.lease.as_ref().map(Lease::ids)
    }

    fn scratch_path(&self) -> PathBuf {
        let fd = self.scratch.as_ref().map_or(-1, |f| f.as_raw_fd());
        PathBuf::from(format!("/proc/self/fd/{fd}"))
    }

    /// Whether the keeper is still there (it is our child: it cannot be reaped behind our back).
    fn keeper_alive(&self) -> bool {
        let mut info = std::mem::MaybeUninit::<libc::siginfo_t>::zeroed();
        let options = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        // SAFETY: waitid writes into the siginfo we pass; WNOWAIT leaves the child unreaped.
        let got = unsafe {
            libc::waitid(
                libc::P_PID,
                self.keeper as libc::id_t,
                info.as_mut_ptr(),
                options,
            )
        };
        // SAFETY: zeroed above, filled by waitid when it succeeded.
        got == 0 && unsafe { info.assume_init().si_pid() } == 0
    }

    /// Sets the box's cgroup up for a run limited to `memory_bytes`.
    pub(crate) fn reset_cgroup(&mut self, memory_bytes: u64) -> io::Result<()> {
        match &mut self.cgroup {
            Some((c, slot)) => c.reset(slot, memory_bytes),
            None => Ok(()),
        }
    }

    /// The `cgroup.procs` of the box's cgroup (its keeper and its runs' processes), if any.
    pub(crate) fn cgroup_procs(&self) -> Option<std::path::PathBuf> {
        let (_, slot) = self.cgroup.as_ref()?;
        Some(slot.memory_dir().join("cgroup.procs"))
    }

    /// Whether the box has a cgroup (which limits its runs' memory).
    pub(crate) fn has_cgroup(&self) -> bool {
        self.cgroup.is_some()
    }

    /// Whether its programs run without an exit stop (see the field).
    pub(crate) fn no_exit_stop(&self) -> bool {
        self.no_exit_stop
    }

    /// What the box's cgroup saw since `reset_cgroup`.
    pub(crate) fn cgroup_events(&self) -> Option<MemoryEvents> {
        self.cgroup.as_ref().map(|(c, slot)| slot.events(c.version))
    }

    /// The working folder, as the runner reaches it.
    pub(crate) fn work_path(&self) -> PathBuf {
        self.scratch_path().join("work")
    }
}

impl Drop for Boxed {
    /// Ends the box: the keeper's death ends every process in its PID namespace (the kernel
    /// has killed and reaped them all when the keeper can be reaped), and with the last of
    /// them its mounts and network go.
    fn drop(&mut self) {
        let _ = raw::kill(self.keeper, libc::SIGKILL);
        let mut status = 0;
        // SAFETY: waiting for our own child.
        while unsafe { libc::waitpid(self.keeper, &mut status, 0) } < 0
            && crate::sys::errno() == libc::EINTR
        {}
        if let Some((c, slot)) = self.cgroup.take() {
            crate::cgroup::kill_members(slot.memory_dir());
            c.release(slot);
        }
    }
}

fn socketpair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [-1; 2];
    // SAFETY: fds is a valid array of two ints for socketpair to fill.
    crate::sys::cvt(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    // SAFETY: both descriptors were just created and are owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// This process's command line area (arg_start, arg_end from /proc/self/stat).
fn argv_area() -> Option<(usize, usize)> {
    static AREA: OnceLock<Option<(usize, usize)>> = OnceLock::new();
    *AREA.get_or_init(|| {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        // Field 3 (state) comes first after the command name; arg_start is field 48.
        let at = |n: usize| fields.get(n - 3)?.parse::<usize>().ok();
        Some((at(48)?, at(49)?))
    })
}
