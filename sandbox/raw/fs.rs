//! Paths and mounts: opening, folders, links, ownership, mount, unmount, pivot_root.

use std::ffi::CStr;
use std::ptr;

use super::{call, Res};

pub(crate) fn openat(dir: i32, path: &CStr, flags: i32, mode: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_openat, dir, path.as_ptr(), flags, mode) }
}

pub(crate) fn open(path: &CStr, flags: i32) -> Res {
    openat(libc::AT_FDCWD, path, flags | libc::O_CLOEXEC, 0)
}

pub(crate) fn chdir(path: &CStr) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_chdir, path.as_ptr()) }
}

pub(crate) fn mkdir(path: &CStr, mode: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_mkdirat, libc::AT_FDCWD, path.as_ptr(), mode) }
}

pub(crate) fn rmdir(path: &CStr) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe {
        sys!(
            libc::SYS_unlinkat,
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::AT_REMOVEDIR
        )
    }
}

pub(crate) fn symlink(target: &CStr, path: &CStr) -> Res {
    // SAFETY: both strings are NUL-terminated.
    unsafe {
        sys!(
            libc::SYS_symlinkat,
            target.as_ptr(),
            libc::AT_FDCWD,
            path.as_ptr()
        )
    }
}

pub(crate) fn chown(path: &CStr, uid: u32, gid: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe {
        sys!(
            libc::SYS_fchownat,
            libc::AT_FDCWD,
            path.as_ptr(),
            uid,
            gid,
            libc::AT_SYMLINK_NOFOLLOW
        )
    }
}

pub(crate) fn chmod(path: &CStr, mode: u32) -> Res {
    // SAFETY: path is NUL-terminated.
    unsafe { sys!(libc::SYS_fchmodat, libc::AT_FDCWD, path.as_ptr(), mode) }
}

/// mount(2); `fstype` and `data` may be absent.
pub(crate) fn mount(
    source: &CStr,
    target: &CStr,
    fstype: Option<&CStr>,
    flags: u64,
    data: Option<&CStr>,
) -> Res {
    let or_null = |s: Option<&CStr>| s.map_or(ptr::null(), CStr::as_ptr);
    // SAFETY: every pointer is a NUL-terminated string or null, as mount(2) allows.
    unsafe {
        sys!(
            libc::SYS_mount,
            source.as_ptr(),
            target.as_ptr(),
            or_null(fstype),
            flags,
            or_null(data)
        )
    }
}

pub(crate) fn umount_detach(target: &CStr) -> Res {
    // SAFETY: target is NUL-terminated.
    unsafe { sys!(libc::SYS_umount2, target.as_ptr(), libc::MNT_DETACH) }
}

pub(crate) fn pivot_root(new_root: &CStr, put_old: &CStr) -> Res {
    // SAFETY: both strings are NUL-terminated.
    unsafe { sys!(libc::SYS_pivot_root, new_root.as_ptr(), put_old.as_ptr()) }
}
