//! Building the list of operations: mounts with the flags a user namespace lets them keep,
//! the writable scratch part, and the C strings the keeper needs.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::{Op, WORKDIR};

pub(super) struct Builder {
    pub ops: Vec<Op>,
    /// Sources bound so far (they are used in the order they were opened).
    pub sources: usize,
}

impl Builder {
    pub(super) fn push(&mut self, op: Op) {
        self.ops.push(op);
    }

    pub(super) fn mkdir(&mut self, path: &Path, mode: u32) -> io::Result<()> {
        self.push(Op::Mkdir {
            path: c(path)?,
            mode,
        });
        Ok(())
    }

    pub(super) fn mount_tmpfs(&mut self, target: &Path, options: &str) -> io::Result<()> {
        self.push(Op::Mount {
            source: c(Path::new("grundy-box"))?,
            target: c(target)?,
            fstype: Some(c(Path::new("tmpfs"))?),
            flags: libc::MS_NOSUID | libc::MS_NODEV,
            data: Some(c(Path::new(options))?),
            optional: false,
        });
        Ok(())
    }

    /// The writable part: one tmpfs of `bytes` with `work` (the working folder, owned by the
    /// box user) and `tmp` (1777), bound at /box and /tmp; the tmpfs itself is unmounted from
    /// the tree (the runner keeps a descriptor of it to place and collect files). With
    /// `read_only_work`, /box is a read-only bind: the runner still places files in `work`
    /// through its descriptor, and the program can only read them.
    pub(super) fn scratch(
        &mut self,
        root: &Path,
        bytes: u64,
        owner: Option<(u32, u32)>,
        read_only_work: bool,
    ) -> io::Result<()> {
        let scratch = root.join(".scratch");
        self.mkdir(&scratch, 0o755)?;
        let inodes = (bytes / 4096).clamp(1024, 65_536);
        self.mount_tmpfs(
            &scratch,
            &format!("size={bytes},nr_inodes={inodes},mode=0755"),
        )?;
        self.mkdir(&scratch.join("work"), 0o755)?;
        if let Some((uid, gid)) = owner {
            self.push(Op::Chown {
                path: c(&scratch.join("work"))?,
                uid,
                gid,
            });
        }
        self.mkdir(&scratch.join("tmp"), 0o1777)?;
        self.push(Op::Chmod {
            path: c(&scratch.join("tmp"))?,
            mode: 0o1777,
        });
        for (inner, shown) in [("work", WORKDIR), ("tmp", "/tmp")] {
            let target = root.join(shown.trim_start_matches('/'));
            self.mkdir(&target, 0o755)?;
            self.push(Op::Mount {
                source: c(&scratch.join(inner))?,
                target: c(&target)?,
                fstype: None,
                flags: libc::MS_BIND,
                data: None,
                optional: false,
            });
            if inner == "work" && read_only_work {
                self.remount_read_only(&target, libc::MS_NODEV)?;
            }
        }
        self.push(Op::OpenScratch { path: c(&scratch)? });
        self.push(Op::Unmount { path: c(&scratch)? });
        self.push(Op::Rmdir { path: c(&scratch)? });
        Ok(())
    }

    /// Makes the mount at `target` read-only and nosuid, with the mount flags `keep` too (bind
    /// flags apply on a remount only, and a user namespace may not lift a mount's restrictions).
    pub(super) fn remount_read_only(&mut self, target: &Path, keep: u64) -> io::Result<()> {
        self.push(Op::Mount {
            source: c(Path::new("none"))?,
            target: c(target)?,
            fstype: None,
            flags: libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | keep,
            data: None,
            optional: false,
        });
        Ok(())
    }

    /// Binds the next opened source (`source` is only checked against the order).
    pub(super) fn bind(&mut self, source: &Path, target: &Path, recursive: bool) -> io::Result<()> {
        debug_assert!(matches!(
            self.ops.get(self.sources),
            Some(Op::OpenSource { path }) if path.as_bytes() == source.as_os_str().as_bytes()
        ));
        self.push(Op::Bind {
            source: self.sources,
            target: c(target)?,
            recursive,
        });
        self.sources += 1;
        Ok(())
    }

    /// A bind, then a remount that makes it read-only (bind flags only apply on a remount),
    /// keeping the source mount's own restrictions (a user namespace may not lift them).
    pub(super) fn bind_read_only(
        &mut self,
        source: &Path,
        target: &Path,
        recursive: bool,
        nodev: bool,
    ) -> io::Result<()> {
        self.bind(source, target, recursive)?;
        let kept = kept_flags(source)?;
        let nodev = if nodev { libc::MS_NODEV } else { 0 };
        self.remount_read_only(target, nodev | kept)?;
        Ok(())
    }
}

/// The mount flags of the mount holding `path` that a remount must keep: nosuid, nodev,
/// noexec and the atime mode.
fn kept_flags(path: &Path) -> io::Result<u64> {
    let cpath = c(path)?;
    // SAFETY: statvfs is plain data; statvfs(3) fills it from a NUL-terminated path.
    let st = unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(cpath.as_ptr(), &mut st) != 0 {
            return Err(io::Error::last_os_error());
        }
        st
    };
    let f = st.f_flag;
    let mut flags = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
    ] {
        if f & st_flag != 0 {
            flags |= ms_flag;
        }
    }
    flags |= if f & libc::ST_NOATIME != 0 {
        libc::MS_NOATIME
    } else if f & libc::ST_RELATIME != 0 {
        libc::MS_RELATIME
    } else {
        libc::MS_STRICTATIME
    };
    Ok(flags)
}

pub(super) fn c(path: &Path) -> io::Result<CString> {
    c_os(path.as_os_str())
}

fn c_os(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| io::Error::other(format!("{s:?} contains a NUL byte")))
}
