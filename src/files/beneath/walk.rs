//! Opening a path below a tree's root without leaving it: `openat2(RESOLVE_BENEATH)` where the
//! kernel has it, else a walk one name at a time with `O_NOFOLLOW`, each link read and its
//! target walked here (see the parent module's comment).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{Mode, OFlags, ResolveFlags};
use rustix::io::Errno;

use super::error::{Why, MAX_LINKS};

/// What an open is for; files and folders are opened for reading, anything to look at only.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    File,
    Folder,
    Anything,
}

impl Want {
    pub(super) fn flags(self) -> OFlags {
        match self {
            Want::Anything => OFlags::PATH | OFlags::CLOEXEC,
            Want::File | Want::Folder => {
                OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK
            }
        }
    }
}

/// Set once `openat2` turned out to be unavailable here, so the walk is used from then on.
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

/// Opens `relative` below `root` for `want`, without leaving it.
pub(super) fn open_beneath(
    root: BorrowedFd<'_>,
    relative: &Path,
    want: Want,
) -> Result<OwnedFd, Why> {
    if !NO_OPENAT2.load(Ordering::Relaxed) {
        let path = if relative.as_os_str().is_empty() {
            Path::new(".")
        } else {
            relative
        };
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(root, path, want.flags(), Mode::empty(), resolve) {
            Ok(fd) => return Ok(fd),
            // No such system call, or a seccomp profile refusing it.
            Err(Errno::NOSYS | Errno::PERM) => NO_OPENAT2.store(true, Ordering::Relaxed),
            // Leaving the root, too many links, or a rename racing the lookup: the walk tells
            // which link leads out, or opens what is there now.
            Err(Errno::XDEV | Errno::LOOP | Errno::AGAIN) => {}
            Err(errno) => return Err(Why::Io(errno.into())),
        }
    }
    walk(root, relative, want)
}

/// A link met on a walk: where it is (below the root) and what it says.
struct Link {
    at: PathBuf,
    target: PathBuf,
}

/// Opens `relative` below `root` one name at a time, never letting the kernel follow a link:
/// each link is read here and its target walked in its place, refused when it is absolute or
/// climbs above the root. Each `..` returns to the folder the walk came from, which is below
/// the root by construction.
pub(super) fn walk(root: BorrowedFd<'_>, relative: &Path, want: Want) -> Result<OwnedFd, Why> {
    // Names still to walk, each with the link whose target it comes from (for messages).
    let mut pending: VecDeque<(OsString, Option<usize>)> = VecDeque::new();
    push_front(&mut pending, relative, None).map_err(|()| Why::Outside)?;
    let mut links: Vec<Link> = vec![];
    // The folders walked into below the root, and their names.
    let mut folders: Vec<OwnedFd> = vec![];
    let mut names: Vec<OsString> = vec![];
    while let Some((name, via)) = pending.pop_front() {
        if name == ".." {
            if folders.pop().is_none() {
                return Err(match via {
                    Some(link) => Why::LinkOutside {
                        link: links[link].at.clone(),
                        target: links[link].target.clone(),
                    },
                    None => Why::Outside,
                });
            }
            names.pop();
            continue;
        }
        let folder = folders.last().map_or(root, |f| f.as_fd());
        let last = pending.is_empty();
        let flags = if last {
            want.flags()
        } else {
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC
        };
        let opened = rustix::fs::openat(folder, &*name, flags | OFlags::NOFOLLOW, Mode::empty());
        // A link shows as ELOOP when opened for reading, ENOTDIR when a folder is wanted, and as
        // itself when opened as a path.
        let maybe_link = match &opened {
            Err(Errno::LOOP | Errno::NOTDIR) => true,
            Ok(fd) => flags.contains(OFlags::PATH) && is_link(fd),
            Err(_) => false,
        };
        if maybe_link {
            if let Ok(target) = rustix::fs::readlinkat(folder, &*name, Vec::new()) {
                let at: PathBuf = names.iter().chain([&name]).collect();
                let target = PathBuf::from(OsString::from_vec(target.into_bytes()));
                if links.len() == MAX_LINKS {
                    return Err(Why::TooManyLinks);
                }
                links.push(Link { at, target });
                let link = links.len() - 1;
                push_front(&mut pending, &links[link].target, Some(link)).map_err(|()| {
                    Why::AbsoluteLink {
                        link: links[link].at.clone(),
                        target: links[link].target.clone(),
                    }
                })?;
                continue;
            }
        }
        let fd = opened.map_err(|errno| Why::Io(errno.into()))?;
        if last {
            return Ok(fd);
        }
        folders.push(fd);
        names.push(name);
    }
    // The path ended on a folder reached by `..` (or was empty): open where the walk stands.
    let folder = folders.last().map_or(root, |f| f.as_fd());
    rustix::fs::openat(folder, ".", want.flags(), Mode::empty()).map_err(|e| Why::Io(e.into()))
}

/// Puts the names of `path` before the pending ones; an absolute path is refused.
fn push_front(
    pending: &mut VecDeque<(OsString, Option<usize>)>,
    path: &Path,
    via: Option<usize>,
) -> Result<(), ()> {
    for component in path.components().rev() {
        match component {
            Component::Normal(name) => pending.push_front((name.to_owned(), via)),
            Component::ParentDir => pending.push_front(("..".into(), via)),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return Err(()),
        }
    }
    Ok(())
}

fn is_link(fd: &OwnedFd) -> bool {
    rustix::fs::fstat(fd)
        .is_ok_and(|stat| rustix::fs::FileType::from_raw_mode(stat.st_mode).is_symlink())
}
