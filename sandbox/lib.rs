//! Runs one untrusted program (a contestant's binary, a script, a checker) under time, memory
//! and output limits, in a box it cannot see out of, and says how it ended. It is the only
//! part of grundy that starts judged programs; it knows nothing about problems, checkers or
//! reports, and decides no verdicts beyond the facts (an exit status, a limit hit).
//!
//! # The box
//! Where the machine allows it ([`Containment::PidNamespace`]) each run happens in a *box*:
//! PID, mount, network, IPC and UTS namespaces of its own (inside a user namespace when grundy
//! is not root), whose first process is a small keeper that starts and traces the program and,
//! when its main process ends, kills everything else in the box. A program sees:
//! - a root folder with read-only system folders (`/usr`, `/lib`, `/lib64`, `/bin`, `/sbin`,
//!   `/etc`), a minimal `/dev` (null, zero, full, random, urandom), its own `/proc`, a writable
//!   `/tmp` and an empty writable working folder `/box` (its cwd and HOME), both on one tmpfs
//!   capped at the memory limit;
//! - read-only its own files: the executable, its `#!` interpreter and every absolute path
//!   among its arguments that exists, at their own paths (so argv and messages stay as typed),
//!   with an empty read-only folder over each folder of [`Program::hide`] inside them (see
//!   "What a program never sees");
//! - its input on stdin, always through a pipe (never a host file it could `readlink`);
//! - the environment `PATH=/usr/local/bin:/usr/bin:/bin`, `HOME=/box`, `LANG=C.UTF-8`, plus
//!   what the caller passes ([`Spec::env`]);
//!
//! and nothing else: not the fixtures or expected outputs, not grundy's memory, environment
//! or descriptors, no network (a network namespace with nothing in it, and a seccomp filter
//! allowing only Unix sockets), no other process. When grundy runs as root the program runs as
//! a box user of its own (uid 60000 and up, one per concurrent box, claimed for every grundy on
//! the machine through locks in `/run/grundy`, never one that runs a process or owns a shared
//! file grundy did not make; see [`set_uid_range`]), with no capabilities and
//! `no_new_privs`; otherwise as grundy's user inside the user namespace, with no capabilities.
//! Files it could not read as that user (a binary under umask 077) are shown through a private
//! readable copy.
//!
//! Boxes are reused for the next run of the same program files: namespaces, mounts, user and
//! keeper are made once, and emptied working folders reused, so a run costs little more than
//! a fork and exec (see `examples/overhead.rs`). A box is reused only when it is verifiably
//! clean: its working folder and /tmp emptied (scrub.rs: any depth, without recursion) and
//! checked again, and no System V IPC object left in its IPC namespace; otherwise it is
//! destroyed. A run that must end early (a time or output limit, [`Cancel`],
//! [`kill_all_running`]) ends with its whole box; the next run makes one.
//!
//! Without namespaces ([`Containment::Cgroup`], [`Containment::ProcessGroup`]) the program
//! runs on the host's filesystem in a temporary working folder (`$TMPDIR/grundy-work-*`, also
//! its `TMPDIR`), still as a box user when grundy is root (its files are then copied where that
//! user can reach them, if it could not), under the same seccomp filter, which there also
//! refuses every socket, System V IPC, `kill(-1)` and any signal aimed at grundy's pid or
//! process group. Where the kernel has Landlock (landlock.rs) the program may read only the
//! system folders, `/proc`, a few devices and its own files, and write only its working folder;
//! elsewhere a box user's files in the host's shared temporary folders are removed after each
//! run. [`guarantees`] says, item by item, what this machine gives; [`describe_containment`]
//! sums it up in a line.
//!
//! # What a program never sees
//! [`Program::hide`] names host folders the program must never see, whatever its command line
//! names (the runner's answers to the cases judged). A path it is shown (its executable, its
//! interpreter, an argument, a folder of [`Program::show`]) that is such a folder or lies in one,
//! by any name (a link, `..`, a bind mount of the same folder elsewhere), is refused:
//! [`SetupError::Hidden`], or [`check_hidden`] once before many runs. A shown folder that holds
//! one (or a system folder that does) shows it empty: in a box an empty read-only tmpfs is
//! mounted over it; under Landlock every other entry on the way to it is granted one by one
//! instead of the folder (so the folders on the way cannot be listed); a readable copy (as root)
//! leaves it out. Where neither is possible (no namespaces, no Landlock) a shown folder holding
//! one is refused.
//!
//! # Leftovers
//! A grundy that dies leaves nothing running (a box ends with its keeper, which the kernel
//! kills when grundy dies; a plain run's processes are traced with PTRACE_O_EXITKILL). Its
//! working folders, cgroups and copies are swept by the next grundy: each is flock'ed by the
//! grundy using it for as long as it lives, and only unlocked ones are removed, so a live
//! grundy's are safe even from a grundy in another PID namespace.
//!
//! # Nothing shared between runs
//! Every box shows the same system files, so the seccomp filter refuses what would let two runs
//! signal each other through them: file locks (`flock`, `fcntl` locks, `F_NOTIFY`), `inotify`,
//! `fanotify` and `mincore`. No POSIX message queue can be made (RLIMIT_MSGQUEUE 0). Without a
//! box, `ptrace`, `process_vm_readv`/`writev`, `pidfd_getfd` and `kcmp` are refused (in a box
//! nothing but the run's own processes is in reach). Where no cgroup counts
//! a run's memory, `memfd_create` and System V shared memory are refused too (memory outside
//! the address-space limit).
//!
//! # Limits
//! CPU time decides: [`Limits::time`] is the CPU time of every process of the run together,
//! watched while it runs (cpu_watch.rs: SIGKILL soon after it is passed) and counted exactly
//! once it is over ([`End::TimeLimit`] with [`Clock::Cpu`]); [`Limits::wall`] is a wall-clock
//! backstop for a program that sleeps or blocks ([`Clock::Wall`]), and RLIMIT_CPU per process
//! the last one. RLIMIT_AS = the memory
//! limit (except for a [`Program`] that `reserves_address_space`, where a cgroup holds the
//! memory limit alone), an unlimited stack (recursion may use the whole memory limit, as on judges), a cgroup
//! memory limit for the whole process tree where cgroups are writable, RLIMIT_FSIZE = 4 × the
//! output limit, no core dumps, at most 256 tasks (traced forks, a pids cgroup, or
//! RLIMIT_NPROC for a user of the box's own). [`Outcome::cpu_time`] is every process's of the
//! run: a box's keeper (PID 1, which adopts orphans) and a plain run's supervisor (a subreaper,
//! which kills the traced tasks left when the main process ends) reap them all and count their
//! children's time; only an untraced plain run counts just the main process and the
//! descendants it waited for. Limits above the runner's own hard limits are
//! lowered to them. Every descendant ends with the run: the box's PID namespace, or the
//! cgroup, or the tracer (PTRACE_O_EXITKILL; the filter refuses CLONE_UNTRACED and answers
//! `clone3` with ENOSYS so every task is traced).
//!
//! # The MLE rule
//! A run is [`End::MemoryLimit`] if the cgroup's OOM killer fired, or if the program failed
//! (non-zero exit or a signal) and its memory ran out: an mmap/mremap of 4 MiB or more was
//! refused with ENOMEM (seen by the tracer), or its peak address space (VmPeak) came within
//! 4 MiB of the limit (how any smaller refused request looks), or the cgroup reached its limit.
//! So a C++ `bad_alloc` abort, a Rust allocation failure or Python's MemoryError at the limit
//! is MLE, while a program that handles a refused allocation and exits 0 is judged on its
//! output. Where tracing is unavailable (Yama ptrace_scope 3, the runner itself being traced)
//! only the peak RSS from wait4 is left, and it is used in place of VmPeak. VmPeak is read
//! where the tracer stops the program: at its exit; or, where a cgroup that measures the run's
//! peak memory holds the program (a box's, or a plain run's as a box user), only at the ends
//! that can fail (a signal, an `exit` or `exit_group` whose status is not 0, which the
//! program's filter sends to the tracer), so a run that ends well costs no stop (a tenth of a
//! tiny run's time).
//!
//! # Peak memory
//! [`Outcome::peak_memory_bytes`] is what the cgroup counted where one measures the run (its
//! usage's peak above where it stood at the start: every process of the run, as the limit
//! counts them, in the kernel's charge batches: up to 256 KiB per CPU may have been charged
//! ahead, so a run can show that much less than it touched, and page cache charged before the
//! run and reclaimed during it is taken off its peak; the cache is not reclaimed before a run,
//! since the pages of a program's own files would then be read and charged again by every run,
//! and a run failing with its usage at the limit is judged MLE); elsewhere the main process's peak resident memory (VmHWM, read by the
//! tracer) less its file-backed part (RssFile: the executable and shared libraries, which a
//! cgroup charged to whoever first read them, not to the run), or wait4's ru_maxrss where that
//! can be told apart from the spawner's own. One rule: the run's own memory. A run ended [`End::MemoryLimit`] needed at least the
//! limit: its peak is never less than the limit, whatever it held when refused or ended.
//!
//! # Programs that do not fit
//! A judged program cannot use ptrace itself (it is already traced; LeakSanitizer needs it),
//! nor 32-bit system calls, namespaces or io_uring; address-space hungry runtimes (ASan, the
//! JVM) need a memory limit far above what they touch, as on any judge that limits RLIMIT_AS,
//! unless they are marked `reserves_address_space` and a cgroup limits the run.
//! A program that needs files outside the system folders (a runtime installed under /opt, a
//! library found through an rpath) must be given them as arguments or run through a wrapper
//! that lives in the system folders.
//!
//! # The runner's own protection
//! The first run makes the calling process non-dumpable (`PR_SET_DUMPABLE 0`): programs of
//! the same user cannot open its `/proc/<pid>/mem`, `environ` or descriptors; core dumps of
//! the runner are off from then on. Its command line is blanked in the keepers' copies of its
//! memory. The runner must not ignore SIGCHLD (children would reap themselves), and should
//! ignore SIGPIPE (Rust programs do): a program that exits without reading its stdin closes
//! the pipe the runner feeds.

mod boxes;
mod cgroup;
mod child;
mod command;
mod containment;
mod cpu_watch;
mod ctl;
mod drain;
mod files;
mod filter;
mod guarantees;
mod hidden;
mod identity;
mod keeper;
mod landlock;
mod layout;
mod liveness;
mod outcome;
mod own_files;
mod plan;
mod raw;
mod registry;
mod report;
mod rlimits;
mod run;
mod scrub;
mod spec;
mod stage;
mod stdio;
mod supervise;
mod sys;
mod thread_clock;
mod trace;
mod verdict;
mod view;
mod workdir;

pub use command::{SetupError, SpawnError};
pub use containment::Containment;
pub use guarantees::{guarantees, guarantees_of, Guarantees};
pub use hidden::HiddenError;
pub use identity::set_uid_range;
pub use outcome::{Clock, End, ExportError, ExportFailure, Outcome};
pub use registry::kill_all_running;
pub use run::DEFAULT_PATH;
pub use spec::{BoxFile, BoxFileKind, Cancel, Limits, Program, SharedFile, Spec, Stdin, Stdout};
pub use thread_clock::ThreadClock;
pub use verdict::signal_name;

/// The mechanism [`run`] uses on this machine (probed once, then cached).
pub fn containment() -> Containment {
    containment::probe().best()
}

/// One line for `check -v`: the containment and what backs the limits, e.g.
/// "PID namespace (in a user namespace), own root folder and network, no writable cgroup,
/// allocation tracing".
pub fn describe_containment() -> String {
    containment::probe().describe()
}

/// Whether `program` can run here without being shown a folder its [`Program::hide`] names:
/// every run checks it (a run that would is refused with [`SetupError::Hidden`]); a caller about
/// to start many runs asks once, for one error before any of them. (Its executable is looked up
/// in the default PATH; an executable that is not found is left to the run to report.)
pub fn check_hidden(program: &Program) -> Result<(), HiddenError> {
    let argv0 = program
        .argv
        .first()
        .map(|a| a.as_os_str())
        .unwrap_or_default();
    let Ok(exe) = command::resolve(argv0, std::ffi::OsStr::new(DEFAULT_PATH)) else {
        return Ok(());
    };
    let probe = containment::probe();
    let boxed = probe.best() == Containment::PidNamespace;
    hidden::check(program, &exe, boxed || landlock::abi() > 0).map(drop)
}

/// Runs `spec` under the strongest containment this machine offers. Safe to call from many
/// threads at once. Errors only when the program cannot be started at all.
pub fn run(spec: Spec<'_>) -> Result<Outcome, SpawnError> {
    run_with(spec, containment())
}

/// [`run`] with a given containment, e.g. to test a weaker one; an error if this machine does
/// not offer it.
pub fn run_with(spec: Spec<'_>, containment: Containment) -> Result<Outcome, SpawnError> {
    protect_runner();
    run::run(spec, containment)
}

/// Makes this process non-dumpable (once): see "The runner's own protection".
pub(crate) fn protect_runner() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = raw::prctl(libc::PR_SET_DUMPABLE, 0, 0);
    });
}
