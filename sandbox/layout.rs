//! What a box shows its program, as plain data: the list of filesystem operations a keeper
//! applies in its fresh mount namespace to build the box's root, computed here on the runner's
//! side (where allocation and path handling are easy) and applied there with raw system calls.
//!
//! The root is a small read-only tmpfs holding:
//! - read-only binds of the system folders (`/usr`, `/lib`, `/lib64`, `/bin`, `/sbin`, `/etc`
//!   where they exist; symlinks such as `/bin -> usr/bin` are recreated as symlinks);
//! - `/dev` with null, zero, full, random and urandom (binds of the host's), and the usual
//!   fd, stdin, stdout, stderr symlinks into /proc;
//! - a fresh `/proc` for the box's PID namespace (processes of other users hidden);
//! - `/box`, the working folder, and `/tmp`, both writable, on one size-capped tmpfs;
//! - read-only binds of the program's own files (its executable, its `#!` interpreter and the
//!   absolute paths among its arguments), at the same paths as on the host, so messages and
//!   argv stay what the user typed. Binds need no search permission on the folders above the
//!   file, so files under a 0700 folder work for an unprivileged box user;
//! - an empty read-only tmpfs over each folder the program must not see (hidden.rs) inside a
//!   folder it is shown, a system folder or one of its own.
//!
//! Nothing else of the host is there: no fixtures, no home, no /root, no /run, no /sys.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

mod builder;

use builder::{c, Builder};

/// Where the new root is mounted in the keeper's mount namespace before it becomes `/`.
const NEW_ROOT: &str = "/tmp";
/// The working folder inside a box.
pub(crate) const WORKDIR: &str = "/box";
/// Host folders shown read-only, where they exist.
pub(crate) const SYSTEM_DIRS: [&str; 6] = ["usr", "lib", "lib64", "bin", "sbin", "etc"];
pub(crate) const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];
/// Paths never bound from the host, whatever a command line names.
const HIDDEN: [&str; 3] = ["/proc", "/dev", "/sys"];

/// One step of building a box root.
#[derive(Debug)]
pub(crate) enum Op {
    /// mkdir; an existing folder is fine.
    Mkdir {
        path: CString,
        mode: u32,
    },
    Chmod {
        path: CString,
        mode: u32,
    },
    Chown {
        path: CString,
        uid: u32,
        gid: u32,
    },
    Symlink {
        target: CString,
        path: CString,
    },
    /// Creates an empty file to bind a file onto.
    Touch {
        path: CString,
    },
    Mount {
        source: CString,
        target: CString,
        fstype: Option<CString>,
        flags: u64,
        data: Option<CString>,
        /// A failure is counted, not fatal.
        optional: bool,
    },
    /// Opens `path` as a bind source (O_PATH), before the new root can hide it; the `n`th
    /// such descriptor is the `n`th `Bind`'s source.
    OpenSource {
        path: CString,
    },
    /// Binds source number `source` (through /proc/self/fd: the descriptor needs no search
    /// permission on the folders above it).
    Bind {
        source: usize,
        target: CString,
        recursive: bool,
    },
    /// Opens the folder (kept to send to the runner).
    OpenScratch {
        path: CString,
    },
    Unmount {
        path: CString,
    },
    Rmdir {
        path: CString,
    },
    /// Makes `path` the root and drops the old one.
    PivotRoot {
        path: CString,
    },
}

impl Op {
    /// What this step does, for an error message: paths as the box shows them.
    pub(crate) fn describe(&self, all: &[Op]) -> String {
        let shown = |p: &CString| {
            let p = Path::new(std::ffi::OsStr::from_bytes(p.as_bytes()));
            let inside = p
                .strip_prefix(NEW_ROOT)
                .map_or(p.to_path_buf(), |rest| Path::new("/").join(rest));
            inside.display().to_string()
        };
        match self {
            Op::Mkdir { path, .. } => format!("making the folder {}", shown(path)),
            Op::Chmod { path, .. } | Op::Chown { path, .. } => {
                format!("setting the owner of {}", shown(path))
            }
            Op::Symlink { path, .. } => format!("making the link {}", shown(path)),
            Op::Touch { path } => format!("making the file {}", shown(path)),
            Op::Mount { target, .. } => format!("mounting {}", shown(target)),
            Op::OpenSource { path } => format!("opening {}", p_host(path)),
            Op::Bind { source, target, .. } => {
                let from = all
                    .iter()
                    .filter_map(|op| match op {
                        Op::OpenSource { path } => Some(p_host(path)),
                        _ => None,
                    })
                    .nth(*source)
                    .unwrap_or_default();
                format!("showing {from} at {}", shown(target))
            }
            Op::OpenScratch { .. } | Op::Unmount { .. } | Op::Rmdir { .. } => {
                "preparing the working folder".into()
            }
            Op::PivotRoot { .. } => "entering the box's root".into(),
        }
    }
}

fn p_host(path: &CString) -> String {
    String::from_utf8_lossy(path.as_bytes()).into_owned()
}

/// A file of the program's shown in the box: `source` on the host, bound at `target`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bind {
    pub source: PathBuf,
    pub target: PathBuf,
}

/// At most this many binds (system folders, devices and program files) in one box.
pub(crate) const MAX_SOURCES: usize = 96;

/// The system folders there are here, each with its canonical path (another one for a link,
/// such as `/bin -> usr/bin`), found once.
pub(crate) fn system_folders() -> &'static [(PathBuf, PathBuf)] {
    static FOUND: std::sync::OnceLock<Vec<(PathBuf, PathBuf)>> = std::sync::OnceLock::new();
    FOUND.get_or_init(|| {
        SYSTEM_DIRS
            .iter()
            .map(|dir| Path::new("/").join(dir))
            .filter_map(|path| Some((path.clone(), std::fs::canonicalize(&path).ok()?)))
            .collect()
    })
}

/// Whether a program sees `path` without a bind of its own: system folders, and the box's own
/// /proc and /dev (host paths there are never bound).
pub(crate) fn needs_bind(path: &Path) -> bool {
    let visible = SYSTEM_DIRS
        .iter()
        .any(|d| path.starts_with(Path::new("/").join(d)))
        || HIDDEN.iter().any(|d| path.starts_with(d));
    path.is_absolute() && path != Path::new("/") && !visible
}

/// `path` with `.` and `..` resolved lexically (the program resolves them the same way in the
/// box, where the folders on the way exist as plain folders).
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(part) => out.push(part),
            _ => {}
        }
    }
    out
}

/// The operations building a box root that shows `binds`, with `masks` (paths in the box)
/// showing empty folders, and a writable part of `scratch_bytes` whose working folder belongs
/// to `owner` (the box user, as root), shown read-only at /box when `read_only_workdir`.
pub(crate) fn build(
    binds: &[Bind],
    masks: &[PathBuf],
    scratch_bytes: u64,
    owner: Option<(u32, u32)>,
    read_only_workdir: bool,
) -> io::Result<Vec<Op>> {
    let mut b = Builder {
        ops: Vec::new(),
        sources: 0,
    };
    // Every source is opened first: the new root, mounted on /tmp, would hide those below it.
    let mut sources: Vec<PathBuf> = SYSTEM_DIRS
        .iter()
        .map(|d| Path::new("/").join(d))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .collect();
    sources.extend(DEVICES.iter().map(|d| Path::new("/dev").join(d)));
    sources.extend(binds.iter().map(|b| b.source.clone()));
    if sources.len() > MAX_SOURCES {
        return Err(io::Error::other(format!(
            "a box shows at most {MAX_SOURCES} files; this command line names {}",
            sources.len()
        )));
    }
    for source in &sources {
        b.push(Op::OpenSource { path: c(source)? });
    }
    let root = Path::new(NEW_ROOT);
    b.mount_tmpfs(root, "size=4m,nr_inodes=4096,mode=0755")?;
    for dir in SYSTEM_DIRS {
        let host = Path::new("/").join(dir);
        let Ok(meta) = std::fs::symlink_metadata(&host) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&host)?;
            b.push(Op::Symlink {
                target: c(&target)?,
                path: c(&root.join(dir))?,
            });
        } else if meta.is_dir() {
            b.mkdir(&root.join(dir), 0o755)?;
            b.bind_read_only(&host, &root.join(dir), true, false)?;
        }
    }
    b.mkdir(&root.join("dev"), 0o755)?;
    for device in DEVICES {
        let host = Path::new("/dev").join(device);
        b.push(Op::Touch {
            path: c(&root.join("dev").join(device))?,
        });
        b.bind(&host, &root.join("dev").join(device), false)?;
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
        ("shm", "/tmp"),
    ] {
        b.push(Op::Symlink {
            target: c(Path::new(target))?,
            path: c(&root.join("dev").join(name))?,
        });
    }
    b.mkdir(&root.join("proc"), 0o555)?;
    b.push(Op::Mount {
        source: c(Path::new("proc"))?,
        target: c(&root.join("proc"))?,
        fstype: Some(c(Path::new("proc"))?),
        flags: libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
        data: Some(c(Path::new("hidepid=2"))?),
        optional: true,
    });
    b.scratch(root, scratch_bytes, owner, read_only_workdir)?;
    for bind in binds {
        let target = root.join(bind.target.strip_prefix("/").unwrap_or(&bind.target));
        let is_dir = std::fs::metadata(&bind.source)?.is_dir();
        let mut parents: Vec<&Path> = target
            .ancestors()
            .skip(1)
            .take_while(|p| *p != root)
            .collect();
        parents.reverse();
        for parent in parents {
            b.mkdir(parent, 0o755)?;
        }
        if is_dir {
            b.mkdir(&target, 0o755)?;
        } else {
            b.push(Op::Touch { path: c(&target)? });
        }
        b.bind_read_only(&bind.source, &target, is_dir, true)?;
    }
    // Over the shown folders: what they hold that the program must never see, an empty folder
    // it can neither write nor unmount (it has no capabilities).
    for mask in masks {
        b.push(Op::Mount {
            source: c(Path::new("grundy-hidden"))?,
            target: c(&root.join(mask.strip_prefix("/").unwrap_or(mask)))?,
            fstype: Some(c(Path::new("tmpfs"))?),
            flags: libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            data: Some(c(Path::new("size=4k,nr_inodes=16,mode=0555"))?),
            optional: false,
        });
    }
    b.remount_read_only(root, libc::MS_NODEV)?;
    b.push(Op::PivotRoot { path: c(root)? });
    Ok(b.ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_paths_need_no_bind() {
        assert!(!needs_bind(Path::new("/usr/bin/python3")));
        assert!(!needs_bind(Path::new("/lib64/ld-linux-x86-64.so.2")));
        assert!(!needs_bind(Path::new("/proc/self/status")));
        assert!(!needs_bind(Path::new("/")));
        assert!(needs_bind(Path::new("/root/a.out")));
        assert!(needs_bind(Path::new("/libfoo/x")));
        assert!(needs_bind(Path::new("/tmp/x/sol.py")));
    }

    #[test]
    fn steps_are_described_as_the_box_shows_them() {
        let bind = Bind {
            source: PathBuf::from("/etc/hostname"),
            target: PathBuf::from("/home/u/a.out"),
        };
        let ops = build(&[bind], &[], 1 << 20, None, false).unwrap();
        let said: Vec<String> = ops.iter().map(|op| op.describe(&ops)).collect();
        assert!(
            said.contains(&"showing /etc/hostname at /home/u/a.out".to_string()),
            "{said:?}"
        );
        assert!(said.contains(&"mounting /proc".to_string()), "{said:?}");
    }

    #[test]
    fn a_hidden_folder_is_an_empty_read_only_mount_over_the_folder_shown() {
        let bind = Bind {
            source: PathBuf::from("/etc"),
            target: PathBuf::from("/home/u/project"),
        };
        let mask = PathBuf::from("/home/u/project/fixtures");
        let ops = build(&[bind], &[mask], 1 << 20, None, false).unwrap();
        let at = |target: &str| {
            ops.iter().position(
                |op| matches!(op, Op::Mount { target: t, .. } if t.as_bytes() == target.as_bytes()),
            )
        };
        let masked = at("/tmp/home/u/project/fixtures").expect("a mount over the hidden folder");
        let Op::Mount { fstype, flags, .. } = &ops[masked] else {
            unreachable!()
        };
        assert_eq!(fstype.as_deref(), Some(c"tmpfs"));
        assert_ne!(flags & libc::MS_RDONLY, 0, "read-only");
        let shown = at("/tmp/home/u/project").expect("the folder's read-only remount");
        assert!(shown < masked, "over the folder once it is shown");
        let root = ops.iter().position(|op| matches!(op, Op::PivotRoot { .. }));
        assert!(Some(masked) < root, "before the box's root is entered");
    }

    #[test]
    fn dot_dot_is_resolved_lexically() {
        assert_eq!(normalize(Path::new("/a/b/../c/./d")), Path::new("/a/c/d"));
        assert_eq!(normalize(Path::new("/../x")), Path::new("/x"));
    }
}
