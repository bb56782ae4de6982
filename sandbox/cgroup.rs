//! Per-run cgroups (v2, or v1 memory + pids hierarchies) where the runner may create them: a
//! memory limit for the whole process tree, a pids cap (root ignores RLIMIT_NPROC), OOM and
//! limit-hit counters for the MLE rule, and a way to kill every member. Cgroups are pooled and
//! reused (one per concurrent run) instead of made and removed per run; the pool is removed at
//! exit, and leftovers of runners that died are swept at the next start (liveness.rs: each
//! cgroup directory stays flock'ed by the grundy that made it).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::liveness::{self, LiveDir};
use crate::plan::MAX_TASKS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CgroupVersion {
    V1,
    V2,
}

/// What the cgroup saw during one run.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct MemoryEvents {
    pub oom_kills: u64,
    pub limit_reached: bool,
    /// How far the cgroup's usage rose above where it stood when the run began, where its
    /// peak can be reset per run: the run's peak memory as the limit counts it.
    pub peak_bytes: Option<u64>,
}

pub(crate) struct Cgroups {
    pub version: CgroupVersion,
    /// Whether memory is really charged here (some kernels mount the controller but account
    /// nothing); without it the cgroups only cap and kill processes.
    pub memory: bool,
    /// Whether a cgroup's peak usage can be reset before each run (v1; v2 from Linux 6.12),
    /// so that it measures one run: then a run's peak memory is read here, and a traced
    /// program need not stop at its exit to have it read from /proc.
    pub peak: bool,
    /// v1: [memory parent, pids parent (optional)]; v2: [parent].
    parents: Vec<PathBuf>,
    pool: Mutex<Vec<Slot>>,
}

/// One reusable cgroup (one directory per hierarchy), with the files read every run kept open
/// (cgroup files regenerate their content on a read at offset 0).
pub(crate) struct Slot {
    dirs: Vec<PathBuf>,
    _locks: Vec<LiveDir>,
    procs: Vec<File>,
    /// v1: memory.oom_control, memory.failcnt; v2: memory.events.
    counters: Vec<File>,
    /// v1: memory.max_usage_in_bytes; v2: memory.peak, where a write resets it (for this
    /// descriptor); None where it cannot be reset.
    peak: Option<File>,
    /// The usage the peak was reset to, before the run.
    peak_base: u64,
    limit: u64,
    oom_kills_before: u64,
    max_events_before: u64,
}

static CREATED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Not `grundy-<pid>-<n>` as older grundys named theirs (and swept by pid).
const PREFIX: &str = "grundy-box-";

impl Cgroups {
    /// Cgroups under the runner's own, if the controllers are there and writable.
    pub(crate) fn probe() -> Option<Cgroups> {
        let mounts = fs::read_to_string("/proc/self/mountinfo").ok()?;
        let membership = fs::read_to_string("/proc/self/cgroup").ok()?;
        let found = v2_parent(&mounts, &membership)
            .map(|p| (CgroupVersion::V2, vec![p]))
            .or_else(|| v1_parents(&mounts, &membership).map(|p| (CgroupVersion::V1, p)))?;
        let mut cgroups = Cgroups {
            version: found.0,
            memory: false,
            peak: false,
            parents: found.1,
            pool: Mutex::new(Vec::new()),
        };
        for parent in &cgroups.parents {
            sweep_stale(parent);
        }
        let slot = cgroups.create().ok()?;
        cgroups.memory = accounts_memory(&slot, cgroups.version);
        cgroups.peak = cgroups.memory && slot.peak.is_some();
        cgroups.release(slot);
        Some(cgroups)
    }

    /// A cgroup limited to `memory_bytes` (0 = unlimited), with its counters reset.
    pub(crate) fn acquire(&self, memory_bytes: u64) -> io::Result<Slot> {
        let pooled = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut slot = match pooled {
            Some(slot) => slot,
            None => self.create()?,
        };
        if self.memory {
            slot.prepare(self.version, memory_bytes)?;
        }
        Ok(slot)
    }

    /// Sets `slot`'s memory limit for the next run and resets its counters (a box's cgroup,
    /// which keeps its members between runs).
    pub(crate) fn reset(&self, slot: &mut Slot, memory_bytes: u64) -> io::Result<()> {
        if self.memory {
            slot.prepare(self.version, memory_bytes)?;
        }
        Ok(())
    }

    /// Returns `slot` to the pool once it holds no task at all: killed processes count against
    /// pids.max until they are reaped (by whoever inherited them), and a slot still charged with
    /// them would refuse the next run's forks. One that stays charged is left for the exit.
    pub(crate) fn release(&self, slot: Slot) {
        let until = Instant::now() + Duration::from_millis(500);
        while slot.tasks() > 0 {
            if Instant::now() > until {
                return;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(slot);
    }

    fn create(&self) -> io::Result<Slot> {
        let mut slot = Slot {
            dirs: Vec::new(),
            _locks: Vec::new(),
            procs: Vec::new(),
            counters: Vec::new(),
            peak: None,
            peak_base: 0,
            limit: u64::MAX,
            oom_kills_before: 0,
            max_events_before: 0,
        };
        for parent in &self.parents {
            let live = LiveDir::create(parent, PREFIX, 0o755)?;
            let dir = live.path().to_path_buf();
            slot._locks.push(live);
            CREATED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(dir.clone());
            register_cleanup();
            slot.procs.push(
                OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.procs"))?,
            );
            slot.dirs.push(dir);
        }
        let (pids_dir, pids_file) = match self.version {
            CgroupVersion::V2 => (&slot.dirs[0], "pids.max"),
            CgroupVersion::V1 => (slot.dirs.last().unwrap_or(&slot.dirs[0]), "pids.max"),
        };
        if pids_dir.join(pids_file).exists() {
            write_file(&pids_dir.join(pids_file), &(MAX_TASKS + 2).to_string())?;
        }
        if self.version == CgroupVersion::V2 && slot.dirs[0].join("memory.swap.max").exists() {
            write_file(&slot.dirs[0].join("memory.swap.max"), "0")?;
        }
        let counters: &[&str] = match self.version {
            CgroupVersion::V1 => &["memory.oom_control", "memory.failcnt"],
            CgroupVersion::V2 => &["memory.events"],
        };
        for name in counters {
            slot.counters.push(
                OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(slot.dirs[0].join(name))?,
            );
        }
        // Opening for writing fails where the file cannot be reset (kernfs refuses a write
        // open of a file without a write handler, root included).
        slot.peak = OpenOptions::new()
            .read(true)
            .write(true)
            .open(slot.dirs[0].join(peak_file(self.version)))
            .ok();
        Ok(slot)
    }
}

impl Slot {
    /// The cgroup.procs descriptors the program child writes "0" to before exec.
    pub(crate) fn procs_fds(&self) -> Vec<RawFd> {
        self.procs.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Moves process `pid` (and later its children) into this cgroup.
    pub(crate) fn join(&self, pid: libc::pid_t) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        for file in &self.procs {
            file.write_at(pid.to_string().as_bytes(), 0)?;
        }
        Ok(())
    }

    /// Tasks charged to the pids controller (0 without one).
    fn tasks(&self) -> u64 {
        let pids = self.dirs.iter().rev().map(|d| d.join("pids.current"));
        pids.filter_map(|p| fs::read_to_string(p).ok())
            .find_map(|text| text.trim().parse().ok())
            .unwrap_or(0)
    }

    pub(crate) fn memory_dir(&self) -> &Path {
        &self.dirs[0]
    }

    fn prepare(&mut self, version: CgroupVersion, memory_bytes: u64) -> io::Result<()> {
        let dir = self.dirs[0].clone();
        if self.limit != memory_bytes {
            let (file, value) = match (version, memory_bytes) {
                (CgroupVersion::V1, 0) => ("memory.limit_in_bytes", "-1".to_string()),
                (CgroupVersion::V2, 0) => ("memory.max", "max".to_string()),
                (CgroupVersion::V1, n) => ("memory.limit_in_bytes", n.to_string()),
                (CgroupVersion::V2, n) => ("memory.max", n.to_string()),
            };
            write_file(&dir.join(file), &value)?;
            self.limit = memory_bytes;
        }
        match version {
            CgroupVersion::V1 => {
                std::os::unix::fs::FileExt::write_at(&self.counters[1], b"0", 0)?;
                self.oom_kills_before = self.counter(0, "oom_kill ");
            }
            CgroupVersion::V2 => {
                self.oom_kills_before = self.counter(0, "oom_kill ");
                self.max_events_before = self.counter(0, "max ");
            }
        }
        if let Some(peak) = &self.peak {
            // Any write resets the peak to the current usage (v2: as this descriptor reads it).
            std::os::unix::fs::FileExt::write_at(peak, b"0", 0)?;
            self.peak_base = read_number(peak);
        }
        Ok(())
    }

    /// A `key value` line of the `index`th counters file (the whole file for a bare number).
    fn counter(&self, index: usize, key: &str) -> u64 {
        use std::os::unix::fs::FileExt;
        if key.is_empty() {
            return read_number(&self.counters[index]);
        }
        let mut buf = [0u8; 1024];
        let n = self.counters[index].read_at(&mut buf, 0).unwrap_or(0);
        crate::sys::field_u64(&buf[..n], key.as_bytes()).unwrap_or(0)
    }

    /// What happened to memory since `prepare`.
    pub(crate) fn events(&self, version: CgroupVersion) -> MemoryEvents {
        if self.counters.is_empty() || self.limit == u64::MAX {
            return MemoryEvents::default(); // memory not accounted here
        }
        let oom_kills = self
            .counter(0, "oom_kill ")
            .saturating_sub(self.oom_kills_before);
        let limit_reached = match version {
            CgroupVersion::V1 => self.counter(1, "") > 0,
            CgroupVersion::V2 => self.counter(0, "max ") > self.max_events_before,
        };
        MemoryEvents {
            oom_kills,
            limit_reached,
            peak_bytes: self
                .peak
                .as_ref()
                .map(|peak| read_number(peak).saturating_sub(self.peak_base)),
        }
    }
}

/// The file of a cgroup's peak memory usage.
fn peak_file(version: CgroupVersion) -> &'static str {
    match version {
        CgroupVersion::V1 => "memory.max_usage_in_bytes",
        CgroupVersion::V2 => "memory.peak",
    }
}

/// The number a single-value cgroup file holds (0 if it cannot be read).
fn read_number(file: &File) -> u64 {
    let mut buf = [0u8; 32];
    let n = std::os::unix::fs::FileExt::read_at(file, &mut buf, 0).unwrap_or(0);
    std::str::from_utf8(&buf[..n])
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0)
}

/// Whether a process in `slot` that touches 1 MiB shows up in the cgroup's peak usage.
fn accounts_memory(slot: &Slot, version: CgroupVersion) -> bool {
    const TOUCH: usize = 1 << 20;
    let procs = slot.procs_fds();
    // SAFETY: after fork the child only makes async-signal-safe calls and writes to a mapping
    // of its own; the parent reaps it.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            for &fd in &procs {
                libc::write(fd, b"0".as_ptr().cast(), 1);
            }
            let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS;
            let rw = libc::PROT_READ | libc::PROT_WRITE;
            let p = libc::mmap(std::ptr::null_mut(), TOUCH, rw, flags, -1, 0);
            if p != libc::MAP_FAILED {
                for offset in (0..TOUCH).step_by(4096) {
                    p.cast::<u8>().add(offset).write_volatile(1);
                }
            }
            libc::_exit(0);
        }
        if pid < 0 {
            return false;
        }
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
    }
    match fs::read_to_string(slot.dirs[0].join(peak_file(version))) {
        Ok(text) => text.trim().parse::<usize>().is_ok_and(|n| n >= TOUCH / 2),
        // memory.peak is new (Linux 5.19); trust older v2 kernels.
        Err(_) => version == CgroupVersion::V2,
    }
}

/// SIGKILLs every member of the cgroup until it is empty (forks racing the kill are bounded
/// by pids.max). Gives up after a second.
pub(crate) fn kill_members(dir: &Path) {
    let until = Instant::now() + Duration::from_secs(1);
    let kill_file = dir.join("cgroup.kill");
    loop {
        let members = fs::read_to_string(dir.join("cgroup.procs")).unwrap_or_default();
        if members.trim().is_empty() || Instant::now() > until {
            return;
        }
        if kill_file.exists() {
            let _ = write_file(&kill_file, "1");
        } else {
            // A member in a PID namespace we cannot see is listed as 0, and kill(0) would hit
            // our own process group: only positive pids are members we can name.
            let pids = members.lines().filter_map(|l| l.trim().parse::<i32>().ok());
            for pid in pids.filter(|&pid| pid > 0) {
                // The pid is a cgroup member, which cannot be reused while it is listed there.
                let _ = crate::raw::kill(pid, libc::SIGKILL);
            }
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

fn write_file(path: &Path, value: &str) -> io::Result<()> {
    OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all(value.as_bytes())
}

/// `<cgroup2 mount>/<our cgroup>` if its children get the memory controller.
fn v2_parent(mounts: &str, membership: &str) -> Option<PathBuf> {
    let mount = mount_points(mounts, |fstype, _| fstype == "cgroup2").next()?;
    let own = membership.lines().find_map(|l| l.strip_prefix("0::"))?;
    let parent = mount.join(own.trim_start_matches('/'));
    let enabled = |p: &Path| {
        fs::read_to_string(p.join("cgroup.subtree_control"))
            .is_ok_and(|s| s.split_whitespace().any(|c| c == "memory"))
    };
    if !enabled(&parent) {
        // Only possible where we are not a member ourselves (the "no internal processes"
        // rule), e.g. at the root; harmless to try.
        let _ = write_file(&parent.join("cgroup.subtree_control"), "+memory +pids");
    }
    enabled(&parent).then_some(parent)
}

/// `[memory parent, pids parent]` (pids optional) for cgroup v1.
fn v1_parents(mounts: &str, membership: &str) -> Option<Vec<PathBuf>> {
    let find = |controller: &str| {
        let mount = mount_points(mounts, |fstype, options| {
            fstype == "cgroup" && options.split(',').any(|o| o == controller)
        })
        .next()?;
        let own = membership.lines().find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == controller)
                .then_some(path)
        })?;
        Some(mount.join(own.trim_start_matches('/')))
    };
    let mut parents = vec![find("memory")?];
    parents.extend(find("pids"));
    Some(parents)
}

/// Mount points from /proc/self/mountinfo whose filesystem type and super options match.
fn mount_points<'a>(
    mountinfo: &'a str,
    wanted: impl Fn(&str, &str) -> bool + 'a,
) -> impl Iterator<Item = PathBuf> + 'a {
    mountinfo.lines().filter_map(move |line| {
        let (before, after) = line.split_once(" - ")?;
        let mount_point = before.split(' ').nth(4)?;
        let mut after = after.split(' ');
        let (fstype, options) = (after.next()?, after.nth(1)?);
        wanted(fstype, options).then(|| PathBuf::from(mount_point))
    })
}

/// Removes `grundy-*` cgroups whose grundy is gone (no process holds them locked).
fn sweep_stale(parent: &Path) {
    liveness::sweep(parent, PREFIX, |dir| {
        kill_members(dir);
        let _ = fs::remove_dir(dir);
    });
}

fn register_cleanup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: remove_created is a plain extern "C" fn with no arguments.
        unsafe { libc::atexit(remove_created) };
    });
}

/// At exit: empty and remove every cgroup this process made.
extern "C" fn remove_created() {
    let dirs = std::mem::take(&mut *CREATED.lock().unwrap_or_else(|e| e.into_inner()));
    for dir in dirs.iter().rev() {
        kill_members(dir);
        let _ = fs::remove_dir(dir);
    }
}
