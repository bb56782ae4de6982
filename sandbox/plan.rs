//! Everything the program child needs after clone, prepared before it as one flat buffer: the
//! executable, argv and environment, the working folder, resource limits, the identity to take,
//! the seccomp filter. The same bytes are read in place by the plain supervisor (which shares
//! the runner's memory) and sent whole to a box keeper (a separate process), which reads them
//! without allocating: pointer arrays are stored as offsets and turned into pointers in place.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::mem::size_of;
use std::os::unix::ffi::OsStrExt;

use crate::command::SetupError;

/// Processes plus threads a judged program may have alive at once; more ends the run
/// (`End::ProcessLimit`) where tracing or a pids cgroup can tell.
pub(crate) const MAX_TASKS: u32 = 256;

/// mmap/mremap requests at least this large are watched for refusal (see `MLE rule` in lib.rs);
/// smaller refusals imply a peak address space within this distance of the limit.
pub(crate) const WATCHED_REQUEST: u64 = 4 << 20;

/// Descriptor numbers in the supervisor or keeper while it starts a program: the program's
/// stdin, stdout and stderr, then its cgroup.procs files, then the plain supervisor's report
/// pipe. (A keeper receives a run's descriptors at the lowest free numbers, 3 and up, which
/// is then already this layout.)
pub(crate) const FD_STDIN: i32 = 3;
pub(crate) const FD_STDOUT: i32 = 4;
pub(crate) const FD_STDERR: i32 = 5;
pub(crate) const FD_CGROUP: i32 = 6;
pub(crate) const MAX_CGROUP_FDS: usize = 2;
pub(crate) const FD_REPORT: i32 = FD_CGROUP + MAX_CGROUP_FDS as i32;
/// The Landlock ruleset a plain run's program enforces on itself (landlock.rs).
pub(crate) const FD_LANDLOCK: i32 = FD_REPORT + 1;

/// The largest plan a keeper accepts (argv and environment included).
pub(crate) const MAX_PLAN_BYTES: usize = 96 * 1024;

const MAGIC: u32 = 0x6772_756e;
pub(crate) const NO_ID: u32 = u32::MAX;
const MAX_RLIMITS: usize = 8;

/// Try to be traced by the spawner (ptrace); the run goes on untraced if that fails.
pub(crate) const FLAG_TRACE: u32 = 1;
/// Exit at once unless the parent is still `runner_pid` (the plain supervisor's child check).
pub(crate) const FLAG_CHECK_PARENT: u32 = 2;
/// The spawner seizes the child (PTRACE_SEIZE, no stop at exec) instead of the child asking to
/// be traced: only where the spawner may (root; see child.rs).
pub(crate) const FLAG_SEIZE: u32 = 4;
/// Enforce the Landlock ruleset at FD_LANDLOCK before exec (a plain run where the kernel has
/// Landlock).
pub(crate) const FLAG_LANDLOCK: u32 = 8;
/// Fail rather than run untraced (a box whose filter sends allocations to the tracer).
pub(crate) const FLAG_MUST_TRACE: u32 = 16;
/// The program's exits do not stop in its tracer: the box's cgroup measures its peak memory,
/// and the box's filter sends failing exits to the tracer (filter::FAILED_EXIT).
pub(crate) const FLAG_NO_EXIT_STOP: u32 = 32;

#[repr(C)]
#[derive(Clone, Copy)]
struct Header {
    magic: u32,
    len: u32,
    exe: u32,
    workdir: u32,
    argv: u32,
    argc: u32,
    envp: u32,
    envc: u32,
    filter: u32,
    filter_len: u32,
    traced_filter: u32,
    traced_filter_len: u32,
    rlimit_count: u32,
    uid: u32,
    gid: u32,
    flags: u32,
    cgroup_fds: u32,
    runner_pid: i32,
    rlimits: [Rlimit; MAX_RLIMITS],
}

/// One setrlimit call, laid out for the flat plan.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rlimit {
    pub resource: u32,
    _pad: u32,
    pub soft: u64,
    pub hard: u64,
}

impl Rlimit {
    pub(crate) fn new(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> Rlimit {
        Rlimit {
            resource,
            _pad: 0,
            soft,
            hard,
        }
    }

    pub(crate) fn as_libc(&self) -> libc::rlimit {
        libc::rlimit {
            rlim_cur: self.soft as libc::rlim_t,
            rlim_max: self.hard as libc::rlim_t,
        }
    }
}

/// What a plan is made of (runner side).
pub(crate) struct PlanInput<'a> {
    /// The file to exec, as the program will see it.
    pub exe: &'a OsStr,
    pub argv: &'a [OsString],
    /// `NAME=VALUE` entries.
    pub env: &'a [OsString],
    pub workdir: &'a OsStr,
    pub rlimits: Vec<Rlimit>,
    /// The seccomp filter for an untraced program, and for a traced one (which may send
    /// allocations to the tracer).
    pub filter: Vec<libc::sock_filter>,
    pub traced_filter: Vec<libc::sock_filter>,
    /// uid and gid to switch to (only when the runner is root).
    pub identity: Option<(u32, u32)>,
    pub flags: u32,
    pub cgroup_fds: usize,
}

/// A plan as bytes, 8-byte aligned.
pub(crate) struct Plan {
    words: Vec<u64>,
    len: usize,
}

impl Plan {
    /// Fails if a string contains a NUL byte or the plan is too large (the message says which).
    pub(crate) fn new(input: &PlanInput<'_>) -> Result<Plan, SetupError> {
        let exe = cstring(input.exe)?;
        let workdir = cstring(input.workdir)?;
        let argv = input
            .argv
            .iter()
            .map(|a| cstring(a))
            .collect::<Result<Vec<_>, _>>()?;
        let env = input
            .env
            .iter()
            .map(|a| cstring(a))
            .collect::<Result<Vec<_>, _>>()?;
        let rlimits: Vec<Rlimit> = input.rlimits.iter().copied().take(MAX_RLIMITS).collect();

        let round = |n: usize| n.div_ceil(8) * 8;
        let header_len = round(size_of::<Header>());
        let argv_at = header_len;
        let envp_at = argv_at + 8 * (argv.len() + 1);
        let filter_at = envp_at + 8 * (env.len() + 1);
        let instruction = size_of::<libc::sock_filter>();
        let traced_filter_at = filter_at + instruction * input.filter.len();
        let strings_at = round(traced_filter_at + instruction * input.traced_filter.len());
        let mut bytes = vec![0u8; strings_at];
        let mut slot_offsets = Vec::new();
        let push_string = |bytes: &mut Vec<u8>, s: &CString| {
            let at = bytes.len();
            bytes.extend_from_slice(s.as_bytes_with_nul());
            at as u64
        };
        let exe_at = push_string(&mut bytes, &exe);
        let workdir_at = push_string(&mut bytes, &workdir);
        for (slots, strings) in [(argv_at, &argv), (envp_at, &env)] {
            for (i, s) in strings.iter().enumerate() {
                slot_offsets.push((slots + 8 * i, push_string(&mut bytes, s)));
            }
        }
        if bytes.len() > MAX_PLAN_BYTES {
            return Err(SetupError::PlanTooLarge {
                bytes: bytes.len(),
                max: MAX_PLAN_BYTES,
            });
        }
        for (slot, offset) in slot_offsets {
            bytes[slot..slot + 8].copy_from_slice(&offset.to_ne_bytes());
        }
        for (start, filter) in [
            (filter_at, &input.filter),
            (traced_filter_at, &input.traced_filter),
        ] {
            for (i, ins) in filter.iter().enumerate() {
                let at = start + i * instruction;
                bytes[at..at + 2].copy_from_slice(&ins.code.to_ne_bytes());
                bytes[at + 2] = ins.jt;
                bytes[at + 3] = ins.jf;
                bytes[at + 4..at + 8].copy_from_slice(&ins.k.to_ne_bytes());
            }
        }
        let mut header = Header {
            magic: MAGIC,
            len: bytes.len() as u32,
            exe: exe_at as u32,
            workdir: workdir_at as u32,
            argv: argv_at as u32,
            argc: argv.len() as u32,
            envp: envp_at as u32,
            envc: env.len() as u32,
            filter: filter_at as u32,
            filter_len: input.filter.len() as u32,
            traced_filter: traced_filter_at as u32,
            traced_filter_len: input.traced_filter.len() as u32,
            rlimit_count: rlimits.len() as u32,
            uid: input.identity.map_or(NO_ID, |(uid, _)| uid),
            gid: input.identity.map_or(NO_ID, |(_, gid)| gid),
            flags: input.flags,
            cgroup_fds: input.cgroup_fds.min(MAX_CGROUP_FDS) as u32,
            // SAFETY: getpid has no preconditions.
            runner_pid: unsafe { libc::getpid() },
            rlimits: [Rlimit::default(); MAX_RLIMITS],
        };
        header.rlimits[..rlimits.len()].copy_from_slice(&rlimits);
        // SAFETY: Header is plain old data (repr(C), integers only); viewing it as bytes is sound.
        let header_bytes = unsafe {
            std::slice::from_raw_parts((&header as *const Header).cast::<u8>(), size_of::<Header>())
        };
        bytes[..header_bytes.len()].copy_from_slice(header_bytes);
        let len = bytes.len();
        let mut words = vec![0u64; len.div_ceil(8)];
        for (word, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            *word = u64::from_ne_bytes(w);
        }
        Ok(Plan { words, len })
    }

    /// The bytes to send to a keeper.
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: the words are initialised and at least `len` bytes long.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }

    /// The bytes in place, for a supervisor sharing this memory (it fixes them up itself).
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: the words are initialised and at least `len` bytes long.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

fn cstring(s: &OsStr) -> Result<CString, SetupError> {
    CString::new(s.as_bytes()).map_err(|_| SetupError::Nul(s.to_os_string()))
}

/// A plan ready to use: strings and null-terminated pointer arrays.
pub(crate) struct View<'a> {
    pub exe: &'a CStr,
    pub workdir: &'a CStr,
    pub argv: *const *const libc::c_char,
    pub envp: *const *const libc::c_char,
    pub filter: &'a [libc::sock_filter],
    pub traced_filter: &'a [libc::sock_filter],
    pub rlimits: &'a [Rlimit],
    pub identity: Option<(u32, u32)>,
    pub flags: u32,
    pub cgroup_fds: usize,
    pub runner_pid: i32,
}

impl View<'_> {
    /// Validates the plan in `buf` and turns its offset arrays into pointers, in place.
    /// Allocates nothing (keepers call it). None if the bytes are not a well-formed plan.
    ///
    /// # Safety
    /// `buf` must be 8-aligned, valid for reads and writes of `len` bytes, and stay alive and
    /// unchanged (apart from this call) while the returned view is used.
    pub(crate) unsafe fn fix_up<'a>(buf: *mut u8, len: usize) -> Option<View<'a>> {
        if len < size_of::<Header>() {
            return None;
        }
        // SAFETY: the buffer holds at least a header, and is aligned for it (8 ≥ align).
        let header = unsafe { *buf.cast::<Header>() };
        let total = header.len as usize;
        if header.magic != MAGIC || total > len || header.rlimit_count as usize > MAX_RLIMITS {
            return None;
        }
        // SAFETY: the caller gives us `len` ≥ `total` bytes for the view's lifetime.
        let bytes = unsafe { std::slice::from_raw_parts(buf, total) };
        let string_at = |offset: u64| -> Option<&'a CStr> {
            let rest = bytes.get(usize::try_from(offset).ok()?..)?;
            let s = CStr::from_bytes_until_nul(rest).ok()?;
            // SAFETY: `s` lies within the caller's buffer, alive for 'a.
            Some(unsafe { &*(s as *const CStr) })
        };
        let exe = string_at(u64::from(header.exe))?;
        let workdir = string_at(u64::from(header.workdir))?;
        let pointers = |at: u32, count: u32| -> Option<*const *const libc::c_char> {
            let (at, count) = (at as usize, count as usize);
            if at % 8 != 0 || at.checked_add(8 * (count + 1))? > total {
                return None;
            }
            for i in 0..=count {
                // SAFETY: in bounds (checked above) and 8-aligned (buf and `at` are).
                let slot = unsafe { buf.add(at + 8 * i).cast::<u64>() };
                // SAFETY: as above; the slot holds an offset written by Plan::new.
                let offset = unsafe { *slot };
                let pointer = if i == count {
                    0
                } else {
                    string_at(offset)?.as_ptr() as u64
                };
                // SAFETY: as above; we own the buffer for writing.
                unsafe { *slot = pointer };
            }
            // SAFETY: in bounds (checked above).
            Some(unsafe { buf.add(at) }.cast())
        };
        let argv = pointers(header.argv, header.argc)?;
        let envp = pointers(header.envp, header.envc)?;
        let filter_at = |at: u32, count: u32| -> Option<&'a [libc::sock_filter]> {
            let (at, count) = (at as usize, count as usize);
            if at % 4 != 0 || at.checked_add(count * size_of::<libc::sock_filter>())? > total {
                return None;
            }
            // SAFETY: in bounds and 4-aligned (checked above); sock_filter is plain data, and
            // the buffer lives for 'a.
            Some(unsafe {
                std::slice::from_raw_parts(buf.add(at).cast::<libc::sock_filter>(), count)
            })
        };
        let filter = filter_at(header.filter, header.filter_len)?;
        let traced_filter = filter_at(header.traced_filter, header.traced_filter_len)?;
        // SAFETY: the rlimits live in the header inside the buffer, alive for 'a.
        let rlimits = unsafe {
            let header = &*buf.cast::<Header>();
            std::slice::from_raw_parts(header.rlimits.as_ptr(), header.rlimit_count as usize)
        };
        Some(View {
            exe,
            workdir,
            argv,
            envp,
            filter,
            traced_filter,
            rlimits,
            identity: (header.uid != NO_ID).then_some((header.uid, header.gid)),
            flags: header.flags,
            cgroup_fds: header.cgroup_fds as usize,
            runner_pid: header.runner_pid,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_survives_the_trip_through_bytes() {
        let argv: Vec<OsString> = vec!["prog".into(), "a b".into(), "".into()];
        let env: Vec<OsString> = vec!["PATH=/usr/bin".into()];
        let filter = crate::filter::build(&crate::filter::Policy {
            trace_allocations: true,
            network_namespace: false,
            protect: None,
            ipc_namespace: false,
            memory_counted: false,
            failed_exits: false,
            program: true,
        });
        let plan = Plan::new(&PlanInput {
            exe: OsStr::new("/box/prog"),
            argv: &argv,
            env: &env,
            workdir: OsStr::new("/box"),
            rlimits: vec![Rlimit::new(libc::RLIMIT_CORE, 0, 0)],
            filter: Vec::new(),
            traced_filter: filter.clone(),
            identity: Some((60001, 60001)),
            flags: FLAG_TRACE,
            cgroup_fds: 1,
        })
        .unwrap();
        // As a keeper sees it: a copy in a buffer of its own.
        let mut copy = vec![0u64; plan.bytes().len().div_ceil(8)];
        // SAFETY: the destination has room for every byte.
        unsafe {
            std::ptr::copy_nonoverlapping(
                plan.bytes().as_ptr(),
                copy.as_mut_ptr().cast::<u8>(),
                plan.bytes().len(),
            )
        };
        // SAFETY: copy is 8-aligned and outlives the view.
        let view = unsafe { View::fix_up(copy.as_mut_ptr().cast(), plan.bytes().len()) }.unwrap();
        assert_eq!(view.exe.to_bytes(), b"/box/prog");
        assert_eq!(view.workdir.to_bytes(), b"/box");
        // SAFETY: argv is a null-terminated array of C strings inside `copy`.
        let args: Vec<&[u8]> = (0..)
            .map(|i| unsafe { *view.argv.add(i) })
            .take_while(|p| !p.is_null())
            .map(|p| unsafe { CStr::from_ptr(p) }.to_bytes())
            .collect();
        assert_eq!(args, [&b"prog"[..], b"a b", b""]);
        assert!(view.filter.is_empty());
        assert_eq!(view.traced_filter.len(), filter.len());
        assert_eq!(view.traced_filter[3].k, filter[3].k);
        assert_eq!(view.identity, Some((60001, 60001)));
        assert_eq!(view.rlimits.len(), 1);
        assert_eq!(view.cgroup_fds, 1);
        // Garbage is refused, not trusted.
        let mut junk = vec![0u64; 64];
        // SAFETY: junk is 8-aligned and alive.
        assert!(unsafe { View::fix_up(junk.as_mut_ptr().cast(), 512) }.is_none());
    }
}
